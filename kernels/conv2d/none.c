/* Backend "none": the conv2d launcher answers that no GPU code was compiled,
 * so the CPU-only build links (the host API, reference and bench compile
 * and are unit-tested there). */
#include "conv2d.h"

gp_status gp_conv2d_launch(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y, gp_stream s)
{
    (void)p, (void)d_x, (void)d_w, (void)d_y, (void)s;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

const void *gp_conv2d_tiled_fn(int k_spec, int rows_per_thread, int oc_per_thread, int rolled)
{
    (void)k_spec, (void)rows_per_thread, (void)oc_per_thread, (void)rolled;
    return NULL; /* no device code: the rule takes the build constants */
}
