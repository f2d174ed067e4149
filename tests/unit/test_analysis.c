#include "analysis.h"
#include "gp_test.h"

GP_TEST(analysis_argmax_skips_nan)
{
    double y[] = {1, NAN, 5, 4};
    GP_CHECK(gp_analysis_argmax(y, 4) == 2);
    double none[] = {NAN, NAN};
    GP_CHECK(gp_analysis_argmax(none, 2) == -1);
    return 0;
}

GP_TEST(analysis_first_reaching)
{
    /* A launch-rate-like curve: linear up to 256, flat after. Unsorted input. */
    double x[] = {1024, 1, 64, 256, 128, 512, 2, 240};
    double y[8];
    for (int i = 0; i < 8; i++)
        y[i] = x[i] < 256 ? 64.0 * x[i] / 256 : 64.0;
    int i = gp_analysis_first_reaching(x, y, 8, 64.0, 0.95);
    GP_CHECK(i >= 0 && x[i] == 256);
    i = gp_analysis_first_reaching(x, y, 8, 64.0, 0.9); /* 240 reaches 93.75% */
    GP_CHECK(i >= 0 && x[i] == 240);
    GP_CHECK(gp_analysis_first_reaching(x, y, 8, 100.0, 0.95) == -1);
    return 0;
}

/* Reference curve at multiples of 64 and test points between them. */
static size_t wave_curve(double *x, double *y, int per_wave_cost, unsigned long long *seed)
{
    size_t n = 0;
    for (int t = 1; t <= 1024; t++) {
        if (t % 64 && t % 23)
            continue;
        double waves = (t + 63) / 64;
        /* per-wave cost: a block of t threads costs as much as its whole waves;
         * otherwise the rate is proportional to threads (block-limited). */
        double rate = per_wave_cost ? 64.0 * t / (waves * 64) : 0.8 * t;
        x[n] = t;
        y[n++] = rate * (1 + 0.01 * (gp_test_rand(seed) - 0.5));
    }
    return n;
}

GP_TEST(analysis_granularity_loss_detects_partial_waves)
{
    unsigned long long seed = 12345;
    double x[200], y[200];
    size_t n = wave_curve(x, y, 1, &seed), k;
    double loss = gp_analysis_granularity_loss(x, y, n, 64, x, y, n, &k);
    GP_CHECK(k >= 20);
    /* Partial waves waste on average ~half a wave: a clear, positive loss. */
    GP_CHECK(loss > 0.03 && loss < 0.5);
    return 0;
}

GP_TEST(analysis_granularity_loss_none_on_linear_curve)
{
    /* A rate that rises with block size (block-limited launch) must not read
     * as a loss: the neighbours' interpolation predicts it. */
    unsigned long long seed = 7;
    double x[200], y[200];
    size_t n = wave_curve(x, y, 0, &seed), k;
    double loss = gp_analysis_granularity_loss(x, y, n, 64, x, y, n, &k);
    GP_CHECK(k >= 20 && fabs(loss) < 0.01);
    /* No reference at the neighbours: not detectable, said as NaN. */
    double xs[] = {100}, ys[] = {1};
    GP_CHECK(isnan(gp_analysis_granularity_loss(xs, ys, 1, 64, xs, ys, 1, &k)) && k == 0);
    return 0;
}

GP_TEST(analysis_median_ratio)
{
    double x[] = {1, 2, 4, 8, 1024}, y[] = {0.8, 1.6, 3.2, 6.4, 700};
    GP_CHECK_NEAR(gp_analysis_median_ratio(x, y, 5, 1, 8), 0.8, 1e-12);
    GP_CHECK(isnan(gp_analysis_median_ratio(x, y, 5, 2000, 3000)));
    return 0;
}

GP_TEST(rel2_plateau_is_the_near_tie_range)
{
    /* one-CU fp32 rate by block size: flat within 0.05 % from 256 to 768 */
    const double y[8] = {60.0, 110.0, 124.90, 124.93, 124.88, 124.94, 120.0, 124.94};
    int lo, hi;
    gp_analysis_plateau(y, 8, 5, 0.001, &lo, &hi);
    GP_CHECK(lo == 2 && hi == 5); /* contiguous: index 7 is past a dip */
    gp_analysis_plateau(y, 8, 5, 0.0, &lo, &hi);
    GP_CHECK(lo == 5 && hi == 5);
    gp_analysis_plateau(y, 8, 9, 0.001, &lo, &hi);
    GP_CHECK(lo == -1 && hi == -1);
    return 0;
}

GP_TEST(near_ties_span_a_saw_tooth)
{
    /* The H200's one-CU fp32 rate (run of 2026-11-23): equal peaks at 256, 512
     * and 768 threads with lower rates between; the contiguous plateau holds
     * the arg-max alone, so two runs' arg-maxes (256, 512) never overlapped. */
    const double thr[8] = {128, 224, 256, 384, 512, 544, 768, 800};
    const double y[8] = {115.15, 109.20, 124.79, 121.44, 124.78, 104.36, 124.75, 110.19};
    int lo, hi;
    gp_analysis_plateau(y, 8, 2, 0.001, &lo, &hi);
    GP_CHECK(lo == 2 && hi == 2);
    gp_analysis_near_ties(y, 8, 2, 0.001, &lo, &hi);
    GP_CHECK(lo == 2 && hi == 6 && thr[lo] == 256 && thr[hi] == 768);
    gp_analysis_near_ties(y, 8, 2, 0.0, &lo, &hi);
    GP_CHECK(lo == 2 && hi == 2);
    gp_analysis_near_ties(y, 8, 8, 0.001, &lo, &hi);
    GP_CHECK(lo == -1 && hi == -1);
    return 0;
}
