/* The one option parser and the usage texts, over the command table of
 * app/commands.c (cli.h says how a command line reads). */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#include "run_compare.h"

#define TEXT_COL 23     /* where the text of a usage line starts */
#define OPT_VAL 0x1000  /* getopt_long's value of option i: OPT_VAL + i */

const gp_cli_cmd *gp_cli_command(const char *name)
{
    if (!strcmp(name, "--help") || !strcmp(name, "-h"))
        name = "help";
    for (size_t i = 0; i < gp_cli_ncommands; i++)
        if (!strcmp(gp_cli_commands[i].name, name))
            return &gp_cli_commands[i];
    return NULL;
}

/* ---- usage ---- */

/* text from the current column on; each '\n' continues it at TEXT_COL. */
static void put_text(FILE *f, const char *text)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
        if (*p)
            fprintf(f, "%*s", TEXT_COL, "");
    }
}

/* "  ITEM                text": the text at TEXT_COL, or after two spaces
 * when the item reaches it. */
static void put_item(FILE *f, const char *item, int len, const char *text)
{
    int w = fprintf(f, "  %.*s", len, item);
    if (!*text) {
        fputc('\n', f);
        return;
    }
    fprintf(f, "%*s", w < TEXT_COL - 1 ? TEXT_COL - w : 2, "");
    put_text(f, text);
}

static void put_option(FILE *f, const gp_cli_opt *o)
{
    char item[80];
    if (o->letter)
        snprintf(item, sizeof item, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(item, sizeof item, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    put_item(f, item, (int)strlen(item), o->help);
}

/* A command in the list: each form of its synopsis beside a line of its
 * summary (table show, check, derive), the summary's further lines under. */
static void put_command(FILE *f, const gp_cli_cmd *c)
{
    const char *form = c->synopsis, *text = c->summary;
    do {
        char item[160];
        size_t flen = strcspn(form, "\n"), tlen = strcspn(text, "\n");
        int n = snprintf(item, sizeof item, "%s%s%.*s", c->name, flen ? " " : "", (int)flen, form);
        char line[200];
        snprintf(line, sizeof line, "%.*s", (int)tlen, text);
        put_item(f, item, n, line);
        form += flen + (form[flen] == '\n');
        text += tlen + (text[tlen] == '\n');
    } while (*form);
    if (*text) {
        fprintf(f, "%*s", TEXT_COL, "");
        put_text(f, text);
    }
}

static const gp_cli_opt opt_tables_usage = {
    "tables", 0, "DIR", "a directory", GP_OPT_COMMON | GP_OPT_PATH,
    "shipped tuning tables (any command, anywhere on the line)", NULL};

void gp_cli_usage(FILE *f)
{
    fputs("usage: gpuprobe COMMAND [options]\n\ncommands:\n", f);
    for (size_t i = 0; i < gp_cli_ncommands; i++)
        put_command(f, &gp_cli_commands[i]);
    fputs("\noptions (gpuprobe help COMMAND: the options of one command):\n", f);
    put_option(f, &opt_tables_usage);
    for (size_t i = 0; gp_cli_common_opts[i]; i++)
        put_option(f, gp_cli_common_opts[i]);
    fputs("\n"
          "environment: GP_TABLES_DIR  shipped tuning tables when --tables is not given; then\n"
          "             ../share/gpuprobe/tables beside the executable, then the source tree's\n"
          "             tables/ (gpuprobe info says which)\n"
          "\n"
          "exit codes: 0 success, 1 a probe or check failed, 2 bad usage or input, 77 no GPU\n",
          f);
}

void gp_cli_usage_of(const gp_cli_cmd *c, FILE *f)
{
    if (c->cmd == GP_CMD_HELP) { /* help's usage is the list of commands */
        gp_cli_usage(f);
        return;
    }
    const char *form = c->synopsis;
    /* "[options]" unless the synopsis names them itself (table derive's -o) */
    const char *opts = c->opts && c->opts[0] && !strstr(c->synopsis, "[-") ? " [options]" : "";
    do {
        size_t flen = strcspn(form, "\n");
        fprintf(f, "%s gpuprobe %s%s%.*s%s\n", form == c->synopsis ? "usage:" : "      ", c->name, flen ? " " : "",
                (int)flen, form, opts);
        form += flen + (form[flen] == '\n');
    } while (*form);
    for (const char *p = c->about ? c->about : c->summary; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "  %.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
    }
    fputs("\noptions:\n", f);
    for (size_t i = 0; c->opts && c->opts[i]; i++)
        put_option(f, c->opts[i]);
    put_option(f, &opt_tables_usage);
}

/* ---- parsing ---- */

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

/* An option command c does not take: the commands that do, when it is
 * theirs, else unknown.  what: "--name" or "-x". */
static gp_status not_an_option(const gp_cli_cmd *c, const char *what)
{
    char who[200] = "";
    int n = 0;
    for (size_t i = 0; i < gp_cli_ncommands; i++) {
        const gp_cli_cmd *o = &gp_cli_commands[i];
        for (size_t k = 0; o->opts && o->opts[k]; k++) {
            const gp_cli_opt *opt = o->opts[k];
            if (what[1] == '-' ? !strcmp(opt->name, what + 2) : opt->letter == what[1]) {
                size_t len = strlen(who);
                snprintf(who + len, sizeof who - len, "%s%s", n++ ? ", " : "", o->name);
                break;
            }
        }
    }
    if (n == 0)
        return gp_fail(GP_ERR_USAGE, "%s: unknown option '%s'", c->name, what);
    if (n > 3)
        return gp_fail(GP_ERR_USAGE, "%s takes no option %s (gpuprobe help %s lists its options)", c->name, what,
                       c->name);
    char *last = strrchr(who, ',');
    if (last) { /* "a, b, c" -> "a, b and c" */
        memmove(last + 4, last + 1, strlen(last + 1) + 1);
        memcpy(last, " and", 4);
    }
    return gp_fail(GP_ERR_USAGE, "option %s is for %s only", what, who);
}

static gp_status needs_value(const gp_cli_cmd *c, const gp_cli_opt *o)
{
    return gp_fail(GP_ERR_USAGE, "%s: --%s needs %s", c->name, o->name, o->needs);
}

/* One option's value (NULL for a flag, or a words option given none yet). */
static gp_status take(gp_cli *cli, const gp_cli_cmd *c, const gp_cli_opt *o, const char *v)
{
    if (v && (o->flags & GP_OPT_PATH) && (!v[0] || (v[0] == '-' && v[1])))
        return needs_value(c, o);
    return v || !o->arg ? o->set(cli, v) : gp_ok();
}

/* getopt_long's tables for the options of c. */
static void getopt_tables(const gp_cli_cmd *c, struct option *lo, char *so)
{
    size_t i = 0, k = 0;
    so[k++] = '-'; /* every word in its place: a words option takes those after it */
    so[k++] = ':'; /* a missing value is ':', not '?' */
    for (; c->opts && c->opts[i]; i++) {
        const gp_cli_opt *o = c->opts[i];
        int has = !o->arg ? no_argument : (o->flags & GP_OPT_WORDS) ? optional_argument : required_argument;
        lo[i] = (struct option){o->name, has, NULL, OPT_VAL + (int)i};
        if (o->letter) {
            so[k++] = (char)o->letter;
            if (o->arg)
                so[k++] = ':';
        }
    }
    lo[i] = (struct option){NULL, 0, NULL, 0};
    so[k] = '\0';
}

static const gp_cli_opt *option_of(const gp_cli_cmd *c, int val)
{
    if (val <= 0) /* an unknown long option */
        return NULL;
    if (val >= OPT_VAL)
        return c->opts[val - OPT_VAL];
    for (size_t i = 0; c->opts && c->opts[i]; i++)
        if (c->opts[i]->letter == val)
            return c->opts[i];
    return NULL;
}

/* The option word getopt_long refused, as "--name" or "-x". */
static void refused(char **argv, int val, char *out, size_t n)
{
    if (val > 0 && val < OPT_VAL)
        snprintf(out, n, "-%c", val);
    else
        snprintf(out, n, "%.*s", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
}

/* argv[0] is the command word: options and words after it, in order. */
static gp_status parse_words(const gp_cli_cmd *c, int argc, char **argv, gp_cli *cli)
{
    struct option lo[32];
    char so[64], what[64];
    char *words[GP_CLI_MAX_ARGS];
    int nwords = 0, taken = 0, r;
    const gp_cli_opt *many = NULL; /* the words option taking the words that follow */
    getopt_tables(c, lo, so);
    optind = 0; /* start afresh: getopt_long keeps state between calls */
    opterr = 0;
    while ((r = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        if (r == 1 && many) {
            GP_TRY(many->set(cli, optarg));
            taken++;
            continue;
        }
        if (many && !taken)
            return needs_value(c, many);
        many = NULL;
        if (r == 1) {
            words[nwords++] = optarg;
            continue;
        }
        const gp_cli_opt *o = r == '?' || r == ':' ? option_of(c, optopt) : option_of(c, r);
        if (r == ':')
            return needs_value(c, o);
        if (r == '?' && o) /* a value given to a flag: --quick=1 */
            return gp_fail(GP_ERR_USAGE, "%s: --%s takes no value", c->name, o->name);
        if (r == '?') {
            refused(argv, optopt, what, sizeof what);
            return not_an_option(c, what);
        }
        GP_TRY(take(cli, c, o, optarg));
        if (o->flags & GP_OPT_WORDS) {
            many = o;
            taken = optarg != NULL;
        }
    }
    if (many && !taken)
        return needs_value(c, many);
    while (optind < argc) /* after "--" */
        words[nwords++] = argv[optind++];
    return c->args(cli, nwords, words);
}

static void defaults(gp_cli *out, const char *argv0)
{
    memset(out, 0, sizeof *out);
    out->argv0 = argv0;
    out->out_dir = "gpuprobe-results";
    out->floor = GP_CMP_DEFAULT_FLOOR;
    out->threshold.rule = GP_FLEET_RULE_Z;
    out->threshold.limit = GP_FLEET_DEFAULT_Z;
    out->slots = 1;
}

gp_status gp_cli_parse(int argc, char **argv_in, gp_cli *out)
{
    char *argv[GP_CLI_MAX_ARGS];
    defaults(out, argc > 0 ? argv_in[0] : "gpuprobe");
    GP_TRY(take_tables(&argc, argv_in, argv, out));
    if (argc < 2)
        return gp_fail(GP_ERR_USAGE, "no command given");
    const gp_cli_cmd *c = gp_cli_command(argv[1]);
    if (!c)
        return gp_fail(GP_ERR_USAGE, "unknown command '%s'", argv[1]);
    out->command = c;
    out->cmd = c->cmd;
    /* `gpuprobe run --help`: run's usage, not an error, whatever else is there. */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            out->help_of = c;
            out->command = gp_cli_command("help");
            out->cmd = GP_CMD_HELP;
            return gp_ok();
        }
    return parse_words(c, argc - 1, argv + 1, out);
}

int gp_cli_main(int argc, char **argv)
{
    static gp_cli cli; /* ~12 KB: off the stack */
    gp_status st = gp_cli_parse(argc, argv, &cli);
    if (st.code != GP_OK) {
        /* A known command's mistake shows that command's usage, not all of them. */
        fprintf(stderr, "gpuprobe: %s\n\n", st.msg);
        if (cli.command)
            gp_cli_usage_of(cli.command, stderr);
        else
            gp_cli_usage(stderr);
        return 2;
    }
    cli.tables_from = gp_tables_dir_find(cli.tables_dir, cli.tables_found, sizeof cli.tables_found);
    st = cli.command->run(&cli);
    if (st.code != GP_OK)
        fprintf(stderr, "gpuprobe: %s\n", st.msg);
    return gp_status_exit_code(&st);
}
