#include "analysis.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

int gp_analysis_argmax(const double *y, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && (best < 0 || y[i] > y[best]))
            best = (int)i;
    return best;
}

int gp_analysis_first_reaching(const double *x, const double *y, size_t n, double peak, double frac)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && y[i] >= frac * peak && (best < 0 || x[i] < x[best]))
            best = (int)i;
    return best;
}

static int find_x(const double *xr, size_t nr, double x)
{
    for (size_t i = 0; i < nr; i++)
        if (xr[i] == x)
            return (int)i;
    return -1;
}

double gp_analysis_granularity_loss(const double *x, const double *y, size_t n, long modulus,
                                    const double *xr, const double *yr, size_t nr, size_t *compared)
{
    double *loss = malloc((n + 1) * sizeof *loss);
    size_t k = 0;
    if (loss && modulus > 0) {
        for (size_t i = 0; i < n; i++) {
            long xi = lround(x[i]);
            if (xi <= modulus || xi % modulus == 0 || !isfinite(y[i]))
                continue;
            double lo = (double)(xi / modulus * modulus), hi = lo + (double)modulus;
            int a = find_x(xr, nr, lo), b = find_x(xr, nr, hi);
            if (a < 0 || b < 0 || !isfinite(yr[a]) || !isfinite(yr[b]))
                continue;
            double f = ((double)xi - lo) / (double)modulus;
            double pred = yr[a] + f * (yr[b] - yr[a]);
            if (pred > 0)
                loss[k++] = 1.0 - y[i] / pred;
        }
    }
    double v = k ? gp_stats_median(loss, k) : NAN;
    if (compared)
        *compared = k;
    free(loss);
    return v;
}

double gp_analysis_median_ratio(const double *x, const double *y, size_t n, double xlo, double xhi)
{
    double *r = malloc((n + 1) * sizeof *r);
    size_t k = 0;
    if (r)
        for (size_t i = 0; i < n; i++)
            if (x[i] >= xlo && x[i] <= xhi && x[i] != 0 && isfinite(y[i]))
                r[k++] = y[i] / x[i];
    double v = k ? gp_stats_median(r, k) : NAN;
    free(r);
    return v;
}

void gp_analysis_plateau(const double *y, size_t n, int ipk, double rel, int *lo, int *hi)
{
    *lo = *hi = -1;
    if (!y || ipk < 0 || (size_t)ipk >= n || !isfinite(y[ipk]))
        return;
    if (!(rel >= 0) || !isfinite(rel))
        rel = 0;
    double bar = y[ipk] * (1 - rel);
    int a = ipk, b = ipk;
    while (a > 0 && isfinite(y[a - 1]) && y[a - 1] >= bar)
        a--;
    while ((size_t)b + 1 < n && isfinite(y[b + 1]) && y[b + 1] >= bar)
        b++;
    *lo = a;
    *hi = b;
}
