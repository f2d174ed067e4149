/* gemm: verify every layout and transpose against the CPU reference
 * (integer-valued data: exact), bench against cuBLAS cublasSgemm in fp32
 * math (paired ABBA) and the measured fp32 peak, and the gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "vendor.h"

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_gemm_params p;
    char b[160];
    GP_TRY(gp_gemm_params_from_table(t, dev, &p));
    gp_gemm_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

/* Small integers: every product and partial sum of K <= 2^20 / 4 terms is
 * an integer below 2^24, exact in fp32 in any order, so the GPU result must
 * equal the reference bit for bit. */
static void fill_ints(float *x, size_t n, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)(gp_rand_u64(rng) % 5) - 2);
}

static void problem_name(const gp_gemm_problem *q, char *buf, size_t n)
{
    snprintf(buf, n, "%dx%dx%d %s %c%c alpha %g beta %g ld %d/%d/%d", q->m, q->n, q->k,
             q->layout == GP_GEMM_ROW_MAJOR ? "row" : "col", q->trans_a ? 'T' : 'N', q->trans_b ? 'T' : 'N',
             (double)q->alpha, (double)q->beta, q->lda, q->ldb, q->ldc);
}

/* Leading dimensions: the minimum plus `extra`. */
static void set_lds(gp_gemm_problem *q, int extra)
{
    int rm = q->layout == GP_GEMM_ROW_MAJOR;
    int ac = q->trans_a ? q->m : q->k, ar = q->trans_a ? q->k : q->m;
    int bc = q->trans_b ? q->k : q->n, br = q->trans_b ? q->n : q->k;
    q->lda = (rm ? ac : ar) + extra;
    q->ldb = (rm ? bc : br) + extra;
    q->ldc = (rm ? q->n : q->m) + extra;
}

/* One problem, exact on integer data.  off: A, B and C start `off` floats
 * into their buffers (off % 4 != 0: pointers not 16-byte aligned). */
static gp_status verify_one(const gp_gemm_problem *q, const gp_gemm_params *p, uint64_t *rng, FILE *log, int off)
{
    size_t na = gp_gemm_a_elems(q) + off, nb = gp_gemm_b_elems(q) + off, nc = gp_gemm_c_elems(q) + off;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4), *ref = malloc(nc * 4);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    char name[160], pb[160], what[352];
    problem_name(q, name, sizeof name);
    gp_gemm_params_format(p, pb, sizeof pb);
    snprintf(what, sizeof what, "gemm %s (%s)", name, pb);
    gp_status st = a && b && c && ref ? gp_ok() : gp_fail(GP_ERR_NOMEM, "%s: out of host memory", what);
    if (st.code == GP_OK) {
        fill_ints(a, na, rng), fill_ints(b, nb, rng), fill_ints(c, nc, rng);
        memcpy(ref, c, nc * 4);
        gp_gemm_ref_f32(q, a + off, b + off, ref + off);
        st = gp_dev_alloc_copy((void **)&d_a, a, na * 4);
    }
    if (st.code == GP_OK)
        st = gp_dev_alloc_copy((void **)&d_b, b, nb * 4);
    /* beta = 0: C poisoned (NaN) must not leak into the result. */
    if (st.code == GP_OK)
        st = q->beta == 0.0f ? gp_rt_malloc((void **)&d_c, nc * 4) : gp_dev_alloc_copy((void **)&d_c, c, nc * 4);
    if (st.code == GP_OK && q->beta == 0.0f)
        st = gp_dev_poison(d_c, nc * 4);
    if (st.code == GP_OK)
        st = gp_gemm_f32(q, d_a + off, d_b + off, d_c + off, p);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(c, d_c, nc * 4);
    /* Only the m x n elements are C; the gaps of a wider ld stay as they were
     * (poisoned or C's input): compare element by element. */
    for (int i = 0; st.code == GP_OK && i < q->m; i++)
        for (int j = 0; j < q->n; j++) {
            size_t at = off + (q->layout == GP_GEMM_ROW_MAJOR ? (size_t)i * q->ldc + j : (size_t)j * q->ldc + i);
            if (memcmp(&c[at], &ref[at], 4)) {
                st = gp_fail(GP_ERR_CHECK, "%s: C(%d, %d) = %.9g, exact %.9g", what, i, j, (double)c[at],
                             (double)ref[at]);
                break;
            }
        }
    if (st.code == GP_OK && log)
        fprintf(log, "  %s: exact\n", what);
    free(a), free(b), free(c), free(ref);
    GP_DEV_FREE(d_a, d_b, d_c);
    return st;
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    gp_gemm_params p;
    GP_TRY(gp_gemm_params_from_table(t, &o->dev, &p));
    /* Sizes around the tiles (1, below, at and above 64/128, k below and
     * above the k-steps), every layout x transpose, leading dimensions at
     * the minimum and wider, and alpha/beta with beta 0 (C not read). */
    static const int sizes[][3] = {{1, 1, 1},     {3, 5, 7},      {17, 33, 9},     {128, 128, 8},
                                   {129, 127, 17}, {64, 200, 300}, {300, 64, 1},   {257, 130, 100}};
    static const float ab[][2] = {{1, 0}, {2, 0.5f}, {-1, 1}};
    uint64_t rng = o->seed;
    int ncases = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int combo = 0; combo < 8; combo++) {
            gp_gemm_problem q;
            memset(&q, 0, sizeof q);
            q.m = sizes[si][0], q.n = sizes[si][1], q.k = sizes[si][2];
            q.layout = (gp_gemm_layout)(combo >> 2), q.trans_a = (combo >> 1) & 1, q.trans_b = combo & 1;
            q.alpha = ab[(si + combo) % 3][0], q.beta = ab[(si + combo) % 3][1];
            set_lds(&q, (int)((si + combo) % 2) * 3);
            GP_TRY(verify_one(&q, &p, &rng, o->quick || combo ? NULL : o->log, 0));
            ncases++;
        }
    /* Every compiled configuration on awkward shapes. */
    for (int cfg = 0; cfg < GP_GEMM_NCONFIGS; cfg++) {
        if (!gp_gemm_config_on(cfg, gp_target_reg_class(o->dev.arch)))
            continue;
        gp_gemm_params c;
        memset(&c, 0, sizeof c);
        c.tile_m = gp_gemm_configs[cfg][0], c.tile_n = gp_gemm_configs[cfg][1];
        c.tile_k = gp_gemm_configs[cfg][2], c.block = gp_gemm_configs[cfg][3];
        gp_gemm_params_fit(&c, &o->dev);
        for (int combo = 0; combo < 16; combo++) {
            gp_gemm_problem q;
            memset(&q, 0, sizeof q);
            /* Partial tiles both ways: one column tile of 128x256 (197),
             * then two (263), with k past a slab's edge. */
            q.m = combo < 8 ? 131 : 257, q.n = combo < 8 ? 197 : 263, q.k = combo < 8 ? 45 : 19;
            q.layout = (gp_gemm_layout)((combo >> 2) & 1), q.trans_a = (combo >> 1) & 1, q.trans_b = combo & 1;
            q.alpha = 1, q.beta = combo % 2 ? 1.0f : 0.0f;
            set_lds(&q, combo % 3);
            GP_TRY(verify_one(&q, &c, &rng, NULL, 0));
            ncases++;
        }
        /* Row-major NN (CFG5 has its own kernel for it, gemm.hip), the
         * 16-byte paths on partial tiles: leading dimensions multiples of 4
         * with M, N, K not (K = 45: the last k quad 1 wide), beta != 0;
         * then the same with the pointers 4 bytes off 16-byte alignment
         * (every load and store 4-byte). */
        for (int v = 0; v < 3; v++) {
            gp_gemm_problem q;
            memset(&q, 0, sizeof q);
            q.layout = GP_GEMM_ROW_MAJOR;
            q.m = v ? 257 : 131, q.n = v ? 263 : 197, q.k = v ? 19 : 45;
            q.lda = (q.k + 3) / 4 * 4, q.ldb = (q.n + 3) / 4 * 4 + 4 * v, q.ldc = (q.n + 3) / 4 * 4;
            q.alpha = v == 1 ? -1.0f : 2.0f, q.beta = v == 2 ? 0.0f : 0.5f;
            GP_TRY(verify_one(&q, &c, &rng, NULL, v == 2 ? 1 : 0));
            ncases++;
        }
    }
    if (o->log)
        fprintf(o->log, "  %d cases exact (integer-valued data), every layout, transpose and configuration\n",
                ncases);
    return gp_ok();
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    gp_gemm_problem q;
    const gp_gemm_params *p;
    const float *d_a, *d_b;
    float *d_c;
    gp_vendor_blas *blas;
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return gp_gemm_f32(&x->q, x->d_a, x->d_b, x->d_c, x->p);
}

/* cuBLAS is column-major: the row-major C = A B is the column-major
 * C^T = B^T A^T on the same memory. */
static gp_status work_blas(void *c)
{
    bctx *x = c;
    const gp_gemm_problem *q = &x->q;
    return gp_vendor_sgemm(x->blas, q->trans_b, q->trans_a, q->n, q->m, q->k, q->alpha, x->d_b, q->ldb, x->d_a,
                           q->lda, q->beta, x->d_c, q->ldc);
}

/* The timed output on a sample of 512 elements (and the corners): exact. */
static gp_status check_sample(const bctx *x, const float *a, const float *b, const char *what, uint64_t seed)
{
    const gp_gemm_problem *q = &x->q;
    uint64_t rng = seed;
    for (int s = 0; s < 516; s++) {
        int i = s < 4 ? (s & 1 ? q->m - 1 : 0) : (int)(gp_rand_u64(&rng) % (uint64_t)q->m);
        int j = s < 4 ? (s & 2 ? q->n - 1 : 0) : (int)(gp_rand_u64(&rng) % (uint64_t)q->n);
        float got;
        GP_TRY(gp_rt_copy_to_host(&got, x->d_c + (size_t)i * q->ldc + j, 4));
        double want = gp_gemm_ref_at(q, a, b, NULL, i, j, NULL);
        if ((double)got != want)
            return gp_fail(GP_ERR_CHECK, "%s: C(%d, %d) = %.9g, exact %.17g", what, i, j, (double)got, want);
    }
    return gp_ok();
}

static double fp32_peak_tflops(const gp_table *t, const gp_device_info *dev, char *src, size_t n)
{
    double fma = 0, mhz = 0, cus = dev->compute_units;
    if (gp_table_get_double(t, "compute", "fp32_fma_per_cycle_per_cu", &fma).code == GP_OK &&
        gp_table_get_double(t, "device", "clock_mhz", &mhz).code == GP_OK && cus > 0) {
        snprintf(src, n, "table: %.1f FMA/cycle/CU x %.0f CUs x %.0f MHz", fma, cus, mhz);
        return 2 * fma * cus * mhz * 1e6 / 1e12;
    }
    snprintf(src, n, "not computed: the table has no fp32 rate or clock");
    return 0;
}


/* "0.725 of the measured fp32 peak", or why there is none: with a table of
 * another device (an H200's on an H100) the floors are unknown, and a
 * fraction of 0 would read as a measurement. */
static const char *peak_frac(char *buf, size_t n, double tflops, double peak)
{
    if (peak > 0)
        snprintf(buf, n, "%.3f of the measured fp32 peak", tflops / peak);
    else
        snprintf(buf, n, "fp32 peak unknown (no measured facts of this device)");
    return buf;
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    /* The shapes (row-major, NN): 4096^3 and 8192^3 (>= 0.90 of
     * cuBLAS), 4095 x 4097 x 1023 and 8192 x 8192 x 256 (>= 0.80). */
    static const int full[][4] = {{4096, 4096, 4096, 90}, {8192, 8192, 8192, 90}, {4095, 4097, 1023, 80},
                                  {8192, 8192, 256, 80}};
    static const int quick[][4] = {{2048, 2048, 2048, 90}, {1023, 1025, 511, 80}};
    const int (*shapes)[4] = o->quick ? quick : full;
    const int nshapes = o->quick ? 2 : 4;
    gp_gemm_params p;
    GP_TRY(gp_gemm_params_from_table(t, &o->dev, &p));
    size_t maxa = 0, maxb = 0, maxc = 0;
    for (int s = 0; s < nshapes; s++) {
        size_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        maxa = m * k > maxa ? m * k : maxa, maxb = k * n > maxb ? k * n : maxb, maxc = m * n > maxc ? m * n : maxc;
    }
    float *a = malloc(maxa * 4), *bb = malloc(maxb * 4);
    bctx x;
    memset(&x, 0, sizeof x);
    gp_status st = a && bb ? gp_ok() : gp_fail(GP_ERR_NOMEM, "gemm bench: out of host memory");
    uint64_t rng = o->seed;
    if (st.code == GP_OK) {
        fill_ints(a, maxa, &rng), fill_ints(bb, maxb, &rng);
        st = gp_dev_alloc_copy((void **)&x.d_a, a, maxa * 4);
    }
    if (st.code == GP_OK)
        st = gp_dev_alloc_copy((void **)&x.d_b, bb, maxb * 4);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&x.d_c, maxc * 4);
    gp_status vs = gp_ok();
    if (st.code == GP_OK && with_baselines) {
        vs = gp_vendor_blas_create(&x.blas);
        if (vs.code != GP_OK && vs.code != GP_ERR_UNSUPPORTED)
            st = vs;
        else if (vs.code == GP_ERR_UNSUPPORTED && o->log)
            fprintf(o->log, "  gemm: cuBLAS baseline skipped: %s\n", vs.msg);
    }
    char src[128], params[160], note[GP_BENCH_TEXT];
    double peak = fp32_peak_tflops(t, &o->dev, src, sizeof src);
    for (int s = 0; s < nshapes && st.code == GP_OK; s++) {
        gp_gemm_problem *q = &x.q;
        memset(q, 0, sizeof *q);
        q->layout = GP_GEMM_ROW_MAJOR, q->m = shapes[s][0], q->n = shapes[s][1], q->k = shapes[s][2];
        q->alpha = 1, q->beta = 0, q->lda = q->k, q->ldb = q->n, q->ldc = q->n;
        x.p = &p;
        /* The tile this problem runs (gp_gemm_plan: the table's, or its
         * fallback) and why, in the parameters column. */
        char why[128];
        gp_gemm_params ran = p;
        ran.config = gp_gemm_plan(q, &p, 1, why, sizeof why);
        ran.tile_m = gp_gemm_configs[ran.config][0], ran.tile_n = gp_gemm_configs[ran.config][1];
        ran.tile_k = gp_gemm_configs[ran.config][2], ran.block = gp_gemm_configs[ran.config][3];
        if (why[0])
            snprintf(params, sizeof params, "%s", why);
        else
            gp_gemm_params_format(&ran, params, sizeof params);
        double flop = 2.0 * q->m * q->n * q->k;
        double floor_ms = peak > 0 ? flop / (peak * 1e12) * 1e3 : 0;
        snprintf(note, sizeof note, "fp32 %.1f GFLOP at %.1f TFLOP/s (%.90s)", flop / 1e9, peak, src);
        char problem[64], what[256], frac[64];
        snprintf(problem, sizeof problem, "%dx%dx%d NN row-major", q->m, q->n, q->k);
        gp_harness_result r;
        snprintf(what, sizeof what, "timed gemm %s", problem);
        st = gp_dev_poison(x.d_c, (size_t)q->m * q->n * 4);
        if (st.code == GP_OK)
            st = gp_bench_time(work_ours, &x, o->quick, &r);
        if (st.code == GP_OK)
            st = check_sample(&x, a, bb, what, rng + (uint64_t)s);
        if (st.code != GP_OK)
            break;
        st = gp_bench_add(b, "gemm", problem, "gpuprobe", label, params, 0, &r, floor_ms, note);
        int main_row = b->nrows - 1;
        double tf = flop / (r.summary.median * 1e9);
        if (o->log)
            fprintf(o->log, "  gemm %s: %.3f ms = %.1f TFLOP/s = %s (%s), sample exact\n", problem, r.summary.median,
                    tf, peak_frac(frac, sizeof frac, tf, peak), params);
        if (!with_baselines || !x.blas)
            continue;
        const char *bn = gp_vendor_blas_name();
        char impl[GP_BENCH_TEXT];
        snprintf(impl, sizeof impl, "%s cublasSgemm (fp32 math)", bn ? bn : "cuBLAS");
        st = gp_dev_poison(x.d_c, (size_t)q->m * q->n * 4);
        if (st.code == GP_OK)
            st = gp_bench_time(work_blas, &x, o->quick, &r);
        if (st.code == GP_OK)
            st = check_sample(&x, a, bb, impl, rng + (uint64_t)s);
        if (st.code == GP_OK)
            st = gp_bench_add(b, "gemm", problem, impl, "", "", 1, &r, floor_ms, note);
        if (st.code == GP_OK && o->log)
            fprintf(o->log, "  %s %s: %.3f ms = %.1f TFLOP/s = %s\n", impl, problem, r.summary.median,
                    flop / (r.summary.median * 1e9),
                    peak_frac(frac, sizeof frac, flop / (r.summary.median * 1e9), peak));
        gp_bench_paired pp;
        if (st.code == GP_OK)
            st = gp_bench_pair(work_ours, &x, work_blas, &x, o->quick, &pp);
        if (st.code == GP_OK)
            st = check_sample(&x, a, bb, "gemm after the paired loop", rng + (uint64_t)s);
        if (st.code == GP_OK)
            st = gp_bench_set_pair(b, main_row, &pp);
        if (st.code == GP_OK && o->log)
            fprintf(o->log,
                    "gemm %s: gpuprobe vs cuBLAS paired median %.3fx (p10 %.3f, p90 %.3f): >= 0.%02d: %s (%d rounds "
                    "ABBA; medians %.3f vs %.3f ms; gpuprobe at %s)\n",
                    problem, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, shapes[s][3],
                    gp_bench_verdict_word(gp_bench_pair_at_least(&pp, shapes[s][3] / 100.0)), pp.rounds,
                    pp.a_median_ms, pp.b_median_ms,
                    peak_frac(frac, sizeof frac, flop / (pp.a_median_ms * 1e9), peak));
        /* The other compiled configurations on the first shape (how far the
         * rule's choice is from the best). */
        for (int cfg = 0; s == 0 && cfg < GP_GEMM_NCONFIGS && st.code == GP_OK; cfg++) {
            if (cfg == p.config || !gp_gemm_config_on(cfg, gp_target_reg_class(o->dev.arch)))
                continue;
            gp_gemm_params c;
            memset(&c, 0, sizeof c);
            c.tile_m = gp_gemm_configs[cfg][0], c.tile_n = gp_gemm_configs[cfg][1];
            c.tile_k = gp_gemm_configs[cfg][2], c.block = gp_gemm_configs[cfg][3];
            gp_gemm_params_fit(&c, &o->dev);
            bctx xc = x;
            xc.p = &c;
            char cp[160], ci[64];
            gp_gemm_params_format(&c, cp, sizeof cp);
            snprintf(ci, sizeof ci, "gpuprobe variant=%dx%dx%d/%d", c.tile_m, c.tile_n, c.tile_k, c.block);
            st = gp_bench_time(work_ours, &xc, o->quick, &r);
            if (st.code == GP_OK)
                st = check_sample(&xc, a, bb, ci, rng + 99);
            if (st.code == GP_OK)
                st = gp_bench_add(b, "gemm", problem, ci, label, cp, 0, &r, floor_ms, note);
            if (st.code == GP_OK && o->log)
                fprintf(o->log, "  %s %s: %.3f ms = %.1f TFLOP/s\n", ci, problem, r.summary.median,
                        flop / (r.summary.median * 1e9));
        }
    }
    free(a), free(bb);
    GP_DEV_FREE((void *)x.d_a, (void *)x.d_b, x.d_c);
    gp_vendor_blas_destroy(x.blas);
    return st;
}

/* Tuning sweep: the base table's values, then every configuration compiled
 * for the device's target. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"gemm", 4, {"tile_m", "tile_n", "tile_k", "block"}, NULL};
    const unsigned cls = dev ? gp_target_reg_class(dev->arch) : 0;
    int rows[GP_GEMM_NCONFIGS][4], nrows = 0;
    for (int cfg = 0; cfg < GP_GEMM_NCONFIGS; cfg++)
        if (gp_gemm_config_on(cfg, cls))
            memcpy(rows[nrows++], gp_gemm_configs[cfg], sizeof rows[0]);
    return gp_kcand_make(&keys, base, &rows[0][0], nrows, out, max, n);
}

/* The floor's model: 2 m n k FLOP; A, B read and C written once. */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long d[3];
    if (!gp_label_dims(problem, d, 3, NULL))
        return gp_label_unknown("gemm", problem, "MxNxK ...");
    double m = (double)d[0], n = (double)d[1], k = (double)d[2];
    w->flops = 2 * m * n * k;
    w->bytes = 4.0 * (m * k + k * n + m * n);
    snprintf(w->method, sizeof w->method, "2 m n k FLOP; A and B read, C written once (4 B each)");
    return gp_ok();
}

const gp_kernel gp_kernel_gemm = {
    "gemm",
    "SGEMM C = alpha op(A) op(B) + beta C, fp32, row/column-major, transposes, any size (vs cuBLAS fp32)",
    print_params,
    verify,
    bench,
    candidates,
    gp_gemm_rule,
    work_of,
};
