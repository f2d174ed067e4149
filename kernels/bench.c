#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "evtimer.h"
#include "fsutil.h"

typedef struct timed {
    gp_evtimer timer;
    gp_bench_work_fn work;
    void *ctx;
    struct timed *peer; /* the other side of a paired timing, or NULL */
} timed;

/* A hold that timed out (gp_evtimer_hold: the work waited on the host, or
 * the host stalled) ends holding for the rest of this timing, on both sides
 * of a pair, so the two are never timed one held and one not; said on
 * stderr each time. */
static void after_timeout(timed *t)
{
    fprintf(stderr, "note: a timed run's stream hold timed out (the work waited on the host inside, or the host "
                    "stalled); the runs after it in this timing%s are timed without a hold, the launch inside\n",
            t->peer ? ", both sides of the pair," : "");
    if (t->peer)
        gp_evtimer_drop_hold(&t->peer->timer);
}

static gp_status measure_once(void *ctx, double *ms)
{
    timed *t = ctx;
    const int timeouts = t->timer.hold_timeouts;
    GP_TRY(gp_evtimer_start(&t->timer));
    GP_TRY(t->work(t->ctx));
    GP_TRY(gp_evtimer_stop_ms(&t->timer, ms));
    if (t->timer.hold_timeouts != timeouts)
        after_timeout(t);
    return gp_ok();
}

/* Each run behind a stream hold (gp_evtimer_hold): the time is the GPU's
 * alone, as nvbench times, so a kernel of a few microseconds is not read
 * with the host's launch of it inside. */
static gp_status timer_create(timed *t)
{
    GP_TRY(gp_evtimer_create(&t->timer, 0));
    gp_status st = gp_evtimer_hold(&t->timer);
    if (st.code != GP_OK)
        gp_evtimer_destroy(&t->timer);
    return st;
}

gp_status gp_bench_time_cfg(gp_bench_work_fn work, void *ctx, const gp_harness_cfg *cfg, gp_harness_result *out)
{
    timed t = {{0}, work, ctx, NULL};
    GP_TRY(timer_create(&t));
    gp_status st = gp_harness_run(cfg, measure_once, &t, out);
    gp_evtimer_destroy(&t.timer);
    return st;
}

gp_harness_cfg gp_bench_time_defaults(int quick)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.warmup = 3; /* first runs pay for module load, TLB and cache warm-up */
    cfg.min_reps = quick ? 5 : 20;
    cfg.max_reps = quick ? 20 : 200;
    cfg.budget_s = quick ? 0.5 : 2.0;
    return cfg;
}

gp_status gp_bench_time(gp_bench_work_fn work, void *ctx, int quick, gp_harness_result *out)
{
    gp_harness_cfg cfg = gp_bench_time_defaults(quick);
    return gp_bench_time_cfg(work, ctx, &cfg, out);
}

/* ---------------------------------------------------------------- paired */

gp_bench_pair_cfg gp_bench_pair_defaults(int quick)
{
    gp_bench_pair_cfg c;
    memset(&c, 0, sizeof c);
    c.warmup = 3;
    c.rounds = quick ? 15 : 60;
    c.min_rounds = 5;
    c.budget_s = quick ? 0.75 : 3.0;
    return c;
}

static int positive_time(double t)
{
    return isfinite(t) && t > 0;
}

gp_status gp_bench_pair_ratios(const double *a_ms, const double *b_ms, int rounds, gp_bench_paired *out)
{
    memset(out, 0, sizeof *out);
    if (rounds < 1 || rounds > GP_BENCH_PAIR_MAX_ROUNDS)
        return gp_fail(GP_ERR_USAGE, "paired timing: %d rounds (need 1..%d)", rounds, GP_BENCH_PAIR_MAX_ROUNDS);
    if (!a_ms || !b_ms)
        return gp_fail(GP_ERR_USAGE, "paired timing: no run times");
    for (int i = 0; i < 2 * rounds; i++)
        if (!positive_time(a_ms[i]) || !positive_time(b_ms[i]))
            return gp_fail(GP_ERR_CHECK, "paired timing: round %d run %d: times A %g ms, B %g ms (need > 0)", i / 2,
                           i % 2 + 1, a_ms[i], b_ms[i]);
    for (int r = 0; r < rounds; r++) {
        out->a_ms[2 * r] = a_ms[2 * r], out->a_ms[2 * r + 1] = a_ms[2 * r + 1];
        out->b_ms[2 * r] = b_ms[2 * r], out->b_ms[2 * r + 1] = b_ms[2 * r + 1];
        out->ratio[r] = (b_ms[2 * r] + b_ms[2 * r + 1]) / (a_ms[2 * r] + a_ms[2 * r + 1]);
    }
    gp_stats_summarize(out->ratio, (size_t)rounds, &out->ratio_s);
    out->a_median_ms = gp_stats_median(out->a_ms, 2 * (size_t)rounds);
    out->b_median_ms = gp_stats_median(out->b_ms, 2 * (size_t)rounds);
    out->rounds = rounds;
    return gp_ok();
}

gp_status gp_bench_pair_run(const gp_bench_pair_cfg *cfg, gp_measure_fn a, void *ctx_a, gp_measure_fn b,
                            void *ctx_b, gp_bench_paired *out)
{
    memset(out, 0, sizeof *out);
    if (cfg->rounds < 1 || cfg->rounds > GP_BENCH_PAIR_MAX_ROUNDS || cfg->warmup < 0)
        return gp_fail(GP_ERR_USAGE, "paired timing: need 1..%d rounds and warmup >= 0 (got %d, %d)",
                       GP_BENCH_PAIR_MAX_ROUNDS, cfg->rounds, cfg->warmup);
    gp_clock_fn now = cfg->clock ? cfg->clock : gp_harness_monotonic_s;
    double ta[2 * GP_BENCH_PAIR_MAX_ROUNDS], tb[2 * GP_BENCH_PAIR_MAX_ROUNDS], ignored;
    for (int i = 0; i < cfg->warmup; i++) {
        GP_TRY(a(ctx_a, &ignored));
        GP_TRY(b(ctx_b, &ignored));
    }
    double t0 = now(cfg->clock_ctx);
    int r = 0, hit = 0;
    while (r < cfg->rounds) {
        GP_TRY(a(ctx_a, &ta[2 * r]));
        GP_TRY(b(ctx_b, &tb[2 * r]));
        GP_TRY(b(ctx_b, &tb[2 * r + 1]));
        GP_TRY(a(ctx_a, &ta[2 * r + 1]));
        r++;
        if (r < cfg->rounds && r >= cfg->min_rounds && now(cfg->clock_ctx) - t0 >= cfg->budget_s) {
            hit = 1;
            break;
        }
    }
    GP_TRY(gp_bench_pair_ratios(ta, tb, r, out));
    out->budget_hit = hit;
    return gp_ok();
}

gp_status gp_bench_pair(gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b, void *ctx_b, int quick,
                        gp_bench_paired *out)
{
    gp_bench_pair_cfg cfg = gp_bench_pair_defaults(quick);
    return gp_bench_pair_with(&cfg, a, ctx_a, b, ctx_b, out);
}

gp_status gp_bench_pair_with(const gp_bench_pair_cfg *cfg, gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b,
                             void *ctx_b, gp_bench_paired *out)
{
    memset(out, 0, sizeof *out);
    timed ta = {{0}, a, ctx_a, NULL}, tb = {{0}, b, ctx_b, NULL};
    ta.peer = &tb, tb.peer = &ta;
    GP_TRY(timer_create(&ta));
    gp_status st = timer_create(&tb);
    if (st.code == GP_OK)
        st = gp_bench_pair_run(cfg, measure_once, &ta, measure_once, &tb, out);
    gp_evtimer_destroy(&ta.timer);
    gp_evtimer_destroy(&tb.timer);
    return st;
}

int gp_bench_pair_at_least(const gp_bench_paired *p, double target)
{
    if (!p || p->rounds < 1 || !isfinite(p->ratio_s.median))
        return -1;
    return p->ratio_s.median >= target;
}

int gp_bench_pair_faster(const gp_bench_paired *p)
{
    if (!p || p->rounds < 1 || !isfinite(p->ratio_s.p10))
        return -1;
    return p->ratio_s.p10 > 1.0;
}

const char *gp_bench_verdict_word(int verdict)
{
    return verdict > 0 ? "yes" : verdict == 0 ? "no" : "undecided";
}

gp_status gp_bench_set_pair(gp_bench *b, int i, const gp_bench_paired *p)
{
    if (i < 0 || i >= b->nrows)
        return gp_fail(GP_ERR_USAGE, "bench: no row %d to attach a paired result to (%d rows)", i, b->nrows);
    if (!p || p->rounds < 1)
        return gp_fail(GP_ERR_USAGE, "bench: row %d: paired result without rounds", i);
    gp_bench_row *row = &b->rows[i];
    row->has_pair = 1;
    row->pair_ratio = p->ratio_s;
    row->pair_rounds = p->rounds;
    return gp_ok();
}

/* ------------------------------------------------------------------ rows */

static void copy_text(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

gp_status gp_bench_add(gp_bench *b, const char *kernel, const char *problem, const char *impl,
                       const char *table, const char *params, int is_baseline,
                       const gp_harness_result *r, double floor_ms, const char *floor_note)
{
    if (b->nrows >= GP_BENCH_MAX_ROWS)
        return gp_fail(GP_ERR_USAGE, "bench: more than %d result rows", GP_BENCH_MAX_ROWS);
    gp_bench_row *row = &b->rows[b->nrows++];
    memset(row, 0, sizeof *row);
    copy_text(row->kernel, sizeof row->kernel, kernel);
    copy_text(row->problem, sizeof row->problem, problem);
    copy_text(row->impl, sizeof row->impl, impl);
    copy_text(row->table, sizeof row->table, table);
    copy_text(row->params, sizeof row->params, params);
    copy_text(row->floor_note, sizeof row->floor_note, floor_note);
    row->is_baseline = is_baseline;
    row->ms = r->summary;
    row->stable = r->stable;
    row->floor_ms = floor_ms;
    return gp_ok();
}

double gp_bench_speedup(const gp_bench *b, int i)
{
    const gp_bench_row *r = &b->rows[i];
    for (int j = 0; j < b->nrows; j++) {
        const gp_bench_row *base = &b->rows[j];
        if (base->is_baseline && !strcmp(base->kernel, r->kernel) && !strcmp(base->problem, r->problem))
            return r->ms.median > 0 ? base->ms.median / r->ms.median : 0;
    }
    return 0;
}

void gp_bench_print_markdown(const gp_bench *b, FILE *out)
{
    static const char *const heads[] = {"kernel", "problem", "implementation", "table", "median ms", "spread",
                                        "floor ms", "time / floor", "speed-up vs baseline", "parameters",
                                        "paired vs baseline (p10-p90)"};
    gp_doc doc, *d = &doc;
    char t[256];
    gp_doc_init(d, out, GP_DOC_MD);
    gp_doc_table_begin_aligned(d, 11, heads, "llllrrrrrlr");
    for (int i = 0; i < b->nrows; i++) {
        const gp_bench_row *r = &b->rows[i];
        double spread = gp_stats_rel_spread(&r->ms);
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->kernel);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->problem);
        snprintf(t, sizeof t, "%s%s", r->impl, r->is_baseline ? " (baseline)" : "");
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, t);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->table);
        snprintf(t, sizeof t, "%.4f", r->ms.median);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
        snprintf(t, sizeof t, "%.1f%%%s", 100 * spread, r->stable ? "" : " unstable");
        gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
        if (r->floor_ms > 0) {
            snprintf(t, sizeof t, "%.4f (%s)", r->floor_ms, r->floor_note);
            gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
            snprintf(t, sizeof t, "%.2f", r->ms.median / r->floor_ms);
            gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
        } else {
            gp_doc_cell(d, "num", GP_DOC_PLAIN, "-");
            gp_doc_cell(d, "num", GP_DOC_PLAIN, "-");
        }
        double s = gp_bench_speedup(b, i);
        if (r->is_baseline || s <= 0)
            snprintf(t, sizeof t, "-");
        else
            snprintf(t, sizeof t, "%.2fx", s);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->params);
        t[0] = '\0';
        if (r->has_pair)
            snprintf(t, sizeof t, "%.3fx (%.3f-%.3f), %d rounds ABBA", r->pair_ratio.median, r->pair_ratio.p10,
                     r->pair_ratio.p90, r->pair_rounds);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

gp_status gp_bench_write_csv(const gp_bench *b, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "kernel,problem,impl,table,baseline,median_ms,min_ms,p10_ms,p90_ms,n,stable,floor_ms,"
               "speedup,params,ratio_median,ratio_p10,ratio_p90,rounds\n");
    for (int i = 0; i < b->nrows; i++) {
        const gp_bench_row *r = &b->rows[i];
        fprintf(f, "%s,\"%s\",\"%s\",\"%s\",%d,%.6f,%.6f,%.6f,%.6f,%zu,%d,%.6f,%.4f,\"%s\",", r->kernel,
                r->problem, r->impl, r->table, r->is_baseline, r->ms.median, r->ms.min, r->ms.p10, r->ms.p90,
                r->ms.n, r->stable, r->floor_ms, gp_bench_speedup(b, i), r->params);
        if (r->has_pair)
            fprintf(f, "%.6f,%.6f,%.6f,%d\n", r->pair_ratio.median, r->pair_ratio.p10, r->pair_ratio.p90,
                    r->pair_rounds);
        else
            fprintf(f, ",,,\n");
    }
    return gp_fs_commit(f, path);
}

double gp_bench_dram_gbs(const gp_table *t, const gp_device_info *dev, char *src, size_t n)
{
    double gbs = 0;
    if (gp_table_get_double(t, "dram", "bandwidth_gbs", &gbs).code == GP_OK && gbs > 0) {
        snprintf(src, n, "table [dram] bandwidth_gbs, triad; read-only streams reach more");
        return gbs;
    }
    gbs = dev->mem_bus_bits / 8.0 * dev->mem_clock_mhz * 2.0 / 1000.0;
    snprintf(src, n, "peak from bus width and memory clock");
    return gbs;
}
