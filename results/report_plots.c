#define _POSIX_C_SOURCE 200809L
/* How the report plots a series: the probe's own plot entries (gp_probe.plots,
 * syntax in probe.h) resolved against the series' columns, or a generic
 * choice; then the plot data and the SVG. */
#include "report_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "probe.h"
#include "svg.h"

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

static int spec_applies(const gp_probe_plot *sp, const rp_series *rs, plot_choice *pc)
{
    if (strcmp(sp->series, "*") != 0 && strcmp(sp->series, rs->name) != 0)
        return 0;
    memset(pc, 0, sizeof *pc);
    const gp_series *s = &rs->data;
    if (sp->opts & GP_PLOT_BARS) {
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
void rp_choose_plot(const char *probe, rp_series *rs)
{
    plot_choice *pc = &rs->plot;
    memset(pc, 0, sizeof *pc);
    const gp_probe *p = gp_probe_find(probe);
    for (size_t i = 0; p && i < p->nplots; i++)
        if (spec_applies(&p->plots[i], rs, pc))
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
    if (pc->opts & GP_PLOT_BARS)
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
    pd->plot.yzero = (pc->opts & GP_PLOT_YZERO) != 0;
    pd->plot.points_only = (pc->opts & GP_PLOT_POINTS) != 0;
    pd->plot.xbytes = (pc->opts & GP_PLOT_XBYTES) != 0;
    pd->plot.ypow2 = (pc->opts & GP_PLOT_YPOW2) != 0;
    pd->plot.xpow2 = (pc->opts & GP_PLOT_XPOW2) != 0;
    return gp_ok();
}

gp_status rp_plot_to(FILE *f, const rp_series *rs)
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

gp_status rp_write_svgs(const report *R)
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
            gp_status st = rp_plot_to(f, rs);
            if (st.code != GP_OK) {
                gp_fs_abandon(f, path);
                return st;
            }
            GP_TRY(gp_fs_commit(f, path));
        }
    return gp_ok();
}

