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
#include "kernel.h"
#include "padding.h"
#include "rule.h"

#define RULE "gp_padding_rule"
/* Registers per thread the occupancy model assumes: the variants up to 8
 * channels stay within it (ptxas sm_90: 12..32); the 16-channel variant uses
 * 46, so a rule choice of 16 overstates its residency. */
#define PADDING_REGS 32
/* channels_per_thread when the DRAM facts are none. */
#define PADDING_CPT_STANDIN 4

gp_status gp_padding_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"padding",          RULE, "channels_per_thread", PADDING_REGS, 4.0,
                              GP_PADDING_MAX_CPT, GP_PADDING_MAX_BLOCK, PADDING_CPT_STANDIN};
    return gp_rule_streaming(in->facts, &s, out);
}
