/* Kernel sections from the facts: what `gpuprobe table derive` and the
 * shipped-table test use.  Every kernel's rule (kernel.h "Rules") runs on the
 * table's facts; a value the input holds as `swept` stays (a timed sweep
 * outranks a rule); every other kernel value is the rule's. */
#ifndef GP_DERIVE_H
#define GP_DERIVE_H

#include <stdio.h>

#include "gp_status.h"
#include "kernel.h"
#include "table.h"

/* in: a table with its facts (kernel sections may be absent or partial, as
 * gp_table_load_facts reads them).  out: complete and valid. */
gp_status gp_kernel_derive(const gp_table *in, int use_device, gp_table *out);

/* Load in_path as a facts table, derive, and write the result with the
 * input's leading comment lines to out_path (atomically), or to `out` when
 * out_path is NULL.  Bad facts: GP_ERR_USAGE naming FILE:LINE or the key. */
gp_status gp_table_derive_file(const char *in_path, const char *out_path, FILE *out);

/* The provenance this binary can stand behind: every `rule NAME` names a
 * rule function it has, gp_<k>_rule for a registered kernel k, and a kernel
 * key's is its own kernel's; a kernel key is never `assumed` (it comes from
 * its rule or a sweep).  GP_ERR_USAGE naming "FILE:LINE: section.key". */
gp_status gp_table_check_rules(const gp_table *t, const char *path);

/* `gpuprobe table check FILE`: gp_table_load, every kernel's check_table,
 * then gp_table_check_rules. */
gp_status gp_table_check_file_rules(const char *path);

#endif
