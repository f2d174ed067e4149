/* scan for the driver (kernels/driver.h): its problems, one problem's
 * set-up, run and check (scan_ref.c; the output poisoned and guarded, in
 * place or at other offsets), CUB DeviceScan and the device copy as its
 * baselines, the workspace reused run after run, and the gp_kernel entry. */
#include "scan.h"
#include "scan_vendor.h"
#define GP_KERNEL_NAME scan
#include "kernel_decl.h"

/* The variants (tune's candidates, bench's context rows), in the order of
 * scan_params.inc: tiles of 1024 to 16384 elements in registers, and rings
 * of 2 to 6 tiles of 8192 or 16384 (one or two blocks a CU on the H200).
 * Where the ring cannot run, fit turns a ring into a register variant
 * already in the list (tune skips the duplicate). */
static const int variants[][NPARAMS] = {
    {256, 4, 0},  {256, 8, 0},  {256, 16, 0}, {512, 4, 0},  {512, 8, 0},  {512, 16, 0},
    {128, 16, 0}, {1024, 8, 0}, {128, 32, 0}, {256, 32, 0}, {128, 64, 0}, {256, 64, 0},
    {256, 64, 3}, {256, 64, 2}, {512, 32, 3}, {256, 32, 3}, {256, 32, 6}, {128, 64, 3},
};

/* Data kinds (gp_kcase.data): random data (fp32 in [-1, 1), int32 over the
 * whole range, so the sums wrap) with the output at the input's offset
 * within 16 bytes (16-byte stores), at another one (4-byte stores) or in
 * place; fp32 small integers in place (|partial sums| <= 8 n < 2^24: exact
 * whatever the order, so a lost or doubled element shows however small). */
enum { DATA_RANDOM, DATA_SHIFTED, DATA_IN_PLACE, DATA_SMALL_INT, NKINDS };
static const char *const kind_names[NKINDS] = {"", ", output shifted", ", in place", ", small integers in place"};
#define SMALL_INT_MAX_N ((size_t)1 << 20)

/* ---- shapes: "2^28 fp32 inclusive"; random: 1 .. 2^27 elements, any kind */

#define SYNTAX "N or 2^K, then fp32 (default) or int32, then inclusive (default) or exclusive"
static const gp_shape_format format = {
    1, .count = 1, .words = {{GP_SCAN_TYPE, {"fp32", "int32"}}, {GP_SCAN_EXCLUSIVE, {"inclusive", "exclusive"}}},
    .kinds = kind_names, .nkinds = NKINDS, .kind_from = 1, .kind_offset = 1, .lo = {1}, .hi = {1ll << 27},
};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
GP_KERNEL_SHAPE_RANDOM(format)
static void case_label(const gp_kcase *c, char *buf, size_t n) { gp_shape_format_case_label(&format, c, buf, n); }

/* The floor's model: read once, written once; one add an element. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const double n = (double)s->d[GP_SCAN_N];
    (void)p;
    return gp_work_model(w, 8.0 * n, s->opt[GP_SCAN_TYPE] == GP_SCAN_INT32 ? 0 : n, "read once, written once (4 B "
                         "each); one add an element (integer adds are no FLOPs)");
}

/* ---- cases */

/* A scan case: len elements of type, exclusive or not. */
#define SCAN_CASE(len, type, ex, ...) ((gp_kcase){.shape = {{len}, {type, ex}}, __VA_ARGS__})

/* The (type, data kind) pairs of verify's lengths: every kind; of the
 * variants': fp32 with the output at the input's alignment and off it (the
 * vector and 4-byte store paths) and int32 (in place and small integers,
 * the host's pointers and exact sums, shared with the base, are verify's). */
enum { F = GP_SCAN_FP32, I = GP_SCAN_INT32 };
static const int every_kind[6][2] = {{F, DATA_RANDOM},    {I, DATA_RANDOM},    {F, DATA_SHIFTED},
                                     {I, DATA_IN_PLACE},  {F, DATA_SMALL_INT}, {I, DATA_SHIFTED}};
static const int variant_kinds[3][2] = {{F, DATA_RANDOM}, {F, DATA_SHIFTED}, {I, DATA_RANDOM}};

/* One length at one input offset, inclusive then exclusive, of each of the
 * nk pairs (small integers where their sums stay exact). */
static int add_len(gp_kcase *out, int n, int max, long long len, int off, const int (*kinds)[2], int nk)
{
    for (int ex = 0; ex <= 1; ex++)
        for (int k = 0; k < nk; k++)
            if (kinds[k][1] != DATA_SMALL_INT || (size_t)len < SMALL_INT_MAX_N)
                n = gp_kcase_add(out, n, max, SCAN_CASE(len, kinds[k][0], ex, .data = kinds[k][1], .offset = off));
    return n;
}

static int cases(int set, const void *prm, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const gp_scan_params *p = prm;
    const long long wave = dev && dev->wave_size > 0 ? dev->wave_size : 64;
    int n = 0;
    if (set == GP_CASES_BENCH) {
        /* fp32 inclusive (the verdicts against CUB and the copy, and the
         * variants), int32 and exclusive at the same size, and one in L2. */
        const long long big = 1ll << (quick ? 24 : 28);
        const unsigned head = GP_KCASE_PAIR | GP_KCASE_VARIANTS | GP_KCASE_SAMPLE;
        n = gp_kcase_add(out, n, max, SCAN_CASE(big, GP_SCAN_FP32, 0, .flags = head));
        n = gp_kcase_add(out, n, max, SCAN_CASE(big, GP_SCAN_INT32, 0, .flags = GP_KCASE_SAMPLE));
        n = gp_kcase_add(out, n, max, SCAN_CASE(big, GP_SCAN_FP32, 1, .flags = GP_KCASE_SAMPLE));
        return gp_kcase_add(out, n, max, SCAN_CASE(1ll << 20, GP_SCAN_FP32, 0, .data = DATA_RANDOM));
    }
    const long long tile = (long long)gp_scan_tile(p), win = wave * tile;
    if (set == GP_CASES_VARIANT) { /* the last length takes every ring's blocks round it several times */
        const long long len[] = {0, 5, tile + 1, win + 3, 1000003, 5000011};
        for (int i = 0; i < 6; i++)
            n = add_len(out, n, max, len[i], i % 4, variant_kinds, 3);
        return n;
    }
    /* Lengths: empty, tiny, around the vector width, around a tile and two,
     * a look-back longer than one window of predecessors (wave tiles), and
     * large ones; each 16-byte aligned and 1..3 elements off. */
    const long long len[] = {0, 1, 2, 3, 4, 5, 7, 8, 17, 63, 64, 65, 1000, tile - 1, tile, tile + 1, 2 * tile + 3,
                             win + 5, 3 * win + 7, 1000003, (1 << 24) + 5, 30000001};
    const int nlen = (int)(sizeof len / sizeof len[0]) - (quick ? 2 : 0);
    for (int i = 0; i < nlen; i++)
        for (int off = 0; off <= 1; off++)
            n = add_len(out, n, max, len[i], off ? 1 + i % 3 : 0, every_kind, 6);
    /* A ring: every resident block refills each stage at least once
     * (stages + 1 tiles a block at one a CU), also under --quick (sanitizers). */
    const long long cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
    return p->stages > 0 ? add_len(out, n, max, (long long)(p->stages + 1) * cus * tile + 5, 1, every_kind, 6) : n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    gp_scan_expect e;    /* what the check compares with (scan.h) */
    int in_place;
    float *h_x;          /* the input (fp32 or int32 bits) */
    uint32_t *h_got;     /* the output's mirror */
    void *d_in;          /* the input: the case's offset into its buffer, or the output (in place) */
    void *d_out;         /* the output, guarded (GP_KCASE_GUARD words each side) */
    gp_scan_ws ws;
    gp_scratch tmp;      /* CUB's, on its first run */
} state;

static void teardown(void *st) { gp_scan_ws_destroy(&((state *)st)->ws); }

/* New data of the case's kind, the references of a sampled problem, the
 * input on the device (in place: poison puts it there). */
static gp_status fill(state *s, uint64_t *rng)
{
    gp_fill_sum_data(s->h_x, s->e.n, s->e.is_f32, s->e.exact, rng);
    if (s->e.stride > 1)
        gp_scan_ref_samples(&s->e);
    return s->e.n && !s->in_place ? gp_rt_copy_to_device(s->d_in, s->h_x, s->e.n * 4) : gp_ok();
}

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    gp_scan_expect *e = &s->e;
    const size_t n = e->n = (size_t)c->shape.d[GP_SCAN_N];
    e->is_f32 = c->shape.opt[GP_SCAN_TYPE] != GP_SCAN_INT32, e->exclusive = c->shape.opt[GP_SCAN_EXCLUSIVE] != 0;
    e->exact = c->data == DATA_SMALL_INT, e->wave = dev && dev->wave_size > 0 ? dev->wave_size : 64;
    s->in_place = c->data == DATA_IN_PLACE || c->data == DATA_SMALL_INT;
    /* A sample of 2^18 elements (a wrong tile aggregate shows in every later
     * prefix; verify's cases check each element). */
    e->stride = c->flags & GP_KCASE_SAMPLE && n > (1u << 18) ? n >> 18 : 1;
    if (n > SIZE_MAX / 32 || c->offset < 0 || c->data < 0 || c->data >= NKINDS ||
        (c->data == DATA_SMALL_INT && (!e->is_f32 || n >= SMALL_INT_MAX_N)))
        return gp_fail(GP_ERR_USAGE, "scan: %zu elements of data kind %d is no problem this bench can hold", n,
                       c->data);
    s->h_x = gp_kmem_host(&s->mem, n * 4 + 4);
    e->nsamples = e->stride > 1 ? gp_scan_samples(n, e->stride) : 0;
    if (e->stride > 1 && e->is_f32)
        e->ref = gp_kmem_host(&s->mem, e->nsamples * 8), e->sum_abs = gp_kmem_host(&s->mem, e->nsamples * 8);
    else if (e->stride > 1)
        e->refi = gp_kmem_host(&s->mem, e->nsamples * 4);
    GP_TRY(gp_kmem_ok(&s->mem));
    GP_TRY(gp_kmem_input(&s->mem, &s->d_in, NULL, n * 4, 4 * (size_t)c->offset));
    /* The output at the input's offset within 16 bytes, or another (fp32 +1, int32 +2). */
    const int at = (c->offset + (c->data == DATA_SHIFTED ? 1 + !e->is_f32 : 0)) % 4;
    GP_TRY(gp_kmem_output_at(&s->mem, &s->d_out, (void **)&s->h_got, n * 4, GP_KCASE_GUARD, at));
    s->d_in = s->in_place ? s->d_out : s->d_in;
    e->x = s->h_x, e->head = (size_t)((uintptr_t)s->d_in & 15) / 4;
    return fill(s, rng);
}

/* A workspace for p's tiles (grown, never shrunk: it serves every larger tile). */
static gp_status prepare(void *st, const void *p)
{
    state *s = st;
    const size_t need = gp_scan_tiles_for(p, s->e.n, s->e.head);
    if (s->ws.d && s->ws.max_tiles >= need)
        return gp_ok();
    gp_scan_ws_destroy(&s->ws);
    return gp_scan_ws_create(&s->ws, need ? need : 1);
}

/* In place: the input put back over the poisoned output. */
static gp_status poison(void *st)
{
    state *s = st;
    return s->e.n && s->in_place ? gp_rt_copy_to_device(s->d_out, s->h_x, s->e.n * 4) : gp_ok();
}

static gp_status run(void *st, const void *p)
{
    state *s = st;
    return s->e.is_f32 ? gp_scan_f32(s->d_in, s->d_out, s->e.n, s->e.exclusive, &s->ws, p, NULL)
                       : gp_scan_i32(s->d_in, s->d_out, s->e.n, s->e.exclusive, &s->ws, p, NULL);
}

/* CUB of the problem's kind (the other answers absent), and the device copy
 * of the same bytes (read n x 4, write n x 4: the baseline where CUB is
 * absent, and the bound the scan is held to: 0.90 of it). */
enum { IMPL_CUB_INCLUSIVE, IMPL_CUB_EXCLUSIVE, IMPL_COPY, NIMPLS };
static const gp_kimpl impls[NIMPLS] = {
    {"CUB DeviceScan::InclusiveSum", 1, 1, 1.0, 0, ""}, {"CUB DeviceScan::ExclusiveSum", 1, 1, 1.0, 0, ""},
    {"device copy", 1, 1, 0.90, 0, ""},
};

static gp_status cub(void *st, void *tmp)
{
    state *s = st;
    return s->e.is_f32 ? gp_vendor_scan_f32(s->d_in, s->d_out, s->e.n, s->e.exclusive, tmp, &s->tmp.bytes)
                       : gp_vendor_scan_i32(s->d_in, s->d_out, s->e.n, s->e.exclusive, tmp, &s->tmp.bytes);
}

static gp_status run_impl(void *st, int impl, const void *p)
{
    state *s = st;
    (void)p;
    if (s->in_place)
        return gp_fail(GP_ERR_UNSUPPORTED, "the baselines run out of place");
    if (impl == IMPL_COPY)
        return gp_rt_copy_device_async(s->d_out, s->d_in, s->e.n * 4, NULL);
    if ((impl == IMPL_CUB_EXCLUSIVE) != s->e.exclusive)
        return gp_fail(GP_ERR_UNSUPPORTED, "an %s scan (%s times it)", s->e.exclusive ? "exclusive" : "inclusive",
                       impls[s->e.exclusive ? IMPL_CUB_EXCLUSIVE : IMPL_CUB_INCLUSIVE].name);
    return gp_kmem_scratch(&s->mem, &s->tmp, cub, s);
}

/* The guards intact (kmem.h), then: the copy the input's bits; else the
 * reference (gp_scan_check) within the bound of the parameters that ran
 * (CUB: of 256-element tiles, deeper than its own, so more generous). */
static gp_status check(void *st, const void *prm, int impl, const char *what)
{
    state *s = st;
    static const gp_scan_params small = {64, 4, 0, ""};
    if (impl == IMPL_COPY)
        return gp_compare_i32(what, (const int32_t *)s->h_got, (const int32_t *)s->h_x, s->e.n);
    return gp_scan_check(&s->e, impl < 0 ? prm : &small, s->h_got, what);
}

/* The same workspace run after run, with new data and the direction
 * flipped each time: the epochs keep each run's descriptors apart (a run
 * that read an earlier run's would be wrong, not slow). */
static gp_status verify_extra(const gp_table *t, const void *p0, const gp_kernel_opts *o)
{
    const long long wave = o->dev.wave_size > 0 ? o->dev.wave_size : 64;
    gp_kcase c = {.shape = {.d = {3 * wave * (long long)gp_scan_tile(p0) + 7}}};
    uint64_t rng = o->seed + 1;
    gp_scan_params p;
    gp_problem pr;
    for (int type = GP_SCAN_FP32; type <= GP_SCAN_INT32; type++) {
        c.shape.opt[GP_SCAN_TYPE] = type;
        GP_TRY(gp_kernel_params(&gp_kernel_scan, t, &o->dev, &c.shape, 1, &p, NULL, 0));
        GP_TRY(gp_problem_setup(&gp_kernel_scan, &c, &o->dev, &rng, &pr));
        gp_status st = gp_ok();
        for (int i = 0; i < 12 && st.code == GP_OK; i++) {
            char who[64];
            snprintf(who, sizeof who, "run %d on one workspace, %sclusive", i, i % 2 ? "ex" : "in");
            ((state *)pr.st)->e.exclusive = i % 2;
            st = fill(pr.st, &rng);
            if (st.code == GP_OK)
                st = gp_problem_run_checked(&gp_kernel_scan, &pr, &p, -1, who, gp_driver_ops_of(o));
        }
        gp_problem_free(&gp_kernel_scan, &pr);
        GP_TRY(st);
    }
    if (o->log)
        fprintf(o->log, "  scan: 24 runs on two workspaces, new data each time: the epochs keep runs apart\n");
    return gp_ok();
}

const gp_kernel gp_kernel_scan = {
    GP_KERNEL_DECLARED,
    .summary = "inclusive / exclusive prefix sum of fp32 / int32, single pass with decoupled look-back, tiles in "
               "registers or a shared-memory ring (vs CUB DeviceScan)",
    .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label, .shape_random = shape_random,
    .work = work, .cases = cases, .case_label = case_label, .state_size = sizeof(state), .setup = setup,
    .prepare = prepare, .poison = poison, .run = run, .check = check, .teardown = teardown, .impls = impls,
    .nimpls = NIMPLS, .run_impl = run_impl, .verify_extra = verify_extra,
};
