#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gp_test.h"
#include "probe.h"

static gp_status parse(int argc, const char **argv, gp_cli *c)
{
    return gp_cli_parse(argc, (char **)argv, c);
}

GP_TEST(cli_parses_run)
{
    gp_cli c;
    const char *a[] = {"gpuprobe", "run", "launch_rate", "--out", "/tmp/x", "--device", "1", "--quick"};
    GP_CHECK(parse(8, a, &c).code == GP_OK);
    GP_CHECK(c.cmd == GP_CMD_RUN && c.nprobes == 1 && !strcmp(c.probes[0], "launch_rate"));
    GP_CHECK(!strcmp(c.out_dir, "/tmp/x") && c.device == 1 && c.quick == 1);
    const char *b[] = {"gpuprobe", "info"};
    GP_CHECK(parse(2, b, &c).code == GP_OK && c.cmd == GP_CMD_INFO && c.device == 0);
    return 0;
}

GP_TEST(cli_rejects_bad_input)
{
    gp_cli c;
    gp_status st;
    const char *none[] = {"gpuprobe"};
    GP_CHECK(parse(1, none, &c).code == GP_ERR_USAGE);
    const char *cmd[] = {"gpuprobe", "frobnicate"};
    st = parse(2, cmd, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "frobnicate"));
    const char *probe[] = {"gpuprobe", "run", "no_such_probe"};
    st = parse(3, probe, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no_such_probe"));
    const char *opt[] = {"gpuprobe", "info", "--bogus"};
    st = parse(3, opt, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--bogus"));
    const char *missing[] = {"gpuprobe", "run", "launch_rate", "--out"};
    GP_CHECK(parse(4, missing, &c).code == GP_ERR_USAGE);
    const char *dev[] = {"gpuprobe", "info", "--device", "x1"};
    GP_CHECK(parse(4, dev, &c).code == GP_ERR_USAGE);
    const char *neg[] = {"gpuprobe", "info", "--device", "-3"};
    GP_CHECK(parse(4, neg, &c).code == GP_ERR_USAGE);
    const char *empty_run[] = {"gpuprobe", "run"};
    GP_CHECK(parse(2, empty_run, &c).code == GP_ERR_USAGE);
    const char *tbl[] = {"gpuprobe", "table", "show"};
    GP_CHECK(parse(3, tbl, &c).code == GP_ERR_USAGE);
    const char *extra[] = {"gpuprobe", "list", "launch_rate"};
    GP_CHECK(parse(3, extra, &c).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(status_exit_codes)
{
    gp_status s = gp_ok();
    GP_CHECK(gp_status_exit_code(&s) == 0);
    s = gp_fail(GP_ERR_USAGE, "bad %s", "thing");
    GP_CHECK(gp_status_exit_code(&s) == 2 && !strcmp(s.msg, "bad thing"));
    s = gp_fail(GP_ERR_NO_GPU, "none");
    GP_CHECK(gp_status_exit_code(&s) == 77);
    s = gp_fail(GP_ERR_CHECK, "x");
    GP_CHECK(gp_status_exit_code(&s) == 1);
    s = gp_fail(GP_ERR_IO, "x");
    GP_CHECK(gp_status_exit_code(&s) == 2);
    s = gp_fail(GP_ERR_RUNTIME, "x");
    GP_CHECK(gp_status_exit_code(&s) == 1);
    return 0;
}

GP_TEST(registry_names_unique)
{
    size_t n = gp_probe_count();
    GP_CHECK(n >= 1 && gp_probe_at(n) == NULL);
    for (size_t i = 0; i < n; i++) {
        const gp_probe *p = gp_probe_at(i);
        GP_CHECK(p->name && p->run && p->check && p->summary);
        GP_CHECK(gp_probe_find(p->name) == p);
        for (size_t j = i + 1; j < n; j++)
            GP_CHECK(strcmp(p->name, gp_probe_at(j)->name) != 0);
    }
    return 0;
}

GP_TEST(cli_force_for_characterize_only)
{
    gp_cli c;
    const char *ok[] = {"gpuprobe", "characterize", "--quick", "--force", "--out", "/tmp/x"};
    GP_CHECK(parse(6, ok, &c).code == GP_OK && c.cmd == GP_CMD_CHARACTERIZE && c.force == 1 && c.quick == 1);
    const char *plain[] = {"gpuprobe", "characterize"};
    GP_CHECK(parse(2, plain, &c).code == GP_OK && c.force == 0);
    const char *run[] = {"gpuprobe", "run", "launch_rate", "--force"};
    gp_status st = parse(4, run, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--force") && strstr(st.msg, "characterize"));
    return 0;
}

/* Every command goes through the one parser: compare, fleet and resources
 * too; `--name=value` is `--name value`; `--` ends the options; an option of
 * another command names the commands it is for. */
GP_TEST(cli_one_parser_for_every_command)
{
    static gp_cli c;
    gp_status st;
    const char *cmp[] = {"gpuprobe", "compare", "a", "--only", "lds,atomics", "cache_latency", "--json", "b"};
    GP_CHECK(parse(8, cmp, &c).code == GP_OK && c.cmd == GP_CMD_COMPARE && c.json == 1);
    GP_CHECK(c.ndirs == 2 && !strcmp(c.dirs[0], "a") && !strcmp(c.dirs[1], "b"));
    GP_CHECK(c.nonly == 3 && !strcmp(c.only[0], "lds") && !strcmp(c.only[1], "atomics") &&
             !strcmp(c.only[2], "cache_latency"));
    const char *fleet[] = {"gpuprobe", "fleet", "x", "y", "--threshold=5%", "--out", "o"};
    GP_CHECK(parse(7, fleet, &c).code == GP_OK && c.cmd == GP_CMD_FLEET && c.ndirs == 2);
    GP_CHECK(c.threshold.rule == GP_FLEET_RULE_PERCENT && c.threshold.limit == 5 && c.out_given);
    const char *res[] = {"gpuprobe", "resources", "--slots", "4", "--out=/tmp/spec.json"};
    GP_CHECK(parse(5, res, &c).code == GP_OK && c.cmd == GP_CMD_RESOURCES && c.slots == 4);
    GP_CHECK(!strcmp(c.out_file, "/tmp/spec.json"));
    const char *eq[] = {"gpuprobe", "verify", "reduce", "--table=/t/sm_90", "--seed=7", "--", "--quick"};
    st = parse(7, eq, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "unknown kernel '--quick'"));
    GP_CHECK(!strcmp(c.tables[0], "/t/sm_90") && c.have_seed && c.seed == 7);
    const char *derive[] = {"gpuprobe", "table", "derive", "f", "-o", "out"};
    GP_CHECK(parse(6, derive, &c).code == GP_OK && c.cmd == GP_CMD_TABLE_DERIVE && !strcmp(c.out_file, "out"));
    const char *json[] = {"gpuprobe", "report", "d", "--json"};
    st = parse(4, json, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "option --json is for compare and fleet only"));
    const char *flagval[] = {"gpuprobe", "run", "lds", "--quick=1"};
    st = parse(4, flagval, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--quick takes no value"));
    const char *novalue[] = {"gpuprobe", "report", "d", "--out", "--against"};
    st = parse(5, novalue, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "report: --out needs a directory"));
    return 0;
}

/* `gpuprobe help CMD` and `CMD --help` ask for that command's own usage,
 * which names its options and no other command's. */
GP_TEST(cli_help_is_per_command)
{
    static gp_cli c;
    const char *a[] = {"gpuprobe", "help", "fleet"};
    GP_CHECK(parse(3, a, &c).code == GP_OK && c.cmd == GP_CMD_HELP && c.help_of == gp_cli_command("fleet"));
    const char *b[] = {"gpuprobe", "bench", "--quick", "--help"};
    GP_CHECK(parse(4, b, &c).code == GP_OK && c.cmd == GP_CMD_HELP && c.help_of == gp_cli_command("bench"));
    const char *d[] = {"gpuprobe", "--help"};
    GP_CHECK(parse(2, d, &c).code == GP_OK && c.cmd == GP_CMD_HELP && c.help_of == NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    GP_CHECK(f != NULL);
    gp_cli_usage_of(gp_cli_command("tune"), f);
    fclose(f);
    GP_CHECK(!strncmp(text, "usage: gpuprobe tune KERNEL... [options]\n", 41));
    GP_CHECK(strstr(text, "--budget SECONDS") && strstr(text, "--shape SPEC") && !strstr(text, "--threshold"));
    free(text);
    return 0;
}
