/* Analysis for the register_limits probe: occupancy cliffs over registers per
 * thread, the register allocation granule and the register file per CU that
 * explain them, and whether throughput follows the cliffs.  Pure functions
 * over arrays (points sorted by registers per thread), unit-tested on
 * synthetic occupancy curves. */
#ifndef GP_REGISTER_LIMITS_ANALYSIS_H
#define GP_REGISTER_LIMITS_ANALYSIS_H

#include <stddef.h>

typedef struct gp_register_fit {
    int granule;        /* allocation granule (registers per thread), power of two; -1 not detected */
    double per_cu;      /* register file per CU of the best model; NaN when not detected */
    double per_cu_lo;   /* max over points of allocated registers x threads: per_cu >= this */
    int partitions;     /* register file split into this many parts (SIMDs, sub-partitions) */
    int limited_points; /* points whose occupancy registers limit (below the cap) */
    int matched;        /* of those, how many the model reproduces exactly */
} gp_register_fit;

/* regs[i]: registers per thread of variant i; threads[i]: resident threads
 * per CU the runtime grants it (blocks of `block` threads, waves of `wave`).
 * The model: a variant gets a = ceil(regs / g) * g registers per thread; the
 * register file R is split into s parts (1, 2 or 4: SIMDs or sub-partitions),
 * each holding whole waves of a x wave registers; blocks are placed whole.
 * Points at the largest thread count are taken as capped by something else
 * (threads per CU).  Over power-of-two g <= 256, s, and R in {max a x threads,
 * powers of two above}, the model reproducing the most register-limited
 * points exactly wins (ties: a power-of-two R, then the larger g).  Not detected when fewer than 2,
 * or fewer than 80%, of those points are reproduced. */
gp_register_fit gp_register_fit_granule(const double *regs, const double *threads, size_t n, int wave,
                                        int block);

/* Occupancy cliffs: indices i (ascending) where threads[i] < threads[i-1] by
 * more than `rel`.  Writes at most `max` indices; returns how many cliffs. */
int gp_register_cliffs(const double *threads, size_t n, double rel, int *idx, int max);

/* Of the given cliffs, how many the throughput follows: throughput drops from
 * the point before the cliff to the cliff point by at least `share` of the
 * occupancy's relative drop (0.5: at least half as much). */
int gp_register_cliffs_followed(const double *threads, const double *thr, size_t n, const int *idx,
                                int ncliffs, double share);

/* First index with local (spill) bytes > 0, or -1. */
int gp_register_first_spill(const double *local_bytes, size_t n);

/* The probe's parameters (shared with the tests on recorded series): a
 * cliff is a drop of resident threads by more than GP_REGLIM_CLIFF_REL, and
 * throughput follows it when it drops by at least GP_REGLIM_FOLLOW_FRAC of
 * the occupancy's relative drop. */
#define GP_REGLIM_CLIFF_REL 0.02
#define GP_REGLIM_FOLLOW_FRAC 0.5

#endif
