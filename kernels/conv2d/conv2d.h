/* conv2d: direct 2D convolution, NCHW fp32, stride 1, zero padding.
 *
 *   y[n][o][oy][ox] = sum over c, ky, kx of
 *                     x[n][c][oy + ky - pad_h][ox + kx - pad_w] * w[o][c][ky][kx]
 *
 * with x taken as 0 outside the image.  That is cross-correlation (the kernel
 * is not flipped), which is what deep-learning "convolution" layers and
 * cuDNN's CUDNN_CROSS_CORRELATION compute.  No bias, no activation.
 * out_h = h + 2 pad_h - kh + 1, out_w = w + 2 pad_w - kw + 1.
 * Docs: docs/kernels/conv2d.md.
 *
 * Parameters: [kernel.conv2d] (conv2d_params.inc: tile_x, tile_y, block,
 * out_channels_per_block and the optional variant), through
 * gp_kernel_params(&gp_kernel_conv2d, table, dev, shape, ...); a launch's
 * plan fits them to the device and to the problem (kernel size, channels)
 * so that every valid table gives a correct result. */
#ifndef GP_CONV2D_H
#define GP_CONV2D_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "gp_target.h"
#include "params.h"
#include "runtime.h"
#include "table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time shapes conv2d.hip carries.  Each thread computes a register
 * block of GP_CONV2D_RX x rows_per_thread outputs for oc_per_thread output
 * channels; rows_per_thread is 1, 2 or 4, oc_per_thread 1, 2, 4, 6 or 8, with
 * at most GP_CONV2D_MAX_ACC accumulators (so no register spills); square
 * kernels of the sizes below have their own unrolled code, every other size
 * runs the generic tiled kernel. */
#define GP_CONV2D_RX 4
#define GP_CONV2D_MAX_ACC 64
/* Targets whose compiler grants a thread 128 registers (GP_REGS_128 of
 * platform/gp_target.h: gfx11 under clang 15) get the generic kernel only,
 * with at most 32 accumulators: the specialized and rolled kernels unroll
 * kernel rows whose hoisted LDS reads need 81-101 VGPRs before a single
 * accumulator (24-760 bytes of scratch there, even at 4 x 1 x 1), and the
 * generic kernel needs 81 + the accumulators (112-120 VGPRs at 32; 48 and 64
 * spill).  docs/kernels/conv2d.md, "Targets". */
#define GP_CONV2D_MAX_ACC_128 32
/* Whether the tiled kernel (K: specialized size or 0 = generic, RY rows,
 * OCB channels per thread, ROLLED) is compiled for register classes CLS: any
 * class but GP_REGS_128 has every shape listed in conv2d.hip. */
#define GP_CONV2D_SHAPE_ON(CLS, K, RY, OCB, ROLLED)                               \
    (((CLS) & ~GP_REGS_128) != 0 ||                                                  \
     ((K) == 0 && !(ROLLED) && (RY) * GP_CONV2D_RX * (OCB) <= GP_CONV2D_MAX_ACC_128))
#define GP_CONV2D_MAX_BLOCK 256 /* the kernels' launch bounds */
#define GP_CONV2D_SPEC_SIZES {3, 5, 6, 7}
/* 4-column input chunks per thread a stage is sized for, by compiled kernel
 * size k (0 = generic): the plan puts as many input channels in a stage as
 * fit block x this many chunks (at least one).  The next stage's chunks are
 * copied while the current one computes: all of them with cp.async (sm_80+),
 * else the first few through registers and the rest after the compute. */
#define GP_CONV2D_PF_CHUNKS(k) ((k) == 3 ? 8 : 4)

/* kernel.conv2d.variant: which code runs. */
enum {
    GP_CONV2D_AUTO = 0,    /* tiled, specialized kernel size where compiled, else generic */
    GP_CONV2D_GENERIC = 1, /* tiled, kernel size a run-time value */
    GP_CONV2D_DIRECT = 2,  /* one output per thread from global memory, no tiling (reference point) */
    GP_CONV2D_ROLLED = 3   /* as AUTO, but the kernel-row loop rolled with double-buffered row segments
                              (less code, more registers); compiled for kernel 5, 6, 7 with 2 rows and
                              4, 6 or 8 channels per thread, else AUTO runs */
};

/* Whether the rolled variant is compiled for this kernel size and per-thread block. */
static inline int gp_conv2d_rolled_compiled(int k, int rows_per_thread, int oc_per_thread)
{
    return (k == 5 || k == 6 || k == 7) && rows_per_thread == 2 &&
           (oc_per_thread == 4 || oc_per_thread == 6 || oc_per_thread == 8);
}

typedef struct gp_conv2d_shape {
    int n, in_c, h, w;   /* input x: n x in_c x h x w */
    int out_c, kh, kw;   /* weights: out_c x in_c x kh x kw */
    int pad_h, pad_w;    /* zeros added above/below and left/right */
} gp_conv2d_shape;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[] = n, in_c, h, w,
 * out_c, kh, kw; opt[] = pad_h, pad_w.  `--shape NxCxHxW kK[xKW] ocO
 * valid|same|pad PH,PW` (the bench labels: "1x6x768x512 k6 oc6 valid (seed)",
 * "1x3x2160x3840 k5 oc6 same"). */
enum {
    GP_CONV2D_DIM_N = 0,
    GP_CONV2D_DIM_IN_C = 1,
    GP_CONV2D_DIM_H = 2,
    GP_CONV2D_DIM_W = 3,
    GP_CONV2D_DIM_OUT_C = 4,
    GP_CONV2D_DIM_KH = 5,
    GP_CONV2D_DIM_KW = 6
};
enum { GP_CONV2D_OPT_PAD_H = 0, GP_CONV2D_OPT_PAD_W = 1 };

/* The convolution of shape g; GP_ERR_USAGE for a size or pad outside int
 * (the full checks: gp_conv2d_check). */
struct gp_shape;
gp_status gp_conv2d_shape_of(const struct gp_shape *g, gp_conv2d_shape *s);

/* [kernel.conv2d] (conv2d_params.inc), fitted to the device (block within
 * the launch bounds and the device's threads, out_channels_per_block within
 * the compiled 8); the plan of each launch fits the rest to the problem. */
typedef struct gp_conv2d_params {
#define GP_PARAM GP_PARAM_FIELD
#include "conv2d_params.inc"
#undef GP_PARAM
    char note[160]; /* what fit adjusted ("" when nothing) */
} gp_conv2d_params;

/* Clamp p to dev (NULL: no device limits) and to what is compiled; what
 * changed goes into p->note.  Parameters for a launch come from
 * gp_kernel_params(&gp_kernel_conv2d, table, dev, shape, ...), which reads
 * the table, re-derives the rule's values for the shape and calls this. */
void gp_conv2d_params_fit(gp_conv2d_params *p, const gp_device_info *dev);

/* Everything a launch needs; filled by gp_conv2d_plan_make. */
typedef struct gp_conv2d_plan {
    gp_conv2d_shape s;
    int out_h, out_w;
    int variant;          /* GP_CONV2D_AUTO (= specialized or generic as k_spec says), GENERIC, DIRECT, ROLLED */
    int k_spec;           /* specialized square kernel size, 0 = generic code */
    int block;            /* threads per block */
    int threads_x;        /* threads along x (power of two); threads_y = block / threads_x */
    int rows_per_thread;  /* RY */
    int oc_per_thread;    /* output channels per thread and per block (OCB) */
    int oc_pad;           /* OCB rounded up for vector loads of the weights (1, 2, 4, 8) */
    int tile_x, tile_y;   /* output tile of one block */
    int in_rows, pitch;   /* LDS input tile: rows per channel, floats per row */
    int fill_cols;        /* LDS columns written per row: tile_x + kw - 1, or up to the last 16-byte read */
    int s_off, nchunk;    /* rows are copied in 4-column chunks starting s_off columns left of the tile's
                             first input column (16-byte aligned in global memory): nchunk per row */
    int ic_per_stage;     /* input channels per LDS stage (two stage buffers: the next one loads while
                             the current one computes) */
    int nstages;          /* ceil(in_c / ic_per_stage) */
    int w_resident;       /* 1: the weights of all input channels sit in LDS for the whole block;
                             0: each stage brings its own (two weight buffers) */
    int ws_floats;        /* LDS floats of the resident weights, or of one stage's weight buffer
                             (16-byte multiple) */
    size_t lds_bytes;     /* dynamic LDS per block */
    int lds_conflict;     /* simulated bank-conflict degree of the compute loads (1 = none) */
    int tiles_x, tiles_y, groups;   /* grid: tiles and output-channel groups */
    int device;           /* 1 + the device gp_conv2d_plan_for's context has (its run makes it current); 0: none */
    char note[192];       /* what was adjusted to fit ("" when nothing) */
} gp_conv2d_plan;

/* Output size and argument checks, before any device call:
 * GP_ERR_USAGE for a size < 1, a negative pad, a kernel larger than the padded
 * input or a channel plane of 2^31 elements or more; GP_ERR_NOMEM when the
 * buffers' sizes overflow size_t or (mem_bytes > 0) x + w + y exceed
 * mem_bytes.  out_h/out_w may be NULL. */
gp_status gp_conv2d_check(const gp_conv2d_shape *s, size_t mem_bytes, int *out_h, int *out_w);
/* Element counts of x, w and y (shape assumed checked). */
size_t gp_conv2d_x_elems(const gp_conv2d_shape *s);
size_t gp_conv2d_w_elems(const gp_conv2d_shape *s);
size_t gp_conv2d_y_elems(const gp_conv2d_shape *s);
/* 2 * n * out_c * out_h * out_w * in_c * kh * kw. */
double gp_conv2d_flops(const gp_conv2d_shape *s);

/* The plan of one launch of shape s with parameters prm on dev: the shape
 * checked against dev (memory), the parameters fitted to the device and the
 * problem.  `variant` < 0 takes prm's variant; >= 0 overrides it. */
gp_status gp_conv2d_plan_make(const gp_conv2d_params *prm, const gp_device_info *dev, const gp_conv2d_shape *s,
                              int variant, gp_conv2d_plan *p);
/* Same from explicit values (the parameters' keys): what plan_make does. */
gp_status gp_conv2d_plan_fit(int tile_x, int tile_y, int block, int ocb, int variant,
                             const gp_device_info *dev, const gp_conv2d_shape *s, gp_conv2d_plan *p);
/* Simulated bank-conflict degree of one compute load of warp 0 (32 lanes, 32
 * banks of 4 bytes) with LDS rows `pitch` floats apart: lane l reads row
 * (l / tx) * ry, column (l % tx) * 4; vec4: 16-byte reads (8 lanes per pass),
 * else 4-byte reads (32 lanes per pass).  The most distinct words one bank
 * serves in one pass: 1 = conflict-free, up to 32. */
int gp_conv2d_conflict_degree(int pitch, int tx, int ry, int vec4);
/* "k6 spec, tile 32x32, block 128 (8x16), 4x2 px x 6 oc/thread, 1 ch/stage x 6, weights resident,
 * LDS 20.1 KiB, conflict 1" */
void gp_conv2d_plan_format(const gp_conv2d_plan *p, char *buf, size_t n);

/* y = conv(x, w), enqueued on `stream` (NULL: the default stream; no
 * synchronization).  Device buffers: x (n in_c h w), w (out_c in_c kh kw),
 * y (n out_c out_h out_w), not overlapping y.  GP_ERR_USAGE for NULL
 * pointers or an unchecked plan, before any device call. */
gp_status gp_conv2d_run(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y, gp_stream stream);

/* ---- The library's call (kernels/context.h).  The plan of shape s with
 * the parameters the context gives for it, fitted to the context's device
 * (host arithmetic only, tens of microseconds: make it once per shape,
 * outside the hot path; no allocation), then gp_conv2d_run it on any
 * buffers of that shape, asynchronously: NULL, misaligned (4 bytes) or
 * overlapping buffers (y with x or w) are GP_ERR_USAGE before any launch. */
struct gp_context;
gp_status gp_conv2d_plan_for(struct gp_context *ctx, const gp_conv2d_shape *s, gp_conv2d_plan *plan);

/* ---- CPU reference (conv2d_ref.c), double accumulation.
 * y (may be NULL) gets every output; s_abs (may be NULL) gets, per output,
 * sum |x| |w| over its terms: the scale the tolerance is relative to. */
void gp_conv2d_ref(const gp_conv2d_shape *s, const float *x, const float *w, double *y, double *s_abs);
/* One output (img, oc, oy, ox): value and sum |x||w|. */
void gp_conv2d_ref_at(const gp_conv2d_shape *s, const float *x, const float *w, int img, int oc, int oy,
                      int ox, double *y, double *s_abs);
/* The same for output index i of y (row-major n, out_c, out_h, out_w). */
void gp_conv2d_ref_index(const gp_conv2d_shape *s, const float *x, const float *w, size_t i, double *y,
                         double *s_abs);
/* Relative tolerance of a float result: an fp32 sum of `terms` products
 * (fma, any order) is within terms x 2^-24 x sum|x||w| of the exact value;
 * the tolerance is twice that, plus a little for the final rounding. */
double gp_conv2d_rel_tol(const gp_conv2d_shape *s);
/* Check got[] (all outputs) against ref/s_abs: |got - ref| <= tol * s_abs
 * + 1e-30.  GP_ERR_CHECK naming `what`, the (img, oc, oy, ox) and values. */
gp_status gp_conv2d_compare(const char *what, const gp_conv2d_shape *s, const float *got, const double *ref,
                            const double *s_abs, double tol, double *max_rel);
/* Check `nsample` outputs chosen from `seed` plus the first and last output
 * row of the first and last channel of the first and last image, each
 * against gp_conv2d_ref_at: for problems too big to reference in full. */
gp_status gp_conv2d_compare_sampled(const char *what, const gp_conv2d_shape *s, const float *x, const float *w,
                                    const float *got, size_t nsample, unsigned long long seed, double tol,
                                    double *max_rel);
/* The outputs compare_sampled checks, as indices into y (idx NULL: only
 * the count): the edges, then nsample drawn from seed.  Returns the count. */
size_t gp_conv2d_sample(const gp_conv2d_shape *s, size_t nsample, unsigned long long seed, size_t *idx);
/* got[idx[i]] (idx NULL: got[i]) against ref[i] / s_abs[i] for i < n, as gp_conv2d_compare: the bench's check
 * of every output or of a sample (tol: gp_conv2d_rel_tol for ours, 1e-3 for cuDNN's FFT or Winograd). */
gp_status gp_conv2d_compare_at(const char *what, const gp_conv2d_shape *s, const float *got, const size_t *idx,
                               const double *ref, const double *s_abs, size_t n, double tol, double *max_rel);
/* The reference of the outputs such a check reads: every one (idx NULL: gp_conv2d_ref), else the sample of
 * gp_conv2d_sample(s, nsample, seed) into idx[] and theirs into ref[] and sa[] (room for its count). */
void gp_conv2d_ref_checked(const gp_conv2d_shape *s, const float *x, const float *w, size_t nsample,
                           unsigned long long seed, size_t *idx, double *ref, double *sa);

/* ---- Floor: the problem at the device's limits.  FLOPs at the FP32 peak
 * (compute_units x FMA lanes per CU x clock) and bytes (x + w + y once) at
 * the DRAM bandwidth; the larger wins.  The table's [compute]/[device]/[dram]
 * values are used when the table describes this device (same arch), else
 * the device's own report: gp_conv2d_fma_lanes and the HBM/GDDR peak. */
typedef struct gp_conv2d_floor {
    double compute_ms, memory_ms, ms;
    double fma_per_s, bytes_per_s;
    char note[160];
} gp_conv2d_floor;
gp_status gp_conv2d_floor_of(const gp_conv2d_shape *s, const gp_table *t, const gp_device_info *dev,
                             gp_conv2d_floor *f);
/* FP32 FMA lanes per CU by vendor and architecture family (0 when unknown):
 * NVIDIA sm_70/sm_80: 64, sm_86/87/89/90 and newer: 128; AMD GCN/CDNA and
 * RDNA: 64. */
int gp_conv2d_fma_lanes(const gp_device_info *dev);

/* ---- GPU launcher (conv2d.hip; none.c without a GPU backend).  Arguments
 * are checked by gp_conv2d_run. */
gp_status gp_conv2d_launch(const gp_conv2d_plan *p, const float *d_x, const float *d_w, float *d_y, gp_stream s);
/* The tiled kernel instantiation (kernel size as k_spec: 0 generic, 3, 5, 6,
 * 7; rows and output channels per thread; rolled or not) as a function
 * address for gp_func_attributes (the rule's resource use); NULL when it is
 * not compiled (and in the CPU-only build). */
const void *gp_conv2d_tiled_fn(int k_spec, int rows_per_thread, int oc_per_thread, int rolled);

/* Every kernel.conv2d parameter from the device facts (kernel.h "Rules";
 * the models: docs/kernels/conv2d.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
gp_status gp_conv2d_rule(const struct gp_rule_in *in, struct gp_table *out);
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_conv2d;

#ifdef __cplusplus
}
#endif
#endif
