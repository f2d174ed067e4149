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
    int yzero;            /* linear y axis starts at 0 (rates, ratios: a flat curve must look flat) */
    int points_only;      /* markers without connecting lines (x a sweep, y jumping: strides, gcds) */
    int xbytes;           /* x is a byte count: on a log axis, ticks at powers of two labelled KiB/MiB/GiB */
    int xpow2, ypow2;     /* the axis takes powers of two: on a log axis, ticks at powers of two */
} gp_plot;

/* Write one <svg> element.  Each series with >= 2 drawable points whose x is
 * monotonic gets one <polyline> (none with points_only); every drawable point
 * gets one marker element carrying class="pt" (unless the line has more than
 * GP_SVG_MAX_MARKERS points).  With two or more labelled series a legend
 * (one class="key" marker each) wraps over rows under the title.  Fails only
 * on bad arguments. */
gp_status gp_svg_plot(FILE *f, const gp_plot *p);

/* Horizontal bar chart for categorical series (one bar per category and
 * group; groups side by side within a category, told apart by colour and the
 * legend).  Each bar carries class="bar" and its value printed at its end; a
 * NaN (or, on a log axis, non-positive) value draws no bar.  The height
 * follows the number of bars; the width is `width` (0: GP_SVG_WIDTH).  Fails
 * only on bad arguments. */
typedef struct gp_bar_group {
    const char *label;    /* legend text (shown when there are two or more groups) */
    const double *values; /* one per category */
} gp_bar_group;

typedef struct gp_bars {
    const char *title, *vlabel; /* vlabel: the value axis, with its unit */
    int logv;                   /* log10 value axis (falls back to linear without a positive value) */
    int width;
    const char *const *cats;    /* category labels, top to bottom */
    int ncats;
    const gp_bar_group *groups;
    int ngroups;
} gp_bars;

gp_status gp_svg_bars(FILE *f, const gp_bars *b);

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
