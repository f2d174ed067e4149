/* scan: inclusive or exclusive prefix sum of an fp32 or int32 array of any
 * length in one pass (single-pass scan with decoupled look-back, Merrill and
 * Garland, NVIDIA tech report NVR-2016-002).  Docs: docs/kernels/scan.md.
 *
 * Results:
 *   - inclusive: out[i] = x[0] + ... + x[i]; exclusive: out[i] = x[0] + ... +
 *     x[i-1], out[0] = 0.  n = 0 writes nothing.  In place (out == in) is
 *     fine; any other overlap is refused.
 *   - int32: the two's-complement wrapped sums (uint32 arithmetic), exact and
 *     the same bits on every run.
 *   - fp32: accumulated in fp32 in the order gp_scan_f32_depth() describes;
 *     |out[i] - exact| <= gp_f32_sum_bound(depth(i), sum_{j<=i} |x_j|).  The
 *     look-back adds predecessor tiles in an order that depends on block
 *     timing, so two runs may differ in the last bits (within the bound).
 * Parameters: [kernel.scan] (scan_params.inc: block, items_per_thread,
 * stages), clamped to the device; for a launch they come from
 * gp_kernel_params(&gp_kernel_scan, table, dev, shape, ...), which reads the
 * table (the rule's values for the shape) and calls gp_scan_params_fit. */
#ifndef GP_SCAN_H
#define GP_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_SCAN_MAX_BLOCK 1024
/* items_per_thread compiled in: 4, 8, 16, 32, 64 elements (1, 2, 4, 8, 16
 * 16-byte vectors per thread). */
#define GP_SCAN_MIN_ITEMS 4
#define GP_SCAN_MAX_ITEMS 64
/* Largest block the kernel for `items` elements per thread is compiled for:
 * its launch bounds keep the registers within 64 per thread at 1024 threads
 * (items <= 16), 128 at 512 (items = 32) and 128 at 256 with two such
 * blocks a CU (items = 64: the rule's tile, scan_rule.c). */
#define GP_SCAN_BLOCK_LIMIT(items) ((items) <= 16 ? 1024 : (items) <= 32 ? 512 : 256)
/* Tiles one launch may have: the tile index travels in 32 bits. */
#define GP_SCAN_MAX_TILES ((size_t)1 << 31)
/* The look-back's polling (scan.hip look_back), the protocol of CUB's
 * decoupled look-back (CCCL cub/agent/single_pass_scan_operators.cuh,
 * fixed_delay_constructor_t<350, 450> for primitive types, and its
 * GridThreshold 500), which at the same tile shape ran 0.750-0.752 of the
 * copy on the H200 where the tree's unpaced polling ran 0.72 (docs/kernels/
 * scan.md, "H200 status").  Why pace at all: the waves near the frontier all
 * poll the same few descriptor lines, so unpaced polls queue on the L2 slices
 * that hold them (and the data lines there) and return no sooner.
 *   FIRST_POLL_NS  wave 0 waits this long after publishing its aggregate
 *                  before its first poll: about one L2 write's propagation
 *                  plus a read's round trip (H200: L2 281-514 cycles at
 *                  1980 MHz, 0.14-0.26 us each way), so the first poll
 *                  mostly finds the predecessors ready;
 *   POLL_NS        the pause between polls that found a descriptor not
 *                  ready (about one round trip plus its queueing);
 *   PACE_MIN_TILES below this many tiles a launch is (nearly) all resident at
 *                  once (H200: 132 SMs x 4 blocks = 528), nothing queues
 *                  behind a waiting block, and a pause is pure latency: no
 *                  pauses then. */
#define GP_SCAN_FIRST_POLL_NS 450
#define GP_SCAN_POLL_NS 350
#define GP_SCAN_PACE_MIN_TILES 500

/* The ring kernel (scan.hip gp_scan_ring_kernel; stages > 0): a persistent
 * block keeps `stages` tiles in shared memory, filled by the bulk copy engine
 * (NVIDIA sm_90+), and publishes each tile's aggregate as soon as it lands.
 *   RING_MIN_ITEMS   compiled for 16, 32 and 64 items per thread;
 *   RING_MIN_STAGES  the least ring: one tile being scanned while it waits on
 *                    its look-back, the next landed (its aggregate published,
 *                    so the tiles behind it on other CUs are not held up);
 *   RING_MAX_STAGES  a cap on the opt-in shared memory the rule may ask for;
 *   RING_LDS_RESERVE the ring's static shared memory (barriers, tickets, the
 *                    wave totals), under 1 KiB;
 *   RING_BLOCK_LIMIT consumer threads per block: launch bounds of (this + 64)
 *                    threads keep 64 items within 204 registers (ptxas sm_90,
 *                    nvcc 13.0: 123-131) and 32 items within 113 (74-76);
 *   RING_POLL_NS     the pause after a look-back poll that found a tile not
 *                    ready: measured on the H200 (docs/kernels/scan.md, "Ring"),
 *                    0, 100 and a 200 ns first pause are within 0.7 %: the
 *                    predecessors' aggregates are out before a tile is scanned,
 *                    so the first poll mostly succeeds; 100 spares the L2 the
 *                    spinning of the rare one that does not. */
#define GP_SCAN_RING_MIN_ITEMS 16
#define GP_SCAN_RING_MIN_STAGES 2
#define GP_SCAN_RING_MAX_STAGES 8
#define GP_SCAN_RING_LDS_RESERVE 1024
#define GP_SCAN_RING_BLOCK_LIMIT(items) ((items) >= 64 ? 256 : 512)
#define GP_SCAN_RING_POLL_NS 100

/* [kernel.scan] (scan_params.inc), and what fit adjusted.  block: threads
 * per block (the ring: its scanning threads), a power of two, >= 64;
 * items_per_thread: 4, 8, 16, 32 or 64 elements; stages: 0 for tiles in
 * registers, a block per tile, >= 2 for the ring kernel's tiles in shared
 * memory (NVIDIA sm_90+). */
typedef struct gp_scan_params {
#define GP_PARAM GP_PARAM_FIELD
#include "scan_params.inc"
#undef GP_PARAM
    char note[192]; /* what was adjusted to fit the device ("" when nothing) */
} gp_scan_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0] = n elements,
 * opt[0] = the element type, opt[1] = 1 for the exclusive scan; `--shape N`,
 * `--shape '2^28 fp32'`, `--shape '2^20 int32 exclusive'`. */
enum { GP_SCAN_N = 0 };                           /* gp_shape.d[] */
enum { GP_SCAN_TYPE = 0, GP_SCAN_EXCLUSIVE = 1 }; /* gp_shape.opt[] */
enum { GP_SCAN_FP32 = 0, GP_SCAN_INT32 = 1 };     /* opt[GP_SCAN_TYPE] */

/* Clamp p to `dev` (NULL: no device limits).  The ring (stages > 0) needs a
 * device with the bulk copy engine (gp_target_has_bulk_copy), code compiled
 * for it in this binary (gp_scan_ring_compiled), 16 or more items and room
 * for 2 stages in the block's opt-in shared memory; else stages = 0 and the
 * note says why. */
void gp_scan_params_fit(gp_scan_params *p, const gp_device_info *dev);

/* Elements per tile (one block's share) and tiles for n elements starting
 * `head` elements past a 16-byte boundary (the first tile starts at that
 * boundary, so its first `head` slots are empty). */
size_t gp_scan_tile(const gp_scan_params *p);
size_t gp_scan_tiles_for(const gp_scan_params *p, size_t n, size_t head);

/* Device workspace: a tile counter (the order blocks take tiles in, so a
 * block only ever waits on tiles already taken) and one 8-byte descriptor per
 * tile: status and value in one word, stamped with the run's epoch so that a
 * run never reads a previous run's descriptors and the workspace needs no
 * clearing between runs (the host bumps the epoch per run; after 2^30 runs
 * the workspace is cleared once).  Runs in stream order share it; two runs
 * at the same time must not. */
typedef struct gp_scan_ws {
    void *d;
    size_t bytes;
    size_t max_tiles;
    unsigned epoch; /* of the last run; 0 when new */
} gp_scan_ws;

size_t gp_scan_ws_bytes(size_t max_tiles);
gp_status gp_scan_ws_create(gp_scan_ws *ws, size_t max_tiles);
void gp_scan_ws_destroy(gp_scan_ws *ws);

/* d_out[0..n) = the inclusive (exclusive = 0) or exclusive (exclusive = 1)
 * prefix sums of d_in[0..n).  4-byte aligned pointers; when d_in and d_out
 * share their offset within 16 bytes both sides use 16-byte accesses, else
 * the stores are 4-byte.  Enqueued on `stream` (NULL: the default stream;
 * no synchronization).  Bad arguments give GP_ERR_USAGE before any device
 * call; a ring the device cannot run (no sm_90+ code in this binary for it,
 * or more stages than its shared memory holds: parameters not passed
 * through gp_scan_params_fit) gives GP_ERR_USAGE from the launcher, after
 * the runtime's queries and before the launch. */
gp_status gp_scan_f32(const float *d_in, float *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                      const gp_scan_params *p, gp_stream stream);
gp_status gp_scan_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                      const gp_scan_params *p, gp_stream stream);

/* Error analysis of the fp32 scan.  Every element's result is a sum whose
 * summation tree has height at most gp_scan_f32_depth(p, i, head, wave) for
 * output i (see scan.hip for the order): the in-tile steps, plus
 * (log2 wave + 3) per tile before it on the look-back chain.  With u = 2^-24
 * the bound for a tree of height d (Higham, Accuracy and Stability of
 * Numerical Algorithms, 4.2) is gamma_d * sum |x_j|, gamma_d = d u / (1 - d u):
 * gp_f32_sum_bound (data.h). */
long long gp_scan_f32_depth(const gp_scan_params *p, size_t i, size_t head, int wave);

/* CPU references (scan_ref.c), chunk by chunk: *acc (and *acc_abs) carry
 * the running sums in and out (NULL: start from 0), so a long array can be
 * checked in pieces.  fp32: prefix sums in double (a double accumulation of
 * n fp32 values is off by at most n 2^-53 sum |x|), with sum_abs[i] = the
 * magnitudes through x[i] (out, sum_abs may be NULL).  int32: the wrapped
 * prefix sums. */
void gp_scan_ref_f32(const float *x, size_t n, int exclusive, double *acc, double *acc_abs, double *out,
                     double *sum_abs);
void gp_scan_ref_i32(const int32_t *x, size_t n, int exclusive, uint32_t *acc, int32_t *out);

/* A scan's output against those references (the bench's check): the
 * problem, and which elements are checked.  stride 1: every element, the
 * reference streamed alongside a chunk at a time (nothing the size of the
 * input kept); else nsamples elements, one in each stride at
 * gp_scan_sample_at, whose references gp_scan_ref_samples makes once. */
typedef struct gp_scan_expect {
    const void *x;         /* the input: n fp32 or int32 values */
    size_t n;
    int is_f32, exclusive;
    int exact;             /* fp32 small integers (|partial sums| < 2^24): exact in any order */
    size_t head;           /* the input's elements past a 16-byte boundary (the first tile's empty slots) */
    int wave;
    size_t stride, nsamples;
    double *ref, *sum_abs; /* sampled fp32: the prefix sums and sums of |x_j| in double */
    int32_t *refi;         /* sampled int32: the wrapped prefix sums */
} gp_scan_expect;

/* The k-th sampled element: one in each stride, at an offset that moves
 * from stride to stride. */
size_t gp_scan_sample_at(size_t k, size_t stride);
/* How many samples n elements have at `stride` (> 1): those k with
 * gp_scan_sample_at(k, stride) < n. */
size_t gp_scan_samples(size_t n, size_t stride);
/* e's references at its samples, in one pass over the input. */
void gp_scan_ref_samples(gp_scan_expect *e);
/* got (e->n 32-bit words) against the reference: int32 exact; fp32 element
 * by element |got - ref| <= gamma_depth(i) sum_{j<=i} |x_j| + (i + 1)
 * 2^-53 sum |x| (the double reference's own error), the depth that of p's
 * tiles (gp_scan_f32_depth: the first tile's, plus one look-back step per
 * tile before i); exact: equal.  GP_ERR_CHECK naming `what`, the first
 * element off, both values and the bound. */
gp_status gp_scan_check(const gp_scan_expect *e, const gp_scan_params *p, const uint32_t *got, const char *what);

/* 1 when the ring kernel this binary would run on the open device was
 * compiled for sm_90 or later (the driver may run compute_80 code on an
 * sm_90 GPU: then it has no bulk copies); the CPU-only build says 1 (nothing
 * runs there, so the device facts alone decide, as in the unit tests). */
int gp_scan_ring_compiled(void);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
/* A workspace for every scan of up to n_max elements, whatever tile a
 * shape's parameters take (sized for the smallest compiled tile): make it
 * once per stream, outside the hot path. */
gp_status gp_scan_ws_create_any(size_t n_max, gp_scan_ws *ws);
gp_status gp_scan(struct gp_context *ctx, const float *d_in, float *d_out, size_t n, int exclusive, gp_scan_ws *ws,
                  gp_stream stream);
gp_status gp_scan_int(struct gp_context *ctx, const int32_t *d_in, int32_t *d_out, size_t n, int exclusive,
                      gp_scan_ws *ws, gp_stream stream);

/* Every kernel.scan parameter from the device facts (kernel.h "Rules"; the
 * models: docs/kernels/scan.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_scan;
gp_status gp_scan_rule(const struct gp_rule_in *in, struct gp_table *out);

/* ---- GPU launchers (scan.hip; none.c without a GPU backend).  Arguments
 * checked by the callers above. */
gp_status gp_scan_launch_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_ws,
                             unsigned epoch, int block, int items, int stages, gp_stream s);
gp_status gp_scan_launch_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_ws,
                             unsigned epoch, int block, int items, int stages, gp_stream s);

#ifdef __cplusplus
}
#endif
#endif
