/* Backend "none": scan's launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "scan.h"

gp_status gp_scan_launch_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_ws,
                             unsigned epoch, int block, int items, int stages, gp_stream s)
{
    (void)s;
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_ws, (void)epoch, (void)block, (void)items,
        (void)stages;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_scan_launch_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_ws,
                             unsigned epoch, int block, int items, int stages, gp_stream s)
{
    (void)s;
    (void)d_in, (void)d_out, (void)n, (void)exclusive, (void)d_ws, (void)epoch, (void)block, (void)items,
        (void)stages;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

/* Nothing runs without a GPU backend: the device facts alone decide (scan.h). */
int gp_scan_ring_compiled(void) { return 1; }
