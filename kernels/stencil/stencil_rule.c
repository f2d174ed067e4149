/* gp_stencil_rule: every kernel.stencil parameter from the device facts.
 * The models, with the H200 figures they land on: docs/kernels/stencil.md,
 * "Rule".
 *
 * tile_x ("sectors"): the x halo of a tile is two single points per row,
 * each costing a whole cache sector (cache.l1.sector_bytes) in a row of
 * tile_x x 4 bytes; the smallest power of two that is at least one wave and
 * keeps that at most a quarter of the row (tile_x >= 2 x sector_bytes),
 * 32..128.
 *
 * tile_y ("occupancy"): the y halo costs 2 / tile_y of the reads, so the
 * largest tile_y (4..16, tile_x x tile_y <= 512) among those that keep the
 * most threads resident per CU at the kernel's registers and the tile's LDS.
 *
 * blocks_per_cu ("occupancy"): the blocks of that tile one CU holds at once;
 * the host's z split (gp_stencil_z_chunks) sizes the grid in rounds of
 * blocks_per_cu x CUs.
 *
 * planes_ahead ("little"): Little's law.  Every CU needs dram bandwidth x
 * latency / CUs bytes of loads in flight; each resident thread issues, per
 * plane, its center (4 B) and its share of the halo ((2 tile_x + 2 tile_y) /
 * (tile_x tile_y) x 4 B); planes ahead = that need over the resident
 * threads' bytes per plane, rounded up, 1..3.
 *
 * vec ("unmeasured"): 1, the 1-wide kernel, until the 4-wide one has a
 * paired run; tune offers it. */
#include <math.h>
#include <stdio.h>

#include "kernel.h"
#include "rule.h"
#include "stencil.h"

#define RULE "gp_stencil_rule"
/* Registers per thread: the launch bounds (512 threads, 4 blocks an SM) cap
 * them at 32; ptxas sm_90 reports 30..32 with no spills (checked by
 * tests/build/rule_regs.txt). */
#define STENCIL_REGS 32
/* planes_ahead when the DRAM facts are none: the middle of 1..3. */
#define STENCIL_AHEAD_STANDIN 2

gp_status gp_stencil_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The model is per CU and per column of the tile: no shape enters. */
    (void)in->shape;
    const char *sep = cu.fallback[0] ? "; " : "";

    double sector;
    int have_sector;
    GP_TRY(gp_rule_fact_or(in->facts, RULE, "cache.l1", "sector_bytes", 32, &sector, &have_sector));
    long long want = cu.wave > (long long)(2 * sector) ? cu.wave : (long long)(2 * sector);
    long long tx = gp_rule_clamp(gp_rule_ceil_pow2(want), GP_STENCIL_MIN_TX, GP_STENCIL_MAX_TX);
    GP_TRY(gp_rule_set(out, "stencil", "tile_x", tx, "sectors",
                       "x halo 2 x cache.l1.sector_bytes %.0f%s <= a quarter of the row, at least wave %lld -> "
                       "%lld%s%s",
                       sector, have_sector ? "" : " (none: 32)", cu.wave, tx, sep, cu.fallback));

    long long ty = 0, best_threads = -1, best_blocks = 0;
    for (long long c = GP_STENCIL_MIN_TY; c <= GP_STENCIL_MAX_TY && tx * c <= GP_STENCIL_MAX_BLOCK; c *= 2) {
        long long blocks = gp_rule_blocks_per_cu(&cu, tx * c, STENCIL_REGS, GP_STENCIL_LDS_BYTES(tx, c));
        if (blocks * tx * c >= best_threads) /* ties: the larger tile_y */
            best_threads = blocks * tx * c, ty = c, best_blocks = blocks;
    }
    if (best_blocks < 1)
        best_blocks = 1; /* a CU too small for one block still runs one */
    const long long lds = GP_STENCIL_LDS_BYTES(tx, ty);
    GP_TRY(gp_rule_set(out, "stencil", "tile_y", ty, "occupancy",
                       "%lld x %lld threads (%d regs, %lld B LDS): %lld blocks/CU = %lld resident threads, the most "
                       "with the smallest y halo -> %lld%s%s",
                       tx, ty, STENCIL_REGS, lds, best_blocks, best_blocks * tx * ty, ty, sep, cu.fallback));
    GP_TRY(gp_rule_set(out, "stencil", "blocks_per_cu", best_blocks, "occupancy",
                       "registers.per_cu %lld / (%d regs x %lld threads), lds %lld / %lld B, threads %lld -> %lld%s%s",
                       cu.regs_per_cu, STENCIL_REGS, tx * ty, cu.lds_per_cu, lds, cu.max_threads_cu, best_blocks,
                       sep, cu.fallback));

    const long long threads = best_blocks * tx * ty;
    const double per_plane = 4.0 * (1.0 + (double)(2 * tx + 2 * ty) / (double)(tx * ty));
    char why[200];
    double planes = gp_rule_loads_in_flight(&f, threads, per_plane, why, sizeof why);
    long long ahead = planes <= 0 ? STENCIL_AHEAD_STANDIN
                                  : gp_rule_clamp((long long)ceil(planes), 1, GP_STENCIL_MAX_AHEAD);
    GP_TRY(gp_rule_set(out, "stencil", "planes_ahead", ahead, "little", "%s (%.2f B a thread a plane) -> %lld%s%s%s",
                       why, per_plane, ahead, planes > 0 ? "" : " (stand-in)", sep, cu.fallback));
    /* vec: the 4-wide kernel's gain is in instructions and barriers per
     * byte, which no fact of the table turns into time; it stays a tune
     * candidate until a paired run shows it (docs/kernels/stencil.md). */
    return gp_rule_set(out, "stencil", "vec", 1, "unmeasured",
                       "4-wide kernel (16-byte accesses, 64 regs) without a paired run yet, a tune candidate -> 1");
}
