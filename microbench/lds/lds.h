/* Launchers of lds.hip. */
#ifndef GP_LDS_H
#define GP_LDS_H

#include "runtime.h"

#define GP_LDS_MAX_REPS 16
#define GP_LDS_MAX_THREADS 1024
#define GP_LDS_CHAINS 4      /* independent chains per lane in the bank kernel */
#define GP_LDS_UNROLL 8      /* loads per chain per iteration */
#define GP_LDS_BYTES (32 * 1024)

#ifdef __cplusplus
extern "C" {
#endif

/* One thread chases the byte-offset cycle d_cycle[n] (n <= GP_LDS_BYTES/4)
 * in shared memory: `reps` passes of `loads` loads, cycles per pass into
 * d_cycles[reps].  d_sink holds 2 ints.  Synchronizes. */
gp_status gp_lds_latency_run(const int *d_cycle, int n, long long loads, int reps, long long *d_cycles,
                             int *d_sink);
/* One block of `threads` threads; each lane reads element lane * stride of
 * elem_bytes (4, 8, 16) bytes, GP_LDS_CHAINS chains x GP_LDS_UNROLL loads x
 * iters.  d_zero holds 1 + GP_LDS_CHAINS zeros; cycles of the timed loop
 * (whole block, between barriers) into d_cycles[0]; d_sink holds `threads`
 * ints.  Synchronizes. */
gp_status gp_lds_bank_run(int elem_bytes, int stride, int iters, int threads, const int *d_zero,
                          long long *d_cycles, int *d_sink);

#ifdef __cplusplus
}
#endif
#endif
