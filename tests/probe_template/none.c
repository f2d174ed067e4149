/* Backend "none": PROBE's launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "PROBE.h"

gp_status gp_PROBE_launch(gp_stream s, int count)
{
    (void)s, (void)count;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
