/* stencil: one Jacobi step of the 3D 7-point stencil on fp32, tiled in x and
 * y with register streaming in z (the CUDA casebook's register-tiled stencil,
 * after Kirk and Hwu, Programming Massively Parallel Processors, ch. 8).
 * Docs: docs/kernels/stencil.md.
 *
 * Result: for a grid of nx x ny x nz points (x fastest, then y, then z),
 *   - interior points (1 <= x <= nx-2, 1 <= y <= ny-2, 1 <= z <= nz-2):
 *       out = c0 x in + c1 x (in[x-1] + in[x+1] + in[y-1] + in[y+1]
 *                              + in[z-1] + in[z+1]);
 *   - border points (any coordinate at 0 or at its last index): Dirichlet,
 *     out = in, bit for bit (the fixed boundary values carried over).
 * fp32 arithmetic: |out - exact| <= gp_stencil_f32_bound(|c0 in| + |c1| x
 * sum |neighbours|) whatever the order of the additions and FMA contraction.
 * in and out must not overlap (a Jacobi step reads only the old values).
 * Parameters: [kernel.stencil] (stencil_params.inc), through
 * gp_kernel_params(&gp_kernel_stencil, table, dev, shape, ...), which reads
 * the table and clamps to the device. */
#ifndef GP_STENCIL_H
#define GP_STENCIL_H

#include <stddef.h>
#include <stdint.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The block is tile_x x tile_y threads, one column of points (x, y) each
 * (vec 4: 4 columns each); the launch bounds allow 512 threads (256 with
 * vec 4).  tile_x 16..128 and tile_y 4..16 (powers of two) keep the halo
 * (2 tile_x + 2 tile_y loads) within one load per thread: (tile_x - 2)
 * (tile_y - 2) >= 4.  tile_x 16 is for vec 4 (64 points, 256 B a row: the
 * H200's second-best 4-wide tile, 64 x 8); the rule gives the 1-wide kernel
 * at least a wave. */
#define GP_STENCIL_MAX_BLOCK 512
#define GP_STENCIL_MIN_TX 16
#define GP_STENCIL_MAX_TX 128
#define GP_STENCIL_MIN_TY 4
#define GP_STENCIL_MAX_TY 16
/* planes_ahead compiled in: 1, 2, 3 planes of loads in flight per thread (4
 * spills on sm_80 within the 32 registers of the launch bounds). */
#define GP_STENCIL_MAX_AHEAD 3
#define GP_STENCIL_MAX_BLOCKS_PER_CU 64
/* Each dimension: the grid's y and z launch dimensions stay within 65535. */
#define GP_STENCIL_MAX_DIM 65535
/* LDS per block: two planes (double buffer) of (tile_x + 2) x (tile_y + 2)
 * floats. */
#define GP_STENCIL_LDS_BYTES(tx, ty) (2 * ((tx) + 2) * ((ty) + 2) * 4)

typedef struct gp_stencil_shape {
    int nx, ny, nz;
} gp_stencil_shape;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[GP_STENCIL_NX],
 * d[GP_STENCIL_NY], d[GP_STENCIL_NZ] the grid's points (x fastest);
 * `--shape N^3` or `--shape NXxNYxNZ` (the bench labels: "512^3 fp32"). */
enum { GP_STENCIL_NX = 0, GP_STENCIL_NY = 1, GP_STENCIL_NZ = 2 };

/* [kernel.stencil] (stencil_params.inc): tile_x, tile_y (threads per block
 * in x and y), planes_ahead (1, 2 or 3; 1, 2 with vec 4), blocks_per_cu
 * (blocks one CU holds at once: the z split's model), vec (x points per
 * thread: 1, or 4: 16-byte accesses, at most 256 threads, stencil_v4.h; 0
 * reads as 1); then what fit derives. */
typedef struct gp_stencil_params {
#define GP_PARAM GP_PARAM_FIELD
#include "stencil_params.inc"
#undef GP_PARAM
    int cus;        /* compute units of the device (1 without one) */
    char note[192]; /* what was adjusted to fit the device ("" when nothing) */
} gp_stencil_params;

/* Clamp p to what is compiled and to `dev` (NULL: no device); what changed
 * goes into p->note. */
void gp_stencil_params_fit(gp_stencil_params *p, const gp_device_info *dev);

/* vec 4 runs where nx is a multiple of 4 and both arrays are 16-byte
 * aligned (every row then starts on a 16-byte boundary); elsewhere the host
 * launches the 1-wide kernel with the same tile (gp_stencil_f32).  Pure:
 * unit-tested. */
int gp_stencil_vec_usable(const gp_stencil_params *p, const gp_stencil_shape *s, const void *d_in,
                          const void *d_out);

/* The z split: how many chunks of z planes the grid cuts each column of
 * tiles into.  With T = tiles in x and y and R = blocks_per_cu x cus blocks
 * resident at once, c chunks take ceil(T c / R) rounds of blocks, each
 * reading ceil(nz / c) + 2 planes (the two halo planes); the smallest
 * product wins (ties: fewer chunks).  A tile is tile_x x vec points wide.
 * Pure: unit-tested. */
int gp_stencil_z_chunks(const gp_stencil_params *p, const gp_stencil_shape *s);
/* Planes per chunk for that split. */
int gp_stencil_z_per_chunk(const gp_stencil_params *p, const gp_stencil_shape *s);

/* The shape is valid (each dimension 1..GP_STENCIL_MAX_DIM); GP_ERR_USAGE
 * naming `what` and the dimension otherwise. */
gp_status gp_stencil_shape_check(const char *what, const gp_stencil_shape *s);
size_t gp_stencil_elems(const gp_stencil_shape *s);

/* One Jacobi step d_out = S(d_in), tiled (parameters p, fitted) or naive
 * (one thread per point, every neighbour loaded from global memory: the
 * comparison the issue asks for).  4-byte aligned, non-overlapping arrays;
 * c0, c1 finite.  Enqueued on `stream` (NULL: the default stream; no
 * synchronization).  Bad arguments give GP_ERR_USAGE before any device
 * call. */
gp_status gp_stencil_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                         const gp_stencil_params *p, gp_stream stream);
gp_status gp_stencil_naive_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                               gp_stream stream);

/* The library's call (kernels/context.h): the same tiled step with the
 * parameters the context gives for this grid. */
struct gp_context;
gp_status gp_stencil(struct gp_context *ctx, const float *d_in, float *d_out, const gp_stencil_shape *s, float c0,
                     float c1, gp_stream stream);

/* Error bound of one output: gamma_8 x mag, gamma_k = k u / (1 - k u),
 * u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 3.1):
 * seven products and six additions in any tree (height <= 6), one rounding
 * for each product and one for factoring c1 out. */
double gp_stencil_f32_bound(double mag);

/* CPU reference (stencil_ref.c), one output plane z at a time, in double:
 * out[y nx + x] for the plane, and mag[] = |c0 in| + |c1| sum |neighbours|
 * (0 on border points, whose value is the input exactly); mag may be NULL. */
void gp_stencil_ref_plane(const float *in, const gp_stencil_shape *s, float c0, float c1, int z, double *out,
                          double *mag);
/* The same for point (x, y, z) alone. */
void gp_stencil_ref_point(const float *in, const gp_stencil_shape *s, float c0, float c1, int x, int y, int z,
                          double *out, double *mag);
/* The bench's data and check.  gp_stencil_fill: in[0 .. n) uniform in [-1, 1) from rng, or (exact) small integers
 * -8 .. 8, with which the Laplacian's coefficients (-6, 1) keep every output exact.  Of the points 0, stride,
 * 2 stride, ... (x fastest): gp_stencil_ref_bounds: lo[j], hi[j] the interval of floats within gp_stencil_f32_bound
 * of the reference at point j x stride (exact: the reference itself): an output passes exactly when it lies in it;
 * gp_stencil_check: out's border points the input's bits (a -0 for a +0 is a change), interior ones within their
 * interval; else GP_ERR_CHECK naming `what`, the point, its value, the reference and the bound. */
void gp_stencil_fill(float *in, size_t n, int exact, uint64_t *rng);
void gp_stencil_ref_bounds(const float *in, const gp_stencil_shape *s, float c0, float c1, int exact, size_t stride,
                           float *lo, float *hi);
gp_status gp_stencil_check(const char *what, const float *out, const float *in, const gp_stencil_shape *s, float c0,
                           float c1, int exact, size_t stride, const float *lo, const float *hi);

/* Every kernel.stencil parameter from the device facts, for a shape
 * (kernel.h "Rules"; the models: docs/kernels/stencil.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_stencil;
gp_status gp_stencil_rule(const struct gp_rule_in *in, struct gp_table *out);
/* Registers a thread of the tiled kernel of vec (1, 4) and planes_ahead
 * uses, the build constants the rule and the bench's variants size the
 * occupancy with (stencil_rule.c; each checked against ptxas by
 * tests/build/check_gpu_build.sh): 32 for vec 1, 56 for vec 4 at 1 plane ahead,
 * 64 at 2. */
int gp_stencil_build_regs(int vec, int ahead);
/* The compiled tiled kernel of (vec, planes_ahead) as a function address for
 * gp_func_attributes (the rule's resource use on a device); NULL where it
 * is not compiled or no GPU backend is (none.c). */
const void *gp_stencil_kernel_fn(int vec, int ahead);

/* ---- GPU launchers (stencil.hip; none.c without a GPU backend).  Arguments
 * checked by the callers above. */
gp_status gp_stencil_launch_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0, float c1,
                                int tile_x, int tile_y, int ahead, int vec, int z_per_chunk, int z_chunks,
                                gp_stream st);
gp_status gp_stencil_launch_naive_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0,
                                      float c1, gp_stream st);

#ifdef __cplusplus
}
#endif
#endif
