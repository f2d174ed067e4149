/* padding kernel: one thread per output position of CPT consecutive planes.
 * The flat index i over (plane group, position) is split with two
 * multiply-shift divisions (the magic numbers come from the host,
 * gp_kdivider), so a thread spends a handful of integer instructions
 * on its CPT loads and stores.  The CPT loads are independent and all issued
 * before the first store: that is the bytes in flight the rule sizes. */
#include "gp_device.h"
#include "padding.h"
#include "kdiv.h"

typedef struct pad_args {
    unsigned total;     /* threads of this launch: groups x howo (< 2^31) */
    unsigned g0;        /* first plane group of this launch */
    unsigned planes;    /* n x c */
    unsigned h, w, howo, wo;
    int top, left;
    gp_kdiv by_howo, by_wo;
} pad_args;

template <int CPT>
__global__ void GP_LAUNCH_BOUNDS(GP_PADDING_MAX_BLOCK) gp_padding_kernel(const float *__restrict__ in,
                                                                         float *__restrict__ out, pad_args a)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.total)
        return;
    const unsigned g = gp_kdiv_apply(i, a.by_howo);
    const unsigned q = i - g * a.howo;
    const unsigned oy = gp_kdiv_apply(q, a.by_wo);
    const unsigned ox = q - oy * a.wo;
    const int iy = (int)oy - a.top, ix = (int)ox - a.left;
    const bool inside = (unsigned)iy < a.h && (unsigned)ix < a.w;
    const unsigned p0 = (a.g0 + g) * (unsigned)CPT;
    const size_t hw = (size_t)a.h * a.w;
    const float *src = in + (size_t)p0 * hw + (inside ? (size_t)iy * a.w + (unsigned)ix : 0);
    float *dst = out + (size_t)p0 * a.howo + q;
    float v[CPT];
#pragma unroll
    for (int c = 0; c < CPT; c++)
        v[c] = inside && p0 + c < a.planes ? __ldg(src + c * hw) : 0.0f;
#pragma unroll
    for (int c = 0; c < CPT; c++)
        if (p0 + c < a.planes)
            dst[c * (size_t)a.howo] = v[c];
}

template <int CPT>
static gp_status launch(const float *in, float *out, const gp_padding_shape *s, int block)
{
    const unsigned planes = (unsigned)s->n * (unsigned)s->c;
    const unsigned ho = (unsigned)gp_padding_out_h(s), wo = (unsigned)gp_padding_out_w(s);
    const unsigned howo = ho * wo;
    const unsigned groups = (planes + CPT - 1) / CPT;
    pad_args a;
    a.planes = planes, a.h = (unsigned)s->h, a.w = (unsigned)s->w, a.howo = howo, a.wo = wo;
    a.top = s->top, a.left = s->left;
    a.by_howo = gp_kdivider(howo);
    a.by_wo = gp_kdivider(wo);
    /* Launches of at most 2^31 - 1 threads (the dividers' domain), whole
     * plane groups each. */
    const unsigned per_launch = (unsigned)(0x7fffffffu / howo);
    for (unsigned g0 = 0; g0 < groups; g0 += per_launch) {
        unsigned ng = groups - g0 < per_launch ? groups - g0 : per_launch;
        a.g0 = g0;
        a.total = ng * howo;
        unsigned grid = (a.total + (unsigned)block - 1) / (unsigned)block;
        gp_padding_kernel<CPT><<<grid, block>>>(in, out, a);
        GP_TRY(gp_launch_status("padding"));
    }
    return gp_ok();
}

extern "C" gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                           int cpt)
{
    switch (cpt) {
    case 1: return launch<1>(d_in, d_out, s, block);
    case 2: return launch<2>(d_in, d_out, s, block);
    case 4: return launch<4>(d_in, d_out, s, block);
    case 8: return launch<8>(d_in, d_out, s, block);
    case 16: return launch<16>(d_in, d_out, s, block);
    default: return gp_fail(GP_ERR_USAGE, "padding: channels_per_thread %d not compiled", cpt);
    }
}
