/* The atomics probe's pure part: where each thread's adds land, as the
 * kernels index them (atomics.hip), and the adds on the busiest counter. */
#include "atomics.h"
#include "atomics_analysis.h"
#include "gp_test.h"

GP_TEST(atomics_slots_follow_the_kernels)
{
    /* Global: spread is one counter per 128-byte line, wave mode one per wave. */
    GP_CHECK(gp_atomics_slot(0, GP_ATOM_SPREAD, 3, 256, 32) == 3 * GP_ATOM_LINE_ELEMS);
    GP_CHECK(gp_atomics_slot(0, GP_ATOM_WAVE, 70, 256, 32) == 2 * GP_ATOM_LINE_ELEMS);
    GP_CHECK(gp_atomics_slot(0, GP_ATOM_WAVE, 70, 256, 64) == 1 * GP_ATOM_LINE_ELEMS);
    GP_CHECK(gp_atomics_slot(0, GP_ATOM_ALL, 12345, 256, 32) == 0);
    GP_CHECK(gp_atomics_slot(0, GP_ATOM_COALESCED, 77, 256, 32) == 77);
    /* LDS: each block's copy, written block-major. */
    GP_CHECK(gp_atomics_slot(1, GP_ATOM_SPREAD, 256 + 5, 256, 32) == 256 + 5);
    GP_CHECK(gp_atomics_slot(1, GP_ATOM_WAVE, 256 + 65, 256, 32) == 256 + 2);
    GP_CHECK(gp_atomics_slot(1, GP_ATOM_ALL, 2 * 256 + 200, 256, 32) == 2 * 256);
    return 0;
}

GP_TEST(atomics_adds_on_the_busiest_counter)
{
    GP_CHECK(gp_atomics_adds_per_address(0, GP_ATOM_SPREAD, 1000, 256, 32) == 1);
    GP_CHECK(gp_atomics_adds_per_address(0, GP_ATOM_WAVE, 1000, 256, 64) == 64);
    GP_CHECK(gp_atomics_adds_per_address(0, GP_ATOM_ALL, 1000, 256, 32) == 256000);
    GP_CHECK(gp_atomics_adds_per_address(1, GP_ATOM_ALL, 1000, 256, 32) == 256);
    return 0;
}
