/* The kernel driver (kernels/driver.c), tune (kernels/tune.c) and the one
 * shape path (kernels/kernel.c) on a host model of a kernel: a "kernel"
 * that doubles its input on the host, in the [kernel.transpose] section of
 * the schema, timed by fake device operations whose times come from a cost
 * model of its parameters.  What a GPU would decide, decided on the CPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "data.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kmem.h"
#include "rule.h"
#include "transpose.h"
#include "tune.h"

/* ---- the model kernel */

static const gp_param fake_params[] = {
#define GP_PARAM(k, key, unit, lo, hi, dflt, flags, doc) GP_PARAM_ROW(gp_transpose_params, key, lo, hi, dflt, flags),
#include "transpose_params.inc"
#undef GP_PARAM
};
#define NP ((int)(sizeof fake_params / sizeof fake_params[0]))

/* tile 64 runs faster than the rule's 32, tile 16 slower; vec 4 computes a
 * wrong answer when `buggy`. */
static const int fake_variants[][NP] = {
    {64, 1, 8, 1, 1, 0, 0, GP_PARAM_KEEP},
    {16, 1, 8, 1, 1, 0, 0, GP_PARAM_KEEP},
    {32, 1, 8, 4, 1, 0, 0, GP_PARAM_KEEP},
};

static int buggy;
static double tile64_speed = 0.8; /* tile 64's time as a fraction of the rule's */
static double last_cost;          /* the model time of the last run, in ms */
static int runs;

static void fake_fit(void *p, const gp_device_info *dev) { (void)p, (void)dev; }

/* The rule: tiles_per_block from the shape (2 for n >= 1000, the headline's). */
static gp_status fake_rule(const gp_rule_in *in, gp_table *out)
{
    static const char *const keys[] = {"tile", "pad", "block_rows", "vec", "group", "swizzle", "stream"};
    static const int vals[] = {32, 1, 8, 1, 1, 0, 0};
    for (int i = 0; i < 7; i++)
        GP_TRY(gp_rule_set(out, "transpose", keys[i], vals[i], "model", "the model kernel's value"));
    long long n = in->shape ? in->shape->d[0] : 4096;
    return gp_rule_set(out, "transpose", "tiles_per_block", n >= 1000 ? 2 : 1, "model", "n %lld", n);
}

static gp_status fake_parse(const char *spec, gp_shape *s)
{
    memset(s, 0, sizeof *s);
    char *end;
    s->d[0] = strtoll(spec, &end, 10);
    return s->d[0] > 0 && !*end ? gp_ok() : gp_fail(GP_ERR_USAGE, "not N");
}

static void fake_label(const gp_shape *s, char *buf, size_t n) { snprintf(buf, n, "%lld", s->d[0]); }

static gp_status fake_work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    (void)p;
    w->bytes = 8.0 * (double)s->d[0], w->flops = (double)s->d[0];
    snprintf(w->method, sizeof w->method, "model");
    return gp_ok();
}

static int fake_cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    static const long long bench[] = {4096, 100}, verify[] = {1, 2, 3, 5}, variant[] = {7};
    const long long *src = set == GP_CASES_BENCH ? bench : set == GP_CASES_VERIFY ? verify : variant;
    int n = set == GP_CASES_BENCH ? 2 : set == GP_CASES_VERIFY ? 4 : 1;
    (void)p, (void)dev, (void)quick;
    for (int i = 0; i < n && i < max; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].shape.d[0] = src[i];
        out[i].flags = set == GP_CASES_BENCH && i == 0 ? GP_KCASE_PAIR | GP_KCASE_VARIANTS : 0;
    }
    return n;
}

typedef struct fstate {
    gp_kmem mem;
    long long n;
    float *in, *out;
} fstate;

static gp_status fake_setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    (void)dev;
    fstate *s = st;
    s->n = c->shape.d[0];
    s->in = gp_kmem_host(&s->mem, (size_t)s->n * sizeof(float));
    s->out = gp_kmem_host(&s->mem, (size_t)s->n * sizeof(float));
    GP_TRY(gp_kmem_ok(&s->mem));
    gp_fill_uniform_f32(s->in, (size_t)s->n, -1, 1, rng);
    return gp_ok();
}

static gp_status fake_poison(void *st)
{
    fstate *s = st;
    for (long long i = 0; i < s->n; i++)
        s->out[i] = NAN;
    return gp_ok();
}

static gp_status fake_run(void *st, const void *prm)
{
    fstate *s = st;
    const gp_transpose_params *p = prm;
    for (long long i = 0; i < s->n; i++)
        s->out[i] = 2 * s->in[i];
    if (buggy && p->vec == 4)
        s->out[0] += 1;
    last_cost = 1e-3 * (double)s->n * (p->tile == 64 ? tile64_speed : p->tile == 16 ? 1.3 : 1.0);
    runs++;
    return gp_ok();
}

static const gp_kimpl fake_impls[] = {{"host copy", 1, 1, 1.0, 1, ""}};

static gp_status fake_run_impl(void *st, int impl, const void *p)
{
    (void)p;
    fstate *s = st;
    (void)impl;
    memcpy(s->out, s->in, (size_t)s->n * sizeof(float));
    last_cost = 1.1e-3 * (double)s->n;
    return gp_ok();
}

static gp_status fake_check(void *st, const void *p, int impl, const char *what)
{
    fstate *s = st;
    (void)p;
    for (long long i = 0; i < s->n; i++) {
        float want = impl < 0 ? 2 * s->in[i] : s->in[i];
        if (s->out[i] != want)
            return gp_fail(GP_ERR_CHECK, "%s: element %lld is %g, want %g", what, i, s->out[i], want);
    }
    return gp_ok();
}

static const gp_kernel fake = {
    .name = "transpose",
    .summary = "a host model of a kernel",
    .params = fake_params,
    .nparams = NP,
    .params_size = sizeof(gp_transpose_params),
    .note_offset = offsetof(gp_transpose_params, note),
    .note_size = sizeof(((gp_transpose_params *)0)->note),
    .fit = fake_fit,
    .rule = fake_rule,
    .variants = &fake_variants[0][0],
    .nvariants = 3,
    .shape_syntax = "N",
    .shape_parse = fake_parse,
    .shape_label = fake_label,
    .work = fake_work,
    .cases = fake_cases,
    .state_size = sizeof(fstate),
    .setup = fake_setup,
    .poison = fake_poison,
    .run = fake_run,
    .check = fake_check,
    .impls = fake_impls,
    .nimpls = 1,
    .run_impl = fake_run_impl,
};

/* ---- fake device operations: run the work once, report the model's time */

static gp_status fake_sync(void) { return gp_ok(); }

static gp_status fake_time(gp_bench_work_fn work, void *ctx, const gp_harness_cfg *cfg, gp_harness_result *out)
{
    memset(out, 0, sizeof *out);
    GP_TRY(work(ctx));
    for (int i = 0; i < cfg->min_reps; i++)
        out->samples[out->n++] = last_cost * (1 + 0.001 * (i % 3 - 1));
    gp_stats_summarize(out->samples, out->n, &out->summary);
    out->stable = 1;
    return gp_ok();
}

static gp_status fake_pair(const gp_bench_pair_cfg *cfg, gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b,
                           void *ctx_b, gp_bench_paired *out)
{
    double ta[2 * GP_BENCH_PAIR_MAX_ROUNDS], tb[2 * GP_BENCH_PAIR_MAX_ROUNDS];
    int rounds = cfg->min_rounds;
    for (int r = 0; r < rounds; r++) {
        GP_TRY(a(ctx_a));
        double ca = last_cost;
        GP_TRY(b(ctx_b));
        double cb = last_cost;
        GP_TRY(a(ctx_a)); /* A runs last: its output is what is checked */
        for (int k = 0; k < 2; k++) {
            double noise = 0.002 * ((r + k) % 3 - 1);
            ta[2 * r + k] = ca * (1 + noise), tb[2 * r + k] = cb * (1 - noise);
        }
    }
    return gp_bench_pair_ratios(ta, tb, rounds, out);
}

static const gp_driver_ops fake_ops = {fake_sync, fake_time, fake_pair, NULL};

static void opts(gp_kernel_opts *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->dev.name, sizeof o->dev.name, "NVIDIA H200");
    snprintf(o->dev.arch, sizeof o->dev.arch, "sm_90");
    o->dev.compute_units = 132;
    o->seed = 42;
    o->quick = 1;
    o->ops = &fake_ops;
}

/* A table whose [kernel.transpose] is the model rule's. */
static int model_table(gp_table *t)
{
    if (!gp_test_load_table("tables/sm_90", t))
        return 0;
    gp_rule_in in = {t, NULL, 0};
    return fake_rule(&in, t).code == GP_OK;
}

GP_TEST(driver_verify_names_a_wrong_variant)
{
    static gp_table t;
    gp_kernel_opts o;
    opts(&o);
    GP_CHECK(model_table(&t));
    buggy = 0;
    GP_CHECK(gp_driver_verify(&fake, &t, NULL, 0, &o).code == GP_OK);
    buggy = 1;
    gp_status st = gp_driver_verify(&fake, &t, NULL, 0, &o);
    buggy = 0;
    GP_CHECK(st.code == GP_ERR_CHECK);
    GP_CHECK(strstr(st.msg, "vec=4") != NULL && strstr(st.msg, "transpose 7") != NULL);
    /* A user's shapes are checked alone, one run each. */
    gp_shape s[2] = {{{1000}, {0}}, {{7}, {0}}};
    runs = 0;
    GP_CHECK(gp_driver_verify(&fake, &t, s, 2, &o).code == GP_OK);
    GP_CHECK(runs == 2);
    runs = 0;
    GP_CHECK(gp_driver_verify(&fake, &t, NULL, 0, &o).code == GP_OK);
    GP_CHECK(runs == 4 + 3); /* verify cases, a variant case each */
    return 0;
}

/* A variant whose parameters an earlier table's run checked is not run
 * again under the next table of the same verify; a fresh record checks it. */
GP_TEST(driver_verify_checks_a_variant_once_a_run)
{
    static gp_table t;
    static gp_verify_seen seen;
    gp_kernel_opts o;
    opts(&o);
    GP_CHECK(model_table(&t));
    seen.n = 0, runs = 0;
    GP_CHECK(gp_driver_verify_seen(&fake, &t, NULL, 0, &o, &seen).code == GP_OK);
    GP_CHECK(runs == 4 + 3 && seen.n == 3);
    runs = 0;
    GP_CHECK(gp_driver_verify_seen(&fake, &t, NULL, 0, &o, &seen).code == GP_OK);
    GP_CHECK(runs == 4); /* the cases again, no variant */
    /* A wrong variant is still caught by the run that checks it. */
    seen.n = 0, buggy = 1;
    gp_status st = gp_driver_verify_seen(&fake, &t, NULL, 0, &o, &seen);
    buggy = 0;
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "vec=4") != NULL);
    GP_CHECK(seen.n < 3); /* the failed one is not kept as checked */
    /* Every kernel's parameters fit the record (a larger one is never skipped: checked again). */
    for (size_t i = 0; i < gp_kernel_count(); i++)
        GP_CHECK(gp_kernel_at(i)->params_size <= GP_VERIFY_SEEN_BYTES);
    return 0;
}

GP_TEST(driver_bench_rows_pairs_and_floors)
{
    static gp_table t, facts;
    static gp_bench b;
    gp_kernel_opts o;
    opts(&o);
    GP_CHECK(model_table(&t));
    GP_CHECK(gp_test_load_table("tables/sm_90", &facts));
    memset(&b, 0, sizeof b);
    gp_driver_table dt[2] = {{&t, "measured sm_90"}, {&t, "again"}};
    GP_CHECK(gp_driver_bench(&fake, &facts, dt, 2, NULL, 0, &o, &b).code == GP_OK);
    /* Problem 4096: ours twice, the impl, three variants; problem 100: ours
     * twice and the impl. */
    GP_CHECK(b.nrows == 6 + 3);
    GP_CHECK(!strcmp(b.rows[0].problem, "4096") && !strcmp(b.rows[0].table, "measured sm_90"));
    GP_CHECK(b.rows[2].is_baseline && !strcmp(b.rows[2].impl, "host copy"));
    /* Ours paired with the baseline: 1.1 / 1.0. */
    GP_CHECK(b.rows[0].has_pair);
    GP_CHECK_NEAR(b.rows[0].pair_ratio.median, 1.1, 0.01);
    /* The fastest variant (tile 64) is paired too; the floor is the facts'. */
    int tile64 = -1;
    for (int i = 0; i < b.nrows; i++)
        if (strstr(b.rows[i].impl, "tile=64"))
            tile64 = i;
    GP_CHECK(tile64 > 0 && b.rows[tile64].has_pair);
    GP_CHECK_NEAR(b.rows[tile64].pair_ratio.median, 1.1 / 0.8, 0.02);
    GP_CHECK(b.rows[0].floor_ms > 0 && strstr(b.rows[0].floor_note, "DRAM") != NULL);
    GP_CHECK(b.rows[6].problem[0] == '1' && !b.rows[6].has_pair);
    /* The user's shapes replace the bench problems. */
    memset(&b, 0, sizeof b);
    gp_shape s = {{1000}, {0}};
    GP_CHECK(gp_driver_bench(&fake, &facts, dt, 1, &s, 1, &o, &b).code == GP_OK);
    GP_CHECK(b.nrows == 2 && !strcmp(b.rows[0].problem, "1000") && b.rows[0].has_pair);
    return 0;
}

GP_TEST(tune_keeps_the_faster_variant_or_the_rule)
{
    static gp_table base;
    gp_kernel_opts o;
    opts(&o);
    GP_CHECK(model_table(&base));
    long long tile;
    tile64_speed = 0.8;
    GP_CHECK(gp_tune_kernel(&fake, &base, NULL, 0, &o, NULL, NULL).code == GP_OK);
    GP_CHECK(gp_table_get_int(&base, "kernel.transpose", "tile", &tile).code == GP_OK && tile == 64);
    GP_CHECK(gp_table_find(&base, "kernel.transpose", "tile")->kind == GP_PROV_SWEPT);
    /* The swept set keeps the rule's values where the variant keeps them. */
    GP_CHECK(gp_table_get_int(&base, "kernel.transpose", "tiles_per_block", &tile).code == GP_OK && tile == 2);
    /* Tile 64 within the paired spread of the rule: the rule stays. */
    GP_CHECK(model_table(&base));
    tile64_speed = 0.999;
    GP_CHECK(gp_tune_kernel(&fake, &base, NULL, 0, &o, NULL, NULL).code == GP_OK);
    GP_CHECK(gp_table_get_int(&base, "kernel.transpose", "tile", &tile).code == GP_OK && tile == 32);
    GP_CHECK(gp_table_find(&base, "kernel.transpose", "tile")->kind == GP_PROV_RULE);
    tile64_speed = 0.8;
    return 0;
}

GP_TEST(kernel_params_follow_the_shape)
{
    static gp_table t;
    gp_transpose_params p;
    char note[160];
    GP_CHECK(model_table(&t));
    gp_shape small = {{100}, {0}}, big = {{5000}, {0}};
    GP_CHECK(gp_kernel_params(&fake, &t, NULL, &small, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.tiles_per_block == 1 && strstr(note, "tiles_per_block 2->1") != NULL);
    GP_CHECK(gp_kernel_params(&fake, &t, NULL, &big, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.tiles_per_block == 2);
    /* A swept value is launched as it is, whatever the shape. */
    GP_CHECK(gp_table_set(&t, "kernel.transpose", "tiles_per_block", 4, "swept transpose 2026-11-28").code == GP_OK);
    GP_CHECK(gp_kernel_params(&fake, &t, NULL, &small, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.tiles_per_block == 4 && p.tile == 32);
    return 0;
}

/* tune --shape: each shape's verdict kept as its class's entry in the
 * table (a find-db entry), the table's own section untouched; a launch of
 * that shape then takes the entry, another shape the rule. */
GP_TEST(tune_shapes_keep_one_entry_per_class)
{
    static gp_table base, back;
    gp_kernel_opts o;
    opts(&o);
    GP_CHECK(model_table(&base));
    tile64_speed = 0.8;
    gp_shape s[2] = {{{5000}, {0}}, {{300}, {0}}};
    GP_CHECK(gp_tune_kernel(&fake, &base, s, 2, &o, NULL, NULL).code == GP_OK);
    GP_CHECK(base.nshaped == 2);
    const gp_table_shaped *e = gp_table_shaped_find(&base, "transpose", "5000");
    GP_CHECK(e && e->nkeys == NP && !strncmp(e->prov, "swept transpose ", 16));
    long long tile;
    GP_CHECK(gp_table_get_int(&base, "kernel.transpose", "tile", &tile).code == GP_OK && tile == 32);
    gp_transpose_params p;
    char note[160];
    GP_CHECK(gp_kernel_params(&fake, &base, NULL, &s[0], 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.tile == 64 && strstr(note, "tuned for this shape's class 5000"));
    gp_shape other = {{7000}, {0}};
    GP_CHECK(gp_kernel_params(&fake, &base, NULL, &other, 0, &p, note, sizeof note).code == GP_OK && p.tile == 32);
    /* The entries survive a write and a parse. */
    char path[] = "/tmp/gp_shaped_XXXXXX";
    int fd = mkstemp(path);
    GP_CHECK(fd >= 0);
    close(fd);
    GP_CHECK(gp_table_write(&base, path).code == GP_OK && gp_table_load(path, &back).code == GP_OK);
    GP_CHECK(gp_table_equal(&base, &back));
    remove(path);
    /* Tuned again with the rule as fast: the class's entry goes. */
    tile64_speed = 0.999;
    GP_CHECK(gp_tune_kernel(&fake, &base, s, 1, &o, NULL, NULL).code == GP_OK);
    GP_CHECK(!gp_table_shaped_find(&base, "transpose", "5000") && base.nshaped == 1);
    tile64_speed = 0.8;
    return 0;
}
