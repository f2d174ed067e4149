/* histogram's baseline: CUB's DeviceHistogram::HistogramEven (with every
 * CUDA toolkit). */
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>

#include "baseline_cuda.h"
#include "histogram_vendor.h"

/* Even bins of width 1 from 0: levels 0, 1, ..., bins (LevelT int, wide
 * enough for the upper level 256 of byte samples). */
template <typename T>
static gp_status histogram_even(const T *d_in, size_t n, uint32_t *d_bins, int bins, void *d_tmp,
                                size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB histogram: %zu samples exceed the int range this wrapper passes", n);
    return gp_cuda_status(cub::DeviceHistogram::HistogramEven(d_tmp, *tmp_bytes, d_in, (unsigned int *)d_bins, bins + 1,
                                                           0, bins, (int)n, (cudaStream_t)0),
                       "CUB DeviceHistogram::HistogramEven");
}

extern "C" gp_status gp_vendor_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, void *d_tmp,
                                            size_t *tmp_bytes)
{
    return histogram_even(d_in, n, d_bins, 256, d_tmp, tmp_bytes);
}

extern "C" gp_status gp_vendor_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, void *d_tmp,
                                             size_t *tmp_bytes)
{
    return histogram_even(d_keys, n, d_bins, 4096, d_tmp, tmp_bytes);
}

