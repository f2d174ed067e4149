#define _POSIX_C_SOURCE 200809L
/* The datasheet rows: which record value each headline figure is, and how
 * it is written. */
#include "datasheet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

typedef enum ds_fmt {
    DS_CLOCK,   /* the clock the probe measured */
    DS_INT,     /* key as a whole number, `unit` after it */
    DS_FLOPS,   /* key FMA/cycle/CU -> FLOP/s; key2 the fraction of the peak */
    DS_GBS,     /* key GB/s; key2 the fraction of key3 (the peak) */
    DS_LATENCY, /* key cycles, key2 ns */
    DS_BYTES,   /* key bytes; key2 (optional) a part of it, named by unit */
    DS_BANKS,   /* key banks x key2 bytes */
    DS_US,      /* key microseconds; key2 (optional) a second one, named by unit */
} ds_fmt;

typedef struct ds_spec {
    const char *group, *label, *probe, *key, *key2, *key3;
    ds_fmt fmt;
    const char *unit;
    const char *tsec, *tkey; /* the shipped table's entry for the published column */
    const char *tkey_alt;    /* the entry to show when tkey is not published (NULL: none) */
} ds_spec;

static const ds_spec specs[] = {
    {"Device", "core clock", "fma_throughput", NULL, NULL, NULL, DS_CLOCK, NULL, "device", "clock_mhz", NULL},
    {"Device", "compute units", "fma_throughput", "detected_compute_units", NULL, NULL, DS_INT, "CUs", "device",
     "compute_units", NULL},
    {"Device", "wave size", "divergence", "wave_size_from_divergence", NULL, NULL, DS_INT, "lanes", "device",
     "wave_size", NULL},
    {"Compute", "fp32 FMA rate", "fma_throughput", "fp32_fma_per_cycle_per_cu", "fp32_peak_fraction", NULL, DS_FLOPS,
     NULL, "compute", "fp32_fma_per_cycle_per_cu", NULL},
    {"Compute", "fp64 FMA rate", "fma_throughput", "fp64_fma_per_cycle_per_cu", NULL, NULL, DS_FLOPS, NULL, "compute",
     "fp64_fma_per_cycle_per_cu", NULL},
    {"Memory", "DRAM bandwidth", "memory_bandwidth", "bandwidth_gbs", "dram_fraction_of_peak", "peak_gbs", DS_GBS,
     NULL, "dram", "bandwidth_gbs", NULL},
    {"Memory", "L2 bandwidth", "memory_bandwidth", "l2_bandwidth_gbs", NULL, NULL, DS_GBS, NULL, NULL, NULL, NULL},
    {"Latency", "L1 latency", "cache_latency", "l1_latency_cycles", "l1_latency_ns", NULL, DS_LATENCY, NULL,
     "cache.l1", "latency_cycles", NULL},
    {"Latency", "L2 latency (near)", "cache_latency", "l2_latency_cycles", "l2_latency_ns", NULL, DS_LATENCY, NULL,
     "cache.l2", "latency_cycles", NULL},
    {"Latency", "L2 latency (far)", "cache_latency", "l2_far_latency_cycles", "l2_far_latency_ns", NULL, DS_LATENCY,
     NULL, "cache.l2", "far_latency_cycles", NULL},
    {"Latency", "DRAM latency", "cache_latency", "dram_latency_cycles", "dram_latency_ns", NULL, DS_LATENCY, NULL,
     "dram", "latency_cycles", NULL},
    {"Caches", "L1 size", "cache_latency", "l1_bytes", NULL, NULL, DS_BYTES, NULL, "cache.l1", "bytes", NULL},
    /* A vendor publishes the line and says what sectors it holds: that line's
     * source stands beside the measured sector. */
    {"Caches", "L1 fetch granule (sector)", "cache_latency", "l1_sector_bytes", NULL, NULL, DS_BYTES, NULL, "cache.l1",
     "sector_bytes", "line_bytes"},
    {"Caches", "L2 size", "cache_latency", "l2_bytes", "l2_near_bytes", NULL, DS_BYTES, "near part", "cache.l2",
     "bytes", NULL},
    {"Caches", "L2 fetch granule (sector)", "cache_latency", "l2_sector_bytes", NULL, NULL, DS_BYTES, NULL, "cache.l2",
     "sector_bytes", "line_bytes"},
    {"LDS", "LDS size per CU", "lds", "bytes_per_cu", NULL, NULL, DS_BYTES, NULL, "lds", "bytes_per_cu", NULL},
    {"LDS", "LDS banks", "lds", "banks", "bank_bytes", NULL, DS_BANKS, NULL, "lds", "banks", NULL},
    {"LDS", "LDS latency", "lds", "latency_cycles", "latency_ns", NULL, DS_LATENCY, NULL, "lds", "latency_cycles", NULL},
    {"Launch and registers", "launch cost", "launch_rate", "launch_us", "graph_launch_us", NULL, DS_US,
     "graph node", "launch", "launch_us", NULL},
    {"Launch and registers", "register file per CU", "register_limits", "per_cu", NULL, NULL, DS_INT,
     "32-bit registers", "registers", "per_cu", NULL},
    {"Launch and registers", "registers per thread (max)", "register_limits", "per_thread_max", NULL, NULL, DS_INT,
     "registers", "registers", "per_thread_max", NULL},
};

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

static void fill(gp_ds_row *row, const ds_spec *s, const gp_record *r)
{
    const gp_value *v = good(r, s->key), *v2 = good(r, s->key2), *v3 = good(r, s->key3);
    char a[64], b[64];
    if (s->fmt == DS_CLOCK) {
        double mhz = gp_ds_measured_mhz(r);
        if (!isfinite(mhz)) {
            row->missing = 1;
            snprintf(row->value, sizeof row->value, "not measured: the %s record has no clock reading", s->probe);
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
            snprintf(row->value, sizeof row->value, "not measured: the %s record has no %s", s->probe, s->key);
        return;
    }
    row->num = v->value;
    switch (s->fmt) {
    case DS_INT:
        snprintf(row->value, sizeof row->value, "%.0f %s", v->value, s->unit);
        break;
    case DS_FLOPS: {
        double mhz = gp_ds_measured_mhz(r);
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
    case DS_GBS:
        row->num = v->value * 1e9;
        if (v2 && v3)
            snprintf(row->value, sizeof row->value, "%.0f GB/s, %.1f%% of %.0f GB/s peak", v->value,
                     100 * v2->value, v3->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f GB/s", v->value);
        break;
    case DS_LATENCY:
        if (v2)
            snprintf(row->value, sizeof row->value, "%.0f cycles, %.1f ns", v->value, v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f cycles", v->value);
        break;
    case DS_BYTES:
        gp_ds_format_bytes(a, sizeof a, v->value);
        if (v2) {
            gp_ds_format_bytes(b, sizeof b, v2->value);
            snprintf(row->value, sizeof row->value, "%s (%s %s)", a, s->unit, b);
        } else {
            snprintf(row->value, sizeof row->value, "%s", a);
        }
        break;
    case DS_BANKS:
        if (v2)
            snprintf(row->value, sizeof row->value, "%.0f banks x %.0f B", v->value, v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.0f banks", v->value);
        break;
    case DS_US:
        row->num = v->value * 1e-6;
        if (v2)
            snprintf(row->value, sizeof row->value, "%.2f \xc2\xb5s (%s %.2f \xc2\xb5s)", v->value, s->unit,
                     v2->value);
        else
            snprintf(row->value, sizeof row->value, "%.2f \xc2\xb5s", v->value);
        break;
    case DS_CLOCK:
        break;
    }
}

/* The shipped table's value when its provenance is `published`. */
static int is_published(const gp_table_entry *e)
{
    return e && e->present && strncmp(e->prov, "published", 9) == 0;
}

static void published(gp_ds_row *row, const ds_spec *s, const gp_table *t)
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

void gp_datasheet_build(const gp_record *const *recs, int n, const gp_table *shipped, gp_datasheet *ds)
{
    ds->nrows = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0] && ds->nrows < GP_DS_MAX_ROWS; i++) {
        const ds_spec *s = &specs[i];
        gp_ds_row *row = &ds->rows[ds->nrows++];
        memset(row, 0, sizeof *row);
        row->group = s->group;
        row->label = s->label;
        row->probe = s->probe;
        row->num = NAN;
        const gp_record *r = gp_ds_record_of(recs, n, s->probe);
        if (r) {
            fill(row, s, r);
        } else {
            row->missing = 1;
            snprintf(row->value, sizeof row->value, "not measured: no %s record in this folder", s->probe);
        }
        published(row, s, shipped);
    }
}
