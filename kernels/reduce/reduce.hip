/* reduce kernels: sum of fp32 (accumulated in fp32) or int32 (accumulated in
 * uint32: the two's-complement wrapped sum, no signed overflow) in one launch.
 *
 * Each thread keeps U independent 16-byte accumulators and, per pass of a
 * grid-stride loop, issues U 16-byte loads before the first add (U x 16 bytes
 * in flight per thread; seed 004 "algorithm cascading").  A block owns a run
 * of U x blockDim vectors per pass, so the whole grid sweeps memory front to
 * back together.  The head (elements before the first 16-byte boundary) and
 * the tail (the last n mod 4) are added by the first threads of the grid.
 *
 * Per thread: the U accumulators are combined pairwise, then the 4 lanes.
 * Per block: a butterfly over the wave (gp_shfl), one value per wave into
 * shared memory, a second butterfly in wave 0.  Across blocks: each block
 * stores its partial, and the last block to arrive (atomic counter after a
 * fence, the threadFenceReduction pattern) adds the partials in index order
 * and resets the counter.  Every addition has a fixed place in a fixed tree,
 * so the result does not depend on block timing: same input and parameters,
 * same bits. */
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

/* Sum over the block; the result is valid in thread 0.  `ws` holds one value
 * per wave.  All threads must call it. */
template <typename E>
static __device__ __forceinline__ E block_sum(E v, E *ws)
{
    const int lane = (int)(threadIdx.x % GP_WAVE_SIZE), wid = (int)(threadIdx.x / GP_WAVE_SIZE);
    const int nw = (int)(blockDim.x / GP_WAVE_SIZE);
    v = wave_sum(v);
    __syncthreads(); /* ws may still be read by an earlier call */
    if (lane == 0)
        ws[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < nw ? ws[lane] : (E)0;
        v = wave_sum(v);
    }
    return v;
}

/* Pairwise combine of the accumulators: acc[u] += acc[u + S] for
 * S = U/2, U/4, ..., 1 (a template, so every index is a constant and the
 * array stays in registers). */
template <int S> struct gp_red_tree {
    template <typename V>
    static __device__ __forceinline__ void run(V *acc)
    {
#pragma unroll
        for (int u = 0; u < S; u++)
            acc[u] = vadd(acc[u], acc[u + S]);
        gp_red_tree<S / 2>::run(acc);
    }
};
template <> struct gp_red_tree<0> {
    template <typename V>
    static __device__ __forceinline__ void run(V *) {}
};

/* Registers follow U: 8U live values (U loads in flight, U accumulators). */
#define GP_RED_LB(U) ((U) <= 4 ? 1024 : (U) == 8 ? 512 : 256)

template <typename E, int U>
__global__ void __launch_bounds__(GP_RED_LB(U))
gp_reduce_kernel(const E *__restrict__ in, size_t n, size_t head, E *__restrict__ out, unsigned *counter,
                 E *partials)
{
    typedef typename gp_red<E>::V V;
    __shared__ E wsum[GP_REDUCE_MAX_BLOCK / GP_WAVE_SIZE];
    __shared__ int am_last;
    const size_t nv = (n - head) / 4;
    const V *vin = (const V *)(in + head);
    const size_t B = blockDim.x;
    const size_t stride = (size_t)gridDim.x * B * U;

    V acc[U];
#pragma unroll
    for (int u = 0; u < U; u++)
        acc[u] = gp_red<E>::zero();
    size_t i = (size_t)blockIdx.x * B * U + threadIdx.x;
    for (; i + (size_t)(U - 1) * B < nv; i += stride) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = vin[i + (size_t)u * B];
#pragma unroll
        for (int u = 0; u < U; u++)
            acc[u] = vadd(acc[u], v[u]);
    }
#pragma unroll
    for (int u = 0; u < U; u++) /* the last, partial pass */
        if (i + (size_t)u * B < nv)
            acc[u] = vadd(acc[u], vin[i + (size_t)u * B]);
    /* Head (before the first 16-byte boundary) and tail (past the last whole vector). */
    const size_t g = (size_t)blockIdx.x * B + threadIdx.x;
    if (g < head)
        acc[0].x += in[g];
    if (g < n - head - 4 * nv)
        acc[0].y += in[head + 4 * nv + g];

    gp_red_tree<U / 2>::run(acc);
    E t = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);
    t = block_sum(t, wsum);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = t;
        __threadfence(); /* the partial is visible before the arrival counts */
        unsigned prev = atomicAdd(counter, 1u);
        am_last = prev == gridDim.x - 1;
    }
    __syncthreads();
    if (!am_last)
        return;
    __threadfence();
    const volatile E *vp = partials; /* written by other CUs: not from this CU's L1 */
    E s = (E)0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        s += vp[j];
    s = block_sum(s, wsum);
    if (threadIdx.x == 0) {
        *out = s;
        *counter = 0u; /* ready for the next run in stream order */
    }
}

template <typename E, int U>
static gp_status launch_u(const E *in, size_t n, size_t head, E *out, void *ws, int grid, int block)
{
    unsigned *counter = (unsigned *)ws;
    E *partials = (E *)((char *)ws + 16);
    gp_reduce_kernel<E, U><<<grid, block>>>(in, n, head, out, counter, partials);
    return gp_launch_status("reduce");
}

template <typename E>
static gp_status launch(const E *in, size_t n, E *out, void *ws, int grid, int block, int vecs)
{
    size_t head = (size_t)((16 - ((uintptr_t)in & 15)) & 15) / sizeof(E);
    if (head > n)
        head = n;
    if (block > GP_RED_LB(vecs))
        return gp_fail(GP_ERR_USAGE, "reduce: block %d exceeds %d for %d vectors per thread", block,
                       GP_RED_LB(vecs), vecs);
    switch (vecs) {
    case 1: return launch_u<E, 1>(in, n, head, out, ws, grid, block);
    case 2: return launch_u<E, 2>(in, n, head, out, ws, grid, block);
    case 4: return launch_u<E, 4>(in, n, head, out, ws, grid, block);
    case 8: return launch_u<E, 8>(in, n, head, out, ws, grid, block);
    case 16: return launch_u<E, 16>(in, n, head, out, ws, grid, block);
    default: return gp_fail(GP_ERR_USAGE, "reduce: %d vectors per thread not compiled (1, 2, 4, 8, 16)", vecs);
    }
}

extern "C" gp_status gp_reduce_launch_f32(const float *d_in, size_t n, float *d_out, void *d_ws, int grid,
                                          int block, int vecs)
{
    return launch<float>(d_in, n, d_out, d_ws, grid, block, vecs);
}

extern "C" gp_status gp_reduce_launch_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_ws, int grid,
                                          int block, int vecs)
{
    return launch<unsigned>((const unsigned *)d_in, n, (unsigned *)d_out, d_ws, grid, block, vecs);
}
