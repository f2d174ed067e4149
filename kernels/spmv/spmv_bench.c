/* spmv for the driver (kernels/driver.h): its matrices (generated in code),
 * one problem's set-up, run and check (spmv_ref.c: every row within its fp32
 * bound for the path that ran, small integers exact, y guarded), cuSPARSE as
 * the baseline, ours with CSR or its lanes a row forced, the gp_kernel entry. */
#include <math.h>

#include "spmv.h"
#include "spmv_vendor.h"
#define GP_KERNEL_NAME spmv
#include "kernel_decl.h"

#define GUARD 16 /* elements poisoned on each side of y: a store past either end shows */
#define K GP_PARAM_KEEP

/* The variants (tune's candidates, bench's context rows), in the order of
 * spmv_params.inc: blocks x unrolls at the base's scalar_max_row, the
 * scalar kernel never and up to 32, then the base's block at each unroll. */
static const int variants[][NPARAMS] = {
    {256, 1, K}, {256, 2, K}, {256, 4, K}, {256, 8, K}, {512, 1, K}, {512, 2, K}, {512, 4, K}, {512, 8, K},
    {128, 4, K}, {512, 4, 0}, {512, 4, 32}, {K, 1, K},  {K, 2, K},   {K, 4, K},   {K, 8, K},
};

/* Data: the generators' values and x uniform in [-1, 1); or small integers
 * (values and x in -4..4: every partial sum an integer below 2^24, exact in
 * any order, so a lost or doubled nonzero shows however small). */
enum { DATA_UNIFORM = 0, DATA_INTEGERS = 1 };

/* Ours with a path forced (verify checks each too): CSR at the plan's lanes
 * a row ("gpuprobe csr": a bench row only where ours is not CSR), at 1..32;
 * past them the paths only verify_extra forces: ELL, CSR a wave a row. */
enum { IMPL_VENDOR, IMPL_CSR, IMPL_T1, NIMPLS = IMPL_T1 + 6, PATH_ELL = NIMPLS, PATH_WAVE };
static char vendor_impl[GP_BENCH_TEXT] = "cuSPARSE cusparseSpMV CSR (ALG_DEFAULT)";
#define CSR_T(n, s) {"gpuprobe csr t" #n, 0, 0, 0, 1, "CSR forced, " #n " lane" s " a row"}
static const gp_kimpl impls[NIMPLS] = {
    {vendor_impl, 1, 1, 1.0, 0, ""}, {"gpuprobe csr", 0, 0, 0, 1, "CSR forced, the plan's lanes a row"},
    CSR_T(1, ""), CSR_T(2, "s"), CSR_T(4, "s"), CSR_T(8, "s"), CSR_T(16, "s"), CSR_T(32, "s"),
};

/* ---- shapes: spmv_ref.c, beside the generator they describe */

static void case_label(const gp_kcase *c, char *buf, size_t n)
{
    gp_spmv_shape_label(&c->shape, buf, n);
    if (c->data == DATA_INTEGERS)
        gp_label_append(buf, n, "small integers");
}

/* The floor's model: the CSR arrays read once (values and columns, 8 B a
 * nonzero; row pointers), x and y once; 2 FLOPs a nonzero. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const double nnz = gp_spmv_shape_nnz(s), rows = (double)s->d[GP_SPMV_ROWS];
    (void)p;
    w->bytes = 8.0 * nnz + 4.0 * (rows + 1) + 4.0 * (double)s->d[GP_SPMV_COLS] + 4.0 * rows;
    w->flops = 2.0 * nnz;
    snprintf(w->method, sizeof w->method, "CSR read once (8 B a nonzero, row pointers), x and y once; 2 FLOPs a "
             "nonzero (%s)", s->opt[GP_SPMV_OPT_KIND] == GP_SPMV_KIND_POWERLAW ? "expected nonzeros" : "nonzeros");
    return gp_ok();
}

/* ---- cases */

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    enum { LAP = GP_SPMV_KIND_LAPLACIAN, UNI = GP_SPMV_KIND_UNIFORM, PL = GP_SPMV_KIND_POWERLAW };
    const long long b = p ? ((const gp_spmv_params *)p)->block : 256, g = quick ? 1024 : 4096;
    const long long r = quick ? 1 << 20 : 1 << 22, small = quick || set == GP_CASES_VARIANT;
    const long long lap = small ? 200 : 500, uni = small ? 20000 : 100000, pl = small ? 50000 : 300000;
    /* Generated matrices in spmv.h's slots: {{rows, cols, len, cut}, {kind,
     * alpha x 100}}.  Bench: at least as fast as cuSPARSE (its target, 1.0)
     * on the Laplacian and the uniform rows; power-law reported. */
    const gp_shape bench[3] = {{{g * g, g * g, g}, {LAP}}, {{r, r, 16}, {UNI}}, {{r, r, 4, 65536}, {PL, 150}}};
    /* Verify: the hand-made rows, 1 x 1, empty rows, one dense row, two
     * Laplacians, uniform rows of 16 and 3, power-law rows up to 100000
     * long; each on both data.  The variants' list: the same at --quick's
     * sizes (every variant and forced path runs on every matrix). */
    const gp_shape verify[9] = {
        {{1000, 4 * b, b}, {GP_SPMV_KIND_MIXED}}, {{1, 1, 1}, {UNI}},   {{3, 10, 0}, {UNI}},
        {{1, 5000, 5000}, {UNI}}, {{49, 49, 7}, {LAP}}, {{lap * lap, lap * lap, lap}, {LAP}}, {{uni, 50000, 16}, {UNI}},
        {{30001, 777, 3}, {UNI}}, {{pl, 100000, 2, 100000}, {PL, 130}},
    };
    int n = 0;
    (void)dev;
    if (set == GP_CASES_BENCH)
        for (int i = 0; i < 3; i++)
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape = bench[i], .flags = GP_KCASE_VARIANTS | GP_KCASE_SAMPLE |
                                                     (i < 2 ? GP_KCASE_PAIR : GP_KCASE_REPORT)});
    else
        for (int d = DATA_UNIFORM; d <= DATA_INTEGERS; d++)
            for (int i = 0; i < 9; i++)
                n = gp_kcase_add(out, n, max, (gp_kcase){.shape = verify[i], .data = d});
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    gp_csr a;
    int wave, exact, bench;
    int stride;                /* rows 0, stride, 2 stride, ... are checked (a bench problem's sample; 1: all) */
    float *h_x, *h_y;          /* x; y's mirror */
    double *ref, *sum_abs;     /* y and sum |a x| of every checked row, in double */
    int *d_rp, *d_col;
    float *d_val, *d_x, *d_y;  /* d_y: y, GUARD words of guard on each side */
    gp_spmv_plan ell;          /* the first ELL plan's slots, which every later ELL plan shares (made once) */
    gp_vendor_spmv *vs;
} state;

/* The plans go with the problem's memory (gp_kmem_plan); the ELL slots
 * they borrow are freed by them only where they own them. */
static void teardown(void *p)
{
    state *s = p;
    gp_spmv_plan_destroy(&s->ell);
    gp_vendor_spmv_destroy(s->vs);
    gp_csr_free(&s->a);
}

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    s->wave = dev && dev->wave_size == 32 ? 32 : 64;
    s->exact = c->data == DATA_INTEGERS, s->bench = (c->flags & (GP_KCASE_PAIR | GP_KCASE_REPORT)) != 0;
    if (c->offset || c->data < DATA_UNIFORM || c->data > DATA_INTEGERS)
        return gp_fail(GP_ERR_USAGE, "spmv: data kind %d, offset %d not this kernel's", c->data, c->offset);
    gp_csr *a = &s->a;
    GP_TRY(gp_spmv_gen_shape(a, &c->shape, rng));
    GP_TRY(gp_csr_check(a, "spmv matrix"));
    const size_t rows = (size_t)a->rows, cols = (size_t)a->cols;
    /* A bench problem's sample: about 2^18 rows at an odd stride (every
     * row length and position class met); verify's cases check every row. */
    s->stride = c->flags & GP_KCASE_SAMPLE && a->rows > (1 << 20) ? (a->rows >> 18) | 1 : 1;
    const size_t checked = (rows + (size_t)s->stride - 1) / (size_t)s->stride;
    s->h_x = gp_kmem_host(&s->mem, cols * 4), s->ref = gp_kmem_host(&s->mem, checked * sizeof(double));
    s->sum_abs = gp_kmem_host(&s->mem, checked * sizeof(double));
    GP_TRY(gp_kmem_ok(&s->mem));
    if (s->exact)
        gp_fill_ints_f32(a->val, (size_t)a->nnz, 4, rng), gp_fill_ints_f32(s->h_x, cols, 4, rng);
    for (size_t i = 0; !s->exact && i < cols; i++)
        s->h_x[i] = (float)gp_rand_uniform(rng, -1.0, 1.0);
    for (long long r = 0, j = 0; r < a->rows; r += s->stride, j++)
        gp_spmv_ref(a, s->h_x, (int)r, (int)r + 1, s->ref + j, s->sum_abs + j);
    if (gp_vendor_spmv_name())
        snprintf(vendor_impl, sizeof vendor_impl, "%s cusparseSpMV CSR (ALG_DEFAULT)", gp_vendor_spmv_name());
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_rp, a->row_ptr, (rows + 1) * sizeof(int)));
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_col, a->col, (size_t)a->nnz * sizeof(int)));
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_val, a->val, (size_t)a->nnz * sizeof(float)));
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_x, s->h_x, cols * 4));
    return gp_kmem_output(&s->mem, (void **)&s->d_y, (void **)&s->h_y, rows * 4, GUARD);
}

/* The format and lanes a row of a path: ours (-1), an impl (cuSPARSE: any
 * order of a row's additions, format -1), a path verify_extra forces. */
static void path_of(const state *s, int path, int *format, int *tpr)
{
    *format = path < 0 ? GP_SPMV_AUTO : path == IMPL_VENDOR ? -1 : path == PATH_ELL ? GP_SPMV_ELL : GP_SPMV_CSR;
    *tpr = path == PATH_WAVE ? s->wave : path >= IMPL_T1 && path < NIMPLS ? 1 << (path - IMPL_T1) : 0;
}

/* The plan of a path for p (gp_kmem_plan: made in prepare, or in the
 * driver's untimed first run of an impl), on the matrix setup checked
 * once (gp_spmv_plan_create_sharing).  Its ELL slots, where it chooses
 * ELL, are the problem's one copy (s->ell, made by the first such plan):
 * tune's candidates differ in block and unroll, not in the layout, and a
 * 4 M-row matrix's slots take a second to build on the host. */
static gp_status make_plan(void *st, const void *p, int path, void *plan)
{
    state *s = st;
    gp_spmv_plan *pl = plan;
    gp_spmv_choice c;
    int format, tpr;
    path_of(s, path, &format, &tpr);
    if (tpr > s->wave)
        return gp_fail(GP_ERR_UNSUPPORTED, "%d lanes a row exceed the wave of %d", tpr, s->wave);
    if (path == IMPL_CSR && s->bench &&
        gp_spmv_choose(s->a.row_ptr, s->a.rows, p, s->wave, GP_SPMV_AUTO, 0, &c).code == GP_OK &&
        c.format == GP_SPMV_CSR)
        return gp_fail(GP_ERR_UNSUPPORTED, "ours runs CSR on this matrix already");
    GP_TRY(gp_spmv_plan_create_sharing(pl, &s->a, s->d_rp, s->d_col, s->d_val, p, s->wave, format, tpr, &s->ell));
    if (pl->d_ell_col && !pl->ell_borrowed && !s->ell.d_ell_col) /* the problem keeps them, this plan borrows them */
        s->ell = *pl, s->ell.d_long = NULL, pl->ell_borrowed = 1;
    return gp_ok();
}

static void free_plan(void *plan) { gp_spmv_plan_destroy(plan); }

static const gp_kplan_kind plan_kind = {sizeof(gp_spmv_plan), params, NPARAMS, sizeof(gp_spmv_params), make_plan,
                                        free_plan};

static gp_status run_path(state *s, const void *p, int path)
{
    gp_spmv_plan *pl;
    GP_TRY(gp_kmem_plan(&s->mem, &plan_kind, p, path, (void **)&pl));
    return gp_spmv_run(pl, s->d_x, s->d_y, NULL);
}

static gp_status prepare(void *st, const void *p) { return gp_kmem_plan(st, &plan_kind, p, -1, NULL); }

static gp_status run(void *st, const void *p) { return run_path(st, p, -1); }

static gp_status run_impl(void *st, int impl, const void *p)
{
    state *s = st;
    if (impl != IMPL_VENDOR)
        return p ? run_path(s, p, impl) : gp_fail(GP_ERR_USAGE, "spmv %s: needs our parameters", impls[impl].name);
    if (!s->vs)
        GP_TRY(gp_vendor_spmv_create(&s->vs, s->a.rows, s->a.cols, s->a.nnz, s->d_rp, s->d_col, s->d_val, s->d_x,
                                     s->d_y));
    return gp_vendor_spmv_run(s->vs);
}

/* Every checked row within the bound of the path that ran, the choice
 * being its plan's (made for the run; a cuSPARSE row: any order); the
 * guards: kmem.h. */
static gp_status check(void *st, const void *prm, int impl, const char *what)
{
    state *s = st;
    int format, tpr;
    gp_spmv_plan *pl = NULL;
    path_of(s, impl, &format, &tpr);
    if (format >= 0)
        GP_TRY(gp_kmem_plan(&s->mem, &plan_kind, prm, impl, (void **)&pl));
    return gp_spmv_check_choice(&s->a, s->h_y, s->stride, s->ref, s->sum_abs, pl ? &pl->c : NULL, prm, s->wave,
                                s->exact, what);
}

/* The paths no impl runs, on every verify matrix with p: ELL forced where
 * its slots stay within 4 x nnz + 4096 (uniform data), CSR at a wave of
 * lanes a row (small integers, exact). */
static gp_status forced_path(const gp_kernel *k, gp_problem *pr, const gp_table *t, const void *p,
                             const gp_kernel_opts *o)
{
    const state *s = pr->st;
    char what[GP_BENCH_TEXT + 32];
    int maxl = 0;
    (void)t;
    for (int r = 0; r < s->a.rows; r++)
        maxl = s->a.row_ptr[r + 1] - s->a.row_ptr[r] > maxl ? s->a.row_ptr[r + 1] - s->a.row_ptr[r] : maxl;
    if (!s->exact && (double)maxl * s->a.rows > 4.0 * (double)s->a.nnz + 4096)
        return gp_fail(GP_ERR_UNSUPPORTED, "ELL pads more than that here");
    snprintf(what, sizeof what, "%s%s", pr->label, s->exact ? " (CSR, a wave a row)" : " (ELL)");
    return gp_problem_run_as(k, pr, p, s->exact ? PATH_WAVE : PATH_ELL, what, gp_driver_ops_of(o));
}

static gp_status verify_extra(const gp_table *t, const void *p, const gp_kernel_opts *o)
{
    uint64_t rng = o->seed ^ 0x5eed5eedull;
    int ran = 0;
    GP_TRY(gp_problem_each_case(&gp_kernel_spmv, GP_CASES_VERIFY, t, p, o, &rng, forced_path, &ran));
    if (o->log)
        fprintf(o->log, "  %d forced paths checked (ELL where it pads little; CSR a wave a row, exact)\n", ran);
    return gp_ok();
}

const gp_kernel gp_kernel_spmv = {
    GP_KERNEL_DECLARED,
    .summary = "y = A x, fp32 CSR (scalar / vector by row length, long rows a block each) or ELL where it pads "
               "little (vs cuSPARSE SpMV)",
    .shape_syntax = GP_SPMV_SHAPE_SYNTAX, .shape_parse = gp_spmv_shape_parse, .shape_label = gp_spmv_shape_label,
    .shape_random = gp_spmv_shape_random,
    .work = work, .cases = cases, .case_label = case_label, .state_size = sizeof(state), .setup = setup,
    .prepare = prepare, .run = run, .check = check, .teardown = teardown, .impls = impls, .nimpls = NIMPLS,
    .run_impl = run_impl, .verify_extra = verify_extra,
};
