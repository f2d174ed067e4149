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

#define GP_SERIES_NO_MARKERS 1 /* a line alone (a roof, a model) */
#define GP_SERIES_NO_LINE 2    /* markers alone (points that are no sweep) */
#define GP_SERIES_DASHED 4     /* a dashed line (the second GPU of a comparison) */

typedef struct gp_plot_series {
    const char *label;    /* legend text; NULL or "" for none */
    const double *x, *y;  /* n points; NaN/inf (and <= 0 on a log axis) are skipped */
    size_t n;
    int style;            /* GP_SERIES_* bits; 0: line where x is monotonic, markers */
    int color;            /* 0: by the series' index; k > 0: the palette's colour k - 1 */
} gp_plot_series;

/* An annotation: what was detected, drawn where it lies.  GP_MARK_X: a
 * dashed vertical line at x (a size, a knee) with its text at the top;
 * GP_MARK_Y: a horizontal line at y (a plateau, a ceiling) with its text at
 * the right end; GP_MARK_POINT: text beside the point (x, y). */
typedef enum gp_mark_kind { GP_MARK_X, GP_MARK_Y, GP_MARK_POINT } gp_mark_kind;

typedef struct gp_plot_mark {
    gp_mark_kind kind;
    double x, y;
    const char *text;
} gp_plot_mark;

/* Where a mark's text goes (pixels): its anchor (x, y baseline), its width
 * and whether it is anchored at its end (text left of x). */
typedef struct gp_mark_box {
    double x, y, w;
    int end;
} gp_mark_box;

/* Place n mark texts: each starts at its anchor (ax[i], ay[i]) and must stay
 * inside [left, right] x [top, bottom]: a text that would run past `right`
 * is anchored at its end; a text that would overlap one placed before it is
 * moved down a row (GP_SVG_MARK_ROW px), and up from `bottom` when it runs
 * out of room.  Pure, so tests can check the placement. */
#define GP_SVG_MARK_ROW 14
void gp_svg_place_marks(const double *ax, const double *ay, const char *const *texts, int n, double left,
                        double right, double top, double bottom, gp_mark_box *out);
/* The same, each text also kept clear of the markers at (ox[k], oy[k])
 * (pixels, k < nobs) where a row within three of its anchor's has room,
 * and tried on the other side of its anchor too: ending at flip_x[i] (NAN,
 * or flip_x NULL: no other side).  Where no such place is clear of the
 * markers, clear of the texts alone. */
void gp_svg_place_marks_clear(const double *ax, const double *ay, const double *flip_x, const char *const *texts,
                              int n, double left, double right, double top, double bottom, const double *ox,
                              const double *oy, int nobs, gp_mark_box *out);

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
    /* y values are in `yunit` times `yscale` base units ("B/s" and 1e9 for
     * GB/s data): ticks carry an SI prefix and the unit ("4.5 TB/s");
     * NULL: plain numbers. */
    const char *yunit;
    double yscale;
    const gp_plot_mark *marks; /* annotations, drawn over the data */
    int nmarks;
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

/* v (in base units) with an SI prefix and its unit: "4.5 TB/s", "67 TFLOP/s". */
void gp_svg_format_unit(char *out, size_t n, double v, const char *unit);

/* Write s with &, <, >, " and ' escaped (valid in XML text and attributes). */
void gp_xml_escape(FILE *f, const char *s);

#endif
