/* Reduce, scan and histogram baselines: CUB's DeviceReduce::Sum, DeviceScan
 * and DeviceHistogram, which ship with every CUDA toolkit, so they are always
 * present on the CUDA backend. */
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <stdio.h>

#include "vendor.h"

static gp_status cuda_status(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return gp_ok();
    return gp_fail(GP_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

template <typename T>
static gp_status reduce_sum(const T *d_in, size_t n, T *d_out, void *d_tmp, size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB reduce: %zu elements exceed the int range this wrapper passes", n);
    return cuda_status(cub::DeviceReduce::Sum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
                       "CUB DeviceReduce::Sum");
}

extern "C" gp_status gp_vendor_reduce_sum_f32(const float *d_in, size_t n, float *d_out, void *d_tmp,
                                              size_t *tmp_bytes)
{
    return reduce_sum(d_in, n, d_out, d_tmp, tmp_bytes);
}

extern "C" gp_status gp_vendor_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_tmp,
                                              size_t *tmp_bytes)
{
    return reduce_sum(d_in, n, d_out, d_tmp, tmp_bytes);
}

template <typename T>
static gp_status scan(const T *d_in, T *d_out, size_t n, int exclusive, void *d_tmp, size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB scan: %zu elements exceed the int range this wrapper passes", n);
    if (exclusive)
        return cuda_status(cub::DeviceScan::ExclusiveSum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
                           "CUB DeviceScan::ExclusiveSum");
    return cuda_status(cub::DeviceScan::InclusiveSum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
                       "CUB DeviceScan::InclusiveSum");
}

extern "C" gp_status gp_vendor_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_tmp,
                                        size_t *tmp_bytes)
{
    return scan(d_in, d_out, n, exclusive, d_tmp, tmp_bytes);
}

extern "C" gp_status gp_vendor_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive,
                                        void *d_tmp, size_t *tmp_bytes)
{
    return scan(d_in, d_out, n, exclusive, d_tmp, tmp_bytes);
}

/* Even bins of width 1 from 0: levels 0, 1, ..., bins (LevelT int, wide
 * enough for the upper level 256 of byte samples). */
template <typename T>
static gp_status histogram_even(const T *d_in, size_t n, uint32_t *d_bins, int bins, void *d_tmp,
                                size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB histogram: %zu samples exceed the int range this wrapper passes", n);
    return cuda_status(cub::DeviceHistogram::HistogramEven(d_tmp, *tmp_bytes, d_in, (unsigned int *)d_bins, bins + 1,
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

extern "C" const char *gp_vendor_reduce_name(void)
{
    static char name[32];
    snprintf(name, sizeof name, "CUB %d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
             CUB_VERSION % 100);
    return name;
}
