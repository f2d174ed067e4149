/* Host runtime API of gpuprobe, in C.
 *
 * This is the only door from host code to the GPU.  It is implemented once in
 * HIP spelling (runtime.hip), compiled by hipcc for AMD and by nvcc through
 * gp_hip_to_cuda.h for NVIDIA, and by runtime_none.c when no GPU compiler was
 * found.  Nothing here exits the process: every call returns a gp_status. */
#ifndef GP_RUNTIME_H
#define GP_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include "gp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_device_info {
    int index;
    char name[256];
    char vendor[16];          /* "AMD" or "NVIDIA" */
    char arch[32];            /* "gfx900", "gfx90a", "sm_80", "sm_90" */
    char pci_bus_id[32];      /* "0000:3b:00.0" from the runtime; "" when it gave none */
    char uuid[48];            /* "GPU-..." (platform/device_id.h); "" when the runtime has none */
    char uuid_source[128];    /* the call it came from, or why there is none */
    int compute_units;        /* CUs (AMD) or SMs (NVIDIA) */
    int wave_size;            /* as reported by the runtime */
    int max_threads_per_block;
    int max_threads_per_cu;
    int max_block_dim[3];
    int max_grid_dim[3];
    size_t lds_per_block;     /* shared memory a block may use without opt-in */
    size_t lds_per_block_optin; /* with opt-in (NVIDIA), else = lds_per_block */
    size_t lds_per_cu;
    int regs_per_block;
    int regs_per_cu;
    size_t l2_bytes;
    size_t mem_bytes;
    int mem_bus_bits;
    double mem_clock_mhz;     /* as reported; DDR factor not applied */
    double core_clock_mhz;    /* as reported: the maximum (boost) clock */
    double timer_hz;          /* nominal rate of the device's constant-rate timer (0: unknown) */
    char timer_source[160];   /* where timer_hz comes from */
} gp_device_info;

typedef struct gp_event_s *gp_event;
typedef struct gp_stream_s *gp_stream;   /* NULL means the default stream */
typedef struct gp_graph_s *gp_graph;

/* "hip", "cuda" or "none". */
const char *gp_rt_backend(void);
/* Architectures this binary carries device code for, ';' separated. */
const char *gp_rt_compiled_archs(void);
/* 1 when the device code carries PTX the driver can JIT for newer GPUs
 * (NVIDIA builds), 0 otherwise. */
int gp_rt_compiled_ptx(void);

gp_status gp_rt_device_count(int *count);
/* Select device `index` for this thread and fill `info`. */
gp_status gp_rt_device_open(int index, gp_device_info *info);
/* Target name ("gfx1100", "sm_90") of the device this process opened last
 * with gp_rt_device_open; "" before any.  Launchers check that the shape
 * they launch is compiled for it (platform/gp_target.h). */
const char *gp_rt_open_arch(void);

gp_status gp_rt_malloc(void **ptr, size_t bytes);
gp_status gp_rt_free(void *ptr);
gp_status gp_rt_memset(void *dst, int byte, size_t bytes);
/* The same, queued on `s` (in stream order with the work around it). */
gp_status gp_rt_memset_async(void *dst, int byte, size_t bytes, gp_stream s);
gp_status gp_rt_copy_to_device(void *dst, const void *src, size_t bytes);
gp_status gp_rt_copy_to_host(void *dst, const void *src, size_t bytes);
/* Device-to-device copy by the vendor runtime, queued on `s`: the vendor's own
 * copy, a baseline for the bandwidth probes. */
gp_status gp_rt_copy_device_async(void *dst, const void *src, size_t bytes, gp_stream s);
gp_status gp_rt_mem_info(size_t *free_bytes, size_t *total_bytes);
gp_status gp_rt_synchronize(void);

gp_status gp_rt_stream_create(gp_stream *s);
gp_status gp_rt_stream_destroy(gp_stream s);
gp_status gp_rt_stream_synchronize(gp_stream s);

gp_status gp_rt_event_create(gp_event *e);
gp_status gp_rt_event_destroy(gp_event e);
gp_status gp_rt_event_record(gp_event e, gp_stream s);
gp_status gp_rt_event_elapsed_ms(gp_event start, gp_event stop, float *ms);

/* A hold on a stream, for timing (nvbench's "blocking kernel"): one thread
 * that spins until the host releases it.  Begin the hold, queue the start
 * event, the work and the stop event behind it, then release: the GPU meets
 * them back to back, so the interval is the work's GPU time without the
 * host's launch calls (on an idle GPU the start event fires as soon as it
 * is queued, and a 10 us kernel's interval then also holds the microseconds
 * the host takes to launch it).  A hold never released lets go by itself
 * after 2 x 10^8 counts of the core-cycle counter (0.1 s at 2 GHz), and
 * gp_rt_hold_timed_out says so once the stream has passed it: the work
 * waited on the host inside (a synchronizing call), or the host stalled.
 * GP_ERR_NO_GPU in the CPU-only build. */
typedef struct gp_hold gp_hold;
gp_status gp_rt_hold_create(gp_hold **h);
void gp_rt_hold_destroy(gp_hold *h);
gp_status gp_rt_hold_begin(gp_hold *h, gp_stream s);
void gp_rt_hold_release(gp_hold *h);
int gp_rt_hold_timed_out(const gp_hold *h);

/* Stream capture into a graph, for launch cost without host overhead. */
gp_status gp_rt_graph_capture_begin(gp_stream s);
gp_status gp_rt_graph_capture_end(gp_stream s, gp_graph *g);
gp_status gp_rt_graph_launch(gp_graph g, gp_stream s);
gp_status gp_rt_graph_destroy(gp_graph g);

/* Resource use of one compiled kernel (a __global__ function's address, as
 * a kernel's own .hip hands it out), from the runtime's function attributes:
 * what the rules' occupancy model needs on the device at hand rather than
 * the build's constants (kernels/rule.h, gp_rule_resources). */
typedef struct gp_func_attr {
    int regs_per_thread;        /* registers per thread the instantiation was allocated */
    size_t static_lds_bytes;    /* static shared memory per block (dynamic LDS comes on top) */
    size_t local_bytes;         /* per-thread local memory (spills, stack) */
    int max_threads_per_block;  /* the most threads a block of it may have (launch bounds, registers) */
    int code_arch;              /* NVIDIA: the virtual architecture the running code was compiled for
                                 * (ptxVersion: 90 for compute_90, also when the driver JIT-compiled
                                 * it), which is what __CUDA_ARCH__ was; 0 on AMD */
    char source[48];            /* the call the values came from: "cudaFuncGetAttributes", "hipFuncGetAttributes" */
} gp_func_attr;

/* GP_ERR_USAGE for a NULL function; GP_ERR_NO_GPU in the CPU-only build. */
gp_status gp_func_attributes(const void *kernel_fn, gp_func_attr *out);

/* Let blocks of kernel_fn use `dyn_lds` bytes of dynamic LDS (beyond the
 * 48 KiB every target grants, NVIDIA needs the opt-in attribute), and give
 * the blocks of `threads` threads with that LDS one CU holds at once
 * (*blocks_per_cu, 0: it does not fit) and the current device's CUs (*cus):
 * a persistent kernel's grid.  Answers are kept per function, shape and
 * device, so a launcher may ask before every launch at the cost of one
 * runtime query of the current device (no device work).  More LDS than the
 * device grants a block: GP_ERR_USAGE. */
gp_status gp_func_dynamic_lds(const void *kernel_fn, int threads, size_t dyn_lds, int *blocks_per_cu, int *cus);

/* Clock kernel (platform/clock.hip): `blocks` blocks of one thread each spin
 * for about `spin_cycles` core cycles and store, per block, the cycles and
 * constant-rate timer ticks that elapsed.  Host arrays hold `blocks` items.
 * After a device synchronize and an untimed warm-up spin, the timed spin is
 * bracketed by two events on the default stream around its launch alone;
 * *event_ms is their elapsed time (the reference the timer is checked
 * against). */
gp_status gp_rt_clock_spin(int blocks, long long spin_cycles, long long *cycles, long long *ticks,
                           double *event_ms);

#ifdef __cplusplus
}
#endif
#endif
