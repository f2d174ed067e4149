/* gemm CPU reference: the definition in double, element by element through
 * the layout and transposes (slow and plain on purpose: it shares no index
 * mapping with the kernel). */
#include "gemm.h"

#include "data.h"

static size_t idx(const gp_gemm_problem *q, int r, int c, int ld)
{
    return q->layout == GP_GEMM_ROW_MAJOR ? (size_t)r * ld + c : (size_t)c * ld + r;
}

/* op(A)(i, p) and op(B)(p, j). */
static double a_at(const gp_gemm_problem *q, const float *a, int i, int p)
{
    return q->trans_a ? a[idx(q, p, i, q->lda)] : a[idx(q, i, p, q->lda)];
}
static double b_at(const gp_gemm_problem *q, const float *b, int p, int j)
{
    return q->trans_b ? b[idx(q, j, p, q->ldb)] : b[idx(q, p, j, q->ldb)];
}

double gp_gemm_ref_at(const gp_gemm_problem *q, const float *a, const float *b, const float *c_in, int i, int j,
                      double *abs_sum)
{
    double s = 0, as = 0;
    for (int p = 0; p < q->k; p++) {
        double t = a_at(q, a, i, p) * b_at(q, b, p, j);
        s += t;
        as += t < 0 ? -t : t;
    }
    double r = (double)q->alpha * s;
    as *= q->alpha < 0 ? -q->alpha : q->alpha;
    if (q->beta != 0.0f) {
        double cb = (double)q->beta * c_in[idx(q, i, j, q->ldc)];
        r += cb;
        as += cb < 0 ? -cb : cb;
    }
    if (abs_sum)
        *abs_sum = as;
    return r;
}

void gp_gemm_ref_f32(const gp_gemm_problem *q, const float *a, const float *b, float *c)
{
    for (int i = 0; i < q->m; i++)
        for (int j = 0; j < q->n; j++)
            c[idx(q, i, j, q->ldc)] = (float)gp_gemm_ref_at(q, a, b, c, i, j, NULL);
}

/* Products up to this many multiply-adds are checked on the whole of C, larger ones on SAMPLE elements. */
#define FULL_MAX_MNK (1ll << 27)
#define SAMPLE 516

static int full(const gp_gemm_problem *q) { return (double)q->m * q->n * q->k <= (double)FULL_MAX_MNK; }

size_t gp_gemm_sample_size(const gp_gemm_problem *q) { return full(q) ? (size_t)q->m * q->n : SAMPLE; }

void gp_gemm_ref_sample(const gp_gemm_problem *q, const float *a, const float *b, const float *c_in, uint64_t *rng,
                        gp_gemm_checked *chk)
{
    const int all = full(q);
    const size_t n = gp_gemm_sample_size(q);
    for (size_t k = 0; k < n; k++) {
        gp_gemm_checked *e = &chk[k];
        e->i = all ? (int)(k / q->n) : k < 4 ? (k & 1 ? q->m - 1 : 0) : (int)(gp_rand_u64(rng) % (uint64_t)q->m);
        e->j = all ? (int)(k % q->n) : k < 4 ? (k & 2 ? q->n - 1 : 0) : (int)(gp_rand_u64(rng) % (uint64_t)q->n);
        e->want = (float)gp_gemm_ref_at(q, a, b, c_in, e->i, e->j, NULL);
    }
}

gp_status gp_gemm_check_exact(const char *what, const gp_gemm_problem *q, const float *c, const gp_gemm_checked *chk,
                              size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const gp_gemm_checked *e = &chk[k];
        const float got = c[idx(q, e->i, e->j, q->ldc)];
        if (!(got == e->want))
            return gp_fail(GP_ERR_CHECK, "%s: C(%d, %d) = %.9g, exact %.9g", what, e->i, e->j, (double)got,
                           (double)e->want);
    }
    return gp_ok();
}
