/* SpMV baseline: cuSPARSE cusparseSpMV (CSR, fp32, CUSPARSE_SPMV_ALG_DEFAULT,
 * after cusparseSpMV_preprocess), opened with dlopen at run time like NVML
 * (smi.c): the binary links no cuSPARSE, so a package needs only the driver,
 * and the baseline is there wherever libcusparse is.  The
 * toolkit's header gives the types and the signatures (GP_HAVE_CUSPARSE_H);
 * GP_CUSPARSE_LIBDIR is the toolkit's library folder, tried last. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "spmv_vendor.h"

#if GP_HAVE_CUSPARSE_H
#include <cuda_runtime.h>
#include <cusparse.h>

/* The entry points used, typed from the header's declarations. */
#define GP_CUSPARSE_FUNCS(X)                                                                                 \
    X(cusparseCreate) X(cusparseDestroy) X(cusparseSetStream) X(cusparseGetErrorString) X(cusparseGetProperty) \
    X(cusparseCreateCsr) X(cusparseDestroySpMat) X(cusparseCreateDnVec) X(cusparseDestroyDnVec)               \
    X(cusparseSpMV_bufferSize) X(cusparseSpMV_preprocess) X(cusparseSpMV)

static struct {
    int tried;
    void *lib;
    char why[256];
#define GP_CUSPARSE_PTR(f) decltype(&f) p_##f;
    GP_CUSPARSE_FUNCS(GP_CUSPARSE_PTR)
#undef GP_CUSPARSE_PTR
} cs;

/* Open the library once; 1 when every entry point is there. */
static int cs_open(void)
{
    if (cs.tried)
        return cs.lib != NULL;
    cs.tried = 1;
    const char *names[] = {"libcusparse.so.12", "libcusparse.so.13", "libcusparse.so",
#ifdef GP_CUSPARSE_LIBDIR
                           GP_CUSPARSE_LIBDIR "/libcusparse.so",
#endif
                           NULL};
    for (int i = 0; names[i] && !cs.lib; i++)
        cs.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!cs.lib) {
        snprintf(cs.why, sizeof cs.why, "libcusparse not found at run time (%s)", dlerror());
        return 0;
    }
#define GP_CUSPARSE_SYM(f)                                                                      \
    if (cs.lib && !(cs.p_##f = (decltype(&f))dlsym(cs.lib, #f))) {                              \
        snprintf(cs.why, sizeof cs.why, "libcusparse has no %s", #f);                           \
        dlclose(cs.lib);                                                                        \
        cs.lib = NULL;                                                                          \
    }
    GP_CUSPARSE_FUNCS(GP_CUSPARSE_SYM)
#undef GP_CUSPARSE_SYM
    return cs.lib != NULL;
}

struct gp_vendor_spmv {
    cusparseHandle_t h;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t x, y;
    void *buf;
};

static gp_status sp(cusparseStatus_t s, const char *what)
{
    if (s == CUSPARSE_STATUS_SUCCESS)
        return gp_ok();
    return gp_fail(GP_ERR_RUNTIME, "cuSPARSE %s: %s", what, cs.p_cusparseGetErrorString(s));
}

extern "C" gp_status gp_vendor_spmv_create(gp_vendor_spmv **out, int rows, int cols, long long nnz,
                                           const int *d_row_ptr, const int *d_col, const float *d_val,
                                           const float *d_x, float *d_y)
{
    *out = NULL;
    if (!cs_open())
        return gp_fail(GP_ERR_UNSUPPORTED, "spmv baseline: %s", cs.why);
    gp_vendor_spmv *v = (gp_vendor_spmv *)calloc(1, sizeof *v);
    if (!v)
        return gp_fail(GP_ERR_NOMEM, "cuSPARSE baseline: out of host memory");
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = 0;
    gp_status st = sp(cs.p_cusparseCreate(&v->h), "cusparseCreate");
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseSetStream(v->h, (cudaStream_t)0), "cusparseSetStream");
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseCreateCsr(&v->a, rows, cols, nnz, (void *)d_row_ptr, (void *)d_col, (void *)d_val,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                "cusparseCreateCsr");
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseCreateDnVec(&v->x, cols, (void *)d_x, CUDA_R_32F), "cusparseCreateDnVec(x)");
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseCreateDnVec(&v->y, rows, (void *)d_y, CUDA_R_32F), "cusparseCreateDnVec(y)");
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseSpMV_bufferSize(v->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, v->a, v->x, &zero, v->y,
                                             CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                "cusparseSpMV_bufferSize");
    if (st.code == GP_OK && cudaMalloc(&v->buf, bytes ? bytes : 16) != cudaSuccess)
        st = gp_fail(GP_ERR_NOMEM, "cuSPARSE baseline: cudaMalloc of %zu bytes of workspace failed", bytes);
    if (st.code == GP_OK)
        st = sp(cs.p_cusparseSpMV_preprocess(v->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, v->a, v->x, &zero, v->y,
                                             CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, v->buf),
                "cusparseSpMV_preprocess");
    if (st.code != GP_OK) {
        gp_vendor_spmv_destroy(v);
        return st;
    }
    *out = v;
    return gp_ok();
}

extern "C" gp_status gp_vendor_spmv_run(gp_vendor_spmv *v)
{
    if (!v)
        return gp_fail(GP_ERR_USAGE, "cuSPARSE spmv: no handle");
    const float one = 1.0f, zero = 0.0f;
    return sp(cs.p_cusparseSpMV(v->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, v->a, v->x, &zero, v->y, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, v->buf),
              "cusparseSpMV");
}

extern "C" void gp_vendor_spmv_destroy(gp_vendor_spmv *v)
{
    if (!v)
        return;
    if (v->buf)
        (void)cudaFree(v->buf);
    if (v->x)
        (void)cs.p_cusparseDestroyDnVec(v->x);
    if (v->y)
        (void)cs.p_cusparseDestroyDnVec(v->y);
    if (v->a)
        (void)cs.p_cusparseDestroySpMat(v->a);
    if (v->h)
        (void)cs.p_cusparseDestroy(v->h);
    free(v);
}

extern "C" const char *gp_vendor_spmv_name(void)
{
    static char name[32];
    int ma = 0, mi = 0, pa = 0;
    if (!cs_open())
        return NULL;
    cs.p_cusparseGetProperty(MAJOR_VERSION, &ma);
    cs.p_cusparseGetProperty(MINOR_VERSION, &mi);
    cs.p_cusparseGetProperty(PATCH_LEVEL, &pa);
    snprintf(name, sizeof name, "cuSPARSE %d.%d.%d", ma, mi, pa);
    return name;
}

#endif
