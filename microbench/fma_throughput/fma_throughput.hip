/* fma_throughput kernels ([Vega-HIP] §2.2): chains of fused multiply-adds.
 *
 * Each thread runs GP_FMA_ACC independent accumulators, so one wave has that
 * many FMAs in flight and the FMA latency is hidden at a few waves per SIMD;
 * the inner loop is unrolled so loop overhead is 1 in GP_FMA_ACC x
 * GP_FMA_INNER instructions.  fmaf/fma/__hfma2 are called explicitly so the
 * compiler emits FFMA / v_fma(c)_f32 and not a separate multiply and add.
 * The result is stored only when it equals a run-time `magic` value that it
 * never equals, so the work cannot be deleted. */
#include "gp_device.h"
#include "runtime.h"
#include "fma_throughput.h"

#if defined(GP_VENDOR_NVIDIA)
#include <cuda_fp16.h>
#define GP_FMA_HAVE_F16X2 1
#elif defined(__HIP__)
#include <hip/hip_fp16.h>
#define GP_FMA_HAVE_F16X2 1
#endif

static __device__ __forceinline__ float gp_fma_op(float x, float a, float b) { return fmaf(x, a, b); }
static __device__ __forceinline__ double gp_fma_op(double x, double a, double b) { return fma(x, a, b); }
static __device__ __forceinline__ float gp_fma_val(float x, float) { return x; }
static __device__ __forceinline__ double gp_fma_val(float x, double) { return (double)x; }
static __device__ __forceinline__ float gp_fma_sum(float x) { return x; }
static __device__ __forceinline__ float gp_fma_sum(double x) { return (float)x; }
#if defined(GP_FMA_HAVE_F16X2)
static __device__ __forceinline__ __half2 gp_fma_op(__half2 x, __half2 a, __half2 b) { return __hfma2(x, a, b); }
static __device__ __forceinline__ __half2 gp_fma_val(float x, __half2) { return __float2half2_rn(x); }
static __device__ __forceinline__ float gp_fma_sum(__half2 x) { return __low2float(x) + __high2float(x); }
#endif

/* AMD: keep a loop-invariant operand in a VGPR.  Both multiplier and addend
 * arrive as kernel arguments, in SGPRs, and a gfx9 VOP3 instruction reads at
 * most one SGPR (the constant bus limit, AMD Vega ISA guide, "VOP3"): clang
 * then re-copies the second into a VGPR with a v_mov_b32 inside every loop
 * body (gfx900: 2 VALU instructions per FMA in loop_nounroll, 9 per 8 in
 * loop_plain, 129 per 128 in the chain), so the loop shapes would time the
 * copy too.  An empty asm whose operand must be a VGPR moves it once, before
 * the loop; tests/build/fma_isa_check.sh counts every VALU instruction of the
 * loop bodies. */
static __device__ __forceinline__ void gp_fma_in_vgpr(float &x)
{
#if defined(GP_VENDOR_AMD) && defined(__HIP_DEVICE_COMPILE__)
    asm volatile("" : "+v"(x));
#else
    (void)x;
#endif
}
static __device__ __forceinline__ void gp_fma_in_vgpr(double &x)
{
#if defined(GP_VENDOR_AMD) && defined(__HIP_DEVICE_COMPILE__)
    asm volatile("" : "+v"(x));
#else
    (void)x;
#endif
}
#if defined(GP_FMA_HAVE_F16X2)
static __device__ __forceinline__ void gp_fma_in_vgpr(__half2 &) {}
#endif

/* T: element type (a compile-time type, hence the template); ACC its chains. */
template <typename T, int ACC>
__global__ void gp_fma_chain_kernel(float *out, int iters, float af, float bf, float magic)
{
    T a = gp_fma_val(af, T()), b = gp_fma_val(bf, T());
    gp_fma_in_vgpr(b);
    T acc[ACC];
    /* Distinct starting values per thread and chain: nothing to fold. */
#pragma unroll
    for (int k = 0; k < ACC; k++)
        acc[k] = gp_fma_val((float)(threadIdx.x + k) * 1e-3f, T());
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < GP_FMA_INNER; j++)
#pragma unroll
            for (int k = 0; k < ACC; k++)
                acc[k] = gp_fma_op(acc[k], a, b);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < ACC; k++)
        s += gp_fma_sum(acc[k]);
    if (s == magic)
        out[0] = s;
}

/* Single dependent chain, as in the seed: the loop shape decides how much
 * loop overhead sits between the FMAs.  plain: the unroll the compiler picks
 * for a loop of run-time length.  nvcc unrolls it by 4; AMDGPU's default
 * leaves it rolled (the gfx90a ISA was the same as loop_nounroll's, so the
 * comparison showed nothing), so on AMD runtime unrolling is enabled and the
 * compiler still picks the count (8 with clang 15). tests/build/fma_isa_check.sh
 * checks that plain holds more FMAs per loop body than nounroll. */
__global__ void gp_fma_loop_plain(float *out, int n, float a, float b, float magic)
{
    float s = (float)threadIdx.x * 1e-3f;
    gp_fma_in_vgpr(b);
#if defined(GP_VENDOR_AMD)
#pragma clang loop unroll(enable)
#endif
    for (int i = 0; i < n; i++)
        s = fmaf(s, a, b);
    if (s == magic)
        out[0] = s;
}

__global__ void gp_fma_loop_nounroll(float *out, int n, float a, float b, float magic)
{
    float s = (float)threadIdx.x * 1e-3f;
    gp_fma_in_vgpr(b);
#pragma unroll 1
    for (int i = 0; i < n; i++)
        s = fmaf(s, a, b);
    if (s == magic)
        out[0] = s;
}

/* U: the unroll count must be a compile-time constant. */
template <int U>
__global__ void gp_fma_loop_unroll(float *out, int n, float a, float b, float magic)
{
    float s = (float)threadIdx.x * 1e-3f;
    gp_fma_in_vgpr(b);
#pragma unroll U
    for (int i = 0; i < n; i++)
        s = fmaf(s, a, b);
    if (s == magic)
        out[0] = s;
}

__global__ void gp_fma_loop_double(float *out, int n, float a, float b, float magic)
{
    float s = (float)threadIdx.x * 1e-3f;
    gp_fma_in_vgpr(b);
    for (int i = 0; i < n / GP_FMA_LOOP_INNER; i++) {
#pragma unroll
        for (int j = 0; j < GP_FMA_LOOP_INNER; j++)
            s = fmaf(s, a, b);
    }
    if (s == magic)
        out[0] = s;
}

/* Run-time constants: |a| < 1 keeps every chain bounded (it converges to
 * b / (1 - a)), so no chain reaches inf/NaN; magic is a value the sums never
 * take. */
#define GP_FMA_A 0.9999f
#define GP_FMA_B 1e-4f
#define GP_FMA_MAGIC -12345.678f

static const void *chain_kernel(int type)
{
    switch (type) {
    case GP_FMA_F32: return (const void *)gp_fma_chain_kernel<float, GP_FMA_ACC>;
    case GP_FMA_F64: return (const void *)gp_fma_chain_kernel<double, GP_FMA_ACC_F64>;
#if defined(GP_FMA_HAVE_F16X2)
    case GP_FMA_F16X2: return (const void *)gp_fma_chain_kernel<__half2, GP_FMA_ACC>;
#endif
    default: return NULL;
    }
}

extern "C" int gp_fma_have_f16x2(void)
{
#if defined(GP_FMA_HAVE_F16X2)
    return 1;
#else
    return 0;
#endif
}

extern "C" gp_status gp_fma_prepare(int type, int threads, size_t shm, int *blocks_per_cu)
{
    const void *k = chain_kernel(type);
    if (!k)
        return gp_fail(GP_ERR_USAGE, "fma_throughput: kernel type %d not compiled", type);
    if (shm > 0)
        GP_TRY(gp_hip_status(hipFuncSetAttribute(k, hipFuncAttributeMaxDynamicSharedMemorySize, (int)shm),
                             "fma_throughput: allow dynamic shared memory"));
    int n = 0;
    GP_TRY(gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, threads, shm),
                         "fma_throughput: occupancy query"));
    *blocks_per_cu = n;
    return gp_ok();
}

extern "C" gp_status gp_fma_launch(gp_stream s, int type, unsigned blocks, int threads, size_t shm,
                                   int iters, float *out)
{
    hipStream_t st = (hipStream_t)s;
    switch (type) {
    case GP_FMA_F32:
        gp_fma_chain_kernel<float, GP_FMA_ACC><<<blocks, threads, shm, st>>>(out, iters, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
    case GP_FMA_F64:
        gp_fma_chain_kernel<double, GP_FMA_ACC_F64><<<blocks, threads, shm, st>>>(out, iters, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
#if defined(GP_FMA_HAVE_F16X2)
    case GP_FMA_F16X2:
        gp_fma_chain_kernel<__half2, GP_FMA_ACC><<<blocks, threads, shm, st>>>(out, iters, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
#endif
    default:
        return gp_fail(GP_ERR_USAGE, "fma_throughput: kernel type %d not compiled", type);
    }
    return gp_launch_status("fma_throughput chain kernel");
}

extern "C" gp_status gp_fma_loop_launch(gp_stream s, int shape, unsigned blocks, int threads, int n,
                                        float *out)
{
    hipStream_t st = (hipStream_t)s;
    switch (shape) {
    case GP_FMA_LOOP_PLAIN:
        gp_fma_loop_plain<<<blocks, threads, 0, st>>>(out, n, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
    case GP_FMA_LOOP_NOUNROLL:
        gp_fma_loop_nounroll<<<blocks, threads, 0, st>>>(out, n, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
    case GP_FMA_LOOP_UNROLL:
        gp_fma_loop_unroll<GP_FMA_LOOP_UNROLL_N><<<blocks, threads, 0, st>>>(out, n, GP_FMA_A, GP_FMA_B,
                                                                          GP_FMA_MAGIC);
        break;
    case GP_FMA_LOOP_DOUBLE:
        gp_fma_loop_double<<<blocks, threads, 0, st>>>(out, n, GP_FMA_A, GP_FMA_B, GP_FMA_MAGIC);
        break;
    default:
        return gp_fail(GP_ERR_USAGE, "fma_throughput: loop shape %d unknown", shape);
    }
    return gp_launch_status("fma_throughput loop kernel");
}
