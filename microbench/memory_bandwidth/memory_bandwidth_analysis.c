#include "bandwidth_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

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

gp_bw_levels gp_bw_classify(const double *footprint, const gp_bw_plateau *p, int np,
                            double l2_bytes)
{
    gp_bw_levels lv = {-1, -1, -1};
    for (int k = np - 1; k >= 0; k--)
        if (footprint[p[k].first] >= l2_bytes) {
            lv.dram = k;
            break;
        }
    for (int k = np - 1; k >= 0; k--) {
        if (k == lv.dram || footprint[p[k].last] > l2_bytes)
            continue;
        /* A cache level runs at least as fast as the memory behind it. */
        if (lv.dram >= 0 && p[k].level < p[lv.dram].level)
            continue;
        lv.l2 = k;
        break;
    }
    if (lv.l2 > 0)
        for (int k = lv.l2 - 1; k >= 0; k--)
            if (p[k].level >= 1.2 * p[lv.l2].level) {
                lv.l1 = k;
                break;
            }
    return lv;
}

void gp_bw_window_analyse(const double *w, const double *bw, size_t n, gp_bw_window_fit *out)
{
    memset(out, 0, sizeof *out);
    out->knee_bytes = out->interleave_bytes = out->count = out->slope = out->min_ratio = NAN;
    if (n < 3) {
        snprintf(out->reason, sizeof out->reason, "fewer than 3 windows measured");
        return;
    }
    double best = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(bw[i]) && bw[i] > best)
            best = bw[i];
    if (!(best > 0) || !(bw[0] > 0)) {
        snprintf(out->reason, sizeof out->reason, "no positive bandwidth measured");
        return;
    }
    out->min_ratio = bw[0] / best;
    size_t k = 0;
    while (k < n && !(bw[k] >= 0.9 * best))
        k++;
    out->knee_bytes = w[k];
    if (out->min_ratio >= 0.7) {
        snprintf(out->reason, sizeof out->reason,
                 "flat: the narrowest window (%.0f B) keeps %.0f%% of the best bandwidth, so low "
                 "address bits do not select channels (hashed or interleaved below the window)",
                 w[0], 100 * out->min_ratio);
        return;
    }
    if (k + 1 >= n) {
        snprintf(out->reason, sizeof out->reason,
                 "bandwidth still rises at the widest window (%.0f B): no saturation seen", w[n - 1]);
        return;
    }
    /* The flat low end: one channel, windows up to the interleave. */
    size_t j = 0;
    while (j + 1 < k && fabs(bw[j + 1] - bw[0]) <= 0.1 * bw[0])
        j++;
    /* Log-log slope of the rise from the end of the flat to the knee. */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t m = 0;
    for (size_t i = j; i <= k; i++) {
        if (!(w[i] > 0 && bw[i] > 0))
            continue;
        double lx = log(w[i]), ly = log(bw[i]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, m++;
    }
    double den = (double)m * sxx - sx * sx;
    out->slope = m >= 2 && den > 0 ? ((double)m * sxy - sx * sy) / den : NAN;
    if (!(out->slope >= 0.6 && out->slope <= 1.4)) {
        snprintf(out->reason, sizeof out->reason,
                 "bandwidth rises with the window but not in proportion (log-log slope %.2f): "
                 "something other than channel count (row locality, hashing) limits narrow windows",
                 out->slope);
        return;
    }
    out->detected = 1;
    if (j >= 1) {
        out->interleave_bytes = w[j];
        out->count = out->knee_bytes / out->interleave_bytes;
    }
    return;
}

int gp_bw_pad_analyse(const double *pad, const double *bw, size_t n, double *pad_elems,
                      double *worst_slowdown)
{
    if (n == 0 || pad[0] != 0 || !(bw[0] > 0))
        return -1;
    double best = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(bw[i]) && bw[i] > best)
            best = bw[i];
    *worst_slowdown = best / bw[0];
    double p = NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(bw[i]) && bw[i] >= 0.95 * best && (isnan(p) || pad[i] < p))
            p = pad[i];
    *pad_elems = p;
    return 0;
}
