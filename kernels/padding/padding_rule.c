/* gp_padding_rule: every kernel.padding parameter from the device facts.
 *
 * items_per_thread (Little's law): to stream at the DRAM bandwidth B with
 * latency L, B x L bytes must be in flight, B x L / CUs per CU.  A CU keeps
 * the threads the occupancy model grants at PADDING_REGS registers resident;
 * each thread's items_per_thread outputs issue their loads before its stores,
 * but only the outputs inside the input load (a fraction f of them: the
 * headline problem, 7 x 7 planes padded by 3 to 13 x 13, has f = 49 / 169),
 * so a thread has f x items 4-byte loads outstanding:
 *     items_per_thread = ceil_pow2(B L / (CUs x threads per CU x 4 B x f)),
 * between 4 and GP_PADDING_MAX_ITEMS.  Without the DRAM facts (none) the
 * stand-in is 8, the middle of the compiled 4..16.
 * block: the smallest block the launch-rate probe saw reach the peak
 * (launch.min_block_for_peak, stand-in 256), as a power of two below it,
 * 64..1024.
 * planes_per_block: 0 (the flat kernel): the staged kernel's paired run
 * against the copy (H200, 2026-11-24, tools/device_bw.sh OUT exp) found no
 * gain where it was meant to help (7x7 + 3: its best P64 b256 0.906 and P128
 * b512 with streaming stores 0.909, the flat kernel 0.909-0.914, the same
 * within the rounds' p10-p90) and a loss on large planes (56x56: 0.67-0.84
 * against 0.97-1.00), so gathered 4-byte loads are not where the flat
 * kernel's time goes; tune still offers it.  The models:
 * docs/kernels/padding.md. */
#include "kernel.h"
#include "padding.h"
#include "rule.h"

#define RULE "gp_padding_rule"
/* Registers per thread the occupancy model assumes: ptxas sm_90 uses 30, 32
 * and 42 at 4, 8 and 16 items (tests/build/rule_regs.txt checks it). */
#define PADDING_REGS 48
/* items_per_thread when the DRAM facts are none. */
#define PADDING_ITEMS_STANDIN 8
/* The headline problem's share of outputs that load: 7 x 7 of 13 x 13. */
#define HEADLINE_INSIDE (49.0 / 169.0)

gp_status gp_padding_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"padding",
                              RULE,
                              "items_per_thread",
                              PADDING_REGS,
                              4.0 * HEADLINE_INSIDE,
                              GP_PADDING_MAX_ITEMS,
                              GP_PADDING_MAX_BLOCK,
                              PADDING_ITEMS_STANDIN,
                              GP_PADDING_MIN_ITEMS};
    GP_TRY(gp_rule_streaming(in->facts, &s, out));
    /* planes_per_block: the staged kernel (whole planes through shared
     * memory, every global access 16 bytes) measured no faster than the flat
     * one on the 7x7 case and slower on 56x56 (the comment above): 0. */
    return gp_rule_set(out, "padding", "planes_per_block", 0, "paired",
                       "H200 2026-11-24 vs the copy: staged best 0.906-0.909, flat 0.909-0.914 (7x7+3); "
                       "staged <= 0.84, flat >= 0.97 (56x56) -> 0 (flat)");
}
