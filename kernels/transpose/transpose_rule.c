/* gp_transpose_rule: every kernel.transpose parameter from the device facts.
 * The models, with the H200 figures they land on: docs/kernels/transpose.md,
 * "Rule". */
#include <stdio.h>

#include "kernel.h"
#include "rule.h"
#include "transpose.h"

#define RULE "gp_transpose_rule"
/* The headline problem: bench's 8192 x 8192 fp32 matrix. */
#define HEADLINE_N 8192
/* Registers per thread of the padded scalar kernels (ptxas sm_80/sm_90: 30-40
 * at 8..16 items per thread); the occupancy check uses the upper end. */
/* The padded scalar kernels of tiles 32 and 64 the rule picks (template tile,
 * items, vec 1, no swizzle).  AMD: 117 VGPRs on gfx900 (the staged items
 * in registers; AMD gets the block bound alone). */
/* regs: TRANSPOSE_REGS gp_transpose_kernelILi(32|64)ELi(8|16)ELi1ELi0E */
#define TRANSPOSE_REGS GP_RULE_REGS(40, 117)
/* The dispatch budget: the time the front end needs to hand out the blocks
 * must stay under this fraction of the DRAM time of the whole move. */
#define DISPATCH_FRACTION 0.10

gp_status gp_transpose_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    long long banks, bank_bytes, wave;
    GP_TRY(gp_rule_fact_int(t, RULE, "lds", "banks", &banks));
    GP_TRY(gp_rule_fact_int(t, RULE, "lds", "bank_bytes", &bank_bytes));
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    const gp_rule_cu cu = f.cu;
    wave = cu.wave;
    double bw = f.dram_gbs.v, clk = f.clock_mhz.v, bpc = f.blocks_per_cycle.v, ptpc = f.threads_per_cycle.v;
    double l2 = f.l2_bytes.v, minblk = f.min_block.v;
    int have_bw = f.dram_gbs.have, have_clk = f.clock_mhz.have, have_bpc = f.blocks_per_cycle.have;
    int have_ptpc = f.threads_per_cycle.have, have_l2 = f.l2_bytes.have, have_minblk = f.min_block.have;
    long long rows = HEADLINE_N, cols = HEADLINE_N;
    if (in->shape && in->shape->d[GP_TRANSPOSE_ROWS] > 0 && in->shape->d[GP_TRANSPOSE_COLS] > 0)
        rows = in->shape->d[GP_TRANSPOSE_ROWS], cols = in->shape->d[GP_TRANSPOSE_COLS];

    /* pad: one bank's worth of 4-byte elements skews successive tile rows by
     * one bank, so a column read touches each bank once. */
    long long pad = bank_bytes >= 4 ? bank_bytes / 4 : 1;
    GP_TRY(gp_rule_set(out, "transpose", "pad", pad, "bank skew",
                       "lds %lld banks x %lld B -> rows skewed by one bank", banks, bank_bytes));

    /* block size: the smallest block reaching the launch-rate peak (rounded
     * down to a power of two), but at least two blocks per CU so one block's
     * barrier overlaps another's loads. */
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)minblk), wave, GP_TRANSPOSE_MAX_THREADS);
    while (block > wave && gp_rule_blocks_per_cu(&cu, block, TRANSPOSE_REGS, 0) < 2)
        block /= 2;

    /* tile: at least the bank tile (a row of 4-byte elements spanning every
     * bank once), doubled while the block dispatch time of the whole move
     * exceeds DISPATCH_FRACTION of its DRAM time (each block moves one tile
     * and ends: a short-lived block, so the dispatch rate binds). */
    long long tile = gp_rule_clamp(gp_rule_floor_pow2(banks * bank_bytes / 4), 8, 64);
    long long tiles_per_block = 1;
    char why[160];
    if (have_bw && have_clk && (have_bpc || have_ptpc)) {
        double dram_s = 2.0 * (double)rows * (double)cols * 4.0 / (bw * 1e9);
        for (;;) {
            double blocks = (double)((rows + tile - 1) / tile) * (double)((cols + tile - 1) / tile) /
                            (double)tiles_per_block;
            long long blk = tile * (block / tile > 0 ? block / tile : 1);
            double per_cycle = have_bpc ? bpc : ptpc / (double)blk;
            double disp_s = blocks / per_cycle / (clk * 1e6);
            snprintf(why, sizeof why, "%.0f blocks at %.3g blocks/cycle @%.0f MHz = %.1f us vs DRAM %.1f us (%.0f GB/s)",
                     blocks, per_cycle, clk, disp_s * 1e6, dram_s * 1e6, bw);
            if (disp_s <= DISPATCH_FRACTION * dram_s)
                break;
            if (tile < 64 && tile * (tile + pad) * 4 <= cu.lds_per_block)
                tile *= 2;
            else if (tiles_per_block < GP_TRANSPOSE_MAX_TILES_PER_BLOCK)
                tiles_per_block *= 2;
            else
                break;
        }
    } else {
        snprintf(why, sizeof why, "%s none: the bank tile, dispatch not modelled",
                 !have_bw ? "dram.bandwidth_gbs" : !have_clk ? "device.clock_mhz" : "launch.blocks_per_cycle");
    }
    GP_TRY(gp_rule_set(out, "transpose", "tile", tile, "dispatch", "tile %lld: %s", tile, why));
    GP_TRY(gp_rule_set(out, "transpose", "tiles_per_block", tiles_per_block, "dispatch", "%s", why));

    /* block_rows: block / tile rows per pass, at most 16 items per thread. */
    long long br = gp_rule_clamp(block / tile, tile / GP_TRANSPOSE_MAX_ITEMS, tile);
    br = gp_rule_clamp(br, 1, tile);
    GP_TRY(gp_rule_set(out, "transpose", "block_rows", br, "launch",
                       "block %lld = launch.min_block_for_peak %.0f%s rounded to a power of 2, >= 2 blocks/CU at %d regs",
                       tile * br, minblk, have_minblk ? "" : " (none: 256)", TRANSPOSE_REGS));

    /* vec, swizzle: the padded layout already serves a column read from every
     * bank once, and scalar accesses keep it conflict-free (the vector
     * layouts need the swizzle). */
    GP_TRY(gp_rule_set(out, "transpose", "vec", 1, "bank skew", "padded layout: 4-byte accesses"));
    GP_TRY(gp_rule_set(out, "transpose", "swizzle", 0, "bank skew", "padded layout (pad %lld)", pad));

    /* group and stream: when the move (2 x rows x cols x 4 B) exceeds the L2 nothing
     * is reused, so blocks go in column-major tile order (consecutive blocks
     * write side by side: a sequential store stream) and stores stream
     * (evict-first) so they do not push the loads' lines out.  An L2 of
     * two partitions (a far latency measured) holds what one partition
     * holds, half its bytes, before the move's lines start evicting each
     * other: H200 2026-11-29, 3000 x 2000 (48 MB moved, a 60 MiB L2) ran
     * 15 % faster with the stores streamed; 33.5 MB moves within 2 % either
     * way. */
    double far = 0;
    int have_far = 0;
    GP_TRY(gp_rule_fact_or(t, RULE, "cache.l2", "far_latency_cycles", 0, &far, &have_far));
    const double held = have_far ? l2 / 2 : l2;
    double bytes = 2.0 * (double)rows * (double)cols * 4.0;
    int big = !have_l2 || bytes > held;
    long long group = big ? gp_rule_clamp((rows + tile - 1) / tile, 1, 4096) : 1;
    GP_TRY(gp_rule_set(out, "transpose", "group", group, "l2",
                       "move %.0f MiB %s cache.l2 %.0f MiB%s%s", bytes / 1048576.0, big ? ">" : "<=",
                       held / 1048576.0, have_far ? " (one of two partitions)" : "", have_l2 ? "" : " (none)"));
    GP_TRY(gp_rule_set(out, "transpose", "stream", big ? GP_TRANSPOSE_STREAM_STORES : 0, "l2",
                       "stores %s: move %.0f MiB vs cache.l2 %.0f MiB%s", big ? "streamed" : "cached",
                       bytes / 1048576.0, held / 1048576.0, have_far ? " (one of two partitions)" : ""));
    return gp_ok();
}
