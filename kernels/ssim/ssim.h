/* ssim: fused single-pass SSIM forward.
 *
 * SSIM of two images x, y (N x C x H x W, fp32, values in [0, 1]) with an
 * 11x11 Gaussian window (sigma 1.5, weights normalized to sum 1),
 * C1 = 0.01^2, C2 = 0.03^2:
 *
 *   ssim = (2 mu_x mu_y + C1) (2 sigma_xy + C2)
 *          / ((mu_x^2 + mu_y^2 + C1) (sigma_x^2 + sigma_y^2 + C2))
 *
 * per pixel (the map) and the mean of the map over all N*C planes.  Border
 * 'same': the map is H x W, pixels outside the image count as 0 (zero
 * padding); 'valid': the map is (H-10) x (W-10), only windows inside the
 * image.  NaN in an input makes the map NaN exactly where the window touches
 * it (the 11x11 neighbourhood, clipped to the map) and the mean NaN.
 *
 * Parameters: [kernel.ssim] (ssim_params.inc), through
 * gp_kernel_params(&gp_kernel_ssim, table, dev, shape, ...).  Algorithm and
 * parameters: docs/kernels/ssim.md. */
#ifndef GP_SSIM_H
#define GP_SSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_SSIM_WIN 11       /* window side */
#define GP_SSIM_HALF 5       /* window radius */
#define GP_SSIM_SIGMA 1.5
#define GP_SSIM_C1 1.0e-4    /* (0.01 * L)^2, L = 1 */
#define GP_SSIM_C2 9.0e-4    /* (0.03 * L)^2 */

/* The normalized weights rounded to fp32, as literals so the GPU code takes
 * them as instruction immediates (no registers).  gp_ssim_gauss computes them
 * in double; the unit test ssim_weights_literals checks these are exactly
 * (float)g[i].  g[10 - i] = g[i]. */
#define GP_SSIM_G0 1.028380124e-03f
#define GP_SSIM_G1 7.598758209e-03f
#define GP_SSIM_G2 3.600077331e-02f
#define GP_SSIM_G3 1.093606874e-01f
#define GP_SSIM_G4 2.130055428e-01f
#define GP_SSIM_G5 2.660117149e-01f

/* Rows each pass of the fused kernel stages and filters between barriers. */
#define GP_SSIM_ROWS 8
/* Largest block the fused kernel is built for (its register budget). */
#define GP_SSIM_MAX_BLOCK 256
/* Largest N*C*H*W the API accepts (the map and both images must fit in
 * size_t bytes many times over; beyond this the device cannot hold them). */
#define GP_SSIM_MAX_ELEMS (1ull << 40)

typedef enum gp_ssim_border { GP_SSIM_SAME = 0, GP_SSIM_VALID = 1 } gp_ssim_border;

typedef struct gp_ssim_dims {
    long long n, c, h, w;
} gp_ssim_dims;

/* Variants of the fused kernel (table key kernel.ssim.variant). */
enum {
    GP_SSIM_VARIANT_PREFETCH = 0, /* next pass's input loaded into registers during the vertical pass */
    GP_SSIM_VARIANT_DIRECT = 1,   /* input loaded and stored after the vertical pass: fewer registers */
    GP_SSIM_NVARIANTS = 2
};

/* [kernel.ssim] (ssim_params.inc): tile_x (output columns per row group =
 * threads per group: 32, 64 or 128 built), tile_y (output rows per strip,
 * evened out per problem: gp_ssim_strip_rows), block (threads per block =
 * tile_x x groups, fitted), variant (GP_SSIM_VARIANT_*); then what fit
 * derives. */
typedef struct gp_ssim_params {
#define GP_PARAM GP_PARAM_FIELD
#include "ssim_params.inc"
#undef GP_PARAM
    int groups;       /* row groups per block (power of 2); 0: nothing fits this device (see note) */
    size_t lds_bytes; /* dynamic LDS per block */
    char note[200];   /* what was clamped, "" when nothing */
} gp_ssim_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0..3] = n, c, h, w
 * the images' sizes (both alike), opt[0] the border (gp_ssim_border);
 * `--shape NxCxHxW same|valid` (the bench labels: "1x3x2160x3840 same"). */
enum { GP_SSIM_SHAPE_N = 0, GP_SSIM_SHAPE_C = 1, GP_SSIM_SHAPE_H = 2, GP_SSIM_SHAPE_W = 3 };
enum { GP_SSIM_SHAPE_BORDER = 0 };

/* Clamp p to what is built (tile_x 32, 64, 128; block a power of 2 of at
 * most GP_SSIM_MAX_BLOCK threads, whole row groups) and to `dev` (threads
 * and LDS per block; NULL: 48 KiB); derives groups and lds_bytes; what
 * changed goes into p->note.  A device that cannot hold one row group of 32
 * leaves groups 0: gp_ssim_run refuses it (GP_ERR_UNSUPPORTED).  Parameters
 * for a launch come from gp_kernel_params(&gp_kernel_ssim, table, dev,
 * shape, ...), which reads the table, re-derives the rule's values for the
 * shape and calls this. */
void gp_ssim_params_fit(gp_ssim_params *p, const gp_device_info *dev);

/* The problem after the shape checks: map size, output region in image
 * coordinates, and the derived launch geometry. */
typedef struct gp_ssim_problem {
    gp_ssim_dims dims;
    gp_ssim_border border;
    long long planes;        /* n * c */
    long long map_h, map_w;  /* map plane size */
    long long in_elems;      /* n*c*h*w per image */
    long long map_elems;     /* n*c*map_h*map_w */
} gp_ssim_problem;

/* Normalized Gaussian weights, computed in double. */
void gp_ssim_gauss(double g[GP_SSIM_WIN]);
/* Weight i (0..10) as the fp32 literal the GPU code uses. */
float gp_ssim_gauss_f32(int i);

/* Shape checks, before any device call.  GP_ERR_USAGE: the two shapes differ,
 * a size is zero or negative, or 'valid' on an image smaller than 11x11;
 * GP_ERR_NOMEM: the sizes do not fit (element count or bytes overflow, or
 * more than GP_SSIM_MAX_ELEMS). */
gp_status gp_ssim_problem_init(gp_ssim_problem *p, const gp_ssim_dims *x, const gp_ssim_dims *y,
                               gp_ssim_border border);

/* Rows per strip for this problem: p's tile_y evened out so the strips
 * split the map rows into equal parts (no nearly empty last strip). */
long long gp_ssim_strip_rows(const gp_ssim_params *p, const gp_ssim_problem *prob);

/* Device workspace (block partial sums of the mean) the fused run needs. */
gp_status gp_ssim_workspace_bytes(const gp_ssim_params *p, const gp_ssim_problem *prob, size_t *bytes);

/* Enqueue the fused forward on `stream` (NULL: the default stream; no
 * synchronization): d_map (map_cap floats, at least prob->map_elems) gets
 * the map, d_mean[0] the mean (double), both deterministic.  d_work:
 * gp_ssim_workspace_bytes bytes.  p: fitted (gp_ssim_params_fit). */
gp_status gp_ssim_run(const gp_ssim_params *p, const gp_ssim_problem *prob, const float *d_x,
                      const float *d_y, float *d_map, size_t map_cap, double *d_mean, void *d_work,
                      size_t work_bytes, gp_stream stream);

/* The naive fused baseline: one thread per output pixel sums the 121-tap
 * window directly (5 moments).  Same outputs; workspace from
 * gp_ssim_naive_workspace_bytes. */
gp_status gp_ssim_naive_workspace_bytes(const gp_ssim_problem *prob, size_t *bytes);
gp_status gp_ssim_naive_run(const gp_ssim_problem *prob, const float *d_x, const float *d_y, float *d_map,
                            size_t map_cap, double *d_mean, void *d_work, size_t work_bytes, gp_stream stream);

/* Host convenience: copy x and y in, run (default stream), copy map (prob
 * map_elems floats) and mean out.  GP_ERR_NOMEM before any allocation when the images, map and
 * workspace do not fit in the device's free memory. */
gp_status gp_ssim_forward(const gp_ssim_params *p, const gp_ssim_problem *prob, const float *x,
                          const float *y, float *map, double *mean);

/* ---- The library's call (kernels/context.h): the fused forward of images
 * of `dims` (x and y alike) with the parameters the context gives for this
 * shape, asynchronous on `stream`; nothing allocated, nothing synchronized.
 * d_work: a workspace of gp_ssim_workspace_size bytes for the same dims and
 * border (the caller makes it once per shape and stream).  NULL, misaligned
 * (4 bytes: images and map; 8: mean and workspace) or overlapping buffers, a
 * bad or overflowing shape and a short workspace give GP_ERR_USAGE before
 * any launch. */
struct gp_context;
gp_status gp_ssim_workspace_size(struct gp_context *ctx, const gp_ssim_dims *dims, gp_ssim_border border,
                                 size_t *bytes);
gp_status gp_ssim(struct gp_context *ctx, const float *d_x, const float *d_y, float *d_map, double *d_mean,
                  const gp_ssim_dims *dims, gp_ssim_border border, void *d_work, size_t work_bytes,
                  gp_stream stream);

/* ---- CPU reference (ssim_ref.c), double accumulation throughout. */

/* Map rows rows[0..nrows) (sorted ascending, each in [0, map_h)) of plane
 * `plane` into out[nrows][map_w]. */
gp_status gp_ssim_ref_rows(const gp_ssim_problem *prob, const float *x, const float *y, long long plane,
                           const long long *rows, long long nrows, double *out);
/* The whole map (map_elems doubles, may be NULL) and its mean (may be NULL). */
gp_status gp_ssim_ref(const gp_ssim_problem *prob, const float *x, const float *y, double *map, double *mean);
/* Brute force: one output pixel from its 121 taps directly (tests). */
double gp_ssim_ref_pixel(const gp_ssim_problem *prob, const float *x, const float *y, long long plane,
                         long long row, long long col);
/* The fused kernel's arithmetic in fp32 on the CPU (same shift per strip,
 * same tap order, same formula; tests of the numerical design). shift = 0
 * leaves the moments unshifted (to show why the shift is there). */
gp_status gp_ssim_model_f32(const gp_ssim_problem *prob, int tile_x, int tile_y, int shift, const float *x,
                            const float *y, float *map);

/* The bench's images (gp_kcase.data), also the unit tests': x and y uniform in [0, 1) (near-zero: [0, 1e-3)),
 * y correlated with x (x plus up to 0.05), each constant, random bits, checkerboards, and NaN at a corner, an
 * interior pixel, one on a tile edge and one in y. */
enum { GP_SSIM_RANDOM, GP_SSIM_CORRELATED, GP_SSIM_CONSTANT, GP_SSIM_NEARZERO, GP_SSIM_CONTRAST, GP_SSIM_CHECKER,
       GP_SSIM_NAN, GP_SSIM_KINDS };
/* x and y (in_elems each) of image kind `kind` from rng (data.h's generator). */
void gp_ssim_fill(int kind, const gp_ssim_problem *prob, float *x, float *y, uint64_t *rng);

/* The check of a run (the bench's).  The reference of the map rows it reads, nr a plane: every row (nr ==
 * map_h), else (nr > 12) the first 6, the last 6 and nr - 12 evenly between from a start u in [0, 1); slot[map_h]
 * gets each map row's index among them (-1: not checked), ref[planes][nr][map_w] their values rounded to float
 * (as the map is compared), *mean their sum over map_elems (the reference's mean when every row is read). */
gp_status gp_ssim_ref_checked(const gp_ssim_problem *prob, const float *x, const float *y, long long nr, double u,
                              int *slot, float *ref, double *mean);
/* Map elements at .. at + len - 1 (got[0 .. len)) against that reference: each checked one within atol of it (the
 * bench's 1e-5), NaN exactly where it is NaN; every element added to *sum.  GP_ERR_CHECK naming `what`, plane,
 * row and column. */
gp_status gp_ssim_compare_map(const char *what, const gp_ssim_problem *prob, const float *got, size_t at, size_t len,
                              const float *ref, const int *slot, long long nr, double atol, double *sum);
/* A run's mean against its own map's (sum / map_elems, within 1e-6: the reduction) and, ref_mean not NULL,
 * the reference's (within atol: the bench's 1e-5); where either map holds NaN, the mean must be NaN. */
gp_status gp_ssim_compare_mean(const char *what, double mean, double map_mean, const double *ref_mean, double atol);

/* ---- launchers (ssim.hip; none.c in the CPU-only build) */

typedef struct gp_ssim_args {
    const float *x, *y;
    float *map;
    double *partials;        /* one per block */
    double *mean;
    double inv_count;        /* 1 / map_elems */
    long long plane_elems;   /* h * w */
    long long map_plane;     /* map_h * map_w */
    int h, w;
    int ox_lo, ox_hi, oy_lo, oy_hi; /* output region in image coordinates */
    int map_w;
    int tile_y;              /* rows per strip (adjusted) */
    int groups;
    int ntx, tx_first;       /* column tiles per plane and the first one (tiles anchored at column 0) */
    int nby;                 /* block rows per plane (groups strips each, anchored at oy_lo) */
    int nchunks;             /* passes of GP_SSIM_ROWS input rows per strip */
    int vec;                 /* float4 loads (w % 4 == 0 and 16-byte aligned images) */
} gp_ssim_args;

gp_status gp_ssim_launch_fused(const gp_ssim_args *a, int tile_x, int variant, int block, size_t lds_bytes,
                               long long nblocks, gp_stream stream);
gp_status gp_ssim_launch_naive(const gp_ssim_args *a, long long nblocks_x, long long nblocks, gp_stream stream);
/* The fused kernel instantiation (tile_x 32/64/128, variant, float4 loads or
 * not) as a function address for gp_func_attributes (the rule's resource
 * use); NULL when it is not compiled (and in the CPU-only build). */
const void *gp_ssim_fused_fn(int tile_x, int variant, int vec);
gp_status gp_ssim_launch_mean(const double *partials, long long n, double inv_count, double *mean,
                              gp_stream stream);

/* Every kernel.ssim parameter from the device facts, for a shape (kernel.h
 * "Rules"; the models: docs/kernels/ssim.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
gp_status gp_ssim_rule(const struct gp_rule_in *in, struct gp_table *out);
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_ssim;

#ifdef __cplusplus
}
#endif
#endif
