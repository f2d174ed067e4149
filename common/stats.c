#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_stats_sort(double *x, size_t n)
{
    if (n > 1)
        qsort(x, n, sizeof *x, cmp_double);
}

/* Sorted copy into a caller buffer or a heap one; small series stay on stack. */
static double *sorted_copy(const double *x, size_t n, double *stack, size_t stack_n)
{
    double *s = n <= stack_n ? stack : malloc(n * sizeof *s);
    if (!s)
        return NULL;
    memcpy(s, x, n * sizeof *s);
    gp_stats_sort(s, n);
    return s;
}

static double percentile_sorted(const double *s, size_t n, double p)
{
    if (p <= 0)
        return s[0];
    if (p >= 100)
        return s[n - 1];
    double pos = p / 100.0 * (double)(n - 1);
    size_t i = (size_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? s[i] + f * (s[i + 1] - s[i]) : s[i];
}

double gp_stats_percentile(const double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double stack[256];
    double *s = sorted_copy(x, n, stack, 256);
    if (!s)
        return NAN;
    double v = percentile_sorted(s, n, p);
    if (s != stack)
        free(s);
    return v;
}

double gp_stats_median(const double *x, size_t n) { return gp_stats_percentile(x, n, 50.0); }

double gp_stats_mean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

double gp_stats_stddev(const double *x, size_t n)
{
    if (n < 2)
        return 0.0;
    double m = gp_stats_mean(x, n), ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    return sqrt(ss / (double)(n - 1));
}

double gp_stats_mad(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double med = gp_stats_median(x, n);
    double stack[256];
    double *d = n <= 256 ? stack : malloc(n * sizeof *d);
    if (!d)
        return NAN;
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(x[i] - med);
    double v = gp_stats_median(d, n);
    if (d != stack)
        free(d);
    return v;
}

double gp_stats_cv(const double *x, size_t n)
{
    double m = gp_stats_mean(x, n);
    if (n == 0 || m == 0)
        return 0.0;
    return gp_stats_stddev(x, n) / fabs(m);
}

double gp_stats_rel_spread(const gp_summary *s)
{
    if (s->n == 0 || s->median == 0)
        return 0.0;
    return (s->p90 - s->p10) / fabs(s->median);
}

void gp_stats_summarize(const double *x, size_t n, gp_summary *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0) {
        out->median = out->min = out->max = out->mean = out->p10 = out->p90 = out->mad = NAN;
        return;
    }
    double stack[256];
    double *s = sorted_copy(x, n, stack, 256);
    if (!s) {
        out->median = NAN;
        return;
    }
    out->min = s[0];
    out->max = s[n - 1];
    out->median = percentile_sorted(s, n, 50);
    out->p10 = percentile_sorted(s, n, 10);
    out->p90 = percentile_sorted(s, n, 90);
    if (s != stack)
        free(s);
    out->mean = gp_stats_mean(x, n);
    out->mad = gp_stats_mad(x, n);
    out->cv = gp_stats_cv(x, n);
}
