/* gemm for the driver (kernels/driver.h): its problems, one problem's set-up, run and exact check (integer-valued
 * data, gemm_ref.c), cuBLAS as the baseline, and the gp_kernel entry. */
#include "gemm.h"
#include "gemm_vendor.h"
#define GP_KERNEL_NAME gemm
#include "kernel_decl.h"

/* The variants (tune's candidates, bench's context rows): every compiled configuration, GP_GEMM_CFG0..5 in order
 * (fit snaps one a target lacks to the nearest it has, noted), at the rule's split and stream-K (fit: off for a
 * kernel without them); then the rule's tile launched plain, 128x256x8/256 with k in 2 and in 4, and with
 * stream-K (the models checked by the sweep, and both paths by verify's variant cases where the kernel is). */
#define K GP_PARAM_KEEP
static const int variants[][NPARAMS] = {
    {128, 128, 8, 256, K, K}, {128, 128, 16, 256, K, K}, {128, 64, 8, 128, K, K},  {64, 64, 8, 64, K, K},
    {128, 128, 8, 128, K, K}, {128, 256, 8, 256, K, K},  {K, K, K, K, 1, 0},       {128, 256, 8, 256, 2, 0},
    {128, 256, 8, 256, 4, 0}, {128, 256, 8, 256, 1, 1}};
#undef K

/* A case's data kind: alpha and beta (0: bench's 1 and 0, C not read). */
static const float ab[][2] = {{1, 0}, {2, 0.5f}, {-1, 1}, {1, 1}, {-1, 0.5f}, {2, 0}};
#define NDATA ((int)(sizeof ab / sizeof ab[0]))

/* ---- shapes: SYNTAX; bench labels "4096x4096x4096 NN row-major" */
#define SYNTAX "MxNxK [NN|NT|TN|TT] [row-major|col-major] [ld LDA/LDB/LDC]"

static gp_status shape_parse(const char *spec, gp_shape *s)
{
    const char *p;
    char w[32];
    int len = 0, ok;
    memset(s, 0, sizeof *s);
    for (ok = gp_label_dims(spec, s->d, 3, &p); ok && sscanf(p, " %31s%n", w, &len) == 1;) {
        p += len;
        if (strlen(w) == 2 && strchr("NT", w[0]) && strchr("NT", w[1]))
            s->opt[GP_GEMM_OPT_TRANS_A] = w[0] == 'T', s->opt[GP_GEMM_OPT_TRANS_B] = w[1] == 'T';
        else if (!strcmp(w, "row-major") || !strcmp(w, "col-major"))
            s->opt[GP_GEMM_OPT_LAYOUT] = w[0] == 'c' ? GP_GEMM_COL_MAJOR : GP_GEMM_ROW_MAJOR;
        else if (!strcmp(w, "ld") && sscanf(p, " %lld/%lld/%lld%n", &s->d[GP_GEMM_LDA], &s->d[GP_GEMM_LDB],
                                            &s->d[GP_GEMM_LDC], &len) == 3)
            p += len;
        else
            ok = 0;
    }
    if (!ok || s->d[GP_GEMM_LDA] < 0 || s->d[GP_GEMM_LDB] < 0 || s->d[GP_GEMM_LDC] < 0)
        return gp_fail(GP_ERR_USAGE, "gemm: shape '%s' is not " SYNTAX, spec);
    return gp_ok();
}

static void shape_label(const gp_shape *s, char *buf, size_t n)
{
    gp_gemm_problem q;
    gp_gemm_problem_of_shape(s, 1, 0, &q);
    snprintf(buf, n, "%lldx%lldx%lld %c%c %s", s->d[GP_GEMM_M], s->d[GP_GEMM_N], s->d[GP_GEMM_K], q.trans_a ? 'T' : 'N',
             q.trans_b ? 'T' : 'N', q.layout == GP_GEMM_COL_MAJOR ? "col-major" : "row-major");
    if (s->d[GP_GEMM_LDA] || s->d[GP_GEMM_LDB] || s->d[GP_GEMM_LDC])
        gp_label_append(buf, n, "ld %d/%d/%d", q.lda, q.ldb, q.ldc);
}

/* s's leading dimensions each extra[i] past the least (0: the least, unwritten). */
static void widen(gp_shape *s, const int extra[3])
{
    gp_gemm_problem q;
    gp_gemm_problem_of_shape(s, 1, 0, &q);
    const long long ld[3] = {q.lda, q.ldb, q.ldc};
    for (int i = 0; i < 3; i++)
        s->d[GP_GEMM_LDA + i] = extra[i] ? ld[i] + extra[i] : 0;
}

/* M, N, K 1 .. 1024 (the CPU reference checks every element), either layout, every transpose (opt[]: layout, A,
 * B), packed or padded leading dimensions (1 .. 16 past the least). */
static void shape_random(uint64_t *rng, gp_shape *s)
{
    int extra[3] = {0, 0, 0};
    memset(s, 0, sizeof *s);
    for (int i = GP_GEMM_M; i <= GP_GEMM_K; i++)
        s->d[i] = gp_rand_dim(rng, 1, 1024);
    for (int i = GP_GEMM_OPT_LAYOUT; i <= GP_GEMM_OPT_TRANS_B; i++)
        s->opt[i] = gp_rand_pick(rng, 2);
    for (int i = 0, padded = gp_rand_pick(rng, 2); padded && i < 3; i++)
        extra[i] = 1 + gp_rand_pick(rng, 16);
    widen(s, extra);
}

static void case_label(const gp_kcase *c, char *buf, size_t n)
{
    shape_label(&c->shape, buf, n);
    if (c->data > 0 && c->data < NDATA)
        gp_label_append(buf, n, "alpha %g beta %g", ab[c->data][0], ab[c->data][1]);
    if (c->offset)
        gp_label_append(buf, n, "offset %d", c->offset);
}

/* The floor's model: 2 m n k FLOP; A, B read and C written once. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    (void)p;
    const double m = (double)s->d[GP_GEMM_M], n = (double)s->d[GP_GEMM_N], k = (double)s->d[GP_GEMM_K];
    w->flops = 2 * m * n * k, w->bytes = 4.0 * (m * k + k * n + m * n);
    snprintf(w->method, sizeof w->method, "2 m n k FLOP; A and B read, C written once (4 B each)");
    return gp_ok();
}

/* m x n x k in a layout (combo: bit 2 column-major, bit 1 A transposed, bit 0 B), lds `extra` past the least. */
static gp_shape shape_of(int m, int n, int k, int combo, int extra)
{
    gp_shape s = {{m, n, k}, {(combo >> 2) & 1, (combo >> 1) & 1, combo & 1}};
    widen(&s, (const int[3]){extra, extra, extra});
    return s;
}

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    /* bench: the row-major NN products, >= 0.90 of cuBLAS for the big two, 0.80 for the odd and the flat one.
     * verify: sizes around the tiles (1, below, at and above 64/128, k below and above the k-steps), every
     * layout x transpose, leading dimensions at the least and 3 wider, alpha/beta with beta 0 (C not read). */
    static const int big[][4] = {{4096, 4096, 4096, 90}, {8192, 8192, 8192, 90}, {4095, 4097, 1023, 80},
                                 {8192, 8192, 256, 80},  {2048, 2048, 2048, 90}, {1023, 1025, 511, 80}};
    static const int sizes[][3] = {{1, 1, 1},      {3, 5, 7},      {17, 33, 9},  {128, 128, 8},
                                   {129, 127, 17}, {64, 200, 300}, {300, 64, 1}, {257, 130, 100}};
    int n = 0;
    (void)p, (void)dev;
    if (set == GP_CASES_BENCH) {
        for (int i = quick ? 4 : 0; i < (quick ? 6 : 4); i++)
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape = shape_of(big[i][0], big[i][1], big[i][2], 0, 0),
                                                     .flags = GP_KCASE_PAIR | (n == 0 ? GP_KCASE_VARIANTS : 0),
                                                     .target = big[i][3] / 100.0});
        return n;
    }
    if (set == GP_CASES_VERIFY) {
        for (int si = 0; si < 8; si++)
            for (int combo = 0; combo < 8; combo++)
                n = gp_kcase_add(out, n, max, (gp_kcase){.shape = shape_of(sizes[si][0], sizes[si][1], sizes[si][2],
                                                                           combo, (si + combo) % 2 * 3),
                                                         .data = (si + combo) % 3});
        return n;
    }
    /* Every variant: partial tiles both ways (one column tile of 128x256, 197, then two, 263) with k past a slab's
     * edge, every layout and transpose, beta 0 and 1; then row-major NN (CFG5's own kernel) on the 16-byte paths with
     * partial tiles (lds multiples of 4, M, N, K not; K 45: the last k quad 1 wide), and with the pointers 4 bytes
     * off 16-byte alignment (every load and store 4-byte). */
    for (int combo = 0; combo < 16; combo++)
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape = shape_of(combo < 8 ? 131 : 257, combo < 8 ? 197 : 263,
                                                                   combo < 8 ? 45 : 19, combo & 7, combo % 3),
                                                 .data = combo % 2 ? 3 : 0});
    for (int v = 0; v < 3; v++) {
        gp_shape s = shape_of(v ? 257 : 131, v ? 263 : 197, v ? 19 : 45, 0, 0);
        s.d[GP_GEMM_LDA] = (s.d[GP_GEMM_K] + 3) / 4 * 4, s.d[GP_GEMM_LDC] = (s.d[GP_GEMM_N] + 3) / 4 * 4;
        s.d[GP_GEMM_LDB] = s.d[GP_GEMM_LDC] + 4 * v;
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape = s, .data = v == 0 ? 1 : v == 1 ? 4 : 5, .offset = v == 2});
    }
    /* Row-major NN products where stream-K has work on GPUs of up to 255 SMs: 255 tiles of 128x256 (whole waves,
     * then shares of k 64), and 6 tiles over k 1100 (shares only, a tile's parts from many blocks). */
    n = gp_kcase_add(out, n, max, (gp_kcase){.shape = shape_of(1800, 4100, 64, 0, 0), .data = 0});
    n = gp_kcase_add(out, n, max, (gp_kcase){.shape = shape_of(257, 263, 1100, 0, 0), .data = 1});
    return n;
}

typedef struct state {
    gp_kmem mem;
    gp_gemm_problem q;
    int off;                        /* elements the buffers start past an aligned address */
    size_t nc, nchk;                /* elements of C's buffer (the offset included), of chk */
    float *h_c, *h_out;             /* h_c: C's input (beta != 0); h_out: C's mirror */
    gp_gemm_checked *chk;           /* the reference: all of C, or a sample of a big product */
    float *d_a, *d_b, *d_c;
    void *d_work;      /* the split's or stream-K's workspace, as big as the largest a run asked for (prepare) */
    size_t work_bytes;
    gp_vendor_blas *blas;
} state;

static char blas_impl[GP_BENCH_TEXT] = "cuBLAS cublasSgemm (fp32 math)";
static const gp_kimpl impls[] = {{blas_impl, 1, 1, 0.90, 0, ""}};

static void teardown(void *st)
{
    state *s = st;
    gp_vendor_blas_destroy(s->blas);
    GP_DEV_FREE(s->d_work);
}

/* C is an output (kmem.h): poisoned before every checked run (beta 0: NaN that must not leak into the result, as
 * in BLAS) and read back for check; beta != 0 writes C's input over the poison (poison). */
static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    (void)dev;
    if (c->data < 0 || c->data >= NDATA || c->offset < 0)
        return gp_fail(GP_ERR_USAGE, "gemm: data kind %d or offset %d is not one of this kernel's", c->data, c->offset);
    gp_gemm_problem *q = &s->q;
    gp_gemm_problem_of_shape(&c->shape, ab[c->data][0], ab[c->data][1], q);
    GP_TRY(gp_gemm_check_problem(q));
    const size_t na = gp_gemm_a_elems(q) + c->offset, nb = gp_gemm_b_elems(q) + c->offset;
    s->off = c->offset, s->nc = gp_gemm_c_elems(q) + s->off, s->nchk = gp_gemm_sample_size(q);
    float *h_a = gp_kmem_host(&s->mem, na * 4), *h_b = gp_kmem_host(&s->mem, nb * 4);
    s->h_c = q->beta != 0.0f ? gp_kmem_host(&s->mem, s->nc * 4) : NULL;
    s->chk = gp_kmem_host(&s->mem, s->nchk * sizeof *s->chk);
    GP_TRY(gp_kmem_ok(&s->mem));
    gp_fill_ints_f32(h_a, na, 2, rng), gp_fill_ints_f32(h_b, nb, 2, rng), gp_fill_ints_f32(s->h_c, s->nc, 2, rng);
    gp_gemm_ref_sample(q, h_a + s->off, h_b + s->off, s->h_c ? s->h_c + s->off : NULL, rng, s->chk);
    const char *bn = gp_vendor_blas_name();
    if (bn)
        snprintf(blas_impl, sizeof blas_impl, "%s cublasSgemm (fp32 math)", bn);
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_a, h_a, na * 4));
    GP_TRY(gp_kmem_dev_copy(&s->mem, (void **)&s->d_b, h_b, nb * 4));
    return gp_kmem_output(&s->mem, (void **)&s->d_c, (void **)&s->h_out, s->nc * 4, 0);
}

/* The workspace the parameters' split or stream-K needs (none for a plain launch; tune's split_k 4 on 8192^3
 * takes 1 GiB), grown, never shrunk, before their first run and outside any timing: the driver prepares every
 * parameter set it runs. */
static gp_status prepare(void *st, const void *prm)
{
    state *s = st;
    return gp_dev_grow(&s->d_work, &s->work_bytes, gp_gemm_workspace_bytes(&s->q, prm));
}

static gp_status poison(void *p)
{
    state *s = p;
    return s->q.beta == 0.0f ? gp_ok() : gp_rt_copy_to_device(s->d_c, s->h_c, s->nc * 4);
}

static gp_status run(void *p, const void *prm)
{
    state *s = p;
    return gp_gemm_f32(&s->q, s->d_a + s->off, s->d_b + s->off, s->d_c + s->off, prm, s->d_work, s->work_bytes, NULL);
}

static gp_status run_impl(void *p, int impl, const void *prm)
{
    state *s = p;
    const gp_gemm_problem *q = &s->q;
    const float *a = s->d_a + s->off, *b = s->d_b + s->off;
    float *c = s->d_c + s->off;
    (void)impl, (void)prm;
    if (!s->blas)
        GP_TRY(gp_vendor_blas_create(&s->blas));
    if (q->layout == GP_GEMM_COL_MAJOR)
        return gp_vendor_sgemm(s->blas, q->trans_a, q->trans_b, q->m, q->n, q->k, q->alpha, a, q->lda, b, q->ldb,
                               q->beta, c, q->ldc);
    /* cuBLAS is column-major: row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T on the same memory. */
    return gp_vendor_sgemm(s->blas, q->trans_b, q->trans_a, q->n, q->m, q->k, q->alpha, b, q->ldb, a, q->lda,
                           q->beta, c, q->ldc);
}

/* Ours and cuBLAS alike, exact: the checked elements of C. */
static gp_status check(void *p, const void *prm, int impl, const char *what)
{
    state *s = p;
    (void)prm, (void)impl;
    return gp_gemm_check_exact(what, &s->q, s->h_out + s->off, s->chk, s->nchk);
}

const gp_kernel gp_kernel_gemm = {
    GP_KERNEL_DECLARED,
    .summary = "SGEMM C = alpha op(A) op(B) + beta C, fp32, row/column-major, transposes, any size (vs cuBLAS fp32)",
    .check_table = gp_gemm_check_table, .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label,
    .shape_random = shape_random, .work = work, .cases = cases, .case_label = case_label,
    .state_size = sizeof(state), .setup = setup, .prepare = prepare, .poison = poison, .run = run, .check = check,
    .teardown = teardown, .impls = impls, .nimpls = 1, .run_impl = run_impl,
};
