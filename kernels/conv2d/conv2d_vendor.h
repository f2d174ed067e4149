/* conv2d's baseline: cuDNN (conv2d_vendor.cu), NCHW fp32, stride 1, fp32
 * math (no TF32), on the CUDA backend when configure found cuDNN.  Create
 * picks the fastest forward algorithm by timing them all
 * (cudnnFindConvolutionForwardAlgorithm) and owns its workspace; run
 * computes y = conv(x, weights), no bias, on the default stream. */
#ifndef GP_CONV2D_VENDOR_H
#define GP_CONV2D_VENDOR_H

#include <stddef.h>

#include "baseline.h"

typedef struct gp_vendor_conv gp_vendor_conv;

#if GP_HAVE_CUDNN
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh, int kw,
                                  int pad_h, int pad_w);
gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y);
/* The algorithm chosen ("IMPLICIT_PRECOMP_GEMM"), for the report. */
const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c);
void gp_vendor_conv2d_destroy(gp_vendor_conv *c);
/* "cuDNN 9.x.y". */
const char *gp_vendor_conv_name(void);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh,
                                                int kw, int pad_h, int pad_w)
{
    (void)n, (void)in_c, (void)h, (void)w, (void)out_c, (void)kh, (void)kw, (void)pad_h, (void)pad_w;
    *c = NULL;
    return gp_baseline_absent("cuDNN");
}
static inline gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y)
{
    (void)c, (void)d_x, (void)d_w, (void)d_y;
    return gp_baseline_absent("cuDNN");
}
static inline const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c) { return (void)c, "none"; }
static inline void gp_vendor_conv2d_destroy(gp_vendor_conv *c) { (void)c; }
static inline const char *gp_vendor_conv_name(void) { return NULL; }
#endif

#endif
