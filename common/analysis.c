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

double gp_analysis_modulus_loss(const double *x, const double *y, size_t n, long modulus,
                                double xmin, size_t *n_multiple, size_t *n_other)
{
    double *mult = malloc((n + 1) * sizeof *mult), *other = malloc((n + 1) * sizeof *other);
    size_t nm = 0, no = 0;
    double loss = NAN;
    if (mult && other && modulus > 0) {
        for (size_t i = 0; i < n; i++) {
            if (!(x[i] >= xmin) || !isfinite(y[i]))
                continue;
            long xi = lround(x[i]);
            if (xi % modulus == 0)
                mult[nm++] = y[i];
            else
                other[no++] = y[i];
        }
        if (nm && no) {
            double mm = gp_stats_median(mult, nm);
            if (mm > 0)
                loss = 1.0 - gp_stats_median(other, no) / mm;
        }
    }
    if (n_multiple)
        *n_multiple = nm;
    if (n_other)
        *n_other = no;
    free(mult);
    free(other);
    return loss;
}
