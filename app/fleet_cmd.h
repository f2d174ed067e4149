/* `gpuprobe fleet DIR... [--threshold T] [--out DIR] [--json]`: many GPUs' results
 * folders compared per device model (pipeline/fleet.h).  Exit 0: no outlier;
 * 1: an outlier (a scheduler's health check can use it); 2: bad input. */
#ifndef GP_FLEET_CMD_H
#define GP_FLEET_CMD_H

#include "cli.h"
#include "gp_status.h"

/* The command: the fleet of cli->dirs under cli->threshold, written as
 * --out and --json say. */
gp_status gp_cmd_fleet(gp_cli *cli);

#endif
