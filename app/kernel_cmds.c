/* `gpuprobe verify|bench|tune KERNEL...`: the command line over the kernel
 * driver (kernels/driver.h) and tune (kernels/tune.h).  Every argument (the
 * tables, the shapes, --out) is checked before a GPU is looked for, so a
 * mistyped path is exit 2 on any machine, never a skip. */
#include "kernel_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "data.h"
#include "driver.h"
#include "fsutil.h"
#include "harness.h"
#include "kernel.h"
#include "table.h"
#include "target_check.h"
#include "tune.h"

typedef struct labelled_table {
    gp_table t;
    char label[GP_BENCH_TEXT];
    const char *path;  /* as named (NULL: the device's lookup, found once the device is open) */
    int mistuned;
} labelled_table;

typedef struct kernel_run {
    gp_kernel_opts o;
    labelled_table tables[2 * GP_CLI_MAX_TABLES];
    int ntables;
    gp_shape shapes[GP_CLI_MAX_SHAPES];
    gp_verify_seen seen; /* verify: the variants checked so far, per kernel */
} kernel_run;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "measured sm_90", "shipped sm_90", "generic", "mistuned gfx900"; a table
 * file of another name is labelled by its name ("rule_only sm_90"), so the
 * rule-only, tuned and shipped tables of one device tell apart in a bench. */
static void label_table(labelled_table *lt, const char *path)
{
    const gp_table_entry *arch = gp_table_find(&lt->t, "device", "arch");
    const char *a = arch ? arch->text : "?";
    if (lt->mistuned)
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

/* A named table, loaded and checked (every kernel's section too) before any
 * GPU is looked for. */
static gp_status load_named(labelled_table *lt, const char *path, int mistuned)
{
    lt->path = path, lt->mistuned = mistuned;
    GP_TRY(gp_table_load(path, &lt->t));
    GP_TRY(gp_kernel_check_tables(&lt->t, path));
    label_table(lt, path);
    return gp_ok();
}

/* The tables in command-line order: --table FILE (`lookup`: the device's own,
 * found later), then --mistuned FILE; none named: the lookup alone. */
static gp_status collect_tables(const gp_cli *cli, kernel_run *r)
{
    r->ntables = 0;
    if (cli->ntables == 0)
        r->tables[r->ntables++].path = NULL;
    for (int i = 0; i < cli->ntables; i++) {
        labelled_table *lt = &r->tables[r->ntables++];
        if (!strcmp(cli->tables[i], "lookup"))
            lt->path = NULL;
        else
            GP_TRY(load_named(lt, cli->tables[i], 0));
    }
    for (int i = 0; i < cli->nmistuned; i++)
        GP_TRY(load_named(&r->tables[r->ntables++], cli->mistuned[i], 1));
    return gp_ok();
}

/* With the device open: the lookups found, and every named table's arch
 * checked against the device (a mistuned one is another arch on purpose). */
static gp_status resolve_tables(const gp_cli *cli, const char *tables_dir, kernel_run *r)
{
    for (int i = 0; i < r->ntables; i++) {
        labelled_table *lt = &r->tables[i];
        if (!lt->path) {
            char chosen[GP_TABLE_PATH_LEN];
            GP_TRY(gp_table_lookup(results_dir(cli), tables_dir, r->o.dev.arch, &lt->t, chosen, sizeof chosen));
            GP_TRY(gp_kernel_check_tables(&lt->t, chosen));
            fprintf(stderr, "table: %s (lookup for %s: measured in %s, else shipped, else generic)\n", chosen,
                    r->o.dev.arch, results_dir(cli));
            label_table(lt, chosen);
            continue;
        }
        const gp_table_entry *arch = gp_table_find(&lt->t, "device", "arch");
        if (!lt->mistuned && strcmp(arch->text, r->o.dev.arch) && strcmp(arch->text, GP_TABLE_GENERIC_ARCH))
            return gp_fail(GP_ERR_USAGE, "%s: table written for %s, this GPU is %s (--mistuned FILE uses it on "
                           "purpose)", lt->path, arch->text, r->o.dev.arch);
    }
    return gp_ok();
}

/* --shape SPEC, in the one kernel's own syntax (cli.c allows one kernel). */
static gp_status parse_shapes(const gp_cli *cli, kernel_run *r)
{
    if (cli->nshapes == 0)
        return gp_ok();
    const gp_kernel *k = gp_kernel_find(cli->probes[0]);
    for (int i = 0; i < cli->nshapes; i++) {
        gp_status st = k->shape_parse(cli->shapes[i], &r->shapes[i]);
        if (st.code != GP_OK)
            return gp_fail(GP_ERR_USAGE, "--shape '%s': %s (%s takes %s)", cli->shapes[i], st.msg, k->name,
                           k->shape_syntax);
    }
    return gp_ok();
}

/* --out names a folder (made when absent) or nothing yet: not a file. */
static gp_status check_out(const gp_cli *cli)
{
    if (cli->out_given && gp_fs_exists(cli->out_dir) && !gp_fs_is_dir(cli->out_dir))
        return gp_fail(GP_ERR_USAGE, "--out '%s' is not a directory", cli->out_dir);
    return gp_ok();
}

static gp_status open_run(const gp_cli *cli, const char *tables_dir, kernel_run **out)
{
    kernel_run *r = calloc(1, sizeof *r);
    if (!r)
        return gp_fail(GP_ERR_NOMEM, "out of host memory for tables");
    *out = r;
    GP_TRY(check_out(cli));
    GP_TRY(parse_shapes(cli, r));
    GP_TRY(collect_tables(cli, r));
    GP_TRY(gp_device_open_checked(cli->device, &r->o.dev));
    r->o.quick = cli->quick;
    r->o.seed = cli->have_seed ? cli->seed : gp_fresh_seed();
    r->o.log = stderr;
    r->o.budget_s = cli->budget_s;
    return resolve_tables(cli, tables_dir, r);
}

static void print_params(const gp_kernel *k, const labelled_table *lt, const gp_device_info *dev)
{
    char note[GP_BENCH_TEXT], text[2 * GP_BENCH_TEXT];
    void *p = calloc(1, k->params_size);
    if (p && gp_kernel_params(k, &lt->t, dev, NULL, 1, p, note, sizeof note).code == GP_OK) {
        gp_kernel_params_text(k, p, text, sizeof text);
        fprintf(stderr, "[%s] table %s: %s\n", k->name, lt->label, text);
    }
    free(p);
}

/* --random-shapes N: kernel k's N shapes after the --shape ones, drawn
 * from the run's seed and the kernel's name (so each kernel of a run gets
 * its own, and --seed replays them all); printed so a failure names them. */
static int draw_shapes(const gp_cli *cli, const gp_kernel *k, uint64_t seed, gp_shape *shapes)
{
    int n = cli->nshapes;
    if (!cli->random_shapes)
        return n;
    uint64_t rng = seed;
    for (const char *c = k->name; *c; c++)
        rng = (rng ^ (unsigned char)*c) * 1099511628211ull;
    fprintf(stderr, "[%s] %d random shapes (seed %llu):", k->name, cli->random_shapes, (unsigned long long)seed);
    for (int i = 0; i < cli->random_shapes; i++, n++) {
        char label[GP_BENCH_TEXT];
        k->shape_random(&rng, &shapes[n]);
        k->shape_label(&shapes[n], label, sizeof label);
        fprintf(stderr, "%s '%s'", i ? "," : "", label);
    }
    fprintf(stderr, "\n");
    return n;
}

void gp_cmd_cache_table(const gp_cli *cli, const gp_device_info *dev, const char *table)
{
    char stored[1024];
    const char *off = getenv("GP_NO_CACHE");
    if (cli->quick || (off && *off && strcmp(off, "0")))
        return;
    gp_status st = gp_context_cache_store(NULL, dev, table, stored, sizeof stored);
    if (st.code == GP_OK)
        fprintf(stderr, "per-device cache: %s (what the library takes on this GPU; GP_NO_CACHE=1 skips it)\n",
                stored);
    else
        fprintf(stderr, "per-device cache: not written: %s\n", st.msg);
}

gp_status gp_cmd_verify(gp_cli *cli)
{
    const char *tables_dir = cli->tables_found;
    kernel_run *r = NULL;
    gp_status first = open_run(cli, tables_dir, &r);
    if (first.code != GP_OK) {
        free(r);
        return first;
    }
    fprintf(stderr, "verify on %s (%s), seed %llu (replay: --seed %llu)\n", r->o.dev.name, r->o.dev.arch, r->o.seed,
            r->o.seed);
    for (int i = 0; i < cli->nprobes; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        const int nshapes = draw_shapes(cli, k, r->o.seed, r->shapes);
        r->seen.n = 0; /* a variant checked under one table is not checked again under the next */
        for (int j = 0; j < r->ntables; j++) {
            print_params(k, &r->tables[j], &r->o.dev);
            gp_status st = gp_driver_verify_seen(k, &r->tables[j].t, r->shapes, nshapes, &r->o, &r->seen);
            if (st.code == GP_OK) {
                printf("%s under %s: ok\n", k->name, r->tables[j].label);
                continue;
            }
            printf("%s under %s: FAILED: %s\n", k->name, r->tables[j].label, st.msg);
            if (first.code == GP_OK)
                first = st;
            if (st.code != GP_ERR_CHECK)
                break; /* a runtime error poisons the context: stop */
        }
    }
    free(r);
    return first;
}

static gp_status write_bench_csv(const gp_cli *cli, const gp_bench *b)
{
    char path[1024], name[256] = "bench";
    for (int i = 0; i < cli->nprobes; i++) /* bench_ssim_conv2d.csv: runs do not overwrite each other */
        snprintf(name + strlen(name), sizeof name - strlen(name), "_%s", cli->probes[i]);
    snprintf(name + strlen(name), sizeof name - strlen(name), "%s.csv", cli->nshapes ? "_shapes" : "");
    GP_TRY(gp_fs_mkdirs(cli->out_dir));
    GP_TRY(gp_fs_join(path, sizeof path, cli->out_dir, name));
    GP_TRY(gp_bench_write_csv(b, path));
    fprintf(stderr, "bench results: %s\n", path);
    return gp_ok();
}

static gp_status bench_kernels(const gp_cli *cli, const char *tables_dir, kernel_run *r, gp_table *facts,
                               gp_bench *b)
{
    /* Floors from this device's own facts only (another GPU's table: none). */
    char chosen[GP_TABLE_PATH_LEN] = "", why[256] = "";
    GP_TRY(gp_table_lookup(results_dir(cli), tables_dir, r->o.dev.arch, facts, chosen, sizeof chosen));
    if (!gp_table_keep_own_facts(facts, r->o.dev.name, why, sizeof why))
        fprintf(stderr, "floors: %s: %s; floors use what this device reports (bus width x memory clock, its "
                        "clock and CU count) or are unknown (run gpuprobe characterize)\n", chosen, why);
    gp_driver_table dt[2 * GP_CLI_MAX_TABLES];
    for (int j = 0; j < r->ntables; j++)
        dt[j].t = &r->tables[j].t, dt[j].label = r->tables[j].label;
    for (int i = 0; i < cli->nprobes; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        for (int j = 0; j < r->ntables; j++)
            print_params(k, &r->tables[j], &r->o.dev);
        gp_status st = gp_driver_bench(k, facts, dt, r->ntables, r->shapes, cli->nshapes, &r->o, b);
        if (st.code != GP_OK) {
            fprintf(stderr, "%s: FAILED: %s\n", k->name, st.msg);
            return st;
        }
    }
    return gp_ok();
}

gp_status gp_cmd_bench(gp_cli *cli)
{
    const char *tables_dir = cli->tables_found;
    kernel_run *r = NULL;
    gp_status st = open_run(cli, tables_dir, &r);
    gp_bench *b = calloc(1, sizeof *b);
    gp_table *facts = malloc(sizeof *facts);
    if (st.code == GP_OK && (!b || !facts))
        st = gp_fail(GP_ERR_NOMEM, "out of host memory for bench results");
    if (st.code == GP_OK) {
        fprintf(stderr, "bench on %s (%s); floors from this device's own table, parameters from each table\n",
                r->o.dev.name, r->o.dev.arch);
        st = bench_kernels(cli, tables_dir, r, facts, b);
        printf("\n");
        gp_bench_print_markdown(b, stdout);
        if (cli->out_given && b->nrows > 0) {
            gp_status w = write_bench_csv(cli, b);
            if (st.code == GP_OK)
                st = w;
        }
    }
    free(facts);
    free(b);
    free(r);
    return st;
}

static FILE *open_rules_md(const gp_cli *cli, char *path, size_t n)
{
    FILE *md = NULL;
    if (gp_fs_mkdirs(cli->out_dir).code == GP_OK && gp_fs_join(path, n, cli->out_dir, "rules.md").code == GP_OK)
        md = fopen(path, "w");
    if (!md)
        return NULL;
    fprintf(md, "# Rule, tuned and best candidate per problem\n\nWritten by `gpuprobe tune` (median ms of event-timed "
                "repeats per candidate and problem, full size, each candidate's output checked once per problem; "
                "each problem's leader is then timed paired with the rule, ABBA rounds of single runs, and replaces "
                "the rule's choice only where the ratio rule / leader has p10 > 1 on the headline problem and p90 "
                ">= 1 on every other).  Each kernel's tune keeps to a time budget (`--budget`): a tight one makes "
                "the figures coarser, never the comparison one-sided.\n");
    if (cli->quick)
        fprintf(md, "\nQuick (`--quick`): quick bench problems and timings, and only each kernel's headline "
                    "problem's leader is timed paired; another problem whose own leader differs says \"not paired "
                    "(quick)\": that leader was not timed against the rule, so the problem has no near-tie range.\n");
    return md;
}

gp_status gp_cmd_tune(gp_cli *cli)
{
    const char *tables_dir = cli->tables_found;
    if (cli->ntables > 1)
        return gp_fail(GP_ERR_USAGE, "tune takes at most one --table (the base it improves)");
    kernel_run *r = NULL;
    gp_status st = open_run(cli, tables_dir, &r);
    if (st.code != GP_OK) {
        free(r);
        return st;
    }
    gp_table *base = &r->tables[0].t;
    printf("| kernel | problem | rule ms | best ms (candidate) | paired rule / best (p10-p90) |\n"
           "| --- | --- | ---: | --- | ---: |\n");
    char mdpath[1024];
    FILE *md = open_rules_md(cli, mdpath, sizeof mdpath);
    double t0 = gp_harness_monotonic_s(NULL);
    for (int i = 0; i < cli->nprobes && st.code == GP_OK; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        if (k->nvariants == 0) {
            fprintf(stderr, "[%s] no variants: not tunable, table values kept\n", k->name);
            continue;
        }
        fprintf(stderr, "tune: kernel %d of %d (%s), %.0f s so far\n", i + 1, cli->nprobes, k->name,
                gp_harness_monotonic_s(NULL) - t0);
        st = gp_tune_kernel(k, base, r->shapes, cli->nshapes, &r->o, md, stdout);
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
        if (st.code == GP_OK) {
            fprintf(stderr, "tuned table: %s (%.0f s in all)\n", path, gp_harness_monotonic_s(NULL) - t0);
            gp_cmd_cache_table(cli, &r->o.dev, path);
        }
    }
    free(r);
    return st;
}
