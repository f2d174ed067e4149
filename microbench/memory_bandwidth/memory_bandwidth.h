/* Launchers of memory_bandwidth.hip. */
#ifndef GP_MEMORY_BANDWIDTH_H
#define GP_MEMORY_BANDWIDTH_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    GP_MEMBW_READ = 0,    /* acc += a[i]; each thread keeps its elements across passes */
    GP_MEMBW_WRITE = 1,   /* a[i] = s */
    GP_MEMBW_COPY = 2,    /* b[i] = a[i] */
    GP_MEMBW_TRIAD = 3,   /* a[i] = b[i] + s * c[i] */
    GP_MEMBW_READ_L2 = 4, /* as READ, but the blocks rotate over the data every pass */
    GP_MEMBW_KERNELS = 5
};

/* One launch of `kernel` over arrays of n elements of vec_bytes (4, 8, 16)
 * each, `passes` times over the data in one launch.  a, b, c as in the
 * comments above (unused ones may be NULL).  `out` gets one float only when
 * the read sum equals `magic` (never in practice: it keeps the loads alive).
 * unroll (1, 2, 4): elements of vec_bytes per thread per grid-stride step,
 * all loads issued before any store; hint (0/1): streaming (evict-first /
 * non-temporal) loads and stores.  unroll > 1 or hint = 1 only with 16-byte
 * accesses. */
gp_status gp_membw_launch(gp_stream s, int kernel, int vec_bytes, int unroll, int hint, unsigned grid,
                          int block, void *a, void *b, void *c, size_t n, int passes, float scalar,
                          float magic, float *out);

/* Resident `block`-thread blocks per CU of that kernel variant (the runtime's
 * occupancy calculator): the persistent grid is this many x CUs. */
gp_status gp_membw_blocks_per_cu(int kernel, int vec_bytes, int unroll, int hint, int block, int *blocks);

#ifdef __cplusplus
}
#endif
#endif
