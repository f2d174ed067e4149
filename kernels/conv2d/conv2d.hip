/* conv2d kernels: direct convolution (cross-correlation), NCHW fp32.
 *
 * Tiled kernel: one block computes a tile_x x tile_y output tile for OCB
 * output channels.  Per stage it copies a group of input channels (tile plus
 * the kh-1 / kw-1 halo, zeros outside the image) and their weights into LDS;
 * then each thread accumulates a 4 x RY pixel x OCB channel register block.
 * For one kernel row it loads its RY input row segments (4 + kw - 1 values
 * each) into registers once, and for each tap one LDS read of the OCB
 * weights (a broadcast: every lane reads the same address) feeds
 * 4 x RY x OCB FMAs.  Square kernels 3, 5, 6, 7 are compile-time sizes
 * (16-byte row loads, unrolled taps); any other size runs the same kernel
 * with run-time kh, kw.
 *
 * Direct kernel: one output per thread straight from global memory; the
 * fallback for kernels too large for the LDS and a reference point in the
 * bench. */
#include "gp_device.h"
#include "conv2d.h"

/* Taps x pixels x channels up to which the kernel-row loop is unrolled as
 * well: beyond, the unrolled body would outgrow the instruction cache. */
#define CONV_UNROLL_FMAS 1024
/* Global loads one thread has in flight while staging the input tile: 16 x
 * 384 threads x 4 B = 24 KB per SM, about what DRAM latency x bandwidth
 * needs per SM on an H200 (4.8 TB/s x ~0.7 us / 132). */
#define CONV_LOAD_BATCH 16
/* Launch bounds with a minimum of one block per CU: without it, recent ptxas
 * caps registers below what the register block needs and spills. */
#define CONV_BOUNDS __launch_bounds__(GP_CONV2D_MAX_BLOCK, 1)

typedef struct conv_args {
    const float *x, *w;
    float *y;
    int n, in_c, h, w_, out_c, kh, kw, pad_h, pad_w, out_h, out_w;
    int tx_log2;            /* threads_x = 1 << tx_log2 */
    int tile_x, tile_y, tiles_x, groups;
    int in_rows, in_cols, pitch, ic_per_stage, ws_floats;
    int fill_cols;          /* columns written per LDS row: in_cols, or up to the last 16-byte read */
    int ld_dq, ld_dr;       /* blockDim / fill_cols, blockDim % fill_cols */
} conv_args;

/* OCP weights from LDS (OCP = 1, 2, 4 or 8; 8- or 16-byte aligned). */
template <int OCP>
static __device__ __forceinline__ void load_w(const float *p, float (&wv)[OCP])
{
    if (OCP % 4 == 0) {
#pragma unroll
        for (int i = 0; i < OCP / 4; i++) {
            float4 t = reinterpret_cast<const float4 *>(p)[i];
            wv[(4 * i + 0) % OCP] = t.x;
            wv[(4 * i + 1) % OCP] = t.y;
            wv[(4 * i + 2) % OCP] = t.z;
            wv[(4 * i + 3) % OCP] = t.w;
        }
    } else if (OCP == 2) {
        float2 t = *reinterpret_cast<const float2 *>(p);
        wv[0] = t.x;
        wv[1 % OCP] = t.y;
    } else {
#pragma unroll
        for (int i = 0; i < OCP; i++)
            wv[i] = p[i];
    }
}

/* Weights of channels c0 .. c0+cc-1 for output channels oc0 .. oc0+OCP-1
 * into ws[(c * kk + tap) * OCP + o]; channels past OCB or out_c are 0. */
template <int OCB, int OCP>
static __device__ __forceinline__ void stage_weights(const conv_args &a, float *ws, int oc0, int c0, int cc,
                                                     int kk)
{
    const int total = cc * kk * OCP;
    for (int j = threadIdx.x; j < total; j += blockDim.x) {
        const int o = j % OCP, i = j / OCP; /* OCP is a power of two */
        const int oc = oc0 + o;
        float v = 0.f;
        if (o < OCB && oc < a.out_c)
            v = a.w[((size_t)oc * a.in_c + c0) * kk + i];
        ws[j] = v;
    }
}

/* Input rows gy0 .. gy0+in_rows-1, columns gx0 .. gx0+in_cols-1 of channels
 * c0 .. c0+cc-1 (xsrc points at channel c0 of the image) into
 * xs[(c * in_rows + row) * pitch + col], zeros outside the image and in the
 * columns in_cols .. fill_cols-1 that 16-byte row reads touch but no FMA
 * uses (so no uninitialized LDS is ever read).  Element e
 * of the flat tile goes to thread e % blockDim; the (channel, row, column)
 * of a thread's next element follows by adding blockDim without a division,
 * and CONV_LOAD_BATCH loads are issued before their stores. */
static __device__ __forceinline__ void stage_input(const conv_args &a, float *xs, const float *xsrc, int cc,
                                                   int gy0, int gx0)
{
    const int total = cc * a.in_rows * a.fill_cols;
    const int step = (int)blockDim.x;
    const size_t plane = (size_t)a.h * a.w_;
    int col = (int)threadIdx.x % a.fill_cols, row = (int)threadIdx.x / a.fill_cols;
    int c = row / a.in_rows, yy = row - c * a.in_rows;
    for (int e = threadIdx.x; e < total; e += CONV_LOAD_BATCH * step) {
        float v[CONV_LOAD_BATCH];
        int dst[CONV_LOAD_BATCH];
#pragma unroll
        for (int u = 0; u < CONV_LOAD_BATCH; u++) {
            v[u] = 0.f;
            dst[u] = -1;
            if (e + u * step < total) {
                const int gy = gy0 + yy, gx = gx0 + col;
                if (gy >= 0 && gy < a.h && gx >= 0 && gx < a.w_ && col < a.in_cols)
                    v[u] = xsrc[(size_t)c * plane + (size_t)gy * a.w_ + gx];
                dst[u] = (c * a.in_rows + yy) * a.pitch + col;
            }
            col += a.ld_dr;
            yy += a.ld_dq;
            if (col >= a.fill_cols) {
                col -= a.fill_cols;
                yy++;
            }
            while (yy >= a.in_rows) {
                yy -= a.in_rows;
                c++;
            }
        }
#pragma unroll
        for (int u = 0; u < CONV_LOAD_BATCH; u++)
            if (dst[u] >= 0)
                xs[dst[u]] = v[u];
    }
}

/* One kernel row of a compile-time K: xr = this thread's first input row for
 * that kernel row, wk = the weights of its tap 0. */
template <int K, int RY, int OCB, int OCP>
static __device__ __forceinline__ void spec_row(const float *xr, const float *wk, int pitch,
                                                float (&acc)[OCB][RY][GP_CONV2D_RX])
{
    constexpr int NV = (GP_CONV2D_RX + K - 1 + 3) / 4; /* float4 per row segment */
    float row[RY][4 * NV];
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
#pragma unroll
    for (int kx = 0; kx < K; kx++) {
        float wv[OCP];
        load_w<OCP>(wk + kx * OCP, wv);
#pragma unroll
        for (int o = 0; o < OCB; o++)
#pragma unroll
            for (int ry = 0; ry < RY; ry++)
#pragma unroll
                for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                    acc[o][ry][rx] = fmaf(row[ry][(rx + kx) % (4 * NV)], wv[o], acc[o][ry][rx]);
    }
}

template <int K, int RY, int OCB, int OCP>
static __device__ __forceinline__ void compute_spec(const float *xc, const float *wc, int pitch,
                                                    float (&acc)[OCB][RY][GP_CONV2D_RX])
{
    if (K * K * RY * GP_CONV2D_RX * OCB <= CONV_UNROLL_FMAS) {
#pragma unroll
        for (int ky = 0; ky < K; ky++)
            spec_row<K, RY, OCB, OCP>(xc + ky * pitch, wc + ky * K * OCP, pitch, acc);
    } else {
#pragma unroll 1
        for (int ky = 0; ky < K; ky++)
            spec_row<K, RY, OCB, OCP>(xc + ky * pitch, wc + ky * K * OCP, pitch, acc);
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
            float wv[OCP];
            load_w<OCP>(wk + kx * OCP, wv);
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

/* K = 0: run-time kernel size. */
template <int K, int RY, int OCB>
__global__ void CONV_BOUNDS gp_conv2d_tiled(conv_args a)
{
    constexpr int OCP = OCB == 6 ? 8 : OCB;
    extern __shared__ float4 gp_conv2d_lds[];
    float *ws = reinterpret_cast<float *>(gp_conv2d_lds);
    float *xs = ws + a.ws_floats;
    const int kh = K > 0 ? K : a.kh, kw = K > 0 ? K : a.kw, kk = kh * kw;
    const int tx = (int)threadIdx.x & ((1 << a.tx_log2) - 1), ty = (int)threadIdx.x >> a.tx_log2;
    const int bty = (int)blockIdx.x / a.tiles_x, btx = (int)blockIdx.x - bty * a.tiles_x;
    const int oy0 = bty * a.tile_y, ox0 = btx * a.tile_x;
    const size_t plane = (size_t)a.h * a.w_, oplane = (size_t)a.out_h * a.out_w;
    for (int img = blockIdx.z; img < a.n; img += gridDim.z) {
        for (int g = blockIdx.y; g < a.groups; g += gridDim.y) {
            const int oc0 = g * OCB;
            float acc[OCB][RY][GP_CONV2D_RX];
#pragma unroll
            for (int o = 0; o < OCB; o++)
#pragma unroll
                for (int ry = 0; ry < RY; ry++)
#pragma unroll
                    for (int rx = 0; rx < GP_CONV2D_RX; rx++)
                        acc[o][ry][rx] = 0.f;
            for (int c0 = 0; c0 < a.in_c; c0 += a.ic_per_stage) {
                const int cc = a.in_c - c0 < a.ic_per_stage ? a.in_c - c0 : a.ic_per_stage;
                __syncthreads(); /* the previous stage's reads are done */
                stage_weights<OCB, OCP>(a, ws, oc0, c0, cc, kk);
                stage_input(a, xs, a.x + ((size_t)img * a.in_c + c0) * plane, cc, oy0 - a.pad_h, ox0 - a.pad_w);
                __syncthreads();
#pragma unroll 1
                for (int c = 0; c < cc; c++) {
                    const float *xc = xs + (c * a.in_rows + ty * RY) * a.pitch + tx * GP_CONV2D_RX;
                    const float *wc = ws + c * kk * OCP;
                    if (K > 0)
                        compute_spec<K, RY, OCB, OCP>(xc, wc, a.pitch, acc);
                    else
                        compute_generic<RY, OCB, OCP>(xc, wc, a.pitch, kh, kw, acc);
                }
            }
#pragma unroll
            for (int o = 0; o < OCB; o++) {
                const int oc = oc0 + o;
                if (oc >= a.out_c)
                    break;
                float *yp = a.y + ((size_t)img * a.out_c + oc) * oplane;
#pragma unroll
                for (int ry = 0; ry < RY; ry++) {
                    const int oy = oy0 + ty * RY + ry;
                    if (oy >= a.out_h)
                        break;
#pragma unroll
                    for (int rx = 0; rx < GP_CONV2D_RX; rx++) {
                        const int ox = ox0 + tx * GP_CONV2D_RX + rx;
                        if (ox < a.out_w)
                            yp[(size_t)oy * a.out_w + ox] = acc[o][ry][rx];
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

typedef gp_status (*conv_launch_fn)(dim3 grid, int block, size_t lds, const conv_args &a);

template <int K, int RY, int OCB>
static gp_status launch_tiled(dim3 grid, int block, size_t lds, const conv_args &a)
{
    gp_conv2d_tiled<K, RY, OCB><<<grid, dim3((unsigned)block, 1, 1), lds>>>(a);
    return gp_launch_status("conv2d tiled");
}

/* The compiled (K, RY, OCB) set; NULL for a shape that is not compiled. */
template <int K>
static conv_launch_fn pick_ry_ocb(int ry, int ocb)
{
#define GP_CONV2D_OCB_CASES(RY)                                  \
    switch (ocb) {                                               \
    case 1: return launch_tiled<K, RY, 1>;                       \
    case 2: return launch_tiled<K, RY, 2>;                       \
    case 4: return launch_tiled<K, RY, 4>;                       \
    default: break;                                              \
    }
    switch (ry) {
    case 1:
        GP_CONV2D_OCB_CASES(1)
        if (ocb == 6)
            return launch_tiled<K, 1, 6>;
        if (ocb == 8)
            return launch_tiled<K, 1, 8>;
        return NULL;
    case 2:
        GP_CONV2D_OCB_CASES(2)
        if (ocb == 6)
            return launch_tiled<K, 2, 6>;
        if (ocb == 8)
            return launch_tiled<K, 2, 8>;
        return NULL;
    case 4: /* 4 x 4 x OCB <= GP_CONV2D_MAX_ACC: OCB <= 4 */
        GP_CONV2D_OCB_CASES(4)
        return NULL;
    default: return NULL;
    }
#undef GP_CONV2D_OCB_CASES
}

static conv_launch_fn pick(int k, int ry, int ocb)
{
    switch (k) {
    case 0: return pick_ry_ocb<0>(ry, ocb);
    case 3: return pick_ry_ocb<3>(ry, ocb);
    case 5: return pick_ry_ocb<5>(ry, ocb);
    case 6: return pick_ry_ocb<6>(ry, ocb);
    case 7: return pick_ry_ocb<7>(ry, ocb);
    default: return NULL;
    }
}

static int log2i(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

extern "C" gp_status gp_conv2d_launch(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y)
{
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
        gp_conv2d_direct<<<dim3((unsigned)blocks, 1, 1), dim3((unsigned)p->block, 1, 1)>>>(a);
        return gp_launch_status("conv2d direct");
    }
    if ((p->threads_x & (p->threads_x - 1)) || p->threads_x > p->block || p->block > GP_CONV2D_MAX_BLOCK)
        return gp_fail(GP_ERR_USAGE, "conv2d: threads_x %d / block %d not a launchable shape", p->threads_x,
                       p->block);
    conv_launch_fn fn = pick(p->k_spec, p->rows_per_thread, p->oc_per_thread);
    if (!fn)
        return gp_fail(GP_ERR_USAGE, "conv2d: kernel %d, %d rows x %d channels per thread is not compiled",
                       p->k_spec, p->rows_per_thread, p->oc_per_thread);
    a.tx_log2 = log2i(p->threads_x);
    a.tile_x = p->tile_x, a.tile_y = p->tile_y, a.tiles_x = p->tiles_x, a.groups = p->groups;
    a.in_rows = p->in_rows, a.in_cols = p->tile_x + s->kw - 1, a.pitch = p->pitch;
    a.ic_per_stage = p->ic_per_stage, a.ws_floats = p->ws_floats;
    a.fill_cols = a.in_cols;
    if (p->k_spec > 0) {
        const int nv = (GP_CONV2D_RX + p->k_spec - 1 + 3) / 4; /* as spec_row reads */
        if (p->tile_x - GP_CONV2D_RX + 4 * nv > a.fill_cols)
            a.fill_cols = p->tile_x - GP_CONV2D_RX + 4 * nv;
    }
    if (a.fill_cols > p->pitch)
        return gp_fail(GP_ERR_USAGE, "conv2d: LDS pitch %d below the %d columns read", p->pitch, a.fill_cols);
    a.ld_dq = p->block / a.fill_cols, a.ld_dr = p->block % a.fill_cols;
    dim3 grid((unsigned)(p->tiles_x * p->tiles_y), (unsigned)(p->groups < 65535 ? p->groups : 65535),
              (unsigned)(s->n < 65535 ? s->n : 65535));
    return fn(grid, p->block, p->lds_bytes, a);
}
