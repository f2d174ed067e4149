/* From probe records to the device's tuning table.
 *
 * The measured characteristics are read back from the records of a results
 * directory (<probe>.json), mapped onto table keys by each probe's own
 * table rows (gp_probe.table_rows in microbench/<probe>.c), and laid over the base
 * table for the device's arch (tables/<arch>, else tables/generic), so every
 * key a probe did not measure keeps its shipped value and provenance.  Kernel
 * parameters that follow from characteristics are set by named rules. */
#ifndef GP_CHARACTERIZE_H
#define GP_CHARACTERIZE_H

#include <stddef.h>

#include "gp_status.h"
#include "table.h"

/* Build the table from the records in results_dir over the base table found
 * in tables_dir.  `base` (size n, may be NULL) gets the base table's path.
 * Notes on what was kept, set none or ruled go to `log` (may be NULL). */
gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_table *t,
                                char *base, size_t n, FILE *log);

/* Build the table and write it to <results_dir>/table.txt.  The report is
 * a separate step (report.h), run after this one by app/. */
gp_status gp_characterize_write(const char *results_dir, const char *tables_dir, FILE *log);

#endif
