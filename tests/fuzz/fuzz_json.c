/* libFuzzer target: the JSON reader (gp_json_parse) and the record checks
 * behind it, the code that reads the records `fleet` collects from other
 * nodes and `report` and `compare` read from any folder.
 *
 * Properties checked on every input:
 *   - no crash, no hang, no sanitizer report (ASan + UBSan in the fuzz preset);
 *   - a rejected input gets GP_ERR_USAGE (or GP_ERR_NOMEM) and a message
 *     "fuzz.json:LINE:COL: reason";
 *   - an accepted one writes back (a minimal writer here: strings escaped,
 *     numbers in 17 digits) into text that parses again to an equal tree;
 *   - the record checks (gp_record_check_json, then the folder reader's
 *     gp_records_check_one and gp_record_from_json) take it without a crash,
 *     and a refusal is GP_ERR_USAGE naming the file. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "json_write.h"
#include "record.h"
#include "records.h"

#define NAME "fuzz.json"

static void die(const char *what, const char *msg, const uint8_t *data, size_t size)
{
    fprintf(stderr, "fuzz_json: %s ('%s')\ninput (%zu bytes):\n%.*s\n", what, msg ? msg : "", size, (int)size,
            (const char *)data);
    abort();
}

static void write_tree(FILE *f, const gp_json *j)
{
    switch (j->type) {
    case GP_JSON_NULL: fputs("null", f); break;
    case GP_JSON_BOOL: fputs(j->num ? "true" : "false", f); break;
    case GP_JSON_NUM:
        if (isinf(j->num))
            fputs(j->num > 0 ? "1e999" : "-1e999", f); /* how it read: a number beyond a double */
        else
            fprintf(f, "%.17g", j->num);
        break;
    case GP_JSON_STR: gp_json_write_str(f, j->str); break;
    case GP_JSON_ARR:
    case GP_JSON_OBJ:
        fputc(j->type == GP_JSON_ARR ? '[' : '{', f);
        for (size_t i = 0; i < j->nkids; i++) {
            if (i)
                fputc(',', f);
            if (j->type == GP_JSON_OBJ) {
                gp_json_write_str(f, j->kids[i].key);
                fputc(':', f);
            }
            write_tree(f, &j->kids[i]);
        }
        fputc(j->type == GP_JSON_ARR ? ']' : '}', f);
        break;
    }
}

static int same_tree(const gp_json *a, const gp_json *b)
{
    if (a->type != b->type || a->nkids != b->nkids)
        return 0;
    if ((a->key || b->key) && (!a->key || !b->key || strcmp(a->key, b->key)))
        return 0;
    if ((a->type == GP_JSON_NUM || a->type == GP_JSON_BOOL) && a->num != b->num)
        return 0;
    if (a->type == GP_JSON_STR && strcmp(a->str, b->str))
        return 0;
    for (size_t i = 0; i < a->nkids; i++)
        if (!same_tree(&a->kids[i], &b->kids[i]))
            return 0;
    return 1;
}

/* The record checks on an accepted tree: never a crash, a refusal names the file. */
static void check_record(const gp_json *j, const uint8_t *data, size_t size)
{
    static gp_record r; /* ~100 KB: off the stack */
    gp_status st = gp_record_check_json(j, NAME);
    if (st.code != GP_OK && (st.code != GP_ERR_USAGE || strncmp(st.msg, NAME, strlen(NAME))))
        die("record check refusal that is not a usage error naming the file", st.msg, data, size);
    const char *why = NULL;
    const char *probe = gp_json_str_of(j, "probe", "lds");
    char name[80];
    snprintf(name, sizeof name, "%.60s.json", probe);
    if (gp_records_check_one(j, name, NAME, &st, &why)) {
        int dropped = 0;
        if (!gp_record_from_json(j, &r, &dropped, &why))
            die("a checked record that does not read", why, data, size);
    } else if (st.code != GP_OK && st.code != GP_ERR_USAGE) {
        die("record refusal with a code other than GP_ERR_USAGE", st.msg, data, size);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_json j, back;
    gp_status st = gp_json_parse((const char *)data, size, NAME, &j);
    if (st.code != GP_OK) {
        if (st.code != GP_ERR_USAGE && st.code != GP_ERR_NOMEM)
            die("rejection with a code other than GP_ERR_USAGE", st.msg, data, size);
        if (st.code == GP_ERR_USAGE && strncmp(st.msg, NAME ":", strlen(NAME ":")))
            die("rejection whose message does not name the input", st.msg, data, size);
        return 0;
    }
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) {
        gp_json_free(&j);
        return 0;
    }
    write_tree(f, &j);
    fclose(f);
    st = gp_json_parse(out, outlen, NAME "-rewritten", &back);
    if (st.code != GP_OK) {
        fprintf(stderr, "written back as:\n%s\n", out);
        die("accepted JSON whose written form does not parse", st.msg, data, size);
    }
    if (!same_tree(&j, &back)) {
        fprintf(stderr, "written back as:\n%s\n", out);
        die("accepted JSON that changes in a write/parse round trip", "", data, size);
    }
    check_record(&j, data, size);
    gp_json_free(&back);
    gp_json_free(&j);
    free(out);
    return 0;
}
