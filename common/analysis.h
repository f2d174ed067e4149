/* Curve analysis shared by probes: peaks, first points reaching a fraction of
 * the peak, rate loss of one group of x values against another, plateaus of
 * latency and bandwidth curves, Otsu's two-class split and the valley
 * between two classes, and the theoretical DRAM bandwidth.  What serves one
 * probe only lives in that probe's folder (microbench/<p>/<p>_analysis.h).  Pure
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

/* A run of points whose latency stays within a tolerance of its median. */
typedef struct gp_mem_plateau {
    size_t first, last;   /* index range in the (ascending) input */
    double latency;       /* median y over the run */
    double x_first, x_last;
    int npoints;
} gp_mem_plateau;

/* Footprint ratio (last / first) below which a short run or a ramp is a
 * transition between levels rather than a level. */
#define GP_MEM_TRANSITION_WIDTH 1.3

/* Segment y(x) (x ascending, e.g. log-spaced footprints) into plateaus:
 * a point joins the current run when it lies within `tol` (relative) of the
 * run's median; a single point off the run whose successor is back on it is
 * an outlier and stays in the run.  Runs shorter than `min_points` are
 * transition points between levels and are dropped, and so are runs
 * narrower than GP_MEM_TRANSITION_WIDTH in footprint that have fewer than 3
 * points or whose latency lies between their neighbours' (a ramp, e.g.
 * partial hits just past a capacity); neighbouring runs whose medians agree
 * within `tol` are then merged.  Returns the number of plateaus written (at
 * most max_out). */
size_t gp_mem_plateaus(const double *x, const double *y, size_t n, double tol, int min_points,
                       gp_mem_plateau *out, size_t max_out);

/* Otsu's threshold over sorted v[0..m): the split index k (classes v[0..k)
 * and v[k..m)) with the largest between-class variance; 0 when all values
 * are equal. */
size_t gp_analysis_otsu_split(const double *v, size_t m);

/* Depth of the valley between the two classes of sorted v[0..m) split at k
 * (classes v[0..k), v[k..m)): nine bins of equal width centred on the class
 * medians and on seven points between them; the emptiest inner bin's count
 * over the lesser of the two outer bins' counts.  About 0 for two separate
 * modes, >= 1 for one mode (or a flat spread) cut in two; NaN for k = 0 or
 * k >= m or equal medians, INFINITY for an empty outer bin. */
double gp_mem_valley_depth(const double *v, size_t m, size_t k);

/* Theoretical DRAM bandwidth in GB/s (1e9 B/s): bus bits / 8 x memory clock
 * x 2.  The runtimes report the memory clock without the double-data-rate
 * factor (GDDR and HBM alike: the H200 reports 3201 MHz on 6016 bits, which
 * gives the datasheet's 4.8 TB/s only with the factor 2).  NaN when either
 * figure is missing. */
double gp_bw_theoretical_gbs(int bus_bits, double mem_clock_mhz);

typedef struct gp_bw_plateau {
    size_t first, last;  /* index range into the curve, inclusive */
    double level;        /* median y over the range */
    double spread;       /* (max - min) / level over the range */
} gp_bw_plateau;

/* Split a curve y(x), x ascending, into plateaus: maximal runs of consecutive
 * points within rel_tol of the run's median.  A run is kept only when it has
 * at least min_points points.  Transitions between levels fall out as short
 * runs and are dropped.  Writes at most max_out plateaus in x order and
 * returns how many; 0 when none. */
int gp_bw_plateaus(const double *y, size_t n, double rel_tol, size_t min_points,
                   gp_bw_plateau *out, int max_out);

#endif
