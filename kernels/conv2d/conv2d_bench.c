/* conv2d for the driver (kernels/driver.h): its problems (the seed's 1x6x768x512 6x6 convolution, its neighbours
 * and a 4K RGB image), one problem's set-up (data, and the CPU reference once: every output, or for a bench problem
 * above FULL_CHECK_FLOPS the edges and SAMPLES outputs), run and check (|error| <= tol x sum |x||w| per output:
 * conv2d_ref.c), cuDNN as the baseline, our other code paths as context rows, and the gp_kernel entry. */
#include <limits.h>

#include "conv2d.h"
#include "conv2d_vendor.h"
#define GP_KERNEL_NAME conv2d
#include "kernel_decl.h"

/* A bench problem above this many FLOPs is checked on a sample after its timings (verify's cases are checked in
 * full). */
#define FULL_CHECK_FLOPS 3e8
#define SAMPLES 20000
/* cuDNN may pick FFT or Winograd, whose rounding is not bounded like a direct sum's: its output is held to this
 * looser bound, enough to catch a wrong convention (flipped kernel, wrong padding: errors of order 1). */
#define BASELINE_REL_TOL 1e-3

/* The variants (tune's candidates, bench's context rows on the seed's and the 3x3 problem), in the order of
 * conv2d_params.inc: threads 8x16, 16x8, 8x8 (768 blocks: a finer balance over the SMs), 16x16, 8x32 at 4x2 pixels
 * a thread; 8x16, 16x8, 16x16 at 4x1 (twice the warps); 4x16; 4x4 pixels x 2 channels; three with the kernel rows
 * rolled.  With out_c 6 every ocb 8 runs 6 channels a thread. */
static const int variants[][NPARAMS] = {
    {32, 32, 128, 8, 0}, {64, 16, 128, 8, 0}, {32, 16, 64, 8, 0}, {64, 32, 256, 8, 0}, {32, 64, 256, 8, 0},
    {32, 16, 128, 8, 0}, {64, 8, 128, 8, 0},  {64, 16, 256, 8, 0}, {16, 32, 64, 8, 0}, {32, 64, 128, 4, 0},
    {32, 32, 128, 8, 3}, {64, 16, 128, 8, 3}, {32, 16, 64, 8, 3},
};

/* n, in_c, h, w, out_c, kh, kw, pad_h, pad_w.  Verify: tiny, odd, every compiled kernel size and others (2x4, 9,
 * 21), channel groups, LDS stages, one output row, a pad wider than the image, the direct fallback (k100), then
 * the seed's and two larger ones, and a generic 5x3 kernel with pad_w 2 on aligned rows: its LDS rows are copied
 * in 8-byte pairs and end 2 columns into a chunk (the asynchronous copy once left those 2 columns stale). */
static const long long verify_shapes[][9] = {
    {1, 1, 1, 1, 1, 1, 1, 0, 0},       {1, 3, 7, 5, 2, 3, 3, 0, 0},         {2, 3, 33, 47, 5, 3, 3, 1, 1},
    {1, 6, 67, 45, 6, 6, 6, 0, 0},     {1, 4, 31, 29, 7, 5, 5, 2, 2},       {1, 2, 20, 23, 3, 7, 7, 3, 3},
    {1, 5, 19, 21, 3, 2, 4, 1, 0},     {1, 3, 16, 16, 4, 9, 9, 4, 4},       {3, 16, 40, 37, 9, 3, 3, 0, 0},
    {1, 1, 5, 100, 2, 5, 5, 0, 0},     {1, 2, 4, 4, 3, 3, 3, 3, 3},         {1, 40, 13, 11, 8, 3, 3, 1, 1},
    {1, 2, 50, 50, 3, 21, 21, 10, 10}, {1, 2, 100, 100, 2, 100, 100, 0, 0}, {1, 6, 768, 512, 6, 6, 6, 0, 0},
    {1, 3, 257, 300, 6, 7, 7, 3, 3},   {2, 16, 100, 130, 16, 5, 5, 2, 2},   {1, 2, 40, 64, 3, 5, 3, 2, 2},
};
#define NVERIFY ((int)(sizeof verify_shapes / sizeof verify_shapes[0]))
#define VERIFY_QUICK 14 /* the first, small ones: also every variant's cases */

/* The seed's problem and its neighbours: in_c 3 and 16, kernels 3, 5, 7, 'same' padding, and a 4K RGB image. */
static const long long bench_shapes[][9] = {
    {1, 6, 768, 512, 6, 6, 6, 0, 0}, {1, 3, 768, 512, 6, 6, 6, 0, 0}, {1, 16, 768, 512, 6, 6, 6, 0, 0},
    {1, 6, 768, 512, 6, 3, 3, 0, 0}, {1, 6, 768, 512, 6, 5, 5, 0, 0}, {1, 6, 768, 512, 6, 7, 7, 0, 0},
    {1, 6, 768, 512, 6, 5, 5, 2, 2}, {1, 3, 2160, 3840, 6, 5, 5, 2, 2},
};
#define NBENCH ((int)(sizeof bench_shapes / sizeof bench_shapes[0]))

static void shape_set(gp_shape *g, const long long *v)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < 7; i++)
        g->d[i] = v[i];
    g->opt[GP_CONV2D_OPT_PAD_H] = (int)v[7], g->opt[GP_CONV2D_OPT_PAD_W] = (int)v[8];
}

/* ---- shapes: "NxCxHxW kK[xKW] ocO valid|same|pad PH,PW", the seed's labelled "... (seed)" as its bench rows
 * always were */

#define SYNTAX "NxCxHxW kK[xKW] ocO [valid|same|pad PH,PW] (e.g. 1x3x1080x1920 k5 oc16 same)"

/* `word` at *r, then (v not NULL) a number into *v; *r moves past them. */
static int eat(const char **r, const char *word, long long *v)
{
    const size_t l = strlen(word);
    if (strncmp(*r, word, l) || (v && ((*r)[l] < '0' || (*r)[l] > '9')))
        return 0;
    char *e = (char *)*r + l;
    if (v)
        *v = strtoll(*r + l, &e, 10);
    *r = e;
    return 1;
}

static gp_status shape_parse(const char *spec, gp_shape *s)
{
    long long d[9] = {0}; /* the shape_set order */
    const char *r = "";
    int ok = gp_label_dims(spec, d, 4, &r) && eat(&r, " k", &d[5]);
    if (ok && !eat(&r, "x", &d[6]))
        d[6] = d[5];
    ok = ok && eat(&r, " oc", &d[4]);
    if (ok && eat(&r, " same", NULL))
        d[7] = (d[5] - 1) / 2, d[8] = (d[6] - 1) / 2;
    else if (ok && !eat(&r, " valid", NULL) && eat(&r, " pad ", &d[7]))
        ok = eat(&r, ",", &d[8]);
    eat(&r, " (seed)", NULL);
    for (int i = 0; i < 9; i++)
        ok = ok && d[i] <= INT_MAX && (i >= 7 || d[i] >= 1);
    if (!ok || *r)
        return gp_fail(GP_ERR_USAGE, "conv2d: shape '%s' is not %s", spec, SYNTAX);
    shape_set(s, d);
    return gp_ok();
}

static void shape_label(const gp_shape *g, char *buf, size_t n)
{
    const long long *d = g->d, kh = d[GP_CONV2D_DIM_KH], kw = d[GP_CONV2D_DIM_KW];
    const int ph = g->opt[GP_CONV2D_OPT_PAD_H], pw = g->opt[GP_CONV2D_OPT_PAD_W];
    const int same = kh % 2 && kw % 2 && ph == (kh - 1) / 2 && pw == (kw - 1) / 2;
    gp_shape seed;
    char k[48], pad[48];
    shape_set(&seed, bench_shapes[0]);
    snprintf(k, sizeof k, kh == kw ? "k%lld" : "k%lldx%lld", kh, kw);
    snprintf(pad, sizeof pad, ph == 0 && pw == 0 ? "valid" : same ? "same" : "pad %d,%d", ph, pw);
    const int is_seed = !memcmp(d, seed.d, 7 * sizeof *d) && !memcmp(g->opt, seed.opt, 2 * sizeof *g->opt);
    snprintf(buf, n, "%lldx%lldx%lldx%lld %s oc%lld %s%s", d[GP_CONV2D_DIM_N], d[GP_CONV2D_DIM_IN_C],
             d[GP_CONV2D_DIM_H], d[GP_CONV2D_DIM_W], k, d[GP_CONV2D_DIM_OUT_C], pad, is_seed ? " (seed)" : "");
}

/* N 1..8, in_c and out_c 1..64, H and W 1..1024, kernels 1..9 (square two times in three), valid, same or pads
 * 0..4; at most 2^24 elements in x and in y and 5e8 FLOPs (verify checks every output against the double
 * reference).  One draw a statement: the same shapes from a seed whatever the compiler. */
static void shape_random(uint64_t *rng, gp_shape *g)
{
    static const long long hi[5] = {8, 64, 1024, 1024, 64};
    gp_conv2d_shape s;
    long long v[9];
    do {
        for (int i = 0; i < 5; i++)
            v[i] = gp_rand_dim(rng, 1, hi[i]);
        v[5] = 1 + gp_rand_pick(rng, 9);
        v[6] = gp_rand_pick(rng, 3) ? v[5] : 1 + gp_rand_pick(rng, 9);
        const int pads = gp_rand_pick(rng, 3); /* valid, same, other */
        v[7] = pads == 0 ? 0 : pads == 1 ? (v[5] - 1) / 2 : gp_rand_pick(rng, 5);
        v[8] = pads == 0 ? 0 : pads == 1 ? (v[6] - 1) / 2 : gp_rand_pick(rng, 5);
        shape_set(g, v);
        gp_conv2d_shape_of(g, &s);
    } while (gp_conv2d_check(&s, 0, NULL, NULL).code != GP_OK || gp_conv2d_x_elems(&s) > (1u << 24) ||
             gp_conv2d_y_elems(&s) > (1u << 24) || gp_conv2d_flops(&s) > 5e8);
}

/* The floor's model: 2 FLOP per multiply-add; x, w and y moved once. */
static gp_status work(const gp_shape *g, const void *p, gp_kernel_work *w)
{
    gp_conv2d_shape s;
    (void)p;
    GP_TRY(gp_conv2d_shape_of(g, &s));
    GP_TRY(gp_conv2d_check(&s, 0, NULL, NULL));
    w->flops = gp_conv2d_flops(&s);
    w->bytes = 4.0 * (double)(gp_conv2d_x_elems(&s) + gp_conv2d_w_elems(&s) + gp_conv2d_y_elems(&s));
    snprintf(w->method, sizeof w->method, "2 FLOP per multiply-add; x, w and y moved once (4 B each)");
    return gp_ok();
}

/* ---- cases: bench (quick: the seed's and the 'same' 5x5; the variants on the seed's and the 3x3 one, not in
 * quick mode), verify (quick: the small ones), and the small ones for every variant */
static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const int bench = set == GP_CASES_BENCH;
    const int m = bench ? NBENCH : set == GP_CASES_VERIFY && !quick ? NVERIFY : VERIFY_QUICK;
    int n = 0;
    (void)p, (void)dev;
    for (int i = 0; i < m; i++)
        if (!bench || !quick || i == 0 || i == 6) {
            gp_kcase c = {.flags = bench ? GP_KCASE_SAMPLE | (!quick && (i == 0 || i == 3) ? GP_KCASE_VARIANTS : 0)
                                         : 0};
            shape_set(&c.shape, bench ? bench_shapes[i] : verify_shapes[i]);
            n = gp_kcase_add(out, n, max, c);
        }
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    gp_conv2d_shape s;
    const gp_device_info *dev;
    size_t nref;
    float *y;         /* host: the output read back */
    double *ref, *sa; /* the reference of the checked outputs (every one, or idx[]) and sum |x||w| */
    size_t *idx;      /* the sampled outputs; NULL: every output */
    float *dx, *dw, *dy;
    gp_vendor_conv *vc;
} state;

static void teardown(void *st)
{
    state *u = st;
    if (u->vc)
        gp_vendor_conv2d_destroy(u->vc);
}

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *problem)
{
    state *u = problem;
    u->dev = dev;
    const gp_conv2d_shape *s = &u->s;
    GP_TRY(gp_conv2d_shape_of(&c->shape, &u->s));
    GP_TRY(gp_conv2d_check(s, dev ? dev->mem_bytes : 0, NULL, NULL));
    if (c->offset || c->data)
        return gp_fail(GP_ERR_USAGE, "conv2d: aligned buffers of random data only");
    const size_t xe = gp_conv2d_x_elems(s), we = gp_conv2d_w_elems(s), ye = gp_conv2d_y_elems(s);
    const uint64_t seed = gp_rand_u64(rng);
    const int sampled = c->flags & GP_KCASE_SAMPLE && gp_conv2d_flops(s) > FULL_CHECK_FLOPS;
    u->nref = sampled ? gp_conv2d_sample(s, SAMPLES, seed, NULL) : ye;
    float *x = gp_kmem_host(&u->mem, xe * 4), *w = gp_kmem_host(&u->mem, we * 4);
    u->ref = gp_kmem_host(&u->mem, u->nref * sizeof *u->ref), u->sa = gp_kmem_host(&u->mem, u->nref * sizeof *u->sa);
    u->idx = sampled ? gp_kmem_host(&u->mem, u->nref * sizeof *u->idx) : NULL;
    GP_TRY(gp_kmem_ok(&u->mem));
    gp_fill_uniform_f32(x, xe, -1.f, 1.f, rng);
    gp_fill_uniform_f32(w, we, -1.f, 1.f, rng);
    gp_conv2d_ref_checked(s, x, w, SAMPLES, seed, u->idx, u->ref, u->sa);
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->dx, x, xe * 4));
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->dw, w, we * 4));
    return gp_kmem_output(&u->mem, (void **)&u->dy, (void **)&u->y, ye * 4, 0);
}

/* The plan of p, its variant forced unless path < 0 (gp_kmem_plan: made once per parameter set and kept, in prepare
 * or in the untimed first run). */
static gp_status make_plan(void *st, const void *p, int path, void *plan)
{
    const state *u = st;
    return gp_conv2d_plan_make(p, u->dev, &u->s, path, plan);
}

static const gp_kplan_kind plan_kind = {sizeof(gp_conv2d_plan), params, NPARAMS, sizeof(gp_conv2d_params), make_plan,
                                        NULL};

static gp_status prepare(void *st, const void *p) { return gp_kmem_plan(st, &plan_kind, p, -1, NULL); }

/* cuDNN (named by its algorithm once it has one), and ours with the code path forced: skipped where that is the
 * code ours runs for the problem. */
enum { IMPL_CUDNN, IMPL_GENERIC, IMPL_DIRECT, IMPL_ROLLED, NIMPLS };
static char cudnn_impl[GP_BENCH_TEXT] = "cuDNN";
static char cudnn_params[GP_BENCH_TEXT] = "cuDNN, fp32 FMA math, best of cudnnFindConvolutionForwardAlgorithm";
static const gp_kimpl impls[NIMPLS] = {
    {cudnn_impl, 1, 0, 0, 0, cudnn_params},
    {"gpuprobe variant=generic", 0, 0, 0, 0, "our parameters; tiled, the kernel size a run-time value"},
    {"gpuprobe variant=direct", 0, 0, 0, 0, "one output a thread from global memory; our block"},
    {"gpuprobe variant=rolled", 0, 0, 0, 0, "our parameters; the kernel-row loop rolled"},
};
static const int forced[NIMPLS] = {-1, GP_CONV2D_GENERIC, GP_CONV2D_DIRECT, GP_CONV2D_ROLLED};

static gp_status cudnn(state *u)
{
    const gp_conv2d_shape *s = &u->s;
    if (!u->vc) {
        gp_status st = gp_vendor_conv2d_create(&u->vc, s->n, s->in_c, s->h, s->w, s->out_c, s->kh, s->kw, s->pad_h,
                                               s->pad_w);
        if (st.code == GP_ERR_RUNTIME) /* the library is there but failed: say so, keep our rows */
            return gp_fail(GP_ERR_UNSUPPORTED, "cuDNN baseline FAILED: %s", st.msg);
        GP_TRY(st);
        snprintf(cudnn_impl, sizeof cudnn_impl, "cuDNN %s", gp_vendor_conv2d_algo(u->vc));
        snprintf(cudnn_params, sizeof cudnn_params, "%s, fp32 FMA math, best of cudnnFindConvolutionForwardAlgorithm",
                 gp_vendor_conv_name() ? gp_vendor_conv_name() : "cuDNN");
    }
    return gp_vendor_conv2d_run(u->vc, u->dx, u->dw, u->dy);
}

/* Ours (path -1), or ours with the code forced: not where that is the code ours runs for the problem. */
static gp_status launch(state *u, const void *p, int path)
{
    gp_conv2d_plan *ours, *pl; /* ours stays where it is (the plan used last: gp_kmem_plan) */
    GP_TRY(gp_kmem_plan(&u->mem, &plan_kind, p, -1, (void **)&ours));
    GP_TRY(gp_kmem_plan(&u->mem, &plan_kind, p, path, (void **)&pl));
    if (path == GP_CONV2D_ROLLED && pl->variant != GP_CONV2D_ROLLED)
        return gp_fail(GP_ERR_UNSUPPORTED, "the rolled code is not compiled for this shape (%s)", pl->note);
    if (path >= 0 && !memcmp(pl, ours, offsetof(gp_conv2d_plan, note)))
        return gp_fail(GP_ERR_UNSUPPORTED, "the code gpuprobe runs for this problem already");
    return gp_conv2d_run(pl, u->dx, u->dw, u->dy, NULL);
}

static gp_status run(void *st, const void *p) { return launch(st, p, -1); }

static gp_status run_impl(void *st, int impl, const void *p)
{
    return impl == IMPL_CUDNN ? cudnn(st) : launch(st, p, forced[impl]);
}

/* Ours: every output within the fp32 bound of a sum of in_c kh kw terms (sampled: those of the sample); cuDNN
 * within BASELINE_REL_TOL. */
static gp_status check(void *st, const void *p, int impl, const char *what)
{
    state *u = st;
    const double tol = impl == IMPL_CUDNN ? BASELINE_REL_TOL : gp_conv2d_rel_tol(&u->s);
    (void)p;
    return gp_conv2d_compare_at(what, &u->s, u->y, u->idx, u->ref, u->sa, u->nref, tol, NULL);
}

/* Every verify case also with the generic, direct and rolled code (the parameters the case launches with its
 * variant forced; rolled runs the specialized code where it is not compiled, as a launch of it would). */
static gp_status forced_codes(const gp_kernel *k, gp_problem *pr, const gp_table *t, const void *p0,
                              const gp_kernel_opts *o)
{
    gp_conv2d_params q;
    (void)p0;
    GP_TRY(gp_kernel_params(k, t, &o->dev, &pr->c.shape, 1, &q, NULL, 0));
    for (int v = IMPL_GENERIC; v < NIMPLS; v++) {
        char who[64];
        q.variant = forced[v];
        snprintf(who, sizeof who, "%s on the case's parameters", impls[v].name + strlen("gpuprobe "));
        GP_TRY(gp_problem_run_checked(k, pr, &q, -1, who, gp_driver_ops_of(o)));
    }
    return gp_ok();
}

static gp_status verify_extra(const gp_table *t, const void *p0, const gp_kernel_opts *o)
{
    uint64_t rng = o->seed + 1;
    int n = 0;
    GP_TRY(gp_problem_each_case(&gp_kernel_conv2d, GP_CASES_VERIFY, t, p0, o, &rng, forced_codes, &n));
    if (o->log)
        fprintf(o->log, "  conv2d: %d cases also with the generic, direct and rolled code\n", n);
    return gp_ok();
}

const gp_kernel gp_kernel_conv2d = {
    GP_KERNEL_DECLARED,
    .summary = "direct 2D convolution (cross-correlation), NCHW fp32, stride 1, zero padding; vs cuDNN",
    .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random,
    .work = work, .cases = cases, .state_size = sizeof(state), .setup = setup, .prepare = prepare, .run = run,
    .check = check, .teardown = teardown, .impls = impls, .nimpls = NIMPLS, .run_impl = run_impl,
    .verify_extra = verify_extra,
};
