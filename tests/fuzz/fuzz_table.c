/* libFuzzer target: the tuning-table parser (gp_table_parse).
 *
 * Properties checked on every input:
 *   - no crash, no hang, no sanitizer report (ASan + UBSan in the fuzz preset);
 *   - a rejected table gets GP_ERR_USAGE and a message that names the input
 *     ("fuzz:LINE: reason" or "fuzz: reason"), never an empty one;
 *   - an accepted table writes back (gp_table_write_file) into text that parses
 *     again to an equal table: what the parser accepts, the writer can keep.
 * The file loader refuses NUL bytes before parsing, so the text given to the
 * parser ends at the first NUL, as it would from gp_table_load. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define NAME "fuzz"

static void die(const char *what, const gp_status *st, const char *text)
{
    fprintf(stderr, "fuzz_table: %s (code %d, message '%s')\ninput:\n%s\n", what, st->code, st->msg, text);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gp_table t, back; /* ~50 KB each: off the stack */
    if (size > GP_TABLE_MAX_FILE)
        return 0; /* gp_table_load refuses these before parsing */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    gp_status st = gp_table_parse(&t, text, NAME);
    if (st.code != GP_OK) {
        if (st.code != GP_ERR_USAGE)
            die("rejection with a code other than GP_ERR_USAGE", &st, text);
        if (!st.msg[0])
            die("rejection with an empty message", &st, text);
        if (strncmp(st.msg, NAME ":", strlen(NAME ":")) != 0)
            die("rejection whose message does not name the input", &st, text);
        free(text);
        return 0;
    }
    /* Accepted: it must survive a write and a re-parse unchanged. */
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) {
        free(text);
        return 0;
    }
    gp_status ws = gp_table_write_file(&t, f);
    fclose(f);
    if (ws.code != GP_OK)
        die("accepted table that the writer refuses", &ws, text);
    gp_status rs = gp_table_parse(&back, out, NAME "-rewritten");
    if (rs.code != GP_OK) {
        fprintf(stderr, "written back as:\n%s\n", out);
        die("accepted table whose written form does not parse", &rs, text);
    }
    if (!gp_table_equal(&t, &back)) {
        fprintf(stderr, "written back as:\n%s\n", out);
        die("accepted table that changes in a write/parse round trip", &rs, text);
    }
    free(out);
    free(text);
    return 0;
}
