/* Convolution baseline: cuDNN's fastest forward algorithm (found by timing
 * them all), fp32 data and fp32 math (CUDNN_FMA_MATH: no TF32), when cuDNN
 * was found at configure time (GP_HAVE_CUDNN). */
#include <stdlib.h>

#include "vendor.h"

#if GP_HAVE_CUDNN && 0 /* the cuDNN calls come with the conv2d kernel */
#else
gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh,
                                  int kw, int pad_h, int pad_w)
{
    (void)n, (void)in_c, (void)h, (void)w, (void)out_c, (void)kh, (void)kw, (void)pad_h, (void)pad_w;
    *c = NULL;
    return gp_fail(GP_ERR_UNSUPPORTED, "conv2d baseline: cuDNN was not found at configure time");
}

gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y)
{
    (void)c, (void)d_x, (void)d_w, (void)d_y;
    return gp_fail(GP_ERR_UNSUPPORTED, "conv2d baseline: cuDNN was not found at configure time");
}

const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c)
{
    (void)c;
    return "none";
}

void gp_vendor_conv2d_destroy(gp_vendor_conv *c) { (void)c; }

const char *gp_vendor_conv_name(void) { return NULL; }
#endif
