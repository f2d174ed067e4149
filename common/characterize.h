/* From probe records to the device's tuning table.
 *
 * The measured characteristics are read back from the records of a results
 * directory (<probe>.json), mapped onto table keys, and laid over the base
 * table for the device's arch (tables/<arch>, else tables/generic), so every
 * fact a probe did not measure keeps its shipped value and provenance.  Every
 * kernel parameter is then derived from the facts by the kernels' rules
 * (kernels/kernel.h "Rules"), and only a sweep of this device (`swept` in
 * <results_dir>/table.txt) outranks a rule. */
#ifndef GP_CHARACTERIZE_H
#define GP_CHARACTERIZE_H

#include <stddef.h>

#include "gp_status.h"
#include "table.h"

/* One mapping from a probe's record value to a table key. */
typedef struct gp_char_map {
    const char *probe, *value_key;
    const char *section, *table_key;
} gp_char_map;

/* The mapping, for docs and tests. */
const gp_char_map *gp_char_map_at(size_t i);

/* Build the table from the records in results_dir over the base table found
 * in tables_dir.  `base` (size n, may be NULL) gets the base table's path.
 * Notes on what was kept, set none or ruled go to `log` (may be NULL). */
/* The kernel rules: every kernel.* key of `out` from the facts of `facts`
 * (out may be facts).  The kernels sit above common/, so the caller passes
 * them in (app: gp_kernel_rules_apply). */
typedef gp_status (*gp_char_rules_fn)(const gp_table *facts, gp_table *out);

gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                gp_table *t, char *base, size_t n, FILE *log);

/* Build the table and write it to <results_dir>/table.txt, then the report
 * (report.md, report.html, plots) into results_dir. */
gp_status gp_characterize_finish(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                 FILE *log);

#endif
