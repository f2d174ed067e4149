/* atomics: atomicAdd throughput on global memory and LDS, int32 and fp32,
 * uncontended, contended by a wave, and contended by the whole grid (LDS: a
 * block).  Each thread adds `iters` times; ops per second = threads x iters /
 * event time (median of repeats), ops per cycle from the measured clock.
 * The counters are copied back after the last repeat and must equal the
 * number of adds; a wrong count fails the probe. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomics.h"
#include "atomics_analysis.h"
#include "evtimer.h"
#include "harness.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define FP32_EXACT (1 << 24) /* fp32 counts up to 2^24 by ones exactly */
#define BLOCK 256
/* Global modes measured again in fresh launches: uncontended, coalesced,
 * wave-contended (the grid-contended rate is one address: flat run to run). */
#define GP_AGAIN_MODES 3

typedef struct at_run {
    gp_evtimer tm; /* default stream */
    void *buf;
    size_t buf_bytes;
    int lds, is_float, mode;
    unsigned grid;
    int iters;
} at_run;

static gp_status time_once(void *ctx, double *ms_out)
{
    at_run *r = ctx;
    /* Reset outside the timed region; same (default) stream, so ordered. */
    GP_TRY(gp_rt_memset(r->buf, 0, r->buf_bytes));
    GP_TRY(gp_evtimer_start(&r->tm));
    if (r->lds)
        GP_TRY(gp_atom_lds_launch(NULL, r->is_float, r->mode, r->grid, BLOCK, r->buf, r->iters));
    else
        GP_TRY(gp_atom_global_launch(NULL, r->is_float, r->mode, r->grid, BLOCK, r->buf, r->iters));
    return gp_evtimer_stop_ms(&r->tm, ms_out);
}

/* Host check of the last repeat's counts: every counter equals the adds its
 * address received, every other slot is 0. */
static gp_status verify(const at_run *r, int wave, const char *what)
{
    size_t n = r->buf_bytes / 4, threads = (size_t)r->grid * BLOCK;
    uint32_t *h = malloc(r->buf_bytes);
    double *want = calloc(n, sizeof *want);
    if (!h || !want) {
        free(h), free(want);
        return gp_fail(GP_ERR_NOMEM, "atomics: no host memory to verify %s", what);
    }
    gp_status st = gp_rt_copy_to_host(h, r->buf, r->buf_bytes);
    for (size_t g = 0; g < threads && st.code == GP_OK; g++) {
        size_t idx = gp_atomics_slot(r->lds, r->mode, g, BLOCK, wave);
        if (idx < n)
            want[idx] += r->iters;
    }
    for (size_t i = 0; i < n && st.code == GP_OK; i++) {
        double got;
        if (r->is_float) {
            float f;
            memcpy(&f, &h[i], 4);
            got = f;
        } else {
            got = (double)(int32_t)h[i];
        }
        if (got != want[i])
            st = gp_fail(GP_ERR_CHECK, "atomics: %s: counter %zu is %.0f, expected %.0f adds", what, i, got, want[i]);
    }
    free(h);
    free(want);
    return st;
}

typedef struct at_result {
    double gops, per_cycle, spread;
    int verified;
} at_result;

static gp_status measure(gp_probe_ctx *ctx, at_run *r, gp_series *ser, const char *what, at_result *out)
{
    int wave = ctx->dev.wave_size > 0 ? ctx->dev.wave_size : 32;
    double threads = (double)r->grid * BLOCK;
    /* Cap iters so no counter passes 2^24 (fp32) or 2^31 (int32). */
    double limit = r->is_float ? FP32_EXACT : 2147483647.0;
    double adds = gp_atomics_adds_per_address(r->lds, r->mode, r->grid, BLOCK, wave);
    int max_iters = (int)fmin(1 << 22, floor(limit / adds));
    if (max_iters < 1)
        return gp_fail(GP_ERR_USAGE, "atomics: %s: %0.f threads on one address exceed the exact count range", what,
                       threads);
    double target = ctx->opts->quick ? 1.0 : 2.0, ms;
    r->iters = 1 < max_iters ? 1 : max_iters;
    GP_TRY(time_once(r, &ms));
    for (int step = 0; step < 4 && r->iters < max_iters; step++) {
        GP_TRY(time_once(r, &ms));
        if (ms >= target)
            break;
        double scale = ms > 0.002 ? 1.2 * target / ms : 64.0;
        r->iters = (int)fmin(max_iters, fmax(r->iters + 1.0, ceil(r->iters * fmin(scale, 4096.0))));
    }
    gp_harness_cfg h = gp_harness_defaults();
    h.min_reps = 3;
    h.max_reps = ctx->opts->quick ? 3 : 9;
    h.budget_s = ctx->opts->quick ? 0.05 : 0.3;
    gp_harness_result res;
    GP_TRY(gp_harness_run(&h, time_once, r, &res));
    GP_TRY(verify(r, wave, what));
    double ops = threads * r->iters;
    out->gops = ops / (res.summary.median * 1e-3) / 1e9;
    out->per_cycle = ops / (res.summary.median * 1e-3) / (ctx->clock_mhz * 1e6);
    out->spread = gp_stats_rel_spread(&res.summary);
    out->verified = 1;
    double row[10] = {r->lds, r->is_float, r->mode, r->grid, BLOCK, r->iters, res.summary.median, out->gops,
                      out->per_cycle, out->spread};
    if (ser)
        GP_TRY(gp_series_append(ser, row));
    return gp_ok();
}

/* between (may be NULL): the rate in nb fresh launches, for both keys'
 * between-launch spread. */
static void record(gp_probe_ctx *ctx, const char *key, const at_result *a, const char *method,
                   const double *between, int nb)
{
    gp_value *v = gp_record_value(ctx->rec, key, a->gops, "Gop/s", a->spread, method);
    if (v)
        v->unstable = a->spread > 0.1;
    gp_value_between(v, between, nb);
    char k2[64];
    snprintf(k2, sizeof k2, "%.*s_per_cycle", (int)(strlen(key) > 5 ? strlen(key) - 5 : strlen(key)), key);
    gp_value *pc = gp_record_value(ctx->rec, k2, a->per_cycle, "op/cycle", a->spread,
                                   "the same adds per cycle of the measured core clock, whole device");
    gp_value_between(pc, between, nb);
    /* the same samples: unstable together */
    if (v && pc)
        pc->unstable = v->unstable = v->unstable || pc->unstable;
}

static gp_status atomics_run(gp_probe_ctx *ctx)
{
    static const char *const mname[GP_ATOM_MODES] = {"uncontended", "wave_contended", "grid_contended", "coalesced"};
    at_run r;
    memset(&r, 0, sizeof r);
    int tpc = ctx->dev.max_threads_per_cu > 0 ? ctx->dev.max_threads_per_cu : 1024;
    r.grid = (unsigned)(ctx->dev.compute_units * (tpc / BLOCK > 0 ? tpc / BLOCK : 1));
    r.buf_bytes = (size_t)r.grid * BLOCK * GP_ATOM_LINE_ELEMS * 4;
    gp_series *ser = gp_record_series(ctx->rec, "atomics",
                                      "lds,is_float,mode,blocks,block,iters,ms_median,gops,ops_per_cycle,spread");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, "atomics: no room for series");
    gp_record_note(ctx->rec, "mode ids: 0 uncontended (global: one counter per 128-byte line), 1 a wave on one "
                             "address, 2 the grid (LDS: the block) on one address, 3 consecutive addresses");
    /* [lds][float][mode] */
    at_result res[2][2][GP_ATOM_MODES];
    memset(res, 0, sizeof res);
    gp_status st = gp_rt_malloc(&r.buf, r.buf_bytes);
    if (st.code == GP_OK)
        st = gp_evtimer_create(&r.tm, 0);
    int total = 2 * (GP_ATOM_MODES + 3), done = 0;
    for (int lds = 0; lds < 2 && st.code == GP_OK; lds++)
        for (int fl = 0; fl < 2 && st.code == GP_OK; fl++)
            for (int m = 0; m < (lds ? 3 : GP_ATOM_MODES) && st.code == GP_OK; m++) {
                char what[96];
                snprintf(what, sizeof what, "%s %s %s", lds ? "LDS" : "global", fl ? "fp32" : "int32",
                         lds && m == GP_ATOM_ALL ? "block_contended" : mname[m]);
                r.lds = lds, r.is_float = fl, r.mode = m;
                st = measure(ctx, &r, ser, what, &res[lds][fl][m]);
                if (st.code == GP_OK)
                    gp_progress("atomics", ++done, total, "%s: %.1f Gop/s (%.2f per cycle)", what,
                                res[lds][fl][m].gops, res[lds][fl][m].per_cycle);
            }
    /* Between-launch spreads of the global rates that moved run to run
     * beyond their within-run spread (uncontended on the H200; coalesced and
     * wave-contended fp32 on the H100 and in the package run): the
     * whole measurement (calibration included) again in fresh launches, each
     * on an allocation of its own, so the counters sit at other addresses
     * (other L2 slices) as in another process.  One launch's samples share
     * one placement.  The first launch is the one measured above. */
    static const int again_modes[GP_AGAIN_MODES] = {GP_ATOM_SPREAD, GP_ATOM_COALESCED, GP_ATOM_WAVE};
    double between[2][GP_AGAIN_MODES][GP_BETWEEN_LAUNCHES];
    void *held[GP_BETWEEN_LAUNCHES] = {NULL};
    for (int fl = 0; fl < 2; fl++)
        for (int m = 0; m < GP_AGAIN_MODES; m++)
            between[fl][m][0] = res[0][fl][again_modes[m]].gops;
    for (int k = 1; k < GP_BETWEEN_LAUNCHES && st.code == GP_OK; k++) {
        /* the earlier buffers stay held, so this one cannot reuse their addresses */
        st = gp_rt_malloc(&held[k], r.buf_bytes);
        void *first = r.buf;
        if (st.code == GP_OK)
            r.buf = held[k];
        for (int fl = 0; fl < 2 && st.code == GP_OK; fl++)
            for (int m = 0; m < GP_AGAIN_MODES && st.code == GP_OK; m++) {
                at_result again;
                r.lds = 0, r.is_float = fl, r.mode = again_modes[m];
                st = measure(ctx, &r, NULL, "global (again, fresh allocation)", &again);
                between[fl][m][k] = again.gops;
            }
        r.buf = first;
    }
    for (int k = 1; k < GP_BETWEEN_LAUNCHES; k++)
        if (held[k])
            gp_rt_free(held[k]);
    gp_evtimer_destroy(&r.tm);
    gp_rt_free(r.buf);
    GP_TRY(st);

    /* The keys are int32 (histograms count in integers); fp32 beside them. */
    for (int fl = 0; fl < 2; fl++) {
        const char *t = fl ? "_fp32" : "";
        char k[64];
        snprintf(k, sizeof k, "global_atomic_uncontended%s_gops", t);
        record(ctx, k, &res[0][fl][GP_ATOM_SPREAD], "atomicAdd, each thread its own counter on its own 128-byte line; "
                                                     "spread_between: the measurement in fresh launches, each on a "
                                                     "new allocation",
               between[fl][0], GP_BETWEEN_LAUNCHES);
        snprintf(k, sizeof k, "global_atomic_coalesced%s_gops", t);
        record(ctx, k, &res[0][fl][GP_ATOM_COALESCED], "atomicAdd, each thread its own counter, a wave's in consecutive "
                                                        "words; spread_between: fresh launches, new allocations",
               between[fl][1], GP_BETWEEN_LAUNCHES);
        snprintf(k, sizeof k, "global_atomic_wave_contended%s_gops", t);
        record(ctx, k, &res[0][fl][GP_ATOM_WAVE], "atomicAdd, all lanes of a wave on one counter (the compiler may "
                                                  "aggregate a wave's adds); spread_between: fresh launches, new "
                                                  "allocations",
               between[fl][2], GP_BETWEEN_LAUNCHES);
        snprintf(k, sizeof k, "global_atomic_grid_contended%s_gops", t);
        record(ctx, k, &res[0][fl][GP_ATOM_ALL], "atomicAdd, every thread of the grid on one counter", NULL, 0);
        snprintf(k, sizeof k, "lds_atomic_uncontended%s_gops", t);
        record(ctx, k, &res[1][fl][GP_ATOM_SPREAD], "LDS atomicAdd, each thread its own word", NULL, 0);
        snprintf(k, sizeof k, "lds_atomic_wave_contended%s_gops", t);
        record(ctx, k, &res[1][fl][GP_ATOM_WAVE], "LDS atomicAdd, all lanes of a wave on one word", NULL, 0);
        snprintf(k, sizeof k, "lds_atomic_block_contended%s_gops", t);
        record(ctx, k, &res[1][fl][GP_ATOM_ALL], "LDS atomicAdd, every thread of a block on one word", NULL, 0);
    }
    /* Histogram privatization: LDS copies of the bins per block pay when the
     * bins fit in LDS with room for >= 2 blocks per CU; the gain is the LDS
     * rate over the global rate at the same contention. */
    size_t lds = ctx->dev.lds_per_block;
    if (ctx->dev.lds_per_cu > 0 && ctx->dev.lds_per_cu / 2 < lds)
        lds = ctx->dev.lds_per_cu / 2;
    double max_bins = (double)(lds / 4);
    gp_record_value(ctx->rec, "histogram_lds_max_bins", max_bins, "bins", -1,
                    "rule: int32 bins per block that fit in min(LDS per block, LDS per CU / 2)");
    double g_wave = res[0][0][GP_ATOM_WAVE].gops, l_wave = res[1][0][GP_ATOM_WAVE].gops;
    double g_grid = res[0][0][GP_ATOM_ALL].gops, l_block = res[1][0][GP_ATOM_ALL].gops;
    gp_record_note(ctx->rec, "histogram: privatize in LDS per block when bins <= %.0f; LDS vs global at wave "
                             "contention %.1fx, block vs grid on one bin %.1fx%s",
                   max_bins, l_wave / g_wave, l_block / g_grid,
                   l_wave > g_wave ? "" : " (LDS is not faster here: keep global atomics)");
    gp_record_note(ctx->rec, "global int32: uncontended %.1f, wave-contended %.1f, grid-contended %.2f Gop/s",
                   res[0][0][GP_ATOM_SPREAD].gops, g_wave, g_grid);
    return gp_ok();
}

static gp_status atomics_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    /* Counts were verified during the run (a wrong count fails there). */
    static const char *const keys[] = {"global_atomic_uncontended_gops", "global_atomic_wave_contended_gops",
                                       "global_atomic_grid_contended_gops", "lds_atomic_uncontended_gops",
                                       "lds_atomic_wave_contended_gops"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const gp_value *v = gp_record_find(rec, keys[i]);
        if (!v || !v->detected || !(v->value > 0))
            return gp_fail(GP_ERR_CHECK, "atomics: %s missing or not positive", keys[i]);
    }
    const gp_value *u = gp_record_find(rec, "global_atomic_uncontended_gops");
    const gp_value *g = gp_record_find(rec, "global_atomic_grid_contended_gops");
    if (!(u->value > g->value))
        return gp_fail(GP_ERR_CHECK,
                       "atomics: uncontended %.2f Gop/s is not above grid-contended %.2f Gop/s: contention "
                       "should cost throughput",
                       u->value, g->value);
    return gp_ok();
}

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot atomics_plots[] = {
    {"atomics",
     "mode{0=uncontended;1=one address per wave;2=one address per grid (LDS: block);3=consecutive addresses}", "gops",
     0, 1, "Atomic add throughput by contention", NULL, "Gop/s", GP_PLOT_BARS, "lds{0=global;1=LDS},is_float{0=int32;1=fp32}",
     NULL},
};

const gp_probe gp_probe_atomics = {
    "atomics",
    "global and LDS atomicAdd throughput, int32/fp32, uncontended vs wave- and grid-contended; counts verified",
    atomics_run,
    atomics_check,
    NULL,
    0,
    atomics_plots,
    GP_COUNT(atomics_plots),
};
