/* batchnorm rule: the parameters from the device facts.
 *
 * items_per_thread (Little's law, as for padding but with 16-byte loads):
 * B x L bytes in flight over the CUs, each keeping registers.per_cu /
 * GP_BN_RULE_REGS threads resident:
 *     items = ceil_pow2(B L / (CUs x threads per CU x 16 B)), 1..8.
 * H200: 4342 GB/s x 332 ns / 132 / 2048 / 16 B = 0.33 -> 1.
 * block: launch.min_block_for_peak as a power of two below it, 64..1024.
 * Blocks per channel are not a table value: they follow from the shape and
 * the device's resident blocks at run time (gp_batchnorm_split). */
#include <stdio.h>

#include "batchnorm.h"
#include "krule.h"

#define GP_BN_RULE_REGS 32

gp_status gp_batchnorm_rule(gp_table *t)
{
    const char *r = "ilp_from_dram_latency";
    double bw, lat, cus, regs, minb;
    GP_TRY(gp_rule_fact(t, r, "dram", "bandwidth_gbs", 1, 1e5, &bw));
    GP_TRY(gp_rule_fact(t, r, "dram", "latency_ns", 1, 1e5, &lat));
    GP_TRY(gp_rule_fact(t, r, "device", "compute_units", 1, 1e4, &cus));
    GP_TRY(gp_rule_fact(t, r, "registers", "per_cu", 1024, 1e7, &regs));
    GP_TRY(gp_rule_fact(t, "block_from_launch", "launch", "min_block_for_peak", 1, 1024, &minb));
    double loads = bw * lat / cus / (regs / GP_BN_RULE_REGS * 16.0);
    int items = gp_rule_ceil_pow2(loads);
    items = items > GP_BN_MAX_ITEMS ? GP_BN_MAX_ITEMS : items;
    int block = gp_rule_floor_pow2(minb);
    block = block < 64 ? 64 : block > GP_BN_MAX_BLOCK ? GP_BN_MAX_BLOCK : block;
    char prov[192];
    snprintf(prov, sizeof prov,
             "rule ilp_from_dram_latency: dram.bandwidth_gbs %.0f x dram.latency_ns %.0f / device.compute_units "
             "%.0f / (registers.per_cu %.0f / %d) / 16 B = %.2f",
             bw, lat, cus, regs, GP_BN_RULE_REGS, loads);
    GP_TRY(gp_table_set(t, "kernel.batchnorm", "items_per_thread", items, prov));
    snprintf(prov, sizeof prov, "rule block_from_launch: launch.min_block_for_peak %.0f, power of two", minb);
    GP_TRY(gp_table_set(t, "kernel.batchnorm", "block", block, prov));
    return gp_ok();
}
