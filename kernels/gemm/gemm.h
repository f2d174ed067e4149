/* gemm: single-precision matrix multiply, C = alpha op(A) op(B) + beta C,
 * row- or column-major, op = identity or transpose, any M, N, K >= 1, any
 * leading dimensions.  Docs: docs/kernels/gemm.md.
 *
 * The kernel is the classic shared-memory and joint register tiling: a block
 * computes a tile_m x tile_n tile of C, walking K in steps of tile_k whose A
 * and B slabs go through LDS double-buffered (the next slab's global loads
 * are in registers while the current one is multiplied); each thread holds
 * an (tile_m x tile_n / block) register tile, fed per k by 16-byte LDS reads
 * of its A column and B row fragments.  Column-major problems are the
 * row-major problem C^T = op(B)^T op(A)^T on the same memory.  beta = 0
 * does not read C (it may hold NaN, as in BLAS).
 * Parameters from [kernel.gemm] (gemm_params.inc: tile_m, tile_n, tile_k,
 * block), one of the compiled configurations (GP_GEMM_CFG*), chosen by the
 * rule for the problem's shape. */
#ifndef GP_GEMM_H
#define GP_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"
#include "gp_target.h"
#include "params.h"
#include "runtime.h"
#include "table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_gemm_layout { GP_GEMM_ROW_MAJOR = 0, GP_GEMM_COL_MAJOR = 1 } gp_gemm_layout;

/* The configurations {tile_m, tile_n, tile_k, block, register classes}, in
 * the launcher's order; thread tile tile_m x tile_n / block = 8 x 8 (the
 * quadrant kernel) or 8 x 16 (the warp-tiled kernel, CFG4 and CFG5).
 * A configuration is compiled only for the targets whose register class
 * (platform/gp_target.h) is in its mask.  128x128x16 is NVIDIA's only: per
 * thread 64 accumulators, 16 fragments and a 16-deep slab (8 + 8 staged
 * values), which ptxas holds in 168 registers, but clang for AMD schedules
 * the 16 unrolled k-steps' LDS reads ahead and spilled 840-888 bytes past 256
 * VGPRs on gfx900/90a/940/1030.  The k-step 8 tiles fit every class (on
 * GP_REGS_128, gfx11 under clang 15, with the k-step loop unrolled by 2:
 * 105-110 VGPRs).  docs/kernels/gemm.md, "Targets". */
#define GP_GEMM_ALL_TARGETS (GP_REGS_NV | GP_REGS_256 | GP_REGS_128)
#define GP_GEMM_CFG0 128, 128, 8, 256, GP_GEMM_ALL_TARGETS
#define GP_GEMM_CFG1 128, 128, 16, 256, GP_REGS_NV
#define GP_GEMM_CFG2 128, 64, 8, 128, GP_GEMM_ALL_TARGETS
#define GP_GEMM_CFG3 64, 64, 8, 64, GP_GEMM_ALL_TARGETS
/* The warp-tiled kernel (gemm.hip, gp_gemm_wt_kernel; thread tile 8 x 16:
 * 128 accumulators, 24 fragments, 8 + 8 staged values): past 128 registers,
 * so NVIDIA's class only.  CFG4 (2 blocks of 128 an SM): 202-214 registers
 * in ptxas sm_90 (208-214 sm_80), a tune candidate.  CFG5, 128x256 with 8
 * warps as 2 x 4 (the same per-warp code): 1 block an SM, 202-206 registers
 * (sm_90), but for A k-contiguous and B n-contiguous (row-major NN) the
 * experiment's kernel (gemm.hip, gp_gemm_wt_nn_kernel): 228 (211 sm_80),
 * as unmaintained/experiments/gemm_variants.cu's, which ran 4.7 % faster.  The
 * H200 paired run of 2026-11-24 (docs/kernels/gemm.md, "Measured") put it first at
 * 4096^3 and 8192^3, so the rule picks it where the target compiles it and
 * falls back per problem (gp_gemm_plan). */
#define GP_GEMM_CFG4 128, 128, 8, 128, GP_REGS_NV
#define GP_GEMM_CFG5 128, 256, 8, 256, GP_REGS_NV
#define GP_GEMM_NCONFIGS 6
/* The configurations the rule considers, in its order (most FMAs per loaded
 * byte first: tile_m tile_n / (4 (tile_m + tile_n)) = 21.3, 16, 16, 10.7, 8;
 * the smaller k-step first among equal tiles).  CFG4 is not among them: the
 * H200 run measured it below CFG5 on the aligned shapes and below CFG0 on
 * 4095 x 4097 x 1023, so it stays a tune candidate. */
#define GP_GEMM_RULE_ORDER 5, 0, 1, 2, 3
#define GP_GEMM_RULE_CONFIGS 5
extern const int gp_gemm_configs[GP_GEMM_NCONFIGS][5];
/* Whether configuration cfg is compiled for a target of register class
 * reg_class (gp_target_reg_class); reg_class 0 (unknown target) admits the
 * configurations of every class. */
int gp_gemm_config_on(int cfg, unsigned reg_class);
/* LDS padding (floats per row of a stage) against bank conflicts of the
 * transposing stores. */
#define GP_GEMM_LDS_PAD 4
/* Registers per thread the kernels are bounded to on NVIDIA (launch bounds):
 * the 128x128x8 tile, and the tiles with 8 + 8 prefetched values. */
#define GP_GEMM_REGS 128
#define GP_GEMM_REGS_WIDE 168
/* ... and the warp-tiled 8 x 16 tiles: all 255 (2 blocks of 128 threads an
 * SM, or 1 of 256). */
#define GP_GEMM_REGS_WT 255
/* VGPRs per thread the quadrant kernels are bounded to on AMD (gemm.hip). */
#define GP_GEMM_REGS_AMD 128
/* What the occupancy model counts for a quadrant configuration, by the
 * vendor of the table's target (GP_RULE_REGS, kernels/rule.h): its bounds.
 * ptxas holds 128x128x8/256 at 128; clang took 209-211 VGPRs for it on
 * gfx900 until the kernels were bounded to 128 there (116-125, no scratch). */
#define GP_GEMM_RULE_REGS_SLAB8 GP_RULE_REGS(GP_GEMM_REGS, GP_GEMM_REGS_AMD)
#define GP_GEMM_RULE_REGS_WIDE GP_RULE_REGS(GP_GEMM_REGS_WIDE, GP_GEMM_REGS_AMD)
/* Accumulators per thread of a configuration: 64 (8 x 8, the quadrant
 * kernel) or 128 (8 x 16, the warp-tiled kernel). */
#define GP_GEMM_THREAD_TILE(tile_m, tile_n, block) ((tile_m) * (tile_n) / (block))

/* [kernel.gemm] (gemm_params.inc), and what fit derives. */
typedef struct gp_gemm_params {
#define GP_PARAM GP_PARAM_FIELD
#include "gemm_params.inc"
#undef GP_PARAM
    int config; /* index into gp_gemm_configs */
    /* For the launch's pointer-alignment step (gp_gemm_f32), set by fit from
     * the device: its CUs and, per configuration, the blocks one CU holds
     * (the rules' occupancy model on the device's own limits).  0: unknown,
     * the configuration runs as fitted. */
    int cus;
    int blocks_cu[GP_GEMM_NCONFIGS];
    char note[160]; /* what was adjusted to fit the device ("" when nothing) */
} gp_gemm_params;

/* The shape of a problem (gp_shape, kernels/kernel.h): d[] = m, n, k and the
 * leading dimensions lda, ldb, ldc (0: the least the layout allows, the
 * packed matrix); opt[] = the layout (gp_gemm_layout) and the transposes of
 * A and B (0 or 1).  `--shape MxNxK [NN|NT|TN|TT] [row-major|col-major] [ld
 * LDA/LDB/LDC]` (e.g. "4095x4097x1023", "512x256x64 TN col-major ld
 * 80/520/516"); alpha and beta are the case's data (gemm_bench.c). */
enum { GP_GEMM_M = 0, GP_GEMM_N = 1, GP_GEMM_K = 2, GP_GEMM_LDA = 3, GP_GEMM_LDB = 4, GP_GEMM_LDC = 5 };
enum { GP_GEMM_OPT_LAYOUT = 0, GP_GEMM_OPT_TRANS_A = 1, GP_GEMM_OPT_TRANS_B = 2 };

/* Snap to a configuration compiled for the device's target (the exact one,
 * else the first that the device's LDS per block holds), noting the change
 * (a shape the target lacks: "not compiled for gfx1100 ..."), and set the
 * device's CUs and each configuration's blocks per CU (dev NULL: 0, no
 * launch-time step).  Parameters for a launch come from
 * gp_kernel_params(&gp_kernel_gemm, table, dev, shape, ...), which reads
 * the table and calls this. */
void gp_gemm_params_fit(gp_gemm_params *p, const gp_device_info *dev);
/* Registers per thread the occupancy model assumes for configuration cfg
 * (gemm.c: accumulators, fragments, a share of the staged slab and 24 for
 * addresses; the rule and fit use the same estimate). */
long long gp_gemm_config_regs(int cfg);
/* LDS bytes a configuration uses: 2 stages x tile_k x (tile_m + tile_n + 2 pad) x 4
 * (CFG5's row-major NN kernel pads only A's rows: 256 B less, an upper bound). */
size_t gp_gemm_lds_bytes(int tile_m, int tile_n, int tile_k);

typedef struct gp_gemm_problem {
    gp_gemm_layout layout;
    int trans_a, trans_b;
    int m, n, k;
    float alpha, beta;
    int lda, ldb, ldc;
} gp_gemm_problem;

/* Split k: with split_k = S > 1 each tile's k is cut into ceil(k / kc)
 * pieces of kc = S-th of k rounded up to whole k-steps, run as
 * grid.z = pieces blocks a tile (a shallow product's few tiles then fill
 * the SMs); each writes alpha times its partial product to a workspace
 * slice of m rows of gp_gemm_split_ld(n) floats (the row-major problem's m
 * and n), and a second kernel adds the slices in split order and beta C
 * (deterministic: the same sums in the same order every run).  The
 * workspace is the caller's (gp_gemm_workspace_bytes): nothing allocated
 * in a call.  Chosen per shape by gp_gemm_plan_split. */
#define GP_GEMM_SPLIT_MAX 8
/* Only the warp-tiled kernels (thread tile 8 x 16, NVIDIA) split: the
 * quadrant kernel at its 128-register bound on sm_90 spilled with the
 * split's offsets (4-12 bytes), and fit sets its split_k to 1, noted. */
#define GP_GEMM_SPLITS(tile_m, tile_n, block) (GP_GEMM_THREAD_TILE(tile_m, tile_n, block) == 128)
static inline int gp_gemm_split_kc(int k, int split, int tile_k)
{
    const int per = split > 1 ? (k + split - 1) / split : k;
    return (per + tile_k - 1) / tile_k * tile_k;
}
static inline int gp_gemm_split_ld(int n) { return (n + 3) / 4 * 4; }

/* Stream-K over the last wave: with stream_k 1, a product whose 128x256
 * tiles leave the last wave partial runs its whole waves as before, then
 * the rest as one block an SM (`blocks` = the SMs), each an equal share of
 * the remaining tiles' k-steps; the parts of a tile no share holds whole
 * go to the workspace (two tile-sized slots a block), and a third kernel
 * adds them in k order and stores C.  The row-major NN kernel only
 * (gemm.hip, gp_gemm_wt_nn_sk_kernel), on the launched problem's m, n, k.
 * gp_gemm_sk_plan: 1 where it applies (tiles past the whole waves, and at
 * least one k-step a block), with the split of the tiles. */
typedef struct gp_gemm_sk_shape {
    int tiles_x, dp_tiles, sk_tiles, nk;
} gp_gemm_sk_shape;
/* The shares' launch orders its blocks in a table passed by value: at most this many SMs. */
#define GP_GEMM_SK_MAX_BLOCKS 512
static inline int gp_gemm_sk_plan(int m, int n, int k, int bm, int bn, int bk, int blocks, gp_gemm_sk_shape *s)
{
    if (blocks <= 0 || blocks > GP_GEMM_SK_MAX_BLOCKS || m < 1 || n < 1 || k < 1)
        return 0;
    const long long tx = (n + bn - 1) / bn, tiles = tx * ((m + bm - 1) / bm);
    s->tiles_x = (int)tx, s->nk = (k + bk - 1) / bk;
    s->dp_tiles = (int)(tiles / blocks * blocks), s->sk_tiles = (int)(tiles - s->dp_tiles);
    return s->sk_tiles > 0 && (long long)s->sk_tiles * s->nk >= blocks;
}
/* The shares' second segments, longest first, into second[0 .. blocks): share c's second segment is
 * floor((v + sk_tiles) nk / G) - nk k-steps long and starts floor(v nk / G) k-steps into its tile, v = c sk_tiles
 * mod G, both rising with v (G = blocks); so c by v falling (ties: c rising), a counting sort over v. */
static inline void gp_gemm_sk_order(int sk_tiles, int blocks, unsigned short *second)
{
    unsigned short at[GP_GEMM_SK_MAX_BLOCKS + 1] = {0};
    if (blocks <= 0 || blocks > GP_GEMM_SK_MAX_BLOCKS)
        return;
    for (int c = 0; c < blocks; c++)
        at[blocks - 1 - (int)((long long)c * sk_tiles % blocks)]++; /* v falling: v's place is G - 1 - v */
    for (int v = 0, sum = 0; v <= blocks; v++) {
        const int n = at[v];
        at[v] = (unsigned short)sum, sum += n;
    }
    for (int c = 0; c < blocks; c++)
        second[at[blocks - 1 - (int)((long long)c * sk_tiles % blocks)]++] = (unsigned short)c;
}
static inline size_t gp_gemm_sk_bytes(int blocks, int bm, int bn) { return (size_t)2 * blocks * bm * bn * 4u; }

/* The problem of shape s (see GP_GEMM_M above) with alpha and beta: leading
 * dimensions 0 in s become the least the layout allows. */
struct gp_shape;
void gp_gemm_problem_of_shape(const struct gp_shape *s, float alpha, float beta, gp_gemm_problem *q);

/* The per-problem step: the configuration a problem launches.  Where the
 * chosen tile is 128x256x8/256 (GP_GEMM_FALLBACK_FROM, NVIDIA's large-
 * problem tile), each of 128x256x8/256, 128x128x8/256, 128x128x16/256 and
 * 128x64x8/128 is timed by a model of the busiest SM
 * (gp_gemm_plan_time): the launcher's grid dealt one block an SM at a time
 * over cus SMs, so that SM runs ceil(blocks / cus) blocks, in full rounds
 * of blocks_cu (the occupancy model) and a remainder; a round of b blocks
 * runs at rate(b) = R x U x (b / blocks_cu)^GP_GEMM_PARTIAL_EXP, R the
 * configuration's measured full-occupancy rate relative to 128x256's
 * (GP_GEMM_RATE_*), U the 16-byte load factor of the warp-tiled kernel,
 * 1 - GP_GEMM_LD4_LOSS x the share of its slab loads whose operand is not
 * 16-byte aligned (the quadrant kernel loads 4 bytes always: U = 1).  The
 * fastest runs where it beats 128x256 by GP_GEMM_PLAN_MARGIN; small and
 * skinny products (fewer 128x256 blocks than SMs) take the smaller tiles,
 * odd-strided ones with a ragged last wave 128x128x8/256.  ptrs16: A and B
 * are 16-byte aligned.  why (may be NULL): which tile and why, for the
 * provenance.  The rule takes this step for the shape it is given (16-byte
 * aligned pointers assumed: a shape has none); gp_gemm_f32 takes it again
 * only where A or B is not 16-byte aligned, with p's cus and blocks_cu
 * from fit.  Models and measurements: docs/kernels/gemm.md, "Per-problem
 * tile". */
#define GP_GEMM_FALLBACK_FROM 5
/* H200, 2026-11-24, tools/reproduce.sh OUT experiments, paired vs cuBLAS at
 * 4096^3: 128x128x8/256 0.7653, 128x256x8/256 0.9377 -> 0.816. */
#define GP_GEMM_FALLBACK_D (0.7653 / 0.9377)
#define GP_GEMM_RATE_CFG0 GP_GEMM_FALLBACK_D
/* H100, 2026-11-28, `tune gemm --shape` pairings against 128x256x8/256 on
 * shapes of 3 or more blocks an SM (docs/kernels/gemm.md, "Per-problem
 * tile"): 128x128x16/256 0.694-0.77 (median 0.708), 128x64x8/128 0.757
 * (2000 x 3000 x 1500, 6 blocks an SM at 3 a round). */
#define GP_GEMM_RATE_CFG1 0.708
#define GP_GEMM_RATE_CFG2 0.757
/* Same run, 1024^3: 128x64x8/128 with one block an SM (128 blocks on 132
 * SMs) ran 1.899x 128x256's 32 blocks: rate(1) = 1.899 / 4 = 0.475 =
 * 0.627 x rate(3); (1/3)^0.425 = 0.627.  One fitted point: a model. */
#define GP_GEMM_PARTIAL_EXP 0.425
/* The smaller tile must win by 3 %: the model's error on the H100's shapes
 * of many blocks an SM was up to 5 % (6144 x 512 x 6144 TN: 128x64
 * predicted 1.009x, measured 0.961x). */
#define GP_GEMM_PLAN_MARGIN 1.03
/* Same run: the warp-tiled 128x128x8/128 against the quadrant 128x128x8/256
 * (same tile, same 2 blocks an SM, same waves on both shapes) is 0.8822 /
 * 0.7653 = 1.153x at 4096^3 (16-byte loads) but 0.7949 / 0.8112 = 0.980x at
 * 4095 x 4097 x 1023 (lda 1023, ldb 4097: every load 4 bytes): 0.850 of its
 * speed lost with both operands unaligned -> 0.15. */
#define GP_GEMM_LD4_LOSS (1.0 - (0.7949 / 0.8112) / (0.8822 / 0.7653))
int gp_gemm_plan(const gp_gemm_problem *q, const gp_gemm_params *p, int ptrs16, char *why, size_t n);
/* The model's time of configuration cfg on the problem (in 128x256 tiles
 * at 128x256's full rate; HUGE_VAL where the step has no rate or no
 * occupancy for it), and its grid's blocks. */
double gp_gemm_plan_time(const gp_gemm_problem *q, const gp_gemm_params *p, int cfg, int ptrs16, long long *blocks);
/* Blocks of configuration cfg one CU holds by the rule's occupancy model on
 * the table's facts (gemm_rule.c; 0 where the facts are missing). */
long long gp_gemm_blocks_per_cu(const gp_table *t, int cfg);

/* Split k per shape: the per-problem step's tiles (gp_gemm_plan), each at
 * 1 .. GP_GEMM_SPLIT_MAX splits, timed in seconds: the busiest SM's blocks
 * (gp_gemm_plan_time on the grid times the pieces) x a piece's k at the
 * SM's FMA rate x GP_GEMM_RATE_PEAK (what 128x256 sustains at full
 * occupancy), plus for a split the workspace's bytes (written, then read:
 * 2 x pieces x m x ld x 4) at the DRAM bandwidth and one launch for the
 * sum.  The fastest wins where it beats the unsplit plan by
 * GP_GEMM_PLAN_MARGIN.  Facts: fma per cycle per CU, clock, DRAM bandwidth
 * and launch time; any <= 0 (none in the table): no split.  *split gets
 * the splits (1: none); sk (may be NULL: not weighed) 1 where stream-K
 * (below) beats that plan, which then runs 128x256 with k whole; returns
 * the configuration; why as gp_gemm_plan. */
typedef struct gp_gemm_split_facts {
    double fma_per_cycle_cu, clock_hz, dram_bytes_s, launch_s;
} gp_gemm_split_facts;
/* H200, 2026-11-30: 128x256x8/256 at 4096^3 NN ran 48.07 TFLOP/s (2.8592 ms,
 * docs/reports/h200/2026-11-30/gemm_snake/) of the measured FMA peak 124.9
 * x 132 x 1.98 GHz x 2 = 65.3: 0.736. */
#define GP_GEMM_RATE_PEAK 0.736
int gp_gemm_plan_split(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f, int *split,
                       int *sk, char *why, size_t n);
/* The model's seconds for configuration cfg at `split` (HUGE_VAL where it
 * has none), for the record's predicted-against-measured rows. */
double gp_gemm_split_time(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f, int cfg,
                          int split);
/* Stream-K per shape, where the plan ran 128x256x8/256 with k whole on
 * the NN kernel and one block an SM: the busiest SM's rounds become the
 * whole waves plus the rest's share, (tiles / SMs) rounds of a tile k deep
 * at GP_GEMM_SK_RATE,
 * plus 4 tile-sized slots a block (parts written, then read) at the DRAM
 * bandwidth and one launch (the fix-up kernel).  Taken (gp_gemm_plan_split)
 * where it beats the plan without it by GP_GEMM_SK_MARGIN: a wave of 132 tiles on the H200
 * at 4096^3 is a quarter of the run, and its last 16 SMs idle cost 3 %
 * (49.54 TFLOP/s on 3072 x 5632 x 4096, whole waves, against 48.06 at
 * 4096^3; docs/kernels/gemm.md, "Stream-K"). */
#define GP_GEMM_SK_MARGIN 1.01
/* The share kernel's rate against the plain kernel's, per instruction:
 * H200, 2026-11-30, Nsight Compute at 4096^3, the 116 tiles' shares (538.5
 * M instructions, one segment a block) in 664.2 us where the plain
 * kernel's rate (3 whole waves, 1835.0 M in 2.17 ms) gives 636.8 us: issue
 * 78.2 % of the slots against 81.4 %, at 225 registers against 220.  (Both
 * segments in one block, 233 registers: 0.91.) */
#define GP_GEMM_SK_RATE 0.96
double gp_gemm_sk_time(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f);
/* Bytes of workspace configuration p->config at p->split_k or stream_k
 * needs for q (0: neither applies; the k pieces are whole k-steps of that
 * configuration; stream-K needs p->cus). */
size_t gp_gemm_workspace_bytes(const gp_gemm_problem *q, const gp_gemm_params *p);

/* Check a problem: GP_ERR_USAGE naming the field for m, n, k < 1, a leading
 * dimension below the stored rows (column-major) or columns (row-major), or
 * sizes beyond 32-bit indexing of one matrix. */
gp_status gp_gemm_check_problem(const gp_gemm_problem *q);
/* Elements of the stored A, B, C (ld x rows or columns). */
size_t gp_gemm_a_elems(const gp_gemm_problem *q);
size_t gp_gemm_b_elems(const gp_gemm_problem *q);
size_t gp_gemm_c_elems(const gp_gemm_problem *q);

/* C = alpha op(A) op(B) + beta C, enqueued on `stream` (NULL: the default
 * stream; no synchronization); bad arguments give GP_ERR_USAGE before any
 * device call.  d_work: work_bytes of device memory for p->split_k > 1
 * (gp_gemm_workspace_bytes; fewer bytes is GP_ERR_USAGE), overlapping none
 * of A, B, C; NULL and 0 where the parameters do not split. */
gp_status gp_gemm_f32(const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                      const gp_gemm_params *p, float *d_work, size_t work_bytes, gp_stream stream);

/* CPU reference (gemm_ref.c), accumulated in double: all of C, or one
 * element (i, j) (the bench checks big products on a sample). */
void gp_gemm_ref_f32(const gp_gemm_problem *q, const float *a, const float *b, float *c);
double gp_gemm_ref_at(const gp_gemm_problem *q, const float *a, const float *b, const float *c_in, int i, int j,
                      double *abs_sum);
/* The bench's exact check.  Its data: small integers -2 .. 2 (gp_fill_ints_f32 with r 2), so every product and partial sum of K <= 2^20 / 4 terms is an integer below 2^24, exact in fp32 in any order: a
 * result must equal the reference exactly.  gp_gemm_ref_sample: the gp_gemm_sample_size(q) elements of C checked,
 * with the reference's value: all of C row by row where m n k <= 2^27 multiply-adds, else 516 of them (bench's big
 * products), the four corners first, then elements drawn from rng.  gp_gemm_check_exact: c (the stored C, ldc
 * apart: the gaps of a wider ldc are not C) equal to them, else GP_ERR_CHECK naming `what` and the first element
 * that is not. */
typedef struct gp_gemm_checked {
    int i, j;
    float want;
} gp_gemm_checked;
size_t gp_gemm_sample_size(const gp_gemm_problem *q);
void gp_gemm_ref_sample(const gp_gemm_problem *q, const float *a, const float *b, const float *c_in, uint64_t *rng,
                        gp_gemm_checked *chk);
gp_status gp_gemm_check_exact(const char *what, const gp_gemm_problem *q, const float *c, const gp_gemm_checked *chk,
                              size_t n);

/* ---- The library's calls (kernels/context.h): the parameters come from
 * the context, for the call's shape; asynchronous on `stream`, nothing
 * allocated, nothing synchronized. */
struct gp_context;
/* q's C = alpha op(A) op(B) + beta C (layouts, transposes and leading
 * dimensions as gp_gemm_problem says), with no workspace: k never split,
 * no stream-K. */
gp_status gp_sgemm(struct gp_context *ctx, const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                   gp_stream stream);
/* The same with a workspace, where the context's parameters for q's shape
 * may split k (gemm.h, "Split k"): gp_sgemm_workspace_size gives the bytes
 * (0: this shape does not split), gp_sgemm_ws takes them (fewer:
 * GP_ERR_USAGE before any launch).  The workspace may be reused by calls on
 * one stream, not by calls that may run at once. */
gp_status gp_sgemm_workspace_size(struct gp_context *ctx, const gp_gemm_problem *q, size_t *bytes);
gp_status gp_sgemm_ws(struct gp_context *ctx, const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                      void *d_work, size_t work_bytes, gp_stream stream);

/* The rule (gemm_rule.c): the tile for the shape (kernel.h, "Rules"). */
struct gp_rule_in;
struct gp_kernel;
gp_status gp_gemm_rule(const struct gp_rule_in *in, struct gp_table *out);
/* What makes a [kernel.gemm] legal on any GPU (gp_kernel.check_table, gemm_rule.c): whole threads of C, at most
 * 256 accumulators a thread, two slabs within the 48 KiB of LDS every target grants a block.  GP_ERR_USAGE naming
 * name:line and the keys; absent keys are the reader's to name. */
gp_status gp_gemm_check_table(const gp_table *t, const char *name);
/* The kernel's registry entry (kernels/kernel.h): what verify, bench, tune
 * and gp_kernel_params take. */
extern const struct gp_kernel gp_kernel_gemm;

/* GPU launcher (gemm.hip; none.c): the row-major problem with A K-contiguous
 * (a_kc) or M-contiguous, B K-contiguous (b_kc) or N-contiguous. */
gp_status gp_gemm_launch_rm(int config, int a_kc, int b_kc, int m, int n, int k, float alpha, const float *a,
                            int lda, const float *b, int ldb, float beta, float *c, int ldc, int split, int sk_blocks,
                            float *work, gp_stream s);

#ifdef __cplusplus
}
#endif
#endif
