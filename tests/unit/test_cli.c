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
