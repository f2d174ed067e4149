/* reduce: verify against the CPU references (int32 exact, fp32 within the
 * derived bound and bit-for-bit repeatable), bench against CUB's
 * DeviceReduce::Sum, and the gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "reduce.h"
#include "vendor.h"

/* Variants timed in the bench (with_baselines) and offered to `gpuprobe
 * tune`: {block, items_per_thread, grid_per_cu, one_pass, stream}.  The first
 * H200 run (2^28, CUB 0.2413 ms) had b1024/v2/g2 best at 0.2394 ms; the
 * memory_bandwidth probe's best read is 256 x 8/CU, 16 B x 2, streaming. */
typedef struct variant {
    int block, vecs, gpc, one_pass, stream;
} variant;

static const variant variants[] = {
    {256, 4, 4, 0, 0},  {256, 2, 8, 0, 0},  {1024, 2, 2, 0, 0}, {256, 4, 8, 0, 0}, {256, 2, 8, 0, 1},
    {256, 4, 8, 0, 1},  {256, 4, 6, 0, 1},  {1024, 2, 2, 0, 1}, {512, 8, 2, 0, 1}, {256, 1, 0, 1, 0},
    {256, 1, 0, 1, 1},  {256, 2, 0, 1, 0},  {256, 2, 0, 1, 1},  {256, 4, 0, 1, 0}, {256, 4, 0, 1, 1},
    {512, 4, 0, 1, 1},  {1024, 4, 0, 1, 1}, {256, 8, 0, 1, 1},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static void variant_params(const variant *v, const gp_device_info *dev, gp_reduce_params *p)
{
    memset(p, 0, sizeof *p);
    p->block = v->block, p->vecs = v->vecs, p->grid_per_cu = v->gpc;
    p->one_pass = v->one_pass, p->stream = v->stream;
    gp_reduce_params_fit(p, dev);
}

/* "gpuprobe variant=b256/v2/g8" (persistent) or "b256/v4/one" (one pass), "/cs" with streaming loads. */
static void variant_name(const gp_reduce_params *q, char *buf, size_t n)
{
    if (q->one_pass)
        snprintf(buf, n, "gpuprobe variant=b%d/v%d/one%s", q->block, q->vecs, q->stream ? "/cs" : "");
    else
        snprintf(buf, n, "gpuprobe variant=b%d/v%d/g%d%s", q->block, q->vecs, q->grid_per_cu,
                 q->stream ? "/cs" : "");
}

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_reduce_params p;
    char b[192];
    GP_TRY(gp_reduce_params_from_table(t, dev, &p));
    gp_reduce_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

/* Elements before the first 16-byte boundary, as the launcher computes them. */
static size_t head_of(const void *d, size_t n)
{
    size_t h = (size_t)((16 - ((uintptr_t)d & 15)) & 15) / 4;
    return h < n ? h : n;
}

/* The fp32 check: within the tree's bound plus the double reference's own
 * error (n 2^-53 sum|x|). */
static gp_status check_f32(const char *what, float got, double ref, double sum_abs, const gp_reduce_params *p,
                           size_t n, size_t head, int wave, double *err_out)
{
    int depth = gp_reduce_f32_depth(p, n, head, wave);
    double bound = gp_reduce_f32_bound(depth, sum_abs) + (double)n * ldexp(1.0, -53) * sum_abs;
    double err = fabs((double)got - ref);
    if (err_out)
        *err_out = err;
    if (!(err <= bound))
        return gp_fail(GP_ERR_CHECK, "%s: sum %.9g, reference %.17g (error %.3g > bound %.3g = gamma_%d x %.6g)",
                       what, (double)got, ref, err, bound, depth, sum_abs);
    return gp_ok();
}

typedef struct vctx {
    float *h_f;
    int32_t *h_i;
    char *d_buf; /* room for the largest case plus 16 bytes of offset */
    float *d_outf;
    int32_t *d_outi;
    gp_reduce_ws ws;
    int wave;
} vctx;

/* One length at one start offset under parameters p: random fp32 (bound,
 * repeatability), integer-valued fp32 (exact, small n), random int32 (exact,
 * wrapping). */
static gp_status verify_case(vctx *v, size_t n, size_t off, const gp_reduce_params *p, uint64_t *rng,
                             const char *label, FILE *log)
{
    char what[224];
    const float *d_f = (const float *)(v->d_buf + 4 * off);
    const int32_t *d_i = (const int32_t *)(v->d_buf + 4 * off);
    size_t head = head_of(d_f, n);
    float got, again;
    double sum_abs, err;

    /* fp32, uniform in [-1, 1). */
    gp_fill_uniform_f32(v->h_f, n, -1.0f, 1.0f, rng);
    double ref = gp_reduce_ref_f32(v->h_f, n, &sum_abs);
    if (n)
        GP_TRY(gp_rt_copy_to_device((void *)d_f, v->h_f, n * 4));
    GP_TRY(gp_dev_poison(v->d_outf, 4));
    GP_TRY(gp_reduce_sum_f32(d_f, n, v->d_outf, &v->ws, p));
    GP_TRY(gp_rt_copy_to_host(&got, v->d_outf, 4));
    snprintf(what, sizeof what, "reduce f32 n=%zu offset %zu (%s)", n, off, label);
    GP_TRY(check_f32(what, got, ref, sum_abs, p, n, head, v->wave, &err));
    GP_TRY(gp_dev_poison(v->d_outf, 4));
    GP_TRY(gp_reduce_sum_f32(d_f, n, v->d_outf, &v->ws, p));
    GP_TRY(gp_rt_copy_to_host(&again, v->d_outf, 4));
    if (memcmp(&got, &again, 4) != 0)
        return gp_fail(GP_ERR_CHECK, "%s: not repeatable: %.9g then %.9g", what, (double)got, (double)again);

    /* fp32 holding small integers: every partial sum is an integer below
     * 2^24, so the result is exact; a dropped or doubled element shows. */
    size_t exact_n = n < (1u << 21) ? n : 0;
    if (exact_n) {
        for (size_t i = 0; i < n; i++)
            v->h_f[i] = (float)((int)(gp_rand_u64(rng) % 17) - 8);
        double eref = gp_reduce_ref_f32(v->h_f, n, NULL);
        GP_TRY(gp_rt_copy_to_device((void *)d_f, v->h_f, n * 4));
        GP_TRY(gp_dev_poison(v->d_outf, 4));
        GP_TRY(gp_reduce_sum_f32(d_f, n, v->d_outf, &v->ws, p));
        GP_TRY(gp_rt_copy_to_host(&got, v->d_outf, 4));
        if ((double)got != eref)
            return gp_fail(GP_ERR_CHECK, "%s integer-valued: sum %.9g, exact %.17g", what, (double)got, eref);
    }

    /* int32 over the whole range: the sum wraps. */
    int32_t goti;
    gp_fill_uniform_i32(v->h_i, n, INT32_MIN, INT32_MAX, rng);
    int32_t refi = gp_reduce_ref_i32(v->h_i, n);
    if (n)
        GP_TRY(gp_rt_copy_to_device((void *)d_i, v->h_i, n * 4));
    GP_TRY(gp_dev_poison(v->d_outi, 4));
    GP_TRY(gp_reduce_sum_i32(d_i, n, v->d_outi, &v->ws, p));
    GP_TRY(gp_rt_copy_to_host(&goti, v->d_outi, 4));
    snprintf(what, sizeof what, "reduce i32 n=%zu offset %zu (%s)", n, off, label);
    GP_TRY(gp_compare_i32(what, &goti, &refi, 1));
    if (log)
        fprintf(log, "  n=%zu offset %zu: f32 error %.3g (bound %.3g)%s, repeatable; i32 exact (%d)\n", n, off,
                err, gp_reduce_f32_bound(gp_reduce_f32_depth(p, n, head, v->wave), sum_abs),
                exact_n ? ", integer-valued f32 exact" : "", (int)goti);
    return gp_ok();
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vctx *v)
{
    gp_reduce_params p;
    char label[192];
    GP_TRY(gp_reduce_params_from_table(t, &o->dev, &p));
    gp_reduce_params_format(&p, label, sizeof label);
    v->wave = o->dev.wave_size > 0 ? o->dev.wave_size : 64;
    /* Lengths: empty, tiny, around the vector width, a block, a pass of the
     * whole grid (where the last partial pass starts; one pass: one group of
     * blocks, where the second level of the cross-block sum starts), and
     * large ones. */
    size_t pass = (size_t)(p.one_pass ? (int)GP_RED_GROUP : p.grid) * (size_t)p.block * (size_t)p.vecs * 4;
    size_t sizes[] = {0,    1,    2,    3,    4,        5,        7,        8,        15,          16,
                      17,   31,   33,   63,   64,       65,       255,      257,      1000,        1023,
                      1024, 1025, 4095, 4097, pass - 1, pass,     pass + 1, pass + 3, 2 * pass + 5, 1000003,
                      (1u << 24) + 5, 30000001};
    size_t nsizes = sizeof sizes / sizeof sizes[0] - (o->quick ? 2 : 0);
    size_t cap = 0;
    for (size_t i = 0; i < nsizes; i++)
        cap = sizes[i] > cap ? sizes[i] : cap;
    v->h_f = malloc((cap + 1) * sizeof(float));
    v->h_i = malloc((cap + 1) * sizeof(int32_t));
    if (!v->h_f || !v->h_i)
        return gp_fail(GP_ERR_NOMEM, "reduce verify: out of host memory for %zu elements", cap);
    GP_TRY(gp_rt_malloc((void **)&v->d_buf, cap * 4 + 16));
    GP_TRY(gp_rt_malloc((void **)&v->d_outf, 4));
    GP_TRY(gp_rt_malloc((void **)&v->d_outi, 4));
    GP_TRY(gp_reduce_ws_create(&v->ws, &p));
    uint64_t rng = o->seed;
    for (size_t i = 0; i < nsizes; i++) {
        GP_TRY(verify_case(v, sizes[i], 0, &p, &rng, label, o->log));
        /* A start off the 16-byte grid: head elements before the vectors. */
        GP_TRY(verify_case(v, sizes[i], 1 + i % 3, &p, &rng, label, o->quick ? NULL : o->log));
    }
    /* The workspace is sized for the table's grid; variants bring their own. */
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_reduce_params q;
        gp_reduce_ws ws = v->ws;
        variant_params(&variants[k], &o->dev, &q);
        gp_reduce_params_format(&q, label, sizeof label);
        GP_TRY(gp_reduce_ws_create(&v->ws, &q));
        /* One-pass grids are capped far beyond any length here: a block's
         * worth, 256 blocks (one group) +- 1, and a few groups. */
        size_t qpass = q.one_pass ? (size_t)q.block * (size_t)q.vecs * 4 * 257 + 3
                                  : (size_t)q.grid * (size_t)q.block * (size_t)q.vecs * 4 + 3;
        size_t vs[] = {0, 5, 4097, qpass, 1000003};
        gp_status st = gp_ok();
        for (size_t i = 0; i < sizeof vs / sizeof vs[0] && st.code == GP_OK; i++)
            if (vs[i] <= cap)
                st = verify_case(v, vs[i], i % 4, &q, &rng, label, NULL);
        gp_reduce_ws_destroy(&v->ws);
        v->ws = ws;
        GP_TRY(st);
    }
    if (o->log)
        fprintf(o->log, "  %zu bench variants: f32 within bound and repeatable, i32 exact, on 5 lengths each\n",
                NVARIANTS);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vctx v;
    memset(&v, 0, sizeof v);
    gp_status st = verify_all(t, o, &v);
    free(v.h_f), free(v.h_i);
    GP_DEV_FREE(v.d_buf, v.d_outf, v.d_outi);
    gp_reduce_ws_destroy(&v.ws);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const void *d_in;
    size_t n;
    void *d_out;
    gp_reduce_ws *ws;
    const gp_reduce_params *p;
    void *d_tmp;       /* CUB scratch */
    size_t tmp_bytes;
} bctx;

static gp_status work_f32(void *c)
{
    bctx *x = c;
    return gp_reduce_sum_f32(x->d_in, x->n, x->d_out, x->ws, x->p);
}
static gp_status work_i32(void *c)
{
    bctx *x = c;
    return gp_reduce_sum_i32(x->d_in, x->n, x->d_out, x->ws, x->p);
}
static gp_status work_cub_f32(void *c)
{
    bctx *x = c;
    return gp_vendor_reduce_sum_f32(x->d_in, x->n, x->d_out, x->d_tmp, &x->tmp_bytes);
}
static gp_status work_cub_i32(void *c)
{
    bctx *x = c;
    return gp_vendor_reduce_sum_i32(x->d_in, x->n, x->d_out, x->d_tmp, &x->tmp_bytes);
}

static double floor_bandwidth(const gp_table *t, const gp_device_info *dev, char *src, size_t n)
{
    return gp_bench_dram_gbs(t, dev, src, n);
}

typedef struct bstate {
    void *h;          /* host copy of the input (fp32 or int32) */
    void *d_in;
    float *d_outf;
    int32_t *d_outi;
    void *d_tmp;
    size_t tmp_bytes; /* CUB scratch size for d_tmp */
    gp_reduce_ws ws;
} bstate;

typedef struct bproblem {
    int is_f32;
    size_t n;
    double ref, sum_abs; /* fp32 */
    int32_t refi;        /* int32 */
    char name[64];
    double floor_ms;
    char note[GP_BENCH_TEXT];
} bproblem;

/* Time our reduction with parameters q; check the timed result (int32
 * exact; fp32 within the bound and bit-equal to a run before timing). */
static gp_status time_ours(bstate *s, const bproblem *pr, const gp_reduce_params *q, const gp_kernel_opts *o,
                           gp_harness_result *r)
{
    bctx x = {s->d_in, pr->n, pr->is_f32 ? (void *)s->d_outf : (void *)s->d_outi, &s->ws, q, NULL, 0};
    char what[320], b[160];
    gp_reduce_params_format(q, b, sizeof b);
    snprintf(what, sizeof what, "timed reduce %s (%s)", pr->name, b);
    if (pr->is_f32) {
        float first, timed;
        GP_TRY(gp_dev_poison(s->d_outf, 4));
        GP_TRY(work_f32(&x));
        GP_TRY(gp_rt_copy_to_host(&first, s->d_outf, 4));
        GP_TRY(gp_dev_poison(s->d_outf, 4));
        GP_TRY(gp_bench_time(work_f32, &x, o->quick, r));
        GP_TRY(gp_rt_copy_to_host(&timed, s->d_outf, 4));
        if (memcmp(&first, &timed, 4))
            return gp_fail(GP_ERR_CHECK, "%s: not repeatable: %.9g before timing, %.9g after", what,
                           (double)first, (double)timed);
        int wave = o->dev.wave_size > 0 ? o->dev.wave_size : 64;
        return check_f32(what, timed, pr->ref, pr->sum_abs, q, pr->n, head_of(s->d_in, pr->n), wave, NULL);
    }
    int32_t got;
    GP_TRY(gp_dev_poison(s->d_outi, 4));
    GP_TRY(gp_bench_time(work_i32, &x, o->quick, r));
    GP_TRY(gp_rt_copy_to_host(&got, s->d_outi, 4));
    return gp_compare_i32(what, &got, &pr->refi, 1);
}

/* CUB baseline, or a note that it is skipped; *have says whether it ran
 * (then s->d_tmp / s->tmp_bytes hold its scratch for the paired timing). */
static gp_status time_cub(bstate *s, const bproblem *pr, const gp_kernel_opts *o, gp_bench *b, int *have)
{
    *have = 0;
    bctx x = {s->d_in, pr->n, pr->is_f32 ? (void *)s->d_outf : (void *)s->d_outi, NULL, NULL, NULL, 0};
    gp_status st = pr->is_f32 ? gp_vendor_reduce_sum_f32(x.d_in, x.n, x.d_out, NULL, &x.tmp_bytes)
                              : gp_vendor_reduce_sum_i32(x.d_in, x.n, x.d_out, NULL, &x.tmp_bytes);
    if (st.code == GP_ERR_UNSUPPORTED) {
        if (o->log)
            fprintf(o->log, "  %s: vendor baseline skipped: %s\n", pr->name, st.msg);
        return gp_ok();
    }
    GP_TRY(st);
    if (s->d_tmp) {
        gp_rt_free(s->d_tmp);
        s->d_tmp = NULL;
    }
    GP_TRY(gp_rt_malloc(&s->d_tmp, x.tmp_bytes ? x.tmp_bytes : 16));
    x.d_tmp = s->d_tmp;
    s->tmp_bytes = x.tmp_bytes;
    GP_TRY(gp_dev_poison(x.d_out, 4));
    gp_harness_result r;
    GP_TRY(gp_bench_time(pr->is_f32 ? work_cub_f32 : work_cub_i32, &x, o->quick, &r));
    const char *name = gp_vendor_reduce_name();
    char impl[GP_BENCH_TEXT];
    snprintf(impl, sizeof impl, "%s DeviceReduce::Sum", name ? name : "vendor");
    if (pr->is_f32) {
        float got;
        GP_TRY(gp_rt_copy_to_host(&got, s->d_outf, 4));
        /* CUB's order is its own: a generous bound (depth 4096) just catches garbage. */
        double err = fabs((double)got - pr->ref);
        if (!(err <= gp_reduce_f32_bound(4096, pr->sum_abs)))
            return gp_fail(GP_ERR_CHECK, "%s %s: sum %.9g, reference %.17g", impl, pr->name, (double)got, pr->ref);
        if (o->log)
            fprintf(o->log, "  %s %s: %.4f ms, error %.3g\n", impl, pr->name, r.summary.median, err);
    } else {
        int32_t got;
        GP_TRY(gp_rt_copy_to_host(&got, s->d_outi, 4));
        char what[256];
        snprintf(what, sizeof what, "%s %s", impl, pr->name);
        GP_TRY(gp_compare_i32(what, &got, &pr->refi, 1));
        if (o->log)
            fprintf(o->log, "  %s %s: %.4f ms, exact\n", impl, pr->name, r.summary.median);
    }
    GP_TRY(gp_bench_add(b, "reduce", pr->name, impl, "", "", 1, &r, pr->floor_ms, pr->note));
    *have = 1;
    return gp_ok();
}

/* The baseline's short name for the verdict lines: "CUB" from "CUB 3.0.0". */
static void vendor_short_name(char *buf, size_t n)
{
    const char *name = gp_vendor_reduce_name();
    if (!name || !*name)
        name = "vendor";
    size_t len = strcspn(name, " ");
    len = len < n ? len : n - 1;
    memcpy(buf, name, len);
    buf[len] = '\0';
}

/* Paired ABBA timing of our reduction (parameters q, the row `row` of b)
 * against CUB on the same input, in one loop (gp_bench_pair), attached to the
 * row; `verdict` prints the line ("at least as fast": median ratio >=
 * 1), else a context line.  Every round ends with our run, so the output
 * afterwards is ours: checked like the timed result. */
static gp_status pair_with_cub(bstate *s, const bproblem *pr, const gp_reduce_params *q, const gp_kernel_opts *o,
                               gp_bench *b, int row, const char *who, int verdict)
{
    void *out = pr->is_f32 ? (void *)s->d_outf : (void *)s->d_outi;
    bctx xa = {s->d_in, pr->n, out, &s->ws, q, NULL, 0};
    bctx xb = {s->d_in, pr->n, out, NULL, NULL, s->d_tmp, s->tmp_bytes};
    gp_bench_paired pp;
    char what[320], base[32];
    vendor_short_name(base, sizeof base);
    snprintf(what, sizeof what, "paired reduce %s (%s)", pr->name, who);
    GP_TRY(gp_dev_poison(out, 4));
    GP_TRY(gp_bench_pair(pr->is_f32 ? work_f32 : work_i32, &xa, pr->is_f32 ? work_cub_f32 : work_cub_i32, &xb,
                         o->quick, &pp));
    if (pr->is_f32) {
        float paired, again;
        GP_TRY(gp_rt_copy_to_host(&paired, s->d_outf, 4));
        GP_TRY(gp_dev_poison(s->d_outf, 4));
        GP_TRY(work_f32(&xa));
        GP_TRY(gp_rt_copy_to_host(&again, s->d_outf, 4));
        if (memcmp(&paired, &again, 4))
            return gp_fail(GP_ERR_CHECK, "%s: output after the paired loop %.9g is not ours (%.9g)", what,
                           (double)paired, (double)again);
        int wave = o->dev.wave_size > 0 ? o->dev.wave_size : 64;
        GP_TRY(check_f32(what, paired, pr->ref, pr->sum_abs, q, pr->n, head_of(s->d_in, pr->n), wave, NULL));
    } else {
        int32_t got;
        GP_TRY(gp_rt_copy_to_host(&got, s->d_outi, 4));
        GP_TRY(gp_compare_i32(what, &got, &pr->refi, 1));
    }
    GP_TRY(gp_bench_set_pair(b, row, &pp));
    if (!o->log)
        return gp_ok();
    if (verdict)
        fprintf(o->log,
                "reduce %s: %s vs %s paired median %.3fx (p10 %.3f, p90 %.3f): at least as fast: %s "
                "(faster, p10 > 1: %s; %d rounds ABBA%s; medians %.4f vs %.4f ms)\n",
                pr->name, who, base, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90,
                gp_bench_verdict_word(gp_bench_pair_at_least(&pp, 1.0)),
                gp_bench_verdict_word(gp_bench_pair_faster(&pp)), pp.rounds,
                pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms);
    else
        fprintf(o->log, "  %s %s vs %s: paired median %.3fx (p10 %.3f, p90 %.3f), %d rounds ABBA (context)\n",
                who, pr->name, base, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, pp.rounds);
    return gp_ok();
}

static gp_status bench_all(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                           gp_bench *b, bstate *s)
{
    const size_t big = o->quick ? (size_t)1 << 26 : (size_t)1 << 28;
    const size_t sizes[2] = {big, (size_t)1 << 20};
    gp_reduce_params p;
    GP_TRY(gp_reduce_params_from_table(t, &o->dev, &p));
    /* The workspace fits the table's grid and every variant's. */
    gp_reduce_params wsp = p;
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_reduce_params q;
        variant_params(&variants[k], &o->dev, &q);
        wsp.grid = q.grid > wsp.grid ? q.grid : wsp.grid;
    }
    GP_TRY(gp_reduce_ws_create(&s->ws, &wsp));
    s->h = malloc(big * 4);
    if (!s->h)
        return gp_fail(GP_ERR_NOMEM, "reduce bench: out of host memory (%zu bytes)", big * 4);
    GP_TRY(gp_rt_malloc(&s->d_in, big * 4));
    GP_TRY(gp_rt_malloc((void **)&s->d_outf, 4));
    GP_TRY(gp_rt_malloc((void **)&s->d_outi, 4));
    char src[96], params[192];
    double gbs = floor_bandwidth(t, &o->dev, src, sizeof src);
    gp_reduce_params_format(&p, params, sizeof params);
    uint64_t rng = o->seed;

    for (int is_f32 = 1; is_f32 >= 0; is_f32--) {
        if (is_f32)
            gp_fill_uniform_f32(s->h, big, -1.0f, 1.0f, &rng);
        else
            gp_fill_uniform_i32(s->h, big, INT32_MIN, INT32_MAX, &rng);
        GP_TRY(gp_rt_copy_to_device(s->d_in, s->h, big * 4));
        for (int k = 0; k < 2; k++) {
            bproblem pr;
            memset(&pr, 0, sizeof pr);
            pr.is_f32 = is_f32;
            pr.n = sizes[k];
            if (is_f32)
                pr.ref = gp_reduce_ref_f32(s->h, pr.n, &pr.sum_abs);
            else
                pr.refi = gp_reduce_ref_i32(s->h, pr.n);
            snprintf(pr.name, sizeof pr.name, "2^%d %s", k == 0 ? (o->quick ? 26 : 28) : 20,
                     is_f32 ? "fp32" : "int32");
            double bytes = 4.0 * (double)pr.n;
            pr.floor_ms = gbs > 0 ? bytes / (gbs * 1e9) * 1e3 : 0;
            snprintf(pr.note, sizeof pr.note, "DRAM %.0f MB at %.0f GB/s (%s)%s", bytes / 1e6, gbs, src,
                     bytes < (double)o->dev.l2_bytes ? "; fits in L2" : "");

            gp_harness_result r;
            GP_TRY(time_ours(s, &pr, &p, o, &r));
            GP_TRY(gp_bench_add(b, "reduce", pr.name, "gpuprobe", label, params, 0, &r, pr.floor_ms, pr.note));
            const int main_row = b->nrows - 1;
            if (o->log)
                fprintf(o->log, "  reduce %s: %.4f ms = %.0f GB/s, result checked\n", pr.name, r.summary.median,
                        bytes / (r.summary.median * 1e6));
            if (!with_baselines)
                continue;
            int have_cub;
            GP_TRY(time_cub(s, &pr, o, b, &have_cub));
            if (k != 0)
                continue;
            /* The verdict at the large size: our table's row against
             * CUB, timed interleaved (ABBA) so drift cancels. */
            if (have_cub)
                GP_TRY(pair_with_cub(s, &pr, &p, o, b, main_row, "gpuprobe", 1));
            int best_row = -1;
            gp_reduce_params best_q;
            memset(&best_q, 0, sizeof best_q);
            for (size_t v = 0; v < NVARIANTS; v++) {
                gp_reduce_params q;
                char impl[GP_BENCH_TEXT], qp[192];
                variant_params(&variants[v], &o->dev, &q);
                GP_TRY(time_ours(s, &pr, &q, o, &r));
                variant_name(&q, impl, sizeof impl);
                gp_reduce_params_format(&q, qp, sizeof qp);
                GP_TRY(gp_bench_add(b, "reduce", pr.name, impl, label, qp, 0, &r, pr.floor_ms, pr.note));
                if (best_row < 0 || r.summary.median < b->rows[best_row].ms.median)
                    best_row = b->nrows - 1, best_q = q;
                if (o->log)
                    fprintf(o->log, "  %s %s: %.4f ms = %.0f GB/s\n", impl, pr.name, r.summary.median,
                            bytes / (r.summary.median * 1e6));
            }
            /* The fastest variant against CUB too (context for the table choice). */
            if (have_cub && best_row >= 0)
                GP_TRY(pair_with_cub(s, &pr, &best_q, o, b, best_row, b->rows[best_row].impl, 0));
        }
    }
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    bstate s;
    memset(&s, 0, sizeof s);
    gp_status st = bench_all(t, label, with_baselines, o, b, &s);
    free(s.h);
    GP_DEV_FREE(s.d_in, s.d_outf, s.d_outi, s.d_tmp);
    gp_reduce_ws_destroy(&s.ws);
    return st;
}

/* Tuning sweep: the base table's values, then the bench variants. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {
        "reduce", 5, {"block", "items_per_thread", "grid_per_cu", "one_pass", "stream"}, NULL};
    int rows[NVARIANTS][5];
    (void)dev;
    for (size_t k = 0; k < NVARIANTS; k++) {
        const variant *v = &variants[k];
        const int row[5] = {v->block, v->vecs, v->gpc > 0 ? v->gpc : 4, v->one_pass, v->stream};
        memcpy(rows[k], row, sizeof row);
    }
    return gp_kcand_make(&keys, base, &rows[0][0], (int)NVARIANTS, out, max, n);
}

/* The floor's model: the input read once; one add an element (FLOPs for
 * fp32 only). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long n;
    const char *rest;
    if (!gp_label_pow2(problem, &n, &rest) || (strcmp(rest, " fp32") && strcmp(rest, " int32")))
        return gp_label_unknown("reduce", problem, "2^K fp32|int32");
    w->bytes = 4.0 * (double)n;
    w->flops = strcmp(rest, " fp32") ? 0 : (double)n;
    snprintf(w->method, sizeof w->method, "input read once (4 B); one add an element (integer adds are no FLOPs)");
    return gp_ok();
}

const gp_kernel gp_kernel_reduce = {
    "reduce",
    "sum of fp32 / int32 arrays of any length, one launch, deterministic (vs CUB DeviceReduce)",
    print_params,
    verify,
    bench,
    candidates,
    gp_reduce_rule,
    work_of,
};
