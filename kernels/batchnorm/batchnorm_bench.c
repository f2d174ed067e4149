/* batchnorm: verify training and inference against the CPU reference
 * (including data with a large mean), bench against cuDNN's
 * cudnnBatchNormalizationForwardTraining (paired ABBA) and the floor, and
 * the gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batchnorm.h"
#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "vendor.h"

#define BN_EPS 1e-5

static const int item_variants[] = {1, 2, 4, 8};
#define NITEMS (sizeof item_variants / sizeof item_variants[0])

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_batchnorm_params p;
    char b[160];
    GP_TRY(gp_batchnorm_params_from_table(t, dev, &p));
    gp_batchnorm_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

/* Device copies of one problem: x, y, gamma, beta, saved statistics, and
 * the host side: x, gamma, beta, y read back, and the reference. */
typedef struct bn_bufs {
    gp_batchnorm_shape s;
    float *h_x, *h_y, *h_ref, *h_g, *h_b;
    double *ref_mean, *ref_invstd;
    float *d_x, *d_y, *d_g, *d_b, *d_mean, *d_invstd;
    gp_batchnorm_ws ws;
} bn_bufs;

static void bufs_free(bn_bufs *u)
{
    free(u->h_x), free(u->h_y), free(u->h_ref), free(u->h_g), free(u->h_b), free(u->ref_mean), free(u->ref_invstd);
    GP_DEV_FREE(u->d_x, u->d_y, u->d_g, u->d_b, u->d_mean, u->d_invstd);
    gp_batchnorm_ws_destroy(&u->ws);
    memset(u, 0, sizeof *u);
}

/* Allocate and fill: x = offset + U(-1, 1) x spread, gamma U(0.5, 1.5),
 * beta U(-1, 1). */
static gp_status bufs_make(bn_bufs *u, const gp_batchnorm_shape *s, const gp_batchnorm_params *p, double offset,
                           double spread, uint64_t *rng)
{
    memset(u, 0, sizeof *u);
    u->s = *s;
    size_t n = gp_batchnorm_elems(s), c = (size_t)s->c;
    u->h_x = malloc(n * 4), u->h_y = malloc(n * 4), u->h_ref = malloc(n * 4);
    u->h_g = malloc(c * 4), u->h_b = malloc(c * 4);
    u->ref_mean = malloc(c * 8), u->ref_invstd = malloc(c * 8);
    if (!u->h_x || !u->h_y || !u->h_ref || !u->h_g || !u->h_b || !u->ref_mean || !u->ref_invstd)
        return gp_fail(GP_ERR_NOMEM, "batchnorm: out of host memory for %zu values", n);
    for (size_t i = 0; i < n; i++)
        u->h_x[i] = (float)(offset + spread * gp_rand_uniform(rng, -1.0, 1.0));
    gp_fill_uniform_f32(u->h_g, c, 0.5f, 1.5f, rng);
    gp_fill_uniform_f32(u->h_b, c, -1.0f, 1.0f, rng);
    GP_TRY(gp_dev_alloc_copy((void **)&u->d_x, u->h_x, n * 4));
    GP_TRY(gp_rt_malloc((void **)&u->d_y, n * 4));
    GP_TRY(gp_dev_alloc_copy((void **)&u->d_g, u->h_g, c * 4));
    GP_TRY(gp_dev_alloc_copy((void **)&u->d_b, u->h_b, c * 4));
    GP_TRY(gp_rt_malloc((void **)&u->d_mean, c * 4));
    GP_TRY(gp_rt_malloc((void **)&u->d_invstd, c * 4));
    GP_TRY(gp_batchnorm_ws_create(&u->ws, s, p));
    gp_batchnorm_ref_train(u->h_x, u->h_ref, s, u->h_g, u->h_b, BN_EPS, u->ref_mean, u->ref_invstd);
    return gp_ok();
}

/* y within atol + rtol |ref|: the fp32 mean carries 2^-24 |mean| of error,
 * scaled by gamma x invstd, plus a few roundings of y itself; the saved
 * statistics within 2^-20 relative (plus 2^-24 |mean| for the mean). */
static gp_status check(bn_bufs *u, const char *what, int check_stats)
{
    size_t n = gp_batchnorm_elems(&u->s), c = (size_t)u->s.c;
    double worst = 0;
    for (size_t i = 0; i < c; i++) {
        double m = fabs(u->ref_mean[i]) * u->h_g[i] * u->ref_invstd[i];
        worst = m > worst ? m : worst;
    }
    double atol = 1e-5 + ldexp(worst, -22);
    GP_TRY(gp_rt_copy_to_host(u->h_y, u->d_y, n * 4));
    GP_TRY(gp_compare_f32(what, u->h_y, u->h_ref, n, atol, 1e-5, NULL));
    if (!check_stats)
        return gp_ok();
    float *m = malloc(c * 4), *is = malloc(c * 4), *rm = malloc(c * 4), *ri = malloc(c * 4);
    gp_status st = m && is && rm && ri ? gp_ok() : gp_fail(GP_ERR_NOMEM, "batchnorm: out of host memory");
    double mabs = 0;
    for (size_t i = 0; st.code == GP_OK && i < c; i++) {
        rm[i] = (float)u->ref_mean[i], ri[i] = (float)u->ref_invstd[i];
        mabs = fabs(u->ref_mean[i]) > mabs ? fabs(u->ref_mean[i]) : mabs;
    }
    char w[256];
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(m, u->d_mean, c * 4);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(is, u->d_invstd, c * 4);
    snprintf(w, sizeof w, "%s saved mean", what);
    if (st.code == GP_OK)
        st = gp_compare_f32(w, m, rm, c, ldexp(mabs, -23) + 1e-7, 1e-6, NULL);
    snprintf(w, sizeof w, "%s saved invstd", what);
    if (st.code == GP_OK)
        st = gp_compare_f32(w, is, ri, c, 0.0, ldexp(1.0, -18), NULL);
    free(m), free(is), free(rm), free(ri);
    return st;
}

static gp_status run_train(bn_bufs *u, const gp_batchnorm_params *p)
{
    return gp_batchnorm_train_f32(u->d_x, u->d_y, &u->s, u->d_g, u->d_b, BN_EPS, u->d_mean, u->d_invstd, &u->ws, p);
}

static gp_status verify_one(const gp_batchnorm_shape *s, const gp_batchnorm_params *p, double offset,
                            uint64_t *rng, FILE *log)
{
    bn_bufs u;
    char what[256], pb[160];
    gp_batchnorm_params_format(p, pb, sizeof pb);
    snprintf(what, sizeof what, "batchnorm %dx%dx%dx%d mean %g (%s)", s->n, s->c, s->h, s->w, offset, pb);
    gp_status st = bufs_make(&u, s, p, offset, 1.0, rng);
    size_t n = gp_batchnorm_elems(s), c = (size_t)s->c;
    /* Training, twice (the workspace counters must be back at zero). */
    for (int rep = 0; rep < 2 && st.code == GP_OK; rep++) {
        st = gp_dev_poison(u.d_y, n * 4);
        if (st.code == GP_OK)
            st = gp_dev_poison(u.d_mean, c * 4);
        if (st.code == GP_OK)
            st = gp_dev_poison(u.d_invstd, c * 4);
        if (st.code == GP_OK)
            st = run_train(&u, p);
        if (st.code == GP_OK)
            st = check(&u, what, 1);
    }
    /* Inference with the reference's statistics as the given ones. */
    if (st.code == GP_OK) {
        float *mv = malloc(2 * c * 4);
        float *d_mv = NULL;
        if (!mv)
            st = gp_fail(GP_ERR_NOMEM, "batchnorm: out of host memory");
        for (size_t i = 0; st.code == GP_OK && i < c; i++) {
            mv[i] = (float)u.ref_mean[i];
            mv[c + i] = (float)(1.0 / (u.ref_invstd[i] * u.ref_invstd[i]) - BN_EPS);
        }
        if (st.code == GP_OK)
            st = gp_dev_alloc_copy((void **)&d_mv, mv, 2 * c * 4);
        if (st.code == GP_OK)
            gp_batchnorm_ref_infer(u.h_x, u.h_ref, s, u.h_g, u.h_b, mv, mv + c, BN_EPS);
        if (st.code == GP_OK)
            st = gp_dev_poison(u.d_y, n * 4);
        if (st.code == GP_OK)
            st = gp_batchnorm_infer_f32(u.d_x, u.d_y, s, u.d_g, u.d_b, d_mv, d_mv + c, BN_EPS, p);
        char w2[300];
        snprintf(w2, sizeof w2, "%s inference", what);
        if (st.code == GP_OK)
            st = check(&u, w2, 0);
        free(mv);
        if (d_mv)
            gp_rt_free(d_mv);
    }
    if (st.code == GP_OK && log)
        fprintf(log, "  %s, %s path: y, saved mean and invstd within tolerance; inference too\n", what,
                gp_batchnorm_fused(p, s) ? "fused" : "split");
    bufs_free(&u);
    return st;
}

/* The fused path at and around its limits, under the table's parameters
 * (`p`: its limit, its channel count) and with it forced on (every channel
 * count, the most values the block holds) and off: channels of exactly the
 * limit (float4 units: a whole number of them per thread), 3 values fewer
 * (scalar units, not a multiple of the block) and 1 more (must take the
 * split path), planes whose units are no multiple of the block, and a large
 * mean.  Each shape must take the path its label says, so a rule or a fit
 * that moved the limit fails here rather than testing the other path. */
static gp_status verify_fused(const gp_batchnorm_params *p, const gp_device_info *dev, uint64_t *rng, FILE *log)
{
    gp_batchnorm_params on = *p, off = *p;
    on.fused_max_values = on.block * GP_BN_FUSED_VPT(on.block), on.fused_min_channels = 1;
    off.fused_max_values = 0;
    on.note[0] = off.note[0] = '\0';
    gp_batchnorm_params_fit(&on, dev);
    gp_batchnorm_params_fit(&off, dev);
    const gp_batchnorm_params *ps[3] = {p, &on, &off};
    const char *names[3] = {"table", "fused forced on", "fused off"};
    int checked = 0;
    for (int k = 0; k < 3; k++) {
        const gp_batchnorm_params *q = ps[k];
        int lim = q->fused_max_values, ch = q->fused_min_channels < 3 ? 3 : q->fused_min_channels;
        if (lim < 8)
            lim = on.fused_max_values; /* off: the shapes around the forced limit, all split */
        const struct {
            gp_batchnorm_shape s;
            int fused; /* the path the shape must take under q */
        } cases[] = {
            {{1, ch, 1, lim}, lim <= q->fused_max_values},
            {{1, ch, 1, lim - 3}, lim - 3 <= q->fused_max_values},
            {{1, ch, 1, lim + 1}, 0},
            {{3, ch, 7, 7}, 147 <= q->fused_max_values},
            {{5, ch, 6, 10}, 300 <= q->fused_max_values},
            {{32, ch, 14, 14}, 6272 <= q->fused_max_values},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const gp_batchnorm_shape *s = &cases[i].s;
            if (gp_batchnorm_fused(q, s) != cases[i].fused)
                return gp_fail(GP_ERR_CHECK, "batchnorm %s: %dx%dx%dx%d takes the %s path, want %s", names[k], s->n,
                               s->c, s->h, s->w, gp_batchnorm_fused(q, s) ? "fused" : "split",
                               cases[i].fused ? "fused" : "split");
            GP_TRY(verify_one(s, q, i == 4 ? 1000.0 : 0.0, rng, NULL));
            checked++;
        }
    }
    if (log)
        fprintf(log, "  fused path: %d shapes at, under and over its limit (table, forced on, off): within tolerance\n",
                checked);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    gp_batchnorm_params p;
    GP_TRY(gp_batchnorm_params_from_table(t, &o->dev, &p));
    /* Odd planes (scalar path), planes of multiples of 4 (vector path), one
     * value per channel, many channels, and a large mean (1000: the shift
     * keeps the variance). */
    const gp_batchnorm_shape shapes[] = {{1, 1, 1, 1}, {2, 3, 5, 7},   {4, 8, 14, 14}, {3, 5, 1, 1},
                                         {16, 64, 28, 28}, {2, 300, 3, 3}, {8, 4, 56, 56}};
    uint64_t rng = o->seed;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        GP_TRY(verify_one(&shapes[i], &p, 0.0, &rng, o->log));
    GP_TRY(verify_one(&shapes[2], &p, 1000.0, &rng, o->log));
    GP_TRY(verify_one(&shapes[6], &p, -300.0, &rng, o->log));
    for (size_t k = 0; k < NITEMS; k++) {
        gp_batchnorm_params q = p;
        q.items = item_variants[k];
        q.fused_max_values = 0; /* the split kernels, whose items these are */
        q.note[0] = '\0';
        gp_batchnorm_params_fit(&q, &o->dev);
        GP_TRY(verify_one(&shapes[1], &q, 0.0, &rng, NULL));
        GP_TRY(verify_one(&shapes[6], &q, 5.0, &rng, NULL));
    }
    if (o->log)
        fprintf(o->log, "  items_per_thread 1..8: within tolerance on 2 shapes each\n");
    return verify_fused(&p, &o->dev, &rng, o->log);
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    bn_bufs *u;
    const gp_batchnorm_params *p;
    gp_vendor_bn *vb;
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return run_train(x->u, x->p);
}

static gp_status work_cudnn(void *c)
{
    bctx *x = c;
    bn_bufs *u = x->u;
    return gp_vendor_bn_train(x->vb, u->d_x, u->d_y, u->d_g, u->d_b, BN_EPS, u->d_mean, u->d_invstd);
}

/* Floor of the passes parameters p choose for s (x read twice, once on the
 * fused path; y written once) at gbs, with its note. */
static double floor_of(const gp_batchnorm_params *p, const gp_batchnorm_shape *s, double bytes, double gbs,
                       const char *src, const gp_kernel_opts *o, char *note, size_t n)
{
    int fused = gp_batchnorm_fused(p, s);
    snprintf(note, n, "DRAM %d x %.0f MB (x read %s, y written) at %.0f GB/s (%.48s)%s", fused ? 2 : 3, bytes / 1e6,
             fused ? "once: fused" : "twice", gbs, src, bytes < (double)o->dev.l2_bytes ? "; x fits in L2" : "");
    return gbs > 0 ? (fused ? 2 : 3) * bytes / (gbs * 1e9) * 1e3 : 0;
}

static gp_status bench_problem(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                               gp_bench *b, const gp_batchnorm_shape *s, int floor_verdict)
{
    gp_batchnorm_params p;
    GP_TRY(gp_batchnorm_params_from_table(t, &o->dev, &p));
    bn_bufs u;
    uint64_t rng = o->seed ^ gp_batchnorm_elems(s);
    gp_vendor_bn *vb = NULL;
    gp_status st = bufs_make(&u, s, &p, 0.5, 1.0, &rng);
    char problem[64], params[160], src[96], note[GP_BENCH_TEXT], what[256];
    snprintf(problem, sizeof problem, "%dx%dx%dx%d train", s->n, s->c, s->h, s->w);
    gp_batchnorm_params_format(&p, params, sizeof params);
    double bytes = 4.0 * (double)gp_batchnorm_elems(s);
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    double floor_ms = floor_of(&p, s, bytes, gbs, src, o, note, sizeof note);
    bctx x = {&u, &p, NULL};
    gp_harness_result r;
    snprintf(what, sizeof what, "timed batchnorm %s (%s)", problem, params);
    if (st.code == GP_OK)
        st = gp_dev_poison(u.d_y, (size_t)bytes);
    if (st.code == GP_OK)
        st = gp_bench_time(work_ours, &x, o->quick, &r);
    if (st.code == GP_OK)
        st = check(&u, what, 1);
    if (st.code == GP_OK)
        st = gp_bench_add(b, "batchnorm", problem, "gpuprobe", label, params, 0, &r, floor_ms, note);
    int main_row = b->nrows - 1;
    if (st.code == GP_OK && o->log)
        fprintf(o->log, "  batchnorm %s: %.4f ms, %.2fx the floor (%.4f ms)%s, checked\n", problem, r.summary.median,
                floor_ms > 0 ? r.summary.median / floor_ms : 0, floor_ms,
                floor_verdict ? (r.summary.median <= 1.3 * floor_ms ? ": within 1.3x: yes" : ": within 1.3x: no")
                              : "");
    if (st.code != GP_OK || !with_baselines) {
        bufs_free(&u);
        return st;
    }
    /* Our items_per_thread variants of the split path (context for the
     * rule), then the fused kernel forced on (all channel counts, its
     * largest limit) where a channel fits it. */
    for (size_t k = 0; k < NITEMS + 1 && st.code == GP_OK; k++) {
        gp_batchnorm_params q = p;
        if (k < NITEMS) {
            q.items = item_variants[k];
            q.fused_max_values = 0;
        } else {
            q.fused_max_values = q.block * GP_BN_FUSED_VPT(q.block), q.fused_min_channels = 1;
            gp_batchnorm_params_fit(&q, &o->dev);
            if (!gp_batchnorm_fused(&q, s))
                break;
        }
        q.note[0] = '\0';
        gp_batchnorm_params_fit(&q, &o->dev);
        bctx xq = {&u, &q, NULL};
        char impl[64], qp[160], qnote[GP_BENCH_TEXT];
        double qfloor = floor_of(&q, s, bytes, gbs, src, o, qnote, sizeof qnote);
        if (k < NITEMS)
            snprintf(impl, sizeof impl, "gpuprobe variant=items%d", q.items);
        else
            snprintf(impl, sizeof impl, "gpuprobe variant=fused");
        gp_batchnorm_params_format(&q, qp, sizeof qp);
        /* Another items count splits a channel over another number of
         * blocks: the workspace is made for the variant, then for p again. */
        gp_batchnorm_ws_destroy(&u.ws);
        st = gp_batchnorm_ws_create(&u.ws, s, &q);
        if (st.code == GP_OK)
            st = gp_bench_time(work_ours, &xq, o->quick, &r);
        if (st.code == GP_OK)
            st = check(&u, impl, 1);
        if (st.code == GP_OK)
            st = gp_bench_add(b, "batchnorm", problem, impl, label, qp, 0, &r, qfloor, qnote);
        gp_batchnorm_ws_destroy(&u.ws);
        gp_status ws = gp_batchnorm_ws_create(&u.ws, s, &p);
        if (st.code == GP_OK)
            st = ws;
    }
    gp_status vs = st.code == GP_OK ? gp_vendor_bn_create(&vb, s->n, s->c, s->h, s->w) : st;
    if (st.code == GP_OK && vs.code == GP_ERR_UNSUPPORTED) {
        if (o->log)
            fprintf(o->log, "  %s: cuDNN baseline skipped: %s\n", problem, vs.msg);
        bufs_free(&u);
        return gp_ok();
    }
    st = vs;
    x.vb = vb;
    if (st.code == GP_OK)
        st = gp_bench_time(work_cudnn, &x, o->quick, &r);
    if (st.code == GP_OK)
        st = check(&u, "cuDNN batchnorm", 1);
    char impl[GP_BENCH_TEXT];
    const char *name = gp_vendor_conv_name();
    snprintf(impl, sizeof impl, "%s BatchNormalizationForwardTraining", name ? name : "cuDNN");
    if (st.code == GP_OK)
        st = gp_bench_add(b, "batchnorm", problem, impl, "", "", 1, &r, floor_ms, note);
    /* The verdict: ours against cuDNN interleaved (ABBA); every
     * round ends with ours, so the output is checked again afterwards. */
    gp_bench_paired pp;
    if (st.code == GP_OK)
        st = gp_bench_pair(work_ours, &x, work_cudnn, &x, o->quick, &pp);
    if (st.code == GP_OK)
        st = check(&u, "batchnorm after the paired loop", 1);
    if (st.code == GP_OK)
        st = gp_bench_set_pair(b, main_row, &pp);
    if (st.code == GP_OK && o->log)
        fprintf(o->log,
                "batchnorm %s: gpuprobe vs cuDNN paired median %.3fx (p10 %.3f, p90 %.3f): at least as fast: %s "
                "(%d rounds ABBA; medians %.4f vs %.4f ms)\n",
                problem, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90,
                gp_bench_verdict_word(gp_bench_pair_at_least(&pp, 1.0)), pp.rounds, pp.a_median_ms, pp.b_median_ms);
    gp_vendor_bn_destroy(vb);
    bufs_free(&u);
    return st;
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    const gp_batchnorm_shape shapes[2] = {{o->quick ? 32 : 128, 64, 56, 56}, {32, 256, 14, 14}};
    GP_TRY(bench_problem(t, label, with_baselines, o, b, &shapes[0], 1));
    return bench_problem(t, label, with_baselines, o, b, &shapes[1], 0);
}

static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    /* Block x items of the split path (the fused limit the base table's,
     * fitted to each block), then the fused path off: a sweep checks both
     * the Little's-law items and the fused rule. */
    static const gp_kcand_keys keys = {"batchnorm", 3, {"block", "items_per_thread", "fused_max_values"}, NULL};
    static const int blocks[] = {256, 512, 1024};
    int rows[3 * NITEMS + 1][3];
    (void)dev;
    for (size_t r = 0; r < 3 * NITEMS; r++)
        rows[r][0] = blocks[r / NITEMS], rows[r][1] = item_variants[r % NITEMS], rows[r][2] = GP_KCAND_KEEP;
    rows[3 * NITEMS][0] = GP_KCAND_KEEP, rows[3 * NITEMS][1] = GP_KCAND_KEEP, rows[3 * NITEMS][2] = 0;
    return gp_kcand_make(&keys, base, &rows[0][0], (int)(3 * NITEMS + 1), out, max, n);
}

/* The floor's model (bench_shape): x read twice and y written, 4-byte
 * floats; about 5 FLOP an element (sum, sum of squares as an FMA, the
 * normalising FMA). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long d[4];
    const char *rest;
    if (!gp_label_dims(problem, d, 4, &rest) || strcmp(rest, " train") != 0)
        return gp_label_unknown("batchnorm", problem, "NxCxHxW train");
    double elems = (double)d[0] * (double)d[1] * (double)d[2] * (double)d[3];
    w->bytes = 3 * 4.0 * elems;
    w->flops = 5 * elems;
    snprintf(w->method, sizeof w->method, "x read twice, y written (4 B each); 5 FLOP/element (sum, sum of squares FMA, "
             "normalising FMA)");
    return gp_ok();
}

const gp_kernel gp_kernel_batchnorm = {
    "batchnorm",
    "batch normalization forward (training with saved mean/invstd, and inference), NCHW fp32 (vs cuDNN)",
    print_params,
    verify,
    bench,
    candidates,
    gp_batchnorm_rule,
    work_of,
};
