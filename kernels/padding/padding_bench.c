/* padding for the driver (kernels/driver.h): its problems, one problem's
 * set-up, run and exact check (a padded copy moves bits), the vendor
 * device-to-device copy of the same bytes as its baseline (the fraction of
 * the copy's bandwidth), the staged kernel forced as context, and the
 * gp_kernel entry. */
#include "padding.h"
#include "padding_staged.h"
#define GP_KERNEL_NAME padding
#include "kernel_decl.h"

#define KEEP GP_PARAM_KEEP

/* The variants, in the order of padding_params.inc: every compiled
 * items_per_thread and blocks 256 and 1024 on the flat kernel (the rule's
 * staged pick checked against it), then the staged kernel at 16..128
 * planes a block, both sides of the rule's 64 on the H200
 * (docs/kernels/padding.md). */
static const int variants[][NPARAMS] = {{KEEP, 4, 0},     {KEEP, 8, 0},     {KEEP, 16, 0},
                                        {256, KEEP, 0},   {1024, KEEP, 0},  {KEEP, KEEP, 16},
                                        {KEEP, KEEP, 32}, {KEEP, KEEP, 64}, {KEEP, KEEP, 128}};

/* ---- shapes: "NxCxHxW pad tT bB lL rR" (the bench labels), "NxCxHxW pad P"
 * or "NxCxHxW" */

static gp_status shape_parse(const char *spec, gp_shape *s)
{
    const char *rest = "";
    int t = 0, b = 0, l = 0, r = 0, len = -1;
    memset(s, 0, sizeof *s);
    if (gp_label_dims(spec, s->d, 4, &rest)) {
        if (!*rest)
            len = 0;
        else if (sscanf(rest, " pad t%d b%d l%d r%d%n", &t, &b, &l, &r, &len) != 4 &&
                 sscanf(rest, " pad %d%n", &t, &len) == 1)
            b = l = r = t;
    }
    if (len < 0 || rest[len] || t < 0 || b < 0 || l < 0 || r < 0)
        return gp_fail(GP_ERR_USAGE, "padding: shape '%s' is not NxCxHxW [pad P | pad tT bB lL rR]", spec);
    s->d[GP_PAD_TOP] = t, s->d[GP_PAD_BOTTOM] = b, s->d[GP_PAD_LEFT] = l, s->d[GP_PAD_RIGHT] = r;
    return gp_ok();
}

static void shape_label(const gp_shape *s, char *buf, size_t n)
{
    const long long *d = s->d;
    snprintf(buf, n, "%lldx%lldx%lldx%lld pad t%lld b%lld l%lld r%lld", d[GP_PAD_N], d[GP_PAD_C], d[GP_PAD_H],
             d[GP_PAD_W], d[GP_PAD_TOP], d[GP_PAD_BOTTOM], d[GP_PAD_LEFT], d[GP_PAD_RIGHT]);
}

/* N 1 .. 64, C 1 .. 512, H and W 1 .. 1024, pads 0 .. 8 on each side
 * (a third of the time the same on all four), at most 2^25 elements out. */
static void shape_random(uint64_t *rng, gp_shape *s)
{
    static const int hi[4] = {64, 512, 1024, 1024}; /* N C H W */
    memset(s, 0, sizeof *s);
    do {
        for (int i = GP_PAD_N; i <= GP_PAD_W; i++)
            s->d[i] = gp_rand_dim(rng, 1, hi[i]);
        int same = gp_rand_pick(rng, 3) == 0, p = gp_rand_pick(rng, 9);
        for (int i = GP_PAD_TOP; i <= GP_PAD_RIGHT; i++)
            s->d[i] = same ? p : gp_rand_pick(rng, 9);
    } while (s->d[GP_PAD_N] * s->d[GP_PAD_C] * (s->d[GP_PAD_H] + s->d[GP_PAD_TOP] + s->d[GP_PAD_BOTTOM]) *
                 (s->d[GP_PAD_W] + s->d[GP_PAD_LEFT] + s->d[GP_PAD_RIGHT]) >
             (1ll << 25));
}

/* The floor's model: the input read and the padded output written, no
 * arithmetic. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const gp_padding_shape ps = gp_padding_shape_of(s);
    (void)p;
    w->bytes = 4.0 * ((double)gp_padding_in_elems(&ps) + (double)gp_padding_out_elems(&ps));
    w->flops = 0;
    snprintf(w->method, sizeof w->method, "input read, padded output written (4 B each); no arithmetic");
    return gp_ok();
}

/* ---- cases */

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    /* bench: the seed's case (N=1024 C=1024 7x7 + 3: 0.2 GB in, 0.7 GB out;
     * quick: N=256), >= 0.90 of the copy, and an asymmetric pad of 56x56
     * planes, reported.  verify (every variant too): one element; pads on
     * one side only; outputs not a multiple of 4 or of a block's share; wide
     * rows; the seed's 7x7 + 3 (plane counts that are and are not multiples
     * of the staged kernel's P); no padding. */
    static const int shapes[][8] = {
        {1, 1, 1, 1, 0, 0, 0, 0},     {1, 1, 1, 1, 3, 0, 0, 5},    {2, 3, 5, 7, 1, 2, 3, 0},
        {3, 5, 4, 4, 2, 1, 1, 2},     {1, 2, 300, 517, 0, 0, 7, 0}, {8, 16, 7, 7, 3, 3, 3, 3},
        {17, 33, 7, 7, 3, 3, 3, 3},   {4, 9, 56, 56, 1, 2, 0, 3},  {2, 2, 33, 1, 0, 9, 4, 4},
        {1024, 1024, 7, 7, 3, 3, 3, 3}, {64, 64, 56, 56, 1, 2, 0, 3},
    };
    const int bench = set == GP_CASES_BENCH, seed = 9; /* shapes[seed ..]: the bench problems */
    int n = 0;
    (void)p, (void)dev;
    for (int i = bench ? seed : 0; i < (bench ? 11 : seed); i++) {
        gp_kcase c = {0};
        for (int j = 0; j < 8; j++)
            c.shape.d[j] = j == GP_PAD_N && bench && quick && i == seed ? 256 : shapes[i][j];
        if (bench)
            c.flags = (i == seed ? GP_KCASE_PAIR : GP_KCASE_REPORT) | GP_KCASE_VARIANTS | GP_KCASE_SAMPLE;
        n = gp_kcase_add(out, n, max, c);
    }
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    gp_padding_shape s;
    const gp_device_info *dev;
    size_t ni, no, copy_bytes;
    size_t stride; /* planes checked: every stride-th and the last (1: all) */
    float *h_in, *h_out;
    float *d_in, *d_out, *d_copy;
} state;

/* The copy of the same bytes, (in + out) / 2 read and as much written (from
 * the output buffer, large enough, into its own); ours with the staged
 * kernel forced, each paired with ours (context: the figures beside the
 * rule's P). */
enum { IMPL_COPY, IMPL_STAGED16, NIMPLS = IMPL_STAGED16 + 4 };
static const gp_kimpl impls[NIMPLS] = {
    {"device copy (vendor, same bytes)", 1, 1, 0.90, 0, ""},
    {"gpuprobe variant=staged16", 0, 1, 0, 0, "planes_per_block=16"},
    {"gpuprobe variant=staged32", 0, 1, 0, 0, "planes_per_block=32"},
    {"gpuprobe variant=staged64", 0, 1, 0, 0, "planes_per_block=64"},
    {"gpuprobe variant=staged128", 0, 1, 0, 0, "planes_per_block=128"},
};

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *u = st;
    u->s = gp_padding_shape_of(&c->shape), u->dev = dev;
    GP_TRY(gp_padding_check_shape(&u->s));
    if (c->data || c->offset)
        return gp_fail(GP_ERR_USAGE, "padding: data kind %d, offset %d: not this kernel's", c->data, c->offset);
    u->ni = gp_padding_in_elems(&u->s), u->no = gp_padding_out_elems(&u->s);
    /* A bench problem's output (0.7 GB for the headline) is checked on
     * about 4096 planes after each timing: a full check costs ~0.5 s of host
     * time per candidate, a sample a few ms; a wrong plane index or pad
     * shows on every plane, so a sample of whole planes still catches it. */
    const size_t planes = (size_t)u->s.n * (size_t)u->s.c;
    u->stride = c->flags & GP_KCASE_SAMPLE && planes > 4096 ? planes / 4096 : 1;
    u->copy_bytes = (u->ni + u->no) * sizeof(float) / 2 & ~(size_t)15;
    u->h_in = gp_kmem_host(&u->mem, u->ni * sizeof(float)), u->h_out = gp_kmem_host(&u->mem, u->no * sizeof(float));
    GP_TRY(gp_kmem_ok(&u->mem));
    gp_fill_uniform_f32(u->h_in, u->ni, -1.0f, 1.0f, rng);
    GP_TRY(gp_kmem_dev_copy(&u->mem, (void **)&u->d_in, u->h_in, u->ni * sizeof(float)));
    /* The output has no mirror: the copy's check reads nothing back. */
    GP_TRY(gp_kmem_output(&u->mem, (void **)&u->d_out, NULL, u->no * sizeof(float), 0));
    return gp_kmem_dev(&u->mem, (void **)&u->d_copy, u->copy_bytes + 16);
}

static gp_status run(void *p, const void *prm)
{
    state *u = p;
    return gp_padding_f32(u->d_in, u->d_out, &u->s, prm, NULL);
}

static gp_status run_impl(void *p, int impl, const void *prm)
{
    state *u = p;
    if (impl == IMPL_COPY)
        return gp_rt_copy_device_async(u->d_copy, u->d_out, u->copy_bytes, NULL);
    gp_padding_params q = *(const gp_padding_params *)prm;
    q.planes_per_block = 16 << (impl - IMPL_STAGED16), q.note[0] = '\0';
    gp_padding_params_fit(&q, u->dev);
    if (!gp_padding_staged_usable(&q, &u->s, u->d_in))
        return gp_fail(GP_ERR_UNSUPPORTED, "%dx%d planes do not stage (over %d B, or %d of them over 48 KiB)", u->s.h,
                       u->s.w, GP_PADDING_STAGED_PLANE_BYTES, q.planes_per_block);
    return gp_padding_f32(u->d_in, u->d_out, &u->s, &q, NULL);
}

/* Every stride-th plane, then the last. */
static size_t next_plane(size_t pl, size_t stride, size_t planes)
{
    return pl + 1 >= planes ? planes : pl + stride < planes ? pl + stride : planes - 1;
}

/* Ours: every element against the definition, exact, plane by plane (no
 * second output-sized buffer: the seed's output is 0.7 GB); the copy moves
 * bytes nobody reads. */
static gp_status check(void *p, const void *prm, int impl, const char *what)
{
    state *u = p;
    const gp_padding_shape *s = &u->s;
    const int ho = gp_padding_out_h(s), wo = gp_padding_out_w(s);
    (void)prm;
    if (impl == IMPL_COPY)
        return gp_ok();
    GP_TRY(gp_rt_copy_to_host(u->h_out, u->d_out, u->no * sizeof(float)));
    const size_t planes = (size_t)s->n * s->c;
    for (size_t pl = 0; pl < planes; pl = next_plane(pl, u->stride, planes))
        for (int y = 0; y < ho; y++)
            for (int x = 0; x < wo; x++) {
                const int iy = y - s->top, ix = x - s->left;
                const float want = iy >= 0 && iy < s->h && ix >= 0 && ix < s->w
                                       ? u->h_in[(pl * s->h + (size_t)iy) * s->w + (size_t)ix]
                                       : 0.0f;
                const float got = u->h_out[(pl * ho + (size_t)y) * wo + (size_t)x];
                if (memcmp(&got, &want, sizeof got))
                    return gp_fail(GP_ERR_CHECK, "%s: plane %zu y %d x %d: got %.9g, want %.9g", what, pl, y, x,
                                   (double)got, (double)want);
            }
    return gp_ok();
}

const gp_kernel gp_kernel_padding = {
    GP_KERNEL_DECLARED,
    .summary = "zero padding of NCHW fp32 by any top/bottom/left/right, no scratch (vs the device copy of the same "
               "bytes)",
    .shape_syntax = "NxCxHxW [pad P | pad tT bB lL rR] (NCHW fp32 input; pads top, bottom, left, right)",
    .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random, .work = work, .cases = cases,
    .state_size = sizeof(state), .setup = setup, .run = run, .check = check, .impls = impls, .nimpls = NIMPLS,
    .run_impl = run_impl,
};
