/* transpose host API: parameters from the tuning table, clamped to the
 * device; argument checks before any device call. */
#include "transpose.h"

#include <stdint.h>
#include <string.h>

#include "context.h"
#include "kernel.h"

static int floor_pow2(long long v)
{
    int p = 1;
    while ((long long)p * 2 <= v && p < (1 << 30))
        p *= 2;
    return p;
}

static void add_note(gp_transpose_params *p, const char *what)
{
    size_t len = strlen(p->note);
    snprintf(p->note + len, sizeof p->note - len, "%s%s", len ? "; " : "", what);
}

static int threads_of(int tile, int items, int vec) { return (tile / vec) * (tile / items); }

void gp_transpose_params_fit(gp_transpose_params *p, const gp_device_info *dev)
{
    int max_threads = GP_TRANSPOSE_MAX_THREADS, max_x = 1024, max_y = 1024;
    size_t lds = 48 * 1024;
    if (dev) {
        if (dev->max_threads_per_block > 0 && dev->max_threads_per_block < max_threads)
            max_threads = dev->max_threads_per_block;
        if (dev->max_block_dim[0] > 0 && dev->max_block_dim[0] < max_x)
            max_x = dev->max_block_dim[0];
        if (dev->max_block_dim[1] > 0 && dev->max_block_dim[1] < max_y)
            max_y = dev->max_block_dim[1];
        if (dev->lds_per_block > 0)
            lds = dev->lds_per_block;
    }
    int tile = p->tile < 8 ? 8 : p->tile > 64 ? 64 : floor_pow2(p->tile);
    if (tile != p->tile)
        add_note(p, "tile outside the compiled 8..64 (powers of two)");
    int pad = p->pad < 0 ? 0 : p->pad > 32 ? 32 : p->pad;
    int vec = p->vec >= 4 ? 4 : p->vec >= 2 ? 2 : 1;
    if (tile < 32)
        vec = 1; /* vector variants are compiled for tiles of 32 and 64 */
    if (vec != p->vec)
        add_note(p, "vec limited to 1, 2, 4 and to 1 below tile 32");
    int br = p->block_rows < 1 ? 1 : p->block_rows > tile ? tile : floor_pow2(p->block_rows);
    int items = tile / br;
    if (items > GP_TRANSPOSE_MAX_ITEMS) {
        items = GP_TRANSPOSE_MAX_ITEMS;
        add_note(p, "at most 16 rows per thread: block_rows raised");
    }
    /* Fit the block: more rows per thread first, then a smaller tile. */
    for (;;) {
        while ((threads_of(tile, items, vec) > max_threads || tile / items > max_y) &&
               items < GP_TRANSPOSE_MAX_ITEMS && items < tile)
            items *= 2;
        if (threads_of(tile, items, vec) <= max_threads && tile / items <= max_y && tile / vec <= max_x &&
            (size_t)tile * (size_t)(tile + pad) * sizeof(float) <= lds)
            break;
        if (tile <= 8) {
            pad = 0; /* 8 x 8 threads at most, 256 bytes: fits any GPU */
            break;
        }
        tile /= 2;
        if (tile < 32)
            vec = 1;
        if (items > tile)
            items = tile;
        add_note(p, "tile reduced to fit the device's block");
    }
    if (tile / items != br && !strstr(p->note, "block_rows"))
        add_note(p, "block_rows changed to fit the device's block");
    p->tile = tile;
    p->pad = pad;
    p->vec = vec;
    p->block_rows = tile / items;
    p->max_threads = max_threads;
    if (p->group < 1)
        p->group = 1;
    /* The swizzled layout and the streaming hints are compiled for tiles of
     * 32 and 64; the swizzle also only for vec > 1 and at most 32 elements
     * per thread. */
    int swz = p->swizzle ? 1 : 0, stream = p->stream < 0 ? 0 : p->stream > 3 ? 3 : p->stream;
    if (stream != p->stream)
        add_note(p, "stream limited to 0..3");
    if (tile < 32 && (swz || stream)) {
        if (stream)
            add_note(p, "stream needs a tile of 32 or 64: off");
        swz = 0, stream = 0;
    }
    if (swz && vec == 1)
        swz = 0; /* nothing to swizzle: 4-byte accesses read a padded tile */
    if (swz && items * vec > 32) {
        add_note(p, "swizzle needs items x vec <= 32: off");
        swz = 0;
    }
    p->swizzle = swz;
    p->stream = stream;
    if (p->tiles_per_block < 1)
        p->tiles_per_block = 1;
    if (p->tiles_per_block > GP_TRANSPOSE_MAX_TILES_PER_BLOCK) {
        p->tiles_per_block = GP_TRANSPOSE_MAX_TILES_PER_BLOCK;
        add_note(p, "tiles_per_block limited to 64");
    }
}

int gp_transpose_effective_vec(const gp_transpose_params *p, size_t rows, size_t cols, const void *d_in,
                               const void *d_out)
{
    int v = p->vec;
    while (v > 1) {
        size_t a = (size_t)v * sizeof(float);
        if (rows % (size_t)v == 0 && cols % (size_t)v == 0 && (uintptr_t)d_in % a == 0 &&
            (uintptr_t)d_out % a == 0)
            break;
        v /= 2;
    }
    return v;
}

/* Parameters that fit() produces; anything else did not come through it. */
static int params_ok(const gp_transpose_params *p)
{
    int t = p->tile;
    if ((t != 8 && t != 16 && t != 32 && t != 64) || p->pad < 0 || p->pad > 32 || p->group < 1)
        return 0;
    if (p->vec != 1 && p->vec != 2 && p->vec != 4)
        return 0;
    if (p->vec > 1 && t < 32)
        return 0;
    if (p->block_rows < 1 || p->block_rows > t || t % p->block_rows)
        return 0;
    int items = t / p->block_rows;
    if (items > GP_TRANSPOSE_MAX_ITEMS || (items & (items - 1)))
        return 0;
    if (p->stream < 0 || p->stream > 3 || (p->swizzle != 0 && p->swizzle != 1))
        return 0;
    if ((p->stream || p->swizzle) && t < 32)
        return 0;
    if (p->swizzle && (p->vec == 1 || items * p->vec > 32))
        return 0;
    if (p->tiles_per_block < 1 || p->tiles_per_block > GP_TRANSPOSE_MAX_TILES_PER_BLOCK)
        return 0;
    return threads_of(t, items, p->vec) <= GP_TRANSPOSE_MAX_THREADS;
}

gp_status gp_transpose_f32(const float *d_in, float *d_out, size_t rows, size_t cols,
                           const gp_transpose_params *p, gp_stream stream)
{
    if (!p)
        return gp_fail(GP_ERR_USAGE, "transpose: no parameters");
    if (!params_ok(p))
        return gp_fail(GP_ERR_USAGE, "transpose: parameters tile=%d pad=%d block_rows=%d vec=%d swizzle=%d stream=%d "
                       "tiles_per_block=%d not fitted (use gp_transpose_params_fit)", p->tile, p->pad, p->block_rows,
                       p->vec, p->swizzle, p->stream, p->tiles_per_block);
    if (rows == 0 || cols == 0)
        return gp_ok();
    if (!d_in || !d_out)
        return gp_fail(GP_ERR_USAGE, "transpose: %s pointer is NULL for a %zu x %zu matrix",
                       !d_in ? "input" : "output", rows, cols);
    if (rows > SIZE_MAX / sizeof(float) / cols)
        return gp_fail(GP_ERR_USAGE, "transpose: %zu x %zu elements overflow the address space", rows, cols);
    if ((uintptr_t)d_in % sizeof(float) || (uintptr_t)d_out % sizeof(float))
        return gp_fail(GP_ERR_USAGE, "transpose: pointers must be 4-byte aligned");
    size_t bytes = rows * cols * sizeof(float);
    uintptr_t a = (uintptr_t)d_in, b = (uintptr_t)d_out;
    if (a < b + bytes && b < a + bytes)
        return gp_fail(GP_ERR_USAGE, "transpose: input and output overlap (in-place is not supported)");
    size_t tile = (size_t)p->tile;
    size_t trows = (rows + tile - 1) / tile, tcols = (cols + tile - 1) / tile;
    if (trows > 0x7fffffffu / tcols)
        return gp_fail(GP_ERR_USAGE, "transpose: %zu x %zu is %zu x %zu tiles of %zu, more than 2^31", rows, cols,
                       trows, tcols, tile);
    int vec = gp_transpose_effective_vec(p, rows, cols, d_in, d_out);
    int items = p->tile / p->block_rows;
    /* A narrower vector keeps the block's rows and gets more threads in x;
     * with vec 1 on a 64-tile that may need more rows per thread. */
    int max_threads = p->max_threads > 0 ? p->max_threads : GP_TRANSPOSE_MAX_THREADS;
    while (threads_of(p->tile, items, vec) > max_threads && items < GP_TRANSPOSE_MAX_ITEMS && items < p->tile)
        items *= 2;
    /* The swizzle needs vec > 1 and at most 32 elements per thread; else the
     * padded layout (the same result). */
    int swz = p->swizzle && vec > 1 && items * vec <= 32;
    return gp_transpose_launch(d_in, d_out, rows, cols, p->tile, p->pad, items, vec, p->group, swz, p->stream,
                               p->tiles_per_block, stream);
}

gp_status gp_transpose(struct gp_context *ctx, const float *d_in, float *d_out, size_t rows, size_t cols,
                       gp_stream stream)
{
    gp_transpose_params p;
    gp_shape s;
    memset(&s, 0, sizeof s);
    s.d[GP_TRANSPOSE_ROWS] = (long long)rows, s.d[GP_TRANSPOSE_COLS] = (long long)cols;
    if (!ctx)
        return gp_fail(GP_ERR_USAGE, "transpose: no context (gp_context_open)");
    if (rows == 0 || cols == 0)
        return gp_ok();
    GP_TRY(gp_context_params(ctx, &gp_kernel_transpose, &s, &p));
    return gp_transpose_f32(d_in, d_out, rows, cols, &p, stream);
}

gp_status gp_transpose_copy_f32(const float *d_in, float *d_out, size_t n, const gp_device_info *dev, int mode,
                                gp_stream stream)
{
    if (mode < GP_TRANSPOSE_COPY_PERSISTENT || mode > GP_TRANSPOSE_COPY_ONE_PASS_CS)
        return gp_fail(GP_ERR_USAGE, "transpose copy: mode %d is not 0..2", mode);
    if (n == 0)
        return gp_ok();
    if (!d_in || !d_out)
        return gp_fail(GP_ERR_USAGE, "transpose copy: NULL pointer");
    if ((uintptr_t)d_in % 16 || (uintptr_t)d_out % 16)
        return gp_fail(GP_ERR_USAGE, "transpose copy: pointers must be 16-byte aligned");
    int block = 256;
    int cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
    size_t need = (n / 4 + (size_t)block * 4 - 1) / ((size_t)block * 4);
    /* Persistent: 2048 threads per CU (full occupancy on NVIDIA); one pass:
     * a block per 4 x block vectors, up to 2^31 - 1 blocks (the loop covers
     * the rest). */
    size_t grid = mode == GP_TRANSPOSE_COPY_PERSISTENT ? (size_t)cus * 8 : (size_t)0x7fffffff;
    if (grid > need)
        grid = need;
    if (grid < 1)
        grid = 1;
    return gp_transpose_copy_launch(d_in, d_out, n, (int)grid, block, mode == GP_TRANSPOSE_COPY_ONE_PASS_CS, stream);
}
