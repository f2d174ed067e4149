/* cache_latency kernels: one thread chases 64-bit pointers through a buffer
 * ([Vega-HIP] §2.6/2.7, made a random cycle so no prefetcher or
 * stride predictor can help).  Each node sits at the start of its own
 * stride-sized slot and holds the address of the next node, so each load's
 * address is the previous load's value: nothing to compute, nothing to
 * overlap. */
#include "gp_device.h"
#include "runtime.h"
#include "cache_latency.h"

#define CHASE_UNROLL GP_CYCLE_LAP_WORK /* 16 */

typedef unsigned long long u64;

/* A cached load: a plain load through a pointer, never volatile (NVIDIA
 * compiles volatile to ld.volatile, which skips L1). */
static __device__ __forceinline__ const u64 *load_cached(const u64 *p)
{
#if defined(GP_VENDOR_AMD) && defined(__HIP_DEVICE_COMPILE__)
    /* Global, not flat: a flat load also waits on the LDS counter and its
     * address space is resolved at run time. */
    return (const u64 *)*(const __attribute__((address_space(1))) u64 *)p;
#elif defined(GP_VENDOR_NVIDIA)
    /* ld.global.ca: cache in L1 and L2 (a plain dereference of a loaded
     * pointer becomes a generic ld, which costs an address-space check). */
    return (const u64 *)__ldca(p);
#else
    return (const u64 *)*p;
#endif
}

/* A load that skips L1 and is served by L2 (or memory):
 * NVIDIA: ld.global.cg (cache-global, L2 only) through __ldcg;
 * AMD: a relaxed atomic load at agent scope.  The AMDGPU memory model must
 * make it coherent across the whole device, so it misses every cache that
 * is private to a CU or a shader array, on every target, with that target's
 * own bits (LLVM AMDGPUUsage, memory model code sequences, "load atomic
 * monotonic, agent"): glc on gfx900/gfx90a (miss the vector L1), glc dlc on
 * gfx10 (L0 and GL1), glc on gfx11 (dlc is omitted there), sc1 on gfx94x.
 * A nontemporal load is only a cache-policy hint: clang 15 gives it glc slc
 * on gfx9, but slc dlc without glc on gfx11 (the L0 still hits) and nt alone
 * on gfx94x (the L1 still hits), where the bypass sweep would time the first
 * level again.  tests/build/amd_chase_isa.sh holds each target to its bits. */
static __device__ __forceinline__ const u64 *load_bypass(const u64 *p)
{
#if defined(GP_VENDOR_NVIDIA)
    return (const u64 *)__ldcg(p);
#elif defined(__HIP_DEVICE_COMPILE__)
    return (const u64 *)__hip_atomic_load((const __attribute__((address_space(1))) u64 *)p, __ATOMIC_RELAXED,
                                          __HIP_MEMORY_SCOPE_AGENT);
#else
    return (const u64 *)*p; /* host pass of a HIP compile: declared only for the device */
#endif
}

#define CHASE16(LOAD)                                                      \
    p = LOAD(p); p = LOAD(p); p = LOAD(p); p = LOAD(p);                    \
    p = LOAD(p); p = LOAD(p); p = LOAD(p); p = LOAD(p);                    \
    p = LOAD(p); p = LOAD(p); p = LOAD(p); p = LOAD(p);                    \
    p = LOAD(p); p = LOAD(p); p = LOAD(p); p = LOAD(p)

/* One block of one thread.  Warm-up: `warm` loads (rounded up to 16), so
 * that the caches hold what fits; then `reps` timed passes of `loads` loads
 * each, cycles per pass in cycles_out[r].  The final pointer is stored only
 * when it equals `magic` (never, at run time) so the chase cannot be
 * deleted.  The start is start + (threadIdx.x & zero), zero = 0 at run time:
 * a pointer the compiler cannot prove uniform across the wave.  With the
 * bare kernel argument, AMD's compiler chases the warm-up with scalar loads
 * (s_load_dwordx2, through the scalar cache, no glc slc): the vector L1 the
 * timed loop reads was never warmed (gfx900 ISA; tests/build/amd_chase_isa.sh). */
#define CHASE_KERNEL(NAME, LOAD)                                                            \
    __global__ void NAME(const u64 *start, long long warm, long long loads, int reps,       \
                         long long *cycles_out, u64 *sink, u64 magic, u64 zero)             \
    {                                                                                       \
        const u64 *p = (const u64 *)((u64)start + ((u64)threadIdx.x & zero));               \
        for (long long i = 0; i < warm; i += CHASE_UNROLL) {                                \
            CHASE16(LOAD);                                                                  \
        }                                                                                   \
        for (int r = 0; r < reps; r++) {                                                    \
            gp_cycle_span span;                                                             \
            GP_CYCLE_START(span);                                                           \
            for (long long i = 0; i < loads; i += CHASE_UNROLL) {                           \
                CHASE16(LOAD);                                                              \
                GP_CYCLE_LAP(span); /* gfx11's 20-bit counter: a lap per 16 loads */        \
            }                                                                               \
            /* A branch on p waits for the last load before the closing read. */          \
            if ((u64)p == magic)                                                            \
                sink[1] = (u64)p;                                                           \
            cycles_out[r] = GP_CYCLE_END(span);                                             \
        }                                                                                   \
        if ((u64)p == magic)                                                                \
            sink[0] = (u64)p;                                                               \
    }

CHASE_KERNEL(gp_cache_chase_cached_kernel, load_cached)
CHASE_KERNEL(gp_cache_chase_bypass_kernel, load_bypass)

/* Node i lives at base + i * stride.  Nodes are grouped in pages of
 * `lines_per_page` consecutive nodes; the cycle visits node (page, line) then
 * (next_page[page], line), except after the last page of the page order
 * (`last_page`), where it moves to (first page, next_line[line]).  With
 * lines_per_page = 1 that is a plain random cycle over all nodes. */
__global__ void gp_cache_chase_init_kernel(u64 *buf, long long nodes, int stride, int lines_per_page,
                                           const unsigned *next_page, const unsigned *next_line,
                                           unsigned last_page)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nodes; i += step) {
        unsigned page = (unsigned)(i / lines_per_page);
        unsigned line = (unsigned)(i % lines_per_page);
        unsigned np = next_page[page];
        unsigned nl = page == last_page ? next_line[line] : line;
        long long next = (long long)np * lines_per_page + nl;
        buf[i * (stride / 8)] = (u64)(buf + next * (stride / 8));
    }
}

/* Sequential cycle: node i -> node i + 1, the last back to node 0. */
__global__ void gp_cache_chase_seq_init_kernel(u64 *buf, long long nodes, int stride)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nodes; i += step) {
        long long next = i + 1 < nodes ? i + 1 : 0;
        buf[i * (stride / 8)] = (u64)(buf + next * (stride / 8));
    }
}

static unsigned init_grid(long long nodes)
{
    long long g = (nodes + 255) / 256;
    return (unsigned)(g < 1 ? 1 : g > 65535 ? 65535 : g);
}

extern "C" gp_status gp_cache_chase_init(void *buf, long long nodes, int stride, int lines_per_page,
                                         const unsigned *next_page, const unsigned *next_line,
                                         unsigned last_page)
{
    if (stride < 8 || stride % 8 || lines_per_page < 1)
        return gp_fail(GP_ERR_USAGE, "cache_latency init: bad stride %d or page %d", stride, lines_per_page);
    gp_cache_chase_init_kernel<<<init_grid(nodes), 256>>>((u64 *)buf, nodes, stride, lines_per_page,
                                                          next_page, next_line, last_page);
    GP_TRY(gp_launch_status("cache_latency init"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency init");
}

extern "C" gp_status gp_cache_chase_seq_init(void *buf, long long nodes, int stride)
{
    if (stride < 8 || stride % 8)
        return gp_fail(GP_ERR_USAGE, "cache_latency seq init: bad stride %d", stride);
    gp_cache_chase_seq_init_kernel<<<init_grid(nodes), 256>>>((u64 *)buf, nodes, stride);
    GP_TRY(gp_launch_status("cache_latency seq init"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency seq init");
}

extern "C" gp_status gp_cache_chase_run(const void *start, int bypass, long long warm, long long loads,
                                        int reps, long long *d_cycles, void *d_sink)
{
    if (reps < 1 || reps > GP_CACHE_MAX_REPS)
        return gp_fail(GP_ERR_USAGE, "cache_latency: reps %d outside 1..%d", reps, GP_CACHE_MAX_REPS);
    /* Ask for the largest L1 (the kernels use no shared memory).  Only a
     * preference: where it is not supported the call's error is cleared. */
    (void)hipFuncSetCacheConfig((const void *)gp_cache_chase_cached_kernel, hipFuncCachePreferL1);
    (void)hipGetLastError();
    if (bypass)
        gp_cache_chase_bypass_kernel<<<1, 1>>>((const u64 *)start, warm, loads, reps, d_cycles,
                                                (u64 *)d_sink, 1ull, 0ull);
    else
        gp_cache_chase_cached_kernel<<<1, 1>>>((const u64 *)start, warm, loads, reps, d_cycles,
                                                (u64 *)d_sink, 1ull, 0ull);
    GP_TRY(gp_launch_status("cache_latency chase"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency chase");
}

/* ---- DRAM latency by L2 partition (cache_latency.c, partition step) */

/* pairs[2i] (byte offset) gets the address buf + pairs[2i + 1]. */
__global__ void gp_cache_partition_init_kernel(u64 *buf, const u64 *pairs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[pairs[2 * i] / 8] = (u64)((char *)buf + pairs[2 * i + 1]);
}

/* Every thread of the grid reads its share of `words` u64, `passes` times;
 * the sum is stored only when it equals `magic`, so the reads stay. */
__global__ void gp_cache_partition_flush_kernel(const u64 *region, long long words, int passes, u64 *sink,
                                                u64 magic)
{
    u64 acc = 0;
    long long step = (long long)gridDim.x * blockDim.x;
    for (int r = 0; r < passes; r++)
        for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += step)
            acc += region[i];
    if (acc == magic)
        sink[0] = acc;
}

/* Time one load: t0, the load, a branch on the loaded value (so the closing
 * clock read cannot issue before the value arrives), t1.  The address is
 * p + (t0 & zero) with zero = 0 at run time: the load cannot be issued
 * before t0, and two loads of the same line are not merged into one.  One
 * function per load kind, not a flag: with a flag, clang merges the two
 * arms' loads before inlining and drops the nontemporal hint (seen in the
 * gfx900 ISA: no glc slc). */
#define TIMED_LOAD_FN(NAME, LOAD)                                                                 \
    static __device__ __forceinline__ long long NAME(const u64 *p, const u64 **val, u64 *sink,    \
                                                     u64 magic, u64 zero)                         \
    {                                                                                             \
        long long t0 = gp_cycles();                                                               \
        const u64 *v = LOAD((const u64 *)((u64)p + ((u64)t0 & zero)));                            \
        if ((u64)v == magic)                                                                      \
            sink[1] = (u64)v;                                                                     \
        long long t1 = gp_cycles();                                                               \
        *val = v;                                                                                 \
        return gp_cycle_delta(t0, t1);                                                            \
    }

TIMED_LOAD_FN(timed_cached, load_cached)
TIMED_LOAD_FN(timed_bypass, load_bypass)

/* One thread (block 0, thread 0) walks n hops of the sample cycle.  Per hop:
 * the line's first load (cached path, as the chase: cold, so DRAM), an
 * L1-bypassing re-load (an L2 hit: near or far partition), then two cached
 * re-loads; the second of those is an L1 hit, which calibrates the timing
 * overhead on the host.  The next hop starts from the last value. */
__global__ void gp_cache_partition_kernel(const u64 *start, int n, long long *t_first, long long *t_second,
                                          long long *t_l1, u64 *sink, u64 magic, u64 zero)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    const u64 *p = start;
    for (int i = 0; i < n; i++) {
        const u64 *v;
        long long c_first = timed_cached(p, &v, sink, magic, zero);
        long long c_second = timed_bypass(p, &v, sink, magic, zero);
        (void)timed_cached(p, &v, sink, magic, zero); /* the L1 copy is there now (or after this) */
        long long c_l1 = timed_cached(p, &v, sink, magic, zero);
        t_first[i] = c_first;
        t_second[i] = c_second;
        t_l1[i] = c_l1;
        p = v;
    }
    if ((u64)p == magic)
        sink[0] = (u64)p;
}

extern "C" gp_status gp_cache_partition_init(void *buf, const unsigned long long *d_pairs, int n)
{
    if (n < 1)
        return gp_fail(GP_ERR_USAGE, "cache_latency partition init: %d samples", n);
    gp_cache_partition_init_kernel<<<(n + 255) / 256, 256>>>((u64 *)buf, (const u64 *)d_pairs, n);
    GP_TRY(gp_launch_status("cache_latency partition init"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency partition init");
}

extern "C" gp_status gp_cache_partition_flush(const void *region, size_t bytes, int passes, int blocks,
                                              void *d_sink)
{
    if (bytes < 8 || bytes % 8 || passes < 1 || blocks < 1 || blocks > 65535)
        return gp_fail(GP_ERR_USAGE, "cache_latency flush: bad size %zu, passes %d or blocks %d", bytes, passes,
                       blocks);
    gp_cache_partition_flush_kernel<<<blocks, 256>>>((const u64 *)region, (long long)(bytes / 8), passes,
                                                     (u64 *)d_sink, 1ull);
    GP_TRY(gp_launch_status("cache_latency flush"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency flush");
}

extern "C" gp_status gp_cache_partition_run(const void *start, int n, long long *d_first, long long *d_second,
                                            long long *d_l1, void *d_sink)
{
    if (n < 1)
        return gp_fail(GP_ERR_USAGE, "cache_latency partition: %d samples", n);
    gp_cache_partition_kernel<<<1, 1>>>((const u64 *)start, n, d_first, d_second, d_l1, (u64 *)d_sink, 1ull,
                                        0ull);
    GP_TRY(gp_launch_status("cache_latency partition"));
    return gp_hip_status(hipDeviceSynchronize(), "cache_latency partition");
}
