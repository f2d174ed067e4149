#include "launch_rate_analysis.h"

#include <math.h>
#include <stdlib.h>

#include "analysis.h"
#include "stats.h"

double gp_launch_rate_blocks_per_cycle(const double *threads, const double *threads_per_cycle, size_t n,
                                       int wave)
{
    return gp_analysis_median_ratio(threads, threads_per_cycle, n, 1, wave);
}

double gp_launch_rate_per_wave_loss(const double *x, size_t n, int w)
{
    if (w <= 0)
        return NAN;
    double *loss = malloc((n ? n : 1) * sizeof *loss);
    if (!loss)
        return NAN;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        long xi = lround(x[i]);
        if (xi > w && xi % w)
            loss[k++] = 1.0 - (double)xi / (double)(((xi + w - 1) / w) * w);
    }
    double m = k ? gp_stats_median(loss, k) : NAN;
    free(loss);
    return m;
}
