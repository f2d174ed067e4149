/* The command table of gpuprobe: every command with its synopsis, summary,
 * options, the check of its arguments and its run function; and every
 * option with the function that stores its value.  app/cli.c parses and
 * prints usage from these; adding a command or an option is an entry here. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_cmd.h"
#include "fleet_cmd.h"
#include "kernel.h"
#include "kernel_cmds.h"
#include "probe.h"
#include "probe_cmds.h"
#include "resources_cmd.h"
#include "stress_cmd.h"
#include "table_cmds.h"

/* ---- storing option values ---- */

/* --device N, or `all` (characterize) / `ctest` (run): app/node_cmd.h. */
static gp_status set_device(gp_cli *c, const char *v)
{
    if (!strcmp(v, "all") || !strcmp(v, "ctest")) {
        int all = v[0] == 'a';
        if (all ? c->cmd != GP_CMD_CHARACTERIZE && c->cmd != GP_CMD_STRESS : c->cmd != GP_CMD_RUN)
            return gp_fail(GP_ERR_USAGE, "--device %s is for %s only", v, all ? "characterize and stress" : "run");
        c->device_mode = all ? GP_DEVICE_ALL : GP_DEVICE_CTEST;
        return gp_ok();
    }
    char *end;
    long d = strtol(v, &end, 10);
    if (!*v || *end || d < 0 || d > 1024)
        return gp_fail(GP_ERR_USAGE, "--device: '%s' is not a GPU index in 0..1024%s", v,
                       c->cmd == GP_CMD_CHARACTERIZE ? " or 'all'" : c->cmd == GP_CMD_RUN ? " or 'ctest'" : "");
    c->device = (int)d;
    c->device_mode = GP_DEVICE_ONE;
    return gp_ok();
}

static gp_status set_out_dir(gp_cli *c, const char *v)
{
    c->out_dir = v;
    c->out_given = 1;
    return gp_ok();
}

static gp_status set_out_file(gp_cli *c, const char *v) { c->out_file = v; return gp_ok(); }
static gp_status set_prometheus(gp_cli *c, const char *v) { c->prometheus = v; return gp_ok(); }

static gp_status set_quick(gp_cli *c, const char *v) { (void)v, c->quick = 1; return gp_ok(); }
static gp_status set_force(gp_cli *c, const char *v) { (void)v, c->force = 1; return gp_ok(); }
static gp_status set_json(gp_cli *c, const char *v) { (void)v, c->json = 1; return gp_ok(); }

static gp_status add_table(const char *opt, const char **list, int *n, const char *v)
{
    if (*n >= GP_CLI_MAX_TABLES)
        return gp_fail(GP_ERR_USAGE, "%s given more than %d times", opt, GP_CLI_MAX_TABLES);
    list[(*n)++] = v;
    return gp_ok();
}

static gp_status set_table(gp_cli *c, const char *v) { return add_table("--table", c->tables, &c->ntables, v); }

static gp_status set_mistuned(gp_cli *c, const char *v)
{
    return add_table("--mistuned", c->mistuned, &c->nmistuned, v);
}

static gp_status set_seed(gp_cli *c, const char *v)
{
    char *end;
    errno = 0;
    c->seed = strtoull(v, &end, 10);
    if (!*v || *end || v[0] == '-' || v[0] == '+' || v[0] == ' ')
        return gp_fail(GP_ERR_USAGE, "--seed: '%s' is not a non-negative integer", v);
    if (errno == ERANGE)
        return gp_fail(GP_ERR_USAGE, "--seed: '%s' is larger than %llu, the largest seed", v,
                       (unsigned long long)ULLONG_MAX);
    c->have_seed = 1;
    return gp_ok();
}

static gp_status set_shape(gp_cli *c, const char *v)
{
    if (!*v)
        return gp_fail(GP_ERR_USAGE, "--shape needs a shape (the kernel's own syntax)");
    if (c->nshapes >= GP_CLI_MAX_SHAPES)
        return gp_fail(GP_ERR_USAGE, "--shape given more than %d times", GP_CLI_MAX_SHAPES);
    c->shapes[c->nshapes++] = v;
    return gp_ok();
}

static gp_status set_random_shapes(gp_cli *c, const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > GP_CLI_MAX_SHAPES)
        return gp_fail(GP_ERR_USAGE, "--random-shapes: '%s' is not a count in 1..%d", v, GP_CLI_MAX_SHAPES);
    c->random_shapes = (int)n;
    return gp_ok();
}

static gp_status set_budget(gp_cli *c, const char *v)
{
    char *end;
    c->budget_s = strtod(v, &end);
    if (!*v || *end || !(c->budget_s > 0 && c->budget_s <= 86400))
        return gp_fail(GP_ERR_USAGE, "--budget: '%s' is not a number of seconds in (0, 86400]", v);
    return gp_ok();
}

static gp_status set_against(gp_cli *c, const char *v)
{
    if (c->against)
        return gp_fail(GP_ERR_USAGE, "report: --against given twice");
    c->against = v;
    return gp_ok();
}

static gp_status set_floor(gp_cli *c, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !isfinite(x) || x < 0 || x >= 1)
        return gp_fail(GP_ERR_USAGE, "--tolerance-floor: '%s' is not a fraction in [0, 1) (0.005 means 0.5 %%)", v);
    c->floor = x;
    return gp_ok();
}

/* --only PROBE...: each word, commas separating too. */
static gp_status set_only(gp_cli *c, const char *v)
{
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, ",");
        if (len) {
            if (c->nonly >= GP_CLI_MAX_ONLY)
                return gp_fail(GP_ERR_USAGE, "--only: more than %d probes", GP_CLI_MAX_ONLY);
            if (c->words_used + len + 1 > sizeof c->words)
                return gp_fail(GP_ERR_USAGE, "--only: the names are longer than %zu bytes", sizeof c->words);
            char *w = c->words + c->words_used;
            memcpy(w, p, len);
            w[len] = '\0';
            c->words_used += len + 1;
            c->only[c->nonly++] = w;
        }
        p += len + (p[len] == ',');
    }
    return gp_ok();
}

static gp_status set_threshold(gp_cli *c, const char *v) { return gp_fleet_threshold_parse(v, &c->threshold); }

static gp_status set_slots(gp_cli *c, const char *v)
{
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (!end || *end || end == v || n < 1 || n > 1000)
        return gp_fail(GP_ERR_USAGE, "--slots: '%s' is not a count of tests per GPU (1 to 1000)", v);
    c->slots = (int)n;
    return gp_ok();
}

/* A positive number up to `max` into *out. */
static gp_status set_positive(const char *opt, const char *v, double max, double *out)
{
    char *end;
    const double x = strtod(v, &end);
    if (!*v || *end || !(x > 0 && x <= max))
        return gp_fail(GP_ERR_USAGE, "%s: '%s' is not a number above 0 and at most %g", opt, v, max);
    *out = x;
    return gp_ok();
}

static gp_status set_seconds(gp_cli *c, const char *v) { return set_positive("--seconds", v, 3600, &c->stress_seconds); }
static gp_status set_max_loss(gp_cli *c, const char *v)
{
    GP_TRY(set_positive("--max-loss", v, 1, &c->max_loss));
    return c->max_loss < 1 ? gp_ok() : gp_fail(GP_ERR_USAGE, "--max-loss: '%s' must be below 1", v);
}

/* ---- the options ---- */

#define PATH GP_OPT_PATH
#define COMMON GP_OPT_COMMON

static const gp_cli_opt opt_device = {
    "device", 0, "N", "a GPU index", COMMON, "GPU index (default 0)", set_device};
static const gp_cli_opt opt_device_all = {
    "device", 0, "N|all", "a GPU index or 'all'", COMMON,
    "characterize: GPU N into DIR/<bus>_<uuid8>/, its own folder (gpuprobe\n"
    "info: folder); all: every GPU in turn, each into its folder, and\n"
    "DIR/index.md; exit 1 when one failed (the others still run)",
    set_device};
static const gp_cli_opt opt_device_ctest = {
    "device", 0, "N|ctest", "a GPU index or 'ctest'", COMMON,
    "run: GPU N into DIR/<bus>_<uuid8>/; ctest: the GPUs CTest's resource\n"
    "groups allocated (CTEST_RESOURCE_GROUP_*), each into its folder;\n"
    "device 0 into DIR without them",
    set_device};
static const gp_cli_opt opt_out = {
    "out", 0, "DIR", "a directory", COMMON | PATH,
    "where records go (default gpuprobe-results; selftest: gpuprobe-selftest);\n"
    "verify/bench use DIR/table.txt when it exists, tune writes it",
    set_out_dir};
static const gp_cli_opt opt_quick = {"quick", 0, NULL, NULL, COMMON, "shorter sweeps and timings (smoke runs)",
                                     set_quick};
static const gp_cli_opt opt_force = {"force", 0, NULL, NULL, COMMON,
                                     "characterize: run every probe again, reusing no record", set_force};
static const gp_cli_opt opt_table = {
    "table", 0, "FILE", "a file name", COMMON | PATH,
    "verify/bench/tune: use this table (its arch must match the GPU's\n"
    "or be generic); repeat to compare tables; FILE 'lookup' is the\n"
    "device's own (measured in --out, else shipped, else generic)",
    set_table};
static const gp_cli_opt opt_mistuned = {"mistuned", 0, "FILE", "a file name", COMMON | PATH,
                                        "verify/bench/tune: also use another arch's table, on purpose", set_mistuned};
static const gp_cli_opt opt_seed = {"seed", 0, "N", "a number", COMMON,
                                    "verify: replay the random data of an earlier run", set_seed};
static const gp_cli_opt opt_shape = {
    "shape", 0, "SPEC", "a shape (the kernel's own syntax)", COMMON,
    "verify/bench/tune KERNEL: your problem, in the kernel's own\n"
    "syntax (e.g. ssim '1x3x1080x1920 same', gemm 4096x4096x4096,\n"
    "scan '2^28 fp32'); repeat for several; tune then keeps\n"
    "parameters for each shape's class",
    set_shape};
static const gp_cli_opt opt_random_shapes = {
    "random-shapes", 0, "N", "a count", 0,
    "verify KERNEL: N shapes drawn from the kernel's range (small\n"
    "to large, odd and aligned, every option) from the run's seed\n"
    "(printed; --seed replays them)",
    set_random_shapes};
static const gp_cli_opt opt_budget = {"budget", 0, "SECONDS", "a number of seconds", COMMON,
                                      "tune: the time each kernel's tune aims at (default 15, quick 4)", set_budget};
static const gp_cli_opt opt_against = {
    "against", 0, "DIR2", "a directory", PATH,
    "a second results folder beside it (datasheet ratio, both series in each plot)", set_against};
static const gp_cli_opt opt_report_out = {"out", 0, "OUT", "a directory", PATH,
                                          "write the table and the report into OUT; nothing into DIR", set_out_dir};
static const gp_cli_opt opt_compare_out = {"out", 0, "FILE", "a file name", PATH,
                                           "the comparison into FILE too (its folder is created)", set_out_file};
static const gp_cli_opt opt_compare_json = {
    "json", 0, NULL, NULL, 0, "the comparison as JSON (docs/formats.md) instead of Markdown, on stdout and in FILE",
    set_json};
static const gp_cli_opt opt_floor = {"tolerance-floor", 0, "F", "a fraction", 0,
                                     "the smallest band, a fraction (default 0.005 = 0.5 %)", set_floor};
static const gp_cli_opt opt_only = {"only", 0, "PROBE...", "one or more probe names (e.g. --only lds atomics)",
                                    GP_OPT_WORDS, "compare these probes only (names up to the next option; commas too)",
                                    set_only};
static const gp_cli_opt opt_threshold = {
    "threshold", 0, "T", "a threshold (3.5, 3.5z or 5%)", 0,
    "robust z (3.5 or 3.5z, the default 3.5) or percent from the model's median (5%)", set_threshold};
static const gp_cli_opt opt_fleet_out = {"out", 0, "DIR", "a directory", PATH,
                                         "write fleet.md, fleet.html (strip plots) and fleet.json there; without it\n"
                                         "the Markdown goes to stdout",
                                         set_out_dir};
static const gp_cli_opt opt_fleet_json = {
    "json", 0, NULL, NULL, 0, "the JSON of fleet.json (docs/formats.md) to stdout instead, the summary to stderr",
    set_json};
static const gp_cli_opt opt_prometheus = {
    "prometheus", 0, "FILE", "a file name", PATH,
    "write the fleet in Prometheus' text format into FILE (node-exporter's\n"
    "textfile collector; written whole, then renamed into place)",
    set_prometheus};
static const gp_cli_opt opt_stress_device = {
    "device", 0, "N|all", "a GPU index or 'all'", 0, "the GPU to load (default 0); all: every GPU, alone then at once",
    set_device};
static const gp_cli_opt opt_stress_out = {"out", 0, "DIR", "a directory", PATH,
                                          "write stress.md, stress.json, the samples and the plots there\n"
                                          "(default gpuprobe-stress)",
                                          set_out_dir};
static const gp_cli_opt opt_seconds = {"seconds", 0, "S", "a number of seconds", 0,
                                       "each phase's length, FMA then DRAM, alone and together (default 15;\n"
                                       "--quick 3)",
                                       set_seconds};
static const gp_cli_opt opt_max_loss = {"max-loss", 0, "F", "a fraction", 0,
                                        "flag a GPU whose rate together is more than F below alone (default 0.05)",
                                        set_max_loss};
static const gp_cli_opt opt_resources_out = {"out", 0, "FILE", "a file name", PATH, "write the spec into FILE",
                                             set_out_file};
static const gp_cli_opt opt_slots = {"slots", 0, "N", "a count", 0, "tests at once on each GPU (default 1)",
                                     set_slots};
static const gp_cli_opt opt_derive_out = {"out", 'o', "OUT", "a file name", PATH,
                                          "table derive: write the derived table into OUT", set_out_file};

const gp_cli_opt *const gp_cli_common_opts[] = {&opt_device,   &opt_device_all, &opt_device_ctest, &opt_out,
                                                &opt_quick,    &opt_force,      &opt_table,        &opt_mistuned,
                                                &opt_seed,     &opt_shape,      &opt_budget,       NULL};

static const gp_cli_opt *const opts_info[] = {&opt_device, NULL};
static const gp_cli_opt *const opts_run[] = {&opt_device_ctest, &opt_out, &opt_quick, NULL};
static const gp_cli_opt *const opts_characterize[] = {&opt_device_all, &opt_out, &opt_quick, &opt_force, NULL};
static const gp_cli_opt *const opts_selftest[] = {&opt_device, &opt_out, &opt_quick, NULL};
static const gp_cli_opt *const opts_report[] = {&opt_against, &opt_report_out, NULL};
static const gp_cli_opt *const opts_compare[] = {&opt_compare_out, &opt_compare_json, &opt_floor, &opt_only, NULL};
static const gp_cli_opt *const opts_fleet[] = {&opt_threshold, &opt_fleet_out, &opt_fleet_json, &opt_prometheus,
                                               NULL};
static const gp_cli_opt *const opts_stress[] = {&opt_stress_device, &opt_stress_out, &opt_seconds, &opt_max_loss,
                                                &opt_quick, NULL};
static const gp_cli_opt *const opts_resources[] = {&opt_resources_out, &opt_slots, NULL};
static const gp_cli_opt *const opts_table[] = {&opt_derive_out, NULL};
static const gp_cli_opt *const opts_kernels[] = {&opt_device, &opt_out,   &opt_quick, &opt_table,
                                                 &opt_mistuned, &opt_seed, &opt_shape, NULL};
static const gp_cli_opt *const opts_verify[] = {&opt_device,   &opt_out,  &opt_quick, &opt_table,         &opt_mistuned,
                                                &opt_seed,     &opt_shape, &opt_random_shapes, NULL};
static const gp_cli_opt *const opts_tune[] = {&opt_device, &opt_out,   &opt_quick, &opt_table, &opt_mistuned,
                                              &opt_seed,   &opt_shape, &opt_budget, NULL};

/* ---- the arguments of each command ---- */

static gp_status no_args(gp_cli *c, int n, char **w)
{
    if (n)
        return gp_fail(GP_ERR_USAGE, "command '%s' takes no argument '%s'", c->command->name, w[0]);
    return gp_ok();
}

static gp_status selftest_args(gp_cli *c, int n, char **w)
{
    if (!c->out_given)
        c->out_dir = "gpuprobe-selftest";
    return no_args(c, n, w);
}

static gp_status probe_args(gp_cli *c, int n, char **w)
{
    for (int i = 0; i < n; i++) {
        if (!gp_probe_find(w[i]))
            return gp_fail(GP_ERR_USAGE, "unknown probe '%s' (gpuprobe list shows the probes)", w[i]);
        if (c->nprobes >= GP_CLI_MAX_PROBES)
            return gp_fail(GP_ERR_USAGE, "too many probes named");
        c->probes[c->nprobes++] = w[i];
    }
    if (c->nprobes == 0)
        return gp_fail(GP_ERR_USAGE, "run needs at least one probe name");
    return gp_ok();
}

static gp_status kernel_args(gp_cli *c, int n, char **w)
{
    for (int i = 0; i < n; i++) {
        if (!gp_kernel_find(w[i]))
            return gp_fail(GP_ERR_USAGE, "unknown kernel '%s' (gpuprobe list shows the kernels)", w[i]);
        if (c->nprobes >= GP_CLI_MAX_PROBES)
            return gp_fail(GP_ERR_USAGE, "too many kernels named");
        c->probes[c->nprobes++] = w[i];
    }
    if (c->nprobes == 0)
        return gp_fail(GP_ERR_USAGE, "%s needs at least one kernel name", c->command->name);
    if (c->nshapes > 0 && c->nprobes != 1)
        return gp_fail(GP_ERR_USAGE, "--shape needs exactly one kernel (a shape is in its kernel's own syntax)");
    if (c->random_shapes && c->nshapes + c->random_shapes > GP_CLI_MAX_SHAPES)
        return gp_fail(GP_ERR_USAGE, "--shape and --random-shapes: %d shapes, at most %d", c->nshapes + c->random_shapes,
                       GP_CLI_MAX_SHAPES);
    for (int i = 0; c->random_shapes && i < c->nprobes; i++)
        if (!gp_kernel_find(c->probes[i])->shape_random)
            return gp_fail(GP_ERR_USAGE, "--random-shapes: kernel %s declares no random shapes", c->probes[i]);
    return gp_ok();
}

static gp_status stress_args(gp_cli *c, int n, char **w)
{
    if (!c->out_given)
        c->out_dir = "gpuprobe-stress";
    return no_args(c, n, w);
}

static gp_status report_args(gp_cli *c, int n, char **w)
{
    if (n < 1 || !w[0][0])
        return gp_fail(GP_ERR_USAGE, "report needs one results directory");
    if (n > 1)
        return gp_fail(GP_ERR_USAGE, "report takes one results directory; '%s' is a second", w[1]);
    c->file = w[0];
    return gp_ok();
}

static gp_status folders(gp_cli *c, int n, char **w)
{
    for (int i = 0; i < n; i++) {
        if (!w[i][0])
            return gp_fail(GP_ERR_USAGE, "%s: empty folder name", c->command->name);
        c->dirs[c->ndirs++] = w[i];
    }
    return gp_ok();
}

static gp_status compare_args(gp_cli *c, int n, char **w)
{
    if (n > 2)
        return gp_fail(GP_ERR_USAGE, "compare takes two results folders; '%s' is a third", w[2]);
    if (n < 2)
        return gp_fail(GP_ERR_USAGE, "compare needs two results folders (DIR_A DIR_B)");
    return folders(c, n, w);
}

static gp_status fleet_args(gp_cli *c, int n, char **w)
{
    if (n < 1)
        return gp_fail(GP_ERR_USAGE, "fleet needs at least one results folder");
    return folders(c, n, w);
}

/* table show FILE | check FILE | derive FILE [-o OUT] */
static gp_status table_args(gp_cli *c, int n, char **w)
{
    const char *verb = n ? w[0] : "";
    int derive = !strcmp(verb, "derive");
    if (n != 2 || (!derive && strcmp(verb, "show") && strcmp(verb, "check")) || (c->out_file && !derive))
        return gp_fail(GP_ERR_USAGE, "table needs 'show FILE', 'check FILE' or 'derive FILE [-o OUT]'");
    c->cmd = derive ? GP_CMD_TABLE_DERIVE : !strcmp(verb, "show") ? GP_CMD_TABLE_SHOW : GP_CMD_TABLE_CHECK;
    c->file = w[1];
    return gp_ok();
}

static gp_status help_args(gp_cli *c, int n, char **w)
{
    if (n > 1)
        return gp_fail(GP_ERR_USAGE, "help takes at most one command name");
    if (n == 1 && !(c->help_of = gp_cli_command(w[0])))
        return gp_fail(GP_ERR_USAGE, "help: unknown command '%s'", w[0]);
    return gp_ok();
}

/* ---- the commands ---- */

static gp_status help_run(gp_cli *c)
{
    if (c->help_of)
        gp_cli_usage_of(c->help_of, stdout);
    else
        gp_cli_usage(stdout);
    return gp_ok();
}

const gp_cli_cmd gp_cli_commands[] = {
    {GP_CMD_INFO, "info", "", "describe the GPU as its runtime reports it", NULL, opts_info, no_args, gp_cmd_info},
    {GP_CMD_LIST, "list", "", "list the probes and the application kernels", NULL, NULL, no_args, gp_cmd_list},
    {GP_CMD_RUN, "run", "PROBE...", "run probes, write their records, check their findings", NULL, opts_run,
     probe_args, gp_cmd_run},
    {GP_CMD_CHARACTERIZE, "characterize", "",
     "run every probe, then write the tuning table and the report;\n"
     "resumes: valid records in --out from this GPU and version are reused",
     NULL, opts_characterize, no_args, gp_cmd_characterize},
    {GP_CMD_REPORT, "report", "DIR",
     "rebuild DIR/table.txt and DIR/report.{md,html} from the records in DIR;\n"
     "--against DIR2: beside a second results folder; --out OUT: into OUT",
     "rebuild DIR/table.txt and DIR/report.{md,html} from the records in DIR (no GPU needed);\n"
     "with --against, beside a second results folder (another GPU, or another day)",
     opts_report, report_args, gp_cmd_report},
    {GP_CMD_COMPARE, "compare", "DIR_A DIR_B",
     "compare two runs' records value by value within their spreads;\n"
     "exit 1 when some differ (gpuprobe help compare)",
     "compare the probe records of two results folders value by value; a value agrees when\n"
     "|B - A| / |A| <= max(spread A, spread B, F) (F the --tolerance-floor)\n"
     "a probe recorded in one run only is a difference, unless --only names the probes to compare\n"
     "exit 0: all agree (unstable values are reported, not failed); 1: some differ; 2: bad input",
     opts_compare, compare_args, gp_cmd_compare},
    {GP_CMD_FLEET, "fleet", "DIR...",
     "compare many GPUs' results folders per device model: median, MAD,\n"
     "outliers, low clock or DRAM bandwidth; exit 1 on an outlier (gpuprobe help fleet)",
     "compare the results folders of many GPUs (one folder per GPU, any number of nodes), per device\n"
     "model: per characteristic the median, the MAD and the GPUs outside the threshold; flags a GPU\n"
     "whose measured clock or DRAM bandwidth is low; judges every GPU, alone too, against its\n"
     "product's published figures (specs/ beside the shipped tables)\n"
     "exit 0: no outlier; 1: an outlier, or a clock or DRAM bandwidth below its product's band;\n"
     "2: bad input (a missing folder or record, a corrupt record, a bad specs/ file)",
     opts_fleet, fleet_args, gp_cmd_fleet},
    {GP_CMD_RESOURCES, "resources", "", "CTest's resource spec (JSON) from the device list",
     "write CTest's resource specification file (JSON) from the runtime's device list: one \"gpus\"\n"
     "resource per GPU this binary runs on, id = the --device ordinal, N tests at once on each;\n"
     "to stdout, or FILE; then: ctest --resource-spec-file FILE -j N\n"
     "exit 0: written; 77: no usable GPU; 2: bad input",
     opts_resources, no_args, gp_cmd_resources},
    {GP_CMD_TABLE_SHOW, "table", "show FILE\ncheck FILE\nderive FILE [-o OUT]",
     "print a tuning table (after checking it)\n"
     "check a tuning table: exit 2 with FILE:LINE: reason on a defect\n"
     "fill the kernel sections of a facts table from its facts\n"
     "(every kernel's rule; swept values kept), to stdout or OUT",
     "show: print a tuning table (after checking it)\n"
     "check: check a tuning table: exit 2 with FILE:LINE: reason on a defect\n"
     "derive: fill the kernel sections of a facts table from its facts (every kernel's rule;\n"
     "swept values kept), to stdout or OUT",
     opts_table, table_args, gp_cmd_table},
    {GP_CMD_VERIFY, "verify", "KERNEL...", "check kernels against their CPU references under a tuning table", NULL,
     opts_verify, kernel_args, gp_cmd_verify},
    {GP_CMD_BENCH, "bench", "KERNEL...", "time kernels against their floors and vendor baselines", NULL, opts_kernels,
     kernel_args, gp_cmd_bench},
    {GP_CMD_TUNE, "tune", "KERNEL...",
     "time each kernel's candidate parameters; write the fastest into\n"
     "DIR/table.txt (provenance: swept)",
     NULL, opts_tune, kernel_args, gp_cmd_tune},
    {GP_CMD_SELFTEST, "selftest", "",
     "the installed binary's test: every probe with its checks\n"
     "into --out (default gpuprobe-selftest), the table, the\n"
     "report, every kernel verified under the measured table",
     NULL, opts_selftest, selftest_args, gp_cmd_selftest},
    {GP_CMD_STRESS, "stress", "",
     "load every GPU at once (FMA, then DRAM) beside each alone; clock,\n"
     "power, temperature, throttle reasons, health; exit 1 on a flag",
     "the node under load: each GPU runs the FMA and DRAM phases alone, then every GPU at once,\n"
     "while the vendor library samples clock, power, temperature and clock event reasons; a GPU\n"
     "is flagged when it loses more than --max-loss together, when its health counters hold\n"
     "a finding (uncorrected ECC, pending or failed remap), on an XID during the run, or\n"
     "when its PCIe link runs below its maximum under load\n"
     "exit 0: every GPU ok; 1: a GPU flagged; 2: bad input; 77: no GPU",
     opts_stress, stress_args, gp_cmd_stress},
    {GP_CMD_HELP, "help", "[COMMAND]", "this text, or COMMAND's own usage and options\n(also: gpuprobe COMMAND --help)",
     NULL, NULL, help_args, help_run},
    {GP_CMD_VERSION, "--version", "",
     "version, git revision, backend and device targets,\n"
     "compilers and vendor baselines of this build",
     NULL, NULL, no_args, gp_cmd_version},
};

const size_t gp_cli_ncommands = sizeof gp_cli_commands / sizeof gp_cli_commands[0];
