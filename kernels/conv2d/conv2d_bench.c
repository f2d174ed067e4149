/* conv2d: verify against the CPU reference, bench against the floor and
 * cuDNN, and the registry entry. */
#include <stdlib.h>
#include <string.h>

#include "conv2d.h"
#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "vendor.h"

#define KNAME "conv2d"

/* Problems above this many FLOPs are checked on a sample of outputs. */
#define FULL_CHECK_FLOPS 3e8
#define SAMPLES 20000
/* cuDNN may pick FFT or Winograd, whose rounding is not bounded like a
 * direct sum's: its output is held to this looser bound, enough to catch a
 * wrong convention (flipped kernel, wrong padding: errors of order 1) while
 * the log prints its actual error. */
#define BASELINE_REL_TOL 1e-3

typedef struct conv_case {
    const char *name;
    gp_conv2d_shape s;
} conv_case;

/* n, in_c, h, w, out_c, kh, kw, pad_h, pad_w */
static const conv_case verify_cases[] = {
    {"1x1x1x1 k1 (tiny)", {1, 1, 1, 1, 1, 1, 1, 0, 0}},
    {"1x3x7x5 k3 valid", {1, 3, 7, 5, 2, 3, 3, 0, 0}},
    {"2x3x33x47 k3 same oc5", {2, 3, 33, 47, 5, 3, 3, 1, 1}},
    {"1x6x67x45 k6 valid", {1, 6, 67, 45, 6, 6, 6, 0, 0}},
    {"1x4x31x29 k5 same oc7", {1, 4, 31, 29, 7, 5, 5, 2, 2}},
    {"1x2x20x23 k7 same oc3", {1, 2, 20, 23, 3, 7, 7, 3, 3}},
    {"1x5x19x21 k2x4 pad 1,0", {1, 5, 19, 21, 3, 2, 4, 1, 0}},
    {"1x3x16x16 k9 same oc4", {1, 3, 16, 16, 4, 9, 9, 4, 4}},
    {"3x16x40x37 k3 oc9 (channel groups)", {3, 16, 40, 37, 9, 3, 3, 0, 0}},
    {"1x1x5x100 k5 (one output row)", {1, 1, 5, 100, 2, 5, 5, 0, 0}},
    {"1x2x4x4 k3 pad 3 (zero border)", {1, 2, 4, 4, 3, 3, 3, 3, 3}},
    {"1x40x13x11 k3 same oc8 (LDS stages)", {1, 40, 13, 11, 8, 3, 3, 1, 1}},
    {"1x2x50x50 k21 same oc3", {1, 2, 50, 50, 3, 21, 21, 10, 10}},
    {"1x2x100x100 k100 (direct fallback)", {1, 2, 100, 100, 2, 100, 100, 0, 0}},
    {"1x6x768x512 k6 valid (seed)", {1, 6, 768, 512, 6, 6, 6, 0, 0}},
    {"1x3x257x300 k7 same oc6", {1, 3, 257, 300, 6, 7, 7, 3, 3}},
    {"2x16x100x130 k5 same oc16", {2, 16, 100, 130, 16, 5, 5, 2, 2}},
};
#define VERIFY_QUICK 14 /* the first cases: small */

/* The bench problems: the seed's (N=1, inC=6, 768x512, 6x6, outC=6, valid)
 * and its neighbours: inC 3 and 16, kernels 3, 5, 7, 'same' padding, and a
 * 4K RGB image (1x3x2160x3840, 5x5, outC=6, 'same'). */
static const conv_case bench_cases[] = {
    {"1x6x768x512 k6 oc6 valid (seed)", {1, 6, 768, 512, 6, 6, 6, 0, 0}},
    {"1x3x768x512 k6 oc6 valid", {1, 3, 768, 512, 6, 6, 6, 0, 0}},
    {"1x16x768x512 k6 oc6 valid", {1, 16, 768, 512, 6, 6, 6, 0, 0}},
    {"1x6x768x512 k3 oc6 valid", {1, 6, 768, 512, 6, 3, 3, 0, 0}},
    {"1x6x768x512 k5 oc6 valid", {1, 6, 768, 512, 6, 5, 5, 0, 0}},
    {"1x6x768x512 k7 oc6 valid", {1, 6, 768, 512, 6, 7, 7, 0, 0}},
    {"1x6x768x512 k5 oc6 same", {1, 6, 768, 512, 6, 5, 5, 2, 2}},
    {"1x3x2160x3840 k5 oc6 same", {1, 3, 2160, 3840, 6, 5, 5, 2, 2}},
};
#define NBENCH (sizeof bench_cases / sizeof bench_cases[0])

/* Parameter sets (tile_x, tile_y, block, out_channels_per_block, variant)
 * timed as extra rows on the sweep problems (the seed's and the 3x3 kernel's)
 * and tried by `gpuprobe tune conv2d`.  With out_c 6 every ocb 8 runs 6
 * channels per thread; tile_y / (block / (tile_x / 4)) rows per thread. */
static const int configs[][5] = {
    {32, 32, 128, 8, 0}, /* 8x16 threads, 4x2 px: the shipped sm_90 set */
    {64, 16, 128, 8, 0}, /* 16x8 threads, 4x2 px: fewer halo columns */
    {32, 16, 64, 8, 0},  /* 8x8 threads, 4x2 px: 768 blocks, finer balance over the SMs */
    {64, 32, 256, 8, 0}, /* 16x16 threads, 4x2 px */
    {32, 64, 256, 8, 0}, /* 8x32 threads, 4x2 px: the gfx900 set */
    {32, 16, 128, 8, 0}, /* 8x16 threads, 4x1 px: twice the warps (memory-bound kernels) */
    {64, 8, 128, 8, 0},  /* 16x8 threads, 4x1 px */
    {64, 16, 256, 8, 0}, /* 16x16 threads, 4x1 px */
    {16, 32, 64, 8, 0},  /* 4x16 threads, 4x2 px */
    {32, 64, 128, 4, 0}, /* 4x4 px x 2 oc (out_c 6: 3 groups) */
    {32, 32, 128, 8, 3}, /* the shipped set, kernel rows rolled */
    {64, 16, 128, 8, 3}, /* rolled */
    {32, 16, 64, 8, 3},  /* rolled */
};
#define NCONFIGS (sizeof configs / sizeof configs[0])
/* Bench problems (indices into bench_cases) that get the config rows. */
static const size_t sweep_cases[] = {0, 3};

static const char *variant_name(int v)
{
    return v == GP_CONV2D_GENERIC ? "generic"
           : v == GP_CONV2D_DIRECT ? "direct"
           : v == GP_CONV2D_ROLLED ? "rolled"
                                   : "auto";
}

static int is_sweep_case(size_t idx)
{
    for (size_t i = 0; i < sizeof sweep_cases / sizeof sweep_cases[0]; i++)
        if (sweep_cases[i] == idx)
            return 1;
    return 0;
}

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_conv2d_plan p;
    char text[320];
    GP_TRY(gp_conv2d_plan_make(t, dev, &bench_cases[0].s, -1, &p));
    gp_conv2d_plan_format(&p, text, sizeof text);
    fprintf(out, "seed problem: %s", text);
    gp_conv2d_shape g = {1, 6, 768, 512, 6, 4, 4, 0, 0};
    GP_TRY(gp_conv2d_plan_make(t, dev, &g, -1, &p));
    gp_conv2d_plan_format(&p, text, sizeof text);
    fprintf(out, " | 4x4 kernel: %s\n", text);
    return gp_ok();
}

/* Host and device buffers of one problem. */
typedef struct conv_bufs {
    gp_conv2d_shape s;
    float *x, *w, *y;        /* host */
    float *dx, *dw, *dy;     /* device */
    size_t xe, we, ye;
} conv_bufs;

static void bufs_free(conv_bufs *b)
{
    free(b->x), free(b->w), free(b->y);
    GP_DEV_FREE(b->dx, b->dw, b->dy);
    memset(b, 0, sizeof *b);
}

static gp_status bufs_make(conv_bufs *b, const gp_conv2d_shape *s, const gp_device_info *dev, uint64_t *rng)
{
    memset(b, 0, sizeof *b);
    b->s = *s;
    GP_TRY(gp_conv2d_check(s, dev->mem_bytes, NULL, NULL));
    b->xe = gp_conv2d_x_elems(s), b->we = gp_conv2d_w_elems(s), b->ye = gp_conv2d_y_elems(s);
    b->x = malloc(b->xe * 4), b->w = malloc(b->we * 4), b->y = malloc(b->ye * 4);
    if (!b->x || !b->w || !b->y) {
        bufs_free(b);
        return gp_fail(GP_ERR_NOMEM, "conv2d: out of host memory");
    }
    gp_fill_uniform_f32(b->x, b->xe, -1.f, 1.f, rng);
    gp_fill_uniform_f32(b->w, b->we, -1.f, 1.f, rng);
    gp_status st = gp_dev_alloc_copy((void **)&b->dx, b->x, b->xe * 4);
    if (st.code == GP_OK)
        st = gp_dev_alloc_copy((void **)&b->dw, b->w, b->we * 4);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&b->dy, b->ye * 4);
    if (st.code != GP_OK)
        bufs_free(b);
    return st;
}

/* ---- verify */

static gp_status verify_case(const gp_table *t, const gp_kernel_opts *o, const conv_case *c, size_t idx)
{
    uint64_t rng = o->seed ^ (0x9E3779B97F4A7C15ull * (idx + 1));
    conv_bufs b;
    GP_TRY(bufs_make(&b, &c->s, &o->dev, &rng));
    double *ref = malloc(b.ye * sizeof *ref), *sa = malloc(b.ye * sizeof *sa);
    gp_status st = ref && sa ? gp_ok() : gp_fail(GP_ERR_NOMEM, "conv2d: out of host memory");
    if (st.code == GP_OK)
        gp_conv2d_ref(&c->s, b.x, b.w, ref, sa);
    const double tol = gp_conv2d_rel_tol(&c->s);
    /* The table's choice, then the generic, the direct and the rolled code on the same data. */
    const int variants[4] = {-1, GP_CONV2D_GENERIC, GP_CONV2D_DIRECT, GP_CONV2D_ROLLED};
    for (int v = 0; v < 4 && st.code == GP_OK; v++) {
        gp_conv2d_plan p;
        char text[320], what[512];
        double max_rel = 0;
        char rule_note[GP_BENCH_TEXT];
        st = gp_conv2d_plan_for_problem(t, &o->dev, &c->s, variants[v], 1, &p, rule_note, sizeof rule_note);
        if (st.code != GP_OK)
            break;
        gp_conv2d_plan_format(&p, text, sizeof text);
        snprintf(what, sizeof what, "conv2d %s [%s]", c->name, text);
        st = gp_dev_poison(b.dy, b.ye * 4);
        if (st.code == GP_OK)
            st = gp_conv2d_run(&p, b.dx, b.dw, b.dy);
        if (st.code == GP_OK)
            st = gp_rt_copy_to_host(b.y, b.dy, b.ye * 4);
        if (st.code == GP_OK)
            st = gp_conv2d_compare(what, &c->s, b.y, ref, sa, tol, &max_rel);
        if (st.code == GP_OK && o->log)
            fprintf(o->log, "  %-38s %-7s ok  max error %.2e x sum|x||w| (tol %.1e)  [%s]\n", c->name,
                    variants[v] < 0 ? "table" : variant_name(variants[v]), max_rel, tol, text);
    }
    free(ref), free(sa);
    bufs_free(&b);
    return st;
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    size_t n = o->quick ? VERIFY_QUICK : sizeof verify_cases / sizeof verify_cases[0];
    for (size_t i = 0; i < n; i++)
        GP_TRY(verify_case(t, o, &verify_cases[i], i));
    return gp_ok();
}

/* ---- bench */

typedef struct run_ctx {
    const gp_conv2d_plan *plan;
    gp_vendor_conv *vendor;
    conv_bufs *b;
} run_ctx;

static gp_status work_ours(void *ctx)
{
    run_ctx *r = ctx;
    return gp_conv2d_run(r->plan, r->b->dx, r->b->dw, r->b->dy);
}

static gp_status work_vendor(void *ctx)
{
    run_ctx *r = ctx;
    return gp_vendor_conv2d_run(r->vendor, r->b->dx, r->b->dw, r->b->dy);
}

/* The timed run's output against the reference: in full for small
 * problems, else on a sample (plus the edges). */
static gp_status check_timed(const char *what, conv_bufs *b, uint64_t seed, double tol, double *max_rel)
{
    GP_TRY(gp_rt_copy_to_host(b->y, b->dy, b->ye * 4));
    if (gp_conv2d_flops(&b->s) <= FULL_CHECK_FLOPS) {
        double *ref = malloc(b->ye * sizeof *ref), *sa = malloc(b->ye * sizeof *sa);
        gp_status st = ref && sa ? gp_ok() : gp_fail(GP_ERR_NOMEM, "conv2d: out of host memory");
        if (st.code == GP_OK) {
            gp_conv2d_ref(&b->s, b->x, b->w, ref, sa);
            st = gp_conv2d_compare(what, &b->s, b->y, ref, sa, tol, max_rel);
        }
        free(ref), free(sa);
        return st;
    }
    return gp_conv2d_compare_sampled(what, &b->s, b->x, b->w, b->y, SAMPLES, seed, tol, max_rel);
}

/* Time one plan of ours on b and add its row. */
static gp_status bench_ours(const conv_case *c, conv_bufs *b, const gp_conv2d_plan *p, const char *impl,
                            const char *table_label, const gp_conv2d_floor *fl, const char *rule_note,
                            const gp_kernel_opts *o, gp_bench *out)
{
    char params[320], what[512];
    gp_harness_result *r = malloc(sizeof *r);
    if (!r)
        return gp_fail(GP_ERR_NOMEM, "conv2d: out of host memory");
    gp_conv2d_plan_format(p, params, sizeof params);
    if (rule_note && rule_note[0]) /* the bench row says the rule sized this launch */
        snprintf(params + strlen(params), sizeof params - strlen(params), "; %s", rule_note);
    snprintf(what, sizeof what, "conv2d bench %s, %s [%s]", c->name, impl, params);
    run_ctx ctx = {p, NULL, b};
    double max_rel = 0;
    gp_status st = gp_dev_poison(b->dy, b->ye * 4);
    if (st.code == GP_OK)
        st = gp_bench_time(work_ours, &ctx, o->quick, r);
    if (st.code == GP_OK)
        st = check_timed(what, b, o->seed + 17, gp_conv2d_rel_tol(&b->s), &max_rel);
    if (st.code == GP_OK) {
        st = gp_bench_add(out, KNAME, c->name, impl, table_label, params, 0, r, fl->ms, fl->note);
        if (o->log)
            fprintf(o->log, "  %-34s %-28s %9.4f ms (floor %.4f), max error %.1e x sum|x||w|\n", c->name, impl,
                    r->summary.median, fl->ms, max_rel);
    }
    free(r);
    return st;
}

static gp_status bench_vendor(const conv_case *c, conv_bufs *b, const gp_conv2d_floor *fl,
                              const gp_kernel_opts *o, gp_bench *out, int *skipped)
{
    const gp_conv2d_shape *s = &b->s;
    gp_vendor_conv *vc = NULL;
    gp_status st = gp_vendor_conv2d_create(&vc, s->n, s->in_c, s->h, s->w, s->out_c, s->kh, s->kw, s->pad_h,
                                           s->pad_w);
    if (st.code == GP_ERR_UNSUPPORTED) {
        if (!*skipped && o->log)
            fprintf(o->log, "  conv2d: the cuDNN baseline is skipped: %s\n", st.msg);
        *skipped = 1;
        return gp_ok();
    }
    if (st.code == GP_ERR_RUNTIME) {
        /* The library is there but failed: say so loudly, keep our rows. */
        if (o->log)
            fprintf(o->log, "  conv2d %s: cuDNN baseline FAILED, no baseline row: %s\n", c->name, st.msg);
        return gp_ok();
    }
    GP_TRY(st);
    gp_harness_result *r = malloc(sizeof *r);
    if (!r) {
        gp_vendor_conv2d_destroy(vc);
        return gp_fail(GP_ERR_NOMEM, "conv2d: out of host memory");
    }
    char impl[GP_BENCH_TEXT], what[256], params[GP_BENCH_TEXT];
    snprintf(impl, sizeof impl, "cuDNN %s", gp_vendor_conv2d_algo(vc));
    snprintf(params, sizeof params, "%s, fp32 FMA math, best of cudnnFindConvolutionForwardAlgorithm",
             gp_vendor_conv_name() ? gp_vendor_conv_name() : "cuDNN");
    snprintf(what, sizeof what, "conv2d bench %s, %s", c->name, impl);
    run_ctx ctx = {NULL, vc, b};
    double max_rel = 0;
    st = gp_dev_poison(b->dy, b->ye * 4);
    if (st.code == GP_OK)
        st = gp_bench_time(work_vendor, &ctx, o->quick, r);
    if (st.code == GP_OK)
        st = check_timed(what, b, o->seed + 29, BASELINE_REL_TOL, &max_rel);
    if (st.code == GP_OK) {
        st = gp_bench_add(out, KNAME, c->name, impl, "", params, 1, r, fl->ms, fl->note);
        if (o->log)
            fprintf(o->log, "  %-34s %-28s %9.4f ms, max error %.1e x sum|x||w| (FMA-exact would be < %.1e)\n",
                    c->name, impl, r->summary.median, max_rel, gp_conv2d_rel_tol(s));
    }
    free(r);
    gp_vendor_conv2d_destroy(vc);
    return st;
}

static gp_status bench_case(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                            gp_bench *out, size_t idx, int *skipped)
{
    const conv_case *c = &bench_cases[idx];
    uint64_t rng = o->seed ^ (0xD1B54A32D192ED03ull * (idx + 1));
    gp_conv2d_floor fl;
    gp_status st = gp_conv2d_floor_of(&c->s, t, &o->dev, &fl);
    if (st.code == GP_ERR_UNSUPPORTED) {
        memset(&fl, 0, sizeof fl);
        st = gp_ok();
    }
    GP_TRY(st);
    conv_bufs b;
    GP_TRY(bufs_make(&b, &c->s, &o->dev, &rng));
    gp_conv2d_plan p;
    char fmt[320], rule_note[GP_BENCH_TEXT];
    /* The rule's values are sized for this input (swept ones kept). */
    st = gp_conv2d_plan_for_problem(t, &o->dev, &c->s, -1, 1, &p, rule_note, sizeof rule_note);
    if (st.code == GP_OK)
        st = bench_ours(c, &b, &p, "gpuprobe", label, &fl, rule_note, o, out);
    if (with_baselines) {
        /* The other code paths on the same problem. */
        gp_conv2d_plan_format(&p, fmt, sizeof fmt);
        const int variants[3] = {GP_CONV2D_GENERIC, GP_CONV2D_DIRECT, GP_CONV2D_ROLLED};
        for (int v = 0; v < 3 && st.code == GP_OK; v++) {
            gp_conv2d_plan q;
            char impl[64], qf[320];
            st = gp_conv2d_plan_make(t, &o->dev, &c->s, variants[v], &q);
            if (st.code != GP_OK)
                break;
            gp_conv2d_plan_format(&q, qf, sizeof qf);
            if (!strcmp(qf, fmt) || q.variant != variants[v]) /* same code, or rolled not compiled here */
                continue;
            snprintf(impl, sizeof impl, "gpuprobe variant=%s", variant_name(variants[v]));
            st = bench_ours(c, &b, &q, impl, label, &fl, NULL, o, out);
        }
        /* Other parameter sets on the sweep problems: a sweep in one run (not in quick mode). */
        for (size_t k = 0; is_sweep_case(idx) && !o->quick && k < NCONFIGS && st.code == GP_OK; k++) {
            gp_conv2d_plan q;
            char impl[GP_BENCH_TEXT], qf[320];
            st = gp_conv2d_plan_fit(configs[k][0], configs[k][1], configs[k][2], configs[k][3], configs[k][4],
                                    &o->dev, &c->s, &q);
            if (st.code != GP_OK)
                break;
            gp_conv2d_plan_format(&q, qf, sizeof qf);
            if (!strcmp(qf, fmt) || (configs[k][4] == GP_CONV2D_ROLLED && q.variant != GP_CONV2D_ROLLED))
                continue;
            snprintf(impl, sizeof impl, "gpuprobe tile_x=%d tile_y=%d block=%d ocb=%d%s", configs[k][0],
                     configs[k][1], configs[k][2], configs[k][3], configs[k][4] == GP_CONV2D_ROLLED ? " rolled" : "");
            st = bench_ours(c, &b, &q, impl, label, &fl, NULL, o, out);
        }
        if (st.code == GP_OK)
            st = bench_vendor(c, &b, &fl, o, out, skipped);
    }
    bufs_free(&b);
    return st;
}

static gp_status bench(const gp_table *t, const char *table_label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    static const size_t quick_set[] = {0, 6};
    int skipped = 0;
    size_t n = o->quick ? sizeof quick_set / sizeof quick_set[0] : NBENCH;
    for (size_t i = 0; i < n; i++)
        GP_TRY(bench_case(t, table_label, with_baselines, o, b, o->quick ? quick_set[i] : i, &skipped));
    return gp_ok();
}

/* ---- tuning candidates: the base table, then each config (all five keys). */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {
        KNAME, 5, {"tile_x", "tile_y", "block", "out_channels_per_block", "variant"}, "swept conv2d candidate"};
    (void)dev;
    return gp_kcand_make(&keys, base, &configs[0][0], (int)NCONFIGS, out, max, n);
}

/* The floor's model (gp_conv2d_floor_of) for a bench case by its name:
 * 2 FLOP per multiply-add, x, w and y moved once. */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    for (size_t i = 0; i < NBENCH; i++)
        if (!strcmp(bench_cases[i].name, problem)) {
            const gp_conv2d_shape *s = &bench_cases[i].s;
            w->flops = gp_conv2d_flops(s);
            w->bytes = 4.0 * (double)(gp_conv2d_x_elems(s) + gp_conv2d_w_elems(s) + gp_conv2d_y_elems(s));
            snprintf(w->method, sizeof w->method, "2 FLOP per multiply-add; x, w and y moved once (4 B each)");
            return gp_ok();
        }
    return gp_label_unknown(KNAME, problem, "one of the bench cases, e.g. '1x6x768x512 k6 oc6 valid (seed)'");
}

const gp_kernel gp_kernel_conv2d = {
    KNAME,
    "direct 2D convolution (cross-correlation), NCHW fp32, stride 1, zero padding; vs cuDNN",
    print_params,
    verify,
    bench,
    candidates,
    gp_conv2d_rule,
    work_of,
};
