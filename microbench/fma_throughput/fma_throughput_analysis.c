#include "fma_throughput_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Least-squares step time and relative RMS of y against t * ceil(x / c). */
static double staircase_rms(const double *x, const double *y, size_t n, int c, double *t_out)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double k = ceil(x[i] / c);
        num += k * y[i];
        den += k * k;
    }
    double t = den > 0 ? num / den : 0;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double m = t * ceil(x[i] / c);
        double r = m > 0 ? (y[i] - m) / m : INFINITY;
        ss += r * r;
    }
    *t_out = t;
    return sqrt(ss / (double)n);
}

gp_staircase_fit gp_compute_staircase(const double *x, const double *y, size_t n, int cmin, int cmax,
                                      double max_rel_rms)
{
    gp_staircase_fit f = {-1, -1, -1, NAN, NAN};
    if (n < 3 || cmin < 1 || cmax < cmin)
        return f;
    double xmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(y[i]) || !(y[i] > 0))
            return f;
        if (x[i] > xmax)
            xmax = x[i];
    }
    double best = INFINITY, best_t = NAN;
    int best_c = -1;
    for (int c = cmin; c <= cmax; c++) {
        double t, r = staircase_rms(x, y, n, c, &t);
        if (r < best) /* strict: ties keep the smallest c */
            best = r, best_t = t, best_c = c;
    }
    if (best_c < 0)
        return f;
    f.step_time = best_t;
    f.rel_rms = best;
    /* Every point on the first stair: the sweep never passed the unit count,
     * so there is no step to place. */
    if ((double)best_c >= xmax || best > max_rel_rms)
        return f;
    f.units = best_c;
    f.units_lo = f.units_hi = best_c;
    for (int c = cmin; c <= cmax; c++) {
        double t, r = staircase_rms(x, y, n, c, &t);
        if (r <= best * 1.01 + 1e-12) {
            if (c < f.units_lo)
                f.units_lo = c;
            if (c > f.units_hi)
                f.units_hi = c;
        }
    }
    return f;
}

int gp_compute_first_step(const double *y, size_t n, double rel)
{
    if (n < 2)
        return -1;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return -1;
    int found = -1;
    for (size_t i = 1; i < n && found < 0; i++) {
        memcpy(tmp, y, i * sizeof *tmp);
        double base = gp_stats_median(tmp, i);
        if (!(y[i] > base * (1 + rel)))
            continue;
        if (i + 1 < n && !(y[i + 1] > base * (1 + rel)))
            continue; /* a lone slow point, not a step */
        found = (int)i;
    }
    free(tmp);
    return found;
}

double gp_compute_lanes_pow2(double rate, double tol)
{
    if (!(rate > 0) || !isfinite(rate))
        return 0;
    double want = rate * (1 - tol), p = 1;
    while (p < want && p < 1e9)
        p *= 2;
    return p;
}

/* Published FP32 lanes (FMA per clock) per CU/SM.  Used only to state the
 * peak fraction; the probe's own finding is the measured rate.  Sources:
 * NVIDIA A100 Tensor Core GPU Architecture whitepaper (GA100 SM: 64 FP32
 * cores); NVIDIA Ampere GA102 whitepaper (128 FP32 per SM); NVIDIA Ada
 * Lovelace whitepaper (128); NVIDIA H100 Tensor Core GPU Architecture
 * whitepaper (GH100 SM: 128 FP32 cores); AMD Vega ISA / MI25 datasheet (4
 * SIMD16 per CU = 64 lanes); AMD CDNA2 / CDNA3 whitepapers (packed FP32:
 * 128 FP32 FMA per CU per clock, 64 without v_pk_fma_f32). */
static const struct {
    const char *prefix;
    int lanes;
    const char *source;
} published[] = {
    {"sm_80", 64, "NVIDIA A100 whitepaper: 64 FP32 cores per SM"},
    {"sm_86", 128, "NVIDIA GA102 whitepaper: 128 FP32 per SM"},
    {"sm_87", 128, "NVIDIA Ampere (Orin) documentation: 128 FP32 per SM"},
    {"sm_89", 128, "NVIDIA Ada whitepaper: 128 FP32 per SM"},
    {"sm_90", 128, "NVIDIA H100 whitepaper: 128 FP32 cores per SM"},
    /* Packed FP32: 64 lanes x 2 FMA per lane per clock.  The fp32 chain does
     * compile to v_pk_fma_f32 there (64 per loop body for 128 FMAs in the
     * gfx90a/gfx940 ISA), so the chain can reach this peak. */
    {"gfx90a", 128, "AMD CDNA2 whitepaper: 64 lanes x 2 (packed FP32, v_pk_fma_f32) = 128 FP32 FMA/clk/CU"},
    {"gfx94", 128, "AMD CDNA3 whitepaper: 64 lanes x 2 (packed FP32, v_pk_fma_f32) = 128 FP32 FMA/clk/CU"},
    {"gfx103", 64, "AMD RDNA2 ISA guide: 2 SIMD32 per CU = 64 lanes"},
    {"gfx90", 64, "AMD Vega ISA / MI25 datasheet: 4 SIMD16 = 64 lanes per CU"},
    {"gfx80", 64, "AMD GCN3 ISA: 4 SIMD16 = 64 lanes per CU"},
};

int gp_compute_published_fp32_lanes(const char *arch, const char **source)
{
    if (source)
        *source = NULL;
    if (!arch)
        return 0;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
        if (strncmp(arch, published[i].prefix, strlen(published[i].prefix)) == 0) {
            if (source)
                *source = published[i].source;
            return published[i].lanes;
        }
    return 0;
}
