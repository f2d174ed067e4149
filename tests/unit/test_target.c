/* Register classes by target name (platform/gp_target.h): the host's half of
 * the rule whose device half is gp_device.h's GP_REG_CLASS (__GFX11__ is the
 * 128-VGPR class); the kernels pick their compiled shapes by it. */
#include "gp_target.h"
#include "gp_test_table.h"
#include "rule.h"
#include "gp_test.h"

GP_TEST(target_reg_class_by_name)
{
    static const char *const nv[] = {"sm_80", "sm_90", "sm_100"};
    static const char *const amd256[] = {"gfx900", "gfx906", "gfx90a", "gfx940", "gfx942", "gfx1030", "gfx1010",
                                         "gfx90a:sramecc+:xnack-"};
    static const char *const amd128[] = {"gfx1100", "gfx1101", "gfx1102", "gfx1100:xnack-"};
    static const char *const none[] = {"", "generic", "gfx", "gfxabc", "sm_", "smx_90", "gfx9"};
    for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++)
        GP_CHECK(gp_target_reg_class(nv[i]) == GP_REGS_NV);
    for (size_t i = 0; i < sizeof amd256 / sizeof amd256[0]; i++)
        GP_CHECK(gp_target_reg_class(amd256[i]) == GP_REGS_256);
    for (size_t i = 0; i < sizeof amd128 / sizeof amd128[0]; i++)
        GP_CHECK(gp_target_reg_class(amd128[i]) == GP_REGS_128);
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        GP_CHECK(gp_target_reg_class(none[i]) == 0);
    GP_CHECK(gp_target_reg_class(NULL) == 0);
    GP_CHECK(gp_target_reg_budget(GP_REGS_NV) == 255 && gp_target_reg_budget(GP_REGS_256) == 256 &&
             gp_target_reg_budget(GP_REGS_128) == 128 && gp_target_reg_budget(0) == 0);
    return 0;
}

/* The bulk copy engine (gp_bulk_load) by target name: NVIDIA sm_90 on. */
GP_TEST(target_bulk_copy_by_name)
{
    GP_CHECK(gp_target_has_bulk_copy("sm_90") && gp_target_has_bulk_copy("sm_90a") &&
             gp_target_has_bulk_copy("sm_100") && gp_target_has_bulk_copy("sm_120"));
    GP_CHECK(!gp_target_has_bulk_copy("sm_80") && !gp_target_has_bulk_copy("sm_89") &&
             !gp_target_has_bulk_copy("sm_9") && !gp_target_has_bulk_copy("gfx90a") &&
             !gp_target_has_bulk_copy("gfx940") && !gp_target_has_bulk_copy("") &&
             !gp_target_has_bulk_copy("sm_") && !gp_target_has_bulk_copy(NULL));
    return 0;
}

GP_TEST(target_lds_block_reserve_by_name)
{
    GP_CHECK(gp_target_lds_block_reserve("sm_80") == 1024 && gp_target_lds_block_reserve("sm_90") == 1024);
    GP_CHECK(gp_target_lds_block_reserve("gfx900") == 0 && gp_target_lds_block_reserve("gfx90a:xnack-") == 0 &&
             gp_target_lds_block_reserve("gfx1100") == 0 && gp_target_lds_block_reserve("") == 0 &&
             gp_target_lds_block_reserve("sm_") == 0 && gp_target_lds_block_reserve(NULL) == 0);
    return 0;
}

/* Resident threads a CU: gfx90a and gfx94x SIMDs hold 8 waves (2048 threads
 * a CU), not gfx900's 10 (2560); the occupancy model reads it by arch. */
GP_TEST(target_threads_per_cu_by_name)
{
    GP_CHECK(gp_target_threads_per_cu("gfx900") == 2560 && gp_target_threads_per_cu("gfx906") == 2560 &&
             gp_target_threads_per_cu("gfx908") == 2560);
    GP_CHECK(gp_target_threads_per_cu("gfx90a") == 2048 && gp_target_threads_per_cu("gfx90a:sramecc+:xnack-") == 2048 &&
             gp_target_threads_per_cu("gfx940") == 2048 && gp_target_threads_per_cu("gfx942") == 2048);
    GP_CHECK(gp_target_threads_per_cu("sm_80") == 2048 && gp_target_threads_per_cu("sm_90") == 2048);
    GP_CHECK(gp_target_threads_per_cu("gfx1030") == 0 && gp_target_threads_per_cu("gfx1100") == 0 &&
             gp_target_threads_per_cu("none") == 0 && gp_target_threads_per_cu(NULL) == 0);
    /* Through the rules' occupancy facts: gfx900's table as a gfx90a's. */
    static gp_table t;
    gp_rule_cu cu;
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_rule_cu_facts(&t, "test", &cu).code == GP_OK && cu.max_threads_cu == 2560);
    GP_CHECK(gp_table_set_text(&t, "device", "arch", "gfx90a", "published test").code == GP_OK);
    GP_CHECK(gp_rule_cu_facts(&t, "test", &cu).code == GP_OK && cu.max_threads_cu == 2048);
    /* 256-thread blocks at 32 registers: 10 a gfx900 CU holds by registers,
     * 8 by gfx90a's waves. */
    GP_CHECK(gp_rule_blocks_per_cu(&cu, 256, 16, 0) == 8);
    return 0;
}
