/* batchnorm kernels: statistics (shifted sums, per-block partials, the last
 * block of a channel finishes it) and normalize (training or inference).
 * Grid: split x C blocks; block s of channel c walks the channel's units
 * (4 values when H x W is a multiple of 4 and x is 16-byte aligned, else 1)
 * with a stride of split x block, ITEMS independent loads per step.  A unit
 * index u of the channel is split into (image n, offset i) with a
 * multiply-shift division (fastdiv.h). */
#include "batchnorm.h"
#include "batchnorm_index.h"
#include "gp_device.h"
#include "fastdiv.h"
#include "runtime.h"

typedef struct bn_args {
    const float *x;
    float *y;
    unsigned units;  /* per channel: n x (hw / VEC) */
    unsigned per_plane; /* hw / VEC */
    gp_fastdiv by_plane;
    size_t hw;       /* values per plane */
    unsigned c;      /* channels */
    double m;        /* values per channel */
    double inv_m;    /* 1 / m: the fused kernel's threads multiply (a double division is a called slow path) */
    size_t part_off, fin_off; /* workspace: partials, finished (mean, scale) pairs */
} bn_args;

/* Workspace layout (gp_batchnorm_ws_offsets): counters, partials, finished. */
static __device__ __forceinline__ unsigned *ws_counters(void *ws) { return (unsigned *)ws; }

template <int VEC> struct bn_vec;
template <> struct bn_vec<1> {
    typedef float T;
    static __device__ __forceinline__ float sum(T v, float k) { return v - k; }
    static __device__ __forceinline__ float sq(T v, float k) { return (v - k) * (v - k); }
    static __device__ __forceinline__ T apply(T v, float mean, float a, float b) { return fmaf(v - mean, a, b); }
};
template <> struct bn_vec<4> {
    typedef float4 T;
    static __device__ __forceinline__ float sum(T v, float k) { return ((v.x - k) + (v.y - k)) + ((v.z - k) + (v.w - k)); }
    static __device__ __forceinline__ float sq(T v, float k)
    {
        float a = v.x - k, b = v.y - k, c = v.z - k, d = v.w - k;
        return fmaf(a, a, b * b) + fmaf(c, c, d * d);
    }
    static __device__ __forceinline__ T apply(T v, float mean, float a, float b)
    {
        return make_float4(fmaf(v.x - mean, a, b), fmaf(v.y - mean, a, b), fmaf(v.z - mean, a, b),
                           fmaf(v.w - mean, a, b));
    }
};

/* Offset (in units of VEC values) of unit u of channel c. */
template <int VEC>
static __device__ __forceinline__ size_t unit_at(const bn_args &a, unsigned c, unsigned u)
{
    unsigned n = gp_fastdiv_apply(u, a.by_plane);
    unsigned i = u - n * a.per_plane;
    return ((size_t)n * a.c + c) * (a.hw / VEC) + i;
}

/* Block sum of two floats into double: the wave in fp32 (a 32- or 64-term
 * butterfly), the waves in double in a fixed order.  Thread 0 gets it. */
static __device__ __forceinline__ void block_sum2(float s, float q, double *out_s, double *out_q)
{
    __shared__ double ws_s[GP_BN_MAX_BLOCK / 32], ws_q[GP_BN_MAX_BLOCK / 32];
#pragma unroll
    for (int o = GP_WAVE_SIZE / 2; o > 0; o /= 2) {
        s += gp_shfl_xor(s, o);
        q += gp_shfl_xor(q, o);
    }
    const unsigned wave = threadIdx.x / GP_WAVE_SIZE, nwaves = blockDim.x / GP_WAVE_SIZE;
    if (threadIdx.x % GP_WAVE_SIZE == 0)
        ws_s[wave] = s, ws_q[wave] = q;
    __syncthreads();
    if (threadIdx.x == 0) {
        double ts = 0, tq = 0;
        for (unsigned w = 0; w < nwaves; w++)
            ts += ws_s[w], tq += ws_q[w];
        *out_s = ts, *out_q = tq;
    }
}

/* A channel's mean and invstd from its split blocks' partial sums of x - k
 * and (x - k)^2, added in block order (volatile: written by other CUs, not
 * in this CU's L1): both training paths, so both give the same bits. */
static __device__ __forceinline__ void channel_stats(const volatile double *vp, unsigned split, double m, float k,
                                                     float eps, double *mean, double *invstd)
{
    double ts = 0, tq = 0;
    for (unsigned b = 0; b < split; b++)
        ts += vp[2 * b], tq += vp[2 * b + 1];
    double ms = ts / m;
    double var = tq / m - ms * ms;
    var = var > 0 ? var : 0;
    *mean = (double)k + ms, *invstd = 1.0 / sqrt(var + (double)eps);
}

template <int VEC, int ITEMS>
__global__ void GP_LAUNCH_BOUNDS(GP_BN_BLOCK_LIMIT(ITEMS)) gp_bn_stats(bn_args a, const float *__restrict__ gamma,
                                                              float eps, float *save_mean, float *save_invstd,
                                                              void *ws)
{
    typedef typename bn_vec<VEC>::T T;
    const unsigned c = blockIdx.y, split = gridDim.x;
    const T *x = (const T *)a.x;
    const float k = __ldg(a.x + (size_t)c * a.hw); /* the shift: the channel's first value */
    const unsigned stride = split * blockDim.x;
    float s = 0.0f, q = 0.0f;
    for (unsigned u0 = blockIdx.x * blockDim.x + threadIdx.x; u0 < a.units; u0 += stride * ITEMS) {
        T v[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; j++) {
            unsigned u = u0 + j * stride;
            if (u < a.units)
                v[j] = __ldg(x + unit_at<VEC>(a, c, u));
        }
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if (u0 + j * stride < a.units) {
                s += bn_vec<VEC>::sum(v[j], k);
                q += bn_vec<VEC>::sq(v[j], k);
            }
    }
    double bs, bq;
    block_sum2(s, q, &bs, &bq);
    if (threadIdx.x != 0)
        return;
    unsigned *count = ws_counters(ws);
    double *part = (double *)((char *)ws + a.part_off);
    float *fin = (float *)((char *)ws + a.fin_off);
    part[2 * ((size_t)c * split + blockIdx.x)] = bs;
    part[2 * ((size_t)c * split + blockIdx.x) + 1] = bq;
    __threadfence();
    if (atomicAdd(&count[c], 1u) != split - 1)
        return;
    /* The last block of channel c. */
    __threadfence();
    double mean, invstd;
    channel_stats(part + 2 * (size_t)c * split, split, a.m, k, eps, &mean, &invstd);
    fin[2 * c] = (float)mean;
    fin[2 * c + 1] = (float)((double)gamma[c] * invstd);
    if (save_mean)
        save_mean[c] = (float)mean;
    if (save_invstd)
        save_invstd[c] = (float)invstd;
    count[c] = 0; /* ready for the next run */
}

/* y = (x - mean) x a + beta: training reads (mean, a) from the workspace,
 * inference makes them from the given mean and variance. */
template <int VEC, int ITEMS, int INFER>
__global__ void GP_LAUNCH_BOUNDS(GP_BN_BLOCK_LIMIT(ITEMS)) gp_bn_apply(bn_args a, const float *__restrict__ gamma,
                                                              const float *__restrict__ beta,
                                                              const float *__restrict__ mean_in,
                                                              const float *__restrict__ var_in, float eps,
                                                              const void *ws)
{
    typedef typename bn_vec<VEC>::T T;
    const unsigned c = blockIdx.y, split = gridDim.x;
    (void)split;
    float mean, sc;
    if (INFER) {
        mean = mean_in[c];
        sc = (float)((double)gamma[c] / sqrt((double)var_in[c] + (double)eps));
    } else {
        const float *fin = (const float *)((const char *)ws + a.fin_off);
        mean = fin[2 * c], sc = fin[2 * c + 1];
    }
    const float b = beta[c];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const unsigned stride = split * blockDim.x;
    for (unsigned u0 = blockIdx.x * blockDim.x + threadIdx.x; u0 < a.units; u0 += stride * ITEMS) {
        T v[ITEMS];
        size_t at[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; j++) {
            unsigned u = u0 + j * stride;
            if (u < a.units) {
                /* Training walks x backwards: the statistics read the high
                 * units last, so the L2 still holds some of them now. */
                at[j] = unit_at<VEC>(a, c, INFER ? u : a.units - 1 - u);
                v[j] = __ldg(x + at[j]);
            }
        }
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if (u0 + j * stride < a.units)
                y[at[j]] = bn_vec<VEC>::apply(v[j], mean, sc, b);
    }
}

/* Block sum of one or two floats into double, known to every thread: the
 * wave in fp32 (butterfly: every lane gets the same sum, fp addition being
 * commutative), then each thread adds the waves' sums in double in wave
 * order, so all threads hold the same bits.  `slot` picks a private shared
 * array per call site, so no barrier is needed before the next call. */
template <int SLOT>
static __device__ __forceinline__ void block_sum_all(float s, float q, double *out_s, double *out_q)
{
    __shared__ double ws_s[GP_BN_MAX_BLOCK / 32], ws_q[GP_BN_MAX_BLOCK / 32];
#pragma unroll
    for (int o = GP_WAVE_SIZE / 2; o > 0; o /= 2) {
        s += gp_shfl_xor(s, o);
        q += gp_shfl_xor(q, o);
    }
    const unsigned wave = threadIdx.x / GP_WAVE_SIZE, nwaves = blockDim.x / GP_WAVE_SIZE;
    if (threadIdx.x % GP_WAVE_SIZE == 0)
        ws_s[wave] = s, ws_q[wave] = q;
    __syncthreads();
    double ts = 0, tq = 0;
    for (unsigned w = 0; w < nwaves; w++)
        ts += ws_s[w], tq += ws_q[w];
    *out_s = ts, *out_q = tq;
}

/* The one-launch path for channels that fit one block's registers: block c
 * holds channel c's values, U units of VEC values a thread (unit
 * threadIdx.x + j x blockDim.x), read once.  Mean m0 from their sum, then
 * from the same registers the sums of x - m0 and (x - m0)^2: var = Q/M -
 * (S/M)^2 shifted by the (rounded) mean itself, mean = m0 + S/M, so
 * neither a large mean nor m0's rounding costs the variance (Chan, Golub
 * and LeVeque 1983).  Then y from the registers: x read once, y written
 * once, no workspace.  The launcher guarantees units <= U x blockDim.x. */
template <int VEC, int U>
__global__ void GP_LAUNCH_BOUNDS(GP_BN_FUSED_BLOCK_LIMIT(U * VEC))
    gp_bn_fused(bn_args a, const float *__restrict__ gamma, const float *__restrict__ beta, float eps,
                float *save_mean, float *save_invstd)
{
    typedef typename bn_vec<VEC>::T T;
    const unsigned c = blockIdx.x, nb = blockDim.x;
    /* 32-bit unit offsets from the channel's first unit (batchnorm_index.h):
     * a register each instead of a 64-bit address. */
    const size_t base = (size_t)c * a.per_plane;
    const T *x = (const T *)a.x + base;
    T *y = (T *)a.y + base;
    const unsigned gap = gp_bn_fused_gap(a.c, a.per_plane);
    T v[U];
#pragma unroll
    for (int j = 0; j < U; j++) {
        unsigned u = threadIdx.x + j * nb;
        if (u < a.units)
            v[j] = __ldg(x + gp_bn_fused_offset(u, a.by_plane, gap));
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < U; j++)
        if (threadIdx.x + j * nb < a.units)
            s += bn_vec<VEC>::sum(v[j], 0.0f);
    double ds, dq;
    block_sum_all<0>(s, 0.0f, &ds, &dq);
    const float m0 = (float)(ds * a.inv_m);
    s = 0.0f;
    float q = 0.0f;
#pragma unroll
    for (int j = 0; j < U; j++)
        if (threadIdx.x + j * nb < a.units) {
            s += bn_vec<VEC>::sum(v[j], m0);
            q += bn_vec<VEC>::sq(v[j], m0);
        }
    block_sum_all<1>(s, q, &ds, &dq);
    double ms = ds * a.inv_m;
    double var = dq * a.inv_m - ms * ms;
    var = var > 0 ? var : 0;
    /* rsqrt in double: within an ulp or two of double, far inside fp32's
     * rounding of the saved invstd, and no called slow path (1 / sqrt). */
    const double mean = (double)m0 + ms, invstd = rsqrt(var + (double)eps);
    if (threadIdx.x == 0) {
        if (save_mean)
            save_mean[c] = (float)mean;
        if (save_invstd)
            save_invstd[c] = (float)invstd;
    }
    const float mf = (float)mean, sc = (float)((double)gamma[c] * invstd), b = beta[c];
#pragma unroll
    for (int j = 0; j < U; j++) {
        unsigned u = threadIdx.x + j * nb;
        if (u < a.units)
            y[gp_bn_fused_offset(u, a.by_plane, gap)] = bn_vec<VEC>::apply(v[j], mf, sc, b);
    }
}

/* The one-launch split path (hold_bytes > 0): the statistics, a barrier
 * among the channel's blocks, then the normalize, in one kernel whose blocks
 * are all resident (a cooperative launch guarantees it or fails).  Thread t
 * of block s walks the channel's units u(h) = s B + t + h split B, h = 0, 1,
 * ...; the first `hold` of them (the ones read earliest, which the L2 lost
 * first) stay in LDS.  Only the last `keep` steps are loaded to stay in the
 * L2 (as many as half the L2 holds: the normalize reads them first); the
 * others are loaded evict-first, so they do not push those out.  After the
 * barrier every block adds the channel's partials (channel_stats), then
 * normalizes h from the last down: the units read last come first, from the
 * L2, and the held ones last, from LDS.  x is read there for the last time
 * and y written once: both evict-first, so they do not push out the x lines
 * still to come.  The channel's counter counts each block twice (arrival,
 * then done with the partials); the last of the second round resets it.
 * Launch bounds of one block a CU: ptxas may use up to 64 registers (it held
 * the scalar kernel at 32 with a spill otherwise); the rule's occupancy
 * model counts what it uses (BN_HOLD_REGS). */
template <int VEC, int ITEMS>
__global__ void __launch_bounds__(GP_BN_BLOCK_LIMIT(ITEMS), 1)
    gp_bn_resident(bn_args a, const float *__restrict__ gamma, const float *__restrict__ beta, float eps,
                   float *save_mean, float *save_invstd, void *ws, unsigned hold, unsigned keep)
{
    typedef typename bn_vec<VEC>::T T;
    extern __shared__ __align__(16) unsigned char bn_held_raw[];
    T *held = (T *)bn_held_raw;
    __shared__ float bn_ms[2];
    const unsigned c = blockIdx.y, split = gridDim.x, nb = blockDim.x;
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const float k = __ldg(a.x + (size_t)c * a.hw);
    const unsigned first = blockIdx.x * nb + threadIdx.x, stride = split * nb;
    /* Units of this thread: h < nh. */
    const unsigned nh = first < a.units ? (a.units - first + stride - 1) / stride : 0;
    float s = 0.0f, q = 0.0f;
    for (unsigned h0 = 0; h0 < nh; h0 += ITEMS) {
        T v[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if (h0 + j < nh) {
                const T *p = x + unit_at<VEC>(a, c, first + (h0 + j) * stride);
                v[j] = h0 + j + keep < nh ? gp_ld_last_use(p) : __ldg(p);
            }
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if (h0 + j < nh) {
                s += bn_vec<VEC>::sum(v[j], k);
                q += bn_vec<VEC>::sq(v[j], k);
                if (h0 + j < hold)
                    held[(h0 + j) * nb + threadIdx.x] = v[j];
            }
    }
    double bs, bq;
    block_sum2(s, q, &bs, &bq);
    if (threadIdx.x == 0) {
        unsigned *count = ws_counters(ws) + c;
        double *part = (double *)((char *)ws + a.part_off) + 2 * (size_t)c * split;
        part[2 * blockIdx.x] = bs;
        part[2 * blockIdx.x + 1] = bq;
        __threadfence();
        atomicAdd(count, 1u);
        while (*(volatile unsigned *)count < split)
            ;
        __threadfence();
        double mean, invstd;
        channel_stats(part, split, a.m, k, eps, &mean, &invstd);
        bn_ms[0] = (float)mean;
        bn_ms[1] = (float)((double)gamma[c] * invstd);
        if (blockIdx.x == 0) {
            if (save_mean)
                save_mean[c] = (float)mean;
            if (save_invstd)
                save_invstd[c] = (float)invstd;
        }
        if (atomicAdd(count, 1u) == 2 * split - 1)
            *count = 0; /* every block is past the barrier: ready for the next run */
    }
    __syncthreads();
    const float mean = bn_ms[0], sc = bn_ms[1], b = beta[c];
    unsigned h = nh;
    while (h > hold) {
        const unsigned n = h - hold < ITEMS ? h - hold : ITEMS;
        T v[ITEMS];
        size_t at[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if ((unsigned)j < n) {
                at[j] = unit_at<VEC>(a, c, first + (h - 1 - j) * stride);
                v[j] = gp_ld_last_use(x + at[j]);
            }
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if ((unsigned)j < n)
                gp_st_write_once(y + at[j], bn_vec<VEC>::apply(v[j], mean, sc, b));
        h -= n;
    }
    for (; h > 0; h--)
        gp_st_write_once(y + unit_at<VEC>(a, c, first + (h - 1) * stride),
                         bn_vec<VEC>::apply(held[(h - 1) * nb + threadIdx.x], mean, sc, b));
}

static bn_args make_args(const float *x, float *y, const gp_batchnorm_shape *s, int vec)
{
    bn_args a;
    a.x = x, a.y = y;
    a.hw = (size_t)s->h * s->w;
    a.per_plane = (unsigned)(a.hw / vec);
    a.units = (unsigned)s->n * a.per_plane;
    a.by_plane = gp_fastdiv_make(a.per_plane);
    a.c = (unsigned)s->c;
    a.m = (double)s->n * (double)a.hw;
    a.inv_m = 1.0 / a.m;
    a.part_off = 0, a.fin_off = 0;
    return a;
}

static int vec_of(const float *x, const float *y, const gp_batchnorm_shape *s)
{
    return ((size_t)s->h * s->w) % 4 == 0 && (uintptr_t)x % 16 == 0 && (uintptr_t)y % 16 == 0 ? 4 : 1;
}

template <int VEC, int ITEMS>
static gp_status train(const bn_args &a, const float *gamma, const float *beta, float eps, float *sm, float *si,
                       void *ws, dim3 grid, int block, hipStream_t st)
{
    gp_bn_stats<VEC, ITEMS><<<grid, block, 0, st>>>(a, gamma, eps, sm, si, ws);
    GP_TRY(gp_launch_status("batchnorm statistics"));
    gp_bn_apply<VEC, ITEMS, 0><<<grid, block, 0, st>>>(a, gamma, beta, NULL, NULL, eps, ws);
    return gp_launch_status("batchnorm normalize");
}

template <int VEC, int ITEMS>
static gp_status infer(const bn_args &a, const float *gamma, const float *beta, const float *mean,
                       const float *var, float eps, dim3 grid, int block, hipStream_t st)
{
    gp_bn_apply<VEC, ITEMS, 1><<<grid, block, 0, st>>>(a, gamma, beta, mean, var, eps, NULL);
    return gp_launch_status("batchnorm inference");
}

#define BN_DISPATCH(fn, ...)                                                                                   \
    switch (vec * 16 + items) {                                                                                  \
    case 16 + 1: return fn<1, 1>(__VA_ARGS__);                                                                   \
    case 16 + 2: return fn<1, 2>(__VA_ARGS__);                                                                   \
    case 16 + 4: return fn<1, 4>(__VA_ARGS__);                                                                   \
    case 16 + 8: return fn<1, 8>(__VA_ARGS__);                                                                   \
    case 64 + 1: return fn<4, 1>(__VA_ARGS__);                                                                   \
    case 64 + 2: return fn<4, 2>(__VA_ARGS__);                                                                   \
    case 64 + 4: return fn<4, 4>(__VA_ARGS__);                                                                   \
    case 64 + 8: return fn<4, 8>(__VA_ARGS__);                                                                   \
    default: return gp_fail(GP_ERR_USAGE, "batchnorm: items_per_thread %d not compiled", items);                \
    }

/* Training: the one launch when hold_bytes > 0 and every block of split' x
 * C fits at once with hold_bytes of LDS a thread, split' = min(split,
 * resident blocks / C); else (or where not even one block a channel fits)
 * the statistics and the normalize, split blocks a channel each. */
template <int VEC, int ITEMS>
static gp_status train_path(bn_args a, const float *gamma, const float *beta, float eps, float *sm, float *si,
                            void *ws, int split, int block, int hold_bytes, long long l2_bytes, hipStream_t st)
{
    typedef typename bn_vec<VEC>::T T;
    if (hold_bytes > 0) {
        const void *fn = (const void *)gp_bn_resident<VEC, ITEMS>;
        unsigned hold = (unsigned)hold_bytes / (unsigned)sizeof(T);
        const size_t lds = (size_t)hold * (size_t)block * sizeof(T);
        int per_cu = 0, cus = 0;
        GP_TRY(gp_func_dynamic_lds(fn, block, lds, &per_cu, &cus));
        const long long fit = (long long)per_cu * cus / a.c;
        if (fit >= 1) {
            const unsigned sp = (unsigned)(fit < split ? fit : split);
            gp_batchnorm_ws_offsets((int)a.c, (int)sp, &a.part_off, &a.fin_off);
            /* Steps of the whole grid whose lines half the L2 holds. */
            const double step = (double)sp * a.c * block * sizeof(T);
            unsigned keep = (unsigned)(l2_bytes > 0 ? 0.5 * (double)l2_bytes / step : 0);
            void *args[] = {&a, &gamma, &beta, &eps, &sm, &si, &ws, &hold, &keep};
            GP_TRY(gp_hip_status(hipLaunchCooperativeKernel(fn, dim3(sp, a.c), dim3((unsigned)block), args,
                                                            (unsigned)lds, st),
                                 "batchnorm one-launch (cooperative)"));
            return gp_launch_status("batchnorm one-launch");
        }
    }
    gp_batchnorm_ws_offsets((int)a.c, split, &a.part_off, &a.fin_off);
    return train<VEC, ITEMS>(a, gamma, beta, eps, sm, si, ws, dim3((unsigned)split, a.c), block, st);
}

extern "C" gp_status gp_batchnorm_launch_train(const float *x, float *y, const gp_batchnorm_shape *s,
                                               const float *gamma, const float *beta, float eps, float *save_mean,
                                               float *save_invstd, void *ws, int split, int block, int items,
                                               int hold_bytes, long long l2_bytes, gp_stream s_)
{
    const int vec = vec_of(x, y, s);
    bn_args a = make_args(x, y, s, vec);
    BN_DISPATCH(train_path, a, gamma, beta, eps, save_mean, save_invstd, ws, split, block, hold_bytes, l2_bytes,
                (hipStream_t)s_)
}

extern "C" gp_status gp_batchnorm_launch_infer(const float *x, float *y, const gp_batchnorm_shape *s,
                                               const float *gamma, const float *beta, const float *mean,
                                               const float *var, float eps, int split, int block, int items,
                                               gp_stream s_)
{
    const int vec = vec_of(x, y, s);
    bn_args a = make_args(x, y, s, vec);
    dim3 grid((unsigned)split, (unsigned)s->c);
    BN_DISPATCH(infer, a, gamma, beta, mean, var, eps, grid, block, (hipStream_t)s_)
}

template <int VEC, int U>
static gp_status fused(const bn_args &a, const float *gamma, const float *beta, float eps, float *sm, float *si,
                       unsigned channels, int block, hipStream_t st)
{
    gp_bn_fused<VEC, U><<<channels, block, 0, st>>>(a, gamma, beta, eps, sm, si);
    return gp_launch_status("batchnorm fused");
}

extern "C" gp_status gp_batchnorm_launch_fused(const float *x, float *y, const gp_batchnorm_shape *s,
                                               const float *gamma, const float *beta, float eps, float *save_mean,
                                               float *save_invstd, int block, gp_stream s_)
{
    const hipStream_t st = (hipStream_t)s_;
    const int vec = vec_of(x, y, s);
    bn_args a = make_args(x, y, s, vec);
    if (gp_batchnorm_elems(s) / (size_t)vec >= ((size_t)1 << 32))
        return gp_fail(GP_ERR_USAGE, "batchnorm fused: %zu values exceed the kernel's 32-bit offsets",
                       gp_batchnorm_elems(s));
    int units_per_thread = 0, b = gp_batchnorm_fused_block(block, a.units, vec == 4 ? 1 : 4, &units_per_thread);
    if (units_per_thread * vec > GP_BN_FUSED_VPT(b))
        return gp_fail(GP_ERR_USAGE, "batchnorm fused: %u units of %d values over %d threads exceed %d values a thread",
                       a.units, vec, b, GP_BN_FUSED_VPT(b));
    /* Compiled: 1, 2, 4, 8 float4 units (4..32 values) and 4, 8, 16, 32
     * single values a thread; the least that holds the channel. */
    const unsigned ch = (unsigned)s->c;
    int u = units_per_thread;
    if (vec == 4) {
        if (u <= 1) return fused<4, 1>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
        if (u <= 2) return fused<4, 2>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
        if (u <= 4) return fused<4, 4>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
        return fused<4, 8>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
    }
    if (u <= 4) return fused<1, 4>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
    if (u <= 8) return fused<1, 8>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
    if (u <= 16) return fused<1, 16>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
    return fused<1, 32>(a, gamma, beta, eps, save_mean, save_invstd, ch, b, st);
}
