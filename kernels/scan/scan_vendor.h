/* scan's baseline: CUB DeviceScan::InclusiveSum / ExclusiveSum (exclusive 0
 * or 1; scan_vendor.cu), on the CUDA backend.  d_tmp/tmp_bytes: scratch;
 * called with d_tmp == NULL it gives the size.  On the default stream. */
#ifndef GP_SCAN_VENDOR_H
#define GP_SCAN_VENDOR_H

#include <stddef.h>
#include <stdint.h>

#include "baseline.h"

#if GP_HAVE_CUB
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes);
gp_status gp_vendor_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_tmp,
                                           size_t *tmp_bytes)
{
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
static inline gp_status gp_vendor_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive,
                                           void *d_tmp, size_t *tmp_bytes)
{
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
#endif

#endif
