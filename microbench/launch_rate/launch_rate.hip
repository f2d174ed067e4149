/* launch_rate kernels: an empty kernel, so that the time of a launch is the
 * time the hardware takes to create its threads ([Vega-HIP] §2.1). */
#include "gp_device.h"
#include "runtime.h"

/* Empty on purpose; the pointer argument matches a real kernel's launch path. */
__global__ void gp_launch_empty_kernel(int *unused) { (void)unused; }

extern "C" gp_status gp_launch_rate_launch(gp_stream s, unsigned grid, int bx, int by, int bz)
{
    gp_launch_empty_kernel<<<dim3(grid, 1, 1), dim3(bx, by, bz), 0, (hipStream_t)s>>>(NULL);
    return gp_launch_status("launch_rate empty kernel");
}

/* `count` back-to-back launches of a one-thread block. */
extern "C" gp_status gp_launch_rate_burst(gp_stream s, int count)
{
    for (int i = 0; i < count; i++)
        gp_launch_empty_kernel<<<1, 1, 0, (hipStream_t)s>>>(NULL);
    return gp_launch_status("launch_rate burst");
}
