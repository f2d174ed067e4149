#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "probe.h"

const char *gp_cli_usage(void)
{
    return "usage: gpuprobe COMMAND [options]\n"
           "\n"
           "commands:\n"
           "  info                 describe the GPU as its runtime reports it\n"
           "  list                 list the probes\n"
           "  run PROBE...         run probes, write their records, check their findings\n"
           "  characterize         run every probe, then write the tuning table and the report\n"
           "  report DIR           rebuild DIR/table.txt and DIR/report.{md,html} from the records in DIR\n"
           "  table show FILE      print a tuning table (after checking it)\n"
           "  table check FILE     check a tuning table: exit 2 with FILE:LINE: reason on a defect\n"
           "  help, --help         this text\n"
           "  --version            the version\n"
           "\n"
           "options:\n"
           "  --device N           GPU index (default 0)\n"
           "  --out DIR            where records go (default gpuprobe-results)\n"
           "\n"
           "environment: GP_TABLES_DIR  shipped tuning tables (default: the source tree's tables/)\n"
           "  --quick              shorter sweeps and timings (smoke runs)\n"
           "\n"
           "exit codes: 0 success, 1 a probe or check failed, 2 bad usage or input, 77 no GPU\n";
}

static gp_status parse_int(const char *s, const char *what, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 1024)
        return gp_fail(GP_ERR_USAGE, "%s: '%s' is not a number in 0..1024", what, s);
    *out = (int)v;
    return gp_ok();
}

gp_status gp_cli_parse(int argc, char **argv, gp_cli *out)
{
    memset(out, 0, sizeof *out);
    out->out_dir = "gpuprobe-results";
    if (argc < 2)
        return gp_fail(GP_ERR_USAGE, "no command given");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        out->cmd = GP_CMD_HELP;
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
    else if (!strcmp(cmd, "report")) {
        if (argc != 3 || argv[2][0] == '-')
            return gp_fail(GP_ERR_USAGE, "report needs one results directory");
        out->cmd = GP_CMD_REPORT;
        out->file = argv[2];
        return gp_ok();
    } else if (!strcmp(cmd, "table")) {
        if (argc != 4 || (strcmp(argv[2], "show") && strcmp(argv[2], "check")))
            return gp_fail(GP_ERR_USAGE, "table needs 'show FILE' or 'check FILE'");
        out->cmd = strcmp(argv[2], "show") ? GP_CMD_TABLE_CHECK : GP_CMD_TABLE_SHOW;
        out->file = argv[3];
        return gp_ok();
    } else
        return gp_fail(GP_ERR_USAGE, "unknown command '%s'", cmd);

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--device") || !strcmp(a, "--out")) {
            if (i + 1 >= argc)
                return gp_fail(GP_ERR_USAGE, "option %s needs a value", a);
            if (!strcmp(a, "--device"))
                GP_TRY(parse_int(argv[++i], "--device", &out->device));
            else if (!*(out->out_dir = argv[++i]))
                return gp_fail(GP_ERR_USAGE, "--out needs a non-empty directory");
        } else if (!strcmp(a, "--quick")) {
            out->quick = 1;
        } else if (a[0] == '-') {
            return gp_fail(GP_ERR_USAGE, "unknown option '%s'", a);
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
    return gp_ok();
}
