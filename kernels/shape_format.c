/* Declared shape syntaxes (shape_format.h). */
#include "shape_format.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "data.h"

/* " word" at *rest (a word that starts with a comma: "word"), ending the
 * spec or followed by a space or a comma (a kind's); *rest moves past it. */
static int eat_word(const char **rest, const char *word)
{
    const size_t l = strlen(word);
    const char *r = *rest + (word[0] != ',');
    if ((word[0] != ',' && (*rest)[0] != ' ') || strncmp(r, word, l) || (r[l] && r[l] != ' ' && r[l] != ','))
        return 0;
    *rest = r + l;
    return 1;
}

static int parse_dims(const gp_shape_format *f, const char *spec, long long *d, const char **rest)
{
    int n = 0;
    if (f->count)
        return gp_label_pow2(spec, d, rest) || gp_label_dims(spec, d, 1, rest);
    if (f->cube && sscanf(spec, "%lld^3%n", &d[0], &n) == 1 && n > 0) {
        d[1] = d[2] = d[0], *rest = spec + n;
        return 1;
    }
    return gp_label_dims(spec, d, f->ndims, rest);
}

gp_status gp_shape_format_parse(const gp_shape_format *f, const char *kernel, const char *syntax, const char *spec,
                                gp_shape *s)
{
    const char *rest = "";
    memset(s, 0, sizeof *s);
    int ok = parse_dims(f, spec, s->d, &rest);
    for (int i = 0; ok && i < f->ndims; i++)
        ok = s->d[i] >= 1 && (!f->max || s->d[i] <= f->max);
    for (int g = 0; ok && g < 2; g++)
        for (int k = 0; k < GP_SHAPE_WORDS && f->words[g].w[k]; k++)
            if (eat_word(&rest, f->words[g].w[k]) || (f->brief[g][k] && eat_word(&rest, f->brief[g][k]))) {
                if (f->words[g].slot >= 0)
                    s->opt[f->words[g].slot] = k;
                break;
            }
    for (int k = 0; ok && k < f->nkinds; k++)
        if (f->kinds[k][0] && eat_word(&rest, f->kinds[k]))
            break;
    if (!ok || *rest)
        return gp_fail(GP_ERR_USAGE, "%s: shape '%s' is not %s", kernel, spec, syntax);
    return gp_ok();
}

void gp_shape_format_label(const gp_shape_format *f, const gp_shape *s, char *buf, size_t n)
{
    char words[64] = "";
    for (int g = 0; g < 2 && f->words[g].w[0]; g++) {
        const int k = f->words[g].slot >= 0 ? s->opt[f->words[g].slot] : 0;
        const size_t len = strlen(words);
        snprintf(words + len, sizeof words - len, "%s%s", g ? " " : "",
                 k >= 0 && k < GP_SHAPE_WORDS && f->words[g].w[k] ? f->words[g].w[k] : "?");
    }
    if (f->count) {
        gp_label_count(buf, n, s->d[0], words);
        return;
    }
    int len = 0;
    const int cube = f->cube && s->d[0] == s->d[1] && s->d[1] == s->d[2];
    if (cube)
        len = snprintf(buf, n, "%lld^3", s->d[0]);
    for (int i = 0; !cube && i < f->ndims; i++) {
        const int w = snprintf(buf + len, n > (size_t)len ? n - (size_t)len : 0, "%s%lld", i ? "x" : "", s->d[i]);
        len += w > 0 ? w : 0;
    }
    if (words[0] && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, " %s", words);
}

void gp_shape_format_random(const gp_shape_format *f, uint64_t *rng, gp_shape *s)
{
    long long elems;
    memset(s, 0, sizeof *s);
    do {
        elems = 1;
        for (int i = 0; i < f->ndims; i++)
            s->d[i] = gp_rand_dim(rng, f->lo[i], f->hi[i]), elems *= s->d[i];
    } while (f->max_elems && elems > f->max_elems);
    for (int g = 0; g < 2; g++) {
        int nw = 0;
        while (nw < GP_SHAPE_WORDS && f->words[g].w[nw])
            nw++;
        if (nw && f->words[g].slot >= 0)
            s->opt[f->words[g].slot] = gp_rand_pick(rng, nw);
    }
}

void gp_shape_format_case_label(const gp_shape_format *f, const gp_kcase *c, char *buf, size_t n)
{
    gp_shape_format_label(f, &c->shape, buf, n);
    const char *kind = c->data >= f->kind_from && c->data < f->nkinds ? f->kinds[c->data] : "";
    const size_t len = strlen(buf);
    if (kind[0] == ',' && len < n)
        snprintf(buf + len, n - len, "%s", kind);
    else if (kind[0])
        gp_label_append(buf, n, "%s", kind);
    if (c->offset || (kind[0] && f->kind_offset))
        gp_label_append(buf, n, "+%d elements", c->offset);
}

gp_status gp_work_model(gp_kernel_work *w, double bytes, double flops, const char *fmt, ...)
{
    va_list ap;
    w->bytes = bytes, w->flops = flops;
    va_start(ap, fmt);
    vsnprintf(w->method, sizeof w->method, fmt, ap);
    va_end(ap);
    return gp_ok();
}

int gp_kcase_add(gp_kcase *out, int n, int max, gp_kcase c)
{
    if (n < max)
        out[n++] = c;
    return n;
}

void gp_label_append(char *buf, size_t n, const char *fmt, ...)
{
    const size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    buf[len] = ' ';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len + 1, n - len - 1, fmt, ap);
    va_end(ap);
}
