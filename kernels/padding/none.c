/* Backend "none": padding's launcher answers that no GPU code was compiled,
 * so the CPU-only build links. */
#include "padding.h"

gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block, int items,
                                gp_stream st)
{
    (void)d_in, (void)d_out, (void)s, (void)block, (void)items, (void)st;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_padding_launch_staged_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                       int planes_per_block, gp_stream st)
{
    (void)d_in, (void)d_out, (void)s, (void)block, (void)planes_per_block, (void)st;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
