/* The one message for "no GPU here", whatever the runtime's own wording: a
 * CUDA runtime without a driver says "CUDA driver version is insufficient for
 * CUDA runtime version", which sends a user to upgrade a driver that is not
 * there.  GP_ERR_NO_GPU: the CLI exits 77 and CTest skips. */
#ifndef GP_NO_GPU_H
#define GP_NO_GPU_H

#include "gp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_no_gpu_cause {
    GP_NO_GPU_NO_DEVICE,  /* driver up, no device (cudaErrorNoDevice, a count of 0) */
    GP_NO_GPU_NO_DRIVER,  /* no driver, or one older than the runtime (cudaErrorInsufficientDriver) */
    GP_NO_GPU_OTHER       /* the runtime cannot start for another reason: `detail` says it */
} gp_no_gpu_cause;

/* backend: "cuda" or "hip"; detail: the runtime's own text (kept last, in
 * parentheses, for GP_NO_GPU_OTHER only). */
gp_status gp_rt_no_gpu(const char *backend, gp_no_gpu_cause cause, const char *detail);

#ifdef __cplusplus
}
#endif
#endif
