/* Vendor baselines where none is wired in (CPU-only and HIP builds): every
 * call says so, and the benches skip that comparison. */
#include "vendor.h"

#include "runtime.h"

static gp_status absent(const char *what)
{
    return gp_fail(GP_ERR_UNSUPPORTED, "%s baseline: no vendor library wired in for backend %s", what,
                   gp_rt_backend());
}

gp_status gp_vendor_reduce_sum_f32(const float *d_in, size_t n, float *d_out, void *d_tmp, size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_out, (void)d_tmp, (void)tmp_bytes;
    return absent("reduce");
}

gp_status gp_vendor_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_tmp,
                                   size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_out, (void)d_tmp, (void)tmp_bytes;
    return absent("reduce");
}

const char *gp_vendor_reduce_name(void) { return NULL; }

gp_status gp_vendor_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes)
{
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_tmp, (void)tmp_bytes;
    return absent("scan");
}

gp_status gp_vendor_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_tmp,
                             size_t *tmp_bytes)
{
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_tmp, (void)tmp_bytes;
    return absent("scan");
}

gp_status gp_vendor_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, void *d_tmp, size_t *tmp_bytes)
{
    (void)d_in, (void)n, (void)d_bins, (void)d_tmp, (void)tmp_bytes;
    return absent("histogram");
}

gp_status gp_vendor_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, void *d_tmp,
                                  size_t *tmp_bytes)
{
    (void)d_keys, (void)n, (void)d_bins, (void)d_tmp, (void)tmp_bytes;
    return absent("histogram");
}

gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh,
                                  int kw, int pad_h, int pad_w)
{
    (void)n, (void)in_c, (void)h, (void)w, (void)out_c, (void)kh, (void)kw, (void)pad_h, (void)pad_w;
    *c = NULL;
    return absent("conv2d");
}

gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y)
{
    (void)c, (void)d_x, (void)d_w, (void)d_y;
    return absent("conv2d");
}

const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c)
{
    (void)c;
    return "none";
}

void gp_vendor_conv2d_destroy(gp_vendor_conv *c) { (void)c; }

const char *gp_vendor_conv_name(void) { return NULL; }

gp_status gp_vendor_bn_create(gp_vendor_bn **b, int n, int c, int h, int w)
{
    (void)n, (void)c, (void)h, (void)w;
    *b = NULL;
    return absent("batchnorm");
}

gp_status gp_vendor_bn_train(gp_vendor_bn *b, const float *d_x, float *d_y, const float *d_gamma,
                             const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd)
{
    (void)b, (void)d_x, (void)d_y, (void)d_gamma, (void)d_beta, (void)eps, (void)d_save_mean, (void)d_save_invstd;
    return absent("batchnorm");
}

void gp_vendor_bn_destroy(gp_vendor_bn *b) { (void)b; }

gp_status gp_vendor_blas_create(gp_vendor_blas **b)
{
    *b = NULL;
    return absent("sgemm");
}

gp_status gp_vendor_sgemm(gp_vendor_blas *b, int trans_a, int trans_b, int m, int n, int k, float alpha,
                          const float *d_a, int lda, const float *d_b, int ldb, float beta, float *d_c, int ldc)
{
    (void)b, (void)trans_a, (void)trans_b, (void)m, (void)n, (void)k, (void)alpha, (void)d_a, (void)lda;
    (void)d_b, (void)ldb, (void)beta, (void)d_c, (void)ldc;
    return absent("sgemm");
}

void gp_vendor_blas_destroy(gp_vendor_blas *b) { (void)b; }

const char *gp_vendor_blas_name(void) { return NULL; }

gp_status gp_vendor_spmv_create(gp_vendor_spmv **s, int rows, int cols, long long nnz, const int *d_row_ptr,
                                const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    (void)rows, (void)cols, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y;
    *s = NULL;
    return absent("spmv");
}

gp_status gp_vendor_spmv_run(gp_vendor_spmv *s)
{
    (void)s;
    return absent("spmv");
}

void gp_vendor_spmv_destroy(gp_vendor_spmv *s) { (void)s; }

const char *gp_vendor_spmv_name(void) { return NULL; }
