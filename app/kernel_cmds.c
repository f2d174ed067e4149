#include "kernel_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "kernel.h"
#include "kutil.h"
#include "table.h"

typedef struct labelled_table {
    gp_table t;
    char label[GP_BENCH_TEXT];
} labelled_table;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "measured", "shipped sm_90", "generic", "mistuned gfx900" */
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
    else
        snprintf(lt->label, sizeof lt->label, "shipped %s", a);
}

static gp_status lookup_table(const gp_cli *cli, const gp_device_info *dev, const char *tables_dir,
                              labelled_table *lt)
{
    char chosen[GP_TABLE_PATH_LEN];
    GP_TRY(gp_table_lookup(cli->out_dir, tables_dir, dev->arch, &lt->t, chosen, sizeof chosen));
    fprintf(stderr, "table: %s (lookup for %s: measured in %s, else shipped, else generic)\n", chosen,
            dev->arch, cli->out_dir);
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
    GP_TRY(gp_rt_device_open(cli->device, &o->dev));
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
    if (!b) {
        free(tables);
        return gp_fail(GP_ERR_NOMEM, "out of host memory for bench results");
    }
    fprintf(stderr, "bench on %s (%s)\n", o.dev.name, o.dev.arch);
    gp_status first = gp_ok();
    for (int i = 0; i < cli->nprobes && first.code == GP_OK; i++) {
        const gp_kernel *k = gp_kernel_find(cli->probes[i]);
        for (int j = 0; j < nt; j++) {
            fprintf(stderr, "[%s] table %s: ", k->name, tables[j].label);
            gp_status st = k->print_params(&tables[j].t, &o.dev, stderr);
            if (st.code == GP_OK)
                st = k->bench(&tables[j].t, tables[j].label, j == 0, &o, b);
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
    free(b);
    free(tables);
    return first;
}
