/* From probe records to the device's tuning table.
 *
 * The measured characteristics are read back from the records of a results
 * directory (<probe>.json), mapped onto table keys by each probe's own
 * table rows (gp_probe.table_rows in microbench/<probe>.c), and laid over the base
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

/* Build the table from the records in results_dir over the base table found
 * in tables_dir.  `base` (size n, may be NULL) gets the base table's path.
 * Notes on what was kept, set none or ruled go to `log` (may be NULL). */
/* The kernel rules: every kernel.* key of `out` from the facts of `facts`
 * (out may be facts).  The kernels sit above common/, so the caller passes
 * them in (app: gp_kernel_rules_apply). */
typedef gp_status (*gp_char_rules_fn)(const gp_table *facts, gp_table *out);

gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                gp_table *t, char *base, size_t n, FILE *log);

/* The same, as the text of its table.txt in *text (malloc'd; free it):
 * what `report` and `characterize` write beside the report, in one output
 * set with it, after every record was checked. */
gp_status gp_characterize_text(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                               char **text, char *base, size_t n, FILE *log);

/* Build the table and write it to <results_dir>/table.txt.  The report is
 * a separate step (report.h), run after this one by app/. */
gp_status gp_characterize_write(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                FILE *log);

#endif
