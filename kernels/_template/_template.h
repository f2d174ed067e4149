/* _template: y = a x + y over n fp32 values, a streaming kernel to copy when
 * adding one (docs/adding-a-kernel.md).  Parameters: [kernel._template]
 * (_template_params.inc), fitted to the device by gp__template_params_fit. */
#ifndef GP__TEMPLATE_H
#define GP__TEMPLATE_H

#include <stddef.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* [kernel._template] (_template_params.inc), and what fit derives. */
typedef struct gp__template_params {
#define GP_PARAM GP_PARAM_FIELD
#include "_template_params.inc"
#undef GP_PARAM
    int grid;       /* blocks of one launch: what the device holds at once (fit) */
    char note[160]; /* what was adjusted to fit the device ("" when nothing) */
} gp__template_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0] = n;
 * `--shape N` or `--shape 2^K`. */
enum { GP__TEMPLATE_N = 0 };

/* Clamp p to dev (dev NULL: no device limits) and size its grid. */
void gp__template_params_fit(gp__template_params *p, const gp_device_info *dev);

/* y = a x + y on device buffers of n floats, 16-byte aligned, not
 * overlapping; enqueued on `stream` (NULL: the default one), no
 * synchronization.  Bad arguments: GP_ERR_USAGE before any device call. */
gp_status gp__template_f32(float a, const float *d_x, float *d_y, size_t n, const gp__template_params *p,
                           gp_stream stream);

/* CPU reference (_template_ref.c). */
void gp__template_ref_f32(float a, const float *x, float *y, size_t n);

/* GPU launcher (_template.hip; none.c without a GPU backend). */
gp_status gp__template_launch(float a, const float *d_x, float *d_y, size_t n, int grid, int block, int items,
                              gp_stream s);

struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel__template;
/* Every kernel._template parameter from the device facts (_template_rule.c). */
gp_status gp__template_rule(const struct gp_rule_in *in, struct gp_table *out);

#ifdef __cplusplus
}
#endif
#endif
