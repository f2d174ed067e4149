/* Reliability of input and output: readers that take regular files only (a FIFO
 * cannot hang them, a dangling link is not a missing probe), JSON without a
 * member twice and in UTF-8, output sets that go in whole or not at all,
 * pages that quote no raw bytes, format versions, the JSON of compare, the
 * report's first screen (fetch granules, the last cache level, the
 * roofline's roofs and labels) and the command a report names. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_latency_analysis.h"
#include "csv.h"
#include "doc.h"
#include "fsutil.h"
#include "gp_test.h"
#include "json_read.h"
#include "record.h"
#include "records.h"
#include "report.h"
#include "run_compare.h"
#include "schema.h"
#include "table.h"
#include "utf8.h"

static int fresh_dir(char *dir)
{
    return mkdtemp(dir) != NULL;
}

/* ---- regular files only ---- */

GP_TEST(rel3_readers_refuse_a_fifo_without_waiting)
{
    char dir[] = "/tmp/gp_rel3_fifoXXXXXX", p[256];
    GP_CHECK(fresh_dir(dir));
    snprintf(p, sizeof p, "%s/lds.json", dir);
    GP_CHECK(mkfifo(p, 0600) == 0);
    /* No writer ever opens it: a reader that opened it blocking would hang here. */
    gp_json j;
    gp_status st = gp_json_read_file(p, &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not a regular file (a FIFO)") && strstr(st.msg, p));
    gp_table *t = malloc(sizeof *t);
    GP_CHECK(t != NULL);
    st = gp_table_load(p, t);
    free(t);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not a regular file"));
    gp_series s;
    st = gp_csv_read(p, &s);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not a regular file"));
    gp_cmp_run R;
    st = gp_cmp_load_dir(dir, &R);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json"));
    remove(p);
    rmdir(dir);
    return 0;
}

/* A record that is there but cannot be read is an error, never "probe not run". */
GP_TEST(rel3_unreadable_record_is_an_error_not_absent)
{
    char dir[] = "/tmp/gp_rel3_linkXXXXXX", p[256], q[256];
    GP_CHECK(fresh_dir(dir));
    snprintf(p, sizeof p, "%s/lds.json", dir);
    GP_CHECK(symlink("nowhere.json", p) == 0);
    gp_records R;
    gp_status st = gp_records_load(dir, NULL, &R);
    GP_CHECK(st.code == GP_ERR_IO && strstr(st.msg, "lds.json") && strstr(st.msg, "dangling"));
    remove(p);
    /* a loop of two links */
    snprintf(q, sizeof q, "%s/b.json", dir);
    GP_CHECK(symlink("b.json", p) == 0 && symlink("lds.json", q) == 0);
    st = gp_records_load(dir, NULL, &R);
    GP_CHECK(gp_status_exit_code(&st) == 2 && strstr(st.msg, "loop"));
    remove(p);
    remove(q);
    rmdir(dir);
    return 0;
}

/* ---- JSON ---- */

GP_TEST(rel3_json_member_twice_is_refused_with_its_line)
{
    const char *text = "{\n  \"probe\": \"lds\",\n  \"date\": \"x\",\n  \"probe\": \"atomics\"\n}\n";
    gp_json j;
    gp_status st = gp_json_parse(text, strlen(text), "lds.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json:4:3:") &&
             strstr(st.msg, "member \"probe\" given twice in one object (first at line 2)"));
    /* the same name in two objects is fine; so is a long object of distinct names */
    const char *ok = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}";
    GP_CHECK(gp_json_parse(ok, strlen(ok), "ok.json", &j).code == GP_OK);
    gp_json_free(&j);
    char big[40000];
    size_t n = 0;
    n += (size_t)snprintf(big + n, sizeof big - n, "{");
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "%s\"k%d\": %d", i ? "," : "", i, i);
    snprintf(big + n, sizeof big - n, ", \"k1234\": 0}");
    st = gp_json_parse(big, strlen(big), "big.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "\"k1234\" given twice"));
    return 0;
}

GP_TEST(rel3_json_text_must_be_utf8)
{
    static const char *const bad[] = {"[\"\xff\"]", "[\"\xc3\"]", "[\"\xed\xa0\x80\"]", "[\"\xc0\xaf\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_json j;
        gp_status st = gp_json_parse(bad[i], strlen(bad[i]), "u.json", &j);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "u.json:1:") && strstr(st.msg, "UTF-8"));
    }
    const char *good = "[\"NVIDIA H200 \xe2\x84\xa2 \xc3\xa9 \xf0\x9f\x98\x80\"]";
    gp_json j;
    GP_CHECK(gp_json_parse(good, strlen(good), "u.json", &j).code == GP_OK);
    GP_CHECK(!strcmp(j.kids[0].str, "NVIDIA H200 \xe2\x84\xa2 \xc3\xa9 \xf0\x9f\x98\x80"));
    gp_json_free(&j);
    return 0;
}

/* ---- pages quote no raw bytes ---- */

GP_TEST(rel3_pages_carry_only_utf8_text)
{
    char *out = NULL;
    size_t n = 0;
    for (int fmt = 0; fmt < 2; fmt++) {
        FILE *f = open_memstream(&out, &n);
        GP_CHECK(f != NULL);
        gp_doc d;
        gp_doc_init(&d, f, fmt ? GP_DOC_HTML : GP_DOC_MD);
        gp_doc_para(&d, NULL, "bytes \xff\xfe\x01 and \xc2\x85 and \x7f, kept \xc3\xa9");
        gp_doc_para_begin(&d, NULL);
        gp_doc_span(&d, GP_DOC_CODE, "code \x80\x1b");
        gp_doc_para_end(&d);
        gp_doc_pre(&d, "pre \xfa\x02\n");
        fclose(f);
        int ok = gp_utf8_text_ok(out) || strchr(out, '\n'); /* newlines apart: */
        for (char *c = out; *c; c++)
            if (*c == '\n')
                *c = ' ';
        ok = gp_utf8_text_ok(out) && strstr(out, "\xc3\xa9") && strstr(out, "\xef\xbf\xbd");
        free(out);
        out = NULL;
        GP_CHECK(ok);
    }
    return 0;
}

GP_TEST(rel3_csv_that_is_no_series_is_refused)
{
    char dir[] = "/tmp/gp_rel3_csvXXXXXX", p[256];
    GP_CHECK(fresh_dir(dir));
    snprintf(p, sizeof p, "%s/x.csv", dir);
    gp_series s;
    GP_CHECK(gp_test_write_text(p, "a,\xff\x01" "b\n1,2\n"));
    GP_CHECK(gp_csv_read(p, &s).code == GP_ERR_USAGE);
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2xyz\n"));
    gp_status st = gp_csv_read(p, &s);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, ":2: text after the last"));
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2\n\n3,4\r\n"));
    GP_CHECK(gp_csv_read(p, &s).code == GP_OK && s.nrows == 2 && s.data[3] == 4);
    free(s.data);
    remove(p);
    rmdir(dir);
    return 0;
}

/* ---- text in tables ---- */

GP_TEST(rel3_table_text_may_be_utf8)
{
    char path[1024];
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/sm_90"));
    char *text = gp_test_read_text(path, NULL);
    GP_CHECK(text != NULL);
    char *name = strstr(text, "= NVIDIA H200");
    GP_CHECK(name != NULL);
    name += 2;
    static gp_table t;
    memcpy(name, "NVIDIA \xe2\x84\xa2\xc3\xa9", 10); /* "NVIDIA ™é", same length as "NVIDIA H20" */
    GP_CHECK(gp_table_parse(&t, text, "utf8") .code == GP_OK);
    name[7] = (char)0xff;
    gp_status st = gp_table_parse(&t, text, "latin1");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "device.name") && strstr(st.msg, "UTF-8"));
    free(text);
    return 0;
}

/* ---- output sets ---- */

static int file_says(const char *path, const char *want)
{
    char *t = gp_test_read_text(path, NULL);
    int ok = t && !strcmp(t, want);
    free(t);
    return ok;
}

static gp_status put(gp_fs_set *s, const char *name, const char *text)
{
    FILE *f;
    GP_TRY(gp_fs_set_open(s, name, &f));
    fputs(text, f);
    return gp_fs_set_close(s, f, name);
}

GP_TEST(rel3_output_set_goes_in_whole_or_not_at_all)
{
    char dir[] = "/tmp/gp_rel3_setXXXXXX", p[256], q[256];
    GP_CHECK(fresh_dir(dir));
    snprintf(p, sizeof p, "%s/a.txt", dir);
    snprintf(q, sizeof q, "%s/b.txt", dir);
    GP_CHECK(gp_test_write_text(p, "old a"));
    /* A folder where a file goes: refused when opened, before anything is in place. */
    gp_fs_set s;
    GP_CHECK(gp_fs_set_begin(&s, dir).code == GP_OK);
    GP_CHECK(put(&s, "a.txt", "new a").code == GP_OK);
    GP_CHECK(mkdir(q, 0777) == 0);
    gp_status st = put(&s, "b.txt", "new b");
    GP_CHECK(st.code == GP_ERR_IO && strstr(st.msg, "is a directory"));
    gp_fs_set_abort(&s);
    GP_CHECK(file_says(p, "old a") && !gp_fs_exists("a.txt.tmp"));
    snprintf(q, sizeof q, "%s/a.txt.tmp", dir);
    GP_CHECK(!gp_fs_exists(q));
    /* A rename that fails half way: the files before it are put back. */
    snprintf(q, sizeof q, "%s/b.txt", dir);
    rmdir(q);
    GP_CHECK(gp_fs_set_begin(&s, dir).code == GP_OK);
    GP_CHECK(put(&s, "a.txt", "new a").code == GP_OK && put(&s, "b.txt", "new b").code == GP_OK);
    GP_CHECK(mkdir(q, 0777) == 0); /* appears after the check at open */
    st = gp_fs_set_commit(&s);
    GP_CHECK(st.code == GP_ERR_IO);
    GP_CHECK(file_says(p, "old a") && gp_fs_is_dir(q));
    snprintf(q, sizeof q, "%s/.a.txt.gp-old", dir);
    GP_CHECK(!gp_fs_exists(q));
    snprintf(q, sizeof q, "%s/b.txt.tmp", dir);
    GP_CHECK(!gp_fs_exists(q));
    snprintf(q, sizeof q, "%s/b.txt", dir);
    rmdir(q);
    /* The whole set in. */
    GP_CHECK(gp_fs_set_begin(&s, dir).code == GP_OK);
    GP_CHECK(put(&s, "a.txt", "new a").code == GP_OK && put(&s, "b.txt", "new b").code == GP_OK);
    GP_CHECK(gp_fs_set_commit(&s).code == GP_OK);
    GP_CHECK(file_says(p, "new a") && file_says(q, "new b"));
    /* A set whose folder it made: gone again when the set is dropped. */
    snprintf(q, sizeof q, "%s/new/deeper", dir);
    GP_CHECK(gp_fs_set_begin(&s, q).code == GP_OK && gp_fs_is_dir(q));
    GP_CHECK(put(&s, "c.txt", "c").code == GP_OK);
    gp_fs_set_abort(&s);
    snprintf(q, sizeof q, "%s/new", dir);
    GP_CHECK(!gp_fs_exists(q));
    remove(p);
    snprintf(q, sizeof q, "%s/b.txt", dir);
    remove(q);
    rmdir(dir);
    return 0;
}

/* A report that cannot be written in full leaves the folder as it was. */
GP_TEST(rel3_report_leaves_nothing_when_a_file_cannot_be_written)
{
    char src[1024], dir[] = "/tmp/gp_rel3_repXXXXXX", out[256], p[300];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    GP_CHECK(fresh_dir(dir));
    snprintf(out, sizeof out, "%s/out", dir);
    static const char *const blockers[] = {"report.html", "lds_conflicts.svg", "roofline.svg", "report.md"};
    for (size_t i = 0; i < sizeof blockers / sizeof blockers[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", out, blockers[i]);
        GP_CHECK(gp_fs_mkdirs(p).code == GP_OK);
        gp_status st = gp_report_write(src, out);
        GP_CHECK(st.code == GP_ERR_IO && strstr(st.msg, blockers[i]));
        char **names = NULL;
        size_t n = 0;
        GP_CHECK(gp_fs_list_sorted(out, "", "out", &names, &n).code == GP_OK);
        gp_fs_names_free(names, n);
        GP_CHECK(n == 1); /* the blocker alone: no file written, no .tmp left */
        rmdir(p);
    }
    GP_CHECK(gp_report_write(src, out).code == GP_OK);
    return 0;
}

/* ---- the command a report names ---- */

GP_TEST(rel3_relative_paths_run_from_here)
{
    char cwd[1024], out[1024];
    GP_CHECK(getcwd(cwd, sizeof cwd) != NULL);
    gp_fs_relative(out, sizeof out, "docs/reports/h200");
    GP_CHECK(!strcmp(out, "docs/reports/h200"));
    gp_fs_relative(out, sizeof out, cwd);
    GP_CHECK(!strcmp(out, "."));
    char dir[] = "/tmp/gp_rel3_relXXXXXX", p[300], back[2048];
    GP_CHECK(fresh_dir(dir));
    snprintf(p, sizeof p, "%s/not/yet", dir);
    gp_fs_relative(out, sizeof out, p);
    GP_CHECK(out[0] != '/' && strstr(out, "not/yet"));
    /* It names the same folder from here: cwd/out resolves to p. */
    snprintf(back, sizeof back, "%s/%s", cwd, out);
    GP_CHECK(gp_fs_mkdirs(p).code == GP_OK);
    char ra[4096], rb[4096];
    GP_CHECK(realpath(back, ra) && realpath(p, rb) && !strcmp(ra, rb));
    rmdir(p);
    snprintf(p, sizeof p, "%s/not", dir);
    rmdir(p);
    rmdir(dir);
    return 0;
}

/* ---- format versions ---- */

GP_TEST(rel3_schema_versions_read_older_and_refuse_newer)
{
    GP_CHECK(gp_schema_check("1.0", GP_RECORD_SCHEMA, "r").code == GP_OK);
    GP_CHECK(gp_schema_check("1.99", GP_RECORD_SCHEMA, "r").code == GP_OK);
    gp_status st = gp_schema_check("2.0", GP_RECORD_SCHEMA, "lds.json");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json: schema_version 2.0 is newer than this gpuprobe"));
    GP_CHECK(gp_schema_check("1", "1.1", "r").code == GP_ERR_USAGE);
    GP_CHECK(gp_schema_check("1.x", "1.1", "r").code == GP_ERR_USAGE);
    GP_CHECK(gp_schema_check("9999999.0", "1.1", "r").code == GP_ERR_USAGE);
    /* Written records and tables carry theirs. */
    char dir[] = "/tmp/gp_rel3_verXXXXXX", p[300];
    GP_CHECK(fresh_dir(dir));
    gp_record r;
    gp_record_init(&r, "lds", NULL);
    gp_record_value(&r, "banks", 32, "banks", -1, "m");
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    snprintf(p, sizeof p, "%s/lds.json", dir);
    gp_json j;
    GP_CHECK(gp_json_read_file(p, &j).code == GP_OK);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "schema_version", ""), GP_RECORD_SCHEMA));
    gp_json_free(&j);
    char path[1024];
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/sm_90"));
    static gp_table t;
    GP_CHECK(gp_table_load(path, &t).code == GP_OK);
    snprintf(p, sizeof p, "%s/table.txt", dir);
    GP_CHECK(gp_table_write(&t, p).code == GP_OK);
    char *text = gp_test_read_text(p, NULL);
    GP_CHECK(text && strstr(text, "\nschema_version = " GP_TABLE_SCHEMA "\n"));
    /* A table of a newer major is refused with its line; one without the line is 1.0. */
    char *v = strstr(text, "schema_version = ");
    v[17] = '2';
    st = gp_table_parse(&t, text, "newer");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "newer:3: schema_version 2.1 is newer") && t.schema_major == 2);
    memset(v, '#', 14);
    GP_CHECK(gp_table_parse(&t, text, "older").code == GP_OK && t.schema_major == 1 && t.schema_minor == 0);
    free(text);
    remove(p);
    snprintf(p, sizeof p, "%s/lds.json", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/lds.md", dir);
    remove(p);
    rmdir(dir);
    return 0;
}

/* compare --json: one object another tool can read back. */
GP_TEST(rel3_compare_json_reads_back)
{
    char a[1024], b[1024];
    GP_CHECK(gp_test_source_path(a, sizeof a, "docs/reports/h200"));
    GP_CHECK(gp_test_source_path(b, sizeof b, "docs/reports/h200/repeat/run1"));
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK && gp_cmp_load_dir(b, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    GP_CHECK(f != NULL);
    gp_cmp_write_json(f, &res);
    fclose(f);
    gp_json j;
    gp_status st = gp_json_parse(out, n, "compare.json", &j);
    GP_CHECK(st.code == GP_OK);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "schema_version", ""), GP_COMPARE_SCHEMA));
    const gp_json *sum = gp_json_get(&j, "summary"), *vals = gp_json_get(&j, "values");
    GP_CHECK(gp_json_num_of(sum, "differ", -1) == res.differ && gp_json_num_of(sum, "agree", -1) == res.agree);
    GP_CHECK(vals && vals->type == GP_JSON_ARR && vals->nkids == (size_t)res.nrows);
    GP_CHECK(!strcmp(gp_json_str_of(gp_json_get(&j, "run_b"), "folder", ""), "run1"));
    int differs = 0;
    for (size_t i = 0; i < vals->nkids; i++)
        differs += !strcmp(gp_json_str_of(&vals->kids[i], "verdict", ""), "differs");
    GP_CHECK(differs > 0 && differs <= res.differ);
    gp_json_free(&j);
    free(out);
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}

/* ---- the report's first screen ---- */

GP_TEST(rel3_last_cache_level_has_no_step)
{
    gp_mem_level l;
    memset(&l, 0, sizeof l);
    l.latency = 658.0;
    l.x_first = 62757.0 * 1024;
    l.x_last = 3932160.0 * 1024;
    l.npoints = 18;
    l.step_ratio = NAN;
    l.confidence = 1;
    char note[200];
    gp_mem_level_note(note, sizeof note, 3, &l);
    GP_CHECK(!strcmp(note, "level 3: 658.0 cycles over 62757..3932160 KiB (18 points), last level, confidence 1.00"));
    l.step_ratio = 1.83;
    gp_mem_level_note(note, sizeof note, 1, &l);
    GP_CHECK(strstr(note, "step x1.83") && !strstr(note, "nan"));
    /* A record of schema 1.0 that says "step xnan" reads as the writer meant. */
    char src[1024];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    gp_records R;
    GP_CHECK(gp_records_load(src, NULL, &R).code == GP_OK);
    const gp_rec_file *c = gp_records_find(&R, "cache_latency");
    int last = 0;
    for (int i = 0; c && i < c->rec.nnotes; i++) {
        GP_CHECK(!strstr(c->rec.notes[i], "xnan"));
        last += strstr(c->rec.notes[i], "(18 points), last level, confidence 1.00") != NULL;
    }
    gp_records_free(&R);
    GP_CHECK(last == 1);
    return 0;
}

/* The center of each marker (class="pt") of an SVG, up to max. */
static int markers(const char *svg, double *x, double *y, int max)
{
    int n = 0;
    for (const char *p = svg; n < max && (p = strstr(p, "class=\"pt\"")) != NULL; p++) {
        const char *cx = strstr(p, " cx=\""), *rx = strstr(p, " x=\""), *pts = strstr(p, " points=\""),
                   *end = strchr(p, '>');
        if (pts && pts < end) { /* a polygon: the mean of its corners */
            double sx = 0, sy = 0, a, b;
            int k = 0, used;
            for (const char *c = pts + 9; sscanf(c, "%lf,%lf%n", &a, &b, &used) == 2; c += used, k++)
                sx += a, sy += b;
            if (k) {
                x[n] = sx / k;
                y[n++] = sy / k;
            }
        } else if (cx && cx < end) {
            x[n] = atof(cx + 5);
            y[n++] = atof(strstr(p, " cy=\"") + 5);
        } else if (rx && rx < end) {
            double w = atof(strstr(p, " width=\"") + 8);
            x[n] = atof(rx + 4) + w / 2;
            y[n++] = atof(strstr(p, " y=\"") + 4) + w / 2;
        }
    }
    return n;
}

GP_TEST(rel3_roofline_roofs_clipped_and_labels_clear_of_points)
{
    char src[1024], h100[1024], dir[] = "/tmp/gp_rel3_rlXXXXXX", p[300];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    GP_CHECK(gp_test_source_path(h100, sizeof h100, "docs/reports/h100"));
    GP_CHECK(fresh_dir(dir));
    for (int against = 0; against < 2; against++) {
        gp_report_opts o = {against ? h100 : NULL, NULL, NULL, NULL};
        GP_CHECK(gp_report_write_opts(src, dir, &o).code == GP_OK);
        snprintf(p, sizeof p, "%s/report.md", dir);
        char *md = gp_test_read_text(p, NULL);
        GP_CHECK(md && !strstr(md, "bandwidth_gbs|lds") && strstr(md, "bandwidth_gbs or lds_bandwidth_gbs"));
        GP_CHECK(!strstr(md, "has no l1_line_bytes") && !strstr(md, "xnan"));
        free(md);
        snprintf(p, sizeof p, "%s/roofline.svg", dir);
        char *svg = gp_test_read_text(p, NULL);
        GP_CHECK(svg != NULL);
        /* Roofs: a flat line ends on a slanted one (where the roof turns), and
         * no slanted line starts above the highest flat one. */
        double fx[8], fy[8], sx0[8], sy0[8], sx1[8], sy1[8], top = 1e9;
        int nf = 0, ns = 0;
        for (const char *q = svg; (q = strstr(q, "points=\"")) != NULL; q++) {
            double x0, y0, x1, y1;
            int used = 0;
            if (sscanf(q + 8, "%lf,%lf %lf,%lf%n", &x0, &y0, &x1, &y1, &used) != 4 || q[8 + used] != '"')
                continue; /* a roof is two points (markers and legend keys are more) */
            if (y0 == y1 && nf < 8)
                fx[nf] = x1, fy[nf++] = y0, top = y0 < top ? y0 : top;
            else if (y0 != y1 && ns < 8)
                sx0[ns] = x0, sy0[ns] = y0, sx1[ns] = x1, sy1[ns++] = y1;
        }
        GP_CHECK(nf >= 2 && ns >= 2);
        for (int i = 0; i < nf; i++) {
            int meets = 0;
            for (int k = 0; k < ns; k++)
                if (fx[i] >= sx0[k] - 0.2 && fx[i] <= sx1[k] + 0.2)
                    meets |= fabs(sy0[k] + (fx[i] - sx0[k]) * (sy1[k] - sy0[k]) / (sx1[k] - sx0[k]) - fy[i]) < 0.6;
            GP_CHECK(meets);
        }
        for (int k = 0; k < ns; k++)
            GP_CHECK(sy0[k] >= top - 0.2);
        /* No label over a point: a text's box [x, x + 6.2 px a character] x
         * [y - 9, y + 2] holds no marker's center. */
        double mx[200], my[200];
        int nm = markers(svg, mx, my, 200);
        GP_CHECK(nm >= 10);
        int clash = 0;
        for (const char *q = svg; (q = strstr(q, "<text class=\"mark-text\" x=\"")) != NULL; q++) {
            double x = atof(q + 27), y = atof(strstr(q, " y=\"") + 4);
            const char *t = strchr(q, '>') + 1;
            double w = 6.2 * (double)(strchr(t, '<') - t);
            if (strstr(q, "text-anchor=\"end\"") && strstr(q, "text-anchor=\"end\"") < t)
                x -= w;
            for (int i = 0; i < nm; i++)
                clash += mx[i] > x && mx[i] < x + w && my[i] > y - 9 && my[i] < y + 2;
        }
        free(svg);
        GP_CHECK(clash == 0);
    }
    return 0;
}
