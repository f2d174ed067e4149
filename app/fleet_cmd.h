/* `gpuprobe fleet DIR... [--threshold T] [--out DIR] [--json]`: many GPUs' results
 * folders compared per device model (pipeline/fleet.h).  Exit 0: no outlier;
 * 1: an outlier (a scheduler's health check can use it); 2: bad input. */
#ifndef GP_FLEET_CMD_H
#define GP_FLEET_CMD_H

#include "fleet_stats.h"
#include "gp_status.h"

typedef struct gp_fleet_opts {
    const char **dirs; /* argv entries */
    int ndirs;
    gp_fleet_threshold threshold;
    const char *out;   /* NULL: Markdown to stdout */
    int json;          /* --json: fleet.json's JSON to stdout (the summary lines to stderr) */
} gp_fleet_opts;

/* Parse argv[2..]; o->dirs is allocated (free it). */
gp_status gp_fleet_parse(int argc, char **argv, gp_fleet_opts *o);
int gp_fleet_main(int argc, char **argv);

#endif
