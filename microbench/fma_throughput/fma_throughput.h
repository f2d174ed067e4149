/* Launchers of fma_throughput.hip. */
#ifndef GP_FMA_THROUGHPUT_H
#define GP_FMA_THROUGHPUT_H

#include <stddef.h>
#include "runtime.h"

/* Element types of the FMA chain kernel. */
enum { GP_FMA_F32 = 0, GP_FMA_F64 = 1, GP_FMA_F16X2 = 2, GP_FMA_NTYPES = 3 };
/* Loop shapes of the single-chain fp32 kernel ([Vega-HIP] §2.2.1-2.2.3). */
enum {
    GP_FMA_LOOP_PLAIN = 0,    /* no pragma: the compiler's own unroll */
    GP_FMA_LOOP_NOUNROLL = 1, /* #pragma unroll 1 */
    GP_FMA_LOOP_UNROLL = 2,   /* #pragma unroll GP_FMA_LOOP_UNROLL_N */
    GP_FMA_LOOP_DOUBLE = 3,   /* runtime outer loop, constant inner loop of GP_FMA_LOOP_INNER */
    GP_FMA_NLOOPS = 4
};

/* FMAs per thread per outer iteration of the chain kernel: independent
 * accumulators x unrolled steps (tests/build/fma_isa_check.sh counts them). */
#define GP_FMA_ACC 8
/* fp64 chains a thread: DFMA's longer latency needs twice fp32's.  On an
 * H200 (256..1024 threads a block, every SM full), 8 chains ran fp64 FMAs at
 * 0.472 of the fp32 FMA rate, 16 at 0.512: the published 64 a clock per SM
 * against fp32's 128 needs 16. */
#define GP_FMA_ACC_F64 16
#define GP_FMA_INNER 16
#define GP_FMA_LOOP_UNROLL_N 16
#define GP_FMA_LOOP_INNER 100

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the binary carries the packed half2 kernel. */
int gp_fma_have_f16x2(void);
/* Allow `shm` bytes of dynamic shared memory for the chain kernel of `type`
 * (opt-in above the default limit) and report how many blocks of `threads`
 * threads fit on one CU with it. */
gp_status gp_fma_prepare(int type, int threads, size_t shm, int *blocks_per_cu);
/* Chain kernel: each thread runs `iters` x GP_FMA_INNER x GP_FMA_ACC FMAs
 * (GP_FMA_ACC_F64 for F64; of packed pairs for F16X2).  `out` holds at least one float. */
gp_status gp_fma_launch(gp_stream s, int type, unsigned blocks, int threads, size_t shm, int iters,
                        float *out);
/* Single-chain fp32 kernel of loop shape `shape`: `n` FMAs per thread (a
 * multiple of GP_FMA_LOOP_INNER). */
gp_status gp_fma_loop_launch(gp_stream s, int shape, unsigned blocks, int threads, int n, float *out);

#ifdef __cplusplus
}
#endif
#endif
