/* verify and bench over the gp_kernel interface (driver.h). */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "driver_problem.h"

/* ------------------------------------------------------------------ floors */

double gp_driver_floor_ms(const gp_kernel *k, const gp_table *facts, const gp_device_info *dev, const gp_shape *s,
                          const void *p, char *note, size_t n)
{
    gp_kernel_work w;
    memset(&w, 0, sizeof w);
    note[0] = '\0';
    if (k->work(s, p, &w).code != GP_OK) {
        snprintf(note, n, "no work model for this shape");
        return 0;
    }
    char src[96];
    double gbs = gp_bench_dram_gbs(facts, dev, src, sizeof src);
    double mem_ms = gbs > 0 ? w.bytes / (gbs * 1e9) * 1e3 : 0;
    double fma = 0, mhz = 0;
    if (gp_table_get_double(facts, "compute", "fp32_fma_per_cycle_per_cu", &fma).code != GP_OK)
        fma = 0;
    if (gp_table_get_double(facts, "device", "clock_mhz", &mhz).code != GP_OK)
        mhz = dev->core_clock_mhz;
    double flop_s = 2.0 * fma * mhz * 1e6 * dev->compute_units;
    double cmp_ms = flop_s > 0 && w.flops > 0 ? w.flops / flop_s * 1e3 : 0;
    const char *l2 = dev->l2_bytes > 0 && w.bytes < (double)dev->l2_bytes ? "; fits in L2" : "";
    if (cmp_ms > mem_ms)
        snprintf(note, n, "fp32 %.3g GFLOP at %.1f TFLOP/s (%.0f FMA/cycle/CU x %d CUs x %.0f MHz); DRAM %.0f MB "
                 "would take %.4f ms", w.flops / 1e9, flop_s / 1e12, fma, dev->compute_units, mhz, w.bytes / 1e6,
                 mem_ms);
    else if (mem_ms > 0)
        snprintf(note, n, "DRAM %.0f MB at %.0f GB/s (%s)%s", w.bytes / 1e6, gbs, src, l2);
    else
        snprintf(note, n, "neither the DRAM bandwidth nor the fp32 rate is known");
    return cmp_ms > mem_ms ? cmp_ms : mem_ms;
}

/* ------------------------------------------------------------------ verify */

/* One case, checked: set up, run (ours with p, or impl), check, free. */
static gp_status verify_one(const gp_kernel *k, const gp_kcase *c, const void *p, int impl, uint64_t *rng,
                            const gp_kernel_opts *o, FILE *log)
{
    gp_problem pr;
    char who[GP_BENCH_TEXT];
    GP_TRY(gp_problem_setup(k, c, &o->dev, rng, &pr));
    if (impl < 0)
        gp_kernel_params_text(k, p, who, sizeof who);
    else
        snprintf(who, sizeof who, "%s", k->impls[impl].name);
    gp_status st = gp_problem_run_checked(k, &pr, p, impl, who, gp_driver_ops_of(o));
    if (st.code == GP_OK && log)
        fprintf(log, "  ok  %s %s (%s)\n", k->name, pr.label, who);
    gp_problem_free(k, &pr);
    return st;
}

/* The variant cases of p, each checked with p (impl -1) or impls[impl]. */
static gp_status verify_on_variant_cases(const gp_kernel *k, const void *p, int impl, gp_kcase *cases,
                                         uint64_t *rng, const gp_kernel_opts *o, FILE *log)
{
    int n = k->cases(GP_CASES_VARIANT, p, &o->dev, o->quick, cases, GP_KCASE_MAX);
    for (int i = 0; i < n; i++)
        GP_TRY(verify_one(k, &cases[i], p, impl, rng, o, log));
    return gp_ok();
}

/* 1 where seen holds parameters the same as p (gp_params_same: the declared ones). */
static int seen_before(const gp_kernel *k, const gp_verify_seen *seen, const void *p)
{
    for (int i = 0; seen && k->params_size <= GP_VERIFY_SEEN_BYTES && i < seen->n; i++)
        if (gp_params_same(k->params, k->nparams, seen->p[i], p))
            return 1;
    return 0;
}

/* p kept as checked, where there is room. */
static void seen_add(const gp_kernel *k, gp_verify_seen *seen, const void *p)
{
    if (seen && k->params_size <= GP_VERIFY_SEEN_BYTES && seen->n < GP_VERIFY_SEEN_MAX)
        memcpy(seen->p[seen->n++], p, k->params_size);
}

static gp_status verify_all(const gp_kernel *k, const gp_table *t, const gp_shape *shapes, int nshapes,
                            const gp_kernel_opts *o, void *p0, void *p, gp_kcase *cases, gp_verify_seen *seen)
{
    char note[GP_BENCH_TEXT], text[GP_BENCH_TEXT];
    FILE *log = o->quick ? NULL : o->log;
    uint64_t rng = o->seed;
    GP_TRY(gp_kernel_params(k, t, &o->dev, NULL, 1, p0, note, sizeof note));
    /* The caller's shapes alone where it gives some: each checked with the
     * table's parameters for it; the built-in cases and the variants are
     * verify's own run. */
    int n = nshapes > 0 ? 0 : k->cases(GP_CASES_VERIFY, p0, &o->dev, o->quick, cases, GP_KCASE_MAX);
    for (int i = 0; i < nshapes && n < GP_KCASE_MAX; i++, n++) {
        memset(&cases[n], 0, sizeof cases[n]);
        cases[n].shape = shapes[i];
    }
    for (int i = 0; i < n; i++) {
        GP_TRY(gp_kernel_params(k, t, &o->dev, &cases[i].shape, 1, p, note, sizeof note));
        GP_TRY(verify_one(k, &cases[i], p, -1, &rng, o, log));
    }
    if (o->log)
        fprintf(o->log, "  %d %s checked with the table's parameters for each case's shape\n", n,
                nshapes > 0 ? "shapes" : "cases");
    if (nshapes > 0)
        return gp_ok();
    /* Each variant (tune's candidates, bench's context rows) on its own cases:
     * a fast wrong answer must not win a sweep. */
    int nv = 0, again = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, p0, &o->dev, p);
        if (seen_before(k, seen, p)) {
            again++;
            continue;
        }
        GP_TRY(verify_on_variant_cases(k, p, -1, cases, &rng, o, NULL));
        seen_add(k, seen, p);
        nv++;
    }
    for (int i = 0; i < k->nimpls; i++) {
        if (!k->impls[i].verify)
            continue;
        GP_TRY(verify_on_variant_cases(k, p0, i, cases, &rng, o, log));
    }
    if (o->log && (nv || again)) {
        gp_params_format(k->params, k->nparams, p0, text, sizeof text);
        fprintf(o->log, "  %d variants checked on their cases (base %s)", nv, text);
        if (again)
            fprintf(o->log, "; %d more with the parameters of an earlier table's, checked there", again);
        fputc('\n', o->log);
    }
    if (k->verify_extra)
        GP_TRY(k->verify_extra(t, p0, o));
    return gp_ok();
}

gp_status gp_driver_verify_seen(const gp_kernel *k, const gp_table *t, const gp_shape *shapes, int nshapes,
                                const gp_kernel_opts *o, gp_verify_seen *seen)
{
    void *p0 = calloc(1, k->params_size), *p = calloc(1, k->params_size);
    gp_kcase *cases = calloc(GP_KCASE_MAX, sizeof *cases);
    gp_status st = p0 && p && cases ? verify_all(k, t, shapes, nshapes, o, p0, p, cases, seen)
                                    : gp_fail(GP_ERR_NOMEM, "%s verify: out of host memory", k->name);
    free(p0), free(p), free(cases);
    return st;
}

gp_status gp_driver_verify(const gp_kernel *k, const gp_table *t, const gp_shape *shapes, int nshapes,
                           const gp_kernel_opts *o)
{
    return gp_driver_verify_seen(k, t, shapes, nshapes, o, NULL);
}

/* ------------------------------------------------------------------ bench */

/* The table bench times under: this device's facts with the kernel
 * parameters of `params`, so a mistuned table changes only the launch
 * parameters and every row of a problem shares one floor. */
static gp_status bench_table(const gp_table *facts, const gp_table *params, gp_table *out)
{
    *out = *facts;
    for (size_t i = 0; i < gp_table_nkeys(); i++)
        if (!strncmp(gp_table_key_at(i)->section, "kernel.", 7))
            out->e[i] = params->e[i];
    snprintf(out->source, sizeof out->source, "%s", params->source);
    return gp_table_validate(out, "bench table");
}

static double rate_of(const gp_kernel_work *w, double ms, char *unit)
{
    if (w->flops > 0 && ms > 0) {
        strcpy(unit, "GFLOP/s");
        return w->flops / (ms * 1e6);
    }
    strcpy(unit, "GB/s");
    return ms > 0 ? w->bytes / (ms * 1e6) : 0;
}

typedef struct bench_ctx {
    const gp_kernel *k;
    const gp_table *facts;
    const gp_kernel_opts *o;
    gp_bench *b;
    gp_problem *pr;
    gp_kernel_work work;
} bench_ctx;

static void log_row(const bench_ctx *x, const char *impl, double ms)
{
    char unit[16];
    if (!x->o->log)
        return;
    double r = rate_of(&x->work, ms, unit);
    fprintf(x->o->log, "  %s %s: %s: %.4f ms = %.0f %s, output checked\n", x->k->name, x->pr->label, impl, ms, r,
            unit);
}

/* Ours with parameters p: timed, checked, a row. */
static gp_status bench_ours(bench_ctx *x, const void *p, const char *impl, const char *label, const char *note,
                            int *row)
{
    gp_harness_result r;
    char params[GP_BENCH_TEXT], fnote[GP_BENCH_TEXT];
    GP_TRY(gp_problem_time(x->k, x->pr, p, -1, x->o->quick, NULL, gp_driver_ops_of(x->o), &r));
    gp_kernel_params_text(x->k, p, params, sizeof params);
    if (note && note[0] && strlen(params) + strlen(note) + 3 < sizeof params)
        snprintf(params + strlen(params), sizeof params - strlen(params), "; %s", note);
    double fl = gp_driver_floor_ms(x->k, x->facts, &x->o->dev, &x->pr->c.shape, p, fnote, sizeof fnote);
    GP_TRY(gp_bench_add(x->b, x->k->name, x->pr->label, impl, label, params, 0, &r, fl, fnote));
    *row = x->b->nrows - 1;
    log_row(x, impl, r.summary.median);
    return gp_ok();
}

/* Paired ABBA of ours (p) against impls[i]; the verdict against the case's
 * or the impl's target; attached to `row` when attach. */
static gp_status bench_pair(bench_ctx *x, const void *p, const char *who, int i, int row, int attach, int verdict)
{
    gp_bench_paired pp;
    const gp_kimpl *im = &x->k->impls[i];
    GP_TRY(gp_problem_pair(x->k, x->pr, p, i, x->o->quick, who, gp_driver_ops_of(x->o), &pp));
    if (attach)
        GP_TRY(gp_bench_set_pair(x->b, row, &pp));
    /* The case's own bound is for the first impl paired (the row's). */
    double target = attach && x->pr->c.target > 0 ? x->pr->c.target : im->target;
    if (!x->o->log)
        return gp_ok();
    fprintf(x->o->log, "%s %s: %s vs %s paired median %.3f (p10 %.3f, p90 %.3f)", x->k->name, x->pr->label, who,
            im->name, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90);
    if (verdict && target > 0)
        fprintf(x->o->log, ": at least %.2f: %s", target, gp_bench_verdict_word(gp_bench_pair_at_least(&pp, target)));
    else
        fprintf(x->o->log, " (%s)", verdict ? "reported" : "context");
    fprintf(x->o->log, " (%d rounds ABBA%s; medians %.4f vs %.4f ms)\n", pp.rounds,
            pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms);
    return gp_ok();
}

/* The impls on the problem: a row each (present[i] = 1), the first baseline
 * present marked as the problem's. */
static gp_status bench_impls(bench_ctx *x, const void *p0, int *present)
{
    const gp_kernel *k = x->k;
    int have_base = 0;
    for (int i = 0; i < k->nimpls; i++) {
        gp_harness_result r;
        char fnote[GP_BENCH_TEXT];
        present[i] = 0;
        gp_status st = gp_problem_time(k, x->pr, p0, i, x->o->quick, NULL, gp_driver_ops_of(x->o), &r);
        if (st.code == GP_ERR_UNSUPPORTED) {
            if (x->o->log)
                fprintf(x->o->log, "  %s %s: %s skipped: %s\n", k->name, x->pr->label, k->impls[i].name, st.msg);
            continue;
        }
        GP_TRY(st);
        int is_base = k->impls[i].baseline && !have_base;
        have_base |= is_base;
        double fl = gp_driver_floor_ms(k, x->facts, &x->o->dev, &x->pr->c.shape, NULL, fnote, sizeof fnote);
        GP_TRY(gp_bench_add(x->b, k->name, x->pr->label, k->impls[i].name, "", k->impls[i].params, is_base, &r, fl,
                            fnote));
        log_row(x, k->impls[i].name, r.summary.median);
        present[i] = 1;
    }
    return gp_ok();
}

/* Every variant on the problem (rows), the fastest paired with the first
 * pairing impl present. */
static gp_status bench_variants(bench_ctx *x, const void *p0, const int *present, void *pv, void *best)
{
    const gp_kernel *k = x->k;
    int best_row = -1;
    for (int v = 0; v < k->nvariants; v++) {
        char impl[GP_BENCH_TEXT], text[GP_BENCH_TEXT - 20];
        int row;
        gp_kernel_variant(k, v, p0, &x->o->dev, pv);
        gp_params_format(k->params, k->nparams, pv, text, sizeof text);
        snprintf(impl, sizeof impl, "gpuprobe variant %s", text);
        GP_TRY(bench_ours(x, pv, impl, "", NULL, &row));
        if (best_row < 0 || x->b->rows[row].ms.median < x->b->rows[best_row].ms.median)
            best_row = row, memcpy(best, pv, k->params_size);
    }
    for (int i = 0; i < k->nimpls && best_row >= 0; i++)
        if (present[i] && k->impls[i].pair)
            return bench_pair(x, best, x->b->rows[best_row].impl, i, best_row, 1, 0);
    return gp_ok();
}

static gp_status bench_problem(bench_ctx *x, const gp_driver_table *tables, int ntables, void *p0, void *p,
                               void *pv)
{
    const gp_kernel *k = x->k;
    const gp_kcase *c = &x->pr->c;
    static gp_table merged; /* ~50 KB: off the stack */
    int main_row = -1, present[GP_KIMPL_MAX] = {0};
    GP_TRY(k->work(&c->shape, NULL, &x->work));
    for (int j = 0; j < ntables; j++) {
        char note[GP_BENCH_TEXT];
        int row;
        GP_TRY(bench_table(x->facts, tables[j].t, &merged));
        GP_TRY(gp_kernel_params(k, &merged, &x->o->dev, &c->shape, 1, j == 0 ? p0 : p, note, sizeof note));
        GP_TRY(bench_ours(x, j == 0 ? p0 : p, "gpuprobe", tables[j].label, note, &row));
        if (j == 0)
            main_row = row;
    }
    GP_TRY(bench_impls(x, p0, present));
    if (c->flags & (GP_KCASE_PAIR | GP_KCASE_REPORT)) {
        int attached = 0;
        for (int i = 0; i < k->nimpls; i++) {
            if (!present[i] || !k->impls[i].pair)
                continue;
            GP_TRY(bench_pair(x, p0, "gpuprobe", i, main_row, !attached, (c->flags & GP_KCASE_PAIR) != 0));
            attached = 1;
        }
    }
    if (c->flags & GP_KCASE_VARIANTS)
        GP_TRY(bench_variants(x, p0, present, pv, p));
    return gp_ok();
}

static gp_status bench_all(const gp_kernel *k, const gp_table *facts, const gp_driver_table *tables, int ntables,
                           const gp_shape *shapes, int nshapes, const gp_kernel_opts *o, gp_bench *b,
                           gp_kcase *cases, void *p0, void *p, void *pv)
{
    int n = 0;
    if (nshapes > 0) {
        for (; n < nshapes && n < GP_KCASE_MAX; n++) {
            memset(&cases[n], 0, sizeof cases[n]);
            cases[n].shape = shapes[n];
            cases[n].flags = GP_KCASE_REPORT;
        }
    } else {
        n = k->cases(GP_CASES_BENCH, NULL, &o->dev, o->quick, cases, GP_KCASE_MAX);
    }
    uint64_t rng = o->seed;
    for (int i = 0; i < n; i++) {
        gp_problem pr;
        GP_TRY(gp_problem_setup(k, &cases[i], &o->dev, &rng, &pr));
        bench_ctx x = {k, facts, o, b, &pr, {0, 0, ""}};
        gp_status st = bench_problem(&x, tables, ntables, p0, p, pv);
        gp_problem_free(k, &pr);
        GP_TRY(st);
    }
    return gp_ok();
}

gp_status gp_driver_bench(const gp_kernel *k, const gp_table *facts, const gp_driver_table *tables, int ntables,
                          const gp_shape *shapes, int nshapes, const gp_kernel_opts *o, gp_bench *b)
{
    if (ntables < 1)
        return gp_fail(GP_ERR_USAGE, "%s bench: no table to time under", k->name);
    if (k->nimpls > GP_KIMPL_MAX)
        return gp_fail(GP_ERR_USAGE, "%s: %d impls, at most %d", k->name, k->nimpls, GP_KIMPL_MAX);
    void *p0 = calloc(1, k->params_size), *p = calloc(1, k->params_size), *pv = calloc(1, k->params_size);
    gp_kcase *cases = calloc(GP_KCASE_MAX, sizeof *cases);
    gp_status st = p0 && p && pv && cases
                       ? bench_all(k, facts, tables, ntables, shapes, nshapes, o, b, cases, p0, p, pv)
                       : gp_fail(GP_ERR_NOMEM, "%s bench: out of host memory", k->name);
    free(p0), free(p), free(pv), free(cases);
    return st;
}
