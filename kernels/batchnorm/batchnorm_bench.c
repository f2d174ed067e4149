/* batchnorm for the driver (kernels/driver.h): its problems, one problem's set-up, run and check (batchnorm_ref.c),
 * cuDNN's training forward as the baseline, the checks that are no case, and the gp_kernel entry. */
#include "batchnorm.h"
#include "batchnorm_vendor.h"
#define GP_KERNEL_NAME batchnorm
#include "kernel_decl.h"

#define BN_EPS 1e-5
#define KEEP GP_PARAM_KEEP

/* The variants, in the order of batchnorm_params.inc: block x items (the fused limit the base's, fitted to each
 * block), the items of the split path (fused off; the base's items among them: the fused rule's check), the fused
 * path forced on (every channel count, the most values a block holds), the split path in two launches and in one
 * holding one unit a thread: a sweep checks the items, the fused rule and the hold rule. */
static const int variants[][NPARAMS] = {
    {256, 1, KEEP, KEEP, KEEP},  {256, 2, KEEP, KEEP, KEEP},  {256, 4, KEEP, KEEP, KEEP},
    {256, 8, KEEP, KEEP, KEEP},  {512, 1, KEEP, KEEP, KEEP},  {512, 2, KEEP, KEEP, KEEP},
    {512, 4, KEEP, KEEP, KEEP},  {512, 8, KEEP, KEEP, KEEP},  {1024, 1, KEEP, KEEP, KEEP},
    {1024, 2, KEEP, KEEP, KEEP}, {1024, 4, KEEP, KEEP, KEEP}, {1024, 8, KEEP, KEEP, KEEP},
    {KEEP, 1, 0, KEEP, KEEP},    {KEEP, 2, 0, KEEP, KEEP},    {KEEP, 4, 0, KEEP, KEEP},
    {KEEP, 8, 0, KEEP, KEEP},    {KEEP, KEEP, 1048576, 1, KEEP}, {KEEP, KEEP, 0, KEEP, 0},
    {KEEP, KEEP, 0, KEEP, 16},
};

/* A case's data kind: x = mean + U(-1, 1) (0: bench's 0.5); a large mean must not cancel the variance away. */
static const double means[] = {0.5, 0.0, 1000.0, -300.0, 5.0};
enum { MEAN_HALF, MEAN_0, MEAN_1000, MEAN_M300, MEAN_5, NDATA };

/* ---- shapes: SYNTAX; bench labels "128x64x56x56 train"; random ones at most 2^25 elements */

#define SYNTAX "NxCxHxW [train|infer] (NCHW fp32; training by default)"
static const gp_shape_format format = {4, .words = {{GP_BN_OPT_MODE, {"train", "infer"}}}, .lo = {1, 1, 1, 1},
                                       .hi = {64, 1024, 512, 512}, .max_elems = 1ll << 25};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
GP_KERNEL_SHAPE_RANDOM(format)

static void case_label(const gp_kcase *c, char *buf, size_t n)
{
    shape_label(&c->shape, buf, n);
    if (c->data > 0 && c->data < NDATA)
        gp_label_append(buf, n, "mean %g", means[c->data]);
}

static gp_batchnorm_shape bn_shape(const gp_shape *s)
{
    return (gp_batchnorm_shape){(int)s->d[GP_BN_N], (int)s->d[GP_BN_C], (int)s->d[GP_BN_H], (int)s->d[GP_BN_W]};
}

/* The floor's model: x read twice on the split path (statistics, then normalize), once fused or in inference, y
 * written (p NULL: the split path, as committed bench labels were counted); 5 FLOP an element in training (sum,
 * sum of squares as an FMA, the normalising FMA), 2 in inference. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const gp_batchnorm_shape b = bn_shape(s);
    const int infer = s->opt[GP_BN_OPT_MODE] == GP_BN_INFER, fused = !infer && p && gp_batchnorm_fused(p, &b);
    const double elems = (double)s->d[GP_BN_N] * (double)s->d[GP_BN_C] * (double)s->d[GP_BN_H] * (double)s->d[GP_BN_W];
    w->bytes = (infer || fused ? 2 : 3) * 4.0 * elems, w->flops = (infer ? 2 : 5) * elems;
    snprintf(w->method, sizeof w->method, "x read %s, y written (4 B each); %d FLOP/element", infer ? "once" :
             fused ? "once (fused)" : "twice (split)", infer ? 2 : 5);
    return gp_ok();
}

static int add(gp_kcase *out, int n, int max, const int d[4], int mode, int data, unsigned f)
{
    return gp_kcase_add(out, n, max, (gp_kcase){.shape = {{d[0], d[1], d[2], d[3]}, {mode}}, .data = data, .flags = f});
}

/* The fused path at and around p's limit (forced-off parameters: around the limit forced on), C its channel count:
 * a channel of exactly the limit (float4 units: whole per thread), 3 values fewer (scalar units, no multiple of the
 * block) and 1 more (must take the split path), planes whose units are no multiple of the block, a large mean. */
static int fused_cases(const gp_batchnorm_params *p, int modes, gp_kcase *out, int n, int max)
{
    const int on = p->block * GP_BN_FUSED_VPT(p->block), lim = p->fused_max_values >= 8 ? p->fused_max_values : on;
    const int ch = p->fused_min_channels < 3 ? 3 : p->fused_min_channels;
    const int d[6][4] = {{1, ch, 1, lim}, {1, ch, 1, lim - 3}, {1, ch, 1, lim + 1},
                         {3, ch, 7, 7},   {5, ch, 6, 10},      {32, ch, 14, 14}};
    for (int i = 0; i < 6; i++)
        for (int mode = 0; mode < modes; mode++)
            n = add(out, n, max, d[i], mode, i == 4 ? MEAN_1000 : MEAN_0, 0);
    return n;
}

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    /* verify: odd planes (scalar path), planes of multiples of 4 (vector path), one value per channel, many
     * channels, and large means; each variant: its items on the split and vector paths.  N C H W, data kind. */
    static const int verify[][5] = {{1, 1, 1, 1, MEAN_0},      {2, 3, 5, 7, MEAN_0},      {4, 8, 14, 14, MEAN_0},
                                    {3, 5, 1, 1, MEAN_0},      {16, 64, 28, 28, MEAN_0},  {2, 300, 3, 3, MEAN_0},
                                    {8, 4, 56, 56, MEAN_0},    {4, 8, 14, 14, MEAN_1000}, {8, 4, 56, 56, MEAN_M300}};
    /* The two 16x64 planes give threads of the one-launch path several units each (more than the hold variant's
     * one), scalar and vector. */
    static const int variant[][5] = {{2, 3, 5, 7, MEAN_0}, {8, 4, 56, 56, MEAN_5}, {16, 64, 27, 27, MEAN_5},
                                     {16, 64, 28, 28, MEAN_0}};
    const int big[][5] = {{quick ? 32 : 128, 64, 56, 56, MEAN_HALF}, {32, 256, 14, 14, MEAN_HALF}}; /* training */
    const int bench = set == GP_CASES_BENCH, count = set == GP_CASES_VERIFY ? 9 : bench ? 2 : 4;
    const int (*list)[5] = bench ? big : set == GP_CASES_VERIFY ? verify : variant;
    int n = 0;
    (void)dev;
    for (int mode = 0; mode < (bench ? 1 : 2); mode++)
        for (int i = 0; i < count; i++)
            n = add(out, n, max, list[i], mode, list[i][4], bench ? GP_KCASE_PAIR | GP_KCASE_VARIANTS : 0);
    return bench ? n : fused_cases(p, set == GP_CASES_VERIFY ? 2 : 1, out, n, max);
}

typedef struct state {
    gp_kmem mem;
    gp_batchnorm_shape s;
    int infer;
    size_t n, c;
    double bound[2]; /* check's bounds (gp_batchnorm_ref_stats) */
    float *h_x, *h_y, *h_ref, *h_g, *h_b;
    float *h_st, *h_mean, *h_invstd; /* the reference's statistics (gp_batchnorm_ref_stats), the saved ones read back */
    float *d_x, *d_y, *d_g, *d_b, *d_st, *d_mean, *d_invstd;
    gp_batchnorm_ws ws;
    gp_vendor_bn *vb;
} state;

static char cudnn_impl[GP_BENCH_TEXT] = "cuDNN BatchNormalizationForwardTraining";
static const gp_kimpl impls[] = {{cudnn_impl, 1, 1, 1.0, 0, ""}};

static void teardown(void *st)
{
    state *u = st;
    gp_batchnorm_ws_destroy(&u->ws);
    gp_vendor_bn_destroy(u->vb);
}

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *problem)
{
    state *u = problem;
    (void)dev;
    u->s = bn_shape(&c->shape), u->infer = c->shape.opt[GP_BN_OPT_MODE] == GP_BN_INFER;
    GP_TRY(gp_batchnorm_check_shape(&u->s));
    if (c->data < 0 || c->data >= NDATA || c->offset)
        return gp_fail(GP_ERR_USAGE, "batchnorm: data kind %d, offset %d: not this kernel's", c->data, c->offset);
    const size_t n = u->n = gp_batchnorm_elems(&u->s), ch = u->c = (size_t)u->s.c;
    u->h_x = gp_kmem_host(&u->mem, n * 4), u->h_ref = gp_kmem_host(&u->mem, n * 4);
    u->h_st = gp_kmem_host(&u->mem, 3 * ch * 4);
    u->h_g = gp_kmem_host(&u->mem, ch * 4), u->h_b = gp_kmem_host(&u->mem, ch * 4);
    GP_TRY(gp_kmem_ok(&u->mem));
    for (size_t i = 0; i < n; i++)
        u->h_x[i] = (float)(means[c->data] + gp_rand_uniform(rng, -1.0, 1.0));
    gp_fill_uniform_f32(u->h_g, ch, 0.5f, 1.5f, rng);
    gp_fill_uniform_f32(u->h_b, ch, -1.0f, 1.0f, rng);
    GP_TRY(gp_batchnorm_ref_stats(u->h_x, u->h_ref, &u->s, u->h_g, u->h_b, BN_EPS, u->h_st, u->bound));
    if (u->infer)
        gp_batchnorm_ref_infer(u->h_x, u->h_ref, &u->s, u->h_g, u->h_b, u->h_st, u->h_st + ch, BN_EPS);
    const char *name = gp_vendor_bn_name();
    if (name)
        snprintf(cudnn_impl, sizeof cudnn_impl, "%s BatchNormalizationForwardTraining", name);
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->d_x, u->h_x, n * 4));
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->d_g, u->h_g, ch * 4));
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->d_b, u->h_b, ch * 4));
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->d_st, u->h_st, 2 * ch * 4));
    GP_TRY(gp_kmem_output(&u->mem, (void **)&u->d_y, (void **)&u->h_y, n * 4, 0));
    GP_TRY(gp_kmem_output(&u->mem, (void **)&u->d_mean, (void **)&u->h_mean, ch * 4, 0));
    return gp_kmem_output(&u->mem, (void **)&u->d_invstd, (void **)&u->h_invstd, ch * 4, 0);
}

/* A workspace for p's split: the one held if large enough (tune pairs two parameter sets on one), else a new one. */
static gp_status prepare(void *st, const void *prm)
{
    state *u = st;
    if (u->ws.d && gp_batchnorm_ws_offsets(u->s.c, gp_batchnorm_split(prm, &u->s), NULL, NULL) <= u->ws.bytes)
        return gp_ok();
    gp_batchnorm_ws_destroy(&u->ws);
    return gp_batchnorm_ws_create(&u->ws, &u->s, prm);
}

static gp_status run(void *st, const void *prm)
{
    state *u = st;
    if (u->infer)
        return gp_batchnorm_infer_f32(u->d_x, u->d_y, &u->s, u->d_g, u->d_b, u->d_st, u->d_st + u->c, BN_EPS, prm,
                                      NULL);
    return gp_batchnorm_train_f32(u->d_x, u->d_y, &u->s, u->d_g, u->d_b, BN_EPS, u->d_mean, u->d_invstd, &u->ws, prm,
                                  NULL);
}

static gp_status run_impl(void *st, int impl, const void *prm)
{
    state *u = st;
    (void)impl, (void)prm;
    if (u->infer)
        return gp_fail(GP_ERR_UNSUPPORTED, "the cuDNN baseline is the training forward");
    if (!u->vb)
        GP_TRY(gp_vendor_bn_create(&u->vb, u->s.n, u->s.c, u->s.h, u->s.w));
    return gp_vendor_bn_train(u->vb, u->d_x, u->d_y, u->d_g, u->d_b, BN_EPS, u->d_mean, u->d_invstd);
}

/* Ours and cuDNN alike: y, and in training the saved statistics. */
static gp_status check(void *st, const void *prm, int impl, const char *what)
{
    state *u = st;
    (void)prm, (void)impl;
    return gp_batchnorm_check(what, u->h_y, u->h_ref, u->n, u->infer ? NULL : u->h_mean, u->h_invstd, u->h_st, u->c,
                              u->bound);
}

/* Not a case: (1) each shape around the fused limit takes the path its place says under the table's parameters for
 * it, the fused path forced on and off (a rule or fit that moved the limit fails here, not a case testing the other
 * path); (2) training twice in a row (the workspace's arrival counters must be back at zero after a run), the
 * table's parameters on the verify cases and every variant on its variant cases. */
static gp_status verify_extra(const gp_table *t, const void *p0, const gp_kernel_opts *o)
{
    const gp_kernel *k = &gp_kernel_batchnorm;
    gp_batchnorm_params on = *(const gp_batchnorm_params *)p0, off = on, q;
    on.fused_max_values = on.block * GP_BN_FUSED_VPT(on.block), on.fused_min_channels = 1, off.fused_max_values = 0;
    on.note[0] = off.note[0] = '\0', fit(&on, &o->dev), fit(&off, &o->dev);
    const gp_batchnorm_params *ps[3] = {p0, &on, &off};
    static const char *const names[3] = {"table", "fused forced on", "fused off"};
    static gp_kcase c[GP_KCASE_MAX];
    char note[GP_BENCH_TEXT];
    for (int j = 0; j < 3; j++)
        for (int i = 0, n = fused_cases(ps[j], 1, c, 0, GP_KCASE_MAX); i < n; i++) {
            const gp_batchnorm_shape s = bn_shape(&c[i].shape);
            if (!j)
                GP_TRY(gp_kernel_params(k, t, &o->dev, &c[i].shape, 1, &q, note, sizeof note));
            const gp_batchnorm_params *pq = j ? ps[j] : &q;
            const int want = i != 2 && (long long)s.n * s.h * s.w <= pq->fused_max_values;
            if (gp_batchnorm_fused(pq, &s) != want)
                return gp_fail(GP_ERR_CHECK, "batchnorm %s: %dx%dx%dx%d takes the %s path, want %s", names[j], s.n,
                               s.c, s.h, s.w, want ? "split" : "fused", want ? "fused" : "split");
        }
    uint64_t rng = o->seed ^ 0x5eedull;
    for (int v = -1; v < k->nvariants; v++) {
        if (v >= 0)
            gp_kernel_variant(k, v, p0, &o->dev, &q);
        const int n = k->cases(v < 0 ? GP_CASES_VERIFY : GP_CASES_VARIANT, v < 0 ? p0 : &q, &o->dev, o->quick, c,
                               GP_KCASE_MAX);
        for (int i = 0; i < n; i++) {
            if (c[i].shape.opt[GP_BN_OPT_MODE] != GP_BN_TRAIN)
                continue;
            if (v < 0)
                GP_TRY(gp_kernel_params(k, t, &o->dev, &c[i].shape, 1, &q, note, sizeof note));
            GP_TRY(gp_problem_check_case(k, &c[i], &q, -1, 2, o, &rng, NULL));
        }
    }
    if (o->log)
        fprintf(o->log, "  fused path: shapes at, under and over its limit take their path (table, forced on, off); "
                "training twice in a row, every case and variant: within tolerance\n");
    return gp_ok();
}

const gp_kernel gp_kernel_batchnorm = {
    GP_KERNEL_DECLARED,
    .summary = "batch normalization forward (training with saved mean/invstd, and inference), NCHW fp32 (vs cuDNN)",
    .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random,
    .work = work, .cases = cases, .case_label = case_label, .state_size = sizeof(state), .setup = setup,
    .prepare = prepare, .run = run, .check = check, .teardown = teardown, .impls = impls, .nimpls = 1,
    .run_impl = run_impl, .verify_extra = verify_extra,
};
