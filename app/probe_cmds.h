/* The commands about the GPU and its probes: `info`, `list`, `run`,
 * `characterize`, `selftest`, and `--version`. */
#ifndef GP_PROBE_CMDS_H
#define GP_PROBE_CMDS_H

#include "cli.h"
#include "gp_status.h"

gp_status gp_cmd_info(gp_cli *cli);
gp_status gp_cmd_list(gp_cli *cli);
gp_status gp_cmd_run(gp_cli *cli);
gp_status gp_cmd_characterize(gp_cli *cli);
gp_status gp_cmd_selftest(gp_cli *cli);
gp_status gp_cmd_version(gp_cli *cli);

#endif
