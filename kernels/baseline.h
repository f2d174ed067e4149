/* What a vendor baseline (kernels/<k>/<k>_vendor.h) is in a build that does
 * not carry its library: every call returns GP_ERR_UNSUPPORTED with the
 * reason, and the bench skips that comparison and says so.  The CUDA build
 * defines GP_HAVE_CUB, GP_HAVE_CUDNN, GP_HAVE_CUBLAS and GP_HAVE_CUSPARSE_H
 * from what configure found (kernels/baselines.cmake); other builds none. */
#ifndef GP_BASELINE_H
#define GP_BASELINE_H

#include <string.h>

#include "gp_status.h"
#include "runtime.h"

static inline gp_status gp_baseline_absent(const char *lib)
{
    const int cuda = strcmp(gp_rt_backend(), "cuda") == 0;
    return gp_fail(GP_ERR_UNSUPPORTED, "%s baseline: not in this build (backend %s: %s)", lib, gp_rt_backend(),
                   cuda ? "not found at configure time, or turned off" : "no vendor library wired in");
}

#endif
