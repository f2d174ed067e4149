/* The hardware characterization report: every probe record (<probe>.json
 * plus its series CSVs) in a results directory, gathered into one Markdown
 * file and one self-contained HTML file with SVG plots. */
#ifndef GP_REPORT_H
#define GP_REPORT_H

#include "gp_status.h"

/* Read every *.json record in results_dir and write, in out_dir (created if
 * needed; may be results_dir itself), each atomically:
 *   report.html            inline CSS and <svg> plots, no external resources
 *   report.md              the same sections, plots as image links to
 *   <probe>_<series>.svg   one plot per series
 *   roofline.svg           the roofline (the Markdown links it)
 * Sections: the datasheet (headline figures), the roofline (measured
 * ceilings, bench_*.csv rows as points), device, clocks, summary of every
 * value, unstable or undetected results, one section per probe (findings
 * and annotated plots), and the tuning table (table.txt in out_dir, else in
 * results_dir) verbatim.
 * Every record is read and checked first (pipeline/records.h), then every
 * file is written into one output set (fsutil.h gp_fs_set): all in place,
 * or none and the folder as it was.
 * Errors: GP_ERR_USAGE when results_dir holds no record, a record is not
 * valid JSON (the message names the file, line and column) or fails its
 * checks, or a series CSV is there but does not read as one; a missing
 * series CSV is a note in the report, not an error. */
gp_status gp_report_write(const char *results_dir, const char *out_dir);

/* The same with options.  The report opens with a datasheet and a roofline
 * (ceilings from the records, points from results_dir's bench_*.csv); with
 * `against`, a second results folder (another GPU, or another day) is read
 * like the first and drawn beside it: a column and the ratio in the
 * datasheet and the roofline's ceilings, its series dashed in every plot
 * both folders have.  `tables_dir` (may be NULL) holds the shipped tables:
 * tables_dir/<arch> gives the datasheet's published values.  `command`
 * (may be NULL) is the command line the report names as the way to
 * regenerate it (by default `gpuprobe report` with the folders as a command
 * run from the current folder names them).  `table_text` (may be NULL) is
 * the tuning table this run built: shown in the report and written as
 * out_dir/table.txt in the same output set; without it the report shows
 * the table.txt it finds in out_dir, else in results_dir. */
typedef struct gp_report_opts {
    const char *against;
    const char *tables_dir;
    const char *command;
    const char *table_text;
} gp_report_opts;

gp_status gp_report_write_opts(const char *results_dir, const char *out_dir, const gp_report_opts *opts);

#endif
