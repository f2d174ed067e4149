/* transpose kernels: out[c][r] = in[r][c], fp32, any shape.
 *
 * One block moves TILE x TILE tiles (one per block by default; a grid-stride
 * loop over tiles covers grids the runtime cannot launch and the
 * tiles_per_block option), per tile:
 *   1. each thread loads ITEMS rows of VEC consecutive elements (all loads
 *      issued before the first shared-memory store: ITEMS x VEC x 4 bytes in
 *      flight per thread), coalesced along the input row;
 *   2. stores them into a shared tile.  Layout SWZ = 0: row pitch TILE + pad,
 *      so the column read of step 3 walks the banks instead of hitting one
 *      ([PMPP-cases], "Rectangle Shared Memory Padded"; pad 1 with 32 banks of 4
 *      bytes).  SWZ = 1 (VEC > 1): no pad; row r keeps its VEC-element chunks
 *      at chunk ^ ((r / VEC) mod (32 / VEC)), so both the row-wise vector
 *      stores and the column-wise vector loads of step 3 are conflict-free and
 *      every shared access is VEC x 4 bytes wide;
 *   3. after a barrier each thread writes output rows coalesced: SWZ = 0 reads
 *      VEC rows of one tile column and stores them as VEC consecutive output
 *      elements; SWZ = 1 reads a VEC x VEC sub-block as VEC vector loads,
 *      transposes it in registers and stores VEC output vectors.
 * Interior tiles take a path without bounds checks; only the tiles on the
 * right and bottom edges check every element (scalar accesses there, all of
 * a chunk's loads issued before its shared stores, as inside).
 *
 * STREAM bits (tiles >= 32): 1 = streaming loads, 2 = streaming stores
 * (NVIDIA ld/st.global.cs, evict-first; AMD non-temporal).
 *
 * tiles_per_block > 1: grid = tiles / tiles_per_block, a block moves tiles
 * t, t + grid, ... (persistent-style; 1 = one tile per block, every block
 * resident only as long as its tile takes).
 *
 * Block order: tile t of the linear order goes to tile row / column through
 * `group` (tile rows per group): blocks running at the same time then cover a
 * group x (many) patch of tiles, so both the rows they read and the rows they
 * write are long runs instead of one 4 x TILE-byte piece in each of
 * thousands of rows (DRAM pages, L2 write-back locality).  group = 1 is the
 * plain row-major tile order.  The divisions use precomputed multipliers
 * (gp_transpose_fastdiv, transpose.h): a 64-bit division per tile would cost
 * more instructions than moving the tile. */
#include "gp_device.h"
#include "runtime.h"
#include "transpose.h"

/* n / d for n < 2^31 with the host-made multiplier (see transpose.h). */
static __device__ __forceinline__ unsigned fdiv(unsigned n, gp_transpose_fastdiv d)
{
    return d.div == 1 ? n : __umulhi(n, d.mul) >> d.shift;
}

/* Global accesses, plain or streaming (gp_ld_last_use, gp_st_write_once: gp_device.h). */
template <int S, typename T> static __device__ __forceinline__ T gld(const T *p)
{
    if (S & GP_TRANSPOSE_STREAM_LOADS)
        return gp_ld_last_use(p);
    return *p;
}
template <int S, typename T> static __device__ __forceinline__ void gst(T *p, T v)
{
    if (S & GP_TRANSPOSE_STREAM_STORES)
        gp_st_write_once(p, v);
    else
        *p = v;
}

/* VEC consecutive floats as one access (global or shared). */
template <int V> struct gp_tvec;
template <> struct gp_tvec<1> {
    template <int S> static __device__ __forceinline__ void load(const float *p, float *v) { v[0] = gld<S>(p); }
    template <int S> static __device__ __forceinline__ void store(float *p, const float *v) { gst<S>(p, v[0]); }
};
template <> struct gp_tvec<2> {
    template <int S> static __device__ __forceinline__ void load(const float *p, float *v)
    {
        float2 t = gld<S>((const float2 *)p);
        v[0] = t.x, v[1] = t.y;
    }
    template <int S> static __device__ __forceinline__ void store(float *p, const float *v)
    {
        gst<S>((float2 *)p, make_float2(v[0], v[1]));
    }
};
template <> struct gp_tvec<4> {
    template <int S> static __device__ __forceinline__ void load(const float *p, float *v)
    {
        float4 t = gld<S>((const float4 *)p);
        v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
    }
    template <int S> static __device__ __forceinline__ void store(float *p, const float *v)
    {
        gst<S>((float4 *)p, make_float4(v[0], v[1], v[2], v[3]));
    }
};

typedef struct gp_transpose_geom {
    long long rows, cols;
    unsigned ntiles, trows, group;
    gp_transpose_fastdiv per_group;   /* group x tile columns */
    gp_transpose_fastdiv group_div;   /* group */
    gp_transpose_fastdiv last_div;    /* tile rows in the last (partial) group */
} gp_transpose_geom;

/* Tile t of the grouped order -> first element row and column. */
static __device__ __forceinline__ void tile_origin(unsigned t, const gp_transpose_geom &g, int tile,
                                                   long long *row0, long long *col0)
{
    const unsigned gi = fdiv(t, g.per_group);
    const unsigned idx = t - gi * g.per_group.div;
    const unsigned r0 = gi * g.group;
    const bool last = r0 + g.group > g.trows;
    const gp_transpose_fastdiv gd = last ? g.last_div : g.group_div;
    const unsigned tc = fdiv(idx, gd);
    const unsigned tr = r0 + (idx - tc * gd.div);
    *row0 = (long long)tr * tile;
    *col0 = (long long)tc * tile;
}

/* Word offset of tile element (r, c) in shared memory. */
template <int TILE, int VEC, int SWZ>
static __device__ __forceinline__ int smem_at(int r, int c, int pitch)
{
    if (SWZ)
        return GP_TRANSPOSE_SWZ_AT(r, c, TILE, VEC);
    return r * pitch + c;
}

extern __shared__ float gp_transpose_smem[];

/* Block = (TILE / VEC) x (TILE / ITEMS) threads, known at compile time, so
 * the register budget follows the real block size.  On NVIDIA also a minimum
 * of resident blocks, so the compiler does not trade occupancy for registers
 * it does not need: with E = ITEMS x VEC elements per thread (+ VEC x VEC / 2
 * for the swizzled layout's register transpose), threads per SM 2048 (<= 32
 * registers) for E <= 8, 1536 (<= 40) for E <= 24, 1024 (<= 64) for E <= 40,
 * else 512; blocks counted in whole warps, at most 32 (the SM's limit). */
#define GP_T_THREADS(TILE, ITEMS, VEC) (((TILE) / (VEC)) * ((TILE) / (ITEMS)))
#define GP_T_E(ITEMS, VEC, SWZ) ((ITEMS) * (VEC) + ((SWZ) ? (VEC) * (VEC) / 2 : 0))
#define GP_T_SM_THREADS(E) ((E) <= 8 ? 2048 : (E) <= 24 ? 1536 : (E) <= 40 ? 1024 : 512)
#define GP_T_MINB_RAW(TILE, ITEMS, VEC, SWZ) \
    (GP_T_SM_THREADS(GP_T_E(ITEMS, VEC, SWZ)) / ((GP_T_THREADS(TILE, ITEMS, VEC) + 31) / 32 * 32))
#define GP_T_MINB(TILE, ITEMS, VEC, SWZ)                                                         \
    (GP_T_MINB_RAW(TILE, ITEMS, VEC, SWZ) > 32  ? 32                                            \
     : GP_T_MINB_RAW(TILE, ITEMS, VEC, SWZ) < 1 ? 1                                             \
                                                : GP_T_MINB_RAW(TILE, ITEMS, VEC, SWZ))
#if defined(GP_VENDOR_NVIDIA)
#define GP_T_BOUNDS(TILE, ITEMS, VEC, SWZ) \
    __launch_bounds__(GP_T_THREADS(TILE, ITEMS, VEC), GP_T_MINB(TILE, ITEMS, VEC, SWZ))
#else
#define GP_T_BOUNDS(TILE, ITEMS, VEC, SWZ) __launch_bounds__(GP_T_THREADS(TILE, ITEMS, VEC))
#endif

/* Items a thread stages in registers at once (GP_T_CHUNK), and the pragma of
 * the loop over chunks.  clang 15 (Debian's ROCm 5.2) gives a gfx11 kernel at
 * most 128 VGPRs whatever its block size, launch bounds, amdgpu_waves_per_eu
 * or amdgpu_num_vgpr (the same IR compiled for gfx1030 or gfx1010 gets up to
 * 256): read from `.vgpr_count` with -Rpass-analysis=kernel-resource-usage.
 * With 16 items (8 of VEC 4) fully unrolled, the hoisted 64-bit row offsets
 * and staged values need 134-204 VGPRs (gfx900's counts), so gfx11 spilled
 * 32-344 bytes.  There the items go in chunks of at most 16 elements, one
 * chunk live at a time, in a loop kept rolled, and the other loops over
 * rows (GP_T_ROW_UNROLL: write-out, partial tiles) stay rolled too, so no
 * row offsets are hoisted across the tile loop.  Elsewhere one chunk of ITEMS, fully unrolled loops: the
 * code the other targets always had. */
#if GP_VGPR_BUDGET <= 128 /* gfx11 under clang 15 (gp_device.h) */
#define GP_T_CHUNK(ITEMS, VEC) ((ITEMS) * (VEC) > 16 ? 16 / (VEC) : (ITEMS))
#define GP_T_CHUNK_LOOP _Pragma("unroll 1")
#define GP_T_ROW_UNROLL _Pragma("unroll 1")
#else
#define GP_T_CHUNK(ITEMS, VEC) (ITEMS)
#define GP_T_CHUNK_LOOP
#define GP_T_ROW_UNROLL _Pragma("unroll")
#endif

template <int TILE, int ITEMS, int VEC, int SWZ, int S>
__global__ void GP_T_BOUNDS(TILE, ITEMS, VEC, SWZ)
gp_transpose_kernel(const float *__restrict__ in, float *__restrict__ out, gp_transpose_geom g, int pitch)
{
    enum { BR = TILE / ITEMS, NC = TILE / VEC, CH = GP_T_CHUNK(ITEMS, VEC) };
    float *tile = gp_transpose_smem;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long rows = g.rows, cols = g.cols;
    for (unsigned t = blockIdx.x; t < g.ntiles; t += gridDim.x) {
        long long row0, col0;
        tile_origin(t, g, TILE, &row0, &col0);
        const bool full = row0 + TILE <= rows && col0 + TILE <= cols;

        /* Steps 1 and 2: global -> (registers) -> shared. */
        const float *src = in + row0 * cols + col0;
        if (full) {
            const float *p = src + (long long)ty * cols + tx * VEC;
            GP_T_CHUNK_LOOP
            for (int k0 = 0; k0 < ITEMS; k0 += CH) {
                float v[CH][VEC];
#pragma unroll
                for (int k = 0; k < CH; k++)
                    gp_tvec<VEC>::template load<S>(p + (long long)((k0 + k) * BR) * cols, v[k]);
#pragma unroll
                for (int k = 0; k < CH; k++) {
                    const int r = ty + (k0 + k) * BR;
                    if (SWZ) {
                        gp_tvec<VEC>::template store<0>(tile + smem_at<TILE, VEC, SWZ>(r, tx * VEC, pitch), v[k]);
                    } else {
#pragma unroll
                        for (int e = 0; e < VEC; e++)
                            tile[smem_at<TILE, VEC, SWZ>(r, tx * VEC + e, pitch)] = v[k][e];
                    }
                }
            }
        } else {
            /* Edge tiles stage their loads in registers too: a load that fed
             * its shared store in the same branch waited out one latency per
             * item, ITEMS in a row, and on a grid of about one wave the edge
             * blocks are the last to finish.  A chunk is at most 8 rows of
             * the scalar kernels and one row of the vector ones: 8 rows of 4
             * (each load with its own 64-bit address and predicate) spilled
             * the vec-4 kernels at their 40-register bound on sm_90.  The
             * out-of-range cells get 0 in the tile (never written out). */
            enum { EC = VEC > 1 ? 1 : CH > 8 ? 8 : CH };
            const int nr = (int)min((long long)TILE, rows - row0), nc = (int)min((long long)TILE, cols - col0);
            GP_T_CHUNK_LOOP
            for (int k0 = 0; k0 < ITEMS; k0 += EC) {
                float v[EC][VEC];
#pragma unroll
                for (int k = 0; k < EC; k++) {
                    const int r = ty + (k0 + k) * BR;
#pragma unroll
                    for (int e = 0; e < VEC; e++) {
                        const int c = tx * VEC + e;
                        v[k][e] = r < nr && c < nc ? gld<S>(src + (long long)r * cols + c) : 0.0f;
                    }
                }
#pragma unroll
                for (int k = 0; k < EC; k++) {
#pragma unroll
                    for (int e = 0; e < VEC; e++)
                        tile[smem_at<TILE, VEC, SWZ>(ty + (k0 + k) * BR, tx * VEC + e, pitch)] = v[k][e];
                }
            }
        }
        __syncthreads();

        /* Step 3: shared -> output rows. */
        float *dst = out + col0 * rows + row0;
        if (full && SWZ) {
            /* VEC x VEC sub-blocks: input rows tx*VEC.., columns cb*VEC.. (NC
             * and BR are powers of two: with BR > NC the rows ty >= NC idle). */
            GP_T_ROW_UNROLL
            for (int k = 0; k < (NC + BR - 1) / BR; k++) {
                const int cb = ty + k * BR;
                if (BR > NC && cb >= NC)
                    break;
                float a[VEC][VEC];
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    gp_tvec<VEC>::template load<0>(tile + smem_at<TILE, VEC, SWZ>(tx * VEC + j, cb * VEC, pitch),
                                                   a[j]);
#pragma unroll
                for (int e = 0; e < VEC; e++) {
                    float w[VEC];
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        w[j] = a[j][e];
                    gp_tvec<VEC>::template store<S>(dst + (long long)(cb * VEC + e) * rows + tx * VEC, w);
                }
            }
        } else if (full) {
            float *p = dst + (long long)ty * rows + tx * VEC;
            GP_T_ROW_UNROLL
            for (int k = 0; k < ITEMS; k++) {
                const int c = ty + k * BR;
                float w[VEC];
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    w[e] = tile[smem_at<TILE, VEC, SWZ>(tx * VEC + e, c, pitch)];
                gp_tvec<VEC>::template store<S>(p + (long long)(k * BR) * rows, w);
            }
        } else {
            const int nr = (int)min((long long)TILE, rows - row0), nc = (int)min((long long)TILE, cols - col0);
            GP_T_ROW_UNROLL
            for (int k = 0; k < ITEMS; k++) {
                const int c = ty + k * BR;
#pragma unroll
                for (int e = 0; e < VEC; e++) {
                    const int r = tx * VEC + e;
                    if (r < nr && c < nc)
                        gst<S>(dst + (long long)c * rows + r, tile[smem_at<TILE, VEC, SWZ>(r, c, pitch)]);
                }
            }
        }
        __syncthreads(); /* the next tile reuses the shared tile */
    }
}

template <int TILE, int ITEMS, int VEC, int SWZ, int S>
static gp_status launch_one(const float *in, float *out, const gp_transpose_geom &g, int pitch, unsigned grid,
                            hipStream_t st)
{
    dim3 block(TILE / VEC, TILE / ITEMS, 1);
    size_t smem = (size_t)TILE * (size_t)(SWZ ? TILE : pitch) * sizeof(float);
    gp_transpose_kernel<TILE, ITEMS, VEC, SWZ, S><<<grid, block, smem, st>>>(in, out, g, pitch);
    return gp_launch_status("transpose");
}

/* Tiles of 32 and 64: every stream mode, and the swizzled layout for VEC > 1
 * with at most 32 elements per thread (ITEMS x VEC). */
template <int TILE, int ITEMS, int VEC>
static gp_status launch_big(const float *in, float *out, const gp_transpose_geom &g, int pitch, unsigned grid,
                            int swz, int stream, hipStream_t st)
{
    if (swz && VEC > 1 && ITEMS * VEC <= 32) {
        switch (stream) {
        case 0: return launch_one<TILE, ITEMS, VEC, (VEC > 1 && ITEMS * VEC <= 32), 0>(in, out, g, pitch, grid, st);
        case 1: return launch_one<TILE, ITEMS, VEC, (VEC > 1 && ITEMS * VEC <= 32), 1>(in, out, g, pitch, grid, st);
        case 2: return launch_one<TILE, ITEMS, VEC, (VEC > 1 && ITEMS * VEC <= 32), 2>(in, out, g, pitch, grid, st);
        default: return launch_one<TILE, ITEMS, VEC, (VEC > 1 && ITEMS * VEC <= 32), 3>(in, out, g, pitch, grid, st);
        }
    }
    switch (stream) {
    case 0: return launch_one<TILE, ITEMS, VEC, 0, 0>(in, out, g, pitch, grid, st);
    case 1: return launch_one<TILE, ITEMS, VEC, 0, 1>(in, out, g, pitch, grid, st);
    case 2: return launch_one<TILE, ITEMS, VEC, 0, 2>(in, out, g, pitch, grid, st);
    default: return launch_one<TILE, ITEMS, VEC, 0, 3>(in, out, g, pitch, grid, st);
    }
}

/* Every (tile, items, vec) the host may pick: threads = tile/vec x tile/items
 * <= 1024, items <= tile, vec > 1 only for tiles of 32 and 64. */
#define GP_T_SMALL(T, I)                                          \
    if (tile == T && items == I && vec == 1)                      \
        return launch_one<T, I, 1, 0, 0>(d_in, d_out, g, pitch, grid, st);
#define GP_T_BIG(T, I, V)                                         \
    if (tile == T && items == I && vec == V)                      \
        return launch_big<T, I, V>(d_in, d_out, g, pitch, grid, swz, stream, st);

static gp_status dispatch(const float *d_in, float *d_out, const gp_transpose_geom &g, int pitch,
                          unsigned grid, int tile, int items, int vec, int swz, int stream, hipStream_t st)
{
    if (tile < 32 && (swz || stream))
        return gp_fail(GP_ERR_USAGE, "transpose: swizzle and stream need tiles of 32 or 64 (tile %d)", tile);
    if (swz && items * vec > 32)
        return gp_fail(GP_ERR_USAGE, "transpose: swizzle needs items x vec <= 32 (%d x %d)", items, vec);
    if (stream < 0 || stream > 3)
        return gp_fail(GP_ERR_USAGE, "transpose: stream %d is not 0..3", stream);
    GP_T_SMALL(8, 1) GP_T_SMALL(8, 2) GP_T_SMALL(8, 4) GP_T_SMALL(8, 8)
    GP_T_SMALL(16, 1) GP_T_SMALL(16, 2) GP_T_SMALL(16, 4) GP_T_SMALL(16, 8) GP_T_SMALL(16, 16)
    GP_T_BIG(32, 1, 1) GP_T_BIG(32, 2, 1) GP_T_BIG(32, 4, 1) GP_T_BIG(32, 8, 1) GP_T_BIG(32, 16, 1)
    GP_T_BIG(32, 1, 2) GP_T_BIG(32, 2, 2) GP_T_BIG(32, 4, 2) GP_T_BIG(32, 8, 2) GP_T_BIG(32, 16, 2)
    GP_T_BIG(32, 1, 4) GP_T_BIG(32, 2, 4) GP_T_BIG(32, 4, 4) GP_T_BIG(32, 8, 4) GP_T_BIG(32, 16, 4)
    GP_T_BIG(64, 4, 1) GP_T_BIG(64, 8, 1) GP_T_BIG(64, 16, 1)
    GP_T_BIG(64, 2, 2) GP_T_BIG(64, 4, 2) GP_T_BIG(64, 8, 2) GP_T_BIG(64, 16, 2)
    GP_T_BIG(64, 1, 4) GP_T_BIG(64, 2, 4) GP_T_BIG(64, 4, 4) GP_T_BIG(64, 8, 4) GP_T_BIG(64, 16, 4)
    return gp_fail(GP_ERR_USAGE, "transpose: no kernel compiled for tile %d, items %d, vec %d", tile, items, vec);
}
#undef GP_T_SMALL
#undef GP_T_BIG

extern "C" gp_status gp_transpose_launch(const float *d_in, float *d_out, size_t rows, size_t cols, int tile,
                                         int pad, int items, int vec, int group, int swizzle, int stream,
                                         int tiles_per_block, gp_stream s)
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
    /* tiles_per_block tiles per block; the loop also covers grids the runtime
     * cannot launch (AMD: at most 2^32 threads per launch). */
    const unsigned threads = (unsigned)(tile / vec) * (unsigned)(tile / items);
    unsigned cap = 0x7fffffffu / threads;
    if (cap > 65535u * 256u)
        cap = 65535u * 256u;
    const unsigned tpb = tiles_per_block < 1 ? 1u : (unsigned)tiles_per_block;
    unsigned grid = g.ntiles / tpb + (g.ntiles % tpb != 0);
    if (grid > cap)
        grid = cap;
    return dispatch(d_in, d_out, g, tile + pad, grid, tile, items, vec, swizzle && vec > 1, stream, (hipStream_t)s);
}

/* Copy kernel for context: U 16-byte loads in flight per thread, then U
 * stores; a grid-stride loop over tiles of U x blockDim vectors (one pass
 * when the grid covers the array). */
#define GP_COPY_U 4
template <int S>
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
                v[u] = gld<S>(in + i + (size_t)u * blockDim.x);
#pragma unroll
            for (int u = 0; u < GP_COPY_U; u++)
                gst<S>(out + i + (size_t)u * blockDim.x, v[u]);
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

extern "C" gp_status gp_transpose_copy_launch(const float *d_in, float *d_out, size_t n, int grid, int block,
                                              int stream, gp_stream s)
{
    if (n == 0)
        return gp_ok();
    const float4 *in4 = (const float4 *)d_in;
    float4 *out4 = (float4 *)d_out;
    if (stream)
        gp_transpose_copy_kernel<3><<<grid, block, 0, (hipStream_t)s>>>(in4, out4, n / 4, d_in, d_out, n);
    else
        gp_transpose_copy_kernel<0><<<grid, block, 0, (hipStream_t)s>>>(in4, out4, n / 4, d_in, d_out, n);
    return gp_launch_status("transpose copy");
}
