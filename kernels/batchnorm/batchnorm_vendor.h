/* batchnorm's baseline: cuDNN's cudnnBatchNormalizationForwardTraining,
 * CUDNN_BATCHNORM_SPATIAL (batchnorm_vendor.cu), NCHW fp32, on the CUDA
 * backend when configure found cuDNN: y, and the saved mean and inverse
 * standard deviation (C values each); no running averages. */
#ifndef GP_BATCHNORM_VENDOR_H
#define GP_BATCHNORM_VENDOR_H

#include <stddef.h>

#include "baseline.h"

typedef struct gp_vendor_bn gp_vendor_bn;

#if GP_HAVE_CUDNN
#ifdef __cplusplus
extern "C" {
#endif
gp_status gp_vendor_bn_create(gp_vendor_bn **b, int n, int c, int h, int w);
gp_status gp_vendor_bn_train(gp_vendor_bn *b, const float *d_x, float *d_y, const float *d_gamma,
                             const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd);
void gp_vendor_bn_destroy(gp_vendor_bn *b);
/* "cuDNN 9.x.y". */
const char *gp_vendor_bn_name(void);
#ifdef __cplusplus
}
#endif
#else
static inline gp_status gp_vendor_bn_create(gp_vendor_bn **b, int n, int c, int h, int w)
{
    (void)n, (void)c, (void)h, (void)w;
    *b = NULL;
    return gp_baseline_absent("cuDNN");
}
static inline gp_status gp_vendor_bn_train(gp_vendor_bn *b, const float *d_x, float *d_y, const float *d_gamma,
                                           const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd)
{
    (void)b, (void)d_x, (void)d_y, (void)d_gamma, (void)d_beta, (void)eps, (void)d_save_mean, (void)d_save_invstd;
    return gp_baseline_absent("cuDNN");
}
static inline void gp_vendor_bn_destroy(gp_vendor_bn *b) { (void)b; }
static inline const char *gp_vendor_bn_name(void) { return NULL; }
#endif

#endif
