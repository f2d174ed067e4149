// Experiment (not part of the suite): which tiling and pipeline take the
// suite's SGEMM (kernels/gemm) closest to cuBLAS (fp32 math, no TF32) on the
// H200 at 4096^3 and 8192^3?  (It began at the 0.76-0.78x of the quadrant
// kernel; the warp-tiled 128x256x8 it found runs 0.93-0.94x.)
//
// Problem: row-major C (M x N) = alpha A (M x K) B (K x N) + beta C, A and B
// not transposed (the suite's a_kc = 1, b_kc = 0 case).  Reference: cublasSgemm
// in CUBLAS_PEDANTIC_MATH (fp32 FMA, no TF32, as platform/vendor_cublas.cu)
// on the column-major view C^T = B^T A^T of the same memory.
//
// Variants:
//   tree 128x128x8/256  the suite's kernel (kernels/gemm/gemm.hip), verbatim
//                       but for names, for the A k-contiguous, B n-contiguous
//                       case: 8 x 8 thread tile as two 4 x 4 quadrants per
//                       operand, scalar __ldg global loads (4 + 4 a slab),
//                       next slab prefetched to registers, two LDS stages
//   wt BMxBNxBK/T wMxN  warp-tiled, after S. Boehm, "How to Optimize a CUDA
//                       Matmul Kernel for cuBLAS-like Performance" (2022),
//                       kernel 10 ("warptiling"), with the suite's register
//                       prefetch and two LDS stages (one barrier a slab): a
//                       warp owns a wM x wN tile of C, its lanes an LR x LC
//                       grid of 4 x 4 sub-tiles repeated (wM / 4LR) x (wN /
//                       4LC) times, so each 16-byte LDS read of a k-step is
//                       LR (A) or LC (B) distinct contiguous float4 in a warp
//                       (no bank conflict, no broadcast waste); 16-byte global
//                       loads of A (along k, transposed into As[k][m]) and of
//                       B (along n), 16-byte stores of C
//   wp 128x256x8/256 vV wt's 128 x 256 kernel (wp_k; V = 0 is wt) with its
//                       k-loop's schedule varied by the bits of V (at
//                       wp_k): the FFMAs' order (snake,
//                       column by column), register fragments double-buffered
//                       across slabs, the global loads' place in the slab
//   as  ... sS          NVIDIA sm_80+ only (cp.async): the same warp tiling
//                       with S LDS stages filled by cp.async (A by 4-byte
//                       copies into the transposed As[k][m], B by 16-byte
//                       copies), no staging registers, S - 1 slabs in flight
// All handle any M, N, K and leading dimension: 16-byte paths only where the
// matrix's rows are 16-byte aligned and the 4 values are inside it, else
// guarded 4-byte loads (zeros outside), so 4095 x 4097 x 1023 runs the edges.
//
// Checks, each on a poisoned C: (1) integer data in -4..4 (every product and
// partial sum an integer below 2^24: exact in fp32 in any order), the
// variant's C equal to cuBLAS's element by element; (2) the timed data
// (uniform in [-1, 1]): |C - C_cublas| <= 2 K u (|A| |B|)_ij elementwise (the
// two rounding-error bounds gamma_K |A||B| of either sum, u = 2^-24), with
// |A||B| from cuBLAS on the absolute values.
// ptxas (nvcc 13.0, sm_90 / sm_80), registers, none spills: tree 128 / 124;
// wt 128x128x8/256 128 / 128, x16/256 146 / 140 (bounded to 1 block: its 8 +
// 8 staged float4 spilled 88 bytes at 128); the 8 x 16 and 16 x 8 thread
// tiles 209-254 / 204-235; as 128x128x16/256 s3 128 / 120, the others
// 204-248 / 215-233; as 128x256x8/256 s3 and s4 (cuBLAS 13's own tile, stages
// and warps for this problem) 199 on sm_90.  Results: docs/kernels/gemm.md.
// Build and run (argv[1] = ABBA rounds, default 30; GV_ONLY=a,b runs only the
// variants whose names contain a or b):
//   nvcc -O3 -std=c++17 -arch=native -Xptxas -v gemm_variants.cu -lcublas -o gv && ./gv 30
#include "abba.h"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <cublas_v2.h>

#define CB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { printf("%s:%d %s: cublas status %d\n", __FILE__, __LINE__, #x, (int)s_); exit(1); } } while (0)

struct P {
    int m, n, k;
    float alpha, beta;
    const float *a, *b;
    float *c;
    int lda, ldb, ldc;
};

// ---- tree: kernels/gemm/gemm.hip's gp_gemm_kernel, verbatim but for names
// (GEMM_BOUNDS(256, GP_GEMM_REGS = 128) = __launch_bounds__(256, 2),
// GP_GEMM_LDS_PAD = 4, the k-step loop fully unrolled as on NVIDIA).
#define PAD 4
template <int ROWS, int BK, int THREADS, int KC>
struct slab {
    enum { PER = ROWS * BK / THREADS, RSTEP = THREADS / BK, KSTEP = THREADS / ROWS };
    const float *ptr;
    int stride;
    int k;
    unsigned rows_ok;
    int advance;

    __device__ __forceinline__ void init(const float *p, int ld, int row0, int rows)
    {
        const int t = threadIdx.x;
        rows_ok = 0;
        if (KC) {
            k = t % BK;
            const int r = row0 + t / BK;
            ptr = p + (size_t)(r < rows ? r : 0) * ld + k;
            stride = RSTEP * ld;
#pragma unroll
            for (int i = 0; i < PER; i++)
                rows_ok |= (r + i * RSTEP < rows ? 1u : 0u) << i;
            advance = BK;
        } else {
            k = t / ROWS;
            const int r = row0 + t % ROWS;
            ptr = p + (size_t)k * ld + (r < rows ? r : 0);
            stride = KSTEP * ld;
            rows_ok = r < rows ? (1u << PER) - 1u : 0u;
            advance = BK * ld;
        }
    }
    __device__ __forceinline__ void load(float (&r)[PER], int k0, int kmax)
    {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int kg = k0 + k + (KC ? 0 : i * KSTEP);
            r[i] = 0.0f;
            if (((rows_ok >> i) & 1u) && kg < kmax) {
                const float *q = ptr + i * stride;
                r[i] = __ldg(q);
            }
        }
        ptr += advance;
    }
    __device__ __forceinline__ void store(const float (&r)[PER], float *s) const
    {
        const int t = threadIdx.x;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            if (KC)
                s[(t % BK) * (ROWS + PAD) + t / BK + i * RSTEP] = r[i];
            else
                s[(t / ROWS + i * KSTEP) * (ROWS + PAD) + t % ROWS] = r[i];
        }
    }
};

template <int BM, int BN, int BK, int THREADS, int AKC, int BKC>
__global__ void __launch_bounds__(THREADS, 2) tree_k(P g)
{
    typedef slab<BM, BK, THREADS, AKC> SA;
    typedef slab<BN, BK, THREADS, BKC> SB;
    __shared__ __align__(16) float As[2][BK * (BM + PAD)];
    __shared__ __align__(16) float Bs[2][BK * (BN + PAD)];
    const int tx = threadIdx.x % (BN / 8), ty = threadIdx.x / (BN / 8);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;

    SA sa;
    SB sb;
    sa.init(g.a, g.lda, m0, g.m);
    sb.init(g.b, g.ldb, n0, g.n);
    float ra[SA::PER], rb[SB::PER];
    sa.load(ra, 0, g.k);
    sb.load(rb, 0, g.k);
    sa.store(ra, As[0]);
    sb.store(rb, Bs[0]);
    __syncthreads();

    const int nk = (g.k + BK - 1) / BK;
    for (int kt = 0; kt < nk; kt++) {
        const int cur = kt & 1;
        const bool more = kt + 1 < nk;
        if (more) {
            sa.load(ra, (kt + 1) * BK, g.k);
            sb.load(rb, (kt + 1) * BK, g.k);
        }
        const float *as = As[cur], *bs = Bs[cur];
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            const float4 a0 = *(const float4 *)(as + kk * (BM + PAD) + ty * 4);
            const float4 a1 = *(const float4 *)(as + kk * (BM + PAD) + BM / 2 + ty * 4);
            const float4 b0 = *(const float4 *)(bs + kk * (BN + PAD) + tx * 4);
            const float4 b1 = *(const float4 *)(bs + kk * (BN + PAD) + BN / 2 + tx * 4);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        if (more) {
            sa.store(ra, As[cur ^ 1]);
            sb.store(rb, Bs[cur ^ 1]);
        }
        __syncthreads();
    }

    const bool vec = (g.ldc % 4) == 0 && ((uintptr_t)g.c % 16) == 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int row = m0 + (i < 4 ? ty * 4 + i : BM / 2 + ty * 4 + i - 4);
        if (row >= g.m)
            continue;
        float *crow = g.c + (size_t)row * g.ldc;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int col = n0 + h * (BN / 2) + tx * 4;
            float v[4];
#pragma unroll
            for (int j = 0; j < 4; j++)
                v[j] = g.alpha * acc[i][h * 4 + j];
            if (vec && col + 3 < g.n) {
                float4 *cp = (float4 *)(crow + col);
                if (g.beta != 0.0f) {
                    float4 o = *cp;
                    v[0] = fmaf(g.beta, o.x, v[0]), v[1] = fmaf(g.beta, o.y, v[1]);
                    v[2] = fmaf(g.beta, o.z, v[2]), v[3] = fmaf(g.beta, o.w, v[3]);
                }
                *cp = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < g.n)
                        crow[col + j] = g.beta != 0.0f ? fmaf(g.beta, crow[col + j], v[j]) : v[j];
            }
        }
    }
}
#undef PAD

// ---- The warp tiling shared by wt and as.  T: threads; WM x WN: a warp's
// tile of C; LR x LC = 32: its lanes' grid of 4 x 4 sub-tiles, repeated MI x
// NI times (thread tile 4MI x 4NI).  LDS rows: As[k][BM + 4] (the 4 pad floats
// put the transposing stores of k and k + 4 in distinct banks), Bs[k][BN].
template <int BM, int BN, int BK, int WM, int WN, int LR, int T>
struct tiling {
    enum {
        LR_ = LR, LC = 32 / LR, MI = WM / (4 * LR), NI = WN / (4 * LC), AP = BM + 4, BP = BN,
        A_STAGE = BK * AP, B_STAGE = BK * BP,
        NA4 = BM * BK / 4 / T, NB4 = BK * BN / 4 / T,  // float4 loads a thread makes per slab
    };
    static_assert((BM / WM) * (BN / WN) * 32 == T, "one warp per warp tile");
    static_assert(MI * 4 * LR == WM && NI * 4 * LC == WN, "warp tile = whole sub-tiles");
    static_assert(NA4 * T * 4 == BM * BK && NB4 * T * 4 == BK * BN, "whole float4 loads per thread");
    static_assert(BK % 4 == 0 && BN % 4 == 0, "float4 along k (A) and n (B)");
};

// One k-step from LDS stage (as, bs): the fragments (MI + NI float4 reads),
// then their outer product in the order V's bits 1, 8 and 16 say (wp_k).
template <class TL>
__device__ __forceinline__ void wp_frag(float (&a)[TL::MI * 4], float (&b)[TL::NI * 4], const float *as,
                                        const float *bs, int kk, int a_off, int b_off)
{
#pragma unroll
    for (int i = 0; i < TL::MI; i++) {
        const float4 v = *(const float4 *)(as + kk * TL::AP + a_off + i * 4 * TL::LR_);
        a[4 * i] = v.x, a[4 * i + 1] = v.y, a[4 * i + 2] = v.z, a[4 * i + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < TL::NI; j++) {
        const float4 v = *(const float4 *)(bs + kk * TL::BP + b_off + j * 4 * TL::LC);
        b[4 * j] = v.x, b[4 * j + 1] = v.y, b[4 * j + 2] = v.z, b[4 * j + 3] = v.w;
    }
}
template <class TL, int V>
__device__ __forceinline__ void wp_fma(float (&acc)[TL::MI * 4][TL::NI * 4], const float (&a)[TL::MI * 4],
                                       const float (&b)[TL::NI * 4])
{
    if (V & 16) {
        // pairs of rows zigzagged column by column, the pairs snaking: every
        // FFMA shares one operand with the one before, alternating a and b
        constexpr int R = TL::MI * 4, C = TL::NI * 4;
#pragma unroll
        for (int ip = 0; ip < R / 2; ip++)
#pragma unroll
            for (int jj = 0; jj < C; jj++) {
                const int j = ip & 1 ? C - 1 - jj : jj;
                const int i0 = 2 * ip + (jj & 1), i1 = 2 * ip + 1 - (jj & 1);
                acc[i0][j] = fmaf(a[i0], b[j], acc[i0][j]);
                acc[i1][j] = fmaf(a[i1], b[j], acc[i1][j]);
            }
    } else if (V & 8) {
#pragma unroll
        for (int j = 0; j < TL::NI * 4; j++)
#pragma unroll
            for (int ii = 0; ii < TL::MI * 4; ii++) {
                const int i = (V & 1) && (j & 1) ? TL::MI * 4 - 1 - ii : ii;
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
    } else {
#pragma unroll
        for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
            for (int jj = 0; jj < TL::NI * 4; jj++) {
                const int j = (V & 1) && (i & 1) ? TL::NI * 4 - 1 - jj : jj;
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
    }
}
template <class TL>
__device__ __forceinline__ void wt_step(float (&acc)[TL::MI * 4][TL::NI * 4], const float *as, const float *bs, int kk,
                                        int a_off, int b_off)
{
    float a[TL::MI * 4], b[TL::NI * 4];
    wp_frag<TL>(a, b, as, bs, kk, a_off, b_off);
    wp_fma<TL, 0>(acc, a, b);
}

// Epilogue: C = alpha acc + beta C, 16-byte where the row is aligned and whole.
template <class TL>
__device__ __forceinline__ void wt_store(const P &g, const float (&acc)[TL::MI * 4][TL::NI * 4], int row0, int col0)
{
    const bool vec = (g.ldc % 4) == 0 && ((uintptr_t)g.c % 16) == 0;
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++) {
        const int row = row0 + (i / 4) * 4 * TL::LR_ + i % 4;
        if (row >= g.m)
            continue;
        float *crow = g.c + (size_t)row * g.ldc;
#pragma unroll
        for (int j = 0; j < TL::NI; j++) {
            const int col = col0 + j * 4 * TL::LC;
            float v[4];
#pragma unroll
            for (int q = 0; q < 4; q++)
                v[q] = g.alpha * acc[i][4 * j + q];
            if (vec && col + 3 < g.n) {
                float4 *cp = (float4 *)(crow + col);
                if (g.beta != 0.0f) {
                    const float4 o = *cp;
                    v[0] = fmaf(g.beta, o.x, v[0]), v[1] = fmaf(g.beta, o.y, v[1]);
                    v[2] = fmaf(g.beta, o.z, v[2]), v[3] = fmaf(g.beta, o.w, v[3]);
                }
                *cp = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (col + q < g.n)
                        crow[col + q] = g.beta != 0.0f ? fmaf(g.beta, crow[col + q], v[q]) : v[q];
            }
        }
    }
}

// 4 consecutive floats at p (inside the matrix's rows if ok, elements e..e+3
// of a row of len): one 16-byte load where aligned (al) and whole, else
// guarded scalar loads (zeros outside).
__device__ __forceinline__ float4 ld4(const float *p, bool ok, int e, int len, bool al)
{
    if (ok && al && e + 3 < len)
        return __ldg((const float4 *)p);
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (ok) {
        if (e < len) v.x = __ldg(p);
        if (e + 1 < len) v.y = __ldg(p + 1);
        if (e + 2 < len) v.z = __ldg(p + 2);
        if (e + 3 < len) v.w = __ldg(p + 3);
    }
    return v;
}

// ---- wt (wp_k, V = 0): warp tiling, register prefetch, two LDS stages, one
// barrier a slab.
// A slab: thread t's float4 i is row t / (BK/4) + i T / (BK/4), k quad t %
// (BK/4); B slab: k row t / (BN/4) + i T / (BN/4), n quad t % (BN/4) (a warp
// reads whole 32-512-byte row runs).  As the tree's slab: one pointer a
// operand (advanced per slab), the distance between its loads, a row mask.
// wp: the same kernel with the k-loop's schedule varied (V, bits):
//   1  snake order: odd rows of the thread tile walk their columns backwards,
//      so consecutive FFMAs share an operand across the row boundary too
//   2  fragments double-buffered in registers, across slabs too (CUTLASS's
//      mainloop): step kk's FFMAs run while kk + 1's LDS reads are in
//      flight; at the slab's last step the next stage is stored and the
//      barrier taken before those FFMAs, so the barrier's wait overlaps them
//   4  the next slab's global loads issued after the first k-step's FFMAs,
//      not before them
//   8  the FFMAs column by column (the thread tile's 8 rows inner) instead of
//      row by row (its 16 columns inner); with 1, odd columns walk rows backwards
//  16  pairs of rows zigzagged column by column (each FFMA shares a or b with
//      the one before, alternately), odd pairs walking the columns backwards
template <int BM, int BN, int BK, int WM, int WN, int LR, int T, int MINB, int V>
__global__ void __launch_bounds__(T, MINB) wp_k(P g)
{
    typedef tiling<BM, BN, BK, WM, WN, LR, T> TL;
    enum { ARS = T / (BK / 4), BKS = T / (BN / 4) };
    __shared__ __align__(16) float As[2][TL::A_STAGE];
    __shared__ __align__(16) float Bs[2][TL::B_STAGE];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int a_off = wr * WM + (lane / TL::LC) * 4, b_off = wc * WN + (lane % TL::LC) * 4;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    float acc[TL::MI * 4][TL::NI * 4];
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
        for (int j = 0; j < TL::NI * 4; j++)
            acc[i][j] = 0.0f;

    const int akq = (t % (BK / 4)) * 4, ar = m0 + t / (BK / 4);
    const int bnq = n0 + (t % (BN / 4)) * 4, bk = t / (BN / 4);
    const float *pa = g.a + (size_t)(ar < g.m ? ar : 0) * g.lda + akq;
    const float *pb = g.b + (size_t)(bk < g.k ? bk : 0) * g.ldb + bnq;
    unsigned a_rows = 0;
#pragma unroll
    for (int i = 0; i < TL::NA4; i++)
        a_rows |= (ar + i * ARS < g.m ? 1u : 0u) << i;
    const bool a_al = g.lda % 4 == 0 && (uintptr_t)g.a % 16 == 0, b_al = g.ldb % 4 == 0 && (uintptr_t)g.b % 16 == 0;
    float4 ra[TL::NA4], rb[TL::NB4];
    auto load = [&](int k0) {
#pragma unroll
        for (int i = 0; i < TL::NA4; i++)
            ra[i] = ld4(pa + (size_t)i * ARS * g.lda, (a_rows >> i) & 1u, k0 + akq, g.k, a_al);
#pragma unroll
        for (int i = 0; i < TL::NB4; i++)
            rb[i] = ld4(pb + (size_t)i * BKS * g.ldb, k0 + bk + i * BKS < g.k, bnq, g.n, b_al);
        pa += BK;
        pb += (size_t)BK * g.ldb;
    };
    auto store = [&](int s) {
        float *da = As[s] + akq * TL::AP + t / (BK / 4);
#pragma unroll
        for (int i = 0; i < TL::NA4; i++) {
            float *d = da + i * ARS;
            d[0] = ra[i].x, d[TL::AP] = ra[i].y, d[2 * TL::AP] = ra[i].z, d[3 * TL::AP] = ra[i].w;
        }
        float *db = Bs[s] + bk * TL::BP + (t % (BN / 4)) * 4;
#pragma unroll
        for (int i = 0; i < TL::NB4; i++)
            *(float4 *)(db + i * BKS * TL::BP) = rb[i];
    };

    load(0);
    store(0);
    __syncthreads();
    const int nk = (g.k + BK - 1) / BK;
    constexpr bool DB = (V & 2) != 0;
    float fa[2][TL::MI * 4], fb[2][TL::NI * 4];  // DB: step kk's fragments in [kk & 1]; else [0]
    if (DB)
        wp_frag<TL>(fa[0], fb[0], As[0], Bs[0], 0, a_off, b_off);
    for (int kt = 0; kt < nk; kt++) {
        const int cur = kt & 1;
        const bool more = kt + 1 < nk;
        if (more && !(V & 4))
            load((kt + 1) * BK);
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            const int f = DB ? kk & 1 : 0;
            if (!DB) {
                wp_frag<TL>(fa[0], fb[0], As[cur], Bs[cur], kk, a_off, b_off);
            } else if (kk < BK - 1) {
                wp_frag<TL>(fa[f ^ 1], fb[f ^ 1], As[cur], Bs[cur], kk + 1, a_off, b_off);
            } else {
                if (more)
                    store(cur ^ 1);
                __syncthreads();
                if (more)
                    wp_frag<TL>(fa[f ^ 1], fb[f ^ 1], As[cur ^ 1], Bs[cur ^ 1], 0, a_off, b_off);
            }
            wp_fma<TL, V>(acc, fa[f], fb[f]);
            if (kk == 0 && more && (V & 4))
                load((kt + 1) * BK);
        }
        if (!DB) {
            if (more)
                store(cur ^ 1);
            __syncthreads();
        }
    }
    wt_store<TL>(g, acc, m0 + a_off, n0 + b_off);
}

// ---- as: cp.async stages (sm_80+; NVIDIA only).  src size 0 fills zeros.
__device__ __forceinline__ void cp4(float *s, const float *gp, bool ok)
{
#if __CUDA_ARCH__ >= 800
    const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(sa), "l"(gp), "r"(ok ? 4 : 0));
#endif
}
__device__ __forceinline__ void cp16(float *s, const float *gp, int bytes)
{
#if __CUDA_ARCH__ >= 800
    const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(gp), "r"(bytes));
#endif
}
__device__ __forceinline__ void cp_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ __forceinline__ void cp_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

// A slab: element (t + iT): row / BK, k % BK (a warp copies 32 / BK rows'
// BK-float runs), 4 bytes each into As[k][row].  B slab: as wt's, 16 bytes a
// copy where the row is aligned, else 4 bytes x 4.
template <int BM, int BN, int BK, int WM, int WN, int LR, int T, int MINB, int S>
__global__ void __launch_bounds__(T, MINB) as_k(P g)
{
    typedef tiling<BM, BN, BK, WM, WN, LR, T> TL;
    extern __shared__ __align__(16) float lds[];
    float *As = lds, *Bs = lds + S * TL::A_STAGE;
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int a_off = wr * WM + (lane / TL::LC) * 4, b_off = wc * WN + (lane % TL::LC) * 4;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const bool b_al = g.ldb % 4 == 0 && (uintptr_t)g.b % 16 == 0;

    float acc[TL::MI * 4][TL::NI * 4];
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
        for (int j = 0; j < TL::NI * 4; j++)
            acc[i][j] = 0.0f;

    const int nk = (g.k + BK - 1) / BK;
    auto issue = [&](int kt) {
        if (kt < nk) {
            const int k0 = kt * BK, s = kt % S;
#pragma unroll
            for (int i = 0; i < BM * BK / T; i++) {
                const int idx = t + i * T, r = idx / BK, kk = idx % BK, gr = m0 + r, gk = k0 + kk;
                const bool ok = gr < g.m && gk < g.k;
                cp4(As + s * TL::A_STAGE + kk * TL::AP + r, ok ? g.a + (size_t)gr * g.lda + gk : g.a, ok);
            }
#pragma unroll
            for (int i = 0; i < TL::NB4; i++) {
                const int idx = t + i * T, kr = idx / (BN / 4), nq = (idx % (BN / 4)) * 4;
                const int gk = k0 + kr, gn = n0 + nq;
                float *d = Bs + s * TL::B_STAGE + kr * TL::BP + nq;
                const float *src = g.b + (size_t)(gk < g.k ? gk : 0) * g.ldb + gn;
                if (b_al) {
                    const int left = gk < g.k ? min(max(g.n - gn, 0), 4) : 0;
                    cp16(d, left ? src : g.b, 4 * left);
                } else {
#pragma unroll
                    for (int q = 0; q < 4; q++) {
                        const bool ok = gk < g.k && gn + q < g.n;
                        cp4(d + q, ok ? src + q : g.b, ok);
                    }
                }
            }
        }
        cp_commit();  // an empty group past the end keeps wait_group's count
    };

#pragma unroll
    for (int s = 0; s < S - 1; s++)
        issue(s);
    for (int kt = 0; kt < nk; kt++) {
        cp_wait<S - 2>();  // this thread's copies of slab kt landed
        __syncthreads();   // everyone's did; everyone finished slab kt - 1
        issue(kt + S - 1); // into slab kt - 1's stage
        const float *as = As + (kt % S) * TL::A_STAGE, *bs = Bs + (kt % S) * TL::B_STAGE;
#pragma unroll
        for (int kk = 0; kk < BK; kk++)
            wt_step<TL>(acc, as, bs, kk, a_off, b_off);
    }
    wt_store<TL>(g, acc, m0 + a_off, n0 + b_off);
}

// ---- host
static cublasHandle_t H;
static float *dA, *dB, *dC, *dR, *dAbs, *dBabs, *dBound;
static std::vector<float> hC, hR, hBound;

// Row-major C = A B through cuBLAS's column-major C^T = B^T A^T.
static void cublas_rm(const P &g)
{
    CB(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.m, g.k, &g.alpha, g.b, g.ldb, g.a, g.lda, &g.beta, g.c, g.ldc));
}

// The variant's C (from a poisoned start) against cuBLAS's: exact (bound
// null) or within bound[] elementwise.  Returns a short verdict.
static const char *compare(const launch_fn &f, const P &g, const float *bound)
{
    const size_t n = (size_t)g.m * g.n;
    poison(dC, n * 4);
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hC.data(), dC, n * 4, cudaMemcpyDeviceToHost));
    static char msg[160];
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = fabs((double)hC[i] - (double)hR[i]);
        if (!(bound ? e <= bound[i] : e == 0.0)) {
            snprintf(msg, sizeof msg, "WRONG at (%zu,%zu): %.7g not %.7g%s", i / g.n, i % g.n, hC[i], hR[i],
                     bound ? " (past 2Ku|A||B|)" : " (exact data)");
            return msg;
        }
        if (bound && bound[i] > 0) worst = std::max(worst, e / bound[i]);
    }
    if (!bound) return "exact";
    snprintf(msg, sizeof msg, "max %.3f of bound", worst);
    return msg;
}

static void fill(std::vector<float> &v, unsigned seed, bool ints)
{
    for (auto &x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = ints ? (float)((int)((seed >> 24) % 9) - 4) : (float)(seed >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

struct Variant {
    const char *name;
    std::function<void(const P &)> run;
};

int main(int argc, char **argv)
{
    const int rounds = abba_rounds(argc, argv);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    CB(cublasCreate(&H));
    CB(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH));
    printf("# gemm variants on %s (%d SMs, sm_%d%d), row-major NN fp32, cuBLAS PEDANTIC (no TF32), %d ABBA rounds each\n",
           p.name, p.multiProcessorCount, p.major, p.minor, rounds);

    std::vector<Variant> vs;
    vs.push_back({"tree 128x128x8/256", [](const P &g) {
                      tree_k<128, 128, 8, 256, 1, 0><<<dim3((g.n + 127) / 128, (g.m + 127) / 128), 256>>>(g);
                  }});
#define WT(BM, BN, BK, WM, WN, LR, T, MINB) \
    vs.push_back({"wt " #BM "x" #BN "x" #BK "/" #T " w" #WM "x" #WN " l" #LR, [](const P &g) { \
                      wp_k<BM, BN, BK, WM, WN, LR, T, MINB, 0><<<dim3((g.n + BN - 1) / BN, (g.m + BM - 1) / BM), T>>>(g); }})
    WT(128, 128, 8, 64, 32, 8, 256, 2);   // tree's shape, warp-tiled, 16-byte loads
    WT(128, 128, 16, 64, 32, 8, 256, 1);  // 8 + 8 staged float4 values: past 128 registers (as the tree's 128x128x16)
    WT(128, 128, 8, 64, 64, 8, 128, 2);   // Boehm's kernel-10 shape: 8 x 16 a thread
    WT(128, 128, 16, 64, 64, 8, 128, 2);
    WT(128, 256, 8, 64, 64, 8, 256, 1);   // 8 x 16 a thread, 1 block of 8 warps
    WT(256, 128, 8, 64, 64, 4, 256, 1);   // 16 x 8 a thread
#define WP(V) \
    vs.push_back({"wp 128x256x8/256 v" #V, [](const P &g) { \
                      wp_k<128, 256, 8, 64, 64, 8, 256, 1, V><<<dim3((g.n + 255) / 256, (g.m + 127) / 128), 256>>>(g); }})
    WP(0); WP(1); WP(2); WP(3); WP(4); WP(6); WP(7); WP(8); WP(9); WP(16);
#define AS(BM, BN, BK, WM, WN, LR, T, MINB, S) do { \
        typedef tiling<BM, BN, BK, WM, WN, LR, T> TL; \
        const int lds = S * (TL::A_STAGE + TL::B_STAGE) * 4; \
        CK(cudaFuncSetAttribute(as_k<BM, BN, BK, WM, WN, LR, T, MINB, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, lds)); \
        vs.push_back({"as " #BM "x" #BN "x" #BK "/" #T " w" #WM "x" #WN " s" #S, [lds](const P &g) { \
                          as_k<BM, BN, BK, WM, WN, LR, T, MINB, S><<<dim3((g.n + BN - 1) / BN, (g.m + BM - 1) / BM), T, lds>>>(g); }}); \
    } while (0)
    if (p.major >= 8) {
        AS(128, 128, 16, 64, 32, 8, 256, 2, 3);
        AS(128, 128, 16, 64, 64, 8, 128, 2, 3);
        AS(128, 128, 8, 64, 64, 8, 128, 2, 4);
        AS(128, 256, 16, 64, 64, 8, 256, 1, 3);
        AS(128, 256, 8, 64, 64, 8, 256, 1, 3);   // the tile, stages and warps cuBLAS 13 runs (ncu: 256x128x8 stage3 4x2 warps)
        AS(128, 256, 8, 64, 64, 8, 256, 1, 4);
    }
    // GV_ONLY=a,b: only the variants whose name contains one of the comma-separated strings.
    if (const char *only = getenv("GV_ONLY")) {
        std::vector<Variant> keep;
        for (auto &v : vs) {
            std::string list = only;
            for (size_t at = 0; at <= list.size();) {
                const size_t end = std::min(list.find(',', at), list.size());
                if (end > at && strstr(v.name, list.substr(at, end - at).c_str())) { keep.push_back(v); break; }
                at = end + 1;
            }
        }
        vs = keep;
    }

    const int shapes[3][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4095, 4097, 1023}};
    const size_t most = (size_t)8192 * 8192;
    CK(cudaMalloc(&dA, most * 4)); CK(cudaMalloc(&dB, most * 4)); CK(cudaMalloc(&dC, most * 4)); CK(cudaMalloc(&dR, most * 4));
    CK(cudaMalloc(&dAbs, most * 4)); CK(cudaMalloc(&dBabs, most * 4)); CK(cudaMalloc(&dBound, most * 4));
    hC.resize(most), hR.resize(most), hBound.resize(most);
    std::vector<float> ha(most), hb(most);
    for (auto &s : shapes) {
        const int M = s[0], N = s[1], K = s[2];
        const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
        P g = {M, N, K, 1.0f, 0.0f, dA, dB, dC, K, N, N};
        P r = g;
        r.c = dR;
        const double flop = 2.0 * M * N * K;
        printf("\n## %d x %d x %d (M x N x K), %.1f GFLOP\n", M, N, K, flop * 1e-9);
        // Exact check data: integers in -4..4, |partial sums| <= 16 K < 2^24.
        ha.resize(na), hb.resize(nb);
        fill(ha, 11, true), fill(hb, 12, true);
        CK(cudaMemcpy(dA, ha.data(), na * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hb.data(), nb * 4, cudaMemcpyHostToDevice));
        poison(dR, nc * 4);
        cublas_rm(r);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hR.data(), dR, nc * 4, cudaMemcpyDeviceToHost));
        std::vector<std::string> exact;
        for (auto &v : vs) exact.push_back(compare([&] { v.run(g); }, g, nullptr));
        // Timed data: uniform in [-1, 1]; bound 2 K u (|A||B|)_ij.
        fill(ha, 21, false), fill(hb, 22, false);
        CK(cudaMemcpy(dA, ha.data(), na * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hb.data(), nb * 4, cudaMemcpyHostToDevice));
        for (auto &x : ha) x = fabsf(x);
        for (auto &x : hb) x = fabsf(x);
        CK(cudaMemcpy(dAbs, ha.data(), na * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dBabs, hb.data(), nb * 4, cudaMemcpyHostToDevice));
        P ab = g;
        ab.a = dAbs, ab.b = dBabs, ab.c = dBound;
        cublas_rm(ab);
        poison(dR, nc * 4);
        cublas_rm(r);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hR.data(), dR, nc * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hBound.data(), dBound, nc * 4, cudaMemcpyDeviceToHost));
        const double u = ldexp(1.0, -24);
        for (size_t i = 0; i < nc; i++) hBound[i] = (float)(2.0 * K * u * hBound[i] * 1.01);  // 1.01: gamma_K past Ku, and |A||B|'s own fp32 rounding
        const launch_fn ref = [&] { cublas_rm(r); };
        printf("%-34s %9s %9s %9s %9s %9s %8s %8s  %s\n", "variant", "ms", "ref ms", "ratio", "p10", "p90", "TFLOP/s", "ref TF/s",
               "check (int data | timed data)");
        printf("(ratio = cuBLAS time / variant time over paired A B B A rounds: the variant's fraction of cuBLAS's speed)\n");
        const int rr = M >= 8192 ? std::max(1, rounds / 2) : rounds;
        for (size_t vi = 0; vi < vs.size(); vi++) {
            const launch_fn f = [&] { vs[vi].run(g); };
            const std::string chk = exact[vi] + " | " + compare(f, g, hBound.data());
            for (int w = 0; w < 3; w++) { f(); ref(); }
            CK(cudaDeviceSynchronize());
            std::vector<double> ratio, ta, tb;
            for (int q = 0; q < rr; q++) {
                const float t0 = abba_time(f), t1 = abba_time(ref), t2 = abba_time(ref), t3 = abba_time(f);
                ratio.push_back((t1 + t2) / (double)(t0 + t3));
                ta.push_back((t0 + t3) / 2.0), tb.push_back((t1 + t2) / 2.0);
            }
            const double ma = abba_q(ta, 0.5), mb = abba_q(tb, 0.5);
            printf("%-34s %9.4f %9.4f %9.4f %9.4f %9.4f %8.2f %8.2f  %s\n", vs[vi].name, ma, mb, abba_q(ratio, 0.5),
                   abba_q(ratio, 0.1), abba_q(ratio, 0.9), flop / ma * 1e-9, flop / mb * 1e-9, chk.c_str());
            fflush(stdout);
        }
    }
    CB(cublasDestroy(H));
    return 0;
}
