/* Where gpuprobe (the command or the library) finds its shipped tuning
 * tables, so that an installed or unpacked build runs away from its source
 * tree.  The order:
 *   1. --tables DIR, or the library context's tables_dir (given by the caller)
 *   2. GP_TABLES_DIR             (the environment)
 *   3. <file>/../share/gpuprobe/tables, where <file> holds this code: the
 *      executable, or libgpuprobe.so (what `cmake --install` and the
 *      packages lay out)
 *   4. the source tree's tables/, compiled in (a build in its build tree)
 *   5. the install prefix's share/gpuprobe/tables, compiled in (a static
 *      libgpuprobe linked into an application elsewhere)
 * 1 and 2 are taken as given, so a wrong one is an error that names it; 3 to
 * 5 only where the folder exists. */
#ifndef GP_TABLES_DIR_H
#define GP_TABLES_DIR_H

#include <stddef.h>

typedef enum {
    GP_TABLES_FROM_OPTION,
    GP_TABLES_FROM_ENV,
    GP_TABLES_FROM_EXE,
    GP_TABLES_FROM_BUILD,
    GP_TABLES_FROM_INSTALL,
    GP_TABLES_FROM_NONE
} gp_tables_from;

/* The inputs of the decision, injected so a unit test can give any. */
typedef struct gp_tables_inputs {
    const char *option;    /* --tables DIR, or NULL */
    const char *env;       /* $GP_TABLES_DIR, or NULL */
    const char *exe;       /* absolute path of the file holding this code, or NULL */
    const char *build;     /* the compiled-in source tables/, or NULL */
    int (*is_dir)(const char *path);
    const char *install;   /* the compiled-in <prefix>/share/gpuprobe/tables, or NULL */
} gp_tables_inputs;

/* Pure: the first source that applies; its folder goes to dir (n bytes).
 * GP_TABLES_FROM_NONE leaves dir empty. */
gp_tables_from gp_tables_dir_choose(const gp_tables_inputs *in, char *dir, size_t n);

/* The real inputs: `option`, getenv, the file holding this code (dladdr,
 * else /proc/self/exe), the build tree, the install prefix. */
gp_tables_from gp_tables_dir_find(const char *option, char *dir, size_t n);

/* "--tables", "GP_TABLES_DIR", "next to the executable", "build tree", "none". */
const char *gp_tables_from_name(gp_tables_from f);

#endif
