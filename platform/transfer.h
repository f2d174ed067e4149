/* Host<->device and device<->device transfers for the interconnect probe:
 * pinned host memory, asynchronous copies on a stream, peer access and what
 * the runtime says of the path between two GPUs.  Implemented in HIP
 * spelling (transfer.hip, NVIDIA through gp_hip_to_cuda.h) and as stubs
 * (transfer_none.c) in the CPU-only build.  Every call returns a gp_status. */
#ifndef GP_TRANSFER_H
#define GP_TRANSFER_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make device `index` current for this thread (streams, events, allocations
 * and launches that follow belong to it). */
gp_status gp_rt_set_device(int index);

/* Page-locked host memory, portable (every device may copy from it) and
 * mapped (a kernel may load it through gp_rt_host_device_ptr). */
gp_status gp_rt_host_alloc_pinned(void **ptr, size_t bytes);
gp_status gp_rt_host_free_pinned(void *ptr);
/* The address under which the current device's kernels see pinned `host`. */
gp_status gp_rt_host_device_ptr(void **dptr, void *host);

typedef enum gp_copy_dir { GP_COPY_H2D = 0, GP_COPY_D2H = 1 } gp_copy_dir;
/* One copy queued on `s`; host memory may be pinned or pageable (pageable is
 * staged by the runtime, as an application's would be). */
gp_status gp_rt_copy_async(void *dst, const void *src, size_t bytes, gp_copy_dir dir, gp_stream s);

/* Whether device `dev` can map device `peer`'s memory. */
gp_status gp_rt_peer_can_access(int dev, int peer, int *can);
/* Let device `dev`'s kernels and copies reach `peer`'s memory; enabling it
 * twice is not an error.  Leaves `dev` current. */
gp_status gp_rt_peer_enable(int dev, int peer);
/* Copy from src_dev's memory to dst_dev's, queued on `s` (a stream of the
 * current device): the copy engines' peer path. */
gp_status gp_rt_copy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes, gp_stream s);

/* What the runtime reports of the path from `src` to `dst`. */
typedef struct gp_p2p_info {
    int access_supported;  /* peer access possible; -1 unknown */
    int native_atomics;    /* atomics over the link; -1 unknown */
    int perf_rank;         /* the runtime's relative rank of the link (lower is better); -1 unknown */
    char link[24];         /* the link type where the runtime names it (AMD: "XGMI", "PCIe"); "" otherwise */
    int hops;              /* AMD: hop count; -1 unknown */
    char source[64];       /* the calls the fields come from */
} gp_p2p_info;
gp_status gp_rt_p2p_info(int src, int dst, gp_p2p_info *out);

#ifdef __cplusplus
}
#endif
#endif
