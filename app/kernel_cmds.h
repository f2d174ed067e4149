/* `gpuprobe verify` and `gpuprobe bench`: the application kernels under one
 * or more tuning tables. */
#ifndef GP_KERNEL_CMDS_H
#define GP_KERNEL_CMDS_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_verify(const gp_cli *cli, const char *tables_dir);
gp_status gp_cmd_bench(const gp_cli *cli, const char *tables_dir);
/* Time each kernel's candidate parameter sets and write the fastest into
 * <out>/table.txt (provenance `swept <kernel>`), starting from the lookup. */
gp_status gp_cmd_tune(const gp_cli *cli, const char *tables_dir);

#endif
