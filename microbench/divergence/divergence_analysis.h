/* Divergence analysis: the wave size read from the cost of divergent lane
 * groups.  Lanes whose (tid / G) is odd take another path; while G is below
 * the wave size every wave holds both paths and runs them one after the other
 * (slow); once G reaches the wave size each wave runs one path (as fast as the
 * uniform kernel).  Pure C, unit-tested on synthetic curves. */
#ifndef GP_DIVERGENCE_ANALYSIS_H
#define GP_DIVERGENCE_ANALYSIS_H

#include <stddef.h>

#define GP_DIVERGENCE_MAX_POINTS 64

typedef struct gp_divergence_wave {
    int detected;        /* 0: no G met the rule; `why` says which part failed */
    double group;        /* smallest group size with no slowdown (the wave size) */
    double slow_ratio;   /* time / uniform at the group just below it */
    const char *why;     /* static reason when not detected */
} gp_divergence_wave;

/* Smallest group size G whose time, and the time of every larger G, is within
 * tol (e.g. 0.10) of `uniform_time`, while the smallest G measured is slower
 * than that (so divergence costs something at all).  group/time need not be
 * sorted; at most GP_DIVERGENCE_MAX_POINTS points are used.  Non-finite or
 * non-positive times are skipped. */
gp_divergence_wave gp_divergence_wave_from_groups(const double *group, const double *time, size_t n,
                                                  double uniform_time, double tol);

/* time / reference, NaN unless both are finite and positive. */
double gp_divergence_ratio(double time, double reference);

/* The share of path B's time that one divergent lane per wave adds:
 * (one_lane - uniform) / all_b, 1 when the wave runs both paths in turn.
 * NaN unless the three times are finite and uniform and all_b positive. */
double gp_divergence_serialized_fraction(double one_lane, double uniform, double all_b);

/* The probe's parameter (shared with the tests on recorded series): a group
 * time within this fraction of the uniform time counts as "no slowdown". */
#define GP_DIVERGENCE_GROUP_TOL 0.10

#endif
