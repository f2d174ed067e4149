// Experiment (not part of the suite): can any access pattern push the H200's
// DRAM triad a = b + s*c past the probe's 87.7% of peak?  Standalone CUDA;
// build and run: nvcc -O3 -arch=sm_90 triad_variants.cu -o t && ./t
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void gridstride(float4 *a, const float4 *b, const float4 *c, float s, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}
template <int U>
__global__ void loads_first(float4 *a, const float4 *b, const float4 *c, float s, size_t n) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride * U) {
        float4 x[U], y[U];
#pragma unroll
        for (int u = 0; u < U; u++) if (i + u * stride < n) { x[u] = __ldcs(b + i + u * stride); y[u] = __ldcs(c + i + u * stride); }
#pragma unroll
        for (int u = 0; u < U; u++) if (i + u * stride < n)
            __stcs(a + i + u * stride, make_float4(x[u].x + s * y[u].x, x[u].y + s * y[u].y, x[u].z + s * y[u].z, x[u].w + s * y[u].w));
    }
}
// Each block streams its own contiguous chunk (many DRAM pages open at once).
__global__ void chunked(float4 *a, const float4 *b, const float4 *c, float s, size_t n) {
    size_t per = (n + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per, hi = min(n, lo + per);
    for (size_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
        float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}
// Warp-chunked: each warp streams 2 KiB contiguous segments (one HBM page?) in turn.
__global__ void warpseg(float4 *a, const float4 *b, const float4 *c, float s, size_t n) {
    const int SEG = 128; // float4 per segment = 2 KiB
    size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32, nw = (size_t)gridDim.x * blockDim.x / 32;
    int lane = threadIdx.x & 31;
    for (size_t seg = warp; seg * SEG < n; seg += nw) {
        float4 x[4], y[4];
#pragma unroll
        for (int u = 0; u < 4; u++) { size_t i = seg * SEG + u * 32 + lane; if (i < n) { x[u] = b[i]; y[u] = c[i]; } }
#pragma unroll
        for (int u = 0; u < 4; u++) { size_t i = seg * SEG + u * 32 + lane; if (i < n) a[i] = make_float4(x[u].x + s * y[u].x, x[u].y + s * y[u].y, x[u].z + s * y[u].z, x[u].w + s * y[u].w); }
    }
}

int main() {
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int busw, memclk; CK(cudaDeviceGetAttribute(&busw, cudaDevAttrGlobalMemoryBusWidth, 0));
    CK(cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, 0));
    double peak = busw / 8.0 * memclk * 1e3 * 2 / 1e9;
    size_t bytes = (size_t)1 << 30, n = bytes / 16;
    float4 *a, *b, *c; CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&c, bytes));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0, bytes)); CK(cudaMemset(c, 0, bytes));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    printf("peak %.0f GB/s, 3 x %zu MiB\n", peak, bytes >> 20);
    auto run = [&](const char *name, auto launch) {
        std::vector<float> t;
        for (int r = 0; r < 23; r++) {
            CK(cudaEventRecord(e0)); launch(); CK(cudaGetLastError()); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 3) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        double gbs = 3.0 * bytes / (t[t.size() / 2] * 1e-3) / 1e9;
        printf("%-40s median %.3f ms  %.0f GB/s  %.1f%% of peak  (min %.3f max %.3f)\n", name, t[t.size() / 2], gbs, 100 * gbs / peak, t[0], t.back());
    };
    for (int bps : {2, 4, 8}) {
        char nm[64]; snprintf(nm, 64, "gridstride 256x%d/SM", bps);
        run(nm, [&] { gridstride<<<sms * bps, 256>>>(a, b, c, 3.f, n); });
    }
    run("gridstride 1024x2/SM", [&] { gridstride<<<sms * 2, 1024>>>(a, b, c, 3.f, n); });
    run("gridstride one pass (n/256 blocks)", [&] { gridstride<<<(unsigned)(n / 256), 256>>>(a, b, c, 3.f, n); });
    run("loads_first<2> cs 256x4/SM", [&] { loads_first<2><<<sms * 4, 256>>>(a, b, c, 3.f, n); });
    run("loads_first<4> cs 256x4/SM", [&] { loads_first<4><<<sms * 4, 256>>>(a, b, c, 3.f, n); });
    run("loads_first<4> cs 256x8/SM", [&] { loads_first<4><<<sms * 8, 256>>>(a, b, c, 3.f, n); });
    run("chunked 256x4/SM", [&] { chunked<<<sms * 4, 256>>>(a, b, c, 3.f, n); });
    run("chunked 1024x2/SM", [&] { chunked<<<sms * 2, 1024>>>(a, b, c, 3.f, n); });
    run("warpseg 2KiB 256x8/SM", [&] { warpseg<<<sms * 8, 256>>>(a, b, c, 3.f, n); });
    run("warpseg 2KiB 512x4/SM", [&] { warpseg<<<sms * 4, 512>>>(a, b, c, 3.f, n); });
    run("cudaMemcpy D2D (2 x bytes, scaled x1.5)", [&] { CK(cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice)); CK(cudaMemcpyAsync(b, c, bytes / 2, cudaMemcpyDeviceToDevice)); });
    return 0;
}
