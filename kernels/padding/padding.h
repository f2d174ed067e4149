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
 * padding_rule.c).  Parameters come from [kernel.padding] (block,
 * items_per_thread), clamped to what is compiled.  The output must be
 * 16-byte aligned. */
#ifndef GP_PADDING_H
#define GP_PADDING_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "runtime.h"
#include "table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_PADDING_MAX_BLOCK 1024
#define GP_PADDING_MIN_ITEMS 4  /* items per thread compiled in: 4, 8, 16 */
#define GP_PADDING_MAX_ITEMS 16

typedef struct gp_padding_params {
    int block;               /* threads per block, a power of two, 64..1024 */
    int items_per_thread;    /* output elements per thread: 4, 8 or 16 */
    char note[160];          /* what was adjusted ("" when nothing) */
    int planes_per_block;    /* 0: the flat kernel; 4..128 (a multiple of 4): the staged kernel, a
                                block per that many whole planes (padding_staged.h) */
} gp_padding_params;

typedef struct gp_padding_shape {
    int n, c, h, w;                    /* input */
    int top, bottom, left, right;      /* zeros added on each side, >= 0 */
} gp_padding_shape;

gp_status gp_padding_params_from_table(const gp_table *t, const gp_device_info *dev, gp_padding_params *p);
void gp_padding_params_fit(gp_padding_params *p, const gp_device_info *dev);
void gp_padding_params_format(const gp_padding_params *p, char *buf, size_t n);

/* Output height and width, and element counts of input and output. */
int gp_padding_out_h(const gp_padding_shape *s);
int gp_padding_out_w(const gp_padding_shape *s);
size_t gp_padding_in_elems(const gp_padding_shape *s);
size_t gp_padding_out_elems(const gp_padding_shape *s);

/* Check a shape: GP_ERR_USAGE naming the field and its value for a
 * non-positive size, a negative pad, or sizes that overflow 32-bit plane
 * indices or the address space. */
gp_status gp_padding_check_shape(const gp_padding_shape *s);

/* The staged kernel runs where planes_per_block > 0, the problem's input
 * plane is at most the one the rule sized P for (h w x 4 <=
 * GP_PADDING_STAGED_PLANE_BYTES, the 7 x 7 reference: padding_staged.h), its
 * P input planes fit the shared memory a block gets (P h w x 4 <=
 * GP_PADDING_STAGED_LDS), its
 * outputs a block stay below 2^31 and the input is 16-byte aligned; else
 * gp_padding_f32 runs the flat kernel.  Pure: unit-tested. */
int gp_padding_staged_usable(const gp_padding_params *p, const gp_padding_shape *s, const void *d_in);

/* d_out = pad(d_in), on the default stream.  Bad arguments give GP_ERR_USAGE
 * before any device call. */
gp_status gp_padding_f32(const float *d_in, float *d_out, const gp_padding_shape *s, const gp_padding_params *p);

/* CPU reference (padding_ref.c). */
void gp_padding_ref_f32(const float *in, float *out, const gp_padding_shape *s);

/* The rule (padding_rule.c): items_per_thread from the bytes that must be in
 * flight (DRAM bandwidth x latency, Little's law) over the threads the device
 * keeps resident and the share of outputs that load, block from
 * launch.min_block_for_peak, planes_per_block from the same bytes in flight
 * over the 7 x 7 reference plane where its rows are under a sector. */
struct gp_rule_in;
gp_status gp_padding_rule(const struct gp_rule_in *in, struct gp_table *out);

/* GPU launcher (padding.hip; none.c without a GPU backend), arguments checked
 * by gp_padding_f32. */
gp_status gp_padding_launch_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block, int items);
gp_status gp_padding_launch_staged_f32(const float *d_in, float *d_out, const gp_padding_shape *s, int block,
                                       int planes_per_block);

#ifdef __cplusplus
}
#endif
#endif
