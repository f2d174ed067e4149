#define _POSIX_C_SOURCE 200809L
#include "csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void split_header(gp_series *s, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *save = NULL;
    for (char *tok = strtok_r(line, ",", &save); tok && s->ncols < GP_SERIES_MAX_COLS;
         tok = strtok_r(NULL, ",", &save))
        snprintf(s->cols[s->ncols++], sizeof s->cols[0], "%s", tok);
}

gp_status gp_csv_read(const char *path, gp_series *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return gp_fail(GP_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    char line[4096];
    gp_status st = gp_ok();
    int lineno = 1;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return gp_fail(GP_ERR_USAGE, "%s:1: empty file, expected a header line", path);
    }
    split_header(out, line);
    while (st.code == GP_OK && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[strspn(line, " \r\n")] == '\0')
            continue;
        double row[GP_SERIES_MAX_COLS];
        char *p = line, *end;
        for (int c = 0; c < out->ncols; c++) {
            errno = 0;
            row[c] = strtod(p, &end);
            if (end == p || errno) {
                st = gp_fail(GP_ERR_USAGE, "%s:%d: column %d ('%s') is not a number", path, lineno, c + 1,
                             out->cols[c]);
                break;
            }
            p = end;
            if (c + 1 < out->ncols) {
                if (*p != ',') {
                    st = gp_fail(GP_ERR_USAGE, "%s:%d: expected %d columns", path, lineno, out->ncols);
                    break;
                }
                p++;
            }
        }
        if (st.code == GP_OK)
            st = gp_series_append(out, row);
    }
    fclose(f);
    if (st.code != GP_OK) {
        free(out->data);
        out->data = NULL;
        out->nrows = 0;
    }
    return st;
}

int gp_series_col(const gp_series *s, const char *name)
{
    for (int c = 0; c < s->ncols; c++)
        if (strcmp(s->cols[c], name) == 0)
            return c;
    return -1;
}

void gp_series_column(const gp_series *s, int col, double *dst)
{
    for (size_t i = 0; i < s->nrows; i++)
        dst[i] = s->data[i * (size_t)s->ncols + col];
}
