/* Backend "none": memory_bandwidth's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "memory_bandwidth.h"

gp_status gp_membw_launch(gp_stream s, int kernel, int vec_bytes, int unroll, int hint, unsigned grid,
                          int block, void *a, void *b, void *c, size_t n, int passes, float scalar,
                          float magic, float *out)
{
    (void)s, (void)kernel, (void)vec_bytes, (void)unroll, (void)hint, (void)grid, (void)block;
    (void)a, (void)b, (void)c, (void)n, (void)passes, (void)scalar, (void)magic, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_membw_blocks_per_cu(int kernel, int vec_bytes, int unroll, int hint, int block, int *blocks)
{
    (void)kernel, (void)vec_bytes, (void)unroll, (void)hint, (void)block;
    *blocks = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
