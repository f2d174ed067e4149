/* transpose: out[c][r] = in[r][c] for an fp32 matrix of any shape
 * (rows x cols, row-major, rows and cols >= 0), staged through shared
 * memory in square tiles.  Docs: docs/kernels/transpose.md.
 *
 * Parameters: [kernel.transpose] (transpose_params.inc), clamped to the
 * device so that every valid table gives the same, exact result. */
#ifndef GP_TRANSPOSE_H
#define GP_TRANSPOSE_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time shapes the GPU code carries (transpose.hip instantiates every
 * tile in {8,16,32,64} x items in {1,2,4,8,16} x vec in {1,2,4} that fits a
 * block of 1024 threads; vec > 1 only for tiles >= 32; the swizzled layout
 * (vec > 1) and the streaming hints only for tiles >= 32). */
#define GP_TRANSPOSE_MAX_ITEMS 16
#define GP_TRANSPOSE_MAX_THREADS 1024
#define GP_TRANSPOSE_MAX_TILES_PER_BLOCK 64

/* stream bits: streaming (evict-first / non-temporal) global accesses. */
#define GP_TRANSPOSE_STREAM_LOADS 1
#define GP_TRANSPOSE_STREAM_STORES 2

/* Copy kernel schedules (context rows of the bench). */
#define GP_TRANSPOSE_COPY_PERSISTENT 0 /* grid 8 x CUs, grid-stride loop */
#define GP_TRANSPOSE_COPY_ONE_PASS 1   /* one 4 x 16 B chunk per thread, as many blocks as that takes */
#define GP_TRANSPOSE_COPY_ONE_PASS_CS 2 /* the same with streaming loads and stores */

/* [kernel.transpose] (transpose_params.inc), and what fit derives. */
typedef struct gp_transpose_params {
#define GP_PARAM GP_PARAM_FIELD
#include "transpose_params.inc"
#undef GP_PARAM
    int max_threads; /* the device's threads per block the rest was fitted to */
    char note[192];  /* what was adjusted to fit the device ("" when nothing) */
} gp_transpose_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[0] rows, d[1] cols
 * of the input; `--shape RxC` (e.g. 12000x12000). */
enum { GP_TRANSPOSE_ROWS = 0, GP_TRANSPOSE_COLS = 1 };

/* Clamp p to `dev` (threads per block, block dimensions, shared memory per
 * block, the shapes compiled in); dev NULL: no device limits.  What changed
 * goes into p->note.  Parameters for a launch come from
 * gp_kernel_params(&gp_kernel_transpose, table, dev, shape, ...), which
 * reads the table and calls this. */
void gp_transpose_params_fit(gp_transpose_params *p, const gp_device_info *dev);

/* The vector width the kernel really uses for this problem: vec when rows
 * and cols are multiples of it and both pointers are aligned to vec x 4
 * bytes, else 1 (the vector kernel needs aligned rows in and out). */
int gp_transpose_effective_vec(const gp_transpose_params *p, size_t rows, size_t cols, const void *d_in,
                               const void *d_out);

/* out (cols x rows) = transpose of in (rows x cols), both device buffers,
 * row-major, not overlapping.  rows or cols 0: nothing to do.  Enqueued on
 * `stream` (NULL: the default stream; no synchronization).  Bad arguments
 * give GP_ERR_USAGE before any device call. */
gp_status gp_transpose_f32(const float *d_in, float *d_out, size_t rows, size_t cols,
                           const gp_transpose_params *p, gp_stream stream);

/* The library's call (kernels/context.h): the same, with the parameters the
 * context keeps for this shape (from the device's table, for rows x cols). */
struct gp_context;
gp_status gp_transpose(struct gp_context *ctx, const float *d_in, float *d_out, size_t rows, size_t cols,
                       gp_stream stream);

/* A plain copy kernel of ours (16-byte accesses), for context in the bench:
 * the bandwidth a transpose could at best reach.  mode: GP_TRANSPOSE_COPY_*.
 * Pointers must be 16-byte aligned. */
gp_status gp_transpose_copy_f32(const float *d_in, float *d_out, size_t n, const gp_device_info *dev, int mode,
                                gp_stream stream);

/* CPU reference (transpose_ref.c). */
void gp_transpose_ref_f32(const float *in, float *out, size_t rows, size_t cols);

/* Word offset of tile element (r, c) in the swizzled shared tile (tile 32 or
 * 64, vec 2 or 4, no pad): row r keeps its vec-element chunks at chunk
 * (c / vec) ^ ((r / vec) mod (32 / vec)).  A macro, so the kernels and the
 * unit test (bank-conflict check) use the same formula. */
#define GP_TRANSPOSE_SWZ_AT(r, c, tile, vec)                                                              \
    ((r) * (tile) + ((((c) / (vec)) ^ (((r) / (vec)) & (32 / (vec) - 1))) * (vec)) + ((c) & ((vec) - 1)))

/* n / d without a division instruction, for n < 2^31 and 1 <= d < 2^31:
 * q = umulhi(n, mul) >> shift with mul = ceil(2^(31 + l) / d), shift = l - 1,
 * l = ceil(log2 d) (the round-up method of Granlund and Montgomery, as in
 * CUTLASS's FastDivmod); d = 1 passes n through.  The kernel maps tile
 * numbers to tile rows and columns with it. */
typedef struct gp_transpose_fastdiv {
    unsigned div, mul, shift;
} gp_transpose_fastdiv;

static inline gp_transpose_fastdiv gp_transpose_fastdiv_make(unsigned d)
{
    gp_transpose_fastdiv f;
    unsigned l = 0;
    f.div = d, f.mul = 0, f.shift = 0;
    if (d <= 1)
        return f;
    while ((1ull << l) < d)
        l++;
    f.mul = (unsigned)(((1ull << (31 + l)) + d - 1) / d);
    f.shift = l - 1;
    return f;
}

/* Host mirror of the device's division (unit-tested against '/'). */
static inline unsigned gp_transpose_fastdiv_apply(unsigned n, gp_transpose_fastdiv f)
{
    if (f.div <= 1)
        return n;
    return (unsigned)(((unsigned long long)n * f.mul) >> 32) >> f.shift;
}

/* ---- GPU launchers (transpose.hip; none.c without a GPU backend).
 * Arguments are checked by the callers above. */
gp_status gp_transpose_launch(const float *d_in, float *d_out, size_t rows, size_t cols, int tile, int pad,
                              int items, int vec, int group, int swizzle, int stream, int tiles_per_block,
                              gp_stream s);
gp_status gp_transpose_copy_launch(const float *d_in, float *d_out, size_t n, int grid, int block, int stream,
                                   gp_stream s);

/* Every kernel.transpose parameter from the device facts (kernel.h "Rules";
 * the models: docs/kernels/transpose.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_transpose;
gp_status gp_transpose_rule(const struct gp_rule_in *in, struct gp_table *out);

#ifdef __cplusplus
}
#endif
#endif
