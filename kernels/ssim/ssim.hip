/* ssim kernels: the fused separable SSIM forward, the naive 121-tap baseline
 * and the deterministic mean (docs/kernels/ssim.md).
 *
 * Fused kernel, per row group (tile_x threads, one output column each):
 * the group walks a strip of tile_y output rows down the image in passes of
 * GP_SSIM_ROWS (8) input rows.  Each pass
 *   stage   : 8 input rows x (tile_x + 16) columns of x and y go to LDS, less
 *             the strip's shift (s_x, s_y) and with zeros outside the image;
 *   phase 1 : each thread filters 8 adjacent columns of one row horizontally
 *             (4 moments: x, y, x^2 + y^2, x y; 11 taps) and writes them to LDS;
 *   phase 2 : each thread takes its column's 4 moments of each row and feeds
 *             them to a register pipeline of partial sums (10 per moment):
 *             one FMA per tap per moment, and each completed output row
 *             gives one SSIM value, stored and summed.
 * Four moments instead of five: only sigma_x^2 + sigma_y^2 enters the
 * formula, so E[x^2 + y^2] replaces E[x^2] and E[y^2].  The shift (a pixel of
 * the strip) keeps E[x'^2] - mu'^2 from cancelling: on a constant image the
 * shifted moments are exactly 0. */
#include "gp_device.h"
#include "ssim.h"

#define R GP_SSIM_ROWS
#define HALO GP_SSIM_HALF
#define LPAD 8 /* staging columns left of the tile: keeps float4 groups aligned */

#define C1F ((float)GP_SSIM_C1)
#define C2F ((float)GP_SSIM_C2)

/* One float4 group of 4 input columns [col, col + 4) at element offset
 * `off` (= row * w + col) of a plane, zero outside the image (row_ok: the
 * row is inside), less the shift. */
template <bool VEC>
static __device__ __forceinline__ float4 ssim_ld4(const float *P, bool row_ok, long long off, int col, int w, float s)
{
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    const float *p = P + off;
    if (VEC) {
        /* w % 4 == 0: the group is all in or all out.  One predicate for the
         * row and the column: a predicated load, no branch. */
        if (row_ok && (unsigned)col < (unsigned)w)
            v = *(const float4 *)p;
    } else if (row_ok) {
        if ((unsigned)col < (unsigned)w)
            v.x = p[0];
        if ((unsigned)(col + 1) < (unsigned)w)
            v.y = p[1];
        if ((unsigned)(col + 2) < (unsigned)w)
            v.z = p[2];
        if ((unsigned)(col + 3) < (unsigned)w)
            v.w = p[3];
    }
    v.x -= s;
    v.y -= s;
    v.z -= s;
    v.w -= s;
    return v;
}

/* Halo group h (0..63: image h >> 5, row (h >> 2) & 7, side h & 3): its
 * first column, for a tile body starting at column c0 (LPAD in staging). */
static __device__ __forceinline__ int ssim_hcol(int h, int c0, int tx)
{
    const int side = h & 3;
    return side < 2 ? c0 - LPAD + 4 * side : c0 + tx + 4 * (side - 2);
}

/* Tap t (a compile-time constant after unrolling) as an immediate. */
static __device__ __forceinline__ float ssim_g(int t)
{
    const int d = t < GP_SSIM_HALF ? t : GP_SSIM_WIN - 1 - t;
    return d == 0 ? GP_SSIM_G0 : d == 1 ? GP_SSIM_G1 : d == 2 ? GP_SSIM_G2 : d == 3 ? GP_SSIM_G3
         : d == 4 ? GP_SSIM_G4 : GP_SSIM_G5;
}

/* The separable weights split unevenly between the passes: the horizontal
 * pass takes g[t] g0 and the vertical g[t] / g0, so the product of a pair is
 * g[i] g[j] as before (to an ulp of each weight) but the vertical pass's
 * first tap is exactly 1, and its pipeline starts from the moment itself
 * with no multiply (4 instructions an output).  The horizontal sums shrink
 * by g0 (1e-3); nothing grows, so no input overflows that did not before. */
static __device__ __forceinline__ float ssim_gh(int t)
{
    return ssim_g(t) * GP_SSIM_G0;
}

static __device__ __forceinline__ float ssim_gv(int t)
{
    return ssim_g(t) / GP_SSIM_G0; /* g0 / g0: exactly 1 at both ends */
}

static __device__ __forceinline__ float ssim_comp(float4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* SSIM from the shifted moments (means mux, muy, E[x'^2 + y'^2], E[x' y'])
 * and the shifts. */
static __device__ __forceinline__ float ssim_formula(float mux, float muy, float mq, float mp, float sx, float sy)
{
    const float mx = mux + sx, my = muy + sy;
    float vs = fmaf(-mux, mux, mq);
    vs = fmaf(-muy, muy, vs);             /* sigma_x^2 + sigma_y^2 */
    const float cv = fmaf(-mux, muy, mp); /* sigma_xy */
    const float n1 = fmaf(2.0f * mx, my, C1F);
    const float d1 = fmaf(mx, mx, fmaf(my, my, C1F));
    const float n2 = fmaf(2.0f, cv, C2F);
    const float d2 = vs + C2F;
    return __fdividef(n1 * n2, d1 * d2); /* d1 d2 >= C1 C2: no overflow or denormal path */
}

/* One input row hv (the 4 horizontally filtered moments of this column)
 * through the vertical pipeline: after it, A[m][k] holds output row
 * i - 4 + k with taps 0 .. 9 - k, and out[m] the completed output row i - 5.
 * One FMA a tap; the first tap (weight 1, see ssim_gv) costs nothing. */
static __device__ __forceinline__ void ssim_vrow(float (&A)[4][10], float4 hv, float (&out)[4])
{
    const float h4[4] = {hv.x, hv.y, hv.z, hv.w};
#pragma unroll
    for (int m = 0; m < 4; m++) {
        out[m] = fmaf(ssim_gv(10), h4[m], A[m][0]);
#pragma unroll
        for (int kk = 0; kk < 9; kk++)
            A[m][kk] = fmaf(ssim_gv(9 - kk), h4[m], A[m][kk + 1]);
        A[m][9] = h4[m];
    }
}

/* One pass of phase 2: its R input rows (mp: this column's first moment
 * row, MP float4 apart) through the vertical pipeline; each completed strip
 * row's SSIM is stored (where the column is in the map: mrow, map_w
 * apart) and summed.  ROW_TEST: only rows [rlo, rlo + rn) of the pass
 * complete strip rows; without it every row does. */
template <int UNROLL, bool ROW_TEST, int MP>
static __device__ __forceinline__ float ssim_vpass(float (&A)[4][10], const float4 *mp, float *mrow, int map_w,
                                                   int rlo, int rn, bool col_ok, float sx, float sy)
{
    float csum = 0.0f;
#pragma unroll UNROLL
    for (int rr = 0; rr < R; rr++, mrow += map_w, mp += MP) {
        float out[4];
        ssim_vrow(A, *mp, out);
        if (!ROW_TEST || (unsigned)(rr - rlo) < (unsigned)rn) {
            const float s = ssim_formula(out[0], out[1], out[2], out[3], sx, sy);
            if (col_ok)
                *mrow = s;
            csum += s;
        }
    }
    return csum;
}

/* Block-wide sum of one double per thread, fixed order (blockDim.x a power
 * of 2); red holds blockDim.x doubles.  Result in red[0] for thread 0. */
static __device__ __forceinline__ double ssim_block_sum(double v, double *red)
{
    red[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    return red[0];
}

/* Phase-1 outputs per round: all 8 at once where a thread has 255/256
 * registers; on 128-VGPR targets (gfx11 under clang 15, whose cap ignores the
 * launch bounds) two rounds of 4: the 40 pipeline sums stay live across
 * phase 1, and 8 outputs x 4 moments more (plus the prefetched rows) spilled
 * 12-28 bytes there; 4 x 4 frees 16 VGPRs for 4 more input loads per round.
 * Those targets also keep phase 2 to its one loop with the row test: the
 * unrolled loop of the full passes (below) spilled 12-32 bytes there. */
#if GP_VGPR_BUDGET <= 128
#define SSIM_P1 4
#define SSIM_P1_LOOP _Pragma("unroll 1")
#define SSIM_FULL_PASSES 0
#else
#define SSIM_P1 8
#define SSIM_P1_LOOP
#define SSIM_FULL_PASSES 1
#endif

/* At most 128 registers per thread: __launch_bounds__(256, 2) means 2
 * blocks of 256 per SM on NVIDIA (65536 / 512 = 128 registers) and 2 waves
 * per SIMD on AMD (256 / 2 = 128 VGPRs): the same cap on both. */
template <int TX, bool VEC, bool PF>
__global__ void __launch_bounds__(GP_SSIM_MAX_BLOCK, 2) gp_ssim_fused_kernel(const gp_ssim_args a)
{
    extern __shared__ float4 gp_ssim_smem[];
    constexpr int SP = TX + 20;            /* staging row pitch, floats (odd number of float4) */
    constexpr int MP = TX + 1;             /* moment row pitch, float4 (odd) */
    constexpr int GROUP_F4 = R * MP + R * SP / 2;
    constexpr int QB = TX / 4;             /* float4 groups per row in the tile body */
    constexpr int HM = (64 + TX - 1) / TX; /* halo groups (8 rows x 4 groups x 2 images = 64) per thread */
    /* Rows of a full pass unrolled: all 8, but 2 where the prefetch holds the
     * most registers across them (32-wide groups with scalar loads: 2 halo
     * groups a thread), which spilled 4-36 bytes fully unrolled (ptxas,
     * sm_80 and sm_90). */
    constexpr int FULL_UNROLL = VEC || TX > 32 || !PF ? R : 2;

    const int u = threadIdx.x % TX;
    const int grp = threadIdx.x / TX;
    float4 *M = gp_ssim_smem + grp * GROUP_F4;
    float *Sx = (float *)(M + R * MP);
    float *Sy = Sx + R * SP;

    long long b = blockIdx.x;
    const int bx = (int)(b % a.ntx);
    b /= a.ntx;
    const int by = (int)(b % a.nby);
    const long long plane = b / a.nby;
    const int c0 = (a.tx_first + bx) * TX;
    const int o0 = a.oy_lo + (by * a.groups + grp) * a.tile_y;
    const int o_end = min(o0 + a.tile_y, a.oy_hi);
    const float *X = a.x + plane * a.plane_elems;
    const float *Y = a.y + plane * a.plane_elems;

    /* The strip's shift: the pixel at its centre (clamped into the image);
     * 0 when that pixel is not finite, so a NaN does not spread past its
     * window. */
    const int sr = min(max(o0 + a.tile_y / 2, 0), a.h - 1);
    const int sc = min(max(c0 + TX / 2, 0), a.w - 1);
    float sx = X[(long long)sr * a.w + sc], sy = Y[(long long)sr * a.w + sc];
    sx = fabsf(sx) <= 3.0e38f ? sx : 0.0f;
    sy = fabsf(sy) <= 3.0e38f ? sy : 0.0f;

    /* Staging geometry, the same every pass: 4 body groups (rows rb, rb + 4
     * of x and y) and HM halo groups (8 columns each side). */
    const int qb = u % QB, rb = u / QB;
    const int bcol = c0 + 4 * qb;
    const int boff = rb * SP + LPAD + 4 * qb;
#define SSIM_LOAD(k)                                                                                 \
    do {                                                                                             \
        const int r0_ = o0 - HALO + R * (k) + rb; /* body rows r0_ and r0_ + 4 */                    \
        const long long g0_ = (long long)r0_ * a.w + bcol, g4_ = g0_ + 4ll * a.w;                    \
        const bool ok0_ = (unsigned)r0_ < (unsigned)a.h, ok4_ = (unsigned)(r0_ + 4) < (unsigned)a.h; \
        pb[0] = ssim_ld4<VEC>(X, ok0_, g0_, bcol, a.w, sx);                                          \
        pb[1] = ssim_ld4<VEC>(X, ok4_, g4_, bcol, a.w, sx);                                          \
        pb[2] = ssim_ld4<VEC>(Y, ok0_, g0_, bcol, a.w, sy);                                          \
        pb[3] = ssim_ld4<VEC>(Y, ok4_, g4_, bcol, a.w, sy);                                          \
        _Pragma("unroll") for (int m_ = 0; m_ < HM; m_++) {                                          \
            const int h_ = u + m_ * TX;                                                              \
            const int hr_ = o0 - HALO + R * (k) + ((h_ >> 2) & 7), hc_ = ssim_hcol(h_, c0, TX);      \
            if (h_ < 64)                                                                             \
                ph[m_] = ssim_ld4<VEC>(h_ < 32 ? X : Y, (unsigned)hr_ < (unsigned)a.h,               \
                                       (long long)hr_ * a.w + hc_, hc_, a.w, h_ < 32 ? sx : sy);     \
        }                                                                                            \
    } while (0)
#define SSIM_STORE()                                                                                 \
    do {                                                                                             \
        *(float4 *)(Sx + boff) = pb[0];                                                              \
        *(float4 *)(Sx + boff + 4 * SP) = pb[1];                                                     \
        *(float4 *)(Sy + boff) = pb[2];                                                              \
        *(float4 *)(Sy + boff + 4 * SP) = pb[3];                                                     \
        _Pragma("unroll") for (int m_ = 0; m_ < HM; m_++) {                                          \
            const int h_ = u + m_ * TX;                                                              \
            if (h_ < 64)                                                                             \
                *(float4 *)((h_ < 32 ? Sx : Sy) + ((h_ >> 2) & 7) * SP + ssim_hcol(h_, LPAD, TX)) = ph[m_]; \
        }                                                                                            \
    } while (0)

    {
        float4 pb[4], ph[HM];
        SSIM_LOAD(0);
        SSIM_STORE();
    }
    __syncthreads();

    /* Vertical pipeline: after input row i, A[m][k] holds output row
     * i - 4 + k with taps 0 .. 9 - k of moment m. */
    float A[4][10];
#pragma unroll
    for (int m = 0; m < 4; m++)
#pragma unroll
        for (int k = 0; k < 10; k++)
            A[m][k] = 0.0f;

    const int col = c0 + u;
    const bool col_ok = col >= a.ox_lo && col < a.ox_hi;
    float *mapc = a.map + plane * a.map_plane + (col - a.ox_lo);
    const float4 *mcol = M + u; /* phase 2: this thread's column of the moment rows */
    double dsum = 0.0;
    const int pr = u & 7, pj = u >> 3; /* phase 1: row pr, columns 8 pj .. 8 pj + 7 */
    const float4 *p1x = (const float4 *)(Sx + pr * SP + 8 * pj);
    const float4 *p1y = (const float4 *)(Sy + pr * SP + 8 * pj);
    float4 *p1m = M + pr * MP + 8 * pj;

    for (int k = 0; k < a.nchunks; k++) {
        /* ---- phase 1: horizontal, 8 outputs (staging columns 8pj+8 ..) from inputs 8pj+3 .. 8pj+20,
         * in rounds of P1 outputs (SSIM_P1) from inputs 8pj+3+q0 .. 8pj+12+q0+P1 */
        SSIM_P1_LOOP
        for (int q0 = 0; q0 < 8; q0 += SSIM_P1) {
            constexpr int P1 = SSIM_P1;
            float acc[4][P1];
            float4 xa, ya;
#pragma unroll
            for (int t = 0; t < P1 + GP_SSIM_WIN - 1; t++) {
                /* input t is staging column 8 pj + 3 + q0 + t: load each float4 just before its first use */
                if (t == 0 || ((t + 3) & 3) == 0) {
                    xa = p1x[((t + 3) >> 2) + q0 / 4];
                    ya = p1y[((t + 3) >> 2) + q0 / 4];
                }
                const float xv = ssim_comp(xa, (t + 3) & 3);
                const float yv = ssim_comp(ya, (t + 3) & 3);
                const float q = fmaf(yv, yv, xv * xv), p = xv * yv;
#pragma unroll
                for (int o = 0; o < P1; o++) {
                    const int tap = t - o;
                    if (tap < 0 || tap >= GP_SSIM_WIN)
                        continue;
                    if (tap == 0) {
                        acc[0][o] = ssim_gh(0) * xv;
                        acc[1][o] = ssim_gh(0) * yv;
                        acc[2][o] = ssim_gh(0) * q;
                        acc[3][o] = ssim_gh(0) * p;
                    } else {
                        acc[0][o] = fmaf(ssim_gh(tap), xv, acc[0][o]);
                        acc[1][o] = fmaf(ssim_gh(tap), yv, acc[1][o]);
                        acc[2][o] = fmaf(ssim_gh(tap), q, acc[2][o]);
                        acc[3][o] = fmaf(ssim_gh(tap), p, acc[3][o]);
                    }
                }
            }
#pragma unroll
            for (int o = 0; o < P1; o++)
                p1m[q0 + o] = make_float4(acc[0][o], acc[1][o], acc[2][o], acc[3][o]);
        }
        __syncthreads();
        /* The next pass's input, loaded unconditionally: after the last pass
         * it is a harmless extra (rows past the image read as zeros), and a
         * branch here costs ~40 registers in ptxas (measured). */
        float4 pb[4], ph[HM];
        if (PF)
            SSIM_LOAD(k + 1);

        /* ---- phase 2: vertical pipeline down the column, SSIM per completed row */
        /* Input row ib + rr completes output row ib + rr - 5; rows [rlo, rlo + rn) of this pass
         * complete rows of the strip.  mrow: this column's map entry in the row pass row 0 would
         * complete (outside the map before rlo; only rows of the strip are stored). */
        const int ib = o0 - HALO + R * k;
        const int rlo = o0 - (ib - HALO), rn = max(o_end - o0, 0); /* 0: strip past the map */
        float *mrow = mapc + (long long)(ib - HALO - a.oy_lo) * a.map_w;
        /* Most passes complete a strip row at every input row (all but the
         * first two and the last of a strip).  They run all 8 rows unrolled
         * without the row test, and the column test (constant per thread)
         * predicates the store and masks the sum once a pass: no branch in
         * the body.  With the weight split (ssim_gv) that issued 8.5 % fewer
         * instructions on the H200's 4K image than one loop unrolled by 2
         * with both tests; the full unrolling is 3 points of it, for about
         * 8 KB more code an instantiation (warps stalled on instruction
         * fetch: 0.05 per issued instruction).  The other passes keep the
         * loop unrolled by 2 with the row test. */
        const float csum = SSIM_FULL_PASSES && rlo <= 0 && rlo + rn >= R
                               ? ssim_vpass<FULL_UNROLL, false, MP>(A, mcol, mrow, a.map_w, rlo, rn, col_ok, sx, sy)
                               : ssim_vpass<2, true, MP>(A, mcol, mrow, a.map_w, rlo, rn, col_ok, sx, sy);
        dsum += col_ok ? (double)csum : 0.0;
        if (!PF)
            SSIM_LOAD(k + 1);
        SSIM_STORE();
        __syncthreads();
    }
#undef SSIM_LOAD
#undef SSIM_STORE

    const double tot = ssim_block_sum(dsum, (double *)gp_ssim_smem);
    if (threadIdx.x == 0)
        a.partials[blockIdx.x] = tot;
}

/* Naive baseline: one thread per output pixel, 121 taps (weight g[dy] g[dx]),
 * 5 moments, shifted by the pixel's own value (so it is as accurate as the
 * reference).  The row loop stays rolled: unrolled, its 242 loads exceed
 * the register file on gfx900. */
__global__ void GP_LAUNCH_BOUNDS(256) gp_ssim_naive_kernel(const gp_ssim_args a, long long nbx)
{
    __shared__ double red[256];
    long long b = blockIdx.x;
    const long long bx = b % nbx;
    b /= nbx;
    const int map_h = a.oy_hi - a.oy_lo;
    const int nby = (map_h + 15) / 16;
    const int by = (int)(b % nby);
    const long long plane = b / nby;
    const int mc = (int)bx * 16 + (int)(threadIdx.x & 15);
    const int mr = by * 16 + (int)(threadIdx.x >> 4);
    const float *X = a.x + plane * a.plane_elems;
    const float *Y = a.y + plane * a.plane_elems;
    double v = 0.0;
    if (mc < a.map_w && mr < map_h) {
        const int c = mc + a.ox_lo, o = mr + a.oy_lo;
        float sx = X[(long long)o * a.w + c], sy = Y[(long long)o * a.w + c];
        sx = fabsf(sx) <= 3.0e38f ? sx : 0.0f;
        sy = fabsf(sy) <= 3.0e38f ? sy : 0.0f;
        float mx = 0.f, my = 0.f, mxx = 0.f, myy = 0.f, mxy = 0.f;
#pragma unroll 1
        for (int dy = 0; dy < GP_SSIM_WIN; dy++) {
            const int r = o + dy - HALO;
            const bool rok = (unsigned)r < (unsigned)a.h;
            const float wy = ssim_g(dy);
#pragma unroll
            for (int dx = 0; dx < GP_SSIM_WIN; dx++) {
                const int cc = c + dx - HALO;
                const bool in = rok && (unsigned)cc < (unsigned)a.w;
                const long long off = (long long)r * a.w + cc;
                const float xv = (in ? X[off] : 0.0f) - sx;
                const float yv = (in ? Y[off] : 0.0f) - sy;
                const float wt = wy * ssim_g(dx);
                mx = fmaf(wt, xv, mx);
                my = fmaf(wt, yv, my);
                mxx = fmaf(wt, xv * xv, mxx);
                myy = fmaf(wt, yv * yv, myy);
                mxy = fmaf(wt, xv * yv, mxy);
            }
        }
        const float s = ssim_formula(mx, my, mxx + myy, mxy, sx, sy);
        a.map[plane * a.map_plane + (long long)mr * a.map_w + mc] = s;
        v = s;
    }
    const double tot = ssim_block_sum(v, red);
    if (threadIdx.x == 0)
        a.partials[blockIdx.x] = tot;
}

/* The mean: one block sums the block partials in a fixed order (each
 * thread a fixed stride, then a fixed tree), so the result is bitwise
 * reproducible. */
__global__ void GP_LAUNCH_BOUNDS(256) gp_ssim_mean_kernel(const double *partials, long long n, double inv_count,
                                                          double *mean)
{
    __shared__ double red[256];
    double s = 0.0;
    for (long long i = threadIdx.x; i < n; i += blockDim.x)
        s += partials[i];
    const double tot = ssim_block_sum(s, red);
    if (threadIdx.x == 0)
        mean[0] = tot * inv_count;
}

template <int TX, bool VEC, bool PF>
static gp_status launch_fused_t(const gp_ssim_args *a, int block, size_t lds, long long nblocks, gp_stream s)
{
    gp_ssim_fused_kernel<TX, VEC, PF><<<(unsigned)nblocks, (unsigned)block, lds, (hipStream_t)s>>>(*a);
    return gp_launch_status("ssim fused");
}

template <int TX>
static gp_status launch_fused_tx(const gp_ssim_args *a, int variant, int block, size_t lds, long long nblocks,
                                 gp_stream s)
{
    if (a->vec)
        return variant == GP_SSIM_VARIANT_DIRECT ? launch_fused_t<TX, true, false>(a, block, lds, nblocks, s)
                                                 : launch_fused_t<TX, true, true>(a, block, lds, nblocks, s);
    return variant == GP_SSIM_VARIANT_DIRECT ? launch_fused_t<TX, false, false>(a, block, lds, nblocks, s)
                                             : launch_fused_t<TX, false, true>(a, block, lds, nblocks, s);
}

template <int TX>
static const void *fused_fn_tx(int variant, int vec)
{
    if (vec)
        return variant == GP_SSIM_VARIANT_DIRECT ? (const void *)gp_ssim_fused_kernel<TX, true, false>
                                                 : (const void *)gp_ssim_fused_kernel<TX, true, true>;
    return variant == GP_SSIM_VARIANT_DIRECT ? (const void *)gp_ssim_fused_kernel<TX, false, false>
                                             : (const void *)gp_ssim_fused_kernel<TX, false, true>;
}

extern "C" const void *gp_ssim_fused_fn(int tile_x, int variant, int vec)
{
    switch (tile_x) {
    case 32: return fused_fn_tx<32>(variant, vec);
    case 64: return fused_fn_tx<64>(variant, vec);
    case 128: return fused_fn_tx<128>(variant, vec);
    default: return NULL;
    }
}

extern "C" gp_status gp_ssim_launch_fused(const gp_ssim_args *a, int tile_x, int variant, int block,
                                          size_t lds_bytes, long long nblocks, gp_stream stream)
{
    if (nblocks < 1 || nblocks > 0x7fffffffLL || block < tile_x || block > GP_SSIM_MAX_BLOCK ||
        block % tile_x || (block & (block - 1)) || a->nchunks < 2)
        return gp_fail(GP_ERR_USAGE, "ssim fused: bad launch (tile_x %d, block %d, %lld blocks, %d passes)",
                       tile_x, block, nblocks, a->nchunks);
    switch (tile_x) {
    case 32: return launch_fused_tx<32>(a, variant, block, lds_bytes, nblocks, stream);
    case 64: return launch_fused_tx<64>(a, variant, block, lds_bytes, nblocks, stream);
    case 128: return launch_fused_tx<128>(a, variant, block, lds_bytes, nblocks, stream);
    default: return gp_fail(GP_ERR_USAGE, "ssim fused: tile_x %d is not 32, 64 or 128", tile_x);
    }
}

extern "C" gp_status gp_ssim_launch_naive(const gp_ssim_args *a, long long nblocks_x, long long nblocks,
                                          gp_stream stream)
{
    if (nblocks < 1 || nblocks > 0x7fffffffLL || nblocks_x < 1)
        return gp_fail(GP_ERR_USAGE, "ssim naive: bad grid (%lld blocks)", nblocks);
    gp_ssim_naive_kernel<<<(unsigned)nblocks, 256, 0, (hipStream_t)stream>>>(*a, nblocks_x);
    return gp_launch_status("ssim naive");
}

extern "C" gp_status gp_ssim_launch_mean(const double *partials, long long n, double inv_count, double *mean,
                                         gp_stream stream)
{
    if (n < 1)
        return gp_fail(GP_ERR_USAGE, "ssim mean: no partial sums");
    gp_ssim_mean_kernel<<<1, 256, 0, (hipStream_t)stream>>>(partials, n, inv_count, mean);
    return gp_launch_status("ssim mean");
}
