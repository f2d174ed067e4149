// Shared by the stencil experiments (stencil_variants.cu, stencil_async.cu, stencil_rows.cu):
// the problem (integers in -8..8 with c0 = -6, c1 = 1, exact in fp32 in any
// order), its CPU reference, the check of a poisoned output point by point,
// the suite's z split and the set-up of the cube and the device copy every
// variant is timed against.  Header only, standalone CUDA.
#ifndef GP_EXPERIMENTS_STENCIL_COMMON_H
#define GP_EXPERIMENTS_STENCIL_COMMON_H
#include "abba.h"

struct Args { int nx, ny, nz, zper; float c0, c1; };

// The 7-point update of a thread's 4 points (border points keep their value).
__device__ __forceinline__ float4 update4(float4 cur, float4 below, float4 above, float4 n, float4 s, float l, float r,
                                          bool zin, int gx, const Args &a)
{
    const float c[4] = {cur.x, cur.y, cur.z, cur.w};
    const float xm[4] = {l, cur.x, cur.y, cur.z}, xp[4] = {cur.y, cur.z, cur.w, r};
    const float ym[4] = {n.x, n.y, n.z, n.w}, yp[4] = {s.x, s.y, s.z, s.w};
    const float zm[4] = {below.x, below.y, below.z, below.w}, zp[4] = {above.x, above.y, above.z, above.w};
    float o[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const bool in_pt = zin && gx + k >= 1 && gx + k <= a.nx - 2;
        const float sum = ((xm[k] + xp[k]) + (ym[k] + yp[k])) + (zm[k] + zp[k]);
        o[k] = in_pt ? a.c0 * c[k] + a.c1 * sum : c[k];
    }
    return make_float4(o[0], o[1], o[2], o[3]);
}

// The z march's step to the next plane, shared by the shared-memory
// variants: the current plane becomes the one below, the queue moves up one.
template <typename T, int AHEAD>
__device__ __forceinline__ void next_plane(T &below, T &cur, T (&qc)[AHEAD], T (&qh)[AHEAD], const T &nc, const T &nh)
{
    below = cur;
    cur = qc[0];
#pragma unroll
    for (int k = 0; k + 1 < AHEAD; k++) qc[k] = qc[k + 1], qh[k] = qh[k + 1];
    qc[AHEAD - 1] = nc;
    qh[AHEAD - 1] = nh;
}

struct Halo { int kind, x, y; };
__device__ __forceinline__ Halo halo_of(int t, int tx, int ty)
{
    Halo h = {-1, 0, 0};
    if (t < tx) h = {0, 4 * t, -1};
    else if (t < 2 * tx) h = {1, 4 * (t - tx), ty};
    else if (t < 2 * tx + ty) h = {2, -1, t - 2 * tx};
    else if (t < 2 * tx + 2 * ty) h = {3, 4 * tx, t - 2 * tx - ty};
    return h;
}

static void cpu_stencil(const std::vector<float> &in, std::vector<float> &out, int n, float c0, float c1)
{
    const size_t nx = n, pl = (size_t)n * n;
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                const size_t i = z * pl + y * nx + x;
                out[i] = x >= 1 && x <= n - 2 && y >= 1 && y <= n - 2 && z >= 1 && z <= n - 2
                             ? c0 * in[i] + c1 * (((in[i - 1] + in[i + 1]) + (in[i - nx] + in[i + nx])) + (in[i - pl] + in[i + pl]))
                             : in[i];
            }
}

// The suite's z split: c chunks of ceil(nz / c) planes cost ceil(T c / R)
// rounds of (ceil(nz / c) + 2) planes; the least cost, ties to fewer chunks.
static int z_chunks(int tiles, int resident, int nz)
{
    int best = 1;
    long best_cost = -1;
    for (int c = 1; c <= nz; c++) {
        const long rounds = ((long)tiles * c + resident - 1) / resident, cost = rounds * ((nz + c - 1) / c + 2);
        if (best_cost < 0 || cost < best_cost) best = c, best_cost = cost;
    }
    return best;
}

static int N = 512;
static float *d_in, *d_out, *d_cp;
static std::vector<float> ref, got;

static const char *check(const launch_fn &f)
{
    const size_t n = (size_t)N * N * N;
    poison(d_out, n * 4);
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (!(got[i] == ref[i])) {
            static char msg[96];
            snprintf(msg, sizeof msg, "WRONG at (%zu,%zu,%zu): %g not %g", i % N, i / N % N, i / ((size_t)N * N), got[i], ref[i]);
            return msg;
        }
    return "ok (exact)";
}

// Reads argv (rounds, the cube's edge), prints the header line `what`, makes
// the data, its reference and the device buffers, prints the table's header
// and the copy timed against itself; returns the copy of the same bytes (the
// reference every variant is timed against), or exits.
static launch_fn stencil_setup(int argc, char **argv, const char *what, int *rounds, Args *a0)
{
    *rounds = abba_rounds(argc, argv);
    if (argc > 2) N = atoi(argv[2]);
    if (N < 8 || N % 4) { printf("edge %d: need a multiple of 4, >= 8\n", N); exit(2); }
    const size_t n = (size_t)N * N * N, bytes = n * 4;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s on %s (%d SMs, L2 %d MiB), %d^3 fp32 (%.1f MB in, as much out), %d ABBA rounds each\n", what, p.name,
           p.multiProcessorCount, p.l2CacheSize >> 20, N, bytes * 1e-6, *rounds);
    std::vector<float> h(n);
    ref.resize(n), got.resize(n);
    unsigned x = 777;
    for (auto &v : h) { x = x * 1664525u + 1013904223u; v = (float)((int)(x >> 27) - 8); }
    const float c0 = -6.0f, c1 = 1.0f;
    cpu_stencil(h, ref, N, c0, c1);
    CK(cudaMalloc(&d_in, bytes)); CK(cudaMalloc(&d_out, bytes)); CK(cudaMalloc(&d_cp, bytes));
    CK(cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice));
    *a0 = {N, N, N, N, c0, c1};
    const launch_fn copy = [=] { CK(cudaMemcpyAsync(d_cp, d_in, bytes, cudaMemcpyDeviceToDevice)); };
    abba_header("device copy of the same bytes");
    abba_row("device copy (self)", copy, copy, *rounds, "-");
    return copy;
}

// Launch config of a tiled variant: grid over tiles of tw x th points, z split
// from the occupancy of `kernel` at `threads` and `lds` bytes (the suite's
// gp_stencil_z_chunks), or `zforce` chunks; *per_sm gets the blocks an SM
// holds.  The grid's z is ceil(N / zper), as the suite launches it.
template <typename K>
static dim3 tiled_grid(K kernel, int tw, int th, int threads, size_t lds, int *zper, int zforce = 0, int *per_sm = nullptr)
{
    int blocks = 0, sms = 0;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)lds));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, lds));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int tx = (N + tw - 1) / tw, ty = (N + th - 1) / th;
    const int c = zforce ? zforce : z_chunks(tx * ty, std::max(1, blocks) * sms, N);
    *zper = (N + c - 1) / c;
    if (per_sm) *per_sm = blocks;
    return dim3(tx, ty, (N + *zper - 1) / *zper);
}
#endif
