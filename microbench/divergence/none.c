/* Backend "none": divergence's launchers answer that no GPU code was compiled,
 * so the CPU-only build links. */
#include "divergence.h"

int gp_divergence_fma_per_iter(void)
{
    return 0;
}

gp_status gp_divergence_launch(gp_stream s, int swap, unsigned grid, int block, float t0, float t1,
                               int group, int period, int count, int iters, float magic, float *out)
{
    (void)s, (void)swap, (void)grid, (void)block, (void)t0, (void)t1, (void)group, (void)period;
    (void)count, (void)iters, (void)magic, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_divergence_blocks_per_cu(int block, int *blocks)
{
    (void)block;
    *blocks = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_divergence_compiled_wave_size(int *wave)
{
    *wave = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
