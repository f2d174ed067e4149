/* reduce host API: parameters clamped to the device, the workspace,
 * argument checks before any device call, and the fp32 error bound. */
#include "reduce.h"

#include <math.h>
#include <string.h>

#include "context.h"
#include "kernel.h"
#include "data.h"
#include "rule.h"

/* Largest block the kernel for `vecs` loads per thread is compiled for
 * (reduce.hip GP_RED_LB: about 4 x vecs + 4 live registers per thread). */
static int block_limit(int vecs) { return vecs <= 4 ? 1024 : vecs == 8 ? 512 : 256; }

void gp_reduce_params_fit(gp_reduce_params *p, const gp_device_info *dev)
{
    int max_threads, wave, cus = 1;
    long long max_grid = 0x7fffffff;
    gp_fit_block_1d(dev, GP_REDUCE_MAX_BLOCK, &max_threads, &wave);
    if (dev) {
        if (dev->compute_units > 0)
            cus = dev->compute_units;
        if (dev->max_grid_dim[0] > 0)
            max_grid = dev->max_grid_dim[0];
    }
    const int asked = p->items_per_thread;
    int vecs = asked < 1 ? 1 : asked > GP_REDUCE_MAX_VECS ? GP_REDUCE_MAX_VECS : (int)gp_rule_floor_pow2(asked);
    if (vecs != asked)
        gp_note_append(p->note, sizeof p->note, "items_per_thread rounded to 1, 2, 4, 8 or 16 vectors");
    /* Whole waves of 64 (every wave size divides it), at most what the device
     * and the kernel's register budget allow. */
    int block = p->block < wave ? wave : (int)gp_rule_floor_pow2(p->block);
    int lim = (int)gp_rule_floor_pow2(max_threads < block_limit(vecs) ? max_threads : block_limit(vecs));
    if (block > lim)
        block = lim;
    if (block != p->block)
        gp_note_append(p->note, sizeof p->note, "block fitted to the device and the kernel's register budget");
    int gpc = p->grid_per_cu < 1 ? 1 : p->grid_per_cu > 64 ? 64 : p->grid_per_cu;
    p->one_pass = p->one_pass ? 1 : 0;
    p->stream = p->stream ? 1 : 0;
    long long grid;
    if (p->one_pass) {
        grid = GP_REDUCE_ONE_PASS_MAX_GRID;
    } else {
        /* The grid-stride split assumes every block is resident at once (a
         * second round of blocks would do its share after the others): at
         * most the blocks of `block` threads a CU holds by its thread and
         * register limits (GP_REDUCE_REGS per thread, the kernel's bound). */
        int fit = 0;
        if (dev && dev->max_threads_per_cu > 0)
            fit = dev->max_threads_per_cu / block;
        if (dev && dev->regs_per_cu > 0) {
            int by_regs = dev->regs_per_cu / (block * GP_REDUCE_REGS(vecs));
            fit = fit > 0 && fit < by_regs ? fit : by_regs;
        }
        if (fit >= 1 && gpc > fit) {
            gpc = fit;
            gp_note_append(p->note, sizeof p->note, "grid_per_cu lowered to the blocks a CU holds at once");
        }
        grid = (long long)gpc * cus;
    }
    if (grid > max_grid)
        grid = max_grid;
    p->block = block;
    p->items_per_thread = vecs;
    p->grid_per_cu = gpc;
    p->grid = (int)grid;
}

int gp_reduce_grid_for(const gp_reduce_params *p, size_t n)
{
    size_t per_block = (size_t)p->block * (size_t)p->items_per_thread * 4;
    size_t need = (n + per_block - 1) / per_block;
    if (need < 1)
        need = 1;
    return need < (size_t)p->grid ? (int)need : p->grid;
}

static int params_ok(const gp_reduce_params *p)
{
    int v = p->items_per_thread;
    if (v != 1 && v != 2 && v != 4 && v != 8 && v != 16)
        return 0;
    if (p->block < 32 || p->block > block_limit(v) || (p->block & (p->block - 1)))
        return 0;
    if ((p->one_pass != 0 && p->one_pass != 1) || (p->stream != 0 && p->stream != 1))
        return 0;
    return p->grid >= 1 && p->grid <= GP_REDUCE_ONE_PASS_MAX_GRID;
}

size_t gp_reduce_ws_bytes(int max_grid)
{
    size_t g = max_grid < 1 ? 1 : (size_t)max_grid;
    size_t groups = (g + GP_RED_GROUP - 1) / GP_RED_GROUP;
    return GP_RED_WS_COUNTERS + 4 * (2 * groups + g);
}

gp_status gp_reduce_ws_create(gp_reduce_ws *ws, const gp_reduce_params *p)
{
    if (!ws)
        return gp_fail(GP_ERR_USAGE, "reduce workspace: its address is NULL");
    memset(ws, 0, sizeof *ws);
    if (!p || p->grid < 1 || p->grid > GP_REDUCE_ONE_PASS_MAX_GRID)
        return gp_fail(GP_ERR_USAGE, "reduce workspace: parameters without a grid (use gp_reduce_params_fit)");
    size_t bytes = gp_reduce_ws_bytes(p->grid);
    GP_TRY(gp_dev_alloc_zero(&ws->d, bytes));
    ws->bytes = bytes;
    ws->max_grid = p->grid;
    return gp_ok();
}

void gp_reduce_ws_destroy(gp_reduce_ws *ws)
{
    if (ws && ws->d)
        gp_rt_free(ws->d);
    if (ws)
        memset(ws, 0, sizeof *ws);
}

static gp_status check_args(const char *what, const void *d_in, size_t n, const void *d_out,
                            const gp_reduce_ws *ws, const gp_reduce_params *p, int *grid)
{
    if (!p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "%s: parameters not fitted (use gp_reduce_params_fit)", what);
    if (!d_out)
        return gp_fail(GP_ERR_USAGE, "%s: output pointer is NULL", what);
    if (!d_in && n > 0)
        return gp_fail(GP_ERR_USAGE, "%s: input pointer is NULL for %zu elements", what, n);
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % 4)
        return gp_fail(GP_ERR_USAGE, "%s: pointers must be 4-byte aligned", what);
    if (n > SIZE_MAX / 4 || (d_in && (uintptr_t)d_in > UINTPTR_MAX - n * 4))
        return gp_fail(GP_ERR_USAGE, "%s: %zu elements overflow the address space", what, n);
    *grid = gp_reduce_grid_for(p, n);
    if (!ws || !ws->d || ws->max_grid < *grid)
        return gp_fail(GP_ERR_USAGE, "%s: workspace missing or made for a smaller grid (%d < %d)", what,
                       ws && ws->d ? ws->max_grid : 0, *grid);
    return gp_ok();
}

gp_status gp_reduce_sum_f32(const float *d_in, size_t n, float *d_out, gp_reduce_ws *ws,
                            const gp_reduce_params *p, gp_stream stream)
{
    int grid = 0;
    GP_TRY(check_args("reduce f32", d_in, n, d_out, ws, p, &grid));
    return gp_reduce_launch_f32(d_in, n, d_out, ws->d, ws->max_grid, grid, p->block, p->items_per_thread, p->stream,
                                stream);
}

gp_status gp_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, gp_reduce_ws *ws,
                            const gp_reduce_params *p, gp_stream stream)
{
    int grid = 0;
    GP_TRY(check_args("reduce i32", d_in, n, d_out, ws, p, &grid));
    return gp_reduce_launch_i32(d_in, n, d_out, ws->d, ws->max_grid, grid, p->block, p->items_per_thread, p->stream,
                                stream);
}

static int ceil_log2(long long v)
{
    int l = 0;
    while ((1ll << l) < v)
        l++;
    return l;
}

int gp_reduce_f32_depth(const gp_reduce_params *p, size_t n, size_t head, int wave)
{
    if (n == 0)
        return 0;
    if (head > n)
        head = n;
    size_t nv = (n - head) / 4;
    int grid = gp_reduce_grid_for(p, n);
    size_t per_pass = (size_t)grid * (size_t)p->block * (size_t)p->items_per_thread;
    long long passes = (long long)((nv + per_pass - 1) / per_pass);
    long long groups = (grid + (long long)GP_RED_GROUP - 1) / (long long)GP_RED_GROUP;
    long long gsize = grid < (int)GP_RED_GROUP ? grid : (long long)GP_RED_GROUP;
    int lw = ceil_log2(wave);
    long long d = ceil_log2(p->items_per_thread)     /* pairwise tree over a pass's loads */
                  + passes               /* serial adds into the accumulator lane */
                  + 1                    /* a head or tail element into lane x or y */
                  + 2                    /* (x + y) + (z + w) */
                  + 2 * lw               /* block: wave butterfly, then over the wave sums */
                  + (gsize + wave - 1) / wave + lw; /* group: serial adds per lane, butterfly */
    if (groups > 1)
        d += (groups + wave - 1) / wave + lw; /* the groups: the same */
    return d > 0x7fffffff ? 0x7fffffff : (int)d;
}

double gp_reduce_f32_bound(int depth, double sum_abs)
{
    const double u = ldexp(1.0, -24);
    double du = (double)depth * u;
    if (du >= 1.0)
        return HUGE_VAL;
    return du / (1.0 - du) * sum_abs;
}

/* ---- the library's calls */

_Static_assert(GP_REDUCE_N == 0 && GP_REDUCE_TYPE == 0, "the count shape gp_context_params_of_count writes");

gp_status gp_reduce_ws_create_any(gp_reduce_ws *ws)
{
    gp_reduce_params p;
    memset(&p, 0, sizeof p);
    p.grid = GP_REDUCE_ONE_PASS_MAX_GRID;
    return gp_reduce_ws_create(ws, &p);
}

gp_status gp_reduce_sum(struct gp_context *ctx, const float *d_in, size_t n, float *d_out, gp_reduce_ws *ws,
                        gp_stream stream)
{
    gp_reduce_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_reduce, n, GP_REDUCE_FP32, 0, &p));
    return gp_reduce_sum_f32(d_in, n, d_out, ws, &p, stream);
}

gp_status gp_reduce_sum_int(struct gp_context *ctx, const int32_t *d_in, size_t n, int32_t *d_out,
                            gp_reduce_ws *ws, gp_stream stream)
{
    gp_reduce_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_reduce, n, GP_REDUCE_INT32, 0, &p));
    return gp_reduce_sum_i32(d_in, n, d_out, ws, &p, stream);
}
