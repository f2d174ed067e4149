/* channel_conflicts kernels ([Vega-HIP] §2.10): reads confined to a
 * narrow window of low address bits, and column strips of a matrix with a
 * power-of-two leading dimension. */
#include "gp_device.h"
#include "runtime.h"
#include "channel_conflicts.h"

#define GP_PASS_BARRIER() asm volatile("" ::: "memory")

/* Element k (16 bytes) of the touched set is at row k >> (win-4), column
 * k & (2^(win-4) - 1): the high address bits range over the whole buffer, the
 * low ones stay inside the window.  Consecutive lanes read consecutive 16
 * bytes, so a wave's access stays coalesced at every window width.  The XOR
 * is stored only when it equals a run-time `magic`, so the loads stay. */
__global__ void gp_chan_window(const uint4 *__restrict__ buf, size_t rows, int win_log2, int row_log2, int passes,
                               unsigned magic, unsigned *out)
{
    const int ws = win_log2 - 4, rs = row_log2 - 4;
    const size_t nk = rows << ws, mask = ((size_t)1 << ws) - 1, stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (int p = 0; p < passes; p++) {
        for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < nk; k += stride) {
            uint4 v = buf[((k >> ws) << rs) | (k & mask)];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
        GP_PASS_BARRIER();
    }
    if (acc == magic)
        out[0] = acc;
}

__global__ void gp_chan_ld(const float *__restrict__ a, int rows, int cols, int ld, int passes, float magic,
                           float *out)
{
    const int lane = threadIdx.x % GP_WAVE_SIZE;
    const int wave = (int)((blockIdx.x * blockDim.x + threadIdx.x) / GP_WAVE_SIZE);
    const int nwaves = (int)(gridDim.x * blockDim.x / GP_WAVE_SIZE);
    float acc = 0.0f;
    for (int p = 0; p < passes; p++) {
        for (int s = 0; s < cols; s += GP_WAVE_SIZE)
            for (int r = wave; r < rows; r += nwaves)
                acc += a[(size_t)r * ld + s + lane];
        GP_PASS_BARRIER();
    }
    if (acc == magic)
        out[0] = acc;
}

extern "C" gp_status gp_chan_window_launch(gp_stream s, unsigned grid, int block, const void *buf, size_t rows,
                                           int win_log2, int row_log2, int passes, unsigned magic, unsigned *out)
{
    if (grid == 0 || block <= 0 || passes <= 0 || win_log2 < 4 || win_log2 > row_log2 || row_log2 > 40)
        return gp_fail(GP_ERR_USAGE, "channel_conflicts: bad window launch (window 2^%d, row 2^%d)", win_log2,
                       row_log2);
    gp_chan_window<<<grid, block, 0, (hipStream_t)s>>>((const uint4 *)buf, rows, win_log2, row_log2, passes, magic,
                                                       out);
    return gp_launch_status("channel_conflicts window read");
}

extern "C" gp_status gp_chan_ld_launch(gp_stream s, unsigned grid, int block, const float *a, int rows, int cols,
                                       int ld, int passes, float magic, float *out)
{
    if (grid == 0 || block <= 0 || block % GP_WAVE_SIZE || passes <= 0 || cols % GP_WAVE_SIZE || cols > ld)
        return gp_fail(GP_ERR_USAGE, "channel_conflicts: bad strip launch (block %d, cols %d, ld %d)", block, cols,
                       ld);
    gp_chan_ld<<<grid, block, 0, (hipStream_t)s>>>(a, rows, cols, ld, passes, magic, out);
    return gp_launch_status("channel_conflicts column strips");
}
