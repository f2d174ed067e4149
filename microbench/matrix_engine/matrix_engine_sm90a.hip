/* matrix_engine's warpgroup MMA (Hopper wgmma.mma_async), a translation unit
 * of its own: wgmma is arch-specific sm_90a code (PTX ISA, "Asynchronous
 * warpgroup level matrix multiply-accumulate"), which plain sm_90 code and
 * its compute_90 PTX cannot carry.  The build compiles this file for sm_90a
 * when it targets sm_90 (microbench/CMakeLists.txt); for every other target
 * the kernels are empty and the shape query reports none, so the host never
 * times them.
 *
 * One warpgroup (4 warps, 128 threads) issues m64n256kK: f16 and bf16
 * (k16), tf32 (k8) and e4m3 (k32) with f32 accumulate, s8 (k32) with s32
 * accumulate; A and B from shared memory through matrix descriptors (no
 * swizzle, K-major core matrices of 8 rows x 16 bytes), GP_MMA_INNER
 * instructions chained into its one accumulator per loop trip (the hardware
 * pipelines same-accumulator wgmmas, as a GEMM's K loop does), then one
 * commit and wait.  Several warpgroups per SM hide that wait.  The operand
 * values do not matter to the rate; they are not zero, so the multipliers
 * toggle as in a real GEMM. */
#include "gp_device.h"
#include "runtime.h"
#include "matrix_engine.h"

#if defined(GP_VENDOR_NVIDIA)
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GP_WG 1
#endif

#define GP_WG_M 64
#define GP_WG_N 256
/* Up to 3 warpgroups a block: 65536 registers / 384 threads leaves each
 * the 128 accumulators and its addresses (a larger bound caps them at 64
 * and ptxas refuses the instruction). */
#define GP_WG_MAX_THREADS 384
/* Every op's K spans 32 bytes of a row: 16 f16 / bf16, 8 tf32 (32-bit
 * elements), 32 s8 / e4m3.  The PTX ISA ("Shared Memory Matrix Layout")
 * builds A and B of core matrices of 8 rows x 16 bytes whatever the type (a
 * row: 8 16-bit, 4 tf32 or 16 8-bit elements), A of 8 x 2 of them and B of
 * 2 x (N / 8) for each of these shapes (m64nNk16, m64nNk8 and m64nNk32), so
 * one byte layout and one pair of descriptors serve all five ops.  A: 64
 * rows, B: 256 rows, of 32 bytes. */
#define GP_WG_ROW_BYTES 32
#define GP_WG_A_BYTES (GP_WG_M * GP_WG_ROW_BYTES)
#define GP_WG_B_BYTES (GP_WG_N * GP_WG_ROW_BYTES)
/* Core matrices: 8 rows x 16 B = 128 B each, the two along K side by side
 * (leading byte offset 128), the next 8 rows 256 B on (stride byte offset). */
#define GP_WG_LBO 128
#define GP_WG_SBO 256

#if defined(GP_WG)
/* The matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start
 * address, leading and stride byte offsets, each >> 4; base offset 0 and
 * swizzle mode 0 (none). */
static __device__ __forceinline__ unsigned long long gp_wg_desc(const void *smem)
{
    unsigned long long a = (unsigned long long)__cvta_generic_to_shared(smem);
    return ((a & 0x3FFFFull) >> 4) | ((unsigned long long)(GP_WG_LBO >> 4) << 16) |
           ((unsigned long long)(GP_WG_SBO >> 4) << 32);
}
#endif

/* One accumulator register operand: C the constraint, "+f" (f32) or "+r"
 * (s32). */
#define GP_WG_D8(C, i) \
    C(d[i]), C(d[i + 1]), C(d[i + 2]), C(d[i + 3]), C(d[i + 4]), C(d[i + 5]), C(d[i + 6]), C(d[i + 7])
#define GP_WG_D32(C, i) GP_WG_D8(C, i), GP_WG_D8(C, i + 8), GP_WG_D8(C, i + 16), GP_WG_D8(C, i + 24)
/* The 128 accumulator registers of one thread (64 x 256 32-bit over 128). */
#define GP_WG_DREGS \
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15," \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31," \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63," \
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79," \
    "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95," \
    "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111," \
    "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"

/* One wgmma into d: INST the instruction with its shape and types, C the
 * accumulator constraint, TAIL the immediates after scale-d.  scale-d is 1
 * (accumulate) through a predicate set from a register, as the PTX ISA
 * takes it.  Nothing outside sm_90a code, which alone may hold wgmma. */
#if defined(GP_WG)
#define GP_WG_MMA(INST, C, TAIL)                                                                            \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                            \
                 "wgmma.mma_async.sync.aligned." INST " {" GP_WG_DREGS "}, %128, %129, p" TAIL ";\n}"       \
                 : GP_WG_D32(C, 0), GP_WG_D32(C, 32), GP_WG_D32(C, 64), GP_WG_D32(C, 96)                   \
                 : "l"(da), "l"(db), "r"(1))
#else
#define GP_WG_MMA(INST, C, TAIL) ((void)d, (void)da, (void)db)
#endif

/* Each op: its accumulator type T, its K (the query reports it) and one
 * instruction (PTX ISA, "wgmma.mma_async").  The operand lists differ by
 * type: f16 and bf16 take imm-scale-a, imm-scale-b (1: not negated) and
 * imm-trans-a, imm-trans-b (0: K-major); tf32 and e4m3 take the scales but
 * no transpose (K-major only); s8 takes neither. */
template <int OP>
struct gp_wg_op;
template <>
struct gp_wg_op<GP_MMA_WGMMA_FP16> {
    typedef float T;
    enum { K = 16 };
    static __device__ __forceinline__ void mma(T *d, unsigned long long da, unsigned long long db)
    {
        GP_WG_MMA("m64n256k16.f32.f16.f16", "+f", ", 1, 1, 0, 0");
    }
};
template <>
struct gp_wg_op<GP_MMA_WGMMA_BF16> {
    typedef float T;
    enum { K = 16 };
    static __device__ __forceinline__ void mma(T *d, unsigned long long da, unsigned long long db)
    {
        GP_WG_MMA("m64n256k16.f32.bf16.bf16", "+f", ", 1, 1, 0, 0");
    }
};
template <>
struct gp_wg_op<GP_MMA_WGMMA_TF32> {
    typedef float T;
    enum { K = 8 };
    static __device__ __forceinline__ void mma(T *d, unsigned long long da, unsigned long long db)
    {
        GP_WG_MMA("m64n256k8.f32.tf32.tf32", "+f", ", 1, 1");
    }
};
template <>
struct gp_wg_op<GP_MMA_WGMMA_INT8> {
    typedef int T;
    enum { K = 32 };
    static __device__ __forceinline__ void mma(T *d, unsigned long long da, unsigned long long db)
    {
        GP_WG_MMA("m64n256k32.s32.s8.s8", "+r", "");
    }
};
template <>
struct gp_wg_op<GP_MMA_WGMMA_FP8> {
    typedef float T;
    enum { K = 32 };
    static __device__ __forceinline__ void mma(T *d, unsigned long long da, unsigned long long db)
    {
        GP_WG_MMA("m64n256k32.f32.e4m3.e4m3", "+f", ", 1, 1");
    }
};

/* OP: one of the GP_MMA_WGMMA_* ops, a compile-time constant (the asm
 * text and the accumulator type). */
template <int OP>
__global__ void __launch_bounds__(GP_WG_MAX_THREADS) gp_mma_wgmma_kernel(float *out, int iters, unsigned bits, unsigned mask,
                                                            float magic)
{
#if defined(GP_WG)
    typedef typename gp_wg_op<OP>::T T;
    __shared__ __align__(128) unsigned smem[(GP_WG_A_BYTES + GP_WG_B_BYTES) / 4];
    for (int i = threadIdx.x; i < (GP_WG_A_BYTES + GP_WG_B_BYTES) / 4; i += blockDim.x)
        smem[i] = bits ^ (((unsigned)i * 0x9E3779B9u) & mask);
    __syncthreads();
    /* Written through the generic proxy, read by wgmma's async proxy. */
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    const unsigned long long da = gp_wg_desc(smem), db = gp_wg_desc(smem + GP_WG_A_BYTES / 4);
    T d[128];
#pragma unroll
    for (int i = 0; i < 128; i++)
        d[i] = (T)(i & 7);
    for (int it = 0; it < iters; it++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int j = 0; j < GP_MMA_INNER; j++)
            gp_wg_op<OP>::mma(d, da, db);
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
    /* s32 sums wrap over a long run (no .satfinite): harmless, the sum is
     * only compared with magic so that the accumulators stay live. */
    float s = 0;
#pragma unroll
    for (int i = 0; i < 128; i++)
        s += (float)d[i];
    if (s == magic)
        out[0] = s;
#else
    (void)out, (void)iters, (void)bits, (void)mask, (void)magic;
#endif
}

/* Writes the WGMMA shapes only where this is sm_90a code. */
__global__ void gp_mma_wgmma_query_kernel(int *s)
{
#if defined(GP_WG)
    const int k[GP_MMA_NWGMMA] = {gp_wg_op<GP_MMA_WGMMA_FP16>::K, gp_wg_op<GP_MMA_WGMMA_BF16>::K,
                                  gp_wg_op<GP_MMA_WGMMA_TF32>::K, gp_wg_op<GP_MMA_WGMMA_INT8>::K,
                                  gp_wg_op<GP_MMA_WGMMA_FP8>::K};
    for (int i = 0; i < GP_MMA_NWGMMA; i++) {
        int *o = s + 4 * i;
        o[0] = GP_WG_M, o[1] = GP_WG_N, o[2] = k[i], o[3] = 128;
    }
#else
    (void)s;
#endif
}

typedef void (*gp_wg_fn)(float *, int, unsigned, unsigned, float);

static gp_wg_fn gp_wg_kernel(int op)
{
    switch (op) {
    case GP_MMA_WGMMA_FP16: return gp_mma_wgmma_kernel<GP_MMA_WGMMA_FP16>;
    case GP_MMA_WGMMA_BF16: return gp_mma_wgmma_kernel<GP_MMA_WGMMA_BF16>;
    case GP_MMA_WGMMA_TF32: return gp_mma_wgmma_kernel<GP_MMA_WGMMA_TF32>;
    case GP_MMA_WGMMA_INT8: return gp_mma_wgmma_kernel<GP_MMA_WGMMA_INT8>;
    case GP_MMA_WGMMA_FP8: return gp_mma_wgmma_kernel<GP_MMA_WGMMA_FP8>;
    default: return NULL;
    }
}

extern "C" void gp_mma_wgmma_shapes(gp_mma_shape *shapes)
{
    int host[4 * GP_MMA_NWGMMA] = {0}, *dev = NULL;
    if (gp_rt_malloc((void **)&dev, sizeof host).code != GP_OK)
        return;
    /* A device this object has no code for (an sm_80 GPU under an sm_80 and
     * sm_90 build) fails the launch: no image, shapes stay 0.  That error is
     * not sticky; reading it clears it for the next launch. */
    if (hipMemset(dev, 0, sizeof host) == hipSuccess) {
        gp_mma_wgmma_query_kernel<<<1, 1>>>(dev);
        if (hipGetLastError() != hipSuccess || hipMemcpy(host, dev, sizeof host, hipMemcpyDeviceToHost) != hipSuccess)
            memset(host, 0, sizeof host);
    }
    gp_rt_free(dev);
    for (int i = 0; i < GP_MMA_NWGMMA; i++) {
        gp_mma_shape *o = &shapes[GP_MMA_WGMMA_FIRST + i];
        o->m = host[4 * i], o->n = host[4 * i + 1], o->k = host[4 * i + 2], o->group = host[4 * i + 3];
    }
}

extern "C" gp_status gp_mma_wgmma_blocks_per_cu(int op, int threads, int *blocks)
{
    gp_wg_fn k = gp_wg_kernel(op);
    *blocks = 0;
    if (!k)
        return gp_fail(GP_ERR_USAGE, "matrix_engine: op %d is not a warpgroup MMA", op);
    return gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)k, threads, 0),
                         "matrix_engine: wgmma occupancy query");
}

extern "C" gp_status gp_mma_wgmma_launch(gp_stream s, int op, unsigned blocks, int threads, int iters,
                                         unsigned bits, unsigned mask, float *out)
{
    gp_wg_fn k = gp_wg_kernel(op);
    if (!k || threads % 128)
        return gp_fail(GP_ERR_USAGE, "matrix_engine: wgmma op %d with %d threads (a multiple of 128)", op, threads);
    k<<<blocks, threads, 0, (hipStream_t)s>>>(out, iters, bits, mask, -12345.678f);
    return gp_launch_status("matrix_engine wgmma kernel");
}

#else /* AMD: no warpgroup MMA; the shapes stay 0 and nothing launches. */
extern "C" void gp_mma_wgmma_shapes(gp_mma_shape *shapes)
{
    (void)shapes;
}

extern "C" gp_status gp_mma_wgmma_blocks_per_cu(int op, int threads, int *blocks)
{
    (void)op, (void)threads;
    *blocks = 0;
    return gp_fail(GP_ERR_USAGE, "matrix_engine: no warpgroup MMA on this vendor");
}

extern "C" gp_status gp_mma_wgmma_launch(gp_stream s, int op, unsigned blocks, int threads, int iters,
                                         unsigned bits, unsigned mask, float *out)
{
    (void)s, (void)op, (void)blocks, (void)threads, (void)iters, (void)bits, (void)mask, (void)out;
    return gp_fail(GP_ERR_USAGE, "matrix_engine: no warpgroup MMA on this vendor");
}
#endif
