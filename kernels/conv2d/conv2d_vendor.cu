/* conv2d's baseline: cuDNN's fastest forward algorithm (found by timing
 * them all), fp32 data and fp32 math (CUDNN_FMA_MATH: no TF32), when cuDNN
 * was found at configure time (GP_HAVE_CUDNN).
 *
 * The legacy (descriptor) API: NCHW tensors, an out_c x in_c x kh x kw
 * filter, CUDNN_CROSS_CORRELATION (what deep-learning layers and our conv2d
 * compute: the filter is not flipped), stride 1, no dilation, compute type
 * float.  cudnnFindConvolutionForwardAlgorithm times every algorithm and
 * returns them fastest first; the first that succeeded without tensor-core
 * math is kept, with a workspace of the size it asked for.  The descriptor's
 * math type stays CUDNN_FMA_MATH, which is what cudnnConvolutionForward runs
 * with.  Every cuDNN and CUDA call is checked and its error string reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv2d_vendor.h"

#if GP_HAVE_CUDNN
#include <cuda_runtime.h>
#include <cudnn.h>

#include "baseline_cuda.h"

struct gp_vendor_conv {
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    cudnnConvolutionFwdAlgo_t algo;
    void *ws;
    size_t ws_bytes;
    char algo_name[96];
};

static const char *algo_text(cudnnConvolutionFwdAlgo_t a)
{
    switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "unknown";
    }
}

static const char *math_text(cudnnMathType_t m)
{
    switch (m) {
    case CUDNN_DEFAULT_MATH: return "DEFAULT";
    case CUDNN_TENSOR_OP_MATH: return "TENSOR_OP";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "TENSOR_OP_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH: return "FMA";
    default: return "?";
    }
}

extern "C" void gp_vendor_conv2d_destroy(gp_vendor_conv *c)
{
    if (!c)
        return;
    /* Teardown: errors here have nowhere useful to go. */
    if (c->ws)
        (void)cudaFree(c->ws);
    if (c->cd)
        (void)cudnnDestroyConvolutionDescriptor(c->cd);
    if (c->wd)
        (void)cudnnDestroyFilterDescriptor(c->wd);
    if (c->yd)
        (void)cudnnDestroyTensorDescriptor(c->yd);
    if (c->xd)
        (void)cudnnDestroyTensorDescriptor(c->xd);
    if (c->handle)
        (void)cudnnDestroy(c->handle);
    free(c);
}

static gp_status setup(gp_vendor_conv *c, int n, int in_c, int h, int w, int out_c, int kh, int kw, int pad_h,
                       int pad_w)
{
    GP_TRY(gp_cudnn_status(cudnnCreate(&c->handle), "cudnnCreate"));
    GP_TRY(gp_cudnn_status(cudnnSetStream(c->handle, (cudaStream_t)0), "cudnnSetStream"));
    GP_TRY(gp_cudnn_status(cudnnCreateTensorDescriptor(&c->xd), "cudnnCreateTensorDescriptor(x)"));
    GP_TRY(gp_cudnn_status(cudnnCreateTensorDescriptor(&c->yd), "cudnnCreateTensorDescriptor(y)"));
    GP_TRY(gp_cudnn_status(cudnnCreateFilterDescriptor(&c->wd), "cudnnCreateFilterDescriptor"));
    GP_TRY(gp_cudnn_status(cudnnCreateConvolutionDescriptor(&c->cd), "cudnnCreateConvolutionDescriptor"));
    GP_TRY(gp_cudnn_status(cudnnSetTensor4dDescriptor(c->xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, in_c, h, w),
               "cudnnSetTensor4dDescriptor(x)"));
    GP_TRY(gp_cudnn_status(cudnnSetFilter4dDescriptor(c->wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, out_c, in_c, kh, kw),
               "cudnnSetFilter4dDescriptor"));
    GP_TRY(gp_cudnn_status(cudnnSetConvolution2dDescriptor(c->cd, pad_h, pad_w, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                               CUDNN_DATA_FLOAT),
               "cudnnSetConvolution2dDescriptor"));
    GP_TRY(gp_cudnn_status(cudnnSetConvolutionMathType(c->cd, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType(FMA)"));
    int on, oc, oh, ow;
    GP_TRY(gp_cudnn_status(cudnnGetConvolution2dForwardOutputDim(c->cd, c->xd, c->wd, &on, &oc, &oh, &ow),
               "cudnnGetConvolution2dForwardOutputDim"));
    int want_h = h + 2 * pad_h - kh + 1, want_w = w + 2 * pad_w - kw + 1;
    if (on != n || oc != out_c || oh != want_h || ow != want_w)
        return gp_fail(GP_ERR_RUNTIME, "cuDNN output %dx%dx%dx%d, expected %dx%dx%dx%d", on, oc, oh, ow, n, out_c,
                       want_h, want_w);
    GP_TRY(gp_cudnn_status(cudnnSetTensor4dDescriptor(c->yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, on, oc, oh, ow),
               "cudnnSetTensor4dDescriptor(y)"));

    int max_algos = 0, got = 0;
    GP_TRY(gp_cudnn_status(cudnnGetConvolutionForwardAlgorithmMaxCount(c->handle, &max_algos),
               "cudnnGetConvolutionForwardAlgorithmMaxCount"));
    if (max_algos < 1)
        return gp_fail(GP_ERR_RUNTIME, "cuDNN reports %d forward algorithms", max_algos);
    cudnnConvolutionFwdAlgoPerf_t *perf = (cudnnConvolutionFwdAlgoPerf_t *)calloc((size_t)max_algos, sizeof *perf);
    if (!perf)
        return gp_fail(GP_ERR_NOMEM, "cuDNN baseline: out of host memory");
    gp_status st = gp_cudnn_status(cudnnFindConvolutionForwardAlgorithm(c->handle, c->xd, c->wd, c->cd, c->yd, max_algos, &got,
                                                            perf),
                       "cudnnFindConvolutionForwardAlgorithm");
    int pick = -1;
    char tried[256] = "";
    for (int i = 0; st.code == GP_OK && i < got; i++) {
        size_t len = strlen(tried);
        snprintf(tried + len, sizeof tried - len, "%s%s/%s: %s", len ? ", " : "", algo_text(perf[i].algo),
                 math_text(perf[i].mathType),
                 perf[i].status == CUDNN_STATUS_SUCCESS ? "ok" : cudnnGetErrorString(perf[i].status));
        /* Sorted fastest first; tensor-core math (TF32) is not fp32 math. */
        if (pick < 0 && perf[i].status == CUDNN_STATUS_SUCCESS &&
            (perf[i].mathType == CUDNN_FMA_MATH || perf[i].mathType == CUDNN_DEFAULT_MATH))
            pick = i;
    }
    if (st.code == GP_OK && pick < 0)
        st = gp_fail(GP_ERR_RUNTIME, "cuDNN: no forward algorithm ran in fp32 math (%s)", tried[0] ? tried : "none");
    if (st.code == GP_OK) {
        c->algo = perf[pick].algo;
        c->ws_bytes = perf[pick].memory;
        snprintf(c->algo_name, sizeof c->algo_name, "%s%s%s", algo_text(c->algo),
                 perf[pick].mathType == CUDNN_FMA_MATH ? "" : " math ",
                 perf[pick].mathType == CUDNN_FMA_MATH ? "" : math_text(perf[pick].mathType));
    }
    free(perf);
    GP_TRY(st);
    if (c->ws_bytes > 0)
        GP_TRY(gp_cuda_status(cudaMalloc(&c->ws, c->ws_bytes), "cuDNN baseline: workspace cudaMalloc"));
    return gp_ok();
}

extern "C" gp_status gp_vendor_conv2d_create(gp_vendor_conv **c, int n, int in_c, int h, int w, int out_c, int kh,
                                             int kw, int pad_h, int pad_w)
{
    *c = NULL;
    if (n < 1 || in_c < 1 || h < 1 || w < 1 || out_c < 1 || kh < 1 || kw < 1 || pad_h < 0 || pad_w < 0 ||
        kh > h + 2 * pad_h || kw > w + 2 * pad_w)
        return gp_fail(GP_ERR_USAGE, "cuDNN conv2d: bad shape %dx%dx%dx%d, %d out, kernel %dx%d, pad %d,%d", n, in_c,
                       h, w, out_c, kh, kw, pad_h, pad_w);
    gp_vendor_conv *v = (gp_vendor_conv *)calloc(1, sizeof *v);
    if (!v)
        return gp_fail(GP_ERR_NOMEM, "cuDNN baseline: out of host memory");
    gp_status st = setup(v, n, in_c, h, w, out_c, kh, kw, pad_h, pad_w);
    if (st.code != GP_OK) {
        gp_vendor_conv2d_destroy(v);
        return st;
    }
    *c = v;
    return gp_ok();
}

extern "C" gp_status gp_vendor_conv2d_run(gp_vendor_conv *c, const float *d_x, const float *d_w, float *d_y)
{
    if (!c)
        return gp_fail(GP_ERR_USAGE, "cuDNN conv2d: no plan");
    const float alpha = 1.0f, beta = 0.0f;
    return gp_cudnn_status(cudnnConvolutionForward(c->handle, &alpha, c->xd, d_x, c->wd, d_w, c->cd, c->algo, c->ws, c->ws_bytes,
                                       &beta, c->yd, d_y),
               "cudnnConvolutionForward");
}

extern "C" const char *gp_vendor_conv2d_algo(const gp_vendor_conv *c) { return c ? c->algo_name : "none"; }

extern "C" const char *gp_vendor_conv_name(void) { return gp_cudnn_name(); }
#endif
