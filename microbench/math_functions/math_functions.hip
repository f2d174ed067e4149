/* math_functions kernels ([Vega-HIP] §2.11): latency and throughput of
 * sin, cos, exp, log, sqrt, rsqrt and division in fp32 (library call), fp32
 * fast intrinsics and fp64.
 *
 * Every kernel runs the chain x = f(x) * c + d (f(x) = k / x for division)
 * with x0, c, d, k kernel arguments, so nothing folds; the identity op
 * (f(x) = x) is the same loop without the function, the baseline that the
 * host subtracts.  Ops are template constants (one switch, resolved at
 * compile time) so each variant is its own straight-line loop. */
#include "gp_device.h"
#include "runtime.h"
#include "math_functions_analysis.h"

/* Steps per loop trip in the latency kernel: amortizes the loop branch. */
#define LAT_UNROLL 8
/* Independent chains per thread in the throughput kernel: hides latency. */
#define TP_CHAINS 8
#define TP_BLOCK 256

/* Approximate (fast) sqrt: NVIDIA's MUFU sqrt (what -use_fast_math emits for
 * sqrtf); AMD's native v_sqrt_f32 through the device library. */
static __device__ __forceinline__ float fast_sqrtf(float x)
{
#if defined(GP_VENDOR_NVIDIA)
    float r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return __ocml_native_sqrt_f32(x);
#endif
}

/* Approximate (fast) k / x: __fdividef on NVIDIA (MUFU reciprocal and a
 * multiply); on AMD HIP's __fdividef is the exact division, so the native
 * reciprocal is used directly. */
static __device__ __forceinline__ float fast_divf(float k, float x)
{
#if defined(GP_VENDOR_NVIDIA)
    return __fdividef(k, x);
#else
    return k * __builtin_amdgcn_rcpf(x);
#endif
}

template <int OP, int FAST>
static __device__ __forceinline__ float mf32(float x, float k)
{
    switch (OP) {
    case GP_MF_SIN: return FAST ? __sinf(x) : sinf(x);
    case GP_MF_COS: return FAST ? __cosf(x) : cosf(x);
    case GP_MF_EXP: return FAST ? __expf(x) : expf(x);
    case GP_MF_LOG: return FAST ? __logf(x) : logf(x);
    case GP_MF_SQRT: return FAST ? fast_sqrtf(x) : sqrtf(x);
    /* rsqrtf is the hardware approximation on both vendors; the precise
     * variant is the correctly rounded sqrt followed by a correctly rounded
     * division. */
    case GP_MF_RSQRT: return FAST ? rsqrtf(x) : 1.0f / sqrtf(x);
    case GP_MF_DIV: return FAST ? fast_divf(k, x) : k / x;
    default: return x;
    }
}

template <int OP>
static __device__ __forceinline__ double mf64(double x, double k)
{
    switch (OP) {
    case GP_MF_SIN: return sin(x);
    case GP_MF_COS: return cos(x);
    case GP_MF_EXP: return exp(x);
    case GP_MF_LOG: return log(x);
    case GP_MF_SQRT: return sqrt(x);
    case GP_MF_RSQRT: return rsqrt(x);
    case GP_MF_DIV: return k / x;
    default: return x;
    }
}

/* Latency: one thread, one dependent chain of trips * LAT_UNROLL steps,
 * timed in-kernel.  The conditional store comes before the second clock read
 * so the chain's last result exists before the clock is read. */
template <int OP, int FAST>
__global__ void gp_mf_lat32(float x0, float c, float d, float k, int trips, float magic, float *out,
                            long long *cycles)
{
    float x = x0;
    gp_cycle_span span;
    GP_CYCLE_START(span);
    for (int i = 0; i < trips; i++) {
#pragma unroll
        for (int u = 0; u < LAT_UNROLL; u++)
            x = fmaf(mf32<OP, FAST>(x, k), c, d);
        GP_CYCLE_LAP(span); /* gfx11's 20-bit counter: a lap per trip */
    }
    if (x == magic)
        out[0] = x;
    cycles[0] = GP_CYCLE_END(span);
}

template <int OP>
__global__ void gp_mf_lat64(double x0, double c, double d, double k, int trips, double magic,
                            double *out, long long *cycles)
{
    double x = x0;
    gp_cycle_span span;
    GP_CYCLE_START(span);
    for (int i = 0; i < trips; i++) {
#pragma unroll
        for (int u = 0; u < LAT_UNROLL; u++)
            x = fma(mf64<OP>(x, k), c, d);
        GP_CYCLE_LAP(span); /* gfx11's 20-bit counter: a lap per trip */
    }
    if (x == magic)
        out[0] = x;
    cycles[0] = GP_CYCLE_END(span);
}

/* Throughput: every thread runs TP_CHAINS independent chains; starts differ
 * slightly per chain and thread so no two chains are provably equal. */
template <int OP, int FAST>
__global__ void GP_LAUNCH_BOUNDS(TP_BLOCK)
gp_mf_tput32(float x0, float c, float d, float k, int trips, float magic, float *out)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float x[TP_CHAINS];
#pragma unroll
    for (int j = 0; j < TP_CHAINS; j++)
        x[j] = x0 + 1e-3f * (float)j + 1e-7f * (float)(gid & 1023);
    for (int i = 0; i < trips; i++) {
#pragma unroll
        for (int j = 0; j < TP_CHAINS; j++)
            x[j] = fmaf(mf32<OP, FAST>(x[j], k), c, d);
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < TP_CHAINS; j++)
        s += x[j];
    if (s == magic)
        out[gid] = s;
}

template <int OP>
__global__ void GP_LAUNCH_BOUNDS(TP_BLOCK)
gp_mf_tput64(double x0, double c, double d, double k, int trips, double magic, double *out)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    double x[TP_CHAINS];
#pragma unroll
    for (int j = 0; j < TP_CHAINS; j++)
        x[j] = x0 + 1e-3 * (double)j + 1e-7 * (double)(gid & 1023);
    for (int i = 0; i < trips; i++) {
#pragma unroll
        for (int j = 0; j < TP_CHAINS; j++)
            x[j] = fma(mf64<OP>(x[j], k), c, d);
    }
    double s = 0.0;
#pragma unroll
    for (int j = 0; j < TP_CHAINS; j++)
        s += x[j];
    if (s == magic)
        out[gid] = s;
}

extern "C" int gp_math_lat_unroll(void)
{
    return LAT_UNROLL;
}

extern "C" int gp_math_tput_chains(void)
{
    return TP_CHAINS;
}

extern "C" int gp_math_tput_block(void)
{
    return TP_BLOCK;
}

#define MF_ALL_OPS(M) M(GP_MF_SIN) M(GP_MF_COS) M(GP_MF_EXP) M(GP_MF_LOG) M(GP_MF_SQRT) \
    M(GP_MF_RSQRT) M(GP_MF_DIV) M(GP_MF_IDENTITY)

/* `out` holds at least one double; `cycles` one long long (device memory). */
extern "C" gp_status gp_math_latency_launch(gp_stream s, int op, int prec, int trips, double x0,
                                            double c, double d, double k, void *out,
                                            long long *cycles)
{
    hipStream_t st = (hipStream_t)s;
    if (op < 0 || op >= GP_MF_NOPS || prec < 0 || prec >= GP_MF_NPRECS)
        return gp_fail(GP_ERR_USAGE, "math_functions: op %d / precision %d out of range", op, prec);
    switch (op) {
#define MF_LAT_CASE(OP)                                                                             \
    case OP:                                                                                        \
        if (prec == GP_MF_F64)                                                                      \
            gp_mf_lat64<OP><<<1, 1, 0, st>>>(x0, c, d, k, trips, -1.0e30, (double *)out, cycles);   \
        else if (prec == GP_MF_F32FAST)                                                             \
            gp_mf_lat32<OP, 1><<<1, 1, 0, st>>>((float)x0, (float)c, (float)d, (float)k, trips,     \
                                                 -1.0e30f, (float *)out, cycles);                   \
        else                                                                                        \
            gp_mf_lat32<OP, 0><<<1, 1, 0, st>>>((float)x0, (float)c, (float)d, (float)k, trips,     \
                                                 -1.0e30f, (float *)out, cycles);                   \
        break;
        MF_ALL_OPS(MF_LAT_CASE)
#undef MF_LAT_CASE
    }
    return gp_launch_status("math_functions latency kernel");
}

/* `out` holds grid * block doubles (device memory). */
extern "C" gp_status gp_math_throughput_launch(gp_stream s, int op, int prec, unsigned grid, int trips,
                                               double x0, double c, double d, double k, void *out)
{
    hipStream_t st = (hipStream_t)s;
    if (op < 0 || op >= GP_MF_NOPS || prec < 0 || prec >= GP_MF_NPRECS)
        return gp_fail(GP_ERR_USAGE, "math_functions: op %d / precision %d out of range", op, prec);
    switch (op) {
#define MF_TP_CASE(OP)                                                                              \
    case OP:                                                                                        \
        if (prec == GP_MF_F64)                                                                      \
            gp_mf_tput64<OP><<<grid, TP_BLOCK, 0, st>>>(x0, c, d, k, trips, -1.0e30, (double *)out); \
        else if (prec == GP_MF_F32FAST)                                                             \
            gp_mf_tput32<OP, 1><<<grid, TP_BLOCK, 0, st>>>((float)x0, (float)c, (float)d, (float)k, \
                                                            trips, -1.0e30f, (float *)out);         \
        else                                                                                        \
            gp_mf_tput32<OP, 0><<<grid, TP_BLOCK, 0, st>>>((float)x0, (float)c, (float)d, (float)k, \
                                                            trips, -1.0e30f, (float *)out);         \
        break;
        MF_ALL_OPS(MF_TP_CASE)
#undef MF_TP_CASE
    }
    return gp_launch_status("math_functions throughput kernel");
}

/* Resident TP_BLOCK-thread blocks per CU of one throughput kernel, so the grid
 * fills the chip in exactly one round. */
extern "C" gp_status gp_math_tput_blocks_per_cu(int op, int prec, int *blocks)
{
    hipError_t e = hipSuccess;
    *blocks = 0;
    if (op < 0 || op >= GP_MF_NOPS || prec < 0 || prec >= GP_MF_NPRECS)
        return gp_fail(GP_ERR_USAGE, "math_functions: op %d / precision %d out of range", op, prec);
    switch (op) {
#define MF_OCC_CASE(OP)                                                                              \
    case OP:                                                                                         \
        if (prec == GP_MF_F64)                                                                       \
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_mf_tput64<OP>, TP_BLOCK, 0); \
        else if (prec == GP_MF_F32FAST)                                                              \
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_mf_tput32<OP, 1>, TP_BLOCK, 0); \
        else                                                                                         \
            e = hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_mf_tput32<OP, 0>, TP_BLOCK, 0); \
        break;
        MF_ALL_OPS(MF_OCC_CASE)
#undef MF_OCC_CASE
    }
    return gp_hip_status(e, "math_functions occupancy");
}
