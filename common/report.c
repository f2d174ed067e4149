#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fsutil.h"
#include "json_read.h"
#include "record.h"
#include "svg.h"

/* ---- which columns to plot ----
 *
 * Keyed by (probe, series); series "*" matches any series of the probe.
 * Column fields list alternatives separated by '|' (the first present and not
 * constant wins); y lists the plotted lines separated by ','.  A spec whose x
 * or y columns are all absent is ignored, so entries for probes whose exact
 * column names are not known yet are harmless guesses: the generic fallback
 * still plots them. */
typedef struct plot_spec {
    const char *probe, *series;
    const char *x, *y;
    int logx, logy;
    const char *title, *xlabel, *ylabel;
} plot_spec;

static const plot_spec specs[] = {
    {"launch_rate", "1d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size",
     "threads per block", "threads launched per cycle"},
    {"launch_rate", "2d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size",
     "threads per block", "threads launched per cycle"},
    {"launch_rate", "3d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size",
     "threads per block", "threads launched per cycle"},
    /* Guesses for probes being written; ignored when the columns differ.  Axis
     * labels are left to the column names, which carry the unit. */
    {"cache_latency", "*", "footprint_bytes|footprint|bytes|size_bytes",
     "cycles|latency_cycles|cycles_per_load|ns|latency_ns", 1, 0, "Latency vs footprint", NULL, NULL},
    {"memory_bandwidth", "*", "footprint_bytes|footprint|bytes|size_bytes",
     "gbps|bandwidth_gbps|gb_per_s|GBps|bytes_per_cycle", 1, 0, "Bandwidth vs footprint", NULL, NULL},
    {"fma_throughput", "*", "threads|threads_per_block|blocks|waves|warps",
     "fma_per_cycle|fma_per_cycle_per_cu|flops_per_cycle", 0, 0, "FMA per cycle", NULL, NULL},
    {"lds", "*", "stride|stride_words|stride_bytes", "conflict_degree|ways", 0, 0, "Conflict degree vs stride",
     NULL, NULL},
    {"channel_conflicts", "*", "window_bytes|window|stride_bytes|stride", "gbps|bandwidth_gbps|gb_per_s", 1, 0,
     "Bandwidth vs channel window", NULL, NULL},
    {"register_limits", "*", "registers|regs|regs_per_thread|vgprs",
     "occupancy|waves_per_cu|blocks_per_cu|active_waves", 0, 0, "Occupancy vs registers", NULL, NULL},
};

#define MAX_LINES 6

typedef struct plot_choice {
    int xcol, ycols[MAX_LINES], ny;
    int logx, logy;
    char title[160], xlabel[96], ylabel[96];
} plot_choice;

/* ---- the records, as read back ---- */

typedef struct rp_series {
    char name[48], file[160], svg[200];
    gp_series data;              /* data.data NULL when the CSV could not be read */
    char err[GP_STATUS_MSG_LEN]; /* why, when it could not */
    plot_choice plot;
} rp_series;

typedef struct rp_probe {
    char file[256];
    gp_record rec;               /* probe, date, device, clock, values, notes */
    rp_series series[GP_RECORD_MAX_SERIES];
    int nseries;
    int dropped;                 /* values/series/notes beyond the record limits */
} rp_probe;

typedef struct report {
    const char *results_dir, *out_dir;
    rp_probe *probes;
    int nprobes;
    char skipped[16][GP_STATUS_MSG_LEN]; /* JSON files that are not records */
    int nskipped;
    char *table;                 /* table.txt, NULL when absent */
    char table_path[1024];
} report;

static int col_constant(const gp_series *s, int c)
{
    double first = NAN;
    for (size_t i = 0; i < s->nrows; i++) {
        double v = s->data[i * (size_t)s->ncols + c];
        if (!isfinite(v))
            continue;
        if (isnan(first))
            first = v;
        else if (v != first)
            return 0;
    }
    return 1;
}

/* First column named in `alts` ('|'-separated, up to `end`) that exists and,
 * when want_varying, is not constant (falling back to a constant one). */
static int find_col(const gp_series *s, const char *alts, size_t len, int want_varying)
{
    int constant_match = -1;
    const char *p = alts, *end = alts + len;
    while (p < end) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        size_t n = bar ? (size_t)(bar - p) : (size_t)(end - p);
        for (int c = 0; c < s->ncols; c++)
            if (strlen(s->cols[c]) == n && memcmp(s->cols[c], p, n) == 0) {
                if (!want_varying || !col_constant(s, c))
                    return c;
                if (constant_match < 0)
                    constant_match = c;
            }
        p += n + 1;
    }
    return constant_match;
}

static void col_range(const gp_series *s, int c, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < s->nrows; i++) {
        double v = s->data[i * (size_t)s->ncols + c];
        if (isfinite(v)) {
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    }
}

static int spec_applies(const plot_spec *sp, const char *probe, const rp_series *rs, plot_choice *pc)
{
    if (strcmp(sp->probe, probe) != 0 || (strcmp(sp->series, "*") != 0 && strcmp(sp->series, rs->name) != 0))
        return 0;
    pc->xcol = find_col(&rs->data, sp->x, strlen(sp->x), 1);
    if (pc->xcol < 0)
        return 0;
    pc->ny = 0;
    const char *p = sp->y;
    while (*p && pc->ny < MAX_LINES) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        int c = find_col(&rs->data, p, n, 0);
        if (c >= 0 && c != pc->xcol)
            pc->ycols[pc->ny++] = c;
        p += n + (comma ? 1 : 0);
    }
    if (pc->ny == 0)
        return 0;
    pc->logx = sp->logx;
    pc->logy = sp->logy;
    snprintf(pc->title, sizeof pc->title, "%s (%s)", sp->title, rs->name);
    snprintf(pc->xlabel, sizeof pc->xlabel, "%s", sp->xlabel ? sp->xlabel : rs->data.cols[pc->xcol]);
    snprintf(pc->ylabel, sizeof pc->ylabel, "%s",
             sp->ylabel ? sp->ylabel : pc->ny == 1 ? rs->data.cols[pc->ycols[0]] : "value");
    return 1;
}

/* Generic choice: x is the first column that varies, y the last other column;
 * log axes where the values are positive and span many decades. */
static void choose_plot(const char *probe, rp_series *rs)
{
    plot_choice *pc = &rs->plot;
    memset(pc, 0, sizeof *pc);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (spec_applies(&specs[i], probe, rs, pc))
            return;
    const gp_series *s = &rs->data;
    pc->xcol = 0;
    for (int c = 0; c < s->ncols; c++)
        if (!col_constant(s, c)) {
            pc->xcol = c;
            break;
        }
    /* The last column with any number in it (a column of NaN would plot nothing). */
    int y = -1;
    for (int c = s->ncols - 1; c >= 0 && y < 0; c--) {
        double lo, hi;
        col_range(s, c, &lo, &hi);
        if (c != pc->xcol && lo <= hi)
            y = c;
    }
    if (y < 0)
        y = s->ncols > 1 && pc->xcol == s->ncols - 1 ? s->ncols - 2 : s->ncols - 1;
    pc->ycols[0] = y;
    pc->ny = 1;
    double lo, hi;
    col_range(s, pc->xcol, &lo, &hi);
    pc->logx = lo > 0 && hi / lo > 100;
    col_range(s, y, &lo, &hi);
    pc->logy = lo > 0 && hi / lo > 1000;
    snprintf(pc->title, sizeof pc->title, "%s %s: %s vs %s", probe, rs->name, s->cols[y], s->cols[pc->xcol]);
    snprintf(pc->xlabel, sizeof pc->xlabel, "%s", s->cols[pc->xcol]);
    snprintf(pc->ylabel, sizeof pc->ylabel, "%s", s->cols[y]);
}

/* ---- reading ---- */

static void safe_name(char *out, size_t n, const char *in)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++) {
        char c = *in;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '-' || c == '.';
        out[k++] = ok ? c : '_';
    }
    out[k] = '\0';
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

static void read_clock(const gp_json *c, gp_clock_reading *r)
{
    memset(r, 0, sizeof *r);
    r->measured_mhz = gp_json_num_of(c, "measured_mhz", NAN);
    r->measured_min_mhz = gp_json_num_of(c, "measured_min_mhz", NAN);
    r->measured_max_mhz = gp_json_num_of(c, "measured_max_mhz", NAN);
    r->timer_vs_event = gp_json_num_of(c, "timer_vs_event", NAN);
    r->timer_suspect = isfinite(r->timer_vs_event) && (r->timer_vs_event < 0.8 || r->timer_vs_event > 1.05);
    copy_str(r->smi.source, sizeof r->smi.source, gp_json_str_of(c, "reported_source", "none"));
    r->smi.sm_clock_mhz = gp_json_num_of(c, "reported_mhz", NAN);
    r->smi.available = isfinite(r->smi.sm_clock_mhz);
    r->smi.other_processes = to_int(gp_json_num_of(c, "other_processes", -1), -1);
}

/* Fill `pr` from a parsed record.  Returns 0 (with *why) when the JSON is not a record. */
static int from_json(const gp_json *j, rp_probe *pr, const char **why)
{
    const char *probe = gp_json_str_of(j, "probe", NULL);
    if (j->type != GP_JSON_OBJ || !probe || !probe[0]) {
        *why = "no \"probe\" member: not a probe record";
        return 0;
    }
    gp_record *r = &pr->rec;
    copy_str(r->probe, sizeof r->probe, probe);
    copy_str(r->date, sizeof r->date, gp_json_str_of(j, "date", ""));
    const gp_json *d = gp_json_get(j, "device");
    copy_str(r->dev.name, sizeof r->dev.name, gp_json_str_of(d, "name", "unknown device"));
    copy_str(r->dev.vendor, sizeof r->dev.vendor, gp_json_str_of(d, "vendor", ""));
    copy_str(r->dev.arch, sizeof r->dev.arch, gp_json_str_of(d, "arch", ""));
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

    const gp_json *vals = gp_json_get(j, "values");
    for (size_t i = 0; vals && vals->type == GP_JSON_ARR && i < vals->nkids; i++) {
        const gp_json *v = &vals->kids[i];
        if (r->nvalues >= GP_RECORD_MAX_VALUES) {
            pr->dropped++;
            continue;
        }
        gp_value *gv = &r->values[r->nvalues++];
        memset(gv, 0, sizeof *gv);
        copy_str(gv->key, sizeof gv->key, gp_json_str_of(v, "key", "?"));
        gv->value = gp_json_num_of(v, "value", NAN);
        copy_str(gv->unit, sizeof gv->unit, gp_json_str_of(v, "unit", ""));
        double sp = gp_json_num_of(v, "spread", NAN);
        gv->spread = isfinite(sp) ? sp : -1;
        gv->detected = gp_json_bool_of(v, "detected", isfinite(gv->value)) && isfinite(gv->value);
        gv->unstable = gp_json_bool_of(v, "unstable", 0);
        copy_str(gv->method, sizeof gv->method, gp_json_str_of(v, "method", ""));
        copy_str(gv->note, sizeof gv->note, gp_json_str_of(v, "note", ""));
    }

    const gp_json *notes = gp_json_get(j, "notes");
    for (size_t i = 0; notes && notes->type == GP_JSON_ARR && i < notes->nkids; i++) {
        if (notes->kids[i].type != GP_JSON_STR)
            continue;
        if (r->nnotes >= GP_RECORD_MAX_NOTES) {
            pr->dropped++;
            continue;
        }
        copy_str(r->notes[r->nnotes++], sizeof r->notes[0], notes->kids[i].str);
    }

    const gp_json *ser = gp_json_get(j, "series");
    for (size_t i = 0; ser && ser->type == GP_JSON_ARR && i < ser->nkids; i++) {
        const gp_json *s = &ser->kids[i];
        if (pr->nseries >= GP_RECORD_MAX_SERIES) {
            pr->dropped++;
            continue;
        }
        rp_series *rs = &pr->series[pr->nseries++];
        memset(rs, 0, sizeof *rs);
        copy_str(rs->name, sizeof rs->name, gp_json_str_of(s, "name", "series"));
        const char *file = gp_json_str_of(s, "file", NULL);
        char a[64], b[64];
        if (file) {
            copy_str(rs->file, sizeof rs->file, file);
        } else {
            copy_str(a, sizeof a, r->probe);
            copy_str(b, sizeof b, rs->name);
            snprintf(rs->file, sizeof rs->file, "%s_%s.csv", a, b);
        }
        safe_name(a, sizeof a, r->probe);
        safe_name(b, sizeof b, rs->name);
        snprintf(rs->svg, sizeof rs->svg, "%s_%s.svg", a, b);
    }
    return 1;
}

static void load_series(const char *dir, rp_series *rs)
{
    char path[1200];
    /* A record names files next to itself; anything with a path in it is not ours to open. */
    if (strchr(rs->file, '/') || strchr(rs->file, '\\') || rs->file[0] == '.' || !rs->file[0]) {
        snprintf(rs->err, sizeof rs->err, "series file name '%s' is not a plain file name", rs->file);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, rs->file);
    gp_status st = gp_csv_read(path, &rs->data);
    if (st.code != GP_OK) {
        snprintf(rs->err, sizeof rs->err, "%s", st.msg);
        memset(&rs->data, 0, sizeof rs->data);
        return;
    }
    if (rs->data.ncols == 0) {
        snprintf(rs->err, sizeof rs->err, "%.200s: no columns", path);
        free(rs->data.data);
        memset(&rs->data, 0, sizeof rs->data);
        return;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_report(report *R)
{
    for (int i = 0; i < R->nprobes; i++)
        for (int s = 0; s < R->probes[i].nseries; s++)
            free(R->probes[i].series[s].data.data);
    free(R->probes);
    free(R->table);
}

static char *read_text(const char *path, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(limit + 1);
    size_t n = buf ? fread(buf, 1, limit, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

static int svg_taken(const report *R, int pi, int si, const char *name)
{
    for (int i = 0; i <= pi; i++)
        for (int s = 0; s < (i == pi ? si : R->probes[i].nseries); s++)
            if (!strcmp(R->probes[i].series[s].svg, name))
                return 1;
    return 0;
}

static gp_status load(report *R)
{
    DIR *d = opendir(R->results_dir);
    if (!d)
        return gp_fail(GP_ERR_USAGE, "cannot open results directory '%s': %s", R->results_dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    gp_status st = gp_ok();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || e->d_name[0] == '.' || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                st = gp_fail(GP_ERR_NOMEM, "out of host memory listing '%s'", R->results_dir);
                break;
            }
            names = nn;
        }
        names[n] = strdup(e->d_name);
        if (!names[n]) {
            st = gp_fail(GP_ERR_NOMEM, "out of host memory listing '%s'", R->results_dir);
            break;
        }
        n++;
    }
    closedir(d);
    if (st.code == GP_OK && n == 0)
        st = gp_fail(GP_ERR_USAGE,
                     "no probe records (*.json) in '%s': run probes with --out '%s' first, or name the "
                     "directory that holds them",
                     R->results_dir, R->results_dir);
    if (st.code == GP_OK) {
        qsort(names, n, sizeof *names, cmp_str);
        R->probes = calloc(n, sizeof *R->probes);
        if (!R->probes)
            st = gp_fail(GP_ERR_NOMEM, "out of host memory reading records");
    }
    for (size_t i = 0; st.code == GP_OK && i < n; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", R->results_dir, names[i]);
        gp_json j;
        st = gp_json_read_file(path, &j);
        if (st.code != GP_OK)
            break;
        rp_probe *pr = &R->probes[R->nprobes];
        copy_str(pr->file, sizeof pr->file, names[i]);
        const char *why = NULL;
        if (from_json(&j, pr, &why)) {
            R->nprobes++;
            for (int s = 0; s < pr->nseries; s++) {
                load_series(R->results_dir, &pr->series[s]);
                if (pr->series[s].data.data || pr->series[s].data.ncols)
                    choose_plot(pr->rec.probe, &pr->series[s]);
            }
        } else if (R->nskipped < (int)(sizeof R->skipped / sizeof R->skipped[0])) {
            snprintf(R->skipped[R->nskipped++], sizeof R->skipped[0], "%s: %s", names[i], why);
        }
        gp_json_free(&j);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    /* Two records of one probe (or names that sanitize alike) must not share a plot file. */
    for (int i = 0; st.code == GP_OK && i < R->nprobes; i++)
        for (int s = 0; s < R->probes[i].nseries; s++) {
            rp_series *rs = &R->probes[i].series[s];
            for (int k = 2; k < 100 && svg_taken(R, i, s, rs->svg); k++) {
                char base[160];
                snprintf(base, sizeof base, "%.*s", (int)(strlen(rs->svg) - 4), rs->svg);
                snprintf(rs->svg, sizeof rs->svg, "%.150s_%d.svg", base, k);
            }
        }
    if (st.code == GP_OK && R->nprobes == 0)
        st = gp_fail(GP_ERR_USAGE, "no probe records in '%s': %d JSON file(s), none with a \"probe\" member",
                     R->results_dir, R->nskipped);
    if (st.code != GP_OK)
        return st;

    /* The tuning table, where the characterize run writes it. */
    const char *dirs[2] = {R->out_dir, R->results_dir};
    for (int i = 0; i < 2 && !R->table; i++) {
        snprintf(R->table_path, sizeof R->table_path, "%s/table.txt", dirs[i]);
        R->table = read_text(R->table_path, 1u << 20);
    }
    return gp_ok();
}

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

/* Plot data for one series (x and y arrays owned by the caller's buffers). */
typedef struct plot_data {
    gp_plot plot;
    gp_plot_series ps[MAX_LINES];
    double *buf;
} plot_data;

static gp_status make_plot(const rp_series *rs, plot_data *pd)
{
    const plot_choice *pc = &rs->plot;
    const gp_series *s = &rs->data;
    memset(pd, 0, sizeof *pd);
    size_t n = s->nrows;
    pd->buf = malloc((size_t)(pc->ny + 1) * (n ? n : 1) * sizeof(double));
    if (!pd->buf)
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting %s", rs->file);
    gp_series_column(s, pc->xcol, pd->buf);
    for (int k = 0; k < pc->ny; k++) {
        double *y = pd->buf + (size_t)(k + 1) * n;
        gp_series_column(s, pc->ycols[k], y);
        pd->ps[k].label = s->cols[pc->ycols[k]];
        pd->ps[k].x = pd->buf;
        pd->ps[k].y = y;
        pd->ps[k].n = n;
    }
    pd->plot.title = pc->title;
    pd->plot.xlabel = pc->xlabel;
    pd->plot.ylabel = pc->ylabel;
    pd->plot.logx = pc->logx;
    pd->plot.logy = pc->logy;
    pd->plot.series = pd->ps;
    pd->plot.nseries = pc->ny;
    return gp_ok();
}

static gp_status plot_to(FILE *f, const rp_series *rs)
{
    plot_data pd;
    GP_TRY(make_plot(rs, &pd));
    gp_status st = gp_svg_plot(f, &pd.plot);
    free(pd.buf);
    return st;
}

static void abandon(FILE *f, const char *path)
{
    char tmp[1300];
    fclose(f);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    remove(tmp);
}

static gp_status write_svgs(const report *R)
{
    for (int i = 0; i < R->nprobes; i++)
        for (int s = 0; s < R->probes[i].nseries; s++) {
            const rp_series *rs = &R->probes[i].series[s];
            if (!rs->data.ncols)
                continue;
            char path[1200];
            GP_TRY(gp_fs_join(path, sizeof path, R->out_dir, rs->svg));
            FILE *f;
            GP_TRY(gp_fs_open_atomic(path, &f));
            fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
            gp_status st = plot_to(f, rs);
            if (st.code != GP_OK) {
                abandon(f, path);
                return st;
            }
            GP_TRY(gp_fs_commit(f, path));
        }
    return gp_ok();
}

/* ---- HTML ---- */

static void h(FILE *f, const char *s)
{
    gp_xml_escape(f, s);
}

static void html_id(FILE *f, const char *probe)
{
    char id[64];
    safe_name(id, sizeof id, probe);
    fprintf(f, "probe-%s", id);
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
    "nav a{margin-right:14px}.meta{color:#555}";

static void html_device(FILE *f, const report *R)
{
    const gp_record *r = &R->probes[0].rec;
    char clk[32];
    fmt_num(clk, sizeof clk, r->dev.core_clock_mhz, "%.0f MHz");
    fprintf(f, "<h2 id=\"device\">Device</h2>\n<table>\n<tr><th>name</th><td>");
    h(f, r->dev.name);
    fprintf(f, "</td></tr>\n<tr><th>vendor</th><td>");
    h(f, r->dev.vendor);
    fprintf(f, "</td></tr>\n<tr><th>architecture</th><td>");
    h(f, r->dev.arch);
    fprintf(f, "</td></tr>\n<tr><th>compute units</th><td>%d</td></tr>\n", r->dev.compute_units);
    fprintf(f, "<tr><th>wave size</th><td>%d</td></tr>\n", r->dev.wave_size);
    fprintf(f, "<tr><th>reported clock</th><td>%s</td></tr>\n", clk);
    fprintf(f, "<tr><th>measured</th><td>");
    h(f, r->date);
    fprintf(f, "</td></tr>\n</table>\n");
    for (int i = 1; i < R->nprobes; i++) {
        const gp_record *o = &R->probes[i].rec;
        if (strcmp(o->dev.name, r->dev.name) || strcmp(o->dev.arch, r->dev.arch)) {
            fprintf(f, "<p class=\"bad\">Records from more than one device: ");
            h(f, o->probe);
            fprintf(f, " ran on ");
            h(f, o->dev.name);
            fprintf(f, " (");
            h(f, o->dev.arch);
            fprintf(f, ").</p>\n");
        }
    }
}

static void html_clock_cells(FILE *f, const gp_clock_reading *c)
{
    char a[32], b[32], m[32];
    fmt_num(a, sizeof a, c->measured_mhz, "%.0f");
    fmt_num(b, sizeof b, c->measured_min_mhz, "%.0f");
    fmt_num(m, sizeof m, c->measured_max_mhz, "%.0f");
    if (c->measured_min_mhz > 0 && c->measured_max_mhz > 0)
        fprintf(f, "<td class=\"num\">%s <small>(%s\xe2\x80\x93%s)</small></td>", a, b, m);
    else
        fprintf(f, "<td class=\"num\">%s</td>", a);
}

static void html_clocks(FILE *f, const report *R)
{
    fprintf(f, "<h2 id=\"clocks\">Clocks</h2>\n<p>Core clock measured in a kernel (cycle counter against the "
               "constant-rate timer; median over CUs, range in brackets), and the vendor-reported clock, before "
               "and after each probe. All cycle figures use the measured clock.</p>\n");
    fprintf(f, "<table>\n<tr><th>probe</th><th>measured before (MHz)</th><th>measured after (MHz)</th>"
               "<th>reported before (MHz)</th><th>reported after (MHz)</th><th>timer/event</th><th>moved</th></tr>\n");
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        fprintf(f, "<tr><td>");
        h(f, r->probe);
        fprintf(f, "</td>");
        if (!r->have_clock) {
            fprintf(f, "<td colspan=\"6\">not measured</td></tr>\n");
            continue;
        }
        html_clock_cells(f, &r->clock_before);
        html_clock_cells(f, &r->clock_after);
        char a[48], b[48], t[48];
        fmt_num(a, sizeof a, r->clock_before.smi.sm_clock_mhz, "%.0f");
        fmt_num(b, sizeof b, r->clock_after.smi.sm_clock_mhz, "%.0f");
        fmt_num(t, sizeof t, r->clock_after.timer_vs_event, "%.3f");
        fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%s</td>", a, b);
        fprintf(f, "<td class=\"num%s\">%s</td>",
                r->clock_before.timer_suspect || r->clock_after.timer_suspect ? " bad" : "", t);
        fprintf(f, "<td>%s</td></tr>\n", r->clock_moved ? "<span class=\"bad\">yes</span>" : "no");
    }
    fprintf(f, "</table>\n");
}

static void html_value_row(FILE *f, const char *probe, const gp_value *v)
{
    char val[48], spr[32];
    fmt_num(val, sizeof val, v->detected ? v->value : NAN, "%.6g");
    fmt_spread(spr, sizeof spr, v);
    fprintf(f, "<tr><td><a href=\"#");
    html_id(f, probe);
    fprintf(f, "\">");
    h(f, probe);
    fprintf(f, "</a></td><td><code>");
    h(f, v->key);
    fprintf(f, "</code></td>");
    if (v->detected)
        fprintf(f, "<td class=\"num\">%s</td>", val);
    else
        fprintf(f, "<td class=\"bad\">not detected</td>");
    fprintf(f, "<td>");
    h(f, v->unit);
    fprintf(f, "</td><td class=\"num%s\">%s%s</td><td class=\"method\">", v->unstable ? " warn" : "", spr,
            v->unstable ? " unstable" : "");
    h(f, v->method);
    if (v->note[0]) {
        fprintf(f, "%s<em>", v->method[0] ? "<br>" : "");
        h(f, v->note);
        fprintf(f, "</em>");
    }
    fprintf(f, "</td></tr>\n");
}

static void html_summary(FILE *f, const report *R)
{
    fprintf(f, "<h2 id=\"summary\">Summary</h2>\n<p>Every characteristic the probes recorded. Spread is "
               "(p90\xe2\x88\x92p10)/median of the samples behind a value.</p>\n<table>\n<tr><th>probe</th>"
               "<th>key</th><th>value</th><th>unit</th><th>spread</th><th>method</th></tr>\n");
    for (int i = 0; i < R->nprobes; i++)
        for (int k = 0; k < R->probes[i].rec.nvalues; k++)
            html_value_row(f, R->probes[i].rec.probe, &R->probes[i].rec.values[k]);
    fprintf(f, "</table>\n");
}

static void html_attention(FILE *f, const report *R)
{
    fprintf(f, "<h2 id=\"attention\">Unstable or undetected results</h2>\n");
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
        fprintf(f, "<p class=\"ok\">None: every value was detected with a stable spread, no clock moved "
                   "and every series was read.</p>\n");
        return;
    }
    fprintf(f, "<ul>\n");
    for (int i = 0; i < R->nprobes; i++) {
        const rp_probe *pr = &R->probes[i];
        for (int k = 0; k < pr->rec.nvalues; k++) {
            const gp_value *v = &pr->rec.values[k];
            if (!needs_attention(v))
                continue;
            fprintf(f, "<li><b>");
            h(f, pr->rec.probe);
            fprintf(f, "</b> <code>");
            h(f, v->key);
            if (!v->detected) {
                fprintf(f, "</code>: <span class=\"bad\">not detected</span>");
                if (v->note[0]) {
                    fprintf(f, " \xe2\x80\x94 ");
                    h(f, v->note);
                }
            } else {
                char spr[32];
                fmt_spread(spr, sizeof spr, v);
                fprintf(f, "</code>: <span class=\"warn\">unstable</span>, %.6g ", v->value);
                h(f, v->unit);
                fprintf(f, " with spread %s", spr);
            }
            fprintf(f, "</li>\n");
        }
        if (pr->rec.clock_moved) {
            fprintf(f, "<li><b>");
            h(f, pr->rec.probe);
            fprintf(f, "</b>: <span class=\"bad\">the clock moved during the probe</span> (%.0f \xe2\x86\x92 %.0f "
                       "MHz measured); its cycle figures are uncertain.</li>\n",
                    pr->rec.clock_before.measured_mhz, pr->rec.clock_after.measured_mhz);
        }
        for (int s = 0; s < pr->nseries; s++)
            if (pr->series[s].err[0]) {
                fprintf(f, "<li><b>");
                h(f, pr->rec.probe);
                fprintf(f, "</b>: series <code>");
                h(f, pr->series[s].name);
                fprintf(f, "</code> missing: ");
                h(f, pr->series[s].err);
                fprintf(f, "</li>\n");
            }
    }
    for (int i = 0; i < R->nskipped; i++) {
        fprintf(f, "<li>skipped ");
        h(f, R->skipped[i]);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul>\n");
}

static gp_status html_probe(FILE *f, const rp_probe *pr)
{
    const gp_record *r = &pr->rec;
    fprintf(f, "<h3 id=\"");
    html_id(f, r->probe);
    fprintf(f, "\">");
    h(f, r->probe);
    fprintf(f, "</h3>\n<p class=\"meta\">Record <code>");
    h(f, pr->file);
    fprintf(f, "</code>, measured ");
    h(f, r->date);
    fprintf(f, ", %d values, %d series.</p>\n", r->nvalues, pr->nseries);
    if (r->nnotes) {
        fprintf(f, "<p>Findings:</p>\n<ul>\n");
        for (int i = 0; i < r->nnotes; i++) {
            fprintf(f, "<li>");
            h(f, r->notes[i]);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul>\n");
    } else {
        fprintf(f, "<p>No findings recorded.</p>\n");
    }
    if (pr->dropped)
        fprintf(f, "<p class=\"warn\">%d values, series or notes beyond this report's limits were left out.</p>\n",
                pr->dropped);
    for (int s = 0; s < pr->nseries; s++) {
        const rp_series *rs = &pr->series[s];
        if (rs->err[0]) {
            fprintf(f, "<p class=\"bad\">Series <code>");
            h(f, rs->name);
            fprintf(f, "</code>: no plot, ");
            h(f, rs->err);
            fprintf(f, "</p>\n");
            continue;
        }
        fprintf(f, "<figure>\n");
        GP_TRY(plot_to(f, rs));
        fprintf(f, "<figcaption class=\"meta\">Data: <code>");
        h(f, rs->file);
        fprintf(f, "</code> (%zu rows)</figcaption>\n</figure>\n", rs->data.nrows);
    }
    return gp_ok();
}

static gp_status write_html(const report *R, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    const gp_record *r0 = &R->probes[0].rec;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    h(f, r0->dev.name);
    fprintf(f, " \xe2\x80\x94 gpuprobe characterization</title>\n<style>%s</style>\n</head>\n<body>\n", css);
    fprintf(f, "<h1>Hardware characterization: ");
    h(f, r0->dev.name);
    fprintf(f, "</h1>\n<p class=\"meta\">Written by gpuprobe from %d probe record%s in <code>", R->nprobes,
            R->nprobes == 1 ? "" : "s");
    h(f, R->results_dir);
    fprintf(f, "</code>.</p>\n<nav><a href=\"#device\">Device</a><a href=\"#clocks\">Clocks</a>"
               "<a href=\"#summary\">Summary</a><a href=\"#attention\">Unstable or undetected</a>"
               "<a href=\"#probes\">Probes</a><a href=\"#tuning-table\">Tuning table</a></nav>\n");
    html_device(f, R);
    html_clocks(f, R);
    html_summary(f, R);
    html_attention(f, R);
    fprintf(f, "<h2 id=\"probes\">Probes</h2>\n");
    for (int i = 0; i < R->nprobes; i++) {
        gp_status st = html_probe(f, &R->probes[i]);
        if (st.code != GP_OK) {
            abandon(f, path);
            return st;
        }
    }
    fprintf(f, "<h2 id=\"tuning-table\">Tuning table</h2>\n");
    if (R->table) {
        fprintf(f, "<p class=\"meta\">From <code>");
        h(f, R->table_path);
        fprintf(f, "</code>, verbatim.</p>\n<pre>");
        h(f, R->table);
        fprintf(f, "</pre>\n");
    } else {
        fprintf(f, "<p>No tuning table (<code>table.txt</code>) in <code>");
        h(f, R->out_dir);
        fprintf(f, "</code> or <code>");
        h(f, R->results_dir);
        fprintf(f, "</code>.</p>\n");
    }
    fprintf(f, "</body>\n</html>\n");
    return gp_fs_commit(f, path);
}

/* ---- Markdown ---- */

/* Table-cell text: '|' escaped, line breaks flattened. */
static void md(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '<')
            fputs("&lt;", f); /* GitHub would take <...> for HTML */
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void md_clock(FILE *f, const gp_clock_reading *c)
{
    char a[32], b[32], m[32];
    fmt_num(a, sizeof a, c->measured_mhz, "%.0f");
    fmt_num(b, sizeof b, c->measured_min_mhz, "%.0f");
    fmt_num(m, sizeof m, c->measured_max_mhz, "%.0f");
    if (c->measured_min_mhz > 0 && c->measured_max_mhz > 0)
        fprintf(f, " %s (%s\xe2\x80\x93%s) |", a, b, m);
    else
        fprintf(f, " %s |", a);
}

static gp_status write_md(const report *R, const char *path)
{
    FILE *f;
    GP_TRY(gp_fs_open_atomic(path, &f));
    const gp_record *r0 = &R->probes[0].rec;
    char buf[64];
    fprintf(f, "# Hardware characterization: ");
    md(f, r0->dev.name);
    fprintf(f, "\n\nWritten by gpuprobe from %d probe record%s in `%s`.\n\n## Device\n\n", R->nprobes,
            R->nprobes == 1 ? "" : "s", R->results_dir);
    fmt_num(buf, sizeof buf, r0->dev.core_clock_mhz, "%.0f MHz");
    fprintf(f, "| | |\n| --- | --- |\n| name | ");
    md(f, r0->dev.name);
    fprintf(f, " |\n| vendor | ");
    md(f, r0->dev.vendor);
    fprintf(f, " |\n| architecture | ");
    md(f, r0->dev.arch);
    fprintf(f, " |\n| compute units | %d |\n| wave size | %d |\n| reported clock | %s |\n| measured | %s |\n",
            r0->dev.compute_units, r0->dev.wave_size, buf, r0->date);
    for (int i = 1; i < R->nprobes; i++) {
        const gp_record *o = &R->probes[i].rec;
        if (strcmp(o->dev.name, r0->dev.name) || strcmp(o->dev.arch, r0->dev.arch)) {
            fprintf(f, "\n**Records from more than one device:** %s ran on ", o->probe);
            md(f, o->dev.name);
            fprintf(f, " (%s).\n", o->dev.arch);
        }
    }

    fprintf(f, "\n## Clocks\n\nCore clock measured in a kernel (median over CUs, range in brackets) and the "
               "vendor-reported clock, before and after each probe.\n\n"
               "| probe | measured before (MHz) | measured after (MHz) | reported before (MHz) | reported after "
               "(MHz) | timer/event | moved |\n| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        fprintf(f, "| ");
        md(f, r->probe);
        fprintf(f, " |");
        if (!r->have_clock) {
            fprintf(f, " not measured | | | | | |\n");
            continue;
        }
        md_clock(f, &r->clock_before);
        md_clock(f, &r->clock_after);
        char a[32], b[32], t[32];
        fmt_num(a, sizeof a, r->clock_before.smi.sm_clock_mhz, "%.0f");
        fmt_num(b, sizeof b, r->clock_after.smi.sm_clock_mhz, "%.0f");
        fmt_num(t, sizeof t, r->clock_after.timer_vs_event, "%.3f");
        fprintf(f, " %s | %s | %s%s | %s |\n", a, b, t,
                r->clock_before.timer_suspect || r->clock_after.timer_suspect ? " (suspect)" : "",
                r->clock_moved ? "**yes**" : "no");
    }

    fprintf(f, "\n## Summary\n\nSpread is (p90\xe2\x88\x92p10)/median of the samples behind a value.\n\n"
               "| probe | key | value | unit | spread | method |\n| --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < R->nprobes; i++)
        for (int k = 0; k < R->probes[i].rec.nvalues; k++) {
            const gp_value *v = &R->probes[i].rec.values[k];
            char val[48], spr[32];
            fmt_num(val, sizeof val, v->value, "%.6g");
            fmt_spread(spr, sizeof spr, v);
            fprintf(f, "| ");
            md(f, R->probes[i].rec.probe);
            fprintf(f, " | `");
            md(f, v->key);
            fprintf(f, "` | %s | ", v->detected ? val : "**not detected**");
            md(f, v->unit);
            fprintf(f, " | %s%s | ", spr, v->unstable ? " **unstable**" : "");
            md(f, v->method);
            if (v->note[0]) {
                fprintf(f, "%s*", v->method[0] ? "; " : "");
                md(f, v->note);
                fputc('*', f);
            }
            fprintf(f, " |\n");
        }

    fprintf(f, "\n## Unstable or undetected results\n\n");
    int n = R->nskipped;
    for (int i = 0; i < R->nprobes; i++) {
        const rp_probe *pr = &R->probes[i];
        for (int k = 0; k < pr->rec.nvalues; k++) {
            const gp_value *v = &pr->rec.values[k];
            if (!needs_attention(v))
                continue;
            n++;
            fprintf(f, "- **%s** `%s`: ", pr->rec.probe, v->key);
            if (!v->detected) {
                fprintf(f, "not detected");
                if (v->note[0]) {
                    fprintf(f, " \xe2\x80\x94 ");
                    md(f, v->note);
                }
            } else {
                char spr[32];
                fmt_spread(spr, sizeof spr, v);
                fprintf(f, "unstable, %.6g %s with spread %s", v->value, v->unit, spr);
            }
            fputc('\n', f);
        }
        if (pr->rec.clock_moved) {
            n++;
            fprintf(f, "- **%s**: the clock moved during the probe (%.0f \xe2\x86\x92 %.0f MHz measured); its cycle "
                       "figures are uncertain.\n",
                    pr->rec.probe, pr->rec.clock_before.measured_mhz, pr->rec.clock_after.measured_mhz);
        }
        for (int s = 0; s < pr->nseries; s++)
            if (pr->series[s].err[0]) {
                n++;
                fprintf(f, "- **%s**: series `%s` missing: ", pr->rec.probe, pr->series[s].name);
                md(f, pr->series[s].err);
                fputc('\n', f);
            }
    }
    for (int i = 0; i < R->nskipped; i++)
        fprintf(f, "- skipped %s\n", R->skipped[i]);
    if (n == 0)
        fprintf(f, "None: every value was detected with a stable spread, no clock moved and every series was "
                   "read.\n");

    fprintf(f, "\n## Probes\n");
    for (int i = 0; i < R->nprobes; i++) {
        const rp_probe *pr = &R->probes[i];
        fprintf(f, "\n### %s\n\nRecord `%s`, measured %s, %d values, %d series.\n\n", pr->rec.probe, pr->file,
                pr->rec.date, pr->rec.nvalues, pr->nseries);
        if (pr->rec.nnotes) {
            fprintf(f, "Findings:\n\n");
            for (int k = 0; k < pr->rec.nnotes; k++) {
                fprintf(f, "- ");
                md(f, pr->rec.notes[k]);
                fputc('\n', f);
            }
        } else {
            fprintf(f, "No findings recorded.\n");
        }
        if (pr->dropped)
            fprintf(f, "\n%d values, series or notes beyond this report's limits were left out.\n", pr->dropped);
        for (int s = 0; s < pr->nseries; s++) {
            const rp_series *rs = &pr->series[s];
            if (rs->err[0]) {
                fprintf(f, "\nSeries `%s`: no plot, ", rs->name);
                md(f, rs->err);
                fputc('\n', f);
            } else {
                fprintf(f, "\n![");
                md(f, rs->plot.title);
                fprintf(f, "](%s)\n\nData: `%s` (%zu rows)\n", rs->svg, rs->file, rs->data.nrows);
            }
        }
    }

    fprintf(f, "\n## Tuning table\n\n");
    if (R->table) {
        /* A fence longer than any backtick run inside keeps the text verbatim. */
        int run = 0, longest = 0;
        for (const char *p = R->table; *p; p++) {
            run = *p == '`' ? run + 1 : 0;
            if (run > longest)
                longest = run;
        }
        int fence = longest >= 3 ? longest + 1 : 3;
        if (fence > 16)
            fence = 16;
        size_t len = strlen(R->table);
        fprintf(f, "From `%s`, verbatim.\n\n%.*s\n%s%s%.*s\n", R->table_path, fence, "````````````````",
                R->table, len && R->table[len - 1] == '\n' ? "" : "\n", fence, "````````````````");
    } else {
        fprintf(f, "No tuning table (`table.txt`) in `%s` or `%s`.\n", R->out_dir, R->results_dir);
    }
    return gp_fs_commit(f, path);
}

gp_status gp_report_write(const char *results_dir, const char *out_dir)
{
    if (!results_dir || !results_dir[0])
        return gp_fail(GP_ERR_USAGE, "report: no results directory given");
    if (!out_dir || !out_dir[0])
        out_dir = results_dir;
    report R;
    memset(&R, 0, sizeof R);
    R.results_dir = results_dir;
    R.out_dir = out_dir;
    gp_status st = load(&R);
    char path[1200];
    if (st.code == GP_OK)
        st = gp_fs_mkdirs(out_dir);
    if (st.code == GP_OK)
        st = write_svgs(&R);
    if (st.code == GP_OK)
        st = gp_fs_join(path, sizeof path, out_dir, "report.html");
    if (st.code == GP_OK)
        st = write_html(&R, path);
    if (st.code == GP_OK)
        st = gp_fs_join(path, sizeof path, out_dir, "report.md");
    if (st.code == GP_OK)
        st = write_md(&R, path);
    free_report(&R);
    return st;
}
