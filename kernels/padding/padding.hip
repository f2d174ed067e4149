/* padding kernel: see the comment above gp_padding_kernel.
 * Every thread spends one division pair per group of 4 output elements (the
 * magic numbers come from the host, gp_fastdiv_make) and issues all its inside
 * loads before its 16-byte stores: those loads are the bytes in flight the
 * rule sizes. */
#include "gp_device.h"
#include "padding.h"
#include "fastdiv.h"
#include "padding_staged.h"

/* The kernel: the output is one contiguous array of planes x howo
 * floats, cut in groups of 4 consecutive elements (one 16-byte store each).
 * A block owns VEC x blockDim consecutive elements; its thread t takes
 * groups t, t + blockDim, ... (VEC / 4 of them), so each store instruction
 * of a wave covers whole lines whatever VEC is (a 13 x 13 plane is 676 bytes,
 * so the per-position kernel's stores start mid-line in every plane), and
 * the thread's gathered loads (inside values only) are all issued before its
 * first store: VEC loads in flight.  One division pair per group. */
typedef struct pad_args {
    unsigned total;     /* output elements of this launch (< 2^31) */
    size_t e0;          /* first output element of this launch (a multiple of 4) */
    unsigned p0;        /* its plane */
    unsigned h, w, ho, wo, howo;
    int top, left;
    gp_fastdiv by_howo, by_wo;
} pad_args;

template <int VEC>
__global__ void GP_LAUNCH_BOUNDS(GP_PADDING_MAX_BLOCK) gp_padding_kernel(const float *__restrict__ in,
                                                                              float *__restrict__ out,
                                                                              pad_args a)
{
    const int G = VEC / 4;
    const unsigned base = blockIdx.x * blockDim.x * (unsigned)VEC;
    const size_t hw = (size_t)a.h * a.w;
    float v[VEC];
#pragma unroll
    for (int g = 0; g < G; g++) {
        const unsigned i0 = base + (threadIdx.x + (unsigned)g * blockDim.x) * 4u;
        unsigned pl = gp_fastdiv_apply(i0 < a.total ? i0 : 0, a.by_howo);
        const unsigned q = (i0 < a.total ? i0 : 0) - pl * a.howo;
        unsigned oy = gp_fastdiv_apply(q, a.by_wo);
        unsigned ox = q - oy * a.wo;
        pl += a.p0;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int iy = (int)oy - a.top, ix = (int)ox - a.left;
            const bool inside = (unsigned)iy < a.h && (unsigned)ix < a.w && i0 + k < a.total;
            v[4 * g + k] = inside ? __ldg(in + (size_t)pl * hw + (size_t)iy * a.w + (unsigned)ix) : 0.0f;
            if (++ox == a.wo) {
                ox = 0;
                if (++oy == a.ho)
                    oy = 0, pl++;
            }
        }
    }
#pragma unroll
    for (int g = 0; g < G; g++) {
        const unsigned i0 = base + (threadIdx.x + (unsigned)g * blockDim.x) * 4u;
        float *dst = out + a.e0 + i0;
        if (i0 + 4 <= a.total)
            *(float4 *)dst = make_float4(v[4 * g], v[4 * g + 1], v[4 * g + 2], v[4 * g + 3]);
        else
            for (int k = 0; k < 4; k++)
                if (i0 + k < a.total)
                    dst[k] = v[4 * g + k];
    }
}

/* The staged kernel (planes_per_block P > 0): a block owns P whole planes,
 * reads their contiguous input into shared memory with 16-byte loads (4 a
 * thread per batch, all issued before any is stored: a rolled load-store
 * loop would wait a DRAM latency per vector), and after one barrier writes
 * their contiguous output with 16-byte stores gathered from shared memory
 * (padding_staged.h).  Every global access is full width; the gathers are
 * LDS reads.  Needs a 16-byte aligned input and P h w x 4 bytes of shared
 * memory (gp_padding_staged_usable). */
extern __shared__ float4 gp_padding_lds4[];

__global__ void GP_LAUNCH_BOUNDS(GP_PADDING_MAX_BLOCK) gp_padding_staged_kernel(const float *__restrict__ in,
                                                                                 float *__restrict__ out,
                                                                                 gp_padding_geom g, unsigned P)
{
    float *lds = (float *)gp_padding_lds4;
    const unsigned np = gp_padding_staged_np(blockIdx.x, P, g.planes);
    const size_t p0 = (size_t)blockIdx.x * P;
    const unsigned hw = g.h * g.w, nin = np * hw, nout = np * g.howo, nv = nin / 4;
    const size_t in0 = p0 * hw, out0 = p0 * g.howo;
    const float4 *src = (const float4 *)(in + in0);
    const unsigned bd = blockDim.x;
    for (unsigned v0 = threadIdx.x; v0 < nv; v0 += 4 * bd) {
        float4 t[4];
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (v0 + r * bd < nv)
                t[r] = __ldg(src + v0 + r * bd);
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (v0 + r * bd < nv)
                gp_padding_lds4[v0 + r * bd] = t[r];
    }
    for (unsigned e = nv * 4 + threadIdx.x; e < nin; e += bd)
        lds[e] = __ldg(in + in0 + e);
    __syncthreads();
    float4 *dst = (float4 *)(out + out0);
    for (unsigned v = threadIdx.x; v < (nout + 3) / 4; v += bd) {
        float r[4];
        gp_padding_staged_group(lds, v * 4, nout, &g, r);
        if (v * 4 + 4 <= nout)
            dst[v] = make_float4(r[0], r[1], r[2], r[3]);
        else
            for (unsigned k = 0; v * 4 + k < nout; k++)
                out[out0 + v * 4 + k] = r[k];
    }
}

extern "C" gp_status gp_padding_launch_staged_f32(const float *d_in, float *d_out, const gp_padding_shape *s,
                                                  int block, int planes_per_block, gp_stream st)
{
    gp_padding_geom g;
    g.h = (unsigned)s->h, g.w = (unsigned)s->w;
    g.ho = (unsigned)gp_padding_out_h(s), g.wo = (unsigned)gp_padding_out_w(s);
    g.howo = g.ho * g.wo;
    g.planes = (unsigned)s->n * (unsigned)s->c;
    g.top = s->top, g.left = s->left;
    g.by_howo = gp_fastdiv_make(g.howo);
    g.by_wo = gp_fastdiv_make(g.wo);
    const unsigned P = (unsigned)planes_per_block;
    const unsigned grid = (g.planes + P - 1) / P;
    const size_t lds = ((size_t)P * g.h * g.w * 4 + 15) & ~(size_t)15;
    gp_padding_staged_kernel<<<grid, block, lds, (hipStream_t)st>>>(d_in, d_out, g, P);
    return gp_launch_status("padding staged");
}

template <int VEC>
static gp_status launch(const float *in, float *out, const gp_padding_shape *s, int block, hipStream_t st)
{
    const unsigned planes = (unsigned)s->n * (unsigned)s->c;
    pad_args a;
    a.h = (unsigned)s->h, a.w = (unsigned)s->w;
    a.ho = (unsigned)gp_padding_out_h(s), a.wo = (unsigned)gp_padding_out_w(s);
    a.howo = a.ho * a.wo;
    a.top = s->top, a.left = s->left;
    a.by_howo = gp_fastdiv_make(a.howo);
    a.by_wo = gp_fastdiv_make(a.wo);
    /* Launches of whole planes under 2^31 elements, each on a 16-byte boundary. */
    const unsigned per_launch = gp_padding_planes_per_launch(a.howo, planes);
    if (per_launch == 0)
        return gp_fail(GP_ERR_USAGE, "padding: %u planes of %u elements cannot be launched in parts on 16-byte "
                       "boundaries (gp_padding_check_shape refuses them)", planes, a.howo);
    for (unsigned p0 = 0; p0 < planes; p0 += per_launch) {
        unsigned np = planes - p0 < per_launch ? planes - p0 : per_launch;
        a.p0 = p0;
        a.e0 = (size_t)p0 * a.howo;
        a.total = np * a.howo;
        const unsigned per_block = (unsigned)block * VEC;
        unsigned grid = (a.total + per_block - 1) / per_block;
        gp_padding_kernel<VEC><<<grid, block, 0, st>>>(in, out, a);
        GP_TRY(gp_launch_status("padding"));
    }
    return gp_ok();
}

extern "C" gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                           int items, gp_stream st)
{
    switch (items) {
    case 4: return launch<4>(d_in, d_out, s, block, (hipStream_t)st);
    case 8: return launch<8>(d_in, d_out, s, block, (hipStream_t)st);
    case 16: return launch<16>(d_in, d_out, s, block, (hipStream_t)st);
    default: return gp_fail(GP_ERR_USAGE, "padding: items_per_thread %d not compiled (4, 8, 16)", items);
    }
}
