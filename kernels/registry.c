/* The one registry of application kernels.  Its table is generated from the
 * kernel folders (kernels/CMakeLists.txt), which also generates the CTest
 * tests: the CLI and CTest enumerate the same list. */
#include <string.h>

#include "kernel.h"

#define GP_KERNEL(name) extern const gp_kernel gp_kernel_##name;
#include "gp_kernel_table.h"
#undef GP_KERNEL

static const gp_kernel *const kernels[] = {
#define GP_KERNEL(name) &gp_kernel_##name,
#include "gp_kernel_table.h"
#undef GP_KERNEL
    NULL /* keeps the array non-empty while no kernel exists */
};

size_t gp_kernel_count(void) { return sizeof kernels / sizeof kernels[0] - 1; }

const gp_kernel *gp_kernel_at(size_t i) { return i < gp_kernel_count() ? kernels[i] : NULL; }

const gp_kernel *gp_kernel_find(const char *name)
{
    for (size_t i = 0; i < gp_kernel_count(); i++)
        if (strcmp(kernels[i]->name, name) == 0)
            return kernels[i];
    return NULL;
}

gp_status gp_kernel_rules_apply(const gp_table *facts, int use_device, gp_table *out)
{
    if (out != facts)
        *out = *facts;
    gp_rule_in in = {facts, NULL, use_device};
    for (size_t i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel *k = kernels[i];
        if (!k->rule)
            return gp_fail(GP_ERR_USAGE, "kernel %s has no rule (gp_kernel.rule): every kernel derives its "
                           "parameters from the facts", k->name);
        GP_TRY(k->rule(&in, out));
    }
    return gp_ok();
}
