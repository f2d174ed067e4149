/* Launchers of cache_latency.hip. */
#ifndef GP_CACHE_LATENCY_H
#define GP_CACHE_LATENCY_H

#include "runtime.h"

#define GP_CACHE_MAX_REPS 16

#ifdef __cplusplus
extern "C" {
#endif

/* Write a chase cycle into `buf`: `nodes` nodes `stride` bytes apart (a
 * multiple of 8), grouped in pages of `lines_per_page` nodes; the device
 * arrays next_page (one per page) and next_line (one per line of a page)
 * give the successors (see the kernel).  Synchronizes. */
gp_status gp_cache_chase_init(void *buf, long long nodes, int stride, int lines_per_page,
                              const unsigned *next_page, const unsigned *next_line, unsigned last_page);
/* Sequential cycle node i -> i + 1 at `stride` bytes.  Synchronizes. */
gp_status gp_cache_chase_seq_init(void *buf, long long nodes, int stride);
/* One thread: `warm` loads, then `reps` timed passes of `loads` loads; the
 * cycles of each pass go to device array d_cycles[reps].  `bypass` selects
 * loads that skip L1.  d_sink holds 2 u64.  Synchronizes. */
gp_status gp_cache_chase_run(const void *start, int bypass, long long warm, long long loads, int reps,
                             long long *d_cycles, void *d_sink);

#ifdef __cplusplus
}
#endif
#endif
