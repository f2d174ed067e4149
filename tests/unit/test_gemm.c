/* gemm on the CPU: the reference on hand cases in both layouts, problem and
 * argument checks before any device call, configuration fitting, parameters
 * from every shipped table, the rule and its per-shape step, the shapes'
 * syntax and the table section's legality. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data.h"
#include "gemm.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "rule.h"

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_gemm_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_gemm, t, dev, NULL, 0, p, note, sizeof note);
}

GP_TEST(gemm_ref_hand)
{
    /* A = [1 2; 3 4] (2x2), B = [5 6 7; 8 9 10] (2x3): A B = [21 24 27; 47 54 61]. */
    const float a[4] = {1, 2, 3, 4}, b[6] = {5, 6, 7, 8, 9, 10};
    const float want[6] = {21, 24, 27, 47, 54, 61};
    float c[6] = {1, 1, 1, 1, 1, 1};
    gp_gemm_problem q = {GP_GEMM_ROW_MAJOR, 0, 0, 2, 3, 2, 1.0f, 0.0f, 2, 3, 3};
    gp_gemm_ref_f32(&q, a, b, c);
    GP_CHECK(!memcmp(c, want, sizeof want));
    /* alpha 2, beta -1 on C = 1. */
    float c2[6] = {1, 1, 1, 1, 1, 1};
    q.alpha = 2, q.beta = -1;
    gp_gemm_ref_f32(&q, a, b, c2);
    for (int i = 0; i < 6; i++)
        GP_CHECK(c2[i] == 2 * want[i] - 1);
    /* Column-major, A^T B^T with the same memory: op(A) = A^T is [1 3; 2 4]
     * read column-major from {1, 2, 3, 4} as [1 3; 2 4]^T... : check one
     * element by hand.  A col-major 2x2 = [1 3; 2 4]; A^T = [1 2; 3 4].
     * B col-major 3x2 (ldb 3) = [5 8; 6 9; 7 10]; B^T = [5 6 7; 8 9 10].
     * So C (2x3, col-major) = A^T B^T = the row-major result above. */
    gp_gemm_problem r = {GP_GEMM_COL_MAJOR, 1, 1, 2, 3, 2, 1.0f, 0.0f, 2, 3, 2};
    float c3[6];
    gp_gemm_ref_f32(&r, a, b, c3);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            GP_CHECK(c3[j * 2 + i] == want[i * 3 + j]);
    return 0;
}

GP_TEST(gemm_bad_input_before_device)
{
    gp_gemm_params p;
    memset(&p, 0, sizeof p);
    p.tile_m = 128, p.tile_n = 128, p.tile_k = 8, p.block = 256;
    gp_gemm_params_fit(&p, NULL);
    GP_CHECK(p.config == 0 && !p.note[0]);
    float a[64] = {0}, b[64] = {0}, c[64] = {0};
    gp_gemm_problem ok = {GP_GEMM_ROW_MAJOR, 0, 0, 4, 4, 4, 1.0f, 0.0f, 4, 4, 4};
    gp_gemm_problem bad[] = {
        {GP_GEMM_ROW_MAJOR, 0, 0, 0, 4, 4, 1.0f, 0.0f, 4, 4, 4},  /* m = 0 */
        {GP_GEMM_ROW_MAJOR, 0, 0, 4, 4, 4, 1.0f, 0.0f, 3, 4, 4},  /* lda < k */
        {GP_GEMM_ROW_MAJOR, 1, 0, 4, 5, 4, 1.0f, 0.0f, 4, 5, 4},  /* ldc < n */
        {GP_GEMM_COL_MAJOR, 0, 1, 4, 4, 4, 1.0f, 0.0f, 4, 3, 4},  /* ldb < n (B^T stored n x k) */
        {GP_GEMM_ROW_MAJOR, 2, 0, 4, 4, 4, 1.0f, 0.0f, 4, 4, 4},  /* trans 2 */
        {(gp_gemm_layout)5, 0, 0, 4, 4, 4, 1.0f, 0.0f, 4, 4, 4},   /* layout */
        /* column-major runs as C^T: n = 9e6 would be 140625 row tiles of 64 (the grid holds 65535) */
        {GP_GEMM_COL_MAJOR, 0, 0, 1, 9000000, 1, 1.0f, 0.0f, 1, 1, 1},
        {GP_GEMM_ROW_MAJOR, 0, 0, 9000000, 1, 1, 1.0f, 0.0f, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = gp_gemm_f32(&bad[i], a, b, c, &p, NULL, 0, NULL);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "gemm"));
    }
    GP_CHECK(gp_gemm_f32(&ok, NULL, b, c, &p, NULL, 0, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_gemm_f32(&ok, a, b, a + 8, &p, NULL, 0, NULL).code == GP_ERR_USAGE); /* C overlaps A */
    gp_gemm_params unfit = p;
    unfit.config = 9;
    GP_CHECK(gp_gemm_f32(&ok, a, b, c, &unfit, NULL, 0, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_gemm_f32(&ok, a, b, c, &p, NULL, 0, NULL).code != GP_ERR_USAGE); /* reaches the launcher */
    gp_gemm_problem tall = {GP_GEMM_COL_MAJOR, 0, 0, 9000000, 1, 1, 1.0f, 0.0f, 9000000, 1, 9000000};
    GP_CHECK(gp_gemm_check_problem(&tall).code == GP_OK); /* column-major: 9e6 rows of C, the launch's columns */
    return 0;
}

GP_TEST(gemm_params_fit_and_tables)
{
    gp_gemm_params p;
    memset(&p, 0, sizeof p);
    p.tile_m = 64, p.tile_n = 128, p.tile_k = 8, p.block = 256; /* not compiled */
    gp_gemm_params_fit(&p, NULL);
    GP_CHECK(p.note[0] && p.config >= 0 && p.config < GP_GEMM_NCONFIGS);
    GP_CHECK(gp_gemm_lds_bytes(128, 128, 8) == 2 * 8 * (256 + 8) * 4);
    static const char *const tables[] = {"tables/generic", "tables/sm_90", "tables/sm_80", "tables/gfx900"};
    for (size_t i = 0; i < 4; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_table(tables[i], &t));
        GP_CHECK(from_table(&t, NULL, &p).code == GP_OK);
        /* The shipped tables name a compiled configuration exactly. */
        GP_CHECK(!p.note[0]);
    }
    return 0;
}

GP_TEST(gemm_rule)
{
    gp_table t;
    long long tm, tn, tk, blk;
#define GET()                                                                                                  \
    (gp_table_get_int(&t, "kernel.gemm", "tile_m", &tm).code == GP_OK &&                                       \
     gp_table_get_int(&t, "kernel.gemm", "tile_n", &tn).code == GP_OK &&                                       \
     gp_table_get_int(&t, "kernel.gemm", "tile_k", &tk).code == GP_OK &&                                       \
     gp_table_get_int(&t, "kernel.gemm", "block", &blk).code == GP_OK)
    /* NVIDIA: the warp-tiled 128x256x8/256 (most FMAs per loaded byte, one
     * block an SM); AMD lacks it: the quadrant 128x128x8/256. */
    static const char *const with_facts[] = {"tables/sm_90", "tables/sm_80", "tables/gfx900"};
    for (int i = 0; i < 3; i++) {
        GP_CHECK(gp_test_load_table(with_facts[i], &t));
        GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
        GP_CHECK(GET() && tm == 128 && tn == (i < 2 ? 256 : 128) && tk == 8 && blk == 256);
        GP_CHECK(gp_table_validate(&t, "rule output").code == GP_OK);
    }
    /* LDS per CU too small for two 128x128 blocks: the 64x64 tile. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_cu", 20000, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(GET() && tm == 64 && tn == 64 && tk == 8 && blk == 64);
    /* A slow LDS (200 cycles): a k-step of 8 no longer covers 16 latencies per
     * barrier; 16 does, where two 128x128x16/256 blocks fit (168 registers a
     * thread, its ptxas bound: 86016 a CU, so 98304 here).  On 65536 no tile
     * passes: the first in LDS, and the provenance says so. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "lds", "latency_cycles", 200, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(GET() && tm == 128 && tn == 256 && tk == 8);
    GP_CHECK(strstr(gp_table_find(&t, "kernel.gemm", "tile_k")->prov, "no tile passes all"));
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 98304, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(GET() && tm == 128 && tk == 16);
    /* Too few registers per thread for any compiled tile: the first tile the
     * LDS holds in the rule's order (it spills, it does not fail), and the
     * provenance says so. */
    GP_CHECK(gp_table_set(&t, "registers", "per_thread_max", 96, "measured register_limits 2026-11-21").code ==
             GP_OK);
    gp_status st = gp_test_rule(gp_gemm_rule, &t);
    GP_CHECK(st.code == GP_OK && GET() && tm == 128 && tn == 256 && tk == 8 && blk == 256);
    const gp_table_entry *e = gp_table_find(&t, "kernel.gemm", "tile_m");
    GP_CHECK(e && strstr(e->prov, "no tile passes all") && strstr(e->prov, "exceeds per_thread_max"));
    /* LDS per block below the smallest compiled tile: refused, naming the fact. */
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_block", 8192, "measured lds 2026-11-21").code == GP_OK);
    st = gp_test_rule(gp_gemm_rule, &t);
    GP_CHECK(st.code == GP_ERR_UNSUPPORTED && strstr(st.msg, "[lds] bytes_per_block"));
    /* The generic table lacks facts (wave size, LDS latency): the stand-ins,
     * named in the provenance. */
    GP_CHECK(gp_test_load_table("tables/generic", &t));
    st = gp_test_rule(gp_gemm_rule, &t);
    GP_CHECK(st.code == GP_OK && GET() && tm == 128 && tn == 128 && tk == 8 && blk == 256);
    e = gp_table_find(&t, "kernel.gemm", "tile_k");
    GP_CHECK(e && strstr(e->prov, "device.wave_size none") && strstr(e->prov, "latency 64 (none: 64)"));
#undef GET
    return 0;
}

/* Tiles per target (gemm.h masks): 128x128x16 is compiled for NVIDIA only
 * (AMD's clang spills it past 256 VGPRs); fit, the rule and the tuning
 * candidates offer only what the device's target has. */
GP_TEST(gemm_tiles_per_target)
{
    static const char *const amd[] = {"gfx900", "gfx90a", "gfx940", "gfx1030", "gfx1100"};
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.lds_per_block = 65536;
    gp_gemm_params p;
    for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
        snprintf(d.arch, sizeof d.arch, "%s", amd[i]);
        memset(&p, 0, sizeof p);
        p.tile_m = 128, p.tile_n = 128, p.tile_k = 16, p.block = 256;
        gp_gemm_params_fit(&p, &d);
        GP_CHECK(p.config >= 0 && p.tile_k == 8 && gp_gemm_config_on(p.config, gp_target_reg_class(amd[i])));
        GP_CHECK(strstr(p.note, "not compiled for") && strstr(p.note, amd[i]));
        /* The k-step 8 tiles are there as named. */
        memset(&p, 0, sizeof p);
        p.tile_m = 64, p.tile_n = 64, p.tile_k = 8, p.block = 64;
        gp_gemm_params_fit(&p, &d);
        GP_CHECK(p.config == 3 && !p.note[0]);
    }
    snprintf(d.arch, sizeof d.arch, "sm_90");
    memset(&p, 0, sizeof p);
    p.tile_m = 128, p.tile_n = 128, p.tile_k = 16, p.block = 256;
    gp_gemm_params_fit(&p, &d);
    GP_CHECK(p.config == 1 && !p.note[0]);

    /* The rule: a slow LDS wants the 16-deep slab; an AMD target has none. */
    gp_table t;
    long long tk = 0;
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_table_set(&t, "lds", "latency_cycles", 200, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_k", &tk).code == GP_OK && tk == 8);
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "lds", "latency_cycles", 200, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 98304, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_k", &tk).code == GP_OK && tk == 16);

    /* The sweep's candidates: the variants, fitted to the device. */
    const gp_kernel *k = gp_kernel_find("gemm");
    GP_CHECK(k && k->variants && k->nvariants == GP_GEMM_NCONFIGS + 4);
    for (int v = 0; v < 2; v++) {
        int seen[GP_GEMM_NCONFIGS] = {0}, n = 0, k16 = 0;
        gp_gemm_params base, q;
        snprintf(d.arch, sizeof d.arch, "%s", v ? "sm_90" : "gfx1100");
        GP_CHECK(gp_test_load_table("tables/generic", &t));
        GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
        GP_CHECK(from_table(&t, &d, &base).code == GP_OK);
        for (int c = 0; c < k->nvariants; c++) {
            gp_kernel_variant(k, c, &base, &d, &q);
            GP_CHECK(q.config >= 0 && gp_gemm_config_on(q.config, gp_target_reg_class(d.arch)));
            n += !seen[q.config], k16 += !seen[q.config] && q.tile_k == 16;
            seen[q.config] = 1;
        }
        /* sm_90: the 6 NVIDIA configurations (the warp-tiled two among
         * them), the table's tile one of them; gfx1100: the 3 of every
         * class. */
        GP_CHECK(n == (v ? 6 : 3) && seen[base.config]);
        GP_CHECK(k16 == v);
    }
    /* The variants are the compiled configurations, in their order, at the rule's split and stream-K; then the
     * rule's tile plain, and 128x256 with k in 2 and in 4, and with stream-K. */
    for (int c = 0; c < GP_GEMM_NCONFIGS; c++)
        GP_CHECK(!memcmp(k->variants + c * k->nparams, gp_gemm_configs[c], 4 * sizeof(int)) &&
                 k->variants[c * k->nparams + 4] == GP_PARAM_KEEP && k->variants[c * k->nparams + 5] == GP_PARAM_KEEP);
    static const int splits[4] = {1, 2, 4, 1}, sks[4] = {0, 0, 0, 1};
    for (int c = GP_GEMM_NCONFIGS; c < k->nvariants; c++)
        GP_CHECK(k->variants[c * k->nparams] == (c == GP_GEMM_NCONFIGS ? GP_PARAM_KEEP : 128) &&
                 k->variants[c * k->nparams + 4] == splits[c - GP_GEMM_NCONFIGS] &&
                 k->variants[c * k->nparams + 5] == sks[c - GP_GEMM_NCONFIGS]);
    return 0;
}

/* The warp-tiled tiles (thread tile 8 x 16, NVIDIA only): 128x128x8/128 a
 * tune candidate, 128x256x8/256 the rule's NVIDIA tile at one block an SM,
 * where the quadrant tiles still need two. */
GP_TEST(gemm_warp_tiled_rule)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.lds_per_block = 49152;
    gp_gemm_params p;
    snprintf(d.arch, sizeof d.arch, "sm_90");
    static const int wt[2][4] = {{128, 128, 8, 128}, {128, 256, 8, 256}};
    for (int i = 0; i < 2; i++) {
        memset(&p, 0, sizeof p);
        p.tile_m = wt[i][0], p.tile_n = wt[i][1], p.tile_k = wt[i][2], p.block = wt[i][3];
        gp_gemm_params_fit(&p, &d);
        GP_CHECK(p.config == 4 + i && !p.note[0] && p.tile_n == wt[i][1] && p.block == wt[i][3]);
        GP_CHECK(GP_GEMM_THREAD_TILE(p.tile_m, p.tile_n, p.block) == 8 * 16); /* warp-tiled */
    }
    GP_CHECK(gp_gemm_lds_bytes(128, 256, 8) == 2 * 8 * (384 + 8) * 4);
    /* The tree's tile still reads as the 8 x 8 quadrant kernel. */
    p.tile_m = 128, p.tile_n = 128, p.tile_k = 8, p.block = 256;
    gp_gemm_params_fit(&p, &d);
    GP_CHECK(p.config == 0 && GP_GEMM_THREAD_TILE(p.tile_m, p.tile_n, p.block) == 8 * 8);
    /* AMD does not compile them: the nearest compiled, named. */
    snprintf(d.arch, sizeof d.arch, "gfx90a");
    for (int i = 0; i < 2; i++) {
        memset(&p, 0, sizeof p);
        p.tile_m = wt[i][0], p.tile_n = wt[i][1], p.tile_k = wt[i][2], p.block = wt[i][3];
        gp_gemm_params_fit(&p, &d);
        GP_CHECK(p.config >= 0 && p.config < 4 && strstr(p.note, "not compiled for gfx90a"));
    }

    /* The rule on the NVIDIA tables: 128x256x8/256 at 1 block/CU, naming
     * its per-problem fallback. */
    gp_table t;
    long long tm, tn, tk, blk;
    static const char *const nv[] = {"tables/sm_90", "tables/sm_80"};
    for (int i = 0; i < 2; i++) {
        GP_CHECK(gp_test_load_table(nv[i], &t));
        GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_n", &tn).code == GP_OK && tn == 256);
        const gp_table_entry *e = gp_table_find(&t, "kernel.gemm", "block");
        GP_CHECK(e && strstr(e->prov, " 1 blocks/CU") && strstr(e->prov, "per problem the fastest of 4 tiles"));
        GP_CHECK(gp_gemm_blocks_per_cu(&t, 5) == 1 && gp_gemm_blocks_per_cu(&t, 0) == 2);
    }
    /* 40000 registers a CU, at the kernels' ptxas bounds: no 128x256 block
     * (255 x 256) and no 128x128x16/256 (168 x 256), one 128x128x8/256 (128 x
     * 256) or 128x64x8/128 (168 x 128), which need two; three of 64x64x8/64
     * (168 x 64): the rule takes 64x64. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 40000, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_m", &tm).code == GP_OK &&
             gp_table_get_int(&t, "kernel.gemm", "tile_n", &tn).code == GP_OK &&
             gp_table_get_int(&t, "kernel.gemm", "tile_k", &tk).code == GP_OK &&
             gp_table_get_int(&t, "kernel.gemm", "block", &blk).code == GP_OK);
    GP_CHECK(tm == 64 && tn == 64 && tk == 8 && blk == 64);
    GP_CHECK(!strstr(gp_table_find(&t, "kernel.gemm", "tile_m")->prov, "no tile passes all"));
    /* 50000: two 128x64x8/128 blocks; 65536: one 128x256 block fits, enough
     * for the warp-tiled tile. */
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 50000, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_n", &tn).code == GP_OK && tn == 64);
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 65536, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.gemm", "tile_n", &tn).code == GP_OK && tn == 256);
    /* AMD: not compiled there, not named. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_test_rule(gp_gemm_rule, &t).code == GP_OK);
    const gp_table_entry *e = gp_table_find(&t, "kernel.gemm", "block");
    GP_CHECK(e && !strstr(e->prov, "tune candidate") && !strstr(e->prov, "per problem"));
    return 0;
}

/* The per-problem step on the H200 (132 SMs, the sm_90 table) against the
 * measured shapes (docs/kernels/gemm.md, "Per-problem tile"): 4096^3,
 * 8192^3 and 8192 x 8192 x 256 keep 128x256; 4095 x 4097 x 1023 (544
 * blocks, 5 an SM, and 4-byte loads: x 0.85) runs 128x128x8/256 (1056
 * blocks, 8 an SM at 2 a round), as measured (0.697 against 0.811 of
 * cuBLAS); 1024^3 (32 blocks of 128x256) runs 128x64x8/128, measured 1.90x
 * on the H100. */
/* The H200 as fit sees it (132 SMs and the limits its occupancy reads). */
static gp_device_info h200(void)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.arch, sizeof d.arch, "sm_90");
    d.lds_per_block = 49152, d.compute_units = 132;
    d.wave_size = 32, d.regs_per_cu = 65536, d.lds_per_cu = 233472, d.max_threads_per_cu = 2048;
    return d;
}

GP_TEST(gemm_plan_per_problem)
{
    gp_table t;
    gp_device_info d = h200();
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_gemm_params p;
    GP_CHECK(from_table(&t, &d, &p).code == GP_OK);
    GP_CHECK(p.config == 5 && p.cus == 132 && p.blocks_cu[5] == 1 && p.blocks_cu[0] == 2);
    GP_CHECK(p.blocks_cu[1] == 1 && p.blocks_cu[2] == 3);
    GP_CHECK(fabs(GP_GEMM_FALLBACK_D - 0.816) < 0.001 && fabs(GP_GEMM_LD4_LOSS - 0.150) < 0.001);
    /* want[layout]: column-major runs the row-major C^T, whose grid for the
     * odd shape is 33 x 16 = 528 blocks, 4 an SM (0.85 with 4-byte loads:
     * 4.71 against 128x128x8/256's 8 / 2 / 0.816 = 4.90): it keeps 128x256. */
    static const struct {
        int m, n, k, want[2];
    } shapes[] = {{4096, 4096, 4096, {5, 5}}, {8192, 8192, 8192, {5, 5}}, {4095, 4097, 1023, {0, 5}},
                  {8192, 8192, 256, {5, 5}},  {1024, 1024, 1024, {2, 2}}, {257, 4097, 513, {1, 1}}};
    static const char *const ran[6] = {"ran 128x128x8/256", "ran 128x128x16/256", "ran 128x64x8/128", "", "",
                                       "ran 128x256x8/256"};
    char why[160];
    for (int i = 0; i < 6; i++)
        for (int layout = 0; layout < 2; layout++) {
            gp_gemm_problem q = {(gp_gemm_layout)layout, 0, 0, shapes[i].m, shapes[i].n, shapes[i].k, 1.0f, 0.0f,
                                 0, 0, 0};
            q.lda = layout ? q.m : q.k, q.ldb = layout ? q.k : q.n, q.ldc = layout ? q.m : q.n;
            const int got = gp_gemm_plan(&q, &p, 1, why, sizeof why);
            if (got != shapes[i].want[layout])
                fprintf(stderr, "%dx%dx%d layout %d: %s\n", q.m, q.n, q.k, layout, why);
            GP_CHECK(got == shapes[i].want[layout]);
            GP_CHECK(strstr(why, ran[got]));
        }
    gp_gemm_problem odd = {GP_GEMM_ROW_MAJOR, 0, 0, 4095, 4097, 1023, 1.0f, 0.0f, 1023, 4097, 4097};
    GP_CHECK(gp_gemm_plan(&odd, &p, 1, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "1056 blocks, 2 a CU, time 4.90 vs 128x256's 5.88 (544 blocks, ld 0.85)"));
    /* By hand: 5 blocks an SM / 0.85; 8 an SM in rounds of 2 at 0.816. */
    long long b;
    GP_CHECK(fabs(gp_gemm_plan_time(&odd, &p, 5, 1, &b) - 5 / (1 - GP_GEMM_LD4_LOSS)) < 1e-9 && b == 544);
    GP_CHECK(fabs(gp_gemm_plan_time(&odd, &p, 0, 1, &b) - 8 * 0.5 / GP_GEMM_RATE_CFG0) < 1e-9 && b == 1056);
    /* A remainder round of 1 block of 3: its rate (1/3)^0.425 of the full. */
    gp_gemm_problem sq = {GP_GEMM_ROW_MAJOR, 0, 0, 1024, 1024, 1024, 1.0f, 0.0f, 1024, 1024, 1024};
    GP_CHECK(fabs(gp_gemm_plan_time(&sq, &p, 2, 1, &b) - 0.25 / (GP_GEMM_RATE_CFG2 * pow(1.0 / 3, 0.425))) < 1e-9);
    GP_CHECK(b == 128);
    /* The same odd grid with 16-byte loadable rows: 5 against 4.90, inside
     * the 3 % margin: 128x256; misaligned pointers lose it again. */
    odd.lda = 1024, odd.ldb = 4100, odd.ldc = 4100;
    GP_CHECK(gp_gemm_plan(&odd, &p, 1, why, sizeof why) == 5);
    GP_CHECK(gp_gemm_plan(&odd, &p, 0, why, sizeof why) == 0);
    /* Only B misaligned (2/3 of the slab loads): 5 / 0.90 = 5.56 > 4.90 x 1.03. */
    odd.ldb = 4097;
    GP_CHECK(gp_gemm_plan(&odd, &p, 1, NULL, 0) == 0);
    /* Only A (1/3): 5 / 0.95 = 5.26 > 5.05. */
    odd.lda = 1023, odd.ldb = 4100;
    GP_CHECK(gp_gemm_plan(&odd, &p, 1, NULL, 0) == 0);
    /* A tiny problem: one block whatever the tile; the smallest tile's is
     * the least work. */
    gp_gemm_problem tiny = {GP_GEMM_ROW_MAJOR, 0, 0, 3, 5, 7, 1.0f, 0.0f, 7, 5, 5};
    GP_CHECK(gp_gemm_plan(&tiny, &p, 1, why, sizeof why) == 2);
    /* Without the CU count, or another table tile: as fitted, no note. */
    gp_gemm_params q0 = p;
    q0.cus = 0;
    GP_CHECK(gp_gemm_plan(&odd, &q0, 1, why, sizeof why) == 5 && !why[0]);
    q0 = p, q0.config = 4;
    GP_CHECK(gp_gemm_plan(&odd, &q0, 1, why, sizeof why) == 4 && !why[0]);
    /* AMD (gfx900 table): 128x128x8/256, no step. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    snprintf(d.arch, sizeof d.arch, "gfx900");
    d.compute_units = 64;
    GP_CHECK(from_table(&t, &d, &p).code == GP_OK && p.config == 0);
    odd.lda = 1023, odd.ldb = 4097;
    GP_CHECK(gp_gemm_plan(&odd, &p, 1, why, sizeof why) == 0 && !why[0]);
    return 0;
}

/* The rule takes the per-problem step for the shape it is given: on the
 * sm_90 table the odd row-major product falls back to 128x128x8/256 (waves
 * and 4-byte rows), its column-major twin (whole waves) and the headline
 * keep 128x256, the headline with stream-K over its partial last wave,
 * through gp_kernel_params as a launch does. */
GP_TEST(gemm_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_gemm_rule(&in, &ruled).code == GP_OK);
    gp_shape head, odd, odd_col;
    GP_CHECK(gp_kernel_gemm.shape_parse("4096x4096x4096 NN row-major", &head).code == GP_OK);
    GP_CHECK(gp_kernel_gemm.shape_parse("4095x4097x1023", &odd).code == GP_OK);
    GP_CHECK(gp_kernel_gemm.shape_parse("4095x4097x1023 col-major", &odd_col).code == GP_OK);
    gp_gemm_params ph, po, pc;
    char note[160];
    GP_CHECK(gp_kernel_params(&gp_kernel_gemm, &ruled, NULL, &head, 0, &ph, note, sizeof note).code == GP_OK);
    if (!(ph.config == 5 && ph.split_k == 1 && ph.stream_k == 1))
        fprintf(stderr, "4096^3: config %d split %d stream-K %d (%s)\n", ph.config, ph.split_k, ph.stream_k, note);
    GP_CHECK(ph.config == 5 && ph.split_k == 1 && ph.stream_k == 1); /* 3 waves and 116 tiles shared out */
    GP_CHECK(gp_kernel_params(&gp_kernel_gemm, &ruled, NULL, &odd, 0, &po, note, sizeof note).code == GP_OK);
    GP_CHECK(po.config == 0 && po.tile_n == 128 && strstr(note, "tile_n 256->128"));
    GP_CHECK(gp_kernel_params(&gp_kernel_gemm, &ruled, NULL, &odd_col, 0, &pc, note, sizeof note).code == GP_OK);
    GP_CHECK(pc.config == 5);
    /* The rule's own provenance names the step. */
    static gp_table out;
    out = t;
    gp_rule_in sin = {&t, &odd, 0};
    GP_CHECK(gp_gemm_rule(&sin, &out).code == GP_OK);
    const gp_table_entry *e = gp_table_find(&out, "kernel.gemm", "tile_n");
    GP_CHECK(e && e->i == 128 && strstr(e->prov, "4095x4097x1023: ran 128x128x8/256") &&
             strstr(e->prov, "per-problem step of 128x256x8/256"));
    /* gfx900 has no per-problem step: the shape keeps the table's tile. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_kernel_params(&gp_kernel_gemm, &t, NULL, &odd, 0, &po, note, sizeof note).code == GP_OK);
    GP_CHECK(po.config == 0 && po.tile_n == 128);
    return 0;
}

/* The rule on facts t for the shape spec, into out; its [kernel.gemm] entry key (NULL where the rule or the
 * shape fails). */
static const gp_table_entry *rule_for(const gp_table *t, const char *spec, const char *key, gp_table *out)
{
    gp_shape s;
    *out = *t;
    if (gp_kernel_gemm.shape_parse(spec, &s).code != GP_OK)
        return NULL;
    gp_rule_in in = {t, &s, 0};
    return gp_gemm_rule(&in, out).code == GP_OK ? gp_table_find(out, "kernel.gemm", key) : NULL;
}

/* Split k: the pieces of whole k-steps, the workspace's bytes in the launched (row-major) problem's rows, and
 * gp_gemm_f32 refusing a missing, short, misaligned or overlapping workspace before any launch. */
GP_TEST(gemm_split_workspace)
{
    GP_CHECK(gp_gemm_split_kc(511, 3, 8) == 176 && gp_gemm_split_kc(511, 8, 8) == 64);
    GP_CHECK(gp_gemm_split_kc(511, 1, 8) == 512 && gp_gemm_split_kc(45, 3, 8) == 16 && gp_gemm_split_kc(19, 3, 8) == 8);
    GP_CHECK(gp_gemm_split_ld(5) == 8 && gp_gemm_split_ld(8) == 8 && gp_gemm_split_ld(1) == 4);
    gp_gemm_params p;
    memset(&p, 0, sizeof p);
    p.tile_m = 128, p.tile_n = 128, p.tile_k = 8, p.block = 256, p.split_k = 3;
    gp_gemm_params_fit(&p, NULL);
    /* The quadrant kernel does not split: fit says so. */
    GP_CHECK(p.config == 0 && p.split_k == 1 && strstr(p.note, "split_k 3 -> 1"));
    p.tile_n = 256, p.split_k = 1, p.note[0] = 0;
    gp_gemm_params_fit(&p, NULL);
    GP_CHECK(p.config == 5 && !p.note[0]);
    /* 4 x 5 x 40 at 3 splits: kc 16, 3 pieces of 4 rows x 8 floats. */
    gp_gemm_problem q = {GP_GEMM_ROW_MAJOR, 0, 0, 4, 5, 40, 1.0f, 0.0f, 40, 5, 5};
    p.split_k = 1;
    GP_CHECK(gp_gemm_workspace_bytes(&q, &p) == 0);
    p.split_k = 3;
    GP_CHECK(gp_gemm_workspace_bytes(&q, &p) == 3 * 4 * 8 * 4);
    gp_gemm_problem qc = {GP_GEMM_COL_MAJOR, 0, 0, 4, 5, 40, 1.0f, 0.0f, 4, 40, 4};
    GP_CHECK(gp_gemm_workspace_bytes(&qc, &p) == 3 * 5 * 4 * 4); /* C^T: 5 rows of 4 */
    /* k 7 in one k-step: no piece to split. */
    gp_gemm_problem shallow = q;
    shallow.k = 7, shallow.lda = 7;
    GP_CHECK(gp_gemm_workspace_bytes(&shallow, &p) == 0);
    static float a[160], b[200], c[20], w[128];
    const size_t need = 3 * 4 * 8 * 4;
    gp_status st = gp_gemm_f32(&q, a, b, c, &p, NULL, 0, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "384 bytes") && strstr(st.msg, "none given"));
    st = gp_gemm_f32(&q, a, b, c, &p, w, need - 4, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "fewer given"));
    GP_CHECK(gp_gemm_f32(&q, a, b, c, &p, w + 1, need, NULL).code == GP_ERR_USAGE);          /* 4 bytes off 16 */
    GP_CHECK(gp_gemm_f32(&q, a, b, c, &p, (float *)b + 4, need, NULL).code == GP_ERR_USAGE);  /* overlaps B */
    GP_CHECK(gp_gemm_f32(&q, a, b, c, &p, w, need, NULL).code != GP_ERR_USAGE);               /* reaches the launcher */
    GP_CHECK(gp_gemm_f32(&shallow, a, b, c, &p, NULL, 0, NULL).code != GP_ERR_USAGE);         /* nothing to split */
    return 0;
}

/* The split's model on the H200 (the sm_90 table's facts): 1023 x 1025 x 511, 72 blocks of 128x128x16 for 132
 * SMs (64.7 us measured, 0.55x cuBLAS), splits k; the headline and the products that fill the SMs do not; with a
 * fact none nothing splits. */
GP_TEST(gemm_split_model)
{
    gp_table t;
    gp_device_info d = h200();
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_gemm_params p;
    GP_CHECK(from_table(&t, &d, &p).code == GP_OK && p.config == 5);
    const gp_gemm_split_facts f = {124.94, 1.98e9, 4341.6e9, 4.93e-6};
    char why[200];
    int split;
    gp_gemm_problem small = {GP_GEMM_ROW_MAJOR, 0, 0, 1023, 1025, 511, 1.0f, 0.0f, 511, 1025, 1025};
    /* Unsplit the model reproduces the measured time: 0.706 units x 511 x 32768 / (124.94 x 1.98 GHz x 0.736). */
    const double t1 = gp_gemm_split_time(&small, &p, &f, 1, 1);
    GP_CHECK(t1 > 63e-6 && t1 < 67e-6);
    int cfg = gp_gemm_plan_split(&small, &p, &f, &split, NULL, why, sizeof why);
    fprintf(stderr, "1023x1025x511: cfg %d split %d: %s\n", cfg, split, why);
    GP_CHECK(cfg == 5 && split == 3 && strstr(why, "k in 3 pieces: 120 blocks"));
    /* By hand: 1 block an SM, 176 deep, its loads 4-byte (lda 511, ldb 1025: x 0.85); 3 slices of 1023 x 1028
     * written and read; one launch. */
    const double unit = 32768.0 / (124.94 * 1.98e9 * GP_GEMM_RATE_PEAK);
    GP_CHECK(fabs(gp_gemm_split_time(&small, &p, &f, 5, 3) -
                  (176 * unit / (1 - GP_GEMM_LD4_LOSS) + 2.0 * 3 * 1023 * 1028 * 4 / 4341.6e9 + 4.93e-6)) < 1e-12);
    static const int keep[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 256}, {2048, 2048, 2048}};
    for (int i = 0; i < 4; i++) {
        gp_gemm_problem q = {GP_GEMM_ROW_MAJOR, 0, 0, keep[i][0], keep[i][1], keep[i][2], 1.0f, 0.0f, keep[i][2],
                             keep[i][1], keep[i][1]};
        cfg = gp_gemm_plan_split(&q, &p, &f, &split, NULL, why, sizeof why);
        GP_CHECK(cfg == 5 && split == 1);
    }
    const gp_gemm_split_facts none = {124.94, 1.98e9, 0, 4.93e-6};
    GP_CHECK(gp_gemm_plan_split(&small, &p, &none, &split, NULL, why, sizeof why) == 1 && split == 1);
    GP_CHECK(gp_gemm_plan_split(&small, &p, NULL, &split, NULL, why, sizeof why) == 1 && split == 1);
    /* Through the rule and the one path: the shape's parameters carry the split, and the provenance says why. */
    static gp_table out;
    const gp_table_entry *e = rule_for(&t, "1023x1025x511", "split_k", &out);
    GP_CHECK(e && e->i == 3 && strstr(e->prov, "k in 3 pieces"));
    gp_rule_in head = {&t, NULL, 0};
    out = t;
    GP_CHECK(gp_gemm_rule(&head, &out).code == GP_OK);
    e = gp_table_find(&out, "kernel.gemm", "split_k");
    GP_CHECK(e && e->i == 1);
    return 0;
}

/* The shares' second segments in launch order: every share once, longest first (the kernel's own arithmetic for
 * the lengths), on the H200's 132 and the A100's 108 SMs and shares that divide, or not, into the tiles. */
GP_TEST(gemm_stream_k_order)
{
    static const int cases[][3] = {{116, 512, 132}, {68, 1024, 132}, {6, 138, 132}, {66, 512, 132},
                                   {100, 300, 108}, {1, 500, 7}, {131, 7, 132}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int sk = cases[i][0], nk = cases[i][1], g = cases[i][2];
        const long long iters = (long long)sk * nk;
        unsigned short order[GP_GEMM_SK_MAX_BLOCKS];
        int seen[GP_GEMM_SK_MAX_BLOCKS] = {0}, prev = 1 << 30, ok = 1;
        gp_gemm_sk_order(sk, g, order);
        for (int j = 0; j < g; j++) {
            const int c = order[j];
            const long long s0 = c * iters / g, s1 = (c + 1) * iters / g;
            const int rest = (int)(s1 - (s0 / nk + 1) * nk), len = rest > 0 ? rest : 0;
            ok &= c < g && !seen[c]++ && len <= prev;
            prev = len;
        }
        if (!ok)
            fprintf(stderr, "sk %d, nk %d, %d blocks: the order is not every share, longest second segment first\n",
                    sk, nk, g);
        GP_CHECK(ok);
    }
    return 0;
}

/* Stream-K on the H200 (132 SMs): 4096^3 is 512 tiles, 3 whole waves and 116 tiles shared out (512 k-steps
 * each: 450 a block), 8192^3 15 waves and 68; at the shares' measured rate (0.96) the model takes it for 4096^3,
 * 8192^3 and 6144 x 6144 x 4096, not for 2048^3 (one wave of 128 tiles) or the odd product; fit turns it off where the
 * kernel lacks it, and the workspace is 2 tile-sized slots a block. */
GP_TEST(gemm_stream_k)
{
    gp_gemm_sk_shape sh;
    GP_CHECK(gp_gemm_sk_plan(4096, 4096, 4096, 128, 256, 8, 132, &sh) == 1);
    GP_CHECK(sh.tiles_x == 16 && sh.dp_tiles == 396 && sh.sk_tiles == 116 && sh.nk == 512);
    GP_CHECK(gp_gemm_sk_plan(8192, 8192, 8192, 128, 256, 8, 132, &sh) == 1 && sh.dp_tiles == 1980 && sh.sk_tiles == 68);
    GP_CHECK(gp_gemm_sk_plan(3072, 5632, 4096, 128, 256, 8, 132, &sh) == 0); /* 528 tiles: whole waves */
    GP_CHECK(gp_gemm_sk_plan(300, 300, 8, 128, 256, 8, 132, &sh) == 0);       /* 6 k-steps for 132 blocks */
    GP_CHECK(gp_gemm_sk_plan(257, 263, 1100, 128, 256, 8, 132, &sh) == 1 && sh.dp_tiles == 0 && sh.sk_tiles == 6);
    gp_table t;
    gp_device_info d = h200();
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_gemm_params p;
    GP_CHECK(from_table(&t, &d, &p).code == GP_OK && p.config == 5 && p.stream_k == 0);
    const gp_gemm_split_facts f = {124.94, 1.98e9, 4341.6e9, 4.93e-6};
    char why[160];
    static const struct {
        int m, n, k, ta, tb, want;
    } shapes[] = {{4096, 4096, 4096, 0, 0, 1}, {8192, 8192, 8192, 0, 0, 1}, {2048, 2048, 2048, 0, 0, 0},
                  {3072, 5632, 4096, 0, 0, 0}, {6144, 6144, 4096, 0, 0, 1}, {4095, 4097, 1023, 0, 0, 0}};
    /* 4096^3: 3 + 116 / 132 / 0.96 = 3.92 rounds, and the parts, against 4; 2048^3: 128 / 132 / 0.96 rounds
     * against 1; 4095 x 4097 x 1023: 128x128x8/256 by the plan. */
    for (int i = 0; i < 6; i++) {
        gp_gemm_problem q = {GP_GEMM_ROW_MAJOR, shapes[i].ta, shapes[i].tb, shapes[i].m, shapes[i].n, shapes[i].k,
                             1.0f, 0.0f, shapes[i].ta ? shapes[i].m : shapes[i].k, shapes[i].n, shapes[i].n};
        int split, got = -1;
        gp_gemm_plan_split(&q, &p, &f, &split, &got, why, sizeof why);
        if (got != shapes[i].want)
            fprintf(stderr, "%dx%dx%d: stream-K %d\n", q.m, q.n, q.k, got);
        GP_CHECK(got == shapes[i].want);
    }
    /* 4096^3 by hand: 3 + 116/132 rounds of a 4096-deep tile, the shares' at GP_GEMM_SK_RATE, 4 slots a block, one launch. */
    gp_gemm_problem head = {GP_GEMM_ROW_MAJOR, 0, 0, 4096, 4096, 4096, 1.0f, 0.0f, 4096, 4096, 4096};
    const double round = 32768.0 * 4096 / (124.94 * 1.98e9 * GP_GEMM_RATE_PEAK);
    GP_CHECK(fabs(gp_gemm_sk_time(&head, &p, &f) - ((3 + 116.0 / 132 / GP_GEMM_SK_RATE) * round +
                                                    4.0 * 132 * 32768 * 4 / 4341.6e9 + 4.93e-6)) < 1e-12);
    gp_gemm_problem big = {GP_GEMM_ROW_MAJOR, 0, 0, 8192, 8192, 8192, 1.0f, 0.0f, 8192, 8192, 8192};
    int split, sk = 0;
    GP_CHECK(gp_gemm_plan_split(&big, &p, &f, &split, &sk, why, sizeof why) == 5 && split == 1 && sk == 1 &&
             strstr(why, "stream-K over the last wave"));
    p.stream_k = 1;
    GP_CHECK(gp_gemm_workspace_bytes(&head, &p) == gp_gemm_sk_bytes(132, 128, 256)); /* asked for: it applies */
    GP_CHECK(gp_gemm_sk_bytes(132, 128, 256) == (size_t)2 * 132 * 32768 * 4);
    gp_gemm_problem tn = head;
    tn.trans_a = 1;
    GP_CHECK(gp_gemm_workspace_bytes(&tn, &p) == 0); /* the generic kernel: no stream-K */
    /* Fit: another tile, or k split, turns it off and says so. */
    gp_gemm_params q = p;
    q.tile_n = 128, q.note[0] = 0;
    gp_gemm_params_fit(&q, &d);
    GP_CHECK(q.config == 0 && q.stream_k == 0 && strstr(q.note, "stream_k 1 -> 0"));
    /* Through the rule: 8192^3 takes it, with its reason. */
    static gp_table out;
    const gp_table_entry *e = rule_for(&t, "8192x8192x8192", "stream_k", &out);
    GP_CHECK(e && e->i == 1 && strstr(e->prov, "stream-K over the last wave"));
    return 0;
}

/* The bench labels and a user's --shape read back as written. */
GP_TEST(gemm_shape_syntax)
{
    const gp_kernel *k = &gp_kernel_gemm;
    static const char *const labels[] = {"4096x4096x4096 NN row-major", "4095x4097x1023 NN row-major",
                                         "512x256x64 TN col-major ld 80/520/516", "3x5x7 NT row-major"};
    char buf[128];
    gp_shape s;
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        GP_CHECK(k->shape_parse(labels[i], &s).code == GP_OK);
        k->shape_label(&s, buf, sizeof buf);
        GP_CHECK(!strcmp(buf, labels[i]));
    }
    GP_CHECK(k->shape_parse("512x256x64 TN col-major ld 80/520/516", &s).code == GP_OK);
    GP_CHECK(s.opt[GP_GEMM_OPT_LAYOUT] == GP_GEMM_COL_MAJOR && s.opt[GP_GEMM_OPT_TRANS_A] == 1 &&
             s.opt[GP_GEMM_OPT_TRANS_B] == 0 && s.d[GP_GEMM_LDB] == 520);
    gp_gemm_problem q;
    GP_CHECK(k->shape_parse("17x33x9 TT col-major", &s).code == GP_OK);
    gp_gemm_problem_of_shape(&s, 1, 0, &q);
    GP_CHECK(q.lda == 9 && q.ldb == 33 && q.ldc == 17 && gp_gemm_check_problem(&q).code == GP_OK);
    gp_status st = k->shape_parse("4096x4096 NN", &s);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "4096x4096 NN") && strstr(st.msg, "MxNxK"));
    GP_CHECK(k->shape_parse("8x8x8 NX", &s).code == GP_ERR_USAGE);
    /* Every case gemm runs has a label its parser reads back. */
    static gp_kcase c[GP_KCASE_MAX];
    int n = k->cases(GP_CASES_VERIFY, NULL, NULL, 0, c, GP_KCASE_MAX);
    int nv = k->cases(GP_CASES_VARIANT, NULL, NULL, 0, c + n, GP_KCASE_MAX - n);
    GP_CHECK(n == 64 && nv == 21 && n + nv * GP_GEMM_NCONFIGS == 190);
    for (int i = 0; i < n + nv; i++) {
        gp_shape r;
        k->shape_label(&c[i].shape, buf, sizeof buf);
        GP_CHECK(k->shape_parse(buf, &r).code == GP_OK && !memcmp(&r, &c[i].shape, sizeof r));
        gp_gemm_problem_of_shape(&c[i].shape, 1, 0, &q);
        GP_CHECK(gp_gemm_check_problem(&q).code == GP_OK);
    }
    return 0;
}

/* A launch must be legal on any GPU: gemm checks its section
 * (gp_kernel.check_table) before it is read. */
GP_TEST(gemm_table_section_is_legal)
{
    static gp_table t;
    gp_gemm_params p;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_kernel_check_tables(&t, "sm_90").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.gemm", "tile_k", 64, "swept gemm").code == GP_OK);
    gp_status st = gp_kernel_check_tables(&t, "t");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "exceeds 48 KiB of LDS"));
    GP_CHECK(from_table(&t, NULL, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_table_set(&t, "kernel.gemm", "tile_k", 8, "swept gemm").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.gemm", "block", 64, "swept gemm").code == GP_OK); /* 512 accumulators */
    st = gp_kernel_check_tables(&t, "t");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "exceeds 256"));
    return 0;
}

/* The bench's exact check (gemm_ref.c): integer data, all of C for a small product (the gaps of a wider ldc not
 * C), the corners first for a big one; an element off by one is named. */
GP_TEST(gemm_bench_check)
{
    gp_shape sh = {{5, 3, 4, 0, 0, 7}, {GP_GEMM_COL_MAJOR, 1, 0}};
    gp_gemm_problem q;
    gp_gemm_problem_of_shape(&sh, 2, 1, &q);
    float a[20], b[12], c[19], cin[19];
    gp_gemm_checked chk[15];
    uint64_t rng = 5;
    GP_CHECK(gp_gemm_a_elems(&q) == 20 && gp_gemm_b_elems(&q) == 12 && gp_gemm_c_elems(&q) == 19);
    gp_fill_ints_f32(a, 20, 2, &rng), gp_fill_ints_f32(b, 12, 2, &rng), gp_fill_ints_f32(cin, 19, 2, &rng);
    for (int i = 0; i < 20; i++)
        GP_CHECK(a[i] == (float)(int)a[i] && a[i] >= -2 && a[i] <= 2);
    GP_CHECK(gp_gemm_sample_size(&q) == 15);
    gp_gemm_ref_sample(&q, a, b, cin, &rng, chk);
    memcpy(c, cin, sizeof c);
    gp_gemm_ref_f32(&q, a, b, c);
    c[5] = c[13] = 99.0f; /* rows 5 and 6 of the columns of ldc 7: not C */
    GP_CHECK(gp_gemm_check_exact("gemm", &q, c, chk, 15).code == GP_OK);
    c[2 * 7 + 4] += 1.0f;
    gp_status e = gp_gemm_check_exact("gemm", &q, c, chk, 15);
    GP_CHECK(e.code == GP_ERR_CHECK && strstr(e.msg, "C(4, 2)") != NULL);
    /* 1024 x 512 x 512 = 2^28 multiply-adds: a sample, the corners first. */
    gp_shape big = {{1024, 512, 512}, {0}};
    gp_gemm_problem_of_shape(&big, 1, 0, &q);
    float *z = calloc(1024 * 512, sizeof *z);
    gp_gemm_checked *s = malloc(516 * sizeof *s);
    GP_CHECK(z && s && gp_gemm_sample_size(&q) == 516);
    gp_gemm_ref_sample(&q, z, z, NULL, &rng, s);
    GP_CHECK(s[0].i == 0 && s[0].j == 0 && s[1].i == 1023 && s[2].j == 511 && s[3].i == 1023 && s[3].j == 511);
    free(z), free(s);
    return 0;
}
