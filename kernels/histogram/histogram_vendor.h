/* histogram's baseline: CUB DeviceHistogram::HistogramEven with uint32
 * counters (histogram_vendor.cu), on the CUDA backend.  u8: 256 bins over
 * bytes (levels 0, 1, ..., 256); u32: 4096 bins over keys (levels 0, 1, ...,
 * 4096; keys >= 4096 not counted).  bins overwritten.  d_tmp/tmp_bytes:
 * scratch; called with d_tmp == NULL it gives the size.  On the default
 * stream. */
#ifndef GP_HISTOGRAM_VENDOR_H
#define GP_HISTOGRAM_VENDOR_H

#include <stddef.h>
#include <stdint.h>

#include "baseline.h"

#if GP_HAVE_CUB
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, void *d_tmp, size_t *tmp_bytes);
gp_status gp_vendor_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, void *d_tmp,
                                  size_t *tmp_bytes);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, void *d_tmp,
                                               size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_bins, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
static inline gp_status gp_vendor_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, void *d_tmp,
                                                size_t *tmp_bytes)
{
    (void)d_keys, (void)n, (void)d_bins, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
#endif

#endif
