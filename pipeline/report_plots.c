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
#include "datasheet.h"

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

#define MAX_MARKS 12

typedef struct plot_data {
    int bars;
    gp_plot plot;
    gp_plot_series ps[2 * MAX_LINES];  /* this folder's lines, then the other's (--against) */
    gp_bars chart;
    gp_bar_group groups[2 * MAX_LINES];
    const char *catp[MAX_CATS];
    char cat_names[MAX_CATS][72];
    char names[2 * MAX_LINES][120];
    double *buf, *buf2;                /* buf2: the other folder's bars, in this folder's categories */
    gp_plot_mark marks[MAX_MARKS];
    char mark_text[MAX_MARKS][96];
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

const rp_series *rp_other_series(const report *R, const rp_probe *pr, const rp_series *rs)
{
    const report *O = R ? R->other : NULL;
    for (int i = 0; O && i < O->nprobes; i++) {
        if (strcmp(O->probes[i].rec.probe, pr->rec.probe) != 0)
            continue;
        for (int s = 0; s < O->probes[i].nseries; s++) {
            const rp_series *os = &O->probes[i].series[s];
            if (!strcmp(os->name, rs->name) && os->data.ncols && !os->err[0])
                return os;
        }
    }
    return NULL;
}

/* "name, label" in place (the legend of a plot with two GPUs). */
static void suffix(char *name, size_t n, const char *label)
{
    size_t k = strlen(name);
    if (k + 3 < n)
        snprintf(name + k, n - k, "%s%.60s", k ? ", " : "", label);
}

/* The other folder's lines into pd, dashed, each in the colour of this
 * folder's line of the same name. */
static void merge_lines(plot_data *pd, plot_data *po, const char *a, const char *b)
{
    int na = pd->plot.nseries;
    for (int k = 0; k < na; k++)
        suffix(pd->names[k], sizeof pd->names[k], a);
    for (int k = 0; k < po->plot.nseries && na + k < 2 * MAX_LINES; k++) {
        gp_plot_series *d = &pd->ps[na + k];
        *d = po->ps[k];
        d->style |= GP_SERIES_DASHED;
        d->color = na + k + 1;
        char same[120];
        snprintf(same, sizeof same, "%s", po->names[k]);
        suffix(same, sizeof same, a);
        for (int j = 0; j < na; j++)
            if (!strcmp(pd->names[j], same))
                d->color = j + 1;
        snprintf(pd->names[na + k], sizeof pd->names[na + k], "%s", po->names[k]);
        suffix(pd->names[na + k], sizeof pd->names[na + k], b);
        d->label = pd->names[na + k];
        pd->plot.nseries++;
    }
}

/* The other folder's bar groups, their values moved to this folder's
 * categories by name (a category only one side has is blank there). */
static gp_status merge_bars(plot_data *pd, plot_data *po, const char *a, const char *b)
{
    int na = pd->chart.ngroups, nc = pd->chart.ncats, nb = po->chart.ngroups;
    pd->buf2 = malloc((size_t)(nb ? nb : 1) * (size_t)(nc ? nc : 1) * sizeof(double));
    if (!pd->buf2)
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting two folders");
    for (int g = 0; g < na; g++)
        suffix(pd->names[g], sizeof pd->names[g], a);
    for (int g = 0; g < nb && na + g < 2 * MAX_LINES; g++) {
        double *v = pd->buf2 + (size_t)g * (size_t)nc;
        for (int c = 0; c < nc; c++) {
            v[c] = NAN;
            for (int oc = 0; oc < po->chart.ncats; oc++)
                if (!strcmp(po->chart.cats[oc], pd->chart.cats[c]))
                    v[c] = po->chart.groups[g].values[oc];
        }
        snprintf(pd->names[na + g], sizeof pd->names[na + g], "%s", po->names[g]);
        suffix(pd->names[na + g], sizeof pd->names[na + g], b);
        pd->groups[na + g].label = pd->names[na + g];
        pd->groups[na + g].values = v;
        pd->chart.ngroups++;
    }
    return gp_ok();
}

/* "l2_near_bytes" -> "L2 near"; "dram_latency_cycles" -> "DRAM". */
static void level_name(char *out, size_t n, const char *key, const char *strip)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", key);
    char *cut = strstr(buf, strip);
    if (cut)
        *cut = '\0';
    size_t k = 0;
    for (const char *p = buf; *p && k + 1 < n; p++) {
        char c = *p == '_' ? ' ' : *p;
        /* Level names are upper case (L1, L2, DRAM, LDS); their qualifiers not. */
        int first_word = !strchr(buf, '_') || p < strchr(buf, '_');
        out[k++] = first_word && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
    }
    out[k] = '\0';
}

static int ends_with(const char *s, const char *end)
{
    size_t a = strlen(s), b = strlen(end);
    return a >= b && !strcmp(s + a - b, end);
}

static int have_mark(const plot_data *pd, gp_mark_kind kind, double v)
{
    for (int i = 0; i < pd->plot.nmarks; i++)
        if (pd->marks[i].kind == kind &&
            fabs((kind == GP_MARK_X ? pd->marks[i].x : pd->marks[i].y) - v) <= 0.01 * fabs(v))
            return 1;
    return 0;
}

static void add_mark(plot_data *pd, gp_mark_kind kind, double v, const char *text)
{
    int i = pd->plot.nmarks;
    if (i >= MAX_MARKS || !isfinite(v) || have_mark(pd, kind, v))
        return;
    pd->marks[i].kind = kind;
    pd->marks[i].x = kind == GP_MARK_X ? v : NAN;
    pd->marks[i].y = kind == GP_MARK_Y ? v : NAN;
    snprintf(pd->mark_text[i], sizeof pd->mark_text[i], "%s", text);
    pd->marks[i].text = pd->mark_text[i];
    pd->plot.marks = pd->marks;
    pd->plot.nmarks = ++i;
}

/* Sizes a record detected, as vertical lines on a byte axis: its own
 * `*_bytes` values, and on a footprint axis every record's cache sizes
 * (l1_*, l2_*), each with its level's latency where the record has one. */
static void size_marks(const report *R, const rp_probe *pr, plot_data *pd)
{
    int footprint = strstr(pd->plot.xlabel ? pd->plot.xlabel : "", "footprint") != NULL;
    for (int i = 0; i < R->nprobes; i++) {
        const gp_record *r = &R->probes[i].rec;
        int own = &R->probes[i] == pr;
        if (!own && !footprint)
            continue;
        for (int k = 0; k < r->nvalues; k++) {
            const gp_value *v = &r->values[k];
            if (!v->detected || strcmp(v->unit, "bytes") || !ends_with(v->key, "_bytes") || v->value <= 0)
                continue;
            if (!own && strncmp(v->key, "l1_", 3) && strncmp(v->key, "l2_", 3))
                continue;
            if (footprint && (strstr(v->key, "line") || strstr(v->key, "sector")))
                continue; /* granules do not lie on a footprint axis */
            char lvl[40], size[32], text[96], lat[96];
            level_name(lvl, sizeof lvl, v->key, "_bytes");
            gp_ds_format_bytes(size, sizeof size, v->value);
            snprintf(lat, sizeof lat, "%.*s_latency_cycles", (int)(strlen(v->key) - 6), v->key);
            const gp_value *l = gp_record_find(r, lat);
            if (l && l->detected)
                snprintf(text, sizeof text, "%s %s, %.0f cycles", lvl, size, l->value);
            else
                snprintf(text, sizeof text, "%s %s", lvl, size);
            add_mark(pd, GP_MARK_X, v->value, text);
        }
    }
}

/* Levels on a y axis of the same unit: latencies in cycles (the plateaus of
 * a chase), bandwidths in GB/s (the measured DRAM, L2 and peak rates). */
static void level_marks(const rp_probe *pr, plot_data *pd)
{
    const char *yl = pd->plot.ylabel ? pd->plot.ylabel : "";
    int cycles = strstr(yl, "cycles") != NULL, gbs = strstr(yl, "GB/s") != NULL;
    const gp_record *r = &pr->rec;
    for (int k = 0; k < r->nvalues; k++) {
        const gp_value *v = &r->values[k];
        char lvl[64], text[96];
        if (!v->detected)
            continue;
        if (cycles && ends_with(v->key, "_latency_cycles") && !strstr(v->key, "direct") &&
            strncmp(v->key, "dram_near", 9) && strncmp(v->key, "dram_far", 8)) {
            level_name(lvl, sizeof lvl, v->key, "_latency_cycles");
            snprintf(text, sizeof text, "%s %.0f cycles", lvl, v->value);
            add_mark(pd, GP_MARK_Y, v->value, text);
        } else if (gbs && (!strcmp(v->key, "bandwidth_gbs") || !strcmp(v->key, "l2_bandwidth_gbs") ||
                           !strcmp(v->key, "peak_gbs"))) {
            snprintf(text, sizeof text, "%s %.0f GB/s",
                     !strcmp(v->key, "bandwidth_gbs") ? "DRAM (triad)" : !strcmp(v->key, "peak_gbs") ? "DRAM peak" : "L2",
                     v->value);
            add_mark(pd, GP_MARK_Y, v->value, text);
        }
    }
}

gp_status rp_plot_to(FILE *f, const void *arg)
{
    const rp_plot_job *job = arg;
    const rp_series *rs = job->rs, *os = job->R ? rp_other_series(job->R, job->pr, rs) : NULL;
    plot_data *pd = malloc(sizeof *pd), *po = os ? malloc(sizeof *po) : NULL; /* ~20 KiB: off the stack */
    if (!pd || (os && !po)) {
        free(pd);
        free(po);
        return gp_fail(GP_ERR_NOMEM, "out of host memory plotting %s", rs->file);
    }
    gp_status st = make_plot(rs, pd);
    if (st.code == GP_OK && os && make_plot(os, po).code == GP_OK && po->bars == pd->bars) {
        const char *a = job->R->label, *b = job->R->other->label;
        if (pd->bars)
            st = merge_bars(pd, po, a, b);
        else
            merge_lines(pd, po, a, b);
    }
    if (st.code == GP_OK && !pd->bars) {
        if (strstr(pd->plot.ylabel ? pd->plot.ylabel : "", "(GB/s)")) {
            pd->plot.yunit = "B/s";
            pd->plot.yscale = 1e9;
        }
        if (job->R && job->pr) {
            if (pd->plot.xbytes)
                size_marks(job->R, job->pr, pd);
            level_marks(job->pr, pd);
        }
    }
    if (st.code == GP_OK)
        st = pd->bars ? gp_svg_bars(f, &pd->chart) : gp_svg_plot(f, &pd->plot);
    free(pd->buf);
    free(pd->buf2);
    if (po)
        free(po->buf);
    free(pd);
    free(po);
    return st;
}

gp_status rp_svg_file(gp_fs_set *set, const char *name, gp_status (*draw)(FILE *f, const void *arg),
                      const void *arg)
{
    FILE *f;
    GP_TRY(gp_fs_set_open(set, name, &f));
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    gp_status st = draw(f, arg);
    gp_status cs = gp_fs_set_close(set, f, name);
    return st.code != GP_OK ? st : cs;
}

gp_status rp_write_svgs(const report *R)
{
    for (int i = 0; i < R->nprobes; i++)
        for (int s = 0; s < R->probes[i].nseries; s++) {
            const rp_series *rs = &R->probes[i].series[s];
            if (!rs->data.ncols)
                continue;
            rp_plot_job job = {R, &R->probes[i], rs};
            GP_TRY(rp_svg_file(R->set, rs->svg, rp_plot_to, &job));
        }
    return gp_ok();
}
