/* Backend "none": interconnect's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "interconnect.h"

gp_status gp_ic_copy_launch(gp_stream s, const void *src, void *dst, size_t bytes, int blocks)
{
    (void)s, (void)src, (void)dst, (void)bytes, (void)blocks;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_ic_chase_launch(gp_stream s, const unsigned *next, int steps, unsigned *out)
{
    (void)s, (void)next, (void)steps, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
