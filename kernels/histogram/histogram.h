/* histogram: 256 bins over uint8 data, and 4096 bins over uint32 keys, with
 * privatized sub-histograms in LDS and one global merge per block (the
 * privatization chapter of Kirk and Hwu, Programming Massively Parallel
 * Processors, 3rd ed., ch. 9).  Docs: docs/kernels/histogram.md.
 *
 * Results (exact, the same on every run and under every table):
 *   - u8: bins[b] = the number of bytes equal to b, b = 0..255;
 *   - u32: bins[k] = the number of keys equal to k for k < 4096; keys >= 4096
 *     are counted nowhere (CUB HistogramEven over the levels 0, 1, ..., 4096
 *     does the same).
 * bins is overwritten (zeroed in stream order, then counted).  n may be any
 * length below 2^32 (the counts are 32-bit); n = 0 zeroes the bins.
 * Parameters: [kernel.histogram] (histogram_params.inc: block,
 * items_per_thread, copies_u8, copies_u32), clamped to the device; for a
 * launch they come from gp_kernel_params(&gp_kernel_histogram, table, dev,
 * shape, ...), which reads the table (the rule's values for the shape) and
 * calls gp_histogram_params_fit. */
#ifndef GP_HISTOGRAM_H
#define GP_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_HIST_U8_BINS 256
#define GP_HIST_U32_BINS 4096
#define GP_HIST_MAX_BLOCK 1024
/* 16-byte vectors per thread per step compiled in: 1, 2, 4. */
#define GP_HIST_MAX_VECS 4
/* Sub-histograms per block compiled in: powers of two up to 32 (the bank
 * count of every target built here), within GP_HIST_MAX_LDS. */
#define GP_HIST_MAX_COPIES 32
/* LDS per block the kernels are compiled for: static shared memory, which
 * every target grants up to 48 KiB without opt-in. */
#define GP_HIST_MAX_LDS (48 * 1024)
/* Registers per thread for v vectors a step: the kernels' launch bounds keep
 * them within 32 for 1 and 2 vectors on NVIDIA (2 blocks of 1024 a SM), so
 * registers never limit the blocks the LDS allows; 4 vectors (two steps of
 * 4 x 16 bytes live) need 64 (ptxas sm_90 spills at 32).  Checked against
 * ptxas by tests/build/check_gpu_build.sh (histogram_rule.c HIST_REGS). */
#define GP_HIST_REGS(v) ((v) <= 2 ? 32 : 64)
/* Samples one launch may count: the counts are 32-bit. */
#define GP_HIST_MAX_N ((size_t)UINT32_MAX)

/* [kernel.histogram] (histogram_params.inc), and what fit derives. */
typedef struct gp_histogram_params {
#define GP_PARAM GP_PARAM_FIELD
#include "histogram_params.inc"
#undef GP_PARAM
    int grid_u8;    /* persistent grid: the blocks the device holds at once, all CUs */
    int grid_u32;
    char note[192]; /* what was adjusted to fit the device ("" when nothing) */
} gp_histogram_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0] = n samples,
 * opt[0] = the sample type (bytes into 256 bins, or keys into 4096);
 * `--shape N`, `--shape '2^30 u8'`, `--shape '2^28 u32'`.  The data's kind
 * (uniform, skewed, ...) is the case's (gp_kcase.data), not the shape's. */
enum { GP_HIST_N = 0 };                   /* gp_shape.d[] */
enum { GP_HIST_TYPE = 0 };                /* gp_shape.opt[] */
enum { GP_HIST_U8 = 0, GP_HIST_U32 = 1 }; /* opt[GP_HIST_TYPE] */

/* Clamp p to `dev` (NULL: a device of one CU) and size its persistent grids;
 * what changed goes into p->note. */
void gp_histogram_params_fit(gp_histogram_params *p, const gp_device_info *dev);

/* LDS bytes of one block's sub-histograms: copies x bins x 4. */
size_t gp_histogram_lds_bytes(int copies, int bins);
/* Blocks of `block` threads with `lds` bytes of sub-histograms one CU of
 * `dev` holds at once (threads, registers at GP_HIST_REGS(vecs), LDS with
 * the 1 KiB NVIDIA reserves per block); at least 1. */
int gp_histogram_blocks_per_cu(const gp_device_info *dev, int block, int vecs, size_t lds);

/* How the kernel splits n samples of `size` bytes (1 or 4) starting at
 * address `addr`: *lead samples before the first 16-byte boundary, *nvec
 * whole 16-byte vectors from there, *tail samples after them (lead and tail
 * each below 16 / size, so block 0 counts them one a thread). */
void gp_histogram_split(uintptr_t addr, size_t n, size_t size, size_t *lead, size_t *nvec, size_t *tail);

/* d_bins[0..256) = the histogram of the n bytes at d_in (any alignment).
 * Enqueued on `stream` (NULL: the default stream; no synchronization). */
gp_status gp_histogram_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, const gp_histogram_params *p,
                          gp_stream stream);
/* d_bins[0..4096) = the histogram of the n keys at d_keys (4-byte aligned),
 * keys >= 4096 not counted; on `stream`. */
gp_status gp_histogram_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, const gp_histogram_params *p,
                           gp_stream stream);

/* CPU references (histogram_ref.c), adding into bins (so a long array can
 * be counted in chunks): bins[256] for bytes, bins[4096] for keys (keys >=
 * 4096 skipped). */
void gp_histogram_ref_u8(const uint8_t *x, size_t n, uint32_t *bins);
void gp_histogram_ref_u32(const uint32_t *keys, size_t n, uint32_t *bins);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
gp_status gp_histogram_bytes(struct gp_context *ctx, const uint8_t *d_in, size_t n, uint32_t *d_bins,
                             gp_stream stream);
gp_status gp_histogram_keys(struct gp_context *ctx, const uint32_t *d_keys, size_t n, uint32_t *d_bins,
                            gp_stream stream);

/* Every kernel.histogram parameter from the device facts (kernel.h
 * "Rules"; the models: docs/kernels/histogram.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_histogram;
gp_status gp_histogram_rule(const struct gp_rule_in *in, struct gp_table *out);

/* ---- GPU launchers (histogram.hip; none.c without a GPU backend).
 * Arguments checked by the callers above. */
gp_status gp_histogram_launch_u8(const uint8_t *d_in, size_t n, uint32_t *d_bins, int block, int vecs, int copies,
                                 int grid, gp_stream s);
gp_status gp_histogram_launch_u32(const uint32_t *d_keys, size_t n, uint32_t *d_bins, int block, int vecs,
                                  int copies, int grid, gp_stream s);
/* Blocks per CU the runtime's occupancy calculator grants the kernel these
 * parameters launch (verify checks the grid model against it). */
gp_status gp_histogram_occupancy(int is_u32, int block, int vecs, int copies, int *blocks_per_cu);

#ifdef __cplusplus
}
#endif
#endif
