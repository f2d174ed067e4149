/* padding rule: the parameters from the device facts.
 *
 * channels_per_thread (Little's law): to stream at the DRAM bandwidth B with
 * latency L, B x L bytes must be in flight, B x L / CUs per CU.  A CU keeps
 * registers.per_cu / GP_PADDING_RULE_REGS threads resident (the kernel's
 * budget, checked by the build tests), each with channels_per_thread 4-byte
 * loads outstanding before its stores, so
 *     channels_per_thread = ceil_pow2(B L / (CUs x threads per CU x 4 B)),
 * between 1 and 16.  H200: 4342 GB/s x 332 ns = 1.44 MB, 10.9 KB per SM,
 * 2048 threads: 1.33 loads each -> 2.
 * block: the smallest block the launch-rate probe saw reach the peak
 * (launch.min_block_for_peak), as a power of two below it, 64..1024. */
#include <stdio.h>

#include "krule.h"
#include "padding.h"

/* Registers per thread the kernel stays within (16 channels: ~30). */
#define GP_PADDING_RULE_REGS 32

gp_status gp_padding_rule(gp_table *t)
{
    const char *r = "ilp_from_dram_latency";
    double bw, lat, cus, regs, minb;
    GP_TRY(gp_rule_fact(t, r, "dram", "bandwidth_gbs", 1, 1e5, &bw));
    GP_TRY(gp_rule_fact(t, r, "dram", "latency_ns", 1, 1e5, &lat));
    GP_TRY(gp_rule_fact(t, r, "device", "compute_units", 1, 1e4, &cus));
    GP_TRY(gp_rule_fact(t, r, "registers", "per_cu", 1024, 1e7, &regs));
    GP_TRY(gp_rule_fact(t, "block_from_launch", "launch", "min_block_for_peak", 1, 1024, &minb));
    double threads = regs / GP_PADDING_RULE_REGS;
    double flight = bw * lat; /* GB/s x ns = bytes */
    double loads = flight / cus / (threads * 4.0);
    int cpt = gp_rule_ceil_pow2(loads);
    if (cpt > GP_PADDING_MAX_CPT)
        cpt = GP_PADDING_MAX_CPT;
    int block = gp_rule_floor_pow2(minb);
    block = block < 64 ? 64 : block > GP_PADDING_MAX_BLOCK ? GP_PADDING_MAX_BLOCK : block;
    char prov[192];
    snprintf(prov, sizeof prov,
             "rule ilp_from_dram_latency: dram.bandwidth_gbs %.0f x dram.latency_ns %.0f / device.compute_units "
             "%.0f / (registers.per_cu %.0f / %d) / 4 B = %.2f",
             bw, lat, cus, regs, GP_PADDING_RULE_REGS, loads);
    GP_TRY(gp_table_set(t, "kernel.padding", "channels_per_thread", cpt, prov));
    snprintf(prov, sizeof prov, "rule block_from_launch: launch.min_block_for_peak %.0f, power of two", minb);
    GP_TRY(gp_table_set(t, "kernel.padding", "block", block, prov));
    return gp_ok();
}
