/* `gpuprobe report` and `gpuprobe table show|check|derive`: the table and
 * the report from records, and tuning tables on their own; and the table
 * then report step that characterize and selftest end with. */
#ifndef GP_TABLE_CMDS_H
#define GP_TABLE_CMDS_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_report(gp_cli *cli);
gp_status gp_cmd_table(gp_cli *cli);

/* The shipped tables' folder was found and is a folder: commands that build
 * a table say so before any work. */
gp_status gp_cmd_tables_check(const gp_cli *cli);

/* The tuning table, then the report, of the records in dir, written there;
 * resource use read from the device the probes just ran on. */
gp_status gp_cmd_table_then_report(const char *dir, const char *tables);

#endif
