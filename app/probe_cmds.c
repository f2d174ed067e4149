#include "probe_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest_env.h"
#include "device_id.h"
#include "fsutil.h"
#include "gp_build_info.h"
#include "kernel.h"
#include "kernel_cmds.h"
#include "node_cmd.h"
#include "probe.h"
#include "resume.h"
#include "runtime.h"
#include "table.h"
#include "table_cmds.h"
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

gp_status gp_cmd_info(gp_cli *cli)
{
    /* What this binary is and where its tables are first: both hold
     * without a GPU (then info still exits 77). */
    gp_tables_from from = cli->tables_from;
    printf("build                %s\n", GP_BUILD_LINE);
    printf("tables               %s (from %s%s)\n", from == GP_TABLES_FROM_NONE ? "none" : cli->tables_found,
           gp_tables_from_name(from),
           from != GP_TABLES_FROM_NONE && !gp_fs_is_dir(cli->tables_found) ? "; not a directory" : "");
    fflush(stdout);
    gp_device_info info;
    GP_TRY(gp_rt_device_open(cli->device, &info));
    print_info(&info);
    char note[256];
    gp_status st = gp_target_check(gp_rt_backend(), gp_rt_compiled_archs(), gp_rt_compiled_ptx(), info.arch,
                                   info.name, note, sizeof note);
    printf("runs here            %s\n", st.code != GP_OK ? "no" : note[0] ? "yes, through the JIT" : "yes");
    return st;
}

gp_status gp_cmd_list(gp_cli *cli)
{
    (void)cli;
    for (size_t i = 0; i < gp_probe_count(); i++)
        printf("%-20s %s\n", gp_probe_at(i)->name, gp_probe_at(i)->summary);
    printf("\nkernels (verify, bench):\n");
    for (size_t i = 0; i < gp_kernel_count(); i++)
        printf("%-20s %s\n", gp_kernel_at(i)->name, gp_kernel_at(i)->summary);
    return gp_ok();
}

gp_status gp_cmd_version(gp_cli *cli)
{
    (void)cli;
    printf("%s\n", GP_BUILD_LINE);
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
static gp_status run_node(const gp_cli *cli, const char *tables, const int *ids, int n)
{
    char self[1024], index[1100];
    gp_node_gpu *gpus = calloc((size_t)n, sizeof *gpus);
    if (!gpus)
        return gp_fail(GP_ERR_NOMEM, "no memory for %d GPUs", n);
    gp_node_self(cli->argv0, self, sizeof self);
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

static void print_values(const gp_record *rec)
{
    for (int v = 0; v < rec->nvalues; v++) {
        const gp_value *val = &rec->values[v];
        if (val->detected)
            printf("  %-32s %12.6g %s\n", val->key, val->value, val->unit);
        else
            printf("  %-32s %12s (%s)\n", val->key, "none", val->note);
    }
}

/* The clock moved or another process shared the GPU: the record and the
 * report flag it too. */
static void print_noise(const gp_probe *p, gp_record *rec)
{
    int noise = gp_record_noise(rec, NULL);
    if (noise & GP_NOISE_CLOCK)
        printf("%s: flagged: the clock moved during the probe (%.0f -> %.0f MHz)\n", p->name,
               rec->clock_before.measured_mhz, rec->clock_after.measured_mhz);
    if (noise & GP_NOISE_SHARED)
        printf("%s: flagged: %d other process(es) used the GPU during the probe\n", p->name,
               gp_record_other_processes(rec));
    if (noise & GP_NOISE_CAPPED) {
        char why[192];
        gp_smi_reasons_text(rec->telemetry.reasons & GP_SMI_REASONS_CAP, why, sizeof why);
        printf("%s: flagged: ran under a cap (%s) in %d of %d vendor readings\n", p->name, why,
               rec->telemetry.capped, rec->telemetry.reasons_read);
    }
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
        print_noise(p, &rec);
        if (st.code == GP_OK) {
            printf("%s: ok (%s/%s.md)\n", p->name, cli->out_dir, p->name);
            print_values(&rec);
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

gp_status gp_cmd_run(gp_cli *cli)
{
    int ids[GP_CTEST_MAX_GPUS], nids = 0;
    if (cli->device_mode == GP_DEVICE_CTEST) {
        /* CTest's GPUs: none without a resource spec (device 0, as always) */
        GP_TRY(gp_ctest_gpus_env(ids, GP_CTEST_MAX_GPUS, &nids));
        cli->device_mode = nids ? GP_DEVICE_ONE : GP_DEVICE_DEFAULT;
        cli->device = nids ? ids[0] : 0;
    }
    /* A bad --out or a binary without code for this GPU fails now, not after the measurements. */
    GP_TRY(gp_fs_check_writable(cli->out_dir));
    if (nids > 1) {
        int count = 0;
        GP_TRY(gp_rt_device_count(&count)); /* no GPU: say only that, once */
        return run_node(cli, cli->tables_from == GP_TABLES_FROM_NONE ? "" : cli->tables_found, ids, nids);
    }
    char dir[1100];
    gp_device_info dev;
    GP_TRY(open_device(cli, &dev, dir, sizeof dir));
    return run_probes(cli, cli->probes, cli->nprobes);
}

/* Every probe, in run order (gp_probe.order), into names. */
static int all_probes(const char **names)
{
    int n = 0;
    for (size_t i = 0; gp_probe_in_run_order(i) && n < GP_CLI_MAX_PROBES; i++)
        names[n++] = gp_probe_in_run_order(i)->name;
    return n;
}

/* characterize --device all: every GPU in its own child. */
static gp_status characterize_node(gp_cli *cli)
{
    int count = 0, ids[GP_CTEST_MAX_GPUS];
    GP_TRY(gp_rt_device_count(&count));
    if (count > GP_CTEST_MAX_GPUS)
        return gp_fail(GP_ERR_USAGE, "%d GPUs: more than the %d --device all runs", count, GP_CTEST_MAX_GPUS);
    for (int i = 0; i < count; i++)
        ids[i] = i;
    return run_node(cli, cli->tables_found, ids, count);
}

gp_status gp_cmd_characterize(gp_cli *cli)
{
    const char *all[GP_CLI_MAX_PROBES], *names[GP_CLI_MAX_PROBES];
    int reuse[GP_CLI_MAX_PROBES];
    int nall = all_probes(all), n = 0;
    GP_TRY(gp_cmd_tables_check(cli));
    GP_TRY(gp_fs_check_writable(cli->out_dir));
    if (cli->device_mode == GP_DEVICE_ALL)
        return characterize_node(cli);
    char dir[1100];
    gp_device_info dev;
    GP_TRY(open_device(cli, &dev, dir, sizeof dir));
    /* Resume: a valid record of this GPU and version stands for its probe. */
    gp_resume_plan(cli->out_dir, all, nall, &dev, GP_VERSION, cli->quick, cli->force, reuse, stderr);
    for (int i = 0; i < nall; i++)
        if (!reuse[i])
            names[n++] = all[i];
        else
            printf("%s: reused (%s/%s.json)\n", all[i], cli->out_dir, all[i]);
    gp_status st = run_probes(cli, names, n);
    if (st.code == GP_OK || st.code == GP_ERR_CHECK) {
        /* A failed check still leaves records worth a table and a report. */
        gp_status fs = gp_cmd_table_then_report(cli->out_dir, cli->tables_found);
        if (st.code == GP_OK)
            st = fs;
    }
    char table[1100];
    if (st.code == GP_OK && gp_fs_join(table, sizeof table, cli->out_dir, "table.txt").code == GP_OK)
        gp_cmd_cache_table(cli, &dev, table);
    return st;
}

/* selftest: what `ctest -L microbench` checks, from an installed binary:
 * every probe with its own checks, the table and the report, the table
 * checked, then every kernel verified under the measured table. */
gp_status gp_cmd_selftest(gp_cli *cli)
{
    gp_device_info dev;
    GP_TRY(gp_cmd_tables_check(cli));
    GP_TRY(gp_fs_check_writable(cli->out_dir));
    GP_TRY(gp_device_open_checked(cli->device, &dev));
    const char *all[GP_CLI_MAX_PROBES];
    int n = all_probes(all);
    GP_TRY(run_probes(cli, all, n));
    GP_TRY(gp_cmd_table_then_report(cli->out_dir, cli->tables_found));
    char table[1100];
    GP_TRY(gp_fs_join(table, sizeof table, cli->out_dir, "table.txt"));
    GP_TRY(gp_table_check_file(table));
    printf("selftest: %d probes ok; %s checked\n", n, table);
    cli->nprobes = 0;
    for (size_t i = 0; i < gp_kernel_count() && cli->nprobes < GP_CLI_MAX_PROBES; i++)
        cli->probes[cli->nprobes++] = gp_kernel_at(i)->name;
    GP_TRY(gp_cmd_verify(cli));
    printf("selftest: ok (%d probes, %d kernels; records, table and report in %s)\n", n, cli->nprobes,
           cli->out_dir);
    return gp_ok();
}
