#define _POSIX_C_SOURCE 200809L
/* The datasheet: the headline figures every probe declares
 * (gp_probe.datasheet), each from its record, written by its format. */
#include "datasheet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "svg.h"

/* One row to show: a probe's headline and the probe it comes from. */
typedef struct ds_spec {
    const gp_probe *probe;
    const gp_probe_headline *h;
} ds_spec;

void gp_ds_format_bytes(char *out, size_t n, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    double v = b;
    while (fabs(v) >= 1024 && k < 4) {
        v /= 1024;
        k++;
    }
    if (k == 0 || fabs(v - round(v)) < 0.05)
        snprintf(out, n, "%.0f %s", v, units[k]);
    else
        snprintf(out, n, "%.1f %s", v, units[k]);
}

const gp_record *gp_ds_record_of(const gp_record *const *recs, int n, const char *probe)
{
    for (int i = 0; i < n; i++)
        if (recs[i] && !strcmp(recs[i]->probe, probe))
            return recs[i];
    return NULL;
}

/* A detected, finite value, or NULL. */
static const gp_value *good(const gp_record *r, const char *key)
{
    const gp_value *v = key ? gp_record_find(r, key) : NULL;
    return v && v->detected && isfinite(v->value) ? v : NULL;
}

double gp_ds_measured_mhz(const gp_record *r)
{
    if (r->have_clock && r->clock_after.measured_mhz > 0)
        return r->clock_after.measured_mhz;
    if (r->have_clock && r->clock_before.measured_mhz > 0)
        return r->clock_before.measured_mhz;
    return NAN;
}

double gp_ds_rate_mhz(const gp_record *r)
{
    if (r->have_clock && r->clock_before.measured_mhz > 0)
        return r->clock_before.measured_mhz;
    return gp_ds_measured_mhz(r);
}

static void fill(gp_ds_row *row, const ds_spec *spec, const gp_record *r)
{
    const gp_probe_headline *s = spec->h;
    const gp_value *v = good(r, s->key), *v2 = good(r, s->key2), *v3 = good(r, s->key3);
    char a[64], b[64];
    if (s->fmt == GP_DS_CLOCK) {
        double mhz = gp_ds_measured_mhz(r);
        if (!isfinite(mhz)) {
            row->missing = 1;
            snprintf(row->value, sizeof row->value, "not measured: the %s record has no clock reading",
                     spec->probe->name);
            return;
        }
        row->num = mhz * 1e6;
        snprintf(row->value, sizeof row->value, "%.0f MHz (reported %.0f MHz)", mhz, r->dev.core_clock_mhz);
        return;
    }
    if (!v) {
        const gp_value *any = gp_record_find(r, s->key);
        row->missing = 1;
        if (any && !any->detected)
            snprintf(row->value, sizeof row->value, "not detected: %.100s", any->note[0] ? any->note : "no reason");
        else
            snprintf(row->value, sizeof row->value, "not measured: the %s record has no %s", spec->probe->name,
                     s->key);
        return;
    }
    row->num = v->value;
    switch (s->fmt) {
    case GP_DS_INT:
        snprintf(row->value, sizeof row->value, "%.0f %s", v->value, s->unit);
        break;
    case GP_DS_FLOPS: {
        double mhz = gp_ds_rate_mhz(r);
        if (!isfinite(mhz))
            mhz = r->dev.core_clock_mhz;
        row->num = 2.0 * v->value * r->dev.compute_units * mhz * 1e6;
        gp_svg_format_unit(a, sizeof a, row->num, "FLOP/s");
        if (v2)
            snprintf(b, sizeof b, "%.1f%% of peak", 100 * v2->value);
        else
            snprintf(b, sizeof b, "no peak recorded");
        snprintf(row->value, sizeof row->value, "%s, %s", a, b);
        break;
    }
    case GP_DS_GBS:
        row->num = v->value * 1e9;
        if (v2 && v3)
            snprintf(row->value, sizeof row->value, "%.0f GB/s, %.1f%% of %.0f GB/s peak", v->value,
                     100 * v2->value, v3->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f GB/s", v->value);
        break;
    case GP_DS_LATENCY:
        if (v2)
            snprintf(row->value, sizeof row->value, "%.0f cycles, %.1f ns", v->value, v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f cycles", v->value);
        break;
    case GP_DS_BYTES:
        gp_ds_format_bytes(a, sizeof a, v->value);
        if (v2) {
            gp_ds_format_bytes(b, sizeof b, v2->value);
            snprintf(row->value, sizeof row->value, "%s (%s %s)", a, s->unit, b);
        } else {
            snprintf(row->value, sizeof row->value, "%s", a);
        }
        break;
    case GP_DS_BANKS:
        if (v2)
            snprintf(row->value, sizeof row->value, "%.0f banks x %.0f B", v->value, v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f banks", v->value);
        break;
    case GP_DS_US:
        row->num = v->value * 1e-6;
        if (v2)
            snprintf(row->value, sizeof row->value, "%.2f \xc2\xb5s (%s %.2f \xc2\xb5s)", v->value, s->unit,
                     v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.2f \xc2\xb5s", v->value);
        break;
    case GP_DS_CLOCK:
        break;
    }
}

/* The shipped table's value when its provenance is `published`. */
static int is_published(const gp_table_entry *e)
{
    return e && e->present && strncmp(e->prov, "published", 9) == 0;
}

static void published(gp_ds_row *row, const gp_probe_headline *s, const gp_table *t)
{
    const char *key = s->tkey;
    const gp_table_entry *e = t && s->tsec ? gp_table_find(t, s->tsec, key) : NULL;
    if (!is_published(e) && t && s->tsec && s->tkey_alt) {
        key = s->tkey_alt;
        e = gp_table_find(t, s->tsec, key);
    }
    if (!is_published(e))
        return;
    const char *src = e->prov + 9;
    while (*src == ' ')
        src++;
    if (e->is_none)
        snprintf(row->published, sizeof row->published, "none: %.250s", src);
    else
        snprintf(row->published, sizeof row->published, "%s %.6g: %.250s", key, e->d, src);
}

/* Every probe's headlines, in increasing place (ties: registry order). */
static size_t gather(ds_spec *specs, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; gp_probe_at(i); i++) {
        const gp_probe *p = gp_probe_at(i);
        for (size_t k = 0; k < p->ndatasheet && n < max; k++) {
            ds_spec s = {p, &p->datasheet[k]};
            size_t j = n++;
            for (; j > 0 && specs[j - 1].h->place > s.h->place; j--)
                specs[j] = specs[j - 1];
            specs[j] = s;
        }
    }
    return n;
}

void gp_datasheet_build(const gp_record *const *recs, int n, const gp_table *shipped, gp_datasheet *ds)
{
    ds_spec specs[GP_DS_MAX_ROWS];
    size_t nspecs = gather(specs, GP_DS_MAX_ROWS);
    ds->nrows = 0;
    for (size_t i = 0; i < nspecs; i++) {
        const ds_spec *s = &specs[i];
        gp_ds_row *row = &ds->rows[ds->nrows++];
        memset(row, 0, sizeof *row);
        row->group = s->h->group;
        row->label = s->h->label;
        row->probe = s->probe->name;
        row->num = NAN;
        row->fraction = NAN;
        row->spec_key = s->h->spec, row->band_lo = s->h->band_lo, row->band_hi = s->h->band_hi;
        const gp_record *r = gp_ds_record_of(recs, n, s->probe->name);
        if (r) {
            fill(row, s, r);
        } else {
            row->missing = 1;
            snprintf(row->value, sizeof row->value, "not measured: no %s record in this folder", s->probe->name);
        }
        published(row, s->h, shipped);
    }
}

/* The published value in the row's units ("4800 GB/s"). */
static void format_published(char *out, size_t n, int figure, double v)
{
    char a[64];
    switch (figure) {
    case GP_SPEC_CLOCK_MHZ:
        snprintf(out, n, "%.0f MHz", v);
        break;
    case GP_SPEC_COMPUTE_UNITS:
        snprintf(out, n, "%.0f CUs", v);
        break;
    case GP_SPEC_DRAM_GBS:
        snprintf(out, n, "%.0f GB/s", v);
        break;
    case GP_SPEC_L2_BYTES:
        gp_ds_format_bytes(a, sizeof a, v);
        snprintf(out, n, "%s", a);
        break;
    default: /* the FMA and matrix peaks */
        gp_svg_format_unit(a, sizeof a, v, figure == GP_SPEC_INT8_MATRIX_TOPS ? "OP/s" : "FLOP/s");
        snprintf(out, n, "%s", a);
        break;
    }
}

void gp_datasheet_judge(gp_datasheet *ds, const gp_spec *spec)
{
    snprintf(ds->spec_name, sizeof ds->spec_name, "%s", spec ? spec->name : "");
    snprintf(ds->spec_file, sizeof ds->spec_file, "%s", spec ? spec->file : "");
    for (int i = 0; i < ds->nrows; i++) {
        gp_ds_row *row = &ds->rows[i];
        row->vendor[0] = row->band[0] = '\0';
        row->verdict = NULL;
        row->fraction = NAN;
        const int f = gp_spec_figure(row->spec_key);
        const double pub = f >= 0 ? gp_spec_value(spec, f) : 0;
        if (pub <= 0)
            continue;
        char v[64];
        format_published(v, sizeof v, f, pub);
        snprintf(row->vendor, sizeof row->vendor, "%s%s: %.220s", v,
                 f == GP_SPEC_FP32_TFLOPS && spec->fp32_packed ? " (half the packed-FP32 figure)" : "", spec->src[f]);
        if (row->band_hi > 0 && row->band_hi == row->band_lo)
            snprintf(row->band, sizeof row->band, "= %.2g", row->band_lo);
        else if (row->band_hi > 0)
            snprintf(row->band, sizeof row->band, "%.2f-%.2f", row->band_lo, row->band_hi);
        else
            snprintf(row->band, sizeof row->band, ">= %.2f", row->band_lo);
        /* The row's number in the spec's units: clock Hz -> MHz, GB/s in
         * B/s -> GB/s; CUs, FLOP/s and bytes as they are. */
        double m = row->num;
        if (f == GP_SPEC_CLOCK_MHZ)
            m /= 1e6;
        else if (f == GP_SPEC_DRAM_GBS)
            m /= 1e9;
        if (row->missing || !isfinite(m)) {
            row->verdict = "not measured";
            continue;
        }
        row->fraction = m / pub;
        /* Rounded as shown (3 decimals): an exact match is within. */
        const double r = round(row->fraction * 1000) / 1000;
        row->verdict = r < row->band_lo ? "low" : row->band_hi > 0 && r > row->band_hi ? "high" : "within";
    }
}
