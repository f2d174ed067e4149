/* Backend "none": gemm's launcher answers that no GPU code was compiled, so
 * the CPU-only build links. */
#include "gemm.h"

gp_status gp_gemm_launch_rm(int config, int a_kc, int b_kc, int m, int n, int k, float alpha, const float *a,
                            int lda, const float *b, int ldb, float beta, float *c, int ldc, int split, int sk_blocks,
                            float *work, gp_stream s)
{
    (void)config, (void)a_kc, (void)b_kc, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)b;
    (void)ldb, (void)beta, (void)c, (void)ldc, (void)split, (void)sk_blocks, (void)work, (void)s;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
