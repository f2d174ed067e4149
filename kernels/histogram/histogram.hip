/* histogram kernels: privatized sub-histograms in LDS, one global merge per
 * block (Kirk and Hwu, Programming Massively Parallel Processors, 3rd ed.,
 * ch. 9: privatization, coarsening, and merging with atomics).
 *
 * Sub-histograms.  A block holds C = 2^LC copies of the bins, interleaved:
 * the counter of bin b in copy c is word b * C + c, and thread t counts into
 * copy t mod C.  With C = the bank count (32), lane l's counters all sit in
 * bank l: the 32 LDS atomics of one wave instruction go to 32 different banks
 * and 32 different words whatever the data, so neither bank conflicts (random
 * bins would give ~3.5-way ones) nor same-address serialization (every lane
 * on the one hot bin of skewed data) costs anything.  Only lanes of the same
 * index in other waves share a counter, and their atomics are separate
 * instructions anyway.  Fewer copies (4096 bins: 2 fit in 48 KiB) spread the
 * hot bin over C words.
 *
 * Streaming.  A persistent grid (the blocks the device holds at once)
 * strides over the 16-byte vectors of the aligned middle of the input: each
 * thread loads V vectors a step (one coalesced 16-byte load per lane and
 * vector, all V issued before the first atomic: V x 16 bytes in flight a
 * thread; Little's law, the rule sizes V), then counts them while the other
 * resident waves load.  The up to 15 bytes (3 keys) before the first 16-byte
 * boundary and after the last whole vector are counted one by one by block
 * 0: any length and any alignment.
 *
 * Merge.  After the stream, thread t sums bin b's C copies (starting at copy
 * b mod C, so consecutive threads read consecutive banks) and adds the sum
 * to the global bin with one atomic (skipped when 0).  A small kernel zeroes
 * the global bins first, in stream order. */
#include "gp_device.h"
#include "histogram.h"
#include "runtime.h"

/* At most GP_HIST_REGS(V) registers a thread (32 for V <= 2: registers never
 * limit the blocks the LDS allows), which histogram.c sizes the persistent
 * grid by.  NVIDIA: the second bound is resident blocks of 1024 (65536
 * registers a SM); HIP: it is waves per SIMD (amdgpu_waves_per_eu), of 256
 * VGPRs each on gfx9. */
#if defined(GP_VENDOR_NVIDIA)
#define GP_HIST_BOUNDS(V) __launch_bounds__(GP_HIST_MAX_BLOCK, 65536 / GP_HIST_REGS(V) / GP_HIST_MAX_BLOCK)
#else
#define GP_HIST_BOUNDS(V) __launch_bounds__(GP_HIST_MAX_BLOCK, 256 / GP_HIST_REGS(V))
#endif

__global__ void gp_hist_zero_kernel(unsigned *bins, int nbins)
{
    const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < nbins)
        bins[i] = 0u;
}

/* One 32-bit word of samples: four bytes (u8) or one key (u32, counted only
 * below 4096). */
template <int U32, int LC>
static __device__ __forceinline__ void count_word(unsigned *h, unsigned w, unsigned cp)
{
    if (U32) {
        if (w < (unsigned)GP_HIST_U32_BINS)
            atomicAdd(&h[(w << LC) | cp], 1u);
    } else {
        atomicAdd(&h[((w & 0xffu) << LC) | cp], 1u);
        atomicAdd(&h[(((w >> 8) & 0xffu) << LC) | cp], 1u);
        atomicAdd(&h[(((w >> 16) & 0xffu) << LC) | cp], 1u);
        atomicAdd(&h[((w >> 24) << LC) | cp], 1u);
    }
}

template <int U32, int LC>
static __device__ __forceinline__ void count_vec(unsigned *h, uint4 v, unsigned cp)
{
    count_word<U32, LC>(h, v.x, cp);
    count_word<U32, LC>(h, v.y, cp);
    count_word<U32, LC>(h, v.z, cp);
    count_word<U32, LC>(h, v.w, cp);
}

/* One step of V vectors from vector index i (stride blockDim.x): a whole
 * step issues all V loads before the first atomic; the last, partial one
 * counts what exists. */
template <int U32, int LC, int V>
static __device__ __forceinline__ void count_step(unsigned *h, const uint4 *__restrict__ vin, size_t i, size_t nvec,
                                                  unsigned cp)
{
    if (i + (size_t)(V - 1) * blockDim.x < nvec) {
        uint4 v[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            v[j] = vin[i + (size_t)j * blockDim.x];
#pragma unroll
        for (int j = 0; j < V; j++)
            count_vec<U32, LC>(h, v[j], cp);
    } else {
        for (int j = 0; j < V; j++)
            if (i + (size_t)j * blockDim.x < nvec)
                count_vec<U32, LC>(h, vin[i + (size_t)j * blockDim.x], cp);
    }
}

/* in: the samples (bytes or keys) from the start; lead: samples before the
 * first 16-byte boundary (vin = in + lead); nvec whole vectors from there;
 * tail: samples after them. */
template <int U32, int LC, int V>
__global__ void GP_HIST_BOUNDS(V) gp_hist_kernel(const void *__restrict__ in, unsigned lead, const uint4 *__restrict__ vin,
                                              size_t nvec, unsigned tail, unsigned *__restrict__ bins)
{
    const int NB = U32 ? GP_HIST_U32_BINS : GP_HIST_U8_BINS;
    const int C = 1 << LC;
    __shared__ unsigned h[NB << LC];
    for (int k = (int)threadIdx.x; k < (NB << LC); k += (int)blockDim.x)
        h[k] = 0u;
    __syncthreads();
    const unsigned cp = threadIdx.x & (unsigned)(C - 1);

    /* The ends, one sample a thread of block 0 (lead + tail < 32 <= block). */
    if (blockIdx.x == 0 && threadIdx.x < lead + tail) {
        const size_t s = threadIdx.x < lead ? threadIdx.x : (size_t)lead + nvec * (U32 ? 4 : 16) + (threadIdx.x - lead);
        if (U32)
            count_word<1, LC>(h, ((const unsigned *)in)[s], cp);
        else
            atomicAdd(&h[((unsigned)((const unsigned char *)in)[s] << LC) | cp], 1u);
    }

    /* The middle: grid-stride steps of V vectors. */
    const size_t step = (size_t)gridDim.x * blockDim.x * V;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * V + threadIdx.x; i < nvec; i += step)
        count_step<U32, LC, V>(h, vin, i, nvec, cp);
    __syncthreads();

    /* Merge: each bin's copies, starting at copy b mod C (conflict-free for
     * C = the bank count), then one global atomic per nonzero bin. */
    for (int b = (int)threadIdx.x; b < NB; b += (int)blockDim.x) {
        unsigned s = 0u;
#pragma unroll
        for (int c = 0; c < C; c++)
            s += h[(b << LC) | ((c + b) & (C - 1))];
        if (s)
            atomicAdd(&bins[b], s);
    }
}

/* The split of n samples of `size` bytes at `in` into lead, whole 16-byte
 * vectors and tail; the zeroing, then the counting launch. */
template <int U32, int LC, int V>
static gp_status launch_lc_v(const void *in, size_t n, unsigned *bins, int block, int grid, gp_stream s)
{
    hipStream_t st = (hipStream_t)s;
    const int NB = U32 ? GP_HIST_U32_BINS : GP_HIST_U8_BINS;
    const size_t size = U32 ? 4 : 1;
    size_t lead, nvec, tail;
    gp_histogram_split((uintptr_t)in, n, size, &lead, &nvec, &tail);
    const uint4 *vin = (const uint4 *)((const char *)in + lead * size);
    /* Blocks beyond the vectors would only merge zeros. */
    const size_t per_block = (size_t)block * V;
    size_t need = (nvec + per_block - 1) / per_block;
    if (need < 1)
        need = 1;
    const unsigned g = (unsigned)(need < (size_t)grid ? need : (size_t)grid);
    gp_hist_zero_kernel<<<(NB + 255) / 256, 256, 0, st>>>(bins, NB);
    GP_TRY(gp_launch_status("histogram zero"));
    if (n == 0)
        return gp_ok();
    gp_hist_kernel<U32, LC, V><<<g, block, 0, st>>>(in, (unsigned)lead, vin, nvec, (unsigned)tail, bins);
    return gp_launch_status(U32 ? "histogram u32" : "histogram u8");
}

template <int U32, int LC>
static gp_status launch_lc(const void *in, size_t n, unsigned *bins, int block, int vecs, int grid, gp_stream s)
{
    switch (vecs) {
    case 1: return launch_lc_v<U32, LC, 1>(in, n, bins, block, grid, s);
    case 2: return launch_lc_v<U32, LC, 2>(in, n, bins, block, grid, s);
    case 4: return launch_lc_v<U32, LC, 4>(in, n, bins, block, grid, s);
    default: return gp_fail(GP_ERR_USAGE, "histogram: %d vectors per thread not compiled (1, 2, 4)", vecs);
    }
}

static gp_status check_launch(int block, int grid)
{
    if (block < 64 || block > GP_HIST_MAX_BLOCK || block % GP_WAVE_SIZE || grid < 1)
        return gp_fail(GP_ERR_USAGE, "histogram: block %d (whole waves, 64..%d) or grid %d (>= 1) not launchable",
                       block, GP_HIST_MAX_BLOCK, grid);
    return gp_ok();
}

extern "C" gp_status gp_histogram_launch_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, int block, int vecs,
                                            int copies, int grid, gp_stream s)
{
    GP_TRY(check_launch(block, grid));
    switch (copies) {
    case 1: return launch_lc<0, 0>(d_in, n, d_bins, block, vecs, grid, s);
    case 2: return launch_lc<0, 1>(d_in, n, d_bins, block, vecs, grid, s);
    case 4: return launch_lc<0, 2>(d_in, n, d_bins, block, vecs, grid, s);
    case 8: return launch_lc<0, 3>(d_in, n, d_bins, block, vecs, grid, s);
    case 16: return launch_lc<0, 4>(d_in, n, d_bins, block, vecs, grid, s);
    case 32: return launch_lc<0, 5>(d_in, n, d_bins, block, vecs, grid, s);
    default: return gp_fail(GP_ERR_USAGE, "histogram u8: %d copies not compiled (1, 2, 4, ..., 32)", copies);
    }
}

extern "C" gp_status gp_histogram_launch_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, int block, int vecs,
                                             int copies, int grid, gp_stream s)
{
    GP_TRY(check_launch(block, grid));
    switch (copies) {
    case 1: return launch_lc<1, 0>(d_keys, n, d_bins, block, vecs, grid, s);
    case 2: return launch_lc<1, 1>(d_keys, n, d_bins, block, vecs, grid, s);
    default: return gp_fail(GP_ERR_USAGE, "histogram u32: %d copies not compiled (1, 2: 4096 bins in 48 KiB)", copies);
    }
}

template <int U32, int LC>
static gp_status occupancy_lc(int block, int vecs, int *blocks)
{
    const void *f = vecs == 1   ? (const void *)gp_hist_kernel<U32, LC, 1>
                    : vecs == 2 ? (const void *)gp_hist_kernel<U32, LC, 2>
                                : (const void *)gp_hist_kernel<U32, LC, 4>;
    return gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block, 0), "histogram occupancy");
}

extern "C" gp_status gp_histogram_occupancy(int is_u32, int block, int vecs, int copies, int *blocks_per_cu)
{
    *blocks_per_cu = 0;
    if (vecs != 1 && vecs != 2 && vecs != 4)
        return gp_fail(GP_ERR_USAGE, "histogram occupancy: %d vectors per thread not compiled", vecs);
    if (is_u32) {
        if (copies == 1)
            return occupancy_lc<1, 0>(block, vecs, blocks_per_cu);
        if (copies == 2)
            return occupancy_lc<1, 1>(block, vecs, blocks_per_cu);
    } else {
        switch (copies) {
        case 1: return occupancy_lc<0, 0>(block, vecs, blocks_per_cu);
        case 2: return occupancy_lc<0, 1>(block, vecs, blocks_per_cu);
        case 4: return occupancy_lc<0, 2>(block, vecs, blocks_per_cu);
        case 8: return occupancy_lc<0, 3>(block, vecs, blocks_per_cu);
        case 16: return occupancy_lc<0, 4>(block, vecs, blocks_per_cu);
        case 32: return occupancy_lc<0, 5>(block, vecs, blocks_per_cu);
        default: break;
        }
    }
    return gp_fail(GP_ERR_USAGE, "histogram occupancy: %d copies not compiled for %s", copies, is_u32 ? "u32" : "u8");
}
