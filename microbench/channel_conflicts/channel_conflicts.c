/* channel_conflicts: does the memory controller pick channels from low
 * address bits, and does a power-of-two leading dimension lose bandwidth?
 *
 * Method ([Vega-HIP] §2.10, made DRAM-safe): a large buffer is cut into
 * rows of R bytes and only a W-byte window at the start of every row is read.
 * The high address bits range over the whole buffer, the low ones stay in the
 * window.  If channels are chosen by low bits (interleave G, C channels), a
 * window W < G x C reaches only W/G channels and bandwidth falls in
 * proportion; the knee of bandwidth versus W gives G x C, the end of the flat
 * low end gives G.  Unlike the seed (which folded addresses onto each other,
 * so narrow windows re-read a small, cacheable set), every touched byte is
 * distinct and the touched set stays >= 4x L2, so each point streams from
 * DRAM.  Then column strips of a rows x ld matrix (the SGEMM K = 4096 case):
 * every wave reads a wave-wide strip of one row, the grid walks down the
 * rows, for ld = 4096 + pad. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "channel_conflicts_analysis.h"
#include "channel_conflicts.h"
#include "evtimer.h"
#include "harness.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define MAX_W 16
#define LD_BASE 4096
#define MAX_PASSES 4096

static const int pads[] = {0, 1, 2, 4, 8, 16, 32};
#define NPADS ((int)(sizeof pads / sizeof pads[0]))

typedef struct cc_run {
    gp_evtimer tm;
    char *buf;
    unsigned *uout;
    float *fout;
    unsigned grid;
    int block;
    int mode; /* 0 window, 1 strips */
    size_t rows;
    int win_log2, row_log2;
    int ld, cols;
    int passes;
} cc_run;

static gp_status time_once(void *ctx, double *ms_out)
{
    cc_run *r = ctx;
    GP_TRY(gp_evtimer_start(&r->tm));
    if (r->mode == 0)
        GP_TRY(gp_chan_window_launch(r->tm.stream, r->grid, r->block, r->buf, r->rows, r->win_log2, r->row_log2,
                                     r->passes, 0x9e3779b9u, r->uout));
    else
        GP_TRY(gp_chan_ld_launch(r->tm.stream, r->grid, r->block, (const float *)r->buf, (int)r->rows, r->cols, r->ld,
                                 r->passes, -1.0f, r->fout));
    return gp_evtimer_stop_ms(&r->tm, ms_out);
}

/* Passes so that one launch lasts >= target_ms. */
static gp_status calibrate(cc_run *r, double target_ms)
{
    double ms;
    r->passes = 1;
    GP_TRY(time_once(r, &ms));
    for (int step = 0; step < 3; step++) {
        GP_TRY(time_once(r, &ms));
        if (ms >= target_ms || r->passes >= MAX_PASSES)
            break;
        double scale = ms > 0.002 ? 1.2 * target_ms / ms : 64.0;
        r->passes = (int)fmin(MAX_PASSES, fmax(r->passes + 1.0, ceil(r->passes * scale)));
    }
    return gp_ok();
}

static gp_harness_cfg harness_cfg(int quick)
{
    gp_harness_cfg h = gp_harness_defaults();
    h.min_reps = 3;
    h.max_reps = quick ? 3 : 9;
    h.budget_s = quick ? 0.05 : 0.3;
    return h;
}

static gp_status window_sweep(gp_probe_ctx *ctx, cc_run *r, size_t buf_bytes, double *w, double *bw,
                              double *spr, int *nw, int *row_log2_out)
{
    double l2 = ctx->dev.l2_bytes > 0 ? (double)ctx->dev.l2_bytes : 4.0 * 1048576;
    const int wmin_log2 = 8; /* 256 B */
    /* Rows as long as possible while the narrowest window still touches
     * >= 4x L2 (so no point is served by the cache), between 4 KiB and 1 MiB. */
    int row_log2 = (int)floor(log2((double)buf_bytes * (1 << wmin_log2) / (4.0 * l2)));
    row_log2 = row_log2 < 12 ? 12 : row_log2 > 20 ? 20 : row_log2;
    *row_log2_out = row_log2;
    r->mode = 0;
    r->row_log2 = row_log2;
    r->rows = buf_bytes >> row_log2;
    r->block = 256;
    r->grid = (unsigned)(ctx->dev.compute_units * (ctx->dev.max_threads_per_cu > 0 ? ctx->dev.max_threads_per_cu / 256 : 4));
    if (r->grid == 0)
        r->grid = 1;
    gp_series *ser = gp_record_series(ctx->rec, "window",
                                      "window_bytes,row_bytes,touched_bytes,gbs,spread,passes,ms_median");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, "channel_conflicts: no room for series");
    gp_harness_cfg h = harness_cfg(ctx->opts->quick);
    int n = 0, total = row_log2 - wmin_log2 + 1;
    for (int wl = wmin_log2; wl <= row_log2 && n < MAX_W; wl += ctx->opts->quick && wl < row_log2 - 1 ? 2 : 1) {
        r->win_log2 = wl;
        double touched = (double)r->rows * (double)((size_t)1 << wl);
        /* A touched set the L2 could hold would measure the cache, not channels. */
        if (touched < 2.0 * l2)
            continue;
        GP_TRY(calibrate(r, ctx->opts->quick ? 1.0 : 2.0));
        gp_harness_result res;
        GP_TRY(gp_harness_run(&h, time_once, r, &res));
        w[n] = (double)((size_t)1 << wl);
        bw[n] = touched * r->passes / (res.summary.median * 1e-3) / 1e9;
        spr[n] = gp_stats_rel_spread(&res.summary);
        double row[7] = {w[n], (double)((size_t)1 << row_log2), touched, bw[n], spr[n], r->passes, res.summary.median};
        GP_TRY(gp_series_append(ser, row));
        gp_progress("channel_conflicts", n + 1, total, "window %.0f B of %d KiB rows: %.0f GB/s", w[n],
                    1 << (row_log2 - 10), bw[n]);
        n++;
    }
    *nw = n;
    return gp_ok();
}

static gp_status ld_sweep(gp_probe_ctx *ctx, cc_run *r, size_t buf_bytes, double *pad, double *bw, double *spr,
                          int *np)
{
    double l2 = ctx->dev.l2_bytes > 0 ? (double)ctx->dev.l2_bytes : 4.0 * 1048576;
    int ld_max = LD_BASE + pads[NPADS - 1];
    /* Enough rows that the matrix is >= 4x L2, as many as the buffer holds. */
    double rows = ceil(4.0 * l2 / (LD_BASE * 4.0));
    rows = fmin(rows, floor((double)buf_bytes / (ld_max * 4.0)));
    rows = fmin(rows, 1 << 20);
    if (rows < 64)
        return gp_fail(GP_ERR_NOMEM, "channel_conflicts: buffer too small for the leading-dimension sweep");
    r->mode = 1;
    r->rows = (size_t)rows;
    r->cols = LD_BASE;
    gp_series *ser = gp_record_series(ctx->rec, "leading_dim", "ld,pad_elems,rows,gbs,spread,passes,ms_median");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, "channel_conflicts: no room for series");
    gp_harness_cfg h = harness_cfg(ctx->opts->quick);
    for (int i = 0; i < NPADS; i++) {
        r->ld = LD_BASE + pads[i];
        GP_TRY(calibrate(r, ctx->opts->quick ? 1.0 : 2.0));
        gp_harness_result res;
        GP_TRY(gp_harness_run(&h, time_once, r, &res));
        double bytes = rows * LD_BASE * 4.0 * r->passes;
        pad[i] = pads[i];
        bw[i] = bytes / (res.summary.median * 1e-3) / 1e9;
        spr[i] = gp_stats_rel_spread(&res.summary);
        double row[7] = {r->ld, pads[i], rows, bw[i], spr[i], r->passes, res.summary.median};
        GP_TRY(gp_series_append(ser, row));
        gp_progress("channel_conflicts", i + 1, NPADS, "ld %d: %.0f GB/s", r->ld, bw[i]);
    }
    *np = NPADS;
    return gp_ok();
}

static void analyse(gp_probe_ctx *ctx, const double *w, const double *wbw, const double *wspr, int nw,
                    int row_log2, const double *pad, const double *pbw, const double *pspr, int np)
{
    gp_record *rec = ctx->rec;
    gp_bw_window_fit fit;
    gp_bw_window_analyse(w, wbw, (size_t)nw, &fit);
    double best = 0, best_spr = -1;
    for (int i = 0; i < nw; i++)
        if (wbw[i] > best)
            best = wbw[i], best_spr = wspr[i];
    if (nw > 0) {
        gp_record_value(rec, "window_best_gbs", best, "GB/s", best_spr, "best bandwidth over the window sweep");
        gp_record_value(rec, "narrow_window_fraction", fit.min_ratio, "fraction", wspr[0],
                        "bandwidth of the narrowest window / best window");
    } else {
        gp_record_none(rec, "window_best_gbs", "GB/s", "no window touched >= 2x L2 in the buffer that fitted");
    }
    char m[256];
    if (fit.detected) {
        snprintf(m, sizeof m, "knee of bandwidth vs window (first W >= 90%% of the best; rise slope %.2f in log-log), "
                              "%d KiB rows", fit.slope, 1 << (row_log2 - 10));
        gp_record_value(rec, "channel_span_bytes", fit.knee_bytes, "bytes", -1, m);
        if (isfinite(fit.interleave_bytes)) {
            gp_record_value(rec, "interleave_bytes", fit.interleave_bytes, "bytes", -1,
                            "widest window of the flat low end of bandwidth vs window (one channel)");
            gp_record_value(rec, "count", fit.count, "channels", -1, "channel span / interleave");
        } else {
            gp_record_none(rec, "interleave_bytes", "bytes",
                           "bandwidth rises from the narrowest window: the interleave is at most that window");
            gp_record_none(rec, "count", "channels", "interleave unknown, so channel span / interleave is too");
        }
        gp_record_note(rec, "channels selected by low address bits: bandwidth saturates at a %.0f-byte window",
                       fit.knee_bytes);
    } else {
        gp_record_none(rec, "interleave_bytes", "bytes", fit.reason);
        gp_record_none(rec, "count", "channels", fit.reason);
        gp_record_note(rec, "window sweep: %s", fit.reason);
    }
    double pe, slow;
    if (np > 0 && gp_bw_pad_analyse(pad, pbw, (size_t)np, &pe, &slow) == 0) {
        gp_record_value(rec, "worst_slowdown", slow, "ratio", pspr[0],
                        "best padded bandwidth / bandwidth at ld = 4096 (column strips walking down rows)");
        gp_record_value(rec, "pad_elems", pe, "floats", -1,
                        "smallest pad of ld = 4096 + pad within 5% of the best bandwidth (0: no pad needed)");
        gp_record_note(rec, "leading dimension 4096: %.0f GB/s, best pad %.0f GB/s (%.2fx); %s", pbw[0], pbw[0] * slow,
                       slow, pe > 0 ? "pad the leading dimension" : "no padding needed");
    } else {
        gp_record_none(rec, "worst_slowdown", "ratio", "leading-dimension sweep did not run");
        gp_record_none(rec, "pad_elems", "floats", "leading-dimension sweep did not run");
    }
}

static gp_status channel_conflicts_run(gp_probe_ctx *ctx)
{
    cc_run r;
    memset(&r, 0, sizeof r);
    size_t free_b = 0, total_b = 0;
    GP_TRY(gp_rt_mem_info(&free_b, &total_b));
    /* A big buffer: the narrow windows must still touch far more than L2. */
    double cap = ctx->opts->quick ? 4096.0 * 1048576 : 16384.0 * 1048576;
    double bb = pow(2.0, floor(log2(fmax(fmin(cap, 0.5 * (double)free_b), 16.0 * 1048576))));
    size_t buf_bytes = (size_t)bb;
    double w[MAX_W], wbw[MAX_W], wspr[MAX_W], pad[NPADS], pbw[NPADS], pspr[NPADS];
    int nw = 0, np = 0, row_log2 = 12;
    gp_status st = gp_rt_malloc((void **)&r.buf, buf_bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&r.uout, 64);
    r.fout = (float *)r.uout;
    /* Defined contents (not needed for timing, but a reproducible sum). */
    if (st.code == GP_OK)
        st = gp_rt_memset(r.buf, 0x3c, buf_bytes);
    if (st.code == GP_OK)
        st = gp_evtimer_create(&r.tm, 1);
    if (st.code == GP_OK)
        st = gp_rt_synchronize();
    if (st.code == GP_OK)
        st = window_sweep(ctx, &r, buf_bytes, w, wbw, wspr, &nw, &row_log2);
    if (st.code == GP_OK) {
        r.block = 256;
        r.grid = (unsigned)(ctx->dev.compute_units *
                            (ctx->dev.max_threads_per_cu > 0 ? ctx->dev.max_threads_per_cu / 256 : 4));
        if (r.grid == 0)
            r.grid = 1;
        st = ld_sweep(ctx, &r, buf_bytes, pad, pbw, pspr, &np);
    }
    gp_evtimer_destroy(&r.tm);
    gp_rt_free(r.uout);
    gp_rt_free(r.buf);
    GP_TRY(st);
    gp_record_note(ctx->rec, "buffer %.0f MiB, rows of %d KiB, windows 256 B..row", bb / 1048576.0, 1 << (row_log2 - 10));
    analyse(ctx, w, wbw, wspr, nw, row_log2, pad, pbw, pspr, np);
    return gp_ok();
}

static gp_status channel_conflicts_check(const gp_record *rec, const gp_device_info *dev)
{
    double peak = gp_bw_theoretical_gbs(dev->mem_bus_bits, dev->mem_clock_mhz);
    int rows = 0;
    for (int i = 0; i < rec->nseries; i++) {
        const gp_series *s = &rec->series[i];
        int win = strcmp(s->name, "window") == 0, ld = strcmp(s->name, "leading_dim") == 0;
        if (!win && !ld)
            continue;
        for (size_t j = 0; j < s->nrows; j++, rows++) {
            const double *row = s->data + j * (size_t)s->ncols;
            double g = row[3];
            /* Bytes the point streamed: touched set (window) or rows x 4096 floats. */
            double bytes = win ? row[2] : row[2] * LD_BASE * 4.0;
            if (!(g > 0))
                return gp_fail(GP_ERR_CHECK, "channel_conflicts: %s row %zu has bandwidth %.3g GB/s", s->name, j, g);
            /* A point streaming >= 2x L2 comes from DRAM: above the bus peak
             * means the cache served it or the timing is wrong. */
            if (isfinite(peak) && bytes >= 2.0 * (double)dev->l2_bytes && g > 1.03 * peak)
                return gp_fail(GP_ERR_CHECK,
                               "channel_conflicts: %s row %zu: %.0f GB/s exceeds the %.0f GB/s DRAM peak",
                               s->name, j, g, peak);
        }
    }
    if (rows == 0)
        return gp_fail(GP_ERR_CHECK, "channel_conflicts: no measurements recorded");
    const gp_value *pe = gp_record_find(rec, "pad_elems");
    if (!pe || (pe->detected && pe->value < 0))
        return gp_fail(GP_ERR_CHECK, "channel_conflicts: pad_elems missing or negative");
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row channel_conflicts_table_rows[] = {
    {"interleave_bytes", "channels", "interleave_bytes"},
    {"count", "channels", "count"},
    {"pad_elems", "channels", "pad_elems"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot channel_conflicts_plots[] = {
    {"window", "window_bytes", "gbs", 1, 0, "Bandwidth vs channel window",
     "window of each row touched (bytes)", "bandwidth (GB/s)", GP_PLOT_YZERO | GP_PLOT_XBYTES, NULL, NULL},
    {"leading_dim", "pad_elems", "gbs", 0, 0, "Bandwidth vs leading-dimension pad",
     "pad added to the leading dimension (elements)", "bandwidth (GB/s)", GP_PLOT_YZERO, NULL, NULL},
    /* A guess for a series not named above: skipped when the columns differ. */
    {"*", "window_bytes|window|stride_bytes|stride", "gbps|bandwidth_gbps|gb_per_s|gbs", 1, 0,
     "Bandwidth vs channel window", NULL, NULL, GP_PLOT_YZERO, NULL, NULL},
};

const gp_probe gp_probe_channel_conflicts = {
    .name = "channel_conflicts",
    .summary = "memory channel interleave from bandwidth vs address window; leading-dimension padding",
    .run = channel_conflicts_run,
    .check = channel_conflicts_check,
    .table_rows = channel_conflicts_table_rows,
    .ntable_rows = GP_COUNT(channel_conflicts_table_rows),
    .plots = channel_conflicts_plots,
    .nplots = GP_COUNT(channel_conflicts_plots),
};
