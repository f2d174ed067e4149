/* Backend "none": matrix_engine's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "matrix_engine.h"

gp_status gp_mma_query(gp_mma_shape *shapes)
{
    (void)shapes;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_mma_blocks_per_cu(int op, int chain, int threads, int *blocks)
{
    (void)op, (void)chain, (void)threads;
    *blocks = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_mma_launch(gp_stream s, int op, int chain, unsigned blocks, int threads, int iters, float *out)
{
    (void)s, (void)op, (void)chain, (void)blocks, (void)threads, (void)iters, (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
