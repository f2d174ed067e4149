/* batchnorm's baseline: cuDNN's cudnnBatchNormalizationForwardTraining,
 * spatial mode (per-channel statistics over N, H, W), fp32, no running
 * averages, when cuDNN was found at configure time (GP_HAVE_CUDNN). */
#include <stdlib.h>

#include "batchnorm_vendor.h"

#if GP_HAVE_CUDNN
#include <cuda_runtime.h>
#include <cudnn.h>

#include "baseline_cuda.h"

struct gp_vendor_bn {
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t xd, pd;
};

extern "C" void gp_vendor_bn_destroy(gp_vendor_bn *b)
{
    if (!b)
        return;
    if (b->pd)
        (void)cudnnDestroyTensorDescriptor(b->pd);
    if (b->xd)
        (void)cudnnDestroyTensorDescriptor(b->xd);
    if (b->handle)
        (void)cudnnDestroy(b->handle);
    free(b);
}

static gp_status bn_setup(gp_vendor_bn *b, int n, int c, int h, int w)
{
    GP_TRY(gp_cudnn_status(cudnnCreate(&b->handle), "cudnnCreate"));
    GP_TRY(gp_cudnn_status(cudnnSetStream(b->handle, (cudaStream_t)0), "cudnnSetStream"));
    GP_TRY(gp_cudnn_status(cudnnCreateTensorDescriptor(&b->xd), "cudnnCreateTensorDescriptor(x)"));
    GP_TRY(gp_cudnn_status(cudnnCreateTensorDescriptor(&b->pd), "cudnnCreateTensorDescriptor(bn)"));
    GP_TRY(gp_cudnn_status(cudnnSetTensor4dDescriptor(b->xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w),
               "cudnnSetTensor4dDescriptor(x)"));
    GP_TRY(gp_cudnn_status(cudnnDeriveBNTensorDescriptor(b->pd, b->xd, CUDNN_BATCHNORM_SPATIAL), "cudnnDeriveBNTensorDescriptor"));
    return gp_ok();
}

extern "C" gp_status gp_vendor_bn_create(gp_vendor_bn **b, int n, int c, int h, int w)
{
    *b = NULL;
    if (n < 1 || c < 1 || h < 1 || w < 1)
        return gp_fail(GP_ERR_USAGE, "cuDNN batchnorm: bad shape %dx%dx%dx%d", n, c, h, w);
    gp_vendor_bn *v = (gp_vendor_bn *)calloc(1, sizeof *v);
    if (!v)
        return gp_fail(GP_ERR_NOMEM, "cuDNN baseline: out of host memory");
    gp_status st = bn_setup(v, n, c, h, w);
    if (st.code != GP_OK) {
        gp_vendor_bn_destroy(v);
        return st;
    }
    *b = v;
    return gp_ok();
}

extern "C" gp_status gp_vendor_bn_train(gp_vendor_bn *b, const float *d_x, float *d_y, const float *d_gamma,
                                        const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd)
{
    if (!b)
        return gp_fail(GP_ERR_USAGE, "cuDNN batchnorm: no plan");
    if (eps < CUDNN_BN_MIN_EPSILON)
        return gp_fail(GP_ERR_USAGE, "cuDNN batchnorm: eps %g below CUDNN_BN_MIN_EPSILON", eps);
    const float one = 1.0f, zero = 0.0f;
    return gp_cudnn_status(cudnnBatchNormalizationForwardTraining(b->handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, b->xd, d_x,
                                                      b->xd, d_y, b->pd, d_gamma, d_beta, 0.0, NULL, NULL, eps,
                                                      d_save_mean, d_save_invstd),
               "cudnnBatchNormalizationForwardTraining");
}


extern "C" const char *gp_vendor_bn_name(void) { return gp_cudnn_name(); }
#endif
