/* Analysis of the memory_bandwidth probe: which plateau of bandwidth versus
 * footprint (gp_bw_plateaus, common/analysis.h) is L1, L2 and DRAM.  Pure
 * functions over arrays, unit-tested on synthetic curves with noise. */
#ifndef GP_MEMORY_BANDWIDTH_ANALYSIS_H
#define GP_MEMORY_BANDWIDTH_ANALYSIS_H

#include <stddef.h>

#include "analysis.h"



/* Levels of a footprint curve: the plateau holding the largest footprints
 * beyond `l2_bytes` is DRAM, the last plateau entirely at or below l2_bytes is
 * L2, and a plateau before it that is at least 1.2x higher is L1.  Indices
 * into the plateau array, -1 when a level is not present. */
typedef struct gp_bw_levels {
    int l1, l2, dram;
} gp_bw_levels;
gp_bw_levels gp_bw_classify(const double *footprint, const gp_bw_plateau *p, int np,
                            double l2_bytes);


/* The probe's plateau rule (shared with the tests on recorded series): runs
 * within GP_BW_PLATEAU_TOL of their median, of at least
 * GP_BW_PLATEAU_MIN_POINTS points. */
#define GP_BW_PLATEAU_TOL 0.08
#define GP_BW_PLATEAU_MIN_POINTS 2

#endif
