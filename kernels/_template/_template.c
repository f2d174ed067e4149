/* _template host side: the fit to the device and the argument checks,
 * before any device call. */
#include "_template.h"

#include <stdint.h>
#include <string.h>

#include "data.h"
#include "rule.h"

void gp__template_params_fit(gp__template_params *p, const gp_device_info *dev)
{
    int max_threads, wave;
    gp_fit_block_1d(dev, 1024, &max_threads, &wave);
    int block = (int)gp_rule_clamp(gp_rule_floor_pow2(p->block), wave, max_threads);
    if (block != p->block)
        gp_note_append(p->note, sizeof p->note, "block fitted to the device (a power of 2, whole waves)");
    p->block = block;
    p->items_per_thread = (int)gp_rule_clamp(gp_rule_floor_pow2(p->items_per_thread), 1, 4);
    /* A persistent grid: the blocks every CU holds at once (2048 threads a
     * CU where the device does not say). */
    int cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
    int per_cu = dev && dev->max_threads_per_cu > 0 ? dev->max_threads_per_cu / block : 2048 / block;
    p->grid = cus * (per_cu > 0 ? per_cu : 1);
}

gp_status gp__template_f32(float a, const float *d_x, float *d_y, size_t n, const gp__template_params *p,
                           gp_stream stream)
{
    if (!p || p->block < 1 || p->grid < 1)
        return gp_fail(GP_ERR_USAGE, "_template: parameters not fitted (gp__template_params_fit)");
    if (n == 0)
        return gp_ok();
    if (!d_x || !d_y)
        return gp_fail(GP_ERR_USAGE, "_template: %s is NULL for %zu values", !d_x ? "x" : "y", n);
    if ((uintptr_t)d_x % 16 || (uintptr_t)d_y % 16)
        return gp_fail(GP_ERR_USAGE, "_template: x and y must be 16-byte aligned");
    if (n > SIZE_MAX / sizeof(float))
        return gp_fail(GP_ERR_USAGE, "_template: %zu values overflow the address space", n);
    uintptr_t x = (uintptr_t)d_x, y = (uintptr_t)d_y, bytes = n * sizeof(float);
    if (x < y + bytes && y < x + bytes)
        return gp_fail(GP_ERR_USAGE, "_template: x and y overlap");
    size_t need = (n / 4 + (size_t)p->block * p->items_per_thread - 1) / ((size_t)p->block * p->items_per_thread);
    int grid = need < (size_t)p->grid ? (int)(need > 0 ? need : 1) : p->grid;
    return gp__template_launch(a, d_x, d_y, n, grid, p->block, p->items_per_thread, stream);
}
