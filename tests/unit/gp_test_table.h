/* Tests that read a tuning table from the source tree (tables/<arch>). */
#ifndef GP_TEST_TABLE_H
#define GP_TEST_TABLE_H

#include <stdio.h>
#include <string.h>

#include "gp_test.h"
#include "kernel.h"
#include "runtime.h"
#include "table.h"

/* Load the table at `rel` under the source tree; 0, with the reason on
 * stderr, when it cannot be found or does not load. */
static inline int gp_test_load_table(const char *rel, gp_table *t)
{
    char path[1024];
    if (!gp_test_source_path(path, sizeof path, rel))
        return 0;
    gp_status st = gp_table_load(path, t);
    if (st.code != GP_OK)
        fprintf(stderr, "%s\n", st.msg);
    return st.code == GP_OK;
}

/* Run one kernel's rule on the facts of t (headline problem, build
 * constants) and write its kernel section into t. */
static inline gp_status gp_test_rule(gp_kernel_rule_fn rule, gp_table *t)
{
    static gp_table out;
    out = *t;
    gp_rule_in in = {t, NULL, 0};
    gp_status st = rule(&in, &out);
    if (st.code == GP_OK)
        *t = out;
    return st;
}

/* The shipped table tables/<name> ("sm_90", "generic", ...). */
static inline int gp_test_load_shipped(const char *name, gp_table *t)
{
    char rel[64];
    snprintf(rel, sizeof rel, "tables/%s", name);
    return gp_test_load_table(rel, t);
}

/* The provenance comment of [kernel.<kernel>] key in t ("" when absent). */
static inline const char *gp_test_kernel_prov(const gp_table *t, const char *kernel, const char *key)
{
    char section[64];
    snprintf(section, sizeof section, "kernel.%s", kernel);
    const gp_table_entry *e = gp_table_find(t, section, key);
    return e ? e->prov : "";
}

/* Kernel k's rule for the shape `spec` (the kernel's --shape syntax) on the
 * facts of `facts`, written into *out (a copy of facts first); the entry
 * [kernel.<k>] key of the result, NULL when the spec does not parse, the
 * rule fails or the key is absent. */
static inline const gp_table_entry *gp_test_rule_for(const gp_kernel *k, const gp_table *facts, const char *spec,
                                                     const char *key, gp_table *out)
{
    gp_shape sh;
    char section[64];
    if (k->shape_parse(spec, &sh).code != GP_OK)
        return NULL;
    *out = *facts;
    gp_rule_in in = {facts, &sh, 0};
    if (k->rule(&in, out).code != GP_OK)
        return NULL;
    snprintf(section, sizeof section, "kernel.%s", k->name);
    return gp_table_find(out, section, key);
}

/* A device as the kernels' parameter fitting sees it: wave size, the
 * largest block, the CU count; the largest grids of any current GPU. */
static inline gp_device_info gp_test_fake_dev(int wave, int max_threads, int cus)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = cus;
    d.wave_size = wave;
    d.max_threads_per_block = max_threads;
    d.max_block_dim[0] = max_threads, d.max_block_dim[1] = max_threads, d.max_block_dim[2] = 64;
    d.max_grid_dim[0] = 0x7fffffff;
    return d;
}

#endif
