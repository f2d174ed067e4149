/* gp_padding_rule: every kernel.padding parameter from the device facts.
 *
 * channels_per_thread (Little's law): to stream at the DRAM bandwidth B with
 * latency L, B x L bytes must be in flight, B x L / CUs per CU.  A CU keeps
 * the threads the occupancy model grants at PADDING_REGS registers resident,
 * each with channels_per_thread 4-byte loads outstanding before its stores, so
 *     channels_per_thread = ceil_pow2(B L / (CUs x threads per CU x 4 B)),
 * between 1 and GP_PADDING_MAX_CPT.  Without the DRAM facts (none) the
 * stand-in is 4, the middle of the compiled 1..16.
 * block: the smallest block the launch-rate probe saw reach the peak
 * (launch.min_block_for_peak, stand-in 256), as a power of two below it,
 * 64..1024.  The models: docs/kernels/padding.md. */
#include <stdio.h>

#include "kernel.h"
#include "padding.h"
#include "rule.h"

#define RULE "gp_padding_rule"
/* Registers per thread the kernel stays within (16 channels: ~30). */
#define PADDING_REGS 32
/* channels_per_thread when the DRAM facts are none. */
#define PADDING_CPT_STANDIN 4

gp_status gp_padding_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), 64, GP_PADDING_MAX_BLOCK);
    GP_TRY(gp_rule_set(out, "padding", "block", block, "launch",
                       "launch.min_block_for_peak %.0f%s -> %lld threads (power of 2, 64..%d)", f.min_block.v,
                       f.min_block.have ? "" : " (none: 256)", block, GP_PADDING_MAX_BLOCK));

    long long threads = gp_rule_blocks_per_cu(&f.cu, block, PADDING_REGS, 0) * block;
    char why[200];
    double loads = gp_rule_loads_in_flight(&f, threads, 4.0, why, sizeof why);
    long long cpt = loads > 0 ? gp_rule_clamp(gp_rule_ceil_pow2((long long)(loads + 0.999999)), 1, GP_PADDING_MAX_CPT)
                              : PADDING_CPT_STANDIN;
    GP_TRY(gp_rule_set(out, "padding", "channels_per_thread", cpt, "little", "%s -> %lld%s%s%s", why, cpt,
                       loads > 0 ? "" : " (stand-in)", f.cu.fallback[0] ? "; " : "", f.cu.fallback));
    return gp_ok();
}
