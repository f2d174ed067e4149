#include "record.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "fsutil.h"
#include "json_read.h"
#include "json_write.h"
#include "record_vendor.h"
#include "schema.h"
#include "stats.h"

void gp_record_init(gp_record *r, const char *probe, const gp_device_info *dev)
{
    memset(r, 0, sizeof *r);
    snprintf(r->probe, sizeof r->probe, "%s", probe);
    gp_fs_today(r->date);
    if (dev)
        r->dev = *dev;
}

void gp_record_free(gp_record *r)
{
    for (int i = 0; i < r->nseries; i++)
        free(r->series[i].data);
    r->nseries = 0;
}

int gp_unit_per_cycle(const char *unit)
{
    return unit && strstr(unit, "/cycle") != NULL;
}

gp_value *gp_record_value(gp_record *r, const char *key, double value, const char *unit,
                          double spread, const char *method)
{
    if (r->nvalues >= GP_RECORD_MAX_VALUES)
        return NULL;
    gp_value *v = &r->values[r->nvalues++];
    memset(v, 0, sizeof *v);
    snprintf(v->key, sizeof v->key, "%s", key);
    snprintf(v->unit, sizeof v->unit, "%s", unit ? unit : "");
    snprintf(v->method, sizeof v->method, "%s", method ? method : "");
    v->value = value;
    v->spread = spread;
    v->spread_between = -1;
    v->range_lo = v->range_hi = NAN;
    v->detected = isfinite(value);
    v->clock_converted = gp_unit_per_cycle(unit);
    return v;
}

gp_value *gp_record_value_within(gp_record *r, const char *key, double value, const char *unit, double spread,
                                 double max_spread, const char *method)
{
    gp_value *v = gp_record_value(r, key, value, unit, spread, method);
    if (v)
        v->unstable = spread > max_spread;
    return v;
}

/* The finite values of x[0..n) sorted into s (room for 64); their count, 0
 * for n outside 2..64. */
static int finite_sorted(const double *x, int n, double s[64])
{
    int k = 0;
    for (int i = 0; x && n >= 2 && n <= 64 && i < n; i++)
        if (isfinite(x[i]))
            s[k++] = x[i];
    gp_stats_sort(s, (size_t)k);
    return k;
}

static double sorted_median(const double *s, int k)
{
    return k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
}

void gp_value_between(gp_value *v, const double *per_launch, int n)
{
    double s[64];
    int k = finite_sorted(per_launch, n, s);
    if (!v || k < 2)
        return;
    double med = sorted_median(s, k);
    if (med != 0)
        v->spread_between = (s[k - 1] - s[0]) / fabs(med);
    if (v->spread_between > GP_BETWEEN_UNSTABLE)
        v->unstable = 1;
}

void gp_value_points(gp_value *v, const double *per_point, int n)
{
    double s[64];
    int k = finite_sorted(per_point, n, s);
    if (!v || !v->detected || k < 2)
        return;
    v->value = sorted_median(s, k);
    gp_value_between(v, s, k);
}

gp_status gp_record_require_between(const gp_record *r, const char *const *keys, int n)
{
    for (int i = 0; i < n; i++) {
        const gp_value *v = gp_record_find(r, keys[i]);
        if (v && v->detected && !(v->spread_between >= 0))
            return gp_fail(GP_ERR_CHECK, "%s: %s has no between-launch spread (its points over the run were not all "
                                         "measured)",
                           r->probe, keys[i]);
    }
    return gp_ok();
}

void gp_value_range(gp_value *v, double lo, double hi)
{
    if (!v || !isfinite(lo) || !isfinite(hi) || lo > hi)
        return;
    v->has_range = 1;
    v->range_lo = lo;
    v->range_hi = hi;
}

void gp_value_interval(gp_value *v, double lo, double hi, const char *why)
{
    if (!v || !isfinite(lo) || !isfinite(hi) || lo > hi)
        return;
    gp_value_range(v, lo, hi);
    snprintf(v->range_method, sizeof v->range_method, "%s", why ? why : "");
}

int gp_binomial_interval(double p, double n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (!(n >= 1) || !isfinite(n) || !(p >= 0 && p <= 1))
        return 0;
    /* 1.2816: the normal's 90th percentile, so lo..hi is p10..p90 as the
     * spreads are */
    double h = 1.2816 * sqrt(p * (1 - p) / n);
    *lo = fmax(0.0, p - h);
    *hi = fmin(1.0, p + h);
    return 1;
}

gp_value *gp_record_ns_of_cycles(gp_record *r, const char *key, double cycles, double spread, double clock_mhz)
{
    gp_value *v = gp_record_value(r, key, 1e3 * cycles / clock_mhz, "ns", spread, "latency cycles / measured clock");
    if (v)
        v->clock_converted = 1;
    if (!v || !v->detected || !(clock_mhz > 0))
        return v;
    const gp_clock_reading *c = &r->clock_before;
    double f_lo = clock_mhz, f_hi = clock_mhz;
    if (c->measured_min_mhz > 0 && c->measured_min_mhz < f_lo)
        f_lo = c->measured_min_mhz;
    if (c->measured_max_mhz > f_hi)
        f_hi = c->measured_max_mhz;
    if (r->dev.core_clock_mhz > f_hi)
        f_hi = r->dev.core_clock_mhz;
    double half = spread > 0 && isfinite(spread) ? spread / 2 : 0;
    char why[160];
    snprintf(why, sizeof why,
             "cycles p10..p90 / core clock %.0f (lowest measured) .. %.0f MHz (maximum): the GPU sets its clock "
             "itself",
             f_lo, f_hi);
    gp_value_interval(v, 1e3 * cycles * (1 - half) / f_hi, 1e3 * cycles * (1 + half) / f_lo, why);
    return v;
}

gp_value *gp_record_none(gp_record *r, const char *key, const char *unit, const char *reason)
{
    gp_value *v = gp_record_value(r, key, NAN, unit, -1, "");
    if (v) {
        v->detected = 0;
        snprintf(v->note, sizeof v->note, "%s", reason);
    }
    return v;
}

const gp_value *gp_record_find(const gp_record *r, const char *key)
{
    for (int i = 0; i < r->nvalues; i++)
        if (strcmp(r->values[i].key, key) == 0)
            return &r->values[i];
    return NULL;
}

void gp_record_note(gp_record *r, const char *fmt, ...)
{
    if (r->nnotes >= GP_RECORD_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->nnotes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

gp_series *gp_record_series(gp_record *r, const char *name, const char *cols_csv)
{
    if (r->nseries >= GP_RECORD_MAX_SERIES)
        return NULL;
    gp_series *s = &r->series[r->nseries++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    const char *p = cols_csv;
    while (*p && s->ncols < GP_SERIES_MAX_COLS) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof s->cols[0])
            len = sizeof s->cols[0] - 1;
        memcpy(s->cols[s->ncols], p, len);
        s->cols[s->ncols][len] = '\0';
        s->ncols++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return s;
}

gp_status gp_series_append(gp_series *s, const double *row)
{
    if (s->nrows == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        double *d = realloc(s->data, cap * (size_t)s->ncols * sizeof *d);
        if (!d)
            return gp_fail(GP_ERR_NOMEM, "series %s: out of host memory", s->name);
        s->data = d;
        s->cap = cap;
    }
    memcpy(s->data + s->nrows * (size_t)s->ncols, row, (size_t)s->ncols * sizeof *row);
    s->nrows++;
    return gp_ok();
}

/* ---- writers ---- */

static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void json_clock(FILE *f, const char *name, const gp_clock_reading *c)
{
    fprintf(f, "    ");
    gp_json_write_str(f, name);
    fprintf(f, ": {\"measured_mhz\": ");
    json_num(f, c->measured_mhz);
    fprintf(f, ", \"measured_min_mhz\": ");
    json_num(f, c->measured_min_mhz);
    fprintf(f, ", \"measured_max_mhz\": ");
    json_num(f, c->measured_max_mhz);
    fprintf(f, ", \"timer_vs_event\": ");
    json_num(f, c->timer_vs_event);
    fprintf(f, ", \"timer_hz\": ");
    json_num(f, c->timer_hz);
    fprintf(f, ", \"timer_nominal_hz\": ");
    json_num(f, c->timer_nominal_hz);
    fprintf(f, ", \"timer_calibrated\": %s", c->timer_calibrated ? "true" : "false");
    fprintf(f, ", \"reported_source\": ");
    gp_json_write_str(f, c->smi.source);
    fprintf(f, ", \"reported_mhz\": ");
    json_num(f, c->smi.available ? c->smi.sm_clock_mhz : NAN);
    fprintf(f, ", \"other_processes\": %d}", c->smi.other_processes);
}

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

/* JSON numbers are doubles; an out-of-range cast to int is undefined. */
static int to_int(double v, int dflt)
{
    return isfinite(v) && v > -1e9 && v < 1e9 ? (int)v : dflt;
}

/* The inverse of json_clock. */
static void read_clock(const gp_json *c, gp_clock_reading *r)
{
    memset(r, 0, sizeof *r);
    r->measured_mhz = gp_json_num_of(c, "measured_mhz", NAN);
    r->measured_min_mhz = gp_json_num_of(c, "measured_min_mhz", NAN);
    r->measured_max_mhz = gp_json_num_of(c, "measured_max_mhz", NAN);
    r->timer_vs_event = gp_json_num_of(c, "timer_vs_event", NAN);
    r->timer_hz = gp_json_num_of(c, "timer_hz", NAN);
    r->timer_nominal_hz = gp_json_num_of(c, "timer_nominal_hz", NAN);
    r->timer_calibrated = gp_json_bool_of(c, "timer_calibrated", 0);
    r->timer_suspect = !r->timer_calibrated && isfinite(r->timer_vs_event) &&
                       (r->timer_vs_event < 0.8 || r->timer_vs_event > 1.05);
    copy_str(r->smi.source, sizeof r->smi.source, gp_json_str_of(c, "reported_source", "none"));
    r->smi.sm_clock_mhz = gp_json_num_of(c, "reported_mhz", NAN);
    r->smi.available = isfinite(r->smi.sm_clock_mhz);
    r->smi.other_processes = to_int(gp_json_num_of(c, "other_processes", -1), -1);
}

int gp_record_from_json(const gp_json *j, gp_record *r, int *dropped, const char **why)
{
    memset(r, 0, sizeof *r);
    const char *probe = gp_json_str_of(j, "probe", NULL);
    if (!j || j->type != GP_JSON_OBJ || !probe || !probe[0]) {
        *why = "no \"probe\" member: not a probe record";
        return 0;
    }
    int lost = 0;
    copy_str(r->probe, sizeof r->probe, probe);
    copy_str(r->date, sizeof r->date, gp_json_str_of(j, "date", ""));
    copy_str(r->version, sizeof r->version, gp_json_str_of(j, "gpuprobe_version", ""));
    copy_str(r->build, sizeof r->build, gp_json_str_of(j, "gpuprobe_build", ""));
    copy_str(r->check, sizeof r->check, gp_json_str_of(j, "check", ""));
    r->quick = gp_json_bool_of(j, "quick", 0);
    const gp_json *d = gp_json_get(j, "device");
    copy_str(r->dev.name, sizeof r->dev.name, gp_json_str_of(d, "name", "unknown device"));
    copy_str(r->dev.vendor, sizeof r->dev.vendor, gp_json_str_of(d, "vendor", ""));
    copy_str(r->dev.arch, sizeof r->dev.arch, gp_json_str_of(d, "arch", ""));
    copy_str(r->dev.pci_bus_id, sizeof r->dev.pci_bus_id, gp_json_str_of(d, "pci_bus_id", ""));
    copy_str(r->dev.uuid, sizeof r->dev.uuid, gp_json_str_of(d, "uuid", ""));
    copy_str(r->dev.uuid_source, sizeof r->dev.uuid_source, gp_json_str_of(d, "uuid_source", ""));
    r->dev.compute_units = to_int(gp_json_num_of(d, "compute_units", 0), 0);
    r->dev.wave_size = to_int(gp_json_num_of(d, "wave_size", 0), 0);
    r->dev.core_clock_mhz = gp_json_num_of(d, "reported_clock_mhz", NAN);

    const gp_json *c = gp_json_get(j, "clock");
    const gp_json *before = gp_json_get(c, "before"), *after = gp_json_get(c, "after");
    if (before && after) {
        r->have_clock = 1;
        read_clock(before, &r->clock_before);
        read_clock(after, &r->clock_after);
        r->clock_moved = gp_json_bool_of(c, "moved", 0);
    }
    gp_record_vendor_read(j, r);

    const gp_json *vals = gp_json_get(j, "values");
    for (size_t i = 0; vals && vals->type == GP_JSON_ARR && i < vals->nkids; i++) {
        const gp_json *v = &vals->kids[i];
        const char *key = gp_json_str_of(v, "key", NULL);
        if (v->type != GP_JSON_OBJ || !key || !key[0])
            continue;
        if (r->nvalues >= GP_RECORD_MAX_VALUES) {
            lost++;
            continue;
        }
        gp_value *gv = &r->values[r->nvalues++];
        copy_str(gv->key, sizeof gv->key, key);
        gv->value = gp_json_num_of(v, "value", NAN);
        copy_str(gv->unit, sizeof gv->unit, gp_json_str_of(v, "unit", ""));
        double sp = gp_json_num_of(v, "spread", NAN);
        gv->spread = isfinite(sp) && sp >= 0 ? sp : -1; /* < 0: unknown, as gp_record_value */
        double sb = gp_json_num_of(v, "spread_between", NAN);
        gv->spread_between = isfinite(sb) && sb >= 0 ? sb : -1;
        const gp_json *rg = gp_json_get(v, "range");
        gv->range_lo = gv->range_hi = NAN;
        if (rg && rg->type == GP_JSON_ARR && rg->nkids == 2 && rg->kids[0].type == GP_JSON_NUM &&
            rg->kids[1].type == GP_JSON_NUM && rg->kids[0].num <= rg->kids[1].num) {
            gv->has_range = 1;
            gv->range_lo = rg->kids[0].num;
            gv->range_hi = rg->kids[1].num;
            copy_str(gv->range_method, sizeof gv->range_method, gp_json_str_of(v, "range_method", ""));
        }
        gv->detected = gp_json_bool_of(v, "detected", isfinite(gv->value)) && isfinite(gv->value);
        gv->unstable = gp_json_bool_of(v, "unstable", 0);
        /* older records: a rate per cycle is the one kind they converted */
        gv->clock_converted = gp_json_bool_of(v, "clock_converted", gp_unit_per_cycle(gv->unit));
        copy_str(gv->method, sizeof gv->method, gp_json_str_of(v, "method", ""));
        copy_str(gv->note, sizeof gv->note, gp_json_str_of(v, "note", ""));
    }

    const gp_json *notes = gp_json_get(j, "notes");
    for (size_t i = 0; notes && notes->type == GP_JSON_ARR && i < notes->nkids; i++) {
        if (notes->kids[i].type != GP_JSON_STR)
            continue;
        if (r->nnotes >= GP_RECORD_MAX_NOTES) {
            lost++;
            continue;
        }
        copy_str(r->notes[r->nnotes++], sizeof r->notes[0], notes->kids[i].str);
    }
    if (dropped)
        *dropped += lost;
    return 1;
}

static const char *json_type_name(const gp_json *v)
{
    switch (v->type) {
    case GP_JSON_NULL: return "null";
    case GP_JSON_BOOL: return "a boolean";
    case GP_JSON_NUM: return "a number";
    case GP_JSON_STR: return "a string";
    case GP_JSON_ARR: return "an array";
    case GP_JSON_OBJ: return "an object";
    }
    return "?";
}

/* Units whose values may be negative: a fraction (a loss of -0.002 %), a
 * ratio or factor, a value without a unit.  Every other unit measures a
 * size, a count, a time or a rate, none of which is below zero. */
static int signed_unit(const char *unit)
{
    static const char *const units[] = {"", "fraction", "ratio", "x", "%"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i]))
            return 1;
    return 0;
}

static gp_status check_strings(const gp_json *obj, const char *const *names, size_t n, const char *file,
                               const char *where)
{
    for (size_t m = 0; m < n; m++) {
        const gp_json *x = gp_json_get(obj, names[m]);
        if (x && x->type != GP_JSON_STR)
            return gp_fail(GP_ERR_USAGE, "%s: %s\"%s\" is %s, not a string", file, where, names[m], json_type_name(x));
    }
    return gp_ok();
}

/* A member that must be a finite number >= 0 (null allowed when nullable). */
static gp_status check_nonneg(const gp_json *obj, const char *name, int integer, int nullable, const char *file,
                              const char *where)
{
    const gp_json *x = gp_json_get(obj, name);
    if (!x || (nullable && x->type == GP_JSON_NULL))
        return gp_ok();
    if (x->type != GP_JSON_NUM || !isfinite(x->num))
        return gp_fail(GP_ERR_USAGE, "%s: %s\"%s\" is %s, not a finite number%s", file, where, name,
                       x->type == GP_JSON_NUM ? "out of range" : json_type_name(x), nullable ? " or null" : "");
    if (x->num < 0 || (integer && x->num != floor(x->num)))
        return gp_fail(GP_ERR_USAGE, "%s: %s\"%s\" is %.9g: %s", file, where, name, x->num,
                       x->num < 0 ? "cannot be negative" : "not a whole number");
    return gp_ok();
}

/* The record's header: version, check, device. */
static gp_status check_header(const gp_json *j, const char *file)
{
    if (j->type != GP_JSON_OBJ)
        return gp_fail(GP_ERR_USAGE, "%s: a record is a JSON object, this is %s", file, json_type_name(j));
    const gp_json *ver = gp_json_get(j, "schema_version");
    if (ver && ver->type != GP_JSON_STR)
        return gp_fail(GP_ERR_USAGE, "%s: \"schema_version\" is %s, not a string such as \"%s\"", file,
                       json_type_name(ver), GP_RECORD_SCHEMA);
    if (ver)
        GP_TRY(gp_schema_check(ver->str, GP_RECORD_SCHEMA, file));
    const gp_json *probe = gp_json_get(j, "probe");
    if (!probe || probe->type != GP_JSON_STR || !probe->str[0])
        return gp_fail(GP_ERR_USAGE, "%s: \"probe\" is %s, not a probe name", file,
                       probe ? probe->type == GP_JSON_STR ? "empty" : json_type_name(probe) : "missing");
    static const char *const top[] = {"date", "gpuprobe_version", "gpuprobe_build", "check"};
    GP_TRY(check_strings(j, top, sizeof top / sizeof top[0], file, ""));
    const char *check = gp_json_str_of(j, "check", "");
    if (check[0] && strcmp(check, "ok") && strncmp(check, "failed", 6))
        return gp_fail(GP_ERR_USAGE, "%s: \"check\" is '%.60s', not \"ok\", \"failed: reason\" or \"\" (not run)", file,
                       check);
    const gp_json *q = gp_json_get(j, "quick");
    if (q && q->type != GP_JSON_BOOL)
        return gp_fail(GP_ERR_USAGE, "%s: \"quick\" is %s, not true or false", file, json_type_name(q));
    const gp_json *d = gp_json_get(j, "device");
    if (d && d->type != GP_JSON_OBJ)
        return gp_fail(GP_ERR_USAGE, "%s: \"device\" is %s, not an object", file, json_type_name(d));
    static const char *const dev[] = {"name", "vendor", "arch", "pci_bus_id", "uuid", "uuid_source"};
    GP_TRY(check_strings(d, dev, sizeof dev / sizeof dev[0], file, "device: "));
    /* 0: not reported by the runtime */
    GP_TRY(check_nonneg(d, "compute_units", 1, 0, file, "device: "));
    GP_TRY(check_nonneg(d, "wave_size", 1, 0, file, "device: "));
    GP_TRY(check_nonneg(d, "reported_clock_mhz", 0, 1, file, "device: "));
    for (const char *name = "values"; name; name = strcmp(name, "values") ? NULL : "notes") {
        const gp_json *a = gp_json_get(j, name);
        if (a && a->type != GP_JSON_ARR)
            return gp_fail(GP_ERR_USAGE, "%s: \"%s\" is %s, not an array", file, name, json_type_name(a));
    }
    const gp_json *ser = gp_json_get(j, "series");
    if (ser && ser->type != GP_JSON_ARR)
        return gp_fail(GP_ERR_USAGE, "%s: \"series\" is %s, not an array", file, json_type_name(ser));
    for (size_t i = 0; ser && i < ser->nkids; i++) {
        static const char *const sm[] = {"name", "file"};
        char where[48];
        snprintf(where, sizeof where, "series[%zu]: ", i);
        if (ser->kids[i].type != GP_JSON_OBJ)
            return gp_fail(GP_ERR_USAGE, "%s: series[%zu] is %s, not an object", file, i,
                           json_type_name(&ser->kids[i]));
        GP_TRY(check_strings(&ser->kids[i], sm, 2, file, where));
        GP_TRY(check_nonneg(&ser->kids[i], "rows", 1, 0, file, where));
    }
    return gp_ok();
}

/* One entry of "values"; k its key. */
static gp_status check_value(const gp_json *v, const char *k, const char *file)
{
    static const char *const strings[] = {"unit", "method", "note", "range_method"};
    char where[96];
    snprintf(where, sizeof where, "key '%.63s': ", k);
    GP_TRY(check_strings(v, strings, sizeof strings / sizeof strings[0], file, where));
    static const char *const bools[] = {"detected", "unstable", "clock_converted"};
    for (size_t m = 0; m < sizeof bools / sizeof bools[0]; m++) {
        const gp_json *x = gp_json_get(v, bools[m]);
        if (x && x->type != GP_JSON_BOOL)
            return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"%s\" is %s, not true or false", file, k, bools[m],
                           json_type_name(x));
    }
    GP_TRY(check_nonneg(v, "spread", 0, 1, file, where));
    GP_TRY(check_nonneg(v, "spread_between", 0, 1, file, where));
    const gp_json *rg = gp_json_get(v, "range");
    if (rg && !(rg->type == GP_JSON_ARR && rg->nkids == 2 && rg->kids[0].type == GP_JSON_NUM &&
                rg->kids[1].type == GP_JSON_NUM && isfinite(rg->kids[0].num) && isfinite(rg->kids[1].num) &&
                rg->kids[0].num <= rg->kids[1].num))
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"range\" is not [low, high] with finite low <= high", file,
                       k);
    const gp_json *val = gp_json_get(v, "value");
    const gp_json *det = gp_json_get(v, "detected");
    if (val && val->type == GP_JSON_NUM && !isfinite(val->num))
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"value\" is out of range (not a finite number)", file, k);
    if (val && val->type != GP_JSON_NUM && val->type != GP_JSON_NULL)
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"value\" is %s, not a number or null", file, k,
                       json_type_name(val));
    int is_num = val && val->type == GP_JSON_NUM;
    if (!is_num && det && det->num != 0)
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"detected\" is true but \"value\" is %s", file, k,
                       val ? "null" : "missing");
    int detected = is_num && (!det || det->num != 0);
    const char *note = gp_json_str_of(v, "note", "");
    if (!detected && !note[0])
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': not detected, and no \"note\" says why", file, k);
    const char *unit = gp_json_str_of(v, "unit", "");
    if (is_num && val->num < 0 && !signed_unit(unit))
        return gp_fail(GP_ERR_USAGE, "%s: key '%.63s': \"value\" is %.9g %s: a quantity in %s cannot be negative",
                       file, k, val->num, unit, unit);
    return gp_ok();
}

static int cmp_value_key(const void *a, const void *b)
{
    const gp_json *x = *(const gp_json *const *)a, *y = *(const gp_json *const *)b;
    int c = strcmp(gp_json_str_of(x, "key", ""), gp_json_str_of(y, "key", ""));
    return c ? c : (x > y) - (x < y);
}

/* A key twice in "values" (each entry already has a key): a reader would
 * take one of two values and a page would show both.  Sorted, so a long
 * hostile list costs n log n. */
static gp_status check_unique_keys(const gp_json *vals, const char *file)
{
    if (!vals || vals->nkids < 2)
        return gp_ok();
    const gp_json **v = malloc(vals->nkids * sizeof *v);
    if (!v)
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory", file);
    for (size_t i = 0; i < vals->nkids; i++)
        v[i] = &vals->kids[i];
    qsort(v, vals->nkids, sizeof *v, cmp_value_key);
    gp_status st = gp_ok();
    for (size_t i = 1; i < vals->nkids && st.code == GP_OK; i++)
        if (!strcmp(gp_json_str_of(v[i - 1], "key", ""), gp_json_str_of(v[i], "key", "")))
            st = gp_fail(GP_ERR_USAGE, "%s: key '%.63s' is listed twice (values[%zu] and values[%zu])", file,
                         gp_json_str_of(v[i], "key", ""), (size_t)(v[i - 1] - vals->kids),
                         (size_t)(v[i] - vals->kids));
    free(v);
    return st;
}

gp_status gp_record_check_json(const gp_json *j, const char *file)
{
    if (!file)
        file = "record";
    GP_TRY(check_header(j, file));
    const gp_json *vals = gp_json_get(j, "values");
    for (size_t i = 0; vals && i < vals->nkids; i++) {
        const gp_json *v = &vals->kids[i];
        if (v->type != GP_JSON_OBJ)
            return gp_fail(GP_ERR_USAGE, "%s: values[%zu] is %s, not an object", file, i, json_type_name(v));
        const gp_json *key = gp_json_get(v, "key");
        if (!key || key->type != GP_JSON_STR || !key->str[0])
            return gp_fail(GP_ERR_USAGE, "%s: values[%zu]: \"key\" is %s, not a key name", file, i,
                           !key ? "missing" : key->type == GP_JSON_STR ? "empty" : json_type_name(key));
        GP_TRY(check_value(v, key->str, file));
    }
    return check_unique_keys(vals, file);
}

static gp_status write_json(const gp_record *r, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "{\n  \"schema_version\": \"%s\",\n  \"probe\": ", GP_RECORD_SCHEMA);
    gp_json_write_str(f, r->probe);
    fprintf(f, ",\n  \"date\": ");
    gp_json_write_str(f, r->date);
    fprintf(f, ",\n  \"gpuprobe_version\": ");
    gp_json_write_str(f, r->version);
    fprintf(f, ",\n  \"gpuprobe_build\": ");
    gp_json_write_str(f, r->build);
    fprintf(f, ",\n  \"check\": ");
    gp_json_write_str(f, r->check);
    fprintf(f, ",\n  \"quick\": %s", r->quick ? "true" : "false");
    fprintf(f, ",\n  \"device\": {\"name\": ");
    gp_json_write_str(f, r->dev.name);
    fprintf(f, ", \"vendor\": ");
    gp_json_write_str(f, r->dev.vendor);
    fprintf(f, ", \"arch\": ");
    gp_json_write_str(f, r->dev.arch);
    fprintf(f, ", \"pci_bus_id\": ");
    gp_json_write_str(f, r->dev.pci_bus_id);
    /* which GPU of the node: "" with the reason when the runtime has no UUID */
    fprintf(f, ", \"uuid\": ");
    gp_json_write_str(f, r->dev.uuid);
    fprintf(f, ", \"uuid_source\": ");
    gp_json_write_str(f, r->dev.uuid_source);
    fprintf(f, ", \"compute_units\": %d, \"wave_size\": %d, \"reported_clock_mhz\": ",
            r->dev.compute_units, r->dev.wave_size);
    json_num(f, r->dev.core_clock_mhz);
    fprintf(f, "},\n  \"clock\": {\n");
    if (r->have_clock) {
        json_clock(f, "before", &r->clock_before);
        fprintf(f, ",\n");
        json_clock(f, "after", &r->clock_after);
        fprintf(f, ",\n    \"moved\": %s\n", r->clock_moved ? "true" : "false");
    }
    fprintf(f, "  }");
    gp_record_vendor_json(f, r);
    int known, noise = gp_record_noise(r, &known), others = gp_record_other_processes(r);
    fprintf(f, ",\n  \"noise\": {\"flagged\": %s, \"clock_moved\": %s, \"other_processes\": ",
            noise ? "true" : "false", r->clock_moved ? "true" : "false");
    if (known)
        fprintf(f, "%d", others);
    else
        fputs("null", f);
    fprintf(f, "},\n  \"values\": [");
    for (int i = 0; i < r->nvalues; i++) {
        const gp_value *v = &r->values[i];
        fprintf(f, "%s\n    {\"key\": ", i ? "," : "");
        gp_json_write_str(f, v->key);
        fprintf(f, ", \"value\": ");
        json_num(f, v->detected ? v->value : NAN);
        fprintf(f, ", \"unit\": ");
        gp_json_write_str(f, v->unit);
        fprintf(f, ", \"spread\": ");
        json_num(f, v->spread >= 0 ? v->spread : NAN);
        if (v->spread_between >= 0) {
            fprintf(f, ", \"spread_between\": ");
            json_num(f, v->spread_between);
        }
        if (v->has_range) {
            fprintf(f, ", \"range\": [");
            json_num(f, v->range_lo);
            fprintf(f, ", ");
            json_num(f, v->range_hi);
            fprintf(f, "]");
            if (v->range_method[0]) {
                fprintf(f, ", \"range_method\": ");
                gp_json_write_str(f, v->range_method);
            }
        }
        fprintf(f, ", \"detected\": %s, \"unstable\": %s, \"clock_converted\": %s, \"method\": ",
                v->detected ? "true" : "false", v->unstable ? "true" : "false", v->clock_converted ? "true" : "false");
        gp_json_write_str(f, v->method);
        fprintf(f, ", \"note\": ");
        gp_json_write_str(f, v->note);
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"series\": [");
    for (int i = 0; i < r->nseries; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        gp_json_write_str(f, r->series[i].name);
        fprintf(f, ", \"file\": \"%s_%s.csv\", \"rows\": %zu}", r->probe, r->series[i].name,
                r->series[i].nrows);
    }
    fprintf(f, "\n  ],\n  \"notes\": [");
    for (int i = 0; i < r->nnotes; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        gp_json_write_str(f, r->notes[i]);
    }
    fprintf(f, "\n  ]\n}\n");
    return gp_fs_commit(f, path);
}

static gp_status write_csv(const gp_series *s, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    for (int c = 0; c < s->ncols; c++)
        fprintf(f, "%s%s", c ? "," : "", s->cols[c]);
    fputc('\n', f);
    for (size_t i = 0; i < s->nrows; i++) {
        for (int c = 0; c < s->ncols; c++)
            fprintf(f, "%s%.8g", c ? "," : "", s->data[i * (size_t)s->ncols + c]);
        fputc('\n', f);
    }
    return gp_fs_commit(f, path);
}

static void md_value(gp_doc *d, const gp_value *v)
{
    char num[48], spread[48];
    gp_doc_row_begin(d);
    gp_doc_cell(d, NULL, GP_DOC_CODE, v->key);
    snprintf(num, sizeof num, "%.6g", v->value);
    gp_doc_cell(d, "num", GP_DOC_PLAIN, v->detected ? num : "not detected");
    gp_doc_cell(d, NULL, GP_DOC_PLAIN, v->unit);
    spread[0] = '\0';
    if (v->detected && v->spread >= 0)
        snprintf(spread, sizeof spread, "%.1f%%%s", 100 * v->spread, v->unstable ? " (unstable)" : "");
    gp_doc_cell(d, "num", GP_DOC_PLAIN, spread);
    gp_doc_cell_begin(d, "method", 1);
    gp_doc_text(d, v->detected ? v->method : "");
    if (v->detected && v->has_range)
        gp_doc_textf(d, "; range %.4g..%.4g%s%s", v->range_lo, v->range_hi, v->range_method[0] ? ": " : "",
                     v->range_method);
    if (v->detected && v->spread_between >= 0)
        gp_doc_textf(d, "; between fresh launches %.1f%%", 100 * v->spread_between);
    if (v->detected && v->note[0])
        gp_doc_text(d, "; ");
    gp_doc_text(d, v->note);
    gp_doc_cell_end(d);
    gp_doc_row_end(d);
}

static void md_clock(gp_doc *d, const char *when, const gp_clock_reading *c)
{
    gp_doc_item_begin(d, NULL);
    gp_doc_textf(d, "%s: measured %.0f MHz (CUs %.0f..%.0f)", when, c->measured_mhz, c->measured_min_mhz,
                 c->measured_max_mhz);
    if (c->smi.available)
        gp_doc_textf(d, ", reported %.0f MHz by %s", c->smi.sm_clock_mhz, c->smi.source);
    else
        gp_doc_text(d, ", no vendor reading");
    if (c->timer_suspect)
        gp_doc_textf(d, " \xe2\x80\x94 timer rate disagrees with event time (ratio %.3f)", c->timer_vs_event);
    if (c->timer_calibrated)
        gp_doc_textf(d, " \xe2\x80\x94 timer rate calibrated against event time: %.4g MHz (nominal %.4g MHz)",
                     c->timer_hz / 1e6, c->timer_nominal_hz / 1e6);
    gp_doc_item_end(d);
}

/* The probe's own page, <probe>.md, through the document writer. */
static gp_status write_md(const gp_record *r, const char *path)
{
    static const char *const heads[] = {"key", "value", "unit", "spread (p90-p10)/median", "method"};
    FILE *f;
    char title[640];
    GP_TRY(gp_fs_open_atomic(path, &f));
    gp_doc doc, *d = &doc;
    gp_doc_init(d, f, GP_DOC_MD);
    snprintf(title, sizeof title, "%s on %s", r->probe, r->dev.name);
    gp_doc_heading(d, 1, NULL, title);
    gp_doc_para_begin(d, NULL);
    gp_doc_textf(d, "Device: %s (%s, %s), %d compute units, wave size %d. Measured %s.", r->dev.name,
                 r->dev.vendor, r->dev.arch, r->dev.compute_units, r->dev.wave_size, r->date);
    gp_doc_para_end(d);
    if (r->have_clock) {
        gp_doc_para(d, NULL, "Core clock (in-kernel cycles against the constant-rate timer):");
        gp_doc_list_begin(d);
        md_clock(d, "before", &r->clock_before);
        md_clock(d, "after", &r->clock_after);
        gp_doc_list_end(d);
        if (r->clock_moved) {
            gp_doc_para_begin(d, NULL);
            gp_doc_span(d, GP_DOC_BAD, "The clock moved during the probe: cycle figures are uncertain.");
            gp_doc_para_end(d);
        }
    }
    if (r->have_telemetry || r->have_health) {
        gp_doc_para(d, NULL, "The vendor library's view of the GPU:");
        gp_doc_list_begin(d);
        gp_record_vendor_md(d, r);
        gp_doc_list_end(d);
    }
    gp_doc_table_begin(d, 5, heads);
    for (int i = 0; i < r->nvalues; i++)
        md_value(d, &r->values[i]);
    gp_doc_table_end(d);
    if (r->nnotes) {
        gp_doc_para(d, NULL, "Findings:");
        gp_doc_list_texts(d, r->notes[0], sizeof r->notes[0], r->nnotes);
    }
    if (r->nseries) {
        gp_doc_para(d, NULL, "Raw series:");
        gp_doc_list_begin(d);
        for (int i = 0; i < r->nseries; i++) {
            char name[160];
            snprintf(name, sizeof name, "%s_%s.csv", r->probe, r->series[i].name);
            gp_doc_item_begin(d, NULL);
            gp_doc_span(d, GP_DOC_CODE, name);
            gp_doc_textf(d, " (%zu rows)", r->series[i].nrows);
            gp_doc_item_end(d);
        }
        gp_doc_list_end(d);
    }
    return gp_fs_commit(f, path);
}

gp_status gp_record_write(const gp_record *r, const char *dir)
{
    char path[1024], name[160];
    GP_TRY(gp_fs_mkdirs(dir));
    /* Series and Markdown first, the JSON last: the JSON is what readers
     * (report, resume) look for, so it must not appear before its series. */
    for (int i = 0; i < r->nseries; i++) {
        snprintf(name, sizeof name, "%s_%s.csv", r->probe, r->series[i].name);
        GP_TRY(gp_fs_join(path, sizeof path, dir, name));
        GP_TRY(write_csv(&r->series[i], path));
    }
    snprintf(name, sizeof name, "%s.md", r->probe);
    GP_TRY(gp_fs_join(path, sizeof path, dir, name));
    GP_TRY(write_md(r, path));
    snprintf(name, sizeof name, "%s.json", r->probe);
    GP_TRY(gp_fs_join(path, sizeof path, dir, name));
    return write_json(r, path);
}

int gp_record_other_processes(const gp_record *r)
{
    if (!r->have_clock)
        return -1;
    int a = r->clock_before.smi.other_processes, b = r->clock_after.smi.other_processes;
    return a > b ? a : b;
}

int gp_record_noise(const gp_record *r, int *sharing_known)
{
    int others = gp_record_other_processes(r);
    if (sharing_known)
        *sharing_known = others >= 0;
    const int capped = r->have_telemetry && r->telemetry.capped > 0;
    return (r->clock_moved ? GP_NOISE_CLOCK : 0) | (others > 0 ? GP_NOISE_SHARED : 0) |
           (capped ? GP_NOISE_CAPPED : 0);
}
