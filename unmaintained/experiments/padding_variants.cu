// Experiment (not part of the suite): what keeps the zero padding of NCHW fp32
// (kernels/padding) at 0.88 of the device copy of the same bytes on
// the H200, and does staging whole planes through shared memory close it?
//
// The bytes: padding reads 4 N C H W and writes 4 N C Ho Wo (7x7 + 3 -> 13x13:
// 206 MB read, 709 MB written, 22 % reads); the copy it is judged against
// moves (in + out) / 2 each way (50 % reads).  So two references besides the
// copy: `memset out` (the writes alone) and `mix` (a flat 16-byte kernel that
// reads the input once and writes the output once, the padding's exact mix of
// bytes with no index math: the best any padding kernel can do on this
// memory).  If `mix` itself is below 0.90 of the copy, the figure measures
// the read/write mix, not the kernel.
//
// Variants:
//   flat8, flat16   the suite's kernel (padding.hip): output cut in 16-byte
//                   groups, block-strided, gathered 4-byte input loads
//   staged P/B      a block owns P whole planes: their input is contiguous, so
//                   it is read with 16-byte loads into shared memory (all
//                   issued before one barrier), and the P planes' output,
//                   contiguous too, is written with 16-byte stores built from
//                   shared (zeros outside): every global access full-width
//   staged P/B cs   the same with streaming (evict-first) stores
// Every output is poisoned first and checked element by element against a
// CPU reference.  Build and run (argv[1] = ABBA rounds, default 30):
//   nvcc -O3 -std=c++17 -arch=sm_90 padding_variants.cu -o pv && ./pv 60
#include "abba.h"
#include <cstring>

struct Shape { int n, c, h, w, top, bottom, left, right; };
static int ho(const Shape &s) { return s.h + s.top + s.bottom; }
static int wo(const Shape &s) { return s.w + s.left + s.right; }

// Division by a run-time constant (kernels/kdiv.h, Granlund-Montgomery round-up).
struct Kdiv { unsigned long long mul; unsigned shift; };
static Kdiv kdivider(unsigned d)
{
    unsigned s = 0;
    while (s < 31 && (2u << s) <= d) s++;
    Kdiv r;
    r.mul = ((1ull << (32 + s)) + d - 1) / d;
    r.shift = 32 + s;
    return r;
}
__device__ __forceinline__ unsigned kdiv(unsigned x, Kdiv d) { return (unsigned)(((unsigned long long)x * d.mul) >> d.shift); }

struct Args { unsigned total, h, w, ho, wo, howo, planes; int top, left; Kdiv by_howo, by_wo; };

// The suite's kernel (one launch: the experiment's totals are below 2^31).
template <int VEC>
__global__ void __launch_bounds__(1024) flat_k(const float *__restrict__ in, float *__restrict__ out, Args a)
{
    const int G = VEC / 4;
    const unsigned base = blockIdx.x * blockDim.x * (unsigned)VEC;
    const size_t hw = (size_t)a.h * a.w;
    float v[VEC];
#pragma unroll
    for (int g = 0; g < G; g++) {
        const unsigned i0 = base + (threadIdx.x + (unsigned)g * blockDim.x) * 4u;
        unsigned pl = kdiv(i0 < a.total ? i0 : 0, a.by_howo);
        const unsigned q = (i0 < a.total ? i0 : 0) - pl * a.howo;
        unsigned oy = kdiv(q, a.by_wo), ox = q - oy * a.wo;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int iy = (int)oy - a.top, ix = (int)ox - a.left;
            const bool inside = (unsigned)iy < a.h && (unsigned)ix < a.w && i0 + k < a.total;
            v[4 * g + k] = inside ? __ldg(in + (size_t)pl * hw + (size_t)iy * a.w + (unsigned)ix) : 0.0f;
            if (++ox == a.wo) { ox = 0; if (++oy == a.ho) oy = 0, pl++; }
        }
    }
#pragma unroll
    for (int g = 0; g < G; g++) {
        const unsigned i0 = base + (threadIdx.x + (unsigned)g * blockDim.x) * 4u;
        if (i0 + 4 <= a.total)
            *(float4 *)(out + i0) = make_float4(v[4 * g], v[4 * g + 1], v[4 * g + 2], v[4 * g + 3]);
        else
            for (int k = 0; k < 4; k++)
                if (i0 + k < a.total) out[i0 + k] = v[4 * g + k];
    }
}

// Staged: block b owns planes [b P, b P + np).  Their input (np h w floats,
// from a 16-byte boundary since P is a multiple of 4) goes to shared with
// 16-byte loads, then their output (np ho wo floats, also from a 16-byte
// boundary) is written in 16-byte groups.  Only the grid's last block can have
// np < P, and only its tails are scalar.
template <bool CS>
__global__ void __launch_bounds__(1024) staged_k(const float *__restrict__ in, float *__restrict__ out, Args a, int P)
{
    extern __shared__ float4 s4[];
    float *s = (float *)s4;
    const unsigned p0 = blockIdx.x * (unsigned)P;
    const unsigned np = min((unsigned)P, a.planes - p0);
    const unsigned hw = a.h * a.w;
    const size_t in0 = (size_t)p0 * hw, out0 = (size_t)p0 * a.howo;
    const unsigned nin = np * hw, nout = np * a.howo;
    const float4 *src = (const float4 *)(in + in0);
    // Batches of 4 vectors a thread, all loaded before any is stored (a
    // rolled load-store loop would wait one DRAM latency per vector).
    for (unsigned v0 = threadIdx.x; v0 < nin / 4; v0 += 4 * blockDim.x) {
        float4 t[4];
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (v0 + r * blockDim.x < nin / 4) t[r] = __ldg(src + v0 + r * blockDim.x);
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (v0 + r * blockDim.x < nin / 4) s4[v0 + r * blockDim.x] = t[r];
    }
    for (unsigned e = (nin & ~3u) + threadIdx.x; e < nin; e += blockDim.x)
        s[e] = __ldg(in + in0 + e);
    __syncthreads();
    float4 *dst = (float4 *)(out + out0);
    for (unsigned v = threadIdx.x; v < (nout + 3) / 4; v += blockDim.x) {
        const unsigned e0 = v * 4;
        unsigned pl = kdiv(e0, a.by_howo);
        const unsigned q = e0 - pl * a.howo;
        unsigned oy = kdiv(q, a.by_wo), ox = q - oy * a.wo;
        float r[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int iy = (int)oy - a.top, ix = (int)ox - a.left;
            r[k] = (unsigned)iy < a.h && (unsigned)ix < a.w ? s[pl * hw + (unsigned)iy * a.w + (unsigned)ix] : 0.0f;
            if (++ox == a.wo) { ox = 0; if (++oy == a.ho) oy = 0, pl++; }
        }
        if (e0 + 4 <= nout) {
            const float4 x = make_float4(r[0], r[1], r[2], r[3]);
            if (CS) __stcs(dst + v, x); else dst[v] = x;
        } else {
            for (unsigned k = 0; e0 + k < nout; k++) out[out0 + e0 + k] = r[k];
        }
    }
}

// The mix reference: read nin floats, write nout floats, flat and 16-byte
// (out[i] = in[i mod nin]), grid-stride; no padding index math.
__global__ void __launch_bounds__(512) mix_k(const float4 *__restrict__ in, float4 *__restrict__ out, size_t nin4, size_t nout4)
{
    // Four independent 16-byte loads a thread per step, then their stores.
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i0 < nout4; i0 += 4 * stride) {
        float4 t[4];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            size_t j = i0 + r * stride;
            while (j >= nin4) j -= nin4; // nout4 < 4 nin4 for the cases here: a few steps
            if (i0 + r * stride < nout4) t[r] = __ldg(in + j);
        }
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (i0 + r * stride < nout4) out[i0 + r * stride] = t[r];
    }
}

static void cpu_pad(const Shape &s, const std::vector<float> &in, std::vector<float> &out)
{
    const size_t planes = (size_t)s.n * s.c;
    const int Ho = ho(s), Wo = wo(s);
    for (size_t p = 0; p < planes; p++)
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                const int iy = y - s.top, ix = x - s.left;
                out[(p * Ho + y) * Wo + x] = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w ? in[(p * s.h + iy) * s.w + ix] : 0.0f;
            }
}

static void run_case(const Shape &s, int rounds)
{
    const size_t planes = (size_t)s.n * s.c, nin = planes * s.h * s.w, nout = planes * ho(s) * wo(s);
    printf("\n## padding %dx%dx%dx%d pad t%d b%d l%d r%d -> %dx%d: read %.1f MB, write %.1f MB\n", s.n, s.c, s.h, s.w, s.top,
           s.bottom, s.left, s.right, ho(s), wo(s), nin * 4e-6, nout * 4e-6);
    std::vector<float> h_in(nin), ref(nout), got(nout);
    unsigned x = 12345;
    for (auto &v : h_in) { x = x * 1664525u + 1013904223u; v = (float)(int)(x >> 9) * 1e-3f + 1.0f; } // never 0: a missed load shows
    cpu_pad(s, h_in, ref);
    float *d_in, *d_out, *d_cp_src, *d_cp_dst;
    const size_t cp_bytes = (nin + nout) * 2; // (in + out) / 2 floats, 4 B each
    CK(cudaMalloc(&d_in, nin * 4)); CK(cudaMalloc(&d_out, nout * 4));
    CK(cudaMalloc(&d_cp_src, cp_bytes)); CK(cudaMalloc(&d_cp_dst, cp_bytes));
    CK(cudaMemcpy(d_in, h_in.data(), nin * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_cp_src, 0, cp_bytes));
    Args a;
    a.total = (unsigned)nout, a.h = s.h, a.w = s.w, a.ho = ho(s), a.wo = wo(s), a.howo = a.ho * a.wo, a.planes = (unsigned)planes;
    a.top = s.top, a.left = s.left, a.by_howo = kdivider(a.howo), a.by_wo = kdivider(a.wo);
    const launch_fn copy = [=] { CK(cudaMemcpyAsync(d_cp_dst, d_cp_src, cp_bytes, cudaMemcpyDeviceToDevice)); };
    abba_header("device copy of (in + out) / 2");
    auto check = [&](const launch_fn &f) -> const char * {
        poison(d_out, nout * 4);
        f();
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), d_out, nout * 4, cudaMemcpyDeviceToHost));
        return memcmp(got.data(), ref.data(), nout * 4) ? "WRONG" : "ok (bit for bit)";
    };
    abba_row("device copy (self)", copy, copy, rounds, "-");
    abba_row("memset out (writes only)", [=] { CK(cudaMemsetAsync(d_out, 0, nout * 4)); }, copy, rounds, "-");
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (nin % 4 == 0 && nout % 4 == 0 && nout < 4 * nin)
        abba_row("mix (read in + write out, flat)", [=] { mix_k<<<sms * 4, 512>>>((const float4 *)d_in, (float4 *)d_out, nin / 4, nout / 4); }, copy, rounds, "-");
#define FLAT(V, B) do { const launch_fn f = [=] { flat_k<V><<<(unsigned)((nout + (size_t)B * V - 1) / ((size_t)B * V)), B>>>(d_in, d_out, a); }; \
        abba_row("flat" #V " b" #B, f, copy, rounds, check(f)); } while (0)
    FLAT(8, 512);
    FLAT(16, 512);
    FLAT(8, 256);
    const int hw = s.h * s.w;
    for (int P : {4, 8, 16, 32, 64, 128}) {
        const size_t lds = (size_t)P * hw * 4;
        if (lds > 100 * 1024) continue;
        for (int cs = 0; cs < 2; cs++) {
            for (int B : {256, 512}) {
                if (cs) CK(cudaFuncSetAttribute(staged_k<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
                else CK(cudaFuncSetAttribute(staged_k<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
                const unsigned grid = (unsigned)((planes + P - 1) / P);
                const launch_fn f = cs ? launch_fn([=] { staged_k<true><<<grid, B, lds>>>(d_in, d_out, a, P); })
                                       : launch_fn([=] { staged_k<false><<<grid, B, lds>>>(d_in, d_out, a, P); });
                char name[64];
                snprintf(name, sizeof name, "staged P%d b%d%s (%zu B shared)", P, B, cs ? " cs" : "", lds);
                abba_row(name, f, copy, rounds, check(f));
            }
        }
    }
    CK(cudaFree(d_in)); CK(cudaFree(d_out)); CK(cudaFree(d_cp_src)); CK(cudaFree(d_cp_dst));
}

int main(int argc, char **argv)
{
    const int rounds = abba_rounds(argc, argv);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("# padding variants on %s (%d SMs), %d ABBA rounds each\n", p.name, p.multiProcessorCount, rounds);
    run_case({1024, 1024, 7, 7, 3, 3, 3, 3}, rounds);  // the bench's first case (the seed's)
    run_case({64, 64, 56, 56, 1, 2, 0, 3}, rounds);    // the bench's second case
    return 0;
}
