/* SGEMM baseline: cublasSgemm in fp32 math (CUBLAS_PEDANTIC_MATH: no TF32,
 * no reduced-precision reductions), when cuBLAS was found at configure time
 * (GP_HAVE_CUBLAS).  Column-major, as BLAS; on the default stream. */
#include <stdio.h>
#include <stdlib.h>

#include "gemm_vendor.h"

#if GP_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>

struct gp_vendor_blas {
    cublasHandle_t handle;
};

static gp_status blas(cublasStatus_t s, const char *what)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return gp_ok();
    return gp_fail(GP_ERR_RUNTIME, "cuBLAS %s: %s", what, cublasGetStatusString(s));
}

extern "C" gp_status gp_vendor_blas_create(gp_vendor_blas **b)
{
    *b = NULL;
    gp_vendor_blas *v = (gp_vendor_blas *)calloc(1, sizeof *v);
    if (!v)
        return gp_fail(GP_ERR_NOMEM, "cuBLAS baseline: out of host memory");
    gp_status st = blas(cublasCreate(&v->handle), "cublasCreate");
    if (st.code == GP_OK)
        st = blas(cublasSetStream(v->handle, (cudaStream_t)0), "cublasSetStream");
    if (st.code == GP_OK)
        st = blas(cublasSetMathMode(v->handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(PEDANTIC)");
    if (st.code != GP_OK) {
        gp_vendor_blas_destroy(v);
        return st;
    }
    *b = v;
    return gp_ok();
}

extern "C" gp_status gp_vendor_sgemm(gp_vendor_blas *b, int trans_a, int trans_b, int m, int n, int k, float alpha,
                                     const float *d_a, int lda, const float *d_b, int ldb, float beta, float *d_c,
                                     int ldc)
{
    if (!b)
        return gp_fail(GP_ERR_USAGE, "cuBLAS sgemm: no handle");
    return blas(cublasSgemm(b->handle, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, m,
                            n, k, &alpha, d_a, lda, d_b, ldb, &beta, d_c, ldc),
                "cublasSgemm");
}

extern "C" void gp_vendor_blas_destroy(gp_vendor_blas *b)
{
    if (!b)
        return;
    if (b->handle)
        (void)cublasDestroy(b->handle);
    free(b);
}

extern "C" const char *gp_vendor_blas_name(void)
{
    static char name[32];
    int v = 0;
    if (cublasGetVersion(NULL, &v) != CUBLAS_STATUS_SUCCESS)
        return "cuBLAS";
    snprintf(name, sizeof name, "cuBLAS %d.%d.%d", v / 10000, v % 10000 / 100, v % 100);
    return name;
}

#endif
