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
 * bad --out fails at once, not after the measurements.  The folders it
 * created are removed again: the job creates them when it writes, and a job
 * that stops first (no GPU) leaves no empty folder. */
gp_status gp_fs_check_writable(const char *dir);
/* The file `path` could be written atomically (as gp_fs_open_atomic does):
 * its folder exists and takes a new file, and path is not a folder.  Creates
 * nothing.  GP_ERR_IO / GP_ERR_USAGE naming the problem otherwise.  Run
 * before a command looks for a GPU, so a bad --out FILE is exit 2, not the
 * no-GPU 77 that CTest counts as skipped. */
gp_status gp_fs_check_file_writable(const char *path);
/* 1 when path names a directory / anything at all. */
int gp_fs_is_dir(const char *path);
int gp_fs_exists(const char *path);
/* The last component of path, trailing slashes dropped ("results" for
 * "/work/build/results/"), into out (size n): how pages name a folder
 * without a path of the machine that wrote them. */
void gp_fs_base_name(char *out, size_t n, const char *path);
/* path as a command run from the current folder can name it: a relative
 * path as given, an absolute one relative to the current folder
 * ("../../tmp/r"; the part of it that does not exist yet kept as written),
 * so a page that prints a command carries no path of the machine.  Falls
 * back to the base name when the current folder cannot be read. */
void gp_fs_relative(char *out, size_t n, const char *path);
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

/* The whole of `path` into a malloc'd, NUL-terminated buffer (*buf, its
 * length in *n; free it).  Only a regular file is read: a FIFO, a device or
 * a directory is GP_ERR_USAGE "'PATH' is not a regular file (a FIFO): ...",
 * found without blocking, so a FIFO in place of a record cannot hang a
 * reader.  A missing, unreadable or dangling-link file is GP_ERR_IO naming
 * it and why; a file over `limit` bytes is GP_ERR_USAGE, `what` saying
 * what the file should have been ("a record"). */
gp_status gp_fs_read_regular(const char *path, size_t limit, const char *what, char **buf, size_t *n);
/* 0 when nothing is at path (not even a dangling link), 1 otherwise. */
int gp_fs_lexists(const char *path);

/* The directories one gp_fs_mkdirs_undoable call created, so that a command
 * that fails afterwards leaves no empty folder behind. */
typedef struct gp_fs_made {
    char top[1024];  /* the first (outermost) directory it created; "" none */
    char leaf[1024]; /* the path it was asked for */
} gp_fs_made;
/* mkdir -p that remembers what it created in *made. */
gp_status gp_fs_mkdirs_undoable(const char *path, gp_fs_made *made);
/* Remove what gp_fs_mkdirs_undoable created, innermost first, while empty. */
void gp_fs_mkdirs_undo(gp_fs_made *made);

/* A set of output files written all or nothing: each is written to
 * <dir>/<name>.tmp and flushed; gp_fs_set_commit then renames every one into
 * place, and when one rename fails, puts back the files the earlier renames
 * replaced (kept as <dir>/.<name>.gp-old until the set is in) and removes
 * the new ones.  gp_fs_set_abort drops the .tmp files and the folders
 * gp_fs_set_begin created.  Used for the report (table.txt, report.html,
 * report.md, the SVGs) and the fleet report, whose files belong together. */
typedef struct gp_fs_set {
    char dir[1024];
    gp_fs_made made;
    char (*names)[256];
    int n, cap;
} gp_fs_set;
gp_status gp_fs_set_begin(gp_fs_set *s, const char *dir);
/* Open <dir>/<name>.tmp for writing.  A <name> that exists and is not a
 * regular file (a folder named report.html) is refused here, before any
 * file of the set is in place. */
gp_status gp_fs_set_open(gp_fs_set *s, const char *name, FILE **f);
/* Flush, fsync and close f (opened by gp_fs_set_open for name). */
gp_status gp_fs_set_close(gp_fs_set *s, FILE *f, const char *name);
gp_status gp_fs_set_commit(gp_fs_set *s);
void gp_fs_set_abort(gp_fs_set *s);

/* An output FILE's folder (into dir; "." for a bare name) and base name,
 * refused (GP_ERR_USAGE naming the option `what`, "--out") when FILE is a
 * folder or names no file, before any work. */
gp_status gp_fs_split_file(const char *path, const char *what, char *dir, size_t dn, const char **name);
/* One output file written whole or not at all, as a one-file gp_fs_set: its
 * folder created (and removed again when the write fails), `write` filling
 * the open stream with ctx. */
gp_status gp_fs_write_file(const char *path, const char *what, void (*write)(FILE *f, const void *ctx),
                           const void *ctx);

/* Today's date as YYYY-MM-DD (UTC). */
void gp_fs_today(char out[16]);

#endif
