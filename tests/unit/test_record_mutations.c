/* Records that lie: the recorded H200 records (tests/data/h200/records)
 * with seeded mutations, read by compare, report and the table step.
 *   - records that contradict themselves, their file name or their folder
 *     (the set below, mut_contradictions_*) are bad input naming the file
 *     and the key, in every reader;
 *   - a value replaced by something that is not a finite number ("abc",
 *     1e999, true, [], {}), or by null where "detected" stays true, or a
 *     not-detected value stripped of its reason, is bad input: GP_ERR_USAGE
 *     (exit 2) naming the file and the key, in all three readers;
 *   - random byte edits (flip, delete, duplicate) never crash a reader and
 *     give only GP_OK, GP_ERR_CHECK or GP_ERR_USAGE (exit 0, 1 or 2).
 * 40 value mutations and 40 byte-edit rounds from a seeded xorshift: the
 * same on every run, and quick (CI runs them under ASan/UBSan through the
 * `unit` label). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "characterize.h"
#include "fsutil.h"
#include "gp_test.h"
#include "probe.h"
#include "report.h"
#include "run_compare.h"
#include "table.h"
#include "kernel.h"

/* The table step runs every kernel's rule on the facts (build constants). */
static gp_status kernel_rules(const gp_table *facts, gp_table *out) { return gp_kernel_rules_apply(facts, 0, out); }

static const char *const record_files[] = {"atomics.json",       "cache_latency.json", "channel_conflicts.json",
                                           "divergence.json",    "fma_throughput.json", "launch_rate.json",
                                           "lds.json",           "math_functions.json", "memory_bandwidth.json",
                                           "register_limits.json"};
#define NFILES (sizeof record_files / sizeof record_files[0])

static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int spit(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t w = fwrite(text, 1, n, f);
    return (fclose(f) == 0) & (w == n);
}

/* The k-th occurrence of `needle` in text, or NULL. */
static char *nth(char *text, const char *needle, int k)
{
    char *p = text;
    for (int i = 0; p && (p = strstr(p, needle)) != NULL; i++, p++)
        if (i == k)
            return p;
    return NULL;
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* text with [at, at+len) replaced by `with`; caller frees. */
static char *splice(const char *text, size_t at, size_t len, const char *with)
{
    size_t n = strlen(text), w = strlen(with);
    char *out = malloc(n - len + w + 1);
    if (!out)
        return NULL;
    memcpy(out, text, at);
    memcpy(out + at, with, w);
    memcpy(out + at + w, text + at + len, n - at - len + 1);
    return out;
}

/* The key of the value object that holds position `at`. */
static void key_before(const char *text, const char *at, char *key, size_t n)
{
    const char *k = NULL;
    for (const char *p = text; (p = strstr(p, "{\"key\": \"")) != NULL && p < at; p++)
        k = p + 9;
    key[0] = '\0';
    if (k) {
        size_t len = strcspn(k, "\"");
        snprintf(key, n, "%.*s", (int)(len < n ? len : n - 1), k);
    }
}

typedef struct mut_ctx {
    char src_records[1024], tables[1024], dir[64], out[128];
} mut_ctx;

/* Every reader must refuse dir/<file> with GP_ERR_USAGE naming file and key. */
static int all_refuse(const mut_ctx *c, const char *file, const char *key, int with_report)
{
    gp_cmp_run A, B;
    gp_status st = gp_cmp_load_dir(c->dir, &B);
    if (st.code == GP_OK)
        gp_cmp_run_free(&B);
    if (st.code != GP_ERR_USAGE || !strstr(st.msg, file) || !strstr(st.msg, key)) {
        fprintf(stderr, "compare accepted %s key %s: %d %s\n", file, key, st.code, st.msg);
        return 0;
    }
    (void)A;
    static gp_table t;
    st = gp_characterize_table(c->dir, c->tables, kernel_rules, &t, NULL, 0, NULL);
    /* The table step reads every record of the folder, not only those with
     * table rows: a bad one must not pass because no row reads it. */
    if (st.code != GP_ERR_USAGE || !strstr(st.msg, file) || !strstr(st.msg, key)) {
        fprintf(stderr, "table step accepted %s key %s: %d %s\n", file, key, st.code, st.msg);
        return 0;
    }
    if (with_report) {
        st = gp_report_write(c->dir, c->out);
        if (st.code != GP_ERR_USAGE || !strstr(st.msg, file) || !strstr(st.msg, key)) {
            fprintf(stderr, "report accepted %s key %s: %d %s\n", file, key, st.code, st.msg);
            return 0;
        }
    }
    return 1;
}

static int setup(mut_ctx *c)
{
    if (!gp_test_source_path(c->src_records, sizeof c->src_records, "tests/data/h200/records") ||
        !gp_test_source_path(c->tables, sizeof c->tables, "tables"))
        return 0;
    snprintf(c->dir, sizeof c->dir, "/tmp/gp_unit_mutXXXXXX");
    if (!mkdtemp(c->dir))
        return 0;
    snprintf(c->out, sizeof c->out, "%s/report", c->dir);
    return 1;
}

/* dir/ holds every recorded file as recorded (the table step needs the
 * device's records); each round then overwrites one. */
static int clear_dir(const mut_ctx *c)
{
    for (size_t i = 0; i < NFILES; i++) {
        char in[1200], out[1200];
        size_t n;
        snprintf(in, sizeof in, "%s/%s", c->src_records, record_files[i]);
        snprintf(out, sizeof out, "%s/%s", c->dir, record_files[i]);
        char *text = gp_test_read_text(in, &n);
        int ok = text && spit(out, text, n);
        free(text);
        if (!ok)
            return 0;
    }
    return 1;
}

/* One recorded file, picked by the seeded generator, read whole. */
static char *random_record(const mut_ctx *c, const char **file, size_t *n)
{
    char in[1200];
    *file = record_files[rng() % NFILES];
    snprintf(in, sizeof in, "%s/%s", c->src_records, *file);
    return gp_test_read_text(in, n);
}

GP_TEST(mut_corrupt_values_are_bad_input_everywhere)
{
    static const char *const bad[] = {"\"abc\"", "1e999", "-1e999", "true", "[]", "{}", "\"\""};
    mut_ctx c;
    GP_CHECK(setup(&c));
    rng_state = 0x15C0FFEEull;
    int tried = 0;
    for (int round = 0; round < 40; round++) {
        const char *file;
        char path[1200];
        size_t n;
        char *text = random_record(&c, &file, &n);
        GP_CHECK(text != NULL);
        int nv = count_of(text, "\"value\": ");
        GP_CHECK(nv > 0);
        char *at = nth(text, "\"value\": ", (int)(rng() % (uint64_t)nv)) + 9;
        size_t len = strcspn(at, ",}");
        const char *with = bad[rng() % (sizeof bad / sizeof bad[0])];
        char key[64];
        key_before(text, at, key, sizeof key);
        char *mut = splice(text, (size_t)(at - text), len, with);
        GP_CHECK(clear_dir(&c));
        snprintf(path, sizeof path, "%s/%s", c.dir, file);
        GP_CHECK(mut && spit(path, mut, strlen(mut)));
        if (!all_refuse(&c, file, key, round % 10 == 0)) {
            fprintf(stderr, "round %d: %s -> %s\n", round, key, with);
            return 1;
        }
        tried++;
        free(mut);
        free(text);
    }
    GP_CHECK(tried == 40);
    return 0;
}

GP_TEST(mut_null_while_detected_and_reasonless_none_are_bad_input)
{
    mut_ctx c;
    GP_CHECK(setup(&c));
    char in[1200], path[1200];
    size_t n;
    snprintf(in, sizeof in, "%s/register_limits.json", c.src_records);
    char *text = gp_test_read_text(in, &n);
    GP_CHECK(text != NULL);
    /* per_cu: 65536 -> null, "detected" still true (the case) */
    char *at = strstr(text, "\"key\": \"per_cu\", \"value\": ");
    GP_CHECK(at != NULL);
    at += strlen("\"key\": \"per_cu\", \"value\": ");
    char *mut = splice(text, (size_t)(at - text), strcspn(at, ","), "null");
    snprintf(path, sizeof path, "%s/register_limits.json", c.dir);
    GP_CHECK(clear_dir(&c));
    GP_CHECK(mut && spit(path, mut, strlen(mut)));
    GP_CHECK(all_refuse(&c, "register_limits.json", "per_cu", 1));
    free(mut);
    /* ...and "detected": false with no note: not detected, without a reason */
    char *det = strstr(text, "\"key\": \"per_cu\"");
    det = strstr(det, "\"detected\": true");
    char *m1 = splice(text, (size_t)(at - text), strcspn(at, ","), "null");
    GP_CHECK(m1 != NULL);
    size_t shift = strlen("null") - strcspn(at, ",");
    char *m2 = splice(m1, (size_t)(det - text) + shift, strlen("\"detected\": true"), "\"detected\": false");
    GP_CHECK(m2 && spit(path, m2, strlen(m2)));
    GP_CHECK(all_refuse(&c, "register_limits.json", "per_cu", 0));
    free(m1);
    free(m2);
    /* The untouched file reads in every reader. */
    GP_CHECK(spit(path, text, n));
    gp_cmp_run R;
    GP_CHECK(gp_cmp_load_dir(c.dir, &R).code == GP_OK);
    gp_cmp_run_free(&R);
    free(text);
    return 0;
}

GP_TEST(mut_random_bytes_never_crash)
{
    mut_ctx c;
    GP_CHECK(setup(&c));
    rng_state = 0x2026112315ull;
    for (int round = 0; round < 40; round++) {
        const char *file;
        char path[1200];
        size_t n;
        char *text = random_record(&c, &file, &n);
        GP_CHECK(text != NULL && n > 0);
        int edits = 1 + (int)(rng() % 4);
        for (int e = 0; e < edits && n > 1; e++) {
            size_t at = (size_t)(rng() % n);
            switch (rng() % 3) {
            case 0: text[at] = (char)(rng() % 256 ? rng() % 256 : 'x'); break;
            case 1: memmove(text + at, text + at + 1, n - at); n--; break;
            default: text[at] = text[(at * 7 + 3) % n]; break;
            }
        }
        GP_CHECK(clear_dir(&c));
        snprintf(path, sizeof path, "%s/%s", c.dir, file);
        GP_CHECK(spit(path, text, n));
        gp_cmp_run R;
        gp_status st = gp_cmp_load_dir(c.dir, &R);
        GP_CHECK(st.code == GP_OK || st.code == GP_ERR_USAGE);
        if (st.code == GP_OK)
            gp_cmp_run_free(&R);
        static gp_table t;
        st = gp_characterize_table(c.dir, c.tables, kernel_rules, &t, NULL, 0, NULL);
        int rc = gp_status_exit_code(&st);
        GP_CHECK(rc == 0 || rc == 1 || rc == 2);
        free(text);
    }
    return 0;
}

/* One contradiction: `file` with the first `from` replaced by `to` (or, with
 * from NULL, `to` inserted after the opening brace); every reader must
 * refuse it naming `file` and `key`. */
typedef struct contradiction {
    const char *what, *file, *from, *to, *key;
} contradiction;

static const contradiction contradictions[] = {
    {"lds.json whose probe is atomics", "lds.json", "\"probe\": \"lds\"", "\"probe\": \"atomics\"", "atomics"},
    {"a probe name no probe has", "lds.json", "\"probe\": \"lds\"", "\"probe\": \"ldx\"", "ldx"},
    {"\"probe\" twice", "lds.json", NULL, "\"probe\": \"lds\",", "probe"},
    {"a value key twice, 32 and 999", "lds.json", "{\"key\": \"banks\", \"value\": 32,",
     "{\"key\": \"banks\", \"value\": 999, \"unit\": \"banks\", \"spread\": null, \"detected\": true, "
     "\"note\": \"\"},\n    {\"key\": \"banks\", \"value\": 32,",
     "banks"},
    {"a value without \"key\"", "lds.json", "{\"key\": \"banks\", ", "{", "key"},
    {"\"check\": \"banana\"", "lds.json", NULL, "\"check\": \"banana\",", "banana"},
    {"a spread of -5", "lds.json", "\"spread\": 3.47593281e-05", "\"spread\": -5", "latency_cycles"},
    {"device.compute_units -132", "lds.json", "\"compute_units\": 132", "\"compute_units\": -132", "compute_units"},
    {"lds banks -32", "lds.json", "\"key\": \"banks\", \"value\": 32", "\"key\": \"banks\", \"value\": -32", "banks"},
    {"a newer major schema", "lds.json", NULL, "\"schema_version\": \"2.0\",", "newer"},
    {"a schema version that is none", "lds.json", NULL, "\"schema_version\": \"two\",", "schema_version"},
    {"a name that is not UTF-8", "lds.json", "\"name\": \"NVIDIA H200\"", "\"name\": \"NVIDIA \xff\"", "UTF-8"},
};

static char *contradict(const char *text, const contradiction *k)
{
    if (!k->from)
        return splice(text, 1, 0, k->to); /* after the opening brace */
    const char *at = strstr(text, k->from);
    return at ? splice(text, (size_t)(at - text), strlen(k->from), k->to) : NULL;
}

GP_TEST(mut_contradictions_are_bad_input_everywhere)
{
    mut_ctx c;
    GP_CHECK(setup(&c));
    for (size_t i = 0; i < sizeof contradictions / sizeof contradictions[0]; i++) {
        const contradiction *k = &contradictions[i];
        char in[1200], path[1200];
        size_t n;
        snprintf(in, sizeof in, "%s/%s", c.src_records, k->file);
        char *text = gp_test_read_text(in, &n);
        GP_CHECK(text != NULL);
        char *mut = contradict(text, k);
        if (!mut) {
            fprintf(stderr, "%s: '%s' not in %s\n", k->what, k->from, k->file);
            return 1;
        }
        GP_CHECK(clear_dir(&c));
        snprintf(path, sizeof path, "%s/%s", c.dir, k->file);
        GP_CHECK(spit(path, mut, strlen(mut)));
        if (!all_refuse(&c, k->file, k->key, 1)) {
            fprintf(stderr, "accepted: %s\n", k->what);
            return 1;
        }
        free(mut);
        free(text);
    }
    /* Nothing of the refused runs was written. */
    char p[256];
    snprintf(p, sizeof p, "%s/report.html", c.out);
    GP_CHECK(!gp_fs_exists(p) && !gp_fs_exists(c.out));
    return 0;
}

/* An H100's lds.json copied into the H200's folder: one folder, two GPUs. */
GP_TEST(mut_other_gpus_record_is_refused_everywhere)
{
    mut_ctx c;
    char h100[1024], in[1300], path[1200];
    size_t n;
    GP_CHECK(setup(&c) && gp_test_source_path(h100, sizeof h100, "tests/data/fleet/h100"));
    GP_CHECK(clear_dir(&c));
    snprintf(in, sizeof in, "%s/lds.json", h100);
    char *text = gp_test_read_text(in, &n);
    snprintf(path, sizeof path, "%s/lds.json", c.dir);
    GP_CHECK(text && spit(path, text, n));
    free(text);
    GP_CHECK(all_refuse(&c, "lds.json", "mixes devices", 1));
    return 0;
}
