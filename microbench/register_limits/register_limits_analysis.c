#include "register_limits_analysis.h"

#include <math.h>

/* Threads the model grants: each of `s` partitions (SIMDs, sub-partitions)
 * holds r / s registers and whole waves of `wave` lanes of `a` registers each;
 * blocks of `block` threads are placed whole. */
static double model_threads(double r, int s, double a, int wave, int block)
{
    double waves = s * floor(r / s / (a * wave));
    return floor(waves * wave / block) * block;
}

gp_register_fit gp_register_fit_granule(const double *regs, const double *threads, size_t n, int wave,
                                        int block)
{
    gp_register_fit f = {-1, NAN, NAN, 0, 0, 0};
    double cap = 0;
    for (size_t i = 0; i < n; i++)
        if (threads[i] > cap)
            cap = threads[i];
    int limited = 0;
    for (size_t i = 0; i < n; i++)
        limited += regs[i] > 0 && threads[i] > 0 && threads[i] < cap;
    f.limited_points = limited;
    if (limited < 2 || wave < 1 || block < 1)
        return f;
    static const int parts[] = {1, 2, 4};
    int best_match = -1, best_score = -1;
    /* Larger granules first, so that on equal scores the coarsest explanation wins. */
    for (int g = 256; g >= 1; g /= 2) {
        double lo = 0;
        for (size_t i = 0; i < n; i++)
            if (regs[i] > 0 && threads[i] > 0 && ceil(regs[i] / g) * g * threads[i] > lo)
                lo = ceil(regs[i] / g) * g * threads[i];
        /* Candidates for the register file: the lower bound and the powers of
         * two above it (a register file is rarely an odd size). */
        double cand[24];
        int nc = 0;
        cand[nc++] = lo;
        for (double p = 1; p <= 4 * lo && nc < 24; p *= 2)
            if (p > lo)
                cand[nc++] = p;
        for (int c = 0; c < nc; c++)
            for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
                int match = 0;
                for (size_t i = 0; i < n; i++)
                    if (regs[i] > 0 && threads[i] > 0 && threads[i] < cap)
                        match += model_threads(cand[c], parts[k], ceil(regs[i] / g) * g, wave, block)
                                 == threads[i];
                /* On equal matches a power-of-two register file wins, then
                 * (loop order) the larger granule. */
                int e, score = 2 * match + (frexp(cand[c], &e) == 0.5);
                if (score > best_score) {
                    best_score = score;
                    best_match = match;
                    f.granule = g;
                    f.per_cu = cand[c];
                    f.per_cu_lo = lo;
                    f.partitions = parts[k];
                }
            }
    }
    f.matched = best_match;
    /* Most register-limited points must be explained exactly. */
    if (best_match < 2 || best_match < 0.8 * limited) {
        f.granule = -1;
        f.per_cu = NAN;
    }
    return f;
}

int gp_register_cliffs(const double *threads, size_t n, double rel, int *idx, int max)
{
    int k = 0;
    for (size_t i = 1; i < n; i++)
        if (threads[i] < threads[i - 1] * (1 - rel)) {
            if (k < max)
                idx[k] = (int)i;
            k++;
        }
    return k;
}

int gp_register_cliffs_followed(const double *threads, const double *thr, size_t n, const int *idx,
                                int ncliffs, double share)
{
    int followed = 0;
    for (int c = 0; c < ncliffs; c++) {
        int i = idx[c];
        if (i < 1 || (size_t)i >= n || !(threads[i - 1] > 0) || !(thr[i - 1] > 0))
            continue;
        double occ_drop = 1 - threads[i] / threads[i - 1];
        double thr_drop = 1 - thr[i] / thr[i - 1];
        if (thr_drop >= share * occ_drop)
            followed++;
    }
    return followed;
}

int gp_register_first_spill(const double *local_bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (local_bytes[i] > 0)
            return (int)i;
    return -1;
}
