#define _POSIX_C_SOURCE 200809L
#include "run_compare.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "fsutil.h"
#include "json_write.h"
#include "schema.h"
#include "probe.h"
#include "records.h"
#include "stats.h"

/* ---- one value ---- */

static int same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int gp_cmp_structural_unit(const char *unit)
{
    /* Counts of things: a second run measures the same number or finds a
     * different structure.  Rates ("threads/cycle") are not in the list. */
    static const char *const units[] = {"bytes",  "B",        "KiB",     "MiB",    "GiB",     "banks",
                                        "lanes",  "count",    "CUs",     "SMs",    "registers", "threads",
                                        "waves",  "values",   "bins",    "elements", "channels", "floats",
                                        "blocks", "lines",    "ways"};
    if (!unit || !*unit)
        return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (same_word(unit, units[i]))
            return 1;
    return 0;
}

static int is_integer(double v)
{
    return isfinite(v) && fabs(v) < 9007199254740992.0 && v == floor(v);
}

/* The larger of the within-run and between-launch spreads; -1 when neither
 * was measured. */
static double wider_spread(const gp_value *v)
{
    double w = isfinite(v->spread) && v->spread >= 0 ? v->spread : -1;
    if (isfinite(v->spread_between) && v->spread_between > 0 && v->spread_between > w)
        w = v->spread_between;
    return w;
}

/* The run itself says the value is unstable: its probe flagged it, or its
 * fresh launches spread by more than GP_BETWEEN_UNSTABLE (a record written
 * before gp_value_between flagged such values says so through the spread). */
static int run_says_unstable(const gp_value *v)
{
    return v->unstable != 0 || (isfinite(v->spread_between) && v->spread_between > GP_BETWEEN_UNSTABLE);
}

void gp_cmp_value(const char *probe, const gp_value *a, const gp_value *b, double floor_, gp_cmp_row *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->probe, sizeof out->probe, "%s", probe ? probe : "");
    const gp_value *any = a ? a : b;
    snprintf(out->key, sizeof out->key, "%s", any ? any->key : "");
    snprintf(out->unit, sizeof out->unit, "%s", any ? any->unit : "");
    out->a = out->b = NAN;
    out->diff = NAN;
    out->band = NAN;
    out->spread_a = out->spread_b = -1;
    if (a) {
        out->in_a = 1;
        out->det_a = a->detected && isfinite(a->value);
        out->a = out->det_a ? a->value : NAN;
        out->spread_a = wider_spread(a);
        out->lo_a = a->has_range ? a->range_lo : a->value;
        out->hi_a = a->has_range ? a->range_hi : a->value;
        out->range |= a->has_range;
        out->unstable_a = run_says_unstable(a);
        out->clock_converted |= a->clock_converted;
    }
    if (b) {
        out->in_b = 1;
        out->det_b = b->detected && isfinite(b->value);
        out->b = out->det_b ? b->value : NAN;
        out->spread_b = wider_spread(b);
        out->lo_b = b->has_range ? b->range_lo : b->value;
        out->hi_b = b->has_range ? b->range_hi : b->value;
        out->range |= b->has_range;
        out->unstable_b = run_says_unstable(b);
        out->clock_converted |= b->clock_converted;
        if (!a)
            snprintf(out->unit, sizeof out->unit, "%s", b->unit);
    }
    if (!out->in_a || !out->in_b) {
        out->verdict = out->in_a ? GP_CMP_ONLY_IN_A : GP_CMP_ONLY_IN_B;
        return;
    }
    if (!out->det_a || !out->det_b) {
        out->verdict = !out->det_a && !out->det_b ? GP_CMP_NONE_BOTH : !out->det_a ? GP_CMP_NONE_IN_A : GP_CMP_NONE_IN_B;
        return;
    }
    if (!(floor_ >= 0) || !isfinite(floor_))
        floor_ = GP_CMP_DEFAULT_FLOOR;
    double A = out->a, B = out->b;
    int have_spread = out->spread_a >= 0 || out->spread_b >= 0;
    int agrees;
    out->exact = !have_spread && (gp_cmp_structural_unit(out->unit) || (is_integer(A) && is_integer(B)));
    if (A != 0)
        out->diff = (B - A) / fabs(A);
    else
        out->diff = B == 0 ? 0 : copysign(INFINITY, B);
    if (out->exact) {
        out->band = 0;
        out->band_src = GP_CMP_BAND_EXACT;
        agrees = A == B;
    } else {
        out->band = floor_;
        out->band_src = GP_CMP_BAND_FLOOR;
        if (out->spread_a > out->band) {
            out->band = out->spread_a;
            out->band_src = GP_CMP_BAND_SPREAD_A;
        }
        if (out->spread_b > out->band) {
            out->band = out->spread_b;
            out->band_src = GP_CMP_BAND_SPREAD_B;
        }
        if (same_word(out->unit, "fraction") && fabs(A) <= floor_) {
            out->absolute = 1;
            out->diff = B - A;
        }
        /* A hair of slack: a move of exactly the band agrees whatever the rounding. */
        agrees = fabs(out->diff) <= out->band * (1 + 1e-9);
    }
    if (out->range && !agrees) {
        /* A near-tie (which candidate wins is noise) or a model's uncertainty
         * interval: the value is any point of its range, so the ranges must
         * meet.  A range widens what agrees, never narrows it: a narrow
         * interval still has the band above. */
        out->band = 0;
        out->band_src = GP_CMP_BAND_RANGE;
        agrees = out->lo_a <= out->hi_b && out->lo_b <= out->hi_a;
    }
    if (a && b && strcmp(a->unit, b->unit) != 0) {
        /* Not the same quantity any more: no number can agree. */
        snprintf(out->unit, sizeof out->unit, "%.14s / %.14s", a->unit, b->unit);
        agrees = 0;
    }
    if (out->unstable_a || out->unstable_b)
        out->verdict = GP_CMP_UNSTABLE;
    else
        out->verdict = agrees ? GP_CMP_AGREES : GP_CMP_DIFFERS;
}

void gp_cmp_clock_rule(gp_cmp_row *row, const gp_record *ra, const gp_record *rb)
{
    if (row->verdict != GP_CMP_DIFFERS || !row->clock_converted)
        return;
    const gp_record *moved = ra && ra->clock_moved ? ra : rb && rb->clock_moved ? rb : NULL;
    if (!moved)
        return;
    const char *which = moved == ra ? (rb && rb->clock_moved ? "A and B" : "A") : "B";
    row->verdict = GP_CMP_UNSTABLE;
    snprintf(row->why, sizeof row->why,
             "the clock moved during the probe in run %s (%.0f -> %.0f MHz) and this value is converted "
             "through the clock measured before it",
             which, moved->clock_before.measured_mhz, moved->clock_after.measured_mhz);
}

const char *gp_cmp_verdict_name(gp_cmp_verdict v)
{
    switch (v) {
    case GP_CMP_AGREES: return "agrees";
    case GP_CMP_DIFFERS: return "**differs**";
    case GP_CMP_UNSTABLE: return "unstable (warned)";
    case GP_CMP_NONE_IN_A: return "**none in A**";
    case GP_CMP_NONE_IN_B: return "**none in B**";
    case GP_CMP_ONLY_IN_A: return "only in A";
    case GP_CMP_ONLY_IN_B: return "only in B";
    case GP_CMP_NONE_BOTH: return "none in both";
    }
    return "?";
}

int gp_cmp_counts_as_differs(gp_cmp_verdict v)
{
    return v == GP_CMP_DIFFERS || v == GP_CMP_NONE_IN_A || v == GP_CMP_NONE_IN_B;
}

/* ---- reading a results folder ---- */

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

void gp_cmp_run_free(gp_cmp_run *run)
{
    free(run->recs);
    run->recs = NULL;
    run->nrecs = 0;
}

gp_status gp_cmp_load_dir(const char *dir, gp_cmp_run *run)
{
    memset(run, 0, sizeof *run);
    copy_str(run->dir, sizeof run->dir, dir);
    gp_records R;
    GP_TRY(gp_records_load(dir, "name the --out folder of a gpuprobe run", &R));
    gp_status st = gp_ok();
    if (!(run->recs = calloc((size_t)R.n, sizeof *run->recs)))
        st = gp_fail(GP_ERR_NOMEM, "out of host memory reading the records of '%s'", dir);
    for (int i = 0; st.code == GP_OK && i < R.n; i++)
        run->recs[run->nrecs++] = R.files[i].rec;
    run->nskipped = R.nskipped;
    gp_records_free(&R);
    if (st.code != GP_OK)
        gp_cmp_run_free(run);
    return st;
}

/* ---- two runs ---- */

static void summarize(const gp_cmp_run *run, gp_cmp_side *s)
{
    memset(s, 0, sizeof *s);
    s->reported_mhz = s->clock_min = s->clock_max = s->clock_median = NAN;
    s->nrecs = run->nrecs;
    if (run->nrecs == 0)
        return;
    const gp_record *first = &run->recs[0];
    copy_str(s->name, sizeof s->name, first->dev.name);
    copy_str(s->arch, sizeof s->arch, first->dev.arch);
    copy_str(s->pci_bus_id, sizeof s->pci_bus_id, first->dev.pci_bus_id);
    s->reported_mhz = first->dev.core_clock_mhz;
    double *clk = malloc(2 * (size_t)run->nrecs * sizeof *clk);
    int nclk = 0;
    for (int i = 0; i < run->nrecs; i++) {
        const gp_record *r = &run->recs[i];
        if (r->quick)
            s->quick = 1;
        if (!s->version[0] && r->version[0])
            copy_str(s->version, sizeof s->version, r->version);
        if (r->date[0]) {
            if (!s->date_first[0] || strcmp(r->date, s->date_first) < 0)
                copy_str(s->date_first, sizeof s->date_first, r->date);
            if (!s->date_last[0] || strcmp(r->date, s->date_last) > 0)
                copy_str(s->date_last, sizeof s->date_last, r->date);
        }
        if (r->have_clock && clk) {
            const gp_clock_reading *c[2] = {&r->clock_before, &r->clock_after};
            for (int k = 0; k < 2; k++)
                if (isfinite(c[k]->measured_mhz) && c[k]->measured_mhz > 0)
                    clk[nclk++] = c[k]->measured_mhz;
        }
    }
    if (nclk > 0) {
        gp_stats_sort(clk, (size_t)nclk);
        s->clock_min = clk[0];
        s->clock_max = clk[nclk - 1];
        s->clock_median = nclk % 2 ? clk[nclk / 2] : 0.5 * (clk[nclk / 2 - 1] + clk[nclk / 2]);
    }
    free(clk);
}

static const gp_record *find_probe(const gp_cmp_run *run, const char *probe)
{
    for (int i = 0; i < run->nrecs; i++)
        if (!strcmp(run->recs[i].probe, probe))
            return &run->recs[i];
    return NULL;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add_note(gp_cmp_result *res, const char *fmt, ...)
{
    if (!res->notes || res->nnotes >= res->notes_cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->notes[res->nnotes++], sizeof res->notes[0], fmt, ap);
    va_end(ap);
}

static int wanted(const char *probe, const char *const *only, int nonly)
{
    for (int i = 0; i < nonly; i++)
        if (!strcmp(only[i], probe))
            return 1;
    return nonly == 0;
}

/* Probes of `run` that `other` lacks, as one note line; each one counts as
 * a difference (res->probes_missing). */
static void note_only_in(gp_cmp_result *res, const gp_cmp_run *run, const gp_cmp_run *other, const char *which,
                         const char *const *only, int nonly)
{
    char line[320];
    int k = 0;
    size_t used = 0;
    line[0] = '\0';
    for (int i = 0; i < run->nrecs; i++) {
        if (find_probe(other, run->recs[i].probe) || !wanted(run->recs[i].probe, only, nonly))
            continue;
        res->probes_missing++;
        int w = snprintf(line + used, sizeof line - used, "%s%s", k++ ? ", " : "", run->recs[i].probe);
        if (w < 0 || (size_t)w >= sizeof line - used) {
            used = sizeof line - 1;
            break;
        }
        used += (size_t)w;
    }
    if (k)
        add_note(res, "probe%s only in run %s (a difference: the other run has no record): %s", k > 1 ? "s" : "",
                 which, line);
}

static void note_record(gp_cmp_result *res, const gp_record *r, const char *which)
{
    int others = gp_record_other_processes(r);
    if (r->clock_moved)
        add_note(res, "%s, run %s: the clock moved during the probe (%.0f -> %.0f MHz): cycle figures are uncertain",
                 r->probe, which, r->clock_before.measured_mhz, r->clock_after.measured_mhz);
    if (others > 0)
        add_note(res, "%s, run %s: %d other process(es) used the GPU during the probe", r->probe, which, others);
    if (r->check[0] && strcmp(r->check, "ok"))
        add_note(res, "%s, run %s: the probe's check %.240s", r->probe, which, r->check);
}

/* The table row ("section.key") a probe's value feeds, from the probe's own
 * list; "" when it feeds none (or the probe is unknown to this build). */
static void table_key_of(const char *probe, const char *key, char *out, size_t n)
{
    out[0] = 0;
    const gp_probe *p = gp_probe_find(probe);
    for (size_t i = 0; p && i < p->ntable_rows; i++)
        if (!strcmp(p->table_rows[i].value_key, key)) {
            snprintf(out, n, "%s.%s", p->table_rows[i].section, p->table_rows[i].key);
            return;
        }
}

gp_status gp_cmp_runs(const gp_cmp_run *A, const gp_cmp_run *B, double floor_, gp_cmp_result *res)
{
    return gp_cmp_runs_only(A, B, floor_, NULL, 0, res);
}

gp_status gp_cmp_runs_only(const gp_cmp_run *A, const gp_cmp_run *B, double floor_, const char *const *only,
                           int nonly, gp_cmp_result *res)
{
    memset(res, 0, sizeof *res);
    for (int i = 0; i < nonly; i++)
        if (!find_probe(A, only[i]) && !find_probe(B, only[i]))
            return gp_fail(GP_ERR_USAGE, "--only %s: no record of that probe in '%.200s' or '%.200s'", only[i],
                           A->dir, B->dir);
    res->dir_a = A->dir;
    res->dir_b = B->dir;
    res->floor = isfinite(floor_) && floor_ >= 0 ? floor_ : GP_CMP_DEFAULT_FLOOR;
    summarize(A, &res->side_a);
    summarize(B, &res->side_b);
    const gp_cmp_side *sa = &res->side_a, *sb = &res->side_b;
    res->devices_differ = strcmp(sa->name, sb->name) || strcmp(sa->arch, sb->arch) ||
                          (isfinite(sa->reported_mhz) && isfinite(sb->reported_mhz) &&
                           fabs(sa->reported_mhz - sb->reported_mhz) > 0.5);
    res->clocks_differ = isfinite(sa->clock_median) && isfinite(sb->clock_median) && sa->clock_median > 0 &&
                         fabs(sb->clock_median - sa->clock_median) / sa->clock_median > GP_CMP_CLOCK_TOLERANCE;

    size_t cap = 0, ncap = 4 + 3 * (size_t)(A->nrecs + B->nrecs);
    for (int i = 0; i < A->nrecs; i++) {
        const gp_record *rb = find_probe(B, A->recs[i].probe);
        if (rb && wanted(rb->probe, only, nonly))
            cap += (size_t)A->recs[i].nvalues + (size_t)rb->nvalues;
    }
    if (cap == 0) {
        char pa[160] = "", pb[160] = "";
        for (int i = 0; i < A->nrecs; i++)
            snprintf(pa + strlen(pa), sizeof pa - strlen(pa), "%s%s", i ? " " : "", A->recs[i].probe);
        for (int i = 0; i < B->nrecs; i++)
            snprintf(pb + strlen(pb), sizeof pb - strlen(pb), "%s%s", i ? " " : "", B->recs[i].probe);
        int common = 0;
        for (int i = 0; i < A->nrecs; i++)
            common += find_probe(B, A->recs[i].probe) != NULL;
        if (!common)
            return gp_fail(GP_ERR_USAGE, "no probe in common: '%.100s' has %.80s; '%.100s' has %.80s", A->dir, pa,
                           B->dir, pb);
    }
    res->rows = calloc(cap ? cap : 1, sizeof *res->rows);
    res->notes = calloc(ncap, sizeof *res->notes);
    res->notes_cap = (int)ncap;
    if (!res->rows || !res->notes) {
        gp_cmp_result_free(res);
        return gp_fail(GP_ERR_NOMEM, "out of host memory comparing '%s' and '%s'", A->dir, B->dir);
    }
    note_only_in(res, A, B, "A", only, nonly);
    note_only_in(res, B, A, "B", only, nonly);
    if (sa->quick != sb->quick)
        add_note(res, "run %s was measured with --quick (shorter sweeps), run %s without", sa->quick ? "A" : "B",
                 sa->quick ? "B" : "A");
    for (int i = 0; i < A->nrecs; i++) {
        const gp_record *ra = &A->recs[i], *rb = find_probe(B, ra->probe);
        if (!rb || !wanted(ra->probe, only, nonly))
            continue;
        res->probes_common++;
        note_record(res, ra, "A");
        note_record(res, rb, "B");
        for (int v = 0; v < ra->nvalues; v++) {
            gp_cmp_row *row = &res->rows[res->nrows++];
            gp_cmp_value(ra->probe, &ra->values[v], gp_record_find(rb, ra->values[v].key), res->floor, row);
            gp_cmp_clock_rule(row, ra, rb);
        }
        for (int v = 0; v < rb->nvalues; v++)
            if (!gp_record_find(ra, rb->values[v].key))
                gp_cmp_value(ra->probe, NULL, &rb->values[v], res->floor, &res->rows[res->nrows++]);
    }
    for (int i = 0; i < res->nrows; i++) {
        gp_cmp_row *row = &res->rows[i];
        gp_cmp_verdict v = row->verdict;
        table_key_of(row->probe, row->key, row->table_key, sizeof row->table_key);
        if (row->table_key[0]) {
            res->table_agree += v == GP_CMP_AGREES;
            res->table_unstable += v == GP_CMP_UNSTABLE;
            res->table_differ += gp_cmp_counts_as_differs(v);
        }
        if (v == GP_CMP_AGREES)
            res->agree++;
        else if (v == GP_CMP_UNSTABLE)
            res->unstable++;
        else if (gp_cmp_counts_as_differs(v))
            res->differ++;
        else if (v == GP_CMP_NONE_BOTH)
            res->none_both++;
        else
            res->only_one++;
    }
    return gp_ok();
}

void gp_cmp_result_free(gp_cmp_result *res)
{
    free(res->rows);
    free(res->notes);
    res->rows = NULL;
    res->notes = NULL;
    res->nrows = res->nnotes = 0;
}

/* ---- the page, through the document writer (Markdown) ---- */

static void value_cell(gp_doc *d, int in, int det, double v, const char *unit)
{
    char t[160];
    if (!in)
        snprintf(t, sizeof t, "(absent)");
    else if (!det)
        snprintf(t, sizeof t, "none");
    else
        snprintf(t, sizeof t, "%.6g%s%s", v, unit[0] ? " " : "", unit);
    gp_doc_cell(d, "num", GP_DOC_PLAIN, t);
}

static void diff_text(char *out, size_t n, const gp_cmp_row *r)
{
    if (!isfinite(r->diff) && !isinf(r->diff))
        snprintf(out, n, "—");
    else if (isinf(r->diff))
        snprintf(out, n, "from 0");
    else if (r->diff == 0)
        snprintf(out, n, "0");
    else if (r->absolute)
        snprintf(out, n, "%+.3g (absolute)", r->diff);
    else
        snprintf(out, n, "%+.3g%%", 100 * r->diff);
}

static void band_text(char *out, size_t n, const gp_cmp_row *r)
{
    if (!isfinite(r->band))
        snprintf(out, n, "—");
    else if (r->band_src == GP_CMP_BAND_EXACT)
        snprintf(out, n, "exact");
    else if (r->band_src == GP_CMP_BAND_RANGE)
        snprintf(out, n, "ranges overlap");
    else
        snprintf(out, n, "%.3g%% (%s)", 100 * r->band,
                 r->band_src == GP_CMP_BAND_SPREAD_A   ? "spread A"
                 : r->band_src == GP_CMP_BAND_SPREAD_B ? "spread B"
                                                        : "floor");
}

/* A folder as the page names it: as given when relative, by its base name
 * when absolute (a committed comparison must not carry /home/... paths). */
static void shown_dir(char *out, size_t n, const char *dir)
{
    if (dir && dir[0] == '/')
        gp_fs_base_name(out, n, dir);
    else
        snprintf(out, n, "%s", dir ? dir : "");
}

static void side_line(gp_doc *d, const char *which, const char *dir, const gp_cmp_side *s)
{
    char shown[512];
    shown_dir(shown, sizeof shown, dir);
    gp_doc_item_begin(d, NULL);
    gp_doc_textf(d, "Run %s: ", which);
    gp_doc_span(d, GP_DOC_CODE, shown);
    gp_doc_textf(d, ": %s (%s", s->name, s->arch[0] ? s->arch : "arch unknown");
    if (s->pci_bus_id[0])
        gp_doc_textf(d, ", bus %s", s->pci_bus_id);
    if (isfinite(s->reported_mhz))
        gp_doc_textf(d, ", reported clock %.0f MHz", s->reported_mhz);
    gp_doc_textf(d, "), %d probe record%s", s->nrecs, s->nrecs == 1 ? "" : "s");
    if (s->date_first[0]) {
        if (strcmp(s->date_first, s->date_last))
            gp_doc_textf(d, ", measured %s to %s", s->date_first, s->date_last);
        else
            gp_doc_textf(d, ", measured %s", s->date_first);
    }
    if (s->version[0])
        gp_doc_textf(d, ", gpuprobe %s", s->version);
    if (s->quick)
        gp_doc_text(d, ", --quick");
    if (isfinite(s->clock_median))
        gp_doc_textf(d, "; clock measured in-kernel %.0f-%.0f MHz (median %.0f)", s->clock_min, s->clock_max,
                     s->clock_median);
    else
        gp_doc_text(d, "; no measured clock in the records");
    gp_doc_item_end(d);
}

static int row_listed(const gp_cmp_row *r)
{
    return r->verdict != GP_CMP_NONE_BOTH;
}

void gp_cmp_write_md(FILE *f, const gp_cmp_result *res)
{
    static const char *const heads[] = {"probe", "key", "run A", "run B", "difference", "band", "verdict"};
    const gp_cmp_side *sa = &res->side_a, *sb = &res->side_b;
    int compared = res->agree + res->differ + res->unstable;
    char dt[64], bt[64];
    gp_doc doc, *d = &doc;
    gp_doc_init(d, f, GP_DOC_MD);
    gp_doc_heading(d, 1, NULL, "Two runs compared");
    gp_doc_list_begin(d);
    side_line(d, "A", res->dir_a, sa);
    side_line(d, "B", res->dir_b, sb);
    gp_doc_item_begin(d, NULL);
    gp_doc_textf(d, "A value agrees when |difference| <= band = max(spread A, spread B, floor %.3g%%); the "
                    "difference is (B - A) / |A|; counts and sizes without a spread must be equal (\"exact\"); a "
                    "value with a range (a near-tie, or a model's uncertainty interval) agrees when the ranges "
                    "overlap; a value either run flagged unstable, or whose fresh launches spread by more than "
                    "%.3g%%, is reported, not failed; so is a value converted through the measured clock "
                    "(per cycle, or ns from cycles) beyond its band, when the clock moved during its probe.",
                 100 * res->floor, 100 * GP_BETWEEN_UNSTABLE);
    gp_doc_item_end(d);
    gp_doc_list_end(d);
    gp_doc_para_begin(d, NULL);
    if (res->devices_differ) {
        gp_doc_span(d, GP_DOC_STRONG, "The runs are from different devices:");
        gp_doc_textf(d, " A is %s (%s, %.0f MHz), B is %s (%s, %.0f MHz). The comparison below still pairs their "
                        "values.",
                     sa->name, sa->arch, sa->reported_mhz, sb->name, sb->arch, sb->reported_mhz);
    } else {
        gp_doc_textf(d, "Same device in both runs: %s (%s)", sa->name, sa->arch);
        if (strcmp(sa->pci_bus_id, sb->pci_bus_id))
            gp_doc_textf(d, "; PCI bus %s in A, %s in B (another board of the model, or another machine)",
                         sa->pci_bus_id[0] ? sa->pci_bus_id : "?", sb->pci_bus_id[0] ? sb->pci_bus_id : "?");
        gp_doc_text(d, ".");
    }
    gp_doc_para_end(d);
    if (res->clocks_differ) {
        char t[96];
        gp_doc_para_begin(d, NULL);
        snprintf(t, sizeof t, "The measured clocks differ by %+.1f%%",
                 100 * (sb->clock_median - sa->clock_median) / sa->clock_median);
        gp_doc_span(d, GP_DOC_STRONG, t);
        gp_doc_textf(d, " (median %.0f MHz in A, %.0f MHz in B): per-cycle figures compare, per-second figures "
                        "scale with the clock.",
                     sa->clock_median, sb->clock_median);
        gp_doc_para_end(d);
    }
    {
        char t[160];
        gp_doc_para_begin(d, NULL);
        snprintf(t, sizeof t, "%d of %d characteristics agree within their spreads; %d differ; %d unstable.",
                 res->agree, compared, res->differ, res->unstable);
        gp_doc_span(d, GP_DOC_STRONG, t);
        gp_doc_textf(d, " (%d probe%s in both runs", res->probes_common, res->probes_common == 1 ? "" : "s");
        if (res->probes_missing) {
            snprintf(t, sizeof t, "%d probe%s in one run only", res->probes_missing,
                     res->probes_missing == 1 ? "" : "s");
            gp_doc_text(d, "; ");
            gp_doc_span(d, GP_DOC_STRONG, t);
        }
        if (res->only_one)
            gp_doc_textf(d, "; %d key%s in one run only", res->only_one, res->only_one == 1 ? "" : "s");
        if (res->none_both)
            gp_doc_textf(d, "; %d not detected in either run, not listed", res->none_both);
        gp_doc_text(d, ".)");
        gp_doc_para_end(d);
        int ntable = res->table_agree + res->table_differ + res->table_unstable;
        if (ntable) {
            gp_doc_para_begin(d, NULL);
            snprintf(t, sizeof t, "Tuning table: %d of %d values it takes agree; %d differ; %d unstable.",
                     res->table_agree, ntable, res->table_differ, res->table_unstable);
            gp_doc_span(d, GP_DOC_STRONG, t);
            gp_doc_text(d, " (the values the probes' table rows feed into table.txt");
            int listed = 0;
            for (int i = 0; i < res->nrows; i++) {
                const gp_cmp_row *r = &res->rows[i];
                if (!r->table_key[0] || !(gp_cmp_counts_as_differs(r->verdict) || r->verdict == GP_CMP_UNSTABLE))
                    continue;
                gp_doc_text(d, listed++ ? ", " : "; not agreeing: ");
                gp_doc_span(d, GP_DOC_CODE, r->table_key);
                gp_doc_textf(d, " %s", r->verdict == GP_CMP_UNSTABLE ? "unstable" : "differs");
            }
            gp_doc_text(d, ")");
            gp_doc_para_end(d);
        }
    }
    for (int pass = 0; pass < 2 && (res->differ || res->unstable); pass++) {
        int shown = 0;
        for (int i = 0; i < res->nrows; i++) {
            const gp_cmp_row *r = &res->rows[i];
            if (pass == 0 ? !gp_cmp_counts_as_differs(r->verdict) : r->verdict != GP_CMP_UNSTABLE)
                continue;
            if (!shown++) {
                gp_doc_para(d, NULL,
                            pass == 0 ? "Differ:"
                                      : "Unstable in a run (the probe flagged it, its fresh launches spread "
                                        "beyond the limit, or the clock it was converted with moved):");
                gp_doc_list_begin(d);
            }
            diff_text(dt, sizeof dt, r);
            band_text(bt, sizeof bt, r);
            gp_doc_item_begin(d, NULL);
            gp_doc_textf(d, "%s ", r->probe);
            gp_doc_span(d, GP_DOC_CODE, r->key);
            gp_doc_text(d, ": ");
            if (r->verdict == GP_CMP_NONE_IN_A || r->verdict == GP_CMP_NONE_IN_B)
                gp_doc_textf(d, "not detected in run %s", r->verdict == GP_CMP_NONE_IN_A ? "A" : "B");
            else
                gp_doc_textf(d, "%s, band %s", dt, bt);
            if (r->why[0])
                gp_doc_textf(d, "; %s", r->why);
            gp_doc_item_end(d);
        }
        if (shown)
            gp_doc_list_end(d);
    }
    if (res->nnotes) {
        gp_doc_para(d, NULL, "Notes:");
        gp_doc_list_texts(d, res->notes[0], sizeof res->notes[0], res->nnotes);
    }
    gp_doc_table_begin(d, 7, heads);
    for (int i = 0; i < res->nrows; i++) {
        const gp_cmp_row *r = &res->rows[i];
        if (!row_listed(r))
            continue;
        gp_doc_row_begin(d);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->probe);
        gp_doc_cell(d, NULL, GP_DOC_CODE, r->key);
        value_cell(d, r->in_a, r->det_a, r->a, r->unit);
        value_cell(d, r->in_b, r->det_b, r->b, r->unit);
        diff_text(dt, sizeof dt, r);
        band_text(bt, sizeof bt, r);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, dt);
        gp_doc_cell(d, "num", GP_DOC_PLAIN, bt);
        gp_doc_cell(d, NULL, GP_DOC_PLAIN, r->why[0] ? "unstable (clock moved)" : gp_cmp_verdict_name(r->verdict));
        gp_doc_row_end(d);
    }
    gp_doc_table_end(d);
}

/* ---- the same as JSON (docs/formats.md "compare --json") ---- */

static const char *verdict_id(gp_cmp_verdict v)
{
    switch (v) {
    case GP_CMP_AGREES: return "agrees";
    case GP_CMP_DIFFERS: return "differs";
    case GP_CMP_UNSTABLE: return "unstable";
    case GP_CMP_NONE_IN_A: return "none_in_a";
    case GP_CMP_NONE_IN_B: return "none_in_b";
    case GP_CMP_ONLY_IN_A: return "only_in_a";
    case GP_CMP_ONLY_IN_B: return "only_in_b";
    case GP_CMP_NONE_BOTH: return "none_in_both";
    }
    return "?";
}

static const char *band_id(gp_cmp_band_src b)
{
    switch (b) {
    case GP_CMP_BAND_FLOOR: return "floor";
    case GP_CMP_BAND_SPREAD_A: return "spread_a";
    case GP_CMP_BAND_SPREAD_B: return "spread_b";
    case GP_CMP_BAND_EXACT: return "exact";
    case GP_CMP_BAND_RANGE: return "ranges";
    }
    return "?";
}

static void json_side(FILE *f, const char *dir, const gp_cmp_side *s)
{
    char shown[512];
    shown_dir(shown, sizeof shown, dir);
    fputs("{\"folder\": ", f);
    gp_json_write_str(f, shown);
    fputs(", \"device\": {\"name\": ", f);
    gp_json_write_str(f, s->name);
    fputs(", \"arch\": ", f);
    gp_json_write_str(f, s->arch);
    fputs(", \"pci_bus_id\": ", f);
    gp_json_write_str(f, s->pci_bus_id);
    fputs(", \"reported_clock_mhz\": ", f);
    gp_json_write_num(f, s->reported_mhz);
    fprintf(f, "}, \"records\": %d, \"measured_first\": ", s->nrecs);
    gp_json_write_str(f, s->date_first);
    fputs(", \"measured_last\": ", f);
    gp_json_write_str(f, s->date_last);
    fputs(", \"gpuprobe_version\": ", f);
    gp_json_write_str(f, s->version);
    fputs(", \"quick\": ", f);
    gp_json_write_bool(f, s->quick);
    fputs(", \"clock_mhz\": {\"min\": ", f);
    gp_json_write_num(f, s->clock_min);
    fputs(", \"median\": ", f);
    gp_json_write_num(f, s->clock_median);
    fputs(", \"max\": ", f);
    gp_json_write_num(f, s->clock_max);
    fputs("}}", f);
}

static void json_row(FILE *f, const gp_cmp_row *r)
{
    fputs("    {\"probe\": ", f);
    gp_json_write_str(f, r->probe);
    fputs(", \"key\": ", f);
    gp_json_write_str(f, r->key);
    fputs(", \"unit\": ", f);
    gp_json_write_str(f, r->unit);
    fputs(", \"a\": ", f);
    gp_json_write_num(f, r->in_a && r->det_a ? r->a : NAN);
    fputs(", \"b\": ", f);
    gp_json_write_num(f, r->in_b && r->det_b ? r->b : NAN);
    fputs(", \"in_a\": ", f);
    gp_json_write_bool(f, r->in_a);
    fputs(", \"in_b\": ", f);
    gp_json_write_bool(f, r->in_b);
    fputs(", \"difference\": ", f);
    gp_json_write_num(f, r->diff);
    fputs(", \"from_zero\": ", f);
    gp_json_write_bool(f, isinf(r->diff));
    fputs(", \"absolute\": ", f);
    gp_json_write_bool(f, r->absolute);
    fputs(", \"band\": ", f);
    gp_json_write_num(f, r->band);
    fprintf(f, ", \"band_source\": \"%s\", \"verdict\": \"%s\", \"why\": ", isfinite(r->band) ? band_id(r->band_src) : "",
            verdict_id(r->verdict));
    gp_json_write_str(f, r->why);
    fputs(", \"table_key\": ", f);
    gp_json_write_str(f, r->table_key);
    fputc('}', f);
}

void gp_cmp_write_json(FILE *f, const gp_cmp_result *res)
{
    fprintf(f, "{\n  \"schema_version\": \"%s\",\n  \"floor\": ", GP_COMPARE_SCHEMA);
    gp_json_write_num(f, res->floor);
    fputs(",\n  \"run_a\": ", f);
    json_side(f, res->dir_a, &res->side_a);
    fputs(",\n  \"run_b\": ", f);
    json_side(f, res->dir_b, &res->side_b);
    fprintf(f, ",\n  \"devices_differ\": %s, \"clocks_differ\": %s,\n", res->devices_differ ? "true" : "false",
            res->clocks_differ ? "true" : "false");
    fprintf(f,
            "  \"summary\": {\"compared\": %d, \"agree\": %d, \"differ\": %d, \"unstable\": %d, "
            "\"keys_in_one_run\": %d, \"not_detected_in_either\": %d, \"probes_in_both\": %d, "
            "\"probes_in_one_run\": %d},\n",
            res->agree + res->differ + res->unstable, res->agree, res->differ, res->unstable, res->only_one,
            res->none_both, res->probes_common, res->probes_missing);
    fprintf(f, "  \"table\": {\"agree\": %d, \"differ\": %d, \"unstable\": %d},\n", res->table_agree,
            res->table_differ, res->table_unstable);
    fputs("  \"notes\": [", f);
    for (int i = 0; i < res->nnotes; i++) {
        fputs(i ? ", " : "", f);
        gp_json_write_str(f, res->notes[i]);
    }
    fputs("],\n  \"values\": [\n", f);
    for (int i = 0; i < res->nrows; i++) {
        json_row(f, &res->rows[i]);
        fputs(i + 1 < res->nrows ? ",\n" : "\n", f);
    }
    fputs("  ]\n}\n", f);
}
