/* Backend "none": launch_rate's launchers answer that no GPU code was
 * compiled.  The driver opens the device first, so these are reached only if
 * that order changes; they exist so the CPU-only build links. */
#include "launch_rate.h"

gp_status gp_launch_rate_launch(gp_stream s, unsigned grid, int bx, int by, int bz)
{
    (void)s, (void)grid, (void)bx, (void)by, (void)bz;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_launch_rate_burst(gp_stream s, int count)
{
    (void)s, (void)count;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
