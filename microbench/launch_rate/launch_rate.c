/* launch_rate: how many threads per cycle the hardware creates, by block shape.
 *
 * Method ([Vega-HIP] §2.1, made portable): an empty kernel is launched
 * with enough blocks that one launch runs about 10 ms, timed with events;
 * threads per cycle = threads / (time x measured clock).  1D blocks of every
 * power of two and every multiple of the wave size, plus non-multiples; 2D
 * squares 1x1..32x32; 3D cubes 1..10.  Then the cost of one launch: a burst
 * of one-thread kernels on a stream, and the same burst replayed as a graph. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "evtimer.h"
#include "harness.h"
#include "launch_rate.h"
#include "launch_rate_analysis.h"
#include "stats.h"
#include "probe.h"
#include "progress.h"

#define MAX_POINTS 160
#define BURST 1000

typedef struct shape {
    int x, y, z;
    int series; /* 0: 1D, 1: 2D, 2: 3D */
} shape;

typedef struct timed_launch {
    gp_evtimer tm;
    unsigned grid;
    int bx, by, bz;
    gp_graph graph; /* for graph timing; NULL otherwise */
} timed_launch;

static gp_status time_grid(void *ctx, double *ms_out)
{
    timed_launch *t = ctx;
    GP_TRY(gp_evtimer_start(&t->tm));
    GP_TRY(gp_launch_rate_launch(t->tm.stream, t->grid, t->bx, t->by, t->bz));
    return gp_evtimer_stop_ms(&t->tm, ms_out);
}

static gp_status time_burst(void *ctx, double *us_out)
{
    timed_launch *t = ctx;
    double ms;
    GP_TRY(gp_evtimer_start(&t->tm));
    if (t->graph)
        GP_TRY(gp_rt_graph_launch(t->graph, t->tm.stream));
    else
        GP_TRY(gp_launch_rate_burst(t->tm.stream, BURST));
    GP_TRY(gp_evtimer_stop_ms(&t->tm, &ms));
    *us_out = 1e3 * ms / BURST;
    return gp_ok();
}

static int add_shape(shape *s, int n, int x, int y, int z, int series, int max_threads)
{
    if (n >= MAX_POINTS || x * y * z > max_threads)
        return n;
    for (int i = 0; i < n; i++)
        if (s[i].x == x && s[i].y == y && s[i].z == z && s[i].series == series)
            return n;
    s[n].x = x, s[n].y = y, s[n].z = z, s[n].series = series;
    return n + 1;
}

static int build_shapes(const gp_device_info *dev, shape *s)
{
    int n = 0, w = dev->wave_size > 0 ? dev->wave_size : 32, max = dev->max_threads_per_block;
    for (int b = 1; b <= max; b *= 2)
        n = add_shape(s, n, b, 1, 1, 0, max);
    for (int b = w; b <= max; b += w)
        n = add_shape(s, n, b, 1, 1, 0, max);
    /* Non-multiples of the wave: a wave and a lane, a wave and a half. */
    for (int k = 1; k <= 8; k *= 2) {
        n = add_shape(s, n, k * w + 1, 1, 1, 0, max);
        n = add_shape(s, n, k * w + w / 2, 1, 1, 0, max);
    }
    for (int d = 1; d <= 32 && d <= dev->max_block_dim[1]; d++)
        n = add_shape(s, n, d, d, 1, 1, max);
    for (int d = 1; d <= 10 && d <= dev->max_block_dim[2]; d++)
        n = add_shape(s, n, d, d, d, 2, max);
    /* Sort 1D points by size so the series reads as a curve. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && s[j - 1].series == s[j].series && s[j - 1].x > s[j].x; j--) {
            shape t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return n;
}

static gp_status measure_shapes(gp_probe_ctx *ctx, timed_launch *t, gp_series *ser[3], double *x,
                                double *rate, double *spread, int *n_out, int *n1d_out)
{
    shape shapes[MAX_POINTS];
    int n = build_shapes(&ctx->dev, shapes);
    double target_ms = ctx->opts->quick ? 2.0 : 10.0;
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 3;
    cfg.max_reps = ctx->opts->quick ? 3 : 10;
    cfg.budget_s = ctx->opts->quick ? 0.05 : 0.3;
    const long max_grid = ctx->dev.max_grid_dim[0] > 0 ? ctx->dev.max_grid_dim[0] : 65535;
    for (int i = 0; i < n; i++) {
        const shape *sh = &shapes[i];
        int tpb = sh->x * sh->y * sh->z;
        t->bx = sh->x, t->by = sh->y, t->bz = sh->z;
        /* Pilot: ~4M threads (and several blocks per CU), then scale the grid
         * toward the target time; a second step corrects for the launch
         * overhead that dominates a short pilot. */
        double pilot_blocks = fmax(8.0 * ctx->dev.compute_units, (double)(1 << 22) / tpb);
        t->grid = (unsigned)fmin(pilot_blocks, (double)max_grid);
        double pilot_ms;
        GP_TRY(time_grid(t, &pilot_ms));
        for (int step = 0; step < 3; step++) {
            GP_TRY(time_grid(t, &pilot_ms));
            double scale = pilot_ms > 0 ? target_ms / pilot_ms : 1.0;
            if (scale > 0.8 && scale < 1.25)
                break;
            t->grid = (unsigned)fmax(1.0, fmin((double)t->grid * scale, (double)max_grid));
        }
        gp_harness_result res;
        GP_TRY(gp_harness_run(&cfg, time_grid, t, &res));
        double threads = (double)t->grid * tpb;
        double tpc = threads / (res.summary.median * 1e-3 * ctx->clock_mhz * 1e6);
        x[i] = tpb;
        rate[i] = tpc;
        spread[i] = gp_stats_rel_spread(&res.summary);
        double row[9] = {sh->x, sh->y, sh->z, tpb, t->grid, res.summary.median, res.summary.min,
                         spread[i], tpc};
        GP_TRY(gp_series_append(ser[sh->series], row));
        gp_progress("launch_rate", i + 1, n, "block %dx%dx%d: %.2f threads/cycle", sh->x, sh->y,
                    sh->z, tpc);
    }
    *n_out = n;
    *n1d_out = 0;
    for (int i = 0; i < n; i++)
        *n1d_out += shapes[i].series == 0;
    return gp_ok();
}

/* One graph of BURST launches, captured anew, replayed by the harness. */
static gp_status time_graph(timed_launch *t, const gp_harness_cfg *cfg, gp_harness_result *res)
{
    GP_TRY(gp_rt_graph_capture_begin(t->tm.stream));
    gp_status st = gp_launch_rate_burst(t->tm.stream, BURST);
    gp_status end = gp_rt_graph_capture_end(t->tm.stream, &t->graph);
    GP_TRY(st);
    GP_TRY(end);
    st = gp_harness_run(cfg, time_burst, t, res);
    gp_rt_graph_destroy(t->graph);
    t->graph = NULL;
    return st;
}

static gp_status measure_launch_cost(gp_probe_ctx *ctx, timed_launch *t)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = 5;
    cfg.max_reps = ctx->opts->quick ? 5 : 30;
    gp_harness_result stream_res, graph_res, again;
    t->graph = NULL;
    GP_TRY(gp_harness_run(&cfg, time_burst, t, &stream_res));
    GP_TRY(time_graph(t, &cfg, &graph_res));
    /* Between-launch spreads: the stream burst and a newly captured graph
     * again, as fresh launches.  The graph node time moved from 0.51 to
     * 0.68 us between two H200 runs with a 1.3 % spread within each;
     * the repeats say whether the run itself sees that. */
    double stream_us[GP_BETWEEN_LAUNCHES], graph_us[GP_BETWEEN_LAUNCHES];
    stream_us[0] = stream_res.summary.median;
    graph_us[0] = graph_res.summary.median;
    for (int k = 1; k < GP_BETWEEN_LAUNCHES; k++) {
        GP_TRY(gp_harness_run(&cfg, time_burst, t, &again));
        stream_us[k] = again.summary.median;
        GP_TRY(time_graph(t, &cfg, &again));
        graph_us[k] = again.summary.median;
    }

    gp_value *v = gp_record_value(ctx->rec, "launch_us", stream_res.summary.median, "us",
                                  gp_stats_rel_spread(&stream_res.summary),
                                  "1000 back-to-back launches of a 1-thread empty kernel on one stream, "
                                  "event time / 1000, median of repeats; spread_between: the burst again");
    if (v)
        v->unstable = !stream_res.stable;
    gp_value_between(v, stream_us, GP_BETWEEN_LAUNCHES);
    v = gp_record_value(ctx->rec, "graph_launch_us", graph_res.summary.median, "us",
                        gp_stats_rel_spread(&graph_res.summary),
                        "the same 1000 launches captured into one graph and replayed, event time / 1000; "
                        "spread_between: a graph captured anew each time");
    if (v)
        v->unstable = !graph_res.stable;
    gp_value_between(v, graph_us, GP_BETWEEN_LAUNCHES);
    gp_progress("launch_rate", 1, 1, "launch %.2f us, graph node %.2f us", stream_res.summary.median,
                graph_res.summary.median);
    return gp_ok();
}

static void granularity_finding(gp_record *r, const char *key, long modulus, const double *x,
                                const double *rate, int n, int n1d, int w)
{
    size_t k;
    double loss = gp_analysis_granularity_loss(x, rate, (size_t)n, modulus, x, rate, (size_t)n1d, &k);
    if (!isfinite(loss)) {
        gp_record_none(r, key, "fraction", "no non-multiple shape had measured neighbours to compare with");
        return;
    }
    char method[256];
    snprintf(method, sizeof method,
             "median over %zu shapes not a multiple of %ld of 1 - rate / (rate interpolated between the "
             "neighbouring 1D multiples of %ld)", k, modulus, modulus);
    gp_record_value(r, key, loss, "fraction", -1, method);
    if (modulus == w)
        gp_record_note(r, "blocks that are not a multiple of the wave size (%d) %s: %.1f%% below their "
                          "neighbours (a per-wave launch cost would give %.1f%%)",
                       w, loss > 0.03 ? "lose launch rate" : "do not lose launch rate", 100 * loss,
                       100 * gp_launch_rate_per_wave_loss(x, (size_t)n, w));
    else
        gp_record_note(r, "blocks that are not a multiple of %ld threads %s: %.1f%% below their neighbours",
                       modulus, loss > 0.03 ? "lose launch rate" : "do not lose launch rate", 100 * loss);
}

static void analyse(gp_probe_ctx *ctx, const double *x, const double *rate, const double *spread, int n,
                    int n1d)
{
    gp_record *r = ctx->rec;
    int w = ctx->dev.wave_size;
    int ipk = gp_analysis_argmax(rate, (size_t)n);
    if (ipk < 0) {
        gp_record_none(r, "peak_threads_per_cycle", "threads/cycle", "no finite rate measured");
        return;
    }
    double peak = rate[ipk];
    gp_value *v = gp_record_value(r, "peak_threads_per_cycle", peak, "threads/cycle", spread[ipk],
                                  "largest median rate over all block shapes; cycles from the measured clock");
    if (v)
        v->unstable = spread[ipk] > 0.05;
    gp_record_value(r, "peak_threads_per_cycle_per_cu", peak / ctx->dev.compute_units, "threads/cycle",
                    spread[ipk], "peak over the compute-unit count the runtime reports");
    gp_record_value(r, "peak_block_threads", x[ipk], "threads", -1, "block size of the peak");
    /* 1D points come first in x/rate; the smallest reaching 95%. */
    int imin = gp_analysis_first_reaching(x, rate, (size_t)n1d, peak, 0.95);
    if (imin >= 0)
        gp_record_value(r, "min_block_for_peak", x[imin], "threads", -1,
                        "smallest 1D block whose rate is at least 95% of the peak");
    else
        gp_record_none(r, "min_block_for_peak", "threads", "no 1D block reached 95% of the peak");
    /* Small blocks: the rate per block is the chip's block launch rate. */
    double bpc = gp_launch_rate_blocks_per_cycle(x, rate, (size_t)n1d, w);
    gp_record_value(r, "blocks_per_cycle", bpc, "blocks/cycle", -1,
                    "median of threads/cycle over block size, 1D blocks of 1..wave size threads");
    double at_max = rate[n1d - 1] / x[n1d - 1];
    if (isfinite(bpc) && at_max >= 0.8 * bpc)
        gp_record_note(r, "launch is limited by blocks per cycle (%.3f) up to the largest block: the rate "
                          "grows with block size, so launch-bound kernels want large blocks", bpc);
    granularity_finding(r, "non_wave_multiple_loss", w, x, rate, n, n1d, w);
    if (256 % w == 0)
        granularity_finding(r, "non_256_multiple_loss", 256, x, rate, n, n1d, w);
    gp_record_note(r, "peak %.1f threads/cycle (%.2f per CU) at %.0f-thread blocks", peak,
                   peak / ctx->dev.compute_units, x[ipk]);
}

static gp_status launch_rate_run(gp_probe_ctx *ctx)
{
    timed_launch t;
    memset(&t, 0, sizeof t);
    gp_series *ser[3] = {
        gp_record_series(ctx->rec, "1d", "block_x,block_y,block_z,threads_per_block,blocks,ms_median,ms_min,spread,threads_per_cycle"),
        gp_record_series(ctx->rec, "2d", "block_x,block_y,block_z,threads_per_block,blocks,ms_median,ms_min,spread,threads_per_cycle"),
        gp_record_series(ctx->rec, "3d", "block_x,block_y,block_z,threads_per_block,blocks,ms_median,ms_min,spread,threads_per_cycle"),
    };
    if (!ser[0] || !ser[1] || !ser[2])
        return gp_fail(GP_ERR_NOMEM, "launch_rate: no room for series");
    double x[MAX_POINTS], rate[MAX_POINTS], spread[MAX_POINTS];
    int n = 0, n1d = 0;
    gp_status st = gp_evtimer_create(&t.tm, 1);
    if (st.code == GP_OK)
        st = measure_shapes(ctx, &t, ser, x, rate, spread, &n, &n1d);
    if (st.code == GP_OK)
        st = measure_launch_cost(ctx, &t);
    gp_evtimer_destroy(&t.tm);
    GP_TRY(st);
    analyse(ctx, x, rate, spread, n, n1d);
    return gp_ok();
}

static gp_status launch_rate_check(const gp_record *rec, const gp_device_info *dev)
{
    const gp_value *peak = gp_record_find(rec, "peak_threads_per_cycle");
    if (!peak || !peak->detected || !(peak->value > 0))
        return gp_fail(GP_ERR_CHECK, "launch_rate: no positive peak rate");
    /* A CU cannot start more threads in a cycle than it can hold; a peak above
     * that means the clock or the timing is wrong. */
    double bound = (double)dev->compute_units * dev->max_threads_per_cu;
    if (peak->value > bound)
        return gp_fail(GP_ERR_CHECK,
                       "launch_rate: peak %.1f threads/cycle exceeds %d CUs x %d resident threads: "
                       "the clock or the timing is wrong",
                       peak->value, dev->compute_units, dev->max_threads_per_cu);
    const gp_value *mb = gp_record_find(rec, "min_block_for_peak");
    if (!mb || !mb->detected || mb->value < 1 || mb->value > dev->max_threads_per_block)
        return gp_fail(GP_ERR_CHECK, "launch_rate: min_block_for_peak missing or outside 1..%d",
                       dev->max_threads_per_block);
    const gp_value *lu = gp_record_find(rec, "launch_us"), *gu = gp_record_find(rec, "graph_launch_us");
    if (!lu || !(lu->value > 0.05 && lu->value < 1000))
        return gp_fail(GP_ERR_CHECK, "launch_rate: launch cost %.3f us is outside 0.05..1000 us",
                       lu ? lu->value : NAN);
    if (!gu || !(gu->value > 0.01 && gu->value < 1000))
        return gp_fail(GP_ERR_CHECK, "launch_rate: graph launch cost %.3f us is outside 0.01..1000 us",
                       gu ? gu->value : NAN);
    double clk = rec->clock_before.measured_mhz;
    if (dev->core_clock_mhz > 0 && (clk < 0.2 * dev->core_clock_mhz || clk > 1.2 * dev->core_clock_mhz))
        return gp_fail(GP_ERR_CHECK,
                       "launch_rate: measured clock %.0f MHz is far from the reported maximum %.0f MHz",
                       clk, dev->core_clock_mhz);
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row launch_rate_table_rows[] = {
    {"peak_threads_per_cycle", "launch", "peak_threads_per_cycle"},
    {"min_block_for_peak", "launch", "min_block_for_peak"},
    {"launch_us", "launch", "launch_us"},
    {"graph_launch_us", "launch", "graph_launch_us"},
    {"blocks_per_cycle", "launch", "blocks_per_cycle"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot launch_rate_plots[] = {
    {"1d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (1D blocks)",
     "threads per block", "threads launched per cycle", GP_PLOT_YZERO, NULL, NULL},
    {"2d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (2D blocks)",
     "threads per block", "threads launched per cycle", GP_PLOT_YZERO, NULL, NULL},
    {"3d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (3D blocks)",
     "threads per block", "threads launched per cycle", GP_PLOT_YZERO, NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline launch_rate_datasheet[] = {
    {700, "Launch and registers", "launch cost", "launch_us", "graph_launch_us", NULL, GP_DS_US, "graph node",
     "launch", "launch_us", NULL, NULL, 0, 0},
};

const gp_probe gp_probe_launch_rate = {
    .name = "launch_rate",
    .summary = "threads launched per cycle by block shape; launch cost per kernel and per graph node",
    .run = launch_rate_run,
    .check = launch_rate_check,
    .table_rows = launch_rate_table_rows,
    .ntable_rows = GP_COUNT(launch_rate_table_rows),
    .plots = launch_rate_plots,
    .nplots = GP_COUNT(launch_rate_plots),
    .datasheet = launch_rate_datasheet,
    .ndatasheet = GP_COUNT(launch_rate_datasheet),
    /* First: it times the host's launch path, which the other probes'
     * allocations and modules slow down in one process (H200: graph
     * launches 0.68 us after them, 0.50 us in a fresh process as ctest runs
     * it; docs/reports/h200/README.md, "The sm_90 package"). */
    .order = -1,
};
