/* memory_bandwidth kernels: STREAM-like read, write, copy and triad over
 * float, float2 and float4 (4, 8, 16 bytes per thread access), grid-stride
 * loops, and `passes` sweeps over the data inside one launch so that a
 * cache-resident footprint still runs long enough to time (seed 003 section
 * 2.8/2.10, BabelStream). */
#include "gp_device.h"
#include "runtime.h"
#include "memory_bandwidth.h"

/* Element-wise helpers for the three access widths. */
static __device__ __forceinline__ void vsplat(float v, float *o) { *o = v; }
static __device__ __forceinline__ void vsplat(float v, float2 *o) { o->x = v, o->y = v; }
static __device__ __forceinline__ void vsplat(float v, float4 *o) { o->x = v, o->y = v, o->z = v, o->w = v; }

static __device__ __forceinline__ float vadd(float a, float b) { return a + b; }
static __device__ __forceinline__ float2 vadd(float2 a, float2 b)
{
    float2 r;
    r.x = a.x + b.x, r.y = a.y + b.y;
    return r;
}
static __device__ __forceinline__ float4 vadd(float4 a, float4 b)
{
    float4 r;
    r.x = a.x + b.x, r.y = a.y + b.y, r.z = a.z + b.z, r.w = a.w + b.w;
    return r;
}

static __device__ __forceinline__ float vtriad(float b, float c, float s) { return b + s * c; }
static __device__ __forceinline__ float2 vtriad(float2 b, float2 c, float s)
{
    float2 r;
    r.x = b.x + s * c.x, r.y = b.y + s * c.y;
    return r;
}
static __device__ __forceinline__ float4 vtriad(float4 b, float4 c, float s)
{
    float4 r;
    r.x = b.x + s * c.x, r.y = b.y + s * c.y, r.z = b.z + s * c.z, r.w = b.w + s * c.w;
    return r;
}

static __device__ __forceinline__ float vsum(float a) { return a; }
static __device__ __forceinline__ float vsum(float2 a) { return a.x + a.y; }
static __device__ __forceinline__ float vsum(float4 a) { return (a.x + a.y) + (a.z + a.w); }

/* Between passes: the compiler may neither merge passes (drop the stores of
 * all but the last write pass) nor keep loaded values across them. */
#define GP_PASS_BARRIER() asm volatile("" ::: "memory")

/* rot = 0: a thread reads the same elements every pass (a CU's share stays in
 * its L1).  rot != 0: block b reads the chunk of block (b + pass x rot) mod
 * grid, so a CU meets other CUs' data every pass and L1 cannot hold it: the
 * L2 level shows.  The sum is stored only when it equals `magic`, a run-time
 * value it never takes, so the loads cannot be deleted. */
template <typename T>
__global__ void gp_membw_read(const T *__restrict__ a, size_t n, int passes, unsigned rot, float magic,
                              float *out)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    T acc;
    vsplat(0.0f, &acc);
    for (int p = 0; p < passes; p++) {
        unsigned vb = (unsigned)(((unsigned long long)blockIdx.x + (unsigned long long)p * rot) % gridDim.x);
        for (size_t i = (size_t)vb * blockDim.x + threadIdx.x; i < n; i += stride)
            acc = vadd(acc, a[i]);
        GP_PASS_BARRIER();
    }
    float s = vsum(acc);
    if (s == magic)
        out[0] = s;
}

/* The stored value changes with the pass, so no pass is redundant. */
template <typename T>
__global__ void gp_membw_write(T *__restrict__ a, size_t n, int passes, float s)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        T v;
        vsplat(s + (float)p, &v);
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            a[i] = v;
        GP_PASS_BARRIER();
    }
}

template <typename T>
__global__ void gp_membw_copy(const T *__restrict__ a, T *__restrict__ b, size_t n, int passes)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            b[i] = a[i];
        GP_PASS_BARRIER();
    }
}

template <typename T>
__global__ void gp_membw_triad(T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c,
                               size_t n, int passes, float s)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            a[i] = vtriad(b[i], c[i], s);
        GP_PASS_BARRIER();
    }
}

template <typename T>
static void launch_typed(hipStream_t st, int kernel, unsigned grid, int block, void *a, void *b, void *c,
                         size_t n, int passes, float scalar, float magic, float *out)
{
    switch (kernel) {
    case GP_MEMBW_READ:
    case GP_MEMBW_READ_L2: {
        /* An odd rotation near half the grid moves every block's data to a
         * block far away in launch order, hence on another CU. */
        unsigned rot = kernel == GP_MEMBW_READ_L2 ? (grid > 1 ? (grid / 2) | 1u : 0u) : 0u;
        gp_membw_read<T><<<grid, block, 0, st>>>((const T *)a, n, passes, rot, magic, out);
        break;
    }
    case GP_MEMBW_WRITE:
        gp_membw_write<T><<<grid, block, 0, st>>>((T *)a, n, passes, scalar);
        break;
    case GP_MEMBW_COPY:
        gp_membw_copy<T><<<grid, block, 0, st>>>((const T *)a, (T *)b, n, passes);
        break;
    default:
        gp_membw_triad<T><<<grid, block, 0, st>>>((T *)a, (const T *)b, (const T *)c, n, passes, scalar);
        break;
    }
}

extern "C" gp_status gp_membw_launch(gp_stream s, int kernel, int vec_bytes, unsigned grid, int block,
                                     void *a, void *b, void *c, size_t n, int passes, float scalar,
                                     float magic, float *out)
{
    if (kernel < 0 || kernel >= GP_MEMBW_KERNELS || grid == 0 || block <= 0 || passes <= 0)
        return gp_fail(GP_ERR_USAGE, "memory_bandwidth: bad launch (kernel %d, grid %u, block %d, passes %d)",
                       kernel, grid, block, passes);
    hipStream_t st = (hipStream_t)s;
    switch (vec_bytes) {
    case 4: launch_typed<float>(st, kernel, grid, block, a, b, c, n, passes, scalar, magic, out); break;
    case 8: launch_typed<float2>(st, kernel, grid, block, a, b, c, n, passes, scalar, magic, out); break;
    case 16: launch_typed<float4>(st, kernel, grid, block, a, b, c, n, passes, scalar, magic, out); break;
    default: return gp_fail(GP_ERR_USAGE, "memory_bandwidth: vector width %d bytes not 4, 8 or 16", vec_bytes);
    }
    return gp_launch_status("memory_bandwidth kernel");
}
