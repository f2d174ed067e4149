/* _template's GPU code: y = a x + y, each thread ITEMS 16-byte vectors of x
 * and of y in flight before it stores (Little's law: the rule sizes ITEMS
 * from the DRAM bandwidth x latency a CU must cover), a grid-stride loop
 * over a grid the device holds at once. */
#include "_template.h"
#include "gp_device.h"

template <int ITEMS>
__global__ void GP_LAUNCH_BOUNDS(1024)
gp__template_kernel(float a, const float4 *__restrict__ x, float4 *__restrict__ y, size_t nv)
{
    const size_t step = (size_t)gridDim.x * blockDim.x * ITEMS;
    for (size_t base = (size_t)blockIdx.x * blockDim.x * ITEMS + threadIdx.x; base < nv; base += step) {
        float4 vx[ITEMS], vy[ITEMS];
#pragma unroll
        for (int u = 0; u < ITEMS; u++) {
            const size_t i = base + (size_t)u * blockDim.x;
            if (i < nv)
                vx[u] = x[i], vy[u] = y[i];
        }
#pragma unroll
        for (int u = 0; u < ITEMS; u++) {
            const size_t i = base + (size_t)u * blockDim.x;
            if (i < nv)
                y[i] = make_float4(a * vx[u].x + vy[u].x, a * vx[u].y + vy[u].y, a * vx[u].z + vy[u].z,
                                   a * vx[u].w + vy[u].w);
        }
    }
}

/* The last n % 4 values. */
__global__ void gp__template_tail(float a, const float *__restrict__ x, float *__restrict__ y, size_t from, size_t n)
{
    const size_t i = from + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" gp_status gp__template_launch(float a, const float *d_x, float *d_y, size_t n, int grid, int block,
                                          int items, gp_stream s)
{
    const size_t nv = n / 4;
    hipStream_t st = (hipStream_t)s;
    if (nv > 0) {
        switch (items) {
        case 1: gp__template_kernel<1><<<grid, block, 0, st>>>(a, (const float4 *)d_x, (float4 *)d_y, nv); break;
        case 2: gp__template_kernel<2><<<grid, block, 0, st>>>(a, (const float4 *)d_x, (float4 *)d_y, nv); break;
        case 4: gp__template_kernel<4><<<grid, block, 0, st>>>(a, (const float4 *)d_x, (float4 *)d_y, nv); break;
        default: return gp_fail(GP_ERR_USAGE, "_template: no kernel compiled for %d items per thread", items);
        }
    }
    if (n % 4)
        gp__template_tail<<<1, 4, 0, st>>>(a, d_x, d_y, nv * 4, n);
    return gp_launch_status("_template");
}
