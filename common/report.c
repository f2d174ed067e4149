#define _POSIX_C_SOURCE 200809L
#include "report.h"

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
 * Keyed by (probe, series); series "*" matches any series of the probe (its
 * title then gets the series name).  Column fields list alternatives
 * separated by '|' (the first present and not constant wins); y lists the
 * plotted lines separated by ','.  A spec whose columns are absent is
 * ignored, so the report still plots a changed probe through a later spec or
 * the generic fallback.
 *
 * split names columns whose values part the rows into separate series (one
 * line and legend entry each), e.g. a sweep run once with the L1 and once
 * without; where keeps only the rows with the given values.  Both, and the
 * category columns of a bar chart, use the column-list syntax
 *     col{v=name;v=name},col2
 * where the braces name the ids a probe writes as numbers (a value without a
 * name is shown as col=value).  A bar chart (OPT_BARS) is for categorical
 * series: x names the category columns, y the value, logy puts the value axis
 * on a log scale and ylabel labels it; bars run horizontally. */
enum {
    OPT_YZERO = 1,  /* linear y axis from zero: rates and ratios must not exaggerate noise */
    OPT_POINTS = 2, /* markers only: y jumps between neighbours (conflict degree vs stride) */
    OPT_BARS = 4,   /* categorical x: horizontal bars */
    OPT_XBYTES = 8, /* x is a byte count: power-of-two ticks in KiB/MiB/GiB */
    OPT_YPOW2 = 16, /* y takes powers of two (log y): power-of-two ticks */
    OPT_XPOW2 = 32, /* x takes powers of two (log x): power-of-two ticks */
};

typedef struct plot_spec {
    const char *probe, *series;
    const char *x, *y;
    int logx, logy;
    const char *title, *xlabel, *ylabel;
    int opts;
    const char *split, *where;
} plot_spec;

#define BYTES_LAT_X "bytes|footprint_bytes|footprint|size_bytes"
#define LAT_Y "cycles_per_load|cycles|latency_cycles"

static const plot_spec specs[] = {
    {"launch_rate", "1d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (1D blocks)",
     "threads per block", "threads launched per cycle", OPT_YZERO, NULL, NULL},
    {"launch_rate", "2d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (2D blocks)",
     "threads per block", "threads launched per cycle", OPT_YZERO, NULL, NULL},
    {"launch_rate", "3d", "threads_per_block", "threads_per_cycle", 0, 0, "Launch rate vs block size (3D blocks)",
     "threads per block", "threads launched per cycle", OPT_YZERO, NULL, NULL},

    {"cache_latency", "footprint", BYTES_LAT_X, LAT_Y, 1, 0, "Load latency vs footprint (pointer chase)",
     "footprint (bytes)", "latency (cycles per load)", OPT_YZERO | OPT_XBYTES,
     "bypass_l1{0=cached loads (L1 and L2);1=L1 bypassed (L2 and DRAM)}", NULL},
    {"cache_latency", "stride", "stride_bytes", LAT_Y, 1, 0, "Load latency vs stride (line size)",
     "stride between loads (bytes)", "latency (cycles per load)", OPT_YZERO | OPT_XBYTES,
     "bypass_l1{0=L2-resident footprint, L1 on;1=DRAM footprint, L1 bypassed}", NULL},

    {"memory_bandwidth", "best", "footprint_bytes", "gbs", 1, 0, "Bandwidth vs footprint (best configuration)",
     "footprint (bytes)", "bandwidth (GB/s)", OPT_YZERO | OPT_XBYTES,
     "kernel{0=read;1=write;2=copy;3=triad;4=read, blocks rotating (no L1 reuse)}", NULL},
    {"memory_bandwidth", "sweep", "footprint_bytes", "gbs", 1, 0,
     "Read bandwidth vs footprint by access width (256-thread blocks, 8 per CU)", "footprint (bytes)",
     "bandwidth (GB/s)", OPT_YZERO | OPT_XBYTES, "vec_bytes{4=4-byte loads;8=8-byte loads;16=16-byte loads}",
     "kernel=0,block=256,blocks_per_cu=8,unroll=1,hint=0"},

    {"fma_throughput", "one_cu", "threads", "fma_per_cycle", 0, 0, "FMA per cycle vs threads (one block on one CU)",
     "threads in the block", "fp32 FMA per cycle (one CU)", OPT_YZERO, NULL, NULL},
    {"fma_throughput", "chip", "blocks", "fma_per_cycle", 0, 0, "FMA per cycle vs blocks (whole chip, one block per CU)",
     "blocks", "fp32 FMA per cycle (chip)", OPT_YZERO, NULL, NULL},
    {"fma_throughput", "types", "type{0=fp32;1=fp64;2=fp16x2 (a packed FMA counts 2)}", "fma_per_cycle", 0, 0,
     "fp64 and packed fp16 FMA per cycle (one CU)", NULL, "FMA per cycle (one CU)", OPT_BARS, NULL, NULL},
    {"fma_throughput", "loops",
     "shape{0=no pragma (compiler unroll);1=#pragma unroll 1;2=#pragma unroll 16;3=double loop (inner 100)}",
     "fma_per_cycle", 0, 0, "FMA per cycle by loop shape (one CU, one chain per thread)", NULL,
     "fp32 FMA per cycle (one CU)", OPT_BARS, NULL, NULL},

    {"register_limits", "occupancy", "regs_per_thread|registers|regs|vgprs", "waves_per_cu|occupancy|active_waves", 0,
     0, "Occupancy vs registers per thread", "registers per thread (allocated)", "resident waves per CU", OPT_YZERO,
     NULL, NULL},

    {"divergence", "lanes", "divergent_lanes", "ratio", 1, 0, "Divergence cost vs divergent lanes per wave",
     "divergent lanes per wave", "time / uniform time", OPT_YZERO | OPT_XPOW2, NULL, NULL},
    {"divergence", "groups", "group_size", "ratio_to_uniform_mean|ratio", 1, 0,
     "Divergence cost vs branch group size (wave size: where it drops to 1)", "lanes per branch group",
     "time / uniform time", OPT_YZERO | OPT_XPOW2, NULL, NULL},

    {"lds", "conflicts", "stride", "degree|conflict_degree|ways", 0, 1, "LDS bank-conflict degree vs stride",
     "stride (elements of the access width)", "conflict degree (ways)", OPT_POINTS | OPT_YPOW2,
     "bytes_per_access{4=4-byte accesses;8=8-byte accesses;16=16-byte accesses}", NULL},

    {"channel_conflicts", "window", "window_bytes", "gbs", 1, 0, "Bandwidth vs channel window",
     "window of each row touched (bytes)", "bandwidth (GB/s)", OPT_YZERO | OPT_XBYTES, NULL, NULL},
    {"channel_conflicts", "leading_dim", "pad_elems", "gbs", 0, 0, "Bandwidth vs leading-dimension pad",
     "pad added to the leading dimension (elements)", "bandwidth (GB/s)", OPT_YZERO, NULL, NULL},

    {"atomics", "atomics",
     "mode{0=uncontended;1=one address per wave;2=one address per grid (LDS: block);3=consecutive addresses}", "gops",
     0, 1, "Atomic add throughput by contention", NULL, "Gop/s", OPT_BARS, "lds{0=global;1=LDS},is_float{0=int32;1=fp32}",
     NULL},

    {"math_functions", "ops",
     "op_id{0=sin;1=cos;2=exp;3=log;4=sqrt;5=rsqrt;6=division;7=x*c+d (FMA baseline)}", "per_cycle_per_cu", 0, 1,
     "Math function throughput", NULL, "operations per cycle per CU", OPT_BARS,
     "prec_id{0=fp32 precise;1=fp32 fast intrinsics;2=fp64}", NULL},

    /* Guesses for probes whose series are not named above: ignored when the columns differ. */
    {"cache_latency", "*", BYTES_LAT_X, "cycles|latency_cycles|cycles_per_load|ns|latency_ns", 1, 0,
     "Latency vs footprint", NULL, NULL, OPT_YZERO, NULL, NULL},
    {"memory_bandwidth", "*", "footprint_bytes|footprint|bytes|size_bytes",
     "gbps|bandwidth_gbps|gb_per_s|GBps|gbs|bytes_per_cycle", 1, 0, "Bandwidth vs footprint", NULL, NULL, OPT_YZERO,
     NULL, NULL},
    {"fma_throughput", "*", "threads|threads_per_block|blocks|waves|warps",
     "fma_per_cycle|fma_per_cycle_per_cu|flops_per_cycle", 0, 0, "FMA per cycle", NULL, NULL, OPT_YZERO, NULL, NULL},
    {"lds", "*", "stride|stride_words|stride_bytes", "conflict_degree|degree|ways", 0, 0, "Conflict degree vs stride",
     NULL, NULL, OPT_YZERO, NULL, NULL},
    {"channel_conflicts", "*", "window_bytes|window|stride_bytes|stride", "gbps|bandwidth_gbps|gb_per_s|gbs", 1, 0,
     "Bandwidth vs channel window", NULL, NULL, OPT_YZERO, NULL, NULL},
    {"register_limits", "*", "registers|regs|regs_per_thread|vgprs",
     "occupancy|waves_per_cu|blocks_per_cu|active_waves", 0, 0, "Occupancy vs registers", NULL, NULL, OPT_YZERO,
     NULL, NULL},
};

#define MAX_LINES 8    /* series in one plot (the palette's colours) */
#define MAX_KEYCOLS 4  /* columns in one split or category list */
#define MAX_CATS 64    /* bars in one chart */
#define MAX_WHERE 8

/* A parsed column list: `col{v=name;...},col` resolved against a series. */
typedef struct key_cols {
    int n;
    int col[MAX_KEYCOLS];
    const char *map[MAX_KEYCOLS]; /* "v=name;v=name" (not terminated: maplen) */
    size_t maplen[MAX_KEYCOLS];
} key_cols;

typedef struct plot_choice {
    int xcol, ycols[MAX_LINES], ny;
    int logx, logy, opts, sort;
    key_cols split, cats;       /* cats: bar charts only */
    int nwhere, wcol[MAX_WHERE];
    double wval[MAX_WHERE];
    char title[200], xlabel[96], ylabel[96];
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
    /* What the pages name: folders by their base name, the table relative to
     * its folder, never a path of the machine that wrote them (committed
     * reports must not carry /home/... or /work/...). */
    char results_name[256], out_name[256], table_name[300];
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

/* Parse a column list (`col{v=name;...},col`) against s.  Returns 0 when a
 * column is absent or the list is malformed or too long. */
static int parse_key_cols(const gp_series *s, const char *spec, key_cols *kc)
{
    memset(kc, 0, sizeof *kc);
    const char *p = spec;
    while (p && *p) {
        size_t n = strcspn(p, "{,");
        if (n == 0 || kc->n == MAX_KEYCOLS)
            return 0;
        int c = find_col(s, p, n, 0);
        if (c < 0)
            return 0;
        kc->col[kc->n] = c;
        p += n;
        if (*p == '{') {
            const char *close = strchr(p, '}');
            if (!close)
                return 0;
            kc->map[kc->n] = p + 1;
            kc->maplen[kc->n] = (size_t)(close - p - 1);
            p = close + 1;
        }
        kc->n++;
        if (*p == ',')
            p++;
        else if (*p)
            return 0;
    }
    return kc->n > 0;
}

static double cell(const gp_series *s, size_t row, int col)
{
    return s->data[row * (size_t)s->ncols + col];
}

/* The name a map gives value v, or NULL (with *len) when it has none. */
static const char *map_name(const char *map, size_t maplen, double v, size_t *len)
{
    const char *p = map, *end = map + maplen;
    while (p && p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        const char *eq = memchr(p, '=', (size_t)(stop - p));
        if (eq) {
            char num[32];
            size_t k = (size_t)(eq - p);
            if (k < sizeof num) {
                memcpy(num, p, k);
                num[k] = '\0';
                char *e;
                double key = strtod(num, &e);
                if (e != num && *e == '\0' && key == v) {
                    *len = (size_t)(stop - eq - 1);
                    return eq + 1;
                }
            }
        }
        p = semi ? semi + 1 : end;
    }
    return NULL;
}

/* A row's label under a column list: the mapped names joined by ", ". */
static void key_label(const gp_series *s, const key_cols *kc, size_t row, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < kc->n && at + 1 < n; i++) {
        double v = cell(s, row, kc->col[i]);
        size_t len = 0;
        const char *name = kc->map[i] ? map_name(kc->map[i], kc->maplen[i], v, &len) : NULL;
        int w = name ? snprintf(out + at, n - at, "%s%.*s", i ? ", " : "", (int)len, name)
                     : snprintf(out + at, n - at, "%s%s=%.6g", i ? ", " : "", s->cols[kc->col[i]], v);
        if (w < 0)
            break;
        at += (size_t)w < n - at ? (size_t)w : n - at - 1;
    }
}

static int key_less(const gp_series *s, const key_cols *kc, size_t a, size_t b)
{
    for (int i = 0; i < kc->n; i++) {
        double va = cell(s, a, kc->col[i]), vb = cell(s, b, kc->col[i]);
        if (va != vb)
            return va < vb;
    }
    return 0;
}

static int same_key(const gp_series *s, const key_cols *kc, size_t a, size_t b)
{
    for (int i = 0; i < kc->n; i++) {
        double va = cell(s, a, kc->col[i]), vb = cell(s, b, kc->col[i]);
        if (!(va == vb || (isnan(va) && isnan(vb))))
            return 0;
    }
    return 1;
}

/* `col=v,col=v`: every column present and every value a number. */
static int parse_where(const gp_series *s, const char *w, plot_choice *pc)
{
    pc->nwhere = 0;
    const char *p = w;
    while (p && *p) {
        size_t n = strcspn(p, "=");
        if (!p[n] || n == 0 || pc->nwhere == MAX_WHERE)
            return 0;
        int c = find_col(s, p, n, 0);
        if (c < 0)
            return 0;
        char *e;
        double v = strtod(p + n + 1, &e);
        if (e == p + n + 1 || (*e && *e != ','))
            return 0;
        pc->wcol[pc->nwhere] = c;
        pc->wval[pc->nwhere++] = v;
        p = *e ? e + 1 : e;
    }
    return 1;
}

static int row_kept(const gp_series *s, const plot_choice *pc, size_t row)
{
    for (int i = 0; i < pc->nwhere; i++)
        if (cell(s, row, pc->wcol[i]) != pc->wval[i])
            return 0;
    return 1;
}

static int spec_applies(const plot_spec *sp, const char *probe, const rp_series *rs, plot_choice *pc)
{
    if (strcmp(sp->probe, probe) != 0 || (strcmp(sp->series, "*") != 0 && strcmp(sp->series, rs->name) != 0))
        return 0;
    memset(pc, 0, sizeof *pc);
    const gp_series *s = &rs->data;
    if (sp->opts & OPT_BARS) {
        if (!parse_key_cols(s, sp->x, &pc->cats))
            return 0;
        pc->xcol = pc->cats.col[0];
    } else {
        pc->xcol = find_col(s, sp->x, strlen(sp->x), 1);
        if (pc->xcol < 0)
            return 0;
    }
    if (sp->split && !parse_key_cols(s, sp->split, &pc->split))
        return 0;
    if (sp->where && !parse_where(s, sp->where, pc))
        return 0;
    const char *p = sp->y;
    while (*p && pc->ny < MAX_LINES) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        int c = find_col(s, p, n, 0);
        if (c >= 0 && c != pc->xcol)
            pc->ycols[pc->ny++] = c;
        p += n + (comma ? 1 : 0);
    }
    if (pc->ny == 0)
        return 0;
    pc->logx = sp->logx;
    pc->logy = sp->logy;
    pc->opts = sp->opts;
    pc->sort = 1;
    if (strcmp(sp->series, "*") == 0)
        snprintf(pc->title, sizeof pc->title, "%s (%s)", sp->title, rs->name);
    else
        snprintf(pc->title, sizeof pc->title, "%s", sp->title);
    snprintf(pc->xlabel, sizeof pc->xlabel, "%s", sp->xlabel ? sp->xlabel : s->cols[pc->xcol]);
    snprintf(pc->ylabel, sizeof pc->ylabel, "%s",
             sp->ylabel ? sp->ylabel : pc->ny == 1 ? s->cols[pc->ycols[0]] : "value");
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
    memset(pc, 0, sizeof *pc); /* a spec that failed half way leaves its columns behind */
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

/* Fill `pr` from a parsed record (gp_record_from_json, then the series it
 * names).  Returns 0 (with *why) when the JSON is not a probe record. */
static int from_json(const gp_json *j, rp_probe *pr, const char **why)
{
    gp_record *r = &pr->rec;
    if (!gp_record_from_json(j, r, &pr->dropped, why))
        return 0;

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

/* Drop every "dir/" from msg: the pages name files relative to the
 * results folder, never by a path of the machine that wrote them. */
static void strip_dir(char *msg, const char *dir)
{
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    size_t n = strlen(prefix);
    for (char *p; n > 1 && (p = strstr(msg, prefix)) != NULL;)
        memmove(p, p + n, strlen(p + n) + 1);
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
        strip_dir(rs->err, dir);
        memset(&rs->data, 0, sizeof rs->data);
        return;
    }
    if (rs->data.ncols == 0) {
        snprintf(rs->err, sizeof rs->err, "%.200s: no columns", rs->file);
        free(rs->data.data);
        memset(&rs->data, 0, sizeof rs->data);
        return;
    }
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
    char **names = NULL;
    size_t n = 0;
    gp_status st = gp_fs_list_sorted(R->results_dir, ".json", "results directory", &names, &n);
    if (st.code == GP_OK && n == 0)
        st = gp_fail(GP_ERR_USAGE,
                     "no probe records (*.json) in '%s': run probes with --out '%s' first, or name the "
                     "directory that holds them",
                     R->results_dir, R->results_dir);
    if (st.code == GP_OK) {
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
        if (gp_json_get(&j, "probe") && (st = gp_record_check_json(&j, path)).code != GP_OK) {
            gp_json_free(&j);
            break;
        }
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
    gp_fs_names_free(names, n);
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
    gp_fs_base_name(R->results_name, sizeof R->results_name, R->results_dir);
    gp_fs_base_name(R->out_name, sizeof R->out_name, R->out_dir);
    const char *dirs[2] = {R->out_dir, R->results_dir}, *names_[2] = {R->out_name, R->results_name};
    for (int i = 0; i < 2 && !R->table; i++) {
        snprintf(R->table_path, sizeof R->table_path, "%s/table.txt", dirs[i]);
        snprintf(R->table_name, sizeof R->table_name, "%s/table.txt", names_[i]);
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
    int bars;
    gp_plot plot;
    gp_plot_series ps[MAX_LINES];
    gp_bars chart;
    gp_bar_group groups[MAX_LINES];
    const char *catp[MAX_CATS];
    char cat_names[MAX_CATS][72];
    char names[MAX_LINES][120];
    double *buf;
} plot_data;

/* Sort a series by x (insertion sort: sweeps come nearly sorted). */
static void sort_xy(double *x, double *y, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double kx = x[i], ky = y[i];
        size_t j = i;
        while (j > 0 && x[j - 1] > kx) {
            x[j] = x[j - 1];
            y[j] = y[j - 1];
            j--;
        }
        x[j] = kx;
        y[j] = ky;
    }
}

/* Rows kept by the choice's filter, grouped by its split columns: the first
 * row of each group (in order of appearance) goes to first[]. */
static int split_groups(const gp_series *s, const plot_choice *pc, size_t *first)
{
    int ng = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        if (!row_kept(s, pc, r))
            continue;
        if (pc->split.n == 0)
            return (first[0] = r), 1;
        int g = 0;
        while (g < ng && !same_key(s, &pc->split, first[g], r))
            g++;
        if (g == ng && ng < MAX_LINES)
            first[ng++] = r;
    }
    /* Lines in the order of their key values (4-, 8-, 16-byte), not of appearance. */
    for (int i = 1; i < ng; i++)
        for (int j = i; j > 0 && key_less(s, &pc->split, first[j], first[j - 1]); j--) {
            size_t t = first[j];
            first[j] = first[j - 1];
            first[j - 1] = t;
        }
    return ng;
}

static int in_group(const gp_series *s, const plot_choice *pc, const size_t *first, int g, size_t r)
{
    return row_kept(s, pc, r) && (pc->split.n == 0 || same_key(s, &pc->split, first[g], r));
}

static gp_status make_bars(const rp_series *rs, plot_data *pd)
{
    const plot_choice *pc = &rs->plot;
    const gp_series *s = &rs->data;
    size_t first[MAX_LINES], crow[MAX_CATS];
    int ng = split_groups(s, pc, first), nc = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        if (!row_kept(s, pc, r))
            continue;
        int c = 0;
        while (c < nc && !same_key(s, &pc->cats, crow[c], r))
            c++;
        if (c == nc && nc < MAX_CATS)
            crow[nc++] = r;
    }
    pd->bars = 1;
    pd->buf = malloc((size_t)(ng ? ng : 1) * (size_t)(nc ? nc : 1) * sizeof(double));
    if (!pd->buf)
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting %s", rs->file);
    for (int c = 0; c < nc; c++) {
        key_label(s, &pc->cats, crow[c], pd->cat_names[c], sizeof pd->cat_names[c]);
        pd->catp[c] = pd->cat_names[c];
    }
    for (int g = 0; g < ng; g++) {
        double *v = pd->buf + (size_t)g * (size_t)nc;
        for (int c = 0; c < nc; c++)
            v[c] = NAN;
        for (size_t r = 0; r < s->nrows; r++) {
            if (!in_group(s, pc, first, g, r))
                continue;
            for (int c = 0; c < nc; c++)
                if (same_key(s, &pc->cats, crow[c], r))
                    v[c] = cell(s, r, pc->ycols[0]);
        }
        if (pc->split.n)
            key_label(s, &pc->split, first[g], pd->names[g], sizeof pd->names[g]);
        else
            snprintf(pd->names[g], sizeof pd->names[g], "%s", s->cols[pc->ycols[0]]);
        pd->groups[g].label = pd->names[g];
        pd->groups[g].values = v;
    }
    pd->chart.title = pc->title;
    pd->chart.vlabel = pc->ylabel;
    pd->chart.logv = pc->logy;
    pd->chart.cats = pd->catp;
    pd->chart.ncats = nc;
    pd->chart.groups = pd->groups;
    pd->chart.ngroups = ng;
    return gp_ok();
}

static gp_status make_plot(const rp_series *rs, plot_data *pd)
{
    const plot_choice *pc = &rs->plot;
    const gp_series *s = &rs->data;
    memset(pd, 0, sizeof *pd);
    if (pc->opts & OPT_BARS)
        return make_bars(rs, pd);
    size_t n = s->nrows ? s->nrows : 1, first[MAX_LINES];
    int ng = split_groups(s, pc, first), ns = 0;
    pd->buf = malloc(2 * MAX_LINES * n * sizeof(double));
    if (!pd->buf)
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting %s", rs->file);
    for (int g = 0; g < ng; g++)
        for (int k = 0; k < pc->ny && ns < MAX_LINES; k++, ns++) {
            double *x = pd->buf + 2 * (size_t)ns * n, *y = x + n;
            size_t m = 0;
            for (size_t r = 0; r < s->nrows; r++)
                if (in_group(s, pc, first, g, r)) {
                    x[m] = cell(s, r, pc->xcol);
                    y[m++] = cell(s, r, pc->ycols[k]);
                }
            if (pc->sort)
                sort_xy(x, y, m);
            char *name = pd->names[ns];
            if (pc->split.n) {
                key_label(s, &pc->split, first[g], name, sizeof pd->names[ns]);
                if (pc->ny > 1)
                    snprintf(name + strlen(name), sizeof pd->names[ns] - strlen(name), " %s",
                             s->cols[pc->ycols[k]]);
            } else {
                snprintf(name, sizeof pd->names[ns], "%s", s->cols[pc->ycols[k]]);
            }
            pd->ps[ns].label = name;
            pd->ps[ns].x = x;
            pd->ps[ns].y = y;
            pd->ps[ns].n = m;
        }
    pd->plot.title = pc->title;
    pd->plot.xlabel = pc->xlabel;
    pd->plot.ylabel = pc->ylabel;
    pd->plot.logx = pc->logx;
    pd->plot.logy = pc->logy;
    pd->plot.series = pd->ps;
    pd->plot.nseries = ns;
    pd->plot.yzero = (pc->opts & OPT_YZERO) != 0;
    pd->plot.points_only = (pc->opts & OPT_POINTS) != 0;
    pd->plot.xbytes = (pc->opts & OPT_XBYTES) != 0;
    pd->plot.ypow2 = (pc->opts & OPT_YPOW2) != 0;
    pd->plot.xpow2 = (pc->opts & OPT_XPOW2) != 0;
    return gp_ok();
}

static gp_status plot_to(FILE *f, const rp_series *rs)
{
    plot_data *pd = malloc(sizeof *pd); /* ~10 KiB of labels: keep it off the stack */
    if (!pd)
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting %s", rs->file);
    gp_status st = make_plot(rs, pd);
    if (st.code == GP_OK)
        st = pd->bars ? gp_svg_bars(f, &pd->chart) : gp_svg_plot(f, &pd->plot);
    free(pd->buf);
    free(pd);
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

/* ---- flagged results: measured on a noisy machine ----
 * A probe whose measured clock moved beyond the driver's tolerance, or that
 * shared the GPU with another process, has every value in doubt; the list
 * says which, and for which probes sharing could not be checked (no NVML). */
static void md(FILE *f, const char *s);

static void flagged_section(FILE *f, const report *R, int html)
{
    int flagged = 0, unknown = 0;
    fprintf(f, html ? "<h2 id=\"flagged\">Flagged results</h2>\n<ul>\n" : "\n## Flagged results\n\n");
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        int known, noise = gp_record_noise(r, &known);
        unknown += !known;
        if (!noise)
            continue;
        flagged++;
        fprintf(f, html ? "<li><b>" : "- **");
        if (html)
            h(f, r->probe);
        else
            md(f, r->probe);
        fprintf(f, html ? "</b>: measured" : "**: measured");
        if (noise & GP_NOISE_CLOCK)
            fprintf(f, " while the clock moved (%.0f \xe2\x86\x92 %.0f MHz)", r->clock_before.measured_mhz,
                    r->clock_after.measured_mhz);
        if (noise & GP_NOISE_SHARED)
            fprintf(f, "%s while %d other process(es) used the GPU", noise & GP_NOISE_CLOCK ? " and" : "",
                    gp_record_other_processes(r));
        fprintf(f, "; its values are in doubt: run it again on a quiet GPU.%s\n", html ? "</li>" : "");
    }
    if (!flagged)
        fprintf(f, "%sNone: no result was measured while the clock moved or another process used the GPU.%s\n",
                html ? "<li class=\"ok\">" : "", html ? "</li>" : "");
    if (unknown) {
        fprintf(f, "%sWhether another process used the GPU is unknown for %d probe(s) (no vendor process list, "
                   "e.g. no NVML):",
                html ? "<li>" : "- ", unknown);
        for (int i = 0, k = 0; i < R->nprobes; i++) {
            int known;
            gp_record_noise(&R->probes[i].rec, &known);
            if (known)
                continue;
            fprintf(f, "%s ", k++ ? "," : "");
            if (html)
                h(f, R->probes[i].rec.probe);
            else
                md(f, R->probes[i].rec.probe);
        }
        fprintf(f, ".%s\n", html ? "</li>" : "");
    }
    if (html)
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
    h(f, R->results_name);
    fprintf(f, "</code>.</p>\n<nav><a href=\"#device\">Device</a><a href=\"#clocks\">Clocks</a>"
               "<a href=\"#summary\">Summary</a><a href=\"#attention\">Unstable or undetected</a>"
               "<a href=\"#flagged\">Flagged</a>"
               "<a href=\"#probes\">Probes</a><a href=\"#tuning-table\">Tuning table</a></nav>\n");
    html_device(f, R);
    html_clocks(f, R);
    html_summary(f, R);
    html_attention(f, R);
    flagged_section(f, R, 1);
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
        h(f, R->table_name);
        fprintf(f, "</code>, verbatim.</p>\n<pre>");
        h(f, R->table);
        fprintf(f, "</pre>\n");
    } else {
        fprintf(f, "<p>No tuning table (<code>table.txt</code>) in <code>");
        h(f, R->out_name);
        fprintf(f, "</code> or <code>");
        h(f, R->results_name);
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
            R->nprobes == 1 ? "" : "s", R->results_name);
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

    flagged_section(f, R, 0);
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
        fprintf(f, "From `%s`, verbatim.\n\n%.*s\n%s%s%.*s\n", R->table_name, fence, "````````````````",
                R->table, len && R->table[len - 1] == '\n' ? "" : "\n", fence, "````````````````");
    } else {
        fprintf(f, "No tuning table (`table.txt`) in `%s` or `%s`.\n", R->out_name, R->results_name);
    }
    return gp_fs_commit(f, path);
}

gp_status gp_report_write(const char *results_dir, const char *out_dir)
{
    if (!results_dir || !results_dir[0])
        return gp_fail(GP_ERR_USAGE, "report: no results directory given");
    if (!out_dir || !out_dir[0])
        out_dir = results_dir;
    if (gp_fs_exists(results_dir))
        GP_TRY(gp_fs_require_dir(results_dir, "name the results directory that holds the probe records"));
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
