/* reduce: the sum of an fp32 or an int32 array of any length, in one launch
 * (per-block partials; the last block of each group of blocks adds its
 * group's, the last group adds the group sums, each in a fixed order).
 * Docs: docs/kernels/reduce.md.
 *
 * Results:
 *   - n = 0 gives 0 (0.0f or 0).
 *   - int32: the two's-complement wrapped sum, i.e. the exact sum modulo 2^32
 *     (computed in unsigned arithmetic, so overflow is defined).
 *   - fp32: accumulated in fp32; |result - exact| <= gp_reduce_f32_bound(),
 *     and the same input with the same parameters gives the same bits (no
 *     floating-point atomics: the order of every addition is fixed).
 * Parameters: [kernel.reduce] (reduce_params.inc: block, items_per_thread,
 * grid_per_cu, and the optional one_pass, stream), clamped to the device;
 * for a launch they come from gp_kernel_params(&gp_kernel_reduce, table,
 * dev, shape, ...), which reads the table (the rule's values for the shape)
 * and calls gp_reduce_params_fit. */
#ifndef GP_REDUCE_H
#define GP_REDUCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_REDUCE_MAX_BLOCK 1024
#define GP_REDUCE_MAX_VECS 16   /* 16-byte loads per thread per pass compiled in: 1, 2, 4, 8, 16 */
/* one_pass: at most this many blocks (beyond it the blocks loop: 2^30 floats
 * of 1024 B per block still fit one pass). */
#define GP_REDUCE_ONE_PASS_MAX_GRID (1 << 20)
/* Blocks per group of the cross-block sum, and where the group counters
 * start in the workspace (after the total counter). */
#define GP_RED_GROUP 256u
#define GP_RED_WS_COUNTERS 16
/* Registers per thread the kernel for U 16-byte loads per thread stays within
 * on NVIDIA (its launch bounds): the persistent grid is sized so that every
 * block is resident at once. */
#define GP_REDUCE_REGS(U) ((U) <= 4 ? 32 : (U) == 8 ? 64 : 128)

/* [kernel.reduce] (reduce_params.inc), and what fit derives. */
typedef struct gp_reduce_params {
#define GP_PARAM GP_PARAM_FIELD
#include "reduce_params.inc"
#undef GP_PARAM
    int grid;       /* most blocks a launch uses: grid_per_cu x CUs, or the one-pass cap */
    char note[192]; /* what was adjusted to fit the device ("" when nothing) */
} gp_reduce_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0] = n elements,
 * opt[0] = the element type; `--shape N` or `--shape '2^K int32'`. */
enum { GP_REDUCE_N = 0 };                         /* gp_shape.d[] */
enum { GP_REDUCE_TYPE = 0 };                      /* gp_shape.opt[] */
enum { GP_REDUCE_FP32 = 0, GP_REDUCE_INT32 = 1 }; /* opt[GP_REDUCE_TYPE] */

/* Clamp p to `dev` (NULL: no device limits) and size its grid; what changed
 * goes into p->note. */
void gp_reduce_params_fit(gp_reduce_params *p, const gp_device_info *dev);

/* Blocks a problem of n elements gets: at most p->grid, at least 1, and no
 * more than one pass of block x items_per_thread x 4 elements each needs. */
int gp_reduce_grid_for(const gp_reduce_params *p, size_t n);

/* Device workspace: the arrival counters of the last-block-finishes steps
 * (one total, one per group of GP_RED_GROUP blocks), one partial per group
 * and one per block.  Created zeroed; each run leaves the counters at zero
 * again, so a workspace serves any number of runs in stream order (not two
 * runs at the same time).  One workspace fits every problem and every
 * parameter set whose grid is at most max_grid (a one-pass workspace: 4 MB). */
typedef struct gp_reduce_ws {
    void *d;
    size_t bytes;
    int max_grid;
} gp_reduce_ws;

gp_status gp_reduce_ws_create(gp_reduce_ws *ws, const gp_reduce_params *p);
void gp_reduce_ws_destroy(gp_reduce_ws *ws);

/* *d_out (device) = sum of d_in[0..n).  d_in must be 4-byte aligned; any
 * alignment beyond that and any n are fine.  Enqueued on `stream` (NULL: the
 * default stream; no synchronization).  Bad arguments give GP_ERR_USAGE
 * before any device call. */
gp_status gp_reduce_sum_f32(const float *d_in, size_t n, float *d_out, gp_reduce_ws *ws,
                            const gp_reduce_params *p, gp_stream stream);
gp_status gp_reduce_sum_i32(const int32_t *d_in, size_t n, int32_t *d_out, gp_reduce_ws *ws,
                            const gp_reduce_params *p, gp_stream stream);

/* Error analysis of the fp32 sum.  Every element passes through at most
 * `depth` fp32 additions on its way to the result (the longest path through
 * the fixed summation tree: the pairwise tree over a pass's loads, serial
 * adds in its accumulator, the lanes, the wave and block trees, the serial
 * and wave steps over the partials of its group and over the groups).  With u = 2^-24, the standard bound for a summation tree of
 * height d (Higham, Accuracy and Stability of Numerical Algorithms, 4.2) is
 *     |result - exact| <= gamma_d * sum |x_i|,  gamma_d = d u / (1 - d u). */
int gp_reduce_f32_depth(const gp_reduce_params *p, size_t n, size_t head, int wave);
double gp_reduce_f32_bound(int depth, double sum_abs);

/* CPU references (reduce_ref.c): exact sum in double (fp32 inputs have 24-bit
 * mantissas, so a double accumulation of n < 2^29 of them is off by at most
 * n 2^-53 sum|x|), the sum of magnitudes, and the wrapped int32 sum. */
double gp_reduce_ref_f32(const float *x, size_t n, double *sum_abs);
int32_t gp_reduce_ref_i32(const int32_t *x, size_t n);

/* Bytes of a workspace for grids up to max_grid: 16 (total counter), then
 * G = ceil(max_grid / GP_RED_GROUP) group counters, G group partials and
 * max_grid block partials, 4 bytes each. */
size_t gp_reduce_ws_bytes(int max_grid);

/* ---- GPU launchers (reduce.hip; none.c without a GPU backend).  d_ws laid
 * out as gp_reduce_ws_bytes(ws_grid) says, grid <= ws_grid.  Arguments are
 * checked by the callers above. */
gp_status gp_reduce_launch_f32(const float *d_in, size_t n, float *d_out, void *d_ws, int ws_grid, int grid,
                               int block, int vecs, int streaming, gp_stream s);
gp_status gp_reduce_launch_i32(const int32_t *d_in, size_t n, int32_t *d_out, void *d_ws, int ws_grid, int grid,
                               int block, int vecs, int streaming, gp_stream s);
/* The float kernel instantiation for `vecs` 16-byte vectors per thread and
 * streaming loads or not, as a function address for gp_func_attributes (the
 * rule's resource use); NULL when it is not compiled (and in the CPU-only
 * build). */
const void *gp_reduce_f32_fn(int vecs, int stream);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
/* A workspace every reduction of this build's kernels fits (any n, any
 * parameters): make it once per stream, outside the hot path (it
 * allocates); runs on one stream share it, runs on two at once must not. */
gp_status gp_reduce_ws_create_any(gp_reduce_ws *ws);
gp_status gp_reduce_sum(struct gp_context *ctx, const float *d_in, size_t n, float *d_out, gp_reduce_ws *ws,
                        gp_stream stream);
gp_status gp_reduce_sum_int(struct gp_context *ctx, const int32_t *d_in, size_t n, int32_t *d_out,
                            gp_reduce_ws *ws, gp_stream stream);

/* Every kernel.reduce parameter from the device facts (kernel.h "Rules";
 * the models: docs/kernels/reduce.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_reduce;
gp_status gp_reduce_rule(const struct gp_rule_in *in, struct gp_table *out);

#ifdef __cplusplus
}
#endif
#endif
