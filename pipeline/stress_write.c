/* stress's files: stress.json (the figures), stress.md (the page, with the
 * method beside every figure), stress_samples.csv (every vendor reading)
 * and three plots over time (clock, power, temperature; one line per GPU,
 * the concurrent phases marked). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "fsutil.h"
#include "json_write.h"
#include "record_vendor.h"
#include "schema.h"
#include "stress.h"
#include "svg.h"

#define GP_STRESS_SCHEMA "1.0"

static const char *const phase_key[GP_STRESS_NPHASES] = {"fma", "dram"};
static const char *const phase_unit[GP_STRESS_NPHASES] = {"TFLOP/s", "GB/s"};
static const char *const phase_what[GP_STRESS_NPHASES] = {
    "fp32 FMA chain kernel (fma_throughput's, 8 independent chains a thread, every CU full), 2 FLOP an FMA",
    "DRAM triad a[i] = b[i] + s c[i] (memory_bandwidth's, 16-byte accesses), 3 arrays of 8x the L2 or more"};

static void json_phase(FILE *f, const gp_stress_phase *p)
{
    fprintf(f, "{\"launches\": %d, \"median\": ", p->launches);
    gp_json_write_num(f, p->median);
    fprintf(f, ", \"p10\": ");
    gp_json_write_num(f, p->p10);
    fprintf(f, ", \"p90\": ");
    gp_json_write_num(f, p->p90);
    fprintf(f, ", \"t0_s\": ");
    gp_json_write_num(f, p->t0);
    fprintf(f, ", \"t1_s\": ");
    gp_json_write_num(f, p->t1);
    fprintf(f, ", \"telemetry\": ");
    gp_json_telemetry(f, &p->tel);
    fputc('}', f);
}

static void json_gpu(FILE *f, const gp_stress *s, int g)
{
    const gp_stress_gpu *G = &s->gpus[g];
    char why[512];
    const int flagged = gp_stress_flagged(s, g, why, sizeof why);
    fprintf(f, "    {\"device\": %d, \"name\": ", G->dev.index);
    gp_json_write_str(f, G->dev.name);
    fprintf(f, ", \"pci_bus_id\": ");
    gp_json_write_str(f, G->dev.pci_bus_id);
    fprintf(f, ", \"uuid\": ");
    gp_json_write_str(f, G->dev.uuid);
    fprintf(f, ", \"flagged\": %s, \"findings\": ", flagged ? "true" : "false");
    gp_json_write_str(f, why);
    for (int p = 0; p < GP_STRESS_NPHASES; p++) {
        fprintf(f, ",\n     \"%s\": {\"unit\": \"%s\", \"alone\": ", phase_key[p], phase_unit[p]);
        json_phase(f, &G->alone[p]);
        fprintf(f, ",\n       \"together\": ");
        json_phase(f, &G->together[p]);
        fprintf(f, ", \"ratio\": ");
        gp_json_write_num(f, G->ratio[p]);
        fprintf(f, ", \"lost\": %s}", G->lost[p] ? "true" : "false");
    }
    fprintf(f, ",\n     \"health\": ");
    gp_json_health(f, &G->health);
    fprintf(f, ",\n     \"xids\": ");
    if (G->xids >= 0)
        fprintf(f, "%d, \"last_xid\": %llu", G->xids, G->last_xid);
    else
        fputs("null", f);
    fprintf(f, ", \"xid_why\": ");
    gp_json_write_str(f, G->xid_why);
    const gp_smi_link *l = &G->link_loaded;
    fprintf(f, ", \"link_under_load\": {\"read\": %s, \"gen\": %d, \"width\": %d, \"max_gen\": %d, \"max_width\": %d, "
               "\"downtrained\": %s, \"why\": ",
            l->available ? "true" : "false", l->curr_gen, l->curr_width, l->max_gen, l->max_width,
            G->link_downtrained ? "true" : "false");
    gp_json_write_str(f, l->why);
    fprintf(f, "}, \"dram_bytes\": %zu}", G->dram_bytes);
}

static gp_status write_json(const gp_stress *s, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "{\n  \"schema_version\": \"%s\",\n  \"date\": ", GP_STRESS_SCHEMA);
    gp_json_write_str(f, s->date);
    fprintf(f, ",\n  \"seconds_per_phase\": ");
    gp_json_write_num(f, s->opts.seconds);
    fprintf(f, ",\n  \"max_loss\": ");
    gp_json_write_num(f, s->opts.max_loss);
    fprintf(f, ",\n  \"telemetry_interval_s\": ");
    gp_json_write_num(f, GP_TELEMETRY_INTERVAL_S);
    fprintf(f, ",\n  \"together_s\": [");
    gp_json_write_num(f, s->together_t0);
    fprintf(f, ", ");
    gp_json_write_num(f, s->together_t1);
    fprintf(f, "],\n  \"gpus\": [\n");
    for (int g = 0; g < s->ngpus; g++) {
        json_gpu(f, s, g);
        fprintf(f, "%s\n", g + 1 < s->ngpus ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return gp_fs_commit(f, path);
}

static gp_status write_csv(const gp_stress *s, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "t_s,gpu,pci_bus_id,sm_clock_mhz,power_w,temperature_c,reasons_mask\n");
    for (size_t i = 0; i < s->nsamples; i++) {
        const gp_telemetry_sample *x = &s->samples[i];
        fprintf(f, "%.3f,%d,%s,%.0f,%.1f,%.0f,%llu\n", x->t_s, x->gpu, s->gpus[x->gpu].dev.pci_bus_id,
                x->sm_clock_mhz, x->power_w, x->temperature_c, x->reasons_read ? x->reasons : 0);
    }
    return gp_fs_commit(f, path);
}

/* One quantity of every GPU over time (quantity: 0 clock, 1 power, 2 temperature). */
static gp_status write_plot(const gp_stress *s, int quantity, const char *path)
{
    static const char *const titles[] = {"Core clock under load (vendor library)", "Board power under load",
                                         "GPU temperature under load"};
    static const char *const ylabels[] = {"MHz", "W", "degrees C"};
    gp_plot_series series[GP_STRESS_MAX_GPUS];
    char labels[GP_STRESS_MAX_GPUS][48];
    double *x = malloc((s->nsamples + 1) * sizeof *x), *y = malloc((s->nsamples + 1) * sizeof *y);
    if (!x || !y) {
        free(x), free(y);
        return gp_fail(GP_ERR_NOMEM, "stress: out of host memory for the plots");
    }
    size_t at = 0;
    for (int g = 0; g < s->ngpus; g++) {
        const size_t first = at;
        for (size_t i = 0; i < s->nsamples; i++) {
            const gp_telemetry_sample *p = &s->samples[i];
            if (p->gpu != g)
                continue;
            x[at] = p->t_s;
            y[at++] = quantity == 0 ? p->sm_clock_mhz : quantity == 1 ? p->power_w : p->temperature_c;
        }
        snprintf(labels[g], sizeof labels[g], "GPU %d (%s)", s->gpus[g].dev.index, s->gpus[g].dev.pci_bus_id);
        series[g] = (gp_plot_series){labels[g], x + first, y + first, at - first, GP_SERIES_NO_MARKERS, 0};
    }
    gp_plot_mark marks[2] = {{GP_MARK_X, s->together_t0, 0, "every GPU loaded"},
                             {GP_MARK_X, s->together_t1, 0, "end"}};
    gp_plot plot = {.title = titles[quantity], .xlabel = "seconds since the start", .ylabel = ylabels[quantity],
                    .series = series, .nseries = s->ngpus, .yzero = 1, .marks = marks,
                    .nmarks = s->ngpus > 1 ? 2 : 0};
    FILE *f;
    gp_status st = gp_fs_open_atomic(path, &f);
    if (st.code == GP_OK) {
        st = gp_svg_plot(f, &plot);
        if (st.code == GP_OK)
            st = gp_fs_commit(f, path);
        else
            gp_fs_abandon(f, path);
    }
    free(x), free(y);
    return st;
}

static void md_phase_row(gp_doc *d, const gp_stress_gpu *G, int p, int together)
{
    const gp_stress_phase *ph = together ? &G->together[p] : &G->alone[p];
    char reasons[192];
    gp_smi_reasons_text(ph->tel.reasons & ~GP_SMI_REASON_IDLE, reasons, sizeof reasons);
    gp_doc_row_begin(d);
    gp_doc_cell_begin(d, NULL, 1);
    gp_doc_textf(d, "%d", G->dev.index);
    gp_doc_cell_end(d);
    gp_doc_cell(d, NULL, 0, phase_key[p]);
    gp_doc_cell(d, NULL, 0, together ? "every GPU" : "alone");
    gp_doc_cell_begin(d, NULL, 1);
    if (ph->launches)
        gp_doc_textf(d, "%.4g %s (%.4g..%.4g, %d launches)", ph->median, phase_unit[p], ph->p10, ph->p90,
                     ph->launches);
    else
        gp_doc_text(d, "not run");
    gp_doc_cell_end(d);
    gp_doc_cell_begin(d, NULL, 1);
    if (ph->tel.samples)
        gp_doc_textf(d, "%.0f MHz (lowest %.0f), %.0f W (highest %.0f), %.0f C; %s; capped %d of %d",
                     ph->tel.clock_median_mhz, ph->tel.clock_min_mhz, ph->tel.power_median_w, ph->tel.power_max_w,
                     ph->tel.temperature_max_c, ph->tel.reasons_read ? reasons : "reasons not given", ph->tel.capped,
                     ph->tel.reasons_read);
    else
        gp_doc_textf(d, "none (%s)", ph->launches ? ph->tel.why : "not run");
    gp_doc_cell_end(d);
    gp_doc_cell_begin(d, NULL, 1);
    if (together && isfinite(G->ratio[p]))
        gp_doc_textf(d, "%.3f%s", G->ratio[p], G->lost[p] ? " (lost)" : "");
    gp_doc_cell_end(d);
    gp_doc_row_end(d);
}

static gp_status write_md(const gp_stress *s, const char *path)
{
    static const char *const heads[] = {"GPU", "phase", "load", "rate: median (p10..p90)",
                                        "vendor readings: clock, power, hottest; reasons; capped", "together / alone"};
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    gp_doc doc, *d = &doc;
    gp_doc_init(d, f, GP_DOC_MD);
    gp_doc_heading(d, 1, NULL, "A node under load");
    gp_doc_para_begin(d, NULL);
    gp_doc_textf(d, "Measured %s on %d GPU%s (%s). Each GPU ran the FMA phase for %.0f s, then the DRAM phase for "
                    "%.0f s: alone, one GPU after the other, then every GPU at once, phases aligned. A GPU is flagged "
                    "when its median rate with every GPU loaded is more than %.0f%% below its rate alone, when its "
                    "health counters hold a finding, when an XID event occurs during the run, or when its PCIe link "
                    "runs below its maximum generation or width under load.",
                 s->date, s->ngpus, s->ngpus == 1 ? "" : "s", s->gpus[0].dev.name, s->opts.seconds, s->opts.seconds,
                 100 * s->opts.max_loss);
    gp_doc_para_end(d);
    gp_doc_list_begin(d);
    for (int p = 0; p < GP_STRESS_NPHASES; p++) {
        gp_doc_item_begin(d, NULL);
        gp_doc_textf(d, "%s: %s; a rate per launch of about 20 ms, event-timed, the first launch dropped.",
                     phase_key[p], phase_what[p]);
        gp_doc_item_end(d);
    }
    gp_doc_item_begin(d, NULL);
    gp_doc_textf(d, "vendor readings: clock, power, temperature and clock event reasons every %.0f ms "
                    "(stress_samples.csv); capped: readings with a power or thermal cap or a hardware slowdown.",
                 1e3 * GP_TELEMETRY_INTERVAL_S);
    gp_doc_item_end(d);
    gp_doc_list_end(d);
    gp_doc_heading(d, 2, NULL, "Verdict");
    gp_doc_list_begin(d);
    for (int g = 0; g < s->ngpus; g++) {
        char why[512];
        gp_doc_item_begin(d, NULL);
        if (gp_stress_flagged(s, g, why, sizeof why))
            gp_doc_textf(d, "GPU %d (%s): flagged: %s", s->gpus[g].dev.index, s->gpus[g].dev.pci_bus_id, why);
        else
            gp_doc_textf(d, "GPU %d (%s): ok", s->gpus[g].dev.index, s->gpus[g].dev.pci_bus_id);
        gp_doc_item_end(d);
    }
    gp_doc_list_end(d);
    gp_doc_heading(d, 2, NULL, "Rates and readings");
    gp_doc_table_begin(d, 6, heads);
    for (int g = 0; g < s->ngpus; g++)
        for (int p = 0; p < GP_STRESS_NPHASES; p++)
            for (int t = 0; t < 2; t++)
                if (t == 0 || s->ngpus > 1)
                    md_phase_row(d, &s->gpus[g], p, t);
    gp_doc_table_end(d);
    gp_doc_heading(d, 2, NULL, "Health");
    gp_doc_list_begin(d);
    for (int g = 0; g < s->ngpus; g++) {
        const gp_stress_gpu *G = &s->gpus[g];
        const gp_smi_health *h = &G->health;
        gp_doc_item_begin(d, NULL);
        if (!h->available)
            gp_doc_textf(d, "GPU %d: no health counters (%s)", G->dev.index, h->why);
        else
            gp_doc_textf(d, "GPU %d: ECC %s; uncorrected %lld since boot (%lld over its life), corrected %lld (%lld); "
                            "rows remapped %d uncorrectable, %d correctable; remap pending %d, failed %d; PCIe "
                            "replays %lld; power limit %.0f W",
                         G->dev.index, h->ecc_enabled == 1 ? "on" : h->ecc_enabled == 0 ? "off" : "not read",
                         h->ecc_uncorrected_volatile, h->ecc_uncorrected_aggregate, h->ecc_corrected_volatile,
                         h->ecc_corrected_aggregate, h->remapped_uncorrectable, h->remapped_correctable,
                         h->remap_pending, h->remap_failed, h->pcie_replays, h->power_limit_w);
        if (G->xids >= 0)
            gp_doc_textf(d, "; %d XID event(s) during the run", G->xids);
        else
            gp_doc_textf(d, "; XIDs not watched (%s)", G->xid_why);
        if (G->link_loaded.available)
            gp_doc_textf(d, "; PCIe under load Gen%d x%d of Gen%d x%d", G->link_loaded.curr_gen,
                         G->link_loaded.curr_width, G->link_loaded.max_gen, G->link_loaded.max_width);
        gp_doc_text(d, " (-1: the library does not give that counter)");
        gp_doc_item_end(d);
    }
    gp_doc_list_end(d);
    gp_doc_heading(d, 2, NULL, "Over time");
    static const char *const plots[][2] = {{"stress_clock.svg", "core clock of every GPU over the run"},
                                           {"stress_power.svg", "board power of every GPU over the run"},
                                           {"stress_temperature.svg", "temperature of every GPU over the run"}};
    for (int q = 0; q < 3; q++) {
        gp_status st = gp_doc_figure_begin(d, plots[q][0], plots[q][1], NULL, NULL);
        if (st.code != GP_OK) {
            gp_fs_abandon(f, path);
            return st;
        }
        gp_doc_text(d, plots[q][1]);
        gp_doc_figure_end(d);
    }
    return gp_fs_commit(f, path);
}

gp_status gp_stress_write(const gp_stress *s, const char *dir)
{
    static const char *const plots[] = {"stress_clock.svg", "stress_power.svg", "stress_temperature.svg"};
    char path[1024];
    GP_TRY(gp_fs_mkdirs(dir));
    GP_TRY(gp_fs_join(path, sizeof path, dir, "stress_samples.csv"));
    GP_TRY(write_csv(s, path));
    for (int q = 0; q < 3; q++) {
        GP_TRY(gp_fs_join(path, sizeof path, dir, plots[q]));
        GP_TRY(write_plot(s, q, path));
    }
    GP_TRY(gp_fs_join(path, sizeof path, dir, "stress.md"));
    GP_TRY(write_md(s, path));
    /* The JSON last: readers look for it, so it appears after its files. */
    GP_TRY(gp_fs_join(path, sizeof path, dir, "stress.json"));
    return write_json(s, path);
}
