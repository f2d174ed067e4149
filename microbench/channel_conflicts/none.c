/* Backend "none": channel_conflicts' launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "channel_conflicts.h"

gp_status gp_chan_window_launch(gp_stream s, unsigned grid, int block, const void *buf, size_t rows,
                                int win_log2, int row_log2, int passes, unsigned magic, unsigned *out)
{
    (void)s, (void)grid, (void)block, (void)buf, (void)rows, (void)win_log2, (void)row_log2;
    (void)passes, (void)magic, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_chan_ld_launch(gp_stream s, unsigned grid, int block, const float *a, int rows, int cols,
                            int ld, int passes, float magic, float *out)
{
    (void)s, (void)grid, (void)block, (void)a, (void)rows, (void)cols, (void)ld, (void)passes;
    (void)magic, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
