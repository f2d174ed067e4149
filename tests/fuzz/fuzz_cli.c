/* libFuzzer target: the command-line parser (gp_cli_parse).
 *
 * The input is a command line, one argument per line ('\n' or NUL ends an
 * argument; tests/fuzz/cli_seeds holds real ones); argv[0] is "gpuprobe".
 * Properties checked on every input:
 *   - no crash, no hang, no sanitizer report;
 *   - a rejected command line gets GP_ERR_USAGE (exit code 2) and a
 *     non-empty message;
 *   - an accepted one is consistent: a known command, counts within their
 *     arrays, every probe/kernel name found in its registry, names and
 *     files pointing into argv, an output folder that is not empty. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"
#include "probe.h"

#define MAX_ARGS 300

static void die(const char *what, const gp_status *st)
{
    fprintf(stderr, "fuzz_cli: %s (code %d, message '%s')\n", what, st->code, st->msg);
    abort();
}

/* p is an argument, or the value in one (--table=FILE). */
static int in_argv(const char *p, char **argv, int argc)
{
    for (int i = 0; i < argc; i++)
        if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char *argv[MAX_ARGS + 2];
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 0;
    argv[argc++] = (char *)"gpuprobe";
    /* Split on '\n' and NUL; a trailing separator does not add an empty argument. */
    char *p = buf, *end = buf + size;
    while (p < end && argc < MAX_ARGS + 1) {
        char *q = p;
        while (q < end && *q != '\n' && *q != '\0')
            q++;
        *q = '\0';
        argv[argc++] = p;
        p = q + 1;
    }
    argv[argc] = NULL;

    gp_cli c;
    gp_status st = gp_cli_parse(argc, argv, &c);
    if (st.code != GP_OK) {
        if (st.code != GP_ERR_USAGE || gp_status_exit_code(&st) != 2)
            die("rejection that is not a usage error (exit 2)", &st);
        if (!st.msg[0])
            die("rejection with an empty message", &st);
        free(buf);
        return 0;
    }
    if (c.cmd == GP_CMD_NONE || !c.command || !c.command->run)
        die("accepted with no command", &st);
    if (c.nprobes < 0 || c.nprobes > GP_CLI_MAX_PROBES || c.ntables < 0 || c.ntables > GP_CLI_MAX_TABLES ||
        c.nmistuned < 0 || c.nmistuned > GP_CLI_MAX_TABLES)
        die("accepted with a count out of its array", &st);
    if (!c.out_dir || !c.out_dir[0])
        die("accepted with an empty output folder", &st);
    if (c.device < 0 || c.device > 1024)
        die("accepted a device index out of 0..1024", &st);
    if (c.cmd == GP_CMD_RUN && c.nprobes == 0)
        die("accepted run without a probe", &st);
    for (int i = 0; i < c.nprobes; i++) {
        int kernel = c.cmd != GP_CMD_RUN; /* verify, bench and any later kernel command */
        if (kernel ? !gp_kernel_find(c.probes[i]) : !gp_probe_find(c.probes[i]))
            die("accepted an unknown probe or kernel name", &st);
        if (!in_argv(c.probes[i], argv, argc))
            die("a name that does not point into argv", &st);
    }
    for (int i = 0; i < c.ntables; i++)
        if (!c.tables[i][0] || !in_argv(c.tables[i], argv, argc))
            die("an empty --table or one not from argv", &st);
    for (int i = 0; i < c.nmistuned; i++)
        if (!c.mistuned[i][0] || !in_argv(c.mistuned[i], argv, argc))
            die("an empty --mistuned or one not from argv", &st);
    if ((c.cmd == GP_CMD_REPORT || c.cmd == GP_CMD_TABLE_SHOW || c.cmd == GP_CMD_TABLE_CHECK) &&
        (!c.file || !in_argv(c.file, argv, argc)))
        die("report/table without its file argument", &st);
    if (c.force && c.cmd != GP_CMD_CHARACTERIZE)
        die("--force accepted outside characterize", &st);
    if (c.ndirs < 0 || c.ndirs > GP_CLI_MAX_ARGS || c.nonly < 0 || c.nonly > GP_CLI_MAX_ONLY)
        die("accepted with a count out of its array", &st);
    for (int i = 0; i < c.ndirs; i++)
        if (!c.dirs[i][0] || !in_argv(c.dirs[i], argv, argc))
            die("an empty results folder or one not from argv", &st);
    if (c.cmd == GP_CMD_COMPARE && c.ndirs != 2)
        die("compare accepted without two folders", &st);
    free(buf);
    return 0;
}
