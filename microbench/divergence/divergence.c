/* divergence: what a wave pays when its lanes take different paths, the
 * operand-swap rewrite that avoids it, and the wave size seen from it.
 *
 * Method ([Vega-HIP] §2.5, made portable): a compute-bound kernel (four
 * independent FMA chains per thread, the chip filled in one round of resident
 * blocks) where chosen lanes run branch B and the others branch A, two FMA
 * loops of the same length that the compiler cannot merge.  Timed with
 * events, against the same kernel with all lanes on A.  Cases: one lane per
 * wave, k lanes per wave, lane groups (tid / G odd) for G = 1, 2, 4, ...; and
 * the rewrite that picks operands per lane and runs one shared chain.  The
 * smallest G without slowdown is the hardware wave size. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "divergence.h"
#include "divergence_analysis.h"
#include "evtimer.h"
#include "harness.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define BLOCK 256
#define GROUP_TOL GP_DIVERGENCE_GROUP_TOL
/* One divergent lane must cost at least this much (both paths serialized gives ~2). */
#define MIN_SLOWDOWN 1.3
#define MAX_ITERS (1 << 24)
/* Points of the run the reference cases are timed at: the start, after the
 * lanes series, after the groups series. */
#define DIV_POINTS 3

typedef struct div_run {
    gp_evtimer tm;
    float *out;
    unsigned grid;
    int block, iters;
    int swap, group, period, count;
} div_run;

static gp_status time_once(void *ctx, double *ms_out)
{
    div_run *r = ctx;
    GP_TRY(gp_evtimer_start(&r->tm));
    /* t0 < 1 and t1 small keep both chains bounded (no inf/NaN); magic is a
     * value neither chain can reach, so the stores never happen but stay. */
    GP_TRY(gp_divergence_launch(r->tm.stream, r->swap, r->grid, r->block, 0.999f, 1e-3f, r->group,
                                r->period, r->count, r->iters, -1.0f, r->out));
    return gp_evtimer_stop_ms(&r->tm, ms_out);
}

typedef struct timing {
    double ms, ms_min, spread;
    int stable;
} timing;

static gp_status measure(gp_probe_ctx *ctx, div_run *r, int swap, int group, int period, int count,
                         timing *t)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 3;
    cfg.max_reps = ctx->opts->quick ? 3 : 10;
    cfg.budget_s = ctx->opts->quick ? 0.05 : 0.4;
    r->swap = swap, r->group = group, r->period = period, r->count = count;
    gp_harness_result res;
    GP_TRY(gp_harness_run(&cfg, time_once, r, &res));
    t->ms = res.summary.median;
    t->ms_min = res.summary.min;
    t->spread = gp_stats_rel_spread(&res.summary);
    t->stable = res.stable;
    return gp_ok();
}

/* Scale the trip count so the uniform kernel runs about target_ms. */
static gp_status size_iters(gp_probe_ctx *ctx, div_run *r)
{
    double target_ms = ctx->opts->quick ? 2.0 : 10.0, ms = 0;
    r->iters = 64;
    r->swap = 0, r->group = 0, r->period = 0, r->count = 0;
    GP_TRY(time_once(r, &ms)); /* warm-up: first launch loads the module */
    for (int step = 0; step < 4; step++) {
        GP_TRY(time_once(r, &ms));
        double scale = ms > 0 ? target_ms / ms : 16.0;
        if (scale > 0.8 && scale < 1.25)
            break;
        double it = fmin(fmax((double)r->iters * fmin(scale, 64.0), 1.0), (double)MAX_ITERS);
        r->iters = (int)it;
    }
    return gp_ok();
}

static double worse_spread(double a, double b)
{
    return a > b ? a : b;
}

static gp_value *record_ratio(gp_record *rec, const char *key, const timing *t, const timing *ref,
                              const char *method)
{
    double ratio = gp_divergence_ratio(t->ms, ref->ms);
    if (!isfinite(ratio)) {
        gp_record_none(rec, key, "ratio", "a kernel time was not positive");
        return NULL;
    }
    gp_value *v = gp_record_value(rec, key, ratio, "ratio", worse_spread(t->spread, ref->spread), method);
    if (v)
        v->unstable = !t->stable || !ref->stable;
    return v;
}

/* The reference cases, timed together at one point of the run: all lanes
 * on A, all on B, one lane per wave on B, and the operand-swap rewrite. */
typedef struct cases {
    timing ua, ub, one, sw;
} cases;

static gp_status measure_cases(gp_probe_ctx *ctx, div_run *r, int period, cases *c)
{
    GP_TRY(measure(ctx, r, 0, 0, 0, 0, &c->ua));
    GP_TRY(measure(ctx, r, 0, 0, 1, 1, &c->ub));
    GP_TRY(measure(ctx, r, 0, 0, period, 1, &c->one));
    return measure(ctx, r, 1, 0, period, 1, &c->sw);
}

/* The values made of the reference cases, in this order (gp_value_points
 * re-derives them at every point of the run). */
enum { CASE_UNIFORM, CASE_DIVERGENT, CASE_B_VS_A, CASE_SWAP, CASE_SERIALIZED, NCASE_VALUES };

static void case_values(const cases *c, double out[NCASE_VALUES])
{
    out[CASE_UNIFORM] = c->ua.ms;
    out[CASE_DIVERGENT] = gp_divergence_ratio(c->one.ms, c->ua.ms);
    out[CASE_B_VS_A] = gp_divergence_ratio(c->ub.ms, c->ua.ms);
    out[CASE_SWAP] = gp_divergence_ratio(c->sw.ms, c->ua.ms);
    out[CASE_SERIALIZED] = gp_divergence_serialized_fraction(c->one.ms, c->ua.ms, c->ub.ms);
}

static gp_status run_cases(gp_probe_ctx *ctx, div_run *r, int wave_rt, int wave_cc)
{
    gp_record *rec = ctx->rec;
    const int period = wave_rt > 0 ? wave_rt : wave_cc;
    cases pt;
    GP_TRY(measure_cases(ctx, r, period, &pt));
    const timing ua = pt.ua, ub = pt.ub, one = pt.one, sw = pt.sw;
    gp_progress("divergence", 1, 3, "uniform %.3f ms, all-B %.3f ms, one lane %.3f ms, swap %.3f ms",
                ua.ms, ub.ms, one.ms, sw.ms);
    /* The reference cases again after the lanes series and after the groups
     * series, so each value is the median of three points spread over the
     * probe's run and carries their spread: the clock ramps during this
     * probe (H200: 1684 -> 1938 MHz) and the serialized fraction, a
     * difference of two times, moved 0.5 % between the build tree's run and
     * the package's against a 0.03 % spread within one point. */
    double per[NCASE_VALUES][DIV_POINTS], first[NCASE_VALUES];
    case_values(&pt, first);
    for (int i = 0; i < NCASE_VALUES; i++)
        per[i][0] = first[i];
    gp_value *cv[NCASE_VALUES];

    gp_value *v = gp_record_value(rec, "uniform_ms", ua.ms, "ms", ua.spread,
                                  "all lanes on branch A; event time, median of repeats; value and spread_between: "
                                  "the median and spread of 3 points spread over the run");
    if (v)
        v->unstable = !ua.stable;
    cv[CASE_UNIFORM] = v;
    char method[256];
    snprintf(method, sizeof method,
             "time with lane 0 of every %d lanes on branch B, the rest on A, over the all-A time "
             "(both FMA chains the same length); median of 3 points spread over the run", period);
    cv[CASE_DIVERGENT] = record_ratio(rec, "divergent_slowdown", &one, &ua, method);
    cv[CASE_B_VS_A] = record_ratio(rec, "branch_b_vs_a", &ub, &ua,
                                   "all lanes on branch B over all lanes on A: the two paths should cost the same; "
                                   "median of 3 points spread over the run");
    cv[CASE_SWAP] = record_ratio(rec, "swap_rewrite_slowdown", &sw, &ua,
                                 "one lane per wave with swapped operands, selected per lane before one shared "
                                 "chain, over the all-A time; median of 3 points spread over the run");
    /* Fraction of path B's time added by one divergent lane: 1 = fully serialized. */
    cv[CASE_SERIALIZED] = NULL;
    if (isfinite(first[CASE_SERIALIZED]))
        cv[CASE_SERIALIZED] = gp_record_value(rec, "divergence_serialized_fraction", first[CASE_SERIALIZED],
                                              "fraction", worse_spread(one.spread, ub.spread),
                                              "(one-lane time - all-A time) / all-B time: 1 when the wave runs both "
                                              "paths in turn; value and spread_between: the median and spread of 3 "
                                              "points spread over the run");

    gp_series *lanes = gp_record_series(rec, "lanes", "divergent_lanes,period,ms_median,ms_min,spread,ratio");
    if (!lanes)
        return gp_fail(GP_ERR_NOMEM, "divergence: no room for the lanes series");
    for (int k = 1; k <= period / 2; k *= 2) {
        timing t;
        GP_TRY(measure(ctx, r, 0, 0, period, k, &t));
        double row[6] = {k, period, t.ms, t.ms_min, t.spread, gp_divergence_ratio(t.ms, ua.ms)};
        GP_TRY(gp_series_append(lanes, row));
    }
    gp_progress("divergence", 2, 3, "k divergent lanes per wave measured");
    GP_TRY(measure_cases(ctx, r, period, &pt));
    double again[NCASE_VALUES];
    case_values(&pt, again);
    for (int i = 0; i < NCASE_VALUES; i++)
        per[i][1] = again[i];

    gp_series *groups = gp_record_series(rec, "groups", "group_size,ms_median,ms_min,spread,ratio_to_uniform_mean");
    if (!groups)
        return gp_fail(GP_ERR_NOMEM, "divergence: no room for the groups series");
    double g[GP_DIVERGENCE_MAX_POINTS], tg[GP_DIVERGENCE_MAX_POINTS];
    size_t n = 0;
    for (int G = 1; G <= r->block / 2 && n < GP_DIVERGENCE_MAX_POINTS; G *= 2) {
        timing t;
        GP_TRY(measure(ctx, r, 0, G, 0, 0, &t));
        g[n] = G;
        tg[n++] = t.ms;
        double row[5] = {G, t.ms, t.ms_min, t.spread, gp_divergence_ratio(t.ms, 0.5 * (ua.ms + ub.ms))};
        GP_TRY(gp_series_append(groups, row));
    }
    GP_TRY(measure_cases(ctx, r, period, &pt));
    case_values(&pt, again);
    for (int i = 0; i < NCASE_VALUES; i++) {
        per[i][2] = again[i];
        gp_value_points(cv[i], per[i], DIV_POINTS);
    }
    /* With no divergence half the lanes (whole waves) run A and half B, so
     * the reference is their mean: the same as the all-A time when the two
     * paths cost the same (branch_b_vs_a ~ 1). */
    double ref = 0.5 * (ua.ms + ub.ms);
    gp_divergence_wave w = gp_divergence_wave_from_groups(g, tg, n, ref, GROUP_TOL);
    if (w.detected) {
        snprintf(method, sizeof method,
                 "smallest lane group G (lanes with tid/G odd on branch B) whose time and every larger G's "
                 "is within %.0f%% of the mean of the all-A and all-B times; G up to %d", 100 * GROUP_TOL, r->block / 2);
        gp_record_value(rec, "wave_size_from_divergence", w.group, "lanes", -1, method);
        gp_record_note(rec, "divergence vanishes at lane groups of %.0f (%.2fx slower at %.0f): wave size %.0f",
                       w.group, w.slow_ratio, w.group / 2, w.group);
    } else {
        gp_record_none(rec, "wave_size_from_divergence", "lanes", w.why);
    }
    gp_progress("divergence", 3, 3, "wave size from divergence: %s",
                w.detected ? "detected" : "not detected");

    double slow = gp_divergence_ratio(one.ms, ua.ms), swr = gp_divergence_ratio(sw.ms, ua.ms);
    gp_record_note(rec, "one divergent lane per wave: %.2fx the uniform time; operand-swap rewrite: %.2fx",
                   slow, swr);
    if (isfinite(swr) && swr > 1.0 + GROUP_TOL)
        gp_record_note(rec, "the operand-swap rewrite did not restore full speed (%.2fx): look at the ISA",
                       swr);
    return gp_ok();
}

static gp_status divergence_run(gp_probe_ctx *ctx)
{
    gp_record *rec = ctx->rec;
    div_run r;
    memset(&r, 0, sizeof r);
    int wave_cc = 0, bpc = 0;
    GP_TRY(gp_divergence_compiled_wave_size(&wave_cc));
    gp_record_value(rec, "wave_size_compiled", wave_cc, "lanes", -1,
                    "GP_WAVE_SIZE of the device code, stored by a one-thread kernel");
    gp_record_value(rec, "wave_size_runtime", ctx->dev.wave_size, "lanes", -1,
                    "wave size the runtime reports for the device");

    r.block = ctx->dev.max_threads_per_block < BLOCK ? ctx->dev.max_threads_per_block : BLOCK;
    if (r.block < 2)
        return gp_fail(GP_ERR_RUNTIME, "divergence: device allows %d threads per block",
                       ctx->dev.max_threads_per_block);
    GP_TRY(gp_divergence_blocks_per_cu(r.block, &bpc));
    if (bpc < 1)
        bpc = 1;
    long grid = (long)ctx->dev.compute_units * bpc;
    if (grid < 1)
        grid = 1;
    if (ctx->dev.max_grid_dim[0] > 0 && grid > ctx->dev.max_grid_dim[0])
        grid = ctx->dev.max_grid_dim[0];
    r.grid = (unsigned)grid;
    gp_record_note(rec, "%u blocks of %d threads (%d resident per CU), %d FMAs per thread per trip", r.grid,
                   r.block, bpc, gp_divergence_fma_per_iter());

    gp_status st = gp_rt_malloc((void **)&r.out, (size_t)r.grid * r.block * sizeof(float));
    if (st.code != GP_OK)
        return st;
    st = gp_evtimer_create(&r.tm, 1);
    if (st.code == GP_OK)
        st = size_iters(ctx, &r);
    if (st.code == GP_OK)
        st = run_cases(ctx, &r, ctx->dev.wave_size, wave_cc);
    gp_evtimer_destroy(&r.tm);
    gp_rt_free(r.out);
    return st;
}

static gp_status divergence_check(const gp_record *rec, const gp_device_info *dev)
{
    const gp_value *ws = gp_record_find(rec, "wave_size_from_divergence");
    const gp_value *cc = gp_record_find(rec, "wave_size_compiled");
    const gp_value *ds = gp_record_find(rec, "divergent_slowdown");
    const gp_value *sw = gp_record_find(rec, "swap_rewrite_slowdown");
    if (!ws || !ws->detected)
        return gp_fail(GP_ERR_CHECK, "divergence: wave size not detected from divergence (%s)",
                       ws ? ws->note : "no value");
    if (!cc || (int)cc->value != dev->wave_size || (int)ws->value != dev->wave_size)
        return gp_fail(GP_ERR_CHECK,
                       "divergence: wave sizes disagree: from divergence %.0f, runtime %d, compiled %.0f",
                       ws->value, dev->wave_size, cc ? cc->value : NAN);
    /* Every SIMD GPU we target runs a divergent wave's paths one after the
     * other (NVIDIA's independent thread scheduling included), so one lane
     * must cost about the whole second path.  Much less means the probe did
     * not measure what it claims (paths merged by the compiler, or the kernel
     * not compute-bound): a real contradiction, so it fails. */
    if (!ds || !ds->detected || !(ds->value > MIN_SLOWDOWN))
        return gp_fail(GP_ERR_CHECK,
                       "divergence: one divergent lane costs %.2fx the uniform time, expected > %.1fx "
                       "(both paths serialized)", ds && ds->detected ? ds->value : NAN, MIN_SLOWDOWN);
    if (!sw || !sw->detected || !(sw->value > 0))
        return gp_fail(GP_ERR_CHECK, "divergence: no swap-rewrite time");
    static const char *const between[] = {"uniform_ms", "divergent_slowdown", "branch_b_vs_a", "swap_rewrite_slowdown",
                                          "divergence_serialized_fraction"};
    return gp_record_require_between(rec, between, (int)GP_COUNT(between));
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row divergence_table_rows[] = {
    {"wave_size_from_divergence", "device", "wave_size"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot divergence_plots[] = {
    {"lanes", "divergent_lanes", "ratio", 1, 0, "Divergence cost vs divergent lanes per wave",
     "divergent lanes per wave", "time / uniform time", GP_PLOT_YZERO | GP_PLOT_XPOW2, NULL, NULL},
    {"groups", "group_size", "ratio_to_uniform_mean|ratio", 1, 0,
     "Divergence cost vs branch group size (wave size: where it drops to 1)", "lanes per branch group",
     "time / uniform time", GP_PLOT_YZERO | GP_PLOT_XPOW2, NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline divergence_datasheet[] = {
    {120, "Device", "wave size", "wave_size_from_divergence", NULL, NULL, GP_DS_INT, "lanes", "device", "wave_size",
     NULL, NULL, 0, 0},
};

const gp_probe gp_probe_divergence = {
    .name = "divergence",
    .summary = "cost of divergent lanes in a wave, the operand-swap rewrite, and the wave size seen from divergence",
    .run = divergence_run,
    .check = divergence_check,
    .table_rows = divergence_table_rows,
    .ntable_rows = GP_COUNT(divergence_table_rows),
    .plots = divergence_plots,
    .nplots = GP_COUNT(divergence_plots),
    .datasheet = divergence_datasheet,
    .ndatasheet = GP_COUNT(divergence_datasheet),
};
