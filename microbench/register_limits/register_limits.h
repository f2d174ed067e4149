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

/* Live values of the chain variants, X(R) each.  Steps of 4 up to 128, so
 * register counts both odd multiples of 4 and multiples of 8 are compiled:
 * with steps of 8 alone an allocation granule of 4 (gfx9) and one of 8
 * explain the same occupancy (tests/unit/test_register_limits.c fits both). */
#define GP_REGLIM_VARIANTS(X)                                                              \
    X(16) X(20) X(24) X(28) X(32) X(36) X(40) X(44) X(48) X(52) X(56) X(60) X(64) X(68)    \
    X(72) X(76) X(80) X(84) X(88) X(92) X(96) X(100) X(104) X(108) X(112) X(116) X(120)   \
    X(124) X(128) X(136) X(144) X(152) X(160) X(168) X(176) X(184) X(192) X(200) X(208)   \
    X(216) X(224) X(232) X(240) X(248) X(256) X(264) X(272)

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
