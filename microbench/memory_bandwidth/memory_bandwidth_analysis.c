#include "memory_bandwidth_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"


gp_bw_levels gp_bw_classify(const double *footprint, const gp_bw_plateau *p, int np,
                            double l2_bytes)
{
    gp_bw_levels lv = {-1, -1, -1};
    for (int k = np - 1; k >= 0; k--)
        if (footprint[p[k].first] >= l2_bytes) {
            lv.dram = k;
            break;
        }
    for (int k = np - 1; k >= 0; k--) {
        if (k == lv.dram || footprint[p[k].last] > l2_bytes)
            continue;
        /* A cache level runs at least as fast as the memory behind it. */
        if (lv.dram >= 0 && p[k].level < p[lv.dram].level)
            continue;
        lv.l2 = k;
        break;
    }
    if (lv.l2 > 0)
        for (int k = lv.l2 - 1; k >= 0; k--)
            if (p[k].level >= 1.2 * p[lv.l2].level) {
                lv.l1 = k;
                break;
            }
    return lv;
}
