/* The one registry of probes.  Its table is generated from the probe files
 * (microbench/CMakeLists.txt), which also generates the CTest tests: the CLI
 * and CTest enumerate the same list. */
#include <string.h>

#include "probe.h"

#define GP_PROBE(name) extern const gp_probe gp_probe_##name;
#include "gp_probe_table.h"
#undef GP_PROBE

static const gp_probe *const probes[] = {
#define GP_PROBE(name) &gp_probe_##name,
#include "gp_probe_table.h"
#undef GP_PROBE
};

size_t gp_probe_count(void) { return sizeof probes / sizeof probes[0]; }

const gp_probe *gp_probe_at(size_t i) { return i < gp_probe_count() ? probes[i] : NULL; }

/* Probe j's place in run order: the probes before it by (order, name);
 * the registry is sorted by name. */
static size_t run_rank(size_t j)
{
    size_t rank = 0;
    for (size_t k = 0; k < gp_probe_count(); k++)
        rank += probes[k]->order < probes[j]->order || (probes[k]->order == probes[j]->order && k < j);
    return rank;
}

const gp_probe *gp_probe_in_run_order(size_t i)
{
    for (size_t j = 0; j < gp_probe_count(); j++)
        if (run_rank(j) == i)
            return probes[j];
    return NULL;
}

const gp_probe *gp_probe_find(const char *name)
{
    for (size_t i = 0; i < gp_probe_count(); i++)
        if (strcmp(probes[i]->name, name) == 0)
            return probes[i];
    return NULL;
}
