#include "channel_conflicts_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

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
