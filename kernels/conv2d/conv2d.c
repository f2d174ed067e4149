/* conv2d host API: shape checks, parameters fitted to the device and, per
 * launch, to the problem (the plan), the floor, and the run call. */
#include "conv2d.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "context.h"
#include "data.h"
#include "kernel.h"
#include "transfer.h"

#define KIB 1024

static const int spec_sizes[] = GP_CONV2D_SPEC_SIZES;
static const int ocb_choices[] = {8, 6, 4, 2, 1}; /* compiled in conv2d.hip */

/* a * b into *r; 0 on size_t overflow. */
static int mul_ok(size_t a, size_t b, size_t *r)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *r = a * b;
    return 1;
}

static int mul4_ok(size_t a, size_t b, size_t c, size_t d, size_t *r)
{
    size_t t;
    return mul_ok(a, b, &t) && mul_ok(t, c, &t) && mul_ok(t, d, r);
}

gp_status gp_conv2d_check(const gp_conv2d_shape *s, size_t mem_bytes, int *out_h, int *out_w)
{
    if (!s)
        return gp_fail(GP_ERR_USAGE, "conv2d: no shape");
    if (s->n < 1 || s->in_c < 1 || s->h < 1 || s->w < 1 || s->out_c < 1 || s->kh < 1 || s->kw < 1)
        return gp_fail(GP_ERR_USAGE,
                       "conv2d: every size must be >= 1: n %d, in_c %d, h %d, w %d, out_c %d, kernel %dx%d",
                       s->n, s->in_c, s->h, s->w, s->out_c, s->kh, s->kw);
    if (s->pad_h < 0 || s->pad_w < 0)
        return gp_fail(GP_ERR_USAGE, "conv2d: negative padding %d x %d", s->pad_h, s->pad_w);
    long long ph = (long long)s->h + 2LL * s->pad_h, pw = (long long)s->w + 2LL * s->pad_w;
    if (s->kh > ph || s->kw > pw)
        return gp_fail(GP_ERR_USAGE, "conv2d: kernel %dx%d is larger than the padded input %lldx%lld (%dx%d + pad %d, %d)",
                       s->kh, s->kw, ph, pw, s->h, s->w, s->pad_h, s->pad_w);
    long long oh = ph - s->kh + 1, ow = pw - s->kw + 1;
    /* One channel plane is indexed with int on the GPU. */
    if ((long long)s->h * s->w > INT32_MAX || oh * ow > INT32_MAX || oh > INT32_MAX || ow > INT32_MAX)
        return gp_fail(GP_ERR_USAGE, "conv2d: a channel plane of %dx%d in or %lldx%lld out has 2^31 elements or more",
                       s->h, s->w, oh, ow);
    if ((long long)s->kh * s->kw > INT32_MAX / 8)
        return gp_fail(GP_ERR_USAGE, "conv2d: kernel %dx%d too large", s->kh, s->kw);
    size_t xe, we, ye, total;
    if (!mul4_ok((size_t)s->n, (size_t)s->in_c, (size_t)s->h, (size_t)s->w, &xe) ||
        !mul4_ok((size_t)s->out_c, (size_t)s->in_c, (size_t)s->kh, (size_t)s->kw, &we) ||
        !mul4_ok((size_t)s->n, (size_t)s->out_c, (size_t)oh, (size_t)ow, &ye) || xe > SIZE_MAX / 4 - we ||
        xe + we > SIZE_MAX / 4 - ye)
        return gp_fail(GP_ERR_NOMEM, "conv2d: buffer sizes overflow (n %d, in_c %d, %dx%d, out_c %d, kernel %dx%d)",
                       s->n, s->in_c, s->h, s->w, s->out_c, s->kh, s->kw);
    total = (xe + we + ye) * 4;
    if (mem_bytes > 0 && total > mem_bytes)
        return gp_fail(GP_ERR_NOMEM, "conv2d: x + w + y need %.3f GB, the device has %.3f GB",
                       total / 1e9, mem_bytes / 1e9);
    if (out_h)
        *out_h = (int)oh;
    if (out_w)
        *out_w = (int)ow;
    return gp_ok();
}

gp_status gp_conv2d_shape_of(const gp_shape *g, gp_conv2d_shape *s)
{
    int v[9];
    for (int i = 0; i < 9; i++) {
        long long x = i < 7 ? g->d[i] : g->opt[i - 7];
        if (x < INT_MIN || x > INT_MAX)
            return gp_fail(GP_ERR_USAGE, "conv2d: shape value %lld (slot %d) is outside int", x, i);
        v[i] = (int)x;
    }
    s->n = v[GP_CONV2D_DIM_N], s->in_c = v[GP_CONV2D_DIM_IN_C], s->h = v[GP_CONV2D_DIM_H], s->w = v[GP_CONV2D_DIM_W];
    s->out_c = v[GP_CONV2D_DIM_OUT_C], s->kh = v[GP_CONV2D_DIM_KH], s->kw = v[GP_CONV2D_DIM_KW];
    s->pad_h = v[7 + GP_CONV2D_OPT_PAD_H], s->pad_w = v[7 + GP_CONV2D_OPT_PAD_W];
    return gp_ok();
}

static int out_h_of(const gp_conv2d_shape *s) { return s->h + 2 * s->pad_h - s->kh + 1; }
static int out_w_of(const gp_conv2d_shape *s) { return s->w + 2 * s->pad_w - s->kw + 1; }

size_t gp_conv2d_x_elems(const gp_conv2d_shape *s) { return (size_t)s->n * s->in_c * s->h * s->w; }
size_t gp_conv2d_w_elems(const gp_conv2d_shape *s) { return (size_t)s->out_c * s->in_c * s->kh * s->kw; }
size_t gp_conv2d_y_elems(const gp_conv2d_shape *s)
{
    return (size_t)s->n * s->out_c * out_h_of(s) * out_w_of(s);
}

double gp_conv2d_flops(const gp_conv2d_shape *s)
{
    return 2.0 * s->n * s->out_c * (double)out_h_of(s) * out_w_of(s) * s->in_c * s->kh * s->kw;
}

static int floor_pow2(int v)
{
    int p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

/* The device's threads per block within the launch bounds. */
static int max_block_of(const gp_device_info *dev)
{
    int maxb = GP_CONV2D_MAX_BLOCK;
    if (dev && dev->max_threads_per_block > 0 && dev->max_threads_per_block < maxb)
        maxb = dev->max_threads_per_block;
    if (dev && dev->max_block_dim[0] > 0 && dev->max_block_dim[0] < maxb)
        maxb = dev->max_block_dim[0];
    return maxb;
}

/* One pass touches at most 32 words (8 lanes x 4 or 32 lanes x 1), so
 * addr[bank] holds every distinct word a bank sees (no saturation). */
int gp_conv2d_conflict_degree(int pitch, int tx, int ry, int vec4)
{
    if (tx < 1)
        tx = 1;
    int lanes_per_pass = vec4 ? 8 : 32, worst = 1;
    for (int p0 = 0; p0 < 32; p0 += lanes_per_pass) {
        long addr[32][32];
        int nw[32] = {0};
        for (int l = p0; l < p0 + lanes_per_pass; l++) {
            long base = (long)(l / tx) * ry * pitch + (long)(l % tx) * 4;
            for (int k = 0; k < (vec4 ? 4 : 1); k++) {
                long a = base + k;
                int bank = (int)(((a % 32) + 32) % 32), seen = 0;
                for (int i = 0; i < nw[bank]; i++)
                    seen |= addr[bank][i] == a;
                if (!seen)
                    addr[bank][nw[bank]++] = a;
            }
        }
        for (int b = 0; b < 32; b++)
            if (nw[b] > worst)
                worst = nw[b];
    }
    return worst;
}

static int is_spec_size(int k)
{
    for (size_t i = 0; i < sizeof spec_sizes / sizeof spec_sizes[0]; i++)
        if (spec_sizes[i] == k)
            return 1;
    return 0;
}

/* Output channels per thread: among the compiled values <= max, the one of
 * least cost = padded channels (FMAs, including the zero channels of the
 * last group) x (1 + 1/o) (per group, the input tile is staged and its rows
 * read again, a cost shared by fewer FMAs when o is small).  Ties: the
 * larger.  out_c 6 -> 6, 9 -> 6 + 6, 16 -> 8, 3 -> 4, 1 -> 1. */
static int pick_ocb(int max, int out_c)
{
    int best = 1;
    double best_cost = 1e300;
    for (size_t i = 0; i < sizeof ocb_choices / sizeof ocb_choices[0]; i++) {
        int o = ocb_choices[i];
        if (o > max)
            continue;
        double padded = (double)((out_c + o - 1) / o) * o;
        double cost = padded * (1.0 + 1.0 / o);
        if (cost < best_cost - 1e-9) {
            best = o;
            best_cost = cost;
        }
    }
    return best;
}

static void add_note(gp_conv2d_plan *p, const char *text)
{
    size_t len = strlen(p->note);
    snprintf(p->note + len, sizeof p->note - len, "%s%s", len ? "; " : "", text);
}

static size_t round4(size_t v) { return (v + 3) / 4 * 4; }

/* LDS layout and stage depth for the current threads_x/rows/ocb; 0 when not
 * even one channel fits.  Two input buffers of ic_per_stage channels (the
 * next stage loads while the current one computes) and the weights: all
 * input channels' at once when they fit next to one channel's buffers,
 * else two buffers of one stage's. */
static int fit_lds(gp_conv2d_plan *p, size_t budget)
{
    const gp_conv2d_shape *s = &p->s;
    p->tile_x = p->threads_x * GP_CONV2D_RX;
    p->tile_y = (p->block / p->threads_x) * p->rows_per_thread;
    p->oc_pad = p->oc_per_thread == 6 ? 8 : p->oc_per_thread;
    p->in_rows = p->tile_y + s->kh - 1;
    int in_cols = p->tile_x + s->kw - 1;
    int vec4 = p->k_spec > 0, base, step, tries, fill = in_cols;
    if (vec4) {
        /* 16-byte row loads: the last thread's last float4 may reach past
         * in_cols; those columns are never multiplied but must exist. */
        int nv = (GP_CONV2D_RX + p->k_spec - 1 + 3) / 4;
        if (p->tile_x - GP_CONV2D_RX + 4 * nv > fill)
            fill = p->tile_x - GP_CONV2D_RX + 4 * nv;
        base = (fill + 3) / 4 * 4;
        step = 4, tries = 8;
    } else {
        base = in_cols, step = 1, tries = 32;
    }
    int best = base, best_deg = 1 << 30;
    for (int i = 0; i < tries; i++) {
        int d = gp_conv2d_conflict_degree(base + i * step, p->threads_x, p->rows_per_thread, vec4);
        if (d < best_deg) {
            best_deg = d;
            best = base + i * step;
        }
    }
    p->pitch = best;
    p->lds_conflict = best_deg;
    p->fill_cols = fill;
    /* The tile's first input column is ox0 - pad_w with ox0 a multiple of 4:
     * the chunks start s_off columns left of it, on a 16-byte boundary of
     * rows whose width is a multiple of 4. */
    p->s_off = (int)(((-(long long)s->pad_w) % 4 + 4) % 4);
    p->nchunk = (fill + p->s_off + 3) / 4;

    const size_t kk = (size_t)s->kh * s->kw, xch = (size_t)p->in_rows * p->pitch;
    const size_t floats = budget / 4;
    /* Channels per stage: what GP_CONV2D_PF_CHUNKS chunks per thread cover
     * (at least 1), and at most half of in_c so that there are two stages
     * to overlap (the seed's problem is one wave of blocks: the block's own
     * next stage is all there is to hide its loads behind). */
    size_t c_pf = (size_t)GP_CONV2D_PF_CHUNKS(p->k_spec) * p->block / ((size_t)p->in_rows * p->nchunk);
    size_t cmax = s->in_c >= 2 ? ((size_t)s->in_c + 1) / 2 : 1;
    if (c_pf < 1)
        c_pf = 1;
    if (cmax > c_pf)
        cmax = c_pf;
    size_t cc = 0, ws = 0;
    size_t wres = round4((size_t)s->in_c * kk * p->oc_pad);
    if (wres + 2 * xch <= floats) {
        p->w_resident = 1;
        ws = wres;
        cc = (floats - wres) / (2 * xch);
        if (cc > cmax)
            cc = cmax;
    } else {
        p->w_resident = 0;
        for (cc = cmax; cc > 0; cc--) {
            ws = round4(cc * kk * p->oc_pad);
            if (2 * ws + 2 * cc * xch <= floats)
                break;
        }
    }
    if (cc < 1) {
        p->ic_per_stage = 0;
        return 0;
    }
    p->ic_per_stage = (int)cc;
    p->nstages = (int)(((size_t)s->in_c + cc - 1) / cc);
    p->ws_floats = (int)ws;
    p->lds_bytes = ((p->w_resident ? 1 : 2) * ws + 2 * cc * xch) * 4;
    return 1;
}

gp_status gp_conv2d_plan_fit(int tile_x, int tile_y, int block, int ocb, int variant,
                             const gp_device_info *dev, const gp_conv2d_shape *s, gp_conv2d_plan *p)
{
    memset(p, 0, sizeof *p);
    if (variant < GP_CONV2D_AUTO || variant > GP_CONV2D_ROLLED)
        return gp_fail(GP_ERR_USAGE, "conv2d: variant %d is not 0 (auto), 1 (generic), 2 (direct) or 3 (rolled)",
                       variant);
    if (tile_x < 1 || tile_y < 1 || block < 1 || ocb < 1)
        return gp_fail(GP_ERR_USAGE, "conv2d: parameters must be >= 1 (tile %dx%d, block %d, ocb %d)", tile_x,
                       tile_y, block, ocb);
    GP_TRY(gp_conv2d_check(s, dev ? dev->mem_bytes : 0, &p->out_h, &p->out_w));
    p->s = *s;
    p->variant = variant;

    /* Threads: at most the launch bounds and what the device takes. */
    int maxb = max_block_of(dev);
    int b = floor_pow2(block < maxb ? block : maxb);
    if (b < 32)
        b = 32 <= maxb ? 32 : floor_pow2(maxb);
    if (b != block) {
        char t[64];
        snprintf(t, sizeof t, "block %d -> %d", block, b);
        add_note(p, t);
    }
    p->block = b;

    if (variant == GP_CONV2D_DIRECT) {
        p->variant = GP_CONV2D_DIRECT;
        return gp_ok();
    }

    size_t budget = dev && dev->lds_per_block > 0 ? dev->lds_per_block : 48 * KIB;
    int tx = floor_pow2(tile_x / GP_CONV2D_RX > 0 ? tile_x / GP_CONV2D_RX : 1);
    if (tx > b)
        tx = b;
    p->threads_x = tx;
    int ty = b / tx;
    p->oc_per_thread = pick_ocb(ocb > 8 ? 8 : ocb, s->out_c);
    int want_ry = tile_y / ty;
    p->rows_per_thread = want_ry >= 4 ? 4 : want_ry >= 2 ? 2 : 1;
    /* A 128-register target has the generic kernel with up to 32
     * accumulators only (conv2d.h, GP_CONV2D_SHAPE_ON). */
    const int regs128 = dev && gp_target_reg_class(dev->arch) == GP_REGS_128;
    const int max_acc = regs128 ? GP_CONV2D_MAX_ACC_128 : GP_CONV2D_MAX_ACC;
    while (p->rows_per_thread > 1 && p->oc_per_thread * p->rows_per_thread * GP_CONV2D_RX > max_acc)
        p->rows_per_thread /= 2;
    p->k_spec = (variant == GP_CONV2D_AUTO || variant == GP_CONV2D_ROLLED) && s->kh == s->kw && is_spec_size(s->kh)
                    ? s->kh
                    : 0;
    if (p->k_spec && regs128) {
        char t[96];
        snprintf(t, sizeof t, "generic code: %s has no %dx%d kernel (128 VGPRs/thread)", dev->arch, p->k_spec,
                 p->k_spec);
        add_note(p, t);
        p->k_spec = 0;
    }
    p->variant = p->k_spec ? GP_CONV2D_AUTO : GP_CONV2D_GENERIC;

    /* Shrink the per-thread block until one input channel and its weights
     * fit the LDS; a kernel too large even then runs the direct code. */
    while (!fit_lds(p, budget)) {
        if (p->rows_per_thread > 1) {
            p->rows_per_thread /= 2;
        } else if (p->oc_per_thread > 1) {
            p->oc_per_thread = p->oc_per_thread == 6 ? 4 : p->oc_per_thread / 2;
        } else if (p->block > 32) {
            p->block /= 2; /* fewer rows of threads: a lower tile */
            if (p->threads_x > p->block)
                p->threads_x = p->block;
        } else {
            break;
        }
    }
    if (p->ic_per_stage < 1) {
        add_note(p, "kernel too large for the LDS: direct code");
        p->variant = GP_CONV2D_DIRECT;
        p->k_spec = 0;
        p->block = b;
        return gp_ok();
    }
    if (p->block != b) {
        char t[64];
        snprintf(t, sizeof t, "block %d -> %d to fit the LDS", b, p->block);
        add_note(p, t);
    }
    if (variant == GP_CONV2D_ROLLED) {
        if (p->k_spec && gp_conv2d_rolled_compiled(p->k_spec, p->rows_per_thread, p->oc_per_thread))
            p->variant = GP_CONV2D_ROLLED;
        else
            add_note(p, "rolled not compiled for this shape: auto");
    }
    if (p->tile_x != tile_x || p->tile_y != tile_y) {
        char t[96];
        snprintf(t, sizeof t, "tile %dx%d -> %dx%d", tile_x, tile_y, p->tile_x, p->tile_y);
        add_note(p, t);
    }
    if (p->oc_per_thread != ocb) {
        char t[96];
        snprintf(t, sizeof t, "out channels/block %d -> %d for out_c %d", ocb, p->oc_per_thread, s->out_c);
        add_note(p, t);
    }
    p->tiles_x = (p->out_w + p->tile_x - 1) / p->tile_x;
    p->tiles_y = (p->out_h + p->tile_y - 1) / p->tile_y;
    p->groups = (s->out_c + p->oc_per_thread - 1) / p->oc_per_thread;
    if ((long long)p->tiles_x * p->tiles_y > INT32_MAX)
        return gp_fail(GP_ERR_USAGE, "conv2d: %d x %d tiles exceed the grid", p->tiles_x, p->tiles_y);
    return gp_ok();
}

/* What the plan would do to block and the channels for any problem, done
 * once: the parameters a variant or a tune candidate really launches. */
void gp_conv2d_params_fit(gp_conv2d_params *p, const gp_device_info *dev)
{
    int maxb = max_block_of(dev);
    int b = floor_pow2(p->block < maxb ? p->block : maxb);
    if (b < 32)
        b = 32 <= maxb ? 32 : floor_pow2(maxb);
    if (b != p->block) {
        char t[64];
        snprintf(t, sizeof t, "block %d -> %d", p->block, b);
        gp_note_append(p->note, sizeof p->note, t);
        p->block = b;
    }
    if (p->out_channels_per_block > 8) {
        gp_note_append(p->note, sizeof p->note, "out_channels_per_block at most the compiled 8");
        p->out_channels_per_block = 8;
    }
}

gp_status gp_conv2d_plan_make(const gp_conv2d_params *prm, const gp_device_info *dev, const gp_conv2d_shape *s,
                              int variant, gp_conv2d_plan *p)
{
    if (!prm)
        return gp_fail(GP_ERR_USAGE, "conv2d: no parameters");
    return gp_conv2d_plan_fit(prm->tile_x, prm->tile_y, prm->block, prm->out_channels_per_block,
                              variant >= 0 ? variant : prm->variant, dev, s, p);
}

void gp_conv2d_plan_format(const gp_conv2d_plan *p, char *buf, size_t n)
{
    if (p->variant == GP_CONV2D_DIRECT) {
        snprintf(buf, n, "direct, block %d, 1 output/thread%s%s", p->block, p->note[0] ? "; " : "", p->note);
        return;
    }
    char k[24];
    if (p->k_spec)
        snprintf(k, sizeof k, "k%d spec%s", p->k_spec, p->variant == GP_CONV2D_ROLLED ? " rolled" : "");
    else
        snprintf(k, sizeof k, "generic");
    snprintf(buf, n, "%s, tile %dx%d, block %d (%dx%d), %dx%d px x %d oc/thread, %d ch/stage x %d, "
                     "weights %s, LDS %.1f KiB, conflict %d%s%s",
             k, p->tile_x, p->tile_y, p->block, p->threads_x, p->block / p->threads_x, GP_CONV2D_RX,
             p->rows_per_thread, p->oc_per_thread, p->ic_per_stage, p->nstages,
             p->w_resident ? "resident" : "per stage", p->lds_bytes / 1024.0, p->lds_conflict,
             p->note[0] ? "; " : "", p->note);
}

gp_status gp_conv2d_run(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y, gp_stream stream)
{
    if (!p || !d_x || !d_w || !d_y)
        return gp_fail(GP_ERR_USAGE, "conv2d: NULL plan or buffer");
    int oh, ow;
    GP_TRY(gp_conv2d_check(&p->s, 0, &oh, &ow));
    if (oh != p->out_h || ow != p->out_w || p->block < 1 ||
        (p->variant != GP_CONV2D_DIRECT && (p->ic_per_stage < 1 || p->threads_x < 1)))
        return gp_fail(GP_ERR_USAGE, "conv2d: plan not made by gp_conv2d_plan_make");
    if ((uintptr_t)d_x % 4 || (uintptr_t)d_w % 4 || (uintptr_t)d_y % 4)
        return gp_fail(GP_ERR_USAGE, "conv2d: buffers must be 4-byte aligned");
    const uintptr_t y0 = (uintptr_t)d_y, y1 = y0 + gp_conv2d_y_elems(&p->s) * 4;
    const uintptr_t x0 = (uintptr_t)d_x, x1 = x0 + gp_conv2d_x_elems(&p->s) * 4;
    const uintptr_t w0 = (uintptr_t)d_w, w1 = w0 + gp_conv2d_w_elems(&p->s) * 4;
    if ((y0 < x1 && x0 < y1) || (y0 < w1 && w0 < y1))
        return gp_fail(GP_ERR_USAGE, "conv2d: y overlaps x or w");
    if (p->device > 0) /* a library plan runs on its context's device, whichever is current */
        GP_TRY(gp_rt_set_device(p->device - 1));
    return gp_conv2d_launch(p, d_x, d_w, d_y, stream);
}

/* ---- the library's call */

gp_status gp_conv2d_plan_for(struct gp_context *ctx, const gp_conv2d_shape *s, gp_conv2d_plan *plan)
{
    if (!ctx || !s || !plan)
        return gp_fail(GP_ERR_USAGE, "conv2d: %s is NULL", !ctx ? "the context" : !s ? "the shape" : "the plan");
    gp_status st = gp_conv2d_check(s, 0, NULL, NULL);
    if (st.code == GP_ERR_NOMEM) /* sizes that overflow: the caller's shape */
        st.code = GP_ERR_USAGE;
    GP_TRY(st);
    gp_shape g;
    memset(&g, 0, sizeof g);
    g.d[GP_CONV2D_DIM_N] = s->n, g.d[GP_CONV2D_DIM_IN_C] = s->in_c, g.d[GP_CONV2D_DIM_H] = s->h;
    g.d[GP_CONV2D_DIM_W] = s->w, g.d[GP_CONV2D_DIM_OUT_C] = s->out_c, g.d[GP_CONV2D_DIM_KH] = s->kh;
    g.d[GP_CONV2D_DIM_KW] = s->kw, g.opt[GP_CONV2D_OPT_PAD_H] = s->pad_h, g.opt[GP_CONV2D_OPT_PAD_W] = s->pad_w;
    gp_conv2d_params p;
    GP_TRY(gp_context_params(ctx, &gp_kernel_conv2d, &g, &p));
    GP_TRY(gp_conv2d_plan_make(&p, gp_context_device(ctx), s, -1, plan));
    plan->device = 1 + gp_context_bound_device(ctx);
    return gp_ok();
}

int gp_conv2d_fma_lanes(const gp_device_info *dev)
{
    if (!strcmp(dev->vendor, "NVIDIA")) {
        int v = 0;
        if (sscanf(dev->arch, "sm_%d", &v) != 1 || v < 10)
            return 0;
        int major = v / 10, minor = v % 10; /* sm_90 -> 9.0, sm_100 -> 10.0 */
        /* Volta and GA100 (sm_70, sm_80): 64 FP32 lanes per SM; GA10x, Ada
         * and Hopper (sm_86, 87, 89, 90) and newer: 128. */
        if (major < 8 || (major == 8 && minor == 0))
            return 64;
        return 128;
    }
    if (!strcmp(dev->vendor, "AMD"))
        return 64; /* GCN/CDNA: 4 SIMD16 per CU; RDNA: 2 SIMD32 per CU */
    return 0;
}

gp_status gp_conv2d_floor_of(const gp_conv2d_shape *s, const gp_table *t, const gp_device_info *dev,
                             gp_conv2d_floor *f)
{
    memset(f, 0, sizeof *f);
    GP_TRY(gp_conv2d_check(s, 0, NULL, NULL));
    const gp_table_entry *arch = t ? gp_table_find(t, "device", "arch") : NULL;
    int own = arch && !strcmp(arch->text, dev->arch);
    double lanes = 0, mhz = 0, cus = dev->compute_units, gbs = 0;
    const char *src = "device report";
    if (own) {
        long long cu_t;
        if (gp_table_get_double(t, "compute", "fp32_fma_per_cycle_per_cu", &lanes).code != GP_OK)
            lanes = 0;
        if (gp_table_get_double(t, "device", "clock_mhz", &mhz).code != GP_OK)
            mhz = 0;
        if (gp_table_get_int(t, "device", "compute_units", &cu_t).code == GP_OK)
            cus = (double)cu_t;
        if (gp_table_get_double(t, "dram", "bandwidth_gbs", &gbs).code != GP_OK &&
            gp_table_get_double(t, "dram", "peak_gbs", &gbs).code != GP_OK)
            gbs = 0;
        src = "table";
    }
    if (lanes <= 0)
        lanes = gp_conv2d_fma_lanes(dev);
    if (mhz <= 0)
        mhz = dev->core_clock_mhz;
    if (gbs <= 0)
        gbs = dev->mem_bus_bits / 8.0 * dev->mem_clock_mhz * 2 / 1000.0;
    f->fma_per_s = cus * lanes * mhz * 1e6;
    f->bytes_per_s = gbs * 1e9;
    double flops = gp_conv2d_flops(s);
    double bytes = 4.0 * (gp_conv2d_x_elems(s) + gp_conv2d_w_elems(s) + gp_conv2d_y_elems(s));
    f->compute_ms = f->fma_per_s > 0 ? flops / (2 * f->fma_per_s) * 1e3 : 0;
    f->memory_ms = f->bytes_per_s > 0 ? bytes / f->bytes_per_s * 1e3 : 0;
    if (f->compute_ms <= 0 && f->memory_ms <= 0)
        return gp_fail(GP_ERR_UNSUPPORTED, "conv2d floor: neither the FP32 peak nor the bandwidth of %s is known",
                       dev->arch);
    f->ms = f->compute_ms > f->memory_ms ? f->compute_ms : f->memory_ms;
    if (f->compute_ms >= f->memory_ms)
        snprintf(f->note, sizeof f->note, "FP32 %.3g GFLOP at %.1f TFLOP/s (%g CU x %.4g FMA/clk x %g MHz, %s)",
                 flops / 1e9, 2 * f->fma_per_s / 1e12, cus, lanes, mhz, src);
    else
        snprintf(f->note, sizeof f->note, "DRAM %.1f MB at %.0f GB/s (%s)", bytes / 1e6, gbs, src);
    return gp_ok();
}
