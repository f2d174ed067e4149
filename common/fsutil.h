/* Files that are never half-written: write to a temporary name, then rename. */
#ifndef GP_FSUTIL_H
#define GP_FSUTIL_H

#include <stdio.h>
#include "gp_status.h"

/* mkdir -p. */
gp_status gp_fs_mkdirs(const char *path);
/* Open `path`.tmp for writing; gp_fs_commit flushes, fsyncs and closes it and
 * renames it to `path` (on failure the .tmp is removed and `path` is untouched). */
gp_status gp_fs_open_atomic(const char *path, FILE **f);
gp_status gp_fs_commit(FILE *f, const char *path);
/* Close f and remove `path`.tmp: a write that failed half way leaves nothing. */
void gp_fs_abandon(FILE *f, const char *path);
/* mkdir -p, then create and remove a file in it: GP_ERR_IO naming the
 * directory when nothing can be written there.  Run before a long job, so a
 * bad --out fails at once, not after the measurements. */
gp_status gp_fs_check_writable(const char *dir);
/* 1 when path names a directory / anything at all. */
int gp_fs_is_dir(const char *path);
int gp_fs_exists(const char *path);
/* The last component of path, trailing slashes dropped ("results" for
 * "/work/build/results/"), into out (size n): how pages name a folder
 * without a path of the machine that wrote them. */
void gp_fs_base_name(char *out, size_t n, const char *path);
/* GP_OK when path is an existing directory; otherwise GP_ERR_USAGE saying
 * "'PATH' is not a directory (WHAT)" or "... does not exist (WHAT)". */
gp_status gp_fs_require_dir(const char *path, const char *what);
/* Join dir and name into out (size n); fails when it does not fit. */
gp_status gp_fs_join(char *out, size_t n, const char *dir, const char *name);
/* The names (not paths) of the files in dir ending in `suffix`, hidden ones
 * (".x") left out, sorted by strcmp; none: *names NULL, *n 0.  Free with
 * gp_fs_names_free.  GP_ERR_USAGE "cannot open <what> '<dir>': ..." when dir
 * cannot be opened, GP_ERR_NOMEM when out of memory. */
gp_status gp_fs_list_sorted(const char *dir, const char *suffix, const char *what, char ***names, size_t *n);
void gp_fs_names_free(char **names, size_t n);

/* Today's date as YYYY-MM-DD (UTC). */
void gp_fs_today(char out[16]);

#endif
