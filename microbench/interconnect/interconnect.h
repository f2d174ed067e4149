/* Launchers of interconnect.hip (implemented there, and as stubs in none.c). */
#ifndef GP_PROBE_INTERCONNECT_H
#define GP_PROBE_INTERCONNECT_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copy `bytes` (a multiple of 16) from src to dst with 16-byte loads and
 * stores, grid-stride, `blocks` blocks of GP_IC_COPY_BLOCK threads, on the
 * current device's stream s.  With src on a peer it measures loads over the
 * link, with dst on a peer stores over it. */
#define GP_IC_COPY_BLOCK 256
gp_status gp_ic_copy_launch(gp_stream s, const void *src, void *dst, size_t bytes, int blocks);

/* One thread follows `steps` links of the chain next[] (indices into it)
 * from index 0 and stores the last index in out[0]: every load waits for the
 * one before, so the time per step is the load latency to wherever next[]
 * lives (peer memory, mapped host memory). */
gp_status gp_ic_chase_launch(gp_stream s, const unsigned *next, int steps, unsigned *out);

#ifdef __cplusplus
}
#endif
#endif
