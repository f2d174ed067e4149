/* scan's baseline: CUB's DeviceScan::InclusiveSum and ExclusiveSum (with
 * every CUDA toolkit). */
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "baseline_cuda.h"
#include "scan_vendor.h"

template <typename T>
static gp_status scan(const T *d_in, T *d_out, size_t n, int exclusive, void *d_tmp, size_t *tmp_bytes)
{
    if (n > (size_t)0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "CUB scan: %zu elements exceed the int range this wrapper passes", n);
    if (exclusive)
        return gp_cuda_status(cub::DeviceScan::ExclusiveSum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
                           "CUB DeviceScan::ExclusiveSum");
    return gp_cuda_status(cub::DeviceScan::InclusiveSum(d_tmp, *tmp_bytes, d_in, d_out, (int)n, (cudaStream_t)0),
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

