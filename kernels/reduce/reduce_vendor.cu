/* reduce's baseline: CUB's DeviceReduce::Sum, which ships with every CUDA
 * toolkit, so it is always there on the CUDA backend. */
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include "baseline_cuda.h"
#include "reduce_vendor.h"

template <typename T>
static gp_status reduce_sum(const T *d_in, size_t n, T *d_out, void *d_tmp, size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB reduce: %zu elements exceed the int range this wrapper passes", n);
    return gp_cuda_status(cub::DeviceReduce::Sum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
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
