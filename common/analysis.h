/* Curve analysis shared by probes: peaks, first points reaching a fraction of
 * the peak, and rate loss of one group of x values against another.  Pure
 * functions over arrays, unit-tested on synthetic curves. */
#ifndef GP_ANALYSIS_H
#define GP_ANALYSIS_H

#include <stddef.h>

/* Index of the largest finite y, or -1 when there is none. */
int gp_analysis_argmax(const double *y, size_t n);

/* Index of the smallest x whose y reaches frac * peak, or -1.  x need not be sorted. */
int gp_analysis_first_reaching(const double *x, const double *y, size_t n, double peak, double frac);
/* The plateau around the peak y[ipk]: the contiguous run of points with
 * y >= y[ipk] x (1 - rel), rel the peak's spread (a near-tie is within it).
 * *lo and *hi get the first and last index; -1 in both on bad input. */
void gp_analysis_plateau(const double *y, size_t n, int ipk, double rel, int *lo, int *hi);

/* Rate loss of sizes that are not multiples of `modulus`.  Each such point x
 * (x > modulus) is compared with the linear interpolation between the
 * reference curve (xr, yr) at the multiples of `modulus` just below and just
 * above it: loss = 1 - y / interpolated.  Comparing with neighbours of the
 * same size, not with a group of other sizes, keeps a curve that rises with
 * size from reading as a loss.  Returns the median loss and writes the number
 * of points compared; NaN when none could be (no reference at a neighbour). */
double gp_analysis_granularity_loss(const double *x, const double *y, size_t n, long modulus,
                                    const double *xr, const double *yr, size_t nr, size_t *compared);

/* Median of y/x over points with x in [xlo, xhi]: a rate per unit of x
 * (for example blocks per cycle from threads per cycle).  NaN when none. */
double gp_analysis_median_ratio(const double *x, const double *y, size_t n, double xlo, double xhi);

#endif
