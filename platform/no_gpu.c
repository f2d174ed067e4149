#include "no_gpu.h"

gp_status gp_rt_no_gpu(const char *backend, gp_no_gpu_cause cause, const char *detail)
{
    if (!backend)
        backend = "GPU";
    switch (cause) {
    case GP_NO_GPU_NO_DRIVER:
        return gp_fail(GP_ERR_NO_GPU, "no GPU: no %s GPU driver is loaded on this machine (or it is older than "
                                      "the %s runtime gpuprobe was built with)", backend, backend);
    case GP_NO_GPU_NO_DEVICE:
        return gp_fail(GP_ERR_NO_GPU, "no GPU: the %s driver sees no device", backend);
    case GP_NO_GPU_OTHER:
        break;
    }
    return gp_fail(GP_ERR_NO_GPU, "no usable GPU: the %s runtime cannot start (%s)", backend,
                   detail && *detail ? detail : "no reason given");
}
