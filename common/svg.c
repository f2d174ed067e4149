#include "svg.h"
#include "utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Okabe-Ito colours (distinguishable with the common colour-vision
 * deficiencies), darkened where they are too pale on white. */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#B07800", "#3A9AD9", "#222222", "#8C8C2A"};
#define NCOLORS (int)(sizeof palette / sizeof palette[0])

void gp_xml_escape(FILE *f, const char *s)
{
    if (!s)
        return;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            /* Control characters other than tab/newline are not allowed in XML 1.0. */
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                fputc(' ', f);
            else if (c >= 0x7f)
                s += gp_utf8_put(f, s) - 1;
            else
                fputc(c, f);
        }
    }
}

static double nice_step(double raw)
{
    double mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static int linear_ticks(double lo, double hi, int target, double *ticks, int max, double *alo,
                        double *ahi)
{
    if (target < 1)
        target = 1;
    double step = nice_step((hi - lo) / target);
    double a, b;
    if (!isfinite(step) || step <= 0) { /* range beyond double: just the ends */
        *alo = ticks[0] = lo;
        *ahi = ticks[1] = hi;
        return 2;
    }
    long n;
    for (;;) {
        /* The small slack keeps float noise from adding an extra step. */
        a = floor(lo / step + 1e-9) * step;
        b = ceil(hi / step - 1e-9) * step;
        n = lround((b - a) / step) + 1;
        if (n <= max)
            break;
        step = nice_step(step * 1.5);
    }
    *alo = a;
    *ahi = b;
    for (long i = 0; i < n; i++) {
        double t = a + (double)i * step;
        ticks[i] = fabs(t) < step * 1e-9 ? 0.0 : t;
    }
    return (int)n;
}

int gp_svg_ticks(double lo, double hi, int logscale, int target, double *ticks, int max,
                 double *axis_lo, double *axis_hi)
{
    if (max < 2) {
        *axis_lo = lo;
        *axis_hi = hi;
        return 0;
    }
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = isfinite(hi) ? hi : isfinite(lo) ? lo : (logscale ? 1 : 0);
        hi = lo;
    }
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (logscale && lo <= 0)
        logscale = 0;
    if (!logscale) {
        /* A flat range (all values equal, or one point) gets an axis around it. */
        if (hi - lo <= 1e-12 * fmax(fabs(lo), fabs(hi))) {
            double pad = lo == 0 ? 1 : fabs(lo) * 0.1;
            lo -= pad;
            hi += pad;
        }
        return linear_ticks(lo, hi, target, ticks, max, axis_lo, axis_hi);
    }
    double l0 = log10(lo), l1 = log10(hi);
    if (l1 - l0 < 1e-9) {
        l0 -= 0.5;
        l1 += 0.5;
    }
    double span = l1 - l0, pad = 0.04 * span;
    l0 -= pad;
    l1 += pad;
    *axis_lo = pow(10, l0);
    *axis_hi = pow(10, l1);
    int n = 0;
    if (span <= 2.5) {
        static const double mult[] = {1, 2, 5};
        for (int d = (int)floor(l0); d <= (int)ceil(l1) && n < max; d++)
            for (int m = 0; m < 3 && n < max; m++) {
                double t = mult[m] * pow(10, d);
                if (t >= *axis_lo * (1 - 1e-12) && t <= *axis_hi * (1 + 1e-12))
                    ticks[n++] = t;
            }
        if (n < 2) {
            /* Less than a factor of 2.5 between the ends: plain linear ticks, kept inside. */
            double a, b, tmp[GP_SVG_MAX_TICKS];
            int m = linear_ticks(*axis_lo, *axis_hi, target, tmp, GP_SVG_MAX_TICKS, &a, &b);
            n = 0;
            for (int i = 0; i < m && n < max; i++)
                if (tmp[i] >= *axis_lo && tmp[i] <= *axis_hi)
                    ticks[n++] = tmp[i];
        }
        return n;
    }
    int dstep = (int)ceil(span / 8);
    if (dstep < 1)
        dstep = 1;
    for (int d = (int)ceil(l0 - 1e-9); d <= (int)floor(l1 + 1e-9) && n < max; d++)
        if (d % dstep == 0)
            ticks[n++] = pow(10, d);
    return n;
}

void gp_svg_format(char *out, size_t n, double v, double step)
{
    static const char si[] = " kMGTPE";
    double a = fabs(v);
    if (!isfinite(v)) {
        snprintf(out, n, "?");
        return;
    }
    if (a == 0 || (step > 0 && a < step * 1e-6)) {
        snprintf(out, n, "0");
        return;
    }
    if (a >= 1e4 || (step >= 1000 && a >= 1000)) {
        int k = (int)floor(log10(a) / 3);
        if (k > 6)
            k = 6;
        double scale = pow(1000, k), s = v / scale;
        if (step > 0) {
            int dec = (int)ceil(-log10(step / scale) - 1e-9);
            dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
            snprintf(out, n, "%.*f%c", dec, s, si[k]);
        } else {
            snprintf(out, n, "%.3g%c", s, si[k]);
        }
        return;
    }
    if (a < 1e-3) {
        int e = (int)floor(log10(a));
        double m = v / pow(10, e);
        if (fabs(m) >= 9.995) { /* rounding carried into the next decade */
            m /= 10;
            e++;
        }
        snprintf(out, n, "%.3ge%d", m, e);
        return;
    }
    if (step > 0) {
        int dec = (int)ceil(-log10(step) - 1e-9);
        dec = dec < 0 ? 0 : dec > 9 ? 9 : dec;
        snprintf(out, n, "%.*f", dec, v);
    } else {
        snprintf(out, n, "%.4g", v);
    }
}

void gp_svg_format_unit(char *out, size_t n, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    double a = fabs(v);
    int k = a >= 1 && isfinite(a) ? (int)floor(log10(a) / 3 + 1e-9) : 0;
    k = k < 0 ? 0 : k > 6 ? 6 : k;
    double s = v / pow(1000, k);
    if (!isfinite(v))
        snprintf(out, n, "?");
    else if (v == 0)
        snprintf(out, n, "0 %s", unit);
    else
        snprintf(out, n, "%.3g %s%s", s, pre[k], unit);
}

typedef struct axis {
    int log;
    double lo, hi;        /* axis bounds in data units */
    double tlo, thi;      /* in transformed units (log10 when log) */
    double p0, p1;        /* pixel positions of lo and hi */
    double ticks[GP_SVG_MAX_TICKS];
    int nticks;
    double step;          /* linear tick step, 0 on log axes */
    int bytes;            /* log axis of byte counts: power-of-two ticks, binary units */
} axis;

static double tr(const axis *a, double v)
{
    return a->log ? log10(v) : v;
}

static double px(const axis *a, double v)
{
    return a->p0 + (tr(a, v) - a->tlo) / (a->thi - a->tlo) * (a->p1 - a->p0);
}

static int drawable(double x, double y, int logx, int logy)
{
    return isfinite(x) && isfinite(y) && (!logx || x > 0) && (!logy || y > 0);
}

static void setup_axis(axis *a, int log, double lo, double hi, int have, double p0, double p1, int target)
{
    memset(a, 0, sizeof *a);
    a->log = log;
    if (!have) {
        lo = log ? 1 : 0;
        hi = log ? 10 : 1;
    } else if (!log && lo > 0 && lo < 0.2 * hi) {
        /* Near-zero positive data reads better against a zero baseline. */
        lo = 0;
    }
    a->nticks = gp_svg_ticks(lo, hi, log, target, a->ticks, GP_SVG_MAX_TICKS, &a->lo, &a->hi);
    if (have && !log && hi > lo) {
        /* Ticks on 1-2-5 steps can overshoot the data by most of a step (1024
         * on a 0..1200 axis); trim such an end to the data plus a margin and
         * drop the ticks beyond it, as long as two ticks remain. */
        double r = a->hi - a->lo, m = 0.03 * (hi - lo), nlo = a->lo, nhi = a->hi;
        if (a->hi - hi > 0.06 * r)
            nhi = hi + m;
        if (lo - a->lo > 0.06 * r)
            nlo = lo - m;
        int k = 0;
        double kept[GP_SVG_MAX_TICKS];
        for (int i = 0; i < a->nticks; i++)
            if (a->ticks[i] >= nlo - 1e-9 * r && a->ticks[i] <= nhi + 1e-9 * r)
                kept[k++] = a->ticks[i];
        if (k >= 2) {
            memcpy(a->ticks, kept, (size_t)k * sizeof kept[0]);
            a->nticks = k;
            a->lo = nlo;
            a->hi = nhi;
        }
    }
    a->tlo = tr(a, a->lo);
    a->thi = tr(a, a->hi);
    if (!(a->thi > a->tlo)) { /* cannot happen after gp_svg_ticks; guard the division anyway */
        a->thi = a->tlo + 1;
        a->hi = a->log ? pow(10, a->thi) : a->thi;
    }
    a->p0 = p0;
    a->p1 = p1;
    a->step = !log && a->nticks > 1 ? a->ticks[1] - a->ticks[0] : 0;
}

/* A log axis of powers of two (byte counts, conflict degrees): ticks at
 * powers of two, spaced 1, 2, 5 or 10 doublings apart so that they land on
 * KiB, MiB and GiB and stay few; `bytes` labels them in binary units. */
static void pow2_ticks(axis *a, int bytes)
{
    if (!a->log)
        return;
    int k0 = (int)ceil(log2(a->lo) - 1e-9), k1 = (int)floor(log2(a->hi) + 1e-9);
    if (k1 < k0 || k1 - k0 > 120)
        return;
    static const int steps[] = {1, 2, 5, 10};
    int step = 10;
    for (int i = 0; i < 4; i++)
        if ((k1 - k0) / steps[i] + 1 <= 8) {
            step = steps[i];
            break;
        }
    int n = 0;
    for (int k = k0; k <= k1 && n < GP_SVG_MAX_TICKS; k++)
        if (((k % step) + step) % step == 0)
            a->ticks[n++] = ldexp(1, k);
    if (n >= 2) {
        a->nticks = n;
        a->bytes = bytes;
    }
}

/* 2^k bytes as "32 KiB"; other values in the usual short form. */
static void format_bytes(char *out, size_t n, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int k = (int)lround(log2(v));
    if (v <= 0 || fabs(ldexp(1, k) - v) > 1e-9 * v || k < 0 || k >= 60) {
        gp_svg_format(out, n, v, 0);
        return;
    }
    snprintf(out, n, "%d %s", 1 << (k % 10), units[k / 10]);
}

/* An axis label, with the log scale said inside its unit's brackets. */
static void axis_label(FILE *f, const char *label, int log)
{
    size_t n = label ? strlen(label) : 0;
    if (!log) {
        gp_xml_escape(f, label);
    } else if (n > 1 && label[n - 1] == ')' && strchr(label, '(')) {
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s, log scale)", (int)(n - 1), label);
        gp_xml_escape(f, buf);
    } else {
        gp_xml_escape(f, label);
        fputs(n ? " (log scale)" : "log scale", f);
    }
}

static void marker(FILE *f, const char *cls, int shape, double x, double y, double r, const char *color)
{
    switch (shape % 4) {
    case 0:
        fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", cls, x, y, r, color);
        break;
    case 1:
        fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                cls, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8, color);
        break;
    case 2:
        fprintf(f, "<polygon class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n", cls, x,
                y - r * 1.3, x + r * 1.3, y, x, y + r * 1.3, x - r * 1.3, y, color);
        break;
    default:
        fprintf(f, "<polygon class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n", cls, x,
                y - r * 1.3, x + r * 1.2, y + r * 0.9, x - r * 1.2, y + r * 0.9, color);
    }
}

/* Text width estimate: the average advance of 12 px Helvetica/Arial, rounded
 * up so that estimates err towards room to spare. */
#define CHAR_W 6.8
#define LEGEND_MAX 32

static double text_w(const char *s)
{
    /* UTF-8 continuation bytes take no width of their own. */
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return CHAR_W * (double)n;
}

/* Legend entries (key 22 px, gap, text, 18 px space) left to right from x0,
 * wrapped onto a new row before x1.  x[i] and row[i] get each entry's place;
 * returns the number of rows. */
static int legend_layout(const char *const *labels, int n, double x0, double x1, double *x, int *row)
{
    double at = x0;
    int r = 0;
    for (int i = 0; i < n; i++) {
        double w = 27 + text_w(labels[i]) + 18;
        if (at > x0 && at + w - 18 > x1) {
            r++;
            at = x0;
        }
        x[i] = at;
        row[i] = r;
        at += w;
    }
    return n > 0 ? r + 1 : 0;
}

/* The text box of b at baseline y: x0..x1, and whether it clashes with a
 * box placed before it or (when obstacles are given) a marker. */
static int box_clashes(const gp_mark_box *out, int i, double x0, double x1, double y, const double *ox,
                       const double *oy, int nobs)
{
    for (int j = 0; j < i; j++) {
        double j0 = out[j].end ? out[j].x - out[j].w : out[j].x, j1 = j0 + out[j].w;
        if (x0 < j1 + 4 && j0 < x1 + 4 && fabs(out[j].y - y) < GP_SVG_MARK_ROW)
            return 1;
    }
    /* a marker of radius ~4 against the text's ascent (9) and descent (3) */
    for (int k = 0; k < nobs; k++)
        if (ox[k] + 5 > x0 && ox[k] - 5 < x1 && oy[k] + 5 > y - 10 && oy[k] - 5 < y + 3)
            return 1;
    return 0;
}

/* One text: the anchor's row, then one up, one down, two up, ... (`rows`
 * rows in all); in each
 * row the anchor's side first, then the other side of the anchor (end at
 * flip_x).  1 with b set when a place is free. */
static int place_one(gp_mark_box *out, int i, double ax, double ay, double flip_x, double left, double right,
                     double top, double bottom, const double *ox, const double *oy, int nobs, int rows)
{
    gp_mark_box *b = &out[i];
    double y0 = fmin(fmax(ay, top + 12), bottom - 2);
    for (int k = 0; k < rows; k++) {
        double y = y0 + GP_SVG_MARK_ROW * ((k + 1) / 2) * (k % 2 ? -1 : 1);
        if (y < top + 12 || y > bottom - 2)
            continue;
        for (int side = 0; side < (isfinite(flip_x) ? 2 : 1); side++) {
            int end = side ? 1 : ax + b->w > right;
            double x = side ? fmax(flip_x, left + b->w) : end ? fmax(ax, left + b->w) : fmax(ax, left);
            if (side && x > right)
                continue;
            double x0 = end ? x - b->w : x;
            if (!box_clashes(out, i, x0, x0 + b->w, y, ox, oy, nobs)) {
                b->x = x;
                b->y = y;
                b->end = end;
                return 1;
            }
        }
    }
    return 0;
}

void gp_svg_place_marks_clear(const double *ax, const double *ay, const double *flip_x, const char *const *texts,
                              int n, double left, double right, double top, double bottom, const double *ox,
                              const double *oy, int nobs, gp_mark_box *out)
{
    for (int i = 0; i < n; i++) {
        gp_mark_box *b = &out[i];
        b->w = text_w(texts[i]);
        b->end = ax[i] + b->w > right;
        b->x = b->end ? fmax(ax[i], left + b->w) : fmax(ax[i], left);
        b->y = fmin(fmax(ay[i], top + 12), bottom - 2);
        double fx = flip_x ? flip_x[i] : NAN;
        /* Clear of the markers within three rows of the anchor, else clear of
         * the other texts: a name far from its line reads as another's. */
        if (!place_one(out, i, ax[i], ay[i], fx, left, right, top, bottom, ox, oy, nobs, nobs ? 7 : 41) && nobs)
            place_one(out, i, ax[i], ay[i], fx, left, right, top, bottom, NULL, NULL, 0, 41);
    }
}

void gp_svg_place_marks(const double *ax, const double *ay, const char *const *texts, int n, double left,
                        double right, double top, double bottom, gp_mark_box *out)
{
    gp_svg_place_marks_clear(ax, ay, NULL, texts, n, left, right, top, bottom, NULL, NULL, 0, out);
}

#define MAX_MARKS 96

/* Annotations: lines through what was detected, and their texts placed so
 * that they stay inside the frame and do not overlap. */
static void draw_marks(FILE *f, const gp_plot *p, const axis *ax, const axis *ay, double left, double right,
                       double top, double bottom)
{
    double axs[MAX_MARKS] = {0}, ays[MAX_MARKS] = {0}, flips[MAX_MARKS];
    const char *texts[MAX_MARKS] = {0};
    gp_mark_box box[MAX_MARKS];
    int n = 0;
    for (int i = 0; i < p->nmarks && n < MAX_MARKS; i++) {
        const gp_plot_mark *m = &p->marks[i];
        double x = m->kind == GP_MARK_Y ? NAN : m->x, y = m->kind == GP_MARK_X ? NAN : m->y;
        if (m->kind != GP_MARK_Y && !(isfinite(x) && (!ax->log || x > 0) && x >= ax->lo && x <= ax->hi))
            continue;
        if (m->kind != GP_MARK_X && !(isfinite(y) && (!ay->log || y > 0) && y >= ay->lo && y <= ay->hi))
            continue;
        double X = m->kind == GP_MARK_Y ? right : px(ax, x), Y = m->kind == GP_MARK_X ? top : px(ay, y);
        if (m->kind == GP_MARK_X)
            fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#666\" "
                       "stroke-dasharray=\"3 3\"/>\n",
                    X, top, X, bottom);
        else if (m->kind == GP_MARK_Y)
            fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#666\" "
                       "stroke-dasharray=\"3 3\"/>\n",
                    left, Y, right, Y);
        texts[n] = m->text ? m->text : "";
        /* Texts start right of a vertical line, above a horizontal one (at
         * the right end) and up-right of a point. */
        axs[n] = m->kind == GP_MARK_X ? X + 3 : m->kind == GP_MARK_Y ? right - 4 - text_w(texts[n]) : X + 6;
        ays[n] = m->kind == GP_MARK_X ? top + 12 : Y - 4;
        /* the other side: left of a vertical line or of a point (end-anchored) */
        flips[n] = m->kind == GP_MARK_X ? X - 3 : m->kind == GP_MARK_POINT ? X - 6 : NAN;
        n++;
    }
    if (n == 0)
        return;
    /* The drawn markers, which a text must not hide. */
    int nobs = 0;
    for (int si = 0; si < p->nseries; si++) {
        const gp_plot_series *ps = &p->series[si];
        if (!(ps->style & GP_SERIES_NO_MARKERS) && ps->n <= GP_SVG_MAX_MARKERS)
            nobs += ps->n;
    }
    double *ox = nobs ? malloc(2 * (size_t)nobs * sizeof *ox) : NULL;
    double *oy = ox ? ox + nobs : NULL;
    int k = 0;
    for (int si = 0; ox && si < p->nseries; si++) {
        const gp_plot_series *ps = &p->series[si];
        if ((ps->style & GP_SERIES_NO_MARKERS) || ps->n > GP_SVG_MAX_MARKERS)
            continue;
        for (size_t j = 0; j < ps->n; j++)
            if (isfinite(ps->x[j]) && isfinite(ps->y[j]) && (!ax->log || ps->x[j] > 0) && (!ay->log || ps->y[j] > 0)) {
                ox[k] = px(ax, ps->x[j]);
                oy[k++] = px(ay, ps->y[j]);
            }
    }
    gp_svg_place_marks_clear(axs, ays, flips, texts, n, left + 2, right - 2, top, bottom, ox, oy, k, box);
    free(ox);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<text class=\"mark-text\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#222\"%s>", box[i].x,
                box[i].y, box[i].end ? " text-anchor=\"end\"" : "");
        gp_xml_escape(f, texts[i]);
        fprintf(f, "</text>\n");
    }
}

gp_status gp_svg_plot(FILE *f, const gp_plot *p)
{
    if (!f || !p || p->nseries < 0 || (p->nseries > 0 && !p->series))
        return gp_fail(GP_ERR_USAGE, "gp_svg_plot: bad arguments");
    for (int s = 0; s < p->nseries; s++)
        if (p->series[s].n > 0 && (!p->series[s].x || !p->series[s].y))
            return gp_fail(GP_ERR_USAGE, "gp_svg_plot: series %d has no data pointers", s);
    int W = p->width > 0 ? p->width : GP_SVG_WIDTH, H = p->height > 0 ? p->height : GP_SVG_HEIGHT;

    /* A log axis needs a positive value; without one it falls back to linear. */
    int logx = 0, logy = 0;
    for (int s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            double x = p->series[s].x[i], y = p->series[s].y[i];
            if (isfinite(x) && isfinite(y)) {
                logx |= p->logx && x > 0 && (!p->logy || y > 0);
                logy |= p->logy && y > 0 && (!p->logx || x > 0);
            }
        }
    if (p->logx && p->logy)
        logx = logy = logx && logy;
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t npts = 0;
    for (int s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            double x = p->series[s].x[i], y = p->series[s].y[i];
            if (!drawable(x, y, logx, logy))
                continue;
            npts++;
            xlo = fmin(xlo, x);
            xhi = fmax(xhi, x);
            ylo = fmin(ylo, y);
            yhi = fmax(yhi, y);
        }

    int legend = 0;
    for (int s = 0; s < p->nseries; s++)
        legend |= p->nseries > 1 && p->series[s].label && p->series[s].label[0];
    double ml = p->yunit ? 92 : 74, mr = 22, mb = 48; /* tick labels with units are wider */
    if (W < ml + mr + 40)
        W = (int)(ml + mr + 40);
    /* The legend lists the labelled series (a roof named on the plot has no entry). */
    const char *labels[LEGEND_MAX];
    double lx[LEGEND_MAX];
    int lrow[LEGEND_MAX], lser[LEGEND_MAX], nleg = 0, rows = 0;
    for (int s = 0; s < p->nseries && nleg < LEGEND_MAX; s++)
        if (p->series[s].label && p->series[s].label[0]) {
            lser[nleg] = s;
            labels[nleg++] = p->series[s].label;
        }
    if (legend)
        rows = legend_layout(labels, nleg, ml, W - mr, lx, lrow);
    double mt = 34 + 18.0 * rows;
    if (H < mt + mb + 40)
        H = (int)(mt + mb + 40);
    axis ax, ay;
    setup_axis(&ax, logx, xlo, xhi, npts > 0, ml, W - mr, 6);
    setup_axis(&ay, logy, p->yzero && !logy && npts > 0 ? fmin(ylo, 0) : ylo, yhi, npts > 0, H - mb, mt, 5);
    if (p->xbytes || p->xpow2)
        pow2_ticks(&ax, p->xbytes);
    if (p->ypow2)
        pow2_ticks(&ay, 0);
    if (npts > 0 && !ay.log && yhi >= ay.hi - 0.02 * (ay.hi - ay.lo)) {
        /* Points on the top edge would sit on the frame: a little headroom. */
        ay.hi += 0.04 * (ay.hi - ay.lo);
        ay.thi = ay.hi;
    }

    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n",
            W, H, W, H);
    fprintf(f, "<title>");
    gp_xml_escape(f, p->title ? p->title : "plot");
    fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);

    /* Grid and tick labels. */
    char lab[48];
    for (int i = 0; i < ax.nticks; i++) {
        double x = px(&ax, ax.ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", x, mt, x,
                H - mb);
        if (ax.bytes)
            format_bytes(lab, sizeof lab, ax.ticks[i]);
        else
            gp_svg_format(lab, sizeof lab, ax.ticks[i], ax.step);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">", x, H - mb + 16);
        gp_xml_escape(f, lab);
        fprintf(f, "</text>\n");
    }
    for (int i = 0; i < ay.nticks; i++) {
        double y = px(&ay, ay.ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", ml, y, W - mr,
                y);
        if (p->yunit)
            gp_svg_format_unit(lab, sizeof lab, ay.ticks[i] * (p->yscale > 0 ? p->yscale : 1), p->yunit);
        else
            gp_svg_format(lab, sizeof lab, ay.ticks[i], ay.step);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\">", ml - 6, y + 4);
        gp_xml_escape(f, lab);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#555\"/>\n", ml,
            mt, W - mr - ml, H - mb - mt);

    /* Title and axis labels. */
    fprintf(f, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\" "
               "fill=\"#111\">",
            W / 2.0);
    gp_xml_escape(f, p->title);
    fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#111\">", (ml + W - mr) / 2,
            H - 10);
    axis_label(f, p->xlabel, ax.log);
    fprintf(f, "</text>\n<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#111\" "
               "transform=\"rotate(-90 14 %.1f)\">",
            (mt + H - mb) / 2, (mt + H - mb) / 2);
    axis_label(f, p->ylabel, ay.log);
    fprintf(f, "</text>\n");
    if (npts == 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no plottable data</text>\n",
                (ml + W - mr) / 2, (mt + H - mb) / 2);

    /* Data: a line where x runs one way (a sweep), markers always. */
    for (int s = 0; s < p->nseries; s++) {
        const gp_plot_series *ps = &p->series[s];
        const char *color = palette[(ps->color > 0 ? ps->color - 1 : s) % NCOLORS];
        size_t nd = 0;
        int up = 1, down = 1;
        double prev = 0;
        for (size_t i = 0; i < ps->n; i++) {
            if (!drawable(ps->x[i], ps->y[i], logx, logy))
                continue;
            if (nd) {
                up &= ps->x[i] >= prev;
                down &= ps->x[i] <= prev;
            }
            prev = ps->x[i];
            nd++;
        }
        int line = nd >= 2 && (up || down) && !p->points_only && !(ps->style & GP_SERIES_NO_LINE);
        fprintf(f, "<g>\n");
        if (line) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\"%s "
                       "points=\"",
                    color, ps->style & GP_SERIES_DASHED ? " stroke-dasharray=\"6 4\"" : "");
            int k = 0;
            for (size_t i = 0; i < ps->n; i++)
                if (drawable(ps->x[i], ps->y[i], logx, logy))
                    fprintf(f, "%s%.1f,%.1f", k++ ? " " : "", px(&ax, ps->x[i]), px(&ay, ps->y[i]));
            fprintf(f, "\"/>\n");
        }
        /* Thousands of markers only blur a line (and bloat the file): a long
         * sweep is drawn as its line alone; a scatter keeps its markers. */
        double r = nd > 150 ? 2.0 : nd > 50 ? 2.6 : 3.3;
        if (p->points_only) /* later series smaller, so that coinciding points stay visible */
            r = fmax(3.8 - 0.9 * s, 1.5);
        for (size_t i = 0; i < ps->n && (!line || nd <= GP_SVG_MAX_MARKERS) && !(ps->style & GP_SERIES_NO_MARKERS);
             i++)
            if (drawable(ps->x[i], ps->y[i], logx, logy))
                marker(f, "pt", s, px(&ax, ps->x[i]), px(&ay, ps->y[i]), r, color);
        fprintf(f, "</g>\n");
    }

    draw_marks(f, p, &ax, &ay, ml, W - mr, mt, H - mb);

    /* Legend: rows under the title, so it never hides data. */
    if (legend)
        for (int e = 0; e < nleg; e++) {
            int s = lser[e];
            const gp_plot_series *ps = &p->series[s];
            const char *color = palette[(ps->color > 0 ? ps->color - 1 : s) % NCOLORS];
            double x = lx[e], y = 38 + 18.0 * lrow[e];
            if (!p->points_only && !(ps->style & GP_SERIES_NO_LINE))
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                           "stroke-width=\"1.8\"%s/>\n",
                        x, y, x + 22, y, color, ps->style & GP_SERIES_DASHED ? " stroke-dasharray=\"6 4\"" : "");
            if (ps->style & GP_SERIES_NO_MARKERS)
                fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"1\" height=\"1\" fill=\"%s\"/>\n",
                        x + 11, y, color);
            else
                marker(f, "key", s, x + 11, y, 3.3, color);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#111\">", x + 27, y + 4);
            gp_xml_escape(f, labels[e]);
            fprintf(f, "</text>\n");
        }
    fprintf(f, "</svg>\n");
    return gp_ok();
}

/* s escaped, cut (at a character boundary, with an ellipsis) to about `room` pixels. */
static void escape_fit(FILE *f, const char *s, double room)
{
    if (!s || text_w(s) <= room) {
        gp_xml_escape(f, s);
        return;
    }
    char buf[256];
    size_t k = 0, chars = 0, keep = room > 2 * CHAR_W ? (size_t)(room / CHAR_W) - 1 : 1;
    for (; s[k] && k + 4 < sizeof buf; k++) {
        if (((unsigned char)s[k] & 0xC0) != 0x80 && chars++ == keep)
            break;
        buf[k] = s[k];
    }
    memcpy(buf + k, "\xe2\x80\xa6", 4); /* ellipsis and the terminator */
    gp_xml_escape(f, buf);
}

/* Value printed at a bar's end: three significant digits, whole numbers from 1000. */
static void bar_value(char *out, size_t n, double v)
{
    if (fabs(v) >= 1000 && fabs(v) < 1e7)
        snprintf(out, n, "%.0f", v);
    else
        gp_svg_format(out, n, v, 0);
}

gp_status gp_svg_bars(FILE *f, const gp_bars *b)
{
    if (!f || !b || b->ncats < 0 || b->ngroups < 0 || (b->ncats > 0 && !b->cats) ||
        (b->ngroups > 0 && !b->groups))
        return gp_fail(GP_ERR_USAGE, "gp_svg_bars: bad arguments");
    for (int g = 0; g < b->ngroups; g++)
        if (b->ncats > 0 && !b->groups[g].values)
            return gp_fail(GP_ERR_USAGE, "gp_svg_bars: group %d has no values", g);
    int W = b->width > 0 ? b->width : GP_SVG_WIDTH;

    int logv = 0;
    size_t npts = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int g = 0; g < b->ngroups; g++)
        for (int c = 0; c < b->ncats; c++)
            logv |= b->logv && isfinite(b->groups[g].values[c]) && b->groups[g].values[c] > 0;
    for (int g = 0; g < b->ngroups; g++)
        for (int c = 0; c < b->ncats; c++) {
            double v = b->groups[g].values[c];
            if (!isfinite(v) || (logv && v <= 0))
                continue;
            npts++;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    if (!logv && npts) { /* linear bars grow from zero */
        lo = fmin(lo, 0);
        hi = fmax(hi, 0);
    }

    /* Category labels on the left, as wide as the longest (within reason). */
    double lw = 0;
    for (int c = 0; c < b->ncats; c++)
        lw = fmax(lw, text_w(b->cats[c]));
    double ml = fmin(fmax(lw + 14, 60), 0.45 * W), mr = 22, mb = 48;
    if (W < ml + mr + 60)
        W = (int)(ml + mr + 60);
    const char *labels[LEGEND_MAX];
    double lx[LEGEND_MAX];
    int lrow[LEGEND_MAX], nleg = b->ngroups < LEGEND_MAX ? b->ngroups : LEGEND_MAX, rows = 0;
    for (int g = 0; g < nleg; g++)
        labels[g] = b->groups[g].label;
    if (b->ngroups > 1)
        rows = legend_layout(labels, nleg, ml, W - mr, lx, lrow);
    double mt = 34 + 18.0 * rows + 6;
    double bh = b->ngroups > 1 ? 13 : 18, gap = b->ngroups > 1 ? 9 : 6;
    double band = bh * (b->ngroups > 0 ? b->ngroups : 1) + gap;
    int H = (int)ceil(mt + band * (b->ncats > 0 ? b->ncats : 1) + mb);

    /* The value axis stops short of the frame: the longest bar's value label
     * is printed inside it. */
    axis ax;
    setup_axis(&ax, logv, lo, hi, npts > 0, ml, W - mr - 40, 6);

    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n",
            W, H, W, H);
    fprintf(f, "<title>");
    gp_xml_escape(f, b->title ? b->title : "plot");
    fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
    char lab[48];
    for (int i = 0; i < ax.nticks; i++) {
        double x = px(&ax, ax.ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", x, mt, x, H - mb);
        gp_svg_format(lab, sizeof lab, ax.ticks[i], ax.step);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">", x, H - mb + 16);
        gp_xml_escape(f, lab);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#555\"/>\n", ml, mt,
            W - mr - ml, H - mb - mt);
    fprintf(f, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\" "
               "fill=\"#111\">",
            W / 2.0);
    gp_xml_escape(f, b->title);
    fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#111\">", (ml + W - mr) / 2, H - 10);
    axis_label(f, b->vlabel, ax.log);
    fprintf(f, "</text>\n");
    if (npts == 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no plottable data</text>\n",
                (ml + W - mr) / 2, (mt + H - mb) / 2);

    /* Bars start at zero (linear) or at the axis' low end (log). */
    double base = px(&ax, ax.log ? ax.lo : fmax(ax.lo, fmin(0, ax.hi)));
    for (int c = 0; c < b->ncats; c++) {
        double top = mt + gap / 2 + band * c;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#111\">", ml - 6,
                top + (band - gap) / 2 + 4);
        escape_fit(f, b->cats[c], ml - 12);
        fprintf(f, "</text>\n");
        for (int g = 0; g < b->ngroups; g++) {
            double v = b->groups[g].values[c];
            if (!isfinite(v) || (ax.log && v <= 0))
                continue;
            double x = px(&ax, v), y = top + bh * g;
            double x0 = fmin(base, x), w = fabs(x - base);
            fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x0,
                    y + 1, w < 1 ? 1 : w, bh - 2, palette[g % NCOLORS]);
            bar_value(lab, sizeof lab, v);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#333\">", fmax(x, base) + 4,
                    y + bh / 2 + 4);
            gp_xml_escape(f, lab);
            fprintf(f, "</text>\n");
        }
    }
    if (b->ngroups > 1)
        for (int g = 0; g < nleg; g++) {
            double x = lx[g], y = 38 + 18.0 * lrow[g];
            fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"10\" fill=\"%s\"/>\n", x,
                    y - 5, palette[g % NCOLORS]);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#111\">", x + 27, y + 4);
            gp_xml_escape(f, labels[g] ? labels[g] : "");
            fprintf(f, "</text>\n");
        }
    fprintf(f, "</svg>\n");
    return gp_ok();
}
