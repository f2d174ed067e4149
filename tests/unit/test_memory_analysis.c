#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "gp_test.h"
#include "cache_latency_analysis.h"
#include "lds_analysis.h"
#include "records.h"
#include "stats.h"

/* Latency of a random chase over footprint x through a hierarchy of LRU-like
 * levels: a footprint that fits level k costs its latency; the step between
 * levels is spread over `soft` octaves (random replacement rounds it). */
typedef struct synth_level {
    double bytes, latency;
} synth_level;

static double synth_latency(const synth_level *lv, int n, double final_latency, double x, double soft)
{
    for (int k = 0; k < n; k++) {
        if (x <= lv[k].bytes)
            return lv[k].latency;
        double next = k + 1 < n ? lv[k + 1].latency : final_latency;
        double over = log2(x / lv[k].bytes);
        if (over < soft && x <= (k + 1 < n ? lv[k + 1].bytes : INFINITY))
            return lv[k].latency + (next - lv[k].latency) * (soft > 0 ? over / soft : 1.0);
    }
    return final_latency;
}

/* Footprints 1 KiB .. 4 GiB, 4 per octave, with +-noise relative jitter. */
static size_t synth_sweep(const synth_level *lv, int n, double final_latency, double soft, double noise,
                          unsigned long long *seed, double *x, double *y)
{
    size_t k = 0;
    for (double e = 10; e <= 32.0 + 1e-9; e += 0.25) {
        x[k] = floor(pow(2.0, e) / 128) * 128;
        y[k] = synth_latency(lv, n, final_latency, x[k], soft) * (1 + noise * (2 * gp_test_rand(seed) - 1));
        k++;
    }
    return k;
}

GP_TEST(memory_levels_hopper_like)
{
    /* L1 200 KiB @33, near L2 24 MiB @260, far L2 50 MiB @390, DRAM @600,
     * TLB misses past 1 GiB @780. */
    synth_level lv[] = {{200 * 1024., 33}, {24 * 1048576., 260}, {50 * 1048576., 390}, {1073741824., 600}};
    unsigned long long seed = 7;
    double x[128], y[128];
    size_t n = synth_sweep(lv, 4, 780, 0.0, 0.03, &seed, x, y);
    gp_mem_level L[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    GP_CHECK(nl == 5);
    GP_CHECK_NEAR(L[0].latency, 33, 2);
    GP_CHECK(L[0].capacity_lo <= 200 * 1024. && L[0].capacity_hi > 200 * 1024.);
    GP_CHECK(fabs(L[0].capacity / (200 * 1024.) - 1) < 0.1);
    GP_CHECK(L[0].confidence > 0.8);
    GP_CHECK_NEAR(L[1].latency, 260, 10);
    GP_CHECK(fabs(L[2].capacity / (50 * 1048576.) - 1) < 0.1);
    GP_CHECK_NEAR(L[3].latency, 600, 20);
    gp_mem_hierarchy h;
    GP_CHECK(gp_mem_label(L, nl, 60.0 * 1048576, 262, &h) == 5);
    GP_CHECK(h.l1 == 0 && h.l2 == 1 && h.l2_far == 2 && h.dram == 3 && h.tlb == 4);
    return 0;
}

GP_TEST(memory_levels_soft_step_lower_confidence)
{
    /* Random replacement: the L2 -> DRAM step spreads over an octave. */
    synth_level lv[] = {{16 * 1024., 120}, {4 * 1048576., 350}};
    unsigned long long seed = 11;
    double x[128], y[128];
    size_t n = synth_sweep(lv, 2, 650, 1.0, 0.02, &seed, x, y);
    gp_mem_level L[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    GP_CHECK(nl == 3);
    /* The capacity is bracketed by the last plateau point and the next one. */
    GP_CHECK(L[1].capacity_lo <= 4.3 * 1048576 && L[1].capacity_hi > 4 * 1048576.);
    GP_CHECK(fabs(log2(L[1].capacity / (4 * 1048576.))) < 0.5);
    /* A soft step is less certain than the same step taken sharply. */
    double xs[128], ys[128];
    size_t ns = synth_sweep(lv, 2, 650, 0.0, 0.02, &seed, xs, ys);
    gp_mem_level S[16];
    GP_CHECK(gp_mem_levels(xs, ys, ns, 0.12, S, 16) == 3);
    GP_CHECK(L[1].confidence < S[1].confidence && L[1].confidence > 0.3 && S[1].confidence > 0.9);
    gp_mem_hierarchy h;
    /* No bypass measurement: two cache levels before DRAM means L1 + L2. */
    gp_mem_label(L, nl, 4.0 * 1048576, 0, &h);
    GP_CHECK(h.l1 == 0 && h.l2 == 1 && h.l2_far == -1 && h.dram == 2 && h.tlb == -1);
    return 0;
}

GP_TEST(memory_levels_no_l1_when_first_level_is_l2)
{
    /* Loads not cached in L1: the first plateau has the bypass (L2) latency. */
    synth_level lv[] = {{6 * 1048576., 300}};
    unsigned long long seed = 3;
    double x[128], y[128];
    size_t n = synth_sweep(lv, 1, 700, 0.0, 0.02, &seed, x, y);
    gp_mem_level L[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    GP_CHECK(nl == 2);
    gp_mem_hierarchy h;
    gp_mem_label(L, nl, 6.0 * 1048576, 295, &h);
    GP_CHECK(h.l1 == -1 && h.l2 == 0 && h.dram == 1);
    return 0;
}

GP_TEST(memory_levels_flat_curve_has_one_level)
{
    unsigned long long seed = 5;
    double x[128], y[128];
    synth_level lv[] = {{1, 500}};
    size_t n = synth_sweep(lv, 1, 500, 0.0, 0.05, &seed, x, y);
    gp_mem_level L[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    GP_CHECK(nl == 1);
    GP_CHECK(isnan(L[0].capacity));
    gp_mem_hierarchy h;
    gp_mem_label(L, nl, 4.0 * 1048576, 0, &h);
    /* Nothing is cached: the one level is what every footprint pays. */
    GP_CHECK(h.l1 == -1 && h.l2 == -1 && h.l2_far == -1 && h.dram == 0);
    return 0;
}

GP_TEST(memory_levels_transition_points_are_not_levels)
{
    /* L1 32 up to 215 KiB, L2 280 to 26.9 MiB, DRAM 680.  Just past L1: one
     * point of partial hits (70) and two at 98 (a short run); inside the L2
     * -> DRAM step: three refined points at 335..360 over a factor 1.1 (a
     * ramp).  Neither is a level. */
    double x[128], y[128];
    size_t n = 0;
    for (double e = 10; e <= 32.0 + 1e-9; e += 0.25) {
        x[n] = floor(pow(2.0, e) / 128) * 128;
        y[n] = x[n] <= 216 * 1024. ? 32 : x[n] <= 27.6 * 1048576 ? 280 : 680;
        if (x[n] > 216 * 1024. && x[n] < 300 * 1024.)
            y[n] = 150;
        n++;
    }
    double extra_x[] = {225 * 1024., 235 * 1024., 245 * 1024., 28.0 * 1048576, 29.3 * 1048576, 30.6 * 1048576};
    double extra_y[] = {70, 99, 97, 341, 333, 362};
    for (int k = 0; k < 6; k++) {
        size_t i = n++;
        while (i > 0 && x[i - 1] > extra_x[k]) {
            x[i] = x[i - 1], y[i] = y[i - 1];
            i--;
        }
        x[i] = extra_x[k], y[i] = extra_y[k];
    }
    gp_mem_level L[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    GP_CHECK(nl == 3);
    GP_CHECK_NEAR(L[0].latency, 32, 1e-9);
    GP_CHECK_NEAR(L[1].latency, 280, 1e-9);
    GP_CHECK_NEAR(L[2].latency, 680, 1e-9);
    GP_CHECK(L[0].capacity > 215 * 1024. && L[0].capacity < 225 * 1024.);
    GP_CHECK(L[1].capacity > 26.9 * 1048576 && L[1].capacity < 28 * 1048576.);
    for (size_t i = 0; i < nl; i++)
        GP_CHECK(L[i].confidence >= 0 && L[i].confidence <= 1);
    gp_mem_hierarchy h;
    gp_mem_label(L, nl, 30.0 * 1048576, 275, &h);
    GP_CHECK(h.l1 == 0 && h.l2 == 1 && h.l2_far == -1 && h.dram == 2 && h.unexplained == 0);
    return 0;
}

/* Rows of a recorded series whose column `sel` equals `want`, as (x, y)
 * sorted by x (the probe appends refinement points at the end). */
static size_t recorded_xy(const gp_series *s, const char *sel, double want, const char *xn, const char *yn,
                          const char *key, double keyv, double *x, double *y, size_t max)
{
    int cs = gp_series_col(s, sel), cx = gp_series_col(s, xn), cy = gp_series_col(s, yn);
    int ck = key ? gp_series_col(s, key) : -1;
    if (cs < 0 || cx < 0 || cy < 0 || (key && ck < 0))
        return 0;
    size_t n = 0;
    for (size_t r = 0; r < s->nrows && n < max; r++) {
        const double *row = s->data + r * s->ncols;
        if (row[cs] != want || (key && fabs(row[ck] / keyv - 1) > 0.5))
            continue;
        size_t i = n++;
        while (i > 0 && x[i - 1] > row[cx]) {
            x[i] = x[i - 1], y[i] = y[i - 1];
            i--;
        }
        x[i] = row[cx], y[i] = row[cy];
    }
    return n;
}

/* H200 (sm_90, 1980 MHz), 2026-11-21: L1 32 cycles to ~220 KiB, transition
 * points at 225..256 KiB, near L2 281 cycles to ~28 MB, a ramp, far L2 528
 * cycles to ~61 MB, DRAM 685 cycles. */
GP_TEST(memory_levels_h200_recorded)
{
    char p[512];
    if (!gp_test_source_path(p, sizeof p, "tests/data/h200/cache_latency_footprint.csv"))
        return 1;
    gp_series s;
    GP_CHECK(gp_csv_read(p, &s).code == GP_OK);
    double x[256], y[256], bx[256], by[256];
    size_t n = recorded_xy(&s, "bypass_l1", 0, "bytes", "cycles_per_load", NULL, 0, x, y, 256);
    size_t nb = recorded_xy(&s, "bypass_l1", 1, "bytes", "cycles_per_load", NULL, 0, bx, by, 256);
    free(s.data);
    GP_CHECK(n > 60 && nb > 10);
    gp_mem_level L[16], B[16];
    size_t nl = gp_mem_levels(x, y, n, 0.12, L, 16);
    size_t nbl = gp_mem_levels(bx, by, nb, 0.12, B, 16);
    GP_CHECK(nbl >= 1);
    gp_mem_hierarchy h;
    gp_mem_label(L, nl, 62914560.0, B[0].latency, &h);
    GP_CHECK(h.l1 == 0 && h.l2 == 1 && h.l2_far == 2 && h.dram == 3 && h.unexplained == 0);
    GP_CHECK(nl == 4);
    GP_CHECK_NEAR(L[h.l1].latency, 32, 2);
    GP_CHECK(L[h.l1].capacity >= 200 * 1024. && L[h.l1].capacity <= 240 * 1024.);
    GP_CHECK_NEAR(L[h.l2].latency, 281, 15);
    GP_CHECK(L[h.l2].capacity >= 26e6 && L[h.l2].capacity <= 32e6);
    GP_CHECK(L[h.l2_far].latency >= 480 && L[h.l2_far].latency <= 560);
    GP_CHECK(L[h.l2_far].capacity >= 55e6 && L[h.l2_far].capacity <= 66e6);
    GP_CHECK_NEAR(L[h.dram].latency, 685, 30);
    for (size_t i = 0; i < nl; i++)
        GP_CHECK(L[i].confidence >= 0 && L[i].confidence <= 1);
    return 0;
}

/* The same run's stride sweeps: the L1 one (900 KB, cached) falls back into
 * L1 at 512 and 1024 B, the L2 one (240 MB, L1 bypassed) falls at 512 and
 * 1024 B; the knee is read on the rising part only. */
GP_TEST(memory_line_knee_h200_recorded)
{
    char p[512];
    if (!gp_test_source_path(p, sizeof p, "tests/data/h200/cache_latency_stride.csv"))
        return 1;
    gp_series s;
    GP_CHECK(gp_csv_read(p, &s).code == GP_OK);
    double s1[16], y1[16], s2[16], y2[16], c1, c2;
    size_t n1 = recorded_xy(&s, "bypass_l1", 0, "stride_bytes", "cycles_per_load", NULL, 0, s1, y1, 16);
    size_t n2 = recorded_xy(&s, "bypass_l1", 1, "stride_bytes", "cycles_per_load", NULL, 0, s2, y2, 16);
    free(s.data);
    GP_CHECK(n1 == 8 && n2 == 8);
    GP_CHECK_NEAR(gp_mem_line_knee(s1, y1, n1, 0.25, &c1), 32, 0);
    GP_CHECK_NEAR(gp_mem_line_knee(s2, y2, n2, 0.25, &c2), 64, 0);
    GP_CHECK(c1 >= 0 && c1 <= 1 && c2 >= 0 && c2 <= 1);
    return 0;
}

GP_TEST(memory_plateaus_single_outlier_stays)
{
    double x[12], y[12];
    for (int i = 0; i < 12; i++) {
        x[i] = 1024.0 * (1 << i);
        y[i] = i < 6 ? 30 : 300;
    }
    y[3] = 45; /* a spike inside the first plateau */
    gp_mem_plateau p[8];
    size_t np = gp_mem_plateaus(x, y, 12, 0.12, 2, p, 8);
    GP_CHECK(np == 2);
    GP_CHECK(p[0].first == 0 && p[0].last == 5);
    GP_CHECK_NEAR(p[0].latency, 30, 1e-9);
    return 0;
}

static size_t knee_curve(double line, double hit, double miss, double noise, unsigned long long *seed,
                         double *s, double *y)
{
    size_t n = 0;
    for (double st = 8; st <= 1024; st *= 2) {
        s[n] = st;
        double f = st >= line ? 1.0 : st / line;
        y[n] = (hit + (miss - hit) * f) * (1 + noise * (2 * gp_test_rand(seed) - 1));
        n++;
    }
    return n;
}

GP_TEST(memory_line_knee_finds_line)
{
    unsigned long long seed = 9;
    double s[16], y[16], conf;
    double lines[] = {32, 64, 128, 256};
    for (int i = 0; i < 4; i++) {
        size_t n = knee_curve(lines[i], 33, 260, 0.04, &seed, s, y);
        double k = gp_mem_line_knee(s, y, n, 0.25, &conf);
        GP_CHECK_NEAR(k, lines[i], 0);
        GP_CHECK(conf > 0.5);
    }
    return 0;
}

GP_TEST(memory_line_knee_not_detected)
{
    unsigned long long seed = 13;
    double s[16], y[16];
    /* Flat: every load hits (or every load misses). */
    size_t n = knee_curve(8, 300, 300, 0.05, &seed, s, y);
    GP_CHECK(isnan(gp_mem_line_knee(s, y, n, 0.25, NULL)));
    /* Still rising at the largest stride: no plateau to support a knee. */
    n = knee_curve(2048, 30, 600, 0.01, &seed, s, y);
    GP_CHECK(isnan(gp_mem_line_knee(s, y, n, 0.25, NULL)));
    return 0;
}

GP_TEST(memory_line_knee_ignores_later_drop)
{
    unsigned long long seed = 17;
    double s[16], y[16], conf;
    /* Line 64 B, then the two largest strides fall back to hits. */
    size_t n = knee_curve(64, 40, 300, 0.02, &seed, s, y);
    y[n - 2] = 60;
    y[n - 1] = 40;
    GP_CHECK_NEAR(gp_mem_line_knee(s, y, n, 0.25, &conf), 64, 0);
    GP_CHECK(conf > 0 && conf <= 0.5);
    /* A rise that ends in a single peak and falls: no plateau, no knee. */
    n = knee_curve(1024, 40, 300, 0.0, &seed, s, y);
    y[n - 1] = 50;
    y[n - 2] = 300;
    GP_CHECK(isnan(gp_mem_line_knee(s, y, n, 0.25, NULL)));
    return 0;
}

/* Conflict degree of lanes 0..wave-1 reading element lane*s (elem bytes)
 * from `banks` banks of `w` bytes, `group` lanes served per pass: the
 * largest number of distinct words one bank must deliver in a pass. */
static double model_degree(int s, int elem, int banks, int w, int wave, int group)
{
    int worst_total = 0;
    for (int g0 = 0; g0 < wave; g0 += group) {
        int worst = 1;
        for (int b = 0; b < banks; b++) {
            long words[64];
            int nw = 0;
            for (int l = g0; l < g0 + group; l++) {
                long byte = (long)l * s * elem;
                for (long off = 0; off < elem; off += w) {
                    long word = (byte + off) / w;
                    if (word % banks != b)
                        continue;
                    int seen = 0;
                    for (int k = 0; k < nw; k++)
                        seen |= words[k] == word;
                    if (!seen && nw < 64)
                        words[nw++] = word;
                }
            }
            if (nw > worst)
                worst = nw;
        }
        worst_total += worst;
    }
    return worst_total;
}

static size_t bank_curve(int elem, int banks, int w, int wave, int group, double noise,
                         unsigned long long *seed, double *s, double *d)
{
    size_t n = 0;
    double base = model_degree(1, elem, banks, w, wave, group);
    for (int st = 1; st <= 128; st++) {
        s[n] = st;
        d[n] = model_degree(st, elem, banks, w, wave, group) / base * (1 + noise * (2 * gp_test_rand(seed) - 1));
        n++;
    }
    return n;
}

GP_TEST(memory_bank_geometry_wave32_and_wave64)
{
    unsigned long long seed = 21;
    double s[160], d[160], conf;
    int banks, bw;
    /* NVIDIA-like: 32 banks x 4 B, a warp of 32 in one pass. */
    size_t n = bank_curve(4, 32, 4, 32, 32, 0.03, &seed, s, d);
    GP_CHECK(gp_mem_bank_geometry(s, d, n, 4, &banks, &bw, &conf) == 0);
    GP_CHECK(banks == 32 && bw == 4);
    GP_CHECK(conf > 0.7);
    /* gfx9-like: wave64 served as two halves of 32 lanes over 32 banks x 4 B. */
    n = bank_curve(4, 32, 4, 64, 32, 0.03, &seed, s, d);
    GP_CHECK(gp_mem_bank_geometry(s, d, n, 4, &banks, &bw, &conf) == 0);
    GP_CHECK(banks == 32 && bw == 4);
    /* 64 banks x 4 B with a whole wave64 per pass. */
    n = bank_curve(4, 64, 4, 64, 64, 0.03, &seed, s, d);
    GP_CHECK(gp_mem_bank_geometry(s, d, n, 4, &banks, &bw, &conf) == 0);
    GP_CHECK(banks == 64 && bw == 4);
    /* Padding: a [32][32+p] tile read by column is conflict-free at p = 1. */
    n = bank_curve(4, 32, 4, 32, 32, 0.0, &seed, s, d);
    double best;
    GP_CHECK(gp_mem_best_pad(s, d, n, 32, 4, &best) == 1);
    GP_CHECK_NEAR(best, 1.0, 1e-9);
    return 0;
}

GP_TEST(memory_bank_geometry_not_detected)
{
    double s[64], d[64];
    unsigned long long seed = 4;
    /* No conflicts at all (e.g. timing not bound by the LDS pipe). */
    for (int i = 0; i < 64; i++) {
        s[i] = i + 1;
        d[i] = 1 + 0.05 * (gp_test_rand(&seed) - 0.5);
    }
    int banks = -7, bw = -7;
    GP_CHECK(gp_mem_bank_geometry(s, d, 64, 4, &banks, &bw, NULL) == -1);
    GP_CHECK(banks == -7 && bw == -7);
    /* Degree still doubling at the largest stride: saturation not seen. */
    for (int i = 0; i < 64; i++)
        d[i] = (double)((i + 1) & -(i + 1)); /* gcd(s, infinity-many banks) */
    GP_CHECK(gp_mem_bank_geometry(s, d, 64, 4, &banks, &bw, NULL) == -1);
    GP_CHECK(gp_mem_best_pad(s, d, 64, 62, 4, NULL) == -1); /* 65, 66 missing */
    return 0;
}

/* ---- DRAM latency by L2 partition (gp_mem_partition_split) */

/* Standard normal deviate (Box-Muller) from the test generator. */
static double synth_gauss(unsigned long long *seed)
{
    double u1 = gp_test_rand(seed), u2 = gp_test_rand(seed);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* n samples: a fraction `far` in the far class (L2 l2f, DRAM drf), the rest
 * near (l2n, drn), in random order, relative Gaussian noise `noise`; a
 * fraction `outl` of the re-loads and another of the first loads replaced by
 * `outv` (page walks, refresh).  Returns the number of far samples. */
static size_t synth_partition(size_t n, double far, double l2n, double drn, double l2f, double drf, double noise,
                              double outl, double outv, unsigned long long *seed, double *t2, double *t1)
{
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        int f = gp_test_rand(seed) < far;
        nf += f;
        t2[i] = (f ? l2f : l2n) * (1 + noise * synth_gauss(seed));
        t1[i] = (f ? drf : drn) * (1 + noise * synth_gauss(seed));
        if (gp_test_rand(seed) < outl)
            t2[i] = outv;
        if (gp_test_rand(seed) < outl)
            t1[i] = outv;
    }
    return nf;
}

#define PART_N 4096

GP_TEST(memory_partition_bimodal_recovers_classes)
{
    static double t2[PART_N], t1[PART_N];
    unsigned long long seed = 21;
    size_t nf = synth_partition(PART_N, 0.4, 280, 500, 520, 880, 0.03, 0.02, 3000, &seed, t2, t1);
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 1);
    GP_CHECK(p.detected == 1 && p.reason[0] == 0);
    GP_CHECK(fabs(p.near_cls.l2_median / 280 - 1) < 0.03);
    GP_CHECK(fabs(p.far_cls.l2_median / 520 - 1) < 0.03);
    GP_CHECK(fabs(p.near_cls.dram_median / 500 - 1) < 0.03);
    GP_CHECK(fabs(p.far_cls.dram_median / 880 - 1) < 0.03);
    /* p10/p90 of a 3% Gaussian: about -+3.8%. */
    GP_CHECK(p.near_cls.dram_p10 < 500 && p.near_cls.dram_p10 > 0.93 * 500);
    GP_CHECK(p.far_cls.dram_p90 > 880 && p.far_cls.dram_p90 < 1.07 * 880);
    /* The 2% re-load outliers at 3000 are fenced off, not a class. */
    GP_CHECK(p.n_outliers > PART_N / 100 && p.n_outliers < PART_N * 3 / 100);
    GP_CHECK(p.n_used + p.n_outliers == PART_N);
    GP_CHECK(p.near_cls.count + p.far_cls.count == p.n_used);
    GP_CHECK_NEAR(p.far_fraction, (double)nf / PART_N, 0.02);
    GP_CHECK(p.threshold > 330 && p.threshold < 450);
    GP_CHECK(gp_mem_partition_class_of(&p, 281) == 0 && gp_mem_partition_class_of(&p, 519) == 1);
    GP_CHECK(gp_mem_partition_class_of(&p, 3000) == -1 && gp_mem_partition_class_of(&p, NAN) == -1);
    /* An overhead of 20 cycles added to every timing and given back: the same figures. */
    static double u2[PART_N], u1[PART_N];
    for (size_t i = 0; i < PART_N; i++)
        u2[i] = t2[i] + 20, u1[i] = t1[i] + 20;
    gp_mem_partition q;
    GP_CHECK(gp_mem_partition_split(u2, u1, PART_N, 20, &q) == 1);
    GP_CHECK_NEAR(q.near_cls.dram_median, p.near_cls.dram_median, 0.5);
    GP_CHECK_NEAR(q.far_cls.l2_median, p.far_cls.l2_median, 0.5);
    GP_CHECK(q.far_cls.count == p.far_cls.count);
    return 0;
}

GP_TEST(memory_partition_exact_small_case)
{
    /* Hand-computed: 6 near (L2 100, DRAM 300..350), 4 far (L2 200, DRAM
     * 600..630), one first load that hit (t_first = t_second: not DRAM). */
    double t2[] = {100, 200, 100, 100, 200, 100, 200, 100, 200, 100};
    double t1[] = {300, 600, 310, 320, 610, 330, 620, 340, 200, 350};
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(t2, t1, 10, 0, &p) == 1);
    GP_CHECK(p.near_cls.count == 6 && p.far_cls.count == 4);
    GP_CHECK(p.near_cls.dram_count == 6 && p.far_cls.dram_count == 3 && p.n_warm == 1);
    GP_CHECK_NEAR(p.near_cls.l2_median, 100, 1e-9);
    GP_CHECK_NEAR(p.far_cls.l2_median, 200, 1e-9);
    GP_CHECK_NEAR(p.near_cls.dram_median, 325, 1e-9);
    GP_CHECK_NEAR(p.far_cls.dram_median, 610, 1e-9);
    GP_CHECK_NEAR(p.far_fraction, 0.4, 1e-12);
    GP_CHECK_NEAR(p.threshold, sqrt(100.0 * 200.0), 1e-9);
    GP_CHECK_NEAR(p.l2_ratio, 2.0, 1e-9);
    /* The same with an overhead of 10: every figure 10 lower. */
    GP_CHECK(gp_mem_partition_split(t2, t1, 10, 10, &p) == 1);
    GP_CHECK_NEAR(p.near_cls.dram_median, 315, 1e-9);
    GP_CHECK_NEAR(p.far_cls.l2_median, 190, 1e-9);
    return 0;
}

GP_TEST(memory_partition_unimodal_is_one_class)
{
    /* One L2 (AMD gfx900: no partitions): 3% noise, 2% outliers. */
    static double t2[PART_N], t1[PART_N];
    unsigned long long seed = 33;
    synth_partition(PART_N, 0.0, 376, 650, 376, 650, 0.03, 0.02, 3000, &seed, t2, t1);
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 0);
    GP_CHECK(p.detected == 0 && strstr(p.reason, "one class") != NULL);
    GP_CHECK(p.far_cls.count == 0 && isnan(p.far_cls.dram_median) && p.far_fraction == 0);
    GP_CHECK(p.near_cls.count == p.n_used && p.n_used > PART_N * 95 / 100);
    GP_CHECK(fabs(p.near_cls.dram_median / 650 - 1) < 0.03);
    GP_CHECK(fabs(p.near_cls.l2_median / 376 - 1) < 0.03);
    GP_CHECK(isnan(p.threshold));
    /* Not a class either: outliers inside the fence at 2x (3% of samples). */
    for (size_t i = 0; i < PART_N; i += 33)
        t2[i] = 752;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 0);
    return 0;
}

GP_TEST(memory_partition_rejects_weak_splits)
{
    static double t2[PART_N], t1[PART_N];
    unsigned long long seed = 44;
    /* Far class 5% of the samples: below the 10% needed. */
    synth_partition(PART_N, 0.05, 280, 500, 520, 880, 0.02, 0.0, 0, &seed, t2, t1);
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 0);
    GP_CHECK(strstr(p.reason, "smaller class") != NULL);
    /* Two classes only 15% apart: below the 25% needed. */
    synth_partition(PART_N, 0.5, 280, 500, 322, 560, 0.01, 0.0, 0, &seed, t2, t1);
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 0);
    GP_CHECK(p.l2_ratio > 1.05 && p.l2_ratio < 1.25);
    /* Minority far class (12%) with 2% outliers inside the fence (4x):
     * the outliers must not take the split. */
    synth_partition(PART_N, 0.12, 281, 480, 520, 864, 0.03, 0.0, 0, &seed, t2, t1);
    for (size_t i = 0; i < PART_N; i += 50)
        t2[i] = 1100;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 0, &p) == 1);
    GP_CHECK(fabs(p.far_cls.l2_median / 520 - 1) < 0.03);
    GP_CHECK(fabs(p.far_cls.dram_median / 864 - 1) < 0.03);
    GP_CHECK(fabs(p.near_cls.dram_median / 480 - 1) < 0.03);
    return 0;
}

GP_TEST(memory_partition_tiny_and_bad_input)
{
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(NULL, NULL, 0, 0, &p) == 0);
    GP_CHECK(p.n == 0 && p.n_used == 0 && p.near_cls.count == 0 && p.reason[0]);
    double t2[] = {280, 520}, t1[] = {500, 880};
    GP_CHECK(gp_mem_partition_split(t2, t1, 1, 0, &p) == 0);
    GP_CHECK(p.near_cls.count == 1 && p.near_cls.dram_median == 500);
    GP_CHECK(gp_mem_partition_split(t2, t1, 2, 0, &p) == 0);
    GP_CHECK(strstr(p.reason, "too few") != NULL);
    /* NaN, zero and negative timings are not samples; the rest still splits. */
    double a2[40], a1[40];
    for (int i = 0; i < 40; i++) {
        a2[i] = i % 2 ? 520 + i : 280 + i;
        a1[i] = i % 2 ? 880 : 500;
    }
    a2[0] = NAN, a2[1] = 0, a2[2] = -5, a1[3] = NAN;
    GP_CHECK(gp_mem_partition_split(a2, a1, 40, 0, &p) == 1);
    GP_CHECK(p.n_outliers == 3 && p.n_used == 37);
    GP_CHECK(p.far_cls.dram_count + p.near_cls.dram_count == 36);
    /* A negative overhead is ignored (figures stay raw). */
    GP_CHECK(gp_mem_partition_split(a2, a1, 40, -50, &p) == 1 && p.overhead == 0);
    return 0;
}

/* The valley between the classes tells two modes from one mode cut in two:
 * two separate modes leave the bins between the medians nearly empty, a
 * Gaussian or flat spread does not. */
GP_TEST(memory_valley_depth_tells_modes_from_spread)
{
    static double v[PART_N];
    unsigned long long seed = 5;
    for (size_t i = 0; i < PART_N; i++) /* two modes 1.35x apart, 3% noise */
        v[i] = log((i % 2 ? 550.0 : 742.0) * (1 + 0.03 * synth_gauss(&seed)));
    gp_stats_sort(v, PART_N);
    double two = gp_mem_valley_depth(v, PART_N, PART_N / 2);
    GP_CHECK(two < 0.1);
    for (size_t i = 0; i < PART_N; i++) /* one Gaussian mode, 15% wide: cut at the median */
        v[i] = log(650.0 * (1 + 0.15 * synth_gauss(&seed)));
    gp_stats_sort(v, PART_N);
    GP_CHECK(gp_mem_valley_depth(v, PART_N, PART_N / 2) > 0.8);
    for (size_t i = 0; i < PART_N; i++) /* flat from 500 to 900 */
        v[i] = log(500.0 + 400.0 * gp_test_rand(&seed));
    gp_stats_sort(v, PART_N);
    GP_CHECK(gp_mem_valley_depth(v, PART_N, PART_N / 2) > 0.6);
    /* Degenerate splits. */
    GP_CHECK(isnan(gp_mem_valley_depth(v, PART_N, 0)) && isnan(gp_mem_valley_depth(v, PART_N, PART_N)));
    double eq[4] = {1, 1, 1, 1};
    GP_CHECK(isnan(gp_mem_valley_depth(eq, 4, 2)));
    /* A wide single mode is not split into near and far even when its
     * halves' medians are 1.3x apart. */
    static double t1[PART_N], t2[PART_N];
    for (size_t i = 0; i < PART_N; i++)
        t1[i] = 650.0 * (1 + 0.2 * synth_gauss(&seed)), t2[i] = 280.0;
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split_by(t1, t2, t1, PART_N, 0, &p) == 0);
    GP_CHECK(strstr(p.reason, "valley") != NULL);
    return 0;
}

/* The H200's sampled lines (tests/data/h200/cache_latency_partition.csv,
 * 4096 lines, raw cycles, 80 cycles of timing overhead): every re-load is a
 * near-L2 hit (one class), the first loads split in two modes, ~550 and
 * ~740 cycles after the overhead. */
GP_TEST(memory_partition_h200_recorded)
{
    char path[512];
    if (!gp_test_source_path(path, sizeof path, "tests/data/h200/cache_latency_partition.csv"))
        return 1;
    gp_series s;
    GP_CHECK(gp_csv_read(path, &s).code == GP_OK);
    static double t1[PART_N], t2[PART_N];
    const int c1 = gp_series_col(&s, "t_first_cycles"), c2 = gp_series_col(&s, "t_second_cycles");
    GP_CHECK(c1 >= 0 && c2 >= 0 && s.nrows == PART_N);
    for (size_t i = 0; i < PART_N; i++)
        t1[i] = s.data[i * (size_t)s.ncols + (size_t)c1], t2[i] = s.data[i * (size_t)s.ncols + (size_t)c2];
    free(s.data);
    gp_mem_partition p;
    GP_CHECK(gp_mem_partition_split(t2, t1, PART_N, 80, &p) == 0);
    GP_CHECK(p.l2_ratio < 1.25 && !p.by_first);
    GP_CHECK(gp_mem_partition_split_by(t1, t2, t1, PART_N, 80, &p) == 1);
    GP_CHECK(p.by_first && p.valley < 0.2);
    GP_CHECK(p.threshold > 670 && p.threshold < 760);
    GP_CHECK_NEAR(p.near_cls.dram_median, 551, 25);
    GP_CHECK_NEAR(p.far_cls.dram_median, 742, 30);
    GP_CHECK(p.far_fraction > 0.45 && p.far_fraction < 0.65);
    GP_CHECK(gp_mem_partition_class_of(&p, 600) == 0 && gp_mem_partition_class_of(&p, 820) == 1);
    return 0;
}

GP_TEST(rel3_last_cache_level_has_no_step)
{
    gp_mem_level l;
    memset(&l, 0, sizeof l);
    l.latency = 658.0;
    l.x_first = 62757.0 * 1024;
    l.x_last = 3932160.0 * 1024;
    l.npoints = 18;
    l.step_ratio = NAN;
    l.confidence = 1;
    char note[200];
    gp_mem_level_note(note, sizeof note, 3, &l);
    GP_CHECK(!strcmp(note, "level 3: 658.0 cycles over 62757..3932160 KiB (18 points), last level, confidence 1.00"));
    l.step_ratio = 1.83;
    gp_mem_level_note(note, sizeof note, 1, &l);
    GP_CHECK(strstr(note, "step x1.83") && !strstr(note, "nan"));
    /* A record of schema 1.0 that says "step xnan" reads as the writer meant. */
    char src[1024];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    gp_records R;
    GP_CHECK(gp_records_load(src, NULL, &R).code == GP_OK);
    const gp_rec_file *c = gp_records_find(&R, "cache_latency");
    int last = 0;
    for (int i = 0; c && i < c->rec.nnotes; i++) {
        GP_CHECK(!strstr(c->rec.notes[i], "xnan"));
        last += strstr(c->rec.notes[i], "(18 points), last level, confidence 1.00") != NULL;
    }
    gp_records_free(&R);
    GP_CHECK(last == 1);
    return 0;
}
