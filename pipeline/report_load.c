#define _POSIX_C_SOURCE 200809L
/* The report's records, read back from a results folder. */
#include "report_model.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "json_read.h"
#include "records.h"

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

/* The series a parsed record names (their CSV files are read later). */
static void series_of(const gp_json *j, rp_probe *pr)
{
    const gp_record *r = &pr->rec;
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
        snprintf(rs->err, sizeof rs->err, "series file name '%.120s' is not a plain file name", rs->file);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, rs->file);
    rs->missing = !gp_fs_lexists(path);
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

/* The table at path: GP_OK with *text NULL when there is none; anything
 * there that cannot be read (a FIFO, no permission) is an error. */
static gp_status read_table(const char *path, char **text)
{
    size_t n;
    *text = NULL;
    if (!gp_fs_lexists(path))
        return gp_ok();
    return gp_fs_read_regular(path, 1u << 20, "a tuning table", text, &n);
}

static int svg_taken(const report *R, int pi, int si, const char *name)
{
    for (int i = 0; i <= pi; i++)
        for (int s = 0; s < (i == pi ? si : R->probes[i].nseries); s++)
            if (!strcmp(R->probes[i].series[s].svg, name))
                return 1;
    return 0;
}

/* Each series a record names: read, or why not.  A series file that is
 * absent is said in the report; one that is there but does not read as a
 * series is bad input, named (its bytes must not reach the pages). */
static gp_status load_all_series(report *R, rp_probe *pr)
{
    for (int s = 0; s < pr->nseries; s++) {
        rp_series *rs = &pr->series[s];
        load_series(R->results_dir, rs);
        if (rs->err[0] && !rs->missing)
            return gp_fail(GP_ERR_USAGE, "%s/%s: its series %.200s", R->results_dir, pr->file, rs->err);
        if (rs->data.data || rs->data.ncols)
            rp_choose_plot(pr->rec.probe, rs);
    }
    return gp_ok();
}

gp_status rp_load(report *R)
{
    gp_records recs;
    gp_fs_base_name(R->results_name, sizeof R->results_name, R->results_dir);
    gp_fs_base_name(R->out_name, sizeof R->out_name, R->out_dir);
    GP_TRY(gp_records_load(R->results_dir,
                           "run probes with --out DIR first, or name the directory that holds them", &recs));
    gp_status st = gp_ok();
    if (!(R->probes = calloc((size_t)recs.n, sizeof *R->probes)))
        st = gp_fail(GP_ERR_NOMEM, "out of host memory reading records");
    for (int i = 0; st.code == GP_OK && i < recs.n; i++) {
        rp_probe *pr = &R->probes[R->nprobes++];
        copy_str(pr->file, sizeof pr->file, recs.files[i].file);
        pr->rec = recs.files[i].rec;
        pr->dropped = recs.files[i].dropped;
        series_of(&recs.files[i].json, pr);
        st = load_all_series(R, pr);
    }
    for (int i = 0; i < recs.nskipped && i < (int)(sizeof R->skipped / sizeof R->skipped[0]); i++)
        snprintf(R->skipped[R->nskipped++], sizeof R->skipped[0], "%s", recs.skipped[i]);
    gp_records_free(&recs);
    if (st.code != GP_OK)
        return st;
    /* Two series names that sanitize alike must not share a plot file. */
    for (int i = 0; i < R->nprobes; i++)
        for (int s = 0; s < R->probes[i].nseries; s++) {
            rp_series *rs = &R->probes[i].series[s];
            for (int k = 2; k < 100 && svg_taken(R, i, s, rs->svg); k++) {
                char base[160];
                snprintf(base, sizeof base, "%.*s", (int)(strlen(rs->svg) - 4), rs->svg);
                snprintf(rs->svg, sizeof rs->svg, "%.150s_%d.svg", base, k);
            }
        }
    if (R->table)
        return gp_ok(); /* the table this run built, given by the caller */
    /* The tuning table, where the characterize run writes it. */
    const char *dirs[2] = {R->out_dir, R->results_dir}, *names_[2] = {R->out_name, R->results_name};
    for (int i = 0; i < 2 && !R->table; i++) {
        snprintf(R->table_path, sizeof R->table_path, "%s/table.txt", dirs[i]);
        snprintf(R->table_name, sizeof R->table_name, "%s/table.txt", names_[i]);
        GP_TRY(read_table(R->table_path, &R->table));
    }
    return gp_ok();
}
