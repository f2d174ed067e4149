/* gpuprobe: the command-line front end. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "characterize.h"
#include "cli.h"
#include "compare_cmd.h"
#include "ctest_env.h"
#include "device_id.h"
#include "fsutil.h"
#include "gp_build_info.h"
#include "derive.h"
#include "fleet_cmd.h"
#include "kernel.h"
#include "kernel_cmds.h"
#include "node_cmd.h"
#include "probe.h"
#include "report.h"
#include "resources_cmd.h"
#include "resume.h"
#include "runtime.h"
#include "table.h"
#include "tables_dir.h"
#include "target_check.h"

static void print_info(const gp_device_info *d)
{
    printf("name                 %s\n", d->name);
    printf("vendor               %s\n", d->vendor);
    printf("arch                 %s\n", d->arch);
    printf("pci_bus_id           %s\n", d->pci_bus_id[0] ? d->pci_bus_id : "none (not reported by the runtime)");
    printf("uuid                 %s (%s)\n", d->uuid[0] ? d->uuid : "none", d->uuid_source);
    char folder[64];
    gp_device_folder_name(d->pci_bus_id, d->uuid, d->index, folder, sizeof folder);
    printf("folder               %s (run/characterize --device %d --out DIR write DIR/%s)\n", folder, d->index,
           folder);
    printf("compute_units        %d\n", d->compute_units);
    printf("wave_size            %d\n", d->wave_size);
    printf("max_threads_block    %d\n", d->max_threads_per_block);
    printf("max_threads_cu       %d\n", d->max_threads_per_cu);
    printf("lds_per_block        %zu\n", d->lds_per_block);
    printf("lds_per_block_optin  %zu\n", d->lds_per_block_optin);
    printf("lds_per_cu           %zu\n", d->lds_per_cu);
    printf("regs_per_block       %d\n", d->regs_per_block);
    printf("regs_per_cu          %d\n", d->regs_per_cu);
    printf("l2_bytes             %zu\n", d->l2_bytes);
    printf("mem_bytes            %zu\n", d->mem_bytes);
    printf("mem_bus_bits         %d\n", d->mem_bus_bits);
    printf("mem_clock_mhz        %.0f\n", d->mem_clock_mhz);
    printf("core_clock_mhz       %.0f (reported maximum)\n", d->core_clock_mhz);
    printf("timer_hz             %.0f\n", d->timer_hz);
    printf("timer_source         %s\n", d->timer_source);
    printf("backend              %s (device code for %s)\n", gp_rt_backend(), gp_rt_compiled_archs());
}

/* Commands that build a table need the shipped tables: say so before any work. */
/* characterize's kernel rules: every kernel's rule on the run's facts, with
 * resource use read from the device the probes just ran on. */
static gp_status kernel_rules_live(const gp_table *facts, gp_table *out) { return gp_kernel_rules_apply(facts, 1, out); }

/* `report DIR` rebuilds the table from records that may come from another
 * GPU (or none is open here): resource use from the build constants, which
 * tests/build/check_gpu_build.sh holds to ptxas, so the same records give the same
 * table on every build and machine. */
static gp_status kernel_rules_records(const gp_table *facts, gp_table *out)
{
    return gp_kernel_rules_apply(facts, 0, out);
}

static gp_status check_tables_dir(const char *dir, gp_tables_from from)
{
    if (from == GP_TABLES_FROM_NONE)
        return gp_fail(GP_ERR_IO, "no tables directory: give --tables DIR or set GP_TABLES_DIR (the tables/ "
                                  "folder of the sources, or share/gpuprobe/tables of an install)");
    if (!gp_fs_is_dir(dir))
        return gp_fail(GP_ERR_IO, "tables directory '%s' does not exist or is not a directory (from %s)",
                       dir, gp_tables_from_name(from));
    return gp_ok();
}

/* Open the GPU of --device.  A GPU chosen by number writes into its own
 * folder under --out (app/node_cmd.h): cli->out_dir becomes that folder
 * (held in dir, size n).  Under a node run the child names its GPU to the
 * parent (GP_NODE_ENTRY), also when the GPU opens but this binary cannot
 * run on it. */
static gp_status open_device(gp_cli *cli, gp_device_info *dev, char *dir, size_t n)
{
    memset(dev, 0, sizeof *dev);
    gp_status st = gp_device_open_checked(cli->device, dev);
    char folder[64] = "";
    if (st.code == GP_OK && cli->device_mode == GP_DEVICE_ONE) {
        st = gp_node_gpu_dir(cli->out_dir, dev, dir, n);
        if (st.code == GP_OK)
            st = gp_fs_check_writable(dir);
        if (st.code == GP_OK) {
            gp_fs_base_name(folder, sizeof folder, dir);
            fprintf(stderr, "device %d: %s, bus %s, %s: records in %s\n", dev->index, dev->name,
                    dev->pci_bus_id[0] ? dev->pci_bus_id : "not reported", dev->uuid[0] ? dev->uuid : "no uuid", dir);
            cli->out_dir = dir;
        }
    }
    const char *entry = getenv(GP_NODE_ENTRY_ENV);
    if (entry && entry[0] && dev->name[0]) {
        gp_status es = gp_node_entry_write(entry, dev, folder);
        if (es.code != GP_OK)
            fprintf(stderr, "gpuprobe: %s\n", es.msg);
    }
    return st;
}

/* --device all (characterize) or CTest's GPUs (run): each GPU in a child
 * process, then (characterize) DIR/index.md. */
static gp_status run_node(const gp_cli *cli, const char *argv0, const char *tables, const int *ids, int n)
{
    char self[1024], index[1100];
    gp_node_gpu *gpus = calloc((size_t)n, sizeof *gpus);
    if (!gpus)
        return gp_fail(GP_ERR_NOMEM, "no memory for %d GPUs", n);
    gp_node_self(argv0, self, sizeof self);
    gp_status st = gp_node_run_each(self, cli, tables, ids, n, gpus);
    gp_status is = gp_ok();
    if (cli->cmd == GP_CMD_CHARACTERIZE) {
        FILE *f = NULL;
        is = gp_fs_join(index, sizeof index, cli->out_dir, "index.md");
        if (is.code == GP_OK)
            is = gp_fs_open_atomic(index, &f);
        if (is.code == GP_OK) {
            gp_node_index_write(f, gpus, n, GP_BUILD_LINE);
            is = gp_fs_commit(f, index);
        }
        if (is.code == GP_OK)
            fprintf(stderr, "characterize: %s written (%d GPUs)\n", index, n);
    }
    free(gpus);
    return st.code != GP_OK ? st : is;
}

static gp_status run_probes(const gp_cli *cli, const char **names, int n)
{
    gp_probe_opts opts = {cli->device, cli->quick, cli->out_dir, GP_VERSION, GP_BUILD_LINE};
    int failed = 0;
    gp_status first_fail = gp_ok();
    /* No GPU: say only that (main prints it), before any "running" line. */
    int count = 0;
    GP_TRY(gp_rt_device_count(&count));
    for (int i = 0; i < n; i++) {
        const gp_probe *p = gp_probe_find(names[i]);
        gp_record rec;
        memset(&rec, 0, sizeof rec);
        fprintf(stderr, "[%s] running (%d of %d)\n", p->name, i + 1, n);
        gp_status st = gp_probe_execute(p, &opts, &rec);
        int noise = gp_record_noise(&rec, NULL);
        if (noise & GP_NOISE_CLOCK) /* the record and the report flag it too */
            printf("%s: flagged: the clock moved during the probe (%.0f -> %.0f MHz)\n", p->name,
                   rec.clock_before.measured_mhz, rec.clock_after.measured_mhz);
        if (noise & GP_NOISE_SHARED)
            printf("%s: flagged: %d other process(es) used the GPU during the probe\n", p->name,
                   gp_record_other_processes(&rec));
        if (st.code == GP_OK) {
            printf("%s: ok (%s/%s.md)\n", p->name, cli->out_dir, p->name);
            for (int v = 0; v < rec.nvalues; v++) {
                const gp_value *val = &rec.values[v];
                if (val->detected)
                    printf("  %-32s %12.6g %s\n", val->key, val->value, val->unit);
                else
                    printf("  %-32s %12s (%s)\n", val->key, "none", val->note);
            }
        } else if (st.code == GP_ERR_NO_GPU) {
            gp_record_free(&rec);
            return st; /* said once by main() */
        } else {
            fprintf(stderr, "%s: FAILED: %s\n", p->name, st.msg);
            if (!failed++)
                first_fail = st;
        }
        gp_record_free(&rec);
    }
    return first_fail;
}

/* The results steps over a folder of records: the tuning table, then the
 * report (which shows the table), both written into `out` (the records'
 * own folder, or another: a comparison, a copy) and drawn beside the
 * records of `against` (may be NULL).  Everything is read and checked
 * before anything is written, and the table and the report's files go in
 * together or not at all: a bad record, base table or --out leaves every
 * folder as it was. */
static gp_status table_then_report_to(const char *dir, const char *out, const char *against, const char *tables,
                                      gp_char_rules_fn rules)
{
    char *text = NULL, base[1024] = "";
    gp_status st = gp_characterize_text(dir, tables, rules, &text, base, sizeof base, stderr);
    gp_report_opts o = {against, tables, NULL, text};
    if (st.code == GP_OK)
        st = gp_report_write_opts(dir, out, &o);
    free(text);
    if (st.code == GP_OK)
        fprintf(stderr, "table: %s/table.txt written (base: %s)\nreport: %s/report.html and report.md written\n", out,
                base, out);
    return st;
}

static gp_status table_then_report(const char *dir, const char *tables)
{
    return table_then_report_to(dir, dir, NULL, tables, kernel_rules_live);
}

/* selftest: what `ctest -L microbench` checks, from an installed binary:
 * every probe with its own checks, the table and the report, the table
 * checked, then every kernel verified under the measured table. */
static gp_status selftest(gp_cli *cli, const char *tables)
{
    const char *all[GP_CLI_MAX_PROBES];
    int n = 0;
    for (size_t i = 0; i < gp_probe_count() && n < GP_CLI_MAX_PROBES; i++)
        all[n++] = gp_probe_at(i)->name;
    gp_status st = run_probes(cli, all, n);
    if (st.code != GP_OK)
        return st;
    GP_TRY(table_then_report(cli->out_dir, tables));
    char table[1100];
    GP_TRY(gp_fs_join(table, sizeof table, cli->out_dir, "table.txt"));
    GP_TRY(gp_table_check_file(table));
    printf("selftest: %d probes ok; %s checked\n", n, table);
    cli->nprobes = 0;
    for (size_t i = 0; i < gp_kernel_count() && cli->nprobes < GP_CLI_MAX_PROBES; i++)
        cli->probes[cli->nprobes++] = gp_kernel_at(i)->name;
    GP_TRY(gp_cmd_verify(cli, tables));
    printf("selftest: ok (%d probes, %d kernels; records, table and report in %s)\n", n, cli->nprobes,
           cli->out_dir);
    return gp_ok();
}

int main(int argc, char **argv)
{
    gp_cli cli;
    if (argc >= 2 && !strcmp(argv[1], "compare")) /* two results folders: its own options */
        return gp_compare_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "fleet")) /* many results folders: its own options */
        return gp_fleet_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "resources")) /* CTest's resource spec from the device list */
        return gp_resources_main(argc, argv);
    gp_status st = gp_cli_parse(argc, argv, &cli);
    if (st.code != GP_OK) {
        /* A known command's mistake shows that command's lines, not the whole usage. */
        fprintf(stderr, "gpuprobe: %s\n\n", st.msg);
        const char *word = "";
        for (int i = 1; i < argc && !word[0]; i++)
            if (!strcmp(argv[i], "--tables"))
                i++;
            else if (argv[i][0] != '-')
                word = argv[i];
        gp_cli_usage_of(word, stderr);
        return 2;
    }
    char tables[1024];
    gp_tables_from from = gp_tables_dir_find(cli.tables_dir, tables, sizeof tables);
    switch (cli.cmd) {
    case GP_CMD_HELP:
        fputs(gp_cli_usage(), stdout);
        return 0;
    case GP_CMD_VERSION:
        printf("%s\n", GP_BUILD_LINE);
        return 0;
    case GP_CMD_LIST: {
        for (size_t i = 0; i < gp_probe_count(); i++)
            printf("%-20s %s\n", gp_probe_at(i)->name, gp_probe_at(i)->summary);
        printf("\nkernels (verify, bench):\n");
        for (size_t i = 0; i < gp_kernel_count(); i++)
            printf("%-20s %s\n", gp_kernel_at(i)->name, gp_kernel_at(i)->summary);
        return 0;
    }
    case GP_CMD_INFO: {
        /* What this binary is and where its tables are first: both hold
         * without a GPU (then info still exits 77). */
        printf("build                %s\n", GP_BUILD_LINE);
        printf("tables               %s (from %s%s)\n", from == GP_TABLES_FROM_NONE ? "none" : tables,
               gp_tables_from_name(from),
               from != GP_TABLES_FROM_NONE && !gp_fs_is_dir(tables) ? "; not a directory" : "");
        fflush(stdout);
        gp_device_info info;
        st = gp_rt_device_open(cli.device, &info);
        if (st.code == GP_OK) {
            print_info(&info);
            char note[256];
            st = gp_target_check(gp_rt_backend(), gp_rt_compiled_archs(), gp_rt_compiled_ptx(), info.arch, info.name,
                                 note, sizeof note);
            printf("runs here            %s\n", st.code != GP_OK ? "no" : note[0] ? "yes, through the JIT" : "yes");
        }
        break;
    }
    case GP_CMD_RUN: {
        int ids[GP_CTEST_MAX_GPUS], nids = 0;
        if (cli.device_mode == GP_DEVICE_CTEST) {
            /* CTest's GPUs: none without a resource spec (device 0, as always) */
            st = gp_ctest_gpus_env(ids, GP_CTEST_MAX_GPUS, &nids);
            cli.device_mode = nids ? GP_DEVICE_ONE : GP_DEVICE_DEFAULT;
            cli.device = nids ? ids[0] : 0;
        }
        /* A bad --out or a binary without code for this GPU fails now, not after the measurements. */
        if (st.code == GP_OK)
            st = gp_fs_check_writable(cli.out_dir);
        if (st.code == GP_OK && nids > 1) {
            int count = 0;
            st = gp_rt_device_count(&count); /* no GPU: say only that, once */
            if (st.code == GP_OK)
                st = run_node(&cli, argv[0], from == GP_TABLES_FROM_NONE ? "" : tables, ids, nids);
            break;
        }
        char dir[1100];
        gp_device_info dev;
        if (st.code == GP_OK)
            st = open_device(&cli, &dev, dir, sizeof dir);
        if (st.code == GP_OK)
            st = run_probes(&cli, cli.probes, cli.nprobes);
        break;
    }
    case GP_CMD_SELFTEST: {
        gp_device_info dev;
        st = check_tables_dir(tables, from);
        if (st.code == GP_OK)
            st = gp_fs_check_writable(cli.out_dir);
        if (st.code == GP_OK)
            st = gp_device_open_checked(cli.device, &dev);
        if (st.code == GP_OK)
            st = selftest(&cli, tables);
        break;
    }
    case GP_CMD_CHARACTERIZE: {
        const char *all[GP_CLI_MAX_PROBES], *names[GP_CLI_MAX_PROBES];
        int reuse[GP_CLI_MAX_PROBES];
        int nall = 0, n = 0;
        gp_device_info dev;
        for (size_t i = 0; i < gp_probe_count() && nall < GP_CLI_MAX_PROBES; i++)
            all[nall++] = gp_probe_at(i)->name;
        /* launch_rate first: it times the host's launch path, which the other
         * probes' allocations and modules slow down in one process (H200:
         * graph launches 0.68 us after them, 0.50 us in a fresh process as
         * ctest runs it; docs/reports/h200/README.md, the package run). */
        for (int i = 1; i < nall; i++)
            if (!strcmp(all[i], "launch_rate")) {
                memmove(&all[1], &all[0], (size_t)i * sizeof all[0]);
                all[0] = "launch_rate";
                break;
            }
        char dir[1100];
        /* interconnect last: it loads the host's link and memory, which the
         * probes before it should not share. */
        for (int i = 0; i + 1 < nall; i++)
            if (!strcmp(all[i], "interconnect")) {
                memmove(&all[i], &all[i + 1], (size_t)(nall - 1 - i) * sizeof all[0]);
                all[nall - 1] = "interconnect";
                break;
            }
        st = check_tables_dir(tables, from);
        if (st.code == GP_OK)
            st = gp_fs_check_writable(cli.out_dir);
        if (st.code == GP_OK && cli.device_mode == GP_DEVICE_ALL) {
            int count = 0, ids[GP_CTEST_MAX_GPUS];
            st = gp_rt_device_count(&count);
            if (st.code == GP_OK && count > GP_CTEST_MAX_GPUS)
                st = gp_fail(GP_ERR_USAGE, "%d GPUs: more than the %d --device all runs", count, GP_CTEST_MAX_GPUS);
            for (int i = 0; i < count; i++)
                ids[i] = i;
            if (st.code == GP_OK)
                st = run_node(&cli, argv[0], tables, ids, count);
            break;
        }
        if (st.code == GP_OK)
            st = open_device(&cli, &dev, dir, sizeof dir);
        if (st.code != GP_OK)
            break;
        /* Resume: a valid record of this GPU and version stands for its probe. */
        gp_resume_plan(cli.out_dir, all, nall, &dev, GP_VERSION, cli.quick, cli.force, reuse, stderr);
        for (int i = 0; i < nall; i++)
            if (!reuse[i])
                names[n++] = all[i];
            else
                printf("%s: reused (%s/%s.json)\n", all[i], cli.out_dir, all[i]);
        st = run_probes(&cli, names, n);
        if (st.code == GP_OK || st.code == GP_ERR_CHECK) {
            /* A failed check still leaves records worth a table and a report. */
            gp_status fs = table_then_report(cli.out_dir, tables);
            if (st.code == GP_OK)
                st = fs;
        }
        break;
    }
    case GP_CMD_REPORT:
        st = check_tables_dir(tables, from);
        if (st.code == GP_OK)
            st = table_then_report_to(cli.file, cli.out_given ? cli.out_dir : cli.file, cli.against, tables,
                                      kernel_rules_records);
        break;
    case GP_CMD_TABLE_SHOW:
        st = gp_table_show(cli.file, stdout);
        break;
    case GP_CMD_VERIFY:
        st = gp_cmd_verify(&cli, tables);
        break;
    case GP_CMD_BENCH:
        st = gp_cmd_bench(&cli, tables);
        break;
    case GP_CMD_TUNE:
        st = gp_cmd_tune(&cli, tables);
        break;
    case GP_CMD_TABLE_DERIVE:
        st = gp_table_derive_file(cli.file, cli.out_file, stdout);
        break;
    case GP_CMD_TABLE_CHECK:
        st = gp_table_check_file_rules(cli.file);
        if (st.code == GP_OK)
            printf("%s: ok\n", cli.file);
        break;
    default:
        st = gp_fail(GP_ERR_USAGE, "no command");
    }
    if (st.code != GP_OK)
        fprintf(stderr, "gpuprobe: %s\n", st.msg);
    return gp_status_exit_code(&st);
}
