/* spmv: verify against the CPU reference (every row within its fp32 bound,
 * small-integer data exact, outputs poisoned and guarded), bench against
 * cuSPARSE on the three matrices with the CSR floor, and the
 * gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "spmv.h"
#include "vendor.h"

/* Guard elements poisoned on each side of y (a store past either end shows). */
#define GUARD 16

/* Variants timed in the bench and run by verify: a format (AUTO: the
 * plan's), lanes a row forced (0: the plan's), unroll (0: the table's). */
typedef struct variant {
    int format, tpr, unroll;
} variant;

static const variant variants[] = {
    {GP_SPMV_CSR, 1, 0},  {GP_SPMV_CSR, 2, 0},  {GP_SPMV_CSR, 4, 0},  {GP_SPMV_CSR, 8, 0},  {GP_SPMV_CSR, 16, 0},
    {GP_SPMV_CSR, 32, 0}, {GP_SPMV_AUTO, 0, 1}, {GP_SPMV_AUTO, 0, 2}, {GP_SPMV_AUTO, 0, 4}, {GP_SPMV_AUTO, 0, 8},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* Tune candidates: {block, unroll, scalar_max_row (GP_KCAND_KEEP: the base
 * table's)}. */
static const int cands[][3] = {
    {256, 1, GP_KCAND_KEEP}, {256, 2, GP_KCAND_KEEP}, {256, 4, GP_KCAND_KEEP}, {256, 8, GP_KCAND_KEEP},
    {512, 1, GP_KCAND_KEEP}, {512, 2, GP_KCAND_KEEP}, {512, 4, GP_KCAND_KEEP}, {512, 8, GP_KCAND_KEEP},
    {128, 4, GP_KCAND_KEEP}, {512, 4, 0},             {512, 4, 32}};
#define NCANDS (sizeof cands / sizeof cands[0])

static int wave_of(const gp_kernel_opts *o) { return o->dev.wave_size == 32 ? 32 : 64; }

static const char *format_name(int f) { return f == GP_SPMV_ELL ? "ell" : f == GP_SPMV_CSR ? "csr" : "auto"; }

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_spmv_params p;
    char b[192];
    GP_TRY(gp_spmv_params_from_table(t, dev, &p));
    gp_spmv_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

/* A variant's parameters: the table's with its unroll. */
static void variant_params(const variant *v, const gp_spmv_params *base, const gp_device_info *dev,
                           gp_spmv_params *q)
{
    *q = *base;
    q->note[0] = '\0';
    if (v->unroll)
        q->unroll = v->unroll;
    gp_spmv_params_fit(q, dev);
}

/* Every row of y (host) against the double reference: |y - ref| <=
 * gamma_depth(L) sum|a x| + L 2^-53 sum|a x| (the second term: the double
 * reference's own error; its products are exact); with `exact`, equal. */
static gp_status check_y(const char *what, const gp_csr *a, const float *x, const float *y, const gp_spmv_choice *c,
                         const gp_spmv_params *p, int wave, int exact, double *worst)
{
    enum { CHUNK = 4096 };
    static double ref[CHUNK], sa[CHUNK];
    double w = 0;
    for (int r0 = 0; r0 < a->rows; r0 += CHUNK) {
        int r1 = a->rows - r0 < CHUNK ? a->rows : r0 + CHUNK;
        gp_spmv_ref(a, x, r0, r1, ref, sa);
        for (int r = r0; r < r1; r++) {
            long long L = a->row_ptr[r + 1] - a->row_ptr[r], d = gp_spmv_f32_depth(c, p, wave, L);
            double m = sa[r - r0];
            double bound = exact ? 0.0 : gp_spmv_f32_bound(d, m) + (double)L * ldexp(1.0, -53) * m;
            double err = fabs((double)y[r] - ref[r - r0]);
            if (!(err <= bound))
                return gp_fail(GP_ERR_CHECK,
                               "%s: y[%d] = %.9g, reference %.17g (row of %lld, error %.3g > bound %.3g = gamma_%lld "
                               "x %.6g)",
                               what, r, (double)y[r], ref[r - r0], L, err, bound, d, m);
            if (bound > 0 && err / bound > w)
                w = err / bound;
        }
    }
    if (worst)
        *worst = w;
    return gp_ok();
}

/* The matrix's device arrays. */
typedef struct dmat {
    int *rp, *col;
    float *val;
} dmat;

static void dmat_free(dmat *d)
{
    GP_DEV_FREE(d->rp, d->col, d->val);
    memset(d, 0, sizeof *d);
}

static gp_status dmat_upload(dmat *d, const gp_csr *a)
{
    size_t nz = (size_t)(a->nnz ? a->nnz : 1);
    memset(d, 0, sizeof *d);
    gp_status st = gp_dev_alloc_copy((void **)&d->rp, a->row_ptr, ((size_t)a->rows + 1) * sizeof(int));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&d->col, nz * sizeof(int));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&d->val, nz * sizeof(float));
    if (st.code == GP_OK && a->nnz)
        st = gp_rt_copy_to_device(d->col, a->col, (size_t)a->nnz * sizeof(int));
    if (st.code == GP_OK && a->nnz)
        st = gp_rt_copy_to_device(d->val, a->val, (size_t)a->nnz * sizeof(float));
    if (st.code != GP_OK)
        dmat_free(d);
    return st;
}

/* --------------------------------------------------------------- verify */

typedef struct vctx {
    const gp_csr *a;
    dmat d;
    float *h_x, *h_y;   /* x (cols), y with its guards (GUARD + rows + GUARD) */
    float *d_x, *d_y;
    int wave;
    const gp_kernel_opts *o;
} vctx;

/* One plan on the matrix: y poisoned with its guards, run, checked. */
static gp_status run_case(vctx *v, const char *name, const gp_spmv_params *q, int format, int tpr, int exact,
                          double *worst)
{
    const gp_csr *a = v->a;
    gp_spmv_plan pl;
    char what[512], qs[160];
    GP_TRY(gp_spmv_plan_create(&pl, a, v->d.rp, v->d.col, v->d.val, q, v->wave, format, tpr));
    gp_spmv_params_format(q, qs, sizeof qs);
    snprintf(what, sizeof what, "spmv %s %dx%d nnz %lld %s tpr %d (%s; %s)%s", name, a->rows, a->cols, a->nnz,
             format_name(format), tpr, qs, pl.c.why, exact ? " small integers" : "");
    size_t ybytes = ((size_t)a->rows + 2 * GUARD) * 4;
    gp_status st = gp_dev_poison(v->d_y, ybytes);
    if (st.code == GP_OK)
        st = gp_spmv_run(&pl, v->d_x, v->d_y + GUARD);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(v->h_y, v->d_y, ybytes);
    const uint32_t *g = (const uint32_t *)v->h_y;
    for (int k = 0; st.code == GP_OK && k < GUARD; k++)
        if (g[k] != 0xffffffffu || g[GUARD + a->rows + k] != 0xffffffffu)
            st = gp_fail(GP_ERR_CHECK, "%s: a store landed outside y (%s guard element %d)", what,
                         g[k] != 0xffffffffu ? "front" : "back", k);
    if (st.code == GP_OK)
        st = check_y(what, a, v->h_x, v->h_y + GUARD, &pl.c, q, v->wave, exact, worst);
    gp_spmv_plan_destroy(&pl);
    return st;
}

/* Every variant on one matrix, on uniform data and on small integers (every
 * partial sum an integer below 2^24: exact in any order, so a lost or
 * doubled nonzero shows however small). */
static gp_status verify_matrix(vctx *v, const char *name, gp_csr *a, const gp_spmv_params *p, uint64_t *rng)
{
    double worst = 0, w;
    v->a = a;
    GP_TRY(gp_csr_check(a, name));
    GP_TRY(dmat_upload(&v->d, a));
    gp_fill_uniform_f32(v->h_x, (size_t)a->cols, -1.0f, 1.0f, rng);
    GP_TRY(gp_rt_copy_to_device(v->d_x, v->h_x, (size_t)a->cols * 4));
    GP_TRY(run_case(v, name, p, GP_SPMV_AUTO, 0, 0, &w));
    worst = w > worst ? w : worst;
    GP_TRY(run_case(v, name, p, GP_SPMV_CSR, 0, 0, &w));
    worst = w > worst ? w : worst;
    gp_spmv_choice c;
    GP_TRY(gp_spmv_choose(a->row_ptr, a->rows, p, v->wave, GP_SPMV_AUTO, 0, &c));
    if ((double)c.max_row * a->rows <= 4.0 * (double)a->nnz + 4096)
        GP_TRY(run_case(v, name, p, GP_SPMV_ELL, 0, 0, &w));
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_spmv_params q;
        if (variants[k].tpr > v->wave)
            continue;
        variant_params(&variants[k], p, &v->o->dev, &q);
        GP_TRY(run_case(v, name, &q, variants[k].format, variants[k].tpr, 0, &w));
        worst = w > worst ? w : worst;
    }
    /* Small integers: values -4..4, x -4..4. */
    for (long long j = 0; j < a->nnz; j++)
        a->val[j] = (float)((int)(gp_rand_u64(rng) % 9) - 4);
    for (int i = 0; i < a->cols; i++)
        v->h_x[i] = (float)((int)(gp_rand_u64(rng) % 9) - 4);
    dmat_free(&v->d);
    GP_TRY(dmat_upload(&v->d, a));
    GP_TRY(gp_rt_copy_to_device(v->d_x, v->h_x, (size_t)a->cols * 4));
    GP_TRY(run_case(v, name, p, GP_SPMV_AUTO, 0, 1, NULL));
    GP_TRY(run_case(v, name, p, GP_SPMV_CSR, 1, 1, NULL));
    GP_TRY(run_case(v, name, p, GP_SPMV_CSR, v->wave, 1, NULL));
    GP_TRY(run_case(v, name, p, GP_SPMV_CSR, 0, 1, NULL));
    dmat_free(&v->d);
    if (v->o->log)
        fprintf(v->o->log, "  %s %dx%d nnz %lld (%s): fp32 worst error %.3g of its bound; small integers exact\n",
                name, a->rows, a->cols, a->nnz, c.why, worst);
    return gp_ok();
}

/* Row lengths of the hand-made case: empty rows, every length 1..70, and
 * rows longer than one block, two and three (the long-row path). */
static int mixed_len(int r, int block)
{
    if (r % 11 == 0)
        return 0;
    if (r % 97 == 5)
        return block + 1 + r % 3;
    if (r == 200)
        return 3 * block + 7;
    return r % 71;
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vctx *v, gp_csr *a)
{
    gp_spmv_params p;
    GP_TRY(gp_spmv_params_from_table(t, &o->dev, &p));
    v->o = o;
    v->wave = wave_of(o);
    uint64_t rng = o->seed;
    /* Rows and columns of the largest case below. */
    const int cap = 300000, max_cols = 100000;
    v->h_x = malloc((size_t)cap * 4);
    v->h_y = malloc(((size_t)cap + 2 * GUARD) * 4);
    if (!v->h_x || !v->h_y)
        return gp_fail(GP_ERR_NOMEM, "spmv verify: out of host memory");
    GP_TRY(gp_rt_malloc((void **)&v->d_x, (size_t)cap * 4));
    GP_TRY(gp_rt_malloc((void **)&v->d_y, ((size_t)cap + 2 * GUARD) * 4));

    int len[1000];
    for (int r = 0; r < 1000; r++)
        len[r] = mixed_len(r, p.block);
    GP_TRY(gp_spmv_gen_lengths(a, 1000, 4 * p.block, len, &rng));
    GP_TRY(verify_matrix(v, "mixed", a, &p, &rng));
    gp_csr_free(a);
    int one = 1, none[3] = {0, 0, 0}, full = 5000;
    GP_TRY(gp_spmv_gen_lengths(a, 1, 1, &one, &rng));
    GP_TRY(verify_matrix(v, "1x1", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_lengths(a, 3, 10, none, &rng));
    GP_TRY(verify_matrix(v, "empty", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_lengths(a, 1, 5000, &full, &rng));
    GP_TRY(verify_matrix(v, "one dense row", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_laplacian(a, 7));
    GP_TRY(verify_matrix(v, "laplacian 7^2", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_laplacian(a, o->quick ? 200 : 500));
    GP_TRY(verify_matrix(v, "laplacian", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_uniform(a, o->quick ? 20000 : 100000, 50000, 16, &rng));
    GP_TRY(verify_matrix(v, "uniform 16", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_uniform(a, 30001, 777, 3, &rng));
    GP_TRY(verify_matrix(v, "uniform 3", a, &p, &rng));
    gp_csr_free(a);
    GP_TRY(gp_spmv_gen_powerlaw(a, o->quick ? 50000 : cap, max_cols, 2, 1.3, max_cols, &rng));
    GP_TRY(verify_matrix(v, "power-law", a, &p, &rng));
    gp_csr_free(a);
    if (o->log)
        fprintf(o->log, "  %zu variants (lanes a row forced, unroll) and ELL where it fits, on every matrix\n",
                NVARIANTS);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vctx v;
    gp_csr a;
    memset(&v, 0, sizeof v);
    memset(&a, 0, sizeof a);
    gp_status st = verify_all(t, o, &v, &a);
    gp_csr_free(&a);
    dmat_free(&v.d);
    free(v.h_x), free(v.h_y);
    GP_DEV_FREE(v.d_x, v.d_y);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const gp_spmv_plan *pl;
    const float *d_x;
    float *d_y;
    gp_vendor_spmv *vs;
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return gp_spmv_run(x->pl, x->d_x, x->d_y);
}

static gp_status work_vendor(void *c)
{
    bctx *x = c;
    return gp_vendor_spmv_run(x->vs);
}

typedef struct bstate {
    gp_csr a;
    dmat d;
    float *h_x, *h_y, *d_x, *d_y;
    gp_vendor_spmv *vs;
    gp_spmv_plan pl;
} bstate;

typedef struct bproblem {
    char name[64];
    int target;  /* 1: the issue's >= 1.0x cuSPARSE; 0: reported */
    double floor_ms;
    char note[GP_BENCH_TEXT];
} bproblem;

/* Time the plan s->pl (made with q) and check its result. */
static gp_status time_plan(bstate *s, const bproblem *pr, const gp_spmv_params *q, const gp_kernel_opts *o,
                           gp_harness_result *r)
{
    bctx x = {&s->pl, s->d_x, s->d_y, NULL};
    char what[512];
    snprintf(what, sizeof what, "timed spmv %s (%s)", pr->name, s->pl.c.why);
    GP_TRY(gp_dev_poison(s->d_y, (size_t)s->a.rows * 4));
    GP_TRY(gp_bench_time(work_ours, &x, o->quick, r));
    GP_TRY(gp_rt_copy_to_host(s->h_y, s->d_y, (size_t)s->a.rows * 4));
    return check_y(what, &s->a, s->h_x, s->h_y, &s->pl.c, q, wave_of(o), 0, NULL);
}

/* A plan's row: "gpuprobe" + impl suffix, params with the plan's choice. */
static gp_status add_plan_row(bstate *s, const bproblem *pr, const gp_spmv_params *q, const char *impl,
                              const char *label, const gp_harness_result *r, gp_bench *b)
{
    char params[GP_BENCH_TEXT], qs[96];
    gp_spmv_params_format(q, qs, sizeof qs);
    if (s->pl.c.format == GP_SPMV_ELL)
        snprintf(params, sizeof params, "%s; ELL width %d", qs, s->pl.c.ell_width);
    else
        snprintf(params, sizeof params, "%s; CSR %d lane%s a row, %lld long rows", qs, s->pl.c.tpr,
                 s->pl.c.tpr == 1 ? "" : "s", s->pl.c.nlong);
    return gp_bench_add(b, "spmv", pr->name, impl, label, params, 0, r, pr->floor_ms, pr->note);
}

static gp_status make_plan(bstate *s, const gp_spmv_params *q, int wave, int format, int tpr)
{
    gp_spmv_plan_destroy(&s->pl);
    return gp_spmv_plan_create(&s->pl, &s->a, s->d.rp, s->d.col, s->d.val, q, wave, format, tpr);
}

/* Ours (the plan in s->pl) against cuSPARSE, ABBA; the output afterwards is
 * ours (every round ends with A): checked. */
static gp_status pair_vendor(bstate *s, const bproblem *pr, const gp_spmv_params *q, const gp_kernel_opts *o,
                             gp_bench *b, int row, const char *who, int verdict)
{
    bctx xa = {&s->pl, s->d_x, s->d_y, NULL}, xb = {NULL, NULL, NULL, s->vs};
    gp_bench_paired pp;
    char what[512];
    snprintf(what, sizeof what, "paired spmv %s (%s vs cuSPARSE)", pr->name, who);
    GP_TRY(gp_dev_poison(s->d_y, (size_t)s->a.rows * 4));
    GP_TRY(gp_bench_pair(work_ours, &xa, work_vendor, &xb, o->quick, &pp));
    GP_TRY(gp_rt_copy_to_host(s->h_y, s->d_y, (size_t)s->a.rows * 4));
    GP_TRY(check_y(what, &s->a, s->h_x, s->h_y, &s->pl.c, q, wave_of(o), 0, NULL));
    if (row >= 0)
        GP_TRY(gp_bench_set_pair(b, row, &pp));
    if (o->log)
        fprintf(o->log,
                "spmv %s: %s vs cuSPARSE paired median %.3fx (p10 %.3f, p90 %.3f): %s (%d rounds ABBA%s; medians "
                "%.4f vs %.4f ms; %s)\n",
                pr->name, who, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90,
                verdict ? (gp_bench_pair_at_least(&pp, 1.0) == 1   ? "at least 1.00: yes"
                           : gp_bench_pair_at_least(&pp, 1.0) == 0 ? "at least 1.00: no"
                                                                    : "at least 1.00: undecided")
                        : "reported (context)",
                pp.rounds, pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms,
                s->pl.c.why);
    return gp_ok();
}

/* cuSPARSE on the problem: its row (the baseline), result checked with the
 * bound of any summation order of a row (depth L: ELL's). *have = 0 when it
 * is absent. */
static gp_status time_vendor(bstate *s, const bproblem *pr, const gp_spmv_params *q, const gp_kernel_opts *o,
                             gp_bench *b, int *have)
{
    gp_harness_result r;
    *have = 0;
    gp_status st = gp_vendor_spmv_create(&s->vs, s->a.rows, s->a.cols, s->a.nnz, s->d.rp, s->d.col, s->d.val,
                                         s->d_x, s->d_y);
    if (st.code == GP_ERR_UNSUPPORTED) {
        if (o->log)
            fprintf(o->log, "  %s: cuSPARSE baseline skipped: %s\n", pr->name, st.msg);
        return gp_ok();
    }
    GP_TRY(st);
    bctx x = {NULL, NULL, NULL, s->vs};
    GP_TRY(gp_dev_poison(s->d_y, (size_t)s->a.rows * 4));
    GP_TRY(gp_bench_time(work_vendor, &x, o->quick, &r));
    GP_TRY(gp_rt_copy_to_host(s->h_y, s->d_y, (size_t)s->a.rows * 4));
    gp_spmv_choice any = {0};
    any.format = GP_SPMV_ELL;
    char impl[GP_BENCH_TEXT];
    const char *name = gp_vendor_spmv_name();
    snprintf(impl, sizeof impl, "%s cusparseSpMV CSR (ALG_DEFAULT)", name ? name : "cuSPARSE");
    GP_TRY(check_y(impl, &s->a, s->h_x, s->h_y, &any, q, wave_of(o), 0, NULL));
    GP_TRY(gp_bench_add(b, "spmv", pr->name, impl, "", "", 1, &r, pr->floor_ms, pr->note));
    *have = 1;
    return gp_ok();
}

/* The matrices: 0 Laplacian 4096^2, 1 uniform 4 M rows x 16, 2
 * power-law 4 M rows (P(L >= l) = (4 / l)^1.5, cut at 65536); --quick: 1024^2,
 * 2^20 rows. */
static gp_status make_problem(bstate *s, int k, int quick, uint64_t *rng, bproblem *pr)
{
    const int rows = quick ? 1 << 20 : 1 << 22;
    memset(pr, 0, sizeof *pr);
    if (k == 0) {
        int n = quick ? 1024 : 4096;
        snprintf(pr->name, sizeof pr->name, "laplacian 5-point %d^2", n);
        pr->target = 1;
        return gp_spmv_gen_laplacian(&s->a, n);
    }
    if (k == 1) {
        snprintf(pr->name, sizeof pr->name, "uniform %d rows x 16", rows);
        pr->target = 1;
        return gp_spmv_gen_uniform(&s->a, rows, rows, 16, rng);
    }
    snprintf(pr->name, sizeof pr->name, "power-law %d rows (4/l)^1.5 cut 65536", rows);
    return gp_spmv_gen_powerlaw(&s->a, rows, rows, 4, 1.5, 65536, rng);
}

static gp_status bench_problem(bstate *s, bproblem *pr, const gp_spmv_params *p, const char *label,
                               int with_baselines, const gp_kernel_opts *o, gp_bench *b, double gbs,
                               const char *src, uint64_t *rng)
{
    const int wave = wave_of(o);
    GP_TRY(dmat_upload(&s->d, &s->a));
    free(s->h_x), free(s->h_y);
    s->h_x = malloc((size_t)s->a.cols * 4);
    s->h_y = malloc((size_t)s->a.rows * 4);
    if (!s->h_x || !s->h_y)
        return gp_fail(GP_ERR_NOMEM, "spmv bench: out of host memory");
    gp_fill_uniform_f32(s->h_x, (size_t)s->a.cols, -1.0f, 1.0f, rng);
    GP_TRY(gp_dev_alloc_copy((void **)&s->d_x, s->h_x, (size_t)s->a.cols * 4));
    GP_TRY(gp_rt_malloc((void **)&s->d_y, (size_t)s->a.rows * 4));
    /* The floor: CSR's bytes, values and columns (8 a nonzero), row
     * pointers, x once, y once, at the measured bandwidth. */
    double bytes = 8.0 * (double)s->a.nnz + 4.0 * ((double)s->a.rows + 1) + 4.0 * s->a.cols + 4.0 * s->a.rows;
    pr->floor_ms = gbs > 0 ? bytes / (gbs * 1e9) * 1e3 : 0;
    snprintf(pr->note, sizeof pr->note, "CSR %.0f MB (val, col, row_ptr, x, y) at %.0f GB/s (%s)", bytes / 1e6, gbs,
             src);

    gp_harness_result r;
    GP_TRY(make_plan(s, p, wave, GP_SPMV_AUTO, 0));
    GP_TRY(time_plan(s, pr, p, o, &r));
    GP_TRY(add_plan_row(s, pr, p, "gpuprobe", label, &r, b));
    const int main_row = b->nrows - 1;
    const int main_format = s->pl.c.format;
    if (o->log)
        fprintf(o->log, "  spmv %s: %.4f ms = %.0f GB/s of CSR bytes (%s), result checked\n", pr->name,
                r.summary.median, bytes / (r.summary.median * 1e6), s->pl.c.why);
    int csr_row = -1;
    if (main_format != GP_SPMV_CSR) {
        GP_TRY(make_plan(s, p, wave, GP_SPMV_CSR, 0));
        GP_TRY(time_plan(s, pr, p, o, &r));
        GP_TRY(add_plan_row(s, pr, p, "gpuprobe csr", label, &r, b));
        csr_row = b->nrows - 1;
    }
    if (!with_baselines)
        return gp_ok();
    int have = 0;
    GP_TRY(time_vendor(s, pr, p, o, b, &have));
    if (have) {
        GP_TRY(make_plan(s, p, wave, GP_SPMV_AUTO, 0));
        GP_TRY(pair_vendor(s, pr, p, o, b, main_row, "gpuprobe", pr->target));
        if (csr_row >= 0) {
            GP_TRY(make_plan(s, p, wave, GP_SPMV_CSR, 0));
            GP_TRY(pair_vendor(s, pr, p, o, b, csr_row, "gpuprobe csr", 0));
        }
    }
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_spmv_params q;
        char impl[GP_BENCH_TEXT];
        if (variants[k].tpr > wave)
            continue;
        variant_params(&variants[k], p, &o->dev, &q);
        GP_TRY(make_plan(s, &q, wave, variants[k].format, variants[k].tpr));
        GP_TRY(time_plan(s, pr, &q, o, &r));
        snprintf(impl, sizeof impl, "gpuprobe variant=%s/t%d/u%d", format_name(variants[k].format), s->pl.c.tpr,
                 q.unroll);
        GP_TRY(add_plan_row(s, pr, &q, impl, label, &r, b));
        if (o->log)
            fprintf(o->log, "  %s %s: %.4f ms = %.0f GB/s\n", impl, pr->name, r.summary.median,
                    bytes / (r.summary.median * 1e6));
    }
    return gp_ok();
}

static void bstate_release(bstate *s)
{
    gp_spmv_plan_destroy(&s->pl);
    gp_vendor_spmv_destroy(s->vs);
    s->vs = NULL;
    dmat_free(&s->d);
    GP_DEV_FREE(s->d_x, s->d_y);
    s->d_x = s->d_y = NULL;
    free(s->h_x), free(s->h_y);
    s->h_x = s->h_y = NULL;
    gp_csr_free(&s->a);
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    gp_spmv_params p;
    char src[96];
    GP_TRY(gp_spmv_params_from_table(t, &o->dev, &p));
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    uint64_t rng = o->seed;
    bstate s;
    memset(&s, 0, sizeof s);
    gp_status st = gp_ok();
    for (int k = 0; k < 3 && st.code == GP_OK; k++) {
        bproblem pr;
        st = make_problem(&s, k, o->quick, &rng, &pr);
        if (st.code == GP_OK)
            st = bench_problem(&s, &pr, &p, label, with_baselines, o, b, gbs, src, &rng);
        bstate_release(&s);
    }
    return st;
}

/* Tuning sweep: the base table's values, then the candidates. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"spmv", 3, {"block", "unroll", "scalar_max_row"}, NULL};
    (void)dev;
    return gp_kcand_make(&keys, base, &cands[0][0], (int)NCANDS, out, max, n);
}

/* The floor's model, from the label: the CSR arrays read once (values and
 * column indices, 8 B a nonzero; row pointers), x once, y written once; 2
 * FLOPs a nonzero.  The power-law matrix's nonzeros are random: its label
 * gives the expected count, rows x E[min(floor(4 u^(-1/1.5)), 65536)] =
 * rows x 11.44 (the Pareto mean 12, less 0.06 for the cut and about 0.5
 * for the floor). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long n = 0, rows = 0, per = 0;
    int used = 0;
    double nnz;
    const char *how;
    if (sscanf(problem, "laplacian 5-point %lld^2%n", &n, &used) == 1 && used == (int)strlen(problem) && n > 1) {
        rows = n * n;
        nnz = 5.0 * (double)rows - 4.0 * (double)n;
        how = "5 n^2 - 4 n nonzeros";
    } else if (sscanf(problem, "uniform %lld rows x %lld%n", &rows, &per, &used) == 2 &&
               used == (int)strlen(problem) && rows > 0 && per > 0) {
        nnz = (double)rows * (double)per;
        how = "rows x per row nonzeros";
    } else if (sscanf(problem, "power-law %lld rows (4/l)^1.5 cut 65536%n", &rows, &used) == 1 &&
               used == (int)strlen(problem) && rows > 0) {
        nnz = 11.44 * (double)rows;
        how = "expected nonzeros, 11.44 a row";
    } else
        return gp_label_unknown("spmv", problem, "laplacian 5-point N^2 | uniform R rows x K | power-law R rows ...");
    w->bytes = 8.0 * nnz + 4.0 * ((double)rows + 1) + 4.0 * (double)rows + 4.0 * (double)rows;
    w->flops = 2.0 * nnz;
    snprintf(w->method, sizeof w->method, "CSR read once (8 B a nonzero, row pointers), x and y once; 2 FLOPs a "
             "nonzero (%s)", how);
    return gp_ok();
}

const gp_kernel gp_kernel_spmv = {
    "spmv",
    "y = A x, fp32 CSR (scalar / vector by row length, long rows a block each) or ELL where it pads little "
    "(vs cuSPARSE SpMV)",
    print_params,
    verify,
    bench,
    candidates,
    gp_spmv_rule,
    work_of,
};
