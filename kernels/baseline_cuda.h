/* What the CUDA baseline files (kernels/<k>/<k>_vendor.cu) share: a CUDA or
 * cuDNN return code as a gp_status, and cuDNN's version as a name.  Only
 * those files include it; cuDNN's part only after <cudnn.h>. */
#ifndef GP_BASELINE_CUDA_H
#define GP_BASELINE_CUDA_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "gp_status.h"

static inline gp_status gp_cuda_status(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return gp_ok();
    return gp_fail(GP_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

#ifdef CUDNN_MAJOR
static inline gp_status gp_cudnn_status(cudnnStatus_t s, const char *what)
{
    if (s == CUDNN_STATUS_SUCCESS)
        return gp_ok();
    return gp_fail(GP_ERR_RUNTIME, "cuDNN %s: %s", what, cudnnGetErrorString(s));
}

/* "cuDNN 9.x.y": cudnnGetVersion() is major * 10000 + minor * 100 + patch
 * from cuDNN 9 on. */
static inline const char *gp_cudnn_name(void)
{
    static char name[32];
    size_t v = cudnnGetVersion();
    snprintf(name, sizeof name, "cuDNN %zu.%zu.%zu", v / 10000, v % 10000 / 100, v % 100);
    return name;
}
#endif

#endif
