#include "kbench.h"

#include <stdio.h>
#include <string.h>

#include "evtimer.h"
#include "fsutil.h"

typedef struct timed {
    gp_evtimer timer;
    gp_bench_work_fn work;
    void *ctx;
} timed;

static gp_status measure_once(void *ctx, double *ms)
{
    timed *t = ctx;
    GP_TRY(gp_evtimer_start(&t->timer));
    GP_TRY(t->work(t->ctx));
    return gp_evtimer_stop_ms(&t->timer, ms);
}

gp_status gp_bench_time(gp_bench_work_fn work, void *ctx, int quick, gp_harness_result *out)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.warmup = 3;      /* first runs pay for module load, TLB and cache warm-up */
    cfg.min_reps = quick ? 5 : 20;
    cfg.max_reps = quick ? 20 : 200;
    cfg.budget_s = quick ? 0.5 : 2.0;
    timed t = {{0}, work, ctx};
    GP_TRY(gp_evtimer_create(&t.timer, 0));
    gp_status st = gp_harness_run(&cfg, measure_once, &t, out);
    gp_evtimer_destroy(&t.timer);
    return st;
}

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
    fprintf(out, "| kernel | problem | implementation | table | median ms | spread | floor ms | "
                 "time / floor | speed-up vs baseline | parameters |\n");
    fprintf(out, "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < b->nrows; i++) {
        const gp_bench_row *r = &b->rows[i];
        double spread = gp_stats_rel_spread(&r->ms);
        fprintf(out, "| %s | %s | %s%s | %s | %.4f | %.1f%%%s | ", r->kernel, r->problem, r->impl,
                r->is_baseline ? " (baseline)" : "", r->table, r->ms.median, 100 * spread,
                r->stable ? "" : " unstable");
        if (r->floor_ms > 0)
            fprintf(out, "%.4f (%s) | %.2f | ", r->floor_ms, r->floor_note, r->ms.median / r->floor_ms);
        else
            fprintf(out, "- | - | ");
        double s = gp_bench_speedup(b, i);
        if (r->is_baseline || s <= 0)
            fprintf(out, "- | ");
        else
            fprintf(out, "%.2fx | ", s);
        fprintf(out, "%s |\n", r->params);
    }
}

gp_status gp_bench_write_csv(const gp_bench *b, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "kernel,problem,impl,table,baseline,median_ms,min_ms,p10_ms,p90_ms,n,stable,floor_ms,"
               "speedup,params\n");
    for (int i = 0; i < b->nrows; i++) {
        const gp_bench_row *r = &b->rows[i];
        fprintf(f, "%s,\"%s\",\"%s\",\"%s\",%d,%.6f,%.6f,%.6f,%.6f,%zu,%d,%.6f,%.4f,\"%s\"\n", r->kernel,
                r->problem, r->impl, r->table, r->is_baseline, r->ms.median, r->ms.min, r->ms.p10, r->ms.p90,
                r->ms.n, r->stable, r->floor_ms, gp_bench_speedup(b, i), r->params);
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
