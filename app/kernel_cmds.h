/* `gpuprobe verify`, `bench` and `tune`: the application kernels under one
 * or more tuning tables (--table, --mistuned; else the device's lookup in
 * --out and the shipped tables, cli->tables_found). */
#ifndef GP_KERNEL_CMDS_H
#define GP_KERNEL_CMDS_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_verify(gp_cli *cli);
gp_status gp_cmd_bench(gp_cli *cli);
/* Time each kernel's candidate parameter sets and write the fastest into
 * <out>/table.txt (provenance `swept <kernel>`), starting from the lookup. */
gp_status gp_cmd_tune(gp_cli *cli);

/* The measured table this command ends with, into the device's per-device
 * cache for the library (kernels/context.h), unless --quick or GP_NO_CACHE;
 * a failure to write it is said, never an error of the command. */
struct gp_device_info;
void gp_cmd_cache_table(const gp_cli *cli, const struct gp_device_info *dev, const char *table);

#endif
