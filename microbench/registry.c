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

const gp_probe *gp_probe_find(const char *name)
{
    for (size_t i = 0; i < gp_probe_count(); i++)
        if (strcmp(probes[i]->name, name) == 0)
            return probes[i];
    return NULL;
}
