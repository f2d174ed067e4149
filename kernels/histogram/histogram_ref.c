/* histogram CPU references: plain counting, added into the caller's bins so
 * that a long array can be counted a chunk at a time. */
#include "histogram.h"

void gp_histogram_ref_u8(const uint8_t *x, size_t n, uint32_t *bins)
{
    for (size_t i = 0; i < n; i++)
        bins[x[i]]++;
}

void gp_histogram_ref_u32(const uint32_t *keys, size_t n, uint32_t *bins)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i] < GP_HIST_U32_BINS)
            bins[keys[i]]++;
}
