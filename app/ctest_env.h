/* The GPUs CTest allocated to the running test, from its resource
 * environment (CMake's ctest(1), "Resource Allocation"; the test declares
 * RESOURCE_GROUPS "N,gpus:1" and runs under --resource-spec-file, whose file
 * `gpuprobe resources` writes):
 *   CTEST_RESOURCE_GROUP_COUNT      number of groups, "2"
 *   CTEST_RESOURCE_GROUP_<i>        the resource types of group i, "gpus"
 *   CTEST_RESOURCE_GROUP_<i>_GPUS   its allocations, "id:3,slots:1", several
 *                                   separated by ';' (the type in upper case)
 * Without a spec file CTest ignores RESOURCE_GROUPS and sets none of them:
 * then no GPU is named and the caller runs on device 0 as before. */
#ifndef GP_CTEST_ENV_H
#define GP_CTEST_ENV_H

#include "gp_status.h"

#define GP_CTEST_MAX_GPUS 64

/* getenv, or a fake one in the unit tests (ctx passed through). */
typedef const char *(*gp_env_get)(const char *name, void *ctx);

/* The distinct GPU ids of every group, in group order, into ids[0..*n);
 * *n = 0 when CTEST_RESOURCE_GROUP_COUNT is unset.  A malformed variable is
 * GP_ERR_USAGE naming it and its value (exit 2); so is a group without a
 * gpus resource or more than max GPUs. */
gp_status gp_ctest_gpus(gp_env_get get, void *ctx, int *ids, int max, int *n);

/* gp_ctest_gpus on the process environment. */
gp_status gp_ctest_gpus_env(int *ids, int max, int *n);

#endif
