/* scan host API: parameters clamped to the device, the workspace and its
 * epochs, argument checks before any device call, and the
 * fp32 error bound. */
#include "scan.h"

#include <math.h>
#include <string.h>

#include "context.h"
#include "kernel.h"
#include "gp_target.h"
#include "data.h"
#include "rule.h"

/* Descriptors start here in the workspace (after the tile counter); scan.hip
 * GP_SCAN_WS_DESC. */
#define WS_DESC 16
/* Epochs fit in 30 bits of the descriptor (scan.hip). */
#define EPOCH_LIMIT (1u << 30)

/* The ring (stages > 0) where the device, this binary and the shape allow
 * it (scan.h), else the register kernel, with the reason in the note. */
static void fit_stages(gp_scan_params *p, const gp_device_info *dev)
{
    if (p->stages <= 0) {
        p->stages = 0;
        return;
    }
    const char *why = NULL;
    const size_t tile_bytes = gp_scan_tile(p) * 4;
    if (p->stages < GP_SCAN_RING_MIN_STAGES) {
        gp_note_append(p->note, sizeof p->note, "stages 0: a ring takes 2 to 8 stages");
        p->stages = 0;
        return;
    }
    /* No device (a table checked on its own): the shape alone is judged. */
    const size_t lds = !dev ? (size_t)GP_SCAN_RING_MAX_STAGES * tile_bytes
                       : dev->lds_per_block_optin > GP_SCAN_RING_LDS_RESERVE
                           ? dev->lds_per_block_optin - GP_SCAN_RING_LDS_RESERVE
                           : 0;
    int fits = tile_bytes ? (int)(lds / tile_bytes) : 0;
    if (dev && !gp_target_has_bulk_copy(dev->arch))
        why = "stages 0: the ring needs the bulk copy engine (NVIDIA sm_90+)";
    else if (dev && !gp_scan_ring_compiled())
        why = "stages 0: this binary runs pre-sm_90 code on this device (rebuild with sm_90 in GP_ARCHS for the ring)";
    else if (p->items_per_thread < GP_SCAN_RING_MIN_ITEMS)
        why = "stages 0: the ring is compiled for 16, 32 and 64 items per thread";
    else if (p->block > GP_SCAN_RING_BLOCK_LIMIT(p->items_per_thread) || p->block < 64)
        why = "stages 0: the ring takes 64 to 512 scanning threads (256 at 64 items)";
    else if (fits < GP_SCAN_RING_MIN_STAGES)
        why = "stages 0: two tiles do not fit the block's shared memory";
    if (why) {
        gp_note_append(p->note, sizeof p->note, why);
        p->stages = 0;
        return;
    }
    int stages = p->stages > GP_SCAN_RING_MAX_STAGES ? GP_SCAN_RING_MAX_STAGES : p->stages;
    stages = stages > fits ? fits : stages;
    if (stages != p->stages)
        gp_note_append(p->note, sizeof p->note, "stages fitted to the block's shared memory (at most 8)");
    p->stages = stages;
}

void gp_scan_params_fit(gp_scan_params *p, const gp_device_info *dev)
{
    int max_threads, wave;
    gp_fit_block_1d(dev, GP_SCAN_MAX_BLOCK, &max_threads, &wave);
    const int asked = p->items_per_thread;
    int items = asked < GP_SCAN_MIN_ITEMS   ? GP_SCAN_MIN_ITEMS
                : asked > GP_SCAN_MAX_ITEMS ? GP_SCAN_MAX_ITEMS
                                            : (int)gp_rule_floor_pow2(asked);
    if (items != asked)
        gp_note_append(p->note, sizeof p->note,
                       "items_per_thread rounded to 4, 8, 16, 32 or 64 (whole 16-byte vectors)");
    /* Whole waves of 64 (every wave size divides it), at most what the device
     * and the kernel's register budget allow. */
    int block = p->block < wave ? wave : (int)gp_rule_floor_pow2(p->block);
    int lim = GP_SCAN_BLOCK_LIMIT(items);
    lim = (int)gp_rule_floor_pow2(max_threads < lim ? max_threads : lim);
    if (block > lim)
        block = lim;
    if (block != p->block)
        gp_note_append(p->note, sizeof p->note,
                       "block fitted to the device and the kernel's register budget");
    p->block = block;
    p->items_per_thread = items;
    fit_stages(p, dev);
}

size_t gp_scan_tile(const gp_scan_params *p) { return (size_t)p->block * (size_t)p->items_per_thread; }

size_t gp_scan_tiles_for(const gp_scan_params *p, size_t n, size_t head)
{
    size_t tile = gp_scan_tile(p);
    if (n == 0 || tile == 0)
        return 0;
    return (head + n + tile - 1) / tile;
}

static int params_ok(const gp_scan_params *p)
{
    int i = p->items_per_thread;
    if (i != 4 && i != 8 && i != 16 && i != 32 && i != 64)
        return 0;
    if (p->stages != 0 && (p->stages < GP_SCAN_RING_MIN_STAGES || p->stages > GP_SCAN_RING_MAX_STAGES ||
                           i < GP_SCAN_RING_MIN_ITEMS || p->block > GP_SCAN_RING_BLOCK_LIMIT(i) || p->block < 64))
        return 0;
    return p->block >= 32 && p->block <= GP_SCAN_BLOCK_LIMIT(i) && !(p->block & (p->block - 1));
}

size_t gp_scan_ws_bytes(size_t max_tiles) { return WS_DESC + 8 * (max_tiles < 1 ? 1 : max_tiles); }

gp_status gp_scan_ws_create(gp_scan_ws *ws, size_t max_tiles)
{
    if (!ws)
        return gp_fail(GP_ERR_USAGE, "scan workspace: its address is NULL");
    memset(ws, 0, sizeof *ws);
    if (max_tiles < 1 || max_tiles >= GP_SCAN_MAX_TILES)
        return gp_fail(GP_ERR_USAGE, "scan workspace: %zu tiles outside 1..%zu", max_tiles, GP_SCAN_MAX_TILES - 1);
    size_t bytes = gp_scan_ws_bytes(max_tiles);
    GP_TRY(gp_dev_alloc_zero(&ws->d, bytes));
    ws->bytes = bytes;
    ws->max_tiles = max_tiles;
    return gp_ok();
}

void gp_scan_ws_destroy(gp_scan_ws *ws)
{
    if (ws && ws->d)
        gp_rt_free(ws->d);
    if (ws)
        memset(ws, 0, sizeof *ws);
}

static gp_status check_args(const char *what, const void *d_in, const void *d_out, size_t n, int exclusive,
                            const gp_scan_ws *ws, const gp_scan_params *p)
{
    if (!p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "%s: parameters not fitted (use gp_scan_params_fit)", what);
    if (exclusive != 0 && exclusive != 1)
        return gp_fail(GP_ERR_USAGE, "%s: exclusive must be 0 or 1, not %d", what, exclusive);
    if (n == 0)
        return gp_ok();
    if (!d_in || !d_out)
        return gp_fail(GP_ERR_USAGE, "%s: %s pointer is NULL for %zu elements", what, d_in ? "output" : "input",
                       n);
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % 4)
        return gp_fail(GP_ERR_USAGE, "%s: pointers must be 4-byte aligned", what);
    if (n > SIZE_MAX / 4 - 16 || (uintptr_t)d_in > UINTPTR_MAX - n * 4 || (uintptr_t)d_out > UINTPTR_MAX - n * 4)
        return gp_fail(GP_ERR_USAGE, "%s: %zu elements overflow the address space", what, n);
    uintptr_t a = (uintptr_t)d_in, b = (uintptr_t)d_out;
    if (a != b && a < b + n * 4 && b < a + n * 4)
        return gp_fail(GP_ERR_USAGE, "%s: input and output overlap without being the same array", what);
    size_t tiles = gp_scan_tiles_for(p, n, (size_t)(a & 15) / 4);
    if (tiles >= GP_SCAN_MAX_TILES)
        return gp_fail(GP_ERR_USAGE, "%s: %zu elements need %zu tiles, more than %zu", what, n, tiles,
                       GP_SCAN_MAX_TILES - 1);
    if (!ws || !ws->d || ws->max_tiles < tiles)
        return gp_fail(GP_ERR_USAGE, "%s: workspace missing or made for fewer tiles (%zu < %zu)", what,
                       ws && ws->d ? ws->max_tiles : 0, tiles);
    return gp_ok();
}

/* The run's epoch: one past the last; at the 30-bit limit the descriptors
 * are cleared on the run's stream (after the runs before it, before this
 * one's launch: a memset on another stream could land in the middle of
 * either) and epochs restart. */
static gp_status next_epoch(gp_scan_ws *ws, unsigned *epoch, gp_stream stream)
{
    if (ws->epoch + 1 >= EPOCH_LIMIT) {
        GP_TRY(gp_rt_memset_async(ws->d, 0, ws->bytes, stream));
        ws->epoch = 0;
    }
    *epoch = ++ws->epoch;
    return gp_ok();
}

/* Checks, then the run's epoch; *go = 0 when there is nothing to launch. */
static gp_status prepare(const char *what, const void *d_in, const void *d_out, size_t n, int exclusive,
                         gp_scan_ws *ws, const gp_scan_params *p, gp_stream stream, unsigned *epoch, int *go)
{
    *go = 0;
    GP_TRY(check_args(what, d_in, d_out, n, exclusive, ws, p));
    if (n == 0)
        return gp_ok();
    GP_TRY(next_epoch(ws, epoch, stream));
    *go = 1;
    return gp_ok();
}

gp_status gp_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                      const gp_scan_params *p, gp_stream stream)
{
    unsigned epoch = 0;
    int go;
    GP_TRY(prepare("scan f32", d_in, d_out, n, exclusive, ws, p, stream, &epoch, &go));
    return go ? gp_scan_launch_f32(d_in, d_out, n, exclusive, ws->d, epoch, p->block, p->items_per_thread, p->stages,
                                   stream)
              : gp_ok();
}

gp_status gp_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                      const gp_scan_params *p, gp_stream stream)
{
    unsigned epoch = 0;
    int go;
    GP_TRY(prepare("scan i32", d_in, d_out, n, exclusive, ws, p, stream, &epoch, &go));
    return go ? gp_scan_launch_i32(d_in, d_out, n, exclusive, ws->d, epoch, p->block, p->items_per_thread, p->stages,
                                   stream)
              : gp_ok();
}

static int ceil_log2(long long v)
{
    int l = 0;
    while ((1ll << l) < v)
        l++;
    return l;
}

long long gp_scan_f32_depth(const gp_scan_params *p, size_t i, size_t head, int wave)
{
    size_t tile = gp_scan_tile(p);
    if (tile == 0 || wave < 1)
        return 0;
    int lw = ceil_log2(wave);
    int waves = p->block / wave < 1 ? 1 : p->block / wave;
    long long agg = 3                         /* the vector's own serial sums */
                    + lw                      /* Kogge-Stone over the row's lanes */
                    + p->items_per_thread / 4 /* carry chain over the rows, and row prefix */
                    + ceil_log2(waves);       /* Kogge-Stone over the wave totals */
    if (p->stages > 0) {
        /* The ring's reducer publishes the aggregate a predecessor's leaves
         * reach this tile through (scan.hip): (x + y) + (z + w), a chain of
         * ceil(vectors per lane / 8) into 8 accumulators, their tree of 3,
         * the butterfly. */
        long long per_lane = (long long)(tile / 4 + (size_t)wave - 1) / wave;
        long long red = 2 + (per_lane + 7) / 8 + 3 + lw;
        agg = red > agg ? red : agg;
    }
    long long in_tile = agg + 3; /* q = tile + wave prefix; base = q + row; + element */
    long long t = (long long)((i + head) / tile);
    /* Per tile on the look-back chain: the window butterfly (lw), adding the
     * window to the prefix so far (1), prefix + aggregate (1), and one more
     * for a window without an inclusive prefix in it (1). */
    return in_tile + t * (lw + 3);
}

/* ---- the library's calls */

_Static_assert(GP_SCAN_N == 0 && GP_SCAN_TYPE == 0 && GP_SCAN_EXCLUSIVE == 1,
               "the count shape gp_context_params_of_count writes");

gp_status gp_scan_ws_create_any(size_t n_max, gp_scan_ws *ws)
{
    gp_scan_params least;
    memset(&least, 0, sizeof least);
    least.block = 64, least.items_per_thread = 4; /* the smallest tile compiled: the most tiles */
    return gp_scan_ws_create(ws, gp_scan_tiles_for(&least, n_max, 3) + 1);
}

gp_status gp_scan(struct gp_context *ctx, const float *d_in, float *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                  gp_stream stream)
{
    gp_scan_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_scan, n, GP_SCAN_FP32, exclusive != 0, &p));
    return gp_scan_f32(d_in, d_out, n, exclusive, ws, &p, stream);
}

gp_status gp_scan_int(struct gp_context *ctx, const int32_t *d_in, int32_t *d_out, size_t n, int exclusive,
                      gp_scan_ws *ws, gp_stream stream)
{
    gp_scan_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_scan, n, GP_SCAN_INT32, exclusive != 0, &p));
    return gp_scan_i32(d_in, d_out, n, exclusive, ws, &p, stream);
}
