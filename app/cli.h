/* Command-line parsing of the gpuprobe front end, separate from main() so the
 * unit tests can feed it bad input. */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdio.h>

#include "gp_status.h"

#define GP_CLI_MAX_PROBES 64
#define GP_CLI_MAX_TABLES 8
#define GP_CLI_MAX_SHAPES 16
#define GP_CLI_MAX_ARGS 512

typedef enum {
    GP_CMD_NONE,
    GP_CMD_HELP,
    GP_CMD_VERSION,
    GP_CMD_INFO,
    GP_CMD_LIST,
    GP_CMD_RUN,
    GP_CMD_CHARACTERIZE,
    GP_CMD_REPORT,
    GP_CMD_TABLE_SHOW,
    GP_CMD_TABLE_CHECK,
    GP_CMD_TABLE_DERIVE,
    GP_CMD_VERIFY,
    GP_CMD_BENCH,
    GP_CMD_TUNE,
    GP_CMD_SELFTEST
} gp_cmd;

/* How --device chose the GPU (app/node_cmd.h): not given (device 0, records
 * straight into --out, as always), a number, `all` (characterize: every GPU
 * in turn) or `ctest` (run: the GPUs of CTest's resource groups, device 0
 * without them).  A chosen GPU writes into its own folder under --out. */
typedef enum { GP_DEVICE_DEFAULT, GP_DEVICE_ONE, GP_DEVICE_ALL, GP_DEVICE_CTEST } gp_device_mode;

typedef struct gp_cli {
    gp_cmd cmd;
    int device;
    gp_device_mode device_mode;
    int quick;
    const char *out_dir;
    const char *tables_dir;  /* --tables DIR (any command), or NULL: app/tables_dir.h */
    const char *file;     /* table show|check|derive FILE, report DIR */
    const char *against;  /* report DIR --against DIR2, or NULL */
    const char *out_file; /* table derive -o OUT; NULL: stdout */
    const char *probes[GP_CLI_MAX_PROBES];  /* run: probes; verify/bench: kernels */
    int nprobes;
    /* verify/bench: --table FILE (arch-checked against the device) and
     * --mistuned FILE (another arch's table, on purpose); none given: the
     * device's lookup (measured in --out, else shipped, else generic). */
    const char *tables[GP_CLI_MAX_TABLES];
    int ntables;
    const char *mistuned[GP_CLI_MAX_TABLES];
    int nmistuned;
    int out_given;        /* --out was on the command line */
    int force;            /* characterize --force: rerun probes whose records could be reused */
    int have_seed;
    unsigned long long seed;  /* --seed N: replay a verify run's random data */
    /* verify/bench/tune KERNEL --shape SPEC...: the user's problems, in the
     * kernel's own syntax (parsed by the kernel, kernels/kernel.h) */
    const char *shapes[GP_CLI_MAX_SHAPES];
    int nshapes;
    double budget_s;          /* tune --budget SECONDS: a kernel's time (0: the default) */
} gp_cli;

/* Parse argv; on bad usage returns GP_ERR_USAGE with a message naming the
 * offending word.  Probe and kernel names are checked against the registries. */
gp_status gp_cli_parse(int argc, char **argv, gp_cli *out);
const char *gp_cli_usage(void);
/* The lines of the usage that describe command `cmd` (its options
 * included) to f, with a pointer to --help; the whole usage when no line
 * names cmd.  What a usage error of a known command shows. */
void gp_cli_usage_of(const char *cmd, FILE *f);

#endif
