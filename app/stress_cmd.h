/* `gpuprobe stress [--device N|all] [--seconds S] [--max-loss F] [--out DIR]`:
 * every chosen GPU loaded at once (pipeline/stress.h), its rates compared
 * with the same GPU alone, its clock, power, temperature and clock event
 * reasons sampled, its health counters read.  Exit 0: every GPU ok; 1: a GPU
 * flagged; 2: bad input; 77: no GPU. */
#ifndef GP_STRESS_CMD_H
#define GP_STRESS_CMD_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_stress(gp_cli *cli);

#endif
