/* PROBE kernels: an empty kernel, launched back to back. */
#include "gp_device.h"
#include "runtime.h"
#include "PROBE.h"

__global__ void gp_PROBE_empty(int *unused) { (void)unused; }

extern "C" gp_status gp_PROBE_launch(gp_stream s, int count)
{
    for (int i = 0; i < count; i++)
        gp_PROBE_empty<<<1, 1, 0, (hipStream_t)s>>>(NULL);
    return gp_launch_status("PROBE empty kernel");
}
