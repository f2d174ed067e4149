#define _POSIX_C_SOURCE 200809L
#include "csv.h"

#include "fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Series CSVs are small; anything far larger is not one. */
#define CSV_MAX_FILE (64u << 20)

/* A column name as the records write them: letters, digits and a few
 * signs; anything else (control bytes, quotes, bytes outside ASCII) means
 * the file is not a series, and its bytes must not reach a page. */
static int name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("_-./%() ", c));
}

static gp_status split_header(gp_series *s, char *line, const char *path)
{
    for (char *tok = line, *comma; tok; tok = comma) {
        comma = strchr(tok, ',');
        if (comma)
            *comma++ = '\0';
        size_t len = strlen(tok);
        int ok = len > 0 && len < sizeof s->cols[0];
        for (size_t i = 0; ok && i < len; i++)
            ok = name_char((unsigned char)tok[i]);
        if (!ok)
            return gp_fail(GP_ERR_USAGE, "%s:1: column %d of the header is not a column name (letters, digits, "
                                         "'_', '-', '.'; at most %zu characters)",
                           path, s->ncols + 1, sizeof s->cols[0] - 1);
        if (s->ncols >= GP_SERIES_MAX_COLS)
            return gp_fail(GP_ERR_USAGE, "%s:1: more than %d columns", path, GP_SERIES_MAX_COLS);
        snprintf(s->cols[s->ncols++], sizeof s->cols[0], "%s", tok);
    }
    return gp_ok();
}

/* One data row of `line` (NUL-terminated, no newline) into s. */
static gp_status parse_row(gp_series *s, char *line, const char *path, int lineno)
{
    double row[GP_SERIES_MAX_COLS];
    char *p = line, *end;
    for (int c = 0; c < s->ncols; c++) {
        errno = 0;
        row[c] = strtod(p, &end);
        if (end == p || errno)
            return gp_fail(GP_ERR_USAGE, "%s:%d: column %d ('%s') is not a number", path, lineno, c + 1,
                           s->cols[c]);
        p = end;
        if (c + 1 < s->ncols) {
            if (*p != ',')
                return gp_fail(GP_ERR_USAGE, "%s:%d: expected %d columns", path, lineno, s->ncols);
            p++;
        }
    }
    p += strspn(p, " \t");
    if (*p)
        return gp_fail(GP_ERR_USAGE, "%s:%d: text after the last of %d columns", path, lineno, s->ncols);
    return gp_series_append(s, row);
}

/* Split buf into lines in place: the next line (CR/LF stripped) or NULL. */
static char *next_line(char **cur)
{
    char *line = *cur;
    if (!line || !*line)
        return NULL;
    char *nl = strchr(line, '\n');
    *cur = nl ? nl + 1 : line + strlen(line);
    if (nl)
        *nl = '\0';
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r')
        line[len - 1] = '\0';
    return line;
}

gp_status gp_csv_read(const char *path, gp_series *out)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t n;
    GP_TRY(gp_fs_read_regular(path, CSV_MAX_FILE, "a series", &buf, &n));
    gp_status st = gp_ok();
    char *cur = buf, *line;
    if (memchr(buf, '\0', n))
        st = gp_fail(GP_ERR_USAGE, "%s: contains NUL bytes, not a series CSV", path);
    else if (!(line = next_line(&cur)))
        st = gp_fail(GP_ERR_USAGE, "%s:1: empty file, expected a header line", path);
    else
        st = split_header(out, line, path);
    for (int lineno = 2; st.code == GP_OK && (line = next_line(&cur)) != NULL; lineno++)
        if (line[strspn(line, " \t")] != '\0')
            st = parse_row(out, line, path, lineno);
    free(buf);
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
