/* spmv: y = A x in fp32 for a sparse A in CSR (row_ptr, col, val; 32-bit
 * indices), with the kernel chosen per matrix by a plan made once on the
 * host (as an iterative solver multiplies by the same A many times: PMPP-cases,
 * SpMV).  Docs: docs/kernels/spmv.md.
 *
 * Kernels (spmv.hip):
 *   - CSR scalar: one thread per row (threads_per_row 1);
 *   - CSR vector: threads_per_row = 2..wave lanes per row, a butterfly over
 *     them at the end (Bell and Garland, "Implementing sparse matrix-vector
 *     multiplication on throughput-oriented processors", SC 2009, with the
 *     group narrowed to the row length);
 *   - rows longer than a block (`long_min`) get a whole block each, in the
 *     first blocks of the same launch, so a long row never leaves one group
 *     running alone at the end;
 *   - ELL (column-major, padded to the longest row) where the padding costs
 *     no more bytes than CSR's row pointers save.
 * The plan (gp_spmv_choose) picks among them from the row lengths and
 * [kernel.spmv]; it is a pure host function, unit-tested on the CPU.
 *
 * Results: y[r] = sum_j A[r][j] x[j], each row added in fp32 in the order
 * gp_spmv_f32_depth describes (no atomics: the same bits on every run);
 * |y[r] - exact| <= gp_f32_sum_bound(depth(L_r), sum_j |A[r][j] x[j]|).
 * An empty row gives 0.  Parameters: [kernel.spmv] (spmv_params.inc: block,
 * unroll, scalar_max_row), through gp_kernel_params(&gp_kernel_spmv, table,
 * dev, shape, ...), which reads the table and clamps to the device. */
#ifndef GP_SPMV_H
#define GP_SPMV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "params.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks up to 512 threads: the kernels' launch bounds (spmv.hip), which
 * keep every instantiation within 32 registers on NVIDIA and without
 * scratch on gfx9 (1024 would cap gfx9 at 64 VGPRs: the 8-nonzero batches
 * spill there). */
#define GP_SPMV_MAX_BLOCK 512
#define GP_SPMV_MAX_UNROLL 8
/* Lanes per row compiled in: 1 (scalar), 2, 4, ..., the wave. */
#define GP_SPMV_MAX_TPR 64

/* [kernel.spmv] (spmv_params.inc): block (threads, a power of two, 64..512),
 * unroll (nonzeros a lane loads before it uses them: 1, 2, 4, 8),
 * scalar_max_row (mean row length up to which one thread a row runs; 0:
 * never); then what fit notes. */
typedef struct gp_spmv_params {
#define GP_PARAM GP_PARAM_FIELD
#include "spmv_params.inc"
#undef GP_PARAM
    char note[192]; /* what was adjusted to fit the device ("" when nothing) */
} gp_spmv_params;

/* Clamp p to dev (NULL: no device limits): whole waves, the compiled
 * unrolls; what changed goes into p->note. */
void gp_spmv_params_fit(gp_spmv_params *p, const gp_device_info *dev);

/* The shape of a problem (gp_shape, kernels/kernel.h): a matrix the bench
 * generates.  d[GP_SPMV_ROWS] rows, d[GP_SPMV_COLS] columns (a Laplacian:
 * both n^2), d[GP_SPMV_LEN] the generator's size parameter (Laplacian: the
 * grid side n; uniform: nonzeros a row; power-law: the shortest row lmin;
 * mixed: the length scale, a block), d[GP_SPMV_CUT] the power-law's longest
 * row; opt[GP_SPMV_OPT_KIND] the GP_SPMV_KIND_*, opt[GP_SPMV_OPT_ALPHA] the
 * power-law's exponent x 100.  `--shape`: "laplacian N", "uniform R rows x
 * K [cols C]", "power-law R rows [(L/l)^A cut M] [cols C]", "mixed R rows
 * block B" (the bench labels: "laplacian 5-point 4096^2", ...). */
enum { GP_SPMV_ROWS = 0, GP_SPMV_COLS = 1, GP_SPMV_LEN = 2, GP_SPMV_CUT = 3 };
enum { GP_SPMV_OPT_KIND = 0, GP_SPMV_OPT_ALPHA = 1 };
/* Laplacian 5-point of an n x n grid; exactly K a row at random columns;
 * P(L >= l) = (lmin / l)^alpha cut at the longest; every length 0..70, empty
 * rows and rows of one to three blocks (the hand-made case of verify). */
enum { GP_SPMV_KIND_LAPLACIAN = 0, GP_SPMV_KIND_UNIFORM = 1, GP_SPMV_KIND_POWERLAW = 2, GP_SPMV_KIND_MIXED = 3 };

/* A CSR matrix in host memory (the generators and references; the device
 * copy is three plain arrays).  row_ptr has rows + 1 entries. */
typedef struct gp_csr {
    int rows, cols;
    long long nnz;
    int *row_ptr;
    int *col;
    float *val;
} gp_csr;

gp_status gp_csr_alloc(gp_csr *a, int rows, int cols, long long nnz);
void gp_csr_free(gp_csr *a);
/* Structure checks: row_ptr[0] = 0, non-decreasing, row_ptr[rows] = nnz,
 * every column in 0..cols-1.  GP_ERR_USAGE naming `what` and the row. */
gp_status gp_csr_check(const gp_csr *a, const char *what);

/* ---- Formats and the choice among them. */
enum { GP_SPMV_AUTO = 0, GP_SPMV_CSR = 1, GP_SPMV_ELL = 2 };

typedef struct gp_spmv_choice {
    int format;          /* GP_SPMV_CSR or GP_SPMV_ELL */
    int tpr;             /* CSR: lanes per row (1 = the scalar kernel) */
    int ell_width;       /* ELL: the longest row */
    long long long_min;  /* CSR: rows longer than this get a block each */
    long long nlong;     /* how many rows that is */
    double mean;         /* nonzeros per row */
    double wave_max_mean;/* mean over groups of `wave` consecutive rows of their longest */
    int max_row;
    char why[256];       /* the choice and the numbers behind it */
} gp_spmv_choice;

/* The choice for a matrix with these row pointers (docs/kernels/spmv.md,
 * "Choice"): ELL when format allows it and rows x width x 8 <= nnz x 8 +
 * (rows + 1) x 4; else CSR with tpr = 1 when mean <= p->scalar_max_row and
 * the rows of a wave are even (wave_max_mean <= 2 mean), else tpr =
 * floor_pow2(mean) in 2..wave; force_tpr > 0 overrides tpr (bench
 * variants).  Pure; wave 32 or 64. */
gp_status gp_spmv_choose(const int *row_ptr, int rows, const gp_spmv_params *p, int wave, int format,
                         int force_tpr, gp_spmv_choice *c);

/* Summation-tree height of a row of L nonzeros under the choice (the
 * kernels' order, spmv.hip): CSR ceil(L / tpr) + log2 tpr; a long row
 * ceil(L / block) + 2 log2 wave; ELL L.  With u = 2^-24 the error of a row
 * is at most gamma_d sum |a_j x_j|, gamma_d = d u / (1 - d u) (Higham,
 * Accuracy and Stability of Numerical Algorithms, 3.1: every product and
 * add rounded once in a tree of height d; an FMA rounds once for both):
 * gp_f32_sum_bound (data.h). */
long long gp_spmv_f32_depth(const gp_spmv_choice *c, const gp_spmv_params *p, int wave, long long L);

/* ---- A plan: the choice plus the device arrays it needs (the ELL copy, the
 * list of long rows).  The CSR arrays stay the caller's (d_*, which must
 * outlive the plan). */
typedef struct gp_spmv_plan {
    gp_spmv_choice c;
    gp_spmv_params p;
    int wave;
    int rows, cols;
    long long nnz;
    const int *d_row_ptr, *d_col;
    const float *d_val;
    int *d_long;     /* the long rows, ascending */
    int *d_ell_col;  /* width x rows, column-major; -1 in the padding */
    float *d_ell_val;
    int ell_borrowed; /* the ELL slots are another plan's (gp_spmv_plan_create_sharing) */
    int device;       /* 1 + the device gp_spmv_plan_for made it on (its run makes it current); 0: none */
} gp_spmv_plan;

/* Check a (host copy of the matrix whose device arrays are d_*), choose,
 * and upload what the choice needs.  Bad input: GP_ERR_USAGE before any
 * device call. */
gp_status gp_spmv_plan_create(gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr, const int *d_col,
                              const float *d_val, const gp_spmv_params *p, int wave, int format, int force_tpr);
void gp_spmv_plan_destroy(gp_spmv_plan *pl);

/* As gp_spmv_plan_create for a matrix that has passed gp_csr_check (the
 * caller checks it once; many plans of one matrix, one a parameter set,
 * need not walk its nonzeros again: that walk is O(nnz) on the host), and
 * where the choice is ELL of the width `owner`'s ELL slots have (owner: a
 * plan of the same matrix), the plan uses those slots instead of building
 * and uploading its own: the ELL layout depends on the matrix alone, not on
 * block or unroll.  The owner must outlive the plan.  owner NULL, or
 * without ELL slots of that width: slots of its own. */
gp_status gp_spmv_plan_create_sharing(gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr, const int *d_col,
                                      const float *d_val, const gp_spmv_params *p, int wave, int format,
                                      int force_tpr, const gp_spmv_plan *owner);

/* d_y[0..rows) = A d_x (d_x has cols entries).  4-byte aligned, x and y not
 * overlapping; enqueued on `stream` (NULL: the default stream; no
 * synchronization).  Bad arguments: GP_ERR_USAGE before any device call. */
gp_status gp_spmv_run(const gp_spmv_plan *pl, const float *d_x, float *d_y, gp_stream stream);

/* ---- The library's call (kernels/context.h).  A plan for the user's
 * matrix with the parameters the context gives for its shape (rows, columns
 * and mean nonzeros a row, as a uniform matrix of that size): make it once,
 * outside the hot path (it may allocate the ELL copy and the long-row
 * list), then gp_spmv_run it on any x, asynchronously. */
struct gp_context;
gp_status gp_spmv_plan_for(struct gp_context *ctx, gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr,
                           const int *d_col, const float *d_val);

/* ---- Matrices generated in code (spmv_ref.c). */
/* rows x cols with len[r] nonzeros in row r, at distinct random columns
 * (sorted), values uniform in [-1, 1). */
gp_status gp_spmv_gen_lengths(gp_csr *a, int rows, int cols, const int *len, uint64_t *rng);
/* The 5-point Laplacian of an n x n grid (rows = n^2; 4 on the diagonal, -1
 * to each neighbour inside the grid). */
gp_status gp_spmv_gen_laplacian(gp_csr *a, int n);
/* rows x cols with exactly per_row nonzeros a row at distinct random
 * columns (sorted), values uniform in [-1, 1). */
gp_status gp_spmv_gen_uniform(gp_csr *a, int rows, int cols, int per_row, uint64_t *rng);
/* Power-law row lengths: P(L >= l) = (lmin / l)^alpha, cut at lmax (and
 * cols), columns random (sorted, distinct), values uniform in [-1, 1). */
gp_status gp_spmv_gen_powerlaw(gp_csr *a, int rows, int cols, int lmin, double alpha, int lmax, uint64_t *rng);

/* The matrix of a shape (GP_SPMV_ROWS.., GP_SPMV_KIND_*): GP_ERR_USAGE when
 * it is none of 32-bit indices.  The mixed kind's row r holds 0 nonzeros
 * when r % 11 == 0, B + 1 + r % 3 when r % 97 == 5 (B its length scale),
 * 3 B + 7 for r = 200, else r % 71. */
struct gp_shape;
gp_status gp_spmv_gen_shape(gp_csr *a, const struct gp_shape *s, uint64_t *rng);
/* A shape in words and back: the syntax below (GP_ERR_USAGE naming the
 * spec where it is none of these), its label (which parses back to it),
 * and a random one of the four kinds up to 2^25 nonzeros. */
#define GP_SPMV_SHAPE_SYNTAX \
    "laplacian N | uniform R rows x K [cols C] | power-law R rows [(L/l)^A cut M] [cols C] | mixed R rows block B"
gp_status gp_spmv_shape_parse(const char *spec, struct gp_shape *s);
void gp_spmv_shape_label(const struct gp_shape *s, char *buf, size_t n);
void gp_spmv_shape_random(uint64_t *rng, struct gp_shape *s);
/* Its nonzeros; a power-law matrix's expected count, rows x (lmin +
 * sum_{lmin < l <= cap} (lmin / l)^alpha), cap = min(cut, cols) (11.47 a row
 * for the bench's (4/l)^1.5 cut 65536; past 2^20 the sum's integral). */
double gp_spmv_shape_nnz(const struct gp_shape *s);

/* CPU reference: y[r] in double, and sum_abs[r] = sum |a x| (may be NULL),
 * for rows r0..r1-1 (y and sum_abs indexed from r0). */
void gp_spmv_ref(const gp_csr *a, const float *x, int r0, int r1, double *y, double *sum_abs);
/* y's rows 0, stride, 2 stride, ... against that reference (ref, sum_abs:
 * an entry a checked row): |y - ref| <= gamma_depth(L) sum |a x| + L 2^-53
 * sum |a x| (the second term: the double reference's own error; its
 * products are exact), the depth that of the path p chooses on a for
 * (format, tpr) (format -1: any order of a row's additions, cuSPARSE's);
 * exact (small integers): equal.  GP_ERR_CHECK naming `what` and the row. */
gp_status gp_spmv_check(const gp_csr *a, const float *y, int stride, const double *ref, const double *sum_abs,
                        const gp_spmv_params *p, int wave, int format, int tpr, int exact, const char *what);
/* The same against a choice already made (a plan's `c`: the choice is
 * O(rows) on the host); c NULL: any order of a row's additions. */
gp_status gp_spmv_check_choice(const gp_csr *a, const float *y, int stride, const double *ref,
                               const double *sum_abs, const gp_spmv_choice *c, const gp_spmv_params *p, int wave,
                               int exact, const char *what);

/* Every kernel.spmv parameter from the device facts, for a shape (kernel.h
 * "Rules"; the models: docs/kernels/spmv.md, "Rule"). */
struct gp_rule_in;
struct gp_table;
struct gp_kernel;
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_spmv;
gp_status gp_spmv_rule(const struct gp_rule_in *in, struct gp_table *out);

/* ---- GPU launchers (spmv.hip; none.c without a GPU backend).  Arguments
 * checked by gp_spmv_run. */
gp_status gp_spmv_launch_csr(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                             float *y, const int *long_rows, long long nlong, long long long_min, int tpr,
                             int unroll, int block, gp_stream s);
gp_status gp_spmv_launch_ell(int rows, int width, const int *ell_col, const float *ell_val, const float *x, float *y,
                             int unroll, int block, gp_stream s);

#ifdef __cplusplus
}
#endif
#endif
