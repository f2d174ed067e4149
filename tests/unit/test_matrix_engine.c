/* matrix_engine's pure analysis (microbench/matrix_engine/
 * matrix_engine_analysis.c): FLOP per instruction shape, rates from time
 * and clock, the latency of a chain, the choice of a precision's peak
 * among its paths, the `none` reasons per target, the one-CU block sizes;
 * and the vendors' dense matrix figures in specs/ as the datasheet reads
 * them. */
#include <math.h>
#include <string.h>

#include "gp_test.h"
#include "matrix_engine.h"
#include "matrix_engine_analysis.h"
#include "specs.h"

/* The instruction shapes the kernels issue, against the vendors' per-clock
 * figures: an A100 SM does 1024 dense fp16 multiply-adds a clock (312
 * TFLOPS / 108 SMs / 1.41 GHz), i.e. one m16n8k16 every 2 cycles per SM. */
GP_TEST(mma_flops_per_instruction_shape)
{
    GP_CHECK(gp_mma_flops_per_inst(16, 8, 16) == 4096);   /* mma.sync f16/bf16 */
    GP_CHECK(gp_mma_flops_per_inst(16, 8, 8) == 2048);    /* mma.sync tf32 */
    GP_CHECK(gp_mma_flops_per_inst(16, 8, 32) == 8192);   /* mma.sync s8, e4m3 */
    GP_CHECK(gp_mma_flops_per_inst(64, 256, 16) == 524288); /* wgmma m64n256k16 f16/bf16 */
    GP_CHECK(gp_mma_flops_per_inst(64, 256, 8) == 262144);  /* wgmma m64n256k8 tf32 */
    GP_CHECK(gp_mma_flops_per_inst(64, 256, 32) == 1048576); /* wgmma m64n256k32 s8, e4m3 */
    GP_CHECK(gp_mma_flops_per_inst(32, 32, 8) == 16384);  /* MFMA 32x32x8 f16 */
    GP_CHECK(gp_mma_flops_per_inst(16, 16, 16) == 8192);  /* WMMA 16x16x16 */
    GP_CHECK(gp_mma_flops_per_inst(0, 8, 16) == 0);
    GP_CHECK(gp_mma_flops_per_inst(16, -8, 16) == 0);
    return 0;
}

GP_TEST(mma_rate_from_time_and_clock)
{
    /* 132 SMs x 4096 FLOP/cycle for 10 ms at 1830 MHz: 989.4 TFLOPS, the
     * H100 SXM dense fp16 figure. */
    double ops = 132.0 * 4096 * 1830e6 * 10e-3;
    GP_CHECK_NEAR(gp_mma_per_cycle(ops, 10.0, 1830) / 132, 4096, 1e-6);
    GP_CHECK_NEAR(gp_mma_tflops(ops, 10.0), 989.4, 0.1);
    GP_CHECK(isnan(gp_mma_per_cycle(ops, 0, 1830)));
    GP_CHECK(isnan(gp_mma_per_cycle(ops, 10, 0)));
    GP_CHECK(isnan(gp_mma_tflops(ops, -1)));
    /* 1000 dependent instructions in 20 us at 1500 MHz: 30 cycles each. */
    GP_CHECK_NEAR(gp_mma_latency_cycles(0.02, 1500, 1000), 30, 1e-9);
    GP_CHECK(isnan(gp_mma_latency_cycles(0.02, 1500, 0)));
    return 0;
}

GP_TEST(mma_choose_peak_between_paths)
{
    const double both[2] = {2100, 3800}; /* mma.sync below wgmma on Hopper */
    GP_CHECK(gp_mma_choose_peak(both, 2) == 1);
    const double only_mma[2] = {1024, NAN}; /* no wgmma: sm_80, AMD */
    GP_CHECK(gp_mma_choose_peak(only_mma, 2) == 0);
    const double tie[2] = {512, 512};
    GP_CHECK(gp_mma_choose_peak(tie, 2) == 0);
    const double none[3] = {NAN, 0, -1};
    GP_CHECK(gp_mma_choose_peak(none, 3) == -1);
    GP_CHECK(gp_mma_choose_peak(none, 0) == -1);
    const double inf[2] = {INFINITY, 10};
    GP_CHECK(gp_mma_choose_peak(inf, 2) == 1);
    return 0;
}

/* The wgmma ops: which ops they are, and the precision each one's rate
 * competes for in [matrix] (record_peaks takes the faster of the ops
 * gp_mma_precision maps to a precision). */
GP_TEST(mma_wgmma_ops_and_their_precisions)
{
    static const int wg[][2] = {{GP_MMA_WGMMA_FP16, GP_MMA_FP16}, {GP_MMA_WGMMA_BF16, GP_MMA_BF16},
                                {GP_MMA_WGMMA_TF32, GP_MMA_TF32}, {GP_MMA_WGMMA_INT8, GP_MMA_INT8},
                                {GP_MMA_WGMMA_FP8, GP_MMA_FP8}};
    const int nwg = (int)(sizeof wg / sizeof wg[0]);
    GP_CHECK(GP_MMA_NWGMMA == nwg);
    for (int i = 0; i < nwg; i++) {
        GP_CHECK(gp_mma_is_wgmma(wg[i][0]));
        GP_CHECK(gp_mma_precision(wg[i][0]) == wg[i][1]);
        GP_CHECK(!gp_mma_is_wgmma(wg[i][1]));
        GP_CHECK(gp_mma_precision(wg[i][1]) == wg[i][1]);
    }
    GP_CHECK(!gp_mma_is_wgmma(GP_MMA_FP32) && !gp_mma_is_wgmma(-1) && !gp_mma_is_wgmma(GP_MMA_NOPS));
    /* Paths per precision: fp32 one (MFMA), every other mma.sync and wgmma. */
    int paths[GP_MMA_NOPS] = {0};
    for (int op = 0; op < GP_MMA_NOPS; op++) {
        int p = gp_mma_precision(op);
        GP_CHECK(p >= GP_MMA_FP16 && p <= GP_MMA_FP8);
        if (p >= 0 && p < GP_MMA_NOPS)
            paths[p]++;
    }
    GP_CHECK(paths[GP_MMA_FP32] == 1);
    GP_CHECK(paths[GP_MMA_FP16] == 2 && paths[GP_MMA_BF16] == 2 && paths[GP_MMA_TF32] == 2);
    GP_CHECK(paths[GP_MMA_INT8] == 2 && paths[GP_MMA_FP8] == 2);
    GP_CHECK(gp_mma_precision(-1) == -1 && gp_mma_precision(GP_MMA_NOPS) == -1);
    return 0;
}

/* Each `none` says why for that target, not a generic line. */
GP_TEST(mma_none_reasons_name_the_target)
{
    GP_CHECK(strstr(gp_mma_none_reason("sm_80", GP_MMA_FP8), "sm_89"));
    GP_CHECK(strstr(gp_mma_none_reason("sm_90", GP_MMA_FP32), "tf32"));
    GP_CHECK(strstr(gp_mma_none_reason("sm_90", GP_MMA_WGMMA_FP16), "sm_90a"));
    GP_CHECK(strstr(gp_mma_none_reason("sm_80", GP_MMA_WGMMA_BF16), "sm_90a"));
    GP_CHECK(strstr(gp_mma_none_reason("gfx900", GP_MMA_FP16), "no matrix unit"));
    GP_CHECK(strstr(gp_mma_none_reason("gfx1030", GP_MMA_INT8), "no matrix unit"));
    GP_CHECK(strstr(gp_mma_none_reason("gfx90a", GP_MMA_FP8), "CDNA2"));
    GP_CHECK(strstr(gp_mma_none_reason("gfx1100", GP_MMA_TF32), "RDNA3"));
    GP_CHECK(strstr(gp_mma_none_reason("gfx90a", GP_MMA_WGMMA_FP16), "AMD"));
    for (int op = GP_MMA_WGMMA_FIRST; op < GP_MMA_NOPS; op++) {
        GP_CHECK(strstr(gp_mma_none_reason("sm_90", op), "sm_90a"));
        GP_CHECK(strstr(gp_mma_none_reason("sm_89", op), "sm_90a only"));
        GP_CHECK(strstr(gp_mma_none_reason("gfx942", op), "AMD"));
    }
    GP_CHECK(strstr(gp_mma_none_reason("xyz", GP_MMA_FP16), "unknown"));
    return 0;
}

GP_TEST(mma_block_sizes_grow_by_issuing_group)
{
    int s[32];
    static const int warps[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    int n = gp_mma_block_sizes(32, 1024, s, 32);
    GP_CHECK(n == (int)(sizeof warps / sizeof warps[0]));
    for (int i = 0; i < n; i++)
        GP_CHECK(s[i] == warps[i]);
    /* Warpgroups: 128, 256, 384, 512, 768, 1024 threads. */
    n = gp_mma_block_sizes(128, 1024, s, 32);
    GP_CHECK(n == 6 && s[0] == 128 && s[2] == 384 && s[5] == 1024);
    /* AMD wave64: 1..4 waves, 6, 8, 12, 16. */
    n = gp_mma_block_sizes(64, 1024, s, 32);
    GP_CHECK(n == 8 && s[4] == 384 && s[7] == 1024);
    GP_CHECK(gp_mma_block_sizes(64, 32, s, 32) == 0);
    GP_CHECK(gp_mma_block_sizes(0, 1024, s, 32) == 0);
    GP_CHECK(gp_mma_block_sizes(32, 1024, s, 3) == 3);
    return 0;
}

/* The dense matrix figures of the shipped specs, as the datasheet takes
 * them: FLOP/s, and the H200's fp16 the H100 SXM's (the same die). */
GP_TEST(mma_specs_dense_matrix_figures)
{
    char dir[1024];
    GP_CHECK(gp_test_source_path(dir, sizeof dir, "specs"));
    gp_spec h200, h100, mi300;
    int f1 = 0, f2 = 0, f3 = 0;
    GP_CHECK(gp_spec_find(dir, "NVIDIA H200", &h200, &f1).code == GP_OK && f1);
    GP_CHECK(gp_spec_find(dir, "NVIDIA H100 80GB HBM3", &h100, &f2).code == GP_OK && f2);
    GP_CHECK(gp_spec_find(dir, "AMD Instinct MI300X", &mi300, &f3).code == GP_OK && f3);
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_FP16_MATRIX_TFLOPS), 989.4e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h200, GP_SPEC_FP16_MATRIX_TFLOPS), gp_spec_value(&h100, GP_SPEC_FP16_MATRIX_TFLOPS),
                  0.2e12);
    GP_CHECK(gp_spec_value(&h200, GP_SPEC_FP32_MATRIX_TFLOPS) == 0); /* none published: no fp32 tensor input */
    /* The figures the wgmma tf32, int8 and fp8 paths are compared with: the
     * H100 SXM's whitepaper values, the H200's (the same die) half its
     * datasheet's sparse ones. */
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_TF32_MATRIX_TFLOPS), 494.7e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_INT8_MATRIX_TOPS), 1978.9e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_FP8_MATRIX_TFLOPS), 1978.9e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h200, GP_SPEC_TF32_MATRIX_TFLOPS), 494.5e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h200, GP_SPEC_INT8_MATRIX_TOPS), 1979e12, 1e9);
    GP_CHECK_NEAR(gp_spec_value(&h200, GP_SPEC_FP8_MATRIX_TFLOPS), 1979e12, 1e9);
    /* Per SM and clock at the 1830 MHz those figures imply (132 SMs): tf32
     * 2048 FLOP (one m64n256k8 every 128 cycles), int8 and fp8 8192 (one
     * m64n256k32 every 128 cycles), as fp16's 4096 is one m64n256k16. */
    const double sm_clock = 132 * 1830e6;
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_TF32_MATRIX_TFLOPS) / sm_clock, 2048, 2);
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_INT8_MATRIX_TOPS) / sm_clock, 8192, 2);
    GP_CHECK_NEAR(gp_spec_value(&h100, GP_SPEC_FP8_MATRIX_TFLOPS) / sm_clock, 8192, 2);
    GP_CHECK_NEAR(gp_mma_flops_per_inst(64, 256, 8) / 128, 2048, 0);
    GP_CHECK_NEAR(gp_mma_flops_per_inst(64, 256, 32) / 128, 8192, 0);
    GP_CHECK_NEAR(gp_spec_value(&mi300, GP_SPEC_FP8_MATRIX_TFLOPS), 2614.9e12, 1e9);
    GP_CHECK(gp_spec_figure("int8_matrix_tops") == GP_SPEC_INT8_MATRIX_TOPS);
    GP_CHECK(gp_spec_is_tera(GP_SPEC_TF32_MATRIX_TFLOPS) && !gp_spec_is_tera(GP_SPEC_DRAM_GBS));
    return 0;
}
