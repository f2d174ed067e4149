/* Backend "none": stencil's launchers answer that no GPU code was compiled,
 * so the CPU-only build links. */
#include "stencil.h"

gp_status gp_stencil_launch_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                                int tile_x, int tile_y, int ahead, int vec, int z_per_chunk, int z_chunks,
                                gp_stream st)
{
    (void)st;
    (void)d_in, (void)d_out, (void)s, (void)c0, (void)c1, (void)tile_x, (void)tile_y, (void)ahead, (void)vec;
    (void)z_per_chunk, (void)z_chunks;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_stencil_launch_naive_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0,
                                      float c1, gp_stream st)
{
    (void)st;
    (void)d_in, (void)d_out, (void)s, (void)c0, (void)c1;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

const void *gp_stencil_kernel_fn(int vec, int ahead)
{
    (void)vec, (void)ahead;
    return NULL;
}
