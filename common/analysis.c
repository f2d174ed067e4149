#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int gp_analysis_argmax(const double *y, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && (best < 0 || y[i] > y[best]))
            best = (int)i;
    return best;
}

int gp_analysis_first_reaching(const double *x, const double *y, size_t n, double peak, double frac)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && y[i] >= frac * peak && (best < 0 || x[i] < x[best]))
            best = (int)i;
    return best;
}

static int find_x(const double *xr, size_t nr, double x)
{
    for (size_t i = 0; i < nr; i++)
        if (xr[i] == x)
            return (int)i;
    return -1;
}

double gp_analysis_granularity_loss(const double *x, const double *y, size_t n, long modulus,
                                    const double *xr, const double *yr, size_t nr, size_t *compared)
{
    double *loss = malloc((n + 1) * sizeof *loss);
    size_t k = 0;
    if (loss && modulus > 0) {
        for (size_t i = 0; i < n; i++) {
            long xi = lround(x[i]);
            if (xi <= modulus || xi % modulus == 0 || !isfinite(y[i]))
                continue;
            double lo = (double)(xi / modulus * modulus), hi = lo + (double)modulus;
            int a = find_x(xr, nr, lo), b = find_x(xr, nr, hi);
            if (a < 0 || b < 0 || !isfinite(yr[a]) || !isfinite(yr[b]))
                continue;
            double f = ((double)xi - lo) / (double)modulus;
            double pred = yr[a] + f * (yr[b] - yr[a]);
            if (pred > 0)
                loss[k++] = 1.0 - y[i] / pred;
        }
    }
    double v = k ? gp_stats_median(loss, k) : NAN;
    if (compared)
        *compared = k;
    free(loss);
    return v;
}

double gp_analysis_median_ratio(const double *x, const double *y, size_t n, double xlo, double xhi)
{
    double *r = malloc((n + 1) * sizeof *r);
    size_t k = 0;
    if (r)
        for (size_t i = 0; i < n; i++)
            if (x[i] >= xlo && x[i] <= xhi && x[i] != 0 && isfinite(y[i]))
                r[k++] = y[i] / x[i];
    double v = k ? gp_stats_median(r, k) : NAN;
    free(r);
    return v;
}


/* ---- Plateaus of a latency curve (cache levels) */

#define MAX_POINTS 1024

static double median_range(const double *y, size_t first, size_t last)
{
    return gp_stats_median(y + first, last - first + 1);
}

static int within(double v, double ref, double tol)
{
    return isfinite(v) && fabs(v - ref) <= tol * fabs(ref);
}

/* A run is a transition between levels, not a level, when it spans less
 * than GP_MEM_TRANSITION_WIDTH in footprint and either has fewer than 3
 * points (partial hits just past a capacity) or sits between its
 * neighbours' latencies, each at least tol away (a ramp from one level to
 * the next, e.g. the points that refine() adds inside a step).  A real level
 * spans more than one step of the main sweep (2^(1/4) = 1.19 per point). */
static int is_transition(const gp_mem_plateau *r, size_t n, size_t i, double tol)
{
    if (!(r[i].x_last < GP_MEM_TRANSITION_WIDTH * r[i].x_first))
        return 0;
    if (r[i].npoints < 3)
        return 1;
    if (i == 0 || i + 1 >= n)
        return 0;
    double a = r[i - 1].latency, b = r[i].latency, c = r[i + 1].latency;
    double lo = fmin(a, c), hi = fmax(a, c);
    return b > lo * (1 + tol) && b * (1 + tol) < hi;
}

size_t gp_mem_plateaus(const double *x, const double *y, size_t n, double tol, int min_points,
                       gp_mem_plateau *out, size_t max_out)
{
    if (n == 0 || n > MAX_POINTS || max_out == 0)
        return 0;
    gp_mem_plateau runs[MAX_POINTS];
    size_t nruns = 0, start = 0;
    /* Greedy runs: compare each point with the median of the run so far, so a
     * slow drift is absorbed only while it stays within tol of the bulk. */
    for (size_t j = 1; j <= n; j++) {
        int close = j == n;
        if (!close) {
            double med = median_range(y, start, j - 1);
            if (!within(y[j], med, tol)) {
                int outlier = j + 1 < n && within(y[j + 1], med, tol) && j - start >= 2;
                close = !outlier;
            }
        }
        if (close) {
            gp_mem_plateau *r = &runs[nruns++];
            r->first = start;
            r->last = j - 1;
            r->latency = median_range(y, start, j - 1);
            r->x_first = x[start];
            r->x_last = x[j - 1];
            r->npoints = (int)(j - start);
            start = j;
        }
    }
    /* Drop runs of fewer than min_points, then transitions (see
     * is_transition), then merge neighbours that agree. */
    size_t m = 0;
    for (size_t i = 0; i < nruns; i++)
        if (runs[i].npoints >= min_points)
            runs[m++] = runs[i];
    nruns = m;
    for (int changed = 1; changed && nruns > 1;) {
        changed = 0;
        for (size_t i = 0; i < nruns; i++) {
            if (!is_transition(runs, nruns, i, tol))
                continue;
            memmove(&runs[i], &runs[i + 1], (nruns - i - 1) * sizeof runs[0]);
            nruns--;
            changed = 1;
            break; /* neighbours changed: look again from the start */
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (k > 0 && within(runs[i].latency, out[k - 1].latency, tol) &&
            within(out[k - 1].latency, runs[i].latency, tol)) {
            gp_mem_plateau *p = &out[k - 1];
            size_t first = p->first;
            p->last = runs[i].last;
            p->x_last = runs[i].x_last;
            p->npoints += runs[i].npoints;
            p->latency = median_range(y, first, p->last);
            continue;
        }
        if (k == max_out)
            break;
        out[k++] = runs[i];
    }
    return k;
}

double gp_mem_valley_depth(const double *v, size_t m, size_t k)
{
    if (k == 0 || k >= m)
        return NAN;
    const double c1 = 0.5 * (v[(k - 1) / 2] + v[k / 2]);
    const double c2 = 0.5 * (v[k + (m - k - 1) / 2] + v[k + (m - k) / 2]);
    if (!(c2 > c1))
        return NAN;
    /* Nine bins of width w centred on c1, c1 + w, ..., c2 = c1 + 8w. */
    enum { NB = 9 };
    const double w = (c2 - c1) / (NB - 1);
    size_t cnt[NB] = {0};
    for (size_t i = 0; i < m; i++) {
        double f = (v[i] - c1) / w + 0.5;
        if (f >= 0 && f < NB)
            cnt[(int)f]++;
    }
    size_t valley = cnt[1];
    for (int j = 2; j < NB - 1; j++)
        if (cnt[j] < valley)
            valley = cnt[j];
    const size_t peak = cnt[0] < cnt[NB - 1] ? cnt[0] : cnt[NB - 1];
    return peak ? (double)valley / (double)peak : INFINITY;
}

/* Otsu's threshold over sorted v[0..m): the split index k (classes v[0..k)
 * and v[k..m)) with the largest between-class variance w0 w1 (mu0 - mu1)^2,
 * over splits between distinct values; 0 when all values are equal. */
size_t gp_analysis_otsu_split(const double *v, size_t m)
{
    double total = 0;
    for (size_t i = 0; i < m; i++)
        total += v[i];
    double left = 0, best = -1;
    size_t bk = 0;
    for (size_t k = 1; k < m; k++) {
        left += v[k - 1];
        if (!(v[k] > v[k - 1]))
            continue;
        double w0 = (double)k / (double)m, w1 = 1.0 - w0;
        double d = left / (double)k - (total - left) / (double)(m - k);
        double bcv = w0 * w1 * d * d;
        if (bcv > best) {
            best = bcv;
            bk = k;
        }
    }
    return bk;
}

/* ---- Bandwidth: the theoretical peak and plateaus of a bandwidth curve */

double gp_bw_theoretical_gbs(int bus_bits, double mem_clock_mhz)
{
    if (bus_bits <= 0 || !(mem_clock_mhz > 0))
        return NAN;
    return (double)bus_bits / 8.0 * mem_clock_mhz * 1e6 * 2.0 / 1e9;
}

/* 1 when every y[i..j] is within rel_tol of their median. */
static int run_is_flat(const double *y, size_t i, size_t j, double rel_tol, double *median)
{
    double buf[256] = {0};
    if (j < i || j - i + 1 > sizeof buf / sizeof buf[0])
        return 0;
    size_t n = j - i + 1;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(y[i + k]))
            return 0;
        buf[k] = y[i + k];
    }
    double m = gp_stats_median(buf, n);
    if (!(m > 0))
        return 0;
    for (size_t k = 0; k < n; k++)
        if (fabs(buf[k] - m) > rel_tol * m)
            return 0;
    *median = m;
    return 1;
}

int gp_bw_plateaus(const double *y, size_t n, double rel_tol, size_t min_points,
                   gp_bw_plateau *out, int max_out)
{
    int np = 0;
    size_t i = 0;
    if (min_points < 1)
        min_points = 1;
    while (i < n && np < max_out) {
        double m;
        if (!run_is_flat(y, i, i, rel_tol, &m)) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < n && run_is_flat(y, i, j + 1, rel_tol, &m))
            j++;
        if (j - i + 1 >= min_points) {
            run_is_flat(y, i, j, rel_tol, &m);
            double lo = y[i], hi = y[i];
            for (size_t k = i; k <= j; k++)
                lo = fmin(lo, y[k]), hi = fmax(hi, y[k]);
            out[np].first = i;
            out[np].last = j;
            out[np].level = m;
            out[np].spread = (hi - lo) / m;
            np++;
            i = j + 1;
        } else {
            /* A short run started on a transition point: restart one later so
             * the transition does not split the next plateau. */
            i++;
        }
    }
    return np;
}

void gp_analysis_plateau(const double *y, size_t n, int ipk, double rel, int *lo, int *hi)
{
    *lo = *hi = -1;
    if (!y || ipk < 0 || (size_t)ipk >= n || !isfinite(y[ipk]))
        return;
    if (!(rel >= 0) || !isfinite(rel))
        rel = 0;
    double bar = y[ipk] * (1 - rel);
    int a = ipk, b = ipk;
    while (a > 0 && isfinite(y[a - 1]) && y[a - 1] >= bar)
        a--;
    while ((size_t)b + 1 < n && isfinite(y[b + 1]) && y[b + 1] >= bar)
        b++;
    *lo = a;
    *hi = b;
}
