/* The shape syntax most kernels share, declared rather than coded:
 * "AxBx... [word] [word]" (or "N" / "2^K" for a count, "N^3" for a cube),
 * each word group optional on input, its first word the default, and
 * always written by the label, so a label reads back as the same shape.
 * A kernel whose syntax is its own (gemm's leading dimensions, conv2d's
 * kernel and padding, spmv's generated matrices) keeps its own functions.
 * Also what the bench files (<k>_bench.c) would otherwise each write out:
 * a case's label and its work model's result (its buffers: kmem.h). */
#ifndef GP_SHAPE_FORMAT_H
#define GP_SHAPE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"
#include "kmem.h"

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
    /* Short forms a spec may give for words[g].w[k], which labels write in
     * full ("u8" for "u8, 256 bins"); NULL: none. */
    const char *brief[2][GP_SHAPE_WORDS];
    /* The names of the data kinds (gp_kcase.data): one may end a spec (read
     * and not stored, the data being no part of the shape), and a case
     * label names the kinds from kind_from on (1: the default kind 0 left
     * unnamed), after a space, or right after the shape where the name
     * starts with a comma (", in place").  kind_offset 1: a named kind
     * comes with its offset, "+0 elements" too. */
    const char *const *kinds;
    int nkinds, kind_from, kind_offset;
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
/* The label of c's shape, its data kind's name (as kinds above) and
 * "+N elements" where it has an offset: "2^30 u8, 256 bins skewed 90%",
 * "1000 fp32 inclusive, in place +2 elements". */
void gp_shape_format_case_label(const gp_shape_format *f, const gp_kcase *c, char *buf, size_t n);

/* A work function's result (kernel.h, gp_kernel.work): w's bytes and flops,
 * its method from fmt. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
gp_status gp_work_model(gp_kernel_work *w, double bytes, double flops, const char *fmt, ...);

/* Append c to out (room for max) where there is room; the new count. */
int gp_kcase_add(gp_kcase *out, int n, int max, gp_kcase c);

/* " " and the text of fmt appended to buf (n bytes) where it fits: the
 * data kind or offset a case label adds to its shape. */
void gp_label_append(char *buf, size_t n, const char *fmt, ...);

#endif
