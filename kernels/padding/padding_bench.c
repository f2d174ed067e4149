/* padding: verify against the CPU reference (exact: a copy), bench against
 * the vendor device-to-device copy of the same bytes (paired ABBA: the
 * fraction of the copy's bandwidth), and the gp_kernel entry. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcandidates.h"
#include "kernel.h"
#include "data.h"
#include "padding.h"
#include "padding_staged.h"

static const int item_variants[] = {4, 8, 16};
#define NITEMS (sizeof item_variants / sizeof item_variants[0])
/* The staged kernel's planes per block in the bench, verify and tune: both
 * sides of the rule's 64 on the H200 (docs/kernels/padding.md). */
static const int plane_variants[] = {16, 32, 64, 128};
#define NPLANES (sizeof plane_variants / sizeof plane_variants[0])

static gp_status print_params(const gp_table *t, const gp_device_info *dev, FILE *out)
{
    gp_padding_params p;
    char b[160];
    GP_TRY(gp_padding_params_from_table(t, dev, &p));
    gp_padding_params_format(&p, b, sizeof b);
    fprintf(out, "%s%s%s%s\n", b, p.note[0] ? " [adjusted: " : "", p.note, p.note[0] ? "]" : "");
    return gp_ok();
}

static void shape_name(const gp_padding_shape *s, char *buf, size_t n)
{
    snprintf(buf, n, "%dx%dx%dx%d pad t%d b%d l%d r%d", s->n, s->c, s->h, s->w, s->top, s->bottom, s->left,
             s->right);
}

/* The output against the definition without a second output-sized buffer:
 * every element, plane by plane, exact (a padded copy moves bits). */
static gp_status check_out(const float *in, const float *out, const gp_padding_shape *s, const char *what)
{
    const int ho = gp_padding_out_h(s), wo = gp_padding_out_w(s);
    const size_t planes = (size_t)s->n * s->c;
    for (size_t p = 0; p < planes; p++)
        for (int y = 0; y < ho; y++)
            for (int x = 0; x < wo; x++) {
                int iy = y - s->top, ix = x - s->left;
                float want = iy >= 0 && iy < s->h && ix >= 0 && ix < s->w
                                 ? in[(p * s->h + (size_t)iy) * s->w + (size_t)ix]
                                 : 0.0f;
                float got = out[(p * ho + (size_t)y) * wo + (size_t)x];
                if (memcmp(&got, &want, sizeof got))
                    return gp_fail(GP_ERR_CHECK, "%s: plane %zu y %d x %d: got %.9g, want %.9g", what, p, y, x,
                                   (double)got, (double)want);
            }
    return gp_ok();
}

/* One shape under parameters p: random input, poisoned output, exact. */
static gp_status verify_one(const gp_padding_shape *s, const gp_padding_params *p, uint64_t *rng, FILE *log)
{
    size_t ni = gp_padding_in_elems(s), no = gp_padding_out_elems(s);
    float *h_in = malloc(ni * sizeof(float)), *h_out = malloc(no * sizeof(float)), *h_ref = malloc(no * 4);
    float *d_in = NULL, *d_out = NULL;
    char name[96], pb[160], what[320];
    shape_name(s, name, sizeof name);
    gp_padding_params_format(p, pb, sizeof pb);
    snprintf(what, sizeof what, "padding %s (%s)", name, pb);
    gp_status st = gp_ok();
    if (!h_in || !h_out || !h_ref)
        st = gp_fail(GP_ERR_NOMEM, "%s: out of host memory", what);
    if (st.code == GP_OK) {
        gp_fill_uniform_f32(h_in, ni, -1.0f, 1.0f, rng);
        gp_padding_ref_f32(h_in, h_ref, s);
        st = gp_dev_alloc_copy((void **)&d_in, h_in, ni * sizeof(float));
    }
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&d_out, no * sizeof(float));
    if (st.code == GP_OK)
        st = gp_dev_poison(d_out, no * sizeof(float));
    if (st.code == GP_OK)
        st = gp_padding_f32(d_in, d_out, s, p);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(h_out, d_out, no * sizeof(float));
    if (st.code == GP_OK)
        st = gp_compare_f32(what, h_out, h_ref, no, 0.0, 0.0, NULL);
    if (st.code == GP_OK && log)
        fprintf(log, "  %s: exact\n", what);
    free(h_in), free(h_out), free(h_ref);
    GP_DEV_FREE(d_in, d_out);
    return st;
}

static gp_status verify(const gp_table *t, const gp_kernel_opts *o)
{
    gp_padding_params p;
    GP_TRY(gp_padding_params_from_table(t, &o->dev, &p));
    /* One element; pads on one side only; outputs not a multiple of
     * 4 or of a block's share; wide rows; the seed's 7x7 + 3; no padding. */
    const gp_padding_shape shapes[] = {
        {1, 1, 1, 1, 0, 0, 0, 0},   {1, 1, 1, 1, 3, 0, 0, 5},  {2, 3, 5, 7, 1, 2, 3, 0},
        {3, 5, 4, 4, 2, 1, 1, 2},   {1, 2, 300, 517, 0, 0, 7, 0}, {8, 16, 7, 7, 3, 3, 3, 3},
        {17, 33, 7, 7, 3, 3, 3, 3}, {4, 9, 56, 56, 1, 2, 0, 3}, {2, 2, 33, 1, 0, 9, 4, 4},
    };
    const size_t ns = sizeof shapes / sizeof shapes[0];
    uint64_t rng = o->seed;
    for (size_t i = 0; i < ns; i++)
        GP_TRY(verify_one(&shapes[i], &p, &rng, o->log));
    /* Every compiled items_per_thread, on every shape (tails of every length
     * mod 4 x block and plane counts that are not multiples of 4). */
    for (size_t k = 0; k < NITEMS; k++) {
        gp_padding_params q = p;
        q.items_per_thread = item_variants[k];
        q.planes_per_block = 0; /* the flat kernel */
        q.note[0] = '\0';
        gp_padding_params_fit(&q, &o->dev);
        for (size_t i = 0; i < ns; i++)
            GP_TRY(verify_one(&shapes[i], &q, &rng, NULL));
    }
    /* The staged kernel on every shape (planes that do not fit its shared
     * memory run flat; plane counts not a multiple of P leave a short last
     * block). */
    for (size_t k = 0; k < NPLANES; k++) {
        gp_padding_params q = p;
        q.planes_per_block = plane_variants[k];
        q.note[0] = '\0';
        gp_padding_params_fit(&q, &o->dev);
        for (size_t i = 0; i < ns; i++)
            GP_TRY(verify_one(&shapes[i], &q, &rng, NULL));
    }
    if (o->log)
        fprintf(o->log, "  items_per_thread 4, 8, 16 and staged 16, 32, 64, 128 planes a block: exact on every shape\n");
    return gp_ok();
}

/* ---------------------------------------------------------------- bench */

typedef struct bctx {
    const float *d_in;
    float *d_out;
    const gp_padding_shape *s;
    const gp_padding_params *p;
    const void *copy_src; /* the vendor copy: copy_bytes from copy_src to copy_dst */
    void *copy_dst;
    size_t copy_bytes;
} bctx;

static gp_status work_pad(void *c)
{
    bctx *x = c;
    return gp_padding_f32(x->d_in, x->d_out, x->s, x->p);
}

static gp_status work_copy(void *c)
{
    bctx *x = c;
    return gp_rt_copy_device_async(x->copy_dst, x->copy_src, x->copy_bytes, NULL);
}

typedef struct bstate {
    float *h_in, *h_out, *d_in, *d_out, *d_copy;
} bstate;

static gp_status time_and_check(bstate *bs, bctx *x, const gp_kernel_opts *o, const char *what,
                                gp_harness_result *r)
{
    size_t no = gp_padding_out_elems(x->s);
    GP_TRY(gp_dev_poison(bs->d_out, no * sizeof(float)));
    GP_TRY(gp_bench_time(work_pad, x, o->quick, r));
    GP_TRY(gp_rt_copy_to_host(bs->h_out, bs->d_out, no * sizeof(float)));
    return check_out(bs->h_in, bs->h_out, x->s, what);
}

/* Paired ABBA of x's padding against the copy; every round ends with the
 * padding, so the output afterwards is checked; the pair goes on `row`. */
static gp_status pair_checked(bstate *bs, bctx *x, const gp_kernel_opts *o, const char *what, gp_bench *b, int row,
                              gp_bench_paired *pp)
{
    size_t no = gp_padding_out_elems(x->s);
    GP_TRY(gp_dev_poison(bs->d_out, no * sizeof(float)));
    GP_TRY(gp_bench_pair(work_pad, x, work_copy, x, o->quick, pp));
    GP_TRY(gp_rt_copy_to_host(bs->h_out, bs->d_out, no * sizeof(float)));
    GP_TRY(check_out(bs->h_in, bs->h_out, x->s, what));
    return gp_bench_set_pair(b, row, pp);
}

/* A bench variant: x with parameters q, timed, checked, one row. */
static gp_status time_variant(bstate *bs, bctx x, const gp_padding_params *q, const char *impl, const char *problem,
                              const char *label, double floor_ms, const char *note, double moved,
                              const gp_kernel_opts *o, gp_bench *b)
{
    char qp[160], what[320];
    gp_harness_result r;
    x.p = q;
    gp_padding_params_format(q, qp, sizeof qp);
    snprintf(what, sizeof what, "timed padding %s (%s)", problem, qp);
    GP_TRY(time_and_check(bs, &x, o, what, &r));
    GP_TRY(gp_bench_add(b, "padding", problem, impl, label, qp, 0, &r, floor_ms, note));
    if (o->log)
        fprintf(o->log, "  %s %s: %.4f ms = %.0f GB/s\n", impl, problem, r.summary.median,
                moved / (r.summary.median * 1e6));
    return gp_ok();
}

static gp_status bench_problem(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                               gp_bench *b, bstate *bs, const gp_padding_shape *s, int verdict)
{
    gp_padding_params p;
    GP_TRY(gp_padding_params_from_table(t, &o->dev, &p));
    /* The host picks per problem (gp_padding_staged_usable): a problem the
     * table's planes_per_block does not stage runs, and is labelled, flat. */
    const int staged_off = p.planes_per_block > 0 && !gp_padding_staged_usable(&p, s, bs->d_in);
    if (staged_off)
        p.planes_per_block = 0;
    size_t ni = gp_padding_in_elems(s), no = gp_padding_out_elems(s);
    uint64_t rng = o->seed ^ (uint64_t)ni;
    gp_fill_uniform_f32(bs->h_in, ni, -1.0f, 1.0f, &rng);
    GP_TRY(gp_rt_copy_to_device(bs->d_in, bs->h_in, ni * sizeof(float)));

    char problem[96], params[160], src[96], note[GP_BENCH_TEXT], what[320];
    shape_name(s, problem, sizeof problem);
    gp_padding_params_format(&p, params, sizeof params);
    if (staged_off)
        snprintf(params + strlen(params), sizeof params - strlen(params), ", planes over %d B",
                 GP_PADDING_STAGED_PLANE_BYTES);
    double moved = 4.0 * (double)(ni + no);
    double gbs = gp_bench_dram_gbs(t, &o->dev, src, sizeof src);
    double floor_ms = gbs > 0 ? moved / (gbs * 1e9) * 1e3 : 0;
    snprintf(note, sizeof note, "DRAM %.0f MB (read %.0f, write %.0f) at %.0f GB/s (%s)", moved / 1e6,
             4e-6 * (double)ni, 4e-6 * (double)no, gbs, src);
    /* The copy of the same bytes: (in + out) / 2 read and as much written,
     * from the output buffer (large enough) into the copy buffer. */
    bctx x = {bs->d_in, bs->d_out, s, &p, bs->d_out, bs->d_copy, (size_t)(moved / 2) & ~(size_t)15};

    gp_harness_result r;
    snprintf(what, sizeof what, "timed padding %s (%s)", problem, params);
    GP_TRY(time_and_check(bs, &x, o, what, &r));
    GP_TRY(gp_bench_add(b, "padding", problem, "gpuprobe", label, params, 0, &r, floor_ms, note));
    int main_row = b->nrows - 1;
    if (o->log)
        fprintf(o->log, "  padding %s: %.4f ms = %.0f GB/s (%s), output exact\n", problem, r.summary.median,
                moved / (r.summary.median * 1e6), params);
    if (!with_baselines)
        return gp_ok();

    GP_TRY(gp_bench_time(work_copy, &x, o->quick, &r));
    GP_TRY(gp_bench_add(b, "padding", problem, "device copy (vendor, same bytes)", "", "", 1, &r, floor_ms, note));
    if (o->log)
        fprintf(o->log, "  vendor device copy of the same %.0f MB: %.4f ms = %.0f GB/s\n", moved / 1e6,
                r.summary.median, moved / (r.summary.median * 1e6));
    /* The verdict: ours and the copy interleaved (ABBA); ratio =
     * copy time / our time = our fraction of the copy's bandwidth.  Every
     * round ends with our run: the output is checked again. */
    gp_bench_paired pp;
    snprintf(what, sizeof what, "padding %s after the paired loop", problem);
    GP_TRY(pair_checked(bs, &x, o, what, b, main_row, &pp));
    if (o->log)
        fprintf(o->log,
                "padding %s: paired median %.3f of the copy's bandwidth (p10 %.3f, p90 %.3f): >= 0.90: %s%s "
                "(%d rounds ABBA)\n",
                problem, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90,
                gp_bench_verdict_word(gp_bench_pair_at_least(&pp, 0.90)), verdict ? "" : " (context)", pp.rounds);
    /* Every compiled items_per_thread with the table's block, for the record
     * of how far the rule's choice is from the best. */
    for (size_t k = 0; k < NITEMS; k++) {
        gp_padding_params q = p;
        q.items_per_thread = item_variants[k];
        q.planes_per_block = 0; /* the flat kernel */
        q.note[0] = '\0';
        gp_padding_params_fit(&q, &o->dev);
        char impl[64];
        snprintf(impl, sizeof impl, "gpuprobe variant=items%d", q.items_per_thread);
        GP_TRY(time_variant(bs, x, &q, impl, problem, label, floor_ms, note, moved, o, b));
    }
    /* The staged kernel (the candidate for the last 10 %), each also paired
     * with the copy. */
    for (size_t k = 0; k < NPLANES; k++) {
        gp_padding_params q = p;
        q.planes_per_block = plane_variants[k];
        q.note[0] = '\0';
        gp_padding_params_fit(&q, &o->dev);
        if (!gp_padding_staged_usable(&q, s, bs->d_in))
            continue; /* would time the flat kernel again */
        char impl[64];
        snprintf(impl, sizeof impl, "gpuprobe variant=staged%d", q.planes_per_block);
        GP_TRY(time_variant(bs, x, &q, impl, problem, label, floor_ms, note, moved, o, b));
        bctx xq = x;
        xq.p = &q;
        snprintf(what, sizeof what, "padding %s %s after the paired loop", problem, impl);
        GP_TRY(pair_checked(bs, &xq, o, what, b, b->nrows - 1, &pp));
        if (o->log)
            fprintf(o->log,
                    "padding %s: %s paired median %.3f of the copy's bandwidth (p10 %.3f, p90 %.3f) (context, "
                    "variant; %d rounds ABBA)\n",
                    problem, impl, pp.ratio_s.median, pp.ratio_s.p10, pp.ratio_s.p90, pp.rounds);
    }
    return gp_ok();
}

static gp_status bench(const gp_table *t, const char *label, int with_baselines, const gp_kernel_opts *o,
                       gp_bench *b)
{
    /* The seed's case (N=1024 C=1024 7x7 + 3: 0.2 GB in, 0.7 GB out; quick:
     * N=256) and an asymmetric pad of 56x56 planes. */
    const gp_padding_shape shapes[2] = {{o->quick ? 256 : 1024, 1024, 7, 7, 3, 3, 3, 3},
                                        {64, 64, 56, 56, 1, 2, 0, 3}};
    size_t max_in = 0, max_out = 0;
    for (int i = 0; i < 2; i++) {
        size_t ni = gp_padding_in_elems(&shapes[i]), no = gp_padding_out_elems(&shapes[i]);
        max_in = ni > max_in ? ni : max_in;
        max_out = no > max_out ? no : max_out;
    }
    bstate bs;
    memset(&bs, 0, sizeof bs);
    gp_status st = gp_ok();
    bs.h_in = malloc(max_in * sizeof(float));
    bs.h_out = malloc(max_out * sizeof(float));
    if (!bs.h_in || !bs.h_out)
        st = gp_fail(GP_ERR_NOMEM, "padding bench: out of host memory");
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&bs.d_in, max_in * sizeof(float));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&bs.d_out, max_out * sizeof(float));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&bs.d_copy, (max_in + max_out) * sizeof(float) / 2 + 16);
    for (int i = 0; i < 2 && st.code == GP_OK; i++)
        st = bench_problem(t, label, with_baselines, o, b, &bs, &shapes[i], i == 0);
    free(bs.h_in), free(bs.h_out);
    GP_DEV_FREE(bs.d_in, bs.d_out, bs.d_copy);
    return st;
}

/* Tuning sweep: the base table's values, then each items_per_thread at the
 * base block and blocks 256 and 1024 at the base items (all flat: the rule's
 * staged pick checked against the flat kernel), then the staged kernel at
 * 16..128 planes a block and the base block; rows equal to the base or to
 * an earlier row are left out. */
static gp_status candidates(const gp_table *base, const gp_device_info *dev, gp_table *out, int max, int *n)
{
    static const gp_kcand_keys keys = {"padding", 3, {"block", "items_per_thread", "planes_per_block"}, NULL};
    long long b0, c0, p0 = 0;
    int rows[NITEMS + 2 + NPLANES][3], nrows = 0;
    (void)dev;
    *n = 0;
    GP_TRY(gp_table_get_int(base, "kernel.padding", "block", &b0));
    GP_TRY(gp_table_get_int(base, "kernel.padding", "items_per_thread", &c0));
    if (gp_table_find(base, "kernel.padding", "planes_per_block"))
        GP_TRY(gp_table_get_int(base, "kernel.padding", "planes_per_block", &p0));
    for (size_t k = 0; k < NITEMS + 2; k++) {
        long long blk = k < NITEMS ? b0 : k == NITEMS ? 256 : 1024;
        long long items = k < NITEMS ? item_variants[k] : c0;
        const int same_as_base = blk == b0 && items == c0 && p0 == 0, same_as_row = k >= NITEMS && blk == b0;
        if (!same_as_base && !same_as_row)
            rows[nrows][0] = (int)blk, rows[nrows][1] = (int)items, rows[nrows][2] = 0, nrows++;
    }
    for (size_t k = 0; k < NPLANES; k++)
        if (plane_variants[k] != p0)
            rows[nrows][0] = (int)b0, rows[nrows][1] = (int)c0, rows[nrows][2] = plane_variants[k], nrows++;
    return gp_kcand_make(&keys, base, &rows[0][0], nrows, out, max, n);
}

/* The floor's model: the input read and the padded output written, no
 * arithmetic. */
static gp_status work_of(const char *problem, gp_kernel_work *w)
{
    long long d[4];
    const char *rest;
    gp_padding_shape s;
    if (!gp_label_dims(problem, d, 4, &rest) ||
        sscanf(rest, " pad t%d b%d l%d r%d", &s.top, &s.bottom, &s.left, &s.right) != 4)
        return gp_label_unknown("padding", problem, "NxCxHxW pad tT bB lL rR");
    s.n = (int)d[0], s.c = (int)d[1], s.h = (int)d[2], s.w = (int)d[3];
    w->bytes = 4.0 * (double)(gp_padding_in_elems(&s) + gp_padding_out_elems(&s));
    w->flops = 0;
    snprintf(w->method, sizeof w->method, "input read, padded output written (4 B each); no arithmetic");
    return gp_ok();
}

const gp_kernel gp_kernel_padding = {
    "padding",
    "zero padding of NCHW fp32 by any top/bottom/left/right, no scratch (vs the device copy of the same bytes)",
    print_params,
    verify,
    bench,
    candidates,
    gp_padding_rule,
    work_of,
};
