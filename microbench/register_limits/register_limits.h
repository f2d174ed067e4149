/* Launchers of register_limits.hip. */
#ifndef GP_REGISTER_LIMITS_H
#define GP_REGISTER_LIMITS_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of every variant (also its __launch_bounds__). */
#define GP_REGLIM_BLOCK 64

/* Number of variants; variant i keeps gp_reglim_live(i) values live. */
int gp_reglim_count(void);
int gp_reglim_live(int variant);
/* What the compiler and runtime made of variant i: registers per thread,
 * local (spill) bytes per thread, blocks of GP_REGLIM_BLOCK per CU. */
gp_status gp_reglim_attrs(int variant, int *regs, size_t *local_bytes, int *blocks_per_cu);
/* Each thread runs `iters` passes of a dependent chain through all live values. */
gp_status gp_reglim_launch(gp_stream s, int variant, unsigned blocks, int iters, float *out);

#ifdef __cplusplus
}
#endif
#endif
