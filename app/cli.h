/* The gpuprobe front end: one table of commands (app/commands.c), each with
 * its synopsis, summary, options and run function, and one option parser
 * (getopt_long) that every command goes through.  Parsing is apart from
 * running so the unit tests and the fuzzer can feed it bad input.
 *
 * A command line is `gpuprobe COMMAND [ARGS] [OPTIONS]`; options and
 * arguments may be mixed, `--name=value` and `--name value` are the same,
 * `--` ends the options.  `--tables DIR` may stand anywhere, before the
 * command too.  `gpuprobe help COMMAND` and `gpuprobe COMMAND --help` print
 * that command's own usage; a usage error prints the message and that
 * usage on stderr and exits 2. */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdio.h>

#include "fleet_stats.h"
#include "gp_status.h"
#include "tables_dir.h"

#define GP_CLI_MAX_PROBES 64
#define GP_CLI_MAX_TABLES 8
#define GP_CLI_MAX_SHAPES 16
#define GP_CLI_MAX_ARGS 512
#define GP_CLI_MAX_ONLY 32

typedef enum {
    GP_CMD_NONE,
    GP_CMD_HELP,
    GP_CMD_VERSION,
    GP_CMD_INFO,
    GP_CMD_LIST,
    GP_CMD_RUN,
    GP_CMD_CHARACTERIZE,
    GP_CMD_REPORT,
    GP_CMD_COMPARE,
    GP_CMD_FLEET,
    GP_CMD_RESOURCES,
    GP_CMD_TABLE_SHOW,
    GP_CMD_TABLE_CHECK,
    GP_CMD_TABLE_DERIVE,
    GP_CMD_VERIFY,
    GP_CMD_BENCH,
    GP_CMD_TUNE,
    GP_CMD_SELFTEST,
    GP_CMD_STRESS
} gp_cmd;

/* How --device chose the GPU (app/node_cmd.h): not given (device 0, records
 * straight into --out, as always), a number, `all` (characterize: every GPU
 * in turn) or `ctest` (run: the GPUs of CTest's resource groups, device 0
 * without them).  A chosen GPU writes into its own folder under --out. */
typedef enum { GP_DEVICE_DEFAULT, GP_DEVICE_ONE, GP_DEVICE_ALL, GP_DEVICE_CTEST } gp_device_mode;

struct gp_cli_cmd;

/* A parsed command line: what every command's options and arguments set.
 * Strings point into argv. */
typedef struct gp_cli {
    gp_cmd cmd;
    const struct gp_cli_cmd *command; /* its entry of the command table */
    const struct gp_cli_cmd *help_of; /* help: the command whose usage; NULL: every command */
    const char *argv0;
    int device;
    gp_device_mode device_mode;
    int quick;
    const char *out_dir;
    const char *tables_dir;  /* --tables DIR (any command), or NULL: app/tables_dir.h */
    const char *file;     /* table show|check|derive FILE, report DIR */
    const char *against;  /* report DIR --against DIR2, or NULL */
    const char *out_file; /* table derive -o OUT, compare and resources --out FILE; NULL: stdout */
    const char *prometheus; /* fleet --prometheus FILE: node-exporter's textfile, or NULL */
    const char *probes[GP_CLI_MAX_PROBES];  /* run: probes; verify/bench/tune: kernels */
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
    int random_shapes;        /* verify --random-shapes N: N shapes of each kernel's own range, from the seed */
    /* compare DIR_A DIR_B and fleet DIR...: the results folders */
    const char *dirs[GP_CLI_MAX_ARGS];
    int ndirs;
    int json;                 /* compare, fleet --json */
    double floor;             /* compare --tolerance-floor F */
    const char *only[GP_CLI_MAX_ONLY]; /* compare --only PROBE...: the names, split at commas */
    int nonly;
    gp_fleet_threshold threshold; /* fleet --threshold T */
    int slots;                /* resources --slots N */
    double stress_seconds;    /* stress --seconds S: each phase's length (0: the default) */
    double max_loss;          /* stress --max-loss F (0: the default) */
    /* After parsing (gp_cli_main): the shipped tables' folder and where it
     * was found. */
    char tables_found[1024];
    gp_tables_from tables_from;
    char words[1024];         /* --only's names, split */
    size_t words_used;
} gp_cli;

/* One option: --name (and -letter), the name of its value in the usage
 * (NULL: a flag), what a missing value is in the message ("a directory"),
 * its usage text ('\n' continues it under the text) and the function that
 * stores it (a usage error naming the value when it is not one). */
typedef struct gp_cli_opt {
    const char *name;
    int letter;
    const char *arg;
    const char *needs;
    unsigned flags;           /* GP_OPT_* */
    const char *help;
    gp_status (*set)(gp_cli *c, const char *value);
} gp_cli_opt;

#define GP_OPT_PATH 1u    /* the value is a file or folder: never empty, never starting with '-' */
#define GP_OPT_WORDS 2u   /* takes one or more words, up to the next option */
#define GP_OPT_COMMON 4u  /* listed in `gpuprobe help` (the others in their command's usage) */

/* One command: its name, the rest of its synopsis (one line per form,
 * '\n' between them), its summary for `gpuprobe help` and its longer text
 * for its own usage (NULL: the summary), its options (NULL-terminated), the
 * check of its arguments (the words that are not options, in order; it may
 * set the command, table show|check|derive) and what it does. */
typedef struct gp_cli_cmd {
    gp_cmd cmd;
    const char *name;
    const char *synopsis;
    const char *summary;
    const char *about;
    const gp_cli_opt *const *opts;
    gp_status (*args)(gp_cli *c, int n, char **words);
    gp_status (*run)(gp_cli *c);
} gp_cli_cmd;

/* The command table and the options `gpuprobe help` lists, app/commands.c. */
extern const gp_cli_cmd gp_cli_commands[];
extern const size_t gp_cli_ncommands;
extern const gp_cli_opt *const gp_cli_common_opts[];

/* The command named `name`, or NULL. */
const gp_cli_cmd *gp_cli_command(const char *name);

/* Parse argv; on bad usage returns GP_ERR_USAGE with a message naming the
 * offending word, and out->command is the command it was for (NULL when the
 * command itself is missing or unknown).  Probe and kernel names are checked
 * against the registries. */
gp_status gp_cli_parse(int argc, char **argv, gp_cli *out);

/* Every command and the common options, then the environment and exit
 * codes: `gpuprobe help`. */
void gp_cli_usage(FILE *f);
/* The usage of one command: its synopsis, its text and its options. */
void gp_cli_usage_of(const gp_cli_cmd *c, FILE *f);

/* The whole front end: parse, find the shipped tables, run the command,
 * say what failed; the exit code (0, 1, 2 or 77: gp_status_exit_code). */
int gp_cli_main(int argc, char **argv);

#endif
