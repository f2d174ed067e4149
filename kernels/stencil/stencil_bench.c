/* stencil for the driver (kernels/driver.h): its grids, one problem's set-up, run and check (stencil_ref.c), the
 * device copy as the baseline, the naive kernel as context, the legality of [kernel.stencil], the gp_kernel entry. */
#include "stencil.h"
#define GP_KERNEL_NAME stencil
#include "kernel_decl.h"

#define GUARD 16 /* elements poisoned on each side of the output */

/* The variants (tune's candidates, bench's context rows), in the order of stencil_params.inc: 1-wide tiles around
 * 64 x 8 at 1..3 planes ahead and 64 x 4 at 1 and 2 (2 at 8 blocks: the rule's 1-wide pick), then the 4-wide ones
 * (docs/kernels/stencil.md "The 4-wide kernel"): the rule's H200 pick 32 x 4 /a1, the experiment's next best (64 x 8
 * points /a1, 128 x 4 /a2, 128 x 8 /a1 and /a2, 64 x 8 /a2) and 256 x 4 /a2 (gfx900's tile at wave 64).
 * blocks_per_cu: what a CU of 64 Ki registers holds at the build registers (gp_stencil_build_regs) within 2048
 * threads, so each variant's z split is the rule's. */
static const int variants[][NPARAMS] = {
    {64, 8, 1, 4, 1},  {64, 8, 2, 4, 1}, {64, 8, 3, 4, 1}, {32, 16, 2, 4, 1}, {32, 8, 2, 8, 1},
    {128, 4, 2, 4, 1}, {64, 4, 2, 8, 1}, {64, 4, 1, 8, 1}, {32, 16, 3, 4, 1}, {32, 4, 1, 9, 4}, {16, 8, 1, 9, 4},
    {32, 4, 2, 8, 4},  {32, 8, 1, 4, 4}, {32, 8, 2, 4, 4},  {16, 8, 2, 8, 4},  {64, 4, 2, 4, 4},
};

/* Data (gp_stencil_fill): uniform with the coefficients c0, c1 of a damped Jacobi step, or small integers with the
 * discrete Laplacian's, exact: a lost, doubled or misplaced neighbour shows whatever its size. */
enum { DATA_UNIFORM = 0, DATA_INTEGERS = 1 };
static const float coef[2][2] = {{0.4f, 0.1f}, {-6.0f, 1.0f}};

enum { IMPL_NAIVE, IMPL_COPY, NIMPLS };
static const gp_kimpl impls[NIMPLS] = {
    {"naive (one thread per point)", 0, 0, 0, 1, "block 32x8"},
    {"device copy (vendor, same bytes)", 1, 1, 0.85, 0, ""}, /* at least 0.85 of the copy's bandwidth on 512^3 */
};

/* ---- shapes: "N^3" or "NXxNYxNZ", also read as a bench label "512^3 fp32" */

#define SYNTAX "N^3 or NXxNYxNZ (fp32 grid points, x fastest; each 1.." GP_KD_STR(GP_STENCIL_MAX_DIM) ")"
static const gp_shape_format format = {3, .cube = 1, .max = GP_STENCIL_MAX_DIM, .words = {{-1, {"fp32"}}}};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)

/* Each side 1 .. 1024, at most 2^26 points (256 MB a grid); a cube a third of the time. */
static void shape_random(uint64_t *rng, gp_shape *s)
{
    memset(s, 0, sizeof *s);
    long long *d = &s->d[GP_STENCIL_NX];
    do {
        d[0] = gp_rand_dim(rng, 1, 1024);
        const int cube = gp_rand_pick(rng, 3) == 0;
        d[1] = cube ? d[0] : gp_rand_dim(rng, 1, 1024);
        d[2] = cube ? d[0] : gp_rand_dim(rng, 1, 1024);
    } while (d[0] * d[1] * d[2] > (1ll << 26));
}

static void case_label(const gp_kcase *c, char *buf, size_t n)
{
    shape_label(&c->shape, buf, n);
    if (c->data == DATA_INTEGERS)
        gp_label_append(buf, n, "integers");
    if (c->offset)
        gp_label_append(buf, n, "in+1");
}

/* The floor's model: read once, written once (4 B each); 8 FLOPs an interior point (6 neighbours summed, c1 x the
 * sum, c0 x the centre added). */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const long long *d = &s->d[GP_STENCIL_NX];
    double inner = 1;
    (void)p;
    for (int k = 0; k < 3; k++)
        inner *= d[k] > 2 ? (double)(d[k] - 2) : 0.0;
    w->bytes = 8.0 * (double)d[0] * (double)d[1] * (double)d[2], w->flops = 8.0 * inner;
    snprintf(w->method, sizeof w->method, "read once, written once (4 B each); 8 FLOPs an interior point (5 + 1 adds, "
             "2 multiplies)");
    return gp_ok();
}

/* Every shape of `d` (nx, ny, nz, input offset) on both data. */
static int add_all(gp_kcase *out, int n, int max, const long long (*d)[4], size_t count)
{
    for (size_t i = 0; i < count; i++)
        for (int data = DATA_UNIFORM; data <= DATA_INTEGERS; data++)
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {d[i][0], d[i][1], d[i][2]}, .data = data,
                                                     .offset = (int)d[i][3]});
    return n;
}

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const gp_stencil_params *q = p;
    const long long tx = q ? q->tile_x : 32, ty = q ? q->tile_y : 4;
    (void)dev;
    if (set == GP_CASES_BENCH) { /* 512^3 (the verdict) and 256^3 (context) */
        const long long a = quick ? 256 : 512, b = quick ? 128 : 256;
        const unsigned head = GP_KCASE_PAIR | GP_KCASE_VARIANTS | GP_KCASE_SAMPLE;
        int n = gp_kcase_add(out, 0, max, (gp_kcase){.shape.d = {a, a, a}, .flags = head});
        return gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {b, b, b}, .flags = GP_KCASE_REPORT | GP_KCASE_SAMPLE});
    }
    /* verify: all border (dimensions below 3), the smallest interior, tiles cut by the edges in x and y, a tall
     * column (a z split with many chunks), the bench's 256^3 (not with --quick); the input one element off every
     * other one (the 4-wide kernel falls back). */
    const long long verify[][4] = {{1, 1, 1, 0},          {2, 3, 4, 1},       {3, 3, 3, 0},     {5, 7, 9, 1},
                                   {tx + 1, ty + 1, 7, 0}, {2 * tx - 1, 3 * ty + 2, 5, 1},      {67, 33, 19, 0},
                                   {130, 20, 70, 1},       {9, 9, 300, 0},     {64, 64, 64, 1}, {256, 256, 256, 0}};
    /* variants (and the naive kernel): the small ones, edges cut, a tall column; 4-wide: rows 16-byte aligned (the
     * smallest, edges cut, a tall column) and one input off by one (the fallback). */
    const long long vset[][4] = {{1, 1, 1, 0}, {3, 3, 3, 0}, {tx + 1, ty + 1, 7, 0}, {67, 33, 19, 1}, {9, 9, 300, 0}};
    const long long wide[][4] = {{4, 4, 4, 0}, {132, 21, 19, 0}, {8, 12, 300, 0}, {132, 21, 19, 1}};
    if (set == GP_CASES_VERIFY)
        return add_all(out, 0, max, verify, quick ? 10 : 11);
    int n = add_all(out, 0, max, vset, 5);
    return q && q->vec == 4 ? add_all(out, n, max, wide, 4) : n;
}

typedef struct state {
    gp_kmem mem;
    gp_stencil_shape s;
    size_t n, stride;    /* points 0, stride, 2 stride, ... are checked (a bench problem's sample; 1: all) */
    int exact;
    float c0, c1;
    float *h_in, *h_out; /* h_out: the output's mirror */
    float *lo, *hi;      /* the checked points' intervals of accepted floats (gp_stencil_ref_bounds) */
    float *d_alloc, *d_in, *d_out; /* d_in: d_alloc + the case's offset */
} state;

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    (void)dev;
    const long long *d = &c->shape.d[GP_STENCIL_NX];
    s->s.nx = (int)(d[0] > 0 && d[0] <= GP_STENCIL_MAX_DIM ? d[0] : 0);
    s->s.ny = (int)(d[1] > 0 && d[1] <= GP_STENCIL_MAX_DIM ? d[1] : 0);
    s->s.nz = (int)(d[2] > 0 && d[2] <= GP_STENCIL_MAX_DIM ? d[2] : 0);
    GP_TRY(gp_stencil_shape_check("stencil", &s->s));
    if (c->offset < 0 || c->offset > 3 || c->data < DATA_UNIFORM || c->data > DATA_INTEGERS)
        return gp_fail(GP_ERR_USAGE, "stencil: data kind %d, offset %d not this kernel's", c->data, c->offset);
    const size_t n = s->n = gp_stencil_elems(&s->s);
    /* A bench problem's sample: about 2^20 points at an odd stride (every x residue of a row, every plane; 512^3's
     * full check would cost seconds); verify's cases check every point. */
    s->stride = c->flags & GP_KCASE_SAMPLE && n > (1u << 22) ? (n >> 20) | 1 : 1;
    const size_t m = (n + s->stride - 1) / s->stride;
    s->exact = c->data == DATA_INTEGERS;
    s->c0 = coef[c->data][0], s->c1 = coef[c->data][1];
    s->h_in = gp_kmem_host(&s->mem, n * 4), s->lo = gp_kmem_host(&s->mem, m * 4), s->hi = gp_kmem_host(&s->mem, m * 4);
    GP_TRY(gp_kmem_ok(&s->mem));
    gp_stencil_fill(s->h_in, n, s->exact, rng);
    gp_stencil_ref_bounds(s->h_in, &s->s, s->c0, s->c1, s->exact, s->stride, s->lo, s->hi);
    GP_TRY(gp_kmem_dev(&s->mem, (void **)&s->d_alloc, (n + (size_t)c->offset) * 4));
    s->d_in = s->d_alloc + c->offset;
    GP_TRY(gp_rt_copy_to_device(s->d_in, s->h_in, n * 4));
    return gp_kmem_output(&s->mem, (void **)&s->d_out, (void **)&s->h_out, n * 4, GUARD);
}

static gp_status run(void *p, const void *prm)
{
    state *s = p;
    return gp_stencil_f32(s->d_in, s->d_out, &s->s, s->c0, s->c1, prm, NULL);
}

static gp_status run_impl(void *p, int impl, const void *prm)
{
    state *s = p;
    (void)prm;
    if (impl == IMPL_NAIVE)
        return gp_stencil_naive_f32(s->d_in, s->d_out, &s->s, s->c0, s->c1, NULL);
    return gp_rt_copy_device_async(s->d_out, s->d_in, s->n * 4, NULL);
}

/* Ours and the naive kernel against the reference (gp_stencil_check); the copy: the input's bits.  The guards
 * untouched either way (kmem.h). */
static gp_status check(void *p, const void *prm, int impl, const char *what)
{
    state *s = p;
    (void)prm;
    if (impl != IMPL_COPY)
        return gp_stencil_check(what, s->h_out, s->h_in, &s->s, s->c0, s->c1, s->exact, s->stride, s->lo, s->hi);
    if (memcmp(s->h_out, s->h_in, s->n * 4))
        return gp_compare_f32(what, s->h_out, s->h_in, s->n, 0.0, 0.0, NULL);
    return gp_ok();
}

/* Many z chunks (blocks_per_cu 64 asks for a grid of many rounds, so the chunks' halo planes are exercised): the
 * verify shapes, input aligned, with p; each 4-wide variant on its wide shape.  Then the naive kernel on 256^3 (not
 * with --quick). */
static gp_status verify_extra(const gp_table *t, const void *p0, const gp_kernel_opts *o)
{
    gp_kcase cs[32];
    gp_stencil_params p = *(const gp_stencil_params *)p0, q;
    uint64_t rng = o->seed ^ 0x57e4c11ull;
    (void)t;
    p.blocks_per_cu = GP_STENCIL_MAX_BLOCKS_PER_CU, p.note[0] = '\0';
    gp_stencil_params_fit(&p, &o->dev);
    int n = cases(GP_CASES_VERIFY, p0, &o->dev, o->quick, cs, 32);
    for (int i = 0; i < n; i++) {
        cs[i].offset = 0;
        GP_TRY(gp_problem_check_case(&gp_kernel_stencil, &cs[i], &p, -1, 1, o, &rng, NULL));
    }
    for (int v = 0; v < gp_kernel_stencil.nvariants; v++) {
        gp_kernel_variant(&gp_kernel_stencil, v, p0, &o->dev, &q);
        q.blocks_per_cu = GP_STENCIL_MAX_BLOCKS_PER_CU;
        for (int data = DATA_UNIFORM; q.vec == 4 && data <= DATA_INTEGERS; data++) {
            const gp_kcase wide = {.shape.d = {132, 21, 19}, .data = data};
            GP_TRY(gp_problem_check_case(&gp_kernel_stencil, &wide, &q, -1, 1, o, &rng, NULL));
        }
    }
    for (int data = DATA_UNIFORM; !o->quick && data <= DATA_INTEGERS; data++) {
        const gp_kcase big = {.shape.d = {256, 256, 256}, .data = data};
        GP_TRY(gp_problem_check_case(&gp_kernel_stencil, &big, NULL, IMPL_NAIVE, 1, o, &rng, NULL));
    }
    if (o->log)
        fprintf(o->log, "  %d shapes again in many z chunks (blocks_per_cu %d), the 4-wide variants so, the naive "
                "kernel on 256^3%s\n", n, p.blocks_per_cu, o->quick ? " (not with --quick)" : "");
    return gp_ok();
}

/* What makes a [kernel.stencil] legal on any GPU: the tiled kernel's launch bounds are 512 threads (its LDS, two
 * planes of (tile_x + 2) x (tile_y + 2) floats, stays within 7 KiB); the 4-wide one's (vec 4) 256, compiled for 1
 * and 2 planes ahead. */
static gp_status check_table(const gp_table *t, const char *name)
{
    long long tx, ty, vec = 1, ahead = 0;
    const gp_table_entry *e = gp_table_find(t, "kernel.stencil", "tile_y");
    if (gp_table_get_int(t, "kernel.stencil", "tile_x", &tx).code != GP_OK || !e ||
        gp_table_get_int(t, "kernel.stencil", "tile_y", &ty).code != GP_OK)
        return gp_ok(); /* absent: the reader names it */
    if (gp_table_find(t, "kernel.stencil", "vec"))
        GP_TRY(gp_table_get_int(t, "kernel.stencil", "vec", &vec));
    if (gp_table_find(t, "kernel.stencil", "planes_ahead"))
        GP_TRY(gp_table_get_int(t, "kernel.stencil", "planes_ahead", &ahead));
    char at[300];
    snprintf(at, sizeof at, e->line > 0 ? "%s:%d" : "%s", name && *name ? name : "table", e->line);
    if (tx * ty > (vec == 4 ? 256 : 512))
        return gp_fail(GP_ERR_USAGE, "%s: kernel.stencil: tile_x x tile_y = %lld threads exceeds %d%s", at, tx * ty,
                       vec == 4 ? 256 : 512, vec == 4 ? " (vec 4)" : "");
    if (vec == 4 && ahead > 2)
        return gp_fail(GP_ERR_USAGE, "%s: kernel.stencil: planes_ahead %lld with vec 4 (1 and 2 compiled)", at, ahead);
    return gp_ok();
}

const gp_kernel gp_kernel_stencil = {
    GP_KERNEL_DECLARED,
    .summary = "3D 7-point Jacobi step on fp32, xy tiles in LDS with z streamed in registers (vs naive and the "
               "device copy)",
    .check_table = check_table, .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label,
    .shape_random = shape_random, .work = work, .cases = cases, .case_label = case_label,
    .state_size = sizeof(state), .setup = setup, .run = run, .check = check, .impls = impls, .nimpls = NIMPLS,
    .run_impl = run_impl, .verify_extra = verify_extra,
};
