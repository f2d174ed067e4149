#include "ctest_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole decimal number in 0..max, else -1. */
static long whole(const char *s, size_t len, long max)
{
    if (!len || len > 9)
        return -1;
    long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v <= max ? v : -1;
}

/* 1 when the comma list `types` names `want`. */
static int lists(const char *types, const char *want)
{
    size_t wl = strlen(want);
    for (const char *p = types; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == wl && !strncmp(p, want, wl))
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

/* One allocation "id:3,slots:1" of `len` characters: its id, or -1. */
static int allocation_id(const char *a, size_t len)
{
    const char *comma = memchr(a, ',', len);
    if (!comma || strncmp(a, "id:", 3) || (size_t)(comma - a) < 4)
        return -1;
    size_t rest = len - (size_t)(comma + 1 - a);
    if (rest < 7 || strncmp(comma + 1, "slots:", 6) || whole(comma + 7, rest - 6, 1000000) < 1)
        return -1;
    return (int)whole(a + 3, (size_t)(comma - a) - 3, 1024);
}

gp_status gp_ctest_gpus(gp_env_get get, void *ctx, int *ids, int max, int *n)
{
    *n = 0;
    const char *count = get("CTEST_RESOURCE_GROUP_COUNT", ctx);
    if (!count)
        return gp_ok();
    long groups = whole(count, strlen(count), GP_CTEST_MAX_GPUS);
    if (groups < 1)
        return gp_fail(GP_ERR_USAGE, "CTEST_RESOURCE_GROUP_COUNT='%.40s': not a number of resource groups (1 to %d)",
                       count, GP_CTEST_MAX_GPUS);
    for (long g = 0; g < groups; g++) {
        char name[64];
        snprintf(name, sizeof name, "CTEST_RESOURCE_GROUP_%ld", g);
        const char *types = get(name, ctx);
        if (!types)
            return gp_fail(GP_ERR_USAGE, "%s is not set (CTEST_RESOURCE_GROUP_COUNT is %ld)", name, groups);
        if (!lists(types, "gpus"))
            return gp_fail(GP_ERR_USAGE, "%s='%.80s': no gpus resource (the test declares RESOURCE_GROUPS gpus:1)",
                           name, types);
        snprintf(name, sizeof name, "CTEST_RESOURCE_GROUP_%ld_GPUS", g);
        const char *alloc = get(name, ctx);
        if (!alloc || !alloc[0])
            return gp_fail(GP_ERR_USAGE, "%s is not set or empty (group %ld lists gpus)", name, g);
        for (const char *p = alloc;;) {
            const char *end = strchr(p, ';');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            int id = allocation_id(p, len);
            if (id < 0)
                return gp_fail(GP_ERR_USAGE, "%s='%.80s': '%.*s' is not id:N,slots:M", name, alloc,
                               (int)(len < 40 ? len : 40), p);
            int seen = 0;
            for (int i = 0; i < *n; i++)
                seen |= ids[i] == id;
            if (!seen) {
                if (*n >= max)
                    return gp_fail(GP_ERR_USAGE, "%s: more than %d GPUs allocated", name, max);
                ids[(*n)++] = id;
            }
            if (!end)
                break;
            p = end + 1;
        }
    }
    return gp_ok();
}

static const char *real_getenv(const char *name, void *ctx)
{
    (void)ctx;
    return getenv(name);
}

gp_status gp_ctest_gpus_env(int *ids, int max, int *n)
{
    return gp_ctest_gpus(real_getenv, NULL, ids, max, n);
}
