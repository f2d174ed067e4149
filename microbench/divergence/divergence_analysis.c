#include "divergence_analysis.h"

#include <math.h>

double gp_divergence_ratio(double time, double reference)
{
    if (!(time > 0) || !(reference > 0) || !isfinite(time) || !isfinite(reference))
        return NAN;
    return time / reference;
}

double gp_divergence_serialized_fraction(double one_lane, double uniform, double all_b)
{
    if (!(uniform > 0) || !(all_b > 0) || !isfinite(uniform) || !isfinite(all_b) || !isfinite(one_lane))
        return NAN;
    return (one_lane - uniform) / all_b;
}

gp_divergence_wave gp_divergence_wave_from_groups(const double *group, const double *time, size_t n,
                                                  double uniform_time, double tol)
{
    gp_divergence_wave r = {0, NAN, NAN, NULL};
    double g[GP_DIVERGENCE_MAX_POINTS], t[GP_DIVERGENCE_MAX_POINTS];
    size_t m = 0;
    if (!(uniform_time > 0) || !isfinite(uniform_time) || !(tol >= 0)) {
        r.why = "no valid uniform-kernel time to compare with";
        return r;
    }
    for (size_t i = 0; i < n && m < GP_DIVERGENCE_MAX_POINTS; i++) {
        if (!(time[i] > 0) || !isfinite(time[i]) || !(group[i] > 0) || !isfinite(group[i]))
            continue;
        /* Insertion by group size keeps the scan below in order. */
        size_t j = m++;
        for (; j > 0 && g[j - 1] > group[i]; j--) {
            g[j] = g[j - 1];
            t[j] = t[j - 1];
        }
        g[j] = group[i];
        t[j] = time[i];
    }
    if (m < 2) {
        r.why = "fewer than two group sizes measured";
        return r;
    }
    const double limit = (1.0 + tol) * uniform_time;
    if (t[0] <= limit) {
        r.why = "even the smallest lane group shows no slowdown: divergence costs nothing measurable here";
        return r;
    }
    /* Walk down from the largest group while the times stay fast. */
    size_t first_fast = m;
    while (first_fast > 0 && t[first_fast - 1] <= limit)
        first_fast--;
    if (first_fast == m) {
        r.why = "every lane group is slower than the uniform kernel: the wave is wider than the largest group";
        return r;
    }
    r.detected = 1;
    r.group = g[first_fast];
    r.slow_ratio = t[first_fast - 1] / uniform_time;
    return r;
}
