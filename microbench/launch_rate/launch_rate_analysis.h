/* Analysis of the launch_rate probe: pure, series in, values out (the
 * shared curve tools are in common/analysis.h).  Unit-tested on the recorded
 * H200 series (tests/unit/test_recorded.c). */
#ifndef GP_LAUNCH_RATE_ANALYSIS_H
#define GP_LAUNCH_RATE_ANALYSIS_H

#include <stddef.h>

/* Blocks launched per cycle: the median of threads/cycle over block size
 * for the 1D blocks of 1..wave threads, where one block is one wave and the
 * rate per block is the chip's block launch rate.  NaN when none. */
double gp_launch_rate_blocks_per_cycle(const double *threads, const double *threads_per_cycle, size_t n,
                                       int wave);

/* Median loss a per-wave launch cost would predict for the same shapes: a
 * block of x threads costs as much as ceil(x / w) whole waves.  NaN when no
 * x > w is a non-multiple of w. */
double gp_launch_rate_per_wave_loss(const double *x, size_t n, int w);

#endif
