#include "_template_analysis.h"

#include <math.h>

#include "stats.h"

double gp__template_us_per_launch(const double *ms, size_t n, int count)
{
    if (n == 0 || count <= 0)
        return NAN;
    return 1e3 * gp_stats_median(ms, n) / count;
}
