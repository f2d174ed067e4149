/* Kernel parameters, declared once.
 *
 * Each kernel lists the parameters of its [kernel.<k>] table section in one
 * file, kernels/<k>/<k>_params.inc, one line per parameter:
 *
 *   GP_PARAM(k, key, "unit", min, max, default, flags, "what it means")
 *
 * k and key are bare words; min..max is the inclusive range any valid value
 * lies in; default is the value a table without the key launches with (a key
 * with GP_TK_REQUIRED in flags has none: a table must carry it); flags are
 * the GP_TK_* of common/table_keys.h.  Every parameter is an integer.  From
 * that one list come
 *   - the schema rows of the tuning table (common/table_keys.c includes every
 *     kernel's file through a list the top-level CMakeLists.txt generates),
 *   - the kernel's parameter struct (one int field per key, GP_PARAM_FIELD),
 *   - the reader with the defaults (gp_params_read), the formatter
 *     (gp_params_format) and the variants' rows (gp_params_set_row), through
 *     the descriptor array each kernel builds with GP_PARAM_DESC.
 * A kernel's struct may hold more after the declared fields: what its fit
 * function derives (a grid, a note of what was clamped).
 *
 * The one path from a table to a launch's parameters, for a problem's shape,
 * is gp_kernel_params (kernel.h). */
#ifndef GP_PARAMS_H
#define GP_PARAMS_H

#include <stddef.h>

#include "gp_status.h"

struct gp_table;

/* One declared parameter, as the reader and formatter see it. */
typedef struct gp_param {
    const char *key;
    long long min, max;
    long long dflt;     /* for a table without the key (not for GP_TK_REQUIRED keys) */
    unsigned flags;     /* GP_TK_* */
    size_t offset;      /* of its int field in the kernel's parameter struct */
} gp_param;

/* The GP_TK_* flags, for the declarations (common/table_keys.h). */
#ifndef GP_TK_REQUIRED
#define GP_TK_REQUIRED 0x01u
#define GP_TK_POW2 0x04u
#endif

/* In a struct definition: one int per declared key. */
#define GP_PARAM_FIELD(k, key, unit, lo, hi, dflt, flags, doc) int key;
/* In a gp_param array: the descriptor of key `key` of struct type T.  A
 * kernel builds its array by defining GP_PARAM as GP_PARAM_ROW with its own
 * T and including its <k>_params.inc (kernels/_template/_template.c). */
#define GP_PARAM_ROW(T, key, lo, hi, dflt, flags) {#key, (lo), (hi), (dflt), (flags), offsetof(T, key)}

/* A variant row's value that keeps the base parameters' own (spmv keeps the
 * rule's scalar_max_row while it varies the block). */
#define GP_PARAM_KEEP (-1)

/* The values a table holds for a kernel's parameters into the struct at p
 * (nparams descriptors of `desc`): a present key's value, else its default;
 * a required key that is absent is GP_ERR_USAGE naming [kernel.<k>] key.  A
 * value outside the declared range (possible only for a table built in
 * memory) is clamped to it.  The fields after the declared ones are left as
 * they are. */
gp_status gp_params_read(const char *kernel, const gp_param *desc, int nparams, const struct gp_table *t, void *p);

/* "tile=64 pad=1 block_rows=8": every declared key = its value. */
void gp_params_format(const gp_param *desc, int nparams, const void *p, char *buf, size_t n);

/* 1 when a and b agree on every declared key. */
int gp_params_same(const gp_param *desc, int nparams, const void *a, const void *b);

/* The declared keys of p set to row[0..nparams) (GP_PARAM_KEEP keeps p's). */
void gp_params_set_row(const gp_param *desc, int nparams, void *p, const int *row);

/* p's declared values into [kernel.<k>] of t with provenance `prov`. */
gp_status gp_params_to_table(const char *kernel, const gp_param *desc, int nparams, const void *p,
                             struct gp_table *t, const char *prov);

/* The value of key `key` in p (a declared key), or -1 when it is not one. */
int gp_params_get(const gp_param *desc, int nparams, const void *p, const char *key);

#endif
