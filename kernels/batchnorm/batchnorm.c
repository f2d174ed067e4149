/* batchnorm host API: parameters fitted to what is compiled and to the
 * device, the split and the path a shape takes, the workspace, and argument
 * checks before any device call. */
#include "batchnorm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "context.h"
#include "kernel.h"
#include "rule.h"

static void add_note(gp_batchnorm_params *p, const char *what)
{
    size_t len = strlen(p->note);
    snprintf(p->note + len, sizeof p->note - len, "%s%s", len ? "; " : "", what);
}

void gp_batchnorm_params_fit(gp_batchnorm_params *p, const gp_device_info *dev)
{
    int max_threads = GP_BN_MAX_BLOCK, cus = 1, per_cu = 2048;
    if (dev && dev->max_threads_per_block > 0 && dev->max_threads_per_block < max_threads)
        max_threads = dev->max_threads_per_block;
    if (dev && dev->compute_units > 0)
        cus = dev->compute_units;
    if (dev && dev->max_threads_per_cu > 0)
        per_cu = dev->max_threads_per_cu;
    int block = p->block < 64 ? 64 : (int)gp_rule_floor_pow2(p->block);
    if (block > gp_rule_floor_pow2(max_threads))
        block = (int)gp_rule_floor_pow2(max_threads);
    if (block != p->block)
        add_note(p, "block fitted to a power of two the device allows");
    int items = p->items_per_thread < 1 ? 1 : (int)gp_rule_floor_pow2(p->items_per_thread);
    if (items > GP_BN_MAX_ITEMS)
        items = GP_BN_MAX_ITEMS;
    if (items != p->items_per_thread)
        add_note(p, "items_per_thread rounded to 1, 2, 4 or 8");
    if (block > GP_BN_BLOCK_LIMIT(items)) {
        block = GP_BN_BLOCK_LIMIT(items);
        add_note(p, "block lowered to the kernel's register budget for 8 loads");
    }
    p->block = block;
    p->items_per_thread = items;
    /* The fused kernel holds at most GP_BN_FUSED_VPT(block) values a thread. */
    long long fmax = (long long)block * GP_BN_FUSED_VPT(block);
    if (p->fused_max_values < 0 || p->fused_max_values > fmax) {
        p->fused_max_values = p->fused_max_values < 0 ? 0 : (int)fmax;
        add_note(p, "fused_max_values fitted to block x the values a thread holds");
    }
    if (p->fused_min_channels < 1) {
        p->fused_min_channels = 1;
        add_note(p, "fused_min_channels raised to 1");
    }
    /* hold_bytes: whole 16-byte units that one block's LDS grants. */
    int hold = p->hold_bytes < 0 ? 0 : p->hold_bytes / 16 * 16;
    long long lds = dev && dev->lds_per_block_optin > 0 ? (long long)dev->lds_per_block_optin : 48 * 1024;
    if ((long long)hold * block > lds - GP_BN_HOLD_STATIC_LDS)
        hold = (int)((lds - GP_BN_HOLD_STATIC_LDS) / block / 16 * 16);
    if (hold != p->hold_bytes) {
        p->hold_bytes = hold;
        add_note(p, "hold_bytes fitted to 16-byte units of the LDS a block may use");
    }
    p->l2_bytes = dev && dev->l2_bytes > 0 ? (long long)dev->l2_bytes : 0;
    int per = per_cu / block;
    p->resident_blocks = cus * (per > 0 ? per : 1);
}

size_t gp_batchnorm_elems(const gp_batchnorm_shape *s)
{
    return (size_t)s->n * (size_t)s->c * (size_t)s->h * (size_t)s->w;
}

gp_status gp_batchnorm_check_shape(const gp_batchnorm_shape *s)
{
    if (!s)
        return gp_fail(GP_ERR_USAGE, "batchnorm: shape is NULL");
    const struct {
        const char *name;
        int v;
    } f[] = {{"n", s->n}, {"c", s->c}, {"h", s->h}, {"w", s->w}};
    for (size_t i = 0; i < 4; i++)
        if (f[i].v < 1)
            return gp_fail(GP_ERR_USAGE, "batchnorm: %s = %d, want >= 1", f[i].name, f[i].v);
    /* A channel's values are indexed in 32 bits (the dividers' domain), the
     * channels are a grid dimension (at most 65535). */
    if ((long long)s->n * s->h * s->w >= 0x7fffffffll)
        return gp_fail(GP_ERR_USAGE, "batchnorm: n x h x w = %lld values per channel, want fewer than 2^31",
                       (long long)s->n * s->h * s->w);
    if (s->c > 65535)
        return gp_fail(GP_ERR_USAGE, "batchnorm: c = %d, want at most 65535", s->c);
    if ((double)gp_batchnorm_elems(s) * 4.0 >= (double)SIZE_MAX / 2)
        return gp_fail(GP_ERR_USAGE, "batchnorm: tensor overflows the address space");
    return gp_ok();
}

double gp_batchnorm_wave_eff(long long blocks, long long resident)
{
    if (blocks < 1 || resident < 1)
        return 0;
    long long waves = (blocks + resident - 1) / resident;
    return (double)blocks / (double)(waves * resident);
}

int gp_batchnorm_split(const gp_batchnorm_params *p, const gp_batchnorm_shape *s)
{
    long long r = p->resident_blocks > 0 ? p->resident_blocks : 1, c = s->c > 0 ? s->c : 1;
    long long per_block = (long long)p->block * p->items_per_thread * 4;
    long long need = ((long long)s->n * s->h * s->w + per_block - 1) / per_block;
    long long cap = GP_BN_SPLIT_WAVES * ((r + c - 1) / c);
    cap = cap < need ? cap : need;
    cap = cap > 65535 ? 65535 : cap;
    /* The best fill of whole waves any split reaches, then the smallest
     * split within GP_BN_SPLIT_TIE of it: the fewest waves. */
    double best_eff = 0;
    for (long long k = 1; k <= cap; k++) {
        double e = gp_batchnorm_wave_eff(k * c, r);
        best_eff = e > best_eff ? e : best_eff;
    }
    for (long long k = 1; k <= cap; k++)
        if (gp_batchnorm_wave_eff(k * c, r) >= best_eff - GP_BN_SPLIT_TIE)
            return (int)k;
    return 1;
}

int gp_batchnorm_fused(const gp_batchnorm_params *p, const gp_batchnorm_shape *s)
{
    long long m = (long long)s->n * s->h * s->w;
    if (m > p->fused_max_values)
        return 0;
    return s->c >= p->fused_min_channels || gp_batchnorm_split(p, s) == 1;
}

int gp_batchnorm_fused_block(int block, unsigned units, int least, int *per_thread)
{
    int b = block;
    const unsigned l = least > 1 ? (unsigned)least : 1u;
    while (b > 64 && (unsigned)(b / 2) * l >= units)
        b /= 2;
    if (per_thread)
        *per_thread = (int)((units + (unsigned)b - 1) / (unsigned)b);
    return b;
}

size_t gp_batchnorm_ws_offsets(int channels, int split, size_t *part_off, size_t *fin_off)
{
    size_t c = channels < 1 ? 1 : (size_t)channels, sp = split < 1 ? 1 : (size_t)split;
    size_t part = (4 * c + 15) / 16 * 16;
    size_t fin = part + 16 * c * sp;
    if (part_off)
        *part_off = part;
    if (fin_off)
        *fin_off = fin;
    return fin + 8 * c;
}

gp_status gp_batchnorm_ws_create(gp_batchnorm_ws *ws, const gp_batchnorm_shape *s, const gp_batchnorm_params *p)
{
    if (!ws)
        return gp_fail(GP_ERR_USAGE, "batchnorm workspace: its address is NULL");
    memset(ws, 0, sizeof *ws);
    GP_TRY(gp_batchnorm_check_shape(s));
    if (!p || p->resident_blocks < 1)
        return gp_fail(GP_ERR_USAGE, "batchnorm workspace: parameters not fitted (use gp_batchnorm_params_fit)");
    int split = gp_batchnorm_split(p, s);
    size_t bytes = gp_batchnorm_ws_offsets(s->c, split, NULL, NULL);
    GP_TRY(gp_rt_malloc(&ws->d, bytes));
    gp_status st = gp_rt_memset(ws->d, 0, bytes);
    if (st.code != GP_OK) {
        gp_rt_free(ws->d);
        ws->d = NULL;
        return st;
    }
    ws->bytes = bytes, ws->channels = s->c, ws->split = split;
    return gp_ok();
}

void gp_batchnorm_ws_destroy(gp_batchnorm_ws *ws)
{
    if (ws && ws->d)
        gp_rt_free(ws->d);
    if (ws)
        memset(ws, 0, sizeof *ws);
}

static gp_status check_common(const char *what, const float *x, const float *y, const gp_batchnorm_shape *s,
                              const float *gamma, const float *beta, double eps, const gp_batchnorm_params *p)
{
    GP_TRY(gp_batchnorm_check_shape(s));
    if (!p || p->block < 64 || p->block > GP_BN_BLOCK_LIMIT(p->items_per_thread) || (p->block & (p->block - 1)) ||
        p->items_per_thread < 1 || p->items_per_thread > GP_BN_MAX_ITEMS ||
        (p->items_per_thread & (p->items_per_thread - 1)) || p->resident_blocks < 1 ||
        p->fused_max_values < 0 || p->fused_max_values > p->block * GP_BN_FUSED_VPT(p->block) ||
        p->fused_min_channels < 1)
        return gp_fail(GP_ERR_USAGE, "%s: parameters not fitted (use gp_batchnorm_params_fit)", what);
    if (!x || !y || !gamma || !beta)
        return gp_fail(GP_ERR_USAGE, "%s: %s pointer is NULL", what,
                       !x ? "x" : !y ? "y" : !gamma ? "gamma" : "beta");
    if ((uintptr_t)x % 4 || (uintptr_t)y % 4)
        return gp_fail(GP_ERR_USAGE, "%s: x and y must be 4-byte aligned", what);
    if (!(eps > 0) || !isfinite(eps))
        return gp_fail(GP_ERR_USAGE, "%s: eps = %g, want a finite value > 0", what, eps);
    size_t bytes = gp_batchnorm_elems(s) * 4;
    if ((const char *)x < (const char *)y + bytes && (const char *)y < (const char *)x + bytes && x != y)
        return gp_fail(GP_ERR_USAGE, "%s: x and y overlap without being the same buffer", what);
    return gp_ok();
}

/* The per-channel vectors (c floats each; NULL where optional) 4-byte
 * aligned, and no buffer a call writes overlapping another it reads or
 * writes (x and y excepted: check_common has them). */
typedef struct bn_buf {
    const char *name;
    const void *p;
    size_t bytes;
    int written;
} bn_buf;

static gp_status check_buffers(const char *what, const bn_buf *b, int nb)
{
    for (int i = 0; i < nb; i++)
        if (b[i].p && (uintptr_t)b[i].p % 4)
            return gp_fail(GP_ERR_USAGE, "%s: %s must be 4-byte aligned", what, b[i].name);
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++) {
            const char *a0 = b[i].p, *b0 = b[j].p;
            if (!a0 || !b0 || !(b[i].written || b[j].written) || (i == 0 && j == 1))
                continue;
            if (a0 < b0 + b[j].bytes && b0 < a0 + b[i].bytes)
                return gp_fail(GP_ERR_USAGE, "%s: %s and %s overlap (%s is written)", what, b[i].name, b[j].name,
                               b[i].written ? b[i].name : b[j].name);
        }
    return gp_ok();
}

gp_status gp_batchnorm_train_f32(const float *d_x, float *d_y, const gp_batchnorm_shape *s, const float *d_gamma,
                                 const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd,
                                 gp_batchnorm_ws *ws, const gp_batchnorm_params *p, gp_stream stream)
{
    GP_TRY(check_common("batchnorm train", d_x, d_y, s, d_gamma, d_beta, eps, p));
    if (d_x == d_y)
        return gp_fail(GP_ERR_USAGE, "batchnorm train: in place is not supported (x is read twice)");
    const size_t xb = gp_batchnorm_elems(s) * 4, cb = (size_t)s->c * 4;
    const bn_buf bufs[] = {{"x", d_x, xb, 0},          {"y", d_y, xb, 1},
                           {"gamma", d_gamma, cb, 0},  {"beta", d_beta, cb, 0},
                           {"save_mean", d_save_mean, cb, 1}, {"save_invstd", d_save_invstd, cb, 1}};
    GP_TRY(check_buffers("batchnorm train", bufs, (int)(sizeof bufs / sizeof bufs[0])));
    int split = gp_batchnorm_split(p, s);
    /* Any workspace of this channel count large enough for the split serves:
     * the counters sit at its start whatever the split (a workspace made for
     * one parameter set serves a smaller split of another). */
    if (!ws || !ws->d || ws->channels != s->c || gp_batchnorm_ws_offsets(s->c, split, NULL, NULL) > ws->bytes)
        return gp_fail(GP_ERR_USAGE, "batchnorm train: workspace missing or made for another shape (%d channels x %d, "
                       "want %d x %d)", ws ? ws->channels : 0, ws ? ws->split : 0, s->c, split);
    if (gp_batchnorm_fused(p, s))
        return gp_batchnorm_launch_fused(d_x, d_y, s, d_gamma, d_beta, (float)eps, d_save_mean, d_save_invstd,
                                         p->block, stream);
    return gp_batchnorm_launch_train(d_x, d_y, s, d_gamma, d_beta, (float)eps, d_save_mean, d_save_invstd, ws->d,
                                     split, p->block, p->items_per_thread, p->hold_bytes, p->l2_bytes, stream);
}

gp_status gp_batchnorm_infer_f32(const float *d_x, float *d_y, const gp_batchnorm_shape *s, const float *d_gamma,
                                 const float *d_beta, const float *d_mean, const float *d_var, double eps,
                                 const gp_batchnorm_params *p, gp_stream stream)
{
    GP_TRY(check_common("batchnorm inference", d_x, d_y, s, d_gamma, d_beta, eps, p));
    if (!d_mean || !d_var)
        return gp_fail(GP_ERR_USAGE, "batchnorm inference: %s pointer is NULL", d_mean ? "var" : "mean");
    const size_t xb = gp_batchnorm_elems(s) * 4, cb = (size_t)s->c * 4;
    const bn_buf bufs[] = {{"x", d_x, xb, 0},         {"y", d_y, xb, 1},       {"gamma", d_gamma, cb, 0},
                           {"beta", d_beta, cb, 0},   {"mean", d_mean, cb, 0}, {"var", d_var, cb, 0}};
    GP_TRY(check_buffers("batchnorm inference", bufs, (int)(sizeof bufs / sizeof bufs[0])));
    return gp_batchnorm_launch_infer(d_x, d_y, s, d_gamma, d_beta, d_mean, d_var, (float)eps,
                                     gp_batchnorm_split(p, s), p->block, p->items_per_thread, stream);
}

/* ---- the library's calls */

static gp_status bn_params(struct gp_context *ctx, const gp_batchnorm_shape *b, int mode, gp_batchnorm_params *p)
{
    gp_shape s;
    if (!ctx || !b)
        return gp_fail(GP_ERR_USAGE, "batchnorm: no %s", !ctx ? "context (gp_context_open)" : "shape");
    GP_TRY(gp_batchnorm_check_shape(b));
    memset(&s, 0, sizeof s);
    s.d[GP_BN_N] = b->n, s.d[GP_BN_C] = b->c, s.d[GP_BN_H] = b->h, s.d[GP_BN_W] = b->w, s.opt[GP_BN_OPT_MODE] = mode;
    return gp_context_params(ctx, &gp_kernel_batchnorm, &s, p);
}

gp_status gp_batchnorm_ws_create_for(struct gp_context *ctx, const gp_batchnorm_shape *s, gp_batchnorm_ws *ws)
{
    if (!ws)
        return gp_fail(GP_ERR_USAGE, "batchnorm workspace: its address is NULL");
    memset(ws, 0, sizeof *ws); /* destroyable whatever happens below */
    gp_batchnorm_params p;
    GP_TRY(bn_params(ctx, s, GP_BN_TRAIN, &p));
    return gp_batchnorm_ws_create(ws, s, &p);
}

gp_status gp_batchnorm_train(struct gp_context *ctx, const float *d_x, float *d_y, const gp_batchnorm_shape *s,
                             const float *d_gamma, const float *d_beta, double eps, float *d_save_mean,
                             float *d_save_invstd, gp_batchnorm_ws *ws, gp_stream stream)
{
    gp_batchnorm_params p;
    GP_TRY(bn_params(ctx, s, GP_BN_TRAIN, &p));
    return gp_batchnorm_train_f32(d_x, d_y, s, d_gamma, d_beta, eps, d_save_mean, d_save_invstd, ws, &p, stream);
}

gp_status gp_batchnorm_infer(struct gp_context *ctx, const float *d_x, float *d_y, const gp_batchnorm_shape *s,
                             const float *d_gamma, const float *d_beta, const float *d_mean, const float *d_var,
                             double eps, gp_stream stream)
{
    gp_batchnorm_params p;
    GP_TRY(bn_params(ctx, s, GP_BN_INFER, &p));
    return gp_batchnorm_infer_f32(d_x, d_y, s, d_gamma, d_beta, d_mean, d_var, eps, &p, stream);
}
