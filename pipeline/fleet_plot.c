/* The fleet report's strip plot: one characteristic of one model, one dot
 * per GPU on a value axis, the median as a line, the band the threshold
 * allows shaded, and each outlier's dot red and labelled with its GPU.  The
 * same self-contained SVG as the report's plots (common/svg.h ticks, labels
 * and escaping), inline in fleet.html. */
#include "fleet_plot.h"

#include <math.h>

#include "svg.h"

#define W 640
#define H 96
#define ML 24
#define MR 24
#define Y_AXIS 70 /* the value axis */
#define Y_DOTS 44 /* centre of the dots */

static double xpos(double v, double lo, double hi)
{
    return hi > lo ? ML + (v - lo) / (hi - lo) * (W - ML - MR) : 0.5 * W;
}

/* Half the width of the band the threshold allows around the median, in
 * the value's unit; NAN when there is none to draw (MAD 0 under rule z). */
static double band_half(const gp_fleet_char *c, const gp_fleet_threshold *t)
{
    if (t->rule == GP_FLEET_RULE_PERCENT)
        return t->limit / 100 * fabs(c->center.median);
    return c->center.mad > 0 ? t->limit * c->center.mad / GP_FLEET_MAD_TO_SIGMA : NAN;
}

gp_status gp_fleet_strip_svg(FILE *f, const void *arg)
{
    const gp_fleet_strip *s = arg;
    if (!s || !s->fl || s->c < 0 || s->c >= s->fl->nchars)
        return gp_fail(GP_ERR_USAGE, "strip plot: no characteristic");
    const gp_fleet *fl = s->fl;
    const gp_fleet_char *c = &fl->chars[s->c];
    double lo = INFINITY, hi = -INFINITY;
    for (int g = 0; g < fl->ngpus; g++)
        if (isfinite(c->x[g])) {
            lo = fmin(lo, c->x[g]);
            hi = fmax(hi, c->x[g]);
        }
    double half = band_half(c, &fl->threshold);
    if (c->judged && isfinite(half)) {
        lo = fmin(lo, c->center.median - half);
        hi = fmax(hi, c->center.median + half);
    }
    if (!isfinite(lo))
        lo = hi = 0;
    double ticks[GP_SVG_MAX_TICKS], alo, ahi;
    int nt = gp_svg_ticks(lo, hi, 0, 6, ticks, GP_SVG_MAX_TICKS, &alo, &ahi);
    double step = nt > 1 ? ticks[1] - ticks[0] : 0;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\" role=\"img\">\n<title>",
            W, H, W, H);
    gp_xml_escape(f, c->probe);
    fputc('.', f);
    gp_xml_escape(f, c->key);
    fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
    if (c->judged && isfinite(half)) {
        double x0 = xpos(c->center.median - half, alo, ahi), x1 = xpos(c->center.median + half, alo, ahi);
        fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e8f1f8\"/>\n", x0,
                Y_DOTS - 20, x1 - x0, 36);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>\n", ML, Y_AXIS, W - MR, Y_AXIS);
    for (int i = 0; i < nt; i++) {
        char lab[32];
        double x = xpos(ticks[i], alo, ahi);
        gp_svg_format(lab, sizeof lab, ticks[i], step);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%s</text>\n",
                x, Y_AXIS, x, Y_AXIS + 4, x, Y_AXIS + 16, lab);
    }
    fprintf(f, "<text x=\"%d\" y=\"14\" text-anchor=\"end\" fill=\"#333\">", W - MR); /* the unit, clear of the ticks */
    gp_xml_escape(f, c->unit);
    fputs("</text>\n", f);
    if (isfinite(c->center.median)) {
        double x = xpos(c->center.median, alo, ahi);
        fprintf(f, "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#0072B2\" "
                   "stroke-dasharray=\"3,2\"/>\n", x, Y_DOTS - 22, x, Y_DOTS + 18);
    }
    int k = 0;
    for (int g = 0; g < fl->ngpus; g++) {
        if (!isfinite(c->x[g]))
            continue;
        gp_fleet_verdict v = c->verdict[g];
        int out = v == GP_FLEET_LOW || v == GP_FLEET_HIGH;
        const char *color = out ? "#b00020" : v == GP_FLEET_WARNED ? "#E69F00" : "#0072B2";
        double x = xpos(c->x[g], alo, ahi);
        double y = Y_DOTS + ((k++ % 5) - 2) * 4; /* a little jitter: equal values stay visible */
        fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" fill-opacity=\"0.8\">"
                   "<title>", out ? "pt out" : "pt", x, y, color);
        gp_xml_escape(f, fl->gpus[g].label);
        fprintf(f, ": %.6g</title></circle>\n", c->x[g]);
        if (out || v == GP_FLEET_WARNED) {
            fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">", x, y - 8,
                    x > 0.7 * W ? "end" : x < 0.3 * W ? "start" : "middle", color);
            gp_xml_escape(f, fl->gpus[g].label);
            fputs("</text>\n", f);
        }
    }
    fputs("</svg>\n", f);
    return gp_ok();
}
