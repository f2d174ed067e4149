/* fma_throughput's analysis (fma_throughput_analysis.h): the compute units from
 * the staircase of kernel time over blocks, the first step, the lanes per
 * CU, the published lanes it is checked against. */
#include "fma_throughput_analysis.h"
#include "gp_test.h"

#include <string.h>

/* Kernel time over blocks with one block per CU: flat up to `cus`, then one
 * more stair per further multiple; `noise` relative. */
static size_t stair_curve(double *x, double *y, int cus, int xmax, int step, double noise,
                          unsigned long long *seed)
{
    size_t n = 0;
    for (int b = 1; b <= xmax; b += (b < 8 ? 1 : step)) {
        x[n] = b;
        y[n++] = 10.0 * ((b + cus - 1) / cus) * (1 + noise * (gp_test_rand(seed) - 0.5));
    }
    return n;
}

GP_TEST(compute_staircase_finds_units)
{
    unsigned long long seed = 99;
    double x[600], y[600];
    /* Dense sweep, 4% noise: exact. */
    size_t n = stair_curve(x, y, 132, 528, 1, 0.04, &seed);
    gp_staircase_fit f = gp_compute_staircase(x, y, n, 1, 600, 0.1);
    GP_CHECK(f.units == 132);
    GP_CHECK_NEAR(f.step_time, 10.0, 0.3);
    /* Coarse sweep: the answer lies in the reported bracket. */
    n = stair_curve(x, y, 64, 256, 7, 0.04, &seed);
    f = gp_compute_staircase(x, y, n, 1, 300, 0.1);
    GP_CHECK(f.units > 0 && f.units_lo <= 64 && f.units_hi >= 64);
    GP_CHECK(f.units_hi - f.units_lo < 14);
    return 0;
}

GP_TEST(compute_staircase_not_detected)
{
    unsigned long long seed = 5;
    double x[600], y[600];
    /* The sweep stops before the unit count: flat, nothing to detect. */
    size_t n = stair_curve(x, y, 300, 200, 3, 0.04, &seed);
    GP_CHECK(gp_compute_staircase(x, y, n, 1, 400, 0.1).units == -1);
    /* A smooth ramp is no staircase at a tight tolerance. */
    for (size_t i = 0; i < n; i++)
        y[i] = 10.0 + 0.05 * x[i];
    GP_CHECK(gp_compute_staircase(x, y, n, 1, 400, 0.02).units == -1);
    /* Too few points. */
    GP_CHECK(gp_compute_staircase(x, y, 2, 1, 400, 0.1).units == -1);
    return 0;
}

GP_TEST(compute_first_step)
{
    double y[] = {10, 10.2, 9.9, 25, 10.1, 10, 20.3, 20, 20.1};
    /* 25 at index 3 is a lone outlier; the step is at 6. */
    GP_CHECK(gp_compute_first_step(y, 9, 0.3) == 6);
    double flat[] = {10, 10.3, 9.8, 10.1};
    GP_CHECK(gp_compute_first_step(flat, 4, 0.3) == -1);
    GP_CHECK(gp_compute_first_step(flat, 1, 0.3) == -1);
    double last[] = {10, 10, 10, 21};
    GP_CHECK(gp_compute_first_step(last, 4, 0.3) == 3);
    return 0;
}

GP_TEST(compute_lanes_pow2)
{
    GP_CHECK_NEAR(gp_compute_lanes_pow2(127.2, 0.03), 128, 0);
    GP_CHECK_NEAR(gp_compute_lanes_pow2(129.5, 0.03), 128, 0);
    GP_CHECK_NEAR(gp_compute_lanes_pow2(62.9, 0.03), 64, 0);
    GP_CHECK_NEAR(gp_compute_lanes_pow2(90, 0.03), 128, 0);
    GP_CHECK_NEAR(gp_compute_lanes_pow2(-1, 0.03), 0, 0);
    return 0;
}

GP_TEST(compute_published_lanes)
{
    const char *src;
    GP_CHECK(gp_compute_published_fp32_lanes("sm_90", &src) == 128 && src);
    GP_CHECK(gp_compute_published_fp32_lanes("sm_80", &src) == 64);
    GP_CHECK(gp_compute_published_fp32_lanes("gfx900", &src) == 64);
    GP_CHECK(gp_compute_published_fp32_lanes("gfx90a", &src) == 128);
    GP_CHECK(gp_compute_published_fp32_lanes("gfx1100", &src) == 0 && !src);
    GP_CHECK(gp_compute_published_fp32_lanes(NULL, NULL) == 0);
    return 0;
}

GP_TEST(compute_published_lanes_packed_fp32)
{
    /* Packed FP32 targets (the fp32 chain compiles to v_pk_fma_f32): the
     * peak counts 2 FMA per lane per clock, and the source says so. */
    const char *src = NULL;
    GP_CHECK(gp_compute_published_fp32_lanes("gfx90a", &src) == 128 && src && strstr(src, "packed"));
    GP_CHECK(gp_compute_published_fp32_lanes("gfx940", &src) == 128 && src && strstr(src, "packed"));
    /* gfx906/gfx908 have no packed FP32: 64. RDNA2 (wave32): 2 SIMD32 = 64. */
    GP_CHECK(gp_compute_published_fp32_lanes("gfx906", &src) == 64);
    GP_CHECK(gp_compute_published_fp32_lanes("gfx1030", &src) == 64 && src);
    return 0;
}
