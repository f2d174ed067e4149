/* memory_bandwidth kernels: STREAM-like read, write, copy and triad over
 * float, float2 and float4 (4, 8, 16 bytes per thread access), grid-stride
 * loops, and `passes` sweeps over the data inside one launch so that a
 * cache-resident footprint still runs long enough to time ([Vega-HIP] section
 * 2.8/2.10, BabelStream).
 *
 * Two knobs of the tuned STREAM codes on Hopper/CDNA, for float4 only:
 * - U (unroll, compile time): a block owns a tile of U x blockDim elements per
 *   grid-stride step and each thread issues all U loads (per stream) before
 *   any add/FMA or store: U x 16 bytes in flight per thread and stream
 *   without needing more resident threads, and each block's step touches one
 *   contiguous U x blockDim x 16-byte run (fewer DRAM row switches).
 * - NT (streaming hints): loads and stores marked evict-first/non-temporal,
 *   so the written stream of copy/triad does not push the read streams out of
 *   L2 and dirty lines leave early in long runs instead of in bursts. */
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

/* Streaming (evict-first / non-temporal) accesses: gp_ld_last_use and
 * gp_st_write_once (gp_device.h). */
template <bool NT, typename T>
static __device__ __forceinline__ T vld(const T *p)
{
    if (NT)
        return gp_ld_last_use(p);
    return *p;
}
template <bool NT, typename T>
static __device__ __forceinline__ void vst(T *p, T v)
{
    if (NT)
        gp_st_write_once(p, v);
    else
        *p = v;
}

/* Between passes: the compiler may neither merge passes (drop the stores of
 * all but the last write pass) nor keep loaded values across them. */
#define GP_PASS_BARRIER() asm volatile("" ::: "memory")

/* Addressing shared by all kernels: a grid-stride loop over tiles of
 * U x blockDim elements; block b starts at tile b; thread t of the block
 * handles elements tile + t + u x blockDim, u < U (coalesced for each u).
 * With U = 1 this is the plain grid-stride loop.  Only the last tile of the
 * array can be partial; its elements are guarded one by one. */

/* rot = 0: a thread reads the same elements every pass (a CU's share stays in
 * its L1).  rot != 0: block b reads the tile of block (b + pass x rot) mod
 * grid, so a CU meets other CUs' data every pass and L1 cannot hold it: the
 * L2 level shows.  U independent sums keep the U loads independent; the sum
 * is stored only when it equals `magic`, a run-time value it never takes, so
 * the loads cannot be deleted. */
template <typename T, int U, bool NT>
__global__ void gp_membw_read(const T *__restrict__ a, size_t n, int passes, unsigned rot, float magic,
                              float *out)
{
    const size_t tile = (size_t)blockDim.x * U;
    const size_t stride = (size_t)gridDim.x * tile;
    T acc[U];
#pragma unroll
    for (int u = 0; u < U; u++)
        vsplat(0.0f, &acc[u]);
    for (int p = 0; p < passes; p++) {
        unsigned vb = (unsigned)(((unsigned long long)blockIdx.x + (unsigned long long)p * rot) % gridDim.x);
        for (size_t base = (size_t)vb * tile; base < n; base += stride) {
            const size_t i = base + threadIdx.x;
            if (base + tile <= n) {
                T v[U];
#pragma unroll
                for (int u = 0; u < U; u++)
                    v[u] = vld<NT>(a + i + (size_t)u * blockDim.x);
#pragma unroll
                for (int u = 0; u < U; u++)
                    acc[u] = vadd(acc[u], v[u]);
            } else {
#pragma unroll
                for (int u = 0; u < U; u++)
                    if (i + (size_t)u * blockDim.x < n)
                        acc[u] = vadd(acc[u], vld<NT>(a + i + (size_t)u * blockDim.x));
            }
        }
        GP_PASS_BARRIER();
    }
    float s = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++)
        s += vsum(acc[u]);
    if (s == magic)
        out[0] = s;
}

/* The stored value changes with the pass, so no pass is redundant. */
template <typename T, int U, bool NT>
__global__ void gp_membw_write(T *__restrict__ a, size_t n, int passes, float s)
{
    const size_t tile = (size_t)blockDim.x * U;
    const size_t stride = (size_t)gridDim.x * tile;
    for (int p = 0; p < passes; p++) {
        T v;
        vsplat(s + (float)p, &v);
        for (size_t base = (size_t)blockIdx.x * tile; base < n; base += stride) {
            const size_t i = base + threadIdx.x;
            if (base + tile <= n) {
#pragma unroll
                for (int u = 0; u < U; u++)
                    vst<NT>(a + i + (size_t)u * blockDim.x, v);
            } else {
#pragma unroll
                for (int u = 0; u < U; u++)
                    if (i + (size_t)u * blockDim.x < n)
                        vst<NT>(a + i + (size_t)u * blockDim.x, v);
            }
        }
        GP_PASS_BARRIER();
    }
}

template <typename T, int U, bool NT>
__global__ void gp_membw_copy(const T *__restrict__ a, T *__restrict__ b, size_t n, int passes)
{
    const size_t tile = (size_t)blockDim.x * U;
    const size_t stride = (size_t)gridDim.x * tile;
    for (int p = 0; p < passes; p++) {
        for (size_t base = (size_t)blockIdx.x * tile; base < n; base += stride) {
            const size_t i = base + threadIdx.x;
            if (base + tile <= n) {
                T v[U];
#pragma unroll
                for (int u = 0; u < U; u++)
                    v[u] = vld<NT>(a + i + (size_t)u * blockDim.x);
#pragma unroll
                for (int u = 0; u < U; u++)
                    vst<NT>(b + i + (size_t)u * blockDim.x, v[u]);
            } else {
#pragma unroll
                for (int u = 0; u < U; u++)
                    if (i + (size_t)u * blockDim.x < n)
                        vst<NT>(b + i + (size_t)u * blockDim.x, vld<NT>(a + i + (size_t)u * blockDim.x));
            }
        }
        GP_PASS_BARRIER();
    }
}

template <typename T, int U, bool NT>
__global__ void gp_membw_triad(T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c,
                               size_t n, int passes, float s)
{
    const size_t tile = (size_t)blockDim.x * U;
    const size_t stride = (size_t)gridDim.x * tile;
    for (int p = 0; p < passes; p++) {
        for (size_t base = (size_t)blockIdx.x * tile; base < n; base += stride) {
            const size_t i = base + threadIdx.x;
            if (base + tile <= n) {
                T vb[U], vc[U];
#pragma unroll
                for (int u = 0; u < U; u++) {
                    vb[u] = vld<NT>(b + i + (size_t)u * blockDim.x);
                    vc[u] = vld<NT>(c + i + (size_t)u * blockDim.x);
                }
#pragma unroll
                for (int u = 0; u < U; u++)
                    vst<NT>(a + i + (size_t)u * blockDim.x, vtriad(vb[u], vc[u], s));
            } else {
#pragma unroll
                for (int u = 0; u < U; u++) {
                    const size_t j = i + (size_t)u * blockDim.x;
                    if (j < n)
                        vst<NT>(a + j, vtriad(vld<NT>(b + j), vld<NT>(c + j), s));
                }
            }
        }
        GP_PASS_BARRIER();
    }
}

/* Launch one kernel, or (occ != NULL) only ask how many `block`-thread blocks
 * of it fit on one CU, so the persistent grid is exactly that many per CU. */
template <typename T, int U, bool NT>
static gp_status launch_typed(hipStream_t st, int kernel, unsigned grid, int block, void *a, void *b, void *c,
                              size_t n, int passes, float scalar, float magic, float *out, int *occ)
{
    if (occ) {
        hipError_t e;
        *occ = 0;
        switch (kernel) {
        case GP_MEMBW_READ:
        case GP_MEMBW_READ_L2:
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(occ, gp_membw_read<T, U, NT>, block, 0);
            break;
        case GP_MEMBW_WRITE:
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(occ, gp_membw_write<T, U, NT>, block, 0);
            break;
        case GP_MEMBW_COPY:
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(occ, gp_membw_copy<T, U, NT>, block, 0);
            break;
        default:
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(occ, gp_membw_triad<T, U, NT>, block, 0);
            break;
        }
        return gp_hip_status(e, "memory_bandwidth occupancy query");
    }
    switch (kernel) {
    case GP_MEMBW_READ:
    case GP_MEMBW_READ_L2: {
        /* An odd rotation near half the grid moves every block's data to a
         * block far away in launch order, hence on another CU. */
        unsigned rot = kernel == GP_MEMBW_READ_L2 ? (grid > 1 ? (grid / 2) | 1u : 0u) : 0u;
        gp_membw_read<T, U, NT><<<grid, block, 0, st>>>((const T *)a, n, passes, rot, magic, out);
        break;
    }
    case GP_MEMBW_WRITE:
        gp_membw_write<T, U, NT><<<grid, block, 0, st>>>((T *)a, n, passes, scalar);
        break;
    case GP_MEMBW_COPY:
        gp_membw_copy<T, U, NT><<<grid, block, 0, st>>>((const T *)a, (T *)b, n, passes);
        break;
    default:
        gp_membw_triad<T, U, NT><<<grid, block, 0, st>>>((T *)a, (const T *)b, (const T *)c, n, passes, scalar);
        break;
    }
    return gp_launch_status("memory_bandwidth kernel");
}

/* The compiled variants: 4- and 8-byte accesses plain only; 16-byte accesses
 * with unroll 1, 2, 4 and hints off/on (32 kernels, not 72). */
static gp_status dispatch(hipStream_t st, int kernel, int vec_bytes, int unroll, int hint, unsigned grid,
                          int block, void *a, void *b, void *c, size_t n, int passes, float scalar,
                          float magic, float *out, int *occ)
{
    if (kernel < 0 || kernel >= GP_MEMBW_KERNELS || block <= 0 || (!occ && (grid == 0 || passes <= 0)))
        return gp_fail(GP_ERR_USAGE, "memory_bandwidth: bad launch (kernel %d, grid %u, block %d, passes %d)",
                       kernel, grid, block, passes);
    if (vec_bytes != 16 && (unroll != 1 || hint))
        return gp_fail(GP_ERR_USAGE, "memory_bandwidth: unroll %d / hint %d compiled for 16-byte accesses only",
                       unroll, hint);
#define GP_MEMBW_ARGS st, kernel, grid, block, a, b, c, n, passes, scalar, magic, out, occ
    switch (vec_bytes) {
    case 4: return launch_typed<float, 1, false>(GP_MEMBW_ARGS);
    case 8: return launch_typed<float2, 1, false>(GP_MEMBW_ARGS);
    case 16:
        switch (unroll * 2 + (hint ? 1 : 0)) {
        case 2: return launch_typed<float4, 1, false>(GP_MEMBW_ARGS);
        case 3: return launch_typed<float4, 1, true>(GP_MEMBW_ARGS);
        case 4: return launch_typed<float4, 2, false>(GP_MEMBW_ARGS);
        case 5: return launch_typed<float4, 2, true>(GP_MEMBW_ARGS);
        case 8: return launch_typed<float4, 4, false>(GP_MEMBW_ARGS);
        case 9: return launch_typed<float4, 4, true>(GP_MEMBW_ARGS);
        default: break;
        }
        return gp_fail(GP_ERR_USAGE, "memory_bandwidth: unroll %d not 1, 2 or 4", unroll);
    default: break;
    }
#undef GP_MEMBW_ARGS
    return gp_fail(GP_ERR_USAGE, "memory_bandwidth: vector width %d bytes not 4, 8 or 16", vec_bytes);
}

extern "C" gp_status gp_membw_launch(gp_stream s, int kernel, int vec_bytes, int unroll, int hint, unsigned grid,
                                     int block, void *a, void *b, void *c, size_t n, int passes, float scalar,
                                     float magic, float *out)
{
    return dispatch((hipStream_t)s, kernel, vec_bytes, unroll, hint, grid, block, a, b, c, n, passes, scalar,
                    magic, out, NULL);
}

extern "C" gp_status gp_membw_blocks_per_cu(int kernel, int vec_bytes, int unroll, int hint, int block,
                                            int *blocks)
{
    *blocks = 0;
    return dispatch((hipStream_t)0, kernel, vec_bytes, unroll, hint, 1, block, NULL, NULL, NULL, 0, 1, 0.0f, 0.0f,
                    NULL, blocks);
}
