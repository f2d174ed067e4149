/* Files that are never half-written: write to a temporary name, then rename. */
#ifndef GP_FSUTIL_H
#define GP_FSUTIL_H

#include <stdio.h>
#include "gp_status.h"

/* mkdir -p. */
gp_status gp_fs_mkdirs(const char *path);
/* Open `path`.tmp for writing; gp_fs_commit closes it and renames it to `path`. */
gp_status gp_fs_open_atomic(const char *path, FILE **f);
gp_status gp_fs_commit(FILE *f, const char *path);
/* Join dir and name into out (size n); fails when it does not fit. */
gp_status gp_fs_join(char *out, size_t n, const char *dir, const char *name);
/* Today's date as YYYY-MM-DD (UTC). */
void gp_fs_today(char out[16]);

#endif
