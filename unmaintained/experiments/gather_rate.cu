// Experiment (not part of the suite): how fast can a GPU gather random 4-byte
// floats from an L2-resident array, the x of spmv (16 MB: 4 Mi floats, the
// bench's power-law and uniform matrices' x)?  That rate is spmv's gather
// floor (docs/kernels/spmv.md, "Bench").  Four kernels, the same count of
// 4-byte loads each, indices precomputed on the host and read coalesced with
// evict-first loads (so they stream past L2 and leave x in it):
//   stream idx:   the index array alone (DRAM streaming, 4 B a load);
//   stream x:     x read coalesced, over and over (L2 streaming, 4 B a load);
//   gather:       x[idx[i]], idx uniform random over x;
//   gather runs:  each lane its own run of RUN sorted random columns (an
//                 spmv row at one lane a row), laid out so a warp's index
//                 loads stay coalesced (entry k of lane t at k x lanes + t).
// Rates in G loads/s and in 32-byte sectors/s (a warp's load counts the
// distinct sectors its 32 lanes touch, counted on the host), cudaEvent timing,
// REPS timed launches after a warm-up, median and p10-p90.
// Standalone CUDA; build and run: nvcc -O3 -arch=sm_90 gather_rate.cu -o g && ./g
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static const int NX = 1 << 22;       // x: 4 Mi floats, 16 MB (L2-resident on an H100/H200)
static const long long M = 1ll << 26; // loads a launch (the index array: 256 MB, streamed from DRAM)
static const int RUN = 12;           // a run: spmv's power-law mean row (11.5)
static const int REPS = 25, BLOCK = 256;

// Sum of in[i] (stream idx: the indices themselves; evict-first).
__global__ void stream_idx(const int *__restrict__ idx, long long n, float *out)
{
    float acc = 0;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, s = (long long)gridDim.x * blockDim.x;
#pragma unroll 4
    for (; i < n; i += s)
        acc += (float)__ldcs(idx + i);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// x read coalesced n times over (i mod NX): L2 hits once x is warm.
__global__ void stream_x(const float *__restrict__ x, long long n, float *out)
{
    float acc = 0;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, s = (long long)gridDim.x * blockDim.x;
#pragma unroll 4
    for (; i < n; i += s)
        acc += __ldg(x + (i & (NX - 1)));
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// x[idx[i]] for every i (gather; the runs' layout uses the same kernel: lane
// t of the grid meets entries t, t + s, t + 2s, ..., one run when s = lanes).
__global__ void gather(const float *__restrict__ x, const int *__restrict__ idx, long long n, float *out)
{
    float acc = 0;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, s = (long long)gridDim.x * blockDim.x;
#pragma unroll 4
    for (; i < n; i += s)
        acc += __ldg(x + __ldcs(idx + i));
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static double q(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[(size_t)(p * (double)(v.size() - 1) + 0.5)];
}

// Distinct 32-byte sectors of x each warp's load touches (32 consecutive
// entries of the index array: what one warp-wide load instruction asks for).
static long long sectors_of(const std::vector<int> &idx)
{
    long long total = 0;
    for (size_t w = 0; w < idx.size(); w += 32) {
        int s[32], n = 0;
        for (size_t l = w; l < w + 32 && l < idx.size(); l++)
            s[n++] = idx[l] >> 3;
        std::sort(s, s + n);
        total += std::unique(s, s + n) - s;
    }
    return total;
}

template <class F>
static void timed(const char *name, long long sectors, F launch)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    launch(); // warm-up: x into L2, clocks up
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> ms;
    for (int r = 0; r < REPS; r++) {
        float t = 0;
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
    }
    double md = q(ms, 0.5), lo = q(ms, 0.1), hi = q(ms, 0.9);
    // p10 of the time is p90 of the rate and back.
    printf("%-13s %8.4f ms (%.4f-%.4f)  %7.1f G loads/s (%.1f-%.1f)  %7.1f G sectors/s (%.1f-%.1f)\n", name, md, lo,
           hi, M / md / 1e6, M / hi / 1e6, M / lo / 1e6, sectors / md / 1e6, sectors / hi / 1e6, sectors / lo / 1e6);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather, BLOCK, 0));
    const int grid = prop.multiProcessorCount * per_sm;
    const long long lanes = (long long)grid * BLOCK;
    printf("%s: %d SMs, L2 %d MB, x %d MB, %lld loads a launch, %d blocks of %d, %d reps\n", prop.name,
           prop.multiProcessorCount, prop.l2CacheSize >> 20, NX * 4 >> 20, M, grid, BLOCK, REPS);

    // Random indices; and the runs: lane t's RUN entries sorted, at k x lanes + t.
    std::vector<int> rnd(M), runs(M);
    unsigned long long st = 88172645463325252ull;
    for (long long i = 0; i < M; i++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        rnd[i] = (int)(st % NX);
    }
    // Lane t of the grid meets entries t + j x lanes; consecutive groups of
    // RUN of those (j = RUN c .. RUN c + RUN - 1) are its runs, each sorted.
    runs = rnd;
    std::vector<int> tmp(RUN);
    for (long long t = 0; t < lanes; t++)
        for (long long j0 = 0; t + (j0 + RUN - 1) * lanes < M; j0 += RUN) {
            for (int k = 0; k < RUN; k++)
                tmp[k] = runs[t + (j0 + k) * lanes];
            std::sort(tmp.begin(), tmp.end());
            for (int k = 0; k < RUN; k++)
                runs[t + (j0 + k) * lanes] = tmp[k];
        }

    float *x, *out;
    int *d_rnd, *d_runs;
    CK(cudaMalloc(&x, NX * sizeof(float)));
    CK(cudaMalloc(&out, lanes * sizeof(float)));
    CK(cudaMalloc(&d_rnd, M * sizeof(int)));
    CK(cudaMalloc(&d_runs, M * sizeof(int)));
    std::vector<float> hx(NX);
    for (int i = 0; i < NX; i++)
        hx[i] = (float)(i % 7) - 3.0f;
    CK(cudaMemcpy(x, hx.data(), NX * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_rnd, rnd.data(), M * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_runs, runs.data(), M * sizeof(int), cudaMemcpyHostToDevice));

    timed("stream idx", M / 8, [&] { stream_idx<<<grid, BLOCK>>>(d_rnd, M, out); });
    timed("stream x", M / 8, [&] { stream_x<<<grid, BLOCK>>>(x, M, out); });
    timed("gather", sectors_of(rnd), [&] { gather<<<grid, BLOCK>>>(x, d_rnd, M, out); });
    timed("gather runs", sectors_of(runs), [&] { gather<<<grid, BLOCK>>>(x, d_runs, M, out); });
    printf("(gathers also stream their indices: 4 B a load from DRAM, the 'stream idx' row; spmv streams 8 B a "
           "nonzero of matrix besides)\n");
    CK(cudaFree(x));
    CK(cudaFree(out));
    CK(cudaFree(d_rnd));
    CK(cudaFree(d_runs));
    return 0;
}
