/* Analysis of bandwidth curves: plateaus of bandwidth versus footprint (one
 * per cache level), the knee of bandwidth versus address window (memory
 * channels), and the padding that removes a leading-dimension slowdown.
 * Pure functions over arrays, unit-tested on synthetic curves with noise. */
#ifndef GP_BANDWIDTH_ANALYSIS_H
#define GP_BANDWIDTH_ANALYSIS_H

#include <stddef.h>

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

/* Levels of a footprint curve: the plateau holding the largest footprints
 * beyond `l2_bytes` is DRAM, the last plateau entirely at or below l2_bytes is
 * L2, and a plateau before it that is at least 1.2x higher is L1.  Indices
 * into the plateau array, -1 when a level is not present. */
typedef struct gp_bw_levels {
    int l1, l2, dram;
} gp_bw_levels;
gp_bw_levels gp_bw_classify(const double *footprint, const gp_bw_plateau *p, int np,
                            double l2_bytes);

/* Bandwidth versus address window W (bytes; ascending powers of two).  With
 * channels chosen by low address bits (interleave G, C channels), a window
 * below G x C reaches only W / G channels: bandwidth is flat up to W = G (one
 * channel), rises in proportion to W, and saturates at W = G x C. */
typedef struct gp_bw_window_fit {
    int detected;            /* 1: a proportional rise that saturates */
    double knee_bytes;       /* smallest W reaching 90% of the best: G x C */
    double interleave_bytes; /* last W of the flat low end (G), NaN when the curve rises from the first W */
    double count;            /* knee / interleave, NaN when the interleave is unknown */
    double min_ratio;        /* bandwidth at the smallest W / the best */
    double slope;            /* log-log slope of the rise below the knee (1 = proportional) */
    char reason[200];        /* why not detected */
} gp_bw_window_fit;
void gp_bw_window_analyse(const double *w, const double *bw, size_t n, gp_bw_window_fit *out);

/* Bandwidth versus padding of a leading dimension; pad[0] must be 0 (the
 * unpadded power of two).  worst_slowdown = best / bandwidth at pad 0 (>= 1
 * when pad 0 is worst).  pad_elems = the smallest pad within 5% of the best;
 * 0 when pad 0 already is.  Returns -1 when n == 0 or pad[0] != 0. */
int gp_bw_pad_analyse(const double *pad, const double *bw, size_t n, double *pad_elems,
                      double *worst_slowdown);

#endif
