/* Backend "none": _template's launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "_template.h"

gp_status gp__template_launch(gp_stream s, int count)
{
    (void)s, (void)count;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
