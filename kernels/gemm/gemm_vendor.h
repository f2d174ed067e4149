/* gemm's baseline: cuBLAS cublasSgemm in fp32 math (CUBLAS_PEDANTIC_MATH, no
 * TF32; gemm_vendor.cu), on the CUDA backend when configure found cuBLAS.
 * Column-major as BLAS: C = alpha op(A) op(B) + beta C, op = transpose when
 * trans_* is nonzero; on the default stream. */
#ifndef GP_GEMM_VENDOR_H
#define GP_GEMM_VENDOR_H

#include <stddef.h>

#include "baseline.h"

typedef struct gp_vendor_blas gp_vendor_blas;

#if GP_HAVE_CUBLAS
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_blas_create(gp_vendor_blas **b);
gp_status gp_vendor_sgemm(gp_vendor_blas *b, int trans_a, int trans_b, int m, int n, int k, float alpha,
                          const float *d_a, int lda, const float *d_b, int ldb, float beta, float *d_c, int ldc);
void gp_vendor_blas_destroy(gp_vendor_blas *b);
/* "cuBLAS 13.0.0". */
const char *gp_vendor_blas_name(void);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_blas_create(gp_vendor_blas **b)
{
    *b = NULL;
    return gp_baseline_absent("cuBLAS");
}
static inline gp_status gp_vendor_sgemm(gp_vendor_blas *b, int trans_a, int trans_b, int m, int n, int k, float alpha,
                                        const float *d_a, int lda, const float *d_b, int ldb, float beta, float *d_c,
                                        int ldc)
{
    (void)b, (void)trans_a, (void)trans_b, (void)m, (void)n, (void)k, (void)alpha, (void)d_a, (void)lda;
    (void)d_b, (void)ldb, (void)beta, (void)d_c, (void)ldc;
    return gp_baseline_absent("cuBLAS");
}
static inline void gp_vendor_blas_destroy(gp_vendor_blas *b) { (void)b; }
static inline const char *gp_vendor_blas_name(void) { return NULL; }
#endif

#endif
