/* SVG line/scatter plots for the characterization report: self-contained
 * markup (attributes only, no CSS or script) so the same text works inline in
 * HTML and as a .svg file that GitHub renders next to the Markdown. */
#ifndef GP_SVG_H
#define GP_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"

#define GP_SVG_WIDTH 640
#define GP_SVG_HEIGHT 360
#define GP_SVG_MAX_TICKS 16
#define GP_SVG_MAX_MARKERS 400  /* a line with more points is drawn without markers */

typedef struct gp_plot_series {
    const char *label;    /* legend text; NULL or "" for none */
    const double *x, *y;  /* n points; NaN/inf (and <= 0 on a log axis) are skipped */
    size_t n;
} gp_plot_series;

typedef struct gp_plot {
    const char *title, *xlabel, *ylabel;
    int logx, logy;       /* log10 axis; falls back to linear when no value is > 0 */
    int width, height;    /* 0: GP_SVG_WIDTH x GP_SVG_HEIGHT */
    const gp_plot_series *series;
    int nseries;
} gp_plot;

/* Write one <svg> element.  Each series with >= 2 drawable points whose x is
 * monotonic gets one <polyline>; every drawable point gets one marker element
 * carrying class="pt" (unless the line has more than GP_SVG_MAX_MARKERS
 * points).  Fails only on bad arguments. */
gp_status gp_svg_plot(FILE *f, const gp_plot *p);

/* Axis ticks for data in [lo, hi]: linear axes step by 1, 2 or 5 times a power
 * of ten (about `target` intervals), log axes by decades (plus 2 and 5 when
 * the range spans few decades).  axis_lo and axis_hi get the axis bounds (which
 * include the data and, on linear axes, land on ticks).  Handles lo == hi and
 * non-finite input.  Returns the number of ticks written to `ticks` (<= max). */
int gp_svg_ticks(double lo, double hi, int logscale, int target, double *ticks, int max,
                 double *axis_lo, double *axis_hi);

/* Tick label: short, no float noise ("0.3", "2k", "1.5M", "1e-6").  `step`
 * is the linear tick step (0 for log axes). */
void gp_svg_format(char *out, size_t n, double v, double step);

/* Write s with &, <, >, " and ' escaped (valid in XML text and attributes). */
void gp_xml_escape(FILE *f, const char *s);

#endif
