/* Vendor-library baselines the application kernels are measured against.
 * Optional by design (DESIGN.md, Dependencies): each call returns
 * GP_ERR_UNSUPPORTED with the reason when the library was not found at
 * configure time or the backend has no such library wired in, and callers
 * then skip that comparison and say so.
 *
 * NVIDIA: CUB (ships with the CUDA toolkit) and cuDNN (found at configure:
 * GP_HAVE_CUDNN).  AMD: hipCUB and MIOpen are not wired in yet. */
#ifndef GP_VENDOR_H
#define GP_VENDOR_H

#include <stddef.h>
#include <stdint.h>

#include "gp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Reduction (CUB DeviceReduce::Sum).  d_tmp/tmp_bytes: scratch; call
 * with d_tmp == NULL to get the size.  Enqueued on the default stream. */
gp_status gp_vendor_reduce_sum_f32(const float *d_in, size_t n, float *d_out, void *d_tmp,
                                   size_t *tmp_bytes);
gp_status gp_vendor_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_tmp,
                                   size_t *tmp_bytes);
/* Name of the library behind the reduce baseline ("CUB 3.0.0"), or NULL. */
const char *gp_vendor_reduce_name(void);

/* ---- Prefix sum (CUB DeviceScan::InclusiveSum / ExclusiveSum; exclusive 0
 * or 1).  Scratch as for the reduction.  Enqueued on the default stream. */
gp_status gp_vendor_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes);
gp_status gp_vendor_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes);

/* ---- 2D convolution (cuDNN), NCHW fp32, stride 1, fp32 math (no TF32).
 * Create picks the fastest forward algorithm by timing them all
 * (cudnnFindConvolutionForwardAlgorithm) and owns its workspace. */
typedef struct gp_vendor_conv gp_vendor_conv;
gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh,
                                  int kw, int pad_h, int pad_w);
/* y = conv(x, weights) (+ nothing: no bias), on the default stream. */
gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y);
/* The algorithm chosen ("IMPLICIT_PRECOMP_GEMM"), for the report. */
const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c);
void gp_vendor_conv2d_destroy(gp_vendor_conv *c);
/* Name of the library behind the conv baseline ("cuDNN 9.x"), or NULL. */
const char *gp_vendor_conv_name(void);

#ifdef __cplusplus
}
#endif
#endif
