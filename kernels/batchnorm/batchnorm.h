/* batchnorm: batch normalization of an NCHW fp32 tensor, per channel
 * (cuDNN's spatial mode).  Docs: docs/kernels/batchnorm.md.
 *
 * Training forward: over the M = N x H x W values of channel c,
 *     mean_c = sum x / M,  var_c = sum (x - mean_c)^2 / M  (biased),
 *     invstd_c = 1 / sqrt(var_c + eps),
 *     y = (x - mean_c) x (gamma_c x invstd_c) + beta_c,
 * with mean_c and invstd_c saved (what the backward pass needs).
 * Inference: the same y from given mean and (unbiased or not, as given)
 * variance.
 *
 * Numerics: sums of x - K_c, where the shift K_c is the channel's first
 * value, and of its square ("two-pass with shifted data"): the variance is
 * Q/M - (S/M)^2 of shifted sums, so a large mean does not cancel away the
 * variance (Chan, Golub and LeVeque, "Algorithms for computing the sample
 * variance", 1983).  Per thread in fp32 (under a few hundred values), per
 * block and across blocks in double, in a fixed order: the result does not
 * depend on timing.
 *
 * Passes (split path): two kernels.  Statistics (read x once; per-block partials, the last
 * block of a channel finishes it) and normalize (read x again, write y):
 * each element is read twice and written once; the floor is 3 x 4 x N C H W
 * bytes at the DRAM bandwidth (the second read hits L2 when x fits in it).
 * Small channels (fused_max_values, fused_min_channels) take one kernel
 * instead: a block per channel holds the channel's values in registers,
 * reads x once and writes y once (gp_batchnorm_fused).
 * Parameters from [kernel.batchnorm] (batchnorm_params.inc: block,
 * items_per_thread, fused_max_values, fused_min_channels), from the rule
 * for the problem's shape (batchnorm_rule.c). */
#ifndef GP_BATCHNORM_H
#define GP_BATCHNORM_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GP_BN_MAX_BLOCK 1024
#define GP_BN_MAX_ITEMS 8 /* loads in flight per thread compiled: 1, 2, 4, 8 */
/* Largest block per items (8 x 16-byte loads and their addresses need more
 * than the 64 registers a 1024-thread block leaves a thread). */
#define GP_BN_BLOCK_LIMIT(items) ((items) >= 8 ? 512 : 1024)

/* The fused kernel holds a channel's values in registers: at most
 * GP_BN_FUSED_VPT(block) values a thread (32; 16 in blocks of 1024, whose
 * threads get at most 64 registers), compiled as 4..32 values a thread
 * (GP_BN_FUSED_BLOCK_LIMIT: the 32-value kernels launch at most 512). */
#define GP_BN_FUSED_MAX_VPT 32
#define GP_BN_FUSED_VPT(block) ((block) > 512 ? 16 : GP_BN_FUSED_MAX_VPT)
#define GP_BN_FUSED_BLOCK_LIMIT(values) ((values) >= 32 ? 512 : 1024)
/* Static LDS of the one-launch kernel (gp_bn_resident: the block sum's 2 x
 * 32 doubles and the channel's mean and scale), beside its hold_bytes x
 * block of dynamic LDS. */
#define GP_BN_HOLD_STATIC_LDS 528
/* hold_bytes' largest value (batchnorm_params.inc). */
#define GP_BN_MAX_HOLD 1024

/* [kernel.batchnorm] (batchnorm_params.inc): block (threads, a power of two
 * 64..1024), items_per_thread (independent loads, 16 B where rows allow, a
 * thread issues per step), fused_max_values (N H W up to which training
 * runs the fused kernel, 0: never; <= block x VPT), fused_min_channels (...
 * when C reaches this many blocks, or the split path uses one a channel
 * too); and what fit derives. */
typedef struct gp_batchnorm_params {
#define GP_PARAM GP_PARAM_FIELD
#include "batchnorm_params.inc"
#undef GP_PARAM
    int resident_blocks; /* blocks of `block` threads the device holds at once (set by fit) */
    long long l2_bytes;  /* the device's L2 (set by fit; 0: unknown): what the one-launch path keeps there */
    char note[160];      /* what was adjusted to fit the device ("" when nothing) */
} gp_batchnorm_params;

typedef struct gp_batchnorm_shape {
    int n, c, h, w;
} gp_batchnorm_shape;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[] = n, c, h, w of
 * the NCHW tensor; opt[GP_BN_OPT_MODE] = GP_BN_TRAIN (training forward with
 * the saved statistics) or GP_BN_INFER (inference from given ones).
 * `--shape NxCxHxW [train|infer]` (e.g. 128x64x56x56, the bench label
 * "128x64x56x56 train"). */
enum { GP_BN_N = 0, GP_BN_C = 1, GP_BN_H = 2, GP_BN_W = 3 };
enum { GP_BN_OPT_MODE = 0 };
enum { GP_BN_TRAIN = 0, GP_BN_INFER = 1 };

/* Clamp p to what is compiled and to dev (NULL: no device limits; one CU
 * of 2048 threads for the resident blocks), noting what changed.
 * Parameters for a launch come from gp_kernel_params(&gp_kernel_batchnorm,
 * table, dev, shape, ...), which reads the table and calls this. */
void gp_batchnorm_params_fit(gp_batchnorm_params *p, const gp_device_info *dev);
gp_status gp_batchnorm_check_shape(const gp_batchnorm_shape *s);
size_t gp_batchnorm_elems(const gp_batchnorm_shape *s);
/* Blocks per channel a launch uses for shape s (wave quantization): each
 * block of the split kernels owns an equal share of its channel, so the
 * grid of split x C blocks runs in ceil(split C / resident_blocks) waves.
 * A last, partial wave runs few blocks with few loads in flight, and every
 * wave boundary drains and refills the CUs.  The split is the smallest k in
 * 1 .. min(GP_BN_SPLIT_WAVES ceil(resident / C), one per block x items x 4
 * values of the channel) whose grid fills its whole waves
 * (gp_batchnorm_wave_eff) within GP_BN_SPLIT_TIE of the best any k
 * reaches: the fewest waves that leave few slots idle.  H200, block 512
 * (528 slots), 64 channels: k = 8 (one wave, 0.970 full) ran 0.0904 ms;
 * 9 = ceil(528 / 64) (a 48-block second wave) 0.1048; 16 (two waves, 0.970)
 * 0.0925; 33 (four, 1.000) 0.0972; 66 (eight) 0.1043.
 * docs/kernels/batchnorm.md has the model and the sweep. */
#define GP_BN_SPLIT_WAVES 4
#define GP_BN_SPLIT_TIE 0.05
int gp_batchnorm_split(const gp_batchnorm_params *p, const gp_batchnorm_shape *s);
/* blocks / (waves x resident): the fraction of the resident slots a grid
 * of `blocks` fills over its ceil(blocks / resident) waves; 0 for bad input. */
double gp_batchnorm_wave_eff(long long blocks, long long resident);

/* Whether training of shape s runs the fused kernel: N H W <=
 * fused_max_values, and C >= fused_min_channels or the split path would
 * give each channel one block as well (then it has no more parallelism). */
int gp_batchnorm_fused(const gp_batchnorm_params *p, const gp_batchnorm_shape *s);
/* The fused kernel's block for `units` loads (of 1 or 4 values) a channel:
 * `block` halved while half of it still gives every thread `least` units,
 * the fewest a compiled kernel holds (one float4, or 4 single values): no
 * idle waves, nor threads of idle registers, for small channels; at least
 * 64; *per_thread = ceil(units / that). */
int gp_batchnorm_fused_block(int block, unsigned units, int least, int *per_thread);

/* Workspace: per channel an arrival counter, the blocks' partial sums
 * (double) and the finished (mean, scale) pair; zeroed at creation and left
 * zeroed by every run (runs in stream order, not concurrently).  Made for a
 * split (`split`); any split whose layout fits its bytes may use it. */
typedef struct gp_batchnorm_ws {
    void *d;
    size_t bytes;
    int channels, split;
} gp_batchnorm_ws;
gp_status gp_batchnorm_ws_create(gp_batchnorm_ws *ws, const gp_batchnorm_shape *s, const gp_batchnorm_params *p);
void gp_batchnorm_ws_destroy(gp_batchnorm_ws *ws);

/* Training forward, enqueued on `stream` (NULL: the default stream; no
 * synchronization); save_mean / save_invstd (C values each, device) may be
 * NULL.  eps > 0.  Bad arguments: GP_ERR_USAGE before any device call. */
gp_status gp_batchnorm_train_f32(const float *d_x, float *d_y, const gp_batchnorm_shape *s, const float *d_gamma,
                                 const float *d_beta, double eps, float *d_save_mean, float *d_save_invstd,
                                 gp_batchnorm_ws *ws, const gp_batchnorm_params *p, gp_stream stream);
/* Inference: y from the given per-channel mean and variance, on `stream`. */
gp_status gp_batchnorm_infer_f32(const float *d_x, float *d_y, const gp_batchnorm_shape *s, const float *d_gamma,
                                 const float *d_beta, const float *d_mean, const float *d_var, double eps,
                                 const gp_batchnorm_params *p, gp_stream stream);

/* CPU reference (batchnorm_ref.c): two passes in double.  mean, invstd
 * (C values each) may be NULL.  Inference with var given. */
void gp_batchnorm_ref_train(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                            const float *beta, double eps, double *mean, double *invstd);
void gp_batchnorm_ref_infer(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                            const float *beta, const float *mean, const float *var, double eps);
/* The bench's reference and check.  gp_batchnorm_ref_stats: the training reference (y as gp_batchnorm_ref_train)
 * and its statistics as floats, st[0 .. C) the means, st[C .. 2C) the variances (what inference is given) and
 * st[2C .. 3C) the invstds; and the check's bounds: bound[0] y's absolute 1e-5 + 2^-22 max |mean gamma invstd|
 * (the fp32 mean carries 2^-24 |mean| of error, scaled, plus a few roundings of y), bound[1] the saved mean's
 * 2^-23 max |mean| + 1e-7.  gp_batchnorm_check: y against ref within bound[0] and 1e-5 relative; where mean is not
 * NULL (training) the saved mean against st's within bound[1] and 1e-6 relative, the saved invstd within 2^-18
 * relative.  GP_ERR_CHECK naming `what` (and the statistic) at the first value out of bounds. */
gp_status gp_batchnorm_ref_stats(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                 const float *beta, double eps, float *st, double bound[2]);
gp_status gp_batchnorm_check(const char *what, const float *y, const float *ref, size_t n, const float *mean,
                             const float *invstd, const float *st, size_t c, const double bound[2]);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
/* A workspace for training on shape s under the context's parameters for
 * it (fits s and every shape whose split fits it): make it once, outside
 * the hot path (it allocates). */
gp_status gp_batchnorm_ws_create_for(struct gp_context *ctx, const gp_batchnorm_shape *s, gp_batchnorm_ws *ws);
gp_status gp_batchnorm_train(struct gp_context *ctx, const float *d_x, float *d_y, const gp_batchnorm_shape *s,
                             const float *d_gamma, const float *d_beta, double eps, float *d_save_mean,
                             float *d_save_invstd, gp_batchnorm_ws *ws, gp_stream stream);
gp_status gp_batchnorm_infer(struct gp_context *ctx, const float *d_x, float *d_y, const gp_batchnorm_shape *s,
                             const float *d_gamma, const float *d_beta, const float *d_mean, const float *d_var,
                             double eps, gp_stream stream);

/* The rule (batchnorm_rule.c), for a shape (kernel.h, "Rules"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
gp_status gp_batchnorm_rule(const struct gp_rule_in *in, struct gp_table *out);
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_batchnorm;

/* Workspace layout for `channels` channels split `split` ways: counters
 * (4 B each) at 0, partial sums (2 doubles per block) at *part_off, the
 * finished (mean, scale) float pairs at *fin_off; returns the bytes. */
size_t gp_batchnorm_ws_offsets(int channels, int split, size_t *part_off, size_t *fin_off);

/* GPU launchers (batchnorm.hip; none.c), arguments checked by the callers. */
/* Training: with hold_bytes > 0 one cooperative launch (gp_bn_resident) of
 * min(split, resident blocks / C) blocks a channel, where one fits, keeping
 * in the L2 what half of l2_bytes holds; else the statistics and the
 * normalize, split blocks a channel each. */
gp_status gp_batchnorm_launch_train(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, float eps, float *save_mean, float *save_invstd, void *ws,
                                    int split, int block, int items, int hold_bytes, long long l2_bytes,
                                    gp_stream s_);
/* One launch, C blocks (of gp_batchnorm_fused_block threads); GP_ERR_USAGE
 * when a channel exceeds GP_BN_FUSED_VPT values a thread. */
gp_status gp_batchnorm_launch_fused(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, float eps, float *save_mean, float *save_invstd, int block,
                                    gp_stream s_);
gp_status gp_batchnorm_launch_infer(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                    const float *beta, const float *mean, const float *var, float eps, int split,
                                    int block, int items, gp_stream s_);

#ifdef __cplusplus
}
#endif
#endif
