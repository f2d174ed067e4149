/* Backend "none": math_functions' launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "math_functions.h"

int gp_math_lat_unroll(void)
{
    return 1;
}

int gp_math_tput_chains(void)
{
    return 1;
}

int gp_math_tput_block(void)
{
    return 1;
}

gp_status gp_math_latency_launch(gp_stream s, int op, int prec, int trips, double x0, double c,
                                 double d, double k, void *out, long long *cycles)
{
    (void)s, (void)op, (void)prec, (void)trips, (void)x0, (void)c, (void)d, (void)k, (void)out;
    (void)cycles;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_math_throughput_launch(gp_stream s, int op, int prec, unsigned grid, int trips,
                                    double x0, double c, double d, double k, void *out)
{
    (void)s, (void)op, (void)prec, (void)grid, (void)trips, (void)x0, (void)c, (void)d, (void)k;
    (void)out;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_math_tput_blocks_per_cu(int op, int prec, int *blocks)
{
    (void)op, (void)prec;
    *blocks = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
