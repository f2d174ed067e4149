/* The fleet report's strip plot of one characteristic (fleet_plot.c). */
#ifndef GP_FLEET_PLOT_H
#define GP_FLEET_PLOT_H

#include <stdio.h>

#include "fleet.h"

typedef struct gp_fleet_strip {
    const gp_fleet *fl;
    int c; /* index into fl->chars */
} gp_fleet_strip;

/* One <svg>: a class="pt" circle per GPU with the value (class "pt out" and
 * a class="label" text naming the GPU for an outlier), the median line and
 * the threshold's band.  A gp_doc_figure_begin draw callback. */
gp_status gp_fleet_strip_svg(FILE *f, const void *arg);

#endif
