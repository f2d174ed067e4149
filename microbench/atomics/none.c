/* Backend "none": atomics' launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "atomics.h"

gp_status gp_atom_global_launch(gp_stream s, int is_float, int mode, unsigned grid, int block, void *counters,
                                int iters)
{
    (void)s, (void)is_float, (void)mode, (void)grid, (void)block, (void)counters, (void)iters;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_atom_lds_launch(gp_stream s, int is_float, int mode, unsigned grid, int block, void *out, int iters)
{
    (void)s, (void)is_float, (void)mode, (void)grid, (void)block, (void)out, (void)iters;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
