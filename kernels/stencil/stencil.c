/* stencil host API: parameters clamped to what the kernel is compiled for
 * and the device grants, the z split, argument checks
 * before any device call, and the fp32 error bound. */
#include "stencil.h"

#include <math.h>
#include <string.h>

#include "context.h"
#include "data.h"
#include "kernel.h"
#include "rule.h"
#include "stencil_v4.h"

void gp_stencil_params_fit(gp_stencil_params *p, const gp_device_info *dev)
{
    const int vec = p->vec == 4 ? 4 : 1;
    if (vec != p->vec && p->vec != 0) /* 0: not set, the 1-wide kernel */
        gp_note_append(p->note, sizeof p->note, "vec set to 1 (1 or 4 compiled)");
    int max_threads = vec == 4 ? GP_STENCIL_V4_MAX_BLOCK : GP_STENCIL_MAX_BLOCK;
    if (dev && dev->max_threads_per_block > 0 && dev->max_threads_per_block < max_threads)
        max_threads = dev->max_threads_per_block;
    int tx = (int)gp_rule_clamp(gp_rule_floor_pow2(p->tile_x), GP_STENCIL_MIN_TX, GP_STENCIL_MAX_TX);
    int ty = (int)gp_rule_clamp(gp_rule_floor_pow2(p->tile_y), GP_STENCIL_MIN_TY, GP_STENCIL_MAX_TY);
    /* Fewer rows first (the y halo grows), then narrower rows, down to the
     * smallest tile (128 threads, which every device grants). */
    while (tx * ty > max_threads && ty > GP_STENCIL_MIN_TY)
        ty /= 2;
    while (tx * ty > max_threads && tx > GP_STENCIL_MIN_TX)
        tx /= 2;
    if (tx != p->tile_x || ty != p->tile_y)
        gp_note_append(p->note, sizeof p->note,
                       vec == 4 ? "tile fitted to 16..128 x 4..16 (powers of 2), at most 256 threads (vec 4) and the "
                                  "device's block"
                                : "tile fitted to 16..128 x 4..16 (powers of 2), at most 512 threads and the device's block");
    const int max_ahead = vec == 4 ? GP_STENCIL_V4_MAX_AHEAD : GP_STENCIL_MAX_AHEAD;
    int ahead = (int)gp_rule_clamp(p->planes_ahead, 1, max_ahead);
    if (ahead != p->planes_ahead)
        gp_note_append(p->note, sizeof p->note,
                       vec == 4 ? "planes_ahead clamped to 1..2 (compiled for vec 4)" : "planes_ahead clamped to 1..3 (compiled)");
    int bpc = (int)gp_rule_clamp(p->blocks_per_cu, 1, GP_STENCIL_MAX_BLOCKS_PER_CU);
    if (bpc != p->blocks_per_cu)
        gp_note_append(p->note, sizeof p->note, "blocks_per_cu clamped to 1..64");
    p->tile_x = tx, p->tile_y = ty, p->planes_ahead = ahead, p->vec = vec, p->blocks_per_cu = bpc;
    p->cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
}

size_t gp_stencil_elems(const gp_stencil_shape *s) { return (size_t)s->nx * (size_t)s->ny * (size_t)s->nz; }

gp_status gp_stencil_shape_check(const char *what, const gp_stencil_shape *s)
{
    if (!s)
        return gp_fail(GP_ERR_USAGE, "%s: no shape", what);
    const int d[3] = {s->nx, s->ny, s->nz};
    for (int k = 0; k < 3; k++)
        if (d[k] < 1 || d[k] > GP_STENCIL_MAX_DIM)
            return gp_fail(GP_ERR_USAGE, "%s: n%c = %d outside 1..%d", what, "xyz"[k], d[k], GP_STENCIL_MAX_DIM);
    return gp_ok();
}

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

int gp_stencil_vec_usable(const gp_stencil_params *p, const gp_stencil_shape *s, const void *d_in,
                          const void *d_out)
{
    return p->vec == 4 && s->nx % 4 == 0 && (uintptr_t)d_in % 16 == 0 && (uintptr_t)d_out % 16 == 0;
}

int gp_stencil_z_chunks(const gp_stencil_params *p, const gp_stencil_shape *s)
{
    const long long width = (long long)p->tile_x * (p->vec == 4 ? 4 : 1);
    const long long tiles = ceil_div(s->nx, width) * ceil_div(s->ny, p->tile_y);
    const long long resident = (long long)(p->blocks_per_cu < 1 ? 1 : p->blocks_per_cu) * (p->cus < 1 ? 1 : p->cus);
    long long best_c = 1, best_cost = -1;
    for (long long c = 1; c <= s->nz; c++) {
        /* cost(c) >= (T c / R) x 2: no larger c can win past this point. */
        if (best_cost >= 0 && 2 * tiles * c > best_cost * resident)
            break;
        const long long per = ceil_div(s->nz, c);
        if (c > 1 && ceil_div(s->nz, per) < c)
            continue; /* the same split as a smaller c */
        const long long cost = ceil_div(tiles * c, resident) * (per + 2);
        if (best_cost < 0 || cost < best_cost)
            best_cost = cost, best_c = c;
    }
    return (int)ceil_div(s->nz, ceil_div(s->nz, best_c));
}

int gp_stencil_z_per_chunk(const gp_stencil_params *p, const gp_stencil_shape *s)
{
    return (int)ceil_div(s->nz, gp_stencil_z_chunks(p, s));
}

static int params_ok(const gp_stencil_params *p)
{
    const int tx = p->tile_x, ty = p->tile_y;
    const int v4 = p->vec == 4;
    return tx >= GP_STENCIL_MIN_TX && tx <= GP_STENCIL_MAX_TX && !(tx & (tx - 1)) && ty >= GP_STENCIL_MIN_TY &&
           ty <= GP_STENCIL_MAX_TY && !(ty & (ty - 1)) &&
           tx * ty <= (v4 ? GP_STENCIL_V4_MAX_BLOCK : GP_STENCIL_MAX_BLOCK) && (v4 || p->vec == 0 || p->vec == 1) &&
           p->planes_ahead >= 1 && p->planes_ahead <= (v4 ? GP_STENCIL_V4_MAX_AHEAD : GP_STENCIL_MAX_AHEAD) &&
           p->blocks_per_cu >= 1 && p->cus >= 1;
}

static gp_status check_args(const char *what, const float *d_in, const float *d_out, const gp_stencil_shape *s,
                            float c0, float c1)
{
    GP_TRY(gp_stencil_shape_check(what, s));
    if (!d_in || !d_out)
        return gp_fail(GP_ERR_USAGE, "%s: %s pointer is NULL", what, d_in ? "output" : "input");
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % 4)
        return gp_fail(GP_ERR_USAGE, "%s: pointers must be 4-byte aligned", what);
    if (!isfinite(c0) || !isfinite(c1))
        return gp_fail(GP_ERR_USAGE, "%s: coefficients c0 = %g, c1 = %g must be finite", what, (double)c0,
                       (double)c1);
    const size_t bytes = gp_stencil_elems(s) * 4;
    uintptr_t a = (uintptr_t)d_in, b = (uintptr_t)d_out;
    if (a > UINTPTR_MAX - bytes || b > UINTPTR_MAX - bytes)
        return gp_fail(GP_ERR_USAGE, "%s: %zu bytes overflow the address space", what, bytes);
    if (a < b + bytes && b < a + bytes)
        return gp_fail(GP_ERR_USAGE, "%s: input and output overlap (a Jacobi step needs the old values intact)",
                       what);
    return gp_ok();
}

gp_status gp_stencil_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                         const gp_stencil_params *p, gp_stream stream)
{
    if (!p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "stencil: parameters not fitted (use gp_stencil_params_fit)");
    GP_TRY(check_args("stencil", d_in, d_out, s, c0, c1));
    /* vec 4 where the rows are 16-byte aligned, else the 1-wide kernel with
     * the same tile (whose z split then counts 1-wide tiles). */
    gp_stencil_params q = *p;
    if (!gp_stencil_vec_usable(p, s, d_in, d_out))
        q.vec = 1;
    const int chunks = gp_stencil_z_chunks(&q, s);
    return gp_stencil_launch_f32(d_in, d_out, s, c0, c1, q.tile_x, q.tile_y, q.planes_ahead, q.vec,
                                 (int)ceil_div(s->nz, chunks), chunks, stream);
}

gp_status gp_stencil_naive_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                               gp_stream stream)
{
    GP_TRY(check_args("stencil naive", d_in, d_out, s, c0, c1));
    return gp_stencil_launch_naive_f32(d_in, d_out, s, c0, c1, stream);
}

double gp_stencil_f32_bound(double mag)
{
    const double ku = 8.0 * ldexp(1.0, -24);
    return ku / (1.0 - ku) * mag;
}

/* ---- the library's call */

gp_status gp_stencil(struct gp_context *ctx, const float *d_in, float *d_out, const gp_stencil_shape *s, float c0,
                     float c1, gp_stream stream)
{
    if (!ctx || !s)
        return gp_fail(GP_ERR_USAGE, "stencil: %s is NULL", !ctx ? "the context" : "the shape");
    GP_TRY(gp_stencil_shape_check("stencil", s));
    gp_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.d[GP_STENCIL_NX] = s->nx, sh.d[GP_STENCIL_NY] = s->ny, sh.d[GP_STENCIL_NZ] = s->nz;
    gp_stencil_params p;
    GP_TRY(gp_context_params(ctx, &gp_kernel_stencil, &sh, &p));
    return gp_stencil_f32(d_in, d_out, s, c0, c1, &p, stream);
}
