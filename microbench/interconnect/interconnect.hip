/* interconnect kernels: a copy with 16-byte accesses (P2P loads or stores
 * through peer access) and a one-thread pointer chase (load latency over a
 * link). */
#include "gp_device.h"
#include "runtime.h"
#include "interconnect.h"

__global__ void GP_LAUNCH_BOUNDS(GP_IC_COPY_BLOCK) gp_ic_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
                                                           size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = src[i];
}

__global__ void gp_ic_chase(const unsigned *next, int steps, unsigned *out)
{
    unsigned j = 0;
    for (int s = 0; s < steps; s++)
        j = next[j];
    out[0] = j;
}

extern "C" gp_status gp_ic_copy_launch(gp_stream s, const void *src, void *dst, size_t bytes, int blocks)
{
    if (bytes % 16 || blocks < 1)
        return gp_fail(GP_ERR_USAGE, "interconnect copy: %zu bytes is not a multiple of 16 or %d blocks", bytes,
                       blocks);
    gp_ic_copy<<<blocks, GP_IC_COPY_BLOCK, 0, (hipStream_t)s>>>((const uint4 *)src, (uint4 *)dst, bytes / 16);
    return gp_launch_status("interconnect copy kernel");
}

extern "C" gp_status gp_ic_chase_launch(gp_stream s, const unsigned *next, int steps, unsigned *out)
{
    gp_ic_chase<<<1, 1, 0, (hipStream_t)s>>>(next, steps, out);
    return gp_launch_status("interconnect chase kernel");
}
