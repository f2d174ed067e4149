/* Launchers of matrix_engine.hip (implemented there, and as stubs in none.c)
 * and the constants the kernels and the host share. */
#ifndef GP_MATRIX_ENGINE_H
#define GP_MATRIX_ENGINE_H

#include "runtime.h"

/* The matrix-engine paths the probe times: an input precision through one
 * instruction shape of the target (matrix_engine.hip lists them per target).
 * The WGMMA ones are Hopper's warpgroup MMA, a path of its own because it
 * alone reaches the published dense rate there. */
enum {
    GP_MMA_FP16 = 0,  /* f16 in, f32 accumulate */
    GP_MMA_BF16 = 1,  /* bf16 in, f32 accumulate */
    GP_MMA_TF32 = 2,  /* tf32 (AMD: xf32) in, f32 accumulate */
    GP_MMA_FP32 = 3,  /* fp32 in, f32 accumulate (AMD MFMA only) */
    GP_MMA_INT8 = 4,  /* s8 in, s32 accumulate */
    GP_MMA_FP8 = 5,   /* e4m3 in, f32 accumulate */
    GP_MMA_WGMMA_FP16 = 6, /* wgmma m64n256k16 f16, f32 accumulate */
    GP_MMA_WGMMA_BF16 = 7, /* wgmma m64n256k16 bf16 */
    GP_MMA_WGMMA_TF32 = 8, /* wgmma m64n256k8 tf32 */
    GP_MMA_WGMMA_INT8 = 9, /* wgmma m64n256k32 s8, s32 accumulate */
    GP_MMA_WGMMA_FP8 = 10, /* wgmma m64n256k32 e4m3, f32 accumulate */
    GP_MMA_NOPS = 11
};
/* The WGMMA ops are the last ones, GP_MMA_WGMMA_FIRST up to GP_MMA_NOPS - 1:
 * one kernel template of their own (matrix_engine_sm90a.hip), one
 * accumulator and no latency run, so the host asks this, not a list. */
#define GP_MMA_WGMMA_FIRST GP_MMA_WGMMA_FP16
#define GP_MMA_NWGMMA (GP_MMA_NOPS - GP_MMA_WGMMA_FIRST)
static inline int gp_mma_is_wgmma(int op)
{
    return op >= GP_MMA_WGMMA_FIRST && op < GP_MMA_NOPS;
}

/* Independent accumulator tiles per wave (enough instructions in flight to
 * cover the pipe's latency at a few waves per SIMD) and the unrolled
 * instructions per accumulator per loop trip: one loop trip issues
 * GP_MMA_ACC x GP_MMA_INNER matrix instructions per wave
 * (tests/build/mma_isa_check.sh counts them).  The latency kernel keeps one
 * accumulator: every instruction waits for the previous one. */
#define GP_MMA_ACC 4
#define GP_MMA_INNER 8
/* The one accumulator the warpgroup MMA kernel keeps: wgmma.mma_async is
 * asynchronous, so GP_MMA_INNER of them are issued into one accumulator
 * (the hardware chains them) before one wait; a second accumulator would
 * only double its 64 registers. */
#define GP_MMA_WG_ACC 1

/* What the device code of this device's target does for `op`: the
 * instruction's m, n, k and the threads that issue one instruction together
 * (32 a warp, 64 an AMD wave64, 128 a Hopper warpgroup); all 0 when the
 * target has no such instruction or this binary carries none for it. */
typedef struct gp_mma_shape {
    int m, n, k, group;
} gp_mma_shape;

#ifdef __cplusplus
extern "C" {
#endif

/* The instruction shape of every op on the current device (one query
 * kernel, so a binary built for several targets answers for the one it runs
 * on); shapes[GP_MMA_NOPS]. */
gp_status gp_mma_query(gp_mma_shape *shapes);
/* How many blocks of `threads` threads of op's kernel fit on one CU. */
gp_status gp_mma_blocks_per_cu(int op, int chain, int threads, int *blocks);
/* op's kernel: each thread's wave issues iters x GP_MMA_INNER x accumulators
 * matrix instructions, GP_MMA_ACC accumulators (chain 0) or one (chain 1:
 * the dependent chain).  `out` holds at least one float. */
gp_status gp_mma_launch(gp_stream s, int op, int chain, unsigned blocks, int threads, int iters, float *out);

/* The warpgroup MMA path, in matrix_engine_sm90a.hip (compiled as sm_90a
 * code when the build targets sm_90, empty otherwise), called only by the
 * launchers above: the shapes of the WGMMA ops into shapes[] (left 0 when
 * this device runs no sm_90a code of this binary), the occupancy and the
 * launch (`threads` a multiple of 128: one warpgroup per 128). */
void gp_mma_wgmma_shapes(gp_mma_shape *shapes);
gp_status gp_mma_wgmma_blocks_per_cu(int op, int threads, int *blocks);
gp_status gp_mma_wgmma_launch(gp_stream s, int op, unsigned blocks, int threads, int iters, unsigned bits,
                              unsigned mask, float *out);

#ifdef __cplusplus
}
#endif
#endif
