/* Analysis for the compute probe (fma_throughput): the staircase of kernel
 * time over block count that reveals the number of compute units, the first
 * step of such a curve, and the FMA lanes per CU a measured rate implies.
 * Pure functions over arrays, unit-tested on synthetic curves. */
#ifndef GP_FMA_THROUGHPUT_ANALYSIS_H
#define GP_FMA_THROUGHPUT_ANALYSIS_H

#include <stddef.h>

/* Result of fitting y = t * ceil(x / c): with one block per CU and equal work
 * per block, kernel time stays flat while blocks <= CUs and steps up by t at
 * every further multiple of the CU count. */
typedef struct gp_staircase_fit {
    int units;        /* best c, or -1 when no staircase was detected */
    int units_lo;     /* every c in [units_lo, units_hi] fits within 1% of the best */
    int units_hi;
    double step_time; /* t, in y's unit */
    double rel_rms;   /* RMS of (y - model) / model at the best c */
} gp_staircase_fit;

/* Fit c over [cmin, cmax] (cmin >= 1).  x are block counts (any order, > 0).
 * Not detected (units = -1) when fewer than 3 points, when the best c puts
 * every point on the first stair (no step inside the sweep), or when the best
 * fit is worse than `max_rel_rms` (the curve is not a staircase). */
gp_staircase_fit gp_compute_staircase(const double *x, const double *y, size_t n, int cmin, int cmax,
                                      double max_rel_rms);

/* First step of a curve whose points are in ascending x: the index of the
 * first point whose y exceeds the median of all points before it by more than
 * `rel` (for example 0.3), where the next point (if any) also does, so one
 * slow outlier is not a step.  -1 when there is none (or n < 2). */
int gp_compute_first_step(const double *y, size_t n, double rel);

/* Lanes per CU implied by a measured per-CU FMA rate: the smallest power of
 * two >= rate * (1 - tol).  tol absorbs a rate measured slightly high (clock
 * error), so 128.6 still gives 128.  0 for a rate that is not positive. */
double gp_compute_lanes_pow2(double rate, double tol);

/* Published FP32 FMA lanes per CU/SM for an architecture name ("sm_90",
 * "gfx900"...), matched by prefix in a small table (see fma_throughput_analysis.c
 * for the sources); writes the source text.  0 when the arch is not in it. */
int gp_compute_published_fp32_lanes(const char *arch, const char **source);

/* The probe's parameters, here so that the probe and the tests on recorded
 * series apply the same analysis.  Peak reached: at least this fraction of
 * it.  A step in kernel time: at least GP_FMA_STEP_REL above the flat part.
 * Lanes: the power of two within GP_FMA_LANES_TOL above the peak.  The
 * staircase fit of the chip sweep: at most this rms (relative). */
#define GP_FMA_PEAK_FRAC 0.95
#define GP_FMA_STEP_REL 0.3
#define GP_FMA_LANES_TOL 0.03
#define GP_FMA_STAIRCASE_MAX_RMS 0.15

#endif
