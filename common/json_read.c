#define _POSIX_C_SOURCE 200809L
#include "json_read.h"

#include "fsutil.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records are small; a file far larger than any record is not one, and a
 * bound keeps a stray multi-gigabyte file from being slurped into memory. */
#define JSON_MAX_FILE (64u << 20)
/* Nesting bound: records nest 3 deep; the bound keeps recursion finite on
 * hostile input. */
#define JSON_MAX_DEPTH 64

typedef struct parser {
    const char *s;
    size_t len, pos;
    const char *name;
    int depth;
    gp_status err;
} parser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(parser *p, const char *fmt, ...)
{
    if (p->err.code != GP_OK)
        return 0;
    int line = 1, col = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++) {
        if (p->s[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    p->err = gp_fail(GP_ERR_USAGE, "%s:%d:%d: %s", p->name, line, col, what);
    return 0;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static int peek(parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

/* Describe the character at the current position for an error message. */
static const char *found(parser *p, char buf[16])
{
    int c = peek(p);
    if (c < 0)
        return "end of input";
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", c);
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

static int parse_value(parser *p, gp_json *out);

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "invalid literal, expected '%s'", word);
    p->pos += n;
    return 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(parser *p, gp_json *out)
{
    size_t start = p->pos;
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0') {
        p->pos++;
    } else if (is_digit(peek(p))) {
        while (is_digit(peek(p)))
            p->pos++;
    } else {
        return fail(p, "invalid number: expected a digit");
    }
    if (peek(p) == '.') {
        p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "invalid number: expected a digit after '.'");
        while (is_digit(peek(p)))
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "invalid number: expected a digit in the exponent");
        while (is_digit(peek(p)))
            p->pos++;
    }
    char buf[64];
    size_t n = p->pos - start;
    if (n >= sizeof buf) {
        p->pos = start;
        return fail(p, "number too long");
    }
    memcpy(buf, p->s + start, n);
    buf[n] = '\0';
    out->type = GP_JSON_NUM;
    out->num = strtod(buf, NULL); /* grammar checked above; overflow gives +-HUGE_VAL */
    return 1;
}

static int hex4(parser *p, unsigned *v)
{
    if (p->len - p->pos < 4)
        return fail(p, "truncated \\u escape");
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(p, "invalid hex digit in \\u escape");
        *v = *v * 16 + d;
        p->pos++;
    }
    return 1;
}

static size_t put_utf8(char *dst, unsigned cp)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xc0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xe0 | (cp >> 12));
        dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    dst[0] = (char)(0xf0 | (cp >> 18));
    dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    dst[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Parse a string at the opening quote into a new heap buffer. */
static int parse_string(parser *p, char **out)
{
    p->pos++; /* opening quote */
    /* The decoded string is never longer than its source text. */
    size_t end = p->pos;
    while (end < p->len && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    char *buf = malloc(end - p->pos + 1);
    if (!buf) {
        p->err = gp_fail(GP_ERR_NOMEM, "%s: out of host memory", p->name);
        return 0;
    }
    size_t n = 0;
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            free(buf);
            return fail(p, "unterminated string");
        }
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            free(buf);
            return fail(p, "control character in string (must be escaped)");
        }
        if (c >= 0x80) {
            /* RFC 8259: text is UTF-8; ill-formed bytes are not a name or a note. */
            size_t k = gp_utf8_seq(p->s + p->pos, p->len - p->pos);
            if (k == 0) {
                free(buf);
                return fail(p, "invalid UTF-8 in string");
            }
            memcpy(buf + n, p->s + p->pos, k);
            n += k;
            p->pos += k;
            continue;
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        int e = peek(p);
        p->pos++;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (!hex4(p, &cp)) {
                free(buf);
                return 0;
            }
            if (cp >= 0xd800 && cp <= 0xdbff) {
                /* A high surrogate must be followed by an escaped low one. */
                if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
                    free(buf);
                    return fail(p, "unpaired surrogate in \\u escape");
                }
                p->pos += 2;
                if (!hex4(p, &lo)) {
                    free(buf);
                    return 0;
                }
                if (lo < 0xdc00 || lo > 0xdfff) {
                    free(buf);
                    return fail(p, "invalid low surrogate in \\u escape");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                free(buf);
                return fail(p, "unpaired surrogate in \\u escape");
            }
            /* \uXXXX is 6 source bytes; its UTF-8 is at most 4 (a pair: 12 -> 4). */
            n += put_utf8(buf + n, cp);
            break;
        }
        default:
            p->pos--;
            free(buf);
            return fail(p, "invalid escape in string");
        }
    }
    buf[n] = '\0';
    *out = buf;
    return 1;
}

static int push_kid(parser *p, gp_json *parent, size_t *cap, gp_json **slot)
{
    if (parent->nkids == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        gp_json *k = realloc(parent->kids, nc * sizeof *k);
        if (!k) {
            p->err = gp_fail(GP_ERR_NOMEM, "%s: out of host memory", p->name);
            return 0;
        }
        parent->kids = k;
        *cap = nc;
    }
    *slot = &parent->kids[parent->nkids++];
    memset(*slot, 0, sizeof **slot);
    return 1;
}

static int parse_array(parser *p, gp_json *out)
{
    size_t cap = 0;
    out->type = GP_JSON_ARR;
    p->pos++; /* [ */
    skip_ws(p);
    if (peek(p) == ']') {
        p->pos++;
        return 1;
    }
    for (;;) {
        gp_json *kid;
        if (!push_kid(p, out, &cap, &kid))
            return 0;
        if (!parse_value(p, kid))
            return 0;
        skip_ws(p);
        int c = peek(p);
        char fb[16];
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == ']') {
            p->pos++;
            return 1;
        }
        return fail(p, "expected ',' or ']' in array, found %s", found(p, fb));
    }
}

static int cmp_key(const void *a, const void *b)
{
    const gp_json *x = *(const gp_json *const *)a, *y = *(const gp_json *const *)b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->off > y->off) - (x->off < y->off);
}

/* 1-based line of byte offset off. */
static int line_of(const parser *p, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off && i < p->len; i++)
        line += p->s[i] == '\n';
    return line;
}

/* No member name twice: sorted by name (then by place), neighbours differ.
 * The error points at the later of the two. */
static int check_duplicates(parser *p, const gp_json *obj)
{
    if (obj->nkids < 2)
        return 1;
    const gp_json **v = malloc(obj->nkids * sizeof *v);
    if (!v) {
        p->err = gp_fail(GP_ERR_NOMEM, "%s: out of host memory", p->name);
        return 0;
    }
    for (size_t i = 0; i < obj->nkids; i++)
        v[i] = &obj->kids[i];
    qsort(v, obj->nkids, sizeof *v, cmp_key);
    const gp_json *first = NULL, *again = NULL;
    for (size_t i = 1; i < obj->nkids; i++)
        if (!strcmp(v[i - 1]->key, v[i]->key) && (!again || v[i]->off < again->off)) {
            first = v[i - 1];
            again = v[i];
        }
    free(v);
    if (!again)
        return 1;
    p->pos = again->off;
    return fail(p, "member \"%.60s\" given twice in one object (first at line %d)", again->key,
                line_of(p, first->off));
}

static int parse_object(parser *p, gp_json *out)
{
    size_t cap = 0;
    char fb[16];
    out->type = GP_JSON_OBJ;
    p->pos++; /* { */
    skip_ws(p);
    if (peek(p) == '}') {
        p->pos++;
        return 1;
    }
    for (;;) {
        skip_ws(p);
        if (peek(p) != '"')
            return fail(p, "expected a member name in quotes, found %s", found(p, fb));
        size_t key_off = p->pos;
        char *key;
        if (!parse_string(p, &key))
            return 0;
        gp_json *kid;
        if (!push_kid(p, out, &cap, &kid)) {
            free(key);
            return 0;
        }
        kid->key = key;
        kid->off = key_off;
        skip_ws(p);
        if (peek(p) != ':')
            return fail(p, "expected ':' after member name \"%.60s\", found %s", key, found(p, fb));
        p->pos++;
        if (!parse_value(p, kid))
            return 0;
        kid->off = key_off;
        skip_ws(p);
        int c = peek(p);
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == '}') {
            p->pos++;
            return check_duplicates(p, out);
        }
        return fail(p, "expected ',' or '}' in object, found %s", found(p, fb));
    }
}

static int parse_value(parser *p, gp_json *out)
{
    char fb[16];
    skip_ws(p);
    out->off = p->pos;
    if (++p->depth > JSON_MAX_DEPTH)
        return fail(p, "nesting deeper than %d", JSON_MAX_DEPTH);
    int ok;
    switch (peek(p)) {
    case '{': ok = parse_object(p, out); break;
    case '[': ok = parse_array(p, out); break;
    case '"':
        out->type = GP_JSON_STR;
        ok = parse_string(p, &out->str);
        break;
    case 't':
        out->type = GP_JSON_BOOL;
        out->num = 1;
        ok = literal(p, "true");
        break;
    case 'f':
        out->type = GP_JSON_BOOL;
        out->num = 0;
        ok = literal(p, "false");
        break;
    case 'n':
        out->type = GP_JSON_NULL;
        out->num = NAN;
        ok = literal(p, "null");
        break;
    default:
        if (peek(p) == '-' || is_digit(peek(p)))
            ok = parse_number(p, out);
        else
            ok = fail(p, "expected a value, found %s", found(p, fb));
    }
    p->depth--;
    return ok;
}

gp_status gp_json_parse(const char *text, size_t len, const char *name, gp_json *out)
{
    parser p = {text, len, 0, name ? name : "<json>", 0, gp_ok()};
    memset(out, 0, sizeof *out);
    char fb[16];
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        fail(&p, "starts with a UTF-8 byte-order mark (bytes EF BB BF): save the file without it");
    else if (parse_value(&p, out)) {
        skip_ws(&p);
        if (p.pos != p.len)
            fail(&p, "unexpected %s after the end of the value", found(&p, fb));
    }
    if (p.err.code != GP_OK) {
        gp_json_free(out);
        return p.err;
    }
    return gp_ok();
}

gp_status gp_json_read_file(const char *path, gp_json *out)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t n;
    GP_TRY(gp_fs_read_regular(path, JSON_MAX_FILE, "a record", &buf, &n));
    gp_status st = gp_json_parse(buf, n, path, out);
    free(buf);
    return st;
}

void gp_json_free(gp_json *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->nkids; i++)
        gp_json_free(&j->kids[i]);
    free(j->kids);
    free(j->key);
    free(j->str);
    memset(j, 0, sizeof *j);
}

const gp_json *gp_json_get(const gp_json *obj, const char *key)
{
    if (!obj || obj->type != GP_JSON_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->nkids; i++)
        if (obj->kids[i].key && strcmp(obj->kids[i].key, key) == 0)
            return &obj->kids[i];
    return NULL;
}

const char *gp_json_str_of(const gp_json *obj, const char *key, const char *dflt)
{
    const gp_json *v = gp_json_get(obj, key);
    return v && v->type == GP_JSON_STR ? v->str : dflt;
}

double gp_json_num_of(const gp_json *obj, const char *key, double dflt)
{
    const gp_json *v = gp_json_get(obj, key);
    if (!v)
        return dflt;
    if (v->type == GP_JSON_NUM)
        return v->num;
    if (v->type == GP_JSON_NULL)
        return NAN;
    return dflt;
}

int gp_json_bool_of(const gp_json *obj, const char *key, int dflt)
{
    const gp_json *v = gp_json_get(obj, key);
    return v && v->type == GP_JSON_BOOL ? (int)v->num : dflt;
}
