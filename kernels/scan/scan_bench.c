/* scan: verify against the CPU references (int32 exact, fp32 within the
 * derived per-element bound, outputs poisoned and guarded), bench against CUB
 * DeviceScan and the device copy of the same bytes, and the gp_kernel entry. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_target.h"
#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "scan.h"
#include "vendor.h"

/* Variants timed in the bench (with_baselines) and offered to `gpuprobe
 * tune`: {block, items_per_thread, stages}, tiles of 1024 to 16384 elements
 * in registers, and rings of 2 to 6 tiles of 8192 or 16384 (one or two
 * blocks a CU on the H200; where the ring is not available, fit turns them
 * into register variants already in the list, and the bench skips them). */
typedef struct variant {
    int block, items, stages;
} variant;

static const variant variants[] = {
    {256, 4, 0},  {256, 8, 0},  {256, 16, 0}, {512, 4, 0},  {512, 8, 0},  {512, 16, 0},
    {128, 16, 0}, {1024, 8, 0}, {128, 32, 0}, {256, 32, 0}, {128, 64, 0}, {256, 64, 0},
    {256, 64, 3}, {256, 64, 2}, {512, 32, 3}, {256, 32, 3}, {256, 32, 6}, {128, 64, 3},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* Elements of guard poisoned on each side of every output (a store past
 * either end shows). */
#define GUARD 16

static void variant_params(const variant *v, const gp_device_info *dev, gp_scan_params *p)
{
    memset(p, 0, sizeof *p);
    p->block = v->block, p->items = v->items, p->stages = v->stages;
    gp_scan_params_fit(p, dev);
}

/* A ring variant the device or this binary cannot run (fit made it a
 * register one, timed already under its own name). */
static int variant_unavailable(const variant *v, const gp_scan_params *q) { return v->stages > 0 && q->stages == 0; }

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_scan_params p;
    char b[192];
    GP_TRY(gp_scan_params_from_table(t, dev, &p));
    gp_scan_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

static int wave_of(const gp_kernel_opts *o) { return o->dev.wave_size > 0 ? o->dev.wave_size : 64; }

/* fp32 check of got[0..n) against the double reference, element by element:
 * |got - ref| <= gamma_depth(i) sum_{j<=i} |x_j| + the reference's own error
 * (i + 1) 2^-53 sum |x|; with `exact`, no error at all.  *worst (may be
 * NULL) gets the largest error as a fraction of its bound. */
static gp_status check_f32(const char *what, const float *x, const float *got, size_t n, int exclusive,
                           const gp_scan_params *p, size_t head, int wave, int exact, double *worst)
{
    enum { CHUNK = 2048 };
    double ref[CHUNK], sa[CHUNK], acc = 0, acc_abs = 0, w = 0;
    const long long d0 = gp_scan_f32_depth(p, 0, 0, wave);
    const long long step = gp_scan_f32_depth(p, gp_scan_tile(p), 0, wave) - d0;
    const size_t tile = gp_scan_tile(p);
    for (size_t c = 0; c < n; c += CHUNK) {
        size_t m = n - c < CHUNK ? n - c : CHUNK;
        gp_scan_ref_f32(x + c, m, exclusive, &acc, &acc_abs, ref, sa);
        for (size_t k = 0; k < m; k++) {
            size_t i = c + k;
            long long depth = d0 + (long long)((i + head) / tile) * step;
            double bound =
                exact ? 0.0 : gp_scan_f32_bound(depth, sa[k]) + (double)(i + 1) * ldexp(1.0, -53) * sa[k];
            double err = fabs((double)got[i] - ref[k]);
            if (!(err <= bound))
                return gp_fail(GP_ERR_CHECK,
                               "%s: out[%zu] = %.9g, reference %.17g (error %.3g > bound %.3g = gamma_%lld x %.6g)",
                               what, i, (double)got[i], ref[k], err, bound, depth, sa[k]);
            if (bound > 0 && err / bound > w)
                w = err / bound;
        }
    }
    if (worst)
        *worst = w;
    return gp_ok();
}

static gp_status check_i32(const char *what, const int32_t *x, const int32_t *got, size_t n, int exclusive)
{
    enum { CHUNK = 4096 };
    int32_t ref[CHUNK];
    uint32_t acc = 0;
    for (size_t c = 0; c < n; c += CHUNK) {
        size_t m = n - c < CHUNK ? n - c : CHUNK;
        gp_scan_ref_i32(x + c, m, exclusive, &acc, ref);
        for (size_t k = 0; k < m; k++)
            if (got[c + k] != ref[k])
                return gp_fail(GP_ERR_CHECK, "%s: out[%zu] = %d, exact %d", what, c + k, (int)got[c + k],
                               (int)ref[k]);
    }
    return gp_ok();
}

typedef struct vctx {
    float *h_x;     /* input (fp32 or int32 bits) */
    float *h_got;   /* output with its guards: GUARD + n + GUARD */
    char *d_in;     /* room for the largest case plus 16 bytes of offset */
    char *d_out;    /* GUARD + cap + 16 bytes + GUARD */
    gp_scan_ws ws;
    int wave;
} vctx;

/* One run: input at byte offset in_off of d_in (or in place at the output),
 * output at element GUARD + out_off of d_out, poisoned with its guards, then
 * checked.  is_f32, exclusive select the kind. */
static gp_status run_case(vctx *v, size_t n, size_t in_off, size_t out_off, int in_place, int is_f32, int exclusive,
                          int exact, const gp_scan_params *p, const char *label, double *worst)
{
    char what[320];
    uint32_t *base = (uint32_t *)v->d_out + out_off;     /* front guard starts here */
    void *d_o = base + GUARD;
    const void *d_i = in_place ? d_o : (const void *)(v->d_in + 4 * in_off);
    snprintf(what, sizeof what, "scan %s %s n=%zu in+%zu out+%zu%s (%s)", is_f32 ? "f32" : "i32",
             exclusive ? "exclusive" : "inclusive", n, in_off, out_off, in_place ? " in place" : "", label);
    GP_TRY(gp_dev_poison(base, (2 * GUARD + n) * 4));
    if (n)
        GP_TRY(gp_rt_copy_to_device((void *)d_i, v->h_x, n * 4));
    if (is_f32)
        GP_TRY(gp_scan_f32(d_i, d_o, n, exclusive, &v->ws, p));
    else
        GP_TRY(gp_scan_i32(d_i, d_o, n, exclusive, &v->ws, p));
    GP_TRY(gp_rt_copy_to_host(v->h_got, base, (2 * GUARD + n) * 4));
    const uint32_t *g = (const uint32_t *)v->h_got;
    GP_TRY(gp_check_guards(what, g, g + GUARD + n, GUARD));
    size_t head = (size_t)((uintptr_t)d_i & 15) / 4;
    if (is_f32)
        return check_f32(what, v->h_x, v->h_got + GUARD, n, exclusive, p, head, v->wave, exact, worst);
    return check_i32(what, (const int32_t *)v->h_x, (const int32_t *)(v->h_got + GUARD), n, exclusive);
}

/* Every kind at one length: fp32 uniform in [-1, 1) (bound), fp32 small
 * integers (exact: every partial sum is an integer below 2^24, whatever the
 * order), int32 over the whole range (exact, wrapping); inclusive and
 * exclusive; the input at offset `off`, the output at the same offset (16-byte
 * path), at another one (4-byte stores) and in place. */
static gp_status verify_len(vctx *v, size_t n, size_t off, const gp_scan_params *p, uint64_t *rng, const char *label,
                            FILE *log)
{
    double worst = 0, w;
    for (int ex = 0; ex <= 1; ex++) {
        gp_fill_uniform_f32(v->h_x, n, -1.0f, 1.0f, rng);
        GP_TRY(run_case(v, n, off, off, 0, 1, ex, 0, p, label, &w));
        worst = w > worst ? w : worst;
        GP_TRY(run_case(v, n, off, (off + 1) % 4, 0, 1, ex, 0, p, label, &w));
        worst = w > worst ? w : worst;
        if (n < (1u << 20)) {
            /* |partial sums| <= 8 n < 2^24: exact whatever the order, so a
             * lost or doubled element shows however small. */
            for (size_t i = 0; i < n; i++)
                v->h_x[i] = (float)((int)(gp_rand_u64(rng) % 17) - 8);
            GP_TRY(run_case(v, n, off, off, 1, 1, ex, 1, p, label, NULL));
        }
        gp_fill_uniform_i32((int32_t *)v->h_x, n, INT32_MIN, INT32_MAX, rng);
        GP_TRY(run_case(v, n, off, off, 0, 0, ex, 1, p, label, NULL));
        GP_TRY(run_case(v, n, off, off, 1, 0, ex, 1, p, label, NULL));
        GP_TRY(run_case(v, n, off, (off + 2) % 4, 0, 0, ex, 1, p, label, NULL));
    }
    if (log)
        fprintf(log, "  n=%zu offset %zu: f32 worst error %.3g of its bound; i32 exact; in place, other offsets\n", n,
                off, worst);
    return gp_ok();
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vctx *v)
{
    gp_scan_params p;
    char label[192];
    GP_TRY(gp_scan_params_from_table(t, &o->dev, &p));
    gp_scan_params_format(&p, label, sizeof label);
    v->wave = wave_of(o);
    /* Lengths: empty, tiny, around the vector width, around a tile and two,
     * a look-back longer than one window of predecessors (wave tiles), and
     * large ones. */
    size_t tile = gp_scan_tile(&p), win = (size_t)v->wave * tile;
    size_t sizes[] = {0,        1,    2,        3,        4,        5,           7,         8,       17,
                      63,       64,   65,       1000,     tile - 1, tile,        tile + 1,  2 * tile + 3,
                      win + 5,  3 * win + 7,    1000003,  (1u << 24) + 5,        30000001};
    size_t nsizes = sizeof sizes / sizeof sizes[0] - (o->quick ? 2 : 0);
    /* A ring: enough tiles that every resident block refills each stage at
     * least once (stages + 1 tiles a block at one block a CU), also under
     * --quick, which the sanitizer tests run: the refill is where the
     * producer, the reducer and the scanners hand stages and tickets over. */
    const size_t ring_n =
        p.stages > 0 ? (size_t)(p.stages + 1) * (size_t)(o->dev.compute_units > 0 ? o->dev.compute_units : 1) * tile + 5
                     : 0;
    size_t cap = ring_n;
    for (size_t i = 0; i < nsizes; i++)
        cap = sizes[i] > cap ? sizes[i] : cap;
    v->h_x = malloc((cap + 1) * 4);
    v->h_got = malloc((cap + 2 * GUARD + 1) * 4);
    if (!v->h_x || !v->h_got)
        return gp_fail(GP_ERR_NOMEM, "scan verify: out of host memory for %zu elements", cap);
    GP_TRY(gp_rt_malloc((void **)&v->d_in, cap * 4 + 16));
    GP_TRY(gp_rt_malloc((void **)&v->d_out, (cap + 2 * GUARD) * 4 + 16));
    /* One workspace for every case here and every variant below. */
    GP_TRY(gp_scan_ws_create(&v->ws, gp_scan_tiles_for(&p, cap, 3) + (cap + 3) / 1024 + 1));
    uint64_t rng = o->seed;
    for (size_t i = 0; i < nsizes; i++) {
        GP_TRY(verify_len(v, sizes[i], 0, &p, &rng, label, o->log));
        /* A start off the 16-byte grid: head elements before the vectors. */
        GP_TRY(verify_len(v, sizes[i], 1 + i % 3, &p, &rng, label, o->quick ? NULL : o->log));
    }
    if (ring_n)
        GP_TRY(verify_len(v, ring_n, 1, &p, &rng, label, o->log));
    /* The same workspace again and again: epochs keep runs apart. */
    for (int r = 0; r < 3; r++)
        GP_TRY(verify_len(v, 3 * win + 7 <= cap ? 3 * win + 7 : cap, 0, &p, &rng, label, NULL));
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_scan_params q;
        variant_params(&variants[k], &o->dev, &q);
        if (variant_unavailable(&variants[k], &q))
            continue;
        gp_scan_params_format(&q, label, sizeof label);
        size_t qt = gp_scan_tile(&q);
        /* The last: more tiles than a ring's resident blocks, so every block
         * goes round its ring several times. */
        size_t vs[] = {0, 5, qt + 1, (size_t)v->wave * qt + 3, 1000003, 5000011};
        for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
            if (vs[i] <= cap)
                GP_TRY(verify_len(v, vs[i], i % 4, &q, &rng, label, NULL));
    }
    if (o->log)
        fprintf(o->log, "  %zu bench variants: f32 within bound, i32 exact, on 5 lengths each\n", NVARIANTS);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vctx v;
    memset(&v, 0, sizeof v);
    gp_status st = verify_all(t, o, &v);
    free(v.h_x), free(v.h_got);
    GP_DEV_FREE(v.d_in, v.d_out);
    gp_scan_ws_destroy(&v.ws);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const void *d_in;
    void *d_out;
    size_t n;
    int is_f32, exclusive;
    gp_scan_ws *ws;
    const gp_scan_params *p;
    void *d_tmp; /* CUB scratch */
    size_t tmp_bytes;
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return x->is_f32 ? gp_scan_f32(x->d_in, x->d_out, x->n, x->exclusive, x->ws, x->p)
                     : gp_scan_i32(x->d_in, x->d_out, x->n, x->exclusive, x->ws, x->p);
}
static gp_status work_cub(void *c)
{
    bctx *x = c;
    return x->is_f32 ? gp_vendor_scan_f32(x->d_in, x->d_out, x->n, x->exclusive, x->d_tmp, &x->tmp_bytes)
                     : gp_vendor_scan_i32(x->d_in, x->d_out, x->n, x->exclusive, x->d_tmp, &x->tmp_bytes);
}
static gp_status work_copy(void *c)
{
    bctx *x = c;
    return gp_rt_copy_device_async(x->d_out, x->d_in, x->n * 4, NULL);
}

typedef struct bstate {
    float *h_in, *h_out;
    void *d_in, *d_out;
    void *d_tmp;
    gp_scan_ws ws;
} bstate;

typedef struct bproblem {
    int is_f32, exclusive;
    size_t n;
    char name[64];
    double floor_ms;
    char note[GP_BENCH_TEXT];
} bproblem;

/* The output on the device is a correct scan of the problem (parameters q
 * for our bound; CUB's order is its own: the caller passes small tiles, a
 * deeper and so more generous bound). */
static gp_status check_out(bstate *s, const bproblem *pr, const gp_scan_params *q, const char *what, int wave)
{
    GP_TRY(gp_rt_copy_to_host(s->h_out, s->d_out, pr->n * 4));
    if (!pr->is_f32)
        return check_i32(what, (const int32_t *)s->h_in, (const int32_t *)s->h_out, pr->n, pr->exclusive);
    return check_f32(what, s->h_in, s->h_out, pr->n, pr->exclusive, q, 0, wave, 0, NULL);
}

static gp_status time_ours(bstate *s, const bproblem *pr, const gp_scan_params *q, const gp_kernel_opts *o,
                           gp_harness_result *r)
{
    bctx x = {s->d_in, s->d_out, pr->n, pr->is_f32, pr->exclusive, &s->ws, q, NULL, 0};
    char what[320], b[160];
    gp_scan_params_format(q, b, sizeof b);
    snprintf(what, sizeof what, "timed scan %s (%s)", pr->name, b);
    GP_TRY(gp_dev_poison(s->d_out, pr->n * 4));
    GP_TRY(gp_bench_time(work_ours, &x, o->quick, r));
    return check_out(s, pr, q, what, wave_of(o));
}

static gp_status print_pair(const bproblem *pr, const char *who, const char *base, const gp_bench_paired *pp,
                            double target, const char *claim, FILE *log)
{
    if (log)
        fprintf(log,
                "scan %s: %s vs %s paired median %.3fx (p10 %.3f, p90 %.3f): %s %.2f: %s (%d rounds ABBA%s; "
                "medians %.4f vs %.4f ms)\n",
                pr->name, who, base, pp->ratio_s.median, pp->ratio_s.p10, pp->ratio_s.p90, claim, target,
                gp_bench_verdict_word(gp_bench_pair_at_least(pp, target)), pp->rounds,
                pp->budget_hit ? ", stopped by the time budget" : "", pp->a_median_ms, pp->b_median_ms);
    return gp_ok();
}

/* Paired ABBA of ours (parameters q, row `row`) against `other` (CUB or the
 * copy); every round ends with our run, so the output afterwards is ours:
 * checked. */
static gp_status pair_with(bstate *s, const bproblem *pr, const gp_scan_params *q, gp_bench_work_fn other,
                           bctx *xb, const gp_kernel_opts *o, gp_bench *b, int row, const char *who,
                           const char *base, double target, const char *claim)
{
    bctx xa = {s->d_in, s->d_out, pr->n, pr->is_f32, pr->exclusive, &s->ws, q, NULL, 0};
    gp_bench_paired pp;
    char what[320];
    snprintf(what, sizeof what, "paired scan %s (%s vs %s)", pr->name, who, base);
    GP_TRY(gp_dev_poison(s->d_out, pr->n * 4));
    GP_TRY(gp_bench_pair(work_ours, &xa, other, xb, o->quick, &pp));
    GP_TRY(check_out(s, pr, q, what, wave_of(o)));
    if (row >= 0)
        GP_TRY(gp_bench_set_pair(b, row, &pp));
    return print_pair(pr, who, base, &pp, target, claim, o->log);
}

/* CUB (and the copy) on the problem: rows, and *have_cub for the pairing. */
static gp_status time_baselines(bstate *s, const bproblem *pr, const gp_kernel_opts *o, gp_bench *b, bctx *xc,
                                int *have_cub)
{
    gp_harness_result r;
    *have_cub = 0;
    memset(xc, 0, sizeof *xc);
    xc->d_in = s->d_in, xc->d_out = s->d_out, xc->n = pr->n, xc->is_f32 = pr->is_f32, xc->exclusive = pr->exclusive;
    gp_status st = work_cub(xc); /* d_tmp NULL: the scratch size */
    if (st.code == GP_ERR_UNSUPPORTED) {
        if (o->log)
            fprintf(o->log, "  %s: CUB baseline skipped: %s\n", pr->name, st.msg);
    } else {
        GP_TRY(st);
        if (s->d_tmp)
            gp_rt_free(s->d_tmp), s->d_tmp = NULL;
        GP_TRY(gp_rt_malloc(&s->d_tmp, xc->tmp_bytes ? xc->tmp_bytes : 16));
        xc->d_tmp = s->d_tmp;
        GP_TRY(gp_dev_poison(s->d_out, pr->n * 4));
        GP_TRY(gp_bench_time(work_cub, xc, o->quick, &r));
        char impl[GP_BENCH_TEXT];
        snprintf(impl, sizeof impl, "CUB DeviceScan::%s", pr->exclusive ? "ExclusiveSum" : "InclusiveSum");
        /* The bound of 256-element tiles: CUB's are larger, so its chain is shorter. */
        gp_scan_params small = {64, 4, 0, ""};
        GP_TRY(check_out(s, pr, &small, impl, wave_of(o)));
        GP_TRY(gp_bench_add(b, "scan", pr->name, impl, "", "", 1, &r, pr->floor_ms, pr->note));
        *have_cub = 1;
    }
    /* The device copy of the same bytes (read n x 4, write n x 4): context
     * row, the baseline when CUB is absent. */
    GP_TRY(gp_bench_time(work_copy, xc, o->quick, &r));
    GP_TRY(gp_bench_add(b, "scan", pr->name, "device copy", "", "", !*have_cub, &r, pr->floor_ms, pr->note));
    return gp_ok();
}

static gp_status bench_all(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                           gp_bench *b, bstate *s)
{
    const int big_log2 = o->quick ? 24 : 28;
    const size_t big = (size_t)1 << big_log2;
    gp_scan_params p;
    GP_TRY(gp_scan_params_from_table(t, &o->dev, &p));
    /* The workspace fits the smallest tile of the table and the variants. */
    size_t min_tile = gp_scan_tile(&p);
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_scan_params q;
        variant_params(&variants[k], &o->dev, &q);
        min_tile = gp_scan_tile(&q) < min_tile ? gp_scan_tile(&q) : min_tile;
    }
    GP_TRY(gp_scan_ws_create(&s->ws, big / min_tile + 2));
    s->h_in = malloc(big * 4);
    s->h_out = malloc(big * 4);
    if (!s->h_in || !s->h_out)
        return gp_fail(GP_ERR_NOMEM, "scan bench: out of host memory (2 x %zu bytes)", big * 4);
    GP_TRY(gp_rt_malloc(&s->d_in, big * 4));
    GP_TRY(gp_rt_malloc(&s->d_out, big * 4));
    char src[96], params[192];
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    gp_scan_params_format(&p, params, sizeof params);
    uint64_t rng = o->seed;

    /* {fp32?, exclusive?, log2 n}: the figure (fp32 inclusive at the
     * big size, with the variants), int32 and exclusive at the big size, and
     * one that fits in L2. */
    const struct { int is_f32, exclusive, lg; } probs[] = {
        {1, 0, big_log2}, {0, 0, big_log2}, {1, 1, big_log2}, {1, 0, 20}};
    for (size_t k = 0; k < sizeof probs / sizeof probs[0]; k++) {
        bproblem pr;
        memset(&pr, 0, sizeof pr);
        pr.is_f32 = probs[k].is_f32, pr.exclusive = probs[k].exclusive;
        pr.n = (size_t)1 << probs[k].lg;
        if (pr.is_f32)
            gp_fill_uniform_f32(s->h_in, pr.n, -1.0f, 1.0f, &rng);
        else
            gp_fill_uniform_i32((int32_t *)s->h_in, pr.n, INT32_MIN, INT32_MAX, &rng);
        GP_TRY(gp_rt_copy_to_device(s->d_in, s->h_in, pr.n * 4));
        snprintf(pr.name, sizeof pr.name, "2^%d %s %s", probs[k].lg, pr.is_f32 ? "fp32" : "int32",
                 pr.exclusive ? "exclusive" : "inclusive");
        double bytes = 8.0 * (double)pr.n; /* read once, write once */
        pr.floor_ms = gbs > 0 ? bytes / (gbs * 1e9) * 1e3 : 0;
        snprintf(pr.note, sizeof pr.note, "DRAM %.0f MB (read + write) at %.0f GB/s (%s)%s", bytes / 1e6, gbs, src,
                 bytes < (double)o->dev.l2_bytes ? "; fits in L2" : "");

        gp_harness_result r;
        GP_TRY(time_ours(s, &pr, &p, o, &r));
        GP_TRY(gp_bench_add(b, "scan", pr.name, "gpuprobe", label, params, 0, &r, pr.floor_ms, pr.note));
        const int main_row = b->nrows - 1;
        if (o->log)
            fprintf(o->log, "  scan %s: %.4f ms = %.0f GB/s (read + write), result checked\n", pr.name,
                    r.summary.median, bytes / (r.summary.median * 1e6));
        if (!with_baselines)
            continue;
        bctx xc;
        int have_cub;
        GP_TRY(time_baselines(s, &pr, o, b, &xc, &have_cub));
        if (k != 0)
            continue;
        /* The verdicts on fp32 at the big size, interleaved (ABBA):
         * ours at least as fast as CUB, and at least 0.90 of the copy's
         * speed (the others have rows, unpaired, to keep the bench short). */
        if (have_cub)
            GP_TRY(pair_with(s, &pr, &p, work_cub, &xc, o, b, main_row, "gpuprobe", "CUB", 1.0, "at least"));
        GP_TRY(pair_with(s, &pr, &p, work_copy, &xc, o, b, have_cub ? -1 : main_row, "gpuprobe", "device copy",
                         0.90, "at least"));
        int best_row = -1;
        gp_scan_params best_q;
        memset(&best_q, 0, sizeof best_q);
        for (size_t v = 0; v < NVARIANTS; v++) {
            gp_scan_params q;
            char impl[GP_BENCH_TEXT], qp[192];
            variant_params(&variants[v], &o->dev, &q);
            if (variant_unavailable(&variants[v], &q))
                continue;
            GP_TRY(time_ours(s, &pr, &q, o, &r));
            if (q.stages > 0)
                snprintf(impl, sizeof impl, "gpuprobe variant=b%d/i%d/s%d", q.block, q.items, q.stages);
            else
                snprintf(impl, sizeof impl, "gpuprobe variant=b%d/i%d", q.block, q.items);
            gp_scan_params_format(&q, qp, sizeof qp);
            GP_TRY(gp_bench_add(b, "scan", pr.name, impl, label, qp, 0, &r, pr.floor_ms, pr.note));
            if (best_row < 0 || r.summary.median < b->rows[best_row].ms.median)
                best_row = b->nrows - 1, best_q = q;
            if (o->log)
                fprintf(o->log, "  %s %s: %.4f ms = %.0f GB/s\n", impl, pr.name, r.summary.median,
                        bytes / (r.summary.median * 1e6));
        }
        if (have_cub && best_row >= 0)
            GP_TRY(pair_with(s, &pr, &best_q, work_cub, &xc, o, b, best_row, b->rows[best_row].impl, "CUB", 1.0,
                             "at least (context)"));
    }
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    bstate s;
    memset(&s, 0, sizeof s);
    gp_status st = bench_all(t, label, with_baselines, o, b, &s);
    free(s.h_in), free(s.h_out);
    GP_DEV_FREE(s.d_in, s.d_out, s.d_tmp);
    gp_scan_ws_destroy(&s.ws);
    return st;
}

/* Tuning sweep: the base table's values, then the bench variants. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"scan", 3, {"block", "items_per_thread", "stages"}, NULL};
    int rows[NVARIANTS][3], nrows = 0;
    /* The rings only where they can run (else fit would make them register
     * variants already in the list). */
    const int ring = !dev || gp_target_has_bulk_copy(dev->arch);
    for (size_t k = 0; k < NVARIANTS; k++) {
        if (variants[k].stages > 0 && !ring)
            continue;
        rows[nrows][0] = variants[k].block, rows[nrows][1] = variants[k].items, rows[nrows][2] = variants[k].stages;
        nrows++;
    }
    return gp_kcand_make(&keys, base, &rows[0][0], nrows, out, max, n);
}

/* The floor's model: read once, written once; one add an element (FLOPs
 * for fp32 only). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long n;
    const char *rest;
    char type[8], kind[16];
    if (!gp_label_pow2(problem, &n, &rest) || sscanf(rest, " %7s %15s", type, kind) != 2 ||
        (strcmp(type, "fp32") && strcmp(type, "int32")))
        return gp_label_unknown("scan", problem, "2^K fp32|int32 inclusive|exclusive");
    w->bytes = 8.0 * (double)n;
    w->flops = strcmp(type, "fp32") ? 0 : (double)n;
    snprintf(w->method, sizeof w->method, "read once, written once (4 B each); one add an element (integer adds are "
             "no FLOPs)");
    return gp_ok();
}

const gp_kernel gp_kernel_scan = {
    "scan",
    "inclusive / exclusive prefix sum of fp32 / int32, single pass with decoupled look-back, tiles in registers or "
    "a shared-memory ring (vs CUB DeviceScan)",
    print_params,
    verify,
    bench,
    candidates,
    gp_scan_rule,
    work_of,
};
