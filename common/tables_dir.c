#define _GNU_SOURCE /* dladdr */
#include "tables_dir.h"

#include <dlfcn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"

/* Relative to the executable's folder (bin/): the install layout of cmake/package.cmake. */
#define GP_TABLES_BESIDE_EXE "share/gpuprobe/tables"

static int put(char *dir, size_t n, const char *s)
{
    return snprintf(dir, n, "%s", s) < (int)n;
}

/* <prefix>/share/gpuprobe/tables for exe = <prefix>/bin/gpuprobe. */
static int beside_exe(const char *exe, char *dir, size_t n)
{
    const char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    size_t bin = (size_t)(slash - exe);  /* "<prefix>/bin" */
    size_t prefix = bin;
    while (prefix > 0 && exe[prefix - 1] != '/')
        prefix--;
    if (prefix == 0)
        return 0;  /* exe has no folder above bin/ */
    /* prefix now just after the '/' that ends "<prefix>" */
    int w = snprintf(dir, n, "%.*s%s", (int)prefix, exe, GP_TABLES_BESIDE_EXE);
    return w > 0 && (size_t)w < n;
}

gp_tables_from gp_tables_dir_choose(const gp_tables_inputs *in, char *dir, size_t n)
{
    if (n)
        dir[0] = '\0';
    if (in->option && *in->option && put(dir, n, in->option))
        return GP_TABLES_FROM_OPTION;
    if (in->env && *in->env && put(dir, n, in->env))
        return GP_TABLES_FROM_ENV;
    if (in->exe && *in->exe && beside_exe(in->exe, dir, n) && in->is_dir(dir))
        return GP_TABLES_FROM_EXE;
    if (in->build && *in->build && put(dir, n, in->build) && in->is_dir(dir))
        return GP_TABLES_FROM_BUILD;
    if (in->install && *in->install && put(dir, n, in->install) && in->is_dir(dir))
        return GP_TABLES_FROM_INSTALL;
    if (n)
        dir[0] = '\0';
    return GP_TABLES_FROM_NONE;
}

gp_tables_from gp_tables_dir_find(const char *option, char *dir, size_t n)
{
    char self[1024] = "";
    Dl_info info;
    /* The file this code is in: the executable, or libgpuprobe.so. */
    if (dladdr((void *)gp_tables_dir_find, &info) && info.dli_fname && info.dli_fname[0] == '/')
        snprintf(self, sizeof self, "%s", info.dli_fname);
    if (!self[0]) {
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        self[len > 0 ? len : 0] = '\0';
    }
    gp_tables_inputs in = {option, getenv("GP_TABLES_DIR"), self, GP_SOURCE_TABLES_DIR, gp_fs_is_dir,
                           GP_INSTALL_TABLES_DIR};
    return gp_tables_dir_choose(&in, dir, n);
}

const char *gp_tables_from_name(gp_tables_from f)
{
    switch (f) {
    case GP_TABLES_FROM_OPTION: return "--tables";
    case GP_TABLES_FROM_ENV: return "GP_TABLES_DIR";
    case GP_TABLES_FROM_EXE: return "next to the executable or library (../share/gpuprobe/tables)";
    case GP_TABLES_FROM_BUILD: return "the source tree this binary was built from";
    case GP_TABLES_FROM_INSTALL: return "the install prefix it was built for";
    default: return "none found";
    }
}
