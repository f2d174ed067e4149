/* Vendor-library baselines the application kernels are measured against.
 * Optional by design (docs/architecture.md, Dependencies): each call returns
 * GP_ERR_UNSUPPORTED with the reason when the library was not found at
 * configure time or the backend has no such library wired in, and callers
 * then skip that comparison and say so.
 *
 * NVIDIA: CUB (ships with the CUDA toolkit), cuDNN (found at configure:
 * GP_HAVE_CUDNN), cuBLAS (found at configure: GP_HAVE_CUBLAS) and cuSPARSE
 * (opened with dlopen at run time; GP_HAVE_CUSPARSE_H: its header was found).  AMD:
 * hipCUB, MIOpen and rocBLAS are not wired in yet. */
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

/* ---- Histogram (CUB DeviceHistogram::HistogramEven, uint32 counters).
 * u8: 256 bins over bytes (levels 0, 1, ..., 256); u32: 4096 bins over keys
 * (levels 0, 1, ..., 4096; keys >= 4096 not counted).  bins overwritten.
 * Scratch as for the reduction.  Enqueued on the default stream. */
gp_status gp_vendor_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, void *d_tmp, size_t *tmp_bytes);
gp_status gp_vendor_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, void *d_tmp,
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

/* ---- Batch normalization (cuDNN cudnnBatchNormalizationForwardTraining,
 * CUDNN_BATCHNORM_SPATIAL), NCHW fp32: y, and the saved mean and inverse
 * standard deviation (C values each); no running averages. */
typedef struct gp_vendor_bn gp_vendor_bn;
gp_status gp_vendor_bn_create(gp_vendor_bn **b, int n, int c, int h, int w);
gp_status gp_vendor_bn_train(gp_vendor_bn *b, const float *d_x, float *d_y, const float *d_gamma,
                             const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd);
void gp_vendor_bn_destroy(gp_vendor_bn *b);

/* ---- SGEMM (cuBLAS cublasSgemm, fp32 math: CUBLAS_PEDANTIC_MATH, no TF32),
 * column-major as BLAS: C = alpha op(A) op(B) + beta C, op = transpose when
 * trans_* is nonzero; on the default stream. */
typedef struct gp_vendor_blas gp_vendor_blas;
gp_status gp_vendor_blas_create(gp_vendor_blas **b);
gp_status gp_vendor_sgemm(gp_vendor_blas *b, int trans_a, int trans_b, int m, int n, int k, float alpha,
                          const float *d_a, int lda, const float *d_b, int ldb, float beta, float *d_c, int ldc);
void gp_vendor_blas_destroy(gp_vendor_blas *b);
/* "cuBLAS 13.0.0", or NULL. */
const char *gp_vendor_blas_name(void);

/* ---- SpMV (cuSPARSE cusparseSpMV, CSR with 32-bit indices, fp32,
 * CUSPARSE_SPMV_ALG_DEFAULT): y = A x.  Create binds the matrix's device
 * arrays and x, y, sizes the workspace and runs cusparseSpMV_preprocess (the
 * analysis an iterative solver pays once); run enqueues one product on the
 * default stream. */
typedef struct gp_vendor_spmv gp_vendor_spmv;
gp_status gp_vendor_spmv_create(gp_vendor_spmv **s, int rows, int cols, long long nnz, const int *d_row_ptr,
                                const int *d_col, const float *d_val, const float *d_x, float *d_y);
gp_status gp_vendor_spmv_run(gp_vendor_spmv *s);
void gp_vendor_spmv_destroy(gp_vendor_spmv *s);
/* "cuSPARSE 12.6.3", or NULL. */
const char *gp_vendor_spmv_name(void);

#ifdef __cplusplus
}
#endif
#endif
