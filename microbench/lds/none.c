/* Backend "none": lds's launchers answer that no GPU code was compiled, so
 * the CPU-only build links. */
#include "lds.h"

gp_status gp_lds_latency_run(const int *d_cycle, int n, long long loads, int reps, long long *d_cycles,
                             int *d_sink)
{
    (void)d_cycle, (void)n, (void)loads, (void)reps, (void)d_cycles, (void)d_sink;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_lds_bank_run(int elem_bytes, int stride, int iters, int threads, const int *d_zero,
                          long long *d_cycles, int *d_sink)
{
    (void)elem_bytes, (void)stride, (void)iters, (void)threads, (void)d_zero, (void)d_cycles, (void)d_sink;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
