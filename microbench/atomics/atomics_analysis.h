/* Analysis of the atomics probe: pure, for the host check of the counts.
 * Which counter each thread's adds land on, and how many adds the most
 * contended counter receives (the exact-count limit of fp32 and int32). */
#ifndef GP_ATOMICS_ANALYSIS_H
#define GP_ATOMICS_ANALYSIS_H

#include <stddef.h>

/* Counter index of global thread `gid` in mode `mode` (GP_ATOM_*): for LDS,
 * the slot in its block's copy (block-major in the output); for global
 * memory, the element of the counters buffer, as the kernels index it. */
size_t gp_atomics_slot(int lds, int mode, size_t gid, int block, int wave);

/* Adds per iteration landing on the most contended counter. */
double gp_atomics_adds_per_address(int lds, int mode, double grid, int block, int wave);

#endif
