/* conv2d kernels: direct convolution (cross-correlation), NCHW fp32.
 *
 * Tiled kernel: one block computes a tile_x x tile_y output tile for OCB
 * output channels.  The input channels go through LDS in stages of
 * ic_per_stage channels (tile plus the kh-1 / kw-1 halo, zeros outside the
 * image), double-buffered: while the block computes stage s from one buffer,
 * the copies of stage s+1 (4-column chunks, 16-byte aligned in global
 * memory) into the other are in flight: cp.async on sm_80+, else loads into
 * registers stored after the compute; one barrier per stage.  The weights of the
 * block's output channels sit in LDS for all input channels when they fit
 * ("resident"), else they travel with each stage.
 *
 * Compute: each thread accumulates a 4 x RY pixel x OCB channel register
 * block.  For one kernel row it loads its RY input row segments (4 + kw - 1
 * values each) into registers with 16-byte LDS reads, and for each tap one
 * LDS read of the OCB weights (a broadcast: every lane reads the same
 * address) feeds 4 x RY x OCB FMAs.  Square kernels 3, 5, 6, 7 are
 * compile-time sizes (unrolled taps; the next kernel row's segments are
 * loaded while the current row's FMAs run); any other size runs the same
 * kernel with run-time kh, kw.
 *
 * Direct kernel: one output per thread straight from global memory; the
 * fallback for kernels too large for the LDS and a reference point in the
 * bench. */
#include "gp_device.h"
#include "conv2d.h"

/* Taps x pixels x channels up to which the kernel-row loop is unrolled as
 * well (one channel's whole body: 37 KB of code for 7x7 x 4x2 px x 6 oc):
 * ptxas then loads later rows while earlier rows' FMAs run, with fewer
 * registers than the explicit double buffer of the rolled loop.  Beyond, the
 * body would outgrow the instruction cache. */
#define CONV_UNROLL_FMAS 2400
/* Register path (no cp.async): loads one thread issues before their stores
 * when a stage is copied whole (the first stage, the weights, chunks past
 * the prefetch), 4-column chunks and weight floats one thread prefetches
 * into registers for the next stage.  Kept small: on gfx900 4 chunks (16
 * VGPRs live across the FMAs) and 8-load batches push the unrolled 3x3 and
 * rolled kernels past 256 VGPRs into scratch. */
#define CONV_COPY_BATCH 2
#define CONV_PF_X 2
#define CONV_PF_W 1
/* Launch bounds with a minimum of one block per CU: without it, recent ptxas
 * caps registers below what the register block needs and spills.  On NVIDIA
 * the unrolled kernels also get a floor of blocks an SM by their register
 * block, which ptxas would otherwise trade for its schedule: one row of up
 * to 24 accumulators fits 80 registers (three blocks of 256 in an SM's 64 K),
 * up to 48 accumulators fit 128 (two), none spilling on sm_80 or sm_90 (4
 * rows of 4 at 80 spilled on sm_80).  Without the floor ptxas took up to 96
 * registers for 4 x 1 x 6, an SM held two such blocks, and a grid of up to
 * three blocks an SM ran in two rounds instead of one. */
#if defined(GP_VENDOR_NVIDIA)
#define CONV_MIN_BLOCKS(RY, OCB, ROLLED) \
    ((ROLLED) ? 1 : (RY) == 1 && 4 * (OCB) <= 24 ? 3 : 4 * (RY) * (OCB) <= 48 ? 2 : 1)
#else
#define CONV_MIN_BLOCKS(RY, OCB, ROLLED) 1
#endif
#define CONV_BOUNDS __launch_bounds__(GP_CONV2D_MAX_BLOCK, 1)

/* sm_80 and newer copy global memory to LDS asynchronously (cp.async):
 * the next stage's copies hold no registers while the FMAs run.  Elsewhere
 * (AMD, older NVIDIA, the host pass) the next stage's first chunks wait in
 * registers. */
#if defined(GP_VENDOR_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CONV_ASYNC 1
/* Copy `bytes` (4, 8 or 16) from src to LDS dst, or zeros when !valid (src
 * is then not read; it must still be a valid address). */
template <int BYTES>
static __device__ __forceinline__ void cp_async(float *dst, const float *src, bool valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    const int n = valid ? BYTES : 0;
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src), "n"(BYTES), "r"(n)
                     : "memory");
}
static __device__ __forceinline__ void cp_async_commit_wait(void)
{
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
}
static __device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
#else
#define CONV_ASYNC 0
#endif

typedef struct conv_args {
    const float *x, *w;
    float *y;
    int n, in_c, h, w_, out_c, kh, kw, pad_h, pad_w, out_h, out_w;
    int tx_log2;            /* threads_x = 1 << tx_log2 */
    int tile_x, tile_y, tiles_x, groups;
    int in_rows, pitch, ic_per_stage;
    int fill_cols;          /* LDS columns written per row (>= tile_x + kw - 1) */
    int nchunk, s_off;      /* 4-column chunks per LDS row; LDS column c = global gx0 + c, chunk j starts at
                               LDS column 4 j - s_off (global columns 16-byte aligned) */
    int ch_dq, ch_dr;       /* blockDim / nchunk, blockDim % nchunk */
    int ch_tpr, ch_rpp;     /* asynchronous copies: threads a row (min(nchunk, blockDim)), rows a pass */
    int ch_d_step;          /* ch_rpp x pitch: LDS floats from a thread's row to its next */
    long long ch_so_step;   /* ch_rpp x w: source floats from a thread's row to its next */
    long long ch_so_wrap;   /* h x w - in_rows x w: added where the rows pass into the next channel */
    int stage_floats;       /* one input buffer: ic_per_stage x in_rows x pitch */
    int w_resident;         /* 1: weights of all in_c channels staged once; 0: per stage, two buffers */
    int wbuf_floats;        /* LDS floats of the weights (resident) or of one weight buffer */
    int vec_in;             /* rows 16-byte aligned in global memory: chunks are whole inside or outside */
    int smode;              /* bytes per LDS write of a chunk: 16 (s_off 0), 8 (s_off 2) or 4 */
    int vec_out;            /* 16-byte output stores allowed */
} conv_args;

/* Position of one of a thread's chunks in a stage: channel, LDS row, chunk. */
typedef struct conv_cursor {
    int c, r, j;
} conv_cursor;

/* The next chunk of the same thread: blockDim chunks further (the register
 * path's; unused where the copies are asynchronous). */
__attribute__((unused)) static __device__ __forceinline__ void cursor_next(const conv_args &a, conv_cursor &q)
{
    q.j += a.ch_dr;
    q.r += a.ch_dq;
    if (q.j >= a.nchunk) {
        q.j -= a.nchunk;
        q.r++;
    }
    while (q.r >= a.in_rows) {
        q.r -= a.in_rows;
        q.c++;
    }
}

/* Global loads of N chunks of a stage (channels 0..cc-1 from xst, rows from
 * gy0, chunk columns from gxa = gx0 - s_off) into v, zeros outside the
 * image; returns the cursor after them. */
template <int N>
static __device__ __forceinline__ conv_cursor issue_x(const conv_args &a, const float *xst, int cc, int gy0,
                                                      int gxa, conv_cursor q, float4 (&v)[N])
{
    const size_t plane = (size_t)a.h * a.w_;
#pragma unroll
    for (int k = 0; k < N; k++) {
        float4 t = make_float4(0.f, 0.f, 0.f, 0.f);
        const int gy = gy0 + q.r, gx = gxa + 4 * q.j;
        if (q.c < cc && gy >= 0 && gy < a.h) {
            const float *row = xst + (size_t)q.c * plane + (size_t)gy * a.w_;
            if (a.vec_in) {
                /* w % 4 == 0 and gx % 4 == 0: a chunk is wholly inside or outside. */
                if (gx >= 0 && gx < a.w_)
                    t = *reinterpret_cast<const float4 *>(row + gx);
            } else {
                if (gx >= 0 && gx < a.w_)
                    t.x = row[gx];
                if (gx + 1 >= 0 && gx + 1 < a.w_)
                    t.y = row[gx + 1];
                if (gx + 2 >= 0 && gx + 2 < a.w_)
                    t.z = row[gx + 2];
                if (gx + 3 >= 0 && gx + 3 < a.w_)
                    t.w = row[gx + 3];
            }
        }
        v[k] = t;
        cursor_next(a, q);
    }
    return q;
}

/* LDS stores of the chunks issue_x loaded from the same cursor. */
template <int N>
static __device__ __forceinline__ conv_cursor store_x(const conv_args &a, float *xs, int cc, conv_cursor q,
                                                      const float4 (&v)[N])
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (q.c < cc) {
            float *d = xs + (q.c * a.in_rows + q.r) * a.pitch;
            const int col = 4 * q.j - a.s_off;
            if (a.smode == 16) {
                *reinterpret_cast<float4 *>(d + col) = v[k];
            } else if (a.smode == 8) { /* s_off 2: col is even; fill_cols even */
                if (col >= 0)
                    *reinterpret_cast<float2 *>(d + col) = make_float2(v[k].x, v[k].y);
                if (col + 2 < a.fill_cols)
                    *reinterpret_cast<float2 *>(d + col + 2) = make_float2(v[k].z, v[k].w);
            } else {
                if (col >= 0 && col < a.fill_cols)
                    d[col] = v[k].x;
                if (col + 1 >= 0 && col + 1 < a.fill_cols)
                    d[col + 1] = v[k].y;
                if (col + 2 >= 0 && col + 2 < a.fill_cols)
                    d[col + 2] = v[k].z;
                if (col + 3 < a.fill_cols)
                    d[col + 3] = v[k].w;
            }
        }
        cursor_next(a, q);
    }
    return q;
}

/* Weights of input channels c0 .. c0+cc-1 for output channels oc0 ..
 * oc0+OCP-1 go to ws[(c * kk + tap) * OCP + o] (channels past OCB or out_c
 * are 0).  Element j of that layout is this thread's slot m when
 * j = threadIdx.x + m * blockDim.x; issue_w loads slots m0 .. m0+N-1. */
template <int N, int OCB, int OCP>
static __device__ __forceinline__ void issue_w(const conv_args &a, int oc0, int c0, int cc, int kk, int m0,
                                               float (&v)[N])
{
    const int total = cc * kk * OCP;
    const size_t wstride = (size_t)a.in_c * kk; /* one output channel's weights */
#pragma unroll
    for (int k = 0; k < N; k++) {
        const int j = (int)threadIdx.x + (m0 + k) * (int)blockDim.x;
        const int o = j % OCP, i = j / OCP; /* OCP is a power of two */
        const int oc = oc0 + o;
        v[k] = 0.f;
        if (j < total && o < OCB && oc < a.out_c)
            v[k] = a.w[(size_t)oc * wstride + (size_t)c0 * kk + i];
    }
}

template <int N, int OCP>
static __device__ __forceinline__ void store_w(float *ws, int cc, int kk, int m0, const float (&v)[N])
{
    const int total = cc * kk * OCP;
#pragma unroll
    for (int k = 0; k < N; k++) {
        const int j = (int)threadIdx.x + (m0 + k) * (int)blockDim.x;
        if (j < total)
            ws[j] = v[k];
    }
}

/* Weights copied whole (N loads before their stores), slots from m0. */
template <int OCB, int OCP, int N = CONV_COPY_BATCH>
static __device__ __forceinline__ void copy_w(const conv_args &a, float *ws, int oc0, int c0, int cc, int kk,
                                              int m0)
{
    const int total = cc * kk * OCP;
    for (int m = m0; (int)threadIdx.x + m * (int)blockDim.x < total; m += N) {
        float v[N];
        issue_w<N, OCB, OCP>(a, oc0, c0, cc, kk, m, v);
        store_w<N, OCP>(ws, cc, kk, m, v);
    }
}

/* Input chunks copied whole from cursor q on (N loads before their stores). */
template <int N = CONV_COPY_BATCH>
static __device__ __forceinline__ void copy_x(const conv_args &a, float *xs, const float *xst, int cc, int gy0,
                                              int gxa, conv_cursor q)
{
    while (q.c < cc) {
        float4 v[N];
        const conv_cursor n = issue_x<N>(a, xst, cc, gy0, gxa, q, v);
        store_x<N>(a, xs, cc, q, v);
        q = n;
    }
}

#if CONV_ASYNC
/* Where a thread's asynchronous copies start: its chunk column j0 (it
 * also takes j0 + ch_tpr, ... where a row has more chunks than the block
 * threads) and its first row of the stage (channels one after the other,
 * in_rows each); then every ch_rpp-th row.  A thread's column is fixed, so its column tests are made once a
 * stage, and from one row to its next only offsets move: no division and
 * no 64-bit multiply a chunk.  Threads past ch_tpr x ch_rpp copy nothing. */
typedef struct conv_lane {
    int j0, row; /* row: -1 for a thread that copies nothing */
} conv_lane;

static __device__ __forceinline__ conv_lane lane_start(const conv_args &a)
{
    conv_lane L;
    const int t = (int)threadIdx.x, row = t / a.ch_tpr;
    L.j0 = t - row * a.ch_tpr;
    L.row = row < a.ch_rpp ? row : -1;
    return L;
}

/* Asynchronous copies of a stage's chunks (channels 0..cc-1 from xst, rows
 * from gy0, chunk columns from gxa = gx0 - s_off) into xs; MODE = smode.
 * The steps from one row to the next are the host's (conv_args). */
template <int MODE>
static __device__ __forceinline__ void async_x_mode(const conv_args &a, float *xs, const float *xst, int cc,
                                                    int gy0, int gxa, conv_lane L)
{
    for (int j = L.j0; j < a.nchunk; j += a.ch_tpr) {
        const int gx = gxa + 4 * j, col = 4 * j - a.s_off;
        /* The first row's channel and row in it (ch_rpp rows or fewer: a
         * loop of a step or two, no division). */
        int c = L.row < 0 ? cc : 0, r = L.row;
        while (r >= a.in_rows) {
            r -= a.in_rows;
            c++;
        }
        /* Source (read only where valid: it may point outside the image) and
         * LDS address of the chunk. */
        const float *src = xst + ((long long)c * a.h * a.w_ + (long long)(gy0 + r) * a.w_ + gx);
        float *d = xs + (c * a.in_rows + r) * a.pitch + col;
        /* Column tests, once a stage: MODE 16 and 8 chunks are wholly
         * inside or outside the image (vec_in). */
        const bool xin = (unsigned)gx < (unsigned)a.w_;
        while (c < cc) {
            const bool rin = (unsigned)(gy0 + r) < (unsigned)a.h;
            if (MODE == 16) {
                const bool in = rin && xin;
                cp_async<16>(d, in ? src : a.x, in);
            } else if (MODE == 8) { /* s_off 2: two aligned pairs */
                const bool in = rin && xin;
                if (col >= 0)
                    cp_async<8>(d, in ? src : a.x, in);
                if (col + 2 < a.fill_cols)
                    cp_async<8>(d + 2, in ? src + 2 : a.x, in);
            } else {
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    const bool in = rin && (unsigned)(gx + i) < (unsigned)a.w_;
                    if (col + i >= 0 && col + i < a.fill_cols)
                        cp_async<4>(d + i, in ? src + i : a.x, in);
                }
            }
            d += a.ch_d_step;
            src += a.ch_so_step;
            r += a.ch_rpp;
            while (r >= a.in_rows) {
                r -= a.in_rows;
                c++;
                src += a.ch_so_wrap;
            }
        }
    }
}

static __device__ __forceinline__ void async_x(const conv_args &a, float *xs, const float *xst, int cc, int gy0,
                                               int gxa, conv_lane L)
{
    if (a.smode == 16)
        async_x_mode<16>(a, xs, xst, cc, gy0, gxa, L);
    else if (a.smode == 8)
        async_x_mode<8>(a, xs, xst, cc, gy0, gxa, L);
    else
        async_x_mode<4>(a, xs, xst, cc, gy0, gxa, L);
}

/* Asynchronous copies of the weights (layout of issue_w).  blockDim is a
 * multiple of OCP, so a thread's output channel o is the same for all its
 * elements and its source advances by blockDim / OCP floats each. */
template <int OCB, int OCP>
static __device__ __forceinline__ void async_w(const conv_args &a, float *ws, int oc0, int c0, int cc, int kk)
{
    const int total = cc * kk * OCP, t = (int)threadIdx.x;
    const int o = t % OCP, oc = oc0 + o, step = (int)blockDim.x / OCP;
    const bool in = o < OCB && oc < a.out_c;
    const float *src = a.w + (in ? (size_t)oc * a.in_c * kk + (size_t)c0 * kk + t / OCP : 0);
    for (int j = t; j < total; j += blockDim.x, src += step)
        cp_async<4>(ws + j, in ? src : a.w, in);
}
#endif

/* OCB weights from LDS (8- or 16-byte aligned; OCP = 1, 2, 4 or 8). */
template <int OCB, int OCP>
static __device__ __forceinline__ void load_w(const float *p, float (&wv)[OCB])
{
    if (OCB == 8 || OCB == 4) {
#pragma unroll
        for (int i = 0; i < OCB / 4; i++) {
            float4 t = reinterpret_cast<const float4 *>(p)[i];
            wv[(4 * i + 0) % OCB] = t.x;
            wv[(4 * i + 1) % OCB] = t.y;
            wv[(4 * i + 2) % OCB] = t.z;
            wv[(4 * i + 3) % OCB] = t.w;
        }
    } else if (OCB == 6) { /* OCP 8: a 16-byte and an 8-byte read, no padding channel read */
        float4 t = *reinterpret_cast<const float4 *>(p);
        float2 u = *reinterpret_cast<const float2 *>(p + 4);
        wv[0] = t.x;
        wv[1 % OCB] = t.y;
        wv[2 % OCB] = t.z;
        wv[3 % OCB] = t.w;
        wv[4 % OCB] = u.x;
        wv[5 % OCB] = u.y;
    } else if (OCB == 2) {
        float2 t = *reinterpret_cast<const float2 *>(p);
        wv[0] = t.x;
        wv[1 % OCB] = t.y;
    } else {
#pragma unroll
        for (int i = 0; i < OCB; i++)
            wv[i] = p[i];
    }
}

/* RY input row segments of NV float4 from xr (rows pitch apart). */
template <int NV, int RY>
static __device__ __forceinline__ void load_rows(const float *xr, int pitch, float (&row)[RY][4 * NV])
{
#pragma unroll
    for (int ry = 0; ry < RY; ry++) {
#pragma unroll
        for (int v = 0; v < NV; v++) {
            float4 t = reinterpret_cast<const float4 *>(xr + ry * pitch)[v];
            row[ry][4 * v + 0] = t.x;
            row[ry][4 * v + 1] = t.y;
            row[ry][4 * v + 2] = t.z;
            row[ry][4 * v + 3] = t.w;
        }
    }
}

/* The K taps of one kernel row: wk = the weights of its tap 0. */
template <int K, int RY, int OCB, int OCP, int NV>
static __device__ __forceinline__ void spec_taps(const float (&row)[RY][4 * NV], const float *wk,
                                                 float (&acc)[OCB][RY][GP_CONV2D_RX])
{
#pragma unroll
    for (int kx = 0; kx < K; kx++) {
        float wv[OCB];
        load_w<OCB, OCP>(wk + kx * OCP, wv);
#pragma unroll
        for (int o = 0; o < OCB; o++)
#pragma unroll
            for (int ry = 0; ry < RY; ry++)
#pragma unroll
                for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                    acc[o][ry][rx] = fmaf(row[ry][(rx + kx) % (4 * NV)], wv[o], acc[o][ry][rx]);
    }
}

/* One input channel of a compile-time K: xc = this thread's first input
 * row, wc = the channel's weights.  ROLLED = 0: the kernel rows unrolled
 * when the body is small enough (CONV_UNROLL_FMAS), else rolled; 1: rolled,
 * two rows per iteration, each row's segments loaded into a second register
 * buffer while the previous row's FMAs run (GP_CONV2D_ROLLED). */
template <int K, int RY, int OCB, int OCP, int ROLLED>
static __device__ __forceinline__ void compute_spec(const float *xc, const float *wc, int pitch,
                                                    float (&acc)[OCB][RY][GP_CONV2D_RX])
{
    constexpr int NV = (GP_CONV2D_RX + K - 1 + 3) / 4; /* float4 per row segment */
    constexpr bool unrolled = !ROLLED && K * K * RY * GP_CONV2D_RX * OCB <= CONV_UNROLL_FMAS;
    /* The second buffer costs RY x 4 NV registers: at most 24. */
    constexpr bool double_buffer = !unrolled && RY * 4 * NV <= 24;
    if (unrolled) {
#pragma unroll
        for (int ky = 0; ky < K; ky++) {
            float row[RY][4 * NV];
            load_rows<NV, RY>(xc + ky * pitch, pitch, row);
            spec_taps<K, RY, OCB, OCP, NV>(row, wc + ky * K * OCP, acc);
        }
    } else if (double_buffer) {
        float ra[RY][4 * NV], rb[RY][4 * NV];
        load_rows<NV, RY>(xc, pitch, ra);
#pragma unroll 1
        for (int ky = 0; ky < K; ky += 2) {
            if (ky + 1 < K)
                load_rows<NV, RY>(xc + (ky + 1) * pitch, pitch, rb);
            spec_taps<K, RY, OCB, OCP, NV>(ra, wc + ky * K * OCP, acc);
            if (ky + 2 < K)
                load_rows<NV, RY>(xc + (ky + 2) * pitch, pitch, ra);
            if (ky + 1 < K)
                spec_taps<K, RY, OCB, OCP, NV>(rb, wc + (ky + 1) * K * OCP, acc);
        }
    } else {
#pragma unroll 1
        for (int ky = 0; ky < K; ky++) {
            float row[RY][4 * NV];
            load_rows<NV, RY>(xc + ky * pitch, pitch, row);
            spec_taps<K, RY, OCB, OCP, NV>(row, wc + ky * K * OCP, acc);
        }
    }
}

/* Run-time kernel size: per tap, RY x 4 scalar LDS reads and one weight read. */
template <int RY, int OCB, int OCP>
static __device__ __forceinline__ void compute_generic(const float *xc, const float *wc, int pitch, int kh,
                                                       int kw, float (&acc)[OCB][RY][GP_CONV2D_RX])
{
#pragma unroll 1
    for (int ky = 0; ky < kh; ky++) {
        const float *xr = xc + ky * pitch;
        const float *wk = wc + ky * kw * OCP;
#pragma unroll 1
        for (int kx = 0; kx < kw; kx++) {
            float wv[OCB];
            load_w<OCB, OCP>(wk + kx * OCP, wv);
            float r[RY][GP_CONV2D_RX];
#pragma unroll
            for (int ry = 0; ry < RY; ry++)
#pragma unroll
                for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                    r[ry][rx] = xr[ry * pitch + kx + rx];
#pragma unroll
            for (int o = 0; o < OCB; o++)
#pragma unroll
                for (int ry = 0; ry < RY; ry++)
#pragma unroll
                    for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                        acc[o][ry][rx] = fmaf(r[ry][rx], wv[o], acc[o][ry][rx]);
        }
    }
}

/* K = 0: run-time kernel size.  ROLLED: see compute_spec. */
template <int K, int RY, int OCB, int ROLLED>
__global__ void __launch_bounds__(GP_CONV2D_MAX_BLOCK, CONV_MIN_BLOCKS(RY, OCB, ROLLED)) gp_conv2d_tiled(conv_args a)
{
    constexpr int OCP = OCB == 6 ? 8 : OCB;
    extern __shared__ float4 gp_conv2d_lds[];
    float *const lds = reinterpret_cast<float *>(gp_conv2d_lds);
    /* Layout: weights (resident: one region; else two buffers), then two
     * input buffers.  Buffer b of each is base + b * step (no arrays:
     * run-time indexed arrays would live in local memory). */
    float *const ws0 = lds;
    const int wstep = a.w_resident ? 0 : a.wbuf_floats;
    float *const xs0 = lds + (a.w_resident ? 1 : 2) * a.wbuf_floats;
    const int kh = K > 0 ? K : a.kh, kw = K > 0 ? K : a.kw, kk = kh * kw;
    const int tx = (int)threadIdx.x & ((1 << a.tx_log2) - 1), ty = (int)threadIdx.x >> a.tx_log2;
    const int bty = (int)blockIdx.x / a.tiles_x, btx = (int)blockIdx.x - bty * a.tiles_x;
    const int oy0 = bty * a.tile_y, ox0 = btx * a.tile_x;
    const int gy0 = oy0 - a.pad_h, gxa = ox0 - a.pad_w - a.s_off;
    const size_t plane = (size_t)a.h * a.w_, oplane = (size_t)a.out_h * a.out_w;
    const int nstages = (a.in_c + a.ic_per_stage - 1) / a.ic_per_stage;
    /* This thread's first chunk of every stage (the pattern repeats per stage). */
#if CONV_ASYNC
    const conv_lane q0 = lane_start(a);
#else
    conv_cursor q0;
    {
        const int rr = (int)threadIdx.x / a.nchunk;
        q0.j = (int)threadIdx.x - rr * a.nchunk;
        q0.c = rr / a.in_rows;
        q0.r = rr - q0.c * a.in_rows;
    }
#endif
    const int xoff = (ty * RY) * a.pitch + tx * GP_CONV2D_RX; /* this thread's first input in a channel */
    for (int img = blockIdx.z; img < a.n; img += gridDim.z) {
        const float *ximg = a.x + (size_t)img * a.in_c * plane;
        for (int g = blockIdx.y; g < a.groups; g += gridDim.y) {
            const int oc0 = g * OCB;
            /* Stage 0 (and the resident weights), copied whole. */
            __syncthreads(); /* the previous group's reads are done */
            {
                const int cc = a.in_c < a.ic_per_stage ? a.in_c : a.ic_per_stage;
                const int wc = a.w_resident ? a.in_c : cc;
#if CONV_ASYNC
                async_w<OCB, OCP>(a, ws0, oc0, 0, wc, kk);
                async_x(a, xs0, ximg, cc, gy0, gxa, q0);
                cp_async_commit_wait();
#else
                copy_w<OCB, OCP>(a, ws0, oc0, 0, wc, kk, 0);
                copy_x(a, xs0, ximg, cc, gy0, gxa, q0);
#endif
            }
            __syncthreads();
            float acc[OCB][RY][GP_CONV2D_RX];
#pragma unroll
            for (int o = 0; o < OCB; o++)
#pragma unroll
                for (int ry = 0; ry < RY; ry++)
#pragma unroll
                    for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                        acc[o][ry][rx] = 0.f;
#pragma unroll 1
            for (int s = 0; s < nstages; s++) {
                const int c0 = s * a.ic_per_stage, buf = s & 1;
                const int cc = a.in_c - c0 < a.ic_per_stage ? a.in_c - c0 : a.ic_per_stage;
                const int c1 = c0 + a.ic_per_stage;
                const int cn = c1 >= a.in_c ? 0 : (a.in_c - c1 < a.ic_per_stage ? a.in_c - c1 : a.ic_per_stage);
                const float *wst = a.w_resident ? ws0 + c0 * kk * OCP : ws0 + buf * wstep;
                const float *xst = xs0 + buf * a.stage_floats;
                float *const xnext = xs0 + (buf ^ 1) * a.stage_floats;
                float *const wnext = ws0 + (buf ^ 1) * wstep;
                /* The next stage's loads go out before this stage's FMAs; its
                 * buffers were last read in stage s-1, before the barrier. */
#if CONV_ASYNC
                if (cn > 0) {
                    async_x(a, xnext, ximg + (size_t)c1 * plane, cn, gy0, gxa, q0);
                    if (!a.w_resident)
                        async_w<OCB, OCP>(a, wnext, oc0, c1, cn, kk);
                    cp_async_commit();
                }
#else
                constexpr int PFX = CONV_PF_X;
                float4 pfx[PFX];
                float pfw[CONV_PF_W];
                if (cn > 0) {
                    issue_x<PFX>(a, ximg + (size_t)c1 * plane, cn, gy0, gxa, q0, pfx);
                    if (!a.w_resident)
                        issue_w<CONV_PF_W, OCB, OCP>(a, oc0, c1, cn, kk, 0, pfw);
                }
#endif
#pragma unroll 1
                for (int c = 0; c < cc; c++) {
                    const float *xc = xst + c * a.in_rows * a.pitch + xoff;
                    const float *wc = wst + c * kk * OCP;
                    if (K > 0)
                        compute_spec<K, RY, OCB, OCP, ROLLED>(xc, wc, a.pitch, acc);
                    else
                        compute_generic<RY, OCB, OCP>(xc, wc, a.pitch, kh, kw, acc);
                }
                if (cn > 0) {
#if CONV_ASYNC
                    cp_async_commit_wait();
#else
                    const conv_cursor q = store_x<PFX>(a, xnext, cn, q0, pfx);
                    copy_x<PFX>(a, xnext, ximg + (size_t)c1 * plane, cn, gy0, gxa, q);
                    if (!a.w_resident) {
                        store_w<CONV_PF_W, OCP>(wnext, cn, kk, 0, pfw);
                        copy_w<OCB, OCP, CONV_PF_W>(a, wnext, oc0, c1, cn, kk, CONV_PF_W);
                    }
#endif
                    __syncthreads();
                }
            }
#pragma unroll
            for (int o = 0; o < OCB; o++) {
                const int oc = oc0 + o;
                if (oc >= a.out_c)
                    break;
                float *yp = a.y + ((size_t)img * a.out_c + oc) * oplane;
                const int ox = ox0 + tx * GP_CONV2D_RX;
#pragma unroll
                for (int ry = 0; ry < RY; ry++) {
                    const int oy = oy0 + ty * RY + ry;
                    if (oy >= a.out_h)
                        break;
                    float *yr = yp + (size_t)oy * a.out_w;
                    if (a.vec_out && ox + 3 < a.out_w) {
                        *reinterpret_cast<float4 *>(yr + ox) =
                            make_float4(acc[o][ry][0], acc[o][ry][1], acc[o][ry][2], acc[o][ry][3]);
                    } else {
#pragma unroll
                        for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                            if (ox + rx < a.out_w)
                                yr[ox + rx] = acc[o][ry][rx];
                    }
                }
            }
        }
    }
}

/* One output per thread, grid-stride, straight from global memory. */
__global__ void CONV_BOUNDS gp_conv2d_direct(conv_args a)
{
    const size_t total = (size_t)a.n * a.out_c * a.out_h * a.out_w;
    const size_t plane = (size_t)a.h * a.w_, kk = (size_t)a.kh * a.kw;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        size_t t = i;
        const int ox = (int)(t % (size_t)a.out_w);
        t /= (size_t)a.out_w;
        const int oy = (int)(t % (size_t)a.out_h);
        t /= (size_t)a.out_h;
        const int oc = (int)(t % (size_t)a.out_c);
        const int img = (int)(t / (size_t)a.out_c);
        float acc = 0.f;
        for (int c = 0; c < a.in_c; c++) {
            const float *xp = a.x + ((size_t)img * a.in_c + c) * plane;
            const float *wp = a.w + ((size_t)oc * a.in_c + c) * kk;
            for (int ky = 0; ky < a.kh; ky++) {
                const int iy = oy + ky - a.pad_h;
                if (iy < 0 || iy >= a.h)
                    continue;
                for (int kx = 0; kx < a.kw; kx++) {
                    const int ix = ox + kx - a.pad_w;
                    if (ix >= 0 && ix < a.w_)
                        acc = fmaf(xp[(size_t)iy * a.w_ + ix], wp[ky * a.kw + kx], acc);
                }
            }
        }
        a.y[i] = acc;
    }
}

typedef gp_status (*conv_launch_fn)(dim3 grid, int block, size_t lds, const conv_args &a, hipStream_t st);

/* A shape outside this target's register class (GP_CONV2D_SHAPE_ON) is not
 * instantiated; its launcher only says so (the plan never picks it, and
 * gp_conv2d_launch checks the open device's class first). */
template <int K, int RY, int OCB, int ROLLED, bool ON>
struct conv_tiled {
    static gp_status launch(dim3 grid, int block, size_t lds, const conv_args &a, hipStream_t st)
    {
        gp_conv2d_tiled<K, RY, OCB, ROLLED><<<grid, dim3((unsigned)block, 1, 1), lds, st>>>(a);
        return gp_launch_status("conv2d tiled");
    }
    static const void *addr() { return (const void *)gp_conv2d_tiled<K, RY, OCB, ROLLED>; }
};
template <int K, int RY, int OCB, int ROLLED>
struct conv_tiled<K, RY, OCB, ROLLED, false> {
    static gp_status launch(dim3, int, size_t, const conv_args &, hipStream_t)
    {
        return gp_fail(GP_ERR_USAGE, "conv2d: kernel %d, %d rows x %d channels per thread%s is not compiled for this "
                       "target's register class", K, RY, OCB, ROLLED ? " (rolled)" : "");
    }
    static const void *addr() { return NULL; }
};

template <int K, int RY, int OCB, int ROLLED = 0>
static gp_status launch_tiled(dim3 grid, int block, size_t lds, const conv_args &a, hipStream_t st)
{
    return conv_tiled<K, RY, OCB, ROLLED, GP_CONV2D_SHAPE_ON(GP_REG_CLASS, K, RY, OCB, ROLLED)>::launch(grid, block,
                                                                                                      lds, a, st);
}

/* What a pick returns for one compiled instantiation: its launcher, or the
 * kernel's address (gp_conv2d_tiled_fn, for the rule's resource use).  One
 * compiled set below serves both. */
struct as_launch {
    typedef conv_launch_fn type;
    template <int K, int RY, int OCB, int ROLLED>
    static type get() { return launch_tiled<K, RY, OCB, ROLLED>; }
};
struct as_addr {
    typedef const void *type;
    template <int K, int RY, int OCB, int ROLLED>
    static type get()
    {
        return conv_tiled<K, RY, OCB, ROLLED, GP_CONV2D_SHAPE_ON(GP_REG_CLASS, K, RY, OCB, ROLLED)>::addr();
    }
};

/* The compiled (K, RY, OCB) set; NULL for a shape that is not compiled. */
template <int K, class G>
static typename G::type pick_ry_ocb(int ry, int ocb)
{
#define GP_CONV2D_OCB_CASES(RY)                                  \
    switch (ocb) {                                               \
    case 1: return G::template get<K, RY, 1, 0>();               \
    case 2: return G::template get<K, RY, 2, 0>();               \
    case 4: return G::template get<K, RY, 4, 0>();               \
    default: break;                                              \
    }
    switch (ry) {
    case 1:
        GP_CONV2D_OCB_CASES(1)
        if (ocb == 6)
            return G::template get<K, 1, 6, 0>();
        if (ocb == 8)
            return G::template get<K, 1, 8, 0>();
        return NULL;
    case 2:
        GP_CONV2D_OCB_CASES(2)
        if (ocb == 6)
            return G::template get<K, 2, 6, 0>();
        if (ocb == 8)
            return G::template get<K, 2, 8, 0>();
        return NULL;
    case 4: /* 4 x 4 x OCB <= GP_CONV2D_MAX_ACC: OCB <= 4 */
        GP_CONV2D_OCB_CASES(4)
        return NULL;
    default: return NULL;
    }
#undef GP_CONV2D_OCB_CASES
}

/* The rolled variant: K 5, 6, 7 with 2 rows and 4, 6 or 8 channels per
 * thread (gp_conv2d_rolled_compiled says the same on the host). */
template <int K, class G>
static typename G::type pick_rolled(int ry, int ocb)
{
    if (ry != 2)
        return NULL;
    switch (ocb) {
    case 4: return G::template get<K, 2, 4, 1>();
    case 6: return G::template get<K, 2, 6, 1>();
    case 8: return G::template get<K, 2, 8, 1>();
    default: return NULL;
    }
}

template <class G>
static typename G::type pick(int k, int ry, int ocb, int rolled)
{
    if (rolled) {
        switch (k) {
        case 5: return pick_rolled<5, G>(ry, ocb);
        case 6: return pick_rolled<6, G>(ry, ocb);
        case 7: return pick_rolled<7, G>(ry, ocb);
        default: return NULL;
        }
    }
    switch (k) {
    case 0: return pick_ry_ocb<0, G>(ry, ocb);
    case 3: return pick_ry_ocb<3, G>(ry, ocb);
    case 5: return pick_ry_ocb<5, G>(ry, ocb);
    case 6: return pick_ry_ocb<6, G>(ry, ocb);
    case 7: return pick_ry_ocb<7, G>(ry, ocb);
    default: return NULL;
    }
}

extern "C" const void *gp_conv2d_tiled_fn(int k_spec, int rows_per_thread, int oc_per_thread, int rolled)
{
    return pick<as_addr>(k_spec, rows_per_thread, oc_per_thread, rolled);
}

static int log2i(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

extern "C" gp_status gp_conv2d_launch(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y,
                                      gp_stream stream)
{
    const hipStream_t st = (hipStream_t)stream;
    const gp_conv2d_shape *s = &p->s;
    conv_args a;
    a.x = d_x, a.w = d_w, a.y = d_y;
    a.n = s->n, a.in_c = s->in_c, a.h = s->h, a.w_ = s->w, a.out_c = s->out_c;
    a.kh = s->kh, a.kw = s->kw, a.pad_h = s->pad_h, a.pad_w = s->pad_w;
    a.out_h = p->out_h, a.out_w = p->out_w;
    if (p->variant == GP_CONV2D_DIRECT) {
        size_t total = gp_conv2d_y_elems(s);
        size_t blocks = (total + (size_t)p->block - 1) / (size_t)p->block;
        if (blocks > (1u << 20))
            blocks = 1u << 20; /* grid-stride beyond */
        gp_conv2d_direct<<<dim3((unsigned)blocks, 1, 1), dim3((unsigned)p->block, 1, 1), 0, st>>>(a);
        return gp_launch_status("conv2d direct");
    }
    /* A power-of-two block: the weight copies take a thread's output channel
     * as threadIdx.x mod the padded channels (1, 2, 4 or 8). */
    if ((p->threads_x & (p->threads_x - 1)) || p->threads_x > p->block || p->block > GP_CONV2D_MAX_BLOCK ||
        p->block < 8 || (p->block & (p->block - 1)))
        return gp_fail(GP_ERR_USAGE, "conv2d: threads_x %d / block %d not a launchable shape", p->threads_x,
                       p->block);
    const int rolled = p->variant == GP_CONV2D_ROLLED;
    conv_launch_fn fn = pick<as_launch>(p->k_spec, p->rows_per_thread, p->oc_per_thread, rolled);
    /* The open device's code object has only its class's shapes: refuse
     * another (exit 2) rather than fail the launch. */
    const unsigned cls = gp_target_reg_class(gp_rt_open_arch());
    if (!fn || (cls && !GP_CONV2D_SHAPE_ON(cls, p->k_spec, p->rows_per_thread, p->oc_per_thread, rolled)))
        return gp_fail(GP_ERR_USAGE, "conv2d: kernel %d, %d rows x %d channels per thread%s is not compiled%s%s",
                       p->k_spec, p->rows_per_thread, p->oc_per_thread, rolled ? " (rolled)" : "", fn ? " for " : "",
                       fn ? gp_rt_open_arch() : "");
    if (p->fill_cols > p->pitch || p->nchunk < 1 || p->s_off < 0 || p->s_off > 3 ||
        4 * p->nchunk < p->fill_cols + p->s_off)
        return gp_fail(GP_ERR_USAGE, "conv2d: LDS rows (pitch %d, %d columns, %d chunks) not made by the plan",
                       p->pitch, p->fill_cols, p->nchunk);
    a.tx_log2 = log2i(p->threads_x);
    a.tile_x = p->tile_x, a.tile_y = p->tile_y, a.tiles_x = p->tiles_x, a.groups = p->groups;
    a.in_rows = p->in_rows, a.pitch = p->pitch, a.ic_per_stage = p->ic_per_stage;
    a.fill_cols = p->fill_cols, a.nchunk = p->nchunk, a.s_off = p->s_off;
    a.ch_dq = p->block / p->nchunk, a.ch_dr = p->block % p->nchunk;
    a.ch_tpr = p->nchunk < p->block ? p->nchunk : p->block, a.ch_rpp = p->block / a.ch_tpr;
    a.ch_d_step = a.ch_rpp * p->pitch;
    a.ch_so_step = (long long)a.ch_rpp * s->w;
    a.ch_so_wrap = ((long long)s->h - p->in_rows) * s->w;
    a.stage_floats = p->ic_per_stage * p->in_rows * p->pitch;
    a.w_resident = p->w_resident, a.wbuf_floats = p->ws_floats;
    /* 16-byte accesses need 16-byte aligned rows: w % 4 == 0 (then every
     * chunk start gx0 - s_off is a multiple of 4) and an aligned base. */
    a.vec_in = s->w % 4 == 0 && ((uintptr_t)d_x & 15) == 0;
    /* LDS writes of a chunk: one 16-byte write when its columns start on a
     * 16-byte boundary (s_off 0), two 8-byte ones for s_off 2, else 4-byte
     * ones; buffers start on 16-byte boundaries (ws_floats % 4 == 0). */
    const int aligned = a.vec_in && p->ws_floats % 4 == 0 && a.stage_floats % 4 == 0;
    a.smode = aligned && p->s_off == 0 && p->pitch % 4 == 0                              ? 16
              : aligned && p->s_off == 2 && p->pitch % 2 == 0 && p->fill_cols % 2 == 0 ? 8
                                                                                         : 4;
    a.vec_out = p->out_w % 4 == 0 && ((uintptr_t)d_y & 15) == 0;
    dim3 grid((unsigned)(p->tiles_x * p->tiles_y), (unsigned)(p->groups < 65535 ? p->groups : 65535),
              (unsigned)(s->n < 65535 ? s->n : 65535));
    return fn(grid, p->block, p->lds_bytes, a, st);
}
