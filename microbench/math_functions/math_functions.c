/* math_functions: latency and throughput of sin, cos, exp, log, sqrt, rsqrt
 * and division, in fp32 (library call), fp32 fast intrinsics and fp64.
 *
 * Method ([Vega-HIP] §2.11, extended):
 * - latency: one thread runs a dependent chain x = f(x) * c + d for a few
 *   thousand steps, timed in-kernel with the core-clock counter; the same
 *   chain without f (the identity) is timed too and subtracted, so the figure
 *   is the function's own latency in cycles;
 * - throughput: the chip filled in one round of resident blocks, every thread
 *   running 8 independent chains, timed with events; ops per cycle per CU =
 *   ops / (seconds x measured clock x CUs).
 * Op and precision ids (CSV) are documented in docs/probes/math_functions.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "evtimer.h"
#include "harness.h"
#include "math_functions.h"
#include "math_functions_analysis.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

/* Fast intrinsics may be this much worse than precise before it is a finding. */
#define FAST_TOL 0.20
#define MAX_TRIPS (1 << 24)

typedef struct variant {
    int op, prec;
} variant;

typedef struct mf_run {
    gp_evtimer tm;
    void *out;
    long long *d_cycles;
    int op, prec;
    int trips;         /* latency: loop trips; throughput: chain steps per thread */
    unsigned grid;
    double x0, c, d, k;
} mf_run;

typedef struct mf_result {
    double lat_raw, lat_spread, lat_net;
    int lat_stable;
    double tput, tput_spread, tput_ms;
    int tput_stable, bpc;
} mf_result;

static gp_status lat_once(void *ctx, double *cycles_per_step)
{
    mf_run *r = ctx;
    long long cyc = 0;
    GP_TRY(gp_math_latency_launch(NULL, r->op, r->prec, r->trips, r->x0, r->c, r->d, r->k, r->out,
                                  r->d_cycles));
    /* A blocking copy on the default stream waits for the kernel. */
    GP_TRY(gp_rt_copy_to_host(&cyc, r->d_cycles, sizeof cyc));
    *cycles_per_step = (double)cyc / ((double)r->trips * gp_math_lat_unroll());
    return gp_ok();
}

static gp_status tput_once(void *ctx, double *ms_out)
{
    mf_run *r = ctx;
    GP_TRY(gp_evtimer_start(&r->tm));
    GP_TRY(gp_math_throughput_launch(r->tm.stream, r->op, r->prec, r->grid, r->trips, r->x0, r->c, r->d,
                                     r->k, r->out));
    return gp_evtimer_stop_ms(&r->tm, ms_out);
}

static gp_status measure_latency(gp_probe_ctx *ctx, mf_run *r, mf_result *res)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 3;
    cfg.max_reps = ctx->opts->quick ? 3 : 9;
    cfg.budget_s = ctx->opts->quick ? 0.05 : 0.3;
    int steps = ctx->opts->quick ? 512 : 4096;
    r->trips = steps / gp_math_lat_unroll();
    if (r->trips < 1)
        r->trips = 1;
    gp_harness_result h;
    GP_TRY(gp_harness_run(&cfg, lat_once, r, &h));
    res->lat_raw = h.summary.median;
    res->lat_spread = gp_stats_rel_spread(&h.summary);
    res->lat_stable = h.stable;
    return gp_ok();
}

static gp_status measure_throughput(gp_probe_ctx *ctx, mf_run *r, int max_bpc, mf_result *res)
{
    int bpc = 0;
    GP_TRY(gp_math_tput_blocks_per_cu(r->op, r->prec, &bpc));
    if (bpc < 1)
        bpc = 1;
    if (bpc > max_bpc)
        bpc = max_bpc;
    long grid = (long)ctx->dev.compute_units * bpc;
    if (ctx->dev.max_grid_dim[0] > 0 && grid > ctx->dev.max_grid_dim[0])
        grid = ctx->dev.max_grid_dim[0];
    r->grid = (unsigned)(grid > 0 ? grid : 1);
    res->bpc = bpc;

    /* Scale the steps so one launch runs about target_ms. */
    double target_ms = ctx->opts->quick ? 2.0 : 8.0, ms = 0;
    r->trips = 16;
    GP_TRY(tput_once(r, &ms)); /* first launch of this kernel: module load, caches */
    for (int step = 0; step < 5; step++) {
        GP_TRY(tput_once(r, &ms));
        double scale = ms > 0 ? target_ms / ms : 64.0;
        if (scale > 0.8 && scale < 1.25)
            break;
        r->trips = (int)fmin(fmax((double)r->trips * fmin(scale, 64.0), 1.0), (double)MAX_TRIPS);
    }
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 3;
    cfg.max_reps = ctx->opts->quick ? 3 : 7;
    cfg.budget_s = ctx->opts->quick ? 0.05 : 0.3;
    gp_harness_result h;
    GP_TRY(gp_harness_run(&cfg, tput_once, r, &h));
    double ops = (double)r->grid * gp_math_tput_block() * (double)r->trips * gp_math_tput_chains();
    res->tput_ms = h.summary.median;
    res->tput = gp_math_per_cycle_per_cu(ops, h.summary.median, ctx->clock_mhz, ctx->dev.compute_units);
    res->tput_spread = gp_stats_rel_spread(&h.summary);
    res->tput_stable = h.stable;
    return gp_ok();
}

/* *lat_v and *tput_v (may be NULL) get the two values recorded, for a
 * between-launch spread added afterwards. */
static void record_variant(gp_probe_ctx *ctx, int op, int prec, const mf_result *res, double ident_raw,
                           gp_value **lat_v, gp_value **tput_v)
{
    char key[64], method[256];
    gp_value *v;
    if (lat_v)
        *lat_v = NULL;
    if (tput_v)
        *tput_v = NULL;
    int ident = op == GP_MF_IDENTITY;
    if (!gp_math_key(key, sizeof key, op, prec, "latency_cycles"))
        return;
    if (ident)
        snprintf(method, sizeof method,
                 "one thread, dependent chain x = x*c + d (the baseline), in-kernel core cycles per step, "
                 "median of launches");
    else
        snprintf(method, sizeof method,
                 "one thread, dependent chain x = %s(x)*c + d, in-kernel core cycles per step minus the "
                 "identity chain's %.2f cycles, median of launches",
                 op == GP_MF_DIV ? "k/x as div" : gp_math_op_name(op), ident_raw);
    double lat = ident ? res->lat_raw : res->lat_net;
    if (isfinite(lat)) {
        v = gp_record_value(ctx->rec, key, lat, "cycles", res->lat_spread, method);
        if (v)
            v->unstable = !res->lat_stable;
        if (lat_v)
            *lat_v = v;
    } else {
        gp_record_none(ctx->rec, key, "cycles", "no valid cycle count (or no identity baseline)");
    }
    if (!gp_math_key(key, sizeof key, op, prec, "per_cycle_per_cu"))
        return;
    snprintf(method, sizeof method,
             "%d-thread blocks, %d resident per CU on every CU, %d independent chains per thread; "
             "ops / (event time x measured clock x CUs)",
             gp_math_tput_block(), res->bpc, gp_math_tput_chains());
    if (isfinite(res->tput)) {
        v = gp_record_value(ctx->rec, key, res->tput, "ops/cycle/CU", res->tput_spread, method);
        if (v)
            v->unstable = !res->tput_stable;
        if (tput_v)
            *tput_v = v;
    } else {
        gp_record_none(ctx->rec, key, "ops/cycle/CU", "no valid event time");
    }
}

static gp_status run_all(gp_probe_ctx *ctx, mf_run *r, int max_bpc)
{
    /* Identity first in each precision: its latency is the baseline. */
    variant vars[GP_MF_NOPS * GP_MF_NPRECS];
    int nv = 0;
    for (int prec = 0; prec < GP_MF_NPRECS; prec++) {
        if (prec != GP_MF_F32FAST)
            vars[nv].op = GP_MF_IDENTITY, vars[nv++].prec = prec;
        for (int op = 0; op < GP_MF_IDENTITY; op++)
            vars[nv].op = op, vars[nv++].prec = prec;
    }
    gp_series *ser = gp_record_series(ctx->rec, "ops",
                                      "op_id,prec_id,latency_cycles,latency_raw_cycles,latency_spread,"
                                      "per_cycle_per_cu,throughput_spread,throughput_ms,blocks_per_cu");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, "math_functions: no room for the series");
    mf_result all[GP_MF_NOPS][GP_MF_NPRECS];
    memset(all, 0, sizeof all);
    double ident_raw[GP_MF_NPRECS] = {NAN, NAN, NAN};
    for (int i = 0; i < nv; i++) {
        int op = vars[i].op, prec = vars[i].prec;
        mf_result *res = &all[op][prec];
        r->op = op, r->prec = prec;
        gp_math_chain_params(op, &r->x0, &r->c, &r->d, &r->k);
        GP_TRY(measure_latency(ctx, r, res));
        if (op == GP_MF_IDENTITY)
            ident_raw[prec] = res->lat_raw;
        /* fp32 fast runs the same FMA baseline as fp32. */
        double base = prec == GP_MF_F32FAST ? ident_raw[GP_MF_F32] : ident_raw[prec];
        res->lat_net = gp_math_net_latency(res->lat_raw, base);
        GP_TRY(measure_throughput(ctx, r, max_bpc, res));
        gp_value *lat_v, *tput_v;
        record_variant(ctx, op, prec, res, base, &lat_v, &tput_v);
        if (op == GP_MF_COS && prec == GP_MF_F64) {
            /* fp64 cos moved between two H200 runs by more than its
             * within-run spread: measure it again in fresh
             * launches and record how far the launches spread. */
            double lat[GP_BETWEEN_LAUNCHES], tput[GP_BETWEEN_LAUNCHES];
            lat[0] = res->lat_net, tput[0] = res->tput;
            for (int k = 1; k < GP_BETWEEN_LAUNCHES; k++) {
                mf_result again = *res;
                GP_TRY(measure_latency(ctx, r, &again));
                GP_TRY(measure_throughput(ctx, r, max_bpc, &again));
                lat[k] = gp_math_net_latency(again.lat_raw, base);
                tput[k] = again.tput;
            }
            gp_value_between(lat_v, lat, GP_BETWEEN_LAUNCHES);
            gp_value_between(tput_v, tput, GP_BETWEEN_LAUNCHES);
        }
        double row[9] = {op, prec, op == GP_MF_IDENTITY ? res->lat_raw : res->lat_net, res->lat_raw,
                         res->lat_spread, res->tput, res->tput_spread, res->tput_ms, res->bpc};
        GP_TRY(gp_series_append(ser, row));
        gp_progress("math_functions", i + 1, nv, "%s %s: latency %.1f cycles, %.2f ops/cycle/CU",
                    gp_math_op_name(op), gp_math_prec_name(prec),
                    op == GP_MF_IDENTITY ? res->lat_raw : res->lat_net, res->tput);
    }
    /* Findings: a fast intrinsic that is not faster than the precise call. */
    for (int op = 0; op < GP_MF_IDENTITY; op++) {
        const mf_result *f = &all[op][GP_MF_F32FAST], *p = &all[op][GP_MF_F32];
        if (gp_math_fast_is_slower(f->tput, p->tput, f->lat_net, p->lat_net, FAST_TOL))
            gp_record_note(ctx->rec,
                           "finding: fast %s is not faster than the precise call (%.2f vs %.2f ops/cycle/CU, "
                           "latency %.1f vs %.1f cycles)",
                           gp_math_op_name(op), f->tput, p->tput, f->lat_net, p->lat_net);
    }
    gp_record_note(ctx->rec,
                   "fp32 sin: %.1f (fast %.1f) ops/cycle/CU, fp64 sin %.2f; fp32 FMA chain %.1f ops/cycle/CU",
                   all[GP_MF_SIN][GP_MF_F32].tput, all[GP_MF_SIN][GP_MF_F32FAST].tput,
                   all[GP_MF_SIN][GP_MF_F64].tput, all[GP_MF_IDENTITY][GP_MF_F32].tput);
    return gp_ok();
}

static gp_status math_functions_run(gp_probe_ctx *ctx)
{
    mf_run r;
    memset(&r, 0, sizeof r);
    int block = gp_math_tput_block();
    if (ctx->dev.max_threads_per_block < block)
        return gp_fail(GP_ERR_RUNTIME, "math_functions: device allows %d threads per block, need %d",
                       ctx->dev.max_threads_per_block, block);
    int max_bpc = ctx->dev.max_threads_per_cu / block;
    if (max_bpc < 1)
        max_bpc = 1;
    size_t bytes = (size_t)ctx->dev.compute_units * max_bpc * block * sizeof(double);
    GP_TRY(gp_rt_malloc(&r.out, bytes));
    gp_status st = gp_rt_malloc((void **)&r.d_cycles, sizeof(long long));
    if (st.code == GP_OK)
        st = gp_evtimer_create(&r.tm, 1);
    if (st.code == GP_OK)
        st = run_all(ctx, &r, max_bpc);
    gp_evtimer_destroy(&r.tm);
    if (r.d_cycles)
        gp_rt_free(r.d_cycles);
    gp_rt_free(r.out);
    return st;
}

static gp_status math_functions_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    /* 4x the widest plausible fp32 FMA lane count per CU (128): more than that
     * means the clock, the op count or the timing is wrong. */
    const double max_tput = 4.0 * 128.0;
    for (int prec = 0; prec < GP_MF_NPRECS; prec++)
        for (int op = 0; op < GP_MF_IDENTITY; op++) {
            char key[64];
            gp_math_key(key, sizeof key, op, prec, "per_cycle_per_cu");
            const gp_value *t = gp_record_find(rec, key);
            if (!t || !t->detected || !(t->value > 0) || t->value > max_tput)
                return gp_fail(GP_ERR_CHECK, "math_functions: %s = %.3g is missing or outside (0, %.0f]",
                               key, t && t->detected ? t->value : NAN, max_tput);
            gp_math_key(key, sizeof key, op, prec, "latency_cycles");
            const gp_value *l = gp_record_find(rec, key);
            if (!l || !l->detected || !(l->value >= 1.0 && l->value <= 10000.0))
                return gp_fail(GP_ERR_CHECK, "math_functions: %s = %.3g is missing or outside [1, 10000]",
                               key, l && l->detected ? l->value : NAN);
        }
    /* A fast intrinsic slower than the precise call is a note from run(), not
     * a failure: it contradicts expectation, not the device. */
    return gp_ok();
}

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot math_functions_plots[] = {
    {"ops",
     "op_id{0=sin;1=cos;2=exp;3=log;4=sqrt;5=rsqrt;6=division;7=x*c+d (FMA baseline)}", "per_cycle_per_cu", 0, 1,
     "Math function throughput", NULL, "operations per cycle per CU", GP_PLOT_BARS,
     "prec_id{0=fp32 precise;1=fp32 fast intrinsics;2=fp64}", NULL},
};

const gp_probe gp_probe_math_functions = {
    "math_functions",
    "latency and throughput of sin, cos, exp, log, sqrt, rsqrt and division in fp32, fp32 fast and fp64",
    math_functions_run,
    math_functions_check,
    NULL,
    0,
    math_functions_plots,
    GP_COUNT(math_functions_plots),
};
