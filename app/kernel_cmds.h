/* `gpuprobe verify` and `gpuprobe bench`: the application kernels under one
 * or more tuning tables. */
#ifndef GP_KERNEL_CMDS_H
#define GP_KERNEL_CMDS_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_verify(const gp_cli *cli, const char *tables_dir);
gp_status gp_cmd_bench(const gp_cli *cli, const char *tables_dir);

#endif
