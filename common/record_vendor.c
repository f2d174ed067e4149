#include "record_vendor.h"

#include <math.h>
#include <string.h>

#include "json_write.h"

/* A count the library did not give (-1) is null. */
static void count(FILE *f, const char *name, long long v)
{
    fprintf(f, ", \"%s\": ", name);
    if (v >= 0)
        fprintf(f, "%lld", v);
    else
        fputs("null", f);
}

static void num(FILE *f, const char *name, double v)
{
    fprintf(f, ", \"%s\": ", name);
    gp_json_write_num(f, v);
}

void gp_json_telemetry(FILE *f, const gp_telemetry_summary *t)
{
    char reasons[192];
    gp_smi_reasons_text(t->reasons, reasons, sizeof reasons);
    fprintf(f, "{\"samples\": %d", t->samples);
    num(f, "interval_s", GP_TELEMETRY_INTERVAL_S);
    num(f, "clock_median_mhz", t->clock_median_mhz);
    num(f, "clock_min_mhz", t->clock_min_mhz);
    num(f, "power_median_w", t->power_median_w);
    num(f, "power_max_w", t->power_max_w);
    num(f, "temperature_max_c", t->temperature_max_c);
    fprintf(f, ", \"reasons_read\": %d, \"reasons_mask\": %llu, \"reasons\": ", t->reasons_read, t->reasons);
    gp_json_write_str(f, t->reasons_read ? reasons : "");
    fprintf(f, ", \"capped_samples\": %d, \"why\": ", t->capped);
    gp_json_write_str(f, t->why);
    fputc('}', f);
}

void gp_json_health(FILE *f, const gp_smi_health *h)
{
    char flags[256];
    gp_smi_health_flags(h, flags, sizeof flags);
    fprintf(f, "{\"source\": ");
    gp_json_write_str(f, h->source);
    fprintf(f, ", \"why\": ");
    gp_json_write_str(f, h->why);
    count(f, "ecc_enabled", h->ecc_enabled);
    count(f, "ecc_uncorrected_volatile", h->ecc_uncorrected_volatile);
    count(f, "ecc_uncorrected_aggregate", h->ecc_uncorrected_aggregate);
    count(f, "ecc_corrected_volatile", h->ecc_corrected_volatile);
    count(f, "ecc_corrected_aggregate", h->ecc_corrected_aggregate);
    count(f, "remapped_uncorrectable", h->remapped_uncorrectable);
    count(f, "remapped_correctable", h->remapped_correctable);
    count(f, "remap_pending", h->remap_pending);
    count(f, "remap_failed", h->remap_failed);
    count(f, "retired_pending", h->retired_pending);
    count(f, "pcie_replays", h->pcie_replays);
    count(f, "xids", h->xids);
    count(f, "last_xid", h->xids > 0 ? (long long)h->last_xid : -1);
    num(f, "power_limit_w", h->power_limit_w > 0 ? h->power_limit_w : NAN);
    fprintf(f, ", \"findings\": ");
    gp_json_write_str(f, flags);
    fputc('}', f);
}

void gp_record_vendor_json(FILE *f, const gp_record *r)
{
    if (r->have_telemetry) {
        fprintf(f, ",\n  \"telemetry\": ");
        gp_json_telemetry(f, &r->telemetry);
    }
    if (r->have_health) {
        fprintf(f, ",\n  \"health\": ");
        gp_json_health(f, &r->health);
    }
}

static long long count_of(const gp_json *o, const char *key)
{
    const double v = gp_json_num_of(o, key, NAN);
    return isfinite(v) && v >= 0 && v < 9e18 ? (long long)v : -1;
}

void gp_record_vendor_read(const gp_json *j, gp_record *r)
{
    const gp_json *t = gp_json_get(j, "telemetry"), *h = gp_json_get(j, "health");
    if (t && t->type == GP_JSON_OBJ) {
        gp_telemetry_summary *s = &r->telemetry;
        r->have_telemetry = 1;
        s->samples = (int)count_of(t, "samples");
        s->samples = s->samples < 0 ? 0 : s->samples;
        s->clock_median_mhz = gp_json_num_of(t, "clock_median_mhz", NAN);
        s->clock_min_mhz = gp_json_num_of(t, "clock_min_mhz", NAN);
        s->power_median_w = gp_json_num_of(t, "power_median_w", NAN);
        s->power_max_w = gp_json_num_of(t, "power_max_w", NAN);
        s->temperature_max_c = gp_json_num_of(t, "temperature_max_c", NAN);
        const long long mask = count_of(t, "reasons_mask"), read = count_of(t, "reasons_read");
        const long long capped = count_of(t, "capped_samples");
        s->reasons = mask > 0 ? (unsigned long long)mask : 0;
        s->reasons_read = read > 0 && read < 1000000000 ? (int)read : 0;
        s->capped = capped > 0 && capped <= s->reasons_read ? (int)capped : 0;
        snprintf(s->why, sizeof s->why, "%s", gp_json_str_of(t, "why", ""));
    }
    if (h && h->type == GP_JSON_OBJ) {
        gp_smi_health *o = &r->health;
        r->have_health = 1;
        snprintf(o->source, sizeof o->source, "%s", gp_json_str_of(h, "source", "none"));
        snprintf(o->why, sizeof o->why, "%s", gp_json_str_of(h, "why", ""));
        o->available = strcmp(o->source, "none") != 0;
        o->ecc_enabled = (int)count_of(h, "ecc_enabled");
        o->ecc_uncorrected_volatile = count_of(h, "ecc_uncorrected_volatile");
        o->ecc_uncorrected_aggregate = count_of(h, "ecc_uncorrected_aggregate");
        o->ecc_corrected_volatile = count_of(h, "ecc_corrected_volatile");
        o->ecc_corrected_aggregate = count_of(h, "ecc_corrected_aggregate");
        o->remapped_uncorrectable = (int)count_of(h, "remapped_uncorrectable");
        o->remapped_correctable = (int)count_of(h, "remapped_correctable");
        o->remap_pending = (int)count_of(h, "remap_pending");
        o->remap_failed = (int)count_of(h, "remap_failed");
        o->retired_pending = (int)count_of(h, "retired_pending");
        o->pcie_replays = count_of(h, "pcie_replays");
        o->xids = (int)count_of(h, "xids");
        o->last_xid = o->xids > 0 && count_of(h, "last_xid") > 0 ? (unsigned long long)count_of(h, "last_xid") : 0;
        const double w = gp_json_num_of(h, "power_limit_w", NAN);
        o->power_limit_w = isfinite(w) ? w : 0;
    }
}

void gp_record_vendor_md(gp_doc *d, const gp_record *r)
{
    if (r->have_telemetry) {
        const gp_telemetry_summary *t = &r->telemetry;
        char reasons[192];
        gp_smi_reasons_text(t->reasons, reasons, sizeof reasons);
        gp_doc_item_begin(d, NULL);
        if (!t->samples)
            gp_doc_textf(d, "during the run: no vendor reading (%s)", t->why);
        else if (!t->reasons_read) /* rocm-smi: power and temperature, no clock or reasons */
            gp_doc_textf(d, "during the run (%d readings every %.0f ms): power median %.0f W (highest %.0f), hottest "
                            "%.0f C; the clock from the in-kernel readings only; clock event reasons: none (%s)",
                         t->samples, 1e3 * GP_TELEMETRY_INTERVAL_S, t->power_median_w, t->power_max_w,
                         t->temperature_max_c, t->why);
        else
            gp_doc_textf(d, "during the run (%d readings every %.0f ms): clock median %.0f MHz (lowest %.0f), power "
                            "median %.0f W (highest %.0f), hottest %.0f C; clock event reasons: %s; under a power "
                            "or thermal cap in %d of %d readings",
                         t->samples, 1e3 * GP_TELEMETRY_INTERVAL_S, t->clock_median_mhz, t->clock_min_mhz,
                         t->power_median_w, t->power_max_w, t->temperature_max_c, reasons, t->capped,
                         t->reasons_read);
        gp_doc_item_end(d);
    }
    if (r->have_health) {
        char flags[256];
        gp_doc_item_begin(d, NULL);
        if (!r->health.available)
            gp_doc_textf(d, "health counters: none (%s)", r->health.why);
        else if (gp_smi_health_flags(&r->health, flags, sizeof flags))
            gp_doc_textf(d, "health counters: %s", flags);
        else
            gp_doc_textf(d, "health counters: no uncorrected ECC error since boot, no pending or failed remap, no "
                            "page waiting to retire; %lld PCIe replays",
                         r->health.pcie_replays);
        gp_doc_item_end(d);
    }
}
