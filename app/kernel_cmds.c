#include "kernel_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "kernel.h"
#include "kutil.h"
#include "table.h"
#include "target_check.h"
#include "tune_pick.h"

typedef struct labelled_table {
    gp_table t;
    char label[GP_BENCH_TEXT];
} labelled_table;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "measured sm_90", "shipped sm_90", "generic", "mistuned gfx900"; a table
 * file of another name is labelled by its name ("rule_only sm_90"), so the
 * rule-only, tuned and shipped tables of one device tell apart in a bench. */
static void label_table(labelled_table *lt, const char *path, int mistuned)
{
    const gp_table_entry *arch = gp_table_find(&lt->t, "device", "arch");
    const char *a = arch ? arch->text : "?";
    if (mistuned)
        snprintf(lt->label, sizeof lt->label, "mistuned %s", a);
    else if (!strcmp(a, GP_TABLE_GENERIC_ARCH))
        snprintf(lt->label, sizeof lt->label, "generic");
    else if (!strcmp(base_name(path), GP_TABLE_RESULTS_NAME))
        snprintf(lt->label, sizeof lt->label, "measured %s", a);
    else if (!strcmp(base_name(path), a))
        snprintf(lt->label, sizeof lt->label, "shipped %s", a);
    else
        snprintf(lt->label, sizeof lt->label, "%.40s %.40s", base_name(path), a);
}

/* Where this device's measured table is looked for: --out when given, else
 * the first of gpuprobe-results/ (a plain `gpuprobe characterize`) and
 * results/ (what `cmake --workflow --preset characterize` leaves in the build
 * folder) that holds a table.txt, so `gpuprobe bench ssim` run from the build
 * folder finds it as `verify` does. */
static const char *results_dir(const gp_cli *cli)
{
    static const char *const dirs[] = {"gpuprobe-results", "results"};
    if (cli->out_given)
        return cli->out_dir;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        if (gp_fs_join(path, sizeof path, dirs[i], GP_TABLE_RESULTS_NAME).code == GP_OK && gp_fs_exists(path))
            return dirs[i];
    }
    return cli->out_dir;
}

static gp_status lookup_table(const gp_cli *cli, const gp_device_info *dev, const char *tables_dir,
                              labelled_table *lt)
{
    char chosen[GP_TABLE_PATH_LEN];
    GP_TRY(gp_table_lookup(results_dir(cli), tables_dir, dev->arch, &lt->t, chosen, sizeof chosen));
    fprintf(stderr, "table: %s (lookup for %s: measured in %s, else shipped, else generic)\n", chosen,
            dev->arch, results_dir(cli));
    label_table(lt, chosen, 0);
    return gp_ok();
}

/* The tables named on the command line (`lookup` is the device's lookup),
 * or the lookup alone; then the mistuned ones. */
static gp_status collect_tables(const gp_cli *cli, const gp_device_info *dev, const char *tables_dir,
                                labelled_table *out, int *n)
{
    *n = 0;
    if (cli->ntables == 0)
        GP_TRY(lookup_table(cli, dev, tables_dir, &out[(*n)++]));
    for (int i = 0; i < cli->ntables; i++) {
        labelled_table *lt = &out[(*n)++];
        if (!strcmp(cli->tables[i], "lookup")) {
            GP_TRY(lookup_table(cli, dev, tables_dir, lt));
            continue;
        }
        GP_TRY(gp_table_load(cli->tables[i], &lt->t));
        const gp_table_entry *arch = gp_table_find(&lt->t, "device", "arch");
        if (strcmp(arch->text, dev->arch) && strcmp(arch->text, GP_TABLE_GENERIC_ARCH))
            return gp_fail(GP_ERR_USAGE,
                           "%s: table written for %s, this GPU is %s (--mistuned FILE uses it on purpose)",
                           cli->tables[i], arch->text, dev->arch);
        label_table(lt, cli->tables[i], 0);
    }
    for (int i = 0; i < cli->nmistuned; i++) {
        labelled_table *lt = &out[(*n)++];
        GP_TRY(gp_table_load(cli->mistuned[i], &lt->t));
        label_table(lt, cli->mistuned[i], 1);
    }
    return gp_ok();
}

static gp_status open_kernels(const gp_cli *cli, const char *tables_dir, gp_kernel_opts *o,
                              labelled_table **tables, int *ntables)
{
    memset(o, 0, sizeof *o);
    GP_TRY(gp_device_open_checked(cli->device, &o->dev));
    o->quick = cli->quick;
    o->seed = cli->have_seed ? cli->seed : gp_fresh_seed();
    o->log = stderr;
    *tables = calloc(GP_CLI_MAX_TABLES * 2, sizeof **tables);
    if (!*tables)
        return gp_fail(GP_ERR_NOMEM, "out of host memory for tables");
    gp_status st = collect_tables(cli, &o->dev, tables_dir, *tables, ntables);
    if (st.code != GP_OK) {
        free(*tables);
        *tables = NULL;
    }
    return st;
}

/* What bench times: the device's own facts (its lookup table: measured,
 * else shipped, else generic) with the kernel.* parameters of `params`.  A
 * mistuned table then changes only the launch parameters, and every row of
 * a problem shares one floor, computed from this device's characteristics. */
static gp_status bench_table(const gp_table *facts, const gp_table *params, gp_table *out)
{
    *out = *facts;
    for (size_t i = 0; i < gp_table_nkeys(); i++)
        if (!strncmp(gp_table_key_at(i)->section, "kernel.", 7))
            out->e[i] = params->e[i];
    return gp_table_validate(out, "bench table");
}

gp_status gp_cmd_verify(const gp_cli *cli, const char *tables_dir)
{
    gp_kernel_opts o;
    labelled_table *tables;
    int nt;
    GP_TRY(open_kernels(cli, tables_dir, &o, &tables, &nt));
    fprintf(stderr, "verify on %s (%s), seed %llu (replay: --seed %llu)\n", o.dev.name, o.dev.arch, o.seed,
            o.seed);
    gp_status first = gp_ok();
    for (int i = 0; i < cli->nprobes; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        for (int j = 0; j < nt; j++) {
            fprintf(stderr, "[%s] table %s: ", k->name, tables[j].label);
            gp_status st = k->print_params(&tables[j].t, &o.dev, stderr);
            if (st.code == GP_OK)
                st = k->verify(&tables[j].t, &o);
            if (st.code == GP_OK) {
                printf("%s under %s: ok\n", k->name, tables[j].label);
            } else {
                printf("%s under %s: FAILED: %s\n", k->name, tables[j].label, st.msg);
                if (first.code == GP_OK)
                    first = st;
                if (st.code != GP_ERR_CHECK)
                    break; /* a runtime error poisons the context: stop */
            }
        }
    }
    free(tables);
    return first;
}

gp_status gp_cmd_bench(const gp_cli *cli, const char *tables_dir)
{
    gp_kernel_opts o;
    labelled_table *tables;
    int nt;
    GP_TRY(open_kernels(cli, tables_dir, &o, &tables, &nt));
    gp_bench *b = calloc(1, sizeof *b);
    gp_table *merged = malloc(sizeof *merged), *facts = malloc(sizeof *facts);
    if (!b || !merged || !facts) {
        free(b);
        free(merged);
        free(facts);
        free(tables);
        return gp_fail(GP_ERR_NOMEM, "out of host memory for bench results");
    }
    /* Read once: every kernel and table below shares these facts. */
    char chosen[GP_TABLE_PATH_LEN] = "", why[256] = "";
    gp_status first = gp_table_lookup(results_dir(cli), tables_dir, o.dev.arch, facts, chosen, sizeof chosen);
    fprintf(stderr, "bench on %s (%s); floors from this device's own table, parameters from each table\n",
            o.dev.name, o.dev.arch);
    if (first.code == GP_OK && !gp_table_keep_own_facts(facts, o.dev.name, why, sizeof why))
        fprintf(stderr, "floors: %s: %s; floors use what this device reports (bus width x memory clock, its "
                        "clock and CU count) or are unknown (run gpuprobe characterize)\n",
                chosen, why);
    for (int i = 0; i < cli->nprobes && first.code == GP_OK; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        for (int j = 0; j < nt; j++) {
            fprintf(stderr, "[%s] table %s: ", k->name, tables[j].label);
            gp_status st = bench_table(facts, &tables[j].t, merged);
            if (st.code == GP_OK)
                st = k->print_params(merged, &o.dev, stderr);
            if (st.code == GP_OK)
                st = k->bench(merged, tables[j].label, j == 0, &o, b);
            if (st.code != GP_OK) {
                fprintf(stderr, "%s under %s: FAILED: %s\n", k->name, tables[j].label, st.msg);
                first = st;
                break;
            }
        }
    }
    printf("\n");
    gp_bench_print_markdown(b, stdout);
    if (cli->out_given && b->nrows > 0) {
        char path[1024], name[256] = "bench";
        for (int i = 0; i < cli->nprobes; i++) /* bench_ssim_conv2d.csv: runs do not overwrite each other */
            snprintf(name + strlen(name), sizeof name - strlen(name), "_%s", cli->probes[i]);
        snprintf(name + strlen(name), sizeof name - strlen(name), ".csv");
        gp_status st = gp_fs_mkdirs(cli->out_dir);
        if (st.code == GP_OK)
            st = gp_fs_join(path, sizeof path, cli->out_dir, name);
        if (st.code == GP_OK)
            st = gp_bench_write_csv(b, path);
        if (st.code == GP_OK)
            fprintf(stderr, "bench results: %s\n", path);
        else if (first.code == GP_OK)
            first = st;
    }
    free(facts);
    free(merged);
    free(b);
    free(tables);
    return first;
}

/* ---- tune: a timed sweep of each kernel's candidate parameter sets */

#define GP_TUNE_MAX GP_TUNE_MAX_CANDS

static void kernel_params_text(const gp_table *t, const char *section, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        const gp_table_entry *e = gp_table_find(t, k->section, k->key);
        if (strcmp(k->section, section) || !e || e->is_none)
            continue;
        size_t len = strlen(out);
        snprintf(out + len, n - len, "%s%s=%lld", len ? " " : "", k->key, e->i);
    }
}

/* Candidate c's rows into the grid: one column per problem, in the order the
 * rule's candidate (c = 0) met them. */
static void tune_fill(gp_tune_grid *g, char problems[][GP_BENCH_TEXT], int c, const gp_bench *b)
{
    for (int i = 0; i < b->nrows; i++) {
        const gp_bench_row *r = &b->rows[i];
        if (r->is_baseline || !(r->ms.median > 0))
            continue;
        int q = 0;
        while (q < g->nproblems && strcmp(problems[q], r->problem))
            q++;
        if (q == g->nproblems) {
            if (c != 0 || q == GP_TUNE_MAX_PROBLEMS)
                continue;
            snprintf(problems[q], GP_BENCH_TEXT, "%s", r->problem);
            g->nproblems++;
        }
        g->ms[c][q] = r->ms;
    }
}

/* rules.md: per problem the rule's choice, the leader of the sweep, what
 * tune keeps, the paired ratio (near-tie range) and the near ties. */
static void tune_report(FILE *md, const gp_kernel *k, const gp_tune_grid *g, const gp_tune_pick *p,
                        char problems[][GP_BENCH_TEXT], char texts[][GP_BENCH_TEXT])
{
    if (!md)
        return;
    int c = p->chosen, h = p->headline;
    fprintf(md, "\n## %s\n\n- rule choice: `%s`\n- swept choice (kept by tune): `%s` (%s)\n- best candidate on the "
                "headline problem `%s`: `%s`\n",
            k->name, texts[0], texts[c],
            c ? "beat the rule beyond the paired spread on the headline and lost nowhere"
              : "the rule's: no leader beat it beyond the paired spread",
            problems[h], texts[p->best[h]]);
    int unpaired = 0;
    for (int q = 0; q < g->nproblems; q++)
        unpaired += p->unpaired[q];
    if (unpaired)
        fprintf(md, "- not paired (quick): the leaders of %d of %d problems; only the headline's leader was "
                    "timed paired, so the kept values stand there unchallenged (a full `gpuprobe tune` pairs every "
                    "leader)\n",
                unpaired, g->nproblems);
    fprintf(md, "\n");
    fprintf(md, "| problem | rule ms (sweep) | best candidate | best ms (sweep) | paired rule / best (p10-p90, "
                "rounds) | kept ms | near ties |\n| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
    for (int q = 0; q < g->nproblems; q++) {
        const gp_summary *r = &g->ms[0][q], *kept = &g->ms[c][q], *best = &g->ms[p->best[q]][q];
        const gp_tune_paired *pr = &g->pair[p->best[q]][q];
        char paired[96] = "the rule leads", ties[16];
        if (p->unpaired[q])
            snprintf(paired, sizeof paired, "not paired (quick)");
        else if (p->best[q] != 0)
            snprintf(paired, sizeof paired, "%.3f (%.3f-%.3f, %d ABBA)", pr->ratio.median, pr->ratio.p10,
                     pr->ratio.p90, pr->rounds);
        snprintf(ties, sizeof ties, p->unpaired[q] ? "-" : "%d", p->near_tie[q]);
        fprintf(md, "| %s%s | %.4f | `%s` | %.4f | %s | %.4f | %s |\n", problems[q], q == h ? " (headline)" : "",
                r->median, texts[p->best[q]], best->median, paired, kept->median, ties);
    }
}

/* The median of the problem's gpuprobe row of one bench run (0: none). */
static double problem_ms(const gp_bench *b, const char *problem)
{
    for (int i = 0; i < b->nrows; i++)
        if (!b->rows[i].is_baseline && !strcmp(b->rows[i].problem, problem))
            return b->rows[i].ms.median;
    return 0;
}

/* Leader c against the rule (candidate 0), paired: rounds of whole bench
 * runs in the order c, rule, rule, c (ABBA: drift linear in time cancels
 * from each round's ratio), every problem at full size; each run's time of
 * a problem is the median of its event-timed repeats.  Fills g->pair[c][*]. */
static gp_status tune_pair(const gp_kernel *k, gp_table *cands, char texts[][GP_BENCH_TEXT], int c,
                           char problems[][GP_BENCH_TEXT], const gp_kernel_opts *o, gp_bench *b, gp_tune_grid *g)
{
    const int rounds = o->quick ? 2 : 5;
    static double a_ms[GP_TUNE_MAX_PROBLEMS][2 * 5], b_ms[GP_TUNE_MAX_PROBLEMS][2 * 5];
    static const int order[4] = {1, 0, 0, 1}; /* 1: the leader (A), 0: the rule (B) */
    for (int r = 0; r < rounds; r++)
        for (int s = 0; s < 4; s++) {
            int who = order[s] ? c : 0;
            memset(b, 0, sizeof *b);
            GP_TRY(k->bench(&cands[who], texts[who], 0, o, b));
            for (int q = 0; q < g->nproblems; q++) {
                double ms = problem_ms(b, problems[q]);
                if (!(ms > 0))
                    return gp_fail(GP_ERR_CHECK, "tune %s: paired run of `%s` has no time for %s", k->name,
                                   texts[who], problems[q]);
                int slot = 2 * r + (s == 0 || s == 1 ? 0 : 1);
                if (order[s])
                    a_ms[q][slot] = ms;
                else
                    b_ms[q][slot] = ms;
            }
        }
    for (int q = 0; q < g->nproblems; q++) {
        static gp_bench_paired pr;
        GP_TRY(gp_bench_pair_ratios(a_ms[q], b_ms[q], rounds, &pr));
        gp_tune_paired *t = &g->pair[c][q];
        t->rounds = pr.rounds, t->ratio = pr.ratio_s, t->cand_ms = pr.a_median_ms, t->rule_ms = pr.b_median_ms;
        fprintf(stderr, "[%s] paired `%s` vs the rule on %s: rule / it = %.3f (%.3f-%.3f), %d ABBA rounds\n",
                k->name, texts[c], problems[q], pr.ratio_s.median, pr.ratio_s.p10, pr.ratio_s.p90, pr.rounds);
    }
    return gp_ok();
}

static gp_status tune_one(const gp_kernel *k, gp_table *base, const gp_kernel_opts *o, gp_bench *b, FILE *md)
{
    char section[64], date[16], prov[GP_TABLE_PROV_LEN];
    snprintf(section, sizeof section, "kernel.%s", k->name);
    /* Candidate 0 is the rule's choice on this table's facts. */
    gp_rule_in in = {base, NULL, 1};
    GP_TRY(k->rule(&in, base));
    gp_table *cands = calloc(GP_TUNE_MAX, sizeof *cands);
    gp_tune_grid *g = calloc(1, sizeof *g);
    char(*problems)[GP_BENCH_TEXT] = calloc(GP_TUNE_MAX_PROBLEMS, GP_BENCH_TEXT);
    char(*texts)[GP_BENCH_TEXT] = calloc(GP_TUNE_MAX, GP_BENCH_TEXT);
    gp_status st = cands && g && problems && texts ? gp_ok()
                                                   : gp_fail(GP_ERR_NOMEM, "out of host memory for tuning candidates");
    int n = 0;
    double t_start = gp_harness_monotonic_s(NULL);
    if (st.code == GP_OK)
        st = k->candidates(base, &o->dev, cands, GP_TUNE_MAX, &n);
    for (int i = 0; i < n && st.code == GP_OK; i++) {
        kernel_params_text(&cands[i], section, texts[i], GP_BENCH_TEXT);
        fprintf(stderr, "[%s] candidate %d of %d: %s\n", k->name, i + 1, n, texts[i]);
        memset(b, 0, sizeof *b);
        st = k->bench(&cands[i], texts[i], 0, o, b);
        if (st.code != GP_OK)
            break;
        g->ncands = i + 1;
        tune_fill(g, problems, i, b);
    }
    gp_tune_pick pick;
    double t_sweep = gp_harness_monotonic_s(NULL);
    int npaired = 0;
    g->quick = o->quick;
    if (st.code == GP_OK)
        st = gp_tune_leaders(g, &pick);
    /* The leaders, each paired with the rule on every problem. */
    int lead[GP_TUNE_MAX_PROBLEMS];
    if (st.code == GP_OK)
        npaired = gp_tune_to_pair(g, &pick, lead);
    for (int i = 0; i < npaired && st.code == GP_OK; i++)
        st = tune_pair(k, cands, texts, lead[i], problems, o, b, g);
    if (st.code == GP_OK)
        st = gp_tune_decide(g, &pick);
    if (st.code == GP_OK) {
        int h = pick.headline, c = pick.chosen, unpaired = 0;
        /* What the sweep and the pairing cost, for the test workflow's budget. */
        fprintf(stderr, "[%s] tune time: sweep of %d candidates %.1f s, %d leader(s) paired %.1f s%s\n", k->name,
                g->ncands, t_sweep - t_start, npaired, gp_harness_monotonic_s(NULL) - t_sweep,
                o->quick ? " (quick: the headline's leader only)" : "");
        for (int q = 0; q < g->nproblems; q++) {
            char paired[64] = "not paired (quick)";
            unpaired += pick.unpaired[q];
            if (!pick.unpaired[q])
                snprintf(paired, sizeof paired, "%.3f (%.3f-%.3f)",
                         pick.best[q] ? g->pair[pick.best[q]][q].ratio.median : 1.0, pick.tie_lo[q], pick.tie_hi[q]);
            printf("| %s | %s | rule %.4f | best %.4f (%s) | paired rule/best %s |\n", k->name, problems[q],
                   g->ms[0][q].median, g->ms[pick.best[q]][q].median, texts[pick.best[q]], paired);
        }
        tune_report(md, k, g, &pick, problems, texts);
        if (c != 0) {
            const gp_tune_paired *pr = &g->pair[c][h];
            char quick[48] = ""; /* early in the text: a long rule choice below may be cut */
            if (unpaired)
                snprintf(quick, sizeof quick, " (%d problem(s) not paired (quick))", unpaired);
            gp_fs_today(date);
            snprintf(prov, sizeof prov,
                     "swept %s %s%s: for %.60s: %.4f ms vs the rule's %.4f ms (%s), paired %.3fx (%.3f-%.3f, %d ABBA)",
                     k->name, date, quick, problems[h], pr->cand_ms, pr->rule_ms, texts[0], pr->ratio.median,
                     pr->ratio.p10, pr->ratio.p90, pr->rounds);
            for (size_t i = 0; i < gp_table_nkeys() && st.code == GP_OK; i++) {
                const gp_table_key *key = gp_table_key_at(i);
                const gp_table_entry *e = gp_table_find(&cands[c], key->section, key->key);
                if (!strcmp(key->section, section) && e && !e->is_none)
                    st = gp_table_set(base, key->section, key->key, e->d, prov);
            }
        }
        fprintf(stderr, "[%s] kept: %s (%s on %s)\n", k->name, texts[c], c ? "swept" : "the rule's", problems[h]);
    }
    free(cands);
    free(g);
    free(problems);
    free(texts);
    return st;
}

gp_status gp_cmd_tune(const gp_cli *cli, const char *tables_dir)
{
    gp_kernel_opts o;
    labelled_table *tables;
    int nt;
    if (cli->ntables > 1)
        return gp_fail(GP_ERR_USAGE, "tune takes at most one --table (the base it improves)");
    GP_TRY(open_kernels(cli, tables_dir, &o, &tables, &nt));
    gp_bench *b = calloc(1, sizeof *b);
    if (!b) {
        free(tables);
        return gp_fail(GP_ERR_NOMEM, "out of host memory for bench results");
    }
    gp_table *base = &tables[0].t;
    gp_status st = gp_ok();
    printf("| kernel | problem | rule ms | best ms (candidate) | paired rule / best (p10-p90) |\n"
           "| --- | --- | ---: | --- | ---: |\n");
    char mdpath[1024];
    FILE *md = NULL;
    if (gp_fs_mkdirs(cli->out_dir).code == GP_OK && gp_fs_join(mdpath, sizeof mdpath, cli->out_dir, "rules.md").code == GP_OK)
        md = fopen(mdpath, "w");
    if (md)
        fprintf(md, "# Rule, tuned and best candidate per problem\n\nWritten by `gpuprobe tune` (median ms of "
                    "event-timed repeats per candidate and problem, full size; each problem's leader is then timed "
                    "paired with the rule, ABBA rounds of whole bench runs, and replaces the rule's choice only "
                    "where the ratio rule / leader has p10 > 1 on the headline problem and p90 >= 1 on every "
                    "other).\n");
    if (md && cli->quick)
        fprintf(md, "\nQuick (`--quick`): quick bench problems and timings, and only each kernel's headline "
                    "problem's leader is timed paired (2 ABBA rounds); another problem whose own leader differs "
                    "says \"not paired (quick)\": that leader was not timed against the rule, so the problem has "
                    "no near-tie range.\n");
    for (int i = 0; i < cli->nprobes && st.code == GP_OK; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        if (!k->candidates) {
            fprintf(stderr, "[%s] no candidates: not tunable, table values kept\n", k->name);
            continue;
        }
        st = tune_one(k, base, &o, b, md);
    }
    if (md) {
        fclose(md);
        fprintf(stderr, "rules, tuned and best candidates: %s\n", mdpath);
    }
    if (st.code == GP_OK) {
        char path[1024];
        st = gp_fs_mkdirs(results_dir(cli));
        if (st.code == GP_OK)
            st = gp_fs_join(path, sizeof path, results_dir(cli), GP_TABLE_RESULTS_NAME);
        if (st.code == GP_OK)
            st = gp_table_write(base, path);
        if (st.code == GP_OK)
            fprintf(stderr, "tuned table: %s\n", path);
    }
    free(b);
    free(tables);
    return st;
}
