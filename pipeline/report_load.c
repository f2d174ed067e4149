#define _POSIX_C_SOURCE 200809L
/* The report's records, read back from a results folder. */
#include "report_model.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "json_read.h"

void rp_safe_name(char *out, size_t n, const char *in)
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
        rp_safe_name(a, sizeof a, r->probe);
        rp_safe_name(b, sizeof b, rs->name);
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

void rp_free(report *R)
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

gp_status rp_load(report *R)
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
                    rp_choose_plot(pr->rec.probe, &pr->series[s]);
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

