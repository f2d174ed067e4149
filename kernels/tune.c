/* `gpuprobe tune` of one kernel within a time budget (tune.h). */
#include "tune.h"

#include <stdlib.h>
#include <string.h>

#include "driver_problem.h"
#include "fsutil.h"
#include "harness.h"

typedef struct tune_run {
    const gp_kernel *k;
    const gp_kernel_opts *o;
    gp_table *base;     /* the table tune writes into */
    gp_table *ruled;    /* what the candidates start from: base with the rule's [kernel.<k>], no tuned classes */
    int ncands, nprob;
    gp_kcase cases[GP_TUNE_MAX_PROBLEMS];
    gp_problem pr[GP_TUNE_MAX_PROBLEMS];   /* st NULL: not set up now */
    uint64_t rng_at[GP_TUNE_MAX_PROBLEMS]; /* the data stream at each problem's set-up (a second one repeats it) */
    int variant[GP_TUNE_MAX_CANDS];        /* candidate c: the rule's (-1) or that variant */
    unsigned char *params;                 /* candidate c on problem q: params + (c * nprob + q) * size */
    gp_tune_grid g;
    double t0, budget, sweep_share;
    double setup_s;     /* spent setting problems up (host data, references, uploads): outside the timings */
    int timings_done, timings_all;
} tune_run;

static void *cand(tune_run *r, int c, int q)
{
    return r->params + ((size_t)c * (size_t)r->nprob + (size_t)q) * r->k->params_size;
}

/* Candidate c's values on problem q: the rule's differ from problem to
 * problem where the rule follows the shape, and so may the variants built
 * on them. */
static const char *cand_text(tune_run *r, int c, int q, char *buf)
{
    gp_params_format(r->k->params, r->k->nparams, cand(r, c, q), buf, GP_BENCH_TEXT);
    return buf;
}

static double now(void) { return gp_harness_monotonic_s(NULL); }

static void progress(tune_run *r, const char *phase, double frac)
{
    if (!r->o->log)
        return;
    double spent = now() - r->t0;
    double left = frac > 0.02 ? spent / frac - spent : r->budget - spent;
    fprintf(r->o->log, "[%s] %s: %.0f %% done, %.1f s spent of a %.0f s budget, about %.0f s left\n", r->k->name,
            phase, 100 * frac, spent, r->budget, left > 0 ? left : 0);
}

/* ---- candidates: the rule's parameters on every problem, then each variant on them */

static gp_status make_candidates(tune_run *r)
{
    const gp_kernel *k = r->k;
    char note[GP_BENCH_TEXT];
    for (int q = 0; q < r->nprob; q++)
        GP_TRY(gp_kernel_params(k, r->ruled, &r->o->dev, &r->cases[q].shape, 1, cand(r, 0, q), note, sizeof note));
    r->variant[0] = -1;
    r->ncands = 1;
    for (int v = 0; v < k->nvariants && r->ncands < GP_TUNE_MAX_CANDS; v++) {
        int c = r->ncands, dup = 0;
        for (int q = 0; q < r->nprob; q++)
            gp_kernel_variant(k, v, cand(r, 0, q), &r->o->dev, cand(r, c, q));
        /* A variant the device turns into an earlier candidate (a ring
         * where no copy engine is) is that candidate: not timed twice. */
        for (int e = 0; e < c && !dup; e++) {
            int same = 1;
            for (int q = 0; q < r->nprob && same; q++)
                same = gp_params_same(k->params, k->nparams, cand(r, e, q), cand(r, c, q));
            dup = same;
        }
        if (dup)
            continue;
        r->variant[c] = v;
        r->ncands++;
    }
    return gp_ok();
}

/* ---- problems: set up once; kept while the device has room */

static gp_status ensure_setup(tune_run *r, int q)
{
    if (r->pr[q].st)
        return gp_ok();
    uint64_t rng = r->rng_at[q];
    const double t = now();
    gp_status st = gp_problem_setup(r->k, &r->cases[q], &r->o->dev, &rng, &r->pr[q]);
    r->setup_s += now() - t;
    return st;
}

static void maybe_release(tune_run *r, int q)
{
    size_t free_b = 0, total = 0;
    const gp_driver_ops *ops = gp_driver_ops_of(r->o);
    if (ops->mem_info && ops->mem_info(&free_b, &total).code == GP_OK && total > 0 && free_b < total / 4)
        gp_problem_free(r->k, &r->pr[q]);
}

/* ---- the sweep: every candidate verified once and timed on every problem */

static gp_harness_cfg sweep_cfg(tune_run *r)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    int left = r->timings_all - r->timings_done;
    double remaining = r->budget * r->sweep_share - (now() - r->t0);
    cfg.warmup = 2;
    cfg.min_reps = r->o->quick ? 3 : 5;
    cfg.max_reps = 100;
    cfg.budget_s = left > 0 && remaining > 0 ? remaining / left : 0;
    if (cfg.budget_s > 1.0)
        cfg.budget_s = 1.0;
    return cfg;
}

static gp_status sweep(tune_run *r)
{
    r->timings_all = r->ncands * r->nprob;
    r->g.ncands = r->ncands, r->g.nproblems = r->nprob;
    for (int q = 0; q < r->nprob; q++) {
        GP_TRY(ensure_setup(r, q));
        for (int c = 0; c < r->ncands; c++) {
            gp_harness_result res;
            gp_harness_cfg cfg = sweep_cfg(r);
            /* Poisoned, timed, then its output checked: once per candidate and problem. */
            GP_TRY(gp_problem_time(r->k, &r->pr[q], cand(r, c, q), -1, r->o->quick, &cfg, gp_driver_ops_of(r->o),
                                   &res));
            r->g.ms[c][q] = res.summary;
            r->timings_done++;
        }
        maybe_release(r, q);
        progress(r, "sweep", r->sweep_share * (double)(q + 1) / r->nprob);
    }
    return gp_ok();
}

/* ---- the pairing: each problem's leader against the rule, ABBA, on every problem */

static gp_status pair_leaders(tune_run *r, const int *lead, int nlead)
{
    int total = nlead * r->nprob, done = 0;
    for (int q = 0; q < r->nprob; q++) {
        if (nlead == 0)
            break;
        GP_TRY(ensure_setup(r, q));
        for (int i = 0; i < nlead; i++, done++) {
            const int c = lead[i];
            gp_bench_pair_cfg cfg = gp_bench_pair_defaults(r->o->quick);
            double remaining = r->budget - (now() - r->t0);
            cfg.budget_s = remaining > 0 ? remaining / (total - done) : 0;
            gp_bench_paired pp;
            char who[GP_BENCH_TEXT + 32];
            char text[GP_BENCH_TEXT];
            cand_text(r, c, q, text);
            snprintf(who, sizeof who, "%.100s vs the rule", text);
            GP_TRY(gp_problem_pair_params(r->k, &r->pr[q], cand(r, c, q), cand(r, 0, q), &cfg, who,
                                          gp_driver_ops_of(r->o), &pp));
            gp_tune_paired *t = &r->g.pair[c][q];
            t->rounds = pp.rounds, t->ratio = pp.ratio_s, t->cand_ms = pp.a_median_ms, t->rule_ms = pp.b_median_ms;
            if (r->o->log)
                fprintf(r->o->log, "[%s] paired `%s` vs the rule on %s: rule / it = %.3f (%.3f-%.3f), %d ABBA "
                        "rounds\n", r->k->name, text, r->pr[q].label, pp.ratio_s.median, pp.ratio_s.p10,
                        pp.ratio_s.p90, pp.rounds);
        }
        gp_problem_free(r->k, &r->pr[q]);
        progress(r, "pairing", r->sweep_share + (1 - r->sweep_share) * (double)(q + 1) / r->nprob);
    }
    return gp_ok();
}

/* ---- the outcome */

static void report_md(FILE *md, tune_run *r, const gp_tune_pick *p)
{
    const gp_tune_grid *g = &r->g;
    int c = p->chosen, h = p->headline, unpaired = 0;
    if (!md)
        return;
    char rule[GP_BENCH_TEXT], kept[GP_BENCH_TEXT], best[GP_BENCH_TEXT];
    fprintf(md, "\n## %s\n\n- rule choice: `%s`\n- swept choice (kept by tune): `%s` (%s)\n- best candidate on the "
                "headline problem `%s`: `%s`\n",
            r->k->name, cand_text(r, 0, h, rule), cand_text(r, c, h, kept),
            c ? "beat the rule beyond the paired spread on the headline and lost nowhere"
              : "the rule's: no leader beat it beyond the paired spread",
            r->pr[h].label, cand_text(r, p->best[h], h, best));
    for (int q = 0; q < g->nproblems; q++)
        unpaired += p->unpaired[q];
    if (unpaired)
        fprintf(md, "- not paired (quick): the leaders of %d of %d problems; only the headline's leader was timed "
                    "paired, so the kept values stand there unchallenged (a full `gpuprobe tune` pairs every leader)\n",
                unpaired, g->nproblems);
    fprintf(md, "\n| problem | rule ms (sweep) | best candidate | best ms (sweep) | paired rule / best (p10-p90, "
                "rounds) | kept ms | near ties |\n| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
    for (int q = 0; q < g->nproblems; q++) {
        const gp_tune_paired *pr = &g->pair[p->best[q]][q];
        char paired[96] = "the rule leads", ties[16];
        if (p->unpaired[q])
            snprintf(paired, sizeof paired, "not paired (quick)");
        else if (p->best[q] != 0)
            snprintf(paired, sizeof paired, "%.3f (%.3f-%.3f, %d ABBA)", pr->ratio.median, pr->ratio.p10,
                     pr->ratio.p90, pr->rounds);
        snprintf(ties, sizeof ties, p->unpaired[q] ? "-" : "%d", p->near_tie[q]);
        char text[GP_BENCH_TEXT];
        fprintf(md, "| %s%s | %.4f | `%s` | %.4f | %s | %.4f | %s |\n", r->pr[q].label, q == h ? " (headline)" : "",
                g->ms[0][q].median, cand_text(r, p->best[q], q, text), g->ms[p->best[q]][q].median, paired,
                g->ms[c][q].median, ties);
    }
    /* Every candidate's sweep figure, so a choice can be weighed against
     * any other (an earlier tune's, a table's) without another run. */
    fprintf(md, "\n<details><summary>every candidate (median ms of the sweep, p10-p90)</summary>\n\n| candidate "
                "(its values on the first problem) |");
    for (int q = 0; q < g->nproblems; q++)
        fprintf(md, " %s |", r->pr[q].label);
    fprintf(md, "\n| --- |");
    for (int q = 0; q < g->nproblems; q++)
        fprintf(md, " ---: |");
    for (int k = 0; k < r->ncands; k++) {
        char text[GP_BENCH_TEXT];
        fprintf(md, "\n| `%s`%s |", cand_text(r, k, 0, text), k == 0 ? " (rule)" : "");
        for (int q = 0; q < g->nproblems; q++)
            fprintf(md, " %.4f (%.4f-%.4f) |", g->ms[k][q].median, g->ms[k][q].p10, g->ms[k][q].p90);
    }
    fprintf(md, "\n\n</details>\n");
}

static void report_rows(FILE *out, tune_run *r, const gp_tune_pick *p)
{
    if (!out)
        return;
    for (int q = 0; q < r->nprob; q++) {
        char paired[64] = "not paired (quick)";
        if (!p->unpaired[q])
            snprintf(paired, sizeof paired, "%.3f (%.3f-%.3f)",
                     p->best[q] ? r->g.pair[p->best[q]][q].ratio.median : 1.0, p->tie_lo[q], p->tie_hi[q]);
        char text[GP_BENCH_TEXT];
        fprintf(out, "| %s | %s | rule %.4f | best %.4f (%s) | paired rule/best %s |\n", r->k->name, r->pr[q].label,
                r->g.ms[0][q].median, r->g.ms[p->best[q]][q].median, cand_text(r, p->best[q], q, text), paired);
    }
}

/* The winner's values into base's [kernel.<k>]: the rule's values for the
 * headline with the variant's row set, as the table carries them (the fit
 * to a device happens at each launch). */
static gp_status keep_winner(tune_run *r, const gp_tune_pick *p)
{
    const gp_kernel *k = r->k;
    const int c = p->chosen, h = p->headline;
    const gp_tune_paired *pr = &r->g.pair[c][h];
    char date[16], prov[GP_TABLE_PROV_LEN], quick[48] = "";
    int unpaired = 0;
    for (int q = 0; q < r->nprob; q++)
        unpaired += p->unpaired[q];
    if (unpaired) /* early in the text: a long rule choice below may be cut */
        snprintf(quick, sizeof quick, " (%d problem(s) not paired (quick))", unpaired);
    gp_fs_today(date);
    /* The paired figures first: a long rule choice at the end may be cut
     * (the provenance holds GP_TABLE_PROV_LEN characters). */
    snprintf(prov, sizeof prov, "swept %s %s%s: for %.60s: %.4f ms vs the rule's %.4f ms, paired %.3fx (%.3f-%.3f, "
             "%d ABBA); rule: ", k->name, date, quick, r->pr[h].label, pr->cand_ms, pr->rule_ms, pr->ratio.median,
             pr->ratio.p10, pr->ratio.p90, pr->rounds);
    size_t len = strlen(prov);
    char rule[GP_BENCH_TEXT];
    snprintf(prov + len, sizeof prov - len, "%s", cand_text(r, 0, h, rule));
    void *raw = calloc(1, k->params_size);
    if (!raw)
        return gp_fail(GP_ERR_NOMEM, "tune %s: out of host memory", k->name);
    gp_status st = gp_params_read(k->name, k->params, k->nparams, r->base, raw);
    if (st.code == GP_OK) {
        gp_params_set_row(k->params, k->nparams, raw, k->variants + (size_t)r->variant[c] * (size_t)k->nparams);
        st = gp_params_to_table(k->name, k->params, k->nparams, raw, r->base, prov);
    }
    free(raw);
    return st;
}

/* --shape: each shape's own verdict, kept as its class's entry
 * [kernel.<k>@<class>] where its leader beat the rule beyond the paired
 * spread on it, and dropped where the rule holds (an older entry for the
 * class goes too: the sweep just measured it). */
static gp_status keep_per_class(tune_run *r, const gp_tune_pick *p)
{
    const gp_kernel *k = r->k;
    char date[16], prov[GP_TABLE_PROV_LEN], cls[GP_TABLE_CLASS_LEN];
    gp_fs_today(date);
    for (int q = 0; q < r->nprob; q++) {
        const int c = p->best[q];
        const gp_tune_paired *pr = &r->g.pair[c][q];
        gp_kernel_shape_class(k, &r->cases[q].shape, cls, sizeof cls);
        gp_table_shaped_drop(r->base, k->name, cls);
        if (c == 0 || !gp_tune_pair_beats(pr))
            continue;
        snprintf(prov, sizeof prov, "swept %s %s: for %.60s: %.4f ms vs the rule's %.4f ms, paired %.3fx (%.3f-%.3f, "
                 "%d ABBA)", k->name, date, r->pr[q].label, pr->cand_ms, pr->rule_ms, pr->ratio.median, pr->ratio.p10,
                 pr->ratio.p90, pr->rounds);
        for (int i = 0; i < k->nparams; i++)
            GP_TRY(gp_table_shaped_set(r->base, k->name, cls, k->params[i].key,
                                       gp_params_get(k->params, k->nparams, cand(r, c, q), k->params[i].key), prov));
        if (r->o->log) {
            char text[GP_BENCH_TEXT];
            fprintf(r->o->log, "[%s] kept for class %s: %s\n", k->name, cls, cand_text(r, c, q, text));
        }
    }
    return gp_ok();
}

static gp_status tune_cases(tune_run *r, const gp_shape *shapes, int nshapes)
{
    if (nshapes > GP_TUNE_MAX_PROBLEMS)
        return gp_fail(GP_ERR_USAGE, "tune %s: %d shapes, at most %d", r->k->name, nshapes, GP_TUNE_MAX_PROBLEMS);
    if (nshapes > 0) {
        for (int i = 0; i < nshapes; i++) {
            memset(&r->cases[i], 0, sizeof r->cases[i]);
            r->cases[i].shape = shapes[i];
        }
        r->nprob = nshapes;
        return gp_ok();
    }
    gp_kcase *all = calloc(GP_KCASE_MAX, sizeof *all);
    if (!all)
        return gp_fail(GP_ERR_NOMEM, "tune %s: out of host memory", r->k->name);
    int n = r->k->cases(GP_CASES_BENCH, NULL, &r->o->dev, r->o->quick, all, GP_KCASE_MAX);
    r->nprob = n < GP_TUNE_MAX_PROBLEMS ? n : GP_TUNE_MAX_PROBLEMS;
    memcpy(r->cases, all, (size_t)r->nprob * sizeof *all);
    free(all);
    return r->nprob > 0 ? gp_ok() : gp_fail(GP_ERR_USAGE, "tune %s: no bench problems", r->k->name);
}

static gp_status tune_all(tune_run *r, const gp_shape *shapes, int nshapes, FILE *md, FILE *summary)
{
    const gp_kernel *k = r->k;
    /* Candidate 0: the rule's choice on these facts, for each problem. */
    gp_rule_in in = {r->base, NULL, 1};
    *r->ruled = *r->base;
    r->ruled->nshaped = 0;
    GP_TRY(k->rule(&in, r->ruled));
    if (nshapes == 0) /* the bench problems: the table's own section becomes the rule's, or the winner's */
        GP_TRY(k->rule(&in, r->base));
    GP_TRY(tune_cases(r, shapes, nshapes));
    r->params = calloc((size_t)GP_TUNE_MAX_CANDS * (size_t)r->nprob, k->params_size);
    if (!r->params)
        return gp_fail(GP_ERR_NOMEM, "tune %s: out of host memory", k->name);
    GP_TRY(make_candidates(r));
    uint64_t rng = r->o->seed;
    for (int q = 0; q < r->nprob; q++) { /* each problem's data as a set-up in this order draws it */
        r->rng_at[q] = rng;
        rng += 0x9E3779B97F4A7C15ull * (uint64_t)(q + 1);
    }
    if (r->o->log)
        fprintf(r->o->log, "[%s] tune: %d candidates x %d problems, budget %.0f s\n", k->name, r->ncands, r->nprob,
                r->budget);
    double t_sweep = now();
    GP_TRY(sweep(r));
    gp_tune_pick pick;
    int lead[GP_TUNE_MAX_PROBLEMS], nlead;
    r->g.quick = r->o->quick;
    GP_TRY(gp_tune_leaders(&r->g, &pick));
    nlead = gp_tune_to_pair(&r->g, &pick, lead);
    double t_pair = now();
    GP_TRY(pair_leaders(r, lead, nlead));
    GP_TRY(gp_tune_decide(&r->g, &pick));
    if (r->o->log)
        fprintf(r->o->log, "[%s] tune time: sweep of %d candidates x %d problems %.1f s, %d leader(s) paired %.1f s, "
                "%.1f s in all (budget %.0f s; of it %.1f s setting problems up)\n", k->name, r->ncands, r->nprob,
                t_pair - t_sweep, nlead, now() - t_pair, now() - r->t0, r->budget, r->setup_s);
    report_rows(summary, r, &pick);
    report_md(md, r, &pick);
    if (nshapes > 0)
        return keep_per_class(r, &pick);
    if (pick.chosen != 0)
        GP_TRY(keep_winner(r, &pick));
    if (r->o->log) {
        char text[GP_BENCH_TEXT];
        fprintf(r->o->log, "[%s] kept: %s (%s on %s)\n", k->name, cand_text(r, pick.chosen, pick.headline, text),
                pick.chosen ? "swept" : "the rule's", r->pr[pick.headline].label);
    }
    return gp_ok();
}

gp_status gp_tune_kernel(const gp_kernel *k, gp_table *base, const gp_shape *shapes, int nshapes,
                         const gp_kernel_opts *o, FILE *md, FILE *summary)
{
    tune_run *r = calloc(1, sizeof *r);
    if (!r)
        return gp_fail(GP_ERR_NOMEM, "tune %s: out of host memory", k->name);
    r->k = k, r->o = o, r->base = base;
    r->ruled = malloc(sizeof *r->ruled);
    if (!r->ruled) {
        free(r);
        return gp_fail(GP_ERR_NOMEM, "tune %s: out of host memory", k->name);
    }
    r->t0 = now();
    r->budget = o->budget_s > 0 ? o->budget_s : o->quick ? GP_TUNE_BUDGET_QUICK_S : GP_TUNE_BUDGET_S;
    r->sweep_share = 0.6;
    gp_status st = tune_all(r, shapes, nshapes, md, summary);
    for (int q = 0; q < r->nprob; q++)
        gp_problem_free(k, &r->pr[q]);
    free(r->params);
    free(r->ruled);
    free(r);
    return st;
}
