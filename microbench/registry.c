/* The one list of probes.  Add a probe here and in microbench/CMakeLists.txt;
 * the CLI and the CTest tests pick it up from this list. */
#include <string.h>

#include "probe.h"
#include "probes.h"

static const gp_probe probes[] = {
    {"launch_rate", "threads launched per cycle by block shape; launch cost per kernel and per graph node",
     gp_launch_rate_run, gp_launch_rate_check},
};

const gp_probe *gp_probe_list(size_t *count)
{
    *count = sizeof probes / sizeof probes[0];
    return probes;
}

const gp_probe *gp_probe_find(const char *name)
{
    size_t n;
    const gp_probe *p = gp_probe_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(p[i].name, name) == 0)
            return &p[i];
    return NULL;
}
