#define _POSIX_C_SOURCE 200809L
/* The report's first screen: the datasheet (headline figures, a published
 * value beside each where the shipped table has one, a second GPU's column
 * and the ratio with --against) and the roofline (measured ceilings, the
 * kernels' bench results as points). */
#include "report_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datasheet.h"
#include "fsutil.h"
#include "kernel.h"
#include "roofline.h"
#include "svg.h"
#include "table.h"

/* ---- building ---- */

/* The kernel registry's work models, for the roofline's points. */
static gp_status registry_work(const char *kernel, const char *problem, double *bytes, double *flops, char *method,
                               size_t n)
{
    const gp_kernel *k = gp_kernel_find(kernel);
    if (!k)
        return gp_fail(GP_ERR_USAGE, "%s: no such kernel in this build (no work model for '%s')", kernel, problem);
    gp_kernel_work w;
    GP_TRY(gp_kernel_work_of_label(k, problem, &w));
    *bytes = w.bytes;
    *flops = w.flops;
    snprintf(method, n, "%s", w.method);
    return gp_ok();
}

/* The vendor's figures for this product (specs/, beside the shipped
 * tables), against the datasheet's rows; a spec file that does not parse is
 * said in the report, not fatal. */
static void judge(report *R)
{
    gp_spec spec;
    int found = 0;
    const char *name = R->probes[0].rec.dev.name;
    gp_status st = gp_spec_find_beside(R->tables_dir, name, &spec, &found);
    gp_datasheet_judge(R->ds, found ? &spec : NULL);
    if (st.code != GP_OK)
        snprintf(R->ds->spec_why, sizeof R->ds->spec_why, "the specs folder has a bad file: %.160s", st.msg);
    else if (!found)
        snprintf(R->ds->spec_why, sizeof R->ds->spec_why, "no file in specs/ matches the device name '%.100s'", name);
}

gp_status rp_head_build(report *R)
{
    const gp_record **recs = calloc((size_t)R->nprobes + 1, sizeof *recs);
    R->ds = calloc(1, sizeof *R->ds);
    R->rl = calloc(1, sizeof *R->rl);
    gp_table *shipped = NULL;
    if (!recs || !R->ds || !R->rl) {
        free(recs);
        return gp_fail(GP_ERR_NOMEM, "out of host memory building the datasheet");
    }
    for (int i = 0; i < R->nprobes; i++)
        recs[i] = &R->probes[i].rec;
    const char *arch = R->probes[0].rec.dev.arch;
    if (R->tables_dir && arch[0] && (shipped = malloc(sizeof *shipped)) != NULL) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", R->tables_dir, arch);
        /* No shipped table for this architecture only leaves the published column empty. */
        if (!gp_fs_exists(path) || gp_table_load_arch(path, arch, shipped).code != GP_OK) {
            free(shipped);
            shipped = NULL;
        }
    }
    gp_datasheet_build(recs, R->nprobes, shipped, R->ds);
    free(shipped);
    judge(R);
    gp_roofline_ceilings(recs, R->nprobes, R->rl);
    free(recs);
    gp_status st = gp_roofline_points(R->results_dir, registry_work, R->rl);
    if (st.code == GP_OK && R->other)
        st = rp_head_build(R->other);
    return st;
}

void rp_head_free(report *R)
{
    free(R->ds);
    free(R->rl);
    R->ds = NULL;
    R->rl = NULL;
}

/* ---- the datasheet ---- */

static void probe_link(gp_doc *d, const char *probe, const char *text)
{
    char id[64], href[96];
    rp_safe_name(id, sizeof id, probe);
    snprintf(href, sizeof href, "#probe-%s", id);
    gp_doc_link(d, href, text);
}

static int has_probe(const report *R, const char *probe)
{
    for (int i = 0; i < R->nprobes; i++)
        if (!strcmp(R->probes[i].rec.probe, probe))
            return 1;
    return 0;
}

static void value_cell(gp_doc *d, const gp_ds_row *row)
{
    gp_doc_cell_begin(d, "dsv", 1);
    if (row->missing)
        gp_doc_span(d, GP_DOC_WARN, row->value);
    else
        gp_doc_text(d, row->value);
    gp_doc_cell_end(d);
}

void rp_datasheet_section(gp_doc *d, const report *R)
{
    const report *O = R->other;
    const gp_datasheet *ds = R->ds, *os = O ? O->ds : NULL;
    int pub = 0;
    for (int i = 0; i < ds->nrows; i++)
        pub |= ds->rows[i].published[0] != 0;
    gp_doc_heading(d, 2, "datasheet", "Datasheet");
    gp_doc_para_begin(d, NULL);
    gp_doc_textf(d, "The headline figures of %s, each from its probe's record (the name links to the probe's "
                    "section, with its method and plots).",
                 R->probes[0].rec.dev.name);
    if (O)
        gp_doc_textf(d, " Beside them %s (%s) and the ratio %s / %s.", O->label, O->results_name, R->label, O->label);
    if (pub)
        gp_doc_textf(d, " Published: the value the shipped table (tables/%s) gives from a published source, and that "
                        "source.",
                     R->probes[0].rec.dev.arch);
    else
        gp_doc_textf(d, " The shipped table of %s has no published value for these figures.",
                     R->probes[0].rec.dev.arch);
    if (ds->spec_name[0])
        gp_doc_textf(d, " Vendor: the figure %s publishes for the %s (specs/%s, each with its source), measured / "
                        "vendor, the band a healthy part reaches and the verdict: within, low or high.",
                     strncmp(ds->spec_name, "AMD", 3) ? "NVIDIA" : "AMD", ds->spec_name, ds->spec_file);
    else
        gp_doc_textf(d, " No vendor figures: %s.", ds->spec_why);
    gp_doc_para_end(d);
    const char *heads[7];
    int nc = 0;
    heads[nc++] = "figure";
    heads[nc++] = O ? R->label : "measured";
    if (O) {
        heads[nc++] = O->label;
        heads[nc++] = "ratio";
    }
    heads[nc++] = "published (shipped table)";
    if (ds->spec_name[0]) {
        heads[nc++] = "vendor";
        heads[nc++] = "measured / vendor (band): verdict";
    }
    gp_doc_table_begin(d, nc, heads);
    const char *group = "";
    for (int i = 0; i < ds->nrows; i++) {
        const gp_ds_row *row = &ds->rows[i];
        if (strcmp(group, row->group)) {
            group = row->group;
            gp_doc_row_begin(d);
            gp_doc_cell_begin(d, "th", nc);
            gp_doc_text(d, group);
            gp_doc_cell_end(d);
            gp_doc_row_end(d);
        }
        gp_doc_row_begin(d);
        gp_doc_cell_begin(d, "dsl", 1);
        if (has_probe(R, row->probe))
            probe_link(d, row->probe, row->label);
        else
            gp_doc_text(d, row->label);
        gp_doc_cell_end(d);
        value_cell(d, row);
        if (O) {
            /* Rows are built from one list, so row i is the same figure on both sides. */
            const gp_ds_row *orow = i < os->nrows ? &os->rows[i] : NULL;
            if (orow)
                value_cell(d, orow);
            else
                gp_doc_cell(d, NULL, GP_DOC_PLAIN, "\xe2\x80\x94");
            char ratio[32] = "\xe2\x80\x94";
            if (orow && isfinite(row->num) && isfinite(orow->num) && orow->num != 0)
                snprintf(ratio, sizeof ratio, "%.2fx", row->num / orow->num);
            gp_doc_cell(d, "num", GP_DOC_PLAIN, ratio);
        }
        gp_doc_cell(d, "method", GP_DOC_PLAIN, row->published[0] ? row->published : "\xe2\x80\x94");
        if (ds->spec_name[0]) {
            gp_doc_cell(d, "method", GP_DOC_PLAIN, row->vendor[0] ? row->vendor : "\xe2\x80\x94");
            char j[96] = "\xe2\x80\x94";
            if (row->verdict && isfinite(row->fraction))
                snprintf(j, sizeof j, "%.3f (%s): %s", row->fraction, row->band, row->verdict);
            else if (row->verdict)
                snprintf(j, sizeof j, "%s", row->verdict);
            gp_doc_cell(d, "num", GP_DOC_PLAIN, j);
        }
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

/* ---- the roofline ---- */

#define RL_MAX_SERIES 32
#define RL_MAX_MARKS 96

typedef struct rl_plot {
    gp_plot plot;
    gp_plot_series ps[RL_MAX_SERIES];
    double xy[RL_MAX_SERIES][2][GP_RL_MAX_POINTS];
    char names[RL_MAX_SERIES][96];
    gp_plot_mark marks[RL_MAX_MARKS];
    char mark_text[RL_MAX_MARKS][96];
} rl_plot;

static double top_compute(const gp_roofline *rl)
{
    double c = NAN;
    for (int i = 0; i < rl->nceil; i++)
        if (rl->ceil[i].kind == GP_RL_COMPUTE && isfinite(rl->ceil[i].value))
            c = isnan(c) ? rl->ceil[i].value : fmax(c, rl->ceil[i].value);
    return c;
}

static void add_mark(rl_plot *p, gp_mark_kind kind, double x, double y, const char *text)
{
    if (p->plot.nmarks >= RL_MAX_MARKS)
        return;
    int i = p->plot.nmarks++;
    p->marks[i] = (gp_plot_mark){kind, x, y, p->mark_text[i]};
    snprintf(p->mark_text[i], sizeof p->mark_text[i], "%s", text);
}

static double top_bandwidth(const gp_roofline *rl)
{
    double b = NAN;
    for (int i = 0; i < rl->nceil; i++)
        if (rl->ceil[i].kind == GP_RL_BANDWIDTH && isfinite(rl->ceil[i].value))
            b = isnan(b) ? rl->ceil[i].value : fmax(b, rl->ceil[i].value);
    return b;
}

/* The roofs of one GPU, each clipped where the roof turns: a bandwidth line
 * y = B / x starts where it meets this GPU's highest compute ceiling, and a
 * compute ceiling ends where it meets this GPU's highest bandwidth line
 * (beyond, no kernel reaches it).  Each is named on the plot: a flat one
 * right of where it ends, above the bandwidth lines falling away there (no
 * kernel sits in that corner; the compute-bound ones crowd the left), a
 * slanted one low on the right where they have parted. */
static void add_roofs(rl_plot *p, const gp_roofline *rl, double x0, double x1, int dashed, const char *prefix)
{
    double cmax = top_compute(rl), bmax = top_bandwidth(rl);
    for (int i = 0; i < rl->nceil && p->plot.nseries < RL_MAX_SERIES; i++) {
        const gp_rl_ceiling *c = &rl->ceil[i];
        if (!isfinite(c->value))
            continue;
        int s = p->plot.nseries++;
        double *x = p->xy[s][0], *y = p->xy[s][1];
        char v[48], t[96];
        if (c->kind == GP_RL_COMPUTE) {
            x[0] = x0;
            x[1] = isfinite(bmax) ? fmin(x1, fmax(x0, bmax / c->value)) : x1;
            y[0] = y[1] = c->value;
            gp_svg_format_unit(v, sizeof v, c->value, "FLOP/s");
        } else {
            x[0] = isfinite(cmax) ? fmin(x1, fmax(x0, c->value / cmax)) : x0;
            x[1] = x1;
            y[0] = c->value / x[0], y[1] = c->value / x[1];
            gp_svg_format_unit(v, sizeof v, c->value, "B/s");
        }
        p->ps[s] = (gp_plot_series){NULL, x, y, 2, GP_SERIES_NO_MARKERS | (dashed ? GP_SERIES_DASHED : 0), 7};
        snprintf(t, sizeof t, "%s%s %s", prefix, c->name, v);
        if (c->kind == GP_RL_COMPUTE) {
            add_mark(p, GP_MARK_POINT, x[1], c->value, t);
        } else {
            double at = x[0] * pow(x1 / x[0], 0.6);
            add_mark(p, GP_MARK_POINT, at, c->value / at, t);
        }
    }
}

/* One series of points per kernel (its colour), numbered as in the table. */
static void add_points(rl_plot *p, const gp_roofline *rl, const char *who, const char *prefix)
{
    for (int i = 0; i < rl->npts; i++) {
        const gp_rl_point *pt = &rl->pts[i];
        if (!(pt->flops > 0) || !(pt->bytes > 0))
            continue;
        int s = 0;
        char name[96];
        snprintf(name, sizeof name, "%s%s", pt->kernel, who);
        while (s < p->plot.nseries && (!p->ps[s].label || strcmp(p->ps[s].label, name)))
            s++;
        if (s == p->plot.nseries) {
            if (s >= RL_MAX_SERIES)
                continue;
            p->plot.nseries++;
            snprintf(p->names[s], sizeof p->names[s], "%s", name);
            int colour = 1;
            for (int k = 0; k < (int)gp_kernel_count(); k++)
                if (!strcmp(gp_kernel_at((size_t)k)->name, pt->kernel))
                    colour = k + 1;
            p->ps[s] = (gp_plot_series){p->names[s], p->xy[s][0], p->xy[s][1], 0, GP_SERIES_NO_LINE, colour};
        }
        gp_plot_series *ps = &p->ps[s];
        p->xy[s][0][ps->n] = pt->bytes / pt->flops;
        p->xy[s][1][ps->n] = pt->flops_per_s;
        ps->n++;
        char num[16];
        snprintf(num, sizeof num, "%s%d", prefix, i + 1);
        add_mark(p, GP_MARK_POINT, pt->bytes / pt->flops, pt->flops_per_s, num);
    }
}

static void x_range(const gp_roofline *rl, double *x0, double *x1)
{
    double cmax = top_compute(rl);
    for (int i = 0; i < rl->nceil; i++)
        if (rl->ceil[i].kind == GP_RL_BANDWIDTH && isfinite(rl->ceil[i].value) && isfinite(cmax)) {
            double ridge = rl->ceil[i].value / cmax;
            *x0 = fmin(*x0, ridge / 30);
            *x1 = fmax(*x1, ridge * 100);
        }
    for (int i = 0; i < rl->npts; i++)
        if (rl->pts[i].flops > 0 && rl->pts[i].bytes > 0) {
            *x0 = fmin(*x0, rl->pts[i].bytes / rl->pts[i].flops / 2);
            *x1 = fmax(*x1, rl->pts[i].bytes / rl->pts[i].flops * 2);
        }
}

static gp_status draw_roofline(FILE *f, const void *arg)
{
    const report *R = arg;
    rl_plot *p = calloc(1, sizeof *p);
    if (!p)
        return gp_fail(GP_ERR_NOMEM, "out of host memory drawing the roofline");
    const gp_roofline *a = R->rl, *b = R->other ? R->other->rl : NULL;
    double x0 = INFINITY, x1 = -INFINITY;
    x_range(a, &x0, &x1);
    if (b)
        x_range(b, &x0, &x1);
    char who[80] = "", bwho[80] = "";
    if (b) {
        snprintf(who, sizeof who, " (%.60s)", R->label);
        snprintf(bwho, sizeof bwho, " (%.60s)", R->other->label);
    }
    p->plot.series = p->ps;
    p->plot.marks = p->marks;
    /* The points' numbers are placed first, beside their points; the
     * roofs' names then find room around them. */
    add_points(p, a, who, "");
    if (b)
        add_points(p, b, bwho, "b");
    if (isfinite(x0) && isfinite(x1)) {
        /* the second GPU's roofs named as its points are numbered: b */
        add_roofs(p, a, x0, x1, 0, "");
        if (b)
            add_roofs(p, b, x0, x1, 1, "b: ");
    }
    char title[200];
    if (b)
        snprintf(title, sizeof title, "Roofline: %.60s (solid) and %.60s (dashed, b)", R->label, R->other->label);
    else
        snprintf(title, sizeof title, "Roofline of %.60s: measured ceilings, kernels' bench results", R->label);
    p->plot.title = title;
    p->plot.xlabel = "bytes per FLOP (DRAM bytes / FLOPs, kernel's floor model)";
    p->plot.ylabel = "achieved (FLOP/s)";
    p->plot.logx = p->plot.logy = 1;
    p->plot.yunit = "FLOP/s";
    p->plot.yscale = 1;
    p->plot.height = 460;
    p->plot.width = 760;
    gp_status st = gp_svg_plot(f, &p->plot);
    free(p);
    return st;
}

gp_status rp_roofline_svg(const report *R)
{
    return rp_svg_file(R->set, "roofline.svg", draw_roofline, R);
}

static void ceilings_table(gp_doc *d, const report *R)
{
    const report *O = R->other;
    const char *heads[] = {"ceiling", O ? R->label : "measured", O ? O->label : "method",
                           O ? "ratio" : NULL, O ? "method" : NULL};
    int nc = O ? 5 : 3;
    gp_doc_table_begin(d, nc, heads);
    for (int i = 0; i < R->rl->nceil; i++) {
        const gp_rl_ceiling *c = &R->rl->ceil[i], *oc = O ? &O->rl->ceil[i] : NULL;
        const char *unit = c->kind == GP_RL_COMPUTE ? "FLOP/s" : "B/s";
        char v[48] = "not measured", ov[48] = "not measured", ratio[32] = "\xe2\x80\x94";
        if (isfinite(c->value))
            gp_svg_format_unit(v, sizeof v, c->value, unit);
        if (oc && isfinite(oc->value))
            gp_svg_format_unit(ov, sizeof ov, oc->value, unit);
        if (oc && isfinite(c->value) && isfinite(oc->value))
            snprintf(ratio, sizeof ratio, "%.2fx", c->value / oc->value);
        gp_doc_row_begin(d);
        gp_doc_cell_begin(d, NULL, 1);
        if (has_probe(R, c->probe))
            probe_link(d, c->probe, c->name);
        else
            gp_doc_text(d, c->name);
        gp_doc_cell_end(d);
        gp_doc_cell(d, isfinite(c->value) ? "num" : NULL, isfinite(c->value) ? GP_DOC_PLAIN : GP_DOC_WARN, v);
        if (O) {
            gp_doc_cell(d, isfinite(oc->value) ? "num" : NULL, isfinite(oc->value) ? GP_DOC_PLAIN : GP_DOC_WARN, ov);
            gp_doc_cell(d, "num", GP_DOC_PLAIN, ratio);
        }
        gp_doc_cell(d, "method", GP_DOC_PLAIN, c->method);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

static void points_table(gp_doc *d, const report *R, const gp_roofline *rl, const char *who, const char *prefix)
{
    if (rl->nfiles == 0) {
        gp_doc_para_begin(d, NULL);
        gp_doc_span(d, GP_DOC_WARN, "No bench results in this folder");
        gp_doc_textf(d, " (%s: no bench_*.csv; `gpuprobe bench KERNEL... --out DIR` writes DIR/bench_<kernels>.csv), "
                        "so %s has no kernel points: the roofline shows its ceilings alone.",
                     who, who);
        gp_doc_para_end(d);
        return;
    }
    gp_doc_para_begin(d, NULL);
    gp_doc_textf(d, "%s: points from ", who);
    for (int i = 0; i < rl->nfiles; i++) {
        gp_doc_text(d, i ? ", " : "");
        gp_doc_span(d, GP_DOC_CODE, rl->files[i]);
    }
    gp_doc_text(d, ": per kernel and problem the row timed as `gpuprobe` (the table's own parameters; tuning "
                   "variants and vendor baselines left out), under the table named in the row. A point's roof is "
                   "min(fp32 FMA, DRAM / x); a kernel without FLOPs in its model is placed by its bandwidth against "
                   "DRAM.");
    gp_doc_para_end(d);
    static const char *const heads[] = {"#", "kernel", "problem", "table", "median", "bytes/FLOP", "achieved",
                                        "roof", "of roof", "work model"};
    gp_doc_table_begin(d, 10, heads);
    int far = 0;
    for (int i = 0; i < rl->npts; i++) {
        const gp_rl_point *p = &rl->pts[i];
        char num[16], ms[32], x[32], got[48], roof[48], frac[32];
        snprintf(num, sizeof num, "%s%d", prefix, i + 1);
        snprintf(ms, sizeof ms, "%.4g ms", p->ms);
        if (p->flops > 0) {
            snprintf(x, sizeof x, "%.3g", p->bytes / p->flops);
            gp_svg_format_unit(got, sizeof got, p->flops_per_s, "FLOP/s");
            if (isfinite(p->roof))
                gp_svg_format_unit(roof, sizeof roof, p->roof, "FLOP/s");
            else
                snprintf(roof, sizeof roof, "not measured");
        } else {
            snprintf(x, sizeof x, "no FLOPs");
            gp_svg_format_unit(got, sizeof got, p->bytes_per_s, "B/s");
            if (isfinite(p->roof))
                gp_svg_format_unit(roof, sizeof roof, p->roof, "B/s");
            else
                snprintf(roof, sizeof roof, "not measured");
        }
        if (isfinite(p->fraction))
            snprintf(frac, sizeof frac, "%.0f%% (%s)", 100 * p->fraction, p->roof_name);
        else
            snprintf(frac, sizeof frac, "\xe2\x80\x94");
        gp_doc_row_begin(d);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, num);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, p->kernel);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, p->problem);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, p->table);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, ms);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, x);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, got);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, roof);
        int below = isfinite(p->fraction) && p->fraction < GP_RL_FAR_BELOW;
        far += below;
        gp_doc_cell(d, "num", below ? GP_DOC_BAD : GP_DOC_PLAIN, frac);
        gp_doc_cell(d, "method", GP_DOC_PLAIN, p->method);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
    if (far) {
        gp_doc_para_begin(d, NULL);
        gp_doc_span(d, GP_DOC_BAD, "Far below the roof");
        gp_doc_textf(d, " (under %.0f%% of it):", 100 * GP_RL_FAR_BELOW);
        gp_doc_para_end(d);
        gp_doc_list_begin(d);
        for (int i = 0; i < rl->npts; i++) {
            const gp_rl_point *p = &rl->pts[i];
            if (!(isfinite(p->fraction) && p->fraction < GP_RL_FAR_BELOW))
                continue;
            gp_doc_item_begin(d, NULL);
            gp_doc_textf(d, "#%s%d %s %s: %.0f%% of its %s roof (%.4g ms against %.4g ms at the roof)", prefix, i + 1,
                         p->kernel, p->problem, 100 * p->fraction, p->roof_name, p->ms, p->ms * p->fraction);
            gp_doc_item_end(d);
        }
        gp_doc_list_end(d);
    } else if (rl->npts) {
        gp_doc_para(d, "ok", "Every point is within half of its roof.");
    }
    for (int i = 0; i < rl->nskipped; i++) {
        gp_doc_para_begin(d, "warn");
        gp_doc_text(d, "Left out: ");
        gp_doc_text(d, rl->skipped[i]);
        gp_doc_para_end(d);
    }
    if (rl->dropped)
        gp_doc_textf(d, "%d more rows beyond the roofline's limit of %d points were left out.", rl->dropped,
                     GP_RL_MAX_POINTS);
    (void)R;
}

gp_status rp_roofline_section(gp_doc *d, const report *R, int inline_svg)
{
    gp_doc_heading(d, 2, "roofline", "Roofline");
    gp_doc_para(d, NULL,
                "The ceilings this GPU was measured to reach, and where the application kernels' bench results sit "
                "under them. x: bytes per FLOP, the DRAM bytes over the FLOPs of each kernel's own floor model (the "
                "reciprocal of arithmetic intensity: right is memory-bound); y: FLOP/s achieved (FLOPs / median "
                "time). A compute ceiling is flat, a bandwidth ceiling B is the line B / x; numbers on the plot are "
                "the rows of the table below.");
    ceilings_table(d, R);
    GP_TRY(gp_doc_figure_begin(d, "roofline.svg", "Roofline", inline_svg ? draw_roofline : NULL, R));
    gp_doc_text(d, R->other ? "Solid: " : "Ceilings from the records; points from the bench CSVs below.");
    if (R->other)
        gp_doc_textf(d, "%s; dashed roofs (named b:) and points b1, b2, ...: %s.", R->label, R->other->label);
    gp_doc_figure_end(d);
    points_table(d, R, R->rl, R->label, "");
    if (R->other)
        points_table(d, R, R->other->rl, R->other->label, "b");
    return gp_ok();
}
