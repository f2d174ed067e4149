/* Backend "none": cache_latency's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "cache_latency.h"

gp_status gp_cache_chase_init(void *buf, long long nodes, int stride, int lines_per_page,
                              const unsigned *next_page, const unsigned *next_line, unsigned last_page)
{
    (void)buf, (void)nodes, (void)stride, (void)lines_per_page, (void)next_page, (void)next_line,
        (void)last_page;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_cache_chase_seq_init(void *buf, long long nodes, int stride)
{
    (void)buf, (void)nodes, (void)stride;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_cache_chase_run(const void *start, int bypass, long long warm, long long loads, int reps,
                             long long *d_cycles, void *d_sink)
{
    (void)start, (void)bypass, (void)warm, (void)loads, (void)reps, (void)d_cycles, (void)d_sink;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_cache_partition_init(void *buf, const unsigned long long *d_pairs, int n)
{
    (void)buf, (void)d_pairs, (void)n;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_cache_partition_flush(const void *region, size_t bytes, int passes, int blocks, void *d_sink)
{
    (void)region, (void)bytes, (void)passes, (void)blocks, (void)d_sink;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_cache_partition_run(const void *start, int n, long long *d_first, long long *d_second,
                                 long long *d_l1, void *d_sink)
{
    (void)start, (void)n, (void)d_first, (void)d_second, (void)d_l1, (void)d_sink;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
