/* matrix_engine kernels: loops of matrix multiply-accumulate instructions.
 *
 * Each wave keeps GP_MMA_ACC independent accumulator tiles and issues
 * GP_MMA_INNER instructions into each per loop trip, round-robin over the
 * tiles, so a few waves per SIMD / SM sub-partition keep the matrix pipe
 * full; the latency kernel (chain 1) keeps one tile, so each instruction
 * waits for the one before.  Operands stay in registers, loaded once from
 * kernel arguments (values differ per lane, so the multipliers toggle as in
 * a real GEMM); the tiles are summed and stored only when the sum equals a
 * run-time `magic` it never reaches, so nothing is deleted.
 *
 * Instructions, per target:
 *   NVIDIA sm_80+: mma.sync.aligned m16n8k16 f16 and bf16, m16n8k8 tf32,
 *     m16n8k32 s8 (PTX ISA, "Warp-level matrix multiply-accumulate");
 *     sm_89+: m16n8k32 e4m3 (the PTX ISA requires sm_89 for .e4m3 mma).
 *     Hopper's warpgroup wgmma is in matrix_engine_sm90a.hip (sm_90a code).
 *   AMD gfx90a (CDNA2): v_mfma_f32_32x32x8f16, _32x32x8bf16_1k,
 *     _32x32x2f32, v_mfma_i32_32x32x8i8; gfx94x (CDNA3): the same f16, bf16
 *     and f32 shapes, v_mfma_i32_32x32x16_i8, _f32_32x32x4_xf32 and
 *     _f32_32x32x16_fp8_fp8 (AMD CDNA2 / CDNA3 ISA guides).
 *   AMD gfx11 (RDNA3): v_wmma_f32_16x16x16_f16 / _bf16 and
 *     v_wmma_i32_16x16x16_iu8, wave32.
 *   Other targets (gfx900, gfx1030): no matrix unit; the kernels are empty
 *     and the query reports shape 0, which the host records as `none`. */
#include "gp_device.h"
#include "runtime.h"
#include "matrix_engine.h"

/* Operand bits: one value in every element (1.0 in f16, bf16, tf32 and
 * e4m3; 1 in s8) with lane-dependent low mantissa bits flipped (the mask),
 * so the products stay in [1, 4) and the f32 sums finite over any run. */
typedef struct gp_mma_bits {
    unsigned v, mask;
} gp_mma_bits;

/* Sized by its initializers, not GP_MMA_NOPS: an op added to the enum and
 * not here fails the static_assert below instead of running with zero
 * operands. */
static const gp_mma_bits gp_mma_operand[] = {
    {0x3C003C00u, 0x00FF00FFu}, /* f16 1.0 pairs */
    {0x3F803F80u, 0x007F007Fu}, /* bf16 1.0 pairs */
    {0x3F800000u, 0x007FE000u}, /* tf32 1.0: the 10 mantissa bits tf32 keeps */
    {0x3F800000u, 0x007FFFFFu}, /* fp32 1.0 */
    {0x01010101u, 0x03030303u}, /* s8: 1..3 */
    {0x38383838u, 0x07070707u}, /* e4m3 1.0 quads */
    {0x3C003C00u, 0x00FF00FFu}, /* wgmma f16 (matrix_engine_sm90a.hip) */
    {0x3F803F80u, 0x007F007Fu}, /* wgmma bf16 */
    {0x3F800000u, 0x007FE000u}, /* wgmma tf32 */
    {0x01010101u, 0x03030303u}, /* wgmma s8 */
    {0x38383838u, 0x07070707u}, /* wgmma e4m3 */
};
static_assert(sizeof gp_mma_operand / sizeof gp_mma_operand[0] == GP_MMA_NOPS, "one operand entry per op");

/* Every kernel's signature: out, loop trips, operand bits and mask, magic. */
typedef void (*gp_mma_fn)(float *, int, unsigned, unsigned, float);

/* Never equal to a sum of positive products: the store stays conditional. */
#define GP_MMA_MAGIC -12345.678f

static __device__ __forceinline__ unsigned gp_mma_lane_bits(unsigned v, unsigned mask, int i)
{
    return v ^ (((threadIdx.x + 1u) * 0x9E3779B9u + (unsigned)i * 0x85EBCA6Bu) & mask);
}

/* ---- NVIDIA: mma.sync, one warp per instruction. */
#if defined(GP_VENDOR_NVIDIA)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GP_MMA_NV 1
#endif
/* e4m3 mma.sync: not on sm_90.  Hopper has no fp8 mma.sync in hardware;
 * ptxas lowers it to F2FP conversions and f16 HMMA (the chain kernel's SASS
 * on an H200: 24 F2FP.F16.E4M3.UNPACK and 4 HMMA.16816.F32 for its 8
 * instructions a trip), so counting it as fp8 work read 1843 "TFLOPS", 2.8x
 * the f16 rate.  Hopper's fp8 rate is wgmma's. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890 && __CUDA_ARCH__ != 900
#define GP_MMA_NV_FP8 1
#endif

/* One mma.sync into c of op's shape (op a compile-time constant after
 * inlining: the other cases vanish).  A: 4 registers, B: 2, C/D: 4. */
static __device__ __forceinline__ void gp_mma_nv_step(int op, float *c, const unsigned *a, const unsigned *b)
{
#if defined(GP_MMA_NV)
#define GP_MMA_NV_ASM(shape_types)                                                                         \
    asm volatile("mma.sync.aligned." shape_types " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                          \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
    switch (op) {
    case GP_MMA_FP16: GP_MMA_NV_ASM("m16n8k16.row.col.f32.f16.f16.f32"); break;
    case GP_MMA_BF16: GP_MMA_NV_ASM("m16n8k16.row.col.f32.bf16.bf16.f32"); break;
    case GP_MMA_TF32: GP_MMA_NV_ASM("m16n8k8.row.col.f32.tf32.tf32.f32"); break;
#if defined(GP_MMA_NV_FP8)
    case GP_MMA_FP8: GP_MMA_NV_ASM("m16n8k32.row.col.f32.e4m3.e4m3.f32"); break;
#endif
    default: break;
    }
#undef GP_MMA_NV_ASM
#else
    (void)op, (void)c, (void)a, (void)b;
#endif
}

static __device__ __forceinline__ void gp_mma_nv_step(int op, int *c, const unsigned *a, const unsigned *b)
{
#if defined(GP_MMA_NV)
    if (op == GP_MMA_INT8)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)op, (void)c, (void)a, (void)b;
#endif
}

/* OP, ACC and the accumulator type T are compile-time constants: the
 * unrolled loop needs them (hence the template). */
template <int OP, int ACC, typename T>
__global__ void gp_mma_nv_kernel(float *out, int iters, unsigned bits, unsigned mask, float magic)
{
    unsigned a[4], b[2];
#pragma unroll
    for (int i = 0; i < 4; i++)
        a[i] = gp_mma_lane_bits(bits, mask, i);
#pragma unroll
    for (int i = 0; i < 2; i++)
        b[i] = gp_mma_lane_bits(bits, mask, 4 + i);
    T c[ACC][4];
#pragma unroll
    for (int k = 0; k < ACC; k++)
#pragma unroll
        for (int i = 0; i < 4; i++)
            c[k][i] = (T)(k + i);
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int j = 0; j < GP_MMA_INNER; j++)
#pragma unroll
            for (int k = 0; k < ACC; k++)
                gp_mma_nv_step(OP, c[k], a, b);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < ACC; k++)
#pragma unroll
        for (int i = 0; i < 4; i++)
            s += (float)c[k][i];
    if (s == magic)
        out[0] = s;
}

#define GP_MMA_NV_CASE(op, T)                                                                               \
    case op:                                                                                               \
        if (chain)                                                                                         \
            return gp_mma_nv_kernel<op, 1, T>;                                               \
        return gp_mma_nv_kernel<op, GP_MMA_ACC, T>;

static gp_mma_fn gp_mma_kernel(int op, int chain)
{
    switch (op) {
        GP_MMA_NV_CASE(GP_MMA_FP16, float)
        GP_MMA_NV_CASE(GP_MMA_BF16, float)
        GP_MMA_NV_CASE(GP_MMA_TF32, float)
        GP_MMA_NV_CASE(GP_MMA_INT8, int)
        GP_MMA_NV_CASE(GP_MMA_FP8, float)
    default: return NULL;
    }
}

/* The shapes of this device's target (device pass: __CUDA_ARCH__). */
static __device__ void gp_mma_shapes_here(int *s)
{
#if defined(GP_MMA_NV)
    const int shapes[][3] = {{GP_MMA_FP16, 16, 16}, {GP_MMA_BF16, 16, 16}, {GP_MMA_TF32, 16, 8}, {GP_MMA_INT8, 16, 32}};
    for (int i = 0; i < 4; i++) {
        int *o = s + 4 * shapes[i][0];
        o[0] = shapes[i][1], o[1] = 8, o[2] = shapes[i][2], o[3] = 32;
    }
#endif
#if defined(GP_MMA_NV_FP8)
    int *o = s + 4 * GP_MMA_FP8;
    o[0] = 16, o[1] = 8, o[2] = 32, o[3] = 32;
#endif
    (void)s;
}

/* ---- AMD: MFMA (CDNA2/3, wave64) and WMMA (RDNA3, wave32). */
#elif defined(GP_VENDOR_AMD)
#if defined(__gfx90a__)
#define GP_MMA_CDNA2 1
#endif
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define GP_MMA_CDNA3 1
#endif
#if defined(__GFX11__)
#define GP_MMA_RDNA3 1
#endif

typedef float gp_f32x16 __attribute__((ext_vector_type(16)));
typedef int gp_i32x16 __attribute__((ext_vector_type(16)));
typedef float gp_f32x8 __attribute__((ext_vector_type(8)));
typedef int gp_i32x8 __attribute__((ext_vector_type(8)));
typedef float gp_f32x2 __attribute__((ext_vector_type(2)));
typedef int gp_i32x4 __attribute__((ext_vector_type(4)));
typedef _Float16 gp_f16x4 __attribute__((ext_vector_type(4)));
typedef short gp_i16x4 __attribute__((ext_vector_type(4)));
typedef _Float16 gp_f16x16 __attribute__((ext_vector_type(16)));
typedef short gp_i16x16 __attribute__((ext_vector_type(16)));

/* Operand of type AT from the lane's bits: a union reads them as AT. */
#define GP_MMA_AMD_OPERAND(AT, var, bits, mask)                                                              \
    AT var;                                                                                                 \
    {                                                                                                       \
        union {                                                                                             \
            AT v;                                                                                           \
            unsigned u[(sizeof(AT) + 3) / 4];                                                               \
        } o_;                                                                                               \
        _Pragma("unroll") for (int i_ = 0; i_ < (int)((sizeof(AT) + 3) / 4); i_++)                          \
            o_.u[i_] = gp_mma_lane_bits(bits, mask, i_);                                                    \
        var = o_.v;                                                                                         \
    }

/* One kernel per op: CT the accumulator tile, AT the A/B operand, STEP the
 * builtin call c = STEP(a, c).  ACC: the tile count (compile-time, for the
 * unrolled loop).  On a target without the op, the same kernel, empty. */
#define GP_MMA_AMD_KERNEL(NAME, CT, AT, STEP)                                                                \
    template <int ACC>                                                                                      \
    __global__ void NAME(float *out, int iters, unsigned bits, unsigned mask, float magic)                  \
    {                                                                                                       \
        GP_MMA_AMD_OPERAND(AT, a, bits, mask)                                                               \
        CT c[ACC];                                                                                          \
        _Pragma("unroll") for (int k = 0; k < ACC; k++)                                                   \
            _Pragma("unroll") for (int i = 0; i < (int)(sizeof(CT) / 4); i++) c[k][i] = k + i;                                                                              \
        for (int it = 0; it < iters; it++) {                                                                \
            _Pragma("unroll") for (int j = 0; j < GP_MMA_INNER; j++)                                        \
                _Pragma("unroll") for (int k = 0; k < ACC; k++) c[k] = STEP;                                \
        }                                                                                                   \
        float s = 0;                                                                                        \
        _Pragma("unroll") for (int k = 0; k < ACC; k++)                                                   \
            _Pragma("unroll") for (int i = 0; i < (int)(sizeof(CT) / 4); i++) s += (float)c[k][i];                                                                            \
        if (s == magic)                                                                                     \
            out[0] = s;                                                                                     \
    }
#define GP_MMA_AMD_EMPTY(NAME)                                                                               \
    template <int ACC>                                                                                      \
    __global__ void NAME(float *out, int iters, unsigned bits, unsigned mask, float magic)                  \
    {                                                                                                       \
        (void)out, (void)iters, (void)bits, (void)mask, (void)magic;                                        \
    }

#if defined(GP_MMA_CDNA2) || defined(GP_MMA_CDNA3)
GP_MMA_AMD_KERNEL(gp_mma_amd_fp16, gp_f32x16, gp_f16x4, __builtin_amdgcn_mfma_f32_32x32x8f16(a, a, c[k], 0, 0, 0))
GP_MMA_AMD_KERNEL(gp_mma_amd_bf16, gp_f32x16, gp_i16x4, __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, a, c[k], 0, 0, 0))
GP_MMA_AMD_KERNEL(gp_mma_amd_fp32, gp_f32x16, float, __builtin_amdgcn_mfma_f32_32x32x2f32(a, a, c[k], 0, 0, 0))
#elif defined(GP_MMA_RDNA3)
GP_MMA_AMD_KERNEL(gp_mma_amd_fp16, gp_f32x8, gp_f16x16, __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, a, c[k]))
GP_MMA_AMD_KERNEL(gp_mma_amd_bf16, gp_f32x8, gp_i16x16, __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a, a, c[k]))
GP_MMA_AMD_EMPTY(gp_mma_amd_fp32)
#else
GP_MMA_AMD_EMPTY(gp_mma_amd_fp16)
GP_MMA_AMD_EMPTY(gp_mma_amd_bf16)
GP_MMA_AMD_EMPTY(gp_mma_amd_fp32)
#endif
#if defined(GP_MMA_CDNA2)
GP_MMA_AMD_KERNEL(gp_mma_amd_int8, gp_i32x16, int, __builtin_amdgcn_mfma_i32_32x32x8i8(a, a, c[k], 0, 0, 0))
#elif defined(GP_MMA_CDNA3)
GP_MMA_AMD_KERNEL(gp_mma_amd_int8, gp_i32x16, long, __builtin_amdgcn_mfma_i32_32x32x16_i8(a, a, c[k], 0, 0, 0))
#elif defined(GP_MMA_RDNA3)
GP_MMA_AMD_KERNEL(gp_mma_amd_int8, gp_i32x8, gp_i32x4,
                  __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a, true, a, c[k], false))
#else
GP_MMA_AMD_EMPTY(gp_mma_amd_int8)
#endif
#if defined(GP_MMA_CDNA3)
GP_MMA_AMD_KERNEL(gp_mma_amd_tf32, gp_f32x16, gp_f32x2, __builtin_amdgcn_mfma_f32_32x32x4_xf32(a, a, c[k], 0, 0, 0))
GP_MMA_AMD_KERNEL(gp_mma_amd_fp8, gp_f32x16, long,
                  __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, a, c[k], 0, 0, 0))
#else
GP_MMA_AMD_EMPTY(gp_mma_amd_tf32)
GP_MMA_AMD_EMPTY(gp_mma_amd_fp8)
#endif

#define GP_MMA_AMD_CASE(op, NAME)                                                                            \
    case op:                                                                                               \
        if (chain)                                                                                         \
            return NAME<1>;                                                                  \
        return NAME<GP_MMA_ACC>;

static gp_mma_fn gp_mma_kernel(int op, int chain)
{
    switch (op) {
        GP_MMA_AMD_CASE(GP_MMA_FP16, gp_mma_amd_fp16)
        GP_MMA_AMD_CASE(GP_MMA_BF16, gp_mma_amd_bf16)
        GP_MMA_AMD_CASE(GP_MMA_TF32, gp_mma_amd_tf32)
        GP_MMA_AMD_CASE(GP_MMA_FP32, gp_mma_amd_fp32)
        GP_MMA_AMD_CASE(GP_MMA_INT8, gp_mma_amd_int8)
        GP_MMA_AMD_CASE(GP_MMA_FP8, gp_mma_amd_fp8)
    default: return NULL;
    }
}

static __device__ void gp_mma_put(int *s, int op, int m, int n, int k)
{
    int *o = s + 4 * op;
    o[0] = m, o[1] = n, o[2] = k, o[3] = GP_WAVE_SIZE;
}

static __device__ void gp_mma_shapes_here(int *s)
{
#if defined(GP_MMA_CDNA2) || defined(GP_MMA_CDNA3)
    gp_mma_put(s, GP_MMA_FP16, 32, 32, 8);
    gp_mma_put(s, GP_MMA_BF16, 32, 32, 8);
    gp_mma_put(s, GP_MMA_FP32, 32, 32, 2);
#endif
#if defined(GP_MMA_CDNA2)
    gp_mma_put(s, GP_MMA_INT8, 32, 32, 8);
#endif
#if defined(GP_MMA_CDNA3)
    gp_mma_put(s, GP_MMA_INT8, 32, 32, 16);
    gp_mma_put(s, GP_MMA_TF32, 32, 32, 4);
    gp_mma_put(s, GP_MMA_FP8, 32, 32, 16);
#endif
#if defined(GP_MMA_RDNA3)
    gp_mma_put(s, GP_MMA_FP16, 16, 16, 16);
    gp_mma_put(s, GP_MMA_BF16, 16, 16, 16);
    gp_mma_put(s, GP_MMA_INT8, 16, 16, 16);
#endif
    (void)s;
}
#endif /* vendors */

/* One thread writes every op's shape (4 ints each) for the target it runs. */
__global__ void gp_mma_query_kernel(int *s)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        gp_mma_shapes_here(s);
}

extern "C" gp_status gp_mma_query(gp_mma_shape *shapes)
{
    int host[4 * GP_MMA_NOPS] = {0};
    int *dev = NULL;
    GP_TRY(gp_rt_malloc((void **)&dev, sizeof host));
    gp_status st = gp_hip_status(hipMemset(dev, 0, sizeof host), "matrix_engine: clear the shape query");
    if (st.code == GP_OK) {
        gp_mma_query_kernel<<<1, 1>>>(dev);
        st = gp_launch_status("matrix_engine shape query");
    }
    if (st.code == GP_OK)
        st = gp_hip_status(hipMemcpy(host, dev, sizeof host, hipMemcpyDeviceToHost), "matrix_engine: read shapes");
    gp_rt_free(dev);
    GP_TRY(st);
    for (int op = 0; op < GP_MMA_NOPS; op++) {
        const int *o = host + 4 * op;
        shapes[op].m = o[0], shapes[op].n = o[1], shapes[op].k = o[2], shapes[op].group = o[3];
    }
    /* The warpgroup kernels live in their own sm_90a object. */
    gp_mma_wgmma_shapes(shapes);
    return gp_ok();
}

extern "C" gp_status gp_mma_blocks_per_cu(int op, int chain, int threads, int *blocks)
{
    *blocks = 0;
    if (gp_mma_is_wgmma(op))
        return gp_mma_wgmma_blocks_per_cu(op, threads, blocks);
    gp_mma_fn k = gp_mma_kernel(op, chain);
    if (!k)
        return gp_fail(GP_ERR_USAGE, "matrix_engine: op %d has no kernel in this binary", op);
    return gp_hip_status(hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)k, threads, 0),
                         "matrix_engine: occupancy query");
}

extern "C" gp_status gp_mma_launch(gp_stream s, int op, int chain, unsigned blocks, int threads, int iters,
                                   float *out)
{
    if (op < 0 || op >= GP_MMA_NOPS)
        return gp_fail(GP_ERR_USAGE, "matrix_engine: op %d unknown", op);
    const gp_mma_bits o = gp_mma_operand[op];
    if (gp_mma_is_wgmma(op))
        return gp_mma_wgmma_launch(s, op, blocks, threads, iters, o.v, o.mask, out);
    gp_mma_fn k = gp_mma_kernel(op, chain);
    if (!k)
        return gp_fail(GP_ERR_USAGE, "matrix_engine: op %d has no kernel in this binary", op);
    k<<<blocks, threads, 0, (hipStream_t)s>>>(out, iters, o.v, o.mask, GP_MMA_MAGIC);
    return gp_launch_status("matrix_engine kernel");
}
