/* Analysis of the channel_conflicts probe: the knee of bandwidth versus
 * address window (memory channels), and the padding that removes a
 * leading-dimension slowdown.  Pure functions over arrays, unit-tested on
 * synthetic curves with noise and on the recorded H200 series. */
#ifndef GP_CHANNEL_CONFLICTS_ANALYSIS_H
#define GP_CHANNEL_CONFLICTS_ANALYSIS_H

#include <stddef.h>

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
