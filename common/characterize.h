/* From probe records to the device's tuning table.
 *
 * The measured characteristics are read back from the records of a results
 * directory (<probe>.json), mapped onto table keys, and laid over the base
 * table for the device's arch (tables/<arch>, else tables/generic), so every
 * key a probe did not measure keeps its shipped value and provenance.  Kernel
 * parameters that follow from characteristics are set by named rules. */
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
gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_table *t,
                                char *base, size_t n, FILE *log);

/* Build the table and write it to <results_dir>/table.txt, then the report
 * (report.md, report.html, plots) into results_dir. */
gp_status gp_characterize_finish(const char *results_dir, const char *tables_dir, FILE *log);

#endif
