/* gpuprobe: the command-line front end. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "characterize.h"
#include "cli.h"
#include "kernel.h"
#include "kernel_cmds.h"
#include "probe.h"
#include "runtime.h"
#include "table.h"

#ifndef GP_TABLES_DIR
#define GP_TABLES_DIR "tables"
#endif

static const char *tables_dir(void)
{
    const char *env = getenv("GP_TABLES_DIR");
    return env && *env ? env : GP_TABLES_DIR;
}

#ifndef GP_VERSION
#define GP_VERSION "0.1.0"
#endif

static void print_info(const gp_device_info *d)
{
    printf("name                 %s\n", d->name);
    printf("vendor               %s\n", d->vendor);
    printf("arch                 %s\n", d->arch);
    printf("pci_bus_id           %s\n", d->pci_bus_id);
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
    printf("backend              %s (device code for %s)\n", gp_rt_backend(), gp_rt_compiled_archs());
}

static gp_status run_probes(const gp_cli *cli, const char **names, int n)
{
    gp_probe_opts opts = {cli->device, cli->quick, cli->out_dir};
    int failed = 0;
    gp_status first_fail = gp_ok();
    for (int i = 0; i < n; i++) {
        const gp_probe *p = gp_probe_find(names[i]);
        gp_record rec;
        memset(&rec, 0, sizeof rec);
        fprintf(stderr, "[%s] running (%d of %d)\n", p->name, i + 1, n);
        gp_status st = gp_probe_execute(p, &opts, &rec);
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

int main(int argc, char **argv)
{
    gp_cli cli;
    gp_status st = gp_cli_parse(argc, argv, &cli);
    if (st.code != GP_OK) {
        fprintf(stderr, "gpuprobe: %s\n\n%s", st.msg, gp_cli_usage());
        return 2;
    }
    switch (cli.cmd) {
    case GP_CMD_HELP:
        fputs(gp_cli_usage(), stdout);
        return 0;
    case GP_CMD_VERSION:
        printf("gpuprobe %s (backend %s)\n", GP_VERSION, gp_rt_backend());
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
        gp_device_info info;
        st = gp_rt_device_open(cli.device, &info);
        if (st.code == GP_OK)
            print_info(&info);
        break;
    }
    case GP_CMD_RUN:
        st = run_probes(&cli, cli.probes, cli.nprobes);
        break;
    case GP_CMD_CHARACTERIZE: {
        const char *names[GP_CLI_MAX_PROBES];
        int n = 0;
        for (size_t i = 0; i < gp_probe_count() && n < GP_CLI_MAX_PROBES; i++)
            names[n++] = gp_probe_at(i)->name;
        st = run_probes(&cli, names, n);
        if (st.code == GP_OK || st.code == GP_ERR_CHECK) {
            /* A failed check still leaves records worth a table and a report. */
            gp_status fs = gp_characterize_finish(cli.out_dir, tables_dir(), stderr);
            if (st.code == GP_OK)
                st = fs;
        }
        break;
    }
    case GP_CMD_REPORT:
        st = gp_characterize_finish(cli.file, tables_dir(), stderr);
        break;
    case GP_CMD_TABLE_SHOW:
        st = gp_table_show(cli.file, stdout);
        break;
    case GP_CMD_VERIFY:
        st = gp_cmd_verify(&cli, tables_dir());
        break;
    case GP_CMD_BENCH:
        st = gp_cmd_bench(&cli, tables_dir());
        break;
    case GP_CMD_TUNE:
        st = gp_cmd_tune(&cli, tables_dir());
        break;
    case GP_CMD_TABLE_CHECK:
        st = gp_table_check_file(cli.file);
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
