/* reduce kernels: sum of fp32 (accumulated in fp32) or int32 (accumulated in
 * uint32: the two's-complement wrapped sum, no signed overflow) in one launch.
 *
 * Per pass of a grid-stride loop each thread issues U 16-byte loads before
 * the first add (U x 16 bytes in flight per thread; [PMPP-cases] "algorithm
 * cascading"), adds them pairwise (a tree of log2 U steps) and adds the
 * result to its one vector accumulator: 4U + 4 live values, so U = 4 fits a
 * full SM.  A block owns a run of U x blockDim vectors per pass, so the whole
 * grid sweeps memory front to back together.  With one_pass the grid covers
 * the array and the loop runs once (blocks come and go as the hardware
 * schedules them).  S = 1: streaming loads (NVIDIA ld.global.cs, evict-first;
 * AMD non-temporal).  The head (elements before the first 16-byte boundary)
 * and the tail (the last n mod 4) are added by the first threads of the grid.
 *
 * Per thread: the 4 lanes as (x + y) + (z + w).  Per block: a butterfly over
 * the wave (gp_shfl), one value per wave into shared memory, a second
 * butterfly in wave 0; the other waves are done.  Across blocks, in two
 * levels so that no single block adds more than a few hundred values: wave 0
 * of each block stores the block's partial and counts itself in its group of
 * GP_RED_GROUP blocks (fence, atomic counter: the threadFenceReduction
 * pattern); the last block of a group adds the group's partials in index
 * order into a group partial and counts the group in; the last group adds
 * the group partials in index order and writes the result.  Each last block
 * resets the counter it finished.  Every addition has a fixed place in a
 * fixed tree, so the result does not depend on block timing: same input and
 * parameters, same bits. */
#include "gp_device.h"
#include "runtime.h"
#include "reduce.h"

static __device__ __forceinline__ float4 vadd(float4 a, float4 b)
{
    float4 r;
    r.x = a.x + b.x, r.y = a.y + b.y, r.z = a.z + b.z, r.w = a.w + b.w;
    return r;
}
static __device__ __forceinline__ uint4 vadd(uint4 a, uint4 b)
{
    uint4 r;
    r.x = a.x + b.x, r.y = a.y + b.y, r.z = a.z + b.z, r.w = a.w + b.w;
    return r;
}

template <typename E> struct gp_red;
template <> struct gp_red<float> {
    typedef float4 V;
    static __device__ __forceinline__ V zero(void) { return make_float4(0.f, 0.f, 0.f, 0.f); }
    static __device__ __forceinline__ float shfl(float v, int src) { return gp_shfl(v, src); }
};
template <> struct gp_red<unsigned> {
    typedef uint4 V;
    static __device__ __forceinline__ V zero(void) { return make_uint4(0u, 0u, 0u, 0u); }
    static __device__ __forceinline__ unsigned shfl(unsigned v, int src)
    {
        return (unsigned)gp_shfl_int((int)v, src);
    }
};

template <typename E, int S>
static __device__ __forceinline__ typename gp_red<E>::V vload(const typename gp_red<E>::V *p)
{
    if (S)
        return gp_ld_last_use(p);
    return *p;
}

/* Butterfly over the wave: every lane ends with the same sum (the adds are
 * commutative, so lane l's a + b equals lane l^o's b + a bit for bit). */
template <typename E>
static __device__ __forceinline__ E wave_sum(E v)
{
    const int lane = (int)(threadIdx.x % GP_WAVE_SIZE);
#pragma unroll
    for (int o = GP_WAVE_SIZE / 2; o > 0; o /= 2)
        v += gp_red<E>::shfl(v, lane ^ o);
    return v;
}

/* Lane l of the calling wave adds p[l], p[l + wave], ... (p[0..n)) in that
 * order, then the butterfly: every lane gets the same sum.  The values were
 * written by other CUs (gp_ld_from_other_cus: not from this CU's L1).  The
 * loads go in batches of 8 a lane, all issued before the first add: one at a
 * time, each add waited out an L2 round trip before the next load issued, and
 * a group of 256 partials is 8 of them in series after the last block.  The
 * zeros past n change nothing: s starts at +0 and never becomes -0. */
#define GP_RED_BATCH 8
template <typename E>
static __device__ __forceinline__ E wave_sum_of(const E *p, unsigned n)
{
    const unsigned lane = threadIdx.x % GP_WAVE_SIZE;
    E s = (E)0;
    for (unsigned j0 = 0; j0 < n; j0 += GP_RED_BATCH * GP_WAVE_SIZE) {
        E v[GP_RED_BATCH];
#pragma unroll
        for (int k = 0; k < GP_RED_BATCH; k++) {
            const unsigned j = j0 + (unsigned)k * GP_WAVE_SIZE + lane;
            v[k] = j < n ? gp_ld_from_other_cus(p + j) : (E)0;
        }
#pragma unroll
        for (int k = 0; k < GP_RED_BATCH; k++)
            s += v[k];
    }
    return wave_sum(s);
}

/* Pairwise tree over the U loaded vectors: v[u] += v[u + S] for S = U/2,
 * U/4, ..., 1 (a template, so every index is a constant and the array stays
 * in registers). */
template <int S> struct gp_red_tree {
    template <typename V>
    static __device__ __forceinline__ void run(V *v)
    {
#pragma unroll
        for (int u = 0; u < S; u++)
            v[u] = vadd(v[u], v[u + S]);
        gp_red_tree<S / 2>::run(v);
    }
};
template <> struct gp_red_tree<0> {
    template <typename V>
    static __device__ __forceinline__ void run(V *) {}
};

/* Block limit per U (reduce.c block_limit mirrors it); on NVIDIA also a
 * minimum of resident blocks, so that the registers per thread stay within
 * GP_REDUCE_REGS(U) (reduce.h: 32 for U <= 4, the whole SM for any block
 * size; 64 for U = 8; 128 for U = 16), which reduce.c sizes the persistent
 * grid by. */
#define GP_RED_LB(U) ((U) <= 4 ? 1024 : (U) == 8 ? 512 : 256)
#if defined(GP_VENDOR_NVIDIA)
#define GP_RED_BOUNDS(U) __launch_bounds__(GP_RED_LB(U), 65536 / GP_REDUCE_REGS(U) / GP_RED_LB(U))
#else
/* AMD: the same VGPR cap, as waves per SIMD (HIP's second argument): 256 /
 * R on gfx9.  Unbounded, clang gave gp_reduce_kernel<float, 4, 1> 33 VGPRs
 * on gfx900 (36 allocated: 7 waves a SIMD, not 8), so 64 of the 512
 * persistent blocks reduce.c sizes at 32 were never resident at once. */
#define GP_RED_BOUNDS(U) __launch_bounds__(GP_RED_LB(U), 256 / GP_REDUCE_REGS(U))
#endif

/* ws (reduce.h): total counter at 0, group counters from GP_RED_WS_COUNTERS,
 * then the group partials, then one partial per block (offsets from the
 * launcher). */
template <typename E, int U, int S>
__global__ void GP_RED_BOUNDS(U)
gp_reduce_kernel(const E *__restrict__ in, size_t n, size_t head, E *__restrict__ out, unsigned *total,
                 unsigned *gcount, E *gpartials, E *partials)
{
    typedef typename gp_red<E>::V V;
    __shared__ E wsum[GP_REDUCE_MAX_BLOCK / GP_WAVE_SIZE];
    const size_t nv = (n - head) / 4;
    const V *vin = (const V *)(in + head);
    const size_t B = blockDim.x;
    const size_t stride = (size_t)gridDim.x * B * U;

    V acc = gp_red<E>::zero();
    size_t i = (size_t)blockIdx.x * B * U + threadIdx.x;
    for (; i + (size_t)(U - 1) * B < nv; i += stride) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = vload<E, S>(vin + i + (size_t)u * B);
        gp_red_tree<U / 2>::run(v);
        acc = vadd(acc, v[0]);
    }
    if (i < nv) { /* the last, partial pass: missing vectors are zeros */
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = i + (size_t)u * B < nv ? vload<E, S>(vin + i + (size_t)u * B) : gp_red<E>::zero();
        gp_red_tree<U / 2>::run(v);
        acc = vadd(acc, v[0]);
    }
    /* Head (before the first 16-byte boundary) and tail (past the last whole vector). */
    const size_t g = (size_t)blockIdx.x * B + threadIdx.x;
    if (g < head)
        acc.x += in[g];
    if (g < n - head - 4 * nv)
        acc.y += in[head + 4 * nv + g];
    E t = (acc.x + acc.y) + (acc.z + acc.w);

    /* Block: wave sums, then wave 0 alone. */
    const int lane = (int)(threadIdx.x % GP_WAVE_SIZE), wid = (int)(threadIdx.x / GP_WAVE_SIZE);
    t = wave_sum(t);
    if (lane == 0)
        wsum[wid] = t;
    __syncthreads();
    if (wid != 0)
        return;
    const int nw = (int)(B / GP_WAVE_SIZE);
    t = wave_sum(lane < nw ? wsum[lane] : (E)0);

    /* Level 1: the block's group. */
    const unsigned grid = gridDim.x, grp = blockIdx.x / GP_RED_GROUP;
    const unsigned gfirst = grp * GP_RED_GROUP;
    const unsigned gsize = grid - gfirst < GP_RED_GROUP ? grid - gfirst : GP_RED_GROUP;
    int last = 0;
    if (lane == 0) {
        partials[blockIdx.x] = t;
        __threadfence(); /* the partial is visible before the arrival counts */
        last = atomicAdd(&gcount[grp], 1u) == gsize - 1;
    }
    if (!gp_shfl_int(last, 0))
        return;
    __threadfence();
    t = wave_sum_of(partials + gfirst, gsize);

    /* Level 2: the groups. */
    const unsigned ngroups = (grid + GP_RED_GROUP - 1) / GP_RED_GROUP;
    if (ngroups == 1) {
        if (lane == 0) {
            *out = t;
            gcount[grp] = 0u; /* ready for the next run in stream order */
        }
        return;
    }
    last = 0;
    if (lane == 0) {
        gpartials[grp] = t;
        gcount[grp] = 0u;
        __threadfence();
        last = atomicAdd(total, 1u) == ngroups - 1;
    }
    if (!gp_shfl_int(last, 0))
        return;
    __threadfence();
    t = wave_sum_of(gpartials, ngroups);
    if (lane == 0) {
        *out = t;
        *total = 0u;
    }
}

template <typename E, int U>
static gp_status launch_u(const E *in, size_t n, size_t head, E *out, void *ws, int ws_grid, int grid, int block,
                          int streaming, gp_stream s)
{
    /* Offsets from the workspace's grid, not this launch's: the counters of
     * every launch stay where the last one left them at zero. */
    const size_t mg = (size_t)((unsigned)ws_grid + GP_RED_GROUP - 1) / GP_RED_GROUP;
    unsigned *total = (unsigned *)ws;
    unsigned *gcount = (unsigned *)((char *)ws + GP_RED_WS_COUNTERS);
    E *gpartials = (E *)(gcount + mg);
    E *partials = gpartials + mg;
    hipStream_t st = (hipStream_t)s;
    if (streaming)
        gp_reduce_kernel<E, U, 1><<<grid, block, 0, st>>>(in, n, head, out, total, gcount, gpartials, partials);
    else
        gp_reduce_kernel<E, U, 0><<<grid, block, 0, st>>>(in, n, head, out, total, gcount, gpartials, partials);
    return gp_launch_status("reduce");
}

template <typename E>
static gp_status launch(const E *in, size_t n, E *out, void *ws, int ws_grid, int grid, int block, int vecs,
                        int streaming, gp_stream s)
{
    if (grid < 1 || grid > ws_grid)
        return gp_fail(GP_ERR_USAGE, "reduce: grid %d outside the workspace's 1..%d", grid, ws_grid);
    size_t head = (size_t)((16 - ((uintptr_t)in & 15)) & 15) / sizeof(E);
    if (head > n)
        head = n;
    if (block > GP_RED_LB(vecs) || block < GP_WAVE_SIZE || block % GP_WAVE_SIZE)
        return gp_fail(GP_ERR_USAGE, "reduce: block %d is not whole waves of %d up to %d for %d vectors per thread",
                       block, GP_WAVE_SIZE, GP_RED_LB(vecs), vecs);
    switch (vecs) {
    case 1: return launch_u<E, 1>(in, n, head, out, ws, ws_grid, grid, block, streaming, s);
    case 2: return launch_u<E, 2>(in, n, head, out, ws, ws_grid, grid, block, streaming, s);
    case 4: return launch_u<E, 4>(in, n, head, out, ws, ws_grid, grid, block, streaming, s);
    case 8: return launch_u<E, 8>(in, n, head, out, ws, ws_grid, grid, block, streaming, s);
    case 16: return launch_u<E, 16>(in, n, head, out, ws, ws_grid, grid, block, streaming, s);
    default: return gp_fail(GP_ERR_USAGE, "reduce: %d vectors per thread not compiled (1, 2, 4, 8, 16)", vecs);
    }
}

extern "C" const void *gp_reduce_f32_fn(int vecs, int stream)
{
    switch (vecs) {
    case 1: return stream ? (const void *)gp_reduce_kernel<float, 1, 1> : (const void *)gp_reduce_kernel<float, 1, 0>;
    case 2: return stream ? (const void *)gp_reduce_kernel<float, 2, 1> : (const void *)gp_reduce_kernel<float, 2, 0>;
    case 4: return stream ? (const void *)gp_reduce_kernel<float, 4, 1> : (const void *)gp_reduce_kernel<float, 4, 0>;
    case 8: return stream ? (const void *)gp_reduce_kernel<float, 8, 1> : (const void *)gp_reduce_kernel<float, 8, 0>;
    case 16:
        return stream ? (const void *)gp_reduce_kernel<float, 16, 1> : (const void *)gp_reduce_kernel<float, 16, 0>;
    default: return NULL;
    }
}

extern "C" gp_status gp_reduce_launch_f32(const float *d_in, size_t n, float *d_out, void *d_ws, int ws_grid,
                                          int grid, int block, int vecs, int streaming, gp_stream s)
{
    return launch<float>(d_in, n, d_out, d_ws, ws_grid, grid, block, vecs, streaming, s);
}

extern "C" gp_status gp_reduce_launch_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_ws, int ws_grid,
                                          int grid, int block, int vecs, int streaming, gp_stream s)
{
    return launch<unsigned>((const unsigned *)d_in, n, (unsigned *)d_out, d_ws, ws_grid, grid, block, vecs,
                            streaming, s);
}
