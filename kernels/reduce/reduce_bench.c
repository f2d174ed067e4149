/* reduce for the driver (kernels/driver.h): its problems (fp32 and int32
 * sums), one problem's set-up, run and check (int32 exact; fp32 within the
 * derived bound and bit-for-bit repeatable; integer-valued fp32 exact), CUB
 * DeviceReduce::Sum as its baseline, and the gp_kernel entry. */
#include <math.h>

#include "reduce.h"
#include "reduce_vendor.h"
#define GP_KERNEL_NAME reduce
#include "kernel_decl.h"

/* The variants (tune's candidates, bench's context rows), in the order of
 * reduce_params.inc: the first H200 run's best (b1024/v2/g2), the
 * memory_bandwidth probe's best read (256 x 8/CU, 16 B x 2, streaming) and
 * one-pass rows (their grid_per_cu 4 is unused). */
static const int variants[][NPARAMS] = {
    {256, 4, 4, 0, 0},  {256, 2, 8, 0, 0},  {1024, 2, 2, 0, 0}, {256, 4, 8, 0, 0}, {256, 2, 8, 0, 1},
    {256, 4, 8, 0, 1},  {256, 4, 6, 0, 1},  {1024, 2, 2, 0, 1}, {512, 8, 2, 0, 1}, {256, 1, 4, 1, 0},
    {256, 1, 4, 1, 1},  {256, 2, 4, 1, 0},  {256, 2, 4, 1, 1},  {256, 4, 4, 1, 0}, {256, 4, 4, 1, 1},
    {512, 4, 4, 1, 1},  {1024, 4, 4, 1, 1}, {256, 8, 4, 1, 1},
};

/* Data kinds (gp_kcase.data): random (fp32 in [-1, 1), int32 over the whole
 * range, so the sum wraps), and fp32 holding integers -8..8 (n < 2^21: every
 * partial sum is an integer below 2^24, so the result is exact and a
 * dropped or doubled element shows however small). */
enum { DATA_RANDOM = 0, DATA_SMALL_INT = 1 };
#define SMALL_INT_MAX_N ((size_t)1 << 21)

/* ---- shapes: "N" or "2^K", then fp32 (default) or int32: "2^28 int32";
 * random: 1 .. 2^27 elements, fp32 or int32 */

#define SYNTAX "N or 2^K, then fp32 (default) or int32 (elements summed)"
static const gp_shape_format format = {1, .count = 1, .words = {{GP_REDUCE_TYPE, {"fp32", "int32"}}},
                                       .lo = {1}, .hi = {1ll << 27}};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
GP_KERNEL_SHAPE_RANDOM(format)

static void case_label(const gp_kcase *c, char *buf, size_t n)
{
    shape_label(&c->shape, buf, n);
    if (c->data == DATA_SMALL_INT || c->offset)
        gp_label_append(buf, n, "%s+%d elements", c->data ? "integer-valued " : "", c->offset);
}

/* The floor's model: the input read once; one add an element (FLOPs for
 * fp32 only). */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    (void)p;
    w->bytes = 4.0 * (double)s->d[GP_REDUCE_N];
    w->flops = s->opt[GP_REDUCE_TYPE] == GP_REDUCE_INT32 ? 0 : (double)s->d[GP_REDUCE_N];
    snprintf(w->method, sizeof w->method, "input read once (4 B); one add an element (integer adds are no FLOPs)");
    return gp_ok();
}

/* ---- cases */

/* Length len at offset off: random fp32, integer-valued fp32, random int32. */
static int add_kinds(gp_kcase *out, int n, int max, long long len, int off)
{
    n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {len}, .offset = off});
    if ((size_t)len < SMALL_INT_MAX_N)
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {len}, .data = DATA_SMALL_INT, .offset = off});
    return gp_kcase_add(out, n, max, (gp_kcase){.shape = {{len}, {GP_REDUCE_INT32}}, .offset = off});
}

static int cases(int set, const void *prm, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const gp_reduce_params *p = prm;
    int n = 0;
    (void)dev;
    if (set == GP_CASES_BENCH) {
        const long long big = 1ll << (quick ? 26 : 28);
        const unsigned head = GP_KCASE_PAIR | GP_KCASE_VARIANTS;
        for (int type = GP_REDUCE_FP32; type <= GP_REDUCE_INT32; type++) {
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape = {{big}, {type}}, .flags = head});
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape = {{1ll << 20}, {type}}});
        }
        return n;
    }
    const long long vec = (long long)p->block * p->items_per_thread * 4, group = GP_RED_GROUP * vec;
    if (set == GP_CASES_VARIANT) {
        /* One pass of the variant's grid + 3 (one pass: a group of blocks and one more + 3). */
        const long long pass = (p->one_pass ? group + vec : (long long)p->grid * vec) + 3;
        const long long len[] = {0, 5, 4097, pass, 1000003};
        for (int i = 0; i < 5; i++)
            n = add_kinds(out, n, max, len[i], i % 4);
        return n;
    }
    /* Lengths: empty, tiny, around the vector width, a block, a pass of the
     * whole grid (where the last partial pass starts; a one-pass table: a
     * group of blocks), a group of blocks (where the second level of the
     * cross-block sum starts, under the one pass the rule gives a length
     * within one sweep), and large ones; each 16-byte aligned and 1..3
     * elements off. */
    const long long pass = p->one_pass ? group : (long long)p->grid * vec;
    const long long len[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 255, 257, 1000, 1023, 1024, 1025,
                             4095, 4097, pass - 1, pass, pass + 1, pass + 3, 2 * pass + 5, group - 1, group,
                             group + 1, 1000003, (1 << 24) + 5, 30000001};
    const int nlen = (int)(sizeof len / sizeof len[0]) - (quick ? 2 : 0);
    for (int i = 0; i < nlen; i++) {
        n = add_kinds(out, n, max, len[i], 0);
        n = add_kinds(out, n, max, len[i], 1 + i % 3);
    }
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    size_t n;
    int is_f32, exact, wave;
    const void *d_in;      /* the case's offset into its buffer */
    void *d_out, *h_out;   /* 4 bytes */
    double ref, sum_abs;   /* fp32: the double sum and sum |x| */
    int32_t refi;          /* int32: the wrapped sum */
    gp_reduce_ws ws;
    void *d_tmp;           /* CUB's scratch, on its first run */
    size_t tmp_bytes;
} state;

static void teardown(void *st) { gp_reduce_ws_destroy(&((state *)st)->ws); }

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    s->n = (size_t)c->shape.d[GP_REDUCE_N];
    s->is_f32 = c->shape.opt[GP_REDUCE_TYPE] != GP_REDUCE_INT32;
    s->exact = s->is_f32 && c->data == DATA_SMALL_INT;
    s->wave = dev && dev->wave_size > 0 ? dev->wave_size : 64;
    if (s->n > SIZE_MAX / 8 || c->offset < 0 || (s->exact && s->n >= SMALL_INT_MAX_N))
        return gp_fail(GP_ERR_USAGE, "reduce: %zu elements (data kind %d) is no problem this bench can hold", s->n,
                       c->data);
    void *h = gp_kmem_host(&s->mem, s->n * 4 + 4);
    float *f = h;
    char *d_alloc;
    GP_TRY(gp_kmem_ok(&s->mem));
    if (s->exact)
        gp_fill_ints_f32(f, s->n, 8, rng);
    else if (s->is_f32)
        gp_fill_uniform_f32(f, s->n, -1.0f, 1.0f, rng);
    else
        gp_fill_uniform_i32(h, s->n, INT32_MIN, INT32_MAX, rng);
    s->ref = s->is_f32 ? gp_reduce_ref_f32(f, s->n, &s->sum_abs) : 0;
    s->refi = s->is_f32 ? 0 : gp_reduce_ref_i32(h, s->n);
    GP_TRY(gp_kmem_dev(&s->mem, (void **)&d_alloc, (s->n + (size_t)c->offset) * 4 + 16));
    GP_TRY(gp_kmem_output(&s->mem, &s->d_out, &s->h_out, 4, 0));
    s->d_in = d_alloc + 4 * (size_t)c->offset;
    return s->n ? gp_rt_copy_to_device((void *)s->d_in, h, s->n * 4) : gp_ok();
}

/* A workspace for p's grid (grown, never shrunk: it serves every smaller grid). */
static gp_status prepare(void *st, const void *prm)
{
    state *s = st;
    const gp_reduce_params *p = prm;
    if (s->ws.d && s->ws.max_grid >= p->grid)
        return gp_ok();
    gp_reduce_ws_destroy(&s->ws);
    return gp_reduce_ws_create(&s->ws, p);
}

static gp_status run(void *st, const void *p)
{
    state *s = st;
    return s->is_f32 ? gp_reduce_sum_f32(s->d_in, s->n, s->d_out, &s->ws, p, NULL)
                     : gp_reduce_sum_i32(s->d_in, s->n, s->d_out, &s->ws, p, NULL);
}

static const gp_kimpl impls[] = {{"CUB DeviceReduce::Sum", 1, 1, 1.0, 0, ""}};

static gp_status cub(state *s, void *tmp)
{
    return s->is_f32 ? gp_vendor_reduce_sum_f32(s->d_in, s->n, s->d_out, tmp, &s->tmp_bytes)
                     : gp_vendor_reduce_sum_i32(s->d_in, s->n, s->d_out, tmp, &s->tmp_bytes);
}

static gp_status run_impl(void *st, int impl, const void *p)
{
    state *s = st;
    (void)impl, (void)p;
    if (!s->d_tmp) { /* the scratch size (tmp NULL), then the scratch */
        GP_TRY(cub(s, NULL));
        GP_TRY(gp_kmem_dev(&s->mem, &s->d_tmp, s->tmp_bytes ? s->tmp_bytes : 16));
    }
    return cub(s, s->d_tmp);
}

/* int32 exact; integer-valued fp32 exact; ours within the tree's bound plus
 * the double reference's own error (n 2^-53 sum|x|) and bit-equal to one
 * more run of ours (repeatable; after a paired loop: the output was ours);
 * CUB, whose order is its own, within a generous bound (depth 4096) that
 * catches garbage. */
static gp_status check(void *st, const void *prm, int impl, const char *what)
{
    state *s = st;
    const gp_reduce_params *p = prm;
    float got, again;
    if (!s->is_f32)
        return gp_compare_i32(what, s->h_out, &s->refi, 1);
    memcpy(&got, s->h_out, 4);
    const size_t head = (size_t)((16 - ((uintptr_t)s->d_in & 15)) & 15) / 4;
    const int depth = impl >= 0 ? 4096 : gp_reduce_f32_depth(p, s->n, head < s->n ? head : s->n, s->wave);
    const double err = fabs((double)got - s->ref);
    const double bound =
        s->exact ? 0 : gp_reduce_f32_bound(depth, s->sum_abs) + (double)s->n * ldexp(1.0, -53) * s->sum_abs;
    if (!(err <= bound))
        return gp_fail(GP_ERR_CHECK, "%s: sum %.9g, reference %.17g (error %.3g > bound %.3g = gamma_%d x %.6g)", what,
                       (double)got, s->ref, err, bound, depth, s->sum_abs);
    if (impl >= 0)
        return gp_ok();
    GP_TRY(gp_kmem_poison(&s->mem));
    GP_TRY(run(s, p));
    GP_TRY(gp_rt_synchronize());
    GP_TRY(gp_rt_copy_to_host(&again, s->d_out, 4));
    if (memcmp(&got, &again, 4))
        return gp_fail(GP_ERR_CHECK, "%s: sum %.9g, then %.9g from one more run of ours alone: not repeatable, or "
                       "the output was not ours", what, (double)got, (double)again);
    return gp_ok();
}

const gp_kernel gp_kernel_reduce = {
    GP_KERNEL_DECLARED,
    .summary = "sum of fp32 / int32 arrays of any length, one launch, deterministic (vs CUB DeviceReduce)",
    .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random,
    .work = work, .cases = cases, .case_label = case_label, .state_size = sizeof(state), .setup = setup,
    .prepare = prepare, .run = run, .check = check, .teardown = teardown, .impls = impls, .nimpls = 1,
    .run_impl = run_impl,
};
