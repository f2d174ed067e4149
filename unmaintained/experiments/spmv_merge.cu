// Experiment (not part of the suite): does a balanced split of the nonzeros
// lift spmv on the bench's power-law matrix (kernels/spmv: CSR with 8 lanes a
// row, 0.92x cuSPARSE on the H200, 0.82 of the gather floor)?  The uniform
// matrix, whose waves are even, reaches 0.94 of that floor; a row-binned plan
// lost because its permutation scattered the matrix stream.  Here every wave
// keeps its rows contiguous:
//
//   csr8 uU    the suite's vector CSR scheme written again (8 lanes a row, U
//              loads in flight a lane; rows past 128 nonzeros a whole block,
//              first), in blocks of 128; not the suite's code, and slower
//              than it (0.87x cuSPARSE here, the suite's 0.92x in its bench)
//   range IxU  the host plan cuts the rows into contiguous ranges of about I
//              rows + nonzeros each (rows past LONG nonzeros a block of
//              their own, first in the launch); a warp takes a range and
//              walks its nonzeros 32 at a time, coalesced, U chunks of 32 in
//              flight, finds each nonzero's row in the range's row pointers
//              (in LDS, binary search), and adds the products by row with a
//              segmented scan over the lanes; a row that crosses chunks
//              carries its sum in registers.  Every lane busy whatever the
//              row lengths, the matrix read once in order.
//
// The matrix: P(L >= l) = (4 / l)^1.5 cut at 65 536, 4 Mi x 4 Mi, random
// sorted columns (the bench's law; spmv_ref.c), values and x small integers in
// -4..4 so every sum is exact in any order: every output must equal
// cuSPARSE's (CSR, ALG_DEFAULT, after cusparseSpMV_preprocess) bit for bit,
// on a poisoned y.  Timing paired A B B A against cuSPARSE (abba.h).
// Build and run (argv[1] = ABBA rounds):
//   nvcc -O3 -std=c++17 -arch=sm_90 spmv_merge.cu -lcusparse -o sm && ./sm 30
#include "abba.h"
#include <cstring>
#include <cusparse.h>
#include <random>

#define CS(x) do { cusparseStatus_t s_ = (x); if (s_ != CUSPARSE_STATUS_SUCCESS) { printf("%s:%d %s: %d\n", __FILE__, __LINE__, #x, (int)s_); exit(1); } } while (0)

static const int ROWS = 1 << 22, LMIN = 4, CUT = 65536;
static const double ALPHA = 1.5;
// The most rows a range holds (its row pointers in LDS: range_k's RMAX).
static const int RANGE_ROWS = 256;

// acc plus the products of nonzeros k, k + S, ..., k + (U - 1) S that lie
// below e: the U columns and values loaded first, then the U gathers of x,
// so U of each are in flight a lane.
template <int U, int S>
__device__ __forceinline__ float fma_strided(const int *__restrict__ col, const float *__restrict__ val,
                                             const float *__restrict__ x, int k, int e, float acc)
{
    int c[U];
    float v[U], xv[U];
#pragma unroll
    for (int u = 0; u < U; u++) c[u] = k + u * S < e ? col[k + u * S] : -1;
#pragma unroll
    for (int u = 0; u < U; u++) v[u] = c[u] >= 0 ? val[k + u * S] : 0.f;
#pragma unroll
    for (int u = 0; u < U; u++) xv[u] = c[u] >= 0 ? __ldg(x + c[u]) : 0.f;
#pragma unroll
    for (int u = 0; u < U; u++) acc = fmaf(v[u], xv[u], acc);
    return acc;
}

// The pairwise sum of p[0 .. N), N a power of two: ((p0 + p1) + (p2 + p3)) ...
template <int N> __device__ __forceinline__ float tree_sum(const float *p)
{
    if constexpr (N == 1) return p[0];
    else return tree_sum<N / 2>(p) + tree_sum<N / 2>(p + N / 2);
}

// Row r by a whole block of T threads, U nonzeros a thread in flight: each
// warp's butterfly, then thread 0 adds the warps' sums pairwise into y[r].
// part: T / 32 floats of LDS.
template <int T, int U>
__device__ void block_row(const int *__restrict__ rp, const int *__restrict__ col, const float *__restrict__ val,
                          const float *__restrict__ x, float *__restrict__ y, int r, float *part)
{
    const int s = rp[r], e = rp[r + 1];
    float acc = 0;
    for (int k = s + threadIdx.x; k < e; k += T * U) acc = fma_strided<U, T>(col, val, x, k, e, acc);
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(~0u, acc, o);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) y[r] = tree_sum<T / 32>(part);
}

// ---- the suite's vector CSR, G lanes a row (G = 8), U loads a lane.
template <int G, int U>
__global__ void __launch_bounds__(128) csr_vec(const int *__restrict__ rp, const int *__restrict__ col,
                                               const float *__restrict__ val, const float *__restrict__ x,
                                               float *__restrict__ y, int rows, const int *__restrict__ longr, int nlong)
{
    __shared__ float part[4];
    if ((int)blockIdx.x < nlong) { // a long row, a whole block, one nonzero a thread at a time
        block_row<128, 1>(rp, col, val, x, y, longr[blockIdx.x], part);
        return;
    }
    const int t = (blockIdx.x - nlong) * 128 + threadIdx.x, r = t / G, l = t % G;
    float acc = 0;
    if (r < rows) {
        const int s = rp[r], e = rp[r + 1];
        if (e - s <= 128)
            for (int k = s + l; k < e; k += G * U) acc = fma_strided<U, G>(col, val, x, k, e, acc);
    }
#pragma unroll
    for (int o = G / 2; o; o >>= 1) acc += __shfl_xor_sync(~0u, acc, o);
    if (r < rows && l == 0 && rp[r + 1] - rp[r] <= 128) y[r] = acc;
}

// ---- ranges: a warp a range of contiguous rows; long rows a block each.
// A range holds at most RMAX rows (its row pointers in LDS).
template <int U, int RMAX>
__global__ void __launch_bounds__(256) range_k(const int *__restrict__ rp, const int *__restrict__ col,
                                               const float *__restrict__ val, const float *__restrict__ x,
                                               float *__restrict__ y, const int2 *__restrict__ ranges, int nranges,
                                               const int *__restrict__ longr, int nlong)
{
    __shared__ int srp[8][RMAX + 1];
    __shared__ float part[8];
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    if ((int)blockIdx.x < nlong) { // a long row, a whole block of 256
        block_row<256, U>(rp, col, val, x, y, longr[blockIdx.x], part);
        return;
    }
    const int g = (blockIdx.x - nlong) * 8 + w;
    if (g >= nranges) return;
    const int r0 = ranges[g].x, r1 = ranges[g].y, nr = r1 - r0;
    int *p = srp[w];
    for (int j = lane; j <= nr; j += 32) p[j] = rp[r0 + j];
    __syncwarp();
    // Empty rows have no nonzero to end them: written here.
    for (int j = lane; j < nr; j += 32)
        if (p[j] == p[j + 1]) y[r0 + j] = 0.f;
    const int k0 = p[0], k1 = p[nr];
    int carry_row = -1;
    float carry = 0.f;
    for (int c0 = k0; c0 < k1; c0 += 32 * U) {
        float prod[U];
        int cc[U];
#pragma unroll
        for (int u = 0; u < U; u++) cc[u] = c0 + u * 32 + lane < k1 ? col[c0 + u * 32 + lane] : -1;
#pragma unroll
        for (int u = 0; u < U; u++) prod[u] = cc[u] >= 0 ? val[c0 + u * 32 + lane] : 0.f;
#pragma unroll
        for (int u = 0; u < U; u++) prod[u] = cc[u] >= 0 ? prod[u] * __ldg(x + cc[u]) : 0.f;
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int k = c0 + u * 32 + lane;
            if (c0 + u * 32 >= k1) break; // warp-uniform
            // The row of nonzero k: the last j with p[j] <= k (rows past the range's end for k >= k1).
            int lo = 0, hi = nr - 1;
            while (lo < hi) {
                const int mid = (lo + hi + 1) >> 1;
                if (p[mid] <= k) lo = mid; else hi = mid - 1;
            }
            const int row = k < k1 ? lo : nr; // lanes past the end: a row of their own
            float s = prod[u];
            if (lane == 0 && row == carry_row) s += carry;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                const float o = __shfl_up_sync(~0u, s, d);
                const int orow = __shfl_up_sync(~0u, row, d);
                if (lane >= d && orow == row) s += o;
            }
            const int next_row = __shfl_down_sync(~0u, row, 1);
            const bool tail = lane == 31 || next_row != row;
            if (k < k1 && tail && k + 1 == p[row + 1]) y[r0 + row] = s; // the row ends here
            carry_row = __shfl_sync(~0u, row, 31);
            carry = __shfl_sync(~0u, s, 31);
        }
    }
}

int main(int argc, char **argv)
{
    const int rounds = abba_rounds(argc, argv);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    // The matrix.
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> U01(0.0, 1.0);
    std::vector<int> rp(ROWS + 1, 0);
    for (int r = 0; r < ROWS; r++) {
        double l = floor(LMIN * pow(1.0 - U01(rng), -1.0 / ALPHA));
        rp[r + 1] = rp[r] + (l > CUT ? CUT : (int)l);
    }
    const int nnz = rp[ROWS];
    std::vector<int> col(nnz);
    std::vector<float> val(nnz), xh(ROWS);
    for (int r = 0; r < ROWS; r++) {
        for (int k = rp[r]; k < rp[r + 1]; k++) col[k] = (int)(rng() % ROWS);
        std::sort(col.begin() + rp[r], col.begin() + rp[r + 1]);
    }
    for (auto &v : val) v = (float)((int)(rng() % 9) - 4);
    for (auto &v : xh) v = (float)((int)(rng() % 9) - 4);
    printf("# spmv on %s (%d SMs): power-law (4/l)^1.5 cut 65536, %d rows, %d nonzeros (%.1f MB of CSR), %d ABBA rounds\n",
           prop.name, prop.multiProcessorCount, ROWS, nnz, (nnz * 8.0 + (ROWS + 1) * 4.0) * 1e-6, rounds);

    int *d_rp, *d_col;
    float *d_val, *d_x, *d_y, *d_ref;
    CK(cudaMalloc(&d_rp, (ROWS + 1) * 4)); CK(cudaMalloc(&d_col, (size_t)nnz * 4)); CK(cudaMalloc(&d_val, (size_t)nnz * 4));
    CK(cudaMalloc(&d_x, ROWS * 4)); CK(cudaMalloc(&d_y, ROWS * 4)); CK(cudaMalloc(&d_ref, ROWS * 4));
    CK(cudaMemcpy(d_rp, rp.data(), (ROWS + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, col.data(), (size_t)nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_val, val.data(), (size_t)nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, xh.data(), ROWS * 4, cudaMemcpyHostToDevice));

    // cuSPARSE, the reference and the baseline.
    cusparseHandle_t h;
    CS(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    CS(cusparseCreateCsr(&A, ROWS, ROWS, nnz, d_rp, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CS(cusparseCreateDnVec(&X, ROWS, d_x, CUDA_R_32F));
    CS(cusparseCreateDnVec(&Y, ROWS, d_ref, CUDA_R_32F));
    const float one = 1.f, zero = 0.f;
    size_t ws = 0;
    void *d_ws = nullptr;
    CS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &ws));
    CK(cudaMalloc(&d_ws, ws ? ws : 1));
    CS(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_ws));
    const launch_fn ref = [&] { CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_ws)); };
    poison(d_ref, ROWS * 4);
    ref();
    CK(cudaDeviceSynchronize());
    std::vector<float> want(ROWS), got(ROWS);
    CK(cudaMemcpy(want.data(), d_ref, ROWS * 4, cudaMemcpyDeviceToHost));
    auto check = [&](const launch_fn &f) -> const char * {
        poison(d_y, ROWS * 4);
        f();
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), d_y, ROWS * 4, cudaMemcpyDeviceToHost));
        for (int r = 0; r < ROWS; r++)
            if (!(got[r] == want[r])) {
                static char m[96];
                snprintf(m, sizeof m, "WRONG row %d (%d nz): %g not %g", r, rp[r + 1] - rp[r], got[r], want[r]);
                return m;
            }
        return "ok (exact)";
    };
    abba_header("cuSPARSE");
    abba_row("cuSPARSE (self)", ref, ref, rounds, "-");

    // csr8: long rows (> 128) a block each, first.
    {
        std::vector<int> lr;
        for (int r = 0; r < ROWS; r++) if (rp[r + 1] - rp[r] > 128) lr.push_back(r);
        int *d_lr;
        CK(cudaMalloc(&d_lr, lr.size() * 4 + 4));
        CK(cudaMemcpy(d_lr, lr.data(), lr.size() * 4, cudaMemcpyHostToDevice));
        const int nl = (int)lr.size(), blocks = nl + (ROWS * 8 + 127) / 128;
        const launch_fn f = [=] { csr_vec<8, 4><<<blocks, 128>>>(d_rp, d_col, d_val, d_x, d_y, ROWS, d_lr, nl); };
        abba_row("csr8 u4 (the suite's scheme)", f, ref, rounds, check(f));
    }
    // ranges of about I items (rows + nonzeros), rows past LONG a block each.
    auto ranges_row = [&](int items, int longmin, auto kernel, const char *name) {
        std::vector<int> lr;
        std::vector<int2> rg;
        int r = 0;
        while (r < ROWS) {
            if (rp[r + 1] - rp[r] > longmin) { lr.push_back(r++); continue; }
            int e = r, it = 0;
            while (e < ROWS && rp[e + 1] - rp[e] <= longmin && e - r < RANGE_ROWS && (e == r || it + 1 + rp[e + 1] - rp[e] <= items))
                it += 1 + rp[e + 1] - rp[e], e++;
            rg.push_back(make_int2(r, e));
            r = e;
        }
        int *d_lr;
        int2 *d_rg;
        CK(cudaMalloc(&d_lr, lr.size() * 4 + 4)); CK(cudaMalloc(&d_rg, rg.size() * 8));
        CK(cudaMemcpy(d_lr, lr.data(), lr.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_rg, rg.data(), rg.size() * 8, cudaMemcpyHostToDevice));
        const int nl = (int)lr.size(), nr = (int)rg.size(), blocks = nl + (nr + 7) / 8;
        const launch_fn f = [=] { kernel<<<blocks, 256>>>(d_rp, d_col, d_val, d_x, d_y, d_rg, nr, d_lr, nl); };
        char nm[96];
        snprintf(nm, sizeof nm, "%s items %d long %d (%d ranges)", name, items, longmin, nr);
        abba_row(nm, f, ref, rounds, check(f));
    };
    // Every setting of the record's two calls (docs/reports/h200/2026-11-29/spmv_ranges.md).
    ranges_row(256, 1024, range_k<2, RANGE_ROWS>, "range u2");
    ranges_row(256, 1024, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(512, 1024, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(128, 1024, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(512, 512, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(512, 256, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(1024, 512, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(512, 512, range_k<8, RANGE_ROWS>, "range u8");
    ranges_row(1024, 1024, range_k<8, RANGE_ROWS>, "range u8");
    ranges_row(256, 256, range_k<2, RANGE_ROWS>, "range u2");
    ranges_row(256, 4096, range_k<4, RANGE_ROWS>, "range u4");
    ranges_row(512, 4096, range_k<8, RANGE_ROWS>, "range u8");
    return 0;
}
