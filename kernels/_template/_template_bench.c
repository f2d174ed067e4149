/* _template for the driver (kernels/driver.h): its problems, one problem's
 * set-up (data and the CPU reference, once), run and check, its baseline
 * and the gp_kernel entry.  The driver times, pairs and reports. */
#include "_template.h"
#define GP_KERNEL_NAME _template
#include "kernel_decl.h"

#define ALPHA 1.5f

/* The variants (tune's candidates, bench's context rows), in the order of
 * _template_params.inc. */
static const int variants[][NPARAMS] = {{256, 1}, {256, 2}, {256, 4}, {512, 2}, {512, 4}, {1024, 2}, {128, 4}};

/* ---- shapes: "N" or "2^K" values, also read as a bench label "2^26 fp32"
 * (shape_format.h; a syntax of the kernel's own: shape_parse and
 * shape_label functions instead, as gemm's) */

#define SYNTAX "N or 2^K (fp32 values)"
static const gp_shape_format format = {1, .count = 1, .words = {{-1, {"fp32"}}}};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)

/* The floor's model: x and y read, y written; one FMA a value. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    (void)p;
    w->bytes = 3 * 4.0 * (double)s->d[GP__TEMPLATE_N];
    w->flops = 2.0 * (double)s->d[GP__TEMPLATE_N];
    snprintf(w->method, sizeof w->method, "x and y read, y written (4 B each); one FMA a value");
    return gp_ok();
}

/* ---- cases */

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    static const long long verify[] = {1, 3, 4, 5, 1000, 4097, (1 << 20) + 3, 30000001};
    static const long long variant[] = {5, 4099, 100003};
    int n = 0;
    (void)p, (void)dev;
    if (set == GP_CASES_BENCH) {
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {quick ? 1ll << 24 : 1ll << 26},
                                                 .flags = GP_KCASE_REPORT | GP_KCASE_VARIANTS});
        return gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {1ll << 20}});
    }
    for (int i = 0; set == GP_CASES_VERIFY && i < (quick ? 7 : 8); i++)
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {verify[i]}});
    for (int i = 0; set == GP_CASES_VARIANT && i < 3; i++)
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {variant[i]}});
    return n;
}

/* ---- one problem */

/* The problem's state starts with its memory (kmem.h): what set-up
 * allocates there the driver frees, and it poisons the declared outputs
 * before every checked run and copies them back before check. */
typedef struct state {
    gp_kmem mem;
    size_t n;
    float *h_x, *h_y, *h_ref, *h_out;
    float *d_x, *d_y;
} state;

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    (void)dev;
    s->n = (size_t)c->shape.d[GP__TEMPLATE_N];
    if (c->offset)
        return gp_fail(GP_ERR_USAGE, "_template: the kernel takes 16-byte aligned buffers only");
    const size_t bytes = s->n * sizeof(float);
    s->h_x = gp_kmem_host(&s->mem, bytes), s->h_y = gp_kmem_host(&s->mem, bytes);
    s->h_ref = gp_kmem_host(&s->mem, bytes), s->h_out = gp_kmem_host(&s->mem, bytes);
    GP_TRY(gp_kmem_ok(&s->mem));
    gp_fill_uniform_f32(s->h_x, s->n, -1.0f, 1.0f, rng);
    gp_fill_uniform_f32(s->h_y, s->n, -1.0f, 1.0f, rng);
    memcpy(s->h_ref, s->h_y, bytes);
    gp__template_ref_f32(ALPHA, s->h_x, s->h_ref, s->n);
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_x, s->h_x, bytes));
    return gp_kmem_dev(&s->mem, (void **)&s->d_y, bytes);
}

/* y is an input too: every run starts from the same y (a poisoned y would
 * make the output NaN whatever the kernel did), so "poison" writes y back;
 * a value the kernel does not write stays the input's and fails the check
 * unless a x happens to be 0 there. */
static gp_status poison(void *p)
{
    state *s = p;
    return gp_rt_copy_to_device(s->d_y, s->h_y, s->n * sizeof(float));
}

static gp_status run(void *p, const void *prm)
{
    state *s = p;
    return gp__template_f32(ALPHA, s->d_x, s->d_y, s->n, prm, NULL);
}

static const gp_kimpl impls[] = {{"device copy of x (vendor, 2/3 of the bytes)", 1, 1, 0, 0, ""}};

static gp_status run_impl(void *p, int impl, const void *prm)
{
    state *s = p;
    (void)impl, (void)prm;
    return gp_rt_copy_device_async(s->d_y, s->d_x, s->n * sizeof(float), NULL);
}

/* Ours: within one rounding of the double reference (an FMA may round once
 * where a x + y rounds twice); the copy: x itself. */
static gp_status check(void *p, const void *prm, int impl, const char *what)
{
    state *s = p;
    (void)prm;
    GP_TRY(gp_rt_copy_to_host(s->h_out, s->d_y, s->n * sizeof(float)));
    if (impl >= 0)
        return gp_compare_f32(what, s->h_out, s->h_x, s->n, 0.0, 0.0, NULL);
    return gp_compare_f32(what, s->h_out, s->h_ref, s->n, 1e-6, 2.4e-7, NULL);
}

const gp_kernel gp_kernel__template = {
    GP_KERNEL_DECLARED,
    .summary = "y = a x + y over fp32, the kernel to copy when adding one (vs the device copy)",
    .shape_syntax = SYNTAX,
    .shape_parse = shape_parse,
    .shape_label = shape_label,
    .work = work,
    .cases = cases,
    .state_size = sizeof(state),
    .setup = setup,
    .poison = poison,
    .run = run,
    .check = check,
    .impls = impls,
    .nimpls = 1,
    .run_impl = run_impl,
};
