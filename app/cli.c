#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "probe.h"

const char *gp_cli_usage(void)
{
    return "usage: gpuprobe COMMAND [options]\n"
           "\n"
           "commands:\n"
           "  info                 describe the GPU as its runtime reports it\n"
           "  list                 list the probes and the application kernels\n"
           "  run PROBE...         run probes, write their records, check their findings\n"
           "  characterize         run every probe, then write the tuning table and the report;\n"
           "                       resumes: valid records in --out from this GPU and version are reused\n"
           "  report DIR           rebuild DIR/table.txt and DIR/report.{md,html} from the records in DIR\n"
           "    [--against DIR2]   a second results folder beside it (datasheet ratio, both series in each plot)\n"
           "    [--out OUT]        write the table and the report into OUT; nothing into DIR\n"
           "  compare DIR_A DIR_B  compare two runs' records value by value within their spreads\n"
           "                       [--out FILE] [--json] [--tolerance-floor 0.005]; exit 1 when some differ\n"
           "  fleet DIR...         compare many GPUs' results folders per device model: median, MAD,\n"
           "                       outliers, low clock or DRAM bandwidth [--threshold 3.5|5%] [--out DIR]\n"
           "                       [--json];\n"
           "                       exit 1 on an outlier (gpuprobe fleet --help)\n"
           "  resources            CTest's resource spec (JSON) from the device list [--out FILE] [--slots N]\n"
           "  table show FILE      print a tuning table (after checking it)\n"
           "  table check FILE     check a tuning table: exit 2 with FILE:LINE: reason on a defect\n"
           "  table derive FILE [-o OUT]  fill the kernel sections of a facts table from its facts\n"
           "                       (every kernel's rule; swept values kept), to stdout or OUT\n"
           "  verify KERNEL...     check kernels against their CPU references under a tuning table\n"
           "  bench KERNEL...      time kernels against their floors and vendor baselines\n"
           "  tune KERNEL...       time each kernel's candidate parameters; write the fastest into\n"
           "                       DIR/table.txt (provenance: swept)\n"
           "  selftest             the installed binary's test: every probe with its checks\n"
           "                       into --out (default gpuprobe-selftest), the table, the\n"
           "                       report, every kernel verified under the measured table\n"
           "  help, --help         this text\n"
           "  --version            version, git revision, backend and device targets,\n"
           "                       compilers and vendor baselines of this build\n"
           "\n"
           "options:\n"
           "  --tables DIR         shipped tuning tables (any command; before the others below)\n"
           "  --device N           GPU index (default 0); run and characterize then write into\n"
           "                       DIR/<bus>_<uuid8>/, the GPU's own folder (gpuprobe info: folder)\n"
           "  --device all         characterize: every GPU in turn, each into its folder, and\n"
           "                       DIR/index.md; exit 1 when one failed (the others still run)\n"
           "  --device ctest       run: the GPUs CTest's resource groups allocated\n"
           "                       (CTEST_RESOURCE_GROUP_*), each into its folder; device 0\n"
           "                       into DIR without them\n"
           "  --out DIR            where records go (default gpuprobe-results); verify/bench\n"
           "                       use DIR/table.txt when it exists\n"
           "  --quick              shorter sweeps and timings (smoke runs)\n"
           "  --force              characterize: run every probe again, reusing no record\n"
           "  --table FILE         verify/bench: use this table (its arch must match the GPU's\n"
           "                       or be generic); repeat to compare tables; FILE 'lookup' is the\n"
           "                       device's own (measured in --out, else shipped, else generic)\n"
           "  --mistuned FILE      bench/verify: also use another arch's table, on purpose\n"
           "  --seed N             verify: replay the random data of an earlier run\n"
           "  --shape SPEC         verify/bench/tune KERNEL: your problem, in the kernel's own\n"
           "                       syntax (e.g. ssim '1x3x1080x1920 same', gemm 4096x4096x4096,\n"
           "                       scan '2^28 fp32'); repeat for several; tune then keeps\n"
           "                       parameters for each shape's class\n"
           "  --budget SECONDS     tune: the time each kernel's tune aims at (default 15, quick 4)\n"
           "\n"
           "environment: GP_TABLES_DIR  shipped tuning tables when --tables is not given; then\n"
           "             ../share/gpuprobe/tables beside the executable, then the source tree's\n"
           "             tables/ (gpuprobe info says which)\n"
           "\n"
           "exit codes: 0 success, 1 a probe or check failed, 2 bad usage or input, 77 no GPU\n";
}

/* A usage line of the text names a command: "  WORD ..." with WORD the
 * command, or "  WORD" then a second word of it ("table show"). */
static int names_command(const char *line, const char *cmd)
{
    size_t n = strlen(cmd);
    return !strncmp(line, "  ", 2) && line[2] != ' ' && !strncmp(line + 2, cmd, n) &&
           (line[2 + n] == ' ' || line[2 + n] == '\n');
}

void gp_cli_usage_of(const char *cmd, FILE *f)
{
    const char *u = gp_cli_usage(), *p = u;
    int in = 0, any = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (names_command(p, cmd))
            in = 1;
        else if (strncmp(p, "    ", 4)) /* not a continuation line */
            in = 0;
        if (in) {
            if (!any++)
                fputs("usage:\n", f);
            fwrite(p, 1, len, f);
        }
        p += len;
    }
    fputs(any ? "(gpuprobe --help: every command and option)\n" : u, f);
}

/* --device N, or `all` (characterize) / `ctest` (run): app/node_cmd.h. */
static gp_status parse_device(const char *v, gp_cli *out)
{
    if (!strcmp(v, "all") || !strcmp(v, "ctest")) {
        int all = v[0] == 'a';
        if (out->cmd != (all ? GP_CMD_CHARACTERIZE : GP_CMD_RUN))
            return gp_fail(GP_ERR_USAGE, "--device %s is for %s only", v, all ? "characterize" : "run");
        out->device_mode = all ? GP_DEVICE_ALL : GP_DEVICE_CTEST;
        return gp_ok();
    }
    char *end;
    long d = strtol(v, &end, 10);
    if (!*v || *end || d < 0 || d > 1024)
        return gp_fail(GP_ERR_USAGE, "--device: '%s' is not a GPU index in 0..1024%s", v,
                       out->cmd == GP_CMD_CHARACTERIZE ? " or 'all'" : out->cmd == GP_CMD_RUN ? " or 'ctest'" : "");
    out->device = (int)d;
    out->device_mode = GP_DEVICE_ONE;
    return gp_ok();
}

/* --tables DIR may stand anywhere, for every command: take it out of argv
 * (into args) before the command's own parsing. */
static gp_status take_tables(int *argc, char **argv, char **args, gp_cli *out)
{
    int n = 0;
    if (*argc > GP_CLI_MAX_ARGS)
        return gp_fail(GP_ERR_USAGE, "%d arguments: more than %d", *argc, GP_CLI_MAX_ARGS);
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--tables")) {
            if (i + 1 >= *argc || !argv[i + 1][0])
                return gp_fail(GP_ERR_USAGE, "option --tables needs a directory");
            if (out->tables_dir)
                return gp_fail(GP_ERR_USAGE, "option --tables given twice");
            out->tables_dir = argv[++i];
            continue;
        }
        args[n++] = argv[i];
    }
    *argc = n;
    return gp_ok();
}

gp_status gp_cli_parse(int argc, char **argv_in, gp_cli *out)
{
    char *argv[GP_CLI_MAX_ARGS];
    memset(out, 0, sizeof *out);
    out->out_dir = "gpuprobe-results";
    GP_TRY(take_tables(&argc, argv_in, argv, out));
    if (argc < 2)
        return gp_fail(GP_ERR_USAGE, "no command given");
    const char *cmd = argv[1];
    static const char *const commands[] = {"info",  "list",    "run",    "characterize", "report", "compare",
                                           "fleet", "resources", "table", "verify", "bench", "tune", "help"};
    int known = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        known |= !strcmp(cmd, commands[i]);
    /* `gpuprobe run --help` and `gpuprobe help run`: the usage, not an error. */
    for (int i = 2; known && i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            out->cmd = GP_CMD_HELP;
            return gp_ok();
        }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        out->cmd = GP_CMD_HELP;
        if (argc > 3)
            return gp_fail(GP_ERR_USAGE, "help takes at most one command name");
        for (size_t i = 0; argc == 3 && i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(argv[2], commands[i]))
                return gp_ok();
        if (argc == 3)
            return gp_fail(GP_ERR_USAGE, "help: unknown command '%s'", argv[2]);
        return gp_ok();
    }
    else if (!strcmp(cmd, "--version"))
        out->cmd = GP_CMD_VERSION;
    else if (!strcmp(cmd, "info"))
        out->cmd = GP_CMD_INFO;
    else if (!strcmp(cmd, "list"))
        out->cmd = GP_CMD_LIST;
    else if (!strcmp(cmd, "run"))
        out->cmd = GP_CMD_RUN;
    else if (!strcmp(cmd, "characterize"))
        out->cmd = GP_CMD_CHARACTERIZE;
    else if (!strcmp(cmd, "verify"))
        out->cmd = GP_CMD_VERIFY;
    else if (!strcmp(cmd, "bench"))
        out->cmd = GP_CMD_BENCH;
    else if (!strcmp(cmd, "tune"))
        out->cmd = GP_CMD_TUNE;
    else if (!strcmp(cmd, "selftest")) {
        out->cmd = GP_CMD_SELFTEST;
        out->out_dir = "gpuprobe-selftest";
    }
    else if (!strcmp(cmd, "report")) {
        /* report DIR [--against DIR2] [--out OUT] */
        if (argc < 3 || argv[2][0] == '-' || !argv[2][0])
            return gp_fail(GP_ERR_USAGE, "report needs one results directory");
        out->cmd = GP_CMD_REPORT;
        out->file = argv[2];
        for (int i = 3; i < argc; i++) {
            const char *a = argv[i];
            if (strcmp(a, "--against") && strcmp(a, "--out"))
                return gp_fail(GP_ERR_USAGE, "report: unknown argument '%s' (report DIR [--against DIR2] [--out OUT])",
                               a);
            if (i + 1 >= argc || !argv[i + 1][0] || argv[i + 1][0] == '-')
                return gp_fail(GP_ERR_USAGE, "report: %s needs a directory", a);
            if (!strcmp(a, "--against")) {
                if (out->against)
                    return gp_fail(GP_ERR_USAGE, "report: --against given twice");
                out->against = argv[++i];
            } else {
                out->out_dir = argv[++i];
                out->out_given = 1;
            }
        }
        return gp_ok();
    } else if (!strcmp(cmd, "table")) {
        if (argc == 4 && !strcmp(argv[2], "derive") && argv[3][0] != '-') {
            out->cmd = GP_CMD_TABLE_DERIVE;
            out->file = argv[3];
            return gp_ok();
        }
        if (argc == 6 && !strcmp(argv[2], "derive") && argv[3][0] != '-' && !strcmp(argv[4], "-o")) {
            out->cmd = GP_CMD_TABLE_DERIVE;
            out->file = argv[3];
            out->out_file = argv[5];
            return gp_ok();
        }
        if (argc != 4 || (strcmp(argv[2], "show") && strcmp(argv[2], "check")))
            return gp_fail(GP_ERR_USAGE, "table needs 'show FILE', 'check FILE' or 'derive FILE [-o OUT]'");
        out->cmd = strcmp(argv[2], "show") ? GP_CMD_TABLE_CHECK : GP_CMD_TABLE_SHOW;
        out->file = argv[3];
        return gp_ok();
    } else
        return gp_fail(GP_ERR_USAGE, "unknown command '%s'", cmd);

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int kernel_cmd = out->cmd == GP_CMD_VERIFY || out->cmd == GP_CMD_BENCH || out->cmd == GP_CMD_TUNE;
        if (!strcmp(a, "--device") || !strcmp(a, "--out") || !strcmp(a, "--table") ||
            !strcmp(a, "--mistuned") || !strcmp(a, "--seed") || !strcmp(a, "--shape") || !strcmp(a, "--budget")) {
            if (i + 1 >= argc)
                return gp_fail(GP_ERR_USAGE, "option %s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--device")) {
                GP_TRY(parse_device(v, out));
            } else if (!strcmp(a, "--out")) {
                if (!*(out->out_dir = v))
                    return gp_fail(GP_ERR_USAGE, "--out needs a non-empty directory");
                out->out_given = 1;
            } else if (!kernel_cmd) {
                return gp_fail(GP_ERR_USAGE, "option %s is for verify, bench and tune only", a);
            } else if (!strcmp(a, "--shape")) {
                if (!*v)
                    return gp_fail(GP_ERR_USAGE, "--shape needs a shape (the kernel's own syntax)");
                if (out->nshapes >= GP_CLI_MAX_SHAPES)
                    return gp_fail(GP_ERR_USAGE, "--shape given more than %d times", GP_CLI_MAX_SHAPES);
                out->shapes[out->nshapes++] = v;
            } else if (!strcmp(a, "--budget")) {
                char *end;
                out->budget_s = strtod(v, &end);
                if (out->cmd != GP_CMD_TUNE)
                    return gp_fail(GP_ERR_USAGE, "option --budget is for tune only");
                if (!*v || *end || !(out->budget_s > 0 && out->budget_s <= 86400))
                    return gp_fail(GP_ERR_USAGE, "--budget: '%s' is not a number of seconds in (0, 86400]", v);
            } else if (!strcmp(a, "--seed")) {
                char *end;
                errno = 0;
                out->seed = strtoull(v, &end, 10);
                if (!*v || *end || v[0] == '-' || v[0] == '+' || v[0] == ' ')
                    return gp_fail(GP_ERR_USAGE, "--seed: '%s' is not a non-negative integer", v);
                if (errno == ERANGE)
                    return gp_fail(GP_ERR_USAGE, "--seed: '%s' is larger than %llu, the largest seed", v,
                                   (unsigned long long)ULLONG_MAX);
                out->have_seed = 1;
            } else {
                int is_table = !strcmp(a, "--table");
                int *n = is_table ? &out->ntables : &out->nmistuned;
                if (!*v)
                    return gp_fail(GP_ERR_USAGE, "%s needs a file name", a);
                if (*n >= GP_CLI_MAX_TABLES)
                    return gp_fail(GP_ERR_USAGE, "%s given more than %d times", a, GP_CLI_MAX_TABLES);
                (is_table ? out->tables : out->mistuned)[(*n)++] = v;
            }
        } else if (!strcmp(a, "--quick")) {
            out->quick = 1;
        } else if (!strcmp(a, "--force")) {
            if (out->cmd != GP_CMD_CHARACTERIZE)
                return gp_fail(GP_ERR_USAGE, "option --force is for characterize only");
            out->force = 1;
        } else if (a[0] == '-') {
            return gp_fail(GP_ERR_USAGE, "unknown option '%s'", a);
        } else if (kernel_cmd) {
            if (!gp_kernel_find(a))
                return gp_fail(GP_ERR_USAGE, "unknown kernel '%s' (gpuprobe list shows the kernels)", a);
            if (out->nprobes >= GP_CLI_MAX_PROBES)
                return gp_fail(GP_ERR_USAGE, "too many kernels named");
            out->probes[out->nprobes++] = a;
        } else if (out->cmd == GP_CMD_RUN) {
            if (!gp_probe_find(a))
                return gp_fail(GP_ERR_USAGE, "unknown probe '%s' (gpuprobe list shows the probes)", a);
            if (out->nprobes >= GP_CLI_MAX_PROBES)
                return gp_fail(GP_ERR_USAGE, "too many probes named");
            out->probes[out->nprobes++] = a;
        } else {
            return gp_fail(GP_ERR_USAGE, "command '%s' takes no argument '%s'", cmd, a);
        }
    }
    if (out->cmd == GP_CMD_RUN && out->nprobes == 0)
        return gp_fail(GP_ERR_USAGE, "run needs at least one probe name");
    if ((out->cmd == GP_CMD_VERIFY || out->cmd == GP_CMD_BENCH || out->cmd == GP_CMD_TUNE) &&
        out->nprobes == 0)
        return gp_fail(GP_ERR_USAGE, "%s needs at least one kernel name", cmd);
    if (out->nshapes > 0 && out->nprobes != 1)
        return gp_fail(GP_ERR_USAGE, "--shape needs exactly one kernel (a shape is in its kernel's own syntax)");
    return gp_ok();
}
