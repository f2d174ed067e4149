/* Backend "none": register_limits' launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "register_limits.h"

int gp_reglim_count(void) { return 0; }
int gp_reglim_live(int variant) { (void)variant; return 0; }

gp_status gp_reglim_attrs(int variant, int *regs, size_t *local_bytes, int *blocks_per_cu)
{
    (void)variant;
    *regs = 0, *local_bytes = 0, *blocks_per_cu = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_reglim_launch(gp_stream s, int variant, unsigned blocks, int iters, float *out)
{
    (void)s, (void)variant, (void)blocks, (void)iters, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
