/* spmv kernels: y = A x, fp32, CSR (scalar or vector, long rows a block each)
 * and ELL.  Which one runs, with how many lanes a row: the plan (spmv.c,
 * gp_spmv_choose).
 *
 * Order of the fp32 additions (spmv.h's bound counts them):
 *   - every lane adds its share of the row serially, in index order, one FMA
 *     per nonzero (acc = fma(a_j, x_col(j), acc), acc starting at 0): lane l
 *     of a group of G takes j = start + l, + G, + 2G, ... (ceil(L / G) terms);
 *   - CSR vector: a butterfly (xor) over the G lanes, log2 G adds, every lane
 *     ending with the same bits;
 *   - a long row (a block of B threads): each wave's butterfly (log2 wave),
 *     then wave 0's butterfly over the wave totals, padded with zeros to a
 *     wave (log2 wave);
 *   - ELL: one thread a row, serially over its slots (padding skipped).
 * Nothing is added with atomics: the bits repeat from run to run.
 *
 * Memory: a lane loads `unroll` (U) columns and values before its first
 * gather, then the U gathers of x, then the U FMAs, so U x 8 bytes of the
 * matrix and then U x 4 of x are in flight per lane (the rule sizes U by
 * Little's law). */
#include "gp_device.h"
#include "runtime.h"
#include "spmv.h"

/* Launch bounds: blocks up to GP_SPMV_MAX_BLOCK (512) threads; on NVIDIA
 * four such blocks a SM (32 registers a thread: the occupancy the rule
 * assumes, SPMV_REGS in spmv_rule.c, checked against ptxas by
 * tests/build/rule_regs.txt).  HIP's second argument means something else
 * (waves per EU), so AMD gets the block bound alone (128 VGPRs on gfx9: no
 * scratch for 8-nonzero batches, which spill under 1024's 64). */
#if defined(GP_VENDOR_NVIDIA)
#define GP_SPMV_LB __launch_bounds__(GP_SPMV_MAX_BLOCK, 4)
#else
#define GP_SPMV_LB __launch_bounds__(GP_SPMV_MAX_BLOCK)
#endif

/* One lane's share of a row: elements start, start + stride, ... below end;
 * a column < 0 is ELL padding and adds nothing.  U at a time: all U columns
 * and values first, then the U gathers, then the FMAs in index order. */
template <int U>
static __device__ __forceinline__ float lane_dot(long long start, long long end, long long stride,
                                                 const int *__restrict__ col, const float *__restrict__ val,
                                                 const float *__restrict__ x)
{
    float acc = 0.0f;
    for (long long j = start; j < end; j += U * stride) {
        int c[U];
        float a[U], xv[U];
#pragma unroll
        for (int k = 0; k < U; k++) {
            const long long i = j + k * stride;
            c[k] = i < end ? col[i] : -1;
            a[k] = i < end ? val[i] : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < U; k++)
            xv[k] = c[k] >= 0 ? x[c[k]] : 0.0f;
#pragma unroll
        for (int k = 0; k < U; k++)
            if (c[k] >= 0)
                acc = fmaf(a[k], xv[k], acc);
    }
    return acc;
}

/* Butterfly over groups of G lanes (G a power of two up to the wave): every
 * lane of a group ends with the group's sum, the same bits (a + b = b + a). */
template <int G>
static __device__ __forceinline__ float group_sum(float v)
{
#pragma unroll
    for (int o = (G < GP_WAVE_SIZE ? G : GP_WAVE_SIZE) / 2; o > 0; o /= 2)
        v += gp_shfl_xor(v, o);
    return v;
}

/* Row r by the whole block (its long-row share); s_wave: a float per wave. */
template <int U>
static __device__ __forceinline__ void long_row(int r, const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                const float *__restrict__ val, const float *__restrict__ x,
                                                float *__restrict__ y, float *s_wave)
{
    const int lane = (int)(threadIdx.x % GP_WAVE_SIZE), wid = (int)(threadIdx.x / GP_WAVE_SIZE);
    const int nw = (int)(blockDim.x / GP_WAVE_SIZE);
    const long long s = row_ptr[r], e = row_ptr[r + 1];
    float acc = lane_dot<U>(s + threadIdx.x, e, blockDim.x, col, val, x);
    acc = group_sum<GP_WAVE_SIZE>(acc);
    if (lane == 0)
        s_wave[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float v = group_sum<GP_WAVE_SIZE>(lane < nw ? s_wave[lane] : 0.0f);
        if (lane == 0)
            y[r] = v;
    }
}

/* CSR.  Blocks 0..nlong-1: long_rows[b] by the whole block.  The others:
 * groups of TPR consecutive lanes, one row each (row = thread / TPR), rows
 * longer than long_min left to the first blocks.  No early return before
 * the butterfly: every lane of a wave takes part in the shuffles. */
template <int TPR, int U>
__global__ void GP_SPMV_LB gp_spmv_csr_kernel(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                                              const float *__restrict__ val, const float *__restrict__ x,
                                              float *__restrict__ y, const int *__restrict__ long_rows,
                                              unsigned nlong, long long long_min)
{
    __shared__ float s_wave[GP_SPMV_MAX_BLOCK / 32];
    if (blockIdx.x < nlong) { /* block-uniform */
        long_row<U>(long_rows[blockIdx.x], row_ptr, col, val, x, y, s_wave);
        return;
    }
    const long long t = (long long)(blockIdx.x - nlong) * blockDim.x + threadIdx.x;
    const long long r = t / TPR;
    const int lane = (int)(threadIdx.x % TPR);
    float acc = 0.0f;
    bool mine = false;
    if (r < rows) {
        const long long s = row_ptr[r], e = row_ptr[r + 1];
        if (e - s <= long_min) {
            mine = true;
            acc = lane_dot<U>(s + lane, e, TPR, col, val, x);
        }
    }
    if (TPR > 1)
        acc = group_sum<TPR>(acc);
    if (mine && lane == 0)
        y[r] = acc;
}

/* ELL, column-major (slot k of row r at k x rows + r): one thread a row. */
template <int U>
__global__ void GP_SPMV_LB gp_spmv_ell_kernel(int rows, int width, const int *__restrict__ ell_col,
                                              const float *__restrict__ ell_val, const float *__restrict__ x,
                                              float *__restrict__ y)
{
    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    y[r] = lane_dot<U>(r, r + (long long)width * rows, rows, ell_col, ell_val, x);
}

template <int TPR>
static void launch_csr_u(unsigned grid, int block, int unroll, int rows, const int *row_ptr, const int *col,
                         const float *val, const float *x, float *y, const int *long_rows, unsigned nlong,
                         long long long_min, hipStream_t st)
{
    switch (unroll) {
    case 1:
        gp_spmv_csr_kernel<TPR, 1><<<grid, block, 0, st>>>(rows, row_ptr, col, val, x, y, long_rows, nlong, long_min);
        break;
    case 2:
        gp_spmv_csr_kernel<TPR, 2><<<grid, block, 0, st>>>(rows, row_ptr, col, val, x, y, long_rows, nlong, long_min);
        break;
    case 4:
        gp_spmv_csr_kernel<TPR, 4><<<grid, block, 0, st>>>(rows, row_ptr, col, val, x, y, long_rows, nlong, long_min);
        break;
    default:
        gp_spmv_csr_kernel<TPR, 8><<<grid, block, 0, st>>>(rows, row_ptr, col, val, x, y, long_rows, nlong, long_min);
        break;
    }
}

/* 64 lanes a row exist only where a wave can be 64 (AMD; the plan never
 * asks for more lanes than the device's wave). */
#if defined(GP_VENDOR_NVIDIA)
#define GP_SPMV_WAVE64_HOST 0
#else
#define GP_SPMV_WAVE64_HOST 1
#endif

static int unroll_ok(int u) { return u == 1 || u == 2 || u == 4 || u == 8; }

static int block_ok(int block) { return block >= 64 && block <= GP_SPMV_MAX_BLOCK && !(block & (block - 1)); }

extern "C" gp_status gp_spmv_launch_csr(int rows, const int *row_ptr, const int *col, const float *val,
                                        const float *x, float *y, const int *long_rows, long long nlong,
                                        long long long_min, int tpr, int unroll, int block,
                                        gp_stream s)
{
    hipStream_t st = (hipStream_t)s;
    if (!unroll_ok(unroll) || !block_ok(block) || tpr < 1 || tpr > GP_SPMV_MAX_TPR || (tpr & (tpr - 1)))
        return gp_fail(GP_ERR_USAGE, "spmv csr: tpr %d, unroll %d, block %d not compiled", tpr, unroll, block);
    const long long groups = ((long long)rows * tpr + block - 1) / block;
    if (rows <= 0 || nlong < 0 || groups + nlong > 0x7fffffffll)
        return gp_fail(GP_ERR_USAGE, "spmv csr: %d rows x %d lanes and %lld long rows exceed one grid", rows, tpr,
                       nlong);
    const unsigned grid = (unsigned)(groups + nlong), nl = (unsigned)nlong;
    switch (tpr) {
    case 1: launch_csr_u<1>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
    case 2: launch_csr_u<2>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
    case 4: launch_csr_u<4>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
    case 8: launch_csr_u<8>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
    case 16: launch_csr_u<16>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
    case 32: launch_csr_u<32>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
#if GP_SPMV_WAVE64_HOST
    case 64: launch_csr_u<64>(grid, block, unroll, rows, row_ptr, col, val, x, y, long_rows, nl, long_min, st); break;
#endif
    default: return gp_fail(GP_ERR_USAGE, "spmv csr: %d lanes a row exceed the wave", tpr);
    }
    return gp_launch_status("spmv csr");
}

extern "C" gp_status gp_spmv_launch_ell(int rows, int width, const int *ell_col, const float *ell_val,
                                        const float *x, float *y, int unroll, int block,
                                        gp_stream s)
{
    hipStream_t st = (hipStream_t)s;
    if (!unroll_ok(unroll) || !block_ok(block) || rows <= 0 || width < 0)
        return gp_fail(GP_ERR_USAGE, "spmv ell: rows %d, width %d, unroll %d, block %d not compiled", rows, width,
                       unroll, block);
    const unsigned grid = (unsigned)(((long long)rows + block - 1) / block);
    switch (unroll) {
    case 1: gp_spmv_ell_kernel<1><<<grid, block, 0, st>>>(rows, width, ell_col, ell_val, x, y); break;
    case 2: gp_spmv_ell_kernel<2><<<grid, block, 0, st>>>(rows, width, ell_col, ell_val, x, y); break;
    case 4: gp_spmv_ell_kernel<4><<<grid, block, 0, st>>>(rows, width, ell_col, ell_val, x, y); break;
    default: gp_spmv_ell_kernel<8><<<grid, block, 0, st>>>(rows, width, ell_col, ell_val, x, y); break;
    }
    return gp_launch_status("spmv ell");
}
