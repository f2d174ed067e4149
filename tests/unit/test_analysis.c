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
