/* register_limits kernels ([Vega-HIP] §2.3-2.4, run-time half): a
 * latency-bound chain whose number of live values R is a template parameter,
 * so registers per thread rise with R until the compiler spills.
 *
 * Each pass computes v[i] = v[i-1] * a + v[i] for i = 0..R-1 (v[-1] being
 * v[R-1] of the previous pass): one serial chain of R FMAs, and every v[i] is
 * needed again in the next pass, so all R stay live.  The array is indexed
 * only by compile-time constants inside unrolled loops, so it lives in
 * registers (or spills to scratch/local memory when it no longer fits).  a is
 * tiny, so the values stay bounded; the sum is stored only when it equals a
 * run-time magic value, so nothing can be deleted. */
#include "gp_device.h"
#include "runtime.h"
#include "register_limits.h"

template <int R>
__global__ void GP_LAUNCH_BOUNDS(GP_REGLIM_BLOCK) gp_reglim_chain(float *out, int iters, float a, float magic)
{
    float v[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        v[i] = (float)(threadIdx.x + i) * 1e-3f;
    for (int it = 0; it < iters; it++) {
        v[0] = fmaf(v[R - 1], a, v[0]);
#pragma unroll
        for (int i = 1; i < R; i++)
            v[i] = fmaf(v[i - 1], a, v[i]);
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < R; i++)
        s += v[i];
    if (s == magic)
        out[0] = s;
}

#define GP_REGLIM_A 1e-7f
#define GP_REGLIM_MAGIC -12345.678f

typedef void (*reglim_fn)(float *, int, float, float);
#define V(R) {R, gp_reglim_chain<R>},
static const struct {
    int live;
    reglim_fn fn;
} variants[] = {GP_REGLIM_VARIANTS(V)};
#undef V
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

extern "C" int gp_reglim_count(void) { return NVAR; }

extern "C" int gp_reglim_live(int variant)
{
    return variant >= 0 && variant < NVAR ? variants[variant].live : 0;
}

extern "C" gp_status gp_reglim_attrs(int variant, int *regs, size_t *local_bytes, int *blocks_per_cu)
{
    if (variant < 0 || variant >= NVAR)
        return gp_fail(GP_ERR_USAGE, "register_limits: variant %d out of range", variant);
    const void *k = (const void *)variants[variant].fn;
    hipFuncAttributes attr;
    GP_TRY(gp_hip_status(hipFuncGetAttributes(&attr, k), "register_limits: function attributes"));
    *regs = attr.numRegs;
    *local_bytes = attr.localSizeBytes;
    int n = 0;
    GP_TRY(gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, GP_REGLIM_BLOCK, 0),
                         "register_limits: occupancy query"));
    *blocks_per_cu = n;
    return gp_ok();
}

extern "C" gp_status gp_reglim_launch(gp_stream s, int variant, unsigned blocks, int iters, float *out)
{
    if (variant < 0 || variant >= NVAR)
        return gp_fail(GP_ERR_USAGE, "register_limits: variant %d out of range", variant);
    variants[variant].fn<<<blocks, GP_REGLIM_BLOCK, 0, (hipStream_t)s>>>(out, iters, GP_REGLIM_A, GP_REGLIM_MAGIC);
    return gp_launch_status("register_limits chain kernel");
}
