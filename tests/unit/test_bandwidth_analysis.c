#include "memory_bandwidth_analysis.h"
#include "channel_conflicts_analysis.h"
#include <string.h>

#include "gp_test.h"

GP_TEST(bw_theoretical_h200_and_mi25)
{
    /* H200 as its runtime reports it: 6016 bits, 3201 MHz -> 4.8 TB/s. */
    GP_CHECK_NEAR(gp_bw_theoretical_gbs(6016, 3201), 4814.3, 0.5);
    /* MI25: 2048 bits at 945 MHz -> 484 GB/s (the seed's figure). */
    GP_CHECK_NEAR(gp_bw_theoretical_gbs(2048, 945), 483.8, 0.5);
    GP_CHECK(isnan(gp_bw_theoretical_gbs(0, 1000)));
    return 0;
}

/* Three levels: 20000 GB/s up to 8 MiB, 8000 up to 48 MiB, 4000 beyond 96 MiB,
 * with transitions between them and 2% noise. */
static size_t three_level_curve(double *x, double *y, unsigned long long *seed)
{
    size_t n = 0;
    for (double f = 64 * 1024.0; f <= 4.0 * 1024 * 1024 * 1024; f *= 1.5) {
        double lvl = f <= 8e6 ? 20000 : f <= 12e6 ? 14000 : f <= 48e6 ? 8000 : f <= 96e6 ? 6000 : 4000;
        x[n] = f;
        y[n++] = lvl * (1 + 0.02 * (gp_test_rand(seed) - 0.5));
    }
    return n;
}

GP_TEST(bw_plateaus_three_levels)
{
    unsigned long long seed = 7;
    double x[64], y[64];
    size_t n = three_level_curve(x, y, &seed);
    gp_bw_plateau p[8];
    int np = gp_bw_plateaus(y, n, 0.08, 3, p, 8);
    GP_CHECK(np == 3);
    GP_CHECK_NEAR(p[0].level, 20000, 400);
    GP_CHECK_NEAR(p[1].level, 8000, 160);
    GP_CHECK_NEAR(p[2].level, 4000, 80);
    GP_CHECK(p[2].last == n - 1);
    gp_bw_levels lv = gp_bw_classify(x, p, np, 50e6);
    GP_CHECK(lv.l1 == 0 && lv.l2 == 1 && lv.dram == 2);
    return 0;
}

GP_TEST(bw_plateaus_none_on_ramp)
{
    /* A curve that falls steadily by 15% per point has no plateau. */
    double y[20];
    for (int i = 0; i < 20; i++)
        y[i] = 1000 * pow(0.85, i);
    gp_bw_plateau p[4];
    GP_CHECK(gp_bw_plateaus(y, 20, 0.05, 3, p, 4) == 0);
    return 0;
}

GP_TEST(bw_classify_without_dram)
{
    /* Only cache-sized footprints measured: no DRAM level. */
    double x[] = {1e5, 2e5, 4e5, 8e5, 1.6e6, 3.2e6};
    double y[] = {100, 101, 99, 50, 51, 49};
    gp_bw_plateau p[4];
    int np = gp_bw_plateaus(y, 6, 0.05, 2, p, 4);
    GP_CHECK(np == 2);
    gp_bw_levels lv = gp_bw_classify(x, p, np, 4e6);
    GP_CHECK(lv.dram == -1 && lv.l2 == 1 && lv.l1 == 0);
    return 0;
}

/* Channels selected by low bits: interleave g, c channels. */
static void window_curve(double *w, double *bw, size_t *n, double g, double c, double noise,
                         unsigned long long *seed)
{
    *n = 0;
    for (double W = 64; W <= 65536; W *= 2) {
        double ch = fmin(fmax(W, g), g * c) / g;
        w[*n] = W;
        bw[(*n)++] = 400.0 * ch / c * (1 + noise * (gp_test_rand(seed) - 0.5));
    }
}

GP_TEST(bw_window_detects_interleave_and_count)
{
    unsigned long long seed = 99;
    double w[16], bw[16];
    size_t n;
    window_curve(w, bw, &n, 256, 16, 0.03, &seed);
    gp_bw_window_fit f;
    gp_bw_window_analyse(w, bw, n, &f);
    GP_CHECK(f.detected);
    GP_CHECK_NEAR(f.knee_bytes, 4096, 0);
    GP_CHECK_NEAR(f.interleave_bytes, 256, 0);
    GP_CHECK_NEAR(f.count, 16, 0);
    GP_CHECK_NEAR(f.slope, 1.0, 0.15);
    return 0;
}

GP_TEST(bw_window_flat_is_not_detected)
{
    /* Hashed channels: every window reaches all of them. */
    unsigned long long seed = 5;
    double w[16], bw[16];
    size_t n = 0;
    for (double W = 256; W <= 65536; W *= 2) {
        w[n] = W;
        bw[n++] = 4000 * (1 + 0.04 * (gp_test_rand(&seed) - 0.5));
    }
    gp_bw_window_fit f;
    gp_bw_window_analyse(w, bw, n, &f);
    GP_CHECK(!f.detected);
    GP_CHECK(f.min_ratio > 0.9);
    GP_CHECK(strstr(f.reason, "flat") != NULL);
    return 0;
}

GP_TEST(bw_window_shallow_rise_is_not_detected)
{
    /* Rises 2.5x over 8 doublings: not a channel count. */
    double w[10], bw[10];
    for (int i = 0; i < 10; i++) {
        w[i] = 256.0 * (1 << i);
        bw[i] = i < 8 ? 1000 * pow(2.5, i / 8.0) : 2500;
    }
    gp_bw_window_fit f;
    gp_bw_window_analyse(w, bw, 10, &f);
    GP_CHECK(!f.detected);
    GP_CHECK(f.slope < 0.6);
    return 0;
}

GP_TEST(bw_pad_finds_smallest_good_pad)
{
    double pad[] = {0, 1, 2, 4, 8, 16, 32};
    double bw[] = {900, 2900, 3000, 3050, 3010, 3040, 2990};
    double p, s;
    GP_CHECK(gp_bw_pad_analyse(pad, bw, 7, &p, &s) == 0);
    GP_CHECK_NEAR(p, 1, 0);
    GP_CHECK_NEAR(s, 3050.0 / 900, 1e-9);
    /* No slowdown: pad 0 is within 5% of the best. */
    double flat[] = {3000, 3020, 2990, 3010, 3000, 3005, 2995};
    GP_CHECK(gp_bw_pad_analyse(pad, flat, 7, &p, &s) == 0);
    GP_CHECK_NEAR(p, 0, 0);
    GP_CHECK(s < 1.01);
    GP_CHECK(gp_bw_pad_analyse(pad + 1, bw + 1, 6, &p, &s) == -1);
    return 0;
}
