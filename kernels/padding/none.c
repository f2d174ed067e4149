/* Backend "none": padding's launcher answers that no GPU code was compiled,
 * so the CPU-only build links. */
#include "padding.h"

gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block, int items)
{
    (void)d_in, (void)d_out, (void)s, (void)block, (void)items;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_padding_launch_staged_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                       int planes_per_block)
{
    (void)d_in, (void)d_out, (void)s, (void)block, (void)planes_per_block;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
