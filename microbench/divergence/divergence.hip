/* divergence kernels ([Vega-HIP] §2.5): a compute-bound FMA kernel in
 * which some lanes of a wave take another path.  SIMD hardware runs both
 * paths one after the other for a wave whose lanes disagree, so a single
 * divergent lane doubles the wave's time; when whole waves agree (lane groups
 * of at least the wave size) the cost vanishes, which reveals the wave size.
 *
 * Which lanes take branch B is a run-time choice (see takes_b) so one kernel
 * serves the uniform, the k-lane and the lane-group cases with the same code
 * and the same registers. */
#include "gp_device.h"
#include "runtime.h"

/* Independent chains per thread: enough ILP that the FMA pipes, not the FMA
 * latency, bound the kernel at full occupancy. */
#define DIV_CHAINS 4
/* Chain steps per loop trip: amortizes the loop's own instructions. */
#define DIV_UNROLL 8

/* Branch B for this thread?  group > 0: lanes whose (tid / group) is odd;
 * otherwise the first `count` lanes of every `period` lanes (count 0: none). */
static __device__ __forceinline__ int takes_b(int tid, int group, int period, int count)
{
    if (group > 0)
        return (tid / group) & 1;
    return period > 0 && (tid % period) < count;
}

/* Branch A is s = s*t0 + t1, branch B is s = s*s + t1: one FMA per step each,
 * the same length, but different operands (B squares its state) so the
 * compiler cannot merge the two loops into one with selected operands (that
 * merge is exactly the rewrite we measure separately).  Each branch stores its
 * result under a run-time condition so neither loop is dead. */
__global__ void GP_LAUNCH_BOUNDS(1024)
gp_divergence_branch_kernel(float t0, float t1, int group, int period, int count, int iters,
                            float magic, float *out)
{
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * blockDim.x + tid;
    float s[DIV_CHAINS];
    for (int j = 0; j < DIV_CHAINS; j++)
        s[j] = (float)gid * 1e-9f + 0.125f * (float)j;
    if (takes_b(tid, group, period, count)) {
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int u = 0; u < DIV_UNROLL; u++)
#pragma unroll
                for (int j = 0; j < DIV_CHAINS; j++)
                    s[j] = fmaf(s[j], s[j], t1);
        }
        float r = s[0] + s[1] + s[2] + s[3];
        if (r == magic)
            out[gid] = r;
    } else {
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int u = 0; u < DIV_UNROLL; u++)
#pragma unroll
                for (int j = 0; j < DIV_CHAINS; j++)
                    s[j] = fmaf(s[j], t0, t1);
        }
        float r = s[0] + s[1] + s[2] + s[3];
        if (r == magic)
            out[gid] = r + 1.0f;
    }
}

/* The rewrite of [Vega-HIP]: both paths are foo(a, b) with swapped arguments,
 * so each lane picks its operands first and all lanes run one shared chain. */
__global__ void GP_LAUNCH_BOUNDS(1024)
gp_divergence_swap_kernel(float t0, float t1, int group, int period, int count, int iters,
                          float magic, float *out)
{
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * blockDim.x + tid;
    const int b = takes_b(tid, group, period, count);
    const float a = b ? t1 : t0;
    const float c = b ? t0 : t1;
    float s[DIV_CHAINS];
    for (int j = 0; j < DIV_CHAINS; j++)
        s[j] = (float)gid * 1e-9f + 0.125f * (float)j;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < DIV_UNROLL; u++)
#pragma unroll
            for (int j = 0; j < DIV_CHAINS; j++)
                s[j] = fmaf(s[j], a, c);
    }
    float r = s[0] + s[1] + s[2] + s[3];
    if (r == magic)
        out[gid] = r;
}

/* The wave size this file was compiled for (GP_WAVE_SIZE of the device pass). */
__global__ void gp_divergence_wave_size_kernel(int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = GP_WAVE_SIZE;
}

extern "C" int gp_divergence_fma_per_iter(void)
{
    return DIV_CHAINS * DIV_UNROLL;
}

extern "C" gp_status gp_divergence_launch(gp_stream s, int swap, unsigned grid, int block, float t0,
                                          float t1, int group, int period, int count, int iters,
                                          float magic, float *out)
{
    if (swap)
        gp_divergence_swap_kernel<<<grid, block, 0, (hipStream_t)s>>>(t0, t1, group, period, count,
                                                                      iters, magic, out);
    else
        gp_divergence_branch_kernel<<<grid, block, 0, (hipStream_t)s>>>(t0, t1, group, period, count,
                                                                        iters, magic, out);
    return gp_launch_status(swap ? "divergence swap kernel" : "divergence branch kernel");
}

/* Resident blocks per CU of the branch kernel at `block` threads, so the grid
 * fills the chip in exactly one round (no tail of half-empty CUs). */
extern "C" gp_status gp_divergence_blocks_per_cu(int block, int *blocks)
{
    int a = 0, b = 0;
    GP_TRY(gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(&a, gp_divergence_branch_kernel,
                                                                      block, 0),
                         "divergence occupancy (branch)"));
    GP_TRY(gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(&b, gp_divergence_swap_kernel,
                                                                      block, 0),
                         "divergence occupancy (swap)"));
    *blocks = a < b ? a : b;
    return gp_ok();
}

extern "C" gp_status gp_divergence_compiled_wave_size(int *wave)
{
    int *d = NULL;
    GP_TRY(gp_hip_status(hipMalloc((void **)&d, sizeof(int)), "divergence wave-size buffer"));
    gp_status st = gp_hip_status(hipMemset(d, 0, sizeof(int)), "divergence wave-size memset");
    if (st.code == GP_OK) {
        gp_divergence_wave_size_kernel<<<1, 1>>>(d);
        st = gp_launch_status("divergence wave-size kernel");
    }
    if (st.code == GP_OK)
        st = gp_hip_status(hipMemcpy(wave, d, sizeof(int), hipMemcpyDeviceToHost),
                           "divergence wave-size copy");
    hipFree(d);
    return st;
}
