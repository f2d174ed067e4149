/* lds kernels: shared-memory (LDS) latency and bank conflicts ([Vega-HIP]
 * section 2.9). */
#include "gp_device.h"
#include "runtime.h"
#include "lds.h"

#define LDS_BYTES GP_LDS_BYTES /* 32 KiB: within every target's static limit */
#define LAT_UNROLL GP_CYCLE_LAP_WORK /* 16 */
#define BANK_CHAINS GP_LDS_CHAINS /* independent chains per lane: keeps the LDS pipe busy */
#define BANK_UNROLL GP_LDS_UNROLL

/* Latency: one thread chases byte offsets through shared memory.  The cycle
 * (byte offsets, host-built) is copied in from global memory, so the
 * compiler cannot know it; offsets rather than indices leave no shift
 * between one load and the next. */
__global__ void gp_lds_latency_kernel(const int *cycle, int n, long long loads, int reps,
                                      long long *cycles_out, int *sink, int magic)
{
    __shared__ int s[LDS_BYTES / 4];
    for (int i = threadIdx.x; i < n && i < LDS_BYTES / 4; i += blockDim.x)
        s[i] = cycle[i];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    int off = 0;
    const char *base = (const char *)s;
    for (int r = 0; r < reps; r++) {
        gp_cycle_span span;
        GP_CYCLE_START(span);
        for (long long i = 0; i < loads; i += LAT_UNROLL) {
#pragma unroll
            for (int u = 0; u < LAT_UNROLL; u++)
                off = *(const int *)(base + off);
            GP_CYCLE_LAP(span); /* gfx11's 20-bit counter: a lap per 16 loads */
        }
        if (off == magic) /* waits for the last load before the closing read */
            sink[1] = off;
        cycles_out[r] = GP_CYCLE_END(span);
    }
    if (off == magic)
        sink[0] = off;
}

/* Sum of an access's words: uses every word, so the load keeps its width. */
static __device__ __forceinline__ int words(int v) { return v; }
static __device__ __forceinline__ int words(int2 v) { return v.x + v.y; }
static __device__ __forceinline__ int words(int4 v) { return v.x + v.y + v.z + v.w; }

/* Bank conflicts: every lane of every wave reads element lane * stride of
 * type T, BANK_CHAINS independent dependent chains per lane (the next
 * index adds the loaded value, which is 0 at run time but unknown to the
 * compiler, so loads can neither be merged nor hoisted).  Several waves keep
 * the shared-memory pipe saturated, so the time per load instruction counts
 * the passes it needs, i.e. its conflict degree, not its latency. */
template <typename T>
__global__ void gp_lds_bank_kernel(const int *zero, int stride, int iters, long long *cycles_out,
                                   int *sink, int magic)
{
    __shared__ int s[LDS_BYTES / 4];
    const int fill = zero[0];
    for (int i = threadIdx.x; i < LDS_BYTES / 4; i += blockDim.x)
        s[i] = fill;
    /* Byte offsets, as in the latency kernel: one add per load and no
     * shift, so issuing the address math never limits the load rate. */
    const char *base = (const char *)s;
    const int mask = LDS_BYTES - (int)sizeof(T);
    const int lane = threadIdx.x % GP_WAVE_SIZE;
    int off[BANK_CHAINS];
#pragma unroll
    for (int c = 0; c < BANK_CHAINS; c++)
        off[c] = ((lane * stride * (int)sizeof(T)) & mask) + zero[1 + c];
    __syncthreads();
    gp_cycle_span span;
    GP_CYCLE_START(span);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < BANK_UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < BANK_CHAINS; c++)
                off[c] += words(*(const T *)(base + off[c])); /* adds 0 */
        }
        GP_CYCLE_LAP(span); /* a launch is up to millions of cycles: laps on gfx11 */
    }
    __syncthreads();
    long long total = GP_CYCLE_END(span);
    if (threadIdx.x == 0)
        cycles_out[0] = total;
    int acc = 0;
#pragma unroll
    for (int c = 0; c < BANK_CHAINS; c++)
        acc += off[c];
    if (acc == magic)
        sink[threadIdx.x] = acc;
}

extern "C" gp_status gp_lds_latency_run(const int *d_cycle, int n, long long loads, int reps,
                                        long long *d_cycles, int *d_sink)
{
    if (n < 1 || n > LDS_BYTES / 4 || reps < 1 || reps > GP_LDS_MAX_REPS)
        return gp_fail(GP_ERR_USAGE, "lds latency: n %d or reps %d out of range", n, reps);
    gp_lds_latency_kernel<<<1, 256>>>(d_cycle, n, loads, reps, d_cycles, d_sink, -1);
    GP_TRY(gp_launch_status("lds latency"));
    return gp_hip_status(hipDeviceSynchronize(), "lds latency");
}

extern "C" gp_status gp_lds_bank_run(int elem_bytes, int stride, int iters, int threads, const int *d_zero,
                                     long long *d_cycles, int *d_sink)
{
    if (threads < 1 || threads > GP_LDS_MAX_THREADS)
        return gp_fail(GP_ERR_USAGE, "lds bank: %d threads outside 1..%d", threads, GP_LDS_MAX_THREADS);
    dim3 block((unsigned)threads, 1, 1);
    switch (elem_bytes) {
    case 4: gp_lds_bank_kernel<int><<<1, block>>>(d_zero, stride, iters, d_cycles, d_sink, -1); break;
    case 8: gp_lds_bank_kernel<int2><<<1, block>>>(d_zero, stride, iters, d_cycles, d_sink, -1); break;
    case 16: gp_lds_bank_kernel<int4><<<1, block>>>(d_zero, stride, iters, d_cycles, d_sink, -1); break;
    default: return gp_fail(GP_ERR_USAGE, "lds bank: element size %d not 4, 8 or 16", elem_bytes);
    }
    GP_TRY(gp_launch_status("lds bank"));
    return gp_hip_status(hipDeviceSynchronize(), "lds bank");
}
