/* ssim host API: shape checks, parameters fitted to the device, launch
 * geometry, the host convenience call and the library's call.  Every check runs before any
 * device call, so bad input gives GP_ERR_USAGE / GP_ERR_NOMEM with a message
 * and never a runtime error. */
#include "ssim.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "kernel.h"

void gp_ssim_gauss(double g[GP_SSIM_WIN])
{
    double sum = 0.0;
    for (int i = 0; i < GP_SSIM_WIN; i++) {
        double d = i - GP_SSIM_HALF;
        g[i] = exp(-d * d / (2.0 * GP_SSIM_SIGMA * GP_SSIM_SIGMA));
        sum += g[i];
    }
    for (int i = 0; i < GP_SSIM_WIN; i++)
        g[i] /= sum;
}

/* a * b for positive a, b; 0 when it overflows. */
static int mul_ok(long long a, long long b, long long *out)
{
    if (b > LLONG_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

float gp_ssim_gauss_f32(int i)
{
    static const float g[6] = {GP_SSIM_G0, GP_SSIM_G1, GP_SSIM_G2, GP_SSIM_G3, GP_SSIM_G4, GP_SSIM_G5};
    return i < 0 || i >= GP_SSIM_WIN ? 0.0f : g[i <= GP_SSIM_HALF ? i : GP_SSIM_WIN - 1 - i];
}

static void dims_text(const gp_ssim_dims *d, char *out, size_t n)
{
    snprintf(out, n, "%lldx%lldx%lldx%lld", d->n, d->c, d->h, d->w);
}

gp_status gp_ssim_problem_init(gp_ssim_problem *p, const gp_ssim_dims *x, const gp_ssim_dims *y,
                               gp_ssim_border border)
{
    char a[96], b[96];
    memset(p, 0, sizeof *p);
    if (!x || !y)
        return gp_fail(GP_ERR_USAGE, "ssim: image shape missing");
    dims_text(x, a, sizeof a);
    dims_text(y, b, sizeof b);
    if (x->n <= 0 || x->c <= 0 || x->h <= 0 || x->w <= 0 || y->n <= 0 || y->c <= 0 || y->h <= 0 || y->w <= 0)
        return gp_fail(GP_ERR_USAGE, "ssim: image sizes %s and %s: every size must be at least 1", a, b);
    if (x->n != y->n || x->c != y->c || x->h != y->h || x->w != y->w)
        return gp_fail(GP_ERR_USAGE, "ssim: image shapes differ: %s vs %s (N x C x H x W)", a, b);
    if (border != GP_SSIM_SAME && border != GP_SSIM_VALID)
        return gp_fail(GP_ERR_USAGE, "ssim: border %d is neither same (0) nor valid (1)", (int)border);
    if (border == GP_SSIM_VALID && (x->h < GP_SSIM_WIN || x->w < GP_SSIM_WIN))
        return gp_fail(GP_ERR_USAGE, "ssim: 'valid' border needs H and W >= %d (image %s gives an empty map)",
                       GP_SSIM_WIN, a);
    /* Within a plane the kernels index rows and columns with 32-bit ints. */
    if (x->h > (1ll << 30) || x->w > (1ll << 30))
        return gp_fail(GP_ERR_NOMEM, "ssim: image %s: H and W above 2^30 do not fit", a);
    long long planes = 0, elems = 0;
    if (!mul_ok(x->n, x->c, &planes) || !mul_ok(planes, x->h, &elems) || !mul_ok(elems, x->w, &elems) ||
        (unsigned long long)elems > GP_SSIM_MAX_ELEMS)
        return gp_fail(GP_ERR_NOMEM, "ssim: image %s: more than 2^40 pixels do not fit in memory", a);
    p->dims = *x;
    p->border = border;
    p->planes = planes;
    p->map_h = border == GP_SSIM_SAME ? x->h : x->h - 2 * GP_SSIM_HALF;
    p->map_w = border == GP_SSIM_SAME ? x->w : x->w - 2 * GP_SSIM_HALF;
    p->in_elems = elems;
    p->map_elems = planes * p->map_h * p->map_w;
    return gp_ok();
}

/* ---- parameters */

static size_t lds_per_group(int tile_x)
{
    /* moments: 8 rows x (tile_x + 1) float4; staging: 2 images x 8 rows x (tile_x + 20) floats */
    return (size_t)GP_SSIM_ROWS * (tile_x + 1) * 16 + (size_t)2 * GP_SSIM_ROWS * (tile_x + 20) * 4;
}

static long long floor_pow2(long long v)
{
    long long p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

static void add_note(gp_ssim_params *p, const char *fmt, long long a, long long b)
{
    size_t len = strlen(p->note);
    if (len + 2 >= sizeof p->note)
        return;
    if (len)
        p->note[len++] = ';', p->note[len++] = ' ';
    p->note[len] = '\0';
    snprintf(p->note + len, sizeof p->note - len, fmt, a, b);
}

/* The table's values are in their declared ranges (gp_params_read); a
 * struct filled by hand may hold anything, so every value is clamped here. */
void gp_ssim_params_fit(gp_ssim_params *p, const gp_device_info *dev)
{
    long long tx = p->tile_x, ty = p->tile_y, blk = p->block, var = p->variant;
    p->groups = 0, p->lds_bytes = 0;

    /* The kernel is built for row groups of 32, 64 and 128 columns. */
    long long tx0 = tx;
    tx = tx < 32 ? 32 : tx > 128 ? 128 : floor_pow2(tx);
    if (tx != tx0)
        add_note(p, "tile_x %lld -> %lld (built for 32, 64, 128)", tx0, tx);
    long long maxb = GP_SSIM_MAX_BLOCK;
    if (dev && dev->max_threads_per_block > 0 && dev->max_threads_per_block < maxb)
        maxb = floor_pow2(dev->max_threads_per_block);
    size_t lds_max = dev && dev->lds_per_block > 0 ? dev->lds_per_block : 48 * 1024;
    if (maxb < 32 || lds_per_group(32) > lds_max) { /* no row group fits: the run refuses */
        add_note(p, "the device grants %lld threads and %lld B of LDS a block: not one row group", maxb,
                 (long long)lds_max);
        p->tile_x = (int)tx;
        return;
    }
    if (tx > maxb) {
        add_note(p, "tile_x %lld -> %lld (threads per block)", tx, maxb);
        tx = maxb;
    }
    while (lds_per_group((int)tx) > lds_max && tx > 32) {
        add_note(p, "tile_x %lld -> %lld (LDS per block)", tx, tx / 2);
        tx /= 2;
    }

    /* block = tile_x x groups, a power of 2 within the register budget and the LDS. */
    long long g = blk >= tx ? floor_pow2(blk / tx) : 1;
    if (blk < tx)
        add_note(p, "block %lld -> %lld (one row group of tile_x threads)", blk, tx);
    while (tx * g > maxb)
        g /= 2;
    while (g > 1 && (size_t)g * lds_per_group((int)tx) > lds_max)
        g /= 2;
    if (blk >= tx && tx * g != blk)
        add_note(p, "block %lld -> %lld (register budget, LDS per block)", blk, tx * g);

    long long ty0 = ty;
    ty = ty < 1 ? 1 : ty > 4096 ? 4096 : ty;
    if (ty != ty0)
        add_note(p, "tile_y %lld -> %lld", ty0, ty);
    if (var < 0 || var >= GP_SSIM_NVARIANTS) {
        add_note(p, "variant %lld -> %lld (unknown)", var, (long long)GP_SSIM_VARIANT_PREFETCH);
        var = GP_SSIM_VARIANT_PREFETCH;
    }
    p->tile_x = (int)tx;
    p->tile_y = (int)ty;
    p->groups = (int)g;
    p->block = (int)(tx * g);
    p->variant = (int)var;
    p->lds_bytes = (size_t)g * lds_per_group((int)tx);
}

long long gp_ssim_strip_rows(const gp_ssim_params *p, const gp_ssim_problem *prob)
{
    long long nstrips = (prob->map_h + p->tile_y - 1) / p->tile_y;
    return (prob->map_h + nstrips - 1) / nstrips;
}

/* ---- launch geometry */

static void region(const gp_ssim_problem *prob, gp_ssim_args *a)
{
    int half = prob->border == GP_SSIM_VALID ? GP_SSIM_HALF : 0;
    a->h = (int)prob->dims.h;
    a->w = (int)prob->dims.w;
    a->ox_lo = half;
    a->ox_hi = a->w - half;
    a->oy_lo = half;
    a->oy_hi = a->h - half;
    a->map_w = (int)prob->map_w;
    a->plane_elems = prob->dims.h * prob->dims.w;
    a->map_plane = prob->map_h * prob->map_w;
    a->inv_count = 1.0 / (double)prob->map_elems;
}

static gp_status fused_geometry(const gp_ssim_params *p, const gp_ssim_problem *prob, gp_ssim_args *a,
                                long long *nblocks)
{
    if (!p || !prob || prob->map_elems <= 0)
        return gp_fail(GP_ERR_USAGE, "ssim: problem not initialized (gp_ssim_problem_init)");
    if (p->groups < 1 && p->note[0])
        return gp_fail(GP_ERR_UNSUPPORTED, "ssim: %s", p->note);
    if ((p->tile_x != 32 && p->tile_x != 64 && p->tile_x != 128) || p->groups < 1 || p->tile_y < 1 ||
        p->block != p->tile_x * p->groups)
        return gp_fail(GP_ERR_USAGE, "ssim: parameters not fitted (gp_ssim_params_fit; tile_x %d, block %d)",
                       p->tile_x, p->block);
    memset(a, 0, sizeof *a);
    region(prob, a);
    long long ty = gp_ssim_strip_rows(p, prob);
    long long nstrips = (prob->map_h + ty - 1) / ty;
    a->tile_y = (int)ty;
    a->groups = p->groups;
    a->nby = (int)((nstrips + p->groups - 1) / p->groups);
    a->tx_first = a->ox_lo / p->tile_x;
    a->ntx = (a->ox_hi - 1) / p->tile_x - a->tx_first + 1;
    a->nchunks = (int)((ty + 2 * GP_SSIM_HALF + GP_SSIM_ROWS - 1) / GP_SSIM_ROWS);
    long long nb = prob->planes * a->nby;
    if (nb > 0x7fffffffLL || nb * a->ntx > 0x7fffffffLL)
        return gp_fail(GP_ERR_NOMEM, "ssim: %lld planes x %d strips x %d tiles exceed one launch's grid",
                       prob->planes, a->nby, a->ntx);
    *nblocks = nb * a->ntx;
    return gp_ok();
}

gp_status gp_ssim_workspace_bytes(const gp_ssim_params *p, const gp_ssim_problem *prob, size_t *bytes)
{
    gp_ssim_args a;
    long long nb = 0;
    GP_TRY(fused_geometry(p, prob, &a, &nb));
    *bytes = (size_t)nb * sizeof(double);
    return gp_ok();
}

static gp_status check_buffers(const gp_ssim_problem *prob, const float *d_x, const float *d_y, float *d_map,
                               size_t map_cap, double *d_mean, void *d_work, size_t work_bytes, size_t need)
{
    if (!d_x || !d_y || !d_map || !d_mean || !d_work)
        return gp_fail(GP_ERR_USAGE, "ssim: a device buffer is NULL");
    if (map_cap < (size_t)prob->map_elems)
        return gp_fail(GP_ERR_USAGE, "ssim: map holds %zu floats, the %lldx%lldx%lldx%lld %s map needs %lld", map_cap,
                       prob->dims.n, prob->dims.c, prob->map_h, prob->map_w,
                       prob->border == GP_SSIM_SAME ? "same" : "valid", prob->map_elems);
    if (work_bytes < need)
        return gp_fail(GP_ERR_USAGE, "ssim: workspace of %zu bytes, %zu needed", work_bytes, need);
    return gp_ok();
}

gp_status gp_ssim_run(const gp_ssim_params *p, const gp_ssim_problem *prob, const float *d_x, const float *d_y,
                      float *d_map, size_t map_cap, double *d_mean, void *d_work, size_t work_bytes,
                      gp_stream stream)
{
    gp_ssim_args a;
    long long nb = 0;
    GP_TRY(fused_geometry(p, prob, &a, &nb));
    GP_TRY(check_buffers(prob, d_x, d_y, d_map, map_cap, d_mean, d_work, work_bytes, (size_t)nb * sizeof(double)));
    a.x = d_x;
    a.y = d_y;
    a.map = d_map;
    a.partials = (double *)d_work;
    a.mean = d_mean;
    a.vec = prob->dims.w % 4 == 0 && (uintptr_t)d_x % 16 == 0 && (uintptr_t)d_y % 16 == 0;
    GP_TRY(gp_ssim_launch_fused(&a, p->tile_x, p->variant, p->block, p->lds_bytes, nb, stream));
    return gp_ssim_launch_mean(a.partials, nb, a.inv_count, d_mean, stream);
}

static void naive_grid(const gp_ssim_problem *prob, long long *nbx, long long *nb)
{
    *nbx = (prob->map_w + 15) / 16;
    *nb = prob->planes * ((prob->map_h + 15) / 16) * *nbx;
}

gp_status gp_ssim_naive_workspace_bytes(const gp_ssim_problem *prob, size_t *bytes)
{
    long long nbx, nb;
    if (!prob || prob->map_elems <= 0)
        return gp_fail(GP_ERR_USAGE, "ssim: problem not initialized (gp_ssim_problem_init)");
    naive_grid(prob, &nbx, &nb);
    *bytes = (size_t)nb * sizeof(double);
    return gp_ok();
}

gp_status gp_ssim_naive_run(const gp_ssim_problem *prob, const float *d_x, const float *d_y, float *d_map,
                            size_t map_cap, double *d_mean, void *d_work, size_t work_bytes, gp_stream stream)
{
    size_t need = 0;
    GP_TRY(gp_ssim_naive_workspace_bytes(prob, &need));
    GP_TRY(check_buffers(prob, d_x, d_y, d_map, map_cap, d_mean, d_work, work_bytes, need));
    long long nbx, nb;
    naive_grid(prob, &nbx, &nb);
    if (nb > 0x7fffffffLL)
        return gp_fail(GP_ERR_NOMEM, "ssim naive: %lld blocks exceed one launch's grid", nb);
    gp_ssim_args a;
    memset(&a, 0, sizeof a);
    region(prob, &a);
    a.x = d_x;
    a.y = d_y;
    a.map = d_map;
    a.partials = (double *)d_work;
    a.mean = d_mean;
    GP_TRY(gp_ssim_launch_naive(&a, nbx, nb, stream));
    return gp_ssim_launch_mean(a.partials, nb, a.inv_count, d_mean, stream);
}

/* ---- host convenience */

gp_status gp_ssim_forward(const gp_ssim_params *p, const gp_ssim_problem *prob, const float *x, const float *y,
                          float *map, double *mean)
{
    size_t work;
    if (!x || !y || !map || !mean)
        return gp_fail(GP_ERR_USAGE, "ssim: a host buffer is NULL");
    GP_TRY(gp_ssim_workspace_bytes(p, prob, &work));
    /* 2^40 pixels x 12 bytes fits in size_t; so does the sum below. */
    size_t in_bytes = (size_t)prob->in_elems * sizeof(float);
    size_t map_bytes = (size_t)prob->map_elems * sizeof(float);
    size_t total = 2 * in_bytes + map_bytes + work + sizeof(double);
    size_t free_b = 0, total_b = 0;
    GP_TRY(gp_rt_mem_info(&free_b, &total_b));
    if (total > free_b)
        return gp_fail(GP_ERR_NOMEM,
                       "ssim: images and map need %.3g GB of device memory, %.3g GB are free (of %.3g GB)",
                       total / 1e9, free_b / 1e9, total_b / 1e9);
    void *dx = NULL, *dy = NULL, *dm = NULL, *dw = NULL;
    gp_status st = gp_rt_malloc(&dx, in_bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc(&dy, in_bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc(&dm, map_bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc(&dw, work + sizeof(double));
    if (st.code == GP_OK)
        st = gp_rt_copy_to_device(dx, x, in_bytes);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_device(dy, y, in_bytes);
    if (st.code == GP_OK)
        st = gp_ssim_run(p, prob, dx, dy, dm, (size_t)prob->map_elems, (double *)dw, (char *)dw + sizeof(double),
                         work, NULL);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(map, dm, map_bytes);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(mean, dw, sizeof(double));
    if (dx)
        gp_rt_free(dx);
    if (dy)
        gp_rt_free(dy);
    if (dm)
        gp_rt_free(dm);
    if (dw)
        gp_rt_free(dw);
    return st;
}

/* ---- the library's call */

/* The problem and its parameters from the context; a shape that does not
 * fit is the caller's error here (GP_ERR_USAGE), whatever problem_init
 * calls it. */
static gp_status lib_problem(struct gp_context *ctx, const gp_ssim_dims *dims, gp_ssim_border border,
                             gp_ssim_problem *prob, gp_ssim_params *p)
{
    if (!ctx)
        return gp_fail(GP_ERR_USAGE, "ssim: no context (gp_context_open)");
    gp_status st = gp_ssim_problem_init(prob, dims, dims, border);
    if (st.code == GP_ERR_NOMEM)
        st.code = GP_ERR_USAGE;
    GP_TRY(st);
    gp_shape s;
    memset(&s, 0, sizeof s);
    s.d[GP_SSIM_SHAPE_N] = dims->n, s.d[GP_SSIM_SHAPE_C] = dims->c;
    s.d[GP_SSIM_SHAPE_H] = dims->h, s.d[GP_SSIM_SHAPE_W] = dims->w;
    s.opt[GP_SSIM_SHAPE_BORDER] = (int)border;
    return gp_context_params(ctx, &gp_kernel_ssim, &s, p);
}

gp_status gp_ssim_workspace_size(struct gp_context *ctx, const gp_ssim_dims *dims, gp_ssim_border border,
                                 size_t *bytes)
{
    gp_ssim_problem prob;
    gp_ssim_params p;
    if (!bytes)
        return gp_fail(GP_ERR_USAGE, "ssim: no place for the workspace size");
    GP_TRY(lib_problem(ctx, dims, border, &prob, &p));
    return gp_ssim_workspace_bytes(&p, &prob, bytes);
}

/* [a, a + na) and [b, b + nb) share a byte (both within the address space). */
static int overlap(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + nb && y < x + na;
}

static int beyond(const void *a, size_t n) { return (uintptr_t)a > UINTPTR_MAX - n; }

gp_status gp_ssim(struct gp_context *ctx, const float *d_x, const float *d_y, float *d_map, double *d_mean,
                  const gp_ssim_dims *dims, gp_ssim_border border, void *d_work, size_t work_bytes,
                  gp_stream stream)
{
    gp_ssim_problem prob;
    gp_ssim_params p;
    GP_TRY(lib_problem(ctx, dims, border, &prob, &p));
    if (!d_x || !d_y || !d_map || !d_mean || !d_work)
        return gp_fail(GP_ERR_USAGE, "ssim: a device buffer is NULL");
    if ((uintptr_t)d_x % 4 || (uintptr_t)d_y % 4 || (uintptr_t)d_map % 4 || (uintptr_t)d_mean % 8 ||
        (uintptr_t)d_work % 8)
        return gp_fail(GP_ERR_USAGE, "ssim: images and map must be 4-byte aligned, mean and workspace 8-byte");
    const size_t in = (size_t)prob.in_elems * 4, map = (size_t)prob.map_elems * 4;
    if (beyond(d_x, in) || beyond(d_y, in) || beyond(d_map, map) || beyond(d_mean, 8) || beyond(d_work, work_bytes))
        return gp_fail(GP_ERR_USAGE, "ssim: buffers overflow the address space");
    /* x and y may be one image (SSIM of an image with itself); the outputs
     * overlap nothing. */
    if (overlap(d_map, map, d_x, in) || overlap(d_map, map, d_y, in) || overlap(d_mean, 8, d_x, in) ||
        overlap(d_mean, 8, d_y, in) || overlap(d_mean, 8, d_map, map) || overlap(d_work, work_bytes, d_x, in) ||
        overlap(d_work, work_bytes, d_y, in) || overlap(d_work, work_bytes, d_map, map) ||
        overlap(d_work, work_bytes, d_mean, 8))
        return gp_fail(GP_ERR_USAGE, "ssim: the map, the mean and the workspace must overlap no other buffer");
    return gp_ssim_run(&p, &prob, d_x, d_y, d_map, (size_t)prob.map_elems, d_mean, d_work, work_bytes, stream);
}
