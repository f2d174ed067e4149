/* Backend "none": fma_throughput's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "fma_throughput.h"

int gp_fma_have_f16x2(void) { return 0; }

gp_status gp_fma_prepare(int type, int threads, size_t shm, int *blocks_per_cu)
{
    (void)type, (void)threads, (void)shm;
    *blocks_per_cu = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_fma_launch(gp_stream s, int type, unsigned blocks, int threads, size_t shm, int iters,
                        float *out)
{
    (void)s, (void)type, (void)blocks, (void)threads, (void)shm, (void)iters, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_fma_loop_launch(gp_stream s, int shape, unsigned blocks, int threads, int n, float *out)
{
    (void)s, (void)shape, (void)blocks, (void)threads, (void)n, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
