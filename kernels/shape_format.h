/* The shape syntax most kernels share, declared rather than coded:
 * "AxBx... [word] [word]" (or "N" / "2^K" for a count, "N^3" for a cube),
 * each word group optional on input, its first word the default, and
 * always written by the label, so a label reads back as the same shape.
 * A kernel whose syntax is its own (gemm's leading dimensions, conv2d's
 * kernel and padding, spmv's generated matrices) keeps its own functions. */
#ifndef GP_SHAPE_FORMAT_H
#define GP_SHAPE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

#define GP_SHAPE_WORDS 4

/* One word group: the words of gp_shape.opt[slot] (its value the word's
 * index); slot -1: one fixed word ("fp32") that nothing stores. */
typedef struct gp_shape_words {
    int slot;
    const char *w[GP_SHAPE_WORDS];
} gp_shape_words;

typedef struct gp_shape_format {
    int ndims;           /* gp_shape.d[0 .. ndims) */
    int count;           /* one dim, written N or 2^K (labelled 2^K where it is a power of 2) */
    int cube;            /* three dims, also written N^3 (labelled so when equal) */
    long long max;       /* each dim at most this (0: no bound) */
    gp_shape_words words[2];
    /* Random shapes: dim i drawn in lo[i] .. hi[i] (gp_rand_dim), all again
     * until their product is at most max_elems (0: any), then each group's
     * word picked. */
    long long lo[4], hi[4], max_elems;
} gp_shape_format;

/* spec into s; GP_ERR_USAGE "<kernel>: shape '<spec>' is not <syntax>". */
gp_status gp_shape_format_parse(const gp_shape_format *f, const char *kernel, const char *syntax, const char *spec,
                                gp_shape *s);
void gp_shape_format_label(const gp_shape_format *f, const gp_shape *s, char *buf, size_t n);
void gp_shape_format_random(const gp_shape_format *f, uint64_t *rng, gp_shape *s);

/* Append c to out (room for max) where there is room; the new count. */
int gp_kcase_add(gp_kcase *out, int n, int max, gp_kcase c);

/* " " and the text of fmt appended to buf (n bytes) where it fits: the
 * data kind or offset a case label adds to its shape. */
void gp_label_append(char *buf, size_t n, const char *fmt, ...);

#endif
