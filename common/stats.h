/* Descriptive statistics over a series of samples (times, rates, cycles). */
#ifndef GP_STATS_H
#define GP_STATS_H

#include <stddef.h>

typedef struct gp_summary {
    size_t n;
    double median, min, max, mean;
    double p10, p90;
    double mad;   /* median absolute deviation, unscaled */
    double cv;    /* coefficient of variation: stddev / mean (0 when mean is 0) */
} gp_summary;

/* Sort x[0..n) ascending in place (NaN-free input). */
void gp_stats_sort(double *x, size_t n);

/* Percentile p in [0,100] with linear interpolation; x need not be sorted.
 * Returns NaN for n == 0. */
double gp_stats_percentile(const double *x, size_t n, double p);
double gp_stats_median(const double *x, size_t n);
double gp_stats_mean(const double *x, size_t n);
double gp_stats_stddev(const double *x, size_t n);  /* sample (n-1) */
double gp_stats_mad(const double *x, size_t n);
double gp_stats_cv(const double *x, size_t n);
/* Relative spread used to judge stability: (p90 - p10) / median. */
double gp_stats_rel_spread(const gp_summary *s);
void gp_stats_summarize(const double *x, size_t n, gp_summary *out);

#endif
