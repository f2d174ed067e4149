#include "cache_latency_analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"


void gp_mem_level_note(char *out, size_t n, size_t i, const gp_mem_level *l)
{
    char step[32];
    if (isfinite(l->step_ratio))
        snprintf(step, sizeof step, "step x%.2f", l->step_ratio);
    else
        snprintf(step, sizeof step, "last level");
    snprintf(out, n, "level %zu: %.1f cycles over %.0f..%.0f KiB (%d points), %s, confidence %.2f", i, l->latency,
             l->x_first / 1024, l->x_last / 1024, l->npoints, step, l->confidence);
}

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

double gp_mem_step_confidence(double step_ratio, double step_support)
{
    if (!isfinite(step_ratio) || !isfinite(step_support))
        return NAN;
    double sharp = clamp01(log(fmax(step_ratio, 1.0)) / log(1.5));
    return sharp * step_support;
}

void gp_mem_confidence_interval(const gp_mem_level *l, double w_this, double w_next, double *lo, double *hi)
{
    *lo = *hi = l->confidence;
    if (!isfinite(l->step_ratio) || !isfinite(l->step_support))
        return;
    double w = hypot(w_this > 0 && isfinite(w_this) ? w_this : 0, w_next > 0 && isfinite(w_next) ? w_next : 0);
    *lo = gp_mem_step_confidence(l->step_ratio * (1 - w / 2), l->step_support);
    *hi = gp_mem_step_confidence(l->step_ratio * (1 + w / 2), l->step_support);
}

size_t gp_mem_levels(const double *x, const double *y, size_t n, double tol, gp_mem_level *out,
                     size_t max_out)
{
    gp_mem_plateau p[64];
    size_t np = gp_mem_plateaus(x, y, n, tol, 2, p, max_out < 64 ? max_out : 64);
    for (size_t i = 0; i < np; i++) {
        gp_mem_level *l = &out[i];
        memset(l, 0, sizeof *l);
        l->latency = p[i].latency;
        l->x_first = p[i].x_first;
        l->x_last = p[i].x_last;
        l->npoints = p[i].npoints;
        l->capacity = l->capacity_hi = l->step_ratio = NAN;
        l->capacity_lo = p[i].x_last;
        double support = clamp01(p[i].npoints / 3.0);
        if (i + 1 < np) {
            size_t next = p[i].last + 1; /* first point past the plateau */
            l->capacity_hi = x[next];
            l->capacity = sqrt(l->capacity_lo * l->capacity_hi);
            l->step_ratio = p[i + 1].latency / p[i].latency;
            /* Sharp steps (>= 1.5x) with no transition points between the
             * plateaus, both backed by >= 3 points, are certain; each point
             * in the transition widens the interval the capacity is in. */
            double transition = (double)(p[i + 1].first - p[i].last - 1);
            double next_support = clamp01(p[i + 1].npoints / 3.0);
            l->step_support = fmin(support, next_support) / (1.0 + 0.25 * transition);
            l->confidence = gp_mem_step_confidence(l->step_ratio, l->step_support);
        } else {
            l->step_support = NAN;
            l->confidence = support;
        }
    }
    return np;
}

int gp_mem_label(const gp_mem_level *lv, size_t n, double l2_reported, double l2_direct_latency,
                 gp_mem_hierarchy *h)
{
    h->l1 = h->l2 = h->l2_far = h->dram = h->tlb = -1;
    h->unexplained = 0;
    if (n == 0)
        return 0;
    int dram = -1;
    if (l2_reported > 0) {
        for (size_t i = 0; i < n; i++)
            if (lv[i].x_last > 1.5 * l2_reported) {
                dram = (int)i;
                break;
            }
    } else if (n >= 2) {
        dram = (int)n - 1;
    }
    /* A DRAM level must be slower than what came before it. */
    if (dram > 0 && !(lv[dram].latency > lv[dram - 1].latency))
        dram = -1;
    int end = dram >= 0 ? dram : (int)n; /* levels [0, end) are caches */
    int next = 0;
    if (end > 0) {
        int first_is_l1;
        if (l2_direct_latency > 0)
            first_is_l1 = lv[0].latency < 0.85 * l2_direct_latency;
        else
            first_is_l1 = end >= 2;
        if (first_is_l1) {
            h->l1 = 0;
            next = 1;
        }
    }
    if (next < end) {
        h->l2 = next;
        if (end - next >= 2)
            h->l2_far = end - 1;
        h->unexplained = end - next > 2 ? end - next - 2 : 0;
    }
    h->dram = dram;
    if (dram >= 0 && dram + 1 < (int)n)
        h->tlb = dram + 1;
    return (h->l1 >= 0) + (h->l2 >= 0) + (h->l2_far >= 0) + (h->dram >= 0) + (h->tlb >= 0);
}

double gp_mem_line_knee(const double *stride, const double *lat, size_t n, double min_rise,
                        double *confidence)
{
    if (confidence)
        *confidence = 0;
    if (n < 4)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(lat[i]) || !(lat[i] > 0))
            return NAN;
    double lo = lat[0], top = lat[0];
    for (size_t i = 1; i < n; i++)
        top = fmax(top, lat[i]);
    if (!(top > lo * (1.0 + min_rise)))
        return NAN;
    /* Only the rising part counts: the knee is the first stride at 90% of
     * the maximum (and at least 85% of the way up from the smallest stride,
     * for curves that rise little); points after the plateau that fall
     * again (a footprint that fits a faster level at large strides) must not
     * read as a curve still rising. */
    double thr = fmax(0.9 * top, lo + 0.85 * (top - lo));
    size_t knee = n;
    for (size_t i = 0; i < n; i++)
        if (lat[i] >= thr) {
            knee = i;
            break;
        }
    if (knee == 0 || knee >= n)
        return NAN;
    /* The plateau: the knee and the following strides that stay up.  It
     * needs two points; one point at the maximum at the largest stride is a
     * curve still rising (a line longer than the largest stride). */
    size_t end = knee;
    while (end + 1 < n && lat[end + 1] >= thr)
        end++;
    size_t plat = end - knee + 1;
    if (plat < 2)
        return NAN;
    if (confidence) {
        double hi = gp_stats_median(lat + knee, plat);
        /* Below the knee the model is linear in s: the point just below
         * should sit near lo + (hi - lo) * s_prev / s_knee. */
        double expect = lo + (hi - lo) * (stride[knee - 1] - stride[0]) / (stride[knee] - stride[0]);
        double err = fabs(lat[knee - 1] - expect) / (hi - lo);
        double support = clamp01((double)plat / 3.0);
        double rise = clamp01((hi / lo - 1.0) / (2.0 * min_rise));
        /* A fall after the plateau means the sweep left the level it meant
         * to measure: the knee stands, with less certainty. */
        double fall = end + 1 < n ? 0.5 : 1.0;
        *confidence = clamp01(clamp01(1.0 - err) * support * rise * fall);
    }
    return stride[knee];
}


/* ---- Allocation line from capacity knees */

double gp_mem_line_touched_fraction(double stride, double line)
{
    if (!(stride > 0) || !(line > 0))
        return NAN;
    return stride <= line ? 1.0 : line / stride;
}

double gp_mem_knee_threshold(double level_latency, double next_latency)
{
    if (!isfinite(level_latency) || !isfinite(next_latency) || !(next_latency > level_latency))
        return NAN;
    return level_latency + GP_MEM_KNEE_RISE * (next_latency - level_latency);
}

double gp_mem_capacity_knee(const double *x, const double *y, size_t n, double threshold)
{
    if (n < 2 || !isfinite(threshold))
        return NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i]) || !(x[i] > 0))
            return NAN;
        if (y[i] < threshold)
            continue;
        /* Above: a knee only when a point below precedes it and the next
         * point confirms it (a lone spike below the knee is skipped). */
        if (i == 0)
            return NAN;
        if (i + 1 >= n)
            return NAN;
        if (!(y[i + 1] >= threshold))
            continue;
        double a = log(x[i - 1]), b = log(x[i]);
        double t = (threshold - y[i - 1]) / (y[i] - y[i - 1]);
        return exp(a + clamp01(t) * (b - a));
    }
    return NAN;
}

/* C and the RMS residual in log for one candidate line. */
static double line_residual(const double *ls, const double *lk, size_t m, double line, double *capacity)
{
    double mean = 0, ss = 0;
    for (size_t i = 0; i < m; i++)
        mean += lk[i] - log(fmax(1.0, exp(ls[i]) / line));
    mean /= (double)m;
    for (size_t i = 0; i < m; i++) {
        double r = lk[i] - log(fmax(1.0, exp(ls[i]) / line)) - mean;
        ss += r * r;
    }
    *capacity = exp(mean);
    return sqrt(ss / (double)m);
}

int gp_mem_line_fit_knees(const double *stride, const double *knee, size_t n, double sector,
                          gp_mem_line_fit *out)
{
    memset(out, 0, sizeof *out);
    out->line = out->capacity = out->residual = out->runner_up = out->runner_up_residual = NAN;
    long sec = isfinite(sector) && sector >= 1 && sector <= 65536 ? lround(sector) : 0;
    if (sec <= 0 || (sec & (sec - 1))) {
        snprintf(out->reason, sizeof out->reason, "sector %g B is not a power of two: no candidate lines", sector);
        return 0;
    }
    double ls[64], lk[64], smax = 0;
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++)
        if (isfinite(stride[i]) && stride[i] > 0 && isfinite(knee[i]) && knee[i] > 0) {
            ls[m] = log(stride[i]);
            lk[m++] = log(knee[i]);
            smax = fmax(smax, stride[i]);
        }
    out->nknees = m;
    if (m < GP_MEM_LINE_MIN_KNEES) {
        snprintf(out->reason, sizeof out->reason, "%zu capacity knees found (of %zu strides), need >= %d", m, n,
                 GP_MEM_LINE_MIN_KNEES);
        return 0;
    }
    /* Candidates: sector, 2 sector, ... up to twice the power of two at or
     * above the largest stride: the last two both predict flat knees. */
    double top = 1;
    while (top < smax)
        top *= 2;
    top *= 2;
    size_t best = 0;
    for (double L = (double)sec; L <= top && out->ncand < GP_MEM_LINE_MAX_CANDIDATES; L *= 2) {
        size_t c = out->ncand++;
        double cap;
        out->cand[c] = L;
        out->cand_residual[c] = line_residual(ls, lk, m, L, &cap);
        /* Ties go to the smaller line (the first seen). */
        if (out->cand_residual[c] < out->cand_residual[best] - 1e-12 || c == 0) {
            best = c;
            out->capacity = cap;
        }
    }
    if (out->ncand < 2) {
        snprintf(out->reason, sizeof out->reason, "the largest stride %g B is below the sector %ld B", smax, sec);
        return 0;
    }
    out->residual = out->cand_residual[best];
    for (size_t c = 0; c < out->ncand; c++)
        if (c != best && (!isfinite(out->runner_up_residual) || out->cand_residual[c] < out->runner_up_residual)) {
            out->runner_up_residual = out->cand_residual[c];
            out->runner_up = out->cand[c];
        }
    double need = GP_MEM_LINE_SEPARATION * fmax(out->residual, GP_MEM_LINE_NOISE_FLOOR);
    if (!(out->residual <= GP_MEM_LINE_MAX_RESIDUAL)) {
        snprintf(out->reason, sizeof out->reason,
                 "the knees follow C max(1, s / L) for no line: best L = %.0f B leaves an RMS log residual %.3f "
                 "(need <= %.2f)", out->cand[best], out->residual, GP_MEM_LINE_MAX_RESIDUAL);
        return 0;
    }
    if (!(out->runner_up_residual >= need)) {
        snprintf(out->reason, sizeof out->reason,
                 "the knees do not separate L = %.0f B (RMS log residual %.3f) from L = %.0f B (%.3f; need >= "
                 "%.3f): the largest stride, %g B, must exceed the line by enough to move the knee",
                 out->cand[best], out->residual, out->runner_up, out->runner_up_residual, need, smax);
        return 0;
    }
    out->line = out->cand[best];
    return 1;
}

/* ---- DRAM latency by L2 partition */

static int usable(double v)
{
    return isfinite(v) && v > 0;
}

int gp_mem_partition_class_of(const gp_mem_partition *p, double t_second)
{
    if (!usable(t_second) || !(t_second >= p->fence_lo && t_second <= p->fence_hi))
        return -1;
    return p->detected && t_second > p->threshold ? 1 : 0;
}

/* Figures of one class: the samples whose class is `cls`. */
static void class_stats(const double *key, const double *t_second, const double *t_first, size_t n,
                        const gp_mem_partition *p, int cls, double *a, double *b, gp_mem_partition_class *out)
{
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < n; i++) {
        if (gp_mem_partition_class_of(p, key[i]) != cls)
            continue;
        a[na++] = t_second[i] - p->overhead;
        /* A first load no slower than the re-load was a cache hit, not DRAM. */
        if (isfinite(t_first[i]) && t_first[i] > 1.05 * t_second[i])
            b[nb++] = t_first[i] - p->overhead;
    }
    out->count = na;
    out->dram_count = nb;
    out->l2_median = gp_stats_median(a, na);
    out->l2_p10 = gp_stats_percentile(a, na, 10);
    out->l2_p90 = gp_stats_percentile(a, na, 90);
    out->dram_median = gp_stats_median(b, nb);
    out->dram_p10 = gp_stats_percentile(b, nb, 10);
    out->dram_p90 = gp_stats_percentile(b, nb, 90);
}

static void class_empty(gp_mem_partition_class *c)
{
    c->count = c->dram_count = 0;
    c->l2_median = c->l2_p10 = c->l2_p90 = NAN;
    c->dram_median = c->dram_p10 = c->dram_p90 = NAN;
}

int gp_mem_partition_split(const double *t_second, const double *t_first, size_t n, double overhead,
                           gp_mem_partition *out)
{
    return gp_mem_partition_split_by(t_second, t_second, t_first, n, overhead, out);
}

int gp_mem_partition_split_by(const double *key, const double *t_second, const double *t_first, size_t n,
                              double overhead, gp_mem_partition *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->threshold = NAN;
    out->l2_ratio = NAN;
    out->valley = NAN;
    out->by_first = key == t_first && key != t_second;
    out->fence_lo = out->fence_hi = NAN;
    out->overhead = isfinite(overhead) && overhead > 0 ? overhead : 0;
    class_empty(&out->near_cls);
    class_empty(&out->far_cls);
    double *v = n ? malloc(n * sizeof *v) : NULL, *a = n ? malloc(n * sizeof *a) : NULL,
           *b = n ? malloc(n * sizeof *b) : NULL;
    if (n && (!v || !a || !b)) {
        free(v), free(a), free(b);
        snprintf(out->reason, sizeof out->reason, "no host memory for %zu samples", n);
        out->n_outliers = n;
        return 0;
    }
    /* The fence: a factor 4 either side of the median keeps near and far
     * L2 hits (about 2x apart) and drops page walks and preemptions. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (usable(key[i]))
            v[m++] = key[i];
    if (m > 0) {
        double med = gp_stats_median(v, m);
        out->fence_lo = med / 4;
        out->fence_hi = med * 4;
    }
    m = 0;
    for (size_t i = 0; i < n; i++)
        if (gp_mem_partition_class_of(out, key[i]) == 0)
            v[m++] = log(key[i]);
    out->n_used = m;
    out->n_outliers = n - m;
    for (size_t i = 0; i < n; i++)
        if (gp_mem_partition_class_of(out, key[i]) == 0 && isfinite(t_first[i]) &&
            !(t_first[i] > 1.05 * t_second[i]))
            out->n_warm++;
    if (m < GP_MEM_PART_MIN_SAMPLES) {
        snprintf(out->reason, sizeof out->reason, "one class: too few usable samples (%zu of %zu)", m, n);
        if (m)
            class_stats(key, t_second, t_first, n, out, 0, a, b, &out->near_cls);
        free(v), free(a), free(b);
        return 0;
    }
    gp_stats_sort(v, m);
    size_t k = gp_analysis_otsu_split(v, m);
    double small = k ? (double)(k < m - k ? k : m - k) / (double)m : 0;
    if (k) {
        /* The class medians of the candidate split, whether or not it stands. */
        double lo = exp(v[(k - 1) / 2] / 2 + v[k / 2] / 2);
        size_t mid = k + (m - k - 1) / 2, mid2 = k + (m - k) / 2;
        double hi = exp(v[mid] / 2 + v[mid2] / 2);
        out->l2_ratio = hi / lo;
    }
    if (k)
        out->valley = gp_mem_valley_depth(v, m, k);
    const char *what = out->by_first ? "first loads" : "re-loads";
    if (!k || small < GP_MEM_PART_MIN_FRACTION || !(out->l2_ratio >= GP_MEM_PART_MIN_RATIO) ||
        !(out->valley <= GP_MEM_PART_MAX_VALLEY)) {
        if (!k)
            snprintf(out->reason, sizeof out->reason, "one class: no near/far split seen (all %zu %s "
                     "took the same time)", m, what);
        else
            snprintf(out->reason, sizeof out->reason,
                     "one class: no near/far split seen in the %s (best split: classes at a ratio %.2f, need "
                     ">= %.2f; smaller class %.1f%% of the samples, need >= %.0f%%; valley %.2f of the peaks, "
                     "need <= %.2f)",
                     what, out->l2_ratio, GP_MEM_PART_MIN_RATIO, 100 * small, 100 * GP_MEM_PART_MIN_FRACTION,
                     out->valley, GP_MEM_PART_MAX_VALLEY);
        class_stats(key, t_second, t_first, n, out, 0, a, b, &out->near_cls);
        free(v), free(a), free(b);
        return 0;
    }
    out->detected = 1;
    out->threshold = exp(0.5 * (v[k - 1] + v[k]));
    class_stats(key, t_second, t_first, n, out, 0, a, b, &out->near_cls);
    class_stats(key, t_second, t_first, n, out, 1, a, b, &out->far_cls);
    out->far_fraction = (double)out->far_cls.count / (double)m;
    free(v), free(a), free(b);
    return 1;
}
