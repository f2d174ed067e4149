/* Device-side dialect of gpuprobe kernels: include this first in every .hip.
 *
 * Kernels are HIP C++ written C-style; the syntax HIP and CUDA share is used as
 * is.  What differs between vendors goes through the gp_ names below.  The
 * vendor is known from the compiler: clang's HIP mode defines __HIP__, nvcc
 * defines __CUDACC__. */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#define GP_VENDOR_AMD 1
#define gp_graph_instantiate(exec, g) hipGraphInstantiate((exec), (g), NULL, NULL, 0)
#elif defined(__CUDACC__)
#include "gp_hip_to_cuda.h"
#define GP_VENDOR_NVIDIA 1
#else
#error "gp_device.h is for GPU sources (.hip) compiled by hipcc or nvcc"
#endif

#include "gp_status.h"
#include "gp_target.h"
#include "gp_cycle_span.h"

/* GP_WAVE_SIZE: compile-time wave width of the target being compiled, from the
 * compiler's macros, never from warpSize (not a constant in newer HIP).  gfx9
 * (gfx900/906/908/90a/94x) runs wave64; RDNA (gfx10+) runs wave32 in HIP's
 * default mode, wave64 under -mwavefrontsize64: clang's
 * __AMDGCN_WAVEFRONT_SIZE follows the mode, so it comes first; the target
 * macros are the fallback.  NVIDIA runs 32.  The host pass of a HIP compile
 * sees no target macro; it never runs device code, so any value there is
 * inert.  tests/build/check_gpu_build.sh checks every kernel's wave size. */
#if defined(GP_VENDOR_NVIDIA)
#define GP_WAVE_SIZE 32
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN_WAVEFRONT_SIZE)
#define GP_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#elif defined(__GFX9__)
#define GP_WAVE_SIZE 64
#elif defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#define GP_WAVE_SIZE 32
#else
#define GP_WAVE_SIZE 64 /* host pass of a HIP compile: inert */
#endif

#define GP_LAUNCH_BOUNDS(max_threads) __launch_bounds__(max_threads)

/* GP_REG_CLASS: the register class (gp_target.h) of the target being
 * compiled, and GP_VGPR_BUDGET the registers one thread may hold there.
 * Kernels instantiate a shape only where its class bit is in GP_REG_CLASS.
 * NVIDIA: the same in both passes (nvcc wants a kernel template instantiated
 * alike with and without __CUDA_ARCH__).  AMD device pass: gfx11 is
 * GP_REGS_128 (clang 15's cap), every other target GP_REGS_256.  AMD host
 * pass: no target macro, so the union: the host stubs and launchers cover
 * every AMD class, and the host code asks gp_target_reg_class(device arch)
 * before it launches a shape (a code object of another class lacks it). */
#if defined(GP_VENDOR_NVIDIA)
#define GP_REG_CLASS GP_REGS_NV
#define GP_VGPR_BUDGET 255
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__GFX11__) && __clang_major__ < 16
#define GP_REG_CLASS GP_REGS_128 /* clang 15's gfx11 cap; gp_target.c keys the host side alike */
#define GP_VGPR_BUDGET 128
#elif defined(__HIP_DEVICE_COMPILE__)
#define GP_REG_CLASS GP_REGS_256
#define GP_VGPR_BUDGET 256
#else
#define GP_REG_CLASS (GP_REGS_256 | GP_REGS_128)
#define GP_VGPR_BUDGET 256 /* host pass of a HIP compile: inert */
#endif

/* Core-clock cycle counter of the CU/SM the calling wave runs on. */
static __device__ __forceinline__ long long gp_cycles(void)
{
#if defined(GP_VENDOR_NVIDIA)
    return clock64();
#else
    return (long long)clock64(); /* s_memtime (gfx9, gfx10); s_getreg SHADER_CYCLES (gfx11, 20 bits) */
#endif
}

/* Width of gp_cycles' counter: 20 bits on gfx11 (HW_REG_SHADER_CYCLES; no
 * s_memtime there), 64 elsewhere.  Intervals go through gp_cycle_delta (one
 * interval under a wrap) or, for a timed pass of any length, a
 * gp_cycle_span with GP_CYCLE_LAP after every GP_CYCLE_LAP_WORK dependent
 * operations (gp_cycle_span.h says why). */
#if defined(GP_VENDOR_AMD) && defined(__GFX11__)
#define GP_CYCLE_BITS 20
#else
#define GP_CYCLE_BITS 64
#endif

static __device__ __forceinline__ long long gp_cycle_delta(long long c0, long long c1)
{
    return gp_counter_delta(c0, c1, GP_CYCLE_BITS);
}

/* A lap of a timed pass where the counter is narrow; nothing where it has 64
 * bits (the pass's two reads are exact there, and the loop stays bare). */
#if GP_CYCLE_BITS < 64
#define GP_CYCLE_LAP(span) gp_span_lap(&(span), gp_cycles(), GP_CYCLE_BITS)
#else
#define GP_CYCLE_LAP(span) ((void)0)
#endif
/* Start and end a timed pass: the cycles between, summed over its laps. */
#define GP_CYCLE_START(span) gp_span_start(&(span), gp_cycles())
#define GP_CYCLE_END(span) (gp_span_lap(&(span), gp_cycles(), GP_CYCLE_BITS), (span).total)

/* Constant-rate timer; its rate is gp_device_info.timer_hz. NVIDIA's globaltimer
 * counts nanoseconds (updated coarsely, ~1 us on recent parts); AMD's
 * real-time counter counts at the device's wall-clock rate (27 MHz on
 * gfx900, 25 MHz on the other gfx9 before gfx940, 100 MHz on gfx940+, gfx10,
 * gfx11; platform/timer_rate.c).  gfx11 has no s_memrealtime: the counter is
 * read with s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME (RDNA3 ISA guide,
 * "S_SENDMSG_RTN"), and HIP 5.2's wall_clock64 returns -1 there, which would
 * give the clock spin 0 ticks (tests/build/check_gpu_build.sh reads the spin
 * kernel's ISA for a timer read on every AMD target). */
static __device__ __forceinline__ long long gp_timer(void)
{
#if defined(GP_VENDOR_NVIDIA)
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long)t;
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__GFX11__)
    unsigned long long t;
    asm volatile("s_sendmsg_rtn_b64 %0, sendmsg(MSG_RTN_GET_REALTIME)\n\ts_waitcnt lgkmcnt(0)" : "=s"(t));
    return (long long)t;
#elif defined(__HIP_DEVICE_COMPILE__)
    return (long long)wall_clock64();
#else
    return 0; /* host pass of a HIP compile: declared only for the device */
#endif
}

/* Id of the CU/SM the calling wave runs on. */
static __device__ __forceinline__ unsigned gp_cu_id(void)
{
#if defined(GP_VENDOR_NVIDIA)
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
#else
    return __smid();
#endif
}

/* Read `v` from lane `src` of the calling wave; all lanes must call it. */
static __device__ __forceinline__ float gp_shfl(float v, int src)
{
#if defined(GP_VENDOR_NVIDIA)
    return __shfl_sync(0xffffffffu, v, src);
#else
    return __shfl(v, src);
#endif
}

static __device__ __forceinline__ int gp_shfl_int(int v, int src)
{
#if defined(GP_VENDOR_NVIDIA)
    return __shfl_sync(0xffffffffu, v, src);
#else
    return __shfl(v, src);
#endif
}

static __device__ __forceinline__ float gp_shfl_xor(float v, int mask)
{
#if defined(GP_VENDOR_NVIDIA)
    return __shfl_xor_sync(0xffffffffu, v, mask);
#else
    return __shfl_xor(v, mask);
#endif
}

/* Read `v` from lane (this lane - delta) of the calling wave; lanes below
 * delta get their own `v` back (a scan's shift).  All lanes must call it. */
static __device__ __forceinline__ float gp_shfl_up(float v, int delta)
{
#if defined(GP_VENDOR_NVIDIA)
    return __shfl_up_sync(0xffffffffu, v, (unsigned)delta);
#else
    return __shfl_up(v, (unsigned)delta);
#endif
}

static __device__ __forceinline__ int gp_shfl_up_int(int v, int delta)
{
#if defined(GP_VENDOR_NVIDIA)
    return __shfl_up_sync(0xffffffffu, v, (unsigned)delta);
#else
    return __shfl_up(v, (unsigned)delta);
#endif
}

/* Bit l set when lane l of the calling wave has `pred` != 0 (64 bits wide
 * for any wave size); all lanes must call it. */
static __device__ __forceinline__ unsigned long long gp_ballot(int pred)
{
#if defined(GP_VENDOR_NVIDIA)
    return (unsigned long long)__ballot_sync(0xffffffffu, pred);
#else
    return (unsigned long long)__ballot(pred);
#endif
}

/* Pause the calling wave for about NS nanoseconds (a polling loop's pacing:
 * fewer requests to a line other waves are about to write).  NVIDIA:
 * __nanosleep (sm_70+; the hardware sleeps somewhere in [0, 2 NS], PTX ISA
 * "nanosleep"); before sm_70 nothing.  AMD: s_sleep, whose operand counts 64
 * clocks (up to 127), taken at GP_SLEEP_AMD_MHZ (the MI25/MI250X boost
 * clocks are 1.5-1.7 GHz; a pause is a hint, not a timer). */
#define GP_SLEEP_AMD_MHZ 1500
template <unsigned NS>
static __device__ __forceinline__ void gp_sleep_ns(void)
{
#if defined(GP_VENDOR_NVIDIA)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    __nanosleep(NS);
#endif
#elif defined(__HIP_DEVICE_COMPILE__)
    enum { units = (NS * GP_SLEEP_AMD_MHZ / 1000 + 63) / 64 };
    __builtin_amdgcn_s_sleep(units < 1 ? 1 : units > 127 ? 127 : units);
#endif
}

/* The bulk copy engine and transaction barriers (NVIDIA sm_90+: PTX ISA 8.0
 * "cp.async.bulk", "mbarrier"): one instruction copies a 16-byte-aligned run
 * of global memory into shared memory and signals an mbarrier in shared
 * memory when its bytes have landed, so one lane can keep several tiles in
 * flight while the block's other waves compute.  GP_HAS_BULK_COPY is 1 in the
 * device pass of such a target, else 0 and none of the gp_mbar_ / gp_bulk_
 * helpers exist (a kernel that uses them guards its body; the host asks
 * gp_target_has_bulk_copy before it launches one). */
#if defined(GP_VENDOR_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GP_HAS_BULK_COPY 1
static __device__ __forceinline__ unsigned gp_lds_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
/* An mbarrier that completes a phase when `count` arrivals and every byte
 * announced by gp_mbar_expect have come; then make it visible to the copy
 * engine (fence.mbarrier_init) before any copy names it. */
static __device__ __forceinline__ void gp_mbar_init(unsigned long long *b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(gp_lds_addr(b)), "r"(count) : "memory");
}
static __device__ __forceinline__ void gp_mbar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
static __device__ __forceinline__ void gp_mbar_arrive(unsigned long long *b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(gp_lds_addr(b)) : "memory");
}
/* Arrive and announce `bytes` a bulk copy will deliver in this phase. */
static __device__ __forceinline__ void gp_mbar_expect(unsigned long long *b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(gp_lds_addr(b)), "r"(bytes)
                 : "memory");
}
/* Wait for the phase of parity `parity` to complete (acquire: what the
 * arrivers wrote before arriving, and the copied bytes, are visible). */
static __device__ __forceinline__ void gp_mbar_wait(unsigned long long *b, unsigned parity)
{
    unsigned ok = 0;
    do {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok)
                     : "r"(gp_lds_addr(b)), "r"(parity)
                     : "memory");
    } while (!ok);
}
/* Order this thread's view of shared memory (what the block's threads read
 * and wrote through ordinary loads and stores, made visible to it by a
 * barrier) before the bulk copies it issues next: the copy engine writes
 * through the async proxy (PTX ISA, "Proxies"), so a buffer the threads
 * have read is handed to it across this fence. */
static __device__ __forceinline__ void gp_fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
/* Copy `bytes` (a multiple of 16, both addresses 16-byte aligned) from global
 * src to shared dst; completes `bytes` of b's announced transaction. */
static __device__ __forceinline__ void gp_bulk_load(void *dst, const void *src, unsigned bytes, unsigned long long *b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     gp_lds_addr(dst)),
                 "l"(src), "r"(bytes), "r"(gp_lds_addr(b))
                 : "memory");
}
/* The calling warp's lanes meet (their earlier shared-memory reads are done
 * before any lane goes on): before one lane releases a buffer for the warp. */
static __device__ __forceinline__ void gp_wave_sync(void) { __syncwarp(); }
/* Barrier `id` (1..15; 0 is __syncthreads) among `threads` threads, whole
 * warps: a subset of the block synchronizes while other warps go on. */
static __device__ __forceinline__ void gp_named_sync(unsigned id, unsigned threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
#else
#define GP_HAS_BULK_COPY 0
#endif

/* A load of a value another CU wrote (ordered by the writer's fence and the
 * atomic the reader saw): past the caches that are not coherent across CUs,
 * and free to be in flight with the next such load.  NVIDIA: a volatile load
 * (ld.volatile), which ptxas issues back to back.  AMD: a relaxed atomic load
 * at device scope (glc on gfx9); a volatile load there is followed by
 * s_waitcnt vmcnt(0) (clang's memory legalizer), so volatile loads go one
 * round trip at a time. */
#if defined(GP_VENDOR_NVIDIA)
template <typename T> static __device__ __forceinline__ T gp_ld_from_other_cus(const T *p)
{
    return *(const volatile T *)p;
}
#else
template <typename T> static __device__ __forceinline__ T gp_ld_from_other_cus(const T *p)
{
    return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
#endif

/* Last-use loads and write-once stores: evict-first in the caches (NVIDIA
 * ld/st.global.cs, "cache streaming, likely accessed once"; AMD the
 * non-temporal slc/nt bits), so lines that are not read again do not push
 * out ones that are.  clang's non-temporal builtins take scalars or its own
 * vector types: AMD's vectors go through an ext_vector_type of the same
 * size, copied in registers. */
#if defined(GP_VENDOR_NVIDIA)
#define GP_LAST_USE(T, X)                                                                                              \
    static __device__ __forceinline__ T gp_ld_last_use(const T *p) { return __ldcs(p); }                             \
    static __device__ __forceinline__ void gp_st_write_once(T *p, T v) { __stcs(p, v); }
#else
#define GP_LAST_USE(T, X)                                                                                              \
    static __device__ __forceinline__ T gp_ld_last_use(const T *p)                                                     \
    {                                                                                                                  \
        const X v = __builtin_nontemporal_load((const X *)p);                                                          \
        T r;                                                                                                           \
        __builtin_memcpy(&r, &v, sizeof r);                                                                            \
        return r;                                                                                                      \
    }                                                                                                                  \
    static __device__ __forceinline__ void gp_st_write_once(T *p, T r)                                                 \
    {                                                                                                                  \
        X v;                                                                                                           \
        __builtin_memcpy(&v, &r, sizeof v);                                                                            \
        __builtin_nontemporal_store(v, (X *)p);                                                                        \
    }
typedef float gp_f2_ext __attribute__((ext_vector_type(2)));
typedef float gp_f4_ext __attribute__((ext_vector_type(4)));
typedef unsigned gp_u4_ext __attribute__((ext_vector_type(4)));
#endif
GP_LAST_USE(float, float)
GP_LAST_USE(float2, gp_f2_ext)
GP_LAST_USE(float4, gp_f4_ext)
GP_LAST_USE(uint4, gp_u4_ext)
#undef GP_LAST_USE

/* Host side of a launcher: turn the launch's error state into a gp_status. */
static inline gp_status gp_launch_status(const char *what)
{
    hipError_t e = hipGetLastError();
    if (e != hipSuccess)
        return gp_fail(GP_ERR_RUNTIME, "%s: launch failed: %s", what, hipGetErrorString(e));
    return gp_ok();
}

static inline gp_status gp_hip_status(hipError_t e, const char *what)
{
    if (e != hipSuccess)
        return gp_fail(GP_ERR_RUNTIME, "%s: %s", what, hipGetErrorString(e));
    return gp_ok();
}

#endif
