#define _POSIX_C_SOURCE 200809L
/* The report's sections, walked once through the document writer (doc.h):
 * the same walk writes report.html (plots inline) and report.md (plots as
 * links to the SVG files).  Reading is in report_load.c, plots in
 * report_plots.c. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "fsutil.h"
#include "record.h"
#include "report_model.h"
#include "table.h"

/* ---- shared formatting ---- */

static void fmt_num(char *out, size_t n, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(out, n, fmt, v);
    else
        snprintf(out, n, "\xe2\x80\x94"); /* em dash */
}

static void fmt_spread(char *out, size_t n, const gp_value *v)
{
    if (v->detected && v->spread >= 0)
        snprintf(out, n, "%.2f%%", 100 * v->spread);
    else
        snprintf(out, n, "\xe2\x80\x94");
}

static int needs_attention(const gp_value *v)
{
    return !v->detected || v->unstable;
}

static void probe_id(char *out, size_t n, const char *probe)
{
    char id[64];
    rp_safe_name(id, sizeof id, probe);
    snprintf(out, n, "probe-%s", id);
}

static const char css[] =
    "body{font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;background:#fff;max-width:1100px;"
    "margin:24px auto;padding:0 20px;line-height:1.45;font-size:15px}"
    "h1{font-size:26px;border-bottom:2px solid #0072B2;padding-bottom:6px}"
    "h2{font-size:21px;margin-top:34px;border-bottom:1px solid #ccc;padding-bottom:4px}"
    "h3{font-size:18px;margin-top:26px}"
    "table{border-collapse:collapse;margin:10px 0;font-size:13.5px}"
    "th,td{border:1px solid #d0d0d0;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f0f3f7}"
    "tr:nth-child(even) td{background:#fafafa}"
    "td.num{text-align:right;font-family:Menlo,Consolas,monospace;white-space:nowrap}"
    "td.method{color:#444;font-size:12.5px}"
    "code{font-family:Menlo,Consolas,monospace;font-size:90%}"
    ".bad{color:#b00020;font-weight:bold}.warn{color:#9a5b00;font-weight:bold}.ok{color:#1b7a3a}"
    "pre{background:#f6f8fa;border:1px solid #ddd;padding:10px;overflow-x:auto;font-size:12.5px}"
    "figure{margin:14px 0;display:inline-block}"
    "svg{max-width:100%;height:auto;border:1px solid #e4e4e4}"
    "nav a{margin-right:14px}.meta{color:#555}"
    /* The datasheet fits one screen: values wrap, labels do not. */
    "td.dsv{text-align:right}td.dsl{white-space:nowrap}";

/* ---- sections ---- */

/* The `gpuprobe --version` line a record carries; older records have only
 * the version number. */
static const char *measured_by(const gp_record *r, char *buf, size_t n)
{
    if (r->build[0])
        return r->build;
    snprintf(buf, n, "gpuprobe %s (an older record: no build line)", r->version[0] ? r->version : "?");
    return buf;
}

/* The first record whose build differs from the first record's, or NULL. */
static const gp_record *other_build(const report *R)
{
    for (int i = 1; i < R->nprobes; i++)
        if (strcmp(R->probes[i].rec.build, R->probes[0].rec.build) ||
            strcmp(R->probes[i].rec.version, R->probes[0].rec.version))
            return &R->probes[i].rec;
    return NULL;
}

static void device_section(gp_doc *d, const report *R)
{
    const gp_record *r = &R->probes[0].rec;
    char clk[32];
    fmt_num(clk, sizeof clk, r->dev.core_clock_mhz, "%.0f MHz");
    gp_doc_heading(d, 2, "device", "Device");
    gp_doc_table_begin(d, 2, NULL);
    const char *names[] = {"name", "vendor", "architecture", "compute units", "wave size", "reported clock",
                           "measured", "measured by"};
    char cu[16], ws[16];
    snprintf(cu, sizeof cu, "%d", r->dev.compute_units);
    snprintf(ws, sizeof ws, "%d", r->dev.wave_size);
    char by[320];
    const char *vals[] = {r->dev.name, r->dev.vendor, r->dev.arch, cu, ws, clk, r->date,
                          measured_by(r, by, sizeof by)};
    for (int i = 0; i < 8; i++) {
        gp_doc_row_begin(d);
        gp_doc_cell(d, "th", GP_DOC_PLAIN, names[i]);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, vals[i]);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
    const gp_record *ob = other_build(R);
    if (ob) {
        gp_doc_para_begin(d, NULL);
        gp_doc_span(d, GP_DOC_BAD, "Records from more than one build:");
        gp_doc_textf(d, " %s was measured by %s.", ob->probe, measured_by(ob, by, sizeof by));
        gp_doc_para_end(d);
    }
    for (int i = 1; i < R->nprobes; i++) {
        const gp_record *o = &R->probes[i].rec;
        if (strcmp(o->dev.name, r->dev.name) || strcmp(o->dev.arch, r->dev.arch)) {
            gp_doc_para_begin(d, NULL);
            gp_doc_span(d, GP_DOC_BAD, "Records from more than one device:");
            gp_doc_textf(d, " %s ran on %s (%s).", o->probe, o->dev.name, o->dev.arch);
            gp_doc_para_end(d);
        }
    }
}

static void clock_cell(gp_doc *d, const gp_clock_reading *c)
{
    char a[32], b[32], m[32], t[120];
    fmt_num(a, sizeof a, c->measured_mhz, "%.0f");
    fmt_num(b, sizeof b, c->measured_min_mhz, "%.0f");
    fmt_num(m, sizeof m, c->measured_max_mhz, "%.0f");
    if (c->measured_min_mhz > 0 && c->measured_max_mhz > 0)
        snprintf(t, sizeof t, "%s (%s\xe2\x80\x93%s)", a, b, m);
    else
        snprintf(t, sizeof t, "%s", a);
    gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
}

static void clocks_section(gp_doc *d, const report *R)
{
    static const char *const heads[] = {"probe", "measured before (MHz)", "measured after (MHz)",
                                        "reported before (MHz)", "reported after (MHz)", "timer/event", "moved"};
    gp_doc_heading(d, 2, "clocks", "Clocks");
    gp_doc_para(d, NULL,
                "Core clock measured in a kernel (cycle counter against the constant-rate timer; median over CUs, "
                "range in brackets), and the vendor-reported clock, before and after each probe. All cycle "
                "figures use the measured clock.");
    gp_doc_table_begin(d, 7, heads);
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->probe);
        if (!r->have_clock) {
            gp_doc_cell_begin(d, NULL, 6);
            gp_doc_text(d, "not measured");
            gp_doc_cell_end(d);
            gp_doc_row_end(d);
            continue;
        }
        clock_cell(d, &r->clock_before);
        clock_cell(d, &r->clock_after);
        char a[48], b[48], t[48];
        fmt_num(a, sizeof a, r->clock_before.smi.sm_clock_mhz, "%.0f");
        fmt_num(b, sizeof b, r->clock_after.smi.sm_clock_mhz, "%.0f");
        fmt_num(t, sizeof t, r->clock_after.timer_vs_event, "%.3f");
        int suspect = r->clock_before.timer_suspect || r->clock_after.timer_suspect;
        gp_doc_cell(d, "num", GP_DOC_PLAIN, a);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, b);
        gp_doc_cell_begin(d, "num", 1);
        gp_doc_text(d, t);
        if (suspect) {
            gp_doc_text(d, " ");
            gp_doc_span(d, GP_DOC_BAD, "(suspect)");
        }
        gp_doc_cell_end(d);
        gp_doc_cell(d, NULL, r->clock_moved ? GP_DOC_BAD : GP_DOC_PLAIN, r->clock_moved ? "yes" : "no");
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

static void value_row(gp_doc *d, const char *probe, const gp_value *v)
{
    char val[48], spr[32], id[80];
    fmt_num(val, sizeof val, v->detected ? v->value : NAN, "%.6g");
    fmt_spread(spr, sizeof spr, v);
    probe_id(id, sizeof id, probe);
    gp_doc_row_begin(d);
    gp_doc_cell_begin(d, NULL, 1);
    char href[96];
    snprintf(href, sizeof href, "#%s", id);
    gp_doc_link(d, href, probe);
    gp_doc_cell_end(d);
    gp_doc_cell(d, NULL, GP_DOC_CODE, v->key);
    if (v->detected)
        gp_doc_cell(d, "num", GP_DOC_PLAIN, val);
    else
        gp_doc_cell(d, NULL, GP_DOC_BAD, "not detected");
    gp_doc_cell(d, NULL, GP_DOC_PLAIN, v->unit);
    gp_doc_cell_begin(d, "num", 1);
    gp_doc_text(d, spr);
    if (v->unstable) {
        gp_doc_text(d, " ");
        gp_doc_span(d, GP_DOC_WARN, "unstable");
    }
    gp_doc_cell_end(d);
    gp_doc_cell_begin(d, "method", 1);
    gp_doc_text(d, v->method);
    if (v->note[0]) {
        if (v->method[0])
            gp_doc_break(d);
        gp_doc_span(d, GP_DOC_EM, v->note);
    }
    gp_doc_cell_end(d);
    gp_doc_row_end(d);
}

static void summary_section(gp_doc *d, const report *R)
{
    static const char *const heads[] = {"probe", "key", "value", "unit", "spread", "method"};
    gp_doc_heading(d, 2, "summary", "Summary");
    gp_doc_para(d, NULL,
                "Every characteristic the probes recorded. Spread is (p90\xe2\x88\x92p10)/median of the samples "
                "behind a value.");
    gp_doc_table_begin(d, 6, heads);
    for (int i = 0; i < R->nprobes; i++)
        for (int k = 0; k < R->probes[i].rec.nvalues; k++)
            value_row(d, R->probes[i].rec.probe, &R->probes[i].rec.values[k]);
    gp_doc_table_end(d);
}

static void attention_section(gp_doc *d, const report *R)
{
    gp_doc_heading(d, 2, "attention", "Unstable or undetected results");
    int n = 0;
    for (int i = 0; i < R->nprobes; i++) {
        const rp_probe *pr = &R->probes[i];
        for (int k = 0; k < pr->rec.nvalues; k++)
            n += needs_attention(&pr->rec.values[k]);
        n += pr->rec.clock_moved;
        for (int s = 0; s < pr->nseries; s++)
            n += pr->series[s].err[0] != 0;
    }
    n += R->nskipped;
    if (n == 0) {
        gp_doc_para_begin(d, NULL);
        gp_doc_span(d, GP_DOC_OK, "None: every value was detected with a stable spread, no clock moved and every "
                                  "series was read.");
        gp_doc_para_end(d);
        return;
    }
    gp_doc_list_begin(d);
    for (int i = 0; i < R->nprobes; i++) {
        const rp_probe *pr = &R->probes[i];
        for (int k = 0; k < pr->rec.nvalues; k++) {
            const gp_value *v = &pr->rec.values[k];
            if (!needs_attention(v))
                continue;
            gp_doc_item_begin(d, NULL);
            gp_doc_span(d, GP_DOC_STRONG, pr->rec.probe);
            gp_doc_text(d, " ");
            gp_doc_span(d, GP_DOC_CODE, v->key);
            gp_doc_text(d, ": ");
            if (!v->detected) {
                gp_doc_span(d, GP_DOC_BAD, "not detected");
                if (v->note[0]) {
                    gp_doc_text(d, " \xe2\x80\x94 ");
                    gp_doc_text(d, v->note);
                }
            } else {
                char spr[32];
                fmt_spread(spr, sizeof spr, v);
                gp_doc_span(d, GP_DOC_WARN, "unstable");
                gp_doc_textf(d, ", %.6g %s with spread %s", v->value, v->unit, spr);
            }
            gp_doc_item_end(d);
        }
        if (pr->rec.clock_moved) {
            gp_doc_item_begin(d, NULL);
            gp_doc_span(d, GP_DOC_STRONG, pr->rec.probe);
            gp_doc_text(d, ": ");
            gp_doc_span(d, GP_DOC_BAD, "the clock moved during the probe");
            gp_doc_textf(d, " (%.0f \xe2\x86\x92 %.0f MHz measured); its cycle figures are uncertain.",
                         pr->rec.clock_before.measured_mhz, pr->rec.clock_after.measured_mhz);
            gp_doc_item_end(d);
        }
        for (int s = 0; s < pr->nseries; s++)
            if (pr->series[s].err[0]) {
                gp_doc_item_begin(d, NULL);
                gp_doc_span(d, GP_DOC_STRONG, pr->rec.probe);
                gp_doc_text(d, ": series ");
                gp_doc_span(d, GP_DOC_CODE, pr->series[s].name);
                gp_doc_text(d, " missing: ");
                gp_doc_text(d, pr->series[s].err);
                gp_doc_item_end(d);
            }
    }
    for (int i = 0; i < R->nskipped; i++) {
        gp_doc_item_begin(d, NULL);
        gp_doc_text(d, "skipped ");
        gp_doc_text(d, R->skipped[i]);
        gp_doc_item_end(d);
    }
    gp_doc_list_end(d);
}

/* ---- flagged results: measured on a noisy machine ----
 * A probe whose measured clock moved beyond the driver's tolerance, or that
 * shared the GPU with another process, has every value in doubt; the list
 * says which, and for which probes sharing could not be checked (no NVML). */
static void flagged_section(gp_doc *d, const report *R)
{
    int flagged = 0, unknown = 0;
    gp_doc_heading(d, 2, "flagged", "Flagged results");
    gp_doc_list_begin(d);
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        int known, noise = gp_record_noise(r, &known);
        unknown += !known;
        if (!noise)
            continue;
        flagged++;
        gp_doc_item_begin(d, NULL);
        gp_doc_span(d, GP_DOC_STRONG, r->probe);
        gp_doc_text(d, ": measured");
        if (noise & GP_NOISE_CLOCK)
            gp_doc_textf(d, " while the clock moved (%.0f \xe2\x86\x92 %.0f MHz)", r->clock_before.measured_mhz,
                         r->clock_after.measured_mhz);
        if (noise & GP_NOISE_SHARED)
            gp_doc_textf(d, "%s while %d other process(es) used the GPU", noise & GP_NOISE_CLOCK ? " and" : "",
                         gp_record_other_processes(r));
        if (noise & GP_NOISE_CAPPED) {
            char why[192];
            gp_smi_reasons_text(r->telemetry.reasons & GP_SMI_REASONS_CAP, why, sizeof why);
            gp_doc_textf(d, "%s under a cap the driver named (%s) in %d of %d vendor readings",
                         noise & (GP_NOISE_CLOCK | GP_NOISE_SHARED) ? " and" : "", why, r->telemetry.capped,
                         r->telemetry.reasons_read);
        }
        gp_doc_text(d, "; its values are in doubt: run it again on a quiet GPU.");
        gp_doc_item_end(d);
    }
    if (!flagged) {
        gp_doc_item_begin(d, "ok");
        gp_doc_text(d, "None: no result was measured while the clock moved, another process used the GPU, or the "
                       "driver named a power or thermal cap.");
        gp_doc_item_end(d);
    }
    if (unknown) {
        gp_doc_item_begin(d, NULL);
        gp_doc_textf(d, "Whether another process used the GPU is unknown for %d probe(s) (no vendor process list, "
                        "e.g. no NVML):",
                     unknown);
        for (int i = 0, k = 0; i < R->nprobes; i++) {
            int known;
            gp_record_noise(&R->probes[i].rec, &known);
            if (known)
                continue;
            gp_doc_text(d, k++ ? ", " : " ");
            gp_doc_text(d, R->probes[i].rec.probe);
        }
        gp_doc_text(d, ".");
        gp_doc_item_end(d);
    }
    gp_doc_list_end(d);
}

static gp_status probe_section(gp_doc *d, const report *R, const rp_probe *pr, int inline_svg)
{
    const gp_record *r = &pr->rec;
    char id[80];
    probe_id(id, sizeof id, r->probe);
    gp_doc_heading(d, 3, id, r->probe);
    gp_doc_para_begin(d, "meta");
    gp_doc_text(d, "Record ");
    gp_doc_span(d, GP_DOC_CODE, pr->file);
    gp_doc_textf(d, ", measured %s, %d values, %d series.", r->date, r->nvalues, pr->nseries);
    gp_doc_para_end(d);
    if (r->nnotes) {
        gp_doc_para(d, NULL, "Findings:");
        gp_doc_list_texts(d, r->notes[0], sizeof r->notes[0], r->nnotes);
    } else {
        gp_doc_para(d, NULL, "No findings recorded.");
    }
    if (pr->dropped) {
        gp_doc_para_begin(d, "warn");
        gp_doc_textf(d, "%d values, series or notes beyond this report's limits were left out.", pr->dropped);
        gp_doc_para_end(d);
    }
    for (int s = 0; s < pr->nseries; s++) {
        const rp_series *rs = &pr->series[s];
        if (rs->err[0]) {
            gp_doc_para_begin(d, "bad");
            gp_doc_text(d, "Series ");
            gp_doc_span(d, GP_DOC_CODE, rs->name);
            gp_doc_text(d, ": no plot, ");
            gp_doc_text(d, rs->err);
            gp_doc_para_end(d);
            continue;
        }
        rp_plot_job job = {R, pr, rs};
        GP_TRY(gp_doc_figure_begin(d, rs->svg, rs->plot.title, inline_svg ? rp_plot_to : NULL, &job));
        gp_doc_text(d, "Data: ");
        gp_doc_span(d, GP_DOC_CODE, rs->file);
        gp_doc_textf(d, " (%zu rows)", rs->data.nrows);
        if (R->other) {
            const rp_series *os = rp_other_series(R, pr, rs);
            if (os)
                gp_doc_textf(d, "; dashed: %s, %s/%s (%zu rows)", R->other->label, R->other->results_name, os->file,
                             os->data.nrows);
            else
                gp_doc_textf(d, "; %s has no such series", R->other->label);
        }
        gp_doc_figure_end(d);
    }
    return gp_ok();
}

/* How many values of each provenance kind the table holds, and which facts
 * are `assumed` stand-ins rather than measured or published: a reader sees
 * what this device's table does not know before reading the file. */
static void provenance_counts(gp_doc *d, const char *text)
{
    static gp_table t; /* ~50 KB: off the stack */
    if (gp_table_parse(&t, text, "table.txt").code != GP_OK)
        return;
    int n[GP_PROV_ASSUMED + 1] = {0};
    char assumed[512] = "";
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_entry *e = &t.e[i];
        if (!e->present || (int)e->kind < 0 || e->kind > GP_PROV_ASSUMED)
            continue;
        n[e->kind]++;
        size_t len = strlen(assumed);
        if (e->kind == GP_PROV_ASSUMED && len < sizeof assumed - 1)
            snprintf(assumed + len, sizeof assumed - len, "%s%s.%s", len ? ", " : "", gp_table_key_at(i)->section,
                     gp_table_key_at(i)->key);
    }
    gp_doc_para_begin(d, "meta");
    gp_doc_textf(d, "Provenance: %d measured, %d published, %d rule, %d swept, %d assumed", n[GP_PROV_MEASURED],
                 n[GP_PROV_PUBLISHED], n[GP_PROV_RULE], n[GP_PROV_SWEPT], n[GP_PROV_ASSUMED]);
    if (assumed[0])
        gp_doc_textf(d, " (conservative stand-ins, not this device's: %s)", assumed);
    gp_doc_text(d, ".");
    gp_doc_para_end(d);
}

static void table_section(gp_doc *d, const report *R)
{
    gp_doc_heading(d, 2, "tuning-table", "Tuning table");
    gp_doc_para_begin(d, R->table ? "meta" : NULL);
    if (R->table) {
        gp_doc_text(d, "From ");
        gp_doc_span(d, GP_DOC_CODE, R->table_name);
        gp_doc_text(d, ", verbatim.");
        gp_doc_para_end(d);
        provenance_counts(d, R->table);
        gp_doc_pre(d, R->table);
        return;
    }
    gp_doc_text(d, "No tuning table (");
    gp_doc_span(d, GP_DOC_CODE, "table.txt");
    gp_doc_text(d, ") in ");
    gp_doc_span(d, GP_DOC_CODE, R->out_name);
    gp_doc_text(d, " or ");
    gp_doc_span(d, GP_DOC_CODE, R->results_name);
    gp_doc_text(d, ".");
    gp_doc_para_end(d);
}

/* The whole report, once, in the sink's format.  HTML carries its plots
 * inline (one self-contained file); Markdown links the SVG files. */
static gp_status write_doc(gp_doc *d, const report *R)
{
    const gp_record *r0 = &R->probes[0].rec;
    char title[300];
    snprintf(title, sizeof title, "%s \xe2\x80\x94 gpuprobe characterization", r0->dev.name);
    gp_doc_begin(d, title, css);
    snprintf(title, sizeof title, "Hardware characterization: %s", r0->dev.name);
    gp_doc_heading(d, 1, NULL, title);
    gp_doc_para_begin(d, "meta");
    gp_doc_textf(d, "Written by gpuprobe from %d probe record%s in ", R->nprobes, R->nprobes == 1 ? "" : "s");
    gp_doc_span(d, GP_DOC_CODE, R->results_name);
    if (R->other) {
        gp_doc_textf(d, ", against %d from ", R->other->nprobes);
        gp_doc_span(d, GP_DOC_CODE, R->other->results_name);
        gp_doc_textf(d, " (%s)", R->other->label);
    }
    gp_doc_text(d, ". Regenerate it with ");
    gp_doc_span(d, GP_DOC_CODE, R->cmd);
    gp_doc_text(d, ".");
    gp_doc_para_end(d);
    {
        static const char *const nav[][2] = {
            {"#datasheet", "Datasheet"}, {"#roofline", "Roofline"}, {"#device", "Device"},
            {"#clocks", "Clocks"},   {"#summary", "Summary"},
            {"#attention", "Unstable or undetected"}, {"#flagged", "Flagged"}, {"#probes", "Probes"},
            {"#tuning-table", "Tuning table"}};
        gp_doc_nav_begin(d);
        for (size_t i = 0; i < sizeof nav / sizeof nav[0]; i++)
            gp_doc_link(d, nav[i][0], nav[i][1]);
        gp_doc_nav_end(d);
    }
    rp_datasheet_section(d, R);
    GP_TRY(rp_roofline_section(d, R, d->fmt == GP_DOC_HTML));
    device_section(d, R);
    clocks_section(d, R);
    summary_section(d, R);
    attention_section(d, R);
    flagged_section(d, R);
    gp_doc_heading(d, 2, "probes", "Probes");
    for (int i = 0; i < R->nprobes; i++)
        GP_TRY(probe_section(d, R, &R->probes[i], d->fmt == GP_DOC_HTML));
    table_section(d, R);
    gp_doc_end(d);
    return gp_ok();
}

static gp_status write_file(const report *R, const char *name, gp_doc_format fmt)
{
    FILE *f;
    GP_TRY(gp_fs_set_open(R->set, name, &f));
    gp_doc d;
    gp_doc_init(&d, f, fmt);
    gp_status st = write_doc(&d, R);
    gp_status cs = gp_fs_set_close(R->set, f, name);
    return st.code != GP_OK ? st : cs;
}

static gp_status write_table(const report *R)
{
    FILE *f;
    GP_TRY(gp_fs_set_open(R->set, "table.txt", &f));
    fputs(R->table, f);
    return gp_fs_set_close(R->set, f, "table.txt");
}

/* The command that writes this report again, as it runs from the current
 * folder (an absolute folder relative to it, so a committed report names
 * no path of the machine). */
static void default_command(report *R, const gp_report_opts *o)
{
    char a[512], b[512] = "", c[512] = "";
    gp_fs_relative(a, sizeof a, R->results_dir);
    if (o && o->against)
        gp_fs_relative(b, sizeof b, o->against);
    if (strcmp(R->out_dir, R->results_dir))
        gp_fs_relative(c, sizeof c, R->out_dir);
    snprintf(R->cmd, sizeof R->cmd, "gpuprobe report %.220s%s%.220s%s%.220s", a, b[0] ? " --against " : "", b,
             c[0] ? " --out " : "", c);
}

/* Every output file into one set: in place together, or none of them. */
static gp_status write_outputs(report *R, int with_table)
{
    gp_fs_set set;
    GP_TRY(gp_fs_set_begin(&set, R->out_dir));
    R->set = &set;
    gp_status st = with_table ? write_table(R) : gp_ok();
    if (st.code == GP_OK)
        st = rp_write_svgs(R);
    if (st.code == GP_OK)
        st = rp_roofline_svg(R);
    if (st.code == GP_OK)
        st = write_file(R, "report.html", GP_DOC_HTML);
    if (st.code == GP_OK)
        st = write_file(R, "report.md", GP_DOC_MD);
    if (st.code == GP_OK)
        st = gp_fs_set_commit(&set);
    else
        gp_fs_set_abort(&set);
    R->set = NULL;
    return st;
}

static gp_status load_folder(report *R, const char *dir, const char *out_dir, const char *tables_dir)
{
    R->results_dir = dir;
    R->out_dir = out_dir;
    R->tables_dir = tables_dir;
    GP_TRY(rp_load(R));
    snprintf(R->label, sizeof R->label, "%s", R->probes[0].rec.dev.name[0] ? R->probes[0].rec.dev.name : "?");
    return gp_ok();
}

gp_status gp_report_write(const char *results_dir, const char *out_dir)
{
    return gp_report_write_opts(results_dir, out_dir, NULL);
}

gp_status gp_report_write_opts(const char *results_dir, const char *out_dir, const gp_report_opts *o)
{
    if (!results_dir || !results_dir[0])
        return gp_fail(GP_ERR_USAGE, "report: no results directory given");
    if (!out_dir || !out_dir[0])
        out_dir = results_dir;
    if (o && o->against && !o->against[0])
        return gp_fail(GP_ERR_USAGE, "report: --against needs a results directory");
    report R, O;
    memset(&R, 0, sizeof R);
    memset(&O, 0, sizeof O);
    const char *tables = o ? o->tables_dir : NULL;
    gp_status st = gp_ok();
    if (o && o->table_text) {
        /* The table this run built: shown, and written beside the report. */
        if (!(R.table = strdup(o->table_text)))
            st = gp_fail(GP_ERR_NOMEM, "out of host memory for the table");
        gp_fs_base_name(R.out_name, sizeof R.out_name, out_dir);
        snprintf(R.table_name, sizeof R.table_name, "%s/table.txt", R.out_name);
    }
    if (st.code == GP_OK)
        st = load_folder(&R, results_dir, out_dir, tables);
    if (st.code == GP_OK && o && o->against) {
        st = load_folder(&O, o->against, o->against, tables);
        if (st.code != GP_OK)
            st = gp_fail(st.code, "--against %s: %s", o->against, st.msg);
        else
            R.other = &O;
    }
    if (st.code == GP_OK && R.other && !strcmp(R.label, O.label)) {
        /* The same GPU twice (another day): the legends name the folders. */
        snprintf(R.label, sizeof R.label, "%s", R.results_name);
        snprintf(O.label, sizeof O.label, "%s", O.results_name);
    }
    if (st.code == GP_OK && o && o->command)
        snprintf(R.cmd, sizeof R.cmd, "%s", o->command);
    else if (st.code == GP_OK)
        default_command(&R, o);
    if (st.code == GP_OK)
        st = rp_head_build(&R);
    /* Everything read and checked: only now is anything written. */
    if (st.code == GP_OK)
        st = write_outputs(&R, o && o->table_text);
    rp_head_free(&O);
    rp_head_free(&R);
    rp_free(&O); /* a zeroed folder frees nothing */
    rp_free(&R);
    return st;
}
