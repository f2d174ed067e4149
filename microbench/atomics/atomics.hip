/* atomics kernels: atomicAdd throughput on global memory and LDS, int32 and
 * fp32, with no contention, a wave on one address, and a grid (or block) on
 * one address.  The return value is unused, as in a histogram; compilers may
 * then aggregate a wave's same-address adds into one (LLVM's AMDGPU atomic
 * optimizer, NVIDIA's compiler for uniform addresses): the measured rate is
 * what a program gets, and the counts are checked on the host either way. */
#include "gp_device.h"
#include "runtime.h"
#include "atomics.h"

static __device__ __forceinline__ size_t atom_index(int mode, size_t gid)
{
    switch (mode) {
    case GP_ATOM_SPREAD: return gid * GP_ATOM_LINE_ELEMS;
    case GP_ATOM_WAVE: return (gid / GP_WAVE_SIZE) * GP_ATOM_LINE_ELEMS;
    case GP_ATOM_ALL: return 0;
    default: return gid;
    }
}

template <typename T>
__global__ void gp_atom_global(T *counters, int mode, int iters, T one)
{
    size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T *p = counters + atom_index(mode, gid);
    for (int i = 0; i < iters; i++)
        atomicAdd(p, one);
}

template <typename T>
__global__ void gp_atom_lds(T *out, int mode, int iters, T one)
{
    extern __shared__ unsigned char gp_atom_smem[];
    T *s = (T *)gp_atom_smem;
    const unsigned t = threadIdx.x;
    s[t] = (T)0;
    __syncthreads();
    T *p = mode == GP_ATOM_SPREAD ? &s[t] : mode == GP_ATOM_WAVE ? &s[t / GP_WAVE_SIZE] : &s[0];
    for (int i = 0; i < iters; i++)
        atomicAdd(p, one);
    __syncthreads();
    /* The counts leave the block, so the adds are observable and checked. */
    out[(size_t)blockIdx.x * blockDim.x + t] = s[t];
}

extern "C" gp_status gp_atom_global_launch(gp_stream s, int is_float, int mode, unsigned grid, int block,
                                           void *counters, int iters)
{
    if (grid == 0 || block <= 0 || iters < 0 || mode < 0 || mode >= GP_ATOM_MODES)
        return gp_fail(GP_ERR_USAGE, "atomics: bad global launch (mode %d, grid %u, block %d)", mode, grid, block);
    if (is_float)
        gp_atom_global<float><<<grid, block, 0, (hipStream_t)s>>>((float *)counters, mode, iters, 1.0f);
    else
        gp_atom_global<int><<<grid, block, 0, (hipStream_t)s>>>((int *)counters, mode, iters, 1);
    return gp_launch_status("atomics global");
}

extern "C" gp_status gp_atom_lds_launch(gp_stream s, int is_float, int mode, unsigned grid, int block, void *out,
                                        int iters)
{
    if (grid == 0 || block <= 0 || iters < 0 || mode < 0 || mode > GP_ATOM_ALL)
        return gp_fail(GP_ERR_USAGE, "atomics: bad LDS launch (mode %d, grid %u, block %d)", mode, grid, block);
    size_t smem = (size_t)block * 4;
    if (is_float)
        gp_atom_lds<float><<<grid, block, smem, (hipStream_t)s>>>((float *)out, mode, iters, 1.0f);
    else
        gp_atom_lds<int><<<grid, block, smem, (hipStream_t)s>>>((int *)out, mode, iters, 1);
    return gp_launch_status("atomics LDS");
}
