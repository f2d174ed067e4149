/* Backend "none": reduce's launchers answer that no GPU code was compiled,
 * so the CPU-only build links. */
#include "reduce.h"

gp_status gp_reduce_launch_f32(const float *d_in, size_t n, float *d_out, void *d_ws, int ws_grid, int grid,
                               int block, int vecs, int streaming, gp_stream s)
{
    (void)d_in, (void)n, (void)d_out, (void)d_ws, (void)ws_grid, (void)grid, (void)block, (void)vecs, (void)streaming;
    (void)s;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_reduce_launch_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_ws, int ws_grid, int grid,
                               int block, int vecs, int streaming, gp_stream s)
{
    (void)d_in, (void)n, (void)d_out, (void)d_ws, (void)ws_grid, (void)grid, (void)block, (void)vecs, (void)streaming;
    (void)s;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

const void *gp_reduce_f32_fn(int vecs, int stream)
{
    (void)vecs, (void)stream;
    return NULL; /* no device code: the rule takes the build constants */
}
