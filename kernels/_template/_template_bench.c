/* _template for the driver (kernels/driver.h): its problems, one problem's
 * set-up (data and the CPU reference, once), run and check, its baseline
 * and the gp_kernel entry.  The driver times, pairs and reports. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_template.h"
#include "data.h"
#include "kernel.h"

#define ALPHA 1.5f

static const gp_param params[] = {
#define GP_PARAM(k, key, unit, lo, hi, dflt, flags, doc) GP_PARAM_ROW(gp__template_params, key, lo, hi, dflt, flags),
#include "_template_params.inc"
#undef GP_PARAM
};
#define NPARAMS ((int)(sizeof params / sizeof params[0]))

/* The variants (tune's candidates, bench's context rows), in the order of
 * _template_params.inc. */
static const int variants[][NPARAMS] = {{256, 1}, {256, 2}, {256, 4}, {512, 2}, {512, 4}, {1024, 2}, {128, 4}};

/* ---- shapes: "N" or "2^K" values, also read as a bench label "2^26 fp32" */

static gp_status shape_parse(const char *spec, gp_shape *s)
{
    long long n = 0;
    const char *rest = "";
    memset(s, 0, sizeof *s);
    if (!gp_label_pow2(spec, &n, &rest) && !gp_label_dims(spec, &n, 1, &rest))
        n = 0;
    if (n < 1 || (*rest && strcmp(rest, " fp32")))
        return gp_fail(GP_ERR_USAGE, "_template: shape '%s' is not N or 2^K (values)", spec);
    s->d[GP__TEMPLATE_N] = n;
    return gp_ok();
}

static void shape_label(const gp_shape *s, char *buf, size_t n)
{
    gp_label_count(buf, n, s->d[GP__TEMPLATE_N], "fp32");
}

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
    const long long *src = set == GP_CASES_VERIFY ? verify : variant;
    int n = set == GP_CASES_VERIFY ? (quick ? 7 : 8) : 3;
    (void)p, (void)dev;
    if (set == GP_CASES_BENCH) {
        const long long big[2] = {quick ? 1ll << 24 : 1ll << 26, 1ll << 20};
        for (int i = 0; i < 2 && i < max; i++) {
            memset(&out[i], 0, sizeof out[i]);
            out[i].shape.d[GP__TEMPLATE_N] = big[i];
            out[i].flags = i == 0 ? GP_KCASE_REPORT | GP_KCASE_VARIANTS : 0;
        }
        return 2;
    }
    for (int i = 0; i < n && i < max; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].shape.d[GP__TEMPLATE_N] = src[i];
    }
    return n < max ? n : max;
}

/* ---- one problem */

typedef struct state {
    size_t n;
    float *h_x, *h_y, *h_ref, *h_out;
    float *d_x, *d_y;
} state;

static void teardown(void *p)
{
    state *s = p;
    free(s->h_x), free(s->h_y), free(s->h_ref), free(s->h_out);
    GP_DEV_FREE(s->d_x, s->d_y);
    free(s);
}

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void **out)
{
    state *s = calloc(1, sizeof *s);
    (void)dev;
    if (!s)
        return gp_fail(GP_ERR_NOMEM, "_template: out of host memory");
    *out = s;
    s->n = (size_t)c->shape.d[GP__TEMPLATE_N];
    if (c->offset)
        return gp_fail(GP_ERR_USAGE, "_template: the kernel takes 16-byte aligned buffers only");
    const size_t bytes = s->n * sizeof(float);
    s->h_x = malloc(bytes), s->h_y = malloc(bytes), s->h_ref = malloc(bytes), s->h_out = malloc(bytes);
    if (!s->h_x || !s->h_y || !s->h_ref || !s->h_out)
        return gp_fail(GP_ERR_NOMEM, "_template: out of host memory for 4 x %zu bytes", bytes);
    gp_fill_uniform_f32(s->h_x, s->n, -1.0f, 1.0f, rng);
    gp_fill_uniform_f32(s->h_y, s->n, -1.0f, 1.0f, rng);
    memcpy(s->h_ref, s->h_y, bytes);
    gp__template_ref_f32(ALPHA, s->h_x, s->h_ref, s->n);
    GP_TRY(gp_dev_alloc_copy((void **)&s->d_x, s->h_x, bytes));
    return gp_rt_malloc((void **)&s->d_y, bytes);
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

static void fit(void *p, const gp_device_info *dev) { gp__template_params_fit(p, dev); }

const gp_kernel gp_kernel__template = {
    .name = "_template",
    .summary = "y = a x + y over fp32, the kernel to copy when adding one (vs the device copy)",
    .params = params,
    .nparams = NPARAMS,
    .params_size = sizeof(gp__template_params),
    .note_offset = offsetof(gp__template_params, note),
    .note_size = sizeof(((gp__template_params *)0)->note),
    .fit = fit,
    .rule = gp__template_rule,
    .variants = &variants[0][0],
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    .shape_syntax = "N or 2^K (fp32 values)",
    .shape_parse = shape_parse,
    .shape_label = shape_label,
    .work = work,
    .cases = cases,
    .setup = setup,
    .poison = poison,
    .run = run,
    .check = check,
    .teardown = teardown,
    .impls = impls,
    .nimpls = 1,
    .run_impl = run_impl,
};
