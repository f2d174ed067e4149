/* Backend "none": ssim's launchers answer that no GPU code was compiled, so
 * the CPU-only build links (the host API and the CPU reference still work). */
#include "ssim.h"

gp_status gp_ssim_launch_fused(const gp_ssim_args *a, int tile_x, int variant, int block, size_t lds_bytes,
                               long long nblocks, gp_stream stream)
{
    (void)stream;
    (void)a, (void)tile_x, (void)variant, (void)block, (void)lds_bytes, (void)nblocks;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_ssim_launch_naive(const gp_ssim_args *a, long long nblocks_x, long long nblocks, gp_stream stream)
{
    (void)stream;
    (void)a, (void)nblocks_x, (void)nblocks;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_ssim_launch_mean(const double *partials, long long n, double inv_count, double *mean,
                              gp_stream stream)
{
    (void)stream;
    (void)partials, (void)n, (void)inv_count, (void)mean;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

const void *gp_ssim_fused_fn(int tile_x, int variant, int vec)
{
    (void)tile_x, (void)variant, (void)vec;
    return NULL; /* no device code: the rule takes the build constants */
}
