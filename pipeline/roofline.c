#define _POSIX_C_SOURCE 200809L
/* The roofline: ceilings from the records, points from the bench CSVs. */
#include "roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datasheet.h"
#include "fsutil.h"
#include "probe.h"

/* Every probe's roofs, in increasing place (ties: registry order). */
typedef struct roof_src {
    const gp_probe *probe;
    const gp_probe_roof *roof;
} roof_src;

static int gather(roof_src *src, int max)
{
    int n = 0;
    for (size_t i = 0; gp_probe_at(i); i++)
        for (size_t k = 0; k < gp_probe_at(i)->nroofs && n < max; k++) {
            roof_src s = {gp_probe_at(i), &gp_probe_at(i)->roofs[k]};
            int j = n++;
            for (; j > 0 && src[j - 1].roof->place > s.roof->place; j--)
                src[j] = src[j - 1];
            src[j] = s;
        }
    return n;
}

static const gp_value *find_alt(const gp_record *r, const char *alts)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", alts);
    for (char *save = NULL, *k = strtok_r(buf, "|", &save); k; k = strtok_r(NULL, "|", &save)) {
        const gp_value *v = gp_record_find(r, k);
        if (v)
            return v;
    }
    return NULL;
}

/* "a|b|c" as a reader says it: "a, b or c". */
static void alternatives(char *out, size_t n, const char *alts)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = alts; *p && used + 1 < n;) {
        size_t len = strcspn(p, "|");
        const char *sep = p[len] ? (strchr(p + len + 1, '|') ? ", " : " or ") : "";
        int w = snprintf(out + used, n - used, "%.*s%s", (int)len, p, sep);
        if (w < 0)
            break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
        p += len + (p[len] ? 1 : 0);
    }
}

/* The clock a probe's per-cycle rates were divided by (gp_ds_rate_mhz),
 * else the reported one. */
static double clock_mhz(const gp_record *r, const char **how)
{
    double mhz = gp_ds_rate_mhz(r);
    *how = isfinite(mhz) ? "measured" : "reported";
    return isfinite(mhz) ? mhz : r->dev.core_clock_mhz;
}

void gp_roofline_ceilings(const gp_record *const *recs, int n, gp_roofline *rl)
{
    roof_src src[GP_RL_MAX_CEILINGS];
    int nsrc = gather(src, GP_RL_MAX_CEILINGS);
    rl->nceil = 0;
    for (int i = 0; i < nsrc; i++) {
        const gp_probe_roof *s = src[i].roof;
        const char *probe = src[i].probe->name;
        int fma_per_cu = s->kind == GP_ROOF_FLOPS;
        gp_rl_ceiling *c = &rl->ceil[rl->nceil++];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", s->name);
        snprintf(c->probe, sizeof c->probe, "%s", probe);
        snprintf(c->key, sizeof c->key, "%.*s", (int)strcspn(s->key, "|"), s->key);
        c->kind = fma_per_cu ? GP_RL_COMPUTE : GP_RL_BANDWIDTH;
        c->bound = s->bound;
        c->value = NAN;
        const gp_record *r = gp_ds_record_of(recs, n, probe);
        const gp_value *v = r ? find_alt(r, s->key) : NULL;
        if (!r) {
            snprintf(c->method, sizeof c->method, "not measured: no %s record in this folder", probe);
            continue;
        }
        if (!v) {
            char alts[128];
            alternatives(alts, sizeof alts, s->key);
            snprintf(c->method, sizeof c->method, "not measured: the %s record has no %s value", probe, alts);
            continue;
        }
        snprintf(c->key, sizeof c->key, "%s", v->key);
        if (!v->detected || !isfinite(v->value) || v->value <= 0) {
            snprintf(c->method, sizeof c->method, "not detected: %.200s", v->note[0] ? v->note : "no reason recorded");
            continue;
        }
        if (!fma_per_cu) {
            c->value = v->value * 1e9;
            snprintf(c->method, sizeof c->method, "%s %s: %.4g GB/s", probe, v->key, v->value);
            continue;
        }
        const char *how;
        double mhz = clock_mhz(r, &how);
        int cus = r->dev.compute_units;
        if (mhz <= 0 || cus <= 0) {
            snprintf(c->method, sizeof c->method, "not derived: the %s record has no clock or CU count", probe);
            continue;
        }
        c->value = 2.0 * v->value * cus * mhz * 1e6;
        snprintf(c->method, sizeof c->method, "2 FLOP x %.4g FMA/cycle/CU (%s %s) x %d CUs x %.0f MHz (%s)", v->value,
                 probe, v->key, cus, mhz, how);
    }
}

const gp_rl_ceiling *gp_roofline_ceiling(const gp_roofline *rl, const char *name)
{
    for (int i = 0; i < rl->nceil; i++)
        if (!strcmp(rl->ceil[i].name, name) && isfinite(rl->ceil[i].value))
            return &rl->ceil[i];
    return NULL;
}

int gp_csv_split_line(const char *line, char (*f)[256], int max)
{
    int n = 0;
    const char *p = line;
    while (n < max) {
        size_t k = 0;
        char *out = f[n];
        if (*p == '"') {
            for (p++; *p; p++) {
                if (*p == '"' && p[1] == '"')
                    p++;
                else if (*p == '"') {
                    p++;
                    break;
                }
                if (k + 1 < 256)
                    out[k++] = *p;
            }
        }
        for (; *p && *p != ',' && *p != '\n' && *p != '\r'; p++)
            if (k + 1 < 256)
                out[k++] = *p;
        out[k] = '\0';
        n++;
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

static int col_of(char (*head)[256], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(head[i], name))
            return i;
    return -1;
}

static void skip(gp_roofline *rl, const char *fmt, const char *a, const char *b, const char *c)
{
    if (rl->nskipped < (int)(sizeof rl->skipped / sizeof rl->skipped[0]))
        snprintf(rl->skipped[rl->nskipped++], sizeof rl->skipped[0], fmt, a, b, c);
}

/* The measured roof of kind the kernels' floor model is bound by
 * (gp_probe_roof.bound), or NULL. */
static const gp_rl_ceiling *bound_roof(const gp_roofline *rl, gp_rl_kind kind)
{
    for (int i = 0; i < rl->nceil; i++)
        if (rl->ceil[i].bound && rl->ceil[i].kind == kind && isfinite(rl->ceil[i].value))
            return &rl->ceil[i];
    return NULL;
}

/* A point's place under the bounding roofs: FLOP/s against min(fp32,
 * DRAM / x); a point without FLOPs by its bandwidth against DRAM. */
static void place(gp_roofline *rl, gp_rl_point *p)
{
    const gp_rl_ceiling *fp = bound_roof(rl, GP_RL_COMPUTE), *dram = bound_roof(rl, GP_RL_BANDWIDTH);
    double s = p->ms * 1e-3;
    p->flops_per_s = p->flops / s;
    p->bytes_per_s = p->bytes / s;
    p->roof = NAN;
    p->roof_name = NULL;
    if (p->flops > 0) {
        double mem = dram && p->bytes > 0 ? dram->value * p->flops / p->bytes : INFINITY;
        double cmp = fp ? fp->value : INFINITY;
        if (isfinite(mem) || isfinite(cmp)) {
            p->roof = fmin(mem, cmp);
            p->roof_name = mem < cmp ? dram->name : fp->name;
        }
        p->fraction = p->flops_per_s / p->roof;
    } else if (dram && p->bytes > 0) {
        p->roof = dram->value;
        p->roof_name = dram->name;
        p->fraction = p->bytes_per_s / p->roof;
    } else {
        p->fraction = NAN;
    }
}

static int have_point(const gp_roofline *rl, const char *kernel, const char *problem)
{
    for (int i = 0; i < rl->npts; i++)
        if (!strcmp(rl->pts[i].kernel, kernel) && !strcmp(rl->pts[i].problem, problem))
            return 1;
    return 0;
}

static gp_status read_csv(const char *dir, const char *name, gp_rl_work_fn work, gp_roofline *rl)
{
    char path[1200];
    GP_TRY(gp_fs_join(path, sizeof path, dir, name));
    FILE *f = fopen(path, "r");
    if (!f)
        return gp_fail(GP_ERR_USAGE, "%s: cannot be read", name);
    static char head[32][256], row[32][256];
    char line[4096];
    int nh = fgets(line, sizeof line, f) ? gp_csv_split_line(line, head, 32) : 0;
    int ck = col_of(head, nh, "kernel"), cp = col_of(head, nh, "problem"), ci = col_of(head, nh, "impl"),
        ct = col_of(head, nh, "table"), cm = col_of(head, nh, "median_ms");
    if (ck < 0 || cp < 0 || ci < 0 || ct < 0 || cm < 0) {
        fclose(f);
        return gp_fail(GP_ERR_USAGE, "%s: not a bench CSV (needs columns kernel, problem, impl, table, median_ms)",
                       name);
    }
    for (int lineno = 2; fgets(line, sizeof line, f); lineno++) {
        int n = gp_csv_split_line(line, row, 32);
        if (n <= cm || strcmp(row[ci], "gpuprobe") != 0 || have_point(rl, row[ck], row[cp]))
            continue;
        char *end;
        double ms = strtod(row[cm], &end);
        if (end == row[cm] || !(ms > 0) || !isfinite(ms)) {
            skip(rl, "%s %s: median_ms '%s' is not a positive time", row[ck], row[cp], row[cm]);
            continue;
        }
        if (rl->npts >= GP_RL_MAX_POINTS) {
            rl->dropped++;
            continue;
        }
        gp_rl_point *p = &rl->pts[rl->npts];
        memset(p, 0, sizeof *p);
        gp_status st = work(row[ck], row[cp], &p->bytes, &p->flops, p->method, sizeof p->method);
        if (st.code != GP_OK) {
            skip(rl, "%s%s%s", st.msg, "", "");
            continue;
        }
        snprintf(p->kernel, sizeof p->kernel, "%s", row[ck]);
        snprintf(p->problem, sizeof p->problem, "%s", row[cp]);
        snprintf(p->table, sizeof p->table, "%s", row[ct]);
        snprintf(p->file, sizeof p->file, "%s", name);
        p->ms = ms;
        place(rl, p);
        rl->npts++;
    }
    fclose(f);
    return gp_ok();
}

gp_status gp_roofline_points(const char *dir, gp_rl_work_fn work, gp_roofline *rl)
{
    char **names = NULL;
    size_t n = 0;
    rl->npts = rl->nfiles = rl->nskipped = rl->dropped = 0;
    GP_TRY(gp_fs_list_sorted(dir, ".csv", "results directory", &names, &n));
    gp_status st = gp_ok();
    for (size_t i = 0; i < n && st.code == GP_OK; i++) {
        if (strncmp(names[i], "bench_", 6) != 0)
            continue;
        if (rl->nfiles < GP_RL_MAX_FILES)
            snprintf(rl->files[rl->nfiles++], sizeof rl->files[0], "%s", names[i]);
        st = read_csv(dir, names[i], work, rl);
    }
    gp_fs_names_free(names, n);
    return st;
}
