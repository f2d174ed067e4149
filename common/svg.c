#include "svg.h"

#include <math.h>
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

typedef struct axis {
    int log;
    double lo, hi;        /* axis bounds in data units */
    double tlo, thi;      /* in transformed units (log10 when log) */
    double p0, p1;        /* pixel positions of lo and hi */
    double ticks[GP_SVG_MAX_TICKS];
    int nticks;
    double step;          /* linear tick step, 0 on log axes */
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
    double ml = 74, mr = 22, mt = legend ? 52 : 34, mb = 48;
    if (W < ml + mr + 40)
        W = (int)(ml + mr + 40);
    if (H < mt + mb + 40)
        H = (int)(mt + mb + 40);
    axis ax, ay;
    setup_axis(&ax, logx, xlo, xhi, npts > 0, ml, W - mr, 6);
    setup_axis(&ay, logy, ylo, yhi, npts > 0, H - mb, mt, 5);

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
        gp_svg_format(lab, sizeof lab, ax.ticks[i], ax.step);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">", x, H - mb + 16);
        gp_xml_escape(f, lab);
        fprintf(f, "</text>\n");
    }
    for (int i = 0; i < ay.nticks; i++) {
        double y = px(&ay, ay.ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", ml, y, W - mr,
                y);
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
    gp_xml_escape(f, p->xlabel);
    if (ax.log)
        fputs(" (log scale)", f);
    fprintf(f, "</text>\n<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#111\" "
               "transform=\"rotate(-90 16 %.1f)\">",
            (mt + H - mb) / 2, (mt + H - mb) / 2);
    gp_xml_escape(f, p->ylabel);
    if (ay.log)
        fputs(" (log scale)", f);
    fprintf(f, "</text>\n");
    if (npts == 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no plottable data</text>\n",
                (ml + W - mr) / 2, (mt + H - mb) / 2);

    /* Data: a line where x runs one way (a sweep), markers always. */
    for (int s = 0; s < p->nseries; s++) {
        const gp_plot_series *ps = &p->series[s];
        const char *color = palette[s % NCOLORS];
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
        int line = nd >= 2 && (up || down);
        fprintf(f, "<g>\n");
        if (line) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\" "
                       "points=\"",
                    color);
            int k = 0;
            for (size_t i = 0; i < ps->n; i++)
                if (drawable(ps->x[i], ps->y[i], logx, logy))
                    fprintf(f, "%s%.1f,%.1f", k++ ? " " : "", px(&ax, ps->x[i]), px(&ay, ps->y[i]));
            fprintf(f, "\"/>\n");
        }
        /* Thousands of markers only blur a line (and bloat the file): a long
         * sweep is drawn as its line alone; a scatter keeps its markers. */
        double r = nd > 150 ? 2.0 : nd > 50 ? 2.6 : 3.3;
        for (size_t i = 0; i < ps->n && (!line || nd <= GP_SVG_MAX_MARKERS); i++)
            if (drawable(ps->x[i], ps->y[i], logx, logy))
                marker(f, "pt", s, px(&ax, ps->x[i]), px(&ay, ps->y[i]), r, color);
        fprintf(f, "</g>\n");
    }

    /* Legend: one row under the title, so it never hides data. */
    if (legend) {
        double x = ml;
        for (int s = 0; s < p->nseries; s++) {
            const char *label = p->series[s].label ? p->series[s].label : "";
            const char *color = palette[s % NCOLORS];
            double y = 38;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
                    x, y, x + 22, y, color);
            marker(f, "key", s, x + 11, y, 3.3, color);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#111\">", x + 27, y + 4);
            gp_xml_escape(f, label);
            fprintf(f, "</text>\n");
            x += 27 + 7.0 * (double)strlen(label) + 18;
        }
    }
    fprintf(f, "</svg>\n");
    return gp_ok();
}
