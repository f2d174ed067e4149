/* Analysis of the _template probe: pure, series in, values out (unit-testable
 * without a GPU). */
#ifndef GP__TEMPLATE_ANALYSIS_H
#define GP__TEMPLATE_ANALYSIS_H

#include <stddef.h>

/* Time per launch (us) from n bursts of `count` launches that took ms[i]
 * milliseconds each: the median burst over count.  NaN when n == 0 or
 * count <= 0. */
double gp__template_us_per_launch(const double *ms, size_t n, int count);

#endif
