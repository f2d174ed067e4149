/* Backend "none": batchnorm's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "batchnorm.h"

gp_status gp_batchnorm_launch_train(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, float eps, float *save_mean, float *save_invstd, void *ws,
                                    int split, int block, int items, int hold_bytes, long long l2_bytes,
                                    gp_stream st)
{
    (void)x, (void)y, (void)s, (void)gamma, (void)beta, (void)eps, (void)save_mean, (void)save_invstd, (void)ws;
    (void)split, (void)block, (void)items, (void)hold_bytes, (void)l2_bytes, (void)st;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_batchnorm_launch_infer(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, const float *mean, const float *var, float eps, int split,
                                    int block, int items, gp_stream st)
{
    (void)x, (void)y, (void)s, (void)gamma, (void)beta, (void)mean, (void)var, (void)eps, (void)split;
    (void)block, (void)items, (void)st;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_batchnorm_launch_fused(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, float eps, float *save_mean, float *save_invstd, int block,
                                    gp_stream st)
{
    (void)x, (void)y, (void)s, (void)gamma, (void)beta, (void)eps, (void)save_mean, (void)save_invstd, (void)block;
    (void)st;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
