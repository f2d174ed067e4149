/* spmv's baseline: cuSPARSE cusparseSpMV (CSR with 32-bit indices, fp32,
 * CUSPARSE_SPMV_ALG_DEFAULT; spmv_vendor.cu), y = A x, on the CUDA backend
 * when configure found cusparse.h; the library is opened at run time.
 * Create binds the matrix's device arrays and x, y, sizes the workspace and
 * runs cusparseSpMV_preprocess (the analysis an iterative solver pays once);
 * run enqueues one product on the default stream. */
#ifndef GP_SPMV_VENDOR_H
#define GP_SPMV_VENDOR_H

#include <stddef.h>

#include "baseline.h"

typedef struct gp_vendor_spmv gp_vendor_spmv;

#if GP_HAVE_CUSPARSE_H
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_spmv_create(gp_vendor_spmv **s, int rows, int cols, long long nnz, const int *d_row_ptr,
                                const int *d_col, const float *d_val, const float *d_x, float *d_y);
gp_status gp_vendor_spmv_run(gp_vendor_spmv *s);
void gp_vendor_spmv_destroy(gp_vendor_spmv *s);
/* "cuSPARSE 12.6.3", or NULL where the library cannot be opened. */
const char *gp_vendor_spmv_name(void);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_spmv_create(gp_vendor_spmv **s, int rows, int cols, long long nnz,
                                              const int *d_row_ptr, const int *d_col, const float *d_val,
                                              const float *d_x, float *d_y)
{
    (void)rows, (void)cols, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y;
    *s = NULL;
    return gp_baseline_absent("cuSPARSE");
}
static inline gp_status gp_vendor_spmv_run(gp_vendor_spmv *s) { return (void)s, gp_baseline_absent("cuSPARSE"); }
static inline void gp_vendor_spmv_destroy(gp_vendor_spmv *s) { (void)s; }
static inline const char *gp_vendor_spmv_name(void) { return NULL; }
#endif

#endif
