#include "lds_analysis.h"

#include <math.h>

static int is_pow2(double s)
{
    long v = lround(s);
    return v > 0 && fabs(s - (double)v) < 1e-9 && (v & (v - 1)) == 0;
}

static double degree_at(const double *stride, const double *degree, size_t n, double s)
{
    for (size_t i = 0; i < n; i++)
        if (fabs(stride[i] - s) < 1e-9)
            return degree[i];
    return NAN;
}

int gp_mem_bank_geometry(const double *stride, const double *degree, size_t n, int elem_bytes,
                         int *banks, int *bank_bytes, double *confidence)
{
    if (confidence)
        *confidence = 0;
    if (elem_bytes <= 0)
        return -1;
    double smax = 0;
    for (size_t i = 0; i < n; i++)
        if (is_pow2(stride[i]) && stride[i] > smax)
            smax = stride[i];
    /* First power-of-two stride with a conflict. */
    double sc = NAN;
    for (double s = 2; s <= smax; s *= 2) {
        double d = degree_at(stride, degree, n, s);
        if (isfinite(d) && d >= 1.5) {
            sc = s;
            break;
        }
    }
    if (!isfinite(sc))
        return -1;
    /* The degree doubles with the stride until the banks are all used. */
    double ssat = NAN, good = 0, steps = 0;
    for (double s = sc; 2 * s <= smax; s *= 2) {
        double d = degree_at(stride, degree, n, s), d2 = degree_at(stride, degree, n, 2 * s);
        if (!isfinite(d) || !isfinite(d2))
            return -1;
        double r = d2 / d;
        if (r < 1.4) {
            ssat = s;
            break;
        }
        steps++;
        good += r > 1.7 && r < 2.3;
    }
    if (!isfinite(ssat))
        return -1;
    double w = elem_bytes * sc / 2.0;
    if (w < 1)
        return -1;
    *bank_bytes = (int)lround(w);
    *banks = (int)lround(ssat * elem_bytes / w);
    if (confidence) {
        /* Clean doublings up to saturation, and a flat degree after it. */
        double dsat = degree_at(stride, degree, n, ssat), dafter = degree_at(stride, degree, n, 2 * ssat);
        double flat = isfinite(dafter) && fabs(dafter - dsat) <= 0.15 * fabs(dsat) ? 1.0 : 0.5;
        *confidence = (steps > 0 ? good / steps : 0.5) * flat;
    }
    return 0;
}

int gp_mem_best_pad(const double *stride, const double *degree, size_t n, int tile, int max_pad,
                    double *degree_out)
{
    int best = -1;
    double bd = INFINITY;
    for (int p = 0; p <= max_pad; p++) {
        double d = degree_at(stride, degree, n, (double)(tile + p));
        if (!isfinite(d))
            return -1;
        if (d < bd * 0.95) { /* a pad must win clearly to beat a smaller one */
            bd = d;
            best = p;
        }
    }
    if (degree_out)
        *degree_out = bd;
    return best;
}
