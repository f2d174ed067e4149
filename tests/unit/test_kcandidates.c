/* Every kernel's tune candidates, pinned: the list each kernel's
 * `candidates` makes from a shipped table on a fixed device (order, every
 * kernel.<k> value, and the provenance of each value a candidate set) is
 * compared line by line with tests/data/candidates/<table>.txt, written from
 * the code before the candidates moved to one helper (kernels/kcandidates.h).
 * A changed, added, dropped or reordered candidate fails here; after a
 * deliberate change, copy the .actual.txt this test writes (in the build's
 * tests folder) over the data file and say why in the commit. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kcandidates.h"
#include "kernel.h"
#include "tune_pick.h"

/* An H200 (sm_90) and an MI25 (gfx900) as the candidates see them: the
 * target's register class (gemm) and the CU's threads and registers
 * (stencil's blocks_per_cu). */
static gp_device_info pinned_dev(const char *arch)
{
    int nv = !strncmp(arch, "sm_", 3);
    gp_device_info d = gp_test_fake_dev(nv ? 32 : 64, 1024, nv ? 132 : 64);
    snprintf(d.arch, sizeof d.arch, "%s", arch);
    d.max_threads_per_cu = nv ? 2048 : 2560;
    d.regs_per_cu = 65536;
    return d;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    if (*buf) {
        memcpy(*buf + *len, s, n + 1);
        *len += n;
    }
}

/* As gp_table_equal compares an entry (a `none` value's number is NaN). */
static int entry_same(const gp_table_entry *x, const gp_table_entry *y)
{
    if (x->present != y->present || !x->present)
        return x->present == y->present;
    if (x->is_none != y->is_none || x->kind != y->kind || strcmp(x->prov, y->prov))
        return 0;
    return x->is_none || (x->i == y->i && !strcmp(x->text, y->text) && (x->d == y->d || (isnan(x->d) && isnan(y->d))));
}

/* One line per candidate: "kernel index: key=value ..." over the kernel's
 * section in schema order; a value whose provenance differs from base's
 * carries it in parentheses.  0 when a candidate list fails, or a candidate
 * changed anything outside its kernel's section. */
static char *dump_candidates(const gp_table *base, const gp_device_info *dev)
{
    static gp_table cands[GP_TUNE_MAX_CANDS];
    char *buf = NULL, line[4096];
    size_t len = 0, cap = 0;
    append(&buf, &len, &cap, "");
    for (size_t ki = 0; buf && ki < gp_kernel_count(); ki++) {
        const gp_kernel *k = gp_kernel_at(ki);
        if (!k->candidates)
            continue;
        char section[64];
        snprintf(section, sizeof section, "kernel.%s", k->name);
        int n = -1;
        gp_status st = k->candidates(base, dev, cands, GP_TUNE_MAX_CANDS, &n);
        if (st.code != GP_OK) {
            fprintf(stderr, "%s candidates: %s\n", k->name, st.msg);
            free(buf);
            return NULL;
        }
        for (int c = 0; c < n; c++) {
            size_t l = (size_t)snprintf(line, sizeof line, "%s %d:", k->name, c);
            for (size_t i = 0; i < gp_table_nkeys(); i++) {
                const gp_table_entry *e = &cands[c].e[i], *b = &base->e[i];
                if (strcmp(gp_table_key_at(i)->section, section)) {
                    if (!entry_same(e, b)) {
                        fprintf(stderr, "%s candidate %d changed %s.%s\n", k->name, c, gp_table_key_at(i)->section,
                                gp_table_key_at(i)->key);
                        free(buf);
                        return NULL;
                    }
                    continue;
                }
                if (!e->present)
                    continue;
                l += (size_t)snprintf(line + l, sizeof line - l, " %s=%.17g", gp_table_key_at(i)->key, e->d);
                if (strcmp(e->prov, b->prov))
                    l += (size_t)snprintf(line + l, sizeof line - l, " (%s)", e->prov);
            }
            snprintf(line + l, sizeof line - l, "\n");
            append(&buf, &len, &cap, line);
        }
    }
    return buf;
}

/* The candidates of the shipped table `name` on `arch` against the pinned
 * file; the actual list is written to candidates_<name>.actual.txt. */
static int check_pinned(const char *name, const char *arch)
{
    static gp_table base;
    char rel[128], path[1024], actual_path[256];
    GP_CHECK(gp_test_load_shipped(name, &base));
    gp_device_info dev = pinned_dev(arch);
    char *got = dump_candidates(&base, &dev);
    GP_CHECK(got != NULL);
    snprintf(actual_path, sizeof actual_path, "candidates_%s.actual.txt", name);
    if (!gp_test_write_text(actual_path, got))
        fprintf(stderr, "could not write %s (the comparison goes on)\n", actual_path);
    snprintf(rel, sizeof rel, "tests/data/candidates/%s.txt", name);
    GP_CHECK(gp_test_source_path(path, sizeof path, rel));
    char *want = gp_test_read_text(path, NULL);
    GP_CHECK(want != NULL);
    /* The first line that differs, for the message. */
    const char *g = got, *w = want;
    int lineno = 1, same = 1;
    while (*g || *w) {
        const char *ge = strchr(g, '\n'), *we = strchr(w, '\n');
        size_t gl = ge ? (size_t)(ge - g) : strlen(g), wl = we ? (size_t)(we - w) : strlen(w);
        if (gl != wl || memcmp(g, w, gl)) {
            fprintf(stderr, "%s line %d:\n  pinned: %.*s\n  now:    %.*s\n(the whole list: %s)\n", rel, lineno,
                    (int)wl, w, (int)gl, g, actual_path);
            same = 0;
            break;
        }
        g += gl + (ge != NULL), w += wl + (we != NULL), lineno++;
    }
    free(got);
    free(want);
    GP_CHECK(same);
    return 0;
}

GP_TEST(kcandidates_pinned_sm_90)
{
    return check_pinned("sm_90", "sm_90");
}

GP_TEST(kcandidates_pinned_gfx900)
{
    return check_pinned("gfx900", "gfx900");
}

/* tune asks for at most GP_TUNE_MAX_CANDS; fewer gives the first ones of the
 * same list, and none gives none (the contract in kernel.h). */
GP_TEST(kcandidates_max_gives_a_prefix)
{
    static gp_table base, all[GP_TUNE_MAX_CANDS], few[GP_TUNE_MAX_CANDS];
    GP_CHECK(gp_test_load_shipped("sm_90", &base));
    gp_device_info dev = pinned_dev("sm_90");
    for (size_t ki = 0; ki < gp_kernel_count(); ki++) {
        const gp_kernel *k = gp_kernel_at(ki);
        if (!k->candidates)
            continue;
        int n = 0, m = -1;
        GP_CHECK(k->candidates(&base, &dev, all, GP_TUNE_MAX_CANDS, &n).code == GP_OK);
        GP_CHECK(n >= 2 && n <= GP_TUNE_MAX_CANDS);
        GP_CHECK(gp_table_equal(&all[0], &base)); /* the base's own values first */
        GP_CHECK(k->candidates(&base, &dev, few, 0, &m).code == GP_OK && m == 0);
        for (int max = 1; max < n; max += n / 3 + 1) {
            GP_CHECK(k->candidates(&base, &dev, few, max, &m).code == GP_OK);
            GP_CHECK(m == max);
            for (int c = 0; c < m; c++)
                GP_CHECK(gp_table_equal(&few[c], &all[c]));
        }
    }
    return 0;
}

/* The helper itself: rows become copies of the base with those keys set
 * (GP_KCAND_KEEP keeps the base's), `max` cuts the list, and bad input is
 * refused naming the kernel or the key. */
GP_TEST(kcandidates_make_rows_keep_and_errors)
{
    static gp_table base, out[4];
    GP_CHECK(gp_test_load_shipped("sm_90", &base));
    long long b0, i0;
    GP_CHECK(gp_table_get_int(&base, "kernel.scan", "block", &b0).code == GP_OK);
    GP_CHECK(gp_table_get_int(&base, "kernel.scan", "items_per_thread", &i0).code == GP_OK);
    const gp_kcand_keys keys = {"scan", 2, {"block", "items_per_thread"}, NULL};
    const int rows[3][2] = {{128, 4}, {GP_KCAND_KEEP, 32}, {512, GP_KCAND_KEEP}};
    int n = -1;
    GP_CHECK(gp_kcand_make(&keys, &base, &rows[0][0], 3, out, 4, &n).code == GP_OK && n == 4);
    GP_CHECK(gp_table_equal(&out[0], &base));
    long long v;
    GP_CHECK(gp_table_get_int(&out[1], "kernel.scan", "block", &v).code == GP_OK && v == 128);
    GP_CHECK(gp_table_get_int(&out[1], "kernel.scan", "items_per_thread", &v).code == GP_OK && v == 4);
    GP_CHECK(!strcmp(gp_table_find(&out[1], "kernel.scan", "block")->prov, "rule tune_candidate"));
    GP_CHECK(gp_table_get_int(&out[2], "kernel.scan", "block", &v).code == GP_OK && v == b0);
    GP_CHECK(!strcmp(gp_table_find(&out[2], "kernel.scan", "block")->prov,
                     gp_table_find(&base, "kernel.scan", "block")->prov)); /* kept: value and provenance */
    GP_CHECK(gp_table_get_int(&out[2], "kernel.scan", "items_per_thread", &v).code == GP_OK && v == 32);
    GP_CHECK(gp_table_get_int(&out[3], "kernel.scan", "block", &v).code == GP_OK && v == 512);
    GP_CHECK(gp_table_get_int(&out[3], "kernel.scan", "items_per_thread", &v).code == GP_OK && v == i0);
    /* A provenance of the kernel's own. */
    const gp_kcand_keys swept = {"scan", 2, {"block", "items_per_thread"}, "swept scan candidate"};
    GP_CHECK(gp_kcand_make(&swept, &base, &rows[0][0], 1, out, 4, &n).code == GP_OK && n == 2);
    GP_CHECK(!strcmp(gp_table_find(&out[1], "kernel.scan", "items_per_thread")->prov, "swept scan candidate"));
    /* max: the base, then the first rows; none for max 0. */
    GP_CHECK(gp_kcand_make(&keys, &base, &rows[0][0], 3, out, 2, &n).code == GP_OK && n == 2);
    GP_CHECK(gp_kcand_make(&keys, &base, &rows[0][0], 3, out, 0, &n).code == GP_OK && n == 0);
    /* No rows: the base alone. */
    GP_CHECK(gp_kcand_make(&keys, &base, NULL, 0, out, 4, &n).code == GP_OK && n == 1);
    /* Bad key lists and row counts. */
    const gp_kcand_keys none = {"scan", 0, {NULL}, NULL};
    gp_status st = gp_kcand_make(&none, &base, &rows[0][0], 3, out, 4, &n);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "scan candidates") && n == 0);
    GP_CHECK(gp_kcand_make(&keys, &base, &rows[0][0], -1, out, 4, &n).code == GP_ERR_USAGE);
    GP_CHECK(gp_kcand_make(&keys, &base, NULL, 2, out, 4, &n).code == GP_ERR_USAGE);
    /* A value out of the key's range, and a key the section does not have. */
    const int bad[1][2] = {{128, 0}};
    st = gp_kcand_make(&keys, &base, &bad[0][0], 1, out, 4, &n);
    GP_CHECK(st.code != GP_OK && strstr(st.msg, "items_per_thread"));
    const gp_kcand_keys typo = {"scan", 2, {"block", "items"}, NULL};
    st = gp_kcand_make(&typo, &base, &rows[0][0], 1, out, 4, &n);
    GP_CHECK(st.code != GP_OK && strstr(st.msg, "items"));
    return 0;
}
