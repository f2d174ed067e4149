#include "divergence_analysis.h"
#include "gp_test.h"

/* Synthetic group sweep: 2x (both paths serialized) below the wave, 1x at and
 * above it, with +-3% noise. */
static size_t group_curve(double *g, double *t, int wave, double slow, unsigned long long *seed)
{
    size_t n = 0;
    for (int G = 1; G <= 128; G *= 2) {
        g[n] = G;
        t[n++] = 10.0 * (G < wave ? slow : 1.0) * (1 + 0.06 * (gp_test_rand(seed) - 0.5));
    }
    return n;
}

GP_TEST(divergence_wave_32_and_64)
{
    unsigned long long seed = 7;
    double g[16], t[16];
    size_t n = group_curve(g, t, 32, 2.0, &seed);
    gp_divergence_wave w = gp_divergence_wave_from_groups(g, t, n, 10.0, 0.10);
    GP_CHECK(w.detected);
    GP_CHECK_NEAR(w.group, 32, 0);
    GP_CHECK(w.slow_ratio > 1.8 && w.slow_ratio < 2.2);
    n = group_curve(g, t, 64, 2.0, &seed);
    w = gp_divergence_wave_from_groups(g, t, n, 10.0, 0.10);
    GP_CHECK(w.detected && w.group == 64);
    /* A milder slowdown (paths partly overlapped) still reads. */
    n = group_curve(g, t, 32, 1.4, &seed);
    w = gp_divergence_wave_from_groups(g, t, n, 10.0, 0.10);
    GP_CHECK(w.detected && w.group == 32);
    return 0;
}

GP_TEST(divergence_wave_unsorted_and_bad_points)
{
    double g[] = {128, 4, 64, 1, 32, 16, 2, 8, 256};
    double t[] = {10.1, 20.2, 9.9, 19.8, 10.3, 20.4, 20.0, 19.9, NAN};
    gp_divergence_wave w = gp_divergence_wave_from_groups(g, t, 9, 10.0, 0.10);
    GP_CHECK(w.detected && w.group == 32);
    return 0;
}

GP_TEST(divergence_wave_not_detected)
{
    unsigned long long seed = 99;
    double g[16], t[16];
    /* No slowdown anywhere: divergence is free (or the compiler merged paths). */
    size_t n = group_curve(g, t, 1, 2.0, &seed);
    gp_divergence_wave w = gp_divergence_wave_from_groups(g, t, n, 10.0, 0.10);
    GP_CHECK(!w.detected && w.why);
    /* Slow everywhere: the wave is wider than the largest group. */
    n = group_curve(g, t, 256, 2.0, &seed);
    w = gp_divergence_wave_from_groups(g, t, n, 10.0, 0.10);
    GP_CHECK(!w.detected && w.why);
    /* No uniform reference. */
    w = gp_divergence_wave_from_groups(g, t, n, 0.0, 0.10);
    GP_CHECK(!w.detected);
    /* A slow point above a fast one: only the fast tail counts. */
    double g2[] = {1, 2, 4, 8, 16, 32, 64, 128};
    double t2[] = {20, 20, 20, 10, 20, 10, 10, 10};
    w = gp_divergence_wave_from_groups(g2, t2, 8, 10.0, 0.10);
    GP_CHECK(w.detected && w.group == 32);
    GP_CHECK(isnan(gp_divergence_ratio(1.0, 0.0)));
    GP_CHECK_NEAR(gp_divergence_ratio(3.0, 1.5), 2.0, 1e-12);
    return 0;
}
