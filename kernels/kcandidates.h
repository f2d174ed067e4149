/* Tune candidates as data (gp_kernel.candidates, kernel.h): a kernel names
 * the keys of its [kernel.<k>] section that its variants set and gives one
 * row of values per variant; gp_kcand_make turns that into the list tune
 * times: the base table's own values first, then one copy of the base per
 * row with that row's values set, each validated. */
#ifndef GP_KCANDIDATES_H
#define GP_KCANDIDATES_H

#include "gp_status.h"
#include "table.h"

#define GP_KCAND_MAX_KEYS 8
/* A row's value that keeps the base table's (spmv's scalar_max_row). */
#define GP_KCAND_KEEP (-1)

typedef struct gp_kcand_keys {
    const char *kernel;                   /* "ssim": its section is kernel.ssim */
    int nkeys;                            /* 1..GP_KCAND_MAX_KEYS */
    const char *keys[GP_KCAND_MAX_KEYS];  /* the keys each row sets, in row order */
    const char *prov;                     /* the provenance of a set value; NULL: "rule tune_candidate" */
} gp_kcand_keys;

/* out[0] = *base, then out[1 + r] = *base with rows[r * nkeys + j] set for
 * keys[j] (GP_KCAND_KEEP: base's value stays), validated as "<kernel>
 * candidate"; at most `max` tables in all (none for max < 1), *n the count.
 * A row that equals another, or the base, is still offered (the count is the
 * kernel's, not the values'): a kernel that wants it left out leaves it out
 * of its rows.  GP_ERR_USAGE for keys outside 1..GP_KCAND_MAX_KEYS, a
 * negative row count, or a value the key's range refuses (naming it). */
gp_status gp_kcand_make(const gp_kcand_keys *keys, const gp_table *base, const int *rows, int nrows,
                        gp_table *out, int max, int *n);

#endif
