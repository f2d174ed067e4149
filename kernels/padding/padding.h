/* padding: zero padding of an NCHW fp32 tensor by any top, bottom, left and
 * right amounts (the copy before a convolution), out of place, no scratch.
 * Docs: docs/kernels/padding.md.
 *
 * out[n][c][y][x] = in[n][c][y - top][x - left] inside the input, 0 outside;
 * the output is N x C x (H + top + bottom) x (W + left + right).
 *
 * The output is one contiguous array: each thread owns `items_per_thread`
 * of its elements, in groups of 4 (one 16-byte store each) strided by the
 * block, and issues the loads of the inside ones before its stores, which is
 * what keeps enough bytes in flight to cover the DRAM latency (the rule,
 * padding_rule.c).  Parameters come from [kernel.padding]
 * (padding_params.inc: block, items_per_thread, planes_per_block), the
 * rule's for the problem's shape, clamped to what is compiled.  The output
 * must be 16-byte aligned. */
#ifndef GP_PADDING_H
#define GP_PADDING_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_PADDING_MAX_BLOCK 1024
#define GP_PADDING_MIN_ITEMS 4  /* items per thread compiled in: 4, 8, 16 */
#define GP_PADDING_MAX_ITEMS 16
/* The most elements a plane has where a launch still takes 4 of them. */
#define GP_PADDING_MAX_PLANE (0x7fffffffll / 4)

/* [kernel.padding] (padding_params.inc): block (threads, a power of two
 * 64..1024), items_per_thread (output elements a thread: 4, 8 or 16),
 * planes_per_block (0: the flat kernel; 4..128, a multiple of 4: the staged
 * kernel, a block per that many whole planes, padding_staged.h); and what
 * fit notes. */
typedef struct gp_padding_params {
#define GP_PARAM GP_PARAM_FIELD
#include "padding_params.inc"
#undef GP_PARAM
    char note[160]; /* what was adjusted ("" when nothing) */
} gp_padding_params;

typedef struct gp_padding_shape {
    int n, c, h, w;                    /* input */
    int top, bottom, left, right;      /* zeros added on each side, >= 0 */
} gp_padding_shape;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0..3] = n, c, h,
 * w of the NCHW input, d[4..7] = the top, bottom, left and right pads.
 * `--shape "NxCxHxW pad tT bB lL rR"` (the bench label, e.g. "64x64x56x56
 * pad t1 b2 l0 r3"), "NxCxHxW pad P" (P on every side) or "NxCxHxW" (no
 * padding). */
enum { GP_PAD_N = 0, GP_PAD_C = 1, GP_PAD_H = 2, GP_PAD_W = 3, GP_PAD_TOP = 4, GP_PAD_BOTTOM = 5, GP_PAD_LEFT = 6,
       GP_PAD_RIGHT = 7 };

/* Clamp p to what is compiled and to dev (NULL: no device limits), noting
 * what changed.  Parameters for a launch come from
 * gp_kernel_params(&gp_kernel_padding, table, dev, shape, ...), which reads
 * the table and calls this. */
void gp_padding_params_fit(gp_padding_params *p, const gp_device_info *dev);

/* Output height and width, and element counts of input and output. */
int gp_padding_out_h(const gp_padding_shape *s);
int gp_padding_out_w(const gp_padding_shape *s);
size_t gp_padding_in_elems(const gp_padding_shape *s);
size_t gp_padding_out_elems(const gp_padding_shape *s);
/* A problem's shape (gp_shape, kernels/kernel.h: d[] = n, c, h, w, top,
 * bottom, left, right) as the kernel's, each size capped at INT_MAX. */
struct gp_shape;
gp_padding_shape gp_padding_shape_of(const struct gp_shape *g);

/* Check a shape: GP_ERR_USAGE naming the field and its value for a
 * non-positive size, a negative pad, or sizes that overflow 32-bit plane
 * indices or the address space. */
gp_status gp_padding_check_shape(const gp_padding_shape *s);
/* Planes a launch takes: whole ones, under 2^31 elements a launch (32-bit
 * indices), each launch starting on a 16-byte boundary: a multiple of 4 of
 * them; for planes over GP_PADDING_MAX_PLANE elements, all of them in one
 * launch where they stay under 2^31, else one at a time where a plane is a
 * multiple of 4 elements; 0 where no cut does (the shape check refuses
 * those).  howo: elements a plane (below 2^31), planes: n x c. */
unsigned gp_padding_planes_per_launch(unsigned long long howo, unsigned long long planes);

/* The staged kernel runs where planes_per_block > 0, the problem's input
 * plane is at most the one the rule sized P for (h w x 4 <=
 * GP_PADDING_STAGED_PLANE_BYTES, the 7 x 7 reference: padding_staged.h), its
 * P input planes fit the shared memory a block gets (P h w x 4 <=
 * GP_PADDING_STAGED_LDS), its
 * outputs a block stay below 2^31 and the input is 16-byte aligned; else
 * gp_padding_f32 runs the flat kernel.  Pure: unit-tested. */
int gp_padding_staged_usable(const gp_padding_params *p, const gp_padding_shape *s, const void *d_in);

/* d_out = pad(d_in), enqueued on `stream` (NULL: the default stream; no
 * synchronization).  Bad arguments give GP_ERR_USAGE before any device
 * call. */
gp_status gp_padding_f32(const float *d_in, float *d_out, const gp_padding_shape *s, const gp_padding_params *p,
                         gp_stream stream);

/* CPU reference (padding_ref.c). */
void gp_padding_ref_f32(const float *in, float *out, const gp_padding_shape *s);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
gp_status gp_pad(struct gp_context *ctx, const float *d_in, float *d_out, const gp_padding_shape *s,
                 gp_stream stream);

/* The rule (padding_rule.c): items_per_thread from the bytes that must be in
 * flight (DRAM bandwidth x latency, Little's law) over the threads the device
 * keeps resident and the share of outputs that load, block from
 * launch.min_block_for_peak, planes_per_block from the same bytes in flight
 * over the shape's plane (none: the 7 x 7 reference) where its rows are
 * under a sector and it is at most the reference. */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
gp_status gp_padding_rule(const struct gp_rule_in *in, struct gp_table *out);
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_padding;

/* GPU launcher (padding.hip; none.c without a GPU backend), arguments checked
 * by gp_padding_f32. */
gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block, int items,
                                gp_stream st);
gp_status gp_padding_launch_staged_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                       int planes_per_block, gp_stream st);

#ifdef __cplusplus
}
#endif
#endif
