/* interconnect: the links of the GPU, to the host and to its peers.
 *
 * Host link (the CUDA samples' bandwidthTest method, one transfer per
 * sample): host-to-device and device-to-host copies from pinned and from
 * pageable host memory, by transfer size 4 KiB x 4^k up to 1 GiB (64 MiB
 * with --quick), each one copy queued on a stream between two events;
 * median and p10/p90 over the repeats.  Small-transfer latency: one 4 B and
 * one 4 KiB pinned copy, event-timed, median of many.  The link's
 * theoretical rate is what NVML reads (PCIe generation and width), never a
 * guess.  Peers (nvbandwidth's method, with every visible GPU): copy-engine
 * peer copies one way and both ways at once, kernel loads and stores through
 * peer access, and a one-thread pointer chase over the peer's memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtimer.h"
#include "harness.h"
#include "interconnect.h"
#include "interconnect_analysis.h"
#include "probe.h"
#include "progress.h"
#include "smi.h"
#include "stats.h"
#include "transfer.h"

#define MIN_BYTES ((size_t)4096)
#define MAX_BYTES ((size_t)1 << 30)
#define QUICK_MAX_BYTES ((size_t)64 << 20)
#define MAX_SIZES 16
#define P2P_BYTES ((size_t)256 << 20)
#define QUICK_P2P_BYTES ((size_t)16 << 20)
/* Pointer chase: 2048 nodes 4 KiB apart (8 MiB), 1000 dependent loads. */
#define CHASE_NODES 2048
#define CHASE_STRIDE 1024
#define CHASE_STEPS 1000

static const char *const dir_name[2] = {"h2d", "d2h"};

/* ---------------------------------------------------------------- timing */

typedef struct copy_job {
    gp_evtimer *tm;
    void *dst;
    const void *src;
    size_t bytes;
    gp_copy_dir dir;
} copy_job;

static gp_status time_copy(void *c, double *ms)
{
    copy_job *j = c;
    GP_TRY(gp_evtimer_start(j->tm));
    GP_TRY(gp_rt_copy_async(j->dst, j->src, j->bytes, j->dir, j->tm->stream));
    return gp_evtimer_stop_ms(j->tm, ms);
}

static gp_harness_cfg copy_cfg(int quick)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = quick ? 3 : 5;
    cfg.max_reps = quick ? 5 : 30;
    cfg.budget_s = quick ? 0.1 : 0.5;
    return cfg;
}

/* One point of a bandwidth curve: GB/s at the median time, p10/p90 of the
 * rate (from p90/p10 of the times), the relative spread of the times. */
typedef struct rate {
    double gbs, p10, p90, spread;
} rate;

static rate rate_of(const gp_harness_result *res, size_t bytes)
{
    rate r;
    r.gbs = bytes / (res->summary.median * 1e6);
    r.p10 = bytes / (res->summary.p90 * 1e6);
    r.p90 = bytes / (res->summary.p10 * 1e6);
    r.spread = gp_stats_rel_spread(&res->summary);
    return r;
}

/* ---------------------------------------------------------------- host link */

typedef struct host_bufs {
    void *dev, *pinned, *pageable;
    size_t bytes;
} host_bufs;

typedef struct host_curves {
    int n;
    double bytes[MAX_SIZES];
    rate r[2][2][MAX_SIZES]; /* [dir][pinned][size] */
    double between[2][2][GP_BETWEEN_LAUNCHES]; /* the largest size in fresh runs */
} host_curves;

static gp_status measure_host(gp_probe_ctx *ctx, gp_evtimer *tm, const host_bufs *b, host_curves *c)
{
    gp_harness_cfg cfg = copy_cfg(ctx->opts->quick);
    c->n = 0;
    for (size_t bytes = MIN_BYTES; bytes <= b->bytes && c->n < MAX_SIZES; bytes *= 4)
        c->bytes[c->n++] = (double)bytes;
    for (int i = 0; i < c->n; i++) {
        size_t bytes = (size_t)c->bytes[i];
        for (int d = 0; d < 2; d++)
            for (int p = 0; p < 2; p++) {
                void *host = p ? b->pinned : b->pageable;
                copy_job j = {tm, d == GP_COPY_H2D ? b->dev : host, d == GP_COPY_H2D ? host : b->dev, bytes,
                              (gp_copy_dir)d};
                gp_harness_result res;
                GP_TRY(gp_harness_run(&cfg, time_copy, &j, &res));
                c->r[d][p][i] = rate_of(&res, bytes);
                if (i == c->n - 1)
                    c->between[d][p][0] = c->r[d][p][i].gbs;
            }
        gp_progress("interconnect", i + 1, c->n, "%zu B: H2D %.2f / %.2f GB/s, D2H %.2f / %.2f GB/s (pinned / pageable)",
                    bytes, c->r[0][1][i].gbs, c->r[0][0][i].gbs, c->r[1][1][i].gbs, c->r[1][0][i].gbs);
    }
    /* Between-launch spread of the headline figures: the largest size again,
     * in fresh harness runs. */
    size_t big = (size_t)c->bytes[c->n - 1];
    for (int k = 1; k < GP_BETWEEN_LAUNCHES; k++)
        for (int d = 0; d < 2; d++)
            for (int p = 0; p < 2; p++) {
                void *host = p ? b->pinned : b->pageable;
                copy_job j = {tm, d == GP_COPY_H2D ? b->dev : host, d == GP_COPY_H2D ? host : b->dev, big,
                              (gp_copy_dir)d};
                gp_harness_result res;
                GP_TRY(gp_harness_run(&cfg, time_copy, &j, &res));
                c->between[d][p][k] = rate_of(&res, big).gbs;
            }
    return gp_ok();
}

/* Event time of one small pinned copy, median of many (us). */
static gp_status measure_small(gp_probe_ctx *ctx, gp_evtimer *tm, const host_bufs *b, gp_copy_dir d, size_t bytes,
                               gp_summary *us)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = cfg.max_reps = ctx->opts->quick ? 21 : 201;
    cfg.warmup = 3;
    cfg.budget_s = 5;
    copy_job j = {tm, d == GP_COPY_H2D ? b->dev : b->pinned, d == GP_COPY_H2D ? b->pinned : b->dev, bytes, d};
    gp_harness_result res;
    GP_TRY(gp_harness_run(&cfg, time_copy, &j, &res));
    for (size_t i = 0; i < res.n; i++)
        res.samples[i] *= 1e3;
    gp_stats_summarize(res.samples, res.n, us);
    return gp_ok();
}

/* A one-thread chase over `chain` (any memory the current device can load),
 * us per dependent load, median of repeats. */
typedef struct chase_job {
    gp_evtimer *tm;
    const unsigned *chain;
    unsigned *out;
} chase_job;

static gp_status time_chase(void *c, double *ms)
{
    chase_job *j = c;
    GP_TRY(gp_evtimer_start(j->tm));
    GP_TRY(gp_ic_chase_launch(j->tm->stream, j->chain, CHASE_STEPS, j->out));
    return gp_evtimer_stop_ms(j->tm, ms);
}

static gp_status chase_us(int quick, gp_evtimer *tm, const unsigned *chain, unsigned *out, gp_summary *us)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.min_reps = quick ? 3 : 9;
    cfg.max_reps = quick ? 3 : 21;
    chase_job j = {tm, chain, out};
    gp_harness_result res;
    GP_TRY(gp_harness_run(&cfg, time_chase, &j, &res));
    for (size_t i = 0; i < res.n; i++)
        res.samples[i] *= 1e3 / CHASE_STEPS;
    gp_stats_summarize(res.samples, res.n, us);
    return gp_ok();
}

static unsigned *new_chain(void)
{
    unsigned *c = malloc((size_t)CHASE_NODES * CHASE_STRIDE * sizeof *c);
    if (c && !gp_ic_chain_build(c, CHASE_NODES, CHASE_STRIDE, 12345u)) {
        free(c);
        c = NULL;
    }
    return c;
}

/* Host memory seen by a kernel: the chase over mapped pinned memory
 * (nvbandwidth's host_device_latency_sm). */
static gp_status measure_host_load(gp_probe_ctx *ctx, gp_evtimer *tm, const host_bufs *b, gp_summary *us)
{
    if (!gp_ic_chain_build(b->pinned, CHASE_NODES, CHASE_STRIDE, 12345u))
        return gp_fail(GP_ERR_USAGE, "interconnect: chase chain not built");
    void *dchain = NULL;
    GP_TRY(gp_rt_host_device_ptr(&dchain, b->pinned));
    return chase_us(ctx->opts->quick, tm, dchain, b->dev, us);
}

/* ---------------------------------------------------------------- record: host */

/* A ratio's relative spread from its two rates' (first order: they add);
 * unknown (-1) when either is. */
static double ratio_spread(const rate *num, const rate *den)
{
    return num->spread >= 0 && den->spread >= 0 ? num->spread + den->spread : -1;
}

/* A ratio of two measured rates is as reproducible as the worse of them:
 * its between-launch spread is theirs added, and it is unstable when either
 * is (compare then reports it, never as agreeing). */
static void ratio_value(gp_value *ratio, const gp_value *num, const gp_value *den)
{
    if (!ratio || !num || !den)
        return;
    if (num->spread_between >= 0 && den->spread_between >= 0)
        ratio->spread_between = num->spread_between + den->spread_between;
    ratio->unstable = num->unstable || den->unstable;
}

static void record_host(gp_probe_ctx *ctx, const host_curves *c, const gp_smi_link *lk)
{
    gp_record *r = ctx->rec;
    int last = c->n - 1;
    double link = lk->available ? gp_ic_pcie_gbs(lk->curr_gen, lk->curr_width) : NAN;
    double link_max = lk->available ? gp_ic_pcie_gbs(lk->max_gen, lk->max_width) : NAN;
    for (int d = 0; d < 2; d++) {
        gp_series *s = gp_record_series(r, dir_name[d],
                                        "bytes,pinned_gbs,pinned_p10,pinned_p90,pageable_gbs,pageable_p10,"
                                        "pageable_p90,pinned_spread,pageable_spread,link_gbs");
        double pinned[MAX_SIZES];
        for (int i = 0; i < c->n; i++) {
            const rate *pi = &c->r[d][1][i], *pa = &c->r[d][0][i];
            double row[10] = {c->bytes[i], pi->gbs, pi->p10, pi->p90, pa->gbs, pa->p10, pa->p90, pi->spread,
                              pa->spread, link};
            if (s)
                gp_series_append(s, row);
            pinned[i] = pi->gbs;
        }
        char key[64], method[256];
        const rate *pk = &c->r[d][1][last], *pg = &c->r[d][0][last];
        snprintf(key, sizeof key, "%s_pinned_gbs", dir_name[d]);
        snprintf(method, sizeof method,
                 "%s copy of %.0f MiB from pinned memory, one copy between two events, median of repeats; "
                 "spread_between: %d fresh runs", d ? "device-to-host" : "host-to-device", c->bytes[last] / 1048576,
                 GP_BETWEEN_LAUNCHES);
        gp_value *vpk = gp_record_value(r, key, pk->gbs, "GB/s", pk->spread, method);
        gp_value_between(vpk, c->between[d][1], GP_BETWEEN_LAUNCHES);
        snprintf(key, sizeof key, "%s_pageable_gbs", dir_name[d]);
        snprintf(method, sizeof method, "the same copy from pageable (malloc) memory, staged by the runtime");
        gp_value *vpg = gp_record_value(r, key, pg->gbs, "GB/s", pg->spread, method);
        gp_value_between(vpg, c->between[d][0], GP_BETWEEN_LAUNCHES);
        snprintf(key, sizeof key, "%s_pageable_pinned_ratio", dir_name[d]);
        ratio_value(gp_record_value(r, key, pg->gbs / pk->gbs, "fraction", ratio_spread(pg, pk),
                                    "pageable over pinned at the largest size; spread: the two rates' relative "
                                    "spreads added (first order)"),
                    vpg, vpk);
        snprintf(key, sizeof key, "%s_min_bytes_full_bw", dir_name[d]);
        int i90 = gp_ic_full_bw_index(c->bytes, pinned, (size_t)c->n, GP_IC_FULL_BW_FRAC);
        if (i90 >= 0)
            gp_record_value(r, key, c->bytes[i90], "bytes", -1,
                            "smallest pinned transfer size from which every larger size reaches 90% of the "
                            "largest size's bandwidth");
        else
            gp_record_none(r, key, "bytes", "the pinned bandwidth still rises at the largest size measured");
        snprintf(key, sizeof key, "%s_fraction_of_link", dir_name[d]);
        double frac = pk->gbs / link;
        if (!lk->available)
            gp_record_none(r, key, "fraction", lk->why);
        else if (!isfinite(frac))
            gp_record_none(r, key, "fraction", "no PCIe rate for the generation NVML read");
        else if (frac > 1.05)
            gp_record_none(r, key, "fraction",
                           "the copy beat the PCIe rate NVML read: the data went over another link (C2C?) or "
                           "the reading caught the link in a low-power state");
        else
            gp_record_value(r, key, frac, "fraction", pk->spread, "pinned GB/s at the largest size / link_gbs");
    }
    const gp_value *a = gp_record_find(r, "h2d_min_bytes_full_bw"), *b = gp_record_find(r, "d2h_min_bytes_full_bw");
    if (a && b && a->detected && b->detected)
        gp_record_value(r, "min_transfer_bytes_full_bw", fmax(a->value, b->value), "bytes", -1,
                        "the larger of h2d_ and d2h_min_bytes_full_bw: both directions reach 90% of their peak "
                        "from this size on");
    else
        gp_record_none(r, "min_transfer_bytes_full_bw", "bytes",
                       "a direction's pinned bandwidth still rises at the largest size measured");
    /* The lesser direction's ratio, as recorded just above: its value, its
     * spreads and its instability. */
    const gp_value *rh = gp_record_find(r, "h2d_pageable_pinned_ratio");
    const gp_value *rd = gp_record_find(r, "d2h_pageable_pinned_ratio");
    if (rh && rd) {
        const gp_value *lv = rh->value <= rd->value ? rh : rd;
        gp_value *v = gp_record_value(r, "pageable_pinned_ratio", lv->value, "fraction", lv->spread,
                                      "the lesser of the H2D and D2H pageable/pinned ratios at the largest size, "
                                      "with its spread");
        if (v) {
            v->spread_between = lv->spread_between;
            v->unstable = lv->unstable;
        }
    }
    if ((rh && rh->unstable) || (rd && rd->unstable))
        gp_record_note(r, "pageable copies spread by more than %.0f%% between fresh runs: the runtime's staging "
                          "through its own pinned buffer depends on the host (page faults, CPU, other work), so "
                          "the pageable/pinned ratio is marked unstable, not a property of the GPU",
                       100 * GP_BETWEEN_UNSTABLE);
    gp_record_value(r, "largest_transfer_bytes", c->bytes[last], "bytes", -1, "largest transfer size measured");

    if (lk->available) {
        const char *m = "NVML, read right after the largest copies (an idle link may train down)";
        gp_record_value(r, "pcie_gen", lk->curr_gen, "", -1, m);
        gp_record_value(r, "pcie_width", lk->curr_width, "lanes", -1, m);
        gp_record_value(r, "pcie_max_gen", lk->max_gen, "", -1, "NVML nvmlDeviceGetMaxPcieLinkGeneration");
        gp_record_value(r, "pcie_max_width", lk->max_width, "lanes", -1, "NVML nvmlDeviceGetMaxPcieLinkWidth");
        if (isfinite(link))
            gp_record_value(r, "link_gbs", link, "GB/s", -1,
                            "PCIe rate of the current link, one direction: GT/s x line encoding x width / 8");
        else
            gp_record_none(r, "link_gbs", "GB/s", "NVML read a PCIe generation outside 1..6");
        gp_record_note(r, "NVML read PCIe gen %d x%d now, gen %d x%d at most (the GPU alone: gen %d), %d NVLinks "
                          "active: theoretical %.1f GB/s per direction now, %.1f at most",
                       lk->curr_gen, lk->curr_width, lk->max_gen, lk->max_width, lk->gpu_max_gen, lk->nvlink_active,
                       link, link_max);
        if (lk->curr_gen < lk->max_gen || lk->curr_width < lk->max_width)
            gp_record_note(r, "the link ran below its maximum when read (gen %d x%d of gen %d x%d): a slot, riser "
                              "or switch limits it, or power saving had not raised it yet",
                           lk->curr_gen, lk->curr_width, lk->max_gen, lk->max_width);
    } else {
        gp_record_none(r, "pcie_gen", "", lk->why);
        gp_record_none(r, "pcie_width", "lanes", lk->why);
        gp_record_none(r, "link_gbs", "GB/s", lk->why);
    }
    gp_record_note(r, "pinned %.1f GB/s H2D and %.1f GB/s D2H at %.0f MiB; pageable keeps %.0f%% / %.0f%% of it",
                   c->r[0][1][last].gbs, c->r[1][1][last].gbs, c->bytes[last] / 1048576,
                   100 * c->r[0][0][last].gbs / c->r[0][1][last].gbs, 100 * c->r[1][0][last].gbs / c->r[1][1][last].gbs);
}

static gp_value *record_latency(gp_record *r, const char *key, const gp_summary *us, const char *method)
{
    return gp_record_value(r, key, us->median, "us", gp_stats_rel_spread(us), method);
}

/* ---------------------------------------------------------------- peers */

typedef struct peer_dev {
    void *a, *b;          /* P2P source and destination buffers */
    unsigned *chain, *out; /* chase chain on this device, its result */
    gp_evtimer tm;
    gp_device_info info;
} peer_dev;

typedef struct p2p_mats {
    gp_ic_matrix ce, bidir, read, write, lat;
    int access[GP_IC_MAX_GPUS][GP_IC_MAX_GPUS];
} p2p_mats;

typedef struct peer_copy {
    gp_evtimer *tm;
    void *dst;
    const void *src;
    int dst_dev, src_dev;
    size_t bytes;
} peer_copy;

static gp_status time_peer_copy(void *c, double *ms)
{
    peer_copy *j = c;
    GP_TRY(gp_evtimer_start(j->tm));
    GP_TRY(gp_rt_copy_peer_async(j->dst, j->dst_dev, j->src, j->src_dev, j->bytes, j->tm->stream));
    return gp_evtimer_stop_ms(j->tm, ms);
}

typedef struct peer_kernel {
    gp_evtimer *tm;
    const void *src;
    void *dst;
    size_t bytes;
    int blocks;
} peer_kernel;

static gp_status time_peer_kernel(void *c, double *ms)
{
    peer_kernel *j = c;
    GP_TRY(gp_evtimer_start(j->tm));
    GP_TRY(gp_ic_copy_launch(j->tm->stream, j->src, j->dst, j->bytes, j->blocks));
    return gp_evtimer_stop_ms(j->tm, ms);
}

/* Both directions at once, host time from the first queued copy to both
 * streams drained: a lower bound on the sum of the two rates. */
typedef struct peer_bidir {
    peer_dev *x, *y;
    int ix, iy;
    size_t bytes;
} peer_bidir;

static gp_status time_bidir(void *c, double *ms)
{
    peer_bidir *j = c;
    double t0 = gp_harness_monotonic_s(NULL);
    GP_TRY(gp_rt_set_device(j->ix));
    GP_TRY(gp_rt_copy_peer_async(j->y->b, j->iy, j->x->a, j->ix, j->bytes, j->x->tm.stream));
    GP_TRY(gp_rt_set_device(j->iy));
    GP_TRY(gp_rt_copy_peer_async(j->x->b, j->ix, j->y->a, j->iy, j->bytes, j->y->tm.stream));
    GP_TRY(gp_rt_stream_synchronize(j->y->tm.stream));
    GP_TRY(gp_rt_set_device(j->ix));
    GP_TRY(gp_rt_stream_synchronize(j->x->tm.stream));
    *ms = 1e3 * (gp_harness_monotonic_s(NULL) - t0);
    return gp_ok();
}

static double gbs_of(int quick, gp_measure_fn fn, void *job, size_t bytes, gp_status *st)
{
    gp_harness_cfg cfg = copy_cfg(quick);
    gp_harness_result res;
    *st = gp_harness_run(&cfg, fn, job, &res);
    return st->code == GP_OK ? bytes / (res.summary.median * 1e6) : NAN;
}

static gp_status peer_setup(peer_dev *d, int idx, size_t bytes, const unsigned *chain)
{
    GP_TRY(gp_rt_device_open(idx, &d->info));
    GP_TRY(gp_rt_malloc(&d->a, bytes));
    GP_TRY(gp_rt_malloc(&d->b, bytes));
    GP_TRY(gp_rt_memset(d->a, 1, bytes));
    GP_TRY(gp_rt_malloc((void **)&d->chain, (size_t)CHASE_NODES * CHASE_STRIDE * sizeof(unsigned)));
    GP_TRY(gp_rt_copy_to_device(d->chain, chain, (size_t)CHASE_NODES * CHASE_STRIDE * sizeof(unsigned)));
    GP_TRY(gp_rt_malloc((void **)&d->out, 16));
    return gp_evtimer_create(&d->tm, 1);
}

static void peer_teardown(peer_dev *d, int idx)
{
    if (gp_rt_set_device(idx).code != GP_OK)
        return;
    gp_evtimer_destroy(&d->tm);
    gp_rt_free(d->a);
    gp_rt_free(d->b);
    gp_rt_free(d->chain);
    gp_rt_free(d->out);
}

/* One ordered pair: data from GPU i to GPU j. */
static gp_status measure_pair(gp_probe_ctx *ctx, peer_dev *pd, int i, int j, size_t bytes, p2p_mats *m)
{
    int quick = ctx->opts->quick, blocks = 4 * (ctx->dev.compute_units > 0 ? ctx->dev.compute_units : 1);
    gp_status st;
    GP_TRY(gp_rt_set_device(i));
    peer_copy pc = {&pd[i].tm, pd[j].b, pd[i].a, j, i, bytes};
    gp_ic_matrix_set(&m->ce, i, j, gbs_of(quick, time_peer_copy, &pc, bytes, &st));
    GP_TRY(st);
    if (i < j) {
        peer_bidir bd = {&pd[i], &pd[j], i, j, bytes};
        double g = gbs_of(quick, time_bidir, &bd, 2 * bytes, &st);
        GP_TRY(st);
        gp_ic_matrix_set(&m->bidir, i, j, g);
        gp_ic_matrix_set(&m->bidir, j, i, g);
    }
    if (m->access[i][j]) { /* GPU i stores into j's memory */
        GP_TRY(gp_rt_set_device(i));
        peer_kernel pk = {&pd[i].tm, pd[i].a, pd[j].b, bytes, blocks};
        gp_ic_matrix_set(&m->write, i, j, gbs_of(quick, time_peer_kernel, &pk, bytes, &st));
        GP_TRY(st);
    }
    if (m->access[j][i]) { /* GPU j loads i's memory */
        GP_TRY(gp_rt_set_device(j));
        peer_kernel pk = {&pd[j].tm, pd[i].a, pd[j].b, bytes, blocks};
        gp_ic_matrix_set(&m->read, i, j, gbs_of(quick, time_peer_kernel, &pk, bytes, &st));
        GP_TRY(st);
        gp_summary us;
        GP_TRY(chase_us(quick, &pd[j].tm, pd[i].chain, pd[j].out, &us));
        gp_ic_matrix_set(&m->lat, i, j, us.median);
    }
    return gp_ok();
}

static void link_type_note(gp_record *r, const peer_dev *pd, int i, int j)
{
    gp_p2p_info pi;
    gp_smi_pair sp;
    gp_status st = gp_rt_p2p_info(i, j, &pi);
    gp_smi_read_pair(pd[i].info.vendor, pd[i].info.pci_bus_id, pd[j].info.pci_bus_id, &sp);
    char nv[128] = "NVML: not read";
    if (sp.available)
        snprintf(nv, sizeof nv, "NVML: NVLink %s, common ancestor %s",
                 sp.nvlink == 1 ? "yes" : sp.nvlink == 0 ? "no" : "unknown", sp.topology[0] ? sp.topology : "unknown");
    if (st.code != GP_OK)
        gp_record_note(r, "GPU %d -> %d: the runtime gave no P2P attributes (%.80s); %s", i, j, st.msg, nv);
    else
        gp_record_note(r, "GPU %d -> %d: %s%saccess %d, native atomics %d, performance rank %d (%s); %s", i, j,
                       pi.link[0] ? pi.link : "", pi.link[0] ? " link, " : "", pi.access_supported, pi.native_atomics,
                       pi.perf_rank, pi.source, nv);
}

static gp_status measure_peers(gp_probe_ctx *ctx, int n, p2p_mats *m)
{
    size_t bytes = ctx->opts->quick ? QUICK_P2P_BYTES : P2P_BYTES;
    peer_dev pd[GP_IC_MAX_GPUS];
    memset(pd, 0, sizeof pd);
    unsigned *chain = new_chain();
    if (!chain)
        return gp_fail(GP_ERR_NOMEM, "interconnect: no host memory for the chase chain");
    gp_status st = gp_ok();
    int ready = 0;
    for (; ready < n && st.code == GP_OK; ready++)
        st = peer_setup(&pd[ready], ready, bytes, chain);
    free(chain);
    for (int i = 0; i < n && st.code == GP_OK; i++)
        for (int j = 0; j < n && st.code == GP_OK; j++) {
            m->access[i][j] = 0;
            if (i == j)
                continue;
            st = gp_rt_peer_can_access(i, j, &m->access[i][j]);
            if (st.code == GP_OK && m->access[i][j])
                st = gp_rt_peer_enable(i, j);
        }
    for (int i = 0, k = 0; i < n && st.code == GP_OK; i++)
        for (int j = 0; j < n && st.code == GP_OK; j++) {
            if (i == j)
                continue;
            st = measure_pair(ctx, pd, i, j, bytes, m);
            gp_progress("interconnect", ++k, n * (n - 1), "GPU %d -> %d: copy %.1f GB/s, kernel loads %.1f GB/s", i,
                        j, m->ce.v[i][j], m->read.v[i][j]);
            if (st.code == GP_OK && i < j)
                link_type_note(ctx->rec, pd, i, j);
        }
    for (int i = 0; i < ready; i++)
        peer_teardown(&pd[i], i);
    return st;
}

static void record_matrix(gp_record *r, const gp_ic_matrix *mx, const char *what, const char *key_min,
                          const char *key_median, const char *unit, const char *method, int worst_is_max)
{
    gp_ic_summary s;
    char m[256];
    if (!gp_ic_matrix_summarize(mx, &s)) {
        gp_record_none(r, key_min, unit, "no GPU pair had peer access for this measurement");
        gp_record_none(r, key_median, unit, "no GPU pair had peer access for this measurement");
        return;
    }
    snprintf(m, sizeof m, "%s over %d GPU pairs: %s", worst_is_max ? "highest" : "lowest", s.pairs, method);
    gp_record_value(r, key_min, worst_is_max ? s.max : s.min, unit, -1, m);
    snprintf(m, sizeof m, "median over %d GPU pairs: %s", s.pairs, method);
    gp_record_value(r, key_median, s.median, unit, -1, m);
    gp_record_note(r, "%s (%s): %s GPU %d -> %d %.2f, median %.2f over %d pairs (matrix: the p2p series)", what,
                   unit, worst_is_max ? "slowest" : "lowest", worst_is_max ? s.max_src : s.min_src,
                   worst_is_max ? s.max_dst : s.min_dst, worst_is_max ? s.max : s.min, s.median, s.pairs);
    /* The whole matrix in the log, as nvbandwidth prints it. */
    char line[512];
    gp_progress("interconnect", 1, 1, "%s (%s), rows from, columns to:", what, unit);
    if (gp_ic_matrix_header(mx, line, sizeof line))
        gp_progress("interconnect", 1, 1, "%s", line);
    for (int i = 0; i < mx->n; i++)
        if (gp_ic_matrix_row(mx, i, 1, line, sizeof line))
            gp_progress("interconnect", 1, 1, "%s", line);
}

static const char *const p2p_keys[] = {"p2p_ce_gbs_min",    "p2p_ce_gbs_median",    "p2p_ce_bidir_gbs_min",
                                       "p2p_ce_bidir_gbs_median", "p2p_read_gbs_min", "p2p_read_gbs_median",
                                       "p2p_write_gbs_min", "p2p_write_gbs_median", "p2p_latency_us_max",
                                       "p2p_latency_us_median"};

static void record_p2p_none(gp_record *r, const char *why)
{
    for (size_t k = 0; k < GP_COUNT(p2p_keys); k++)
        gp_record_none(r, p2p_keys[k], strstr(p2p_keys[k], "_us_") ? "us" : "GB/s", why);
    gp_record_none(r, "p2p_ce_nvlink_fraction", "fraction", why);
}

/* The GPU's NVLink rate, one direction: active links (NVML) x the per-link
 * rate of its architecture (gp_ic_nvlink_link_gbs).  NaN, recorded as none
 * with the reason, when either is unknown or no link is active. */
static double record_nvlink(gp_probe_ctx *ctx, const gp_smi_link *lk)
{
    gp_record *r = ctx->rec;
    double per_link = gp_ic_nvlink_link_gbs(ctx->dev.arch);
    char why[160] = "";
    if (lk->nvlink_active < 0)
        snprintf(why, sizeof why, "NVML gave no NVLink state (%.100s)", lk->why[0] ? lk->why : "no reading");
    else if (lk->nvlink_active == 0)
        snprintf(why, sizeof why, "NVML reports no active NVLink on this GPU");
    else if (!isfinite(per_link))
        snprintf(why, sizeof why, "%d NVLinks active, but no published per-link rate for %.31s", lk->nvlink_active,
                 ctx->dev.arch);
    if (why[0]) {
        gp_record_none(r, "nvlink_gbs", "GB/s", why);
        return NAN;
    }
    char m[200];
    snprintf(m, sizeof m, "NVML active NVLinks (%d) x %.0f GB/s per link per direction (%s, NVIDIA's published rate)",
             lk->nvlink_active, per_link, ctx->dev.arch);
    gp_record_value(r, "nvlink_gbs", lk->nvlink_active * per_link, "GB/s", -1, m);
    return lk->nvlink_active * per_link;
}

static gp_status peers(gp_probe_ctx *ctx, const gp_smi_link *lk)
{
    gp_record *r = ctx->rec;
    int n = 0;
    gp_status st = gp_rt_device_count(&n);
    if (st.code != GP_OK)
        n = 0;
    gp_record_value(r, "p2p_gpus", n, "GPUs", -1, "devices the runtime lists (CUDA/HIP_VISIBLE_DEVICES apply)");
    double nvlink = record_nvlink(ctx, lk);
    const char *why = gp_ic_p2p_reason(n);
    if (why) {
        record_p2p_none(r, why);
        return gp_ok();
    }
    if (n > GP_IC_MAX_GPUS) {
        gp_record_note(r, "%d GPUs visible: the P2P matrices cover the first %d", n, GP_IC_MAX_GPUS);
        n = GP_IC_MAX_GPUS;
    }
    static p2p_mats m; /* ~10 KB: off the stack */
    gp_ic_matrix_init(&m.ce, n), gp_ic_matrix_init(&m.bidir, n), gp_ic_matrix_init(&m.read, n);
    gp_ic_matrix_init(&m.write, n), gp_ic_matrix_init(&m.lat, n);
    st = measure_peers(ctx, n, &m);
    /* The probe's own device is current again for what follows. */
    gp_device_info again;
    gp_status back = gp_rt_device_open(ctx->dev.index, &again);
    if (st.code != GP_OK) {
        char why2[200];
        snprintf(why2, sizeof why2, "the P2P measurement failed: %.150s", st.msg);
        record_p2p_none(r, why2);
        return back;
    }
    GP_TRY(back);
    record_matrix(r, &m.ce, "P2P copy-engine bandwidth, one direction", "p2p_ce_gbs_min", "p2p_ce_gbs_median", "GB/s",
                  "peer memcpy on the source's stream, event-timed, median of repeats", 0);
    const gp_value *ce = gp_record_find(r, "p2p_ce_gbs_median");
    if (ce && ce->detected && isfinite(nvlink))
        gp_record_value(r, "p2p_ce_nvlink_fraction", ce->value / nvlink, "fraction", -1,
                        "median one-way peer copy over the GPU's NVLink rate (nvlink_gbs)");
    else
        gp_record_none(r, "p2p_ce_nvlink_fraction", "fraction",
                       isfinite(nvlink) ? "no peer copy was measured" : "no NVLink rate (nvlink_gbs)");
    record_matrix(r, &m.bidir, "P2P copy-engine bandwidth, both directions at once", "p2p_ce_bidir_gbs_min",
                  "p2p_ce_bidir_gbs_median", "GB/s", "two peer copies at once, bytes of both / host time to both done", 0);
    record_matrix(r, &m.read, "P2P kernel loads", "p2p_read_gbs_min", "p2p_read_gbs_median", "GB/s",
                  "copy kernel on the destination loading the source's memory through peer access", 0);
    record_matrix(r, &m.write, "P2P kernel stores", "p2p_write_gbs_min", "p2p_write_gbs_median", "GB/s",
                  "copy kernel on the source storing into the destination's memory through peer access", 0);
    record_matrix(r, &m.lat, "P2P load latency", "p2p_latency_us_max", "p2p_latency_us_median", "us",
                  "one-thread pointer chase by the destination over the source's memory, time per load", 1);
    gp_series *s = gp_record_series(r, "p2p", "src,dst,ce_gbs,ce_bidir_gbs,read_gbs,write_gbs,latency_us,access");
    for (int i = 0; i < n && s; i++)
        for (int j = 0; j < n; j++)
            if (i != j) {
                double row[8] = {i, j, m.ce.v[i][j], m.bidir.v[i][j], m.read.v[i][j], m.write.v[i][j], m.lat.v[i][j],
                                 m.access[j][i]};
                gp_series_append(s, row);
            }
    return gp_ok();
}

/* ---------------------------------------------------------------- run */

/* Small-copy latency is a host-side cost (driver path, CPU wake-up): one
 * burst of repeats shares its moment, and two processes differed by 18 %
 * while each burst's own spread was 10-12 % (H200, 2026-11-24).  So each is
 * measured at LAT_POINTS points over the probe (before the bandwidth curves,
 * after them, after the host-load chase): the value is their median and
 * spread_between their spread (gp_value_points), over 10 % unstable. */
#define LAT_POINTS 3
static const size_t small_bytes[2] = {4, 4096};

static gp_status small_latency_point(gp_probe_ctx *ctx, gp_evtimer *tm, const host_bufs *b, int point,
                                     gp_summary us[2][2], double per[2][2][LAT_POINTS])
{
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < 2; k++) {
            gp_summary s;
            GP_TRY(measure_small(ctx, tm, b, (gp_copy_dir)d, small_bytes[k], &s));
            per[d][k][point] = s.median;
            if (point == 0)
                us[d][k] = s;
        }
    return gp_ok();
}

static void record_small_latency(gp_record *r, gp_summary us[2][2], double per[2][2][LAT_POINTS])
{
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < 2; k++) {
            char key[64];
            snprintf(key, sizeof key, "%s_latency_%s_us", dir_name[d], k ? "4k" : "4b");
            gp_value *v = record_latency(r, key, &us[d][k],
                           "one pinned copy between two events, median of 201 (21 with --quick), at 3 points over "
                           "the probe (median of the 3; spread_between theirs): the time from queueing to done "
                           "that one small transfer costs");
            gp_value_points(v, per[d][k], LAT_POINTS);
        }
}

/* The host link's curves and latencies; *lk gets NVML's link reading,
 * taken right after the largest copies (the peers' NVLink rate uses it). */
static gp_status host_link(gp_probe_ctx *ctx, gp_evtimer *tm, host_bufs *b, gp_smi_link *lk)
{
    static host_curves c; /* ~2 KB of rates: off the stack */
    gp_summary lat[2][2];
    double per[2][2][LAT_POINTS];
    for (int i = 0; i < 2 * 2 * LAT_POINTS; i++)
        (&per[0][0][0])[i] = NAN;
    GP_TRY(small_latency_point(ctx, tm, b, 0, lat, per));
    GP_TRY(measure_host(ctx, tm, b, &c));
    gp_smi_read_link(ctx->dev.vendor, ctx->dev.pci_bus_id, lk);
    record_host(ctx, &c, lk);
    GP_TRY(small_latency_point(ctx, tm, b, 1, lat, per));
    gp_summary us;
    if (b->bytes < (size_t)CHASE_NODES * CHASE_STRIDE * sizeof(unsigned)) {
        gp_record_none(ctx->rec, "host_load_latency_us", "us",
                       "the device's free memory allowed no buffer as large as the 8 MiB chase chain");
    } else {
        GP_TRY(measure_host_load(ctx, tm, b, &us));
        record_latency(ctx->rec, "host_load_latency_us", &us,
                       "one-thread pointer chase over mapped pinned host memory (2048 nodes 4 KiB apart, 1000 "
                       "loads), time per load: a load's round trip over the link");
    }
    GP_TRY(small_latency_point(ctx, tm, b, 2, lat, per));
    record_small_latency(ctx->rec, lat, per);
    return gp_ok();
}

static gp_status interconnect_run(gp_probe_ctx *ctx)
{
    host_bufs b;
    memset(&b, 0, sizeof b);
    size_t free_b = 0, total_b = 0;
    GP_TRY(gp_rt_mem_info(&free_b, &total_b));
    b.bytes = ctx->opts->quick ? QUICK_MAX_BYTES : MAX_BYTES;
    while (b.bytes > MIN_BYTES * 64 && b.bytes > free_b / 4)
        b.bytes /= 4;
    gp_evtimer tm;
    gp_smi_link lk;
    GP_TRY(gp_evtimer_create(&tm, 1));
    gp_status st = gp_rt_malloc(&b.dev, b.bytes);
    if (st.code == GP_OK)
        st = gp_rt_host_alloc_pinned(&b.pinned, b.bytes);
    if (st.code == GP_OK && !(b.pageable = malloc(b.bytes)))
        st = gp_fail(GP_ERR_NOMEM, "interconnect: no %zu bytes of pageable host memory", b.bytes);
    if (st.code == GP_OK) { /* touch every page before timing */
        memset(b.pageable, 1, b.bytes);
        memset(b.pinned, 1, b.bytes);
        st = host_link(ctx, &tm, &b, &lk);
    }
    free(b.pageable);
    gp_rt_host_free_pinned(b.pinned);
    gp_rt_free(b.dev);
    gp_evtimer_destroy(&tm);
    GP_TRY(st);
    return peers(ctx, &lk);
}

static gp_status interconnect_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    for (int d = 0; d < 2; d++) {
        char key[64];
        snprintf(key, sizeof key, "%s_pinned_gbs", dir_name[d]);
        const gp_value *v = gp_record_find(rec, key);
        /* 10 MB/s .. 10 TB/s: anything outside is a timing or unit fault. */
        if (!v || !v->detected || !(v->value > 0.01 && v->value < 10000))
            return gp_fail(GP_ERR_CHECK, "interconnect: %s %.3g GB/s is outside 0.01..10000", key, v ? v->value : NAN);
        snprintf(key, sizeof key, "%s_latency_4b_us", dir_name[d]);
        v = gp_record_find(rec, key);
        if (!v || !v->detected || !(v->value > 0 && v->value < 1e5))
            return gp_fail(GP_ERR_CHECK, "interconnect: %s missing or outside 0..1e5 us", key);
    }
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row interconnect_table_rows[] = {
    {"h2d_pinned_gbs", "link", "h2d_pinned_gbs"},
    {"d2h_pinned_gbs", "link", "d2h_pinned_gbs"},
    {"pageable_pinned_ratio", "link", "pageable_pinned_ratio"},
    {"min_transfer_bytes_full_bw", "link", "min_transfer_bytes_full_bw"},
    {"h2d_latency_4b_us", "link", "h2d_latency_us"},
    {"link_gbs", "link", "pcie_gbs"},
    {"p2p_ce_gbs_min", "link", "p2p_gbs"},
    {"p2p_ce_bidir_gbs_min", "link", "p2p_bidir_gbs"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot interconnect_plots[] = {
    {"h2d", "bytes", "pinned_gbs,pageable_gbs,link_gbs", 1, 0, "Host to device bandwidth by transfer size",
     "transfer size", "GB/s", GP_PLOT_YZERO | GP_PLOT_XBYTES, NULL, NULL},
    {"d2h", "bytes", "pinned_gbs,pageable_gbs,link_gbs", 1, 0, "Device to host bandwidth by transfer size",
     "transfer size", "GB/s", GP_PLOT_YZERO | GP_PLOT_XBYTES, NULL, NULL},
    {"p2p", "src,dst", "ce_gbs", 0, 0, "P2P copy-engine bandwidth by GPU pair (from, to)", NULL, "GB/s",
     GP_PLOT_BARS, NULL, NULL},
};

const gp_probe gp_probe_interconnect = {
    .name = "interconnect",
    .summary = "host link and P2P bandwidth by size, pinned/pageable, latency; PCIe rate from NVML",
    .run = interconnect_run,
    .check = interconnect_check,
    .table_rows = interconnect_table_rows,
    .ntable_rows = GP_COUNT(interconnect_table_rows),
    .plots = interconnect_plots,
    .nplots = GP_COUNT(interconnect_plots),
    /* Last: it loads the host's link and memory, which the probes before it
     * should not share. */
    .order = 1,
};
