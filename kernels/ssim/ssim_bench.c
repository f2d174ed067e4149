/* ssim for the driver (kernels/driver.h): its problems (seven image kinds; odd and tiny sizes, both borders, the
 * 4K RGB frame), one problem's set-up (the double reference of the checked rows, once), run and check (ssim_ref.c),
 * the naive 121-tap kernel as the baseline, the checks that are not a case, and the gp_kernel entry. */
#include "ssim.h"
#define GP_KERNEL_NAME ssim
#include "kernel_decl.h"

#define MAP_ATOL 1e-5  /* each checked pixel of the map */
#define MEAN_ATOL 1e-5 /* the mean against the reference's (against its own map's: 1e-6) */
/* fp32 operations per output pixel of the separable algorithm: 4 moments x 11 taps x 2 passes (88 FMA), 3
 * products per input pixel (x^2, + y^2, x y), and the SSIM formula (15). */
#define OPS_PER_PIXEL 106
#define SAMPLE_ROWS 24          /* a sampled problem's checked rows a plane: 6 first, 6 last, 12 between */
#define CHUNK ((size_t)1 << 20) /* map floats copied back at a time */

/* The variants (tune's candidates, bench's context rows on the 4K frame), in the order of ssim_params.inc
 * (tile_x, tile_y, block, variant): strip geometry x variant, one row group a block (blocks of at least 64
 * threads: two groups of 32), the middle width also with two groups; then each variant on the base geometry. */
#define GEOMETRIES(v)                                                                                              \
    {32, 64, 64, v}, {32, 128, 64, v}, {32, 256, 64, v}, {32, 512, 64, v}, {64, 64, 64, v}, {64, 128, 64, v},     \
        {64, 256, 64, v}, {64, 512, 64, v}, {64, 256, 128, v}, {128, 64, 128, v}, {128, 128, 128, v},            \
        {128, 256, 128, v}, {128, 512, 128, v}
#define K GP_PARAM_KEEP
static const int variants[][NPARAMS] = {GEOMETRIES(0), GEOMETRIES(1), {K, K, K, 0}, {K, K, K, 1}};
#undef K

/* Image kinds (gp_kcase.data: gp_ssim_fill); quick verify runs five of them on its odd sizes. */
static const char *const kind_names[GP_SSIM_KINDS] = {"random", "correlated", "constant", "near-zero",
                                                      "high-contrast", "checkerboard", "NaN"};
#define QUICK_KINDS (~(1 << GP_SSIM_CORRELATED | 1 << GP_SSIM_CHECKER))

enum { IMPL_NAIVE, NIMPLS };
static const gp_kimpl impls[NIMPLS] = {
    {"naive fused (121 taps per pixel)", 1, 0, 0, 1, "one thread per pixel, 121 taps x 5 moments, block 256"},
};

/* ---- shapes: "NxCxHxW same|valid" (the bench labels, verify's with the image kind); the border defaults to same */

#define SYNTAX "NxCxHxW [same|valid] (images, border same by default, e.g. 1x3x2160x3840 same)"
static const gp_shape_format format = {4, .words = {{GP_SSIM_SHAPE_BORDER, {"same", "valid"}}}, .kinds = kind_names,
                                       .nkinds = GP_SSIM_KINDS, .kind_from = 1};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
static void case_label(const gp_kcase *c, char *buf, size_t n) { gp_shape_format_case_label(&format, c, buf, n); }

/* 1..4 images of 1..16 channels, sides 1..4096 (11.. for valid), at most 2^23 pixels in all (32 MB; the CPU
 * reference in about a second). */
static void shape_random(uint64_t *rng, gp_shape *s)
{
    memset(s, 0, sizeof *s);
    long long *d = &s->d[GP_SSIM_SHAPE_N];
    const long long lo = (s->opt[GP_SSIM_SHAPE_BORDER] = gp_rand_pick(rng, 2)) == GP_SSIM_VALID ? GP_SSIM_WIN : 1;
    do {
        d[0] = gp_rand_dim(rng, 1, 4), d[1] = gp_rand_dim(rng, 1, 16);
        d[2] = gp_rand_dim(rng, lo, 4096), d[3] = gp_rand_dim(rng, lo, 4096);
    } while (d[0] * d[1] * d[2] * d[3] > (1ll << 23));
}

static gp_status problem_of(const gp_shape *s, gp_ssim_problem *p)
{
    const long long *e = &s->d[GP_SSIM_SHAPE_N];
    const gp_ssim_dims d = {e[0], e[1], e[2], e[3]};
    return gp_ssim_problem_init(p, &d, &d, (gp_ssim_border)s->opt[GP_SSIM_SHAPE_BORDER]);
}

/* The floor's model: both images read and the map written; OPS_PER_PIXEL fp32 instructions an output pixel,
 * each an FMA issue slot (2 FLOP). */
static gp_status work(const gp_shape *s, const void *prm, gp_kernel_work *w)
{
    gp_ssim_problem p;
    (void)prm;
    GP_TRY(problem_of(s, &p));
    const double in = (double)p.in_elems, map = (double)p.map_elems;
    return gp_work_model(w, 4.0 * (2.0 * in + map), 2.0 * OPS_PER_PIXEL * map, "x and y read, map written (4 B "
                         "each); %d fp32 issue slots a pixel at 2 FLOP each", OPS_PER_PIXEL);
}

/* ---- cases, n c h w border kind flags.  Bench: the 4K frame (both borders; the variants), a 1 Mpixel image.
 * Variant list: scalar and float4 loads, several strips, NaN.  Verify: odd sizes x borders x every kind (quick:
 * two sizes, five kinds), tiny and vector-load shapes, and the 4K frame (sampled under quick). */
enum { S = GP_SSIM_SAME, V = GP_SSIM_VALID, AT_VARIANT = 3, AT_ODD = 9, AT_VERIFY = 13, AT_EXTRA = 25 };
static const long long tab[][7] = {
    {1, 3, 2160, 3840, S, 0, GP_KCASE_VARIANTS | GP_KCASE_SAMPLE}, {1, 3, 2160, 3840, V, 0, GP_KCASE_SAMPLE},
    {1, 1, 1024, 1024, S, 0, 0}, {1, 1, 70, 67, S, GP_SSIM_RANDOM, 0}, {1, 2, 45, 96, V, GP_SSIM_CORRELATED, 0},
    {1, 2, 65, 65, S, GP_SSIM_RANDOM, 0}, {1, 1, 33, 33, V, GP_SSIM_NAN, 0}, {2, 1, 300, 67, V, GP_SSIM_RANDOM, 0},
    {1, 1, 260, 100, S, GP_SSIM_CONSTANT, 0}, {1, 1, 33, 33}, {1, 2, 65, 65}, {2, 1, 127, 127}, {1, 1, 257, 257},
    {1, 1, 1, 1, S}, {1, 1, 3, 5, S}, {1, 1, 11, 11, V}, {1, 1, 11, 40, V}, {1, 1, 12, 64, S}, {1, 1, 12, 64, V},
    {1, 3, 64, 128, S}, {1, 3, 64, 128, V}, {2, 1, 100, 36, S}, {1, 1, 300, 17, S},
    {1, 3, 2160, 3840, S, GP_SSIM_RANDOM, GP_KCASE_SAMPLE}, {1, 3, 2160, 3840, V, GP_SSIM_CORRELATED, GP_KCASE_SAMPLE},
    {1, 2, 257, 257, S}, /* verify_extra: two runs bitwise equal */
};

/* Row r of tab, with its image kind and border unless given (>= 0). */
static gp_kcase image_case(int r, int kind, int border, unsigned flags)
{
    const long long *d = tab[r];
    return (gp_kcase){.shape = {{d[0], d[1], d[2], d[3]}, {border < 0 ? (int)d[4] : border}},
                      .data = kind < 0 ? (int)d[5] : kind, .flags = flags};
}

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const int bench = set == GP_CASES_BENCH, verify = set == GP_CASES_VERIFY;
    const int from = bench ? 0 : verify ? AT_VERIFY : AT_VARIANT, to = bench ? AT_VARIANT : verify ? AT_EXTRA : AT_ODD;
    int n = 0;
    (void)p, (void)dev;
    for (int r = AT_ODD; verify && r < AT_ODD + (quick ? 2 : 4); r++)
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < GP_SSIM_KINDS; k++)
                if (!quick || (QUICK_KINDS >> k & 1))
                    n = gp_kcase_add(out, n, max, image_case(r, k, b, 0));
    for (int r = from; r < to; r++)
        n = gp_kcase_add(out, n, max, image_case(r, -1, -1, verify && !quick ? 0 : (unsigned)tab[r][6]));
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    gp_ssim_problem prob;
    long long nr;     /* map rows checked a plane (map_h: all) */
    int *slot;        /* map row -> its index among them, -1: not checked */
    float *ref;       /* planes x nr x map_w: the reference of the checked rows */
    double ref_mean;  /* the reference's mean, when every row is checked */
    float *chunk;     /* CHUNK floats of the map, copied back */
    float *d_x, *d_y, *d_map;
    double *d_mean, *h_mean;
    void *d_work;     /* grown for every parameter set run (and the naive kernel) */
    size_t work_bytes;
} state;

static void teardown(void *st) { GP_DEV_FREE(((state *)st)->d_work); }

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *problem)
{
    state *s = problem;
    size_t naive = 0;
    (void)dev;
    GP_TRY(problem_of(&c->shape, &s->prob));
    const gp_ssim_problem *p = &s->prob;
    if (c->data < 0 || c->data >= GP_SSIM_KINDS || c->offset)
        return gp_fail(GP_ERR_USAGE, "ssim: data kind %d, offset %d not this kernel's", c->data, c->offset);
    GP_TRY(gp_ssim_naive_workspace_bytes(p, &naive));
    s->nr = c->flags & GP_KCASE_SAMPLE && p->map_h > 2 * SAMPLE_ROWS ? SAMPLE_ROWS : p->map_h;
    const size_t n = (size_t)p->in_elems;
    float *x = malloc(n * 4), *y = malloc(n * 4); /* not kept: tune keeps every problem set up */
    s->slot = gp_kmem_host(&s->mem, (size_t)p->map_h * sizeof *s->slot);
    s->ref = gp_kmem_host(&s->mem, (size_t)(p->planes * s->nr * p->map_w) * 4);
    s->chunk = gp_kmem_host(&s->mem, CHUNK * 4);
    gp_status st = x && y ? gp_kmem_ok(&s->mem) : gp_fail(GP_ERR_NOMEM, "ssim: out of host memory for %zu pixels", n);
    const double u = gp_rand_uniform(rng, 0, 1); /* where a sample's rows between the edges start */
    if (st.code == GP_OK) {
        gp_ssim_fill(c->data, p, x, y, rng);
        st = gp_ssim_ref_checked(p, x, y, s->nr, u, s->slot, s->ref, &s->ref_mean);
    }
    if (st.code == GP_OK && (st = gp_kmem_dev_copy(&s->mem, (void **)&s->d_x, x, n * 4)).code == GP_OK)
        st = gp_kmem_dev_copy(&s->mem, (void **)&s->d_y, y, n * 4);
    free(x), free(y);
    GP_TRY(st);
    /* The map is read back a chunk at a time (check), the mean into its mirror. */
    GP_TRY(gp_kmem_output(&s->mem, (void **)&s->d_map, NULL, (size_t)p->map_elems * 4, 0));
    GP_TRY(gp_kmem_output(&s->mem, (void **)&s->d_mean, (void **)&s->h_mean, sizeof(double), 0));
    return gp_dev_grow(&s->d_work, &s->work_bytes, naive);
}

/* The block partials of p's grid. */
static gp_status prepare(void *st, const void *prm)
{
    state *s = st;
    size_t need = 0;
    GP_TRY(gp_ssim_workspace_bytes(prm, &s->prob, &need));
    return gp_dev_grow(&s->d_work, &s->work_bytes, need);
}

/* Ours with p (impl < 0) or the naive kernel, with a map of `cap` floats (0: the map's size). */
static gp_status launch(const state *s, int impl, const void *p, size_t cap)
{
    cap = cap ? cap : (size_t)s->prob.map_elems;
    if (impl < 0)
        return gp_ssim_run(p, &s->prob, s->d_x, s->d_y, s->d_map, cap, s->d_mean, s->d_work, s->work_bytes, NULL);
    return gp_ssim_naive_run(&s->prob, s->d_x, s->d_y, s->d_map, cap, s->d_mean, s->d_work, s->work_bytes, NULL);
}

static gp_status run_impl(void *st, int impl, const void *p) { return launch(st, impl, p, 0); }
static gp_status run(void *st, const void *p) { return launch(st, -1, p, 0); }

/* Ours and the naive kernel alike: the checked rows within MAP_ATOL (NaN exactly where the reference has it);
 * the mean against the sum of the map itself (the reduction) and, when every row is checked, the reference's. */
static gp_status check(void *st, const void *prm, int impl, const char *what)
{
    state *s = st;
    const size_t n = (size_t)s->prob.map_elems;
    double sum = 0;
    (void)prm, (void)impl;
    for (size_t at = 0; at < n; at += CHUNK) {
        const size_t len = n - at < CHUNK ? n - at : CHUNK;
        GP_TRY(gp_rt_copy_to_host(s->chunk, s->d_map + at, len * 4));
        GP_TRY(gp_ssim_compare_map(what, &s->prob, s->chunk, at, len, s->ref, s->slot, s->nr, MAP_ATOL, &sum));
    }
    const double *ref_mean = s->nr == s->prob.map_h ? &s->ref_mean : NULL;
    return gp_ssim_compare_mean(what, *s->h_mean, sum / (double)n, ref_mean, MEAN_ATOL);
}

/* ---- checks beyond the cases */

/* Bad shapes and buffers refused before any launch. */
static gp_status bad_input(const gp_kernel *k, gp_problem *pr, const void *p, const gp_kernel_opts *o)
{
    enum { BIG = 1 << 20 };
    static const struct { const char *what; gp_ssim_dims x, y; gp_ssim_border border; int code; } bad[] = {
        {"mismatched shapes", {1, 1, 33, 33}, {1, 1, 33, 34}, GP_SSIM_SAME, GP_ERR_USAGE},
        {"zero size", {1, 0, 33, 33}, {1, 0, 33, 33}, GP_SSIM_SAME, GP_ERR_USAGE},
        {"valid on 10x40", {1, 1, 10, 40}, {1, 1, 10, 40}, GP_SSIM_VALID, GP_ERR_USAGE},
        {"2^41 pixels", {2, 1, BIG, BIG}, {2, 1, BIG, BIG}, GP_SSIM_SAME, GP_ERR_NOMEM},
        {"2^40 pixels on the device", {1, 1, BIG, BIG}, {1, 1, BIG, BIG}, GP_SSIM_SAME, GP_ERR_NOMEM}};
    const state *s = pr->st;
    (void)k;
    for (int i = 0; i < 5; i++) {
        gp_ssim_problem q;
        float f = 0;
        double m = 0;
        gp_status st = gp_ssim_problem_init(&q, &bad[i].x, &bad[i].y, bad[i].border);
        if (i == 4 && st.code == GP_OK) /* a valid shape the device cannot hold */
            st = gp_ssim_forward(p, &q, &f, &f, &f, &m);
        GP_TRY(gp_expect_refused("ssim", bad[i].what, st, bad[i].code, o->log));
    }
    const gp_status st = launch(s, -1, p, (size_t)s->prob.map_elems - 1);
    return gp_expect_refused("ssim", "map one float short", st, GP_ERR_USAGE, o->log);
}

/* Every built instantiation (tile_x x variant, scalar and float4 loads: the first two variant cases) with
 * several strips and two row groups a block; two runs bitwise equal; bad input refused before any launch. */
static gp_status verify_extra(const gp_table *t, const void *p0, const gp_kernel_opts *o)
{
    const gp_kernel *k = &gp_kernel_ssim;
    uint64_t rng = o->seed ^ 0x55173ull;
    (void)t;
    for (int v = 0; v < GP_SSIM_NVARIANTS; v++)
        for (int i = 0, tx = 32; i < 3; i++, tx *= 2)
            for (int j = 0; j < 2; j++) {
                if (o->quick && j == 1 && i != 1)
                    continue;
                gp_ssim_params q = {.tile_x = tx, .tile_y = 16 + 5 * i, .block = 2 * tx, .variant = v};
                gp_ssim_params_fit(&q, &o->dev);
                const gp_kcase c = image_case(AT_VARIANT + j, i % 2 ? GP_SSIM_CORRELATED : GP_SSIM_RANDOM, -1, 0);
                GP_TRY(gp_problem_check_case(k, &c, &q, -1, 1, o, &rng, NULL));
            }
    const gp_kcase twice = image_case(AT_EXTRA, GP_SSIM_RANDOM, -1, 0), bad = image_case(AT_ODD, GP_SSIM_RANDOM, S, 0);
    GP_TRY(gp_problem_check_case(k, &twice, p0, -1, 1, o, &rng, gp_problem_repeatable));
    return gp_problem_check_case(k, &bad, p0, -1, 1, o, &rng, bad_input);
}

const gp_kernel gp_kernel_ssim = {
    GP_KERNEL_DECLARED,
    .summary = "fused SSIM forward (11x11 Gaussian, same/valid): map and mean",
    .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random,
    .work = work, .cases = cases, .case_label = case_label, .state_size = sizeof(state), .setup = setup,
    .prepare = prepare, .run = run, .check = check, .teardown = teardown, .impls = impls, .nimpls = NIMPLS,
    .run_impl = run_impl, .verify_extra = verify_extra,
};
