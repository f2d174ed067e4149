/* Tuning tables: strict parser, validator, writer and lookup (table.h). */
#define _POSIX_C_SOURCE 200809L
#include "table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "schema.h"
#include "utf8.h"

/* ------------------------------------------------------------------ helpers */

/* "name:line: reason", or "name: reason" for a table built in memory. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static gp_status fail_at(const char *name, int line, const char *fmt, ...)
{
    char reason[GP_STATUS_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (line > 0)
        return gp_fail(GP_ERR_USAGE, "%s:%d: %s", name && *name ? name : "table", line, reason);
    return gp_fail(GP_ERR_USAGE, "%s: %s", name && *name ? name : "table", reason);
}

static const char *tname(const gp_table *t) { return t->source[0] ? t->source : "table"; }

static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '-' || c == '+'; }

/* An arch name is also a file name under tables/, so keep it to a safe set. */
static int arch_ok(const char *s)
{
    if (!*s || *s == '.' || *s == '-' || strlen(s) >= 32)
        return 0;
    for (; *s; s++)
        if (!is_ident_char((unsigned char)*s))
            return 0;
    return 1;
}

static int is_pow2(long long v) { return v > 0 && (v & (v - 1)) == 0; }

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

/* Shortest %g form that reads back as the same double, so a written table
 * is readable and round-trips exactly. */
static void fmt_double(char *out, size_t n, double v)
{
    /* Whole numbers as integers: %g would print 4800 as 4.8e+03. */
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(out, n, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            return;
    }
}

static void fmt_value(char *out, size_t n, const gp_table_key *k, const gp_table_entry *e)
{
    if (e->is_none)
        snprintf(out, n, "none");
    else if (k->type == GP_TV_INT)
        snprintf(out, n, "%lld", e->i);
    else if (k->type == GP_TV_DOUBLE)
        fmt_double(out, n, e->d);
    else
        snprintf(out, n, "%s", e->text);
}

/* ------------------------------------------------------------- provenance */

static const char *const prov_words[] = {"measured", "published", "rule", "swept", "assumed"};
#define GP_PROV_NKINDS 5

const char *gp_prov_kind_name(gp_prov_kind k)
{
    return (int)k >= 0 && (int)k < GP_PROV_NKINDS ? prov_words[k] : "?";
}

static int date_ok(const char *s, size_t len)
{
    if (len != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return 0;
    int mon = (s[5] - '0') * 10 + (s[6] - '0');
    int day = (s[8] - '0') * 10 + (s[9] - '0');
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

/* Next whitespace-separated word of *p: start and length; advances *p. */
static size_t next_word(const char **p, const char **start)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    *start = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    *p = s;
    return (size_t)(s - *start);
}

gp_status gp_table_check_provenance(const char *prov, int is_none, gp_prov_kind *kind)
{
    const char *p = prov, *w;
    size_t len = next_word(&p, &w);
    int k = -1;
    for (int i = 0; i < GP_PROV_NKINDS; i++)
        if (len == strlen(prov_words[i]) && !strncmp(w, prov_words[i], len))
            k = i;
    /* "assumed: <reason>": no name, the reason is the point. */
    if (len == 8 && !strncmp(w, "assumed:", 8))
        k = GP_PROV_ASSUMED;
    if (len == 0)
        return gp_fail(GP_ERR_USAGE, "empty provenance comment (want measured, published, rule, swept or assumed)");
    if (k < 0)
        return gp_fail(GP_ERR_USAGE, "provenance '%.*s' is not measured, published, rule, swept or assumed",
                       (int)(len > 40 ? 40 : len), w);
    if (k == GP_PROV_ASSUMED) {
        while (*p == ' ' || *p == '\t' || *p == ':')
            p++;
        if (!*p)
            return gp_fail(GP_ERR_USAGE, "provenance 'assumed' needs the reason: 'assumed: <why this stand-in>'");
        if (kind)
            *kind = GP_PROV_ASSUMED;
        return gp_ok();
    }
    len = next_word(&p, &w);
    if (len == 0)
        return gp_fail(GP_ERR_USAGE, "provenance '%s' needs a name (probe, source, rule or kernel)",
                       prov_words[k]);
    if (k != GP_PROV_PUBLISHED) {
        /* probe, rule and kernel names are identifiers; one trailing ':' or
         * ',' may separate the name from a note. */
        size_t n = len;
        if (w[n - 1] == ':' || w[n - 1] == ',')
            n--;
        for (size_t i = 0; i < n; i++)
            if (!is_ident_char((unsigned char)w[i]))
                return gp_fail(GP_ERR_USAGE, "provenance name '%.*s' is not an identifier",
                               (int)(len > 40 ? 40 : len), w);
        if (n == 0)
            return gp_fail(GP_ERR_USAGE, "provenance '%s' needs a name", prov_words[k]);
    }
    if (k == GP_PROV_MEASURED) {
        /* A measured value is only as good as the day it was measured. */
        len = next_word(&p, &w);
        size_t n = len;
        if (n && (w[n - 1] == ':' || w[n - 1] == ','))
            n--;
        if (!date_ok(w, n))
            return gp_fail(GP_ERR_USAGE, "provenance 'measured <probe>' needs a date YYYY-MM-DD after the probe");
    }
    if (is_none) {
        while (*p == ' ' || *p == '\t' || *p == ':' || *p == ',' || *p == '-' || *p == '(')
            p++;
        /* "not detected:" is the label characterize writes before the
         * probe's reason: the label alone says nothing about why. */
        static const char label[] = "not detected";
        if (!strncmp(p, label, sizeof label - 1) && (!p[sizeof label - 1] || strchr(" \t:,(", p[sizeof label - 1]))) {
            p += sizeof label - 1;
            while (*p == ' ' || *p == '\t' || *p == ':' || *p == ',' || *p == '-' || *p == '(')
                p++;
        }
        if (!*p)
            return gp_fail(GP_ERR_USAGE, "value is none: the comment must say why (after the %s name)",
                           prov_words[k]);
    }
    if (kind)
        *kind = (gp_prov_kind)k;
    return gp_ok();
}

/* ---------------------------------------------------------- value checks */

/* Check a parsed number against the key's range and shape. */
static gp_status check_number(const gp_table_key *k, double d, long long i)
{
    if (k->type == GP_TV_INT) {
        if ((k->flags & GP_TK_WAVE) && i != 32 && i != 64)
            return gp_fail(GP_ERR_USAGE, "%s.%s = %lld: must be 32 or 64", k->section, k->key, i);
        if ((double)i < k->min || (double)i > k->max)
            return gp_fail(GP_ERR_USAGE, "%s.%s = %lld: out of range %.15g..%.15g %s", k->section, k->key, i,
                           k->min, k->max, k->unit);
        if ((k->flags & GP_TK_POW2) && !is_pow2(i))
            return gp_fail(GP_ERR_USAGE, "%s.%s = %lld: must be a power of two", k->section, k->key, i);
        return gp_ok();
    }
    if (!(d >= k->min && d <= k->max))
        return gp_fail(GP_ERR_USAGE, "%s.%s = %.9g: out of range %.15g..%.15g %s", k->section, k->key, d,
                       k->min, k->max, k->unit);
    return gp_ok();
}

/* Parse a value's text into e (not touching e->prov). */
static gp_status parse_value(const gp_table_key *k, const char *v, gp_table_entry *e)
{
    e->is_none = 0;
    e->i = 0;
    e->d = 0;
    e->text[0] = '\0';
    if (!*v)
        return gp_fail(GP_ERR_USAGE, "%s.%s has an empty value", k->section, k->key);
    if (!strcmp(v, "none")) {
        if (k->flags & GP_TK_NO_NONE)
            return gp_fail(GP_ERR_USAGE, "%s.%s cannot be none: it must have a value", k->section, k->key);
        e->is_none = 1;
        e->d = NAN;
        return gp_ok();
    }
    if (k->type == GP_TV_TEXT) {
        if (strlen(v) >= sizeof e->text)
            return gp_fail(GP_ERR_USAGE, "%s.%s: text longer than %d characters", k->section, k->key,
                           GP_TABLE_TEXT_LEN - 1);
        if (!gp_utf8_text_ok(v))
            return gp_fail(GP_ERR_USAGE, "%s.%s: text is not UTF-8 without control characters", k->section,
                           k->key);
        if (!strcmp(k->key, "arch") && !arch_ok(v))
            return gp_fail(GP_ERR_USAGE, "device.arch '%s': want letters, digits, '_', '.', '-', '+' (like sm_90, gfx900)", v);
        snprintf(e->text, sizeof e->text, "%s", v);
        return gp_ok();
    }
    if (k->type == GP_TV_INT) {
        const char *s = v + (*v == '-');
        if (!*s)
            return gp_fail(GP_ERR_USAGE, "%s.%s = '%s': not an integer", k->section, k->key, v);
        for (; *s; s++)
            if (!isdigit((unsigned char)*s))
                return gp_fail(GP_ERR_USAGE, "%s.%s = '%s': not an integer", k->section, k->key, v);
        errno = 0;
        long long i = strtoll(v, NULL, 10);
        if (errno == ERANGE)
            return gp_fail(GP_ERR_USAGE, "%s.%s = '%s': integer too large", k->section, k->key, v);
        GP_TRY(check_number(k, (double)i, i));
        e->i = i;
        e->d = (double)i;
        return gp_ok();
    }
    /* Decimal: digits, one '.', an exponent; no hex, inf or nan, which
     * strtod would otherwise accept. */
    for (const char *s = v; *s; s++)
        if (!isdigit((unsigned char)*s) && !strchr(".eE+-", *s))
            return gp_fail(GP_ERR_USAGE, "%s.%s = '%s': not a number", k->section, k->key, v);
    char *end = NULL;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(d))
        return gp_fail(GP_ERR_USAGE, "%s.%s = '%s': not a number", k->section, k->key, v);
    GP_TRY(check_number(k, d, 0));
    e->d = d;
    return gp_ok();
}

/* ---------------------------------------------------------------- table */

void gp_table_init(gp_table *t)
{
    memset(t, 0, sizeof *t);
    t->schema_major = 1;
}

int gp_table_schema_major(void)
{
    int major = 1, minor = 0;
    gp_schema_parse(GP_TABLE_SCHEMA, &major, &minor);
    return major;
}

/* `schema_version = M.m [# comment]`, before the first section. */
static gp_status parse_schema_line(gp_table *t, const char *name, int lineno, char *value)
{
    char *hash = strchr(value, '#');
    if (hash)
        *hash = '\0';
    value = trim(value);
    char where[GP_TABLE_PATH_LEN + 16];
    snprintf(where, sizeof where, "%s:%d", name, lineno);
    if (t->schema_line)
        return fail_at(name, lineno, "schema_version given twice (first at line %d)", t->schema_line);
    if (!gp_schema_parse(value, &t->schema_major, &t->schema_minor))
        t->schema_major = 1, t->schema_minor = 0;
    t->schema_line = lineno;
    return gp_schema_check(value, GP_TABLE_SCHEMA, where);
}

const gp_table_entry *gp_table_find(const gp_table *t, const char *section, const char *key)
{
    int i = gp_table_key_index(section, key);
    if (i < 0 || !t->e[i].present)
        return NULL;
    return &t->e[i];
}

static const gp_table_entry *entry_or_null(const gp_table *t, const char *section, const char *key)
{
    return gp_table_find(t, section, key);
}

/* Value of an integer key that is present and not none, else `dflt`. */
static long long ival(const gp_table *t, const char *section, const char *key, long long dflt, int *line)
{
    const gp_table_entry *e = entry_or_null(t, section, key);
    if (!e || e->is_none)
        return dflt;
    if (line)
        *line = e->line;
    return e->i;
}

/* Value of a decimal (or integer) key that is present and not none, else NAN. */
static double dval(const gp_table *t, const char *section, const char *key, int *line)
{
    const gp_table_entry *e = entry_or_null(t, section, key);
    if (!e || e->is_none)
        return NAN;
    if (line)
        *line = e->line;
    return e->d;
}

/* Orderings the memory hierarchy and the compute peak impose: a table that
 * breaks one holds a mis-measured value (an L1 latency of 999 cycles beside
 * an L2 of 376), whatever each value's own range allows.  Checked only where
 * both sides are known (none or absent skip the rule). */
static gp_status check_physics(const gp_table *t, const char *name)
{
    int line = 0;
    double l1 = dval(t, "cache.l1", "latency_cycles", NULL), l2 = dval(t, "cache.l2", "latency_cycles", &line);
    if (l1 >= l2)
        return fail_at(name, line, "cache.l2.latency_cycles = %g is not above cache.l1.latency_cycles = %g", l2, l1);
    double lds = dval(t, "lds", "latency_cycles", &line);
    if (lds >= l2)
        return fail_at(name, line, "lds.latency_cycles = %g is not below cache.l2.latency_cycles = %g", lds, l2);
    double dram = dval(t, "dram", "latency_cycles", &line);
    if (l2 >= dram)
        return fail_at(name, line, "dram.latency_cycles = %g is not above cache.l2.latency_cycles = %g", dram, l2);
    if (l1 >= dram)
        return fail_at(name, line, "dram.latency_cycles = %g is not above cache.l1.latency_cycles = %g", dram, l1);
    /* 5 % over the peak: the slack a datasheet's rounded peak needs. */
    double bw = dval(t, "dram", "bandwidth_gbs", &line), peak = dval(t, "dram", "peak_gbs", NULL);
    if (bw > peak * 1.05)
        return fail_at(name, line, "dram.bandwidth_gbs = %g exceeds dram.peak_gbs = %g by more than 5 %%", bw, peak);
    /* The FP32 peak per CU the table implies: the measured per-CU rate over
     * the fraction of peak it reached.  FP64 never issues faster than FP32
     * (equal on CDNA), and no CU issues more than 8 FMA per wave lane (4
     * schedulers x dual issue, the widest shipped). */
    double f32 = dval(t, "compute", "fp32_fma_per_cycle_per_cu", &line);
    double frac = dval(t, "compute", "fp32_peak_fraction", NULL);
    double f32_peak = frac > 0 ? f32 / frac : f32;
    long long wave = ival(t, "device", "wave_size", 0, NULL);
    if (wave && f32 > 8.0 * (double)wave * 1.05)
        return fail_at(name, line, "compute.fp32_fma_per_cycle_per_cu = %g exceeds 8 FMA per lane of a %lld-wide "
                       "wave (%lld): no CU issues that many", f32, wave, 8 * wave);
    double f64 = dval(t, "compute", "fp64_fma_per_cycle_per_cu", &line);
    if (f64 > f32_peak * 1.05)
        return fail_at(name, line, "compute.fp64_fma_per_cycle_per_cu = %g exceeds the FP32 peak the table implies "
                       "(%g = fp32_fma_per_cycle_per_cu / fp32_peak_fraction)", f64, f32_peak);
    /* A sector is a part of a line: once a level has both keys, the sector
     * is no larger and divides the line. */
    static const char *const levels[] = {"cache.l1", "cache.l2"};
    for (int i = 0; i < 2; i++) {
        long long lb = ival(t, levels[i], "line_bytes", 0, NULL), sb = ival(t, levels[i], "sector_bytes", 0, &line);
        if (lb && sb && (sb > lb || lb % sb))
            return fail_at(name, line, "%s.sector_bytes = %lld must divide its line_bytes = %lld", levels[i], sb, lb);
    }
    return gp_ok();
}

/* Does t hold any key of `section`? */
static int section_present(const gp_table *t, const char *section)
{
    for (size_t i = 0; i < gp_table_nkeys(); i++)
        if (t->e[i].present && !strcmp(gp_table_key_at(i)->section, section))
            return 1;
    return 0;
}

/* A kernel's section may be absent as a whole (a kernel added after the
 * table was written: its rule gives the values at launch, kernels/kernel.h);
 * one that is there is complete. */
static gp_status check_required(const gp_table *t, const char *name, int facts_only)
{
    const gp_table_entry *vendor = gp_table_find(t, "device", "vendor");
    int amd = vendor && !vendor->is_none && !strcmp(vendor->text, "AMD");
    size_t nk = gp_table_nkeys();
    for (size_t i = 0; i < nk; i++) {
        const gp_table_key *k = gp_table_key_at(i);
        int need = (k->flags & GP_TK_REQUIRED) || (amd && (k->flags & GP_TK_REQUIRED_AMD));
        int kernel = !strncmp(k->section, "kernel.", 7);
        if (!need || t->e[i].present || (kernel && (facts_only || !section_present(t, k->section))))
            continue;
        int s = gp_table_section_index(k->section);
        int line = s >= 0 ? t->section_line[s] : 0;
        if (line == 0)
            return fail_at(name, t->nlines, "missing section [%s] (needs key '%s')", k->section, k->key);
        return fail_at(name, line, "[%s] is missing required key '%s'%s", k->section, k->key,
                       (k->flags & GP_TK_REQUIRED_AMD) ? " (required when vendor is AMD)" : "");
    }
    return gp_ok();
}

/* Cross-key rules: contradictions a single value cannot show.  Each rule
 * guards something a kernel or rule relies on; see docs/tuning-table.md. */
static gp_status check_cross(const gp_table *t, const char *name)
{
    int line = 0;
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    long long wave = ival(t, "device", "wave_size", 0, &line);
    if (arch && wave) {
        const char *a = arch->text;
        /* NVIDIA warps are 32; gfx9 (GCN/CDNA) waves are 64.  RDNA runs both. */
        if (!strncmp(a, "sm_", 3) && wave != 32)
            return fail_at(name, line, "device.wave_size = %lld but arch %s has 32-thread warps", wave, a);
        if (!strncmp(a, "gfx9", 4) && wave != 64)
            return fail_at(name, line, "device.wave_size = %lld but arch %s has 64-thread waves", wave, a);
    }
    long long l1 = ival(t, "cache.l1", "bytes", 0, NULL), l2 = ival(t, "cache.l2", "bytes", 0, &line);
    if (l1 && l2 && l1 >= l2)
        return fail_at(name, line, "cache.l2.bytes = %lld is not larger than cache.l1.bytes = %lld", l2, l1);
    static const char *const levels[] = {"cache.l1", "cache.l2"};
    for (int i = 0; i < 2; i++) {
        long long b = ival(t, levels[i], "bytes", 0, NULL), lb = ival(t, levels[i], "line_bytes", 0, &line);
        if (b && lb && lb > b)
            return fail_at(name, line, "%s.line_bytes = %lld exceeds its bytes = %lld", levels[i], lb, b);
    }
    long long lds = ival(t, "lds", "bytes_per_cu", 0, NULL);
    long long banks = ival(t, "lds", "banks", 0, NULL), bb = ival(t, "lds", "bank_bytes", 0, &line);
    if (lds && banks && bb && banks * bb > lds)
        return fail_at(name, line, "lds.banks x lds.bank_bytes = %lld exceeds lds.bytes_per_cu = %lld",
                       banks * bb, lds);
    long long lpb = ival(t, "lds", "bytes_per_block", 0, &line);
    if (lds && lpb && lpb > lds)
        return fail_at(name, line, "lds.bytes_per_block = %lld exceeds lds.bytes_per_cu = %lld", lpb, lds);
    long long rpt = ival(t, "registers", "per_thread_max", 0, &line), rcu = ival(t, "registers", "per_cu", 0, NULL);
    if (rpt && rcu && rpt > rcu)
        return fail_at(name, line, "registers.per_thread_max = %lld exceeds registers.per_cu = %lld", rpt, rcu);

    /* Kernel parameter sets: what makes a launch legal on any GPU (at most
     * 1024 threads, whole waves of 64, LDS within the 48 KiB every target
     * grants a block).  A table changes speed, never results or legality.
     * (Each kernel checks its own section in the kernel layer too:
     * gp_kernel.check_table.) */
    return gp_ok();
}

static gp_status check_shaped(const gp_table *t, const char *name);

gp_status gp_table_validate(const gp_table *t, const char *name)
{
    if (!name)
        name = tname(t);
    GP_TRY(check_required(t, name, 0));
    GP_TRY(check_shaped(t, name));
    GP_TRY(check_cross(t, name));
    return check_physics(t, name);
}

/* ---------------------------------------------------------------- parser */

/* The section being read is a kernel this build does not carry
 * (-DGP_KERNELS): its lines are skipped. */
#define GP_SECTION_NOT_BUILT (-2)
/* The section being read is find-db entry i: GP_SECTION_SHAPED + i. */
#define GP_SECTION_SHAPED 100000

static int class_ok(const char *c)
{
    if (!*c || strlen(c) >= GP_TABLE_CLASS_LEN)
        return 0;
    for (; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._^+-", *c))
            return 0;
    return 1;
}

const gp_table_shaped *gp_table_shaped_find(const gp_table *t, const char *kernel, const char *cls)
{
    for (int i = 0; i < t->nshaped; i++)
        if (!strcmp(t->shaped[i].kernel, kernel) && !strcmp(t->shaped[i].cls, cls))
            return &t->shaped[i];
    return NULL;
}

void gp_table_shaped_drop(gp_table *t, const char *kernel, const char *cls)
{
    for (int i = 0; i < t->nshaped; i++)
        if (!strcmp(t->shaped[i].kernel, kernel) && !strcmp(t->shaped[i].cls, cls)) {
            memmove(&t->shaped[i], &t->shaped[i + 1], (size_t)(t->nshaped - i - 1) * sizeof t->shaped[0]);
            t->nshaped--;
            return;
        }
}

/* A new entry [kernel.<k>@<cls>], or why not (message without file:line). */
static gp_status shaped_new(gp_table *t, const char *kernel, const char *cls, gp_table_shaped **out)
{
    char sec[64];
    snprintf(sec, sizeof sec, "kernel.%s", kernel);
    if (gp_table_section_index(sec) < 0)
        return gp_fail(GP_ERR_USAGE, "[%s@%s]: no kernel %s in this build", sec, cls, kernel);
    if (!class_ok(cls))
        return gp_fail(GP_ERR_USAGE, "[%s@%s]: a shape class is 1..%d of A-Z a-z 0-9 . _ ^ + -", sec, cls,
                       GP_TABLE_CLASS_LEN - 1);
    if (gp_table_shaped_find(t, kernel, cls))
        return gp_fail(GP_ERR_USAGE, "section [%s@%s] repeated", sec, cls);
    if (t->nshaped >= GP_TABLE_MAX_SHAPED)
        return gp_fail(GP_ERR_USAGE, "[%s@%s]: more than %d tuned shape classes in one table", sec, cls,
                       GP_TABLE_MAX_SHAPED);
    gp_table_shaped *s = &t->shaped[t->nshaped++];
    memset(s, 0, sizeof *s);
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel);
    snprintf(s->cls, sizeof s->cls, "%s", cls);
    *out = s;
    return gp_ok();
}

/* Key `key` = text value of entry s, with its provenance (message without
 * file:line). */
static gp_status shaped_put(gp_table_shaped *s, const char *key, const char *value, long long iv, int from_text,
                            const char *prov)
{
    char sec[64];
    snprintf(sec, sizeof sec, "kernel.%s", s->kernel);
    int ki = gp_table_key_index(sec, key);
    if (ki < 0)
        return gp_fail(GP_ERR_USAGE, "unknown key '%.60s' in [%s@%s]", key, sec, s->cls);
    gp_prov_kind kind;
    GP_TRY(gp_table_check_provenance(prov, 0, &kind));
    if (kind != GP_PROV_SWEPT)
        return gp_fail(GP_ERR_USAGE, "%s@%s.%s: a tuned shape class holds what a sweep found (# swept ...)", sec,
                       s->cls, key);
    if (s->nkeys && strcmp(s->prov, prov))
        return gp_fail(GP_ERR_USAGE, "%s@%s.%s: every key of a tuned shape class carries its sweep's one "
                       "provenance", sec, s->cls, key);
    gp_table_entry ne;
    memset(&ne, 0, sizeof ne);
    if (from_text) {
        GP_TRY(parse_value(gp_table_key_at((size_t)ki), value, &ne));
        if (ne.is_none)
            return gp_fail(GP_ERR_USAGE, "%s@%s.%s cannot be none", sec, s->cls, key);
        iv = ne.i;
    } else {
        GP_TRY(check_number(gp_table_key_at((size_t)ki), (double)iv, iv));
    }
    for (int i = 0; i < s->nkeys; i++)
        if (s->ki[i] == ki) {
            if (from_text)
                return gp_fail(GP_ERR_USAGE, "duplicate key %s@%s.%s", sec, s->cls, key);
            s->v[i] = iv;
            return gp_ok();
        }
    if (s->nkeys >= GP_TABLE_SHAPED_KEYS)
        return gp_fail(GP_ERR_USAGE, "[%s@%s]: more than %d keys", sec, s->cls, GP_TABLE_SHAPED_KEYS);
    snprintf(s->prov, sizeof s->prov, "%s", prov);
    s->ki[s->nkeys] = (short)ki, s->v[s->nkeys] = iv, s->nkeys++;
    return gp_ok();
}

gp_status gp_table_shaped_set(gp_table *t, const char *kernel, const char *cls, const char *key, long long v,
                              const char *prov)
{
    gp_table_shaped *s = (gp_table_shaped *)gp_table_shaped_find(t, kernel, cls);
    int made = 0;
    if (!s) {
        GP_TRY(shaped_new(t, kernel, cls, &s));
        made = 1;
    }
    gp_status st = shaped_put(s, key, NULL, v, 0, prov);
    if (st.code != GP_OK && made)
        t->nshaped--;
    return st;
}

/* Every entry holds each key its kernel's section requires. */
static gp_status check_shaped(const gp_table *t, const char *name)
{
    for (int i = 0; i < t->nshaped; i++) {
        const gp_table_shaped *s = &t->shaped[i];
        char sec[64];
        snprintf(sec, sizeof sec, "kernel.%s", s->kernel);
        for (size_t k = 0; k < gp_table_nkeys(); k++) {
            const gp_table_key *key = gp_table_key_at(k);
            if (strcmp(key->section, sec) || !(key->flags & GP_TK_REQUIRED))
                continue;
            int have = 0;
            for (int j = 0; j < s->nkeys; j++)
                have |= s->ki[j] == (short)k;
            if (!have)
                return fail_at(name, s->line, "[%s@%s] is missing required key '%s'", sec, s->cls, key->key);
        }
    }
    return gp_ok();
}

static gp_status parse_line(gp_table *t, const char *name, int lineno, char *line, int *section)
{
    char *s = trim(line);
    if (!*s || *s == '#')
        return gp_ok();
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close)
            return fail_at(name, lineno, "section header without ']'");
        *close = '\0';
        char *rest = trim(close + 1);
        if (*rest && *rest != '#')
            return fail_at(name, lineno, "text after section header: '%.40s'", rest);
        char *sec = s + 1;
        if (!*sec)
            return fail_at(name, lineno, "empty section name");
        char *at = !strncmp(sec, "kernel.", 7) ? strchr(sec, '@') : NULL;
        if (at) { /* a find-db entry [kernel.<k>@<class>] */
            *at = '\0';
            if (gp_table_section_index(sec) < 0 && gp_table_kernel_known(sec + 7)) {
                *section = GP_SECTION_NOT_BUILT;
                return gp_ok();
            }
            gp_table_shaped *e;
            gp_status st = shaped_new(t, sec + 7, at + 1, &e);
            if (st.code)
                return fail_at(name, lineno, "%s", st.msg);
            e->line = lineno;
            *section = GP_SECTION_SHAPED + (int)(e - t->shaped);
            return gp_ok();
        }
        int si = gp_table_section_index(sec);
        if (si < 0 && !strncmp(sec, "kernel.", 7) && gp_table_kernel_known(sec + 7)) {
            *section = GP_SECTION_NOT_BUILT; /* a kernel of the source tree this build leaves out */
            return gp_ok();
        }
        if (si < 0)
            return fail_at(name, lineno, "unknown section [%.60s]", sec);
        if (si >= GP_TABLE_MAX_SECTIONS)
            return fail_at(name, lineno, "internal: too many sections in the schema");
        if (t->section_line[si])
            return fail_at(name, lineno, "section [%s] repeated (first at line %d)", sec, t->section_line[si]);
        t->section_line[si] = lineno;
        *section = si;
        return gp_ok();
    }
    char *eq = strchr(s, '=');
    if (!eq || !isalpha((unsigned char)*s))
        return fail_at(name, lineno, "not a [section], key = value or # comment: '%.60s'", s);
    if (*section == GP_SECTION_NOT_BUILT)
        return gp_ok();
    *eq = '\0';
    char *key = trim(s);
    if (*section < 0 && !strcmp(key, "schema_version"))
        return parse_schema_line(t, name, lineno, eq + 1);
    if (*section < 0)
        return fail_at(name, lineno, "key before any [section]");
    for (char *c = key; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return fail_at(name, lineno, "bad key name '%.60s'", key);
    if (*section >= GP_SECTION_SHAPED) {
        char *v = eq + 1, *h = strchr(v, '#');
        if (!h)
            return fail_at(name, lineno, "%s has no provenance comment (# swept ...)", key);
        *h = '\0';
        gp_status st = shaped_put(&t->shaped[*section - GP_SECTION_SHAPED], key, trim(v), 0, 1, trim(h + 1));
        return st.code ? fail_at(name, lineno, "%s", st.msg) : gp_ok();
    }
    const char *sec = gp_table_section_at((size_t)*section);
    int ki = gp_table_key_index(sec, key);
    if (ki < 0)
        return fail_at(name, lineno, "unknown key '%.60s' in [%s]", key, sec);
    char *value = eq + 1;
    char *hash = strchr(value, '#');
    if (!hash)
        return fail_at(name, lineno, "%s.%s has no provenance comment (# measured|published|rule|swept ... or # assumed: why)",
                       sec, key);
    *hash = '\0';
    value = trim(value);
    char *prov = trim(hash + 1);
    gp_table_entry *e = &t->e[ki];
    if (e->present)
        return fail_at(name, lineno, "duplicate key %s.%s (first at line %d)", sec, key, e->line);
    gp_table_entry ne;
    memset(&ne, 0, sizeof ne);
    gp_status st = parse_value(gp_table_key_at((size_t)ki), value, &ne);
    if (st.code)
        return fail_at(name, lineno, "%s", st.msg);
    if (strlen(prov) >= sizeof ne.prov)
        return fail_at(name, lineno, "provenance comment longer than %d characters", GP_TABLE_PROV_LEN - 1);
    st = gp_table_check_provenance(prov, ne.is_none, &ne.kind);
    if (st.code)
        return fail_at(name, lineno, "%s.%s: %s", sec, key, st.msg);
    snprintf(ne.prov, sizeof ne.prov, "%s", prov);
    ne.present = 1;
    ne.line = lineno;
    *e = ne;
    return gp_ok();
}

static gp_status parse_text(gp_table *t, const char *text, const char *name, int facts_only)
{
    gp_table_init(t);
    if (gp_table_nkeys() > GP_TABLE_MAX_KEYS || gp_table_nsections() > GP_TABLE_MAX_SECTIONS)
        return gp_fail(GP_ERR_USAGE, "internal: schema larger than GP_TABLE_MAX_KEYS/SECTIONS");
    if (name)
        snprintf(t->source, sizeof t->source, "%s", name);
    name = tname(t);
    if (!strncmp(text, "\xEF\xBB\xBF", 3))
        return fail_at(name, 1, "starts with a UTF-8 byte-order mark (bytes EF BB BF): save the file without it");
    int section = -1, lineno = 0;
    char line[1024];
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len >= sizeof line)
            return fail_at(name, lineno, "line longer than %d characters", (int)sizeof line - 1);
        memcpy(line, p, len);
        line[len] = '\0';
        if (len && line[len - 1] == '\r')  /* tolerate CRLF files */
            line[len - 1] = '\0';
        for (char *c = line; *c; c++)
            if (iscntrl((unsigned char)*c) && *c != '\t')
                return fail_at(name, lineno, "control character in line");
        GP_TRY(parse_line(t, name, lineno, line, &section));
        p = nl ? nl + 1 : p + len;
    }
    t->nlines = lineno;
    if (!facts_only)
        return gp_table_validate(t, name);
    GP_TRY(check_required(t, name, 1));
    return check_cross(t, name);
}

gp_status gp_table_parse(gp_table *t, const char *text, const char *name) { return parse_text(t, text, name, 0); }

gp_status gp_table_parse_facts(gp_table *t, const char *text, const char *name)
{
    return parse_text(t, text, name, 1);
}

static gp_status load_file(const char *path, gp_table *t, int facts_only)
{
    gp_table_init(t);
    if (gp_fs_is_dir(path))
        return gp_fail(GP_ERR_USAGE, "'%s' is a directory, not a tuning table file (name a file such as %s/sm_90)",
                       path, path);
    char *buf;
    size_t n;
    gp_status st = gp_fs_read_regular(path, GP_TABLE_MAX_FILE, "a tuning table", &buf, &n);
    if (st.code != GP_OK)
        return st.code == GP_ERR_IO && strstr(st.msg, "cannot read '") == st.msg
                   ? gp_fail(GP_ERR_IO, "cannot read table %s", st.msg + strlen("cannot read "))
                   : st;
    if (memchr(buf, '\0', n))
        st = gp_fail(GP_ERR_USAGE, "%s: contains NUL bytes, not a tuning table", path);
    else
        st = parse_text(t, buf, path, facts_only);
    free(buf);
    return st;
}

gp_status gp_table_load(const char *path, gp_table *t) { return load_file(path, t, 0); }

gp_status gp_table_load_facts(const char *path, gp_table *t) { return load_file(path, t, 1); }

gp_status gp_table_load_arch(const char *path, const char *arch, gp_table *t)
{
    GP_TRY(gp_table_load(path, t));
    const gp_table_entry *a = gp_table_find(t, "device", "arch");
    if (!a || strcmp(a->text, arch) != 0)
        return fail_at(path, a ? a->line : 0, "table is for arch '%s', not '%s'", a ? a->text : "?", arch);
    return gp_ok();
}

gp_status gp_table_check_file(const char *path)
{
    gp_table *t = malloc(sizeof *t);
    if (!t)
        return gp_fail(GP_ERR_NOMEM, "no memory for a table");
    gp_status st = gp_table_load(path, t);
    free(t);
    return st;
}

gp_status gp_table_show(const char *path, FILE *out)
{
    gp_table *t = malloc(sizeof *t);
    if (!t)
        return gp_fail(GP_ERR_NOMEM, "no memory for a table");
    gp_status st = gp_table_load(path, t);
    if (st.code == GP_OK) {
        const gp_table_entry *nm = gp_table_find(t, "device", "name");
        const gp_table_entry *ar = gp_table_find(t, "device", "arch");
        fprintf(out, "# %s: %s (%s)\n", path, nm ? nm->text : "?", ar ? ar->text : "?");
        size_t nk = gp_table_nkeys();
        /* Columns as wide as their longest entry (a device name, a long key):
         * one pass to measure, one to print. */
        int wk = 36, wv = 14, wu = 14;
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                fprintf(out, "%-*s %-*s %-*s %s\n", wk, "key", wv, "value", wu, "unit", "provenance");
            for (size_t i = 0; i < nk; i++) {
                const gp_table_key *k = gp_table_key_at(i);
                if (!t->e[i].present)
                    continue;
                char full[96], val[GP_TABLE_TEXT_LEN];
                const char *unit = k->unit[0] ? k->unit : "-";
                snprintf(full, sizeof full, "%s.%s", k->section, k->key);
                fmt_value(val, sizeof val, k, &t->e[i]);
                if (!pass) {
                    wk = (int)strlen(full) > wk ? (int)strlen(full) : wk;
                    wv = (int)strlen(val) > wv ? (int)strlen(val) : wv;
                    wu = (int)strlen(unit) > wu ? (int)strlen(unit) : wu;
                } else {
                    fprintf(out, "%-*s %-*s %-*s %s\n", wk, full, wv, val, wu, unit, t->e[i].prov);
                }
            }
        }
        if (ferror(out))
            st = gp_fail(GP_ERR_IO, "error writing table listing");
    }
    free(t);
    return st;
}

/* ---------------------------------------------------------------- writer */

gp_status gp_table_write_file(const gp_table *t, FILE *f)
{
    GP_TRY(gp_table_validate(t, NULL));
    const gp_table_entry *nm = gp_table_find(t, "device", "name");
    const gp_table_entry *ar = gp_table_find(t, "device", "arch");
    fprintf(f, "# gpuprobe tuning table: %s (%s)\n", nm ? nm->text : "?", ar ? ar->text : "?");
    fprintf(f, "# Format, keys and provenance grammar: docs/tuning-table.md\n");
    return gp_table_write_body(t, f);
}

static void write_sections(const gp_table *t, FILE *f);

gp_status gp_table_write_body(const gp_table *t, FILE *f)
{
    GP_TRY(gp_table_validate(t, NULL));
    /* in the body, so a table derived under a copied header has it too */
    fprintf(f, "schema_version = %s\n", GP_TABLE_SCHEMA);
    write_sections(t, f);
    for (int i = 0; i < t->nshaped; i++) {
        const gp_table_shaped *s = &t->shaped[i];
        int kw = 0;
        for (int k = 0; k < s->nkeys; k++) {
            int kl = (int)strlen(gp_table_key_at((size_t)s->ki[k])->key);
            kw = kl > kw ? kl : kw;
        }
        fprintf(f, "\n[kernel.%s@%s]\n", s->kernel, s->cls);
        for (int k = 0; k < s->nkeys; k++)
            fprintf(f, "%-*s = %-6lld  # %s\n", kw, gp_table_key_at((size_t)s->ki[k])->key, s->v[k], s->prov);
    }
    if (ferror(f))
        return gp_fail(GP_ERR_IO, "error writing tuning table");
    return gp_ok();
}

static void write_sections(const gp_table *t, FILE *f)
{
    size_t nk = gp_table_nkeys(), i = 0;
    while (i < nk) {
        /* One section: rows i..j-1 of the schema. */
        const char *sec = gp_table_key_at(i)->section;
        size_t j = i;
        int kw = 0, vw = 0, any = 0;
        while (j < nk && !strcmp(gp_table_key_at(j)->section, sec)) {
            if (t->e[j].present) {
                char val[GP_TABLE_TEXT_LEN];
                fmt_value(val, sizeof val, gp_table_key_at(j), &t->e[j]);
                int kl = (int)strlen(gp_table_key_at(j)->key), vl = (int)strlen(val);
                kw = kl > kw ? kl : kw;
                vw = vl > vw ? vl : vw;
                any = 1;
            }
            j++;
        }
        if (any) {
            fprintf(f, "\n[%s]\n", sec);
            for (size_t r = i; r < j; r++) {
                if (!t->e[r].present)
                    continue;
                char val[GP_TABLE_TEXT_LEN];
                fmt_value(val, sizeof val, gp_table_key_at(r), &t->e[r]);
                fprintf(f, "%-*s = %-*s  # %s\n", kw, gp_table_key_at(r)->key, vw, val, t->e[r].prov);
            }
        }
        i = j;
    }
}

gp_status gp_table_write(const gp_table *t, const char *path)
{
    /* Validate before creating the temporary file, so a bad table leaves
     * nothing behind. */
    GP_TRY(gp_table_validate(t, NULL));
    FILE *f = NULL;
    GP_TRY(gp_fs_open_atomic(path, &f));
    gp_status st = gp_table_write_file(t, f);
    if (st.code) {
        gp_fs_abandon(f, path);
        return st;
    }
    return gp_fs_commit(f, path);
}

int gp_table_equal(const gp_table *a, const gp_table *b)
{
    size_t nk = gp_table_nkeys();
    for (size_t i = 0; i < nk; i++) {
        const gp_table_entry *x = &a->e[i], *y = &b->e[i];
        if (x->present != y->present)
            return 0;
        if (!x->present)
            continue;
        if (x->is_none != y->is_none || strcmp(x->prov, y->prov) || x->kind != y->kind)
            return 0;
        if (x->is_none)
            continue;
        if (x->i != y->i || strcmp(x->text, y->text))
            return 0;
        if (gp_table_key_at(i)->type == GP_TV_DOUBLE && x->d != y->d)
            return 0;
    }
    if (a->nshaped != b->nshaped)
        return 0;
    for (int i = 0; i < a->nshaped; i++) {
        const gp_table_shaped *x = &a->shaped[i], *y = &b->shaped[i];
        if (strcmp(x->kernel, y->kernel) || strcmp(x->cls, y->cls) || strcmp(x->prov, y->prov) ||
            x->nkeys != y->nkeys || memcmp(x->ki, y->ki, sizeof x->ki) || memcmp(x->v, y->v, sizeof x->v))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- get/set */

static gp_status lookup_entry(const gp_table *t, const char *section, const char *key, gp_table_vtype want,
                              const gp_table_entry **out)
{
    int i = gp_table_key_index(section, key);
    if (i < 0)
        return gp_fail(GP_ERR_USAGE, "%s.%s is not a tuning-table key", section, key);
    const gp_table_key *k = gp_table_key_at((size_t)i);
    int ok = k->type == want || (want == GP_TV_DOUBLE && k->type == GP_TV_INT);
    if (!ok)
        return gp_fail(GP_ERR_USAGE, "%s.%s is a %s key", section, key,
                       k->type == GP_TV_INT ? "integer" : k->type == GP_TV_DOUBLE ? "decimal" : "text");
    const gp_table_entry *e = &t->e[i];
    if (!e->present)
        return gp_fail(GP_ERR_USAGE, "%s: no %s.%s", tname(t), section, key);
    if (e->is_none)
        return gp_fail(GP_ERR_CHECK, "%s: %s.%s is none (%s)", tname(t), section, key, e->prov);
    *out = e;
    return gp_ok();
}

gp_status gp_table_get_double(const gp_table *t, const char *section, const char *key, double *out)
{
    const gp_table_entry *e = NULL;
    GP_TRY(lookup_entry(t, section, key, GP_TV_DOUBLE, &e));
    *out = e->d;
    return gp_ok();
}

gp_status gp_table_get_int(const gp_table *t, const char *section, const char *key, long long *out)
{
    const gp_table_entry *e = NULL;
    GP_TRY(lookup_entry(t, section, key, GP_TV_INT, &e));
    *out = e->i;
    return gp_ok();
}

gp_status gp_table_get_text(const gp_table *t, const char *section, const char *key, const char **out)
{
    const gp_table_entry *e = NULL;
    GP_TRY(lookup_entry(t, section, key, GP_TV_TEXT, &e));
    *out = e->text;
    return gp_ok();
}

/* Store a checked entry; shared by the three setters. */
static gp_status store(gp_table *t, int ki, gp_table_entry *ne, const char *provenance)
{
    if (!provenance)
        provenance = "";
    char prov[GP_TABLE_PROV_LEN];
    if (strlen(provenance) >= sizeof prov)
        return gp_fail(GP_ERR_USAGE, "provenance longer than %d characters", GP_TABLE_PROV_LEN - 1);
    if (strpbrk(provenance, "\n\r#"))
        return gp_fail(GP_ERR_USAGE, "provenance may not contain newlines or '#'");
    snprintf(prov, sizeof prov, "%s", provenance);
    char *p = trim(prov);
    GP_TRY(gp_table_check_provenance(p, ne->is_none, &ne->kind));
    snprintf(ne->prov, sizeof ne->prov, "%s", p);
    ne->present = 1;
    ne->line = 0;
    t->e[ki] = *ne;
    return gp_ok();
}

static gp_status key_of(const char *section, const char *key, int *ki)
{
    *ki = gp_table_key_index(section, key);
    if (*ki < 0)
        return gp_fail(GP_ERR_USAGE, "%s.%s is not a tuning-table key", section, key);
    return gp_ok();
}

gp_status gp_table_set(gp_table *t, const char *section, const char *key, double value, const char *provenance)
{
    int ki;
    GP_TRY(key_of(section, key, &ki));
    const gp_table_key *k = gp_table_key_at((size_t)ki);
    gp_table_entry ne;
    memset(&ne, 0, sizeof ne);
    if (k->type == GP_TV_TEXT)
        return gp_fail(GP_ERR_USAGE, "%s.%s is a text key; use gp_table_set_text", section, key);
    if (!isfinite(value))
        return gp_fail(GP_ERR_USAGE, "%s.%s: value is not finite; use gp_table_set_none with the reason",
                       section, key);
    if (k->type == GP_TV_INT) {
        if (value != floor(value) || fabs(value) > 9.0e15)
            return gp_fail(GP_ERR_USAGE, "%s.%s = %.9g: not an integer", section, key, value);
        ne.i = (long long)value;
    }
    GP_TRY(check_number(k, value, ne.i));
    ne.d = value;
    return store(t, ki, &ne, provenance);
}

gp_status gp_table_set_text(gp_table *t, const char *section, const char *key, const char *value,
                            const char *provenance)
{
    int ki;
    GP_TRY(key_of(section, key, &ki));
    char buf[GP_TABLE_TEXT_LEN];
    if (!value || strlen(value) >= sizeof buf)
        return gp_fail(GP_ERR_USAGE, "%s.%s: value missing or too long", section, key);
    if (strpbrk(value, "#\n\r"))
        return gp_fail(GP_ERR_USAGE, "%s.%s: value may not contain '#' or newlines", section, key);
    snprintf(buf, sizeof buf, "%s", value);
    gp_table_entry ne;
    memset(&ne, 0, sizeof ne);
    GP_TRY(parse_value(gp_table_key_at((size_t)ki), trim(buf), &ne));
    return store(t, ki, &ne, provenance);
}

gp_status gp_table_set_none(gp_table *t, const char *section, const char *key, const char *provenance)
{
    return gp_table_set_text(t, section, key, "none", provenance);
}

/* ---------------------------------------------------------------- lookup */

/* Anything at path (unreadable, a FIFO, a dangling link) counts: the load
 * then says what is wrong with it, without opening it here. */
static int file_exists(const char *path) { return gp_fs_lexists(path); }

gp_status gp_table_lookup(const char *results_dir, const char *tables_dir, const char *arch, gp_table *t,
                          char *chosen, size_t n)
{
    char path[GP_TABLE_PATH_LEN];
    if (chosen && n)
        chosen[0] = '\0';
    if (!arch || !arch_ok(arch))
        return gp_fail(GP_ERR_USAGE, "bad architecture name '%s'", arch ? arch : "(null)");
    if (!tables_dir || !*tables_dir)
        return gp_fail(GP_ERR_USAGE, "no tables directory given");
    const char *what = NULL;
    if (results_dir && *results_dir) {
        GP_TRY(gp_fs_join(path, sizeof path, results_dir, GP_TABLE_RESULTS_NAME));
        if (file_exists(path))
            what = arch;
    }
    if (!what) {
        GP_TRY(gp_fs_join(path, sizeof path, tables_dir, arch));
        if (file_exists(path))
            what = arch;
    }
    if (!what) {
        GP_TRY(gp_fs_join(path, sizeof path, tables_dir, GP_TABLE_GENERIC_ARCH));
        if (!file_exists(path))
            return gp_fail(GP_ERR_IO, "no tuning table for arch '%s': none in %s%s%s, no %s/%s nor %s/%s", arch,
                           results_dir ? results_dir : "", results_dir ? "/" GP_TABLE_RESULTS_NAME : "(no results dir)",
                           "", tables_dir, arch, tables_dir, GP_TABLE_GENERIC_ARCH);
        what = GP_TABLE_GENERIC_ARCH;
    }
    GP_TRY(gp_table_load_arch(path, what, t));
    if (chosen && n)
        snprintf(chosen, n, "%s", path);
    return gp_ok();
}

int gp_table_keep_own_facts(gp_table *t, const char *dev_name, char *why, size_t n)
{
    char scratch[8];
    if (!why) {
        why = scratch;
        n = sizeof scratch;
    }
    const gp_table_entry *name = gp_table_find(t, "device", "name");
    const char *tname_ = name && !name->is_none ? name->text : "an unnamed device";
    if (name && !name->is_none && name->kind == GP_PROV_MEASURED && dev_name && !strcmp(name->text, dev_name)) {
        snprintf(why, n, "measured on this device (%s)", dev_name);
        return 1;
    }
    snprintf(why, n, "the table describes %.60s (%s), not this %.60s: its facts are not this device's", tname_,
             name && name->kind == GP_PROV_MEASURED ? "measured" : "not measured", dev_name ? dev_name : "device");
    char prov[GP_TABLE_PROV_LEN];
    snprintf(prov, sizeof prov, "assumed: unknown here: %.60s's value, not measured on %.60s", tname_,
             dev_name ? dev_name : "this device");
    static const char *const keep[] = {"name", "vendor", "arch", "wave_size"};
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        if (!t->e[i].present || t->e[i].is_none || !strncmp(k->section, "kernel.", 7))
            continue;
        int kept = 0;
        for (size_t j = 0; j < sizeof keep / sizeof keep[0] && !strcmp(k->section, "device"); j++)
            kept |= !strcmp(k->key, keep[j]);
        if (!kept)
            (void)gp_table_set_none(t, k->section, k->key, prov);
    }
    return 0;
}
