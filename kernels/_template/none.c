/* Backend "none": _template's launcher answers that no GPU code was
 * compiled, so the CPU-only build links. */
#include "_template.h"

gp_status gp__template_launch(float a, const float *d_x, float *d_y, size_t n, int grid, int block, int items,
                              gp_stream s)
{
    (void)a, (void)d_x, (void)d_y, (void)n, (void)grid, (void)block, (void)items, (void)s;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
