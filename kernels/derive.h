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

/* The kernel.<k> values one launch uses (kernel.h "Rules"): t's, except
 * that where a value's provenance is the kernel's own rule (rule
 * gp_<k>_rule) and the rule, run on t's facts for its headline problem,
 * reproduces t's values (they came from these facts), the rule runs again
 * for this problem's shape and its values are used.  A swept value stays:
 * it was swept for its problem class.  Values the rule does not reproduce
 * (another device's parameters next to this device's facts: a mistuned or
 * the generic table in `bench`) are launched as they are.  out: a copy of t
 * with those values; note (n bytes): what happened, for the bench row ("rule
 * for this problem: tile_y 128->32"; "" when nothing is the rule's). */
gp_status gp_kernel_params_for_shape(const gp_table *t, const char *k, gp_kernel_rule_fn rule,
                                     const gp_rule_shape *shape, int use_device, gp_table *out, char *note,
                                     size_t n);

/* The provenance this binary can stand behind: every `rule NAME` names a
 * rule function it has, gp_<k>_rule for a registered kernel k, and a kernel
 * key's is its own kernel's; a kernel key is never `assumed` (it comes from
 * its rule or a sweep).  GP_ERR_USAGE naming "FILE:LINE: section.key". */
gp_status gp_table_check_rules(const gp_table *t, const char *path);

/* `gpuprobe table check FILE`: gp_table_load, then gp_table_check_rules. */
gp_status gp_table_check_file_rules(const char *path);

#endif
