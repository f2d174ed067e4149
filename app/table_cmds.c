#include "table_cmds.h"

#include <stdio.h>
#include <stdlib.h>

#include "characterize.h"
#include "derive.h"
#include "fsutil.h"
#include "kernel.h"
#include "report.h"
#include "table.h"

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

gp_status gp_cmd_tables_check(const gp_cli *cli)
{
    if (cli->tables_from == GP_TABLES_FROM_NONE)
        return gp_fail(GP_ERR_IO, "no tables directory: give --tables DIR or set GP_TABLES_DIR (the tables/ "
                                  "folder of the sources, or share/gpuprobe/tables of an install)");
    if (!gp_fs_is_dir(cli->tables_found))
        return gp_fail(GP_ERR_IO, "tables directory '%s' does not exist or is not a directory (from %s)",
                       cli->tables_found, gp_tables_from_name(cli->tables_from));
    return gp_ok();
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

gp_status gp_cmd_table_then_report(const char *dir, const char *tables)
{
    return table_then_report_to(dir, dir, NULL, tables, kernel_rules_live);
}

gp_status gp_cmd_report(gp_cli *cli)
{
    GP_TRY(gp_cmd_tables_check(cli));
    return table_then_report_to(cli->file, cli->out_given ? cli->out_dir : cli->file, cli->against,
                                cli->tables_found, kernel_rules_records);
}

gp_status gp_cmd_table(gp_cli *cli)
{
    switch (cli->cmd) {
    case GP_CMD_TABLE_SHOW:
        return gp_table_show(cli->file, stdout);
    case GP_CMD_TABLE_DERIVE:
        return gp_table_derive_file(cli->file, cli->out_file, stdout);
    default:
        GP_TRY(gp_table_check_file_rules(cli->file));
        printf("%s: ok\n", cli->file);
        return gp_ok();
    }
}
