/* transpose: verify against the CPU reference (exact), bench against the
 * vendor device-to-device copy of the same bytes, and the gp_kernel entry. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "kutil.h"
#include "transpose.h"

#ifndef BENCH_N
#define BENCH_N 8192        /* 2 x 256 MiB moved */
#endif
#ifndef BENCH_N_QUICK
#define BENCH_N_QUICK 4096
#endif

typedef struct shape {
    size_t rows, cols;
    size_t in_offset; /* elements: a misaligned input start (vector kernels fall back) */
} shape;

/* Tiny, odd, prime, tile multiples and non-multiples, long thin ones (one
 * with more tile rows than a 2D grid could hold), and sizes whose rows and
 * columns are multiples of 4 but not of the tile (vector path with edges). */
static const shape verify_shapes[] = {
    {1, 1, 0},        {1, 1000, 0},     {1000, 1, 0},      {2, 3, 0},        {3, 5, 0},
    {7, 7, 0},        {31, 33, 0},      {32, 32, 0},       {33, 31, 0},      {64, 64, 0},
    {64, 64, 1},      {65, 127, 0},     {100, 36, 0},      {36, 100, 0},     {128, 4, 0},
    {4, 128, 0},      {257, 1023, 0},   {1000, 999, 0},    {17, 4096, 0},    {4096, 17, 0},
    {1024, 1024, 0},  {2048, 2052, 0},  {1023, 1025, 3},   {3000001, 1, 0},  {1, 3000001, 0},
    {2500000, 3, 0},
};
#define NSHAPES_QUICK 21

/* Variants timed in the bench (with_baselines) and verified on a few shapes:
 * the candidates the lead picks the H200's table from (and `gpuprobe tune`
 * sweeps).  The first run on the H200 (8192 x 8192, vendor copy 0.1336 ms)
 * had t64/br8/v1/g16 best at 0.1400 ms; the rest probe streaming hints, the
 * swizzled vector layout and several tiles per block around it.  The last
 * five walk the tiles column-major (consecutive blocks go down one tile
 * column, so the blocks running together write whole output rows):
 * tools/experiments/transpose_variants.cu measured that order at 0.967-0.979
 * of the vendor copy's speed (ABBA-paired, 4096^2 to 16384^2) against
 * 0.940-0.968 for groups of 16 tile rows and 0.947-0.986 for row-major. */
typedef struct variant {
    int tile, pad, block_rows, vec, group, swizzle, stream, tiles_per_block;
} variant;

static const variant variants[] = {
    {32, 1, 8, 1, 1, 0, 0, 1},   {64, 1, 8, 1, 1, 0, 0, 1},   {64, 1, 8, 1, 16, 0, 0, 1},
    {64, 1, 8, 1, 32, 0, 0, 1},  {64, 1, 8, 1, 16, 0, 1, 1},  {64, 1, 8, 1, 16, 0, 2, 1},
    {64, 1, 8, 1, 16, 0, 3, 1},  {64, 1, 8, 1, 16, 0, 0, 2},  {64, 1, 8, 1, 16, 0, 0, 8},
    {32, 1, 8, 1, 16, 0, 3, 1},  {64, 1, 4, 1, 16, 0, 0, 1},  {64, 1, 16, 2, 16, 0, 0, 1},
    {64, 0, 16, 4, 16, 1, 0, 1}, {64, 0, 16, 4, 16, 1, 3, 1}, {64, 0, 16, 4, 16, 1, 1, 1},
    {64, 0, 8, 2, 16, 1, 0, 1},  {64, 0, 16, 2, 16, 1, 0, 1}, {64, 0, 16, 2, 16, 1, 1, 1},
    {32, 0, 8, 4, 16, 1, 0, 1},  {32, 0, 16, 4, 16, 1, 0, 1}, {64, 0, 16, 4, 16, 1, 0, 4},
    /* group 4096 (clamped to the tile rows): column-major tile order. */
    {64, 1, 8, 1, 4096, 0, 0, 1}, {64, 1, 8, 1, 4096, 0, 2, 1}, {64, 1, 4, 1, 4096, 0, 0, 1},
    {64, 0, 8, 2, 4096, 1, 0, 1}, {64, 0, 16, 4, 4096, 1, 2, 1},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static const shape variant_shapes[] = {{1000, 999, 0}, {100, 36, 0}, {2048, 2052, 0}, {4099, 257, 0}, {96, 4100, 0}};

static void variant_params(const variant *v, const gp_device_info *dev, gp_transpose_params *p)
{
    memset(p, 0, sizeof *p);
    p->tile = v->tile, p->pad = v->pad, p->block_rows = v->block_rows, p->vec = v->vec, p->group = v->group;
    p->swizzle = v->swizzle, p->stream = v->stream, p->tiles_per_block = v->tiles_per_block;
    gp_transpose_params_fit(p, dev);
}

/* "gpuprobe variant=t64/br8/v1/g16" plus "/swz", "/cs<stream>", "/k<tiles per block>" when set. */
static void variant_name(const gp_transpose_params *q, char *buf, size_t n)
{
    int len = snprintf(buf, n, "gpuprobe variant=t%d/br%d/v%d/g%d", q->tile, q->block_rows, q->vec, q->group);
    if (q->swizzle && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "/swz");
    if (q->stream && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "/cs%d", q->stream);
    if (q->tiles_per_block > 1 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, "/k%d", q->tiles_per_block);
}

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_transpose_params p;
    char b[192];
    GP_TRY(gp_transpose_params_from_table(t, dev, &p));
    gp_transpose_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

typedef struct vbufs {
    float *h_in, *h_ref, *h_out;
    float *d_in, *d_out;
    size_t cap;
} vbufs;

static void vbufs_free(vbufs *v)
{
    free(v->h_in), free(v->h_ref), free(v->h_out);
    GP_DEV_FREE(v->d_in, v->d_out);
    memset(v, 0, sizeof *v);
}

/* One case: fresh data, poisoned output, run, exact comparison. */
static gp_status run_case(vbufs *v, const shape *s, const gp_transpose_params *p, uint64_t *rng,
                          const char *label, FILE *log)
{
    size_t n = s->rows * s->cols;
    const float *d_in = v->d_in + s->in_offset;
    gp_fill_uniform_f32(v->h_in, n, -1000.0f, 1000.0f, rng);
    gp_transpose_ref_f32(v->h_in, v->h_ref, s->rows, s->cols);
    GP_TRY(gp_rt_copy_to_device(v->d_in + s->in_offset, v->h_in, n * sizeof(float)));
    GP_TRY(gp_dev_poison(v->d_out, n * sizeof(float)));
    GP_TRY(gp_transpose_f32(d_in, v->d_out, s->rows, s->cols, p));
    GP_TRY(gp_rt_synchronize());
    GP_TRY(gp_rt_copy_to_host(v->h_out, v->d_out, n * sizeof(float)));
    char what[160];
    int vec = gp_transpose_effective_vec(p, s->rows, s->cols, d_in, v->d_out);
    snprintf(what, sizeof what, "transpose %zux%zu%s (%s, vec %d used)", s->rows, s->cols,
             s->in_offset ? " misaligned input" : "", label, vec);
    GP_TRY(gp_compare_f32(what, v->h_out, v->h_ref, n, 0.0, 0.0, NULL)); /* exact */
    if (log)
        fprintf(log, "  %s: exact\n", what);
    return gp_ok();
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vbufs *v)
{
    gp_transpose_params p;
    char b[192];
    GP_TRY(gp_transpose_params_from_table(t, &o->dev, &p));
    gp_transpose_params_format(&p, b, sizeof b);
    size_t nshapes = o->quick ? NSHAPES_QUICK : sizeof verify_shapes / sizeof verify_shapes[0];
    size_t cap = 0;
    for (size_t i = 0; i < nshapes; i++) {
        size_t n = verify_shapes[i].rows * verify_shapes[i].cols + verify_shapes[i].in_offset;
        cap = n > cap ? n : cap;
    }
    for (size_t i = 0; i < sizeof variant_shapes / sizeof variant_shapes[0]; i++) {
        size_t n = variant_shapes[i].rows * variant_shapes[i].cols;
        cap = n > cap ? n : cap;
    }
    v->cap = cap;
    v->h_in = malloc(cap * sizeof(float));
    v->h_ref = malloc(cap * sizeof(float));
    v->h_out = malloc(cap * sizeof(float));
    if (!v->h_in || !v->h_ref || !v->h_out)
        return gp_fail(GP_ERR_NOMEM, "transpose verify: out of host memory for %zu elements", cap);
    GP_TRY(gp_rt_malloc((void **)&v->d_in, cap * sizeof(float)));
    GP_TRY(gp_rt_malloc((void **)&v->d_out, cap * sizeof(float)));
    uint64_t rng = o->seed;
    for (size_t i = 0; i < nshapes; i++)
        GP_TRY(run_case(v, &verify_shapes[i], &p, &rng, b, o->log));
    /* The bench's variants: each must be exact before its time means anything. */
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_transpose_params q;
        variant_params(&variants[k], &o->dev, &q);
        gp_transpose_params_format(&q, b, sizeof b);
        for (size_t i = 0; i < sizeof variant_shapes / sizeof variant_shapes[0]; i++)
            GP_TRY(run_case(v, &variant_shapes[i], &q, &rng, b, o->quick ? NULL : o->log));
    }
    if (o->log)
        fprintf(o->log, "  %zu bench variants: exact on %zu shapes each\n", NVARIANTS,
                sizeof variant_shapes / sizeof variant_shapes[0]);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vbufs v;
    memset(&v, 0, sizeof v);
    gp_status st = verify_all(t, o, &v);
    vbufs_free(&v);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const float *d_in;
    float *d_out;
    size_t rows, cols;
    const gp_transpose_params *p;
    const gp_device_info *dev;
    int copy_mode; /* GP_TRANSPOSE_COPY_* */
} bctx;

static gp_status work_transpose(void *c)
{
    bctx *x = c;
    return gp_transpose_f32(x->d_in, x->d_out, x->rows, x->cols, x->p);
}

static gp_status work_vendor_copy(void *c)
{
    bctx *x = c;
    return gp_rt_copy_device_async(x->d_out, x->d_in, x->rows * x->cols * sizeof(float), NULL);
}

static gp_status work_copy_kernel(void *c)
{
    bctx *x = c;
    return gp_transpose_copy_f32(x->d_in, x->d_out, x->rows * x->cols, x->dev, x->copy_mode);
}

/* DRAM bandwidth for the floor: the table's measured triad, else the peak
 * from the device's bus width and memory clock. */
static double floor_bandwidth(const gp_table *t, const gp_device_info *dev, char *src, size_t n)
{
    return gp_bench_dram_gbs(t, dev, src, n);
}

typedef struct bbufs {
    float *h_in, *h_ref, *h_out;
    float *d_in, *d_out;
} bbufs;

static gp_status check_out(bbufs *bb, size_t n, const float *ref, const char *what)
{
    GP_TRY(gp_rt_synchronize());
    GP_TRY(gp_rt_copy_to_host(bb->h_out, bb->d_out, n * sizeof(float)));
    if (memcmp(bb->h_out, ref, n * sizeof(float)) != 0)
        return gp_compare_f32(what, bb->h_out, ref, n, 0.0, 0.0, NULL);
    return gp_ok();
}

/* Time one transpose configuration on rows x cols and check its output. */
static gp_status time_transpose(bbufs *bb, size_t rows, size_t cols, const gp_transpose_params *p,
                                const gp_kernel_opts *o, gp_harness_result *r)
{
    bctx x = {bb->d_in, bb->d_out, rows, cols, p, &o->dev, 0};
    GP_TRY(gp_dev_poison(bb->d_out, rows * cols * sizeof(float)));
    GP_TRY(gp_bench_time(work_transpose, &x, o->quick, r));
    char b[192], what[256];
    gp_transpose_params_format(p, b, sizeof b);
    snprintf(what, sizeof what, "timed transpose %zux%zu (%s)", rows, cols, b);
    return check_out(bb, rows * cols, bb->h_ref, what);
}

/* Paired ABBA timing of `work` (row `row` of b) against the vendor copy of
 * the same bytes, interleaved in one loop (gp_bench_pair) so drift cancels;
 * the ratio copy time / our time is our fraction of the copy's bandwidth.
 * Every round ends with our run, so the output afterwards must be ours
 * (`ref`: the transpose's reference, or the input for a copy kernel). */
static gp_status pair_with_copy(bbufs *bb, gp_bench_work_fn work, bctx *x, const float *ref, const char *what,
                                gp_bench *b, int row, const gp_kernel_opts *o, gp_bench_paired *pp)
{
    GP_TRY(gp_dev_poison(bb->d_out, x->rows * x->cols * sizeof(float)));
    GP_TRY(gp_bench_pair(work, x, work_vendor_copy, x, o->quick, pp));
    char w[GP_BENCH_TEXT + 64];
    snprintf(w, sizeof w, "%s after the paired loop", what);
    GP_TRY(check_out(bb, x->rows * x->cols, ref, w));
    return gp_bench_set_pair(b, row, pp);
}

static gp_status bench_all(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                           gp_bench *b, bbufs *bb)
{
    const size_t N = o->quick ? BENCH_N_QUICK : BENCH_N;
    const size_t n = N * N;
    const size_t bytes = n * sizeof(float);
    gp_transpose_params p;
    GP_TRY(gp_transpose_params_from_table(t, &o->dev, &p));

    bb->h_in = malloc(bytes), bb->h_ref = malloc(bytes), bb->h_out = malloc(bytes);
    if (!bb->h_in || !bb->h_ref || !bb->h_out)
        return gp_fail(GP_ERR_NOMEM, "transpose bench: out of host memory (3 x %zu bytes)", bytes);
    GP_TRY(gp_rt_malloc((void **)&bb->d_in, bytes));
    GP_TRY(gp_rt_malloc((void **)&bb->d_out, bytes));
    uint64_t rng = o->seed;
    gp_fill_uniform_f32(bb->h_in, n, -1.0f, 1.0f, &rng);
    GP_TRY(gp_rt_copy_to_device(bb->d_in, bb->h_in, bytes));

    char problem[64], src[96], note[GP_BENCH_TEXT], params[192];
    double gbs = floor_bandwidth(t, &o->dev, src, sizeof src);
    double moved = 2.0 * (double)bytes;
    double floor_ms = gbs > 0 ? moved / (gbs * 1e9) * 1e3 : 0;
    snprintf(note, sizeof note, "DRAM %.0f MB at %.0f GB/s (%s)", moved / 1e6, gbs, src);

    /* The table's configuration on the square problem. */
    gp_harness_result r;
    snprintf(problem, sizeof problem, "%zux%zu fp32", N, N);
    gp_transpose_ref_f32(bb->h_in, bb->h_ref, N, N);
    GP_TRY(time_transpose(bb, N, N, &p, o, &r));
    gp_transpose_params_format(&p, params, sizeof params);
    GP_TRY(gp_bench_add(b, "transpose", problem, "gpuprobe", label, params, 0, &r, floor_ms, note));
    const int main_row = b->nrows - 1;
    double t_ms = r.summary.median;
    if (o->log)
        fprintf(o->log, "  transpose %s: %.4f ms = %.0f GB/s (%s), output exact\n", problem, t_ms,
                moved / (t_ms * 1e6), params);

    if (with_baselines) {
        /* Vendor device-to-device copy of the same bytes: the baseline. */
        bctx x = {bb->d_in, bb->d_out, N, N, &p, &o->dev, 0};
        GP_TRY(gp_dev_poison(bb->d_out, bytes));
        GP_TRY(gp_bench_time(work_vendor_copy, &x, o->quick, &r));
        GP_TRY(check_out(bb, n, bb->h_in, "timed vendor device copy"));
        GP_TRY(gp_bench_add(b, "transpose", problem, "device copy (vendor, same bytes)", "", "", 1, &r,
                            floor_ms, note));
        double copy_ms = r.summary.median;
        if (o->log)
            fprintf(o->log,
                    "  vendor device copy of %.0f MB: %.4f ms = %.0f GB/s; transpose at %.1f%% of the "
                    "copy's bandwidth (goal >= 95%%)\n",
                    bytes / 1e6, copy_ms, moved / (copy_ms * 1e6), 100.0 * copy_ms / t_ms);

        /* The verdict: the table's transpose and the copy timed
         * interleaved (ABBA); ratio = copy time / transpose time. */
        gp_bench_paired pp;
        GP_TRY(pair_with_copy(bb, work_transpose, &x, bb->h_ref, "transpose (table)", b, main_row, o, &pp));
        if (o->log)
            fprintf(o->log,
                    "transpose %zux%zu: paired median %.3f of the copy's speed (p10 %.3f, p90 %.3f): >= 0.95: %s "
                    "(%d rounds ABBA%s; medians %.4f vs %.4f ms)\n",
                    N, N, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90,
                    gp_bench_verdict_word(gp_bench_pair_at_least(&pp, 0.95)), pp.rounds,
                    pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms);

        /* Our plain copy kernels, for context: persistent, one pass, one pass streaming. */
        static const char *const copy_impl[3] = {"gpuprobe copy kernel (context, 16-byte accesses)",
                                                 "gpuprobe copy kernel one-pass (context)",
                                                 "gpuprobe copy kernel one-pass streaming (context)"};
        static const char *const copy_params[3] = {"grid 8 x CUs, block 256, 4 x 16 B per thread",
                                                   "grid n / 4096, block 256, 4 x 16 B per thread",
                                                   "grid n / 4096, block 256, 4 x 16 B per thread, ld/st .cs"};
        int best_copy = -1, best_copy_row = -1;
        for (int m = 0; m < 3; m++) {
            x.copy_mode = m;
            GP_TRY(gp_dev_poison(bb->d_out, bytes));
            GP_TRY(gp_bench_time(work_copy_kernel, &x, o->quick, &r));
            GP_TRY(check_out(bb, n, bb->h_in, copy_impl[m]));
            GP_TRY(gp_bench_add(b, "transpose", problem, copy_impl[m], "", copy_params[m], 0, &r, floor_ms, note));
            if (best_copy_row < 0 || r.summary.median < b->rows[best_copy_row].ms.median)
                best_copy = m, best_copy_row = b->nrows - 1;
            if (o->log)
                fprintf(o->log, "  %s: %.4f ms = %.0f GB/s\n", copy_impl[m], r.summary.median,
                        moved / (r.summary.median * 1e6));
        }

        /* The fastest copy kernel against the vendor copy, paired: how close
         * our own loads and stores come to the vendor's (context). */
        x.copy_mode = best_copy;
        GP_TRY(pair_with_copy(bb, work_copy_kernel, &x, bb->h_in, copy_impl[best_copy], b, best_copy_row, o, &pp));
        if (o->log)
            fprintf(o->log, "  %s vs vendor copy: paired median %.3f (p10 %.3f, p90 %.3f), %d rounds ABBA (context)\n",
                    copy_impl[best_copy], pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, pp.rounds);

        /* Every variant on the same problem, for the table choice. */
        int best_row = -1;
        gp_transpose_params best_q;
        memset(&best_q, 0, sizeof best_q);
        for (size_t k = 0; k < NVARIANTS; k++) {
            gp_transpose_params q;
            variant_params(&variants[k], &o->dev, &q);
            GP_TRY(time_transpose(bb, N, N, &q, o, &r));
            char impl[GP_BENCH_TEXT];
            variant_name(&q, impl, sizeof impl);
            gp_transpose_params_format(&q, params, sizeof params);
            GP_TRY(gp_bench_add(b, "transpose", problem, impl, label, params, 0, &r, floor_ms, note));
            if (best_row < 0 || r.summary.median < b->rows[best_row].ms.median)
                best_row = b->nrows - 1, best_q = q;
            if (o->log)
                fprintf(o->log, "  %s: %.4f ms = %.0f GB/s = %.1f%% of the vendor copy\n", impl,
                        r.summary.median, moved / (r.summary.median * 1e6), 100.0 * copy_ms / r.summary.median);
        }
        /* The fastest variant against the copy, paired (context for the table choice). */
        if (best_row >= 0) {
            x.p = &best_q;
            GP_TRY(pair_with_copy(bb, work_transpose, &x, bb->h_ref, b->rows[best_row].impl, b, best_row, o, &pp));
            if (o->log)
                fprintf(o->log,
                        "  %s vs vendor copy: paired median %.3f of the copy's speed (p10 %.3f, p90 %.3f), "
                        "%d rounds ABBA (context)\n",
                        b->rows[best_row].impl, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, pp.rounds);
        }
    }

    /* An odd shape: every tile row and column has an edge. */
    size_t rows = N - 1, cols = N + 1;
    snprintf(problem, sizeof problem, "%zux%zu fp32", rows, cols);
    gp_transpose_ref_f32(bb->h_in, bb->h_ref, rows, cols);
    GP_TRY(time_transpose(bb, rows, cols, &p, o, &r));
    gp_transpose_params_format(&p, params, sizeof params);
    moved = 2.0 * (double)(rows * cols * sizeof(float));
    floor_ms = gbs > 0 ? moved / (gbs * 1e9) * 1e3 : 0;
    snprintf(note, sizeof note, "DRAM %.0f MB at %.0f GB/s (%s)", moved / 1e6, gbs, src);
    GP_TRY(gp_bench_add(b, "transpose", problem, "gpuprobe", label, params, 0, &r, floor_ms, note));
    if (o->log)
        fprintf(o->log, "  transpose %s: %.4f ms = %.0f GB/s, output exact\n", problem, r.summary.median,
                moved / (r.summary.median * 1e6));
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    bbufs bb;
    memset(&bb, 0, sizeof bb);
    gp_status st = bench_all(t, label, with_baselines, o, b, &bb);
    free(bb.h_in), free(bb.h_ref), free(bb.h_out);
    GP_DEV_FREE(bb.d_in, bb.d_out);
    return st;
}

/* Tuning sweep: the base table's own values first, then every bench variant
 * (each valid for any table: the validator's block and LDS rules hold; a
 * variant equal to the base is still offered, so the count is fixed). */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {
        "transpose", 8, {"tile", "pad", "block_rows", "vec", "group", "swizzle", "stream", "tiles_per_block"}, NULL};
    int rows[NVARIANTS][8];
    (void)dev;
    for (size_t k = 0; k < NVARIANTS; k++) {
        const variant *v = &variants[k];
        const int row[8] = {v->tile, v->pad, v->block_rows, v->vec, v->group, v->swizzle, v->stream, v->tiles_per_block};
        memcpy(rows[k], row, sizeof row);
    }
    return gp_kcand_make(&keys, base, &rows[0][0], (int)NVARIANTS, out, max, n);
}

/* The floor's model: the matrix read and written once, no arithmetic. */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long d[2];
    const char *rest;
    if (!gp_label_dims(problem, d, 2, &rest) || strcmp(rest, " fp32") != 0)
        return gp_label_unknown("transpose", problem, "RxC fp32");
    w->bytes = 2 * 4.0 * (double)d[0] * (double)d[1];
    w->flops = 0;
    snprintf(w->method, sizeof w->method, "matrix read and written once (4 B each); no arithmetic");
    return gp_ok();
}

const gp_kernel gp_kernel_transpose = {
    "transpose",
    "fp32 matrix transpose of any shape through padded shared-memory tiles (vs the vendor device copy)",
    print_params,
    verify,
    bench,
    candidates,
    gp_transpose_rule,
    work_of,
};
