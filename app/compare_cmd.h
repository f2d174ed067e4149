/* gpuprobe compare DIR_A DIR_B [--out FILE] [--json] [--tolerance-floor F]:
 * two results folders, value by value (pipeline/run_compare.h has the rules). */
#ifndef GP_COMPARE_CMD_H
#define GP_COMPARE_CMD_H

#include <stdio.h>

#include "cli.h"
#include "gp_status.h"

typedef struct gp_compare_opts {
    const char *dir_a, *dir_b;
    const char *out_file;    /* NULL: stdout only */
    double floor;            /* smallest band, a fraction (0.005 = 0.5 %) */
    /* --only PROBE...: compare these probes only (a probe missing from one
     * run is then a difference only when named); nonly 0: every probe */
#define GP_COMPARE_MAX_ONLY GP_CLI_MAX_ONLY
    const char *only[GP_COMPARE_MAX_ONLY];
    int nonly;
    int json;                /* --json: JSON (docs/formats.md) instead of Markdown, to stdout and FILE */
} gp_compare_opts;

/* compare's options from its parsed command line (app/cli.h). */
void gp_compare_opts_of(const gp_cli *c, gp_compare_opts *o);

/* Compare and print the Markdown (or with o->json the JSON) to `out` (may
 * be NULL) and to o->out_file (written atomically; its folder is created,
 * and removed again when the write fails).  GP_OK when every compared value agrees (or is unstable),
 * GP_ERR_CHECK (exit 1) when some differ, GP_ERR_USAGE / GP_ERR_IO (exit 2)
 * for bad input. */
gp_status gp_compare_run(const gp_compare_opts *o, FILE *out);

/* The command: gp_compare_run to stdout. */
gp_status gp_cmd_compare(gp_cli *cli);

#endif
