/* Backend "none": histogram's launchers answer that no GPU code was
 * compiled, so the CPU-only build links. */
#include "histogram.h"

gp_status gp_histogram_launch_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, int block, int vecs, int copies,
                                 int grid, gp_stream s)
{
    (void)s;
    (void)d_in, (void)n, (void)d_bins, (void)block, (void)vecs, (void)copies, (void)grid;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_histogram_launch_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, int block, int vecs,
                                  int copies, int grid, gp_stream s)
{
    (void)s;
    (void)d_keys, (void)n, (void)d_bins, (void)block, (void)vecs, (void)copies, (void)grid;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}

gp_status gp_histogram_occupancy(int is_u32, int block, int vecs, int copies, int *blocks_per_cu)
{
    (void)is_u32, (void)block, (void)vecs, (void)copies;
    *blocks_per_cu = 0;
    return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled");
}
