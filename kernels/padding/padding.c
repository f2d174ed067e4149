/* padding host API: parameters fitted to what is compiled and to the
 * device, shape checks, and argument checks before any device call. */
#include "padding.h"
#include "context.h"
#include "kernel.h"
#include "padding_staged.h"

#include <stdint.h>
#include <string.h>

static int floor_pow2(long long v)
{
    int p = 1;
    while ((long long)p * 2 <= v && p < (1 << 30))
        p *= 2;
    return p;
}

static void add_note(gp_padding_params *p, const char *what)
{
    size_t len = strlen(p->note);
    snprintf(p->note + len, sizeof p->note - len, "%s%s", len ? "; " : "", what);
}

void gp_padding_params_fit(gp_padding_params *p, const gp_device_info *dev)
{
    int max_threads = GP_PADDING_MAX_BLOCK;
    if (dev && dev->max_threads_per_block > 0 && dev->max_threads_per_block < max_threads)
        max_threads = dev->max_threads_per_block;
    int block = p->block < 64 ? 64 : floor_pow2(p->block);
    if (block > floor_pow2(max_threads))
        block = floor_pow2(max_threads);
    if (block != p->block)
        add_note(p, "block fitted to a power of two the device allows");
    int items = p->items_per_thread < GP_PADDING_MIN_ITEMS ? GP_PADDING_MIN_ITEMS : floor_pow2(p->items_per_thread);
    if (items > GP_PADDING_MAX_ITEMS)
        items = GP_PADDING_MAX_ITEMS;
    if (items != p->items_per_thread)
        add_note(p, "items_per_thread rounded to 4, 8 or 16");
    p->block = block;
    p->items_per_thread = items;
    int planes = p->planes_per_block <= 0 ? 0 : p->planes_per_block < 4 ? 4 : p->planes_per_block & ~3;
    if (planes > GP_PADDING_MAX_PLANES)
        planes = GP_PADDING_MAX_PLANES;
    if (planes != p->planes_per_block)
        add_note(p, "planes_per_block rounded to a multiple of 4 in 4..128");
    p->planes_per_block = planes;
}

int gp_padding_out_h(const gp_padding_shape *s) { return s->h + s->top + s->bottom; }
int gp_padding_out_w(const gp_padding_shape *s) { return s->w + s->left + s->right; }

size_t gp_padding_in_elems(const gp_padding_shape *s)
{
    return (size_t)s->n * (size_t)s->c * (size_t)s->h * (size_t)s->w;
}

size_t gp_padding_out_elems(const gp_padding_shape *s)
{
    return (size_t)s->n * (size_t)s->c * (size_t)gp_padding_out_h(s) * (size_t)gp_padding_out_w(s);
}

gp_padding_shape gp_padding_shape_of(const gp_shape *g)
{
    gp_padding_shape p;
    int *f[8] = {&p.n, &p.c, &p.h, &p.w, &p.top, &p.bottom, &p.left, &p.right};
    for (int i = 0; i < 8; i++)
        *f[i] = g->d[i] > 0x7fffffff ? 0x7fffffff : (int)g->d[i];
    return p;
}

unsigned gp_padding_planes_per_launch(unsigned long long howo, unsigned long long planes)
{
    if (howo < 1 || howo >= 0x7fffffffull)
        return 0;
    const unsigned fours = (unsigned)(0x7fffffffull / howo) & ~3u;
    if (fours)
        return fours;
    if (planes * howo < 0x7fffffffull)
        return (unsigned)planes;
    return howo % 4 == 0 ? 1u : 0u;
}

gp_status gp_padding_check_shape(const gp_padding_shape *s)
{
    if (!s)
        return gp_fail(GP_ERR_USAGE, "padding: shape is NULL");
    const struct {
        const char *name;
        int v, min;
    } f[] = {{"n", s->n, 1},        {"c", s->c, 1},           {"h", s->h, 1},        {"w", s->w, 1},
             {"top", s->top, 0},    {"bottom", s->bottom, 0}, {"left", s->left, 0}, {"right", s->right, 0}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].v < f[i].min)
            return gp_fail(GP_ERR_USAGE, "padding: %s = %d, want >= %d", f[i].name, f[i].v, f[i].min);
    /* Output rows and planes are indexed in 32 bits (the dividers' domain:
     * one plane below 2^31 elements, n x c below 2^32), and each launch
     * takes whole planes under 2^31 elements from a 16-byte boundary
     * (padding.h, GP_PADDING_MAX_PLANE). */
    long long ho = (long long)s->h + s->top + s->bottom, wo = (long long)s->w + s->left + s->right;
    if (ho * wo >= 0x7fffffffll)
        return gp_fail(GP_ERR_USAGE, "padding: output plane %lld x %lld has 2^31 or more elements", ho, wo);
    if ((long long)s->n * s->c >= 0xffffffffll)
        return gp_fail(GP_ERR_USAGE, "padding: n x c = %lld planes, want fewer than 2^32", (long long)s->n * s->c);
    if (!gp_padding_planes_per_launch((unsigned long long)(ho * wo), (unsigned long long)s->n * s->c))
        return gp_fail(GP_ERR_USAGE, "padding: %d x %d output planes of %lld x %lld elements: over %lld elements a "
                       "plane, not a multiple of 4, and 2^31 or more in all, they cannot be launched in parts that "
                       "start on 16-byte boundaries", s->n, s->c, ho, wo, (long long)GP_PADDING_MAX_PLANE);
    if ((double)s->n * s->c * (double)(ho * wo) * 4.0 >= (double)SIZE_MAX / 2)
        return gp_fail(GP_ERR_USAGE, "padding: %d x %d x %lld x %lld overflows the address space", s->n, s->c, ho,
                       wo);
    return gp_ok();
}

int gp_padding_staged_usable(const gp_padding_params *p, const gp_padding_shape *s, const void *d_in)
{
    const long long P = p->planes_per_block, plane = (long long)s->h * s->w * 4;
    return P > 0 && plane <= GP_PADDING_STAGED_PLANE_BYTES && P * plane <= GP_PADDING_STAGED_LDS &&
           P * ((long long)gp_padding_out_h(s) * gp_padding_out_w(s)) < 0x7fffffffll && (uintptr_t)d_in % 16 == 0;
}

gp_status gp_padding_f32(const float *d_in, float *d_out, const gp_padding_shape *s, const gp_padding_params *p,
                         gp_stream stream)
{
    GP_TRY(gp_padding_check_shape(s));
    if (!p || p->block < 64 || p->block > GP_PADDING_MAX_BLOCK || (p->block & (p->block - 1)) ||
        (p->items_per_thread != 4 && p->items_per_thread != 8 && p->items_per_thread != 16) ||
        p->planes_per_block < 0 || p->planes_per_block > GP_PADDING_MAX_PLANES || p->planes_per_block % 4)
        return gp_fail(GP_ERR_USAGE, "padding: parameters not fitted (use gp_padding_params_fit)");
    if (!d_in || !d_out)
        return gp_fail(GP_ERR_USAGE, "padding: %s pointer is NULL", d_in ? "output" : "input");
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % 4)
        return gp_fail(GP_ERR_USAGE, "padding: pointers must be 4-byte aligned");
    if ((uintptr_t)d_out % 16)
        return gp_fail(GP_ERR_USAGE, "padding: the output must be 16-byte aligned (16-byte stores)");
    const char *ib = (const char *)d_in, *ob = (const char *)d_out;
    size_t in_b = gp_padding_in_elems(s) * 4, out_b = gp_padding_out_elems(s) * 4;
    if (ib < ob + out_b && ob < ib + in_b)
        return gp_fail(GP_ERR_USAGE, "padding: input and output overlap (out of place only)");
    if (gp_padding_staged_usable(p, s, d_in))
        return gp_padding_launch_staged_f32(d_in, d_out, s, p->block, p->planes_per_block, stream);
    return gp_padding_launch_f32(d_in, d_out, s, p->block, p->items_per_thread, stream);
}

/* ---- the library's call */

gp_status gp_pad(struct gp_context *ctx, const float *d_in, float *d_out, const gp_padding_shape *s,
                 gp_stream stream)
{
    gp_padding_params p;
    gp_shape sh;
    if (!ctx || !s)
        return gp_fail(GP_ERR_USAGE, "padding: no %s", !ctx ? "context (gp_context_open)" : "shape");
    GP_TRY(gp_padding_check_shape(s));
    memset(&sh, 0, sizeof sh);
    sh.d[GP_PAD_N] = s->n, sh.d[GP_PAD_C] = s->c, sh.d[GP_PAD_H] = s->h, sh.d[GP_PAD_W] = s->w;
    sh.d[GP_PAD_TOP] = s->top, sh.d[GP_PAD_BOTTOM] = s->bottom, sh.d[GP_PAD_LEFT] = s->left;
    sh.d[GP_PAD_RIGHT] = s->right;
    GP_TRY(gp_context_params(ctx, &gp_kernel_padding, &sh, &p));
    return gp_padding_f32(d_in, d_out, s, &p, stream);
}
