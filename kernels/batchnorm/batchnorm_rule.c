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
#include <stdio.h>

#include "batchnorm.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_batchnorm_rule"
#define BN_REGS 32
/* items_per_thread when the DRAM facts are none. */
#define BN_ITEMS_STANDIN 2

gp_status gp_batchnorm_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), 64, GP_BN_MAX_BLOCK);
    GP_TRY(gp_rule_set(out, "batchnorm", "block", block, "launch",
                       "launch.min_block_for_peak %.0f%s -> %lld threads (power of 2, 64..%d)", f.min_block.v,
                       f.min_block.have ? "" : " (none: 256)", block, GP_BN_MAX_BLOCK));

    long long threads = gp_rule_blocks_per_cu(&f.cu, block, BN_REGS, 0) * block;
    char why[200];
    double loads = gp_rule_loads_in_flight(&f, threads, 16.0, why, sizeof why);
    long long items = loads > 0 ? gp_rule_clamp(gp_rule_ceil_pow2((long long)(loads + 0.999999)), 1, GP_BN_MAX_ITEMS)
                                : BN_ITEMS_STANDIN;
    GP_TRY(gp_rule_set(out, "batchnorm", "items_per_thread", items, "little", "%s -> %lld%s%s%s", why, items,
                       loads > 0 ? "" : " (stand-in)", f.cu.fallback[0] ? "; " : "", f.cu.fallback));
    return gp_ok();
}
