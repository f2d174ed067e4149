/* stencil: verify against the CPU reference (border points bit for bit,
 * interior points within the fp32 bound, exact on small-integer data;
 * outputs poisoned and guarded), bench against the floor, the naive
 * one-thread-per-point kernel and the device copy of the same bytes (paired
 * ABBA: the fraction of the copy's bandwidth), and the gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "stencil.h"
#include "stencil_v4.h"

/* Variants timed in the bench (with_baselines) and offered to `gpuprobe
 * tune`: {tile_x, tile_y, planes_ahead, vec}; blocks_per_cu follows from the
 * device (variant_params).  The vec 4 ones (4 x points a thread, 16-byte
 * accesses: docs/kernels/stencil.md "The 4-wide kernel") are paired with the
 * copy in the bench too: the rule's H200 pick 32 x 4 (128 x 4 points) at 1
 * plane ahead and the experiment's next (H200 2026-11-24, 512^3, fraction of
 * the copy): 64 x 8 points /a1 0.889, 128 x 4 /a2 0.863, 128 x 8 /a1 and /a2
 * 0.855, 64 x 8 /a2 0.855; and 256 x 4 /a2 (gfx900's tile at wave 64). */
typedef struct variant {
    int tx, ty, ahead, vec;
} variant;

static const variant variants[] = {
    {64, 8, 1, 1}, {64, 8, 2, 1}, {64, 8, 3, 1}, {32, 16, 2, 1}, {32, 8, 2, 1}, {128, 4, 2, 1},
    {64, 4, 2, 1}, {32, 16, 3, 1}, {32, 4, 1, 4}, {16, 8, 1, 4},  {32, 4, 2, 4}, {32, 8, 1, 4},
    {32, 8, 2, 4}, {16, 8, 2, 4},  {64, 4, 2, 4},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* Elements of guard poisoned on each side of every output. */
#define GUARD 16
/* The coefficients of the random cases (a damped Jacobi step) and of the
 * exact ones (the discrete Laplacian: small integers stay exact). */
#define C0 0.4f
#define C1 0.1f
#define C0_EXACT (-6.0f)
#define C1_EXACT 1.0f

/* Blocks of tx x ty one CU of `dev` holds at the kernel's registers (the
 * rule's build constants: 32 a thread, 56 and 64 for vec 4 at 1 and 2 planes
 * ahead); the bench variants' blocks_per_cu, so their z split is the one the
 * rule would give them; 4 without a device. */
static int resident_blocks(const gp_device_info *dev, int block, int vec, int ahead)
{
    if (!dev || dev->max_threads_per_cu <= 0 || dev->regs_per_cu <= 0)
        return 4;
    const int regs = gp_stencil_build_regs(vec, ahead);
    int by_threads = dev->max_threads_per_cu / block, by_regs = dev->regs_per_cu / (regs * block);
    int b = by_threads < by_regs ? by_threads : by_regs;
    return b < 1 ? 1 : b;
}

static void variant_params(const variant *v, const gp_device_info *dev, gp_stencil_params *p)
{
    memset(p, 0, sizeof *p);
    p->tile_x = v->tx, p->tile_y = v->ty, p->ahead = v->ahead, p->vec = v->vec;
    p->blocks_per_cu = resident_blocks(dev, v->tx * v->ty, v->vec, v->ahead);
    gp_stencil_params_fit(p, dev);
}

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_stencil_params p;
    char b[192];
    GP_TRY(gp_stencil_params_from_table(t, dev, &p));
    gp_stencil_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

static void shape_name(const gp_stencil_shape *s, char *buf, size_t n)
{
    snprintf(buf, n, "%dx%dx%d", s->nx, s->ny, s->nz);
}

/* got[] against the reference plane by plane: border points equal to the
 * input bit for bit, interior ones within the fp32 bound (exact: equal).
 * *worst (may be NULL) gets the largest error as a fraction of its bound. */
static gp_status check_out(const char *what, const float *in, const float *got, const gp_stencil_shape *s, float c0,
                           float c1, int exact, double *worst)
{
    const size_t plane = (size_t)s->nx * (size_t)s->ny;
    double *ref = malloc(plane * sizeof(double)), *mag = malloc(plane * sizeof(double)), w = 0;
    gp_status st = gp_ok();
    if (!ref || !mag)
        st = gp_fail(GP_ERR_NOMEM, "%s: out of host memory for a plane", what);
    for (int z = 0; z < s->nz && st.code == GP_OK; z++) {
        gp_stencil_ref_plane(in, s, c0, c1, z, ref, mag);
        const float *g = got + (size_t)z * plane, *x = in + (size_t)z * plane;
        for (int y = 0; y < s->ny && st.code == GP_OK; y++)
            for (int xi = 0; xi < s->nx; xi++) {
                const size_t i = (size_t)y * (size_t)s->nx + (size_t)xi;
                const int border = xi == 0 || y == 0 || z == 0 || xi == s->nx - 1 || y == s->ny - 1 ||
                                   z == s->nz - 1;
                const double bound = exact || border ? 0.0 : gp_stencil_f32_bound(mag[i]);
                const double err = fabs((double)g[i] - ref[i]);
                /* Border points: the input's bits (a -0 for a +0 is a change). */
                const int ok = border ? memcmp(&g[i], &x[i], sizeof(float)) == 0 : err <= bound;
                if (!ok) {
                    st = gp_fail(GP_ERR_CHECK, "%s: (x %d, y %d, z %d)%s = %.9g, reference %.17g (error %.3g > bound %.3g)",
                                 what, xi, y, z, border ? " border" : "", (double)g[i], ref[i], err, bound);
                    break;
                }
                if (bound > 0 && err / bound > w)
                    w = err / bound;
            }
    }
    free(ref), free(mag);
    if (worst)
        *worst = w;
    return st;
}

typedef struct vctx {
    float *h_x;   /* input */
    float *h_got; /* output with its guards: GUARD + n + GUARD */
    float *d_in;  /* cap + 1 elements (the input may start one element in) */
    float *d_out; /* GUARD + cap + GUARD */
} vctx;

/* One run: the input at element in_off of d_in, the output after its front
 * guard, poisoned; p NULL runs the naive kernel. */
static gp_status run_case(vctx *v, const gp_stencil_shape *s, size_t in_off, int exact, const gp_stencil_params *p,
                          const char *label, double *worst)
{
    char what[320], name[64];
    const size_t n = gp_stencil_elems(s);
    const float c0 = exact ? C0_EXACT : C0, c1 = exact ? C1_EXACT : C1;
    shape_name(s, name, sizeof name);
    snprintf(what, sizeof what, "stencil %s %s in+%zu (%s)", name, exact ? "integers, exact" : "uniform", in_off,
             p ? label : "naive");
    GP_TRY(gp_dev_poison(v->d_out, (2 * GUARD + n) * 4));
    GP_TRY(gp_rt_copy_to_device(v->d_in + in_off, v->h_x, n * 4));
    if (p)
        GP_TRY(gp_stencil_f32(v->d_in + in_off, v->d_out + GUARD, s, c0, c1, p));
    else
        GP_TRY(gp_stencil_naive_f32(v->d_in + in_off, v->d_out + GUARD, s, c0, c1));
    GP_TRY(gp_rt_copy_to_host(v->h_got, v->d_out, (2 * GUARD + n) * 4));
    const uint32_t *g = (const uint32_t *)v->h_got;
    GP_TRY(gp_check_guards(what, g, g + GUARD + n, GUARD));
    return check_out(what, v->h_x, v->h_got + GUARD, s, c0, c1, exact, worst);
}

/* Both kinds of data on one shape: uniform in [-1, 1) (the bound) and small
 * integers with the Laplacian's coefficients (exact: a lost, doubled or
 * misplaced neighbour shows whatever its size). */
static gp_status verify_shape(vctx *v, const gp_stencil_shape *s, size_t in_off, const gp_stencil_params *p,
                              uint64_t *rng, const char *label, FILE *log)
{
    const size_t n = gp_stencil_elems(s);
    double worst = 0;
    gp_fill_uniform_f32(v->h_x, n, -1.0f, 1.0f, rng);
    GP_TRY(run_case(v, s, in_off, 0, p, label, &worst));
    for (size_t i = 0; i < n; i++)
        v->h_x[i] = (float)((int)(gp_rand_u64(rng) % 17) - 8);
    GP_TRY(run_case(v, s, in_off, 1, p, label, NULL));
    if (log) {
        char name[64];
        shape_name(s, name, sizeof name);
        fprintf(log, "  %s in+%zu (%s): uniform worst error %.3g of its bound; integers exact; borders carried\n",
                name, in_off, p ? label : "naive", worst);
    }
    return gp_ok();
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vctx *v)
{
    gp_stencil_params p;
    char label[192];
    GP_TRY(gp_stencil_params_from_table(t, &o->dev, &p));
    gp_stencil_params_format(&p, label, sizeof label);
    const int tx = p.tile_x, ty = p.tile_y;
    /* Shapes: all border (dimensions below 3), the smallest interior, tiles
     * cut by the edges in x and y, a tall column (a z split with many
     * chunks), and the bench's 256^3 (not with --quick). */
    const gp_stencil_shape shapes[] = {{1, 1, 1},          {2, 3, 4},       {3, 3, 3},     {5, 7, 9},
                                       {tx + 1, ty + 1, 7}, {2 * tx - 1, 3 * ty + 2, 5}, {67, 33, 19},
                                       {130, 20, 70},      {9, 9, 300},     {64, 64, 64},  {256, 256, 256}};
    const size_t nshapes = sizeof shapes / sizeof shapes[0] - (o->quick ? 1 : 0);
    size_t cap = 0;
    for (size_t i = 0; i < nshapes; i++)
        cap = gp_stencil_elems(&shapes[i]) > cap ? gp_stencil_elems(&shapes[i]) : cap;
    v->h_x = malloc(cap * 4);
    v->h_got = malloc((cap + 2 * GUARD) * 4);
    if (!v->h_x || !v->h_got)
        return gp_fail(GP_ERR_NOMEM, "stencil verify: out of host memory for %zu points", cap);
    GP_TRY(gp_rt_malloc((void **)&v->d_in, (cap + 1) * 4));
    GP_TRY(gp_rt_malloc((void **)&v->d_out, (cap + 2 * GUARD) * 4));
    uint64_t rng = o->seed;
    for (size_t i = 0; i < nshapes; i++)
        GP_TRY(verify_shape(v, &shapes[i], i % 2, &p, &rng, label, o->log));
    /* The same shapes cut into many z chunks: blocks_per_cu 64 asks for a
     * grid of many rounds, so the chunks' halo planes are exercised. */
    gp_stencil_params many = p;
    many.blocks_per_cu = GP_STENCIL_MAX_BLOCKS_PER_CU;
    many.note[0] = '\0';
    gp_stencil_params_fit(&many, &o->dev);
    gp_stencil_params_format(&many, label, sizeof label);
    for (size_t i = 0; i < nshapes; i++)
        GP_TRY(verify_shape(v, &shapes[i], 0, &many, &rng, label, NULL));
    if (o->log)
        fprintf(o->log, "  %zu shapes again split into %d..%d z chunks (%s)\n", nshapes,
                gp_stencil_z_chunks(&many, &shapes[0]), gp_stencil_z_chunks(&many, &shapes[nshapes - 1]), label);
    /* vec 4 runs only on rows 16-byte aligned (nx % 4 == 0, input at offset
     * 0): its shapes are those (the smallest, tiles cut in x and y, a tall
     * column) and one at offset 1, which must fall back to the 1-wide kernel
     * and still be right; then many z chunks. */
    const gp_stencil_shape vec_shapes[] = {{4, 4, 4}, {132, 21, 19}, {8, 12, 300}, {132, 21, 19}};
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_stencil_params q;
        variant_params(&variants[k], &o->dev, &q);
        gp_stencil_params_format(&q, label, sizeof label);
        const size_t pick[] = {4, 6, 8};
        for (size_t i = 0; i < 3; i++)
            GP_TRY(verify_shape(v, &shapes[pick[i]], i % 2, &q, &rng, label, NULL));
        if (q.vec == 4) {
            for (size_t i = 0; i < 4; i++)
                GP_TRY(verify_shape(v, &vec_shapes[i], i == 3, &q, &rng, label, NULL));
            q.blocks_per_cu = GP_STENCIL_MAX_BLOCKS_PER_CU;
            GP_TRY(verify_shape(v, &vec_shapes[1], 0, &q, &rng, label, NULL));
        }
    }
    for (size_t i = 0; i < nshapes; i += 2)
        GP_TRY(verify_shape(v, &shapes[i], 0, NULL, &rng, "naive", NULL));
    if (o->log)
        fprintf(o->log, "  %zu bench variants on 3 shapes each and the naive kernel on %zu: within bound, exact\n",
                NVARIANTS, (nshapes + 1) / 2);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vctx v;
    memset(&v, 0, sizeof v);
    gp_status st = verify_all(t, o, &v);
    free(v.h_x), free(v.h_got);
    GP_DEV_FREE(v.d_in, v.d_out);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const float *d_in;
    float *d_out;
    const gp_stencil_shape *s;
    const gp_stencil_params *p; /* NULL: the naive kernel */
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return x->p ? gp_stencil_f32(x->d_in, x->d_out, x->s, C0, C1, x->p)
                : gp_stencil_naive_f32(x->d_in, x->d_out, x->s, C0, C1);
}
static gp_status work_copy(void *c)
{
    bctx *x = c;
    return gp_rt_copy_device_async(x->d_out, x->d_in, gp_stencil_elems(x->s) * 4, NULL);
}

typedef struct bstate {
    float *h_in, *h_out;
    float *d_in, *d_out;
} bstate;

typedef struct bproblem {
    gp_stencil_shape s;
    char name[64];
    double floor_ms, bytes;
    char note[GP_BENCH_TEXT];
} bproblem;

static gp_status check_device_out(bstate *st, const bproblem *pr, const char *what)
{
    GP_TRY(gp_rt_copy_to_host(st->h_out, st->d_out, gp_stencil_elems(&pr->s) * 4));
    return check_out(what, st->h_in, st->h_out, &pr->s, C0, C1, 0, NULL);
}

/* Time `q` (NULL: naive) on the problem and check the timed output. */
static gp_status time_ours(bstate *st, const bproblem *pr, const gp_stencil_params *q, const char *impl,
                           const gp_kernel_opts *o, gp_harness_result *r)
{
    bctx x = {st->d_in, st->d_out, &pr->s, q};
    char what[320];
    snprintf(what, sizeof what, "timed stencil %s (%s)", pr->name, impl);
    GP_TRY(gp_dev_poison(st->d_out, gp_stencil_elems(&pr->s) * 4));
    GP_TRY(gp_bench_time(work_ours, &x, o->quick, r));
    return check_device_out(st, pr, what);
}

/* Paired ABBA of ours against the copy; every round ends with our run, so
 * the output afterwards is ours: checked. */
static gp_status pair_with_copy(bstate *st, const bproblem *pr, const gp_stencil_params *q, const char *impl,
                                const gp_kernel_opts *o, gp_bench *b, int row, double target, const char *claim)
{
    bctx x = {st->d_in, st->d_out, &pr->s, q};
    gp_bench_paired pp;
    char what[320];
    snprintf(what, sizeof what, "paired stencil %s (%s vs device copy)", pr->name, impl);
    GP_TRY(gp_dev_poison(st->d_out, gp_stencil_elems(&pr->s) * 4));
    GP_TRY(gp_bench_pair(work_ours, &x, work_copy, &x, o->quick, &pp));
    GP_TRY(check_device_out(st, pr, what));
    GP_TRY(gp_bench_set_pair(b, row, &pp));
    if (o->log)
        fprintf(o->log,
                "stencil %s: %s vs device copy paired median %.3fx (p10 %.3f, p90 %.3f): %s %.2f: %s (%d "
                "rounds ABBA%s; medians %.4f vs %.4f ms)\n",
                pr->name, impl, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, claim, target,
                gp_bench_verdict_word(gp_bench_pair_at_least(&pp, target)), pp.rounds,
                pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms);
    return gp_ok();
}

static void log_row(const gp_kernel_opts *o, const char *impl, const bproblem *pr, const gp_harness_result *r)
{
    if (o->log)
        fprintf(o->log, "  stencil %s %s: %.4f ms = %.0f GB/s (read + write once), %.2fx the floor\n", pr->name, impl,
                r->summary.median, pr->bytes / (r->summary.median * 1e6),
                pr->floor_ms > 0 ? r->summary.median / pr->floor_ms : 0.0);
}

static gp_status bench_all(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                           gp_bench *b, bstate *st)
{
    /* The 512^3 (the figure) and 256^3; --quick: 256^3 and 128^3. */
    const int sides[2] = {o->quick ? 256 : 512, o->quick ? 128 : 256};
    const size_t cap = (size_t)sides[0] * sides[0] * sides[0];
    gp_stencil_params p;
    GP_TRY(gp_stencil_params_from_table(t, &o->dev, &p));
    st->h_in = malloc(cap * 4);
    st->h_out = malloc(cap * 4);
    if (!st->h_in || !st->h_out)
        return gp_fail(GP_ERR_NOMEM, "stencil bench: out of host memory (2 x %zu bytes)", cap * 4);
    GP_TRY(gp_rt_malloc((void **)&st->d_in, cap * 4));
    GP_TRY(gp_rt_malloc((void **)&st->d_out, cap * 4));
    char src[96], params[96];
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    gp_stencil_params_format(&p, params, sizeof params);
    uint64_t rng = o->seed;

    for (int k = 0; k < 2; k++) {
        bproblem pr;
        memset(&pr, 0, sizeof pr);
        pr.s.nx = pr.s.ny = pr.s.nz = sides[k];
        const size_t n = gp_stencil_elems(&pr.s);
        gp_fill_uniform_f32(st->h_in, n, -1.0f, 1.0f, &rng);
        GP_TRY(gp_rt_copy_to_device(st->d_in, st->h_in, n * 4));
        snprintf(pr.name, sizeof pr.name, "%d^3 fp32", sides[k]);
        pr.bytes = 8.0 * (double)n; /* read once, write once */
        pr.floor_ms = gbs > 0 ? pr.bytes / (gbs * 1e9) * 1e3 : 0;
        snprintf(pr.note, sizeof pr.note, "DRAM %.0f MB (read + write once) at %.0f GB/s (%s)%s", pr.bytes / 1e6, gbs,
                 src, pr.bytes < (double)o->dev.l2_bytes ? "; fits in L2" : "");

        gp_harness_result r;
        char pz[GP_BENCH_TEXT];
        snprintf(pz, sizeof pz, "%s z split %d", params, gp_stencil_z_chunks(&p, &pr.s));
        GP_TRY(time_ours(st, &pr, &p, "gpuprobe", o, &r));
        GP_TRY(gp_bench_add(b, "stencil", pr.name, "gpuprobe", label, pz, 0, &r, pr.floor_ms, pr.note));
        const int main_row = b->nrows - 1;
        log_row(o, "gpuprobe", &pr, &r);
        if (!with_baselines)
            continue;
        /* The naive kernel (no vendor stencil exists) and the device copy of
         * the same bytes, the baseline every row's speed-up is over. */
        GP_TRY(time_ours(st, &pr, NULL, "naive", o, &r));
        GP_TRY(gp_bench_add(b, "stencil", pr.name, "naive (one thread per point)", "", "block 32x8", 0, &r,
                            pr.floor_ms, pr.note));
        log_row(o, "naive", &pr, &r);
        bctx xc = {st->d_in, st->d_out, &pr.s, NULL};
        GP_TRY(gp_bench_time(work_copy, &xc, o->quick, &r));
        GP_TRY(gp_bench_add(b, "stencil", pr.name, "device copy (vendor, same bytes)", "", "", 1, &r, pr.floor_ms,
                            pr.note));
        log_row(o, "device copy", &pr, &r);
        /* The verdict on 512^3: at least 0.85 of the copy's
         * bandwidth, paired; 256^3 as context. */
        GP_TRY(pair_with_copy(st, &pr, &p, "gpuprobe", o, b, main_row, 0.85, k == 0 ? "at least" : "at least (context)"));
        if (k != 0)
            continue;
        for (size_t v = 0; v < NVARIANTS; v++) {
            gp_stencil_params q;
            char impl[GP_BENCH_TEXT], qp[GP_BENCH_TEXT];
            variant_params(&variants[v], &o->dev, &q);
            snprintf(impl, sizeof impl, "gpuprobe variant=%dx%d/a%d%s", q.tile_x, q.tile_y, q.ahead,
                     q.vec == 4 ? "/v4" : "");
            gp_stencil_params_format(&q, qp, sizeof qp);
            GP_TRY(time_ours(st, &pr, &q, impl, o, &r));
            GP_TRY(gp_bench_add(b, "stencil", pr.name, impl, label, qp, 0, &r, pr.floor_ms, pr.note));
            log_row(o, impl, &pr, &r);
            /* The 4-wide kernel is the candidate to pass 0.85: its ratio too. */
            if (q.vec == 4)
                GP_TRY(pair_with_copy(st, &pr, &q, impl, o, b, b->nrows - 1, 0.85, "context (variant)"));
        }
    }
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    bstate st;
    memset(&st, 0, sizeof st);
    gp_status s = bench_all(t, label, with_baselines, o, b, &st);
    free(st.h_in), free(st.h_out);
    GP_DEV_FREE(st.d_in, st.d_out);
    return s;
}

/* Tuning sweep: the base table's values, then the bench variants (their
 * blocks_per_cu from the device). */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"stencil", 5, {"tile_x", "tile_y", "planes_ahead", "blocks_per_cu", "vec"},
                                       NULL};
    int rows[NVARIANTS][5];
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_stencil_params q;
        variant_params(&variants[k], dev, &q);
        rows[k][0] = q.tile_x, rows[k][1] = q.tile_y, rows[k][2] = q.ahead, rows[k][3] = q.blocks_per_cu;
        rows[k][4] = q.vec;
    }
    return gp_kcand_make(&keys, base, &rows[0][0], (int)NVARIANTS, out, max, n);
}

/* The floor's model: read once, written once (4 B each); 8 FLOPs an interior
 * point (6 neighbours summed, c1 x the sum, c0 x the centre added). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long s = 0;
    int used = 0;
    if (sscanf(problem, "%lld^3 fp32%n", &s, &used) != 1 || used != (int)strlen(problem) || s < 3)
        return gp_label_unknown("stencil", problem, "N^3 fp32");
    const double n = (double)s * (double)s * (double)s, inner = (double)(s - 2) * (s - 2) * (s - 2);
    w->bytes = 8.0 * n;
    w->flops = 8.0 * inner;
    snprintf(w->method, sizeof w->method, "read once, written once (4 B each); 8 FLOPs an interior point (5 + 1 adds, "
             "2 multiplies)");
    return gp_ok();
}

const gp_kernel gp_kernel_stencil = {
    "stencil",
    "3D 7-point Jacobi step on fp32, xy tiles in LDS with z streamed in registers (vs naive and the device copy)",
    print_params,
    verify,
    bench,
    candidates,
    gp_stencil_rule,
    work_of,
};
