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

/* Rate loss of x values that are not multiples of `modulus` against those that
 * are, among points with x >= xmin: 1 - median(y | x % m != 0) / median(y | x % m == 0).
 * Writes the group sizes; returns NaN when either group is empty. */
double gp_analysis_modulus_loss(const double *x, const double *y, size_t n, long modulus,
                                double xmin, size_t *n_multiple, size_t *n_other);

#endif
