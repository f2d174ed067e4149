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

/* DRAM latency by L2 partition (see cache_latency.c).  Write `n` pointers:
 * for each i, the u64 at byte offset d_pairs[2i] of `buf` gets the address
 * buf + d_pairs[2i + 1] (offsets multiples of 8).  Synchronizes. */
gp_status gp_cache_partition_init(void *buf, const unsigned long long *d_pairs, int n);
/* Flush the caches: `blocks` blocks of 256 threads read `bytes` of `region`
 * (a multiple of 8) `passes` times and sum into d_sink.  Synchronizes. */
gp_status gp_cache_partition_flush(const void *region, size_t bytes, int passes, int blocks, void *d_sink);
/* One thread walks n hops from `start`; per hop the cycles of one load each:
 * d_first[i] the first (cached) load of the line, d_second[i] an immediate
 * L1-bypassing re-load, d_l1[i] the second of two cached re-loads (an L1
 * hit).  Synchronizes. */
gp_status gp_cache_partition_run(const void *start, int n, long long *d_first, long long *d_second,
                                 long long *d_l1, void *d_sink);

#ifdef __cplusplus
}
#endif
#endif
