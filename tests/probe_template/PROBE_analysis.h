/* Analysis of the PROBE probe: pure, series in, values out (unit-testable
 * without a GPU). */
#ifndef GP_PROBE_PROBE_ANALYSIS_H
#define GP_PROBE_PROBE_ANALYSIS_H

#include <stddef.h>

/* Time per launch (us) from n bursts of `count` launches that took ms[i]
 * milliseconds each: the median burst over count.  NaN when n == 0 or
 * count <= 0. */
double gp_PROBE_us_per_launch(const double *ms, size_t n, int count);

#endif
