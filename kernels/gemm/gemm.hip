/* gemm kernel: the row-major problem C (M x N) = alpha A (M x K) B (K x N)
 * + beta C, with A stored K-contiguous (A[m][k]) or M-contiguous (A[k][m]),
 * B stored N-contiguous (B[k][n]) or K-contiguous (B[n][k]).
 *
 * Block: BM x BN tile of C, THREADS threads as a (BM/8) x (BN/8) grid, each
 * thread an 8 x 8 register tile: rows ty*4 + {0..3} and BM/2 + ty*4 + {0..3},
 * columns likewise (two 16-byte LDS reads per operand per k, each quarter
 * wave reading distinct 16-byte words).  LDS holds two stages of As[BK][BM]
 * and Bs[BK][BN] (k-major, so a thread's fragments are contiguous); the
 * K-contiguous operand is transposed on its way in (rows padded by 4 floats:
 * the 8 k values a wave stores land in distinct banks).
 *
 * Loop over k-slabs: the next slab's global loads go to registers, the
 * current slab is multiplied from LDS, the registers are stored to the other
 * stage, one barrier.  Loads outside the matrix (rows past M or N, k past
 * K) are zeros, so every tile runs the same code. */
#include "gemm.h"
#include "gp_device.h"

#define PAD GP_GEMM_LDS_PAD

/* NVIDIA: at least as many resident blocks as keep a thread within R
 * registers (GP_GEMM_REGS for the 4 + 4 prefetch of the 128x128x8 tile,
 * GP_GEMM_REGS_WIDE for the 8 + 8 of the others: 128 spills them).
 * AMD: every quadrant tile within GP_GEMM_REGS_AMD (128) VGPRs, so that two
 * blocks of 256 threads (two waves a SIMD) fit a gfx9 CU, as the rule's
 * occupancy model counts (gemm_rule.c).  Without a bound clang gave the
 * 128x128x8 tile 209-211 VGPRs on gfx900: one wave a SIMD, one block a CU,
 * half the occupancy the table claimed.  HIP's second __launch_bounds__
 * argument counts waves a SIMD: 256 / 128 = 2 on gfx9 (gfx90a/gfx94x and
 * RDNA have larger files a SIMD, so the same two waves allow more there). */
#if defined(GP_VENDOR_NVIDIA)
#define GEMM_MINB(T, R) ((65536 / (R)) / (T) > 0 ? (65536 / (R)) / (T) : 1)
#define GEMM_BOUNDS(T, R) __launch_bounds__(T, GEMM_MINB(T, R))
#else
#define GEMM_BOUNDS(T, R) __launch_bounds__(T, 256 / GP_GEMM_REGS_AMD)
#endif

/* The k-step loop: fully unrolled where a thread keeps up to 255 registers
 * (NVIDIA).  Within 128 VGPRs (AMD gfx9, above; gfx11 under clang 15
 * whatever the bound) the AMD scheduler hoists every unrolled step's LDS reads (16 VGPRs
 * a step) above the FMAs, 128 VGPRs for a k-step of 8 next to the 64
 * accumulators: every tile spilled 492-888 bytes on gfx11.  Unrolled by 2,
 * two steps' reads are live at most: no scratch (`.vgpr_count` and
 * `.private_segment_fixed_size` in the -S output, checked by
 * tests/build/check_gpu_build.sh on every AMD target). */
#if defined(GP_VENDOR_AMD)
#define GEMM_KK_UNROLL _Pragma("unroll 2")
#else
#define GEMM_KK_UNROLL _Pragma("unroll")
#endif

typedef struct gemm_args {
    int m, n, k;
    float alpha, beta;
    const float *a, *b;
    float *c;
    int lda, ldb, ldc;
    int kc;        /* k of one split (grid.z > 1), a multiple of the k-step;
                    * the whole-wave tiles in the NN kernel's MODE 2 */
    long long ws;  /* elements between the splits' partial products in c */
} gemm_args;

/* Split k (grid.z > 1): block z multiplies k from z kc, kc deep (the last
 * what is left), and writes its partial product, alpha times it, to the
 * z-th slice of the workspace the launcher made c (beta 0 there; the sum
 * pass adds the slices and beta C).  A K-contiguous (AKC) steps by k0
 * elements, M-contiguous by k0 rows; B likewise.  kc is a multiple of the
 * k-step, so a split starts 16-byte aligned where its operand's rows are.
 * A kernel instantiated twice: SPLIT false is the unsplit kernel as it was
 * (the offsets in registers cost the 128x256 NN kernel 2 registers and
 * 1.8 % at 4096^3 on the H200, 0.935x -> 0.918x cuBLAS). */
template <int AKC, int BKC, bool SPLIT>
static __device__ __forceinline__ gemm_args gemm_split(gemm_args g)
{
    if (SPLIT) {
        const int z = (int)blockIdx.z, k0 = z * g.kc;
        g.k = min(g.kc, g.k - k0);
        g.a += AKC ? (size_t)k0 : (size_t)k0 * g.lda;
        g.b += BKC ? (size_t)k0 : (size_t)k0 * g.ldb;
        g.c += (size_t)z * g.ws;
    }
    return g;
}

/* The warp-tiled kernels' k-step outer product acc += a b^T, row by row,
 * odd rows walking their columns backwards: consecutive FFMAs then share an
 * operand at each row's turn as well as along it, and ptxas schedules the
 * same instructions with fewer dispatch stalls (sm_90, 128 x 256 NN at
 * 4096^3: 0.19 -> 0.16 an instruction, 0.925x -> 0.935x cuBLAS; why the
 * order matters is not measured apart).  The quadrant kernel keeps the
 * plain order: the same turn made its 128x128x8 tile 3 % slower and its x16
 * tile 3 % faster (docs/kernels/gemm.md, "Snake order"). */
template <int R, int C>
__device__ __forceinline__ void gemm_outer_snake(float (&acc)[R][C], const float (&a)[R], const float (&b)[C])
{
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
        for (int jj = 0; jj < C; jj++) {
            const int j = i & 1 ? C - 1 - jj : jj;
            acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
}

/* Global -> registers for one operand slab (ROWS = BM or BN along the
 * non-k dimension; KC: stored k-contiguous).  Thread t loads PER values:
 *   KC: k = t % BK, rows t / BK + i x THREADS / BK (a wave reads 32-byte
 *       runs of 4 or 8 rows);
 *   otherwise: row t % ROWS, k = t / ROWS + i x THREADS / ROWS (a wave reads
 *       128 contiguous bytes).
 * The thread keeps one pointer (advanced per slab), the 32-bit distance
 * between its loads and a bit mask of its rows inside the matrix: few
 * registers next to the 64 accumulators. */
template <int ROWS, int BK, int THREADS, int KC>
struct slab {
    enum { PER = ROWS * BK / THREADS, RSTEP = THREADS / BK, KSTEP = THREADS / ROWS };
    const float *ptr; /* this thread's first load of the current slab */
    int stride;       /* elements between its loads i and i + 1 */
    int k;            /* k of its first load within a slab */
    unsigned rows_ok; /* bit i: load i's row is inside the matrix */
    int advance;      /* elements from one slab to the next */

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
    /* Load the slab starting at k0 (zeros past kmax or outside the rows),
     * then step the pointer to the next slab. */
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

/* C[row][col .. col+3] = v + beta C, v already alpha x the accumulators:
 * one 16-byte access where the row allows it (vec: ldc and C 16-byte
 * aligned) and the four columns are inside N, else element by element.
 * The epilogue of every kernel below. */
static __device__ __forceinline__ void gemm_store4(const gemm_args &g, float *crow, int col, float (&v)[4], bool vec)
{
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
        for (int j = 0; j < 4; j++)
            if (col + j < g.n)
                crow[col + j] = g.beta != 0.0f ? fmaf(g.beta, crow[col + j], v[j]) : v[j];
    }
}

template <int BM, int BN, int BK, int THREADS, int AKC, int BKC>
__global__ void GEMM_BOUNDS(THREADS, (BM + BN) * BK / THREADS > 8 ? GP_GEMM_REGS_WIDE : GP_GEMM_REGS)
    gp_gemm_kernel(gemm_args g)
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
        GEMM_KK_UNROLL
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

    /* Epilogue: 16-byte stores where the row is aligned and whole. */
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
            gemm_store4(g, crow, col, v, vec);
        }
    }
}

/* ---- The warp-tiled kernel: configurations whose thread tile is 8 x 16
 * (tile_m tile_n / block = 128; NVIDIA only, gemm.h).  After S. Boehm, "How
 * to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance" (2022),
 * kernel 10 ("warptiling"), with this file's register prefetch, two LDS
 * stages and one barrier a slab.  The block's warps tile the block tile
 * (BM / 64) x (BN / 64): 2 x 2 for 128x128/128, 2 x 4 for 128x256/256, the
 * same per-warp code.  Each group of 32 threads (a warp) owns a
 * 64 x 64 tile of C; its lanes are an 8 x 4 grid of 4 x 4 sub-tiles repeated
 * 2 x 4 times, so a k-step reads 2 + 4 float4 per thread for 128 FMAs (21
 * FMAs a read; the quadrant kernel: 4 for 64, 16), and each read is 8 (A) or
 * 4 (B) distinct contiguous float4 of a warp: no bank conflict, no
 * broadcast.  Global loads are 16 bytes (slab4) where a row is
 * aligned and the 4 values are inside the matrix, else guarded 4-byte loads. */
#define WT_WM 64
#define WT_WN 64
#define WT_LR 8 /* lane rows of 4 x 4 sub-tiles; WT_LC = 32 / WT_LR lane columns */
#define WT_LC (32 / WT_LR)
#define WT_MI (WT_WM / (4 * WT_LR))
#define WT_NI (WT_WN / (4 * WT_LC))

/* 4 consecutive floats at p, elements e..e+3 of a line of len, inside the
 * matrix's other dimension if ok: one 16-byte load where the line is
 * aligned (al) and the 4 are inside it, else guarded scalar loads (zeros
 * outside). */
__device__ __forceinline__ float4 gemm_ld4(const float *p, bool ok, int e, int len, bool al)
{
    if (ok && al && e + 3 < len)
        return __ldg((const float4 *)p);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (ok) {
        if (e < len)
            v.x = __ldg(p);
        if (e + 1 < len)
            v.y = __ldg(p + 1);
        if (e + 2 < len)
            v.z = __ldg(p + 2);
        if (e + 3 < len)
            v.w = __ldg(p + 3);
    }
    return v;
}

/* Global -> registers for one operand slab in float4 quads, stored to LDS
 * as [k][ROWS + PAD] like slab's.  Thread t's load i:
 *   KC (k-contiguous): k quad (t % (BK/4)) x 4, row t / (BK/4) + i x STEP,
 *       transposed on the store (rows + 4 pad: the quads of k and k + 4 land
 *       16 banks apart);
 *   otherwise: row quad (t % (ROWS/4)) x 4, k t / (ROWS/4) + i x STEP, one
 *       16-byte store.
 * One pointer, the distance between loads, a row mask (as slab). */
template <int ROWS, int BK, int THREADS, int KC>
struct slab4 {
    enum { QN = KC ? BK / 4 : ROWS / 4, STEP = THREADS / QN, PER = ROWS * BK / 4 / THREADS };
    const float *ptr;
    int stride, advance;
    int q, j;         /* KC: k of the quad, row of load 0; else: row of the quad, k of load 0 */
    int left;         /* KC: unused; else rows of the matrix from the quad's first on */
    unsigned rows_ok; /* KC: bit i, load i's row is inside */
    bool al;          /* rows 16-byte aligned */

    __device__ __forceinline__ void init(const float *p, int ld, int row0, int rows)
    {
        const int t = threadIdx.x;
        q = (t % QN) * 4, j = t / QN;
        al = ld % 4 == 0 && (uintptr_t)p % 16 == 0;
        rows_ok = 0, left = 0;
        if (KC) {
            const int r = row0 + j;
            ptr = p + (size_t)(r < rows ? r : 0) * ld + q;
            stride = STEP * ld, advance = BK;
#pragma unroll
            for (int i = 0; i < PER; i++)
                rows_ok |= (r + i * STEP < rows ? 1u : 0u) << i;
        } else {
            const int r = row0 + q;
            ptr = p + (size_t)j * ld + (r < rows ? r : 0);
            stride = STEP * ld, advance = BK * ld;
            left = rows - r;
        }
    }
    __device__ __forceinline__ void load(float4 (&v)[PER], int k0, int kmax)
    {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            if (KC)
                v[i] = gemm_ld4(ptr + i * stride, (rows_ok >> i) & 1u, k0 + q, kmax, al);
            else
                v[i] = gemm_ld4(ptr + i * stride, k0 + j + i * STEP < kmax, 0, left, al);
        }
        ptr += advance;
    }
    __device__ __forceinline__ void store(const float4 (&v)[PER], float *s) const
    {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            if (KC) {
                float *d = s + q * (ROWS + PAD) + j + i * STEP;
                d[0] = v[i].x, d[ROWS + PAD] = v[i].y, d[2 * (ROWS + PAD)] = v[i].z, d[3 * (ROWS + PAD)] = v[i].w;
            } else {
                *(float4 *)(s + (j + i * STEP) * (ROWS + PAD) + q) = v[i];
            }
        }
    }
};

template <int BM, int BN, int BK, int THREADS, int AKC, int BKC, bool SPLIT>
__global__ void GEMM_BOUNDS(THREADS, GP_GEMM_REGS_WT) gp_gemm_wt_kernel(gemm_args g0)
{
    const gemm_args g = gemm_split<AKC, BKC, SPLIT>(g0);
    static_assert((BM / WT_WM) * (BN / WT_WN) * 32 == THREADS, "one warp per 64 x 64 tile");
    typedef slab4<BM, BK, THREADS, AKC> SA;
    typedef slab4<BN, BK, THREADS, BKC> SB;
    __shared__ __align__(16) float As[2][BK * (BM + PAD)];
    __shared__ __align__(16) float Bs[2][BK * (BN + PAD)];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    /* This thread's first row and column of the block tile; its sub-tiles
     * repeat every 4 WT_LR rows and 4 WT_LC columns. */
    const int ar = (warp / (BN / WT_WN)) * WT_WM + (lane / WT_LC) * 4;
    const int bc = (warp % (BN / WT_WN)) * WT_WN + (lane % WT_LC) * 4;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    float acc[4 * WT_MI][4 * WT_NI];
#pragma unroll
    for (int i = 0; i < 4 * WT_MI; i++)
#pragma unroll
        for (int j = 0; j < 4 * WT_NI; j++)
            acc[i][j] = 0.0f;

    SA sa;
    SB sb;
    sa.init(g.a, g.lda, m0, g.m);
    sb.init(g.b, g.ldb, n0, g.n);
    float4 ra[SA::PER], rb[SB::PER];
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
        const float *as = As[cur] + ar, *bs = Bs[cur] + bc;
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float av[4 * WT_MI], bv[4 * WT_NI];
#pragma unroll
            for (int i = 0; i < WT_MI; i++) {
                const float4 v = *(const float4 *)(as + kk * (BM + PAD) + i * 4 * WT_LR);
                av[4 * i] = v.x, av[4 * i + 1] = v.y, av[4 * i + 2] = v.z, av[4 * i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < WT_NI; j++) {
                const float4 v = *(const float4 *)(bs + kk * (BN + PAD) + j * 4 * WT_LC);
                bv[4 * j] = v.x, bv[4 * j + 1] = v.y, bv[4 * j + 2] = v.z, bv[4 * j + 3] = v.w;
            }
            gemm_outer_snake<4 * WT_MI, 4 * WT_NI>(acc, av, bv);
        }
        if (more) {
            sa.store(ra, As[cur ^ 1]);
            sb.store(rb, Bs[cur ^ 1]);
        }
        __syncthreads();
    }

    /* Epilogue: 16-byte stores where the row is aligned and whole. */
    const bool vec = (g.ldc % 4) == 0 && ((uintptr_t)g.c % 16) == 0;
#pragma unroll
    for (int i = 0; i < 4 * WT_MI; i++) {
        const int row = m0 + ar + (i / 4) * 4 * WT_LR + i % 4;
        if (row >= g.m)
            continue;
        float *crow = g.c + (size_t)row * g.ldc;
#pragma unroll
        for (int h = 0; h < WT_NI; h++) {
            const int col = n0 + bc + h * 4 * WT_LC;
            float v[4];
#pragma unroll
            for (int j = 0; j < 4; j++)
                v[j] = g.alpha * acc[i][h * 4 + j];
            gemm_store4(g, crow, col, v, vec);
        }
    }
}

/* ---- The warp-tiled kernel of CFG5 for A k-contiguous, B n-contiguous
 * (row-major NN, and column-major NN as C^T = B^T A^T: gemm.c a_kc = 1,
 * b_kc = 0; every bench shape).  unmaintained/experiments/gemm_variants.cu's
 * wt_k<128, 256, 8, 64, 64, 8, 256, 1>, verbatim but for names and
 * gemm_args: the H200 run of 2026-11-24 measured it 4.7 % ahead of
 * gp_gemm_wt_kernel on the same tiling (2.90 vs 3.04 ms at 4096^3, 23.04 vs
 * 24.18 ms at 8192^3, docs/kernels/gemm.md) with the same PTX instruction
 * counts in the loop; ptxas sm_90 gives it 228 registers against 202-206.
 * What differs in the source: B's LDS rows unpadded (BP = BN: its stores
 * are whole float4 rows, no transposition, so no bank conflict to pad
 * against), the load offsets computed in 64 bits per load from two
 * pointers (not one 32-bit stride), the k-step and epilogue as functions of
 * a tiling struct.  Adopted whole rather than guessed at: which of these
 * makes the 4.7 % is not measured.  Same edges as gp_gemm_wt_kernel: any
 * M, N, K, lda/ldb/ldc, misaligned pointers (gemm_ld4), alpha/beta. */
template <int BM, int BN, int BK, int WM, int WN, int LR, int T>
struct gemm_tiling {
    enum {
        LR_ = LR, LC = 32 / LR, MI = WM / (4 * LR), NI = WN / (4 * LC), AP = BM + PAD, BP = BN,
        A_STAGE = BK * AP, B_STAGE = BK * BP,
        NA4 = BM * BK / 4 / T, NB4 = BK * BN / 4 / T, /* float4 loads a thread makes per slab */
    };
    static_assert((BM / WM) * (BN / WN) * 32 == T, "one warp per warp tile");
    static_assert(MI * 4 * LR == WM && NI * 4 * LC == WN, "warp tile = whole sub-tiles");
    static_assert(NA4 * T * 4 == BM * BK && NB4 * T * 4 == BK * BN, "whole float4 loads per thread");
    static_assert(BK % 4 == 0 && BN % 4 == 0, "float4 along k (A) and n (B)");
};

/* One k-step's outer product from LDS stage (as, bs): MI + NI float4 reads. */
template <class TL>
__device__ __forceinline__ void gemm_wt_step(float (&acc)[TL::MI * 4][TL::NI * 4], const float *as, const float *bs,
                                             int kk, int a_off, int b_off)
{
    float a[TL::MI * 4], b[TL::NI * 4];
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
    gemm_outer_snake<TL::MI * 4, TL::NI * 4>(acc, a, b);
}

/* Epilogue: C = alpha acc + beta C, 16-byte where the row is aligned and whole. */
template <class TL>
__device__ __forceinline__ void gemm_wt_store(const gemm_args &g, const float (&acc)[TL::MI * 4][TL::NI * 4],
                                              int row0, int col0)
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
            gemm_store4(g, crow, col, v, vec);
        }
    }
}

/* One tile's product over g's k into acc (zeroed here): A slab: thread t's
 * float4 i is row t / (BK/4) + i T / (BK/4), k quad t % (BK/4), transposed
 * into As[k][m]; B slab: k row t / (BN/4) + i T / (BN/4), n quad t %
 * (BN/4), one 16-byte store (a warp reads whole 32-512 byte row runs).
 * Rows outside M, k past K, columns past N: zeros.  Ends past a barrier, so
 * the next tile may reuse the stages. */
template <class TL, int BM, int BN, int BK, int T>
__device__ __forceinline__ void gemm_nn_tile(const gemm_args &g, int m0, int n0, int k0, int kn,
                                             float (&acc)[TL::MI * 4][TL::NI * 4], float (*As)[TL::A_STAGE],
                                             float (*Bs)[TL::B_STAGE], int a_off, int b_off)
{
    enum { ARS = T / (BK / 4), BKS = T / (BN / 4) };
    const int t = threadIdx.x;
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
        for (int j = 0; j < TL::NI * 4; j++)
            acc[i][j] = 0.0f;

    const int akq = (t % (BK / 4)) * 4, ar = m0 + t / (BK / 4);
    const int bnq = n0 + (t % (BN / 4)) * 4, bk = t / (BN / 4);
    const float *pa = g.a + (size_t)(ar < g.m ? ar : 0) * g.lda + akq + k0;
    const float *pb = g.b + (size_t)(k0 + (bk < kn ? bk : 0)) * g.ldb + bnq;
    unsigned a_rows = 0;
#pragma unroll
    for (int i = 0; i < TL::NA4; i++)
        a_rows |= (ar + i * ARS < g.m ? 1u : 0u) << i;
    const bool a_al = g.lda % 4 == 0 && (uintptr_t)g.a % 16 == 0, b_al = g.ldb % 4 == 0 && (uintptr_t)g.b % 16 == 0;
    float4 ra[TL::NA4], rb[TL::NB4];
    auto load = [&](int kt0) {
#pragma unroll
        for (int i = 0; i < TL::NA4; i++)
            ra[i] = gemm_ld4(pa + (size_t)i * ARS * g.lda, (a_rows >> i) & 1u, kt0 + akq, kn, a_al);
#pragma unroll
        for (int i = 0; i < TL::NB4; i++)
            rb[i] = gemm_ld4(pb + (size_t)i * BKS * g.ldb, kt0 + bk + i * BKS < kn, bnq, g.n, b_al);
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
    const int nk = (kn + BK - 1) / BK;
    for (int kt = 0; kt < nk; kt++) {
        const int cur = kt & 1;
        const bool more = kt + 1 < nk;
        if (more)
            load((kt + 1) * BK);
#pragma unroll
        for (int kk = 0; kk < BK; kk++)
            gemm_wt_step<TL>(acc, As[cur], Bs[cur], kk, a_off, b_off);
        if (more)
            store(cur ^ 1);
        __syncthreads();
    }
}

/* MODE: 0 the whole grid, 1 split k (gemm_split), 2 the whole waves ahead
 * of stream-K: the blocks from g.kc on (in launch order) leave at once.
 * MINB = 1: 256 threads x 220 registers leave no room for a second block. */
template <int BM, int BN, int BK, int WM, int WN, int LR, int T, int MINB, int MODE>
__global__ void __launch_bounds__(T, MINB) gp_gemm_wt_nn_kernel(gemm_args g0)
{
    if (MODE == 2 && (int)(blockIdx.y * gridDim.x + blockIdx.x) >= g0.kc)
        return;
    const gemm_args g = gemm_split<1, 0, MODE == 1>(g0); /* A K-contiguous, B N-contiguous */
    typedef gemm_tiling<BM, BN, BK, WM, WN, LR, T> TL;
    __shared__ __align__(16) float As[2][TL::A_STAGE];
    __shared__ __align__(16) float Bs[2][TL::B_STAGE];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int a_off = wr * WM + (lane / TL::LC) * 4, b_off = wc * WN + (lane % TL::LC) * 4;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[TL::MI * 4][TL::NI * 4];
    gemm_nn_tile<TL, BM, BN, BK, T>(g, m0, n0, 0, g.k, acc, As, Bs, a_off, b_off);
    gemm_wt_store<TL>(g, acc, m0 + a_off, n0 + b_off);
}

/* Stream-K over the last wave (after CUTLASS's data-parallel + stream-K
 * hybrid): the whole waves run in the plain kernel (MODE 2), then G
 * shares, one an SM, each an equal share of the remaining tiles' k-steps,
 * tile-major: [c I / G, (c + 1) I / G) of I = sk tiles x nk, run as its
 * two segments (the share kernel below).  A segment that covers a tile
 * whole stores it; a part goes to the share's slot of the workspace (2 a
 * share: its first and its last tile), each thread its own fragment; a
 * third kernel adds each
 * tile's parts in k order (the same sums in the same order every run on
 * this grid) and stores C.  No block waits for another, and the share
 * kernel holds nothing of the fix-up: with the parts added in it (a
 * counter a tile, the last block to arrive adding) it took 255 registers
 * and spilled (H200, forced: 4096^3 0.915x, 8192^3 0.954x cuBLAS). */
typedef struct gemm_sk {
    int tiles_x;     /* tiles along n */
    int dp_tiles;    /* whole waves of tiles, run whole */
    int sk_tiles;    /* the rest, in shares of k-steps */
    int nk;          /* k-steps a tile */
    float *part;     /* 2 G slots of BM x BN floats */
} gemm_sk;

/* The block whose share holds iteration it of I over G blocks. */
static __device__ __forceinline__ int gemm_sk_owner(long long it, long long iters, int blocks)
{
    return (int)(((it + 1) * blocks + iters - 1) / iters) - 1;
}

/* Block c's slot for the parts of share-tile st (its first tile's slot, or
 * its last's). */
static __device__ __forceinline__ float *gemm_sk_slot(const gemm_sk &sk, int c, int st, long long iters, int blocks,
                                                      int tile_elems)
{
    const int c_first = (int)(((long long)c * iters / blocks) / sk.nk);
    return sk.part + (size_t)(2 * c + (st != c_first)) * tile_elems;
}

/* One segment of share c: tile st's k-steps [ks, ke), stored whole or
 * written as the share's part `slot` (0: its first tile, 1: its last). */
template <class TL, int BM, int BN, int BK, int T>
__device__ __forceinline__ void gemm_sk_segment(const gemm_args &g, const gemm_sk &sk, int c, int st, int ks, int ke,
                                                int slot, float (&acc)[TL::MI * 4][TL::NI * 4],
                                                float (*As)[TL::A_STAGE], float (*Bs)[TL::B_STAGE], int a_off,
                                                int b_off)
{
    const int tile = sk.dp_tiles + st, m0 = (tile / sk.tiles_x) * BM, n0 = (tile % sk.tiles_x) * BN;
    gemm_nn_tile<TL, BM, BN, BK, T>(g, m0, n0, ks * BK, min(g.k - ks * BK, (ke - ks) * BK), acc, As, Bs, a_off,
                                    b_off);
    if (ks == 0 && ke == sk.nk) {
        gemm_wt_store<TL>(g, acc, m0 + a_off, n0 + b_off);
        return;
    }
    /* Each thread's fragment in 16-byte pieces, thread-interleaved (coalesced). */
    float4 *mine = (float4 *)(sk.part + (size_t)(2 * c + slot) * BM * BN) + threadIdx.x;
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
        for (int j = 0; j < TL::NI; j++)
            mine[(i * TL::NI + j) * T] = make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2],
                                                     acc[i][4 * j + 3]);
}

/* A share is sk_tiles nk / G < nk k-steps (sk_tiles < G): the end of one
 * tile and the start of the next at most.  Each segment is a block of its
 * own, so a block runs one straight tile loop, as the split kernel does
 * (both segments in one block took 233 registers and ran 0.91 of the plain
 * kernel's rate on the H200): blocks 0 .. G-1 the shares' first segments,
 * one an SM; blocks G .. 2G-1 their second segments, longest first
 * (`second`, gp_gemm_sk_order in gemm.h), so that the SM that finishes its first
 * segment soonest, whose share's start lies deepest in a tile, takes the
 * longest second one, as the hardware deals blocks in order to the SMs
 * that free up. */
typedef struct gemm_sk_order {
    unsigned short second[GP_GEMM_SK_MAX_BLOCKS];
} gemm_sk_order;

template <int BM, int BN, int BK, int WM, int WN, int LR, int T>
__global__ void __launch_bounds__(T, 1) gp_gemm_wt_nn_sk_kernel(gemm_args g, gemm_sk sk, gemm_sk_order ord)
{
    const int blocks = (int)gridDim.x / 2, j = (int)blockIdx.x, second = j >= blocks;
    const int c = second ? ord.second[j - blocks] : j;
    const long long iters = (long long)sk.sk_tiles * sk.nk, s0 = c * iters / blocks, s1 = (c + 1) * iters / blocks;
    const int st = (int)(s0 / sk.nk), ks = (int)(s0 % sk.nk), rest = (int)(s1 - (long long)(st + 1) * sk.nk);
    if (second && rest <= 0)
        return;
    typedef gemm_tiling<BM, BN, BK, WM, WN, LR, T> TL;
    __shared__ __align__(16) float As[2][TL::A_STAGE];
    __shared__ __align__(16) float Bs[2][TL::B_STAGE];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int a_off = wr * WM + (lane / TL::LC) * 4, b_off = wc * WN + (lane % TL::LC) * 4;
    float acc[TL::MI * 4][TL::NI * 4];
    /* One call, the segment's bounds selected before it: one tile loop in the code. */
    const int seg_st = second ? st + 1 : st, seg_ks = second ? 0 : ks;
    const int seg_ke = second ? rest : (int)min((long long)sk.nk, ks + (s1 - s0));
    gemm_sk_segment<TL, BM, BN, BK, T>(g, sk, c, seg_st, seg_ks, seg_ke, second, acc, As, Bs, a_off, b_off);
}

/* The parts of each share-tile that no one block covered, added in block
 * (k) order, and C stored: one block a tile, each thread the fragment its
 * namesake in the share kernel wrote. */
template <int BM, int BN, int BK, int WM, int WN, int LR, int T>
__global__ void __launch_bounds__(T, 1) gp_gemm_wt_nn_sk_fixup(gemm_args g, gemm_sk sk, int blocks)
{
    typedef gemm_tiling<BM, BN, BK, WM, WN, LR, T> TL;
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int a_off = wr * WM + (lane / TL::LC) * 4, b_off = wc * WN + (lane % TL::LC) * 4;
    const int st = (int)blockIdx.x;
    const long long iters = (long long)sk.sk_tiles * sk.nk, t0 = (long long)st * sk.nk;
    const int first = gemm_sk_owner(t0, iters, blocks), final_ = gemm_sk_owner(t0 + sk.nk - 1, iters, blocks);
    if (first == final_)
        return; /* one share held the tile: stored whole */
    float acc[TL::MI * 4][TL::NI * 4];
#pragma unroll
    for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
        for (int j = 0; j < TL::NI * 4; j++)
            acc[i][j] = 0.0f;
    for (int c = first; c <= final_; c++) {
        const float4 *src = (const float4 *)gemm_sk_slot(sk, c, st, iters, blocks, BM * BN) + t;
#pragma unroll
        for (int i = 0; i < TL::MI * 4; i++)
#pragma unroll
            for (int j = 0; j < TL::NI; j++) {
                const float4 v = src[(i * TL::NI + j) * T];
                acc[i][4 * j] += v.x, acc[i][4 * j + 1] += v.y, acc[i][4 * j + 2] += v.z, acc[i][4 * j + 3] += v.w;
            }
    }
    const int tile = sk.dp_tiles + st;
    gemm_wt_store<TL>(g, acc, (tile / sk.tiles_x) * BM + a_off, (tile % sk.tiles_x) * BN + b_off);
}

/* The kernel of a configuration: the warp-tiled one where the thread tile
 * is 8 x 16, the quadrant one (8 x 8) otherwise (chosen at compile time, so
 * each configuration instantiates one). */
template <int BM, int BN, int BK, int THREADS, int AKC, int BKC, bool WT = BM * BN / THREADS == 128>
struct gemm_kern {
    static void run(dim3 grid, const gemm_args &g, hipStream_t st)
    {
        gp_gemm_kernel<BM, BN, BK, THREADS, AKC, BKC><<<grid, THREADS, 0, st>>>(g);
    }
    static bool run_sk(int, const gemm_args &, const gemm_sk &, hipStream_t) { return false; }
};
/* Among the warp-tiled: CFG5 with A k-contiguous, B n-contiguous runs the
 * experiment's kernel (a partial specialization, not a plain if: only the
 * instantiation that launches it compiles it, and C++14 for hipcc). */
template <int BM, int BN, int BK, int THREADS, int AKC, int BKC,
          bool NN = BM == 128 && BN == 256 && BK == 8 && THREADS == 256 && AKC == 1 && BKC == 0>
struct gemm_wt {
    static void run(dim3 grid, const gemm_args &g, hipStream_t st)
    {
        if (grid.z > 1)
            gp_gemm_wt_kernel<BM, BN, BK, THREADS, AKC, BKC, true><<<grid, THREADS, 0, st>>>(g);
        else
            gp_gemm_wt_kernel<BM, BN, BK, THREADS, AKC, BKC, false><<<grid, THREADS, 0, st>>>(g);
    }
    static bool run_sk(int, const gemm_args &, const gemm_sk &, hipStream_t) { return false; }
};
template <int BM, int BN, int BK, int THREADS, int AKC, int BKC>
struct gemm_wt<BM, BN, BK, THREADS, AKC, BKC, true> {
    static void run(dim3 grid, const gemm_args &g, hipStream_t st)
    {
        if (grid.z > 1)
            gp_gemm_wt_nn_kernel<BM, BN, BK, WT_WM, WT_WN, WT_LR, THREADS, 1, 1><<<grid, THREADS, 0, st>>>(g);
        else
            gp_gemm_wt_nn_kernel<BM, BN, BK, WT_WM, WT_WN, WT_LR, THREADS, 1, 0><<<grid, THREADS, 0, st>>>(g);
    }
    /* The whole waves (the plain kernel's grid, rows enough for dp_tiles),
     * then the rest in shares. */
    static bool run_sk(int blocks, const gemm_args &g, const gemm_sk &sk, hipStream_t st)
    {
        if (sk.dp_tiles > 0) {
            gemm_args d = g;
            d.kc = sk.dp_tiles;
            dim3 grid((unsigned)sk.tiles_x, (unsigned)((sk.dp_tiles + sk.tiles_x - 1) / sk.tiles_x));
            gp_gemm_wt_nn_kernel<BM, BN, BK, WT_WM, WT_WN, WT_LR, THREADS, 1, 2><<<grid, THREADS, 0, st>>>(d);
        }
        gemm_sk_order ord;
        gp_gemm_sk_order(sk.sk_tiles, blocks, ord.second);
        gp_gemm_wt_nn_sk_kernel<BM, BN, BK, WT_WM, WT_WN, WT_LR, THREADS><<<2 * blocks, THREADS, 0, st>>>(g, sk, ord);
        gp_gemm_wt_nn_sk_fixup<BM, BN, BK, WT_WM, WT_WN, WT_LR, THREADS><<<sk.sk_tiles, THREADS, 0, st>>>(g, sk, blocks);
        return true;
    }
};
template <int BM, int BN, int BK, int THREADS, int AKC, int BKC>
struct gemm_kern<BM, BN, BK, THREADS, AKC, BKC, true> {
    static void run(dim3 grid, const gemm_args &g, hipStream_t st)
    {
        gemm_wt<BM, BN, BK, THREADS, AKC, BKC>::run(grid, g, st);
    }
    static bool run_sk(int blocks, const gemm_args &g, const gemm_sk &sk, hipStream_t st)
    {
        return gemm_wt<BM, BN, BK, THREADS, AKC, BKC>::run_sk(blocks, g, sk, st);
    }
};

/* The split's second pass: C = the sum of the splits' partial products (in
 * split order, so the result does not depend on the schedule) + beta C
 * (beta 0: C not read).  One thread a column, rows by grid.y. */
__global__ void __launch_bounds__(256) gp_gemm_split_sum(gemm_args g, const float *w, int ldw, int splits)
{
    const int col = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (col >= g.n)
        return;
    for (int row = (int)blockIdx.y; row < g.m; row += (int)gridDim.y) {
        const float *p = w + (size_t)row * ldw + col;
        float s = p[0];
        for (int z = 1; z < splits; z++)
            s += p[(size_t)z * g.ws];
        float *c = g.c + (size_t)row * g.ldc + col;
        *c = g.beta != 0.0f ? fmaf(g.beta, *c, s) : s;
    }
}

/* A configuration whose register class is not this target's (gemm.h masks,
 * GP_REG_CLASS) is not instantiated: its launcher only says so.  The host
 * code never gets here for it (gp_gemm_params_fit and gp_gemm_f32 check the
 * device's class first).  split > 1: k in splits of a whole number of
 * k-steps into `work` (gp_gemm_split_ld x m floats a split), then the sum. */
template <int BM, int BN, int BK, int THREADS, bool ON>
struct gemm_cfg {
    static void run(int a_kc, int b_kc, dim3 grid, const gemm_args &g, hipStream_t st)
    {
        switch (a_kc * 2 + b_kc) {
        case 0: gemm_kern<BM, BN, BK, THREADS, 0, 0>::run(grid, g, st); break;
        case 1: gemm_kern<BM, BN, BK, THREADS, 0, 1>::run(grid, g, st); break;
        case 2: gemm_kern<BM, BN, BK, THREADS, 1, 0>::run(grid, g, st); break;
        default: gemm_kern<BM, BN, BK, THREADS, 1, 1>::run(grid, g, st); break;
        }
    }
    /* Stream-K over the last wave where this configuration and layout have
     * the kernel (gemm.h, gp_gemm_sk_plan); false: launch it whole. */
    static gp_status launch_sk(int a_kc, int b_kc, const gemm_args &g, int blocks, float *work, hipStream_t st,
                               bool *done)
    {
        gp_gemm_sk_shape sh;
        *done = false;
        if (!gp_gemm_sk_plan(g.m, g.n, g.k, BM, BN, BK, blocks, &sh) || a_kc != 1 || b_kc != 0)
            return gp_ok();
        gemm_sk sk;
        sk.tiles_x = sh.tiles_x, sk.dp_tiles = sh.dp_tiles, sk.sk_tiles = sh.sk_tiles, sk.nk = sh.nk;
        sk.part = work;
        *done = gemm_kern<BM, BN, BK, THREADS, 1, 0>::run_sk(blocks, g, sk, st);
        return *done ? gp_launch_status("gemm stream-K") : gp_ok();
    }
    static gp_status launch(int a_kc, int b_kc, const gemm_args &g, int split, int sk_blocks, float *work,
                            hipStream_t st)
    {
        if (sk_blocks > 0 && work) {
            bool done;
            GP_TRY(launch_sk(a_kc, b_kc, g, sk_blocks, work, st, &done));
            if (done)
                return gp_ok();
        }
        dim3 grid((unsigned)((g.n + BN - 1) / BN), (unsigned)((g.m + BM - 1) / BM));
        const int kc = gp_gemm_split_kc(g.k, split, BK), splits = (g.k + kc - 1) / kc;
        if (splits <= 1 || !GP_GEMM_SPLITS(BM, BN, THREADS)) {
            run(a_kc, b_kc, grid, g, st);
            return gp_launch_status("gemm");
        }
        gemm_args p = g;
        p.beta = 0.0f, p.c = work, p.ldc = gp_gemm_split_ld(g.n), p.kc = kc, p.ws = (long long)p.ldc * g.m;
        grid.z = (unsigned)splits;
        run(a_kc, b_kc, grid, p, st);
        GP_TRY(gp_launch_status("gemm"));
        gemm_args q = g;
        q.ws = p.ws;
        dim3 sum_grid((unsigned)((g.n + 255) / 256), (unsigned)(g.m < 65535 ? g.m : 65535));
        gp_gemm_split_sum<<<sum_grid, 256, 0, st>>>(q, work, p.ldc, splits);
        return gp_launch_status("gemm split sum");
    }
};
template <int BM, int BN, int BK, int THREADS>
struct gemm_cfg<BM, BN, BK, THREADS, false> {
    static gp_status launch(int, int, const gemm_args &, int, int, float *, hipStream_t)
    {
        return gp_fail(GP_ERR_USAGE, "gemm: tile %dx%dx%d/%d is not compiled for this target's register class", BM,
                       BN, BK, THREADS);
    }
};

template <int BM, int BN, int BK, int THREADS, unsigned MASK>
static gp_status launch_cfg(int a_kc, int b_kc, const gemm_args &g, int split, int sk_blocks, float *work,
                            hipStream_t st)
{
    return gemm_cfg<BM, BN, BK, THREADS, (MASK & GP_REG_CLASS) != 0>::launch(a_kc, b_kc, g, split, sk_blocks, work,
                                                                             st);
}

extern "C" gp_status gp_gemm_launch_rm(int config, int a_kc, int b_kc, int m, int n, int k, float alpha,
                                       const float *a, int lda, const float *b, int ldb, float beta, float *c,
                                       int ldc, int split, int sk_blocks, float *work, gp_stream s)
{
    hipStream_t st = (hipStream_t)s;
    gemm_args g;
    g.m = m, g.n = n, g.k = k, g.alpha = alpha, g.beta = beta;
    g.a = a, g.b = b, g.c = c, g.lda = lda, g.ldb = ldb, g.ldc = ldc;
    g.kc = k, g.ws = 0;
    switch (config) {
    case 0: return launch_cfg<GP_GEMM_CFG0>(a_kc, b_kc, g, split, sk_blocks, work, st);
    case 1: return launch_cfg<GP_GEMM_CFG1>(a_kc, b_kc, g, split, sk_blocks, work, st);
    case 2: return launch_cfg<GP_GEMM_CFG2>(a_kc, b_kc, g, split, sk_blocks, work, st);
    case 3: return launch_cfg<GP_GEMM_CFG3>(a_kc, b_kc, g, split, sk_blocks, work, st);
    case 4: return launch_cfg<GP_GEMM_CFG4>(a_kc, b_kc, g, split, sk_blocks, work, st);
    case 5: return launch_cfg<GP_GEMM_CFG5>(a_kc, b_kc, g, split, sk_blocks, work, st);
    default: return gp_fail(GP_ERR_USAGE, "gemm: configuration %d not compiled", config);
    }
}
