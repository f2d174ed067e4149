/* Tune candidates from a key list and rows of values: see kcandidates.h. */
#include "kcandidates.h"

#include <stdio.h>

gp_status gp_kcand_make(const gp_kcand_keys *keys, const gp_table *base, const int *rows, int nrows,
                        gp_table *out, int max, int *n)
{
    *n = 0;
    if (keys->nkeys < 1 || keys->nkeys > GP_KCAND_MAX_KEYS || nrows < 0 || (nrows > 0 && !rows))
        return gp_fail(GP_ERR_USAGE, "%s candidates: %d keys (need 1..%d) and %d rows", keys->kernel, keys->nkeys,
                       GP_KCAND_MAX_KEYS, nrows);
    if (max < 1)
        return gp_ok();
    char section[64], what[64];
    snprintf(section, sizeof section, "kernel.%s", keys->kernel);
    snprintf(what, sizeof what, "%s candidate", keys->kernel);
    const char *prov = keys->prov ? keys->prov : "rule tune_candidate";
    out[(*n)++] = *base;
    for (int r = 0; r < nrows && *n < max; r++) {
        gp_table *c = &out[*n];
        *c = *base;
        for (int j = 0; j < keys->nkeys; j++)
            if (rows[r * keys->nkeys + j] != GP_KCAND_KEEP)
                GP_TRY(gp_table_set(c, section, keys->keys[j], rows[r * keys->nkeys + j], prov));
        GP_TRY(gp_table_validate(c, what));
        (*n)++;
    }
    return gp_ok();
}
