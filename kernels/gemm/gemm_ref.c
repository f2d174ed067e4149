/* gemm CPU reference: the definition in double, element by element through
 * the layout and transposes (slow and plain on purpose: it shares no index
 * mapping with the kernel). */
#include "gemm.h"

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
