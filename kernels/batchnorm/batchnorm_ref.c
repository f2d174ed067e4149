/* batchnorm CPU references: two passes in double (mean, then the squared
 * deviations from it), then y in double rounded once to fp32. */
#include <math.h>

#include "batchnorm.h"

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
