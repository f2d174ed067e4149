/* Backend "none": transpose's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "transpose.h"

gp_status gp_transpose_launch(const float *d_in, float *d_out, size_t rows, size_t cols, int tile, int pad,
                              int items, int vec, int group, int swizzle, int stream, int tiles_per_block, gp_stream s)
{
    (void)s;
    (void)d_in, (void)d_out, (void)rows, (void)cols, (void)tile, (void)pad, (void)items, (void)vec, (void)group;
    (void)swizzle, (void)stream, (void)tiles_per_block;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_transpose_copy_launch(const float *d_in, float *d_out, size_t n, int grid, int block, int stream,
                                   gp_stream s)
{
    (void)s;
    (void)d_in, (void)d_out, (void)n, (void)grid, (void)block, (void)stream;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
