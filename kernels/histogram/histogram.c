/* histogram host API: parameters clamped to the device, the persistent
 * grid from the occupancy model, and argument checks
 * before any device call. */
#include "histogram.h"

#include <string.h>

#include "context.h"
#include "kernel.h"
#include "gp_target.h"
#include "data.h"
#include "rule.h"

size_t gp_histogram_lds_bytes(int copies, int bins) { return (size_t)copies * (size_t)bins * 4; }

int gp_histogram_blocks_per_cu(const gp_device_info *dev, int block, int vecs, size_t lds)
{
    if (!dev || block < 1)
        return 1;
    int n = 1 << 20;
    if (dev->max_threads_per_cu > 0)
        n = dev->max_threads_per_cu / block;
    if (dev->regs_per_cu > 0 && dev->regs_per_cu / (block * GP_HIST_REGS(vecs)) < n)
        n = dev->regs_per_cu / (block * GP_HIST_REGS(vecs));
    if (dev->lds_per_cu > 0) {
        size_t per_block = lds + (size_t)gp_target_lds_block_reserve(dev->arch);
        if ((int)(dev->lds_per_cu / per_block) < n)
            n = (int)(dev->lds_per_cu / per_block);
    }
    return n < 1 ? 1 : n;
}

/* The most copies of `bins` bins that fit the LDS a block may use (and the
 * compiled 48 KiB), a power of two in 1..GP_HIST_MAX_COPIES. */
static int copies_limit(const gp_device_info *dev, int bins)
{
    size_t lds = GP_HIST_MAX_LDS;
    if (dev && dev->lds_per_block > 0 && dev->lds_per_block < lds)
        lds = dev->lds_per_block;
    long long c = (long long)(lds / gp_histogram_lds_bytes(1, bins));
    c = c < 1 ? 1 : c > GP_HIST_MAX_COPIES ? GP_HIST_MAX_COPIES : c;
    return (int)gp_rule_floor_pow2(c);
}

static int fit_copies(gp_histogram_params *p, const gp_device_info *dev, int copies, int bins, const char *key)
{
    int lim = copies_limit(dev, bins);
    int c = copies < 1 ? 1 : (int)gp_rule_floor_pow2(copies);
    if (c > lim)
        c = lim;
    if (c != copies) {
        char what[96];
        snprintf(what, sizeof what, "%s fitted to a power of two within the LDS a block may use", key);
        gp_note_append(p->note, sizeof p->note, what);
    }
    return c;
}

static int grid_for(const gp_device_info *dev, int block, int vecs, int copies, int bins)
{
    long long cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
    long long g = cus * gp_histogram_blocks_per_cu(dev, block, vecs, gp_histogram_lds_bytes(copies, bins));
    if (dev && dev->max_grid_dim[0] > 0 && g > dev->max_grid_dim[0])
        g = dev->max_grid_dim[0];
    return (int)g;
}

void gp_histogram_params_fit(gp_histogram_params *p, const gp_device_info *dev)
{
    int max_threads, wave;
    gp_fit_block_1d(dev, GP_HIST_MAX_BLOCK, &max_threads, &wave);
    const int asked = p->items_per_thread;
    int vecs = asked < 1 ? 1 : asked > GP_HIST_MAX_VECS ? GP_HIST_MAX_VECS : (int)gp_rule_floor_pow2(asked);
    if (vecs != asked)
        gp_note_append(p->note, sizeof p->note, "items_per_thread rounded to 1, 2 or 4 vectors");
    /* Whole waves of 64 (every wave size divides it): the ends need 32
     * threads of block 0. */
    int block = p->block < wave ? wave : (int)gp_rule_floor_pow2(p->block);
    int lim = (int)gp_rule_floor_pow2(max_threads);
    if (block > lim)
        block = lim;
    if (block != p->block)
        gp_note_append(p->note, sizeof p->note, "block fitted to whole waves and the device's limit");
    p->block = block;
    p->items_per_thread = vecs;
    p->copies_u8 = fit_copies(p, dev, p->copies_u8, GP_HIST_U8_BINS, "copies_u8");
    p->copies_u32 = fit_copies(p, dev, p->copies_u32, GP_HIST_U32_BINS, "copies_u32");
    p->grid_u8 = grid_for(dev, block, vecs, p->copies_u8, GP_HIST_U8_BINS);
    p->grid_u32 = grid_for(dev, block, vecs, p->copies_u32, GP_HIST_U32_BINS);
}

void gp_histogram_split(uintptr_t addr, size_t n, size_t size, size_t *lead, size_t *nvec, size_t *tail)
{
    size_t l = ((16 - (size_t)(addr & 15)) & 15) / size;
    if (l > n)
        l = n;
    *lead = l;
    *nvec = (n - l) * size / 16;
    *tail = n - l - *nvec * (16 / size);
}

static int pow2_in(int v, int lo, int hi) { return v >= lo && v <= hi && !(v & (v - 1)); }

static int params_ok(const gp_histogram_params *p)
{
    return pow2_in(p->block, 64, GP_HIST_MAX_BLOCK) && pow2_in(p->items_per_thread, 1, GP_HIST_MAX_VECS) &&
           pow2_in(p->copies_u8, 1, GP_HIST_MAX_COPIES) &&
           gp_histogram_lds_bytes(p->copies_u8, GP_HIST_U8_BINS) <= GP_HIST_MAX_LDS &&
           pow2_in(p->copies_u32, 1, GP_HIST_MAX_COPIES) &&
           gp_histogram_lds_bytes(p->copies_u32, GP_HIST_U32_BINS) <= GP_HIST_MAX_LDS && p->grid_u8 >= 1 &&
           p->grid_u32 >= 1;
}

static gp_status check_args(const char *what, const void *d_in, size_t n, size_t size, const uint32_t *d_bins,
                            int nbins, const gp_histogram_params *p)
{
    if (!p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "%s: parameters not fitted (use gp_histogram_params_fit)", what);
    if (!d_bins)
        return gp_fail(GP_ERR_USAGE, "%s: bins pointer is NULL", what);
    if ((uintptr_t)d_bins % 4)
        return gp_fail(GP_ERR_USAGE, "%s: bins must be 4-byte aligned", what);
    if (n > GP_HIST_MAX_N)
        return gp_fail(GP_ERR_USAGE, "%s: %zu samples exceed the 32-bit counts (at most %zu)", what, n,
                       GP_HIST_MAX_N);
    if (n == 0)
        return gp_ok();
    if (!d_in)
        return gp_fail(GP_ERR_USAGE, "%s: input pointer is NULL for %zu samples", what, n);
    if ((uintptr_t)d_in % size)
        return gp_fail(GP_ERR_USAGE, "%s: input must be %zu-byte aligned", what, size);
    uintptr_t a = (uintptr_t)d_in, b = (uintptr_t)d_bins, bb = (uintptr_t)nbins * 4;
    if (a > UINTPTR_MAX - n * size || b > UINTPTR_MAX - bb)
        return gp_fail(GP_ERR_USAGE, "%s: %zu samples overflow the address space", what, n);
    /* The bins are zeroed before the count: over the input they would change it. */
    if (a < b + bb && b < a + n * size)
        return gp_fail(GP_ERR_USAGE, "%s: bins overlap the input", what);
    return gp_ok();
}

gp_status gp_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, const gp_histogram_params *p,
                          gp_stream stream)
{
    GP_TRY(check_args("histogram u8", d_in, n, 1, d_bins, GP_HIST_U8_BINS, p));
    return gp_histogram_launch_u8(d_in, n, d_bins, p->block, p->items_per_thread, p->copies_u8, p->grid_u8, stream);
}

gp_status gp_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, const gp_histogram_params *p,
                           gp_stream stream)
{
    GP_TRY(check_args("histogram u32", d_keys, n, 4, d_bins, GP_HIST_U32_BINS, p));
    return gp_histogram_launch_u32(d_keys, n, d_bins, p->block, p->items_per_thread, p->copies_u32, p->grid_u32,
                                   stream);
}

/* ---- the library's calls */

_Static_assert(GP_HIST_N == 0 && GP_HIST_TYPE == 0, "the count shape gp_context_params_of_count writes");

gp_status gp_histogram_bytes(struct gp_context *ctx, const uint8_t *d_in, size_t n, uint32_t *d_bins,
                             gp_stream stream)
{
    gp_histogram_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_histogram, n, GP_HIST_U8, 0, &p));
    return gp_histogram_u8(d_in, n, d_bins, &p, stream);
}

gp_status gp_histogram_keys(struct gp_context *ctx, const uint32_t *d_keys, size_t n, uint32_t *d_bins,
                            gp_stream stream)
{
    gp_histogram_params p;
    GP_TRY(gp_context_params_of_count(ctx, &gp_kernel_histogram, n, GP_HIST_U32, 0, &p));
    return gp_histogram_u32(d_keys, n, d_bins, &p, stream);
}
