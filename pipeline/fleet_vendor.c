/* The fleet against the vendors' figures, and its Prometheus textfile
 * (fleet.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datasheet.h"
#include "fleet.h"
#include "specs.h"

gp_status gp_fleet_judge_specs(gp_fleet *fl, const char *tables_dir)
{
    for (int g = 0; g < fl->ngpus; g++) {
        gp_fleet_gpu *gpu = &fl->gpus[g];
        gp_spec spec;
        int found = 0;
        GP_TRY(gp_spec_find_beside(tables_dir, gpu->name, &spec, &found));
        if (!found)
            continue;
        const gp_record **recs = calloc((size_t)gpu->run.nrecs + 1, sizeof *recs);
        gpu->ds = calloc(1, sizeof *gpu->ds);
        if (!recs || !gpu->ds) {
            free(recs);
            return gp_fail(GP_ERR_NOMEM, "out of host memory judging %s", gpu->label);
        }
        for (int i = 0; i < gpu->run.nrecs; i++)
            recs[i] = &gpu->run.recs[i];
        gp_datasheet_build(recs, gpu->run.nrecs, NULL, gpu->ds);
        free(recs);
        gp_datasheet_judge(gpu->ds, &spec);
        fl->nvendor++;
        for (int i = 0; i < gpu->ds->nrows; i++) {
            const gp_ds_row *r = &gpu->ds->rows[i];
            const int f = gp_spec_figure(r->spec_key);
            if ((f == GP_SPEC_CLOCK_MHZ || f == GP_SPEC_DRAM_GBS) && r->verdict && !strcmp(r->verdict, "low"))
                gpu->vendor_health_low++;
        }
        fl->nvendor_health += gpu->vendor_health_low > 0;
    }
    return gp_ok();
}

int gp_fleet_gpu_healthy(const gp_fleet *fl, int g)
{
    if (fl->gpus[g].vendor_health_low || fl->gpus[g].health_findings)
        return 0;
    for (int i = 0; i < fl->nchars; i++) {
        gp_fleet_verdict v = fl->chars[i].verdict[g];
        if (v == GP_FLEET_LOW || v == GP_FLEET_HIGH)
            return 0;
    }
    return 1;
}

/* One health counter of every GPU that has it (what: 0 uncorrected ECC
 * since boot, 1 over its life, 2 remap pending, 3 PCIe replays); a counter
 * the driver did not give is left out, not written as 0. */
static void counter(FILE *f, const gp_fleet *fl, const char *name, const char *help, int what);

/* A label value in the text format: backslash, double quote and newline
 * escaped. */
static void label(FILE *f, const char *name, const char *v, int first)
{
    fprintf(f, "%s%s=\"", first ? "" : ",", name);
    for (; *v; v++) {
        if (*v == '\\' || *v == '"')
            fputc('\\', f), fputc(*v, f);
        else if (*v == '\n')
            fputs("\\n", f);
        else
            fputc(*v, f);
    }
    fputc('"', f);
}

static void gpu_labels(FILE *f, const gp_fleet *fl, int g)
{
    const gp_fleet_gpu *gpu = &fl->gpus[g];
    label(f, "gpu", gpu->label, 1);
    label(f, "bus", gpu->pci_bus_id, 0);
    label(f, "model", gpu->name, 0);
    label(f, "arch", gpu->arch, 0);
}

static void head(FILE *f, const char *name, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* One sample per GPU and judged vendor figure: measured / published
 * (within 0), or whether it is within its band (within 1). */
static void vendor_samples(FILE *f, const gp_fleet *fl, int within)
{
    for (int g = 0; g < fl->ngpus; g++)
        for (int i = 0; fl->gpus[g].ds && i < fl->gpus[g].ds->nrows; i++) {
            const gp_ds_row *r = &fl->gpus[g].ds->rows[i];
            if (!r->verdict || !isfinite(r->fraction))
                continue;
            fputs(within ? "gpuprobe_vendor_within{" : "gpuprobe_vendor_fraction{", f);
            gpu_labels(f, fl, g);
            if (!within)
                label(f, "product", fl->gpus[g].ds->spec_name, 0);
            label(f, "figure", r->spec_key, 0);
            if (within) {
                fprintf(f, "} %d\n", !strcmp(r->verdict, "within"));
            } else {
                label(f, "band", r->band, 0);
                fprintf(f, "} %.6g\n", r->fraction);
            }
        }
}

void gp_fleet_write_prometheus(FILE *f, const gp_fleet *fl)
{
    head(f, "gpuprobe_value", "A characteristic measured on the GPU (gpuprobe probe record; unit in the label).");
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        for (int g = 0; g < fl->ngpus; g++) {
            if (!isfinite(c->x[g]))
                continue;
            fputs("gpuprobe_value{", f);
            gpu_labels(f, fl, g);
            label(f, "probe", c->probe, 0);
            label(f, "key", c->key, 0);
            label(f, "unit", c->unit, 0);
            fprintf(f, "} %.9g\n", c->x[g]);
        }
    }
    head(f, "gpuprobe_outside", "1: the value is outside its device model's threshold around the median (judged models "
                                "of 3 or more GPUs only).");
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        for (int g = 0; g < fl->ngpus && c->judged; g++) {
            if (c->verdict[g] == GP_FLEET_NONE)
                continue;
            fputs("gpuprobe_outside{", f);
            gpu_labels(f, fl, g);
            label(f, "probe", c->probe, 0);
            label(f, "key", c->key, 0);
            fprintf(f, "} %d\n", c->verdict[g] == GP_FLEET_LOW || c->verdict[g] == GP_FLEET_HIGH);
        }
    }
    head(f, "gpuprobe_vendor_fraction", "Measured over the vendor's published figure for the product (specs/).");
    vendor_samples(f, fl, 0);
    head(f, "gpuprobe_vendor_within", "1: the measured figure is within the band of the vendor's (specs/).");
    vendor_samples(f, fl, 1);
    head(f, "gpuprobe_gpu_healthy", "1: no value outside its model's threshold and no low clock or DRAM bandwidth "
                                    "against the model or the product's band.");
    for (int g = 0; g < fl->ngpus; g++) {
        fputs("gpuprobe_gpu_healthy{", f);
        gpu_labels(f, fl, g);
        fprintf(f, "} %d\n", gp_fleet_gpu_healthy(fl, g));
    }
    head(f, "gpuprobe_gpu_health_findings", "Findings in the driver's health counters of the GPU's newest record: "
                                            "uncorrected ECC errors since boot, a pending or failed row remap, pages "
                                            "waiting to retire (GPUs whose records have counters only).");
    for (int g = 0; g < fl->ngpus; g++)
        if (fl->gpus[g].have_health) {
            fputs("gpuprobe_gpu_health_findings{", f);
            gpu_labels(f, fl, g);
            fprintf(f, "} %d\n", fl->gpus[g].health_findings);
        }
    counter(f, fl, "gpuprobe_gpu_ecc_uncorrected_volatile", "Uncorrected ECC errors since the last driver load.", 0);
    counter(f, fl, "gpuprobe_gpu_ecc_uncorrected_aggregate", "Uncorrected ECC errors over the GPU's life.", 1);
    counter(f, fl, "gpuprobe_gpu_remap_pending", "1: a row remap waits for a GPU reset.", 2);
    counter(f, fl, "gpuprobe_gpu_pcie_replays", "The PCIe replay counter.", 3);
    head(f, "gpuprobe_gpu_probes_capped", "Probes of the GPU's records measured while the driver named a power or "
                                          "thermal cap.");
    for (int g = 0; g < fl->ngpus; g++) {
        fputs("gpuprobe_gpu_probes_capped{", f);
        gpu_labels(f, fl, g);
        fprintf(f, "} %d\n", fl->gpus[g].capped_probes);
    }
    head(f, "gpuprobe_gpu_judged", "1: the GPU was judged (its model has 3 or more GPUs here, or a specs/ file matched "
                                   "its name); 0: listed only.");
    for (int g = 0; g < fl->ngpus; g++) {
        fputs("gpuprobe_gpu_judged{", f);
        gpu_labels(f, fl, g);
        int judged = fl->gpus[g].ds != NULL || fl->models[fl->gpus[g].model].ngpus >= GP_FLEET_MIN_GROUP;
        fprintf(f, "} %d\n", judged);
    }
}

static void counter(FILE *f, const gp_fleet *fl, const char *name, const char *help, int what)
{
    head(f, name, help);
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_smi_health *h = &fl->gpus[g].health;
        const long long v = what == 0   ? h->ecc_uncorrected_volatile
                            : what == 1 ? h->ecc_uncorrected_aggregate
                            : what == 2 ? h->remap_pending
                                        : h->pcie_replays;
        if (!fl->gpus[g].have_health || v < 0)
            continue;
        fprintf(f, "%s{", name);
        gpu_labels(f, fl, g);
        fprintf(f, "} %lld\n", v);
    }
}
