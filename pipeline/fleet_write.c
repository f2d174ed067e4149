/* The fleet report as Markdown and HTML (one walk through common/doc.h, so
 * the two cannot drift; HTML adds the strip plots) and as JSON. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "datasheet.h"
#include "doc.h"
#include "fleet.h"
#include "fleet_plot.h"
#include "fsutil.h"
#include "json_write.h"
#include "record_vendor.h"
#include "schema.h"

static const char css[] =
    "body{font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:1100px;margin:24px auto;"
    "padding:0 20px;line-height:1.45;font-size:15px}"
    "table{border-collapse:collapse;margin:10px 0;font-size:13.5px}"
    "th,td{border:1px solid #d0d0d0;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f0f3f7}"
    "td.num{text-align:right;font-family:Menlo,Consolas,monospace;white-space:nowrap}"
    ".bad{color:#b00020;font-weight:bold}.warn{color:#9a5b00;font-weight:bold}.ok{color:#1b7a3a}"
    "figure{margin:8px 0;display:block}svg{max-width:100%;height:auto;border:1px solid #e4e4e4}.meta{color:#555}";

static void num_cell(gp_doc *d, double v)
{
    char b[48];
    if (isfinite(v))
        snprintf(b, sizeof b, "%.6g", v);
    else if (isinf(v))
        snprintf(b, sizeof b, "%sinf", v < 0 ? "-" : "+");
    else
        snprintf(b, sizeof b, "none");
    gp_doc_cell(d, "num", GP_DOC_PLAIN, b);
}

static const char *verdict_word(gp_fleet_verdict v)
{
    switch (v) {
    case GP_FLEET_LOW: return "low";
    case GP_FLEET_HIGH: return "high";
    case GP_FLEET_WARNED: return "outside, unstable in its run (warned)";
    case GP_FLEET_INSIDE: return "inside";
    case GP_FLEET_NONE: return "none";
    }
    return "?";
}

static const gp_fleet_char *find_char(const gp_fleet *fl, int model, const char *probe, const char *key)
{
    for (int i = 0; i < fl->nchars; i++)
        if (fl->chars[i].model == model && !strcmp(fl->chars[i].probe, probe) && !strcmp(fl->chars[i].key, key))
            return &fl->chars[i];
    return NULL;
}

static void outside_list(gp_doc *d, const gp_fleet *fl, const gp_fleet_char *c)
{
    int k = 0;
    for (int g = 0; g < fl->ngpus; g++) {
        gp_fleet_verdict v = c->verdict[g];
        if (v != GP_FLEET_LOW && v != GP_FLEET_HIGH && v != GP_FLEET_WARNED)
            continue;
        if (k++)
            gp_doc_text(d, ", ");
        gp_doc_span(d, v == GP_FLEET_WARNED ? GP_DOC_WARN : GP_DOC_BAD, fl->gpus[g].label);
        gp_doc_textf(d, " (%s)", v == GP_FLEET_WARNED ? "warned" : verdict_word(v));
    }
    if (!k)
        gp_doc_text(d, c->judged ? "-" : "not judged");
}

static void section_verdict(gp_doc *d, const gp_fleet *fl)
{
    char rule[160];
    gp_fleet_threshold_text(&fl->threshold, rule, sizeof rule);
    gp_doc_para_begin(d, "meta");
    gp_doc_textf(d, "%d GPUs (one results folder each) of %d device model(s). Outside: %s, per model and "
                    "characteristic; a value within its noise (the larger of its run's spread and the model's "
                    "median spread, at least %.1f %% for a measured value) or whose recorded near-tie range holds "
                    "the median is inside; a model with fewer than %d GPUs "
                    "holding a value is not judged.",
                 fl->ngpus, fl->nmodels, rule, 100 * GP_FLEET_NOISE_FLOOR, GP_FLEET_MIN_GROUP);
    gp_doc_para_end(d);
    gp_doc_heading(d, 2, "verdict", "Verdict");
    gp_doc_para_begin(d, NULL);
    if (fl->noutliers)
        gp_doc_span(d, GP_DOC_BAD, "outliers found");
    else
        gp_doc_span(d, GP_DOC_OK, "no outlier");
    gp_doc_textf(d, ": %d value(s) outside on %d of %d GPUs; %d low clock or DRAM bandwidth; %d outside but "
                    "unstable in their own run (warned, not counted).",
                 fl->noutliers, fl->ngpus_out, fl->ngpus, fl->nhealth, fl->nwarned);
    gp_doc_textf(d, " Against their products' published figures: %d of %d GPUs judged, %d with a clock or DRAM "
                    "bandwidth below the band.",
                 fl->nvendor, fl->ngpus, fl->nvendor_health);
    gp_doc_textf(d, " Health counters: %d GPU(s) with a finding.", fl->ncounters_flagged);
    gp_doc_para_end(d);
}

/* Every GPU a specs/ file matched, against its product's figures. */
static void section_vendor(gp_doc *d, const gp_fleet *fl)
{
    if (!fl->nvendor)
        return;
    gp_doc_heading(d, 2, "vendor", "Against the vendor's figures");
    gp_doc_para(d, "meta",
                "Each GPU alone, whatever the size of its model's group: measured / the figure its vendor "
                "publishes for the product (specs/, picked by the device name), the band a healthy part reaches "
                "and the verdict. A clock or DRAM bandwidth below its band flags the GPU (exit 1); the other "
                "figures are shown, not failed.");
    const char *heads[3] = {"GPU", "product", "measured / vendor (band): verdict"};
    gp_doc_table_begin_aligned(d, 3, heads, "lll");
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_datasheet *ds = fl->gpus[g].ds;
        if (!ds)
            continue;
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_CODE, fl->gpus[g].label);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, ds->spec_name);
        gp_doc_cell_begin(d, NULL, 1);
        int first = 1;
        for (int i = 0; i < ds->nrows; i++) {
            const gp_ds_row *r = &ds->rows[i];
            if (!r->verdict || !isfinite(r->fraction))
                continue;
            char t[128];
            snprintf(t, sizeof t, "%s%s %.3f (%s): ", first ? "" : "; ", r->spec_key, r->fraction, r->band);
            gp_doc_text(d, t);
            gp_doc_span(d, !strcmp(r->verdict, "within") ? GP_DOC_OK : GP_DOC_BAD, r->verdict);
            first = 0;
        }
        gp_doc_cell_end(d);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

static void section_gpus(gp_doc *d, const gp_fleet *fl)
{
    static const char *const heads[] = {"GPU (folder)", "device", "arch", "PCI bus id", "records",
                                        "measured clock (MHz)", "DRAM bandwidth (GB/s)", "health"};
    const char *bw_probe = "", *bw_key = "";
    gp_fleet_bw_source(&bw_probe, &bw_key);
    gp_doc_heading(d, 2, "gpus", "GPUs, clock and DRAM bandwidth");
    gp_doc_para_begin(d, "meta");
    gp_doc_textf(d, "Clock: the median in-kernel measured clock over the folder's records (before and after each "
                    "probe). DRAM bandwidth: %s.%s (the table's dram.bandwidth_gbs). Health flags a value low "
                    "against its model's median by the rule above, and names what the driver's health counters "
                    "hold against the GPU (uncorrected ECC errors, a pending or failed row remap, pages waiting to "
                    "retire), from its newest record that has them.",
                 bw_probe, bw_key);
    gp_doc_para_end(d);
    gp_doc_table_begin_aligned(d, 8, heads, "lllllrrl");
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_fleet_gpu *gpu = &fl->gpus[g];
        const gp_fleet_char *clk = find_char(fl, gpu->model, GP_FLEET_CLOCK_PROBE, GP_FLEET_CLOCK_KEY);
        const gp_fleet_char *bw = find_char(fl, gpu->model, bw_probe, bw_key);
        char recs[32];
        snprintf(recs, sizeof recs, "%d%s", gpu->run.nrecs, gpu->quick ? " (quick)" : "");
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_CODE, gpu->label);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, gpu->name);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, gpu->arch);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, gpu->pci_bus_id);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, recs);
        num_cell(d, gpu->clock_mhz);
        num_cell(d, bw ? bw->x[g] : NAN);
        gp_doc_cell_begin(d, NULL, 1);
        int low_clk = clk && clk->verdict[g] == GP_FLEET_LOW, low_bw = bw && bw->verdict[g] == GP_FLEET_LOW;
        if (low_clk)
            gp_doc_span(d, GP_DOC_BAD, "low clock ");
        if (low_bw)
            gp_doc_span(d, GP_DOC_BAD, "low DRAM bandwidth");
        if (gpu->health_findings) {
            gp_doc_span(d, GP_DOC_BAD, gpu->health_text);
            gp_doc_text(d, " ");
        }
        if (!low_clk && !low_bw && !gpu->health_findings)
            gp_doc_text(d, clk && clk->judged ? "ok" : "not judged (too few GPUs of this model)");
        if (!gpu->have_health)
            gp_doc_text(d, "; no health counters in its records");
        if (gpu->capped_probes)
            gp_doc_textf(d, "; %d probe(s) ran under a power or thermal cap", gpu->capped_probes);
        gp_doc_cell_end(d);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

static void section_outliers(gp_doc *d, const gp_fleet *fl)
{
    static const char *const heads[] = {"model", "characteristic", "unit", "GPU", "value", "median", "MAD",
                                        "robust z", "deviation (%)", "verdict"};
    gp_doc_heading(d, 2, "outliers", "Outliers");
    if (!fl->noutliers && !fl->nwarned) {
        gp_doc_para(d, NULL, "None.");
        return;
    }
    gp_doc_table_begin_aligned(d, 10, heads, "llllrrrrrl");
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        for (int g = 0; g < fl->ngpus; g++) {
            gp_fleet_verdict v = c->verdict[g];
            if (v != GP_FLEET_LOW && v != GP_FLEET_HIGH && v != GP_FLEET_WARNED)
                continue;
            char ch[120];
            snprintf(ch, sizeof ch, "%s.%s", c->probe, c->key);
            gp_doc_row_begin(d);
            gp_doc_cell(d, NULL, GP_DOC_PLAIN, fl->models[c->model].name);
            gp_doc_cell(d, NULL, GP_DOC_CODE, ch);
            gp_doc_cell(d, NULL, GP_DOC_PLAIN, c->unit);
            gp_doc_cell(d, NULL, GP_DOC_CODE, fl->gpus[g].label);
            num_cell(d, c->x[g]);
            num_cell(d, c->center.median);
            num_cell(d, c->center.mad);
            num_cell(d, c->z[g]);
            num_cell(d, 100 * c->dev[g]);
            gp_doc_cell(d, NULL, v == GP_FLEET_WARNED ? GP_DOC_WARN : GP_DOC_BAD, verdict_word(v));
            gp_doc_row_end(d);
        }
    }
    gp_doc_table_end(d);
}

static gp_status section_model(gp_doc *d, const gp_fleet *fl, int m, int plots)
{
    static const char *const heads[] = {"characteristic", "unit", "GPUs", "median", "MAD", "outside"};
    const gp_fleet_model *model = &fl->models[m];
    char title[320];
    snprintf(title, sizeof title, "%s (%s): %d GPU%s", model->name, model->arch, model->ngpus,
             model->ngpus == 1 ? "" : "s");
    gp_doc_heading(d, 2, NULL, title);
    if (model->ngpus < GP_FLEET_MIN_GROUP)
        gp_doc_para(d, "meta", "Too few GPUs of this model to call one of them off: listed, not judged.");
    if (!plots)
        gp_doc_para(d, "meta", "One strip plot per characteristic: fleet.html.");
    gp_doc_table_begin_aligned(d, 6, heads, "llrrrl");
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        if (c->model != m)
            continue;
        char ch[120], n[16];
        snprintf(ch, sizeof ch, "%s.%s", c->probe, c->key);
        snprintf(n, sizeof n, "%d", c->center.n);
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_CODE, ch);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, c->unit);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, n);
        num_cell(d, c->center.median);
        num_cell(d, c->center.mad);
        gp_doc_cell_begin(d, NULL, 1);
        outside_list(d, fl, c);
        gp_doc_cell_end(d);
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
    for (int i = 0; plots && i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        if (c->model != m || c->center.n == 0)
            continue;
        gp_fleet_strip s = {fl, i};
        char alt[120];
        snprintf(alt, sizeof alt, "%s.%s", c->probe, c->key);
        GP_TRY(gp_doc_figure_begin(d, NULL, alt, gp_fleet_strip_svg, &s));
        gp_doc_span(d, GP_DOC_CODE, alt);
        gp_doc_textf(d, " (%s): median %.6g, MAD %.6g; outside: ", c->unit, c->center.median, c->center.mad);
        outside_list(d, fl, c);
        gp_doc_figure_end(d);
    }
    return gp_ok();
}

static gp_status walk(gp_doc *d, const gp_fleet *fl, int plots)
{
    char title[96];
    snprintf(title, sizeof title, "Fleet report: %d GPUs", fl->ngpus);
    gp_doc_begin(d, title, css);
    gp_doc_heading(d, 1, NULL, title);
    section_verdict(d, fl);
    section_gpus(d, fl);
    section_vendor(d, fl);
    section_outliers(d, fl);
    for (int m = 0; m < fl->nmodels; m++)
        GP_TRY(section_model(d, fl, m, plots));
    gp_doc_end(d);
    return gp_ok();
}

void gp_fleet_write_md(FILE *f, const gp_fleet *fl)
{
    gp_doc d;
    gp_doc_init(&d, f, GP_DOC_MD);
    (void)walk(&d, fl, 0); /* no figures: nothing can fail */
}

gp_status gp_fleet_write_html(FILE *f, const gp_fleet *fl)
{
    gp_doc d;
    gp_doc_init(&d, f, GP_DOC_HTML);
    return walk(&d, fl, 1);
}

/* ---- JSON (common/json_write.h; a value JSON cannot hold, a MAD-0 z, is null: its verdict says the rest) ---- */

void gp_fleet_write_json(FILE *f, const gp_fleet *fl)
{
    /* fleet_format: what readers of schema 1.0 look for */
    fprintf(f, "{\n  \"schema_version\": \"%s\",\n  \"fleet_format\": 1,\n  \"threshold\": {\"rule\": \"%s\", \"limit\": ",
            GP_FLEET_SCHEMA,
            fl->threshold.rule == GP_FLEET_RULE_PERCENT ? "percent" : "robust_z");
    gp_json_write_num(f, fl->threshold.limit);
    fprintf(f, ", \"noise_floor\": %g, \"min_gpus\": %d},\n", GP_FLEET_NOISE_FLOOR, GP_FLEET_MIN_GROUP);
    fprintf(f, "  \"outliers\": %d, \"gpus_with_outliers\": %d, \"health_flags\": %d, \"warned\": %d,\n",
            fl->noutliers, fl->ngpus_out, fl->nhealth, fl->nwarned);
    fputs("  \"models\": [", f);
    for (int m = 0; m < fl->nmodels; m++) {
        fputs(m ? ", {\"name\": " : "{\"name\": ", f);
        gp_json_write_str(f, fl->models[m].name);
        fputs(", \"arch\": ", f);
        gp_json_write_str(f, fl->models[m].arch);
        fprintf(f, ", \"gpus\": %d, \"judged\": %s}", fl->models[m].ngpus,
                fl->models[m].ngpus >= GP_FLEET_MIN_GROUP ? "true" : "false");
    }
    fputs("],\n  \"gpus\": [\n", f);
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_fleet_gpu *gpu = &fl->gpus[g];
        fputs("    {\"label\": ", f);
        gp_json_write_str(f, gpu->label);
        fputs(", \"folder\": ", f);
        gp_json_write_str(f, gpu->run.dir);
        fputs(", \"name\": ", f);
        gp_json_write_str(f, gpu->name);
        fputs(", \"arch\": ", f);
        gp_json_write_str(f, gpu->arch);
        fputs(", \"pci_bus_id\": ", f);
        gp_json_write_str(f, gpu->pci_bus_id);
        fprintf(f, ", \"model\": %d, \"records\": %d, \"quick\": %s, \"clock_mhz\": ", gpu->model, gpu->run.nrecs,
                gpu->quick ? "true" : "false");
        gp_json_write_num(f, gpu->clock_mhz);
        fprintf(f, ", \"outlier\": %s, \"healthy\": %s", gp_fleet_gpu_out(fl, g) ? "true" : "false",
                gp_fleet_gpu_healthy(fl, g) ? "true" : "false");
        fprintf(f, ", \"probes_capped\": %d", gpu->capped_probes);
        if (gpu->have_health) {
            fputs(", \"health_counters\": ", f);
            gp_json_health(f, &gpu->health);
        }
        const gp_datasheet *ds = gpu->ds;
        if (ds) {
            fputs(", \"vendor\": {\"product\": ", f);
            gp_json_write_str(f, ds->spec_name);
            fputs(", \"spec\": ", f);
            gp_json_write_str(f, ds->spec_file);
            fputs(", \"figures\": [", f);
            int first = 1;
            for (int i = 0; i < ds->nrows; i++) {
                const gp_ds_row *r = &ds->rows[i];
                if (!r->verdict)
                    continue;
                fprintf(f, "%s{\"figure\": ", first ? "" : ", ");
                gp_json_write_str(f, r->spec_key);
                fputs(", \"fraction\": ", f);
                gp_json_write_num(f, r->fraction);
                fputs(", \"band\": ", f);
                gp_json_write_str(f, r->band);
                fputs(", \"verdict\": ", f);
                gp_json_write_str(f, r->verdict);
                fputc('}', f);
                first = 0;
            }
            fputs("]}", f);
        }
        fprintf(f, "}%s\n", g + 1 < fl->ngpus ? "," : "");
    }
    fputs("  ],\n  \"characteristics\": [\n", f);
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        fprintf(f, "    {\"model\": %d, \"probe\": ", c->model);
        gp_json_write_str(f, c->probe);
        fputs(", \"key\": ", f);
        gp_json_write_str(f, c->key);
        fputs(", \"unit\": ", f);
        gp_json_write_str(f, c->unit);
        fprintf(f, ", \"n\": %d, \"median\": ", c->center.n);
        gp_json_write_num(f, c->center.median);
        fputs(", \"mad\": ", f);
        gp_json_write_num(f, c->center.mad);
        fprintf(f, ", \"judged\": %s, \"health\": %s, \"values\": [", c->judged ? "true" : "false",
                c->health ? "true" : "false");
        int k = 0;
        for (int g = 0; g < fl->ngpus; g++) {
            if (fl->gpus[g].model != c->model)
                continue;
            fprintf(f, "%s{\"gpu\": %d, \"value\": ", k++ ? ", " : "", g);
            gp_json_write_num(f, c->x[g]);
            fputs(", \"robust_z\": ", f);
            gp_json_write_num(f, c->z[g]);
            fputs(", \"deviation\": ", f);
            gp_json_write_num(f, c->dev[g]);
            fprintf(f, ", \"verdict\": \"%s\"}", c->verdict[g] == GP_FLEET_WARNED ? "warned" : verdict_word(c->verdict[g]));
        }
        fprintf(f, "]}%s\n", i + 1 < fl->nchars ? "," : "");
    }
    fputs("  ]\n}\n", f);
}

static gp_status write_one(const gp_fleet *fl, gp_fs_set *set, const char *name, int kind)
{
    FILE *f = NULL;
    GP_TRY(gp_fs_set_open(set, name, &f));
    gp_status st = gp_ok();
    if (kind == 0)
        gp_fleet_write_md(f, fl);
    else if (kind == 1)
        st = gp_fleet_write_html(f, fl);
    else
        gp_fleet_write_json(f, fl);
    gp_status cs = gp_fs_set_close(set, f, name);
    return st.code != GP_OK ? st : cs;
}

gp_status gp_fleet_write_dir(const gp_fleet *fl, const char *dir)
{
    gp_fs_set set;
    GP_TRY(gp_fs_set_begin(&set, dir));
    gp_status st = write_one(fl, &set, "fleet.md", 0);
    if (st.code == GP_OK)
        st = write_one(fl, &set, "fleet.html", 1);
    if (st.code == GP_OK)
        st = write_one(fl, &set, "fleet.json", 2);
    if (st.code == GP_OK)
        return gp_fs_set_commit(&set);
    gp_fs_set_abort(&set);
    return st;
}
