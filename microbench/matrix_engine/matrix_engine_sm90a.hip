/* matrix_engine's warpgroup MMA (Hopper wgmma.mma_async), a translation unit
 * of its own: wgmma is arch-specific sm_90a code (PTX ISA, "Asynchronous
 * warpgroup level matrix multiply-accumulate"), which plain sm_90 code and
 * its compute_90 PTX cannot carry.  The build compiles this file for sm_90a
 * when it targets sm_90 (microbench/CMakeLists.txt); for every other target
 * the kernels are empty and the shape query reports none, so the host never
 * times them.
 *
 * One warpgroup (4 warps, 128 threads) issues m64n256k16 with f32
 * accumulate, A and B from shared memory through matrix descriptors (no
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
#define GP_WG_K 16
/* Up to 3 warpgroups a block: 65536 registers / 384 threads leaves each
 * the 128 accumulators and its addresses (a larger bound caps them at 64
 * and ptxas refuses the instruction). */
#define GP_WG_MAX_THREADS 384
/* A: 64 x 16 halves, B: 256 x 16 halves. */
#define GP_WG_A_BYTES (GP_WG_M * GP_WG_K * 2)
#define GP_WG_B_BYTES (GP_WG_N * GP_WG_K * 2)
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

#define GP_WG_D8(i)                                                                                        \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
        "+f"(d[i + 7])
#define GP_WG_D32(i) GP_WG_D8(i), GP_WG_D8(i + 8), GP_WG_D8(i + 16), GP_WG_D8(i + 24)
/* The 128 accumulator registers of one thread (64 x 256 f32 over 128). */
#define GP_WG_DREGS \
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15," \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31," \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63," \
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79," \
    "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95," \
    "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111," \
    "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"

/* One wgmma of types TYPES ("f16.f16" or "bf16.bf16") into d: scale-d 1
 * (accumulate), A and B scales 1, neither transposed. */
#define GP_WG_MMA(TYPES)                                                                                    \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                            \
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPES " {" GP_WG_DREGS "}, %128, %129, p, 1, 1, 0, 0;\n}" \
                 : GP_WG_D32(0), GP_WG_D32(32), GP_WG_D32(64), GP_WG_D32(96)                               \
                 : "l"(da), "l"(db), "r"(1))

/* OP: GP_MMA_WGMMA_FP16 or _BF16, a compile-time constant (the asm text). */
template <int OP>
__global__ void __launch_bounds__(GP_WG_MAX_THREADS) gp_mma_wgmma_kernel(float *out, int iters, unsigned bits, unsigned mask,
                                                            float magic)
{
#if defined(GP_WG)
    __shared__ __align__(128) unsigned smem[(GP_WG_A_BYTES + GP_WG_B_BYTES) / 4];
    for (int i = threadIdx.x; i < (GP_WG_A_BYTES + GP_WG_B_BYTES) / 4; i += blockDim.x)
        smem[i] = bits ^ (((unsigned)i * 0x9E3779B9u) & mask);
    __syncthreads();
    /* Written through the generic proxy, read by wgmma's async proxy. */
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    const unsigned long long da = gp_wg_desc(smem), db = gp_wg_desc(smem + GP_WG_A_BYTES / 4);
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; i++)
        d[i] = (float)(i & 7);
    for (int it = 0; it < iters; it++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int j = 0; j < GP_MMA_INNER; j++) {
            if (OP == GP_MMA_WGMMA_FP16)
                GP_WG_MMA("f16.f16");
            else
                GP_WG_MMA("bf16.bf16");
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < 128; i++)
        s += d[i];
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
    for (int op = GP_MMA_WGMMA_FP16; op <= GP_MMA_WGMMA_BF16; op++) {
        int *o = s + 4 * (op - GP_MMA_WGMMA_FP16);
        o[0] = GP_WG_M, o[1] = GP_WG_N, o[2] = GP_WG_K, o[3] = 128;
    }
#else
    (void)s;
#endif
}

typedef void (*gp_wg_fn)(float *, int, unsigned, unsigned, float);

static gp_wg_fn gp_wg_kernel(int op)
{
    if (op == GP_MMA_WGMMA_FP16)
        return gp_mma_wgmma_kernel<GP_MMA_WGMMA_FP16>;
    if (op == GP_MMA_WGMMA_BF16)
        return gp_mma_wgmma_kernel<GP_MMA_WGMMA_BF16>;
    return NULL;
}

extern "C" void gp_mma_wgmma_shapes(gp_mma_shape *shapes)
{
    int host[8] = {0}, *dev = NULL;
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
    for (int i = 0; i < 2; i++) {
        gp_mma_shape *o = &shapes[GP_MMA_WGMMA_FP16 + i];
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
