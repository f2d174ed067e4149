/* A small strict JSON reader (RFC 8259): enough to read back the records that
 * record.c writes, so a report can be made from a results directory long
 * after the probes ran.  No comments, no trailing commas, no NaN, no member
 * name twice in one object (which one a reader took would be a guess);
 * errors name the input and the line and column where parsing stopped.  A
 * number beyond the range of a double reads as +-HUGE_VAL, not an error
 * here: the record check then names the member that holds it. */
#ifndef GP_JSON_READ_H
#define GP_JSON_READ_H

#include <stddef.h>

#include "gp_status.h"

typedef enum gp_json_type {
    GP_JSON_NULL,
    GP_JSON_BOOL,
    GP_JSON_NUM,
    GP_JSON_STR,
    GP_JSON_ARR,
    GP_JSON_OBJ
} gp_json_type;

typedef struct gp_json {
    gp_json_type type;
    char *key;              /* member name when inside an object, else NULL */
    double num;             /* NUM; BOOL: 0 or 1 */
    char *str;              /* STR: UTF-8, NUL-terminated (an embedded \u0000 ends it) */
    struct gp_json *kids;   /* ARR elements or OBJ members, in input order */
    size_t nkids;
    size_t off;             /* byte offset in the input: of the member name inside an
                             * object, else of the value */
} gp_json;

/* Parse `len` bytes of `text`; `name` (a file name) prefixes error messages
 * as "name:line:col: ...".  On success *out owns the tree: gp_json_free it. */
gp_status gp_json_parse(const char *text, size_t len, const char *name, gp_json *out);
/* Read and parse a whole file. */
gp_status gp_json_read_file(const char *path, gp_json *out);
void gp_json_free(gp_json *j);

/* Member `key` of object `obj` (the first one), or NULL (also when obj is not an object). */
const gp_json *gp_json_get(const gp_json *obj, const char *key);
/* Typed accessors with a default for a missing member or a different type;
 * gp_json_num_of gives NAN for null. */
const char *gp_json_str_of(const gp_json *obj, const char *key, const char *dflt);
double gp_json_num_of(const gp_json *obj, const char *key, double dflt);
int gp_json_bool_of(const gp_json *obj, const char *key, int dflt);

#endif
