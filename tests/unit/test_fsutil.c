/* Files (common/fsutil.c): every reader takes regular files only (a FIFO
 * cannot hang one, a dangling link or a loop is an error, never a probe not
 * run), an output set goes in whole or not at all, and a path a report
 * names runs from here. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "fsutil.h"
#include "gp_test.h"
#include "json_read.h"
#include "records.h"
#include "run_compare.h"
#include "table.h"

GP_TEST(rel3_readers_refuse_a_fifo_without_waiting)
{
    char dir[] = "/tmp/gp_rel3_fifoXXXXXX", p[256];
    GP_CHECK(mkdtemp(dir) != NULL);
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
    GP_CHECK(mkdtemp(dir) != NULL);
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
    GP_CHECK(mkdtemp(dir) != NULL);
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

GP_TEST(rel3_relative_paths_run_from_here)
{
    char cwd[1024], out[1024];
    GP_CHECK(getcwd(cwd, sizeof cwd) != NULL);
    gp_fs_relative(out, sizeof out, "docs/reports/h200");
    GP_CHECK(!strcmp(out, "docs/reports/h200"));
    gp_fs_relative(out, sizeof out, cwd);
    GP_CHECK(!strcmp(out, "."));
    char dir[] = "/tmp/gp_rel3_relXXXXXX", p[300], back[2048];
    GP_CHECK(mkdtemp(dir) != NULL);
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
