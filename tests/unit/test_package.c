/* Install and ship: where the tables are found, whether the
 * binary's device code runs on the GPU, the --tables option.  Pure C: the
 * file system and the targets are injected. */
#include <string.h>

#include "cli.h"
#include "gp_test.h"
#include "tables_dir.h"
#include "target_check.h"

/* A fake file system: these folders exist, nothing else. */
static const char *g_dirs[4];
static int fake_is_dir(const char *p)
{
    for (size_t i = 0; i < sizeof g_dirs / sizeof g_dirs[0]; i++)
        if (g_dirs[i] && !strcmp(g_dirs[i], p))
            return 1;
    return 0;
}

GP_TEST(tables_dir_lookup_order)
{
    char d[256];
    g_dirs[0] = "/opt/gp/share/gpuprobe/tables";
    g_dirs[1] = "/src/tables";
    g_dirs[2] = "/usr/local/share/gpuprobe/tables";
    g_dirs[3] = NULL;
    gp_tables_inputs in = {"/opt/mine", "/env/tables", "/opt/gp/bin/gpuprobe", "/src/tables", fake_is_dir,
                           "/usr/local/share/gpuprobe/tables"};
    /* 1. --tables, even over everything else, and even where it does not exist (its error names it) */
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_OPTION && !strcmp(d, "/opt/mine"));
    /* 2. GP_TABLES_DIR */
    in.option = NULL;
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_ENV && !strcmp(d, "/env/tables"));
    in.env = "";  /* set but empty: not given */
    /* 3. ../share/gpuprobe/tables beside the executable, where it exists */
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_EXE);
    GP_CHECK(!strcmp(d, "/opt/gp/share/gpuprobe/tables"));
    /* 4. the build tree, when the executable has no install layout around it */
    in.exe = "/src/build/cpu/app/gpuprobe";
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_BUILD && !strcmp(d, "/src/tables"));
    /* 5. the install prefix compiled in: a static library in an application
     * elsewhere, whose source tree is gone */
    in.exe = "/home/me/app/bin/app";
    in.build = "/gone/tables";
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_INSTALL &&
             !strcmp(d, "/usr/local/share/gpuprobe/tables"));
    /* nothing: none, and an empty folder name */
    in.install = NULL;
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_NONE && d[0] == '\0');
    return 0;
}

GP_TEST(tables_dir_beside_exe_edges)
{
    char d[256];
    g_dirs[0] = "/share/gpuprobe/tables";
    g_dirs[1] = "/usr/share/gpuprobe/tables";
    g_dirs[2] = NULL;
    gp_tables_inputs in = {NULL, NULL, "/bin/gpuprobe", NULL, fake_is_dir, NULL};
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_EXE && !strcmp(d, "/share/gpuprobe/tables"));
    in.exe = "/usr/bin/gpuprobe";  /* the .deb's layout */
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_EXE &&
             !strcmp(d, "/usr/share/gpuprobe/tables"));
    in.exe = "gpuprobe";  /* no folder: nothing beside it */
    GP_CHECK(gp_tables_dir_choose(&in, d, sizeof d) == GP_TABLES_FROM_NONE);
    /* a folder name that does not fit is not cut short into another folder */
    char small[12];
    in.exe = "/usr/bin/gpuprobe";
    GP_CHECK(gp_tables_dir_choose(&in, small, sizeof small) == GP_TABLES_FROM_NONE && small[0] == '\0');
    return 0;
}

GP_TEST(target_fit_cuda)
{
    char used[32];
    /* sm_90-only on an A100: nothing runs (PTX does not go backwards) */
    GP_CHECK(gp_target_fit_of("cuda", "sm_90", 1, "sm_80", used, sizeof used) == GP_TARGET_NONE);
    /* same major, newer minor: the SASS runs (sm_80 code on an sm_86) */
    GP_CHECK(gp_target_fit_of("cuda", "sm_80", 1, "sm_86", used, sizeof used) == GP_TARGET_NATIVE);
    GP_CHECK(!strcmp(used, "sm_80"));
    /* but not an older minor */
    GP_CHECK(gp_target_fit_of("cuda", "sm_86", 1, "sm_80", used, sizeof used) == GP_TARGET_NONE);
    /* newer major: only the PTX, through the JIT, and only when it is there */
    GP_CHECK(gp_target_fit_of("cuda", "sm_80", 1, "sm_90", used, sizeof used) == GP_TARGET_JIT);
    GP_CHECK(gp_target_fit_of("cuda", "sm_80", 0, "sm_90", used, sizeof used) == GP_TARGET_NONE);
    /* both built: native wins over JIT whatever the order */
    GP_CHECK(gp_target_fit_of("cuda", "sm_90;sm_80", 1, "sm_90", used, sizeof used) == GP_TARGET_NATIVE);
    GP_CHECK(!strcmp(used, "sm_90"));
    GP_CHECK(gp_target_fit_of("cuda", "sm_80 sm_90", 1, "sm_80", used, sizeof used) == GP_TARGET_NATIVE);
    GP_CHECK(!strcmp(used, "sm_80"));
    /* JIT picks the newest PTX below the GPU */
    GP_CHECK(gp_target_fit_of("cuda", "sm_80;sm_90", 1, "sm_100", used, sizeof used) == GP_TARGET_JIT);
    GP_CHECK(!strcmp(used, "sm_90"));
    /* arch-specific targets run on exactly their arch */
    GP_CHECK(gp_target_fit_of("cuda", "sm_90a", 1, "sm_90", used, sizeof used) == GP_TARGET_NATIVE);
    GP_CHECK(gp_target_fit_of("cuda", "sm_90a", 1, "sm_100", used, sizeof used) == GP_TARGET_NONE);
    /* garbage never fits */
    GP_CHECK(gp_target_fit_of("cuda", "sm_90", 1, "gfx900", used, sizeof used) == GP_TARGET_NONE);
    GP_CHECK(gp_target_fit_of("cuda", "", 1, "sm_90", used, sizeof used) == GP_TARGET_NONE);
    return 0;
}

GP_TEST(target_fit_hip)
{
    char used[32];
    GP_CHECK(gp_target_fit_of("hip", "gfx900;gfx90a", 0, "gfx90a", used, sizeof used) == GP_TARGET_NATIVE);
    GP_CHECK(!strcmp(used, "gfx90a"));
    /* no forward compatibility between gfx targets */
    GP_CHECK(gp_target_fit_of("hip", "gfx900", 0, "gfx906", used, sizeof used) == GP_TARGET_NONE);
    GP_CHECK(gp_target_fit_of("hip", "gfx90a", 0, "gfx90", used, sizeof used) == GP_TARGET_NONE);
    /* feature flags are not part of the target */
    GP_CHECK(gp_target_fit_of("hip", "gfx90a:xnack-", 0, "gfx90a:sramecc+:xnack-", used, sizeof used) ==
             GP_TARGET_NATIVE);
    return 0;
}

GP_TEST(target_check_message)
{
    char note[256];
    gp_status st = gp_target_check("cuda", "sm_90", 1, "sm_80", "NVIDIA A100-SXM4-80GB", note, sizeof note);
    /* exit 2, naming what the binary has, what the GPU is, and the preset to build */
    GP_CHECK(st.code == GP_ERR_USAGE && gp_status_exit_code(&st) == 2);
    GP_CHECK(strstr(st.msg, "sm_90") && strstr(st.msg, "is sm_80") && strstr(st.msg, "A100"));
    GP_CHECK(strstr(st.msg, "package-sm80"));
    st = gp_target_check("hip", "gfx900", 0, "gfx1100", "Radeon", note, sizeof note);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "-DGP_ARCHS=gfx1100"));
    st = gp_target_check("cuda", "sm_80", 1, "sm_90", "NVIDIA H200", note, sizeof note);
    GP_CHECK(st.code == GP_OK && strstr(note, "JIT") && strstr(note, "sm_80"));
    st = gp_target_check("cuda", "sm_90", 1, "sm_90", "NVIDIA H200", note, sizeof note);
    GP_CHECK(st.code == GP_OK && note[0] == '\0');
    return 0;
}

static gp_status parse(int argc, const char **argv, gp_cli *c)
{
    return gp_cli_parse(argc, (char **)argv, c);
}

GP_TEST(cli_tables_option_anywhere)
{
    gp_cli c;
    const char *a[] = {"gpuprobe", "--tables", "/t", "report", "/r"};
    GP_CHECK(parse(5, a, &c).code == GP_OK && c.cmd == GP_CMD_REPORT && !strcmp(c.file, "/r"));
    GP_CHECK(c.tables_dir && !strcmp(c.tables_dir, "/t"));
    const char *b[] = {"gpuprobe", "table", "check", "/f", "--tables", "/t"};
    GP_CHECK(parse(6, b, &c).code == GP_OK && c.cmd == GP_CMD_TABLE_CHECK && !strcmp(c.tables_dir, "/t"));
    const char *d[] = {"gpuprobe", "info"};
    GP_CHECK(parse(2, d, &c).code == GP_OK && c.tables_dir == NULL);
    const char *e[] = {"gpuprobe", "info", "--tables"};
    gp_status st = parse(3, e, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--tables needs a directory"));
    const char *f[] = {"gpuprobe", "--tables", "/a", "info", "--tables", "/b"};
    st = parse(6, f, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "twice"));
    const char *g[] = {"gpuprobe", "selftest", "--quick"};
    GP_CHECK(parse(3, g, &c).code == GP_OK && c.cmd == GP_CMD_SELFTEST && !strcmp(c.out_dir, "gpuprobe-selftest"));
    return 0;
}
