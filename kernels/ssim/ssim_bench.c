/* ssim verify and bench, and the gp_kernel_ssim registry entry.
 *
 * verify: every case on fresh random data from o->seed against the double
 * CPU reference (map within 1e-5 absolute, mean within 1e-5), outputs
 * poisoned first; image kinds random, correlated, constant, near-zero,
 * high-contrast, checkerboard and NaN; odd sizes 33, 65, 127, 257, tiny ones,
 * both borders, every built kernel instantiation (tile_x x variant x
 * vector/scalar loads), determinism, bad input; and the seed's
 * 1x3x2160x3840 (all rows in the full run, a sample of rows in quick mode).
 * bench: 1x3x2160x3840 same and valid, 1x1x1024x1024 same; the naive
 * 121-tap kernel as the baseline; each variant and a small tile sweep as
 * extra rows; every timed output checked on a sample of rows. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "ssim.h"

#define MAP_ATOL 1e-5
#define MEAN_ATOL 1e-5
/* fp32 operations per output pixel of the separable algorithm: 4 moments x
 * 11 taps x 2 passes (88 FMA), 3 products per input pixel (x^2, + y^2, x y),
 * and the SSIM formula (15). */
#define OPS_PER_PIXEL 106

typedef enum {
    IMG_RANDOM,
    IMG_CORRELATED,
    IMG_CONSTANT,
    IMG_NEARZERO,
    IMG_CONTRAST,
    IMG_CHECKER,
    IMG_NAN,
    IMG_KINDS
} img_kind;

static const char *const kind_names[IMG_KINDS] = {"random", "correlated", "constant", "near-zero",
                                                  "high-contrast", "checkerboard", "NaN"};

static void make_images(img_kind k, const gp_ssim_problem *p, float *x, float *y, uint64_t *rng)
{
    size_t n = (size_t)p->in_elems;
    long long w = p->dims.w, h = p->dims.h;
    switch (k) {
    case IMG_CONSTANT: {
        float c1 = (float)gp_rand_uniform(rng, 0, 1), c2 = (float)gp_rand_uniform(rng, 0, 1);
        for (size_t i = 0; i < n; i++)
            x[i] = c1, y[i] = c2;
        break;
    }
    case IMG_NEARZERO:
        gp_fill_uniform_f32(x, n, 0.0f, 1e-3f, rng);
        gp_fill_uniform_f32(y, n, 0.0f, 1e-3f, rng);
        break;
    case IMG_CONTRAST:
        for (size_t i = 0; i < n; i++) {
            uint64_t r = gp_rand_u64(rng);
            x[i] = (float)(r & 1), y[i] = (float)((r >> 1) & 1);
        }
        break;
    case IMG_CHECKER:
        for (size_t i = 0; i < n; i++) {
            long long r = (long long)(i / (size_t)w) % h, c = (long long)(i % (size_t)w);
            x[i] = (float)((r + c) & 1);
            y[i] = (float)(((r >> 1) + c) & 1);
        }
        break;
    case IMG_CORRELATED:
        gp_fill_uniform_f32(x, n, 0.0f, 1.0f, rng);
        for (size_t i = 0; i < n; i++) {
            float v = x[i] + (float)gp_rand_uniform(rng, -0.05, 0.05);
            y[i] = v < 0 ? 0 : v > 1 ? 1 : v;
        }
        break;
    default:
        gp_fill_uniform_f32(x, n, 0.0f, 1.0f, rng);
        gp_fill_uniform_f32(y, n, 0.0f, 1.0f, rng);
        break;
    }
    if (k == IMG_NAN) { /* a corner, an interior pixel, one on a tile edge, and one in y */
        x[0] = NAN;
        x[(size_t)((h / 2) * w + w / 3)] = NAN;
        if (w > 64)
            x[(size_t)((h / 3) * w + 64)] = NAN;
        y[n - 1 - (size_t)(w / 2)] = NAN;
    }
}

/* Device buffers for one problem. */
typedef struct dev_bufs {
    float *x, *y, *map;
    double *mean;
    void *work;
    size_t work_bytes;
} dev_bufs;

static void dev_free(dev_bufs *d)
{
    GP_DEV_FREE(d->x, d->y, d->map, d->mean, d->work);
    memset(d, 0, sizeof *d);
}

static gp_status dev_alloc(dev_bufs *d, const gp_ssim_problem *p, const float *x, const float *y, size_t work)
{
    memset(d, 0, sizeof *d);
    size_t in_bytes = (size_t)p->in_elems * sizeof(float);
    gp_status st = gp_dev_alloc_copy((void **)&d->x, x, in_bytes);
    if (st.code == GP_OK)
        st = gp_dev_alloc_copy((void **)&d->y, y, in_bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&d->map, (size_t)p->map_elems * sizeof(float));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&d->mean, sizeof(double));
    if (st.code == GP_OK)
        st = gp_rt_malloc(&d->work, work);
    d->work_bytes = work;
    if (st.code != GP_OK)
        dev_free(d);
    return st;
}

static size_t work_bytes_for(const gp_ssim_params *prm, const gp_ssim_problem *p, int naive)
{
    size_t a = 0, b = 0;
    if (prm && gp_ssim_workspace_bytes(prm, p, &a).code != GP_OK)
        a = 0;
    if (naive && gp_ssim_naive_workspace_bytes(p, &b).code != GP_OK)
        b = 0;
    return a > b ? a : b;
}

static gp_status run_once(const gp_ssim_params *prm, const gp_ssim_problem *p, dev_bufs *d)
{
    GP_TRY(gp_dev_poison(d->map, (size_t)p->map_elems * sizeof(float)));
    GP_TRY(gp_dev_poison(d->mean, sizeof(double)));
    if (prm)
        GP_TRY(gp_ssim_run(prm, p, d->x, d->y, d->map, (size_t)p->map_elems, d->mean, d->work, d->work_bytes));
    else
        GP_TRY(gp_ssim_naive_run(p, d->x, d->y, d->map, (size_t)p->map_elems, d->mean, d->work, d->work_bytes));
    return gp_rt_synchronize();
}

static void case_name(char *out, size_t n, const gp_ssim_problem *p, const char *kind, const char *impl)
{
    snprintf(out, n, "ssim %lldx%lldx%lldx%lld %s %s (%s)", p->dims.n, p->dims.c, p->dims.h, p->dims.w,
             p->border == GP_SSIM_SAME ? "same" : "valid", kind, impl);
}

/* Compare rows rows[0..nr) of every plane of the GPU map with the reference. */
static gp_status check_rows(const char *what, const gp_ssim_problem *p, const float *x, const float *y,
                            const float *map, const long long *rows, long long nr, double *max_err)
{
    double *ref = malloc(sizeof(double) * (size_t)(nr * p->map_w));
    float *reff = malloc(sizeof(float) * (size_t)(nr * p->map_w));
    float *got = malloc(sizeof(float) * (size_t)(nr * p->map_w));
    if (!ref || !reff || !got) {
        free(ref), free(reff), free(got);
        return gp_fail(GP_ERR_NOMEM, "ssim verify: out of host memory");
    }
    gp_status st = gp_ok();
    double worst = 0;
    for (long long pl = 0; pl < p->planes && st.code == GP_OK; pl++) {
        st = gp_ssim_ref_rows(p, x, y, pl, rows, nr, ref);
        for (long long i = 0; st.code == GP_OK && i < nr; i++)
            for (long long j = 0; j < p->map_w; j++) {
                reff[i * p->map_w + j] = (float)ref[i * p->map_w + j];
                got[i * p->map_w + j] = map[(pl * p->map_h + rows[i]) * p->map_w + j];
            }
        double e = 0;
        char w2[GP_BENCH_TEXT + 64];
        snprintf(w2, sizeof w2, "%s plane %lld (element = sampled row index x map_w + column)", what, pl);
        if (st.code == GP_OK)
            st = gp_compare_f32(w2, got, reff, (size_t)(nr * p->map_w), MAP_ATOL, 0.0, &e);
        if (e > worst)
            worst = e;
    }
    free(ref), free(reff), free(got);
    if (max_err)
        *max_err = worst;
    return st;
}

/* The mean against the double sum of the GPU map itself (consistency of the
 * reduction) and, when ref_mean is not NULL, against the reference. */
static gp_status check_mean(const char *what, const gp_ssim_problem *p, const float *map, double mean,
                            const double *ref_mean)
{
    double s = 0;
    for (long long i = 0; i < p->map_elems; i++)
        s += map[i];
    double host = s / (double)p->map_elems;
    if (isnan(host) || (ref_mean && isnan(*ref_mean))) {
        if (!isnan(mean))
            return gp_fail(GP_ERR_CHECK, "%s: mean %.9g, expected NaN (the map holds NaN)", what, mean);
        return gp_ok();
    }
    if (!(fabs(mean - host) <= 1e-6))
        return gp_fail(GP_ERR_CHECK, "%s: mean %.9g differs from the sum of its own map %.9g", what, mean, host);
    if (ref_mean && !(fabs(mean - *ref_mean) <= MEAN_ATOL))
        return gp_fail(GP_ERR_CHECK, "%s: mean %.9g, reference %.9g (error %.3g > %.0e)", what, mean, *ref_mean,
                       fabs(mean - *ref_mean), MEAN_ATOL);
    return gp_ok();
}

/* One verify case: fresh images of `kind`, GPU (params, or naive when prm is
 * NULL) against the reference.  sample_rows > 0 checks only that many rows
 * per plane (first, last and random ones) and the mean against the map. */
static gp_status verify_case(const gp_ssim_params *prm, const gp_ssim_dims *dims, gp_ssim_border border,
                             img_kind kind, long long sample_rows, uint64_t *rng, const gp_kernel_opts *o)
{
    gp_ssim_problem p;
    GP_TRY(gp_ssim_problem_init(&p, dims, dims, border));
    char what[GP_BENCH_TEXT + 96], ps[200];
    if (prm)
        gp_ssim_params_format(prm, &p, ps, sizeof ps);
    else
        snprintf(ps, sizeof ps, "naive");
    case_name(what, sizeof what, &p, kind_names[kind], ps);
    float *x = malloc(sizeof(float) * (size_t)p.in_elems), *y = malloc(sizeof(float) * (size_t)p.in_elems);
    float *map = malloc(sizeof(float) * (size_t)p.map_elems);
    long long nr = sample_rows > 0 && sample_rows < p.map_h ? sample_rows : p.map_h;
    long long *rows = malloc(sizeof(long long) * (size_t)nr);
    if (!x || !y || !map || !rows) {
        free(x), free(y), free(map), free(rows);
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory", what);
    }
    make_images(kind, &p, x, y, rng);
    if (nr == p.map_h) {
        for (long long i = 0; i < nr; i++)
            rows[i] = i;
    } else { /* 6 first, 6 last, the rest random; sorted, distinct */
        long long k = 0;
        for (long long i = 0; i < 6; i++)
            rows[k++] = i;
        for (long long i = 0; i < nr - 12; i++)
            rows[k++] = 6 + (long long)((p.map_h - 12) * ((double)i + gp_rand_uniform(rng, 0, 1)) / (nr - 12));
        for (long long i = 0; i < 6; i++)
            rows[k++] = p.map_h - 6 + i;
    }
    dev_bufs d;
    double mean = 0, err = 0;
    gp_status st = dev_alloc(&d, &p, x, y, work_bytes_for(prm, &p, prm == NULL));
    if (st.code == GP_OK) {
        st = run_once(prm, &p, &d);
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(map, d.map, (size_t)p.map_elems * sizeof(float));
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(&mean, d.mean, sizeof mean);
        dev_free(&d);
    }
    if (st.code == GP_OK)
        st = check_rows(what, &p, x, y, map, rows, nr, &err);
    if (st.code == GP_OK) {
        double ref_mean = 0;
        int full = nr == p.map_h;
        if (full)
            st = gp_ssim_ref(&p, x, y, NULL, &ref_mean);
        if (st.code == GP_OK)
            st = check_mean(what, &p, map, mean, full ? &ref_mean : NULL);
        if (st.code == GP_OK)
            fprintf(o->log, "  ok  %s: max |error| %.2e over %lld rows/plane, mean %.9f%s\n", what, err, nr, mean,
                    full ? " (= reference)" : " (= sum of map)");
    }
    free(x), free(y), free(map), free(rows);
    return st;
}

/* A copy of the table with kernel.ssim keys overridden (<= 0: keep). */
static gp_status params_with(const gp_table *t, const gp_device_info *dev, int tile_x, int tile_y, int block,
                             int variant, gp_ssim_params *p)
{
    gp_table *c = malloc(sizeof *c);
    if (!c)
        return gp_fail(GP_ERR_NOMEM, "ssim: out of host memory");
    *c = *t;
    gp_status st = gp_ok();
    if (tile_x > 0)
        st = gp_table_set(c, "kernel.ssim", "tile_x", tile_x, "rule ssim_sweep");
    if (st.code == GP_OK && tile_y > 0)
        st = gp_table_set(c, "kernel.ssim", "tile_y", tile_y, "rule ssim_sweep");
    if (st.code == GP_OK && block > 0)
        st = gp_table_set(c, "kernel.ssim", "block", block, "rule ssim_sweep");
    if (st.code == GP_OK && variant >= 0)
        st = gp_table_set(c, "kernel.ssim", "variant", variant, "rule ssim_sweep");
    if (st.code == GP_OK)
        st = gp_ssim_params_from_table(c, dev, p);
    free(c);
    return st;
}

static gp_status expect_code(const char *what, gp_status st, int code, FILE *log)
{
    if (st.code != code)
        return gp_fail(GP_ERR_CHECK, "ssim bad input '%s': got code %d (%s), expected %d", what, st.code, st.msg,
                       code);
    fprintf(log, "  ok  bad input %s: %s\n", what, st.msg);
    return gp_ok();
}

static gp_status verify_bad_input(const gp_ssim_params *prm, const gp_kernel_opts *o)
{
    gp_ssim_problem p;
    gp_ssim_dims a = {1, 1, 33, 33}, b = {1, 1, 33, 34}, z = {1, 0, 33, 33}, tiny = {1, 1, 10, 40};
    gp_ssim_dims huge = {1, 1, 1ll << 20, 1ll << 20}, over = {2, 1, 1ll << 20, 1ll << 20};
    GP_TRY(expect_code("mismatched shapes", gp_ssim_problem_init(&p, &a, &b, GP_SSIM_SAME), GP_ERR_USAGE, o->log));
    GP_TRY(expect_code("zero size", gp_ssim_problem_init(&p, &z, &z, GP_SSIM_SAME), GP_ERR_USAGE, o->log));
    GP_TRY(expect_code("valid on 10x40", gp_ssim_problem_init(&p, &tiny, &tiny, GP_SSIM_VALID), GP_ERR_USAGE,
                       o->log));
    GP_TRY(expect_code("2^41 pixels", gp_ssim_problem_init(&p, &over, &over, GP_SSIM_SAME), GP_ERR_NOMEM, o->log));
    GP_TRY(gp_ssim_problem_init(&p, &huge, &huge, GP_SSIM_SAME));
    float dummy = 0;
    double dm = 0;
    GP_TRY(expect_code("2^40 pixels on the device", gp_ssim_forward(prm, &p, &dummy, &dummy, &dummy, &dm),
                       GP_ERR_NOMEM, o->log));
    /* a map buffer one float short: refused before any launch */
    GP_TRY(gp_ssim_problem_init(&p, &a, &a, GP_SSIM_SAME));
    dev_bufs d;
    float *h = calloc((size_t)p.in_elems, sizeof(float));
    if (!h)
        return gp_fail(GP_ERR_NOMEM, "ssim verify: out of host memory");
    gp_status st = dev_alloc(&d, &p, h, h, work_bytes_for(prm, &p, 0));
    free(h);
    GP_TRY(st);
    st = gp_ssim_run(prm, &p, d.x, d.y, d.map, (size_t)p.map_elems - 1, d.mean, d.work, d.work_bytes);
    dev_free(&d);
    return expect_code("map one float short", st, GP_ERR_USAGE, o->log);
}

/* Bitwise reproducibility of map and mean over two runs. */
static gp_status verify_deterministic(const gp_ssim_params *prm, uint64_t *rng, const gp_kernel_opts *o)
{
    gp_ssim_problem p;
    gp_ssim_dims dm = {1, 2, 257, 257};
    GP_TRY(gp_ssim_problem_init(&p, &dm, &dm, GP_SSIM_SAME));
    size_t n = (size_t)p.in_elems;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    float *m1 = malloc(n * sizeof(float)), *m2 = malloc(n * sizeof(float));
    if (!x || !y || !m1 || !m2) {
        free(x), free(y), free(m1), free(m2);
        return gp_fail(GP_ERR_NOMEM, "ssim verify: out of host memory");
    }
    make_images(IMG_RANDOM, &p, x, y, rng);
    dev_bufs d;
    double e1 = 0, e2 = 0;
    gp_status st = dev_alloc(&d, &p, x, y, work_bytes_for(prm, &p, 0));
    if (st.code == GP_OK) {
        st = run_once(prm, &p, &d);
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(m1, d.map, n * sizeof(float));
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(&e1, d.mean, sizeof e1);
        if (st.code == GP_OK)
            st = run_once(prm, &p, &d);
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(m2, d.map, n * sizeof(float));
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(&e2, d.mean, sizeof e2);
        dev_free(&d);
    }
    if (st.code == GP_OK && (memcmp(m1, m2, n * sizeof(float)) || memcmp(&e1, &e2, sizeof e1)))
        st = gp_fail(GP_ERR_CHECK, "ssim: two runs on the same input differ (map or mean %.17g vs %.17g)", e1, e2);
    if (st.code == GP_OK)
        fprintf(o->log, "  ok  two runs bitwise identical (mean %.17g)\n", e1);
    free(x), free(y), free(m1), free(m2);
    return st;
}

/* One case with the parameters a launch of these dims uses (the rule's
 * values re-derived for them, as bench does). */
static gp_status verify_sized(const gp_table *t, const gp_ssim_dims *dims, gp_ssim_border border, img_kind k,
                              uint64_t *rng, const gp_kernel_opts *o)
{
    gp_ssim_params prm;
    char rule_note[GP_BENCH_TEXT];
    GP_TRY(gp_ssim_params_for_problem(t, &o->dev, dims, 1, &prm, rule_note, sizeof rule_note));
    return verify_case(&prm, dims, border, k, 0, rng, o);
}

static gp_status ssim_verify(const gp_table *t, const gp_kernel_opts *o)
{
    gp_ssim_params prm;
    GP_TRY(gp_ssim_params_from_table(t, &o->dev, &prm));
    uint64_t rng = o->seed;
    fprintf(o->log, "ssim verify: seed %llu, map within %.0e, mean within %.0e of the double reference%s\n",
            (unsigned long long)o->seed, MAP_ATOL, MEAN_ATOL, o->quick ? " (quick)" : "");

    /* odd sizes x borders x image kinds */
    static const gp_ssim_dims odd[] = {{1, 1, 33, 33}, {1, 2, 65, 65}, {2, 1, 127, 127}, {1, 1, 257, 257}};
    int nodd = o->quick ? 2 : 4;
    for (int s = 0; s < nodd; s++)
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < IMG_KINDS; k++) {
                if (o->quick && k != IMG_RANDOM && k != IMG_CONSTANT && k != IMG_NEARZERO && k != IMG_CONTRAST &&
                    k != IMG_NAN)
                    continue;
                GP_TRY(verify_sized(t, &odd[s], (gp_ssim_border)b, (img_kind)k, &rng, o));
            }

    /* tiny and vector-load shapes */
    static const struct {
        gp_ssim_dims d;
        gp_ssim_border b;
    } small[] = {{{1, 1, 1, 1}, GP_SSIM_SAME},     {{1, 1, 3, 5}, GP_SSIM_SAME},     {{1, 1, 11, 11}, GP_SSIM_VALID},
                 {{1, 1, 11, 40}, GP_SSIM_VALID},  {{1, 1, 12, 64}, GP_SSIM_SAME},   {{1, 1, 12, 64}, GP_SSIM_VALID},
                 {{1, 3, 64, 128}, GP_SSIM_SAME},  {{1, 3, 64, 128}, GP_SSIM_VALID}, {{2, 1, 100, 36}, GP_SSIM_SAME},
                 {{1, 1, 300, 17}, GP_SSIM_SAME}};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        GP_TRY(verify_sized(t, &small[i].d, small[i].b, IMG_RANDOM, &rng, o));

    /* every built instantiation: tile_x x variant, scalar (w % 4 != 0) and
     * float4 loads, several strips and row groups per block */
    static const gp_ssim_dims inst[] = {{1, 1, 70, 67}, {1, 2, 45, 96}};
    static const int txs[] = {32, 64, 128};
    for (int v = 0; v < GP_SSIM_NVARIANTS; v++)
        for (int i = 0; i < 3; i++)
            for (int s = 0; s < 2; s++) {
                if (o->quick && s == 1 && i != 1)
                    continue;
                gp_ssim_params q;
                GP_TRY(params_with(t, &o->dev, txs[i], 16 + 5 * i, 2 * txs[i], v, &q));
                GP_TRY(verify_case(&q, &inst[s], (gp_ssim_border)(s & 1), (img_kind)(i % 2 ? IMG_CORRELATED : IMG_RANDOM),
                                   0, &rng, o));
            }

    /* the naive baseline the bench compares with */
    GP_TRY(verify_case(NULL, &odd[1], GP_SSIM_SAME, IMG_RANDOM, 0, &rng, o));
    GP_TRY(verify_case(NULL, &odd[0], GP_SSIM_VALID, IMG_NAN, 0, &rng, o));

    GP_TRY(verify_deterministic(&prm, &rng, o));
    GP_TRY(verify_bad_input(&prm, o));

    /* the seed's problem: every row in the full run, 24 rows per plane in quick mode */
    static const gp_ssim_dims big = {1, 3, 2160, 3840};
    GP_TRY(verify_case(&prm, &big, GP_SSIM_SAME, IMG_RANDOM, o->quick ? 24 : 0, &rng, o));
    GP_TRY(verify_case(&prm, &big, GP_SSIM_VALID, IMG_CORRELATED, o->quick ? 24 : 0, &rng, o));
    return gp_ok();
}

/* ---- bench */

typedef struct timed_ctx {
    const gp_ssim_params *prm; /* NULL: naive */
    const gp_ssim_problem *p;
    dev_bufs *d;
} timed_ctx;

static gp_status timed_work(void *ctx)
{
    timed_ctx *c = ctx;
    if (c->prm)
        return gp_ssim_run(c->prm, c->p, c->d->x, c->d->y, c->d->map, (size_t)c->p->map_elems, c->d->mean,
                           c->d->work, c->d->work_bytes);
    return gp_ssim_naive_run(c->p, c->d->x, c->d->y, c->d->map, (size_t)c->p->map_elems, c->d->mean, c->d->work,
                             c->d->work_bytes);
}

static double table_num(const gp_table *t, const char *s, const char *k, double dflt)
{
    double v;
    return gp_table_get_double(t, s, k, &v).code == GP_OK && v > 0 ? v : dflt;
}

/* Floor: the larger of DRAM time (2 images read + map written) and fp32
 * issue time (OPS_PER_PIXEL per output pixel at the table's measured FP32
 * rate). */
static double floor_ms(const gp_table *t, const gp_device_info *dev, const gp_ssim_problem *p, char *note, size_t n)
{
    double bytes = 4.0 * (2.0 * (double)p->in_elems + (double)p->map_elems);
    double peak_gbs = dev->mem_bus_bits / 8.0 * dev->mem_clock_mhz * 2.0 / 1000.0;
    double gbs = table_num(t, "dram", "bandwidth_gbs", peak_gbs);
    double mem_ms = gbs > 0 ? bytes / (gbs * 1e9) * 1e3 : 0;
    double lanes = table_num(t, "compute", "fp32_fma_per_cycle_per_cu", 64);
    double mhz = table_num(t, "device", "clock_mhz", dev->core_clock_mhz);
    double rate = dev->compute_units * lanes * mhz * 1e6; /* fp32 instructions per second */
    double cmp_ms = rate > 0 ? (double)p->map_elems * OPS_PER_PIXEL / rate * 1e3 : 0;
    if (cmp_ms >= mem_ms)
        snprintf(note, n, "fp32 %d op/px x %.1f Mpx at %d CU x %.0f x %.0f MHz; DRAM %.0f MB would take %.3f ms",
                 OPS_PER_PIXEL, p->map_elems / 1e6, dev->compute_units, lanes, mhz, bytes / 1e6, mem_ms);
    else
        snprintf(note, n, "DRAM %.0f MB at %.0f GB/s; fp32 would take %.3f ms", bytes / 1e6, gbs, cmp_ms);
    return cmp_ms > mem_ms ? cmp_ms : mem_ms;
}

/* Grow the workspace when a configuration needs more than it holds. */
static gp_status ensure_work(dev_bufs *d, const gp_ssim_params *prm, const gp_ssim_problem *p)
{
    size_t need = work_bytes_for(prm, p, prm == NULL);
    if (need <= d->work_bytes)
        return gp_ok();
    if (d->work)
        gp_rt_free(d->work);
    d->work = NULL;
    d->work_bytes = 0;
    GP_TRY(gp_rt_malloc(&d->work, need));
    d->work_bytes = need;
    return gp_ok();
}

/* Time one implementation, then check the timed output: sampled rows
 * against the reference, the mean against the map. */
static gp_status bench_one(const gp_ssim_params *prm, const gp_ssim_problem *p, dev_bufs *d, const float *x,
                           const float *y, float *map, const long long *rows, long long nr, const char *problem,
                           const char *impl, const char *label, int is_baseline, double fl, const char *note,
                           const char *rule_note, const gp_kernel_opts *o, gp_bench *b)
{
    timed_ctx c = {prm, p, d};
    gp_harness_result *r = malloc(sizeof *r);
    if (!r)
        return gp_fail(GP_ERR_NOMEM, "ssim bench: out of host memory");
    gp_status st = ensure_work(d, prm, p);
    if (st.code == GP_OK)
        st = gp_dev_poison(d->map, (size_t)p->map_elems * sizeof(float));
    if (st.code == GP_OK)
        st = gp_bench_time(timed_work, &c, o->quick, r);
    char ps[200], what[GP_BENCH_TEXT * 2 + 8];
    if (prm) {
        gp_ssim_params_format(prm, p, ps, sizeof ps);
        if (rule_note && rule_note[0]) /* the bench row says the rule sized this launch */
            snprintf(ps + strlen(ps), sizeof ps - strlen(ps), "; %s", rule_note);
    } else
        snprintf(ps, sizeof ps, "one thread per pixel, 121 taps x 5 moments, block 256");
    snprintf(what, sizeof what, "%s %s", problem, impl);
    double mean = 0, err = 0;
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(map, d->map, (size_t)p->map_elems * sizeof(float));
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(&mean, d->mean, sizeof mean);
    if (st.code == GP_OK)
        st = check_rows(what, p, x, y, map, rows, nr, &err);
    if (st.code == GP_OK)
        st = check_mean(what, p, map, mean, NULL);
    if (st.code == GP_OK) {
        fprintf(o->log, "  %s: %.4f ms median, timed output ok (max |error| %.2e on %lld rows/plane, mean %.7f)\n",
                what, r->summary.median, err, nr, mean);
        st = gp_bench_add(b, "ssim", problem, impl, is_baseline ? "" : label, ps, is_baseline, r, fl, note);
    }
    free(r);
    return st;
}

static gp_status bench_problem(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                               gp_bench *b, const gp_ssim_dims *dims, gp_ssim_border border, uint64_t *rng)
{
    gp_ssim_problem p;
    gp_ssim_params prm;
    char problem[GP_BENCH_TEXT], note[GP_BENCH_TEXT], rule_note[GP_BENCH_TEXT];
    GP_TRY(gp_ssim_problem_init(&p, dims, dims, border));
    /* The rule's values are sized for this image (swept ones kept). */
    GP_TRY(gp_ssim_params_for_problem(t, &o->dev, dims, 1, &prm, rule_note, sizeof rule_note));
    snprintf(problem, sizeof problem, "%lldx%lldx%lldx%lld %s", dims->n, dims->c, dims->h, dims->w,
             border == GP_SSIM_SAME ? "same" : "valid");
    double fl = floor_ms(t, &o->dev, &p, note, sizeof note);
    float *x = malloc(sizeof(float) * (size_t)p.in_elems), *y = malloc(sizeof(float) * (size_t)p.in_elems);
    float *map = malloc(sizeof(float) * (size_t)p.map_elems);
    long long rows[16], nr = p.map_h < 16 ? p.map_h : 16;
    if (!x || !y || !map) {
        free(x), free(y), free(map);
        return gp_fail(GP_ERR_NOMEM, "ssim bench: out of host memory");
    }
    for (long long i = 0; i < nr; i++) /* first 5, last 5, 6 spread between */
        rows[i] = i < 5 ? i : i >= nr - 5 ? p.map_h - (nr - i) : 5 + (p.map_h - 10) * (i - 4) / (nr - 9);
    make_images(IMG_RANDOM, &p, x, y, rng);
    dev_bufs d;
    gp_status st = dev_alloc(&d, &p, x, y, work_bytes_for(&prm, &p, with_baselines));
    if (st.code == GP_OK)
        st = bench_one(&prm, &p, &d, x, y, map, rows, nr, problem, "gpuprobe", label, 0, fl, note, rule_note, o, b);
    if (st.code == GP_OK && with_baselines) {
        st = bench_one(NULL, &p, &d, x, y, map, rows, nr, problem, "naive fused (121 taps per pixel)", label, 1, fl,
                       note, NULL, o, b);
        /* each variant, and a small sweep of the strip geometry on the big problem */
        int big = p.map_elems > 8000000;
        static const int txs[] = {32, 64, 128}, tys[] = {128, 256};
        for (int v = 0; v < GP_SSIM_NVARIANTS && st.code == GP_OK; v++)
            for (int i = 0; i < (big && !o->quick ? 3 : 1) && st.code == GP_OK; i++)
                for (int j = 0; j < (big && !o->quick ? 2 : 1) && st.code == GP_OK; j++) {
                    gp_ssim_params q;
                    char impl[GP_BENCH_TEXT];
                    if (big && !o->quick) {
                        st = params_with(t, &o->dev, txs[i], tys[j], txs[i] < 64 ? 64 : txs[i], v, &q);
                        snprintf(impl, sizeof impl, "gpuprobe variant=%s tile_x=%d tile_y=%d",
                                 v == GP_SSIM_VARIANT_DIRECT ? "direct" : "prefetch", txs[i], tys[j]);
                    } else {
                        st = params_with(t, &o->dev, 0, 0, 0, v, &q);
                        snprintf(impl, sizeof impl, "gpuprobe variant=%s",
                                 v == GP_SSIM_VARIANT_DIRECT ? "direct" : "prefetch");
                    }
                    if (st.code == GP_OK)
                        st = bench_one(&q, &p, &d, x, y, map, rows, nr, problem, impl, label, 0, fl, note, NULL, o,
                                       b);
                }
    }
    dev_free(&d);
    free(x), free(y), free(map);
    return st;
}

static gp_status ssim_bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                            gp_bench *b)
{
    static const gp_ssim_dims big = {1, 3, 2160, 3840}, mid = {1, 1, 1024, 1024};
    uint64_t rng = o->seed;
    GP_TRY(bench_problem(t, label, with_baselines, o, b, &big, GP_SSIM_SAME, &rng));
    GP_TRY(bench_problem(t, label, with_baselines, o, b, &big, GP_SSIM_VALID, &rng));
    return bench_problem(t, label, with_baselines, o, b, &mid, GP_SSIM_SAME, &rng);
}

static gp_status ssim_print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_ssim_params p;
    GP_TRY(gp_ssim_params_from_table(t, dev, &p));
    char s[200];
    gp_ssim_params_format(&p, NULL, s, sizeof s);
    fprintf(out, "%s%s%s%s\n", s, p.note[0] ? " (clamped: " : "", p.note, p.note[0] ? ")" : "");
    return gp_ok();
}

/* Tuning sweep (`gpuprobe tune ssim`): the base table first, then strip
 * geometry x variant (one row group per block, two for tile_x 32: blocks
 * have at least 64 threads), and twice that for the middle width.  Every
 * candidate is a legal table. */
static gp_status ssim_candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"ssim", 4, {"tile_x", "tile_y", "block", "variant"}, NULL};
    static const int txs[] = {32, 64, 128}, tys[] = {64, 128, 256, 512};
    int rows[GP_SSIM_NVARIANTS * 13][4], nrows = 0;
    (void)dev;
    for (int v = 0; v < GP_SSIM_NVARIANTS; v++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4 + (i == 1); j++, nrows++) {
                int tx = txs[i];
                rows[nrows][0] = tx, rows[nrows][1] = j < 4 ? tys[j] : 256;
                rows[nrows][2] = (j < 4 ? 1 : 2) * (tx < 64 ? 64 : tx), rows[nrows][3] = v;
            }
    return gp_kcand_make(&keys, base, &rows[0][0], nrows, out, max, n);
}

/* The floor's model (floor_ms): both images read and the map written;
 * OPS_PER_PIXEL fp32 instructions an output pixel, each an FMA issue slot
 * (2 FLOP), as the floor counts them against the FMA rate. */
static gp_status ssim_work(const char *problem, gp_kernel_work *w)
{
    long long d[4];
    const char *rest;
    gp_ssim_problem p;
    if (!gp_label_dims(problem, d, 4, &rest) || (strcmp(rest, " same") && strcmp(rest, " valid")))
        return gp_label_unknown("ssim", problem, "NxCxHxW same|valid");
    gp_ssim_dims dims = {d[0], d[1], d[2], d[3]};
    gp_status st = gp_ssim_problem_init(&p, &dims, &dims, strcmp(rest, " same") ? GP_SSIM_VALID : GP_SSIM_SAME);
    if (st.code != GP_OK)
        return gp_label_unknown("ssim", problem, st.msg);
    w->bytes = 4.0 * (2.0 * (double)p.in_elems + (double)p.map_elems);
    w->flops = 2.0 * OPS_PER_PIXEL * (double)p.map_elems;
    snprintf(w->method, sizeof w->method, "x and y read, map written (4 B each); %d fp32 issue slots a pixel at "
             "2 FLOP each", OPS_PER_PIXEL);
    return gp_ok();
}

const gp_kernel gp_kernel_ssim = {
    "ssim",
    "fused SSIM forward (11x11 Gaussian, same/valid): map and mean",
    ssim_print_params,
    ssim_verify,
    ssim_bench,
    ssim_candidates,
    gp_ssim_rule,
    ssim_work,
};
