#define _POSIX_C_SOURCE 200809L
/* specs/<product>.txt: the vendors' published figures (specs.h). */
#include "specs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"

static const char *const keys[GP_SPEC_NFIGURES] = {
    "clock_mhz",          "compute_units",      "fp32_tflops",        "fp64_tflops",      "dram_gbs",
    "l2_bytes",           "fp16_matrix_tflops", "bf16_matrix_tflops", "tf32_matrix_tflops", "fp32_matrix_tflops",
    "int8_matrix_tops",   "fp8_matrix_tflops"};

const char *gp_spec_key(int figure)
{
    return figure >= 0 && figure < GP_SPEC_NFIGURES ? keys[figure] : NULL;
}

int gp_spec_figure(const char *key)
{
    for (int i = 0; key && i < GP_SPEC_NFIGURES; i++)
        if (!strcmp(key, keys[i]))
            return i;
    return -1;
}

static char *trim(char *a)
{
    while (isspace((unsigned char)*a))
        a++;
    char *e = a + strlen(a);
    while (e > a && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return a;
}

static gp_status bad(const char *path, int line, const char *why, const char *what)
{
    return gp_fail(GP_ERR_USAGE, "%s:%d: %s%s%s", path, line, why, what ? ": " : "", what ? what : "");
}

/* One `key = value # source` line into s. */
static gp_status parse_line(const char *path, int ln, char *line, gp_spec *s, int *nmatch)
{
    char *hash = strchr(line, '#'), *src = NULL;
    if (hash)
        *hash = '\0', src = trim(hash + 1);
    char *eq = strchr(line, '=');
    if (!eq)
        return bad(path, ln, "not `key = value # source`", trim(line));
    *eq = '\0';
    char *key = trim(line), *val = trim(eq + 1);
    if (!*val)
        return bad(path, ln, "no value for", key);
    if (!strcmp(key, "name")) {
        snprintf(s->name, sizeof s->name, "%s", val);
        return gp_ok();
    }
    if (!strcmp(key, "match")) {
        if (*nmatch >= GP_SPEC_MATCHES)
            return bad(path, ln, "more than 4 match lines", NULL);
        if (strlen(val) >= sizeof s->match[0])
            return bad(path, ln, "match text longer than 47 characters", val);
        snprintf(s->match[(*nmatch)++], sizeof s->match[0], "%s", val);
        return gp_ok();
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(v))
        return bad(path, ln, "not a number", val);
    if (!strcmp(key, "fp32_packed")) {
        if (v != 0 && v != 1)
            return bad(path, ln, "fp32_packed is 0 or 1", val);
        s->fp32_packed = (int)v;
        return gp_ok();
    }
    int f = gp_spec_figure(key);
    if (f < 0)
        return bad(path, ln, "unknown key (specs/README.md lists them)", key);
    if (v <= 0)
        return bad(path, ln, "a figure must be positive", key);
    if (!src || !*src)
        return bad(path, ln, "a figure without its source", key);
    if (s->v[f] > 0)
        return bad(path, ln, "given twice", key);
    s->v[f] = v;
    snprintf(s->src[f], sizeof s->src[f], "%s", src);
    return gp_ok();
}

gp_status gp_spec_load(const char *path, gp_spec *s)
{
    char *buf = NULL;
    size_t n = 0;
    memset(s, 0, sizeof *s);
    GP_TRY(gp_fs_read_regular(path, 1 << 16, "spec file", &buf, &n));
    const char *base = strrchr(path, '/');
    snprintf(s->file, sizeof s->file, "%s", base ? base + 1 : path);
    int ln = 0, nmatch = 0;
    gp_status st = gp_ok();
    for (char *line = buf, *next; line && st.code == GP_OK; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ln++;
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        st = parse_line(path, ln, t, s, &nmatch);
    }
    free(buf);
    if (st.code == GP_OK && !s->name[0])
        st = bad(path, ln, "no `name = ...` line", NULL);
    if (st.code == GP_OK && !nmatch)
        st = bad(path, ln, "no `match = ...` line: no device would find it", NULL);
    return st;
}

int gp_spec_matches(const char *device_name, const char *text)
{
    size_t k = strlen(text);
    if (!k)
        return 0;
    for (const char *p = strstr(device_name, text); p; p = strstr(p + 1, text)) {
        int before = p == device_name || !isalnum((unsigned char)p[-1]);
        int after = !isalnum((unsigned char)p[k]);
        if (before && after)
            return 1;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

gp_status gp_spec_find(const char *dir, const char *device_name, gp_spec *s, int *found)
{
    *found = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return gp_ok();
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".txt") && e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    gp_status st = gp_ok();
    for (int i = 0; i < n && st.code == GP_OK && !*found; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        st = gp_spec_load(path, s);
        for (int m = 0; st.code == GP_OK && m < GP_SPEC_MATCHES && s->match[m][0] && !*found; m++)
            *found = gp_spec_matches(device_name, s->match[m]);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (!*found && st.code == GP_OK)
        memset(s, 0, sizeof *s);
    return st;
}

gp_status gp_spec_find_beside(const char *tables_dir, const char *device_name, gp_spec *s, int *found)
{
    char dir[1200];
    *found = 0;
    if (!tables_dir || !tables_dir[0])
        return gp_ok();
    snprintf(dir, sizeof dir, "%s/../specs", tables_dir);
    return gp_spec_find(dir, device_name, s, found);
}

int gp_spec_is_tera(int figure)
{
    return figure == GP_SPEC_FP32_TFLOPS || figure == GP_SPEC_FP64_TFLOPS ||
           (figure >= GP_SPEC_FP16_MATRIX_TFLOPS && figure <= GP_SPEC_FP8_MATRIX_TFLOPS);
}

double gp_spec_value(const gp_spec *s, int figure)
{
    if (!s || figure < 0 || figure >= GP_SPEC_NFIGURES || s->v[figure] <= 0)
        return 0;
    double v = s->v[figure];
    if (gp_spec_is_tera(figure))
        v *= 1e12;
    if (figure == GP_SPEC_FP32_TFLOPS && s->fp32_packed)
        v /= 2;
    return v;
}
