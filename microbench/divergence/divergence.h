/* Launchers of divergence.hip. */
#ifndef GP_DIVERGENCE_H
#define GP_DIVERGENCE_H

#include "runtime.h"

/* FMAs one thread runs per loop trip (chains x unroll), on either path. */
int gp_divergence_fma_per_iter(void);
/* One timed launch: swap = 0 runs the if/else kernel, 1 the operand-swap
 * rewrite.  Lanes take branch B where (tid / group) is odd when group > 0,
 * else where (tid % period) < count; out receives a value only when the
 * result equals magic (never, in practice). */
gp_status gp_divergence_launch(gp_stream s, int swap, unsigned grid, int block, float t0, float t1,
                               int group, int period, int count, int iters, float magic, float *out);
/* Resident blocks per CU for both kernels at `block` threads (the smaller). */
gp_status gp_divergence_blocks_per_cu(int block, int *blocks);
/* GP_WAVE_SIZE as the device code was compiled. */
gp_status gp_divergence_compiled_wave_size(int *wave);

#endif
