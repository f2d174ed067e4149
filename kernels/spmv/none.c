/* Backend "none": spmv's launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "spmv.h"

gp_status gp_spmv_launch_csr(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                             float *y, const int *long_rows, long long nlong, long long long_min, int tpr,
                             int unroll, int block, gp_stream s)
{
    (void)s;
    (void)rows, (void)row_ptr, (void)col, (void)val, (void)x, (void)y, (void)long_rows, (void)nlong;
    (void)long_min, (void)tpr, (void)unroll, (void)block;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_spmv_launch_ell(int rows, int width, const int *ell_col, const float *ell_val, const float *x, float *y,
                             int unroll, int block, gp_stream s)
{
    (void)s;
    (void)rows, (void)width, (void)ell_col, (void)ell_val, (void)x, (void)y, (void)unroll, (void)block;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
