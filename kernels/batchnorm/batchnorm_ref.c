/* batchnorm CPU references: two passes in double (mean, then the squared
 * deviations from it), then y in double rounded once to fp32. */
#include <math.h>
#include <stdlib.h>

#include "batchnorm.h"
#include "bench.h"
#include "data.h"

static size_t at(const gp_batchnorm_shape *s, int n, int c) { return ((size_t)n * s->c + c) * s->h * s->w; }

static void apply(const float *x, float *y, const gp_batchnorm_shape *s, int c, double mean, double scale,
                  double beta)
{
    const size_t hw = (size_t)s->h * s->w;
    for (int n = 0; n < s->n; n++)
        for (size_t i = 0; i < hw; i++)
            y[at(s, n, c) + i] = (float)(((double)x[at(s, n, c) + i] - mean) * scale + beta);
}

void gp_batchnorm_ref_train(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                            const float *beta, double eps, double *mean, double *invstd)
{
    const size_t hw = (size_t)s->h * s->w;
    const double m = (double)s->n * (double)hw;
    for (int c = 0; c < s->c; c++) {
        double sum = 0, sq = 0;
        for (int n = 0; n < s->n; n++)
            for (size_t i = 0; i < hw; i++)
                sum += x[at(s, n, c) + i];
        double mu = sum / m;
        for (int n = 0; n < s->n; n++)
            for (size_t i = 0; i < hw; i++) {
                double d = x[at(s, n, c) + i] - mu;
                sq += d * d;
            }
        double is = 1.0 / sqrt(sq / m + eps);
        if (mean)
            mean[c] = mu;
        if (invstd)
            invstd[c] = is;
        if (y)
            apply(x, y, s, c, mu, gamma[c] * is, beta[c]);
    }
}

void gp_batchnorm_ref_infer(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                            const float *beta, const float *mean, const float *var, double eps)
{
    for (int c = 0; c < s->c; c++)
        apply(x, y, s, c, mean[c], gamma[c] / sqrt((double)var[c] + eps), beta[c]);
}

gp_status gp_batchnorm_ref_stats(const float *x, float *y, const gp_batchnorm_shape *s, const float *gamma,
                                 const float *beta, double eps, float *st, double bound[2])
{
    const size_t ch = (size_t)s->c;
    double *mean = malloc(ch * 8), *invstd = malloc(ch * 8), worst = 0, mabs = 0;
    if (!mean || !invstd) {
        free(mean), free(invstd);
        return gp_fail(GP_ERR_NOMEM, "batchnorm: out of host memory for %zu values", gp_batchnorm_elems(s));
    }
    gp_batchnorm_ref_train(x, y, s, gamma, beta, eps, mean, invstd);
    for (size_t i = 0; i < ch; i++) {
        st[i] = (float)mean[i], st[2 * ch + i] = (float)invstd[i];
        st[ch + i] = (float)(1.0 / (invstd[i] * invstd[i]) - eps);
        worst = fmax(worst, fabs(mean[i]) * gamma[i] * invstd[i]), mabs = fmax(mabs, fabs(mean[i]));
    }
    free(mean), free(invstd);
    bound[0] = 1e-5 + ldexp(worst, -22), bound[1] = ldexp(mabs, -23) + 1e-7;
    return gp_ok();
}

gp_status gp_batchnorm_check(const char *what, const float *y, const float *ref, size_t n, const float *mean,
                             const float *invstd, const float *st, size_t c, const double bound[2])
{
    char w[GP_BENCH_TEXT * 2 + 32];
    GP_TRY(gp_compare_f32(what, y, ref, n, bound[0], 1e-5, NULL));
    if (!mean)
        return gp_ok();
    snprintf(w, sizeof w, "%s saved mean", what);
    GP_TRY(gp_compare_f32(w, mean, st, c, bound[1], 1e-6, NULL));
    snprintf(w, sizeof w, "%s saved invstd", what);
    return gp_compare_f32(w, invstd, st + 2 * c, c, 0.0, ldexp(1.0, -18), NULL);
}
