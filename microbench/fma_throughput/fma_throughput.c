/* fma_throughput: FMA per cycle of one CU and of the chip, and the number of
 * compute units seen as a step in kernel time over block count.
 *
 * Method ([Vega-HIP] §2.2.1-2.2.5, made portable): a kernel of
 * independent FMA chains (GP_FMA_ACC accumulators, unrolled inner loop) is
 * timed with events at ~10 ms per launch; FMA/cycle = threads x FMAs per
 * thread / (seconds x measured clock).  One block (one CU) as threads grow
 * wave by wave; fp64 and packed fp16 at the best block size; the seed's loop
 * shapes (compiler default, no unroll, #pragma unroll 16, double loop) on a
 * single chain at a full block; then the whole chip as blocks grow from 1 to
 * 4x the CU count, with dynamic shared memory above half a CU's so one block
 * fits per CU: time stays flat up to the CU count and steps up after it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "fma_throughput_analysis.h"
#include "fma_throughput.h"
#include "evtimer.h"
#include "harness.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define MAX_POINTS 256
#define PEAK_FRAC GP_FMA_PEAK_FRAC
#define STEP_REL GP_FMA_STEP_REL
#define PROBE "fma_throughput"
/* Points of the run the loop shapes are timed at: start, middle, end. */
#define FMA_POINTS 3

typedef struct fma_run {
    gp_evtimer tm;
    float *out;
    int loop;          /* 0: chain kernel of `kind` type; 1: loop-shape kernel of `kind` shape */
    int kind;
    unsigned blocks;
    int threads;
    size_t shm;
    long work;         /* chain: outer iterations; loop: FMAs per thread */
} fma_run;

static double fmas_per_thread(const fma_run *t)
{
    if (t->loop)
        return (double)t->work;
    const int chains = t->kind == GP_FMA_F64 ? GP_FMA_ACC_F64 : GP_FMA_ACC;
    return (double)t->work * GP_FMA_INNER * chains * (t->kind == GP_FMA_F16X2 ? 2 : 1);
}

static gp_status time_once(void *ctx, double *ms_out)
{
    fma_run *t = ctx;
    GP_TRY(gp_evtimer_start(&t->tm));
    if (t->loop)
        GP_TRY(gp_fma_loop_launch(t->tm.stream, t->kind, t->blocks, t->threads, (int)t->work, t->out));
    else
        GP_TRY(gp_fma_launch(t->tm.stream, t->kind, t->blocks, t->threads, t->shm, (int)t->work, t->out));
    return gp_evtimer_stop_ms(&t->tm, ms_out);
}

/* Scale the work per thread until one launch takes about target_ms. */
static gp_status calibrate(fma_run *t, double target_ms)
{
    const long quantum = t->loop ? GP_FMA_LOOP_INNER : 1;
    const long max_work = t->loop ? (1L << 30) : (1L << 24);
    t->work = t->loop ? 64L * GP_FMA_LOOP_INNER : 16;
    double ms;
    GP_TRY(time_once(t, &ms)); /* first launch: module load, clock ramp */
    for (int step = 0; step < 6; step++) {
        GP_TRY(time_once(t, &ms));
        double scale = ms > 0 ? target_ms / ms : 64.0;
        if (scale > 0.8 && scale < 1.25)
            break;
        if (scale > 64)
            scale = 64;
        long w = (long)((double)t->work * scale / quantum) * quantum;
        if (w < quantum)
            w = quantum;
        if (w > max_work)
            w = max_work;
        if (w == t->work)
            break;
        t->work = w;
    }
    return gp_ok();
}

/* Median time of a few launches; rate in FMA per cycle. */
static gp_status measure(gp_probe_ctx *ctx, fma_run *t, double *ms, double *spread, double *rate)
{
    GP_TRY(gp_harness_long_launch_guarded(ctx->opts->quick, time_once, t, &ctx->guard, ms, spread));
    double fmas = fmas_per_thread(t) * t->threads * (double)t->blocks;
    *rate = fmas / (*ms * 1e-3 * ctx->clock_mhz * 1e6);
    return gp_ok();
}

/* A value whose launches spread by more than 5 % is marked unstable. */
static gp_value *set_value(gp_record *r, const char *key, double v, const char *unit, double spread,
                           const char *method)
{
    return gp_record_value_within(r, key, v, unit, spread, 0.05, method);
}

/* One block on one CU, threads growing wave by wave. */
static gp_status sweep_one_cu(gp_probe_ctx *ctx, fma_run *t, double target_ms, int *best_threads,
                              double *peak_out)
{
    const int w = ctx->dev.wave_size > 0 ? ctx->dev.wave_size : 32;
    const int max = ctx->dev.max_threads_per_block;
    int thr[MAX_POINTS], n = 0;
    if (max / w <= 64) {
        for (int b = w; b <= max && n < MAX_POINTS; b += w)
            thr[n++] = b;
    } else { /* too many points: powers of two and multiples of 4 waves */
        for (int b = w; b <= max && n < MAX_POINTS; b += (b < 4 * w ? w : 4 * w))
            thr[n++] = b;
    }
    gp_series *ser = gp_record_series(ctx->rec, "one_cu", "threads,waves,ms_median,spread,fma_per_cycle");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, PROBE ": no room for series");
    double x[MAX_POINTS], y[MAX_POINTS], sp[MAX_POINTS];
    t->loop = 0, t->kind = GP_FMA_F32, t->blocks = 1, t->shm = 0;
    for (int i = 0; i < n; i++) {
        t->threads = thr[i];
        GP_TRY(calibrate(t, target_ms));
        double ms;
        GP_TRY(measure(ctx, t, &ms, &sp[i], &y[i]));
        x[i] = (double)thr[i] / w;
        double row[5] = {thr[i], x[i], ms, sp[i], y[i]};
        GP_TRY(gp_series_append(ser, row));
        gp_progress(PROBE, i + 1, n, "one CU, %d threads: %.1f fp32 FMA/cycle", thr[i], y[i]);
    }
    int ipk = gp_analysis_argmax(y, (size_t)n);
    if (ipk < 0)
        return gp_fail(GP_ERR_CHECK, PROBE ": no finite one-CU rate");
    *best_threads = thr[ipk];
    *peak_out = y[ipk];
    char m[256];
    snprintf(m, sizeof m, "one block on one CU, %d independent fp32 FMA chains per thread, best over "
                          "%d..%d threads; FMA count / (event time x measured clock)", GP_FMA_ACC, w, max);
    set_value(ctx->rec, "fp32_fma_per_cycle_per_cu", y[ipk], "FMA/cycle", sp[ipk], m);
    /* Near-ties make the arg-max a coin toss between runs (256, 512 and 768
     * on the H200, 0.05 % apart, with lower rates between them: the one-CU
     * curve is a saw-tooth over whole groups of 8 waves): record the span from
     * the first to the last block size within the peak's spread as a range;
     * the value stays the arg-max. */
    int plo, phi;
    gp_analysis_near_ties(y, (size_t)n, ipk, sp[ipk] > 0.001 ? sp[ipk] : 0.001, &plo, &phi);
    gp_value *best = set_value(ctx->rec, "fp32_best_block_threads", thr[ipk], "threads", -1,
                               "block size of the one-CU peak; range: first to last block size within the peak's "
                               "spread (at least 0.1 %)");
    if (plo >= 0)
        gp_value_range(best, thr[plo], thr[phi]);
    int imin = gp_analysis_first_reaching(x, y, (size_t)n, y[ipk], PEAK_FRAC);
    if (imin < 0) {
        gp_record_none(ctx->rec, "min_waves_for_peak", "waves", "no block size reached 95% of the peak");
    } else {
        set_value(ctx->rec, "min_waves_for_peak", x[imin], "waves", -1,
                  "fewest waves in one block (one CU) reaching 95% of the one-CU fp32 peak");
        set_value(ctx->rec, "min_waves_per_simd_for_peak", x[imin] / 4, "waves", -1,
                  "min_waves_for_peak / 4: four SIMDs (gfx9) or SM sub-partitions (NVIDIA sm_70+) per CU");
    }
    double lanes = gp_compute_lanes_pow2(y[ipk], GP_FMA_LANES_TOL);
    set_value(ctx->rec, "fp32_lanes_per_cu_inferred", lanes, "lanes", -1,
              "smallest power of two >= 0.97 x the measured one-CU fp32 peak");
    return gp_ok();
}

/* fp64 and packed fp16 on one CU at the fp32 peak's block size. */
static gp_status other_types(gp_probe_ctx *ctx, fma_run *t, double target_ms, int threads)
{
    static const char *keys[GP_FMA_NTYPES] = {NULL, "fp64_fma_per_cycle_per_cu", "fp16x2_fma_per_cycle_per_cu"};
    static const char *methods[GP_FMA_NTYPES] = {
        NULL, "one block on one CU at the fp32 peak's block size, 16 independent fp64 fma() chains a thread",
        "one block on one CU at the fp32 peak's block size, 8 independent __hfma2 chains a thread; each packed FMA "
        "counts as 2"};
    gp_series *ser = gp_record_series(ctx->rec, "types", "type,threads,ms_median,spread,fma_per_cycle");
    for (int type = GP_FMA_F64; type < GP_FMA_NTYPES; type++) {
        if (type == GP_FMA_F16X2 && !gp_fma_have_f16x2()) {
            gp_record_none(ctx->rec, keys[type], "FMA/cycle", "half2 kernel not compiled for this target");
            continue;
        }
        t->loop = 0, t->kind = type, t->blocks = 1, t->threads = threads, t->shm = 0;
        GP_TRY(calibrate(t, target_ms));
        double ms, sp, rate;
        GP_TRY(measure(ctx, t, &ms, &sp, &rate));
        set_value(ctx->rec, keys[type], rate, "FMA/cycle", sp, methods[type]);
        if (ser) {
            double row[5] = {type, threads, ms, sp, rate};
            GP_TRY(gp_series_append(ser, row));
        }
        gp_progress(PROBE, type, GP_FMA_NTYPES - 1, "one CU %s: %.1f FMA/cycle",
                    type == GP_FMA_F64 ? "fp64" : "fp16x2", rate);
    }
    return gp_ok();
}

/* The seed's loop shapes, one dependent chain per thread, a full block:
 * each shape calibrated and timed in fresh launches, its rate in rate[s];
 * with `rec` set, recorded (values, series, progress) into vals[s]. */
static gp_status loop_shapes(gp_probe_ctx *ctx, fma_run *t, double target_ms, int rec, double rate[GP_FMA_NLOOPS],
                             gp_value *vals[GP_FMA_NLOOPS])
{
    static const char *keys[GP_FMA_NLOOPS] = {"loop_plain_fma_per_cycle_per_cu", "loop_nounroll_fma_per_cycle_per_cu",
                                              "loop_unroll16_fma_per_cycle_per_cu", "loop_double_fma_per_cycle_per_cu"};
    static const char *what[GP_FMA_NLOOPS] = {"no pragma (compiler's default unroll)", "#pragma unroll 1",
                                              "#pragma unroll 16", "runtime outer loop around a constant inner loop of 100"};
    gp_series *ser = rec ? gp_record_series(ctx->rec, "loops", "shape,threads,ms_median,spread,fma_per_cycle") : NULL;
    for (int s = 0; s < GP_FMA_NLOOPS; s++) {
        t->loop = 1, t->kind = s, t->blocks = 1, t->threads = ctx->dev.max_threads_per_block, t->shm = 0;
        GP_TRY(calibrate(t, target_ms));
        double ms, sp;
        GP_TRY(measure(ctx, t, &ms, &sp, &rate[s]));
        if (!rec)
            continue;
        char m[256];
        snprintf(m, sizeof m, "one block of %d threads on one CU, one dependent fp32 chain per thread, %s; "
                              "value and spread_between: the median and spread of 3 points spread over the run",
                 t->threads, what[s]);
        vals[s] = set_value(ctx->rec, keys[s], rate[s], "FMA/cycle", sp, m);
        if (ser) {
            double row[5] = {s, t->threads, ms, sp, rate[s]};
            GP_TRY(gp_series_append(ser, row));
        }
        gp_progress(PROBE, s + 1, GP_FMA_NLOOPS, "loop shape %s: %.1f FMA/cycle", what[s], rate[s]);
    }
    return gp_ok();
}

/* Dynamic shared memory that leaves room for one block per CU only. */
static size_t one_block_shm(const gp_device_info *d)
{
    if (d->lds_per_cu == 0)
        return 0;
    size_t shm = d->lds_per_cu / 2 + 1024;
    size_t limit = d->lds_per_block_optin > d->lds_per_block ? d->lds_per_block_optin : d->lds_per_block;
    return shm <= limit ? shm : 0;
}

static gp_status chip_point(gp_probe_ctx *ctx, fma_run *t, unsigned blocks, gp_series *ser, double *ms,
                            double *rate)
{
    double sp;
    t->blocks = blocks;
    GP_TRY(measure(ctx, t, ms, &sp, rate));
    if (ser) {
        double row[4] = {blocks, *ms, sp, *rate};
        GP_TRY(gp_series_append(ser, row));
    }
    return gp_ok();
}

/* Whole chip: time over block count; the first step is the CU count. */
static gp_status sweep_chip(gp_probe_ctx *ctx, fma_run *t, double target_ms, int threads)
{
    gp_record *r = ctx->rec;
    const int cus = ctx->dev.compute_units > 0 ? ctx->dev.compute_units : 1;
    int per_cu = 0;
    size_t shm = one_block_shm(&ctx->dev);
    gp_status st = gp_fma_prepare(GP_FMA_F32, threads, shm, &per_cu);
    if (st.code != GP_OK || per_cu < 1) {
        gp_record_note(r, "could not reserve %zu bytes of shared memory per block (%s); chip sweep without it",
                       shm, st.code != GP_OK ? st.msg : "no block fits");
        shm = 0;
        GP_TRY(gp_fma_prepare(GP_FMA_F32, threads, shm, &per_cu));
        if (per_cu < 1)
            return gp_fail(GP_ERR_CHECK, PROBE ": no block of %d threads fits on a CU", threads);
    }
    gp_record_note(r, "chip sweep: blocks of %d threads with %zu bytes of dynamic shared memory; the runtime "
                      "places %d such block(s) per CU", threads, shm, per_cu);
    t->loop = 0, t->kind = GP_FMA_F32, t->threads = threads, t->shm = shm, t->blocks = 1;
    GP_TRY(calibrate(t, target_ms));

    gp_series *ser = gp_record_series(r, "chip", "blocks,ms_median,spread,fma_per_cycle");
    /* --quick: up to 2x the CUs in 16 steps (the first step sits at 1x, so
     * that still finds it) instead of 4x in 64: a quarter of the launches,
     * which is what keeps the sanitize run (compute-sanitizer racecheck
     * tracks every block's shared memory) within its time and memory. */
    const int quick = ctx->opts->quick;
    const long maxb = (quick ? 2L : 4L) * cus * per_cu;
    const long step = maxb / (quick ? 16 : 64) > 1 ? maxb / (quick ? 16 : 64) : 1;
    double x[MAX_POINTS], y[MAX_POINTS], best_rate = 0;
    int n = 0;
    for (long b = 1; b <= maxb && n < MAX_POINTS; b = b < step ? b * 2 : b + step) {
        if (b > step && b % step)
            b -= b % step;
        double ms, rate;
        GP_TRY(chip_point(ctx, t, (unsigned)b, ser, &ms, &rate));
        x[n] = (double)b, y[n++] = ms;
        if (rate > best_rate)
            best_rate = rate;
        gp_progress(PROBE, n, (int)(maxb / step) + 8, "chip, %ld blocks: %.2f ms, %.0f FMA/cycle", b, ms, rate);
    }
    int is = gp_compute_first_step(y, (size_t)n, STEP_REL);
    if (is < 1) {
        gp_record_none(r, "detected_compute_units", "CUs", quick ? "no step in kernel time over 1..2x the CU count"
                                                                 : "no step in kernel time over 1..4x the CU count");
    } else {
        /* Binary search between the last flat point and the first stepped
         * one: time is flat until every CU holds its blocks. */
        double base[MAX_POINTS];
        memcpy(base, y, (size_t)is * sizeof *y);
        double flat = gp_stats_median(base, (size_t)is);
        long lo = (long)x[is - 1], hi = (long)x[is];
        for (int k = 0; k < 24 && hi - lo > 1; k++) {
            long mid = lo + (hi - lo) / 2;
            double ms, rate;
            GP_TRY(chip_point(ctx, t, (unsigned)mid, ser, &ms, &rate));
            if (rate > best_rate)
                best_rate = rate;
            if (ms > flat * (1 + STEP_REL))
                hi = mid;
            else
                lo = mid;
        }
        double units = (double)lo / per_cu;
        char m[256];
        snprintf(m, sizeof m, "largest block count (%ld) before kernel time steps up >%.0f%%, bisected, "
                              "divided by the %d block(s) per CU the runtime places", lo, 100 * STEP_REL, per_cu);
        set_value(r, "detected_compute_units", units, "CUs", -1, m);
        if (fabs(units - cus) > 0.5)
            gp_record_note(r, "detected %.1f compute units; the runtime reports %d", units, cus);
        gp_staircase_fit f = gp_compute_staircase(x, y, (size_t)n, 1, (int)maxb, GP_FMA_STAIRCASE_MAX_RMS);
        if (f.units > 0)
            gp_record_note(r, "staircase fit time = %.2f ms x ceil(blocks / c) over the coarse sweep: c in "
                              "[%d, %d] (rms %.1f%%)", f.step_time, f.units_lo, f.units_hi, 100 * f.rel_rms);
    }
    set_value(r, "fp32_fma_per_cycle_chip", best_rate, "FMA/cycle", -1,
              quick ? "largest rate over the chip sweep (blocks 1..2x CUs, one block per CU; --quick)"
                    : "largest rate over the chip sweep (blocks 1..4x CUs, one block per CU)");
    const char *src = NULL;
    int lanes = gp_compute_published_fp32_lanes(ctx->dev.arch, &src);
    const gp_value *inf = gp_record_find(r, "fp32_lanes_per_cu_inferred");
    char m[256];
    if (lanes > 0) {
        snprintf(m, sizeof m, "chip rate / (%d lanes x %d CUs); lanes published: %s", lanes, cus, src);
    } else if (inf && inf->value > 0) {
        lanes = (int)inf->value;
        snprintf(m, sizeof m, "chip rate / (%d lanes x %d CUs); lanes inferred (no published figure for %s)",
                 lanes, cus, ctx->dev.arch);
    }
    if (lanes > 0) {
        gp_value *pf = set_value(r, "fp32_peak_fraction", best_rate / ((double)lanes * cus), "fraction", -1, m);
        if (pf) /* a rate per cycle over a lane count: it went through the measured clock */
            pf->clock_converted = 1;
    } else
        gp_record_none(r, "fp32_peak_fraction", "fraction", "no lane count known or inferred");
    return gp_ok();
}

static gp_status fma_run_all(gp_probe_ctx *ctx, fma_run *t)
{
    double target = ctx->opts->quick ? 2.0 : 10.0;
    int best = 0;
    double peak = 0;
    /* The loop shapes at the start, in the middle (recorded) and at the end
     * of the run: each value is the median of the three and carries their
     * spread.  The unroll-1 loop moved 1 % between the build tree's run and
     * the package's on the H200 (band 0.88 %), and 1.8 % over eight H200
     * runs, more than one point's repeats show.  All three points convert
     * with the clock measured before the probe (clock_mhz), so a clock that
     * drifts over the run is in the spread too. */
    double loops[FMA_POINTS][GP_FMA_NLOOPS];
    gp_value *vals[GP_FMA_NLOOPS] = {NULL};
    GP_TRY(loop_shapes(ctx, t, target, 0, loops[0], vals));
    GP_TRY(sweep_one_cu(ctx, t, target, &best, &peak));
    GP_TRY(other_types(ctx, t, target, best));
    GP_TRY(loop_shapes(ctx, t, target, 1, loops[1], vals));
    GP_TRY(sweep_chip(ctx, t, ctx->opts->quick ? 3.0 : 10.0, best));
    GP_TRY(loop_shapes(ctx, t, target, 0, loops[2], vals));
    for (int s = 0; s < GP_FMA_NLOOPS; s++) {
        double per[FMA_POINTS];
        for (int k = 0; k < FMA_POINTS; k++)
            per[k] = loops[k][s];
        gp_value_points(vals[s], per, FMA_POINTS);
    }
    gp_record_note(ctx->rec, "one-CU fp32 peak %.1f FMA/cycle at %d threads", peak, best);
    return gp_ok();
}

static gp_status fma_throughput_run(gp_probe_ctx *ctx)
{
    fma_run t;
    memset(&t, 0, sizeof t);
    gp_status st = gp_evtimer_create(&t.tm, 1);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&t.out, 64);
    if (st.code == GP_OK)
        st = fma_run_all(ctx, &t);
    if (t.out)
        gp_rt_free(t.out);
    gp_evtimer_destroy(&t.tm);
    return st;
}

static gp_status fma_throughput_check(const gp_record *rec, const gp_device_info *dev)
{
    const gp_value *cu = gp_record_find(rec, "fp32_fma_per_cycle_per_cu");
    if (!cu || !cu->detected || !(cu->value > 0))
        return gp_fail(GP_ERR_CHECK, PROBE ": no positive one-CU fp32 rate");
    /* More FMAs per cycle than resident threads: the clock or timing is wrong. */
    if (dev->max_threads_per_cu > 0 && cu->value > dev->max_threads_per_cu)
        return gp_fail(GP_ERR_CHECK, PROBE ": %.1f FMA/cycle on one CU exceeds its %d resident threads",
                       cu->value, dev->max_threads_per_cu);
    const gp_value *d = gp_record_find(rec, "detected_compute_units");
    if (d && d->detected && dev->compute_units > 0 &&
        fabs(d->value - dev->compute_units) > 0.1 * dev->compute_units)
        return gp_fail(GP_ERR_CHECK, PROBE ": detected %.1f compute units, the runtime reports %d (>10%% apart)",
                       d->value, dev->compute_units);
    const gp_value *f = gp_record_find(rec, "fp32_peak_fraction");
    if (f && f->detected && f->value > 1.10)
        return gp_fail(GP_ERR_CHECK, PROBE ": %.2f of the theoretical fp32 peak: the clock or lane count is wrong",
                       f->value);
    const gp_value *mw = gp_record_find(rec, "min_waves_for_peak");
    if (mw && mw->detected && dev->wave_size > 0 &&
        (mw->value < 1 || mw->value > (double)dev->max_threads_per_block / dev->wave_size))
        return gp_fail(GP_ERR_CHECK, PROBE ": min_waves_for_peak %.0f outside one block", mw->value);
    static const char *const between[] = {"loop_plain_fma_per_cycle_per_cu", "loop_nounroll_fma_per_cycle_per_cu",
                                          "loop_unroll16_fma_per_cycle_per_cu", "loop_double_fma_per_cycle_per_cu"};
    return gp_record_require_between(rec, between, (int)GP_COUNT(between));
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row fma_throughput_table_rows[] = {
    {"detected_compute_units", "device", "compute_units"},
    {"fp32_fma_per_cycle_per_cu", "compute", "fp32_fma_per_cycle_per_cu"},
    {"fp32_peak_fraction", "compute", "fp32_peak_fraction"},
    {"fp64_fma_per_cycle_per_cu", "compute", "fp64_fma_per_cycle_per_cu"},
    {"min_waves_for_peak", "compute", "min_waves_for_peak"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot fma_throughput_plots[] = {
    {"one_cu", "threads", "fma_per_cycle", 0, 0, "FMA per cycle vs threads (one block on one CU)",
     "threads in the block", "fp32 FMA per cycle (one CU)", GP_PLOT_YZERO, NULL, NULL},
    {"chip", "blocks", "fma_per_cycle", 0, 0, "FMA per cycle vs blocks (whole chip, one block per CU)",
     "blocks", "fp32 FMA per cycle (chip)", GP_PLOT_YZERO, NULL, NULL},
    {"types", "type{0=fp32;1=fp64;2=fp16x2 (a packed FMA counts 2)}", "fma_per_cycle", 0, 0,
     "fp64 and packed fp16 FMA per cycle (one CU)", NULL, "FMA per cycle (one CU)", GP_PLOT_BARS, NULL, NULL},
    {"loops",
     "shape{0=no pragma (compiler unroll);1=#pragma unroll 1;2=#pragma unroll 16;3=double loop (inner 100)}",
     "fma_per_cycle", 0, 0, "FMA per cycle by loop shape (one CU, one chain per thread)", NULL,
     "fp32 FMA per cycle (one CU)", GP_PLOT_BARS, NULL, NULL},
    /* A guess for a series not named above: skipped when the columns differ. */
    {"*", "threads|threads_per_block|blocks|waves|warps",
     "fma_per_cycle|fma_per_cycle_per_cu|flops_per_cycle", 0, 0, "FMA per cycle", NULL, NULL, GP_PLOT_YZERO, NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline fma_throughput_datasheet[] = {
    /* Under load the clock should hold its boost (throttling shows here);
     * the CU count is exact; an FMA peak within 5 % of the vendor's. */
    {100, "Device", "core clock", NULL, NULL, NULL, GP_DS_CLOCK, NULL, "device", "clock_mhz", NULL, "clock_mhz", 0.95,
     0},
    {110, "Device", "compute units", "detected_compute_units", NULL, NULL, GP_DS_INT, "CUs", "device", "compute_units",
     NULL, "compute_units", 1.0, 1.0},
    {200, "Compute", "fp32 FMA rate", "fp32_fma_per_cycle_per_cu", "fp32_peak_fraction", NULL, GP_DS_FLOPS, NULL,
     "compute", "fp32_fma_per_cycle_per_cu", NULL, "fp32_tflops", 0.95, 0},
    {210, "Compute", "fp64 FMA rate", "fp64_fma_per_cycle_per_cu", NULL, NULL, GP_DS_FLOPS, NULL, "compute",
     "fp64_fma_per_cycle_per_cu", NULL, "fp64_tflops", 0.95, 0},
};

/* Its ceilings of the report's roofline. */
static const gp_probe_roof fma_throughput_roofs[] = {
    {100, "fp32 FMA", GP_ROOF_FLOPS, "fp32_fma_per_cycle_per_cu", 1},
    {110, "fp64 FMA", GP_ROOF_FLOPS, "fp64_fma_per_cycle_per_cu", 0},
};

const gp_probe gp_probe_fma_throughput = {
    .name = PROBE,
    .summary = "FMA per cycle per CU and per chip (fp32, fp64, fp16x2), loop shapes, compute units from a time step",
    .run = fma_throughput_run,
    .check = fma_throughput_check,
    .table_rows = fma_throughput_table_rows,
    .ntable_rows = GP_COUNT(fma_throughput_table_rows),
    .plots = fma_throughput_plots,
    .nplots = GP_COUNT(fma_throughput_plots),
    .datasheet = fma_throughput_datasheet,
    .ndatasheet = GP_COUNT(fma_throughput_datasheet),
    .roofs = fma_throughput_roofs,
    .nroofs = GP_COUNT(fma_throughput_roofs),
};
