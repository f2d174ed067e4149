/* reduce's baseline: CUB DeviceReduce::Sum (reduce_vendor.cu), on the CUDA
 * backend.  d_tmp/tmp_bytes: scratch; called with d_tmp == NULL it gives the
 * size.  Enqueued on the default stream. */
#ifndef GP_REDUCE_VENDOR_H
#define GP_REDUCE_VENDOR_H

#include <stddef.h>
#include <stdint.h>

#include "baseline.h"

#if GP_HAVE_CUB
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_reduce_sum_f32(const float *d_in, size_t n, float *d_out, void *d_tmp, size_t *tmp_bytes);
gp_status gp_vendor_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_tmp, size_t *tmp_bytes);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_reduce_sum_f32(const float *d_in, size_t n, float *d_out, void *d_tmp,
                                                 size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_out, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
static inline gp_status gp_vendor_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_tmp,
                                                 size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_out, (void)d_tmp, (void)tmp_bytes;
    return gp_baseline_absent("CUB");
}
#endif

#endif
