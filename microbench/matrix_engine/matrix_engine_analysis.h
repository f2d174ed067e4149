/* Analysis of the matrix_engine probe: pure, numbers in, values out
 * (unit-tested without a GPU, tests/unit/test_matrix_engine.c). */
#ifndef GP_MATRIX_ENGINE_ANALYSIS_H
#define GP_MATRIX_ENGINE_ANALYSIS_H

#include <stddef.h>

/* Dense FLOP (OP for integer inputs) of one m x n x k matrix instruction:
 * 2 m n k (a multiply and an add per product), the count vendors' peak
 * figures use.  0 when a dimension is not positive. */
double gp_mma_flops_per_inst(int m, int n, int k);

/* Operations per cycle: `ops` done in `ms` milliseconds at `mhz`.  NaN when
 * the time or clock is not positive. */
double gp_mma_per_cycle(double ops, double ms, double mhz);

/* TFLOPS (1e12 per second) of `ops` in `ms` milliseconds; NaN when ms <= 0. */
double gp_mma_tflops(double ops, double ms);

/* Cycles one instruction of a dependent chain takes: `insts` instructions
 * one after the other in `ms` at `mhz`.  NaN when any is not positive. */
double gp_mma_latency_cycles(double ms, double mhz, double insts);

/* The input precision of matrix-engine op `op` (the GP_MMA_* of
 * matrix_engine.h): GP_MMA_FP16 .. GP_MMA_FP8, the op itself for those and
 * the precision a GP_MMA_WGMMA_* op takes (GP_MMA_WGMMA_BF16: GP_MMA_BF16);
 * -1 for an unknown op.  A precision's paths are the ops that map to it. */
int gp_mma_precision(int op);

/* The peak among candidate rates (e.g. one precision through mma.sync and
 * through wgmma): the index of the largest positive finite rate, the first
 * on a tie; -1 when none is. */
int gp_mma_choose_peak(const double *rates, size_t n);

/* Why a target has no instruction for matrix-engine op `op` (the
 * GP_MMA_* of matrix_engine.h), from its architecture name ("sm_80",
 * "gfx90a"): the reason recorded with `none`. */
const char *gp_mma_none_reason(const char *arch, int op);

/* Block sizes of the one-CU sweep: multiples of `group` threads (the
 * threads that issue one instruction together) from one group up to
 * `max_threads`, every group up to 4, then 6, 8, 12, 16, 24, 32...; at most
 * `cap` written to out.  Returns the count. */
int gp_mma_block_sizes(int group, int max_threads, int *out, int cap);

#endif
