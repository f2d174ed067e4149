/* The probes' analyses rerun on the series recorded on an NVIDIA H200 (sm_90,
 * 132 SMs, wave 32, measured clock 1980 MHz; the CSV files in tests/data/h200, each
 * probe's derived values in tests/data/h200/records/<probe>.json).  Each test
 * feeds the CSV columns to the same function, with the same parameters, as
 * the probe does and checks the finding against the device facts, with
 * tolerances that hold for this data but not for a wrong analysis.
 *
 * Not rerun here: the probe's bisection of the CU count (it needs the GPU;
 * the bisected points are in the chip series, so the first step over the
 * sorted series reproduces its answer), and the channel probe's padding sweep
 * (its series is not in tests/data/h200). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "memory_bandwidth_analysis.h"
#include "channel_conflicts_analysis.h"
#include "fma_throughput_analysis.h"
#include "csv.h"
#include "divergence_analysis.h"
#include "gp_test.h"
#include "cache_latency_analysis.h"
#include "lds_analysis.h"
#include "register_limits.h"
#include "register_limits_analysis.h"

#define H200_MAX_ROWS 512

/* Read tests/data/h200/<file> (GP_SOURCE_DIR is set by CTest); 0 on failure. */
static int h200_load(const char *file, gp_series *s)
{
    char p[1024], rel[256];
    snprintf(rel, sizeof rel, "tests/data/h200/%s", file);
    if (!gp_test_source_path(p, sizeof p, rel))
        return 0;
    gp_status st = gp_csv_read(p, s);
    if (st.code != GP_OK) {
        fprintf(stderr, "%s: %s\n", p, st.msg);
        return 0;
    }
    if (s->nrows > H200_MAX_ROWS) {
        fprintf(stderr, "%s: %zu rows, more than this test holds\n", p, (size_t)s->nrows);
        free(s->data);
        return 0;
    }
    return 1;
}

/* Copy column `name` into dst; 0 when it is missing. */
static int h200_col(const gp_series *s, const char *name, double *dst)
{
    int c = gp_series_col(s, name);
    if (c < 0) {
        fprintf(stderr, "column %s missing\n", name);
        return 0;
    }
    gp_series_column(s, c, dst);
    return 1;
}

/* Sort (x, y) pairs by x ascending (insertion sort: a few hundred points). */
static void h200_sort_pairs(double *x, double *y, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double xi = x[i], yi = y[i];
        size_t j = i;
        for (; j > 0 && x[j - 1] > xi; j--)
            x[j] = x[j - 1], y[j] = y[j - 1];
        x[j] = xi, y[j] = yi;
    }
}

/* Chip sweep, one block per SM: time is flat up to 132 blocks and steps by
 * one stair per further 132.  The sweep holds the probe's bisected points
 * (132, 133, 134) at its end, so the staircase pins c to exactly 132 and the
 * first step over the sorted series falls right after 132 blocks. */
GP_TEST(h200_fma_chip_compute_units)
{
    gp_series s;
    GP_CHECK(h200_load("fma_throughput_chip.csv", &s));
    static double x[H200_MAX_ROWS], y[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "blocks", x) && h200_col(&s, "ms_median", y));
    size_t n = s.nrows;
    free(s.data);
    double maxb = 0;
    for (size_t i = 0; i < n; i++)
        maxb = fmax(maxb, x[i]);
    /* As the probe: c over [1, largest block count], 15% rms at most. */
    gp_staircase_fit f = gp_compute_staircase(x, y, n, 1, (int)maxb, GP_FMA_STAIRCASE_MAX_RMS);
    GP_CHECK(f.units == 132);
    GP_CHECK(f.units_lo == 132 && f.units_hi == 132);
    GP_CHECK(f.rel_rms < 0.01);
    GP_CHECK_NEAR(f.step_time, 9.74, 0.1); /* ms per stair: the one-block time */
    /* The probe's rule (first point GP_FMA_STEP_REL over the median before it). */
    h200_sort_pairs(x, y, n);
    int is = gp_compute_first_step(y, n, GP_FMA_STEP_REL);
    GP_CHECK(is >= 1);
    GP_CHECK(x[is - 1] == 132 && x[is] == 133);
    return 0;
}

/* One block on one SM: the peak is 4 sub-partitions x 32 lanes = 128 FMA per
 * cycle less a little (record: 124.96 at 512 threads), reached first with 8
 * waves (record: min_waves_for_peak 8, 2 per sub-partition). */
GP_TEST(h200_fma_one_cu_peak_and_waves)
{
    gp_series s;
    GP_CHECK(h200_load("fma_throughput_one_cu.csv", &s));
    static double w[H200_MAX_ROWS], r[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "waves", w) && h200_col(&s, "fma_per_cycle", r));
    size_t n = s.nrows;
    free(s.data);
    int ipk = gp_analysis_argmax(r, n);
    GP_CHECK(ipk >= 0);
    GP_CHECK(r[ipk] >= 123 && r[ipk] <= 128);
    GP_CHECK(gp_compute_lanes_pow2(r[ipk], GP_FMA_LANES_TOL) == 128);
    int imin = gp_analysis_first_reaching(w, r, n, r[ipk], GP_FMA_PEAK_FRAC);
    GP_CHECK(imin >= 0);
    GP_CHECK(w[imin] == 8);
    GP_CHECK(w[imin] / 4 == 2);
    return 0;
}

/* Occupancy over registers per thread (blocks of 64 threads, wave 32): a
 * 64K-register file per SM in 4 parts, allocation in granules of 8, and the
 * first spill at 256 live values (record: 31 of 31 points reproduced). */
GP_TEST(h200_register_limits_file_granule_spill)
{
    gp_series s;
    GP_CHECK(h200_load("register_limits_occupancy.csv", &s));
    static double live[H200_MAX_ROWS], regs[H200_MAX_ROWS], local[H200_MAX_ROWS], thr[H200_MAX_ROWS],
        rate[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "live_values", live) && h200_col(&s, "regs_per_thread", regs) &&
             h200_col(&s, "local_bytes", local) && h200_col(&s, "threads_per_cu", thr) &&
             h200_col(&s, "fma_per_cycle_per_cu", rate));
    size_t n = s.nrows;
    free(s.data);
    /* The probe's block size (the blocks_per_cu and threads_per_cu columns
     * agree on it); wave 32 is the H200's. */
    gp_register_fit f = gp_register_fit_granule(regs, thr, n, 32, GP_REGLIM_BLOCK);
    GP_CHECK(f.granule == 8);
    GP_CHECK(f.per_cu == 65536);
    GP_CHECK(f.partitions == 4);
    GP_CHECK(f.limited_points >= 20 && f.matched == f.limited_points);
    int is = gp_register_first_spill(local, n);
    GP_CHECK(is >= 0 && live[is] == 256);
    /* Cliffs as the probe counts them (record: 10, 2 followed). */
    int idx[H200_MAX_ROWS];
    int nc = gp_register_cliffs(thr, n, GP_REGLIM_CLIFF_REL, idx, H200_MAX_ROWS);
    GP_CHECK(nc == 10);
    GP_CHECK(gp_register_cliffs_followed(thr, rate, n, idx, nc, GP_REGLIM_FOLLOW_FRAC) == 2);
    return 0;
}

/* Lane groups G with (tid / G) odd on the other branch: 2x slower up to
 * G = 16, uniform speed from G = 32: the wave is 32 lanes.  The probe's
 * reference is the mean of the all-A and all-B times, which the series keeps
 * as ms_median / ratio_to_uniform_mean. */
GP_TEST(h200_divergence_wave_size)
{
    gp_series s;
    GP_CHECK(h200_load("divergence_groups.csv", &s));
    static double g[H200_MAX_ROWS], t[H200_MAX_ROWS], ratio[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "group_size", g) && h200_col(&s, "ms_median", t) &&
             h200_col(&s, "ratio_to_uniform_mean", ratio));
    size_t n = s.nrows;
    free(s.data);
    GP_CHECK(n >= 2 && ratio[0] > 0);
    double ref = t[0] / ratio[0];
    GP_CHECK_NEAR(ref, 9.95, 0.05); /* record: uniform_ms 9.954 */
    gp_divergence_wave w = gp_divergence_wave_from_groups(g, t, n, ref, GP_DIVERGENCE_GROUP_TOL);
    GP_CHECK(w.detected);
    GP_CHECK(w.group == 32);
    GP_CHECK(w.slow_ratio > 1.8 && w.slow_ratio < 2.2);
    return 0;
}

/* Shared memory, 4-byte accesses at strides 1..128: 32 banks of 4 bytes and
 * pad 1 for a [32][32 + p] tile (record: degree 1.00 at p = 1). */
GP_TEST(h200_lds_banks_and_pad)
{
    gp_series s;
    GP_CHECK(h200_load("lds_conflicts.csv", &s));
    static double st[H200_MAX_ROWS], eb[H200_MAX_ROWS], deg[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "stride", st) && h200_col(&s, "bytes_per_access", eb) && h200_col(&s, "degree", deg));
    size_t n = 0;
    for (size_t i = 0; i < s.nrows; i++) /* the probe analyses the 4-byte rows */
        if (eb[i] == 4)
            st[n] = st[i], deg[n] = deg[i], n++;
    free(s.data);
    GP_CHECK(n >= 32);
    int banks = 0, bw = 0;
    double conf = 0;
    GP_CHECK(gp_mem_bank_geometry(st, deg, n, GP_LDS_BANK_ELEM_BYTES, &banks, &bw, &conf) == 0);
    GP_CHECK(banks == 32 && bw == 4);
    GP_CHECK(conf >= 0.5);
    double best = NAN;
    GP_CHECK(gp_mem_best_pad(st, deg, n, banks, GP_LDS_MAX_PAD, &best) == 1);
    GP_CHECK(best < 1.1);
    return 0;
}

/* Bandwidth over address windows 256 B..16 KiB: flat within 1% (hashed
 * channels), so no proportional rise and no interleave is detected. */
GP_TEST(h200_channel_window_flat)
{
    gp_series s;
    GP_CHECK(h200_load("channel_conflicts_window.csv", &s));
    static double w[H200_MAX_ROWS], bw[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "window_bytes", w) && h200_col(&s, "gbs", bw));
    size_t n = s.nrows;
    free(s.data);
    GP_CHECK(n >= 5);
    gp_bw_window_fit f;
    gp_bw_window_analyse(w, bw, n, &f);
    GP_CHECK(!f.detected);
    GP_CHECK(f.min_ratio > 0.98);
    GP_CHECK(isnan(f.count));
    return 0;
}

/* Best read bandwidth over footprints: the plateau beyond the L2 (reported
 * 60 MiB) is DRAM at 4000..4814 GB/s (4814 = the theoretical figure;
 * record: 4634 GB/s over 90.5-4096 MiB), with the probe's plateau rule. */
GP_TEST(h200_memory_bandwidth_dram_plateau)
{
    gp_series s;
    GP_CHECK(h200_load("memory_bandwidth_best.csv", &s));
    static double k[H200_MAX_ROWS], fp[H200_MAX_ROWS], g[H200_MAX_ROWS];
    GP_CHECK(h200_col(&s, "kernel", k) && h200_col(&s, "footprint_bytes", fp) && h200_col(&s, "gbs", g));
    size_t n = 0;
    for (size_t i = 0; i < s.nrows; i++) /* kernel 0 is the read */
        if (k[i] == 0)
            fp[n] = fp[i], g[n] = g[i], n++;
    free(s.data);
    GP_CHECK(n >= 10);
    h200_sort_pairs(fp, g, n);
    gp_bw_plateau p[8];
    int np = gp_bw_plateaus(g, n, GP_BW_PLATEAU_TOL, GP_BW_PLATEAU_MIN_POINTS, p, 8);
    GP_CHECK(np >= 2);
    gp_bw_levels lv = gp_bw_classify(fp, p, np, 60.0 * 1024 * 1024);
    GP_CHECK(lv.dram >= 0);
    const gp_bw_plateau *d = &p[lv.dram];
    GP_CHECK(d->level >= 4000 && d->level <= 4814);
    GP_CHECK(fp[d->first] > 60.0 * 1024 * 1024 && fp[d->last] >= 1024.0 * 1024 * 1024);
    double top = 0;
    for (int i = 0; i < np; i++)
        top = fmax(top, p[i].level);
    GP_CHECK(top > 2 * d->level); /* the L2 plateaus sit well above DRAM */
    return 0;
}
