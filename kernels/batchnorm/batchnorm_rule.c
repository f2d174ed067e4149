/* gp_batchnorm_rule: every kernel.batchnorm parameter from the device facts.
 *
 * items_per_thread (Little's law, as for padding but with 16-byte loads):
 * B x L bytes in flight over the CUs, each keeping the threads the occupancy
 * model grants at BN_REGS registers resident:
 *     items = ceil_pow2(B L / (CUs x threads per CU x 16 B)), 1..8.
 * Without the DRAM facts (none) the stand-in is 2 loads.
 * block: launch.min_block_for_peak (stand-in 256) as a power of two below
 * it, 64..1024.  Blocks per channel are not a table value: they follow from
 * the shape and the device's resident blocks at run time
 * (gp_batchnorm_split).  The models: docs/kernels/batchnorm.md. */
#include "batchnorm.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_batchnorm_rule"
/* Registers per thread the occupancy model assumes (ptxas sm_90: the stats
 * kernels 32..54, the apply kernels 15..82 by items and vector width, so the
 * wider variants are resident less than the model says). */
#define BN_REGS 32
/* items_per_thread when the DRAM facts are none. */
#define BN_ITEMS_STANDIN 2

gp_status gp_batchnorm_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"batchnorm",     RULE, "items_per_thread", BN_REGS, 16.0,
                              GP_BN_MAX_ITEMS, GP_BN_MAX_BLOCK, BN_ITEMS_STANDIN, 1};
    return gp_rule_streaming(in->facts, &s, out);
}
