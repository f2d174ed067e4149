/* The report's model: the records of a results folder as read back, and how
 * each series is plotted.  Shared by report_load.c (reading),
 * report_plots.c (plot choice and SVG) and report.c (the sections). */
#ifndef GP_REPORT_MODEL_H
#define GP_REPORT_MODEL_H

#include <stdio.h>

#include "csv.h"
#include "doc.h"
#include "fsutil.h"
#include "gp_status.h"
#include "record.h"

#define MAX_LINES 8    /* series in one plot (the palette's colours) */
#define MAX_KEYCOLS 4  /* columns in one split or category list */
#define MAX_CATS 64    /* bars in one chart */
#define MAX_WHERE 8

/* A parsed column list: `col{v=name;...},col` resolved against a series. */
typedef struct key_cols {
    int n;
    int col[MAX_KEYCOLS];
    const char *map[MAX_KEYCOLS]; /* "v=name;v=name" (not terminated: maplen) */
    size_t maplen[MAX_KEYCOLS];
} key_cols;

typedef struct plot_choice {
    int xcol, ycols[MAX_LINES], ny;
    int logx, logy, opts, sort;
    key_cols split, cats;       /* cats: bar charts only */
    int nwhere, wcol[MAX_WHERE];
    double wval[MAX_WHERE];
    char title[200], xlabel[96], ylabel[96];
} plot_choice;

/* ---- the records, as read back ---- */

typedef struct rp_series {
    char name[48], file[160], svg[200];
    gp_series data;              /* data.data NULL when the CSV could not be read */
    char err[GP_STATUS_MSG_LEN]; /* why, when it could not */
    int missing;                 /* the file is not there (said in the report, not an error) */
    plot_choice plot;
} rp_series;

typedef struct rp_probe {
    char file[256];
    gp_record rec;               /* probe, date, device, clock, values, notes */
    rp_series series[GP_RECORD_MAX_SERIES];
    int nseries;
    int dropped;                 /* values/series/notes beyond the record limits */
} rp_probe;

typedef struct report {
    const char *results_dir, *out_dir;
    rp_probe *probes;
    int nprobes;
    char skipped[16][GP_STATUS_MSG_LEN]; /* JSON files that are not records */
    int nskipped;
    char *table;                 /* table.txt, NULL when absent */
    char table_path[1024];
    /* What the pages name: folders by their base name, the table relative to
     * its folder, never a path of the machine that wrote them (committed
     * reports must not carry /home/... or /work/...). */
    char results_name[256], out_name[256], table_name[300];
    /* --against DIR2: the second folder's records, drawn beside these in
     * the datasheet and in every plot both have; NULL without one. */
    struct report *other;
    char label[256];             /* this folder's name in legends: its device ("NVIDIA H200") */
    char cmd[700];               /* the command that regenerates the report */
    const char *tables_dir;      /* shipped tables (published values), or NULL */
    struct gp_datasheet *ds;     /* the first screen, built after loading */
    struct gp_roofline *rl;
    gp_fs_set *set;              /* the output files, written all or nothing */
} report;

/* The first screen (report_head.c): the datasheet and the roofline, built
 * from R's records, bench CSVs and shipped table (and R->other's). */
gp_status rp_head_build(report *R);
void rp_head_free(report *R);
void rp_datasheet_section(gp_doc *d, const report *R);
gp_status rp_roofline_section(gp_doc *d, const report *R, int inline_svg);
/* roofline.svg of the output set (the Markdown report links it). */
gp_status rp_roofline_svg(const report *R);


/* Read every record of R->results_dir (and table.txt) into R. */
gp_status rp_load(report *R);
void rp_free(report *R);

/* How rs is plotted: the first of the probe's own plots (gp_probe.plots)
 * whose columns rs has, else a generic choice. */
void rp_choose_plot(const char *probe, rp_series *rs);
/* The second folder's series of the same probe and name, or NULL. */
const rp_series *rp_other_series(const report *R, const rp_probe *pr, const rp_series *rs);
/* What one plot draws: a series of R, the same series of R->other when
 * there is one, and marks from R's records. */
typedef struct rp_plot_job {
    const report *R;
    const rp_probe *pr;
    const rp_series *rs;
} rp_plot_job;
/* The job's plot as one <svg> element (draw callback of gp_doc_figure_begin). */
gp_status rp_plot_to(FILE *f, const void *job);
/* <name> of the report's output set: an SVG file (XML declaration, then
 * what draw writes), in place only when the whole set is. */
gp_status rp_svg_file(gp_fs_set *set, const char *name, gp_status (*draw)(FILE *f, const void *arg),
                      const void *arg);
/* Each plot as <probe>_<series>.svg of the output set. */
gp_status rp_write_svgs(const report *R);
/* `in` with every character outside [A-Za-z0-9_.-] replaced by '_'. */
void rp_safe_name(char *out, size_t n, const char *in);

#endif
