/* transpose kernels: out[c][r] = in[r][c], fp32, any shape.
 *
 * One block moves one square tile of TILE x TILE elements per step (a
 * grid-stride loop over tiles, so any tile count fits any grid limit):
 *   1. each thread loads ITEMS rows of VEC consecutive elements (all loads
 *      issued before the first shared-memory store: ITEMS x VEC x 4 bytes in
 *      flight per thread), coalesced along the input row;
 *   2. stores them into a shared tile whose row pitch is TILE + pad, so the
 *      column read of step 3 walks the banks instead of hitting one (seed
 *      004, "Rectangle Shared Memory Padded"; pad 1 with 32 banks of 4 bytes);
 *   3. after a barrier reads a column of the tile (VEC consecutive input rows
 *      of one input column) and stores it as VEC consecutive elements of an
 *      output row, coalesced along the output row.
 * Interior tiles take a path without bounds checks; only the tiles on the
 * right and bottom edges check every element.
 *
 * Block order: tile t of the linear order goes to tile row / column through
 * `group` (tile rows per group): blocks running at the same time then cover a
 * group x (many) patch of tiles, so both the rows they read and the rows they
 * write are long runs instead of one 4 x TILE-byte piece in each of
 * thousands of rows (DRAM pages, L2 write-back locality).  group = 1 is the
 * plain row-major tile order.  The divisions use precomputed multipliers
 * (gp_transpose_fastdiv, transpose.c): a 64-bit division per tile would cost
 * more instructions than moving the tile. */
#include "gp_device.h"
#include "runtime.h"
#include "transpose.h"

/* n / d for n < 2^31 with the host-made multiplier (see transpose.c). */
static __device__ __forceinline__ unsigned fdiv(unsigned n, gp_transpose_fastdiv d)
{
    return d.div == 1 ? n : __umulhi(n, d.mul) >> d.shift;
}

template <int V> struct gp_tvec;
template <> struct gp_tvec<1> {
    static __device__ __forceinline__ void load(const float *p, float *v) { v[0] = *p; }
    static __device__ __forceinline__ void store(float *p, const float *v) { *p = v[0]; }
};
template <> struct gp_tvec<2> {
    static __device__ __forceinline__ void load(const float *p, float *v)
    {
        float2 t = *(const float2 *)p;
        v[0] = t.x, v[1] = t.y;
    }
    static __device__ __forceinline__ void store(float *p, const float *v)
    {
        float2 t;
        t.x = v[0], t.y = v[1];
        *(float2 *)p = t;
    }
};
template <> struct gp_tvec<4> {
    static __device__ __forceinline__ void load(const float *p, float *v)
    {
        float4 t = *(const float4 *)p;
        v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
    }
    static __device__ __forceinline__ void store(float *p, const float *v)
    {
        float4 t;
        t.x = v[0], t.y = v[1], t.z = v[2], t.w = v[3];
        *(float4 *)p = t;
    }
};

typedef struct gp_transpose_geom {
    long long rows, cols;
    unsigned ntiles, trows, group;
    gp_transpose_fastdiv per_group;   /* group x tile columns */
    gp_transpose_fastdiv group_div;   /* group */
    gp_transpose_fastdiv last_div;    /* tile rows in the last (partial) group */
} gp_transpose_geom;

extern __shared__ float gp_transpose_smem[];

/* Block = (TILE / VEC) x (TILE / ITEMS) threads, known at compile time, so
 * the register budget follows the real block size. */
template <int TILE, int ITEMS, int VEC>
__global__ void __launch_bounds__((TILE / VEC) * (TILE / ITEMS))
gp_transpose_kernel(const float *__restrict__ in, float *__restrict__ out, gp_transpose_geom g, int pitch)
{
    enum { BR = TILE / ITEMS };
    float *tile = gp_transpose_smem;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long rows = g.rows, cols = g.cols;
    for (unsigned t = blockIdx.x; t < g.ntiles; t += gridDim.x) {
        /* Tile coordinates from the grouped order. */
        const unsigned gi = fdiv(t, g.per_group);
        const unsigned idx = t - gi * g.per_group.div;
        const unsigned r0 = gi * g.group;
        const bool last = r0 + g.group > g.trows;
        const gp_transpose_fastdiv gd = last ? g.last_div : g.group_div;
        const unsigned tc = fdiv(idx, gd);
        const unsigned tr = r0 + (idx - tc * gd.div);
        const long long row0 = (long long)tr * TILE, col0 = (long long)tc * TILE;
        const bool full = row0 + TILE <= rows && col0 + TILE <= cols;

        const float *src = in + row0 * cols + col0;
        if (full) {
            float v[ITEMS][VEC];
            const float *p = src + (long long)ty * cols + tx * VEC;
#pragma unroll
            for (int k = 0; k < ITEMS; k++)
                gp_tvec<VEC>::load(p + (long long)(k * BR) * cols, v[k]);
#pragma unroll
            for (int k = 0; k < ITEMS; k++)
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    tile[(ty + k * BR) * pitch + tx * VEC + e] = v[k][e];
        } else {
            const int nr = (int)min((long long)TILE, rows - row0), nc = (int)min((long long)TILE, cols - col0);
#pragma unroll
            for (int k = 0; k < ITEMS; k++) {
                const int r = ty + k * BR;
#pragma unroll
                for (int e = 0; e < VEC; e++) {
                    const int c = tx * VEC + e;
                    if (r < nr && c < nc)
                        tile[r * pitch + c] = src[(long long)r * cols + c];
                }
            }
        }
        __syncthreads();

        float *dst = out + col0 * rows + row0;
        if (full) {
            float *p = dst + (long long)ty * rows + tx * VEC;
#pragma unroll
            for (int k = 0; k < ITEMS; k++) {
                const int c = ty + k * BR;
                float w[VEC];
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    w[e] = tile[(tx * VEC + e) * pitch + c];
                gp_tvec<VEC>::store(p + (long long)(k * BR) * rows, w);
            }
        } else {
            const int nr = (int)min((long long)TILE, rows - row0), nc = (int)min((long long)TILE, cols - col0);
#pragma unroll
            for (int k = 0; k < ITEMS; k++) {
                const int c = ty + k * BR;
#pragma unroll
                for (int e = 0; e < VEC; e++) {
                    const int r = tx * VEC + e;
                    if (r < nr && c < nc)
                        dst[(long long)c * rows + r] = tile[r * pitch + c];
                }
            }
        }
        __syncthreads(); /* the next tile reuses the shared tile */
    }
}

template <int TILE, int ITEMS, int VEC>
static gp_status launch_one(const float *in, float *out, const gp_transpose_geom &g, int pitch, unsigned grid)
{
    dim3 block(TILE / VEC, TILE / ITEMS, 1);
    size_t smem = (size_t)TILE * (size_t)pitch * sizeof(float);
    gp_transpose_kernel<TILE, ITEMS, VEC><<<grid, block, smem>>>(in, out, g, pitch);
    return gp_launch_status("transpose");
}

/* Every (tile, items, vec) the host may pick: threads = tile/vec x tile/items
 * <= 1024, items <= tile, vec > 1 only for tiles of 32 and 64. */
#define GP_T_CASE(T, I, V)                                        \
    if (tile == T && items == I && vec == V)                      \
        return launch_one<T, I, V>(d_in, d_out, g, pitch, grid);

static gp_status dispatch(const float *d_in, float *d_out, const gp_transpose_geom &g, int pitch,
                          unsigned grid, int tile, int items, int vec)
{
    GP_T_CASE(8, 1, 1) GP_T_CASE(8, 2, 1) GP_T_CASE(8, 4, 1) GP_T_CASE(8, 8, 1)
    GP_T_CASE(16, 1, 1) GP_T_CASE(16, 2, 1) GP_T_CASE(16, 4, 1) GP_T_CASE(16, 8, 1) GP_T_CASE(16, 16, 1)
    GP_T_CASE(32, 1, 1) GP_T_CASE(32, 2, 1) GP_T_CASE(32, 4, 1) GP_T_CASE(32, 8, 1) GP_T_CASE(32, 16, 1)
    GP_T_CASE(32, 1, 2) GP_T_CASE(32, 2, 2) GP_T_CASE(32, 4, 2) GP_T_CASE(32, 8, 2) GP_T_CASE(32, 16, 2)
    GP_T_CASE(32, 1, 4) GP_T_CASE(32, 2, 4) GP_T_CASE(32, 4, 4) GP_T_CASE(32, 8, 4) GP_T_CASE(32, 16, 4)
    GP_T_CASE(64, 4, 1) GP_T_CASE(64, 8, 1) GP_T_CASE(64, 16, 1)
    GP_T_CASE(64, 2, 2) GP_T_CASE(64, 4, 2) GP_T_CASE(64, 8, 2) GP_T_CASE(64, 16, 2)
    GP_T_CASE(64, 1, 4) GP_T_CASE(64, 2, 4) GP_T_CASE(64, 4, 4) GP_T_CASE(64, 8, 4) GP_T_CASE(64, 16, 4)
    return gp_fail(GP_ERR_USAGE, "transpose: no kernel compiled for tile %d, items %d, vec %d", tile, items, vec);
}
#undef GP_T_CASE

extern "C" gp_status gp_transpose_launch(const float *d_in, float *d_out, size_t rows, size_t cols, int tile,
                                         int pad, int items, int vec, int group)
{
    if (rows == 0 || cols == 0)
        return gp_ok();
    const size_t trows = (rows + (size_t)tile - 1) / (size_t)tile, tcols = (cols + (size_t)tile - 1) / (size_t)tile;
    if (trows > 0x7fffffffu / tcols)
        return gp_fail(GP_ERR_USAGE, "transpose: %zu x %zu tiles exceed 2^31", trows, tcols);
    if (group < 1 || (size_t)group > trows)
        group = (int)(group < 1 ? 1 : trows);
    gp_transpose_geom g;
    g.rows = (long long)rows, g.cols = (long long)cols;
    g.ntiles = (unsigned)(trows * tcols), g.trows = (unsigned)trows, g.group = (unsigned)group;
    g.per_group = gp_transpose_fastdiv_make((unsigned)group * (unsigned)tcols);
    g.group_div = gp_transpose_fastdiv_make((unsigned)group);
    unsigned rem = (unsigned)(trows % (size_t)group);
    g.last_div = gp_transpose_fastdiv_make(rem ? rem : (unsigned)group);
    /* One tile per block; the loop covers grids the runtime cannot launch
     * (AMD: at most 2^32 threads per launch). */
    const unsigned threads = (unsigned)(tile / vec) * (unsigned)(tile / items);
    unsigned cap = 0x7fffffffu / threads;
    if (cap > 65535u * 256u)
        cap = 65535u * 256u;
    unsigned grid = g.ntiles < cap ? g.ntiles : cap;
    return dispatch(d_in, d_out, g, tile + pad, grid, tile, items, vec);
}

/* Copy kernel for context: U 16-byte loads in flight per thread, then U
 * stores; a grid-stride loop over tiles of U x blockDim vectors. */
#define GP_COPY_U 4
__global__ void __launch_bounds__(1024)
gp_transpose_copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t nv,
                         const float *__restrict__ ins, float *__restrict__ outs, size_t n)
{
    const size_t tile = (size_t)blockDim.x * GP_COPY_U;
    const size_t stride = (size_t)gridDim.x * tile;
    for (size_t base = (size_t)blockIdx.x * tile; base < nv; base += stride) {
        const size_t i = base + threadIdx.x;
        if (base + tile <= nv) {
            float4 v[GP_COPY_U];
#pragma unroll
            for (int u = 0; u < GP_COPY_U; u++)
                v[u] = in[i + (size_t)u * blockDim.x];
#pragma unroll
            for (int u = 0; u < GP_COPY_U; u++)
                out[i + (size_t)u * blockDim.x] = v[u];
        } else {
#pragma unroll
            for (int u = 0; u < GP_COPY_U; u++)
                if (i + (size_t)u * blockDim.x < nv)
                    out[i + (size_t)u * blockDim.x] = in[i + (size_t)u * blockDim.x];
        }
    }
    /* The last n % 4 elements. */
    if (blockIdx.x == 0 && threadIdx.x < n - nv * 4)
        outs[nv * 4 + threadIdx.x] = ins[nv * 4 + threadIdx.x];
}

extern "C" gp_status gp_transpose_copy_launch(const float *d_in, float *d_out, size_t n, int grid, int block)
{
    if (n == 0)
        return gp_ok();
    gp_transpose_copy_kernel<<<grid, block>>>((const float4 *)d_in, (float4 *)d_out, n / 4, d_in, d_out, n);
    return gp_launch_status("transpose copy");
}
