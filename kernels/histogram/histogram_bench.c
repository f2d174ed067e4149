/* histogram: verify against the CPU references (exact, bins poisoned and
 * guarded), bench against CUB DeviceHistogram::HistogramEven and the floor
 * (the input's bytes at the measured DRAM bandwidth), and the gp_kernel
 * entry. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "vendor.h"

/* Variants timed in the bench (with_baselines) and offered to `gpuprobe
 * tune`: {block, vectors, copies u8, copies u32}.  The last ones give up
 * the copies (one shared histogram a block, as CUB and the textbook
 * kernel), to show what the copies buy on skewed data. */
typedef struct variant {
    int block, vecs, c8, c32;
} variant;

static const variant variants[] = {
    {256, 1, 32, 2}, {256, 2, 32, 2}, {256, 4, 32, 2}, {512, 1, 32, 2}, {512, 2, 32, 2}, {128, 2, 32, 2},
    {1024, 1, 32, 2}, {256, 2, 16, 2}, {256, 2, 8, 2}, {256, 2, 1, 1},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* Words of guard poisoned on each side of the bins (a store past either end
 * shows). */
#define GUARD 16
/* The hot bin of the skewed data. */
#define HOT_U8 0x5a
#define HOT_U32 1234u

static void variant_params(const variant *v, const gp_device_info *dev, gp_histogram_params *p)
{
    memset(p, 0, sizeof *p);
    p->block = v->block, p->vecs = v->vecs, p->copies_u8 = v->c8, p->copies_u32 = v->c32;
    gp_histogram_params_fit(p, dev);
}

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_histogram_params p;
    char b[192];
    GP_TRY(gp_histogram_params_from_table(t, dev, &p));
    gp_histogram_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

/* ------------------------------------------------------------------ data
 * kind 0: uniform (bytes; keys in [0, 4096)); 1: skewed, about 90 % on the
 * hot bin and the rest uniform; 2: one value everywhere (every atomic on one
 * bin); 3 (keys only): uniform over [0, 5000), some keys out of range; 4
 * (keys only): the full 32-bit range, nearly all out of range. */
static const char *const kind_names[] = {"uniform", "skewed 90%", "one value", "keys to 5000", "full range"};

static void fill_u8(uint8_t *x, size_t n, int kind, uint64_t *rng)
{
    const uint8_t one = (uint8_t)gp_rand_u64(rng);
    for (size_t i = 0; i < n; i += 4) {
        uint64_t r = gp_rand_u64(rng);
        for (size_t k = 0; k < 4 && i + k < n; k++) {
            unsigned u = (unsigned)(r >> (16 * k)) & 0xffffu;
            /* Low byte < 26 (10.2 %): a cold sample, its value the high byte. */
            x[i + k] = kind == 0 ? (uint8_t)u : kind == 1 ? ((u & 0xffu) < 26 ? (uint8_t)(u >> 8) : HOT_U8) : one;
        }
    }
}

static void fill_u32(uint32_t *x, size_t n, int kind, uint64_t *rng)
{
    const uint32_t one = (uint32_t)(gp_rand_u64(rng) % GP_HIST_U32_BINS);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = gp_rand_u64(rng);
        uint32_t lo = (uint32_t)r, hi = (uint32_t)(r >> 32);
        switch (kind) {
        case 0: x[i] = lo % GP_HIST_U32_BINS; break;
        case 1: x[i] = hi % 10 == 0 ? lo % GP_HIST_U32_BINS : HOT_U32; break;
        case 2: x[i] = one; break;
        case 3: x[i] = lo % 5000; break;
        default: x[i] = lo; break;
        }
    }
}

/* The bins with their guards (GUARD + nbins + GUARD words, as read back):
 * guards still poisoned (0xFF bytes), bins equal to the reference. */
static gp_status check_bins(const char *what, const uint32_t *got, const uint32_t *ref, int nbins)
{
    for (int k = 0; k < GUARD; k++)
        if (got[k] != 0xffffffffu || got[GUARD + nbins + k] != 0xffffffffu)
            return gp_fail(GP_ERR_CHECK, "%s: a store landed outside the bins (%s guard word %d)", what,
                           got[k] != 0xffffffffu ? "front" : "back", k);
    for (int b = 0; b < nbins; b++)
        if (got[GUARD + b] != ref[b])
            return gp_fail(GP_ERR_CHECK, "%s: bin %d = %u, exact %u", what, b, got[GUARD + b], ref[b]);
    return gp_ok();
}

static gp_status run(int is_u32, const void *d_in, size_t n, uint32_t *d_bins, const gp_histogram_params *p)
{
    return is_u32 ? gp_histogram_u32(d_in, n, d_bins, p) : gp_histogram_u8(d_in, n, d_bins, p);
}

typedef struct vctx {
    uint8_t *h_x;   /* input, bytes or keys */
    uint32_t *h_ref, *h_got;
    char *d_in;     /* the largest case plus 16 bytes of offset */
    uint32_t *d_bins; /* GUARD + 4096 + GUARD */
} vctx;

/* One case: data of `kind` at byte offset `off`, the bins poisoned, run,
 * checked. */
static gp_status run_case(vctx *v, int is_u32, size_t n, size_t off, int kind, const gp_histogram_params *p,
                          const char *label, uint64_t *rng)
{
    const int nbins = is_u32 ? GP_HIST_U32_BINS : GP_HIST_U8_BINS;
    const size_t size = is_u32 ? 4 : 1;
    char what[320];
    snprintf(what, sizeof what, "histogram %s %s n=%zu offset %zu B (%s)", is_u32 ? "u32" : "u8", kind_names[kind], n,
             off, label);
    if (is_u32)
        fill_u32((uint32_t *)v->h_x, n, kind, rng);
    else
        fill_u8(v->h_x, n, kind, rng);
    memset(v->h_ref, 0, (size_t)nbins * 4);
    if (is_u32)
        gp_histogram_ref_u32((const uint32_t *)v->h_x, n, v->h_ref);
    else
        gp_histogram_ref_u8(v->h_x, n, v->h_ref);
    if (n)
        GP_TRY(gp_rt_copy_to_device(v->d_in + off, v->h_x, n * size));
    GP_TRY(gp_dev_poison(v->d_bins, (size_t)(2 * GUARD + nbins) * 4));
    GP_TRY(run(is_u32, v->d_in + off, n, v->d_bins + GUARD, p));
    GP_TRY(gp_rt_copy_to_host(v->h_got, v->d_bins, (size_t)(2 * GUARD + nbins) * 4));
    return check_bins(what, v->h_got, v->h_ref, nbins);
}

/* The grid the model sizes (gp_histogram_blocks_per_cu) must be resident
 * at once, or a second round of blocks would do its share after the others:
 * at most what the runtime's occupancy calculator grants. */
static gp_status check_grid(const gp_histogram_params *p, const gp_device_info *dev, FILE *log)
{
    if (dev->compute_units < 1)
        return gp_ok();
    for (int u32 = 0; u32 <= 1; u32++) {
        int occ = 0, grid = u32 ? p->grid_u32 : p->grid_u8, copies = u32 ? p->copies_u32 : p->copies_u8;
        GP_TRY(gp_histogram_occupancy(u32, p->block, p->vecs, copies, &occ));
        if (grid > occ * dev->compute_units)
            return gp_fail(GP_ERR_CHECK,
                           "histogram %s: the model's grid %d exceeds the %d x %d blocks the occupancy calculator "
                           "grants (block %d, %d vectors, %d copies)",
                           u32 ? "u32" : "u8", grid, occ, dev->compute_units, p->block, p->vecs, copies);
        if (log)
            fprintf(log, "  %s grid %d = %d blocks a CU (occupancy calculator: %d)\n", u32 ? "u32" : "u8", grid,
                    grid / dev->compute_units, occ);
    }
    return gp_ok();
}

static gp_status verify_all(const gp_table *t, const gp_kernel_opts *o, vctx *v)
{
    gp_histogram_params p;
    char label[192];
    GP_TRY(gp_histogram_params_from_table(t, &o->dev, &p));
    gp_histogram_params_format(&p, label, sizeof label);
    GP_TRY(check_grid(&p, &o->dev, o->log));
    /* Lengths (samples): empty, the ends alone, around a vector, around one
     * step of a block and of the whole grid, and large ones. */
    const size_t step = (size_t)p.block * (size_t)p.vecs * 16;
    const size_t sizes[] = {0,          1,        3,        15,        16,       17,       31,       33,
                            1000,       step - 1, step,     step + 1,  (size_t)p.grid_u8 * step + 7,
                            1000003,    (1u << 24) + 5,     30000001};
    const size_t nsizes = sizeof sizes / sizeof sizes[0] - (o->quick ? 2 : 0);
    size_t cap = 0;
    for (size_t i = 0; i < nsizes; i++)
        cap = sizes[i] > cap ? sizes[i] : cap;
    v->h_x = malloc(cap * 4 + 16);
    v->h_ref = malloc(GP_HIST_U32_BINS * 4);
    v->h_got = malloc((2 * GUARD + GP_HIST_U32_BINS) * 4);
    if (!v->h_x || !v->h_ref || !v->h_got)
        return gp_fail(GP_ERR_NOMEM, "histogram verify: out of host memory for %zu keys", cap);
    GP_TRY(gp_rt_malloc((void **)&v->d_in, cap * 4 + 16));
    GP_TRY(gp_rt_malloc((void **)&v->d_bins, (2 * GUARD + GP_HIST_U32_BINS) * 4));
    uint64_t rng = o->seed;
    for (size_t i = 0; i < nsizes; i++) {
        const size_t n = sizes[i];
        /* Bytes at offsets 0 and 1..15, keys at 0 and 4..12 bytes. */
        const size_t off8 = 1 + i % 15, off32 = 4 * (1 + i % 3);
        for (int kind = 0; kind <= 2; kind++) {
            GP_TRY(run_case(v, 0, n, 0, kind, &p, label, &rng));
            GP_TRY(run_case(v, 0, n, off8, kind, &p, label, &rng));
        }
        for (int kind = 0; kind <= 4; kind++) {
            GP_TRY(run_case(v, 1, n, 0, kind, &p, label, &rng));
            GP_TRY(run_case(v, 1, n, off32, kind, &p, label, &rng));
        }
        if (o->log && !o->quick)
            fprintf(o->log, "  n=%zu: u8 (3 kinds) and u32 (5 kinds) exact at two offsets\n", n);
    }
    for (size_t k = 0; k < NVARIANTS; k++) {
        gp_histogram_params q;
        variant_params(&variants[k], &o->dev, &q);
        gp_histogram_params_format(&q, label, sizeof label);
        GP_TRY(check_grid(&q, &o->dev, NULL));
        const size_t qs = (size_t)q.block * (size_t)q.vecs * 16;
        const size_t vs[] = {5, qs + 1, (size_t)q.grid_u8 * qs + 3, 1000003};
        for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
            if (vs[i] > cap)
                continue;
            GP_TRY(run_case(v, 0, vs[i], i % 16, (int)(i % 2), &q, label, &rng));
            GP_TRY(run_case(v, 1, vs[i], 4 * (i % 4), (int)(i % 2), &q, label, &rng));
        }
    }
    if (o->log)
        fprintf(o->log, "  %zu lengths and %zu bench variants: every bin exact, guards intact\n", nsizes, NVARIANTS);
    return gp_ok();
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    vctx v;
    memset(&v, 0, sizeof v);
    gp_status st = verify_all(t, o, &v);
    free(v.h_x), free(v.h_ref), free(v.h_got);
    GP_DEV_FREE(v.d_in, v.d_bins);
    return st;
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    int is_u32;
    const void *d_in;
    size_t n;
    uint32_t *d_bins; /* past the front guard */
    const gp_histogram_params *p;
    void *d_tmp; /* CUB scratch */
    size_t tmp_bytes;
} bctx;

static gp_status work_ours(void *c)
{
    bctx *x = c;
    return run(x->is_u32, x->d_in, x->n, x->d_bins, x->p);
}

static gp_status work_cub(void *c)
{
    bctx *x = c;
    return x->is_u32 ? gp_vendor_histogram_u32(x->d_in, x->n, x->d_bins, x->d_tmp, &x->tmp_bytes)
                     : gp_vendor_histogram_u8(x->d_in, x->n, x->d_bins, x->d_tmp, &x->tmp_bytes);
}

typedef struct bstate {
    uint8_t *h_in;
    uint32_t ref[GP_HIST_U32_BINS], got[2 * GUARD + GP_HIST_U32_BINS];
    void *d_in, *d_tmp;
    uint32_t *d_bins; /* with guards */
} bstate;

typedef struct bproblem {
    int is_u32, kind;
    size_t n;
    char name[64];
    double floor_ms;
    char note[GP_BENCH_TEXT];
} bproblem;

/* The bins on the device (after the run of `what`) are the problem's. */
static gp_status check_out(bstate *s, const bproblem *pr, const char *what)
{
    const int nbins = pr->is_u32 ? GP_HIST_U32_BINS : GP_HIST_U8_BINS;
    GP_TRY(gp_rt_copy_to_host(s->got, s->d_bins, (size_t)(2 * GUARD + nbins) * 4));
    return check_bins(what, s->got, s->ref, nbins);
}

static gp_status poison_bins(bstate *s) { return gp_dev_poison(s->d_bins, (2 * GUARD + GP_HIST_U32_BINS) * 4); }

static gp_status time_ours(bstate *s, const bproblem *pr, const gp_histogram_params *q, const gp_kernel_opts *o,
                           gp_harness_result *r)
{
    bctx x = {pr->is_u32, s->d_in, pr->n, s->d_bins + GUARD, q, NULL, 0};
    char what[320], b[192];
    gp_histogram_params_format(q, b, sizeof b);
    snprintf(what, sizeof what, "timed histogram %s (%s)", pr->name, b);
    GP_TRY(poison_bins(s));
    GP_TRY(gp_bench_time(work_ours, &x, o->quick, r));
    return check_out(s, pr, what);
}

/* Paired ABBA of ours (parameters q) against CUB; every round ends with our
 * run, so the bins afterwards are ours: checked. */
static gp_status pair_cub(bstate *s, const bproblem *pr, const gp_histogram_params *q, bctx *xc,
                          const gp_kernel_opts *o, gp_bench *b, int row, const char *who, const char *claim)
{
    bctx xa = {pr->is_u32, s->d_in, pr->n, s->d_bins + GUARD, q, NULL, 0};
    gp_bench_paired pp;
    char what[320];
    snprintf(what, sizeof what, "paired histogram %s (%s vs CUB)", pr->name, who);
    GP_TRY(poison_bins(s));
    GP_TRY(gp_bench_pair(work_ours, &xa, work_cub, xc, o->quick, &pp));
    GP_TRY(check_out(s, pr, what));
    GP_TRY(gp_bench_set_pair(b, row, &pp));
    if (o->log)
        fprintf(o->log,
                "histogram %s: %s vs CUB paired median %.3fx (p10 %.3f, p90 %.3f): %s 1.00: %s (%d rounds ABBA%s; "
                "medians %.4f vs %.4f ms)\n",
                pr->name, who, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, claim,
                gp_bench_verdict_word(gp_bench_pair_at_least(&pp, 1.0)), pp.rounds,
                pp.budget_hit ? ", stopped by the time budget" : "", pp.a_median_ms, pp.b_median_ms);
    return gp_ok();
}

/* CUB on the problem: its row (the baseline) and *have_cub. */
static gp_status time_cub(bstate *s, const bproblem *pr, const gp_kernel_opts *o, gp_bench *b, bctx *xc,
                          int *have_cub)
{
    gp_harness_result r;
    *have_cub = 0;
    memset(xc, 0, sizeof *xc);
    xc->is_u32 = pr->is_u32, xc->d_in = s->d_in, xc->n = pr->n, xc->d_bins = s->d_bins + GUARD;
    gp_status st = work_cub(xc); /* d_tmp NULL: the scratch size */
    if (st.code == GP_ERR_UNSUPPORTED) {
        if (o->log)
            fprintf(o->log, "  %s: CUB baseline skipped: %s\n", pr->name, st.msg);
        return gp_ok();
    }
    GP_TRY(st);
    if (s->d_tmp)
        gp_rt_free(s->d_tmp), s->d_tmp = NULL;
    GP_TRY(gp_rt_malloc(&s->d_tmp, xc->tmp_bytes ? xc->tmp_bytes : 16));
    xc->d_tmp = s->d_tmp;
    GP_TRY(poison_bins(s));
    GP_TRY(gp_bench_time(work_cub, xc, o->quick, &r));
    GP_TRY(check_out(s, pr, "CUB DeviceHistogram::HistogramEven"));
    GP_TRY(gp_bench_add(b, "histogram", pr->name, "CUB DeviceHistogram::HistogramEven", "", "", 1, &r, pr->floor_ms,
                        pr->note));
    *have_cub = 1;
    return gp_ok();
}

/* The variants on one problem: rows, and with `pair` the fastest one paired
 * with CUB (context). */
static gp_status time_variants(bstate *s, const bproblem *pr, const char *label, const gp_kernel_opts *o,
                               gp_bench *b, bctx *xc, int pair)
{
    int best_row = -1;
    gp_histogram_params best_q;
    memset(&best_q, 0, sizeof best_q);
    const double bytes = (double)pr->n * (pr->is_u32 ? 4 : 1);
    for (size_t v = 0; v < NVARIANTS; v++) {
        gp_histogram_params q;
        gp_harness_result r;
        char impl[GP_BENCH_TEXT], qp[192];
        variant_params(&variants[v], &o->dev, &q);
        GP_TRY(time_ours(s, pr, &q, o, &r));
        snprintf(impl, sizeof impl, "gpuprobe variant=b%d/v%d/c%d", q.block, q.vecs,
                 pr->is_u32 ? q.copies_u32 : q.copies_u8);
        gp_histogram_params_format(&q, qp, sizeof qp);
        GP_TRY(gp_bench_add(b, "histogram", pr->name, impl, label, qp, 0, &r, pr->floor_ms, pr->note));
        if (best_row < 0 || r.summary.median < b->rows[best_row].ms.median)
            best_row = b->nrows - 1, best_q = q;
        if (o->log)
            fprintf(o->log, "  %s %s: %.4f ms = %.0f GB/s\n", impl, pr->name, r.summary.median,
                    bytes / (r.summary.median * 1e6));
    }
    if (pair && best_row >= 0)
        GP_TRY(pair_cub(s, pr, &best_q, xc, o, b, best_row, b->rows[best_row].impl, "at least (context)"));
    return gp_ok();
}

static gp_status bench_all(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                           gp_bench *b, bstate *s)
{
    const int lg8 = o->quick ? 26 : 30, lg32 = o->quick ? 24 : 28;
    const size_t big = (size_t)1 << lg8; /* bytes: 2^30 of u8 = 2^28 keys */
    gp_histogram_params p;
    GP_TRY(gp_histogram_params_from_table(t, &o->dev, &p));
    s->h_in = malloc(big);
    if (!s->h_in)
        return gp_fail(GP_ERR_NOMEM, "histogram bench: out of host memory (%zu bytes)", big);
    GP_TRY(gp_rt_malloc(&s->d_in, big));
    GP_TRY(gp_rt_malloc((void **)&s->d_bins, (2 * GUARD + GP_HIST_U32_BINS) * 4));
    char src[96], params[192];
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    gp_histogram_params_format(&p, params, sizeof params);
    uint64_t rng = o->seed;

    /* {u32?, kind, log2 n}: the figures (uniform) and the skewed
     * cases, each against CUB. */
    const struct { int is_u32, kind, lg; } probs[] = {{0, 0, lg8}, {0, 1, lg8}, {1, 0, lg32}, {1, 1, lg32}};
    for (size_t k = 0; k < sizeof probs / sizeof probs[0]; k++) {
        bproblem pr;
        memset(&pr, 0, sizeof pr);
        pr.is_u32 = probs[k].is_u32, pr.kind = probs[k].kind;
        pr.n = (size_t)1 << probs[k].lg;
        const size_t size = pr.is_u32 ? 4 : 1;
        memset(s->ref, 0, sizeof s->ref);
        if (pr.is_u32) {
            fill_u32((uint32_t *)s->h_in, pr.n, pr.kind, &rng);
            gp_histogram_ref_u32((const uint32_t *)s->h_in, pr.n, s->ref);
        } else {
            fill_u8(s->h_in, pr.n, pr.kind, &rng);
            gp_histogram_ref_u8(s->h_in, pr.n, s->ref);
        }
        GP_TRY(gp_rt_copy_to_device(s->d_in, s->h_in, pr.n * size));
        snprintf(pr.name, sizeof pr.name, "2^%d %s %s", probs[k].lg, pr.is_u32 ? "u32 keys, 4096 bins" : "u8, 256 bins",
                 kind_names[pr.kind]);
        const double bytes = (double)pr.n * (double)size; /* read once; the bins are noise */
        pr.floor_ms = gbs > 0 ? bytes / (gbs * 1e9) * 1e3 : 0;
        snprintf(pr.note, sizeof pr.note, "DRAM %.0f MB read at %.0f GB/s (%s)", bytes / 1e6, gbs, src);

        gp_harness_result r;
        GP_TRY(time_ours(s, &pr, &p, o, &r));
        GP_TRY(gp_bench_add(b, "histogram", pr.name, "gpuprobe", label, params, 0, &r, pr.floor_ms, pr.note));
        const int main_row = b->nrows - 1;
        if (o->log)
            fprintf(o->log, "  histogram %s: %.4f ms = %.0f GB/s, every bin checked\n", pr.name, r.summary.median,
                    bytes / (r.summary.median * 1e6));
        if (!with_baselines)
            continue;
        bctx xc;
        int have_cub;
        GP_TRY(time_cub(s, &pr, o, b, &xc, &have_cub));
        /* The verdict on the uniform cases; the skewed ones are
         * reported against CUB as well. */
        if (have_cub)
            GP_TRY(pair_cub(s, &pr, &p, &xc, o, b, main_row, "gpuprobe",
                            pr.kind == 0 ? "at least" : "at least (reported)"));
        /* Every problem's variants (a run is a fraction of a millisecond;
         * on the skewed ones the one-copy variant shows what the copies buy),
         * the fastest on the uniform ones paired with CUB. */
        GP_TRY(time_variants(s, &pr, label, o, b, &xc, have_cub && pr.kind == 0));
    }
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    bstate *s = calloc(1, sizeof *s);
    if (!s)
        return gp_fail(GP_ERR_NOMEM, "histogram bench: out of host memory");
    gp_status st = bench_all(t, label, with_baselines, o, b, s);
    free(s->h_in);
    GP_DEV_FREE(s->d_in, s->d_bins, s->d_tmp);
    free(s);
    return st;
}

/* Tuning sweep: the base table's values, then the bench variants. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"histogram", 4, {"block", "items_per_thread", "copies_u8", "copies_u32"}, NULL};
    int rows[NVARIANTS][4];
    (void)dev;
    for (size_t k = 0; k < NVARIANTS; k++)
        rows[k][0] = variants[k].block, rows[k][1] = variants[k].vecs, rows[k][2] = variants[k].c8,
        rows[k][3] = variants[k].c32;
    return gp_kcand_make(&keys, base, &rows[0][0], (int)NVARIANTS, out, max, n);
}

/* The floor's model: the input read once (the bins are noise); no FLOPs
 * (integer counting). */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long n;
    const char *rest;
    int is_u32 = 0;
    if (!gp_label_pow2(problem, &n, &rest))
        return gp_label_unknown("histogram", problem, "2^K u8, 256 bins|u32 keys, 4096 bins KIND");
    if (strncmp(rest, " u32 keys, 4096 bins ", 21) == 0)
        is_u32 = 1;
    else if (strncmp(rest, " u8, 256 bins ", 14) != 0)
        return gp_label_unknown("histogram", problem, "2^K u8, 256 bins|u32 keys, 4096 bins KIND");
    w->bytes = (double)n * (is_u32 ? 4.0 : 1.0);
    w->flops = 0;
    snprintf(w->method, sizeof w->method, "the %s input read once (the bins are noise); integer counts, no FLOPs",
             is_u32 ? "4-byte" : "1-byte");
    return gp_ok();
}

const gp_kernel gp_kernel_histogram = {
    "histogram",
    "256 bins over uint8 and 4096 bins over uint32 keys, LDS sub-histograms a bank each (vs CUB HistogramEven)",
    print_params,
    verify,
    bench,
    candidates,
    gp_histogram_rule,
    work_of,
};
