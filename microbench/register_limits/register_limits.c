/* register_limits: registers per thread against occupancy and throughput.
 *
 * Method ([Vega-HIP] §2.3-2.4, run-time half; the AMD VGPR/SGPR name
 * limits are found at build time by tests/build/amd_register_limits.sh): a
 * latency-bound chain kernel is compiled with R = 16..272 live values.  For
 * each variant the runtime reports registers per thread and local (spill)
 * bytes (hipFuncGetAttributes) and blocks per CU (occupancy API); each runs
 * the same FMA work on a grid of two full waves of blocks, timed with events.
 * From registers -> resident threads: occupancy cliffs, the allocation
 * granule and the register file per CU (register_limits_analysis.c); the
 * first variant with local bytes is the spill point. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "evtimer.h"
#include "harness.h"
#include "probe.h"
#include "progress.h"
#include "register_limits_analysis.h"
#include "register_limits.h"
#include "stats.h"

#define PROBE "register_limits"
#define MAX_VAR 64

typedef struct reg_run {
    gp_evtimer tm;
    float *out;
    int variant;
    unsigned blocks;
    int iters;
} reg_run;

static gp_status time_once(void *ctx, double *ms_out)
{
    reg_run *t = ctx;
    GP_TRY(gp_evtimer_start(&t->tm));
    GP_TRY(gp_reglim_launch(t->tm.stream, t->variant, t->blocks, t->iters, t->out));
    return gp_evtimer_stop_ms(&t->tm, ms_out);
}

/* FMA work per thread (iters x live values) giving about target_ms for variant 0. */
static gp_status calibrate(reg_run *t, double target_ms, double *work)
{
    const int live = gp_reglim_live(0);
    t->variant = 0;
    t->iters = 64;
    double ms;
    GP_TRY(time_once(t, &ms));
    for (int step = 0; step < 6; step++) {
        GP_TRY(time_once(t, &ms));
        double scale = ms > 0 ? target_ms / ms : 64.0;
        if (scale > 0.8 && scale < 1.25)
            break;
        double it = fmin((double)t->iters * fmin(scale, 64.0), 1 << 24);
        if ((int)it == t->iters || it < 1)
            break;
        t->iters = (int)it;
    }
    *work = (double)t->iters * live;
    return gp_ok();
}

typedef struct reg_point {
    double live, regs, local, blocks, threads, waves, ms, spread, rate;
} reg_point;

static gp_status sweep(gp_probe_ctx *ctx, reg_run *t, reg_point *p, int *n_out)
{
    const int n = gp_reglim_count() < MAX_VAR ? gp_reglim_count() : MAX_VAR;
    const int cus = ctx->dev.compute_units > 0 ? ctx->dev.compute_units : 1;
    const int w = ctx->dev.wave_size > 0 ? ctx->dev.wave_size : 32;
    const int per_cu = ctx->dev.max_threads_per_cu > 0 ? ctx->dev.max_threads_per_cu / GP_REGLIM_BLOCK : 16;
    const long max_grid = ctx->dev.max_grid_dim[0] > 0 ? ctx->dev.max_grid_dim[0] : 65535;
    /* Two full waves of blocks at the highest occupancy: every variant has
     * enough threads to fill whatever occupancy it gets. */
    long blocks = 2L * cus * (per_cu > 0 ? per_cu : 1);
    t->blocks = (unsigned)(blocks < max_grid ? blocks : max_grid);
    double work;
    GP_TRY(calibrate(t, ctx->opts->quick ? 1.0 : 5.0, &work));
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 2;
    cfg.max_reps = ctx->opts->quick ? 2 : 4;
    cfg.budget_s = ctx->opts->quick ? 0.05 : 0.3;
    for (int i = 0; i < n; i++) {
        int regs = 0, bpc = 0;
        size_t local = 0;
        GP_TRY(gp_reglim_attrs(i, &regs, &local, &bpc));
        reg_point *q = &p[i];
        q->live = gp_reglim_live(i);
        q->regs = regs, q->local = (double)local, q->blocks = bpc;
        q->threads = (double)bpc * GP_REGLIM_BLOCK;
        q->waves = q->threads / w;
        t->variant = i;
        t->iters = (int)fmax(1.0, round(work / q->live));
        gp_harness_result res;
        GP_TRY(gp_harness_run(&cfg, time_once, t, &res));
        q->ms = res.summary.median;
        q->spread = gp_stats_rel_spread(&res.summary);
        double fmas = (double)t->blocks * GP_REGLIM_BLOCK * t->iters * q->live;
        q->rate = fmas / (q->ms * 1e-3 * ctx->clock_mhz * 1e6) / cus;
        gp_progress(PROBE, i + 1, n, "%3.0f live values: %d regs, %zu local bytes, %.0f waves/CU, %.1f FMA/cycle/CU",
                    q->live, regs, local, q->waves, q->rate);
    }
    *n_out = n;
    return gp_ok();
}

static void analyse(gp_probe_ctx *ctx, const reg_point *p, int n)
{
    gp_record *r = ctx->rec;
    gp_series *ser = gp_record_series(r, "occupancy", "live_values,regs_per_thread,local_bytes,blocks_per_cu,"
                                                      "threads_per_cu,waves_per_cu,ms_median,spread,fma_per_cycle_per_cu");
    double regs[MAX_VAR], thr[MAX_VAR], rate[MAX_VAR], local[MAX_VAR], maxregs = 0;
    for (int i = 0; i < n; i++) {
        double row[9] = {p[i].live, p[i].regs, p[i].local, p[i].blocks, p[i].threads, p[i].waves,
                         p[i].ms, p[i].spread, p[i].rate};
        if (ser)
            gp_series_append(ser, row);
        regs[i] = p[i].regs, thr[i] = p[i].threads, rate[i] = p[i].rate, local[i] = p[i].local;
        if (p[i].regs > maxregs)
            maxregs = p[i].regs;
    }
    int is = gp_register_first_spill(local, (size_t)n);
    if (is >= 0) {
        gp_record_value(r, "spill_from_live_values", p[is].live, "values", -1,
                        "fewest live values of the chain kernel for which the runtime reports local (spill) bytes");
        gp_record_value(r, "per_thread_max", maxregs, "registers", -1,
                        "most registers per thread any variant got; the compiler spills beyond it");
    } else {
        gp_record_none(r, "spill_from_live_values", "values", "no variant spilled");
        gp_value *v = gp_record_value(r, "per_thread_max", maxregs, "registers", -1,
                                      "most registers per thread any variant got (no variant spilled: a lower bound)");
        if (v)
            snprintf(v->note, sizeof v->note, "lower bound: no variant spilled");
    }
    gp_register_fit f = gp_register_fit_granule(regs, thr, (size_t)n, ctx->dev.wave_size > 0 ? ctx->dev.wave_size : 32,
                                                GP_REGLIM_BLOCK);
    if (f.granule > 0) {
        char m[256];
        snprintf(m, sizeof m, "model threads = blocks(waves(R / %d parts / (ceil(regs/g) x g x wave))) reproduces "
                              "%d of %d register-limited variants", f.partitions, f.matched, f.limited_points);
        gp_record_value(r, "alloc_granule", f.granule, "registers", -1, m);
        gp_record_value(r, "per_cu", f.per_cu, "registers", -1, m);
        gp_record_note(r, "register file per CU >= %.0f (largest allocated registers x resident threads)", f.per_cu_lo);
    } else {
        char why[160];
        snprintf(why, sizeof why, "no granule model reproduces the occupancy of %d register-limited variants",
                 f.limited_points);
        gp_record_none(r, "alloc_granule", "registers", why);
        gp_record_none(r, "per_cu", "registers", why);
    }
    int idx[MAX_VAR];
    int nc = gp_register_cliffs(thr, (size_t)n, GP_REGLIM_CLIFF_REL, idx, MAX_VAR);
    int fol = gp_register_cliffs_followed(thr, rate, (size_t)n, idx, nc < MAX_VAR ? nc : MAX_VAR, GP_REGLIM_FOLLOW_FRAC);
    gp_record_value(r, "occupancy_cliffs", nc, "count", -1, "drops of resident threads per CU as registers grow");
    gp_record_value(r, "cliffs_followed_by_throughput", fol, "count", -1,
                    "cliffs where FMA throughput drops by at least half the occupancy's relative drop");
    for (int c = 0; c < nc && c < MAX_VAR; c++) {
        int i = idx[c];
        gp_record_note(r, "cliff at %.0f regs/thread: %.0f -> %.0f waves/CU, throughput %.1f -> %.1f FMA/cycle/CU",
                       p[i].regs, p[i - 1].waves, p[i].waves, p[i - 1].rate, p[i].rate);
        if (r->nnotes >= GP_RECORD_MAX_NOTES - 4)
            break;
    }
    if (nc > 0 && fol < nc)
        gp_record_note(r, "throughput follows %d of %d cliffs: while enough waves remain to hide the FMA latency, "
                          "fewer resident waves cost nothing", fol, nc);
}

static gp_status register_limits_run(gp_probe_ctx *ctx)
{
    reg_run t;
    memset(&t, 0, sizeof t);
    reg_point p[MAX_VAR];
    int n = 0;
    if (gp_reglim_count() < 1)
        return gp_fail(GP_ERR_NO_GPU, PROBE ": no kernels compiled");
    gp_status st = gp_evtimer_create(&t.tm, 1);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&t.out, 64);
    if (st.code == GP_OK)
        st = sweep(ctx, &t, p, &n);
    if (t.out)
        gp_rt_free(t.out);
    gp_evtimer_destroy(&t.tm);
    GP_TRY(st);
    analyse(ctx, p, n);
    return gp_ok();
}

static gp_status register_limits_check(const gp_record *rec, const gp_device_info *dev)
{
    const gp_value *pt = gp_record_find(rec, "per_thread_max");
    int nvidia = strcmp(dev->vendor, "NVIDIA") == 0;
    double bound = nvidia ? 255 : 512;
    if (!pt || !(pt->value > 0) || pt->value > bound)
        return gp_fail(GP_ERR_CHECK, PROBE ": per_thread_max %.0f outside 1..%.0f", pt ? pt->value : NAN, bound);
    const gp_value *g = gp_record_find(rec, "alloc_granule");
    if (g && g->detected) {
        int e;
        if (!(g->value >= 1) || frexp(g->value, &e) != 0.5)
            return gp_fail(GP_ERR_CHECK, PROBE ": allocation granule %.0f is not a power of two", g->value);
    }
    const gp_value *pc = gp_record_find(rec, "per_cu");
    if (pc && pc->detected && dev->regs_per_cu > 0 && fabs(pc->value - dev->regs_per_cu) > 0.01 * dev->regs_per_cu)
        return gp_fail(GP_ERR_CHECK, PROBE ": %.0f registers per CU measured, the runtime reports %d",
                       pc->value, dev->regs_per_cu);
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row register_limits_table_rows[] = {
    {"per_thread_max", "registers", "per_thread_max"},
    {"per_cu", "registers", "per_cu"},
    {"alloc_granule", "registers", "alloc_granule"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot register_limits_plots[] = {
    {"occupancy", "regs_per_thread|registers|regs|vgprs", "waves_per_cu|occupancy|active_waves", 0,
     0, "Occupancy vs registers per thread", "registers per thread (allocated)", "resident waves per CU", GP_PLOT_YZERO,
     NULL, NULL},
    /* A guess for a series not named above: skipped when the columns differ. */
    {"*", "registers|regs|regs_per_thread|vgprs",
     "occupancy|waves_per_cu|blocks_per_cu|active_waves", 0, 0, "Occupancy vs registers", NULL, NULL, GP_PLOT_YZERO,
     NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline register_limits_datasheet[] = {
    {710, "Launch and registers", "register file per CU", "per_cu", NULL, NULL, GP_DS_INT, "32-bit registers",
     "registers", "per_cu", NULL, NULL, 0, 0},
    {720, "Launch and registers", "registers per thread (max)", "per_thread_max", NULL, NULL, GP_DS_INT, "registers",
     "registers", "per_thread_max", NULL, NULL, 0, 0},
};

const gp_probe gp_probe_register_limits = {
    .name = PROBE,
    .summary = "registers per thread vs occupancy and throughput: cliffs, allocation granule, register file, "
               "spill point",
    .run = register_limits_run,
    .check = register_limits_check,
    .table_rows = register_limits_table_rows,
    .ntable_rows = GP_COUNT(register_limits_table_rows),
    .plots = register_limits_plots,
    .nplots = GP_COUNT(register_limits_plots),
    .datasheet = register_limits_datasheet,
    .ndatasheet = GP_COUNT(register_limits_datasheet),
};
