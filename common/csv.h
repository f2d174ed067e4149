/* Reading back the numeric CSV series that records write, so analyses can be
 * rerun (and unit-tested) on recorded data without a GPU. */
#ifndef GP_CSV_H
#define GP_CSV_H

#include "gp_status.h"
#include "record.h"

/* Read a header line of column names and numeric rows into *out (free with
 * free(out->data)).  Errors name the file and line. */
gp_status gp_csv_read(const char *path, gp_series *out);
/* Index of column `name`, or -1. */
int gp_series_col(const gp_series *s, const char *name);
/* Copy column `col` into dst (nrows values). */
void gp_series_column(const gp_series *s, int col, double *dst);

#endif
