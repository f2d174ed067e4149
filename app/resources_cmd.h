/* `gpuprobe resources [--out FILE] [--slots N]`: the resource specification
 * file CTest reads (`ctest --resource-spec-file FILE`, or the
 * CTEST_RESOURCE_SPEC_FILE variable) from the runtime's device list: one
 * "gpus" resource per GPU this binary can run on, its id the runtime
 * ordinal that `--device` takes, `slots` tests at once on it (default 1).
 * The format (CTest's "Resource Specification File", version 1.0):
 *   {"version": {"major": 1, "minor": 0},
 *    "local": [{"gpus": [{"id": "0", "slots": 1}, ...]}]}
 * It is the convention ROCm's and RAPIDS' test suites use to run single-GPU
 * tests side by side on a multi-GPU machine (RESOURCE_GROUPS "gpus:1"). */
#ifndef GP_RESOURCES_CMD_H
#define GP_RESOURCES_CMD_H

#include <stdio.h>

#include "cli.h"
#include "gp_status.h"

/* One device of the runtime's list: its ordinal, whether this binary runs
 * on it (the rest are named on stderr and left out), and why not. */
typedef struct gp_rsrc_device {
    int ordinal;
    int usable;
    char why[GP_STATUS_MSG_LEN];
} gp_rsrc_device;

/* Write the spec for the usable devices of devs[0..n).  GP_ERR_NO_GPU when
 * none is usable (nothing written: a spec without GPUs would make every GPU
 * test wait for resources that never come); GP_ERR_USAGE for slots < 1. */
gp_status gp_resources_write(FILE *f, const gp_rsrc_device *devs, int n, int slots);

/* The command: the spec of this machine's GPUs to stdout or --out FILE,
 * --slots N tests at once on each. */
gp_status gp_cmd_resources(gp_cli *cli);

#endif
