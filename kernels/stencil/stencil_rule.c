/* gp_stencil_rule: every kernel.stencil parameter from the device facts.
 * The models, with the H200 figures they land on: docs/kernels/stencil.md,
 * "Rule".
 *
 * vec ("instructions"): 4, the 4-wide kernel, where a wave's 16-byte
 * access (wave x 16 B) is whole cache lines (cache.l1.line_bytes): it then
 * moves the same lines as the 1-wide kernel's wave x 4 B access, four of
 * them a time, with a quarter of the load/store instructions and barriers per
 * byte and 4x the bytes in flight per queued plane.  Else 1.  (H200
 * 2026-11-24, tools/experiments/stencil_variants.cu, 512^3: 4-wide 128 x 4
 * at 0.900 of the device copy, the 1-wide kernel at 0.755-0.78.)
 *
 * tile_x ("sectors"): a tile row is tile_x x vec x 4 bytes; the smallest
 * power of two that is at least one wave (one wave instruction covers one
 * contiguous row), whole L1 lines, and a row at least 4x the x halo's two
 * points, each costing a whole sector (cache.l1.sector_bytes):
 * max(wave, 2 sector / vec, line / (4 vec)), 16..128 (vec 4: ..64, its
 * 256 threads over at least 4 rows).
 *
 * tile_y, blocks_per_cu ("occupancy") and planes_ahead ("little"), together:
 * for planes_ahead = 1, 2, ... (each a compiled kernel of its own register
 * count, gp_stencil_build_regs, or the device's with use_device) tile_y is
 * the smallest of 4..16 among those that keep the most threads resident per
 * CU (a barrier waits for fewer warps; measured worth more than the y halo's
 * 2 / tile_y of the reads), blocks_per_cu what a CU then
 * holds; Little's law: every CU needs dram bandwidth x latency / CUs bytes
 * in flight, each resident thread issues per plane its center (4 vec B) and
 * its share of the halo (2 tile_x rows of vec points, 2 tile_y columns of
 * one); the first planes_ahead whose queue covers that need wins (the most
 * compiled otherwise).  More planes cost registers (vec 4: 8 a plane) and
 * so blocks: with the 4x bytes per thread of vec 4, 1 plane covers the
 * H200's need at 9 blocks of 128 threads.  The host's z split
 * (gp_stencil_z_chunks) sizes the grid in rounds of blocks_per_cu x CUs: a
 * wrong blocks_per_cu is a wrong split (H200 512^3: 9 chunks at 9 blocks,
 * 0.900; 2 at 8, 0.863).
 *
 * blocks_per_cu against the shape ("occupancy"): the z split cuts each
 * column of T = ceil(nx / tile_x) x ceil(ny / tile_y) tiles (counted 1-wide:
 * the most any launch of the tile makes, the 4-wide kernel's rows falling
 * back included) into at most nz chunks, so a problem gives the GPU at most
 * T x nz blocks: where that is less than a round of what a CU holds,
 * blocks_per_cu is the blocks each CU gets, ceil(T nz / CUs).  Such a
 * problem runs in one round at any blocks_per_cu from there up (every
 * split's cost is one round of its planes), so the split is the one the
 * occupancy gives; the value says what a CU really holds.  The headline
 * 512^3 (T nz = 1 Mi on the H200's tile) keeps the occupancy. */
#include <math.h>
#include <stdio.h>

#include "kernel.h"
#include "rule.h"
#include "stencil.h"
#include "stencil_v4.h"

#define RULE "gp_stencil_rule"
/* The queue must hold twice Little's product at the unloaded DRAM latency:
 * streaming at the copy's rate queues the loads, and the latency under load
 * is longer.  H200 2026-11-29, the 1-wide kernel (`tune stencil --shape`,
 * four shapes of unaligned rows): 64 x 4 at 8 blocks covers 1.05x the
 * unloaded need at 1 plane and 2.1x at 2, and 2 planes ran 4-10 % faster on
 * every shape; 64 x 8 at 0.88x, 1.77x and 2.65x (1, 2, 3 planes): 2 and 3
 * within 2 %, 1 plane 9-13 % slower.  The 4-wide kernel's 1 plane covers 2.3x
 * on the H200 and stays. */
#define STENCIL_LOADED 2.0
/* Registers per thread of the 1-wide kernel: the launch bounds (512 threads,
 * 4 blocks an SM) cap them at 32; ptxas sm_90 reports 30..32 with no spills
 * (checked by tests/build/check_gpu_build.sh).  The 4-wide kernel's:
 * stencil_v4.h. */
/* The tiled kernels of 1, 2 and 3 planes ahead (template AHEAD); the 4-wide
 * kernels (stencil_v4.h: launch bounds (256, 4) cap them at 64; the rule
 * counts 56 for 1 plane ahead, 9 blocks of 128 threads an SM, not 8). */
/* regs: STENCIL_REGS gp_stencil_kernelILi[123]E */
/* regs: GP_STENCIL_V4_REGS_A1 gp_stencil_v4_kernelILi1E */
/* regs: GP_STENCIL_V4_REGS gp_stencil_v4_kernelILi2E */
#define STENCIL_REGS 32
/* planes_ahead when the DRAM facts are none: the middle of 1..3 for the
 * 1-wide kernel; 1 for the 4-wide one (its 4x bytes a plane, and the fewer
 * registers: the H200's best). */
#define STENCIL_AHEAD_STANDIN 2
#define STENCIL_V4_AHEAD_STANDIN 1
/* The headline problem: bench's 512^3 grid. */
#define HEADLINE_N 512

int gp_stencil_build_regs(int vec, int ahead)
{
    if (vec == 4)
        return ahead <= 1 ? GP_STENCIL_V4_REGS_A1 : GP_STENCIL_V4_REGS;
    return STENCIL_REGS;
}

/* One planes_ahead's occupancy: tile_y, blocks, resident threads, and the
 * bytes a resident thread loads per plane. */
typedef struct occ {
    long long ty, blocks, threads;
    double per_plane;
    gp_rule_res res;
} occ;

static gp_status occupancy(const gp_rule_in *in, const gp_rule_cu *cu, long long vec, long long tx, long long min_ty,
                           double sector, long long ahead, occ *o)
{
    const long long max_block = vec == 4 ? GP_STENCIL_V4_MAX_BLOCK : GP_STENCIL_MAX_BLOCK;
    GP_TRY(gp_rule_resources(in->use_device, gp_stencil_kernel_fn((int)vec, (int)ahead),
                             gp_stencil_build_regs((int)vec, (int)ahead), 0, &o->res));
    long long best_threads = -1;
    o->ty = GP_STENCIL_MIN_TY, o->blocks = 0;
    for (long long c = min_ty; c <= GP_STENCIL_MAX_TY && tx * c <= max_block; c *= 2) {
        if (tx * c > o->res.max_threads)
            continue;
        long long lds = o->res.lds + (vec == 4 ? GP_STENCIL_V4_LDS_BYTES(tx, c) : GP_STENCIL_LDS_BYTES(tx, c));
        long long blocks = gp_rule_blocks_per_cu(cu, tx * c, o->res.regs, lds);
        /* Ties: the smaller tile_y.  Its barrier waits for fewer warps,
         * which the H200 measured as worth more than the y halo's 2 /
         * tile_y of the reads: 1-wide 64x4 0.782 of the copy, 64x8 0.755,
         * both 2048 threads an SM (docs/kernels/stencil.md). */
        if (blocks * tx * c > best_threads)
            best_threads = blocks * tx * c, o->ty = c, o->blocks = blocks;
    }
    if (o->blocks < 1)
        o->blocks = 1; /* a CU too small for one block still runs one */
    o->threads = o->blocks * tx * o->ty;
    /* Per thread a plane: its center (vec points) and its share of the halo
     * rows (tile_x loads of vec points) and columns (tile_y points, each
     * alone in its sector: a sector in flight however few of its bytes are
     * used, so 32 x 8 and 64 x 4 tiles queue alike; H200 2026-11-29, six
     * shapes of 1-wide rows: 32 x 8 at 2 planes 0-3 % faster than at 3). */
    o->per_plane = (4.0 * (double)(vec * tx * o->ty + 2 * tx * vec) + sector * (double)(2 * o->ty)) /
                   (double)(tx * o->ty);
    return gp_ok();
}

/* The points a row of nx costs in tiles `width` points wide. */
static long long padded_row(long long nx, long long width) { return (nx + width - 1) / width * width; }

gp_status gp_stencil_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The shape enters blocks_per_cu only: the rest is per CU and per column
     * of the tile. */
    long long n[3] = {HEADLINE_N, HEADLINE_N, HEADLINE_N};
    for (int k = 0; k < 3 && in->shape; k++)
        if (in->shape->d[GP_STENCIL_NX + k] > 0)
            n[k] = gp_rule_clamp(in->shape->d[GP_STENCIL_NX + k], 1, GP_STENCIL_MAX_DIM);
    const char *sep = cu.fallback[0] ? "; " : "";

    double sector;
    int have_sector;
    GP_TRY(gp_rule_fact_or(in->facts, RULE, "cache.l1", "sector_bytes", 32, &sector, &have_sector));
    const long long line = (long long)f.l1_line.v;
    /* A row of nx points not a multiple of 4 is not 16-byte aligned past
     * the first: the launch runs the 1-wide kernel there, so the rest of the
     * parameters are the 1-wide kernel's. */
    const int whole_lines = line > 0 && (cu.wave * 16) % line == 0;
    const long long vec = whole_lines && n[0] % 4 == 0 ? 4 : 1;
    const char *vwhy = vec == 4       ? "a quarter of the instructions and barriers a byte"
                       : whole_lines ? "rows of nx points not a multiple of 4: not 16-byte aligned"
                                     : "not whole lines";
    long long want = cu.wave;
    if ((long long)(2 * sector) / vec > want)
        want = (long long)(2 * sector) / vec;
    if (line / (4 * vec) > want)
        want = line / (4 * vec);
    /* At most the block's threads over the fewest rows (vec 4: 256 / 4). */
    const long long max_block = vec == 4 ? GP_STENCIL_V4_MAX_BLOCK : GP_STENCIL_MAX_BLOCK;
    const long long max_tx = max_block / GP_STENCIL_MIN_TY < GP_STENCIL_MAX_TX ? max_block / GP_STENCIL_MIN_TY
                                                                                : GP_STENCIL_MAX_TX;
    const long long lines_tx = gp_rule_clamp(gp_rule_ceil_pow2(want), GP_STENCIL_MIN_TX, max_tx);
    /* The row's tail: every tile row costs the block its instructions and
     * barriers whether its lanes are inside nx or not, so tile_x halves
     * (down to one wave) while that shortens the padded row ceil(nx /
     * width) x width; on a tie the wider tile, with fewer halo columns.
     * H200 2026-11-29, ten shapes of 1-wide rows (nx 97..515, docs/kernels/
     * stencil.md "Rule"): 32-wide tiles won every shape where they pad less
     * (1.01-1.10x), 64-wide ones every tie. */
    long long tx = lines_tx;
    const long long floor_tx = cu.wave > GP_STENCIL_MIN_TX ? cu.wave : GP_STENCIL_MIN_TX;
    while (tx / 2 >= floor_tx && padded_row(n[0], tx / 2 * vec) < padded_row(n[0], tx * vec))
        tx /= 2;
    char tail[96] = "";
    if (tx != lines_tx)
        snprintf(tail, sizeof tail, "; nx %lld pads to %lld at %lld, %lld at %lld -> %lld", n[0],
                 padded_row(n[0], lines_tx * vec), lines_tx, padded_row(n[0], tx * vec), tx, tx);
    GP_TRY(gp_rule_set(out, "stencil", "tile_x", tx, "sectors",
                       "row of tile_x x %lld points >= wave %lld, whole %lld B lines, 4 x halo 2 x "
                       "cache.l1.sector_bytes %.0f%s -> %lld (%lld B)%s%s%s",
                       vec, cu.wave, line, sector, have_sector ? "" : " (none: 32)", lines_tx, lines_tx * vec * 4, tail,
                       sep, cu.fallback));
    /* A halved tile keeps the block's threads: tile_y grows with it. */
    const long long min_ty = GP_STENCIL_MIN_TY * (lines_tx / tx);

    /* planes_ahead with its occupancy: the first whose queue covers
     * Little's need under load (STENCIL_LOADED). */
    const long long max_ahead = vec == 4 ? GP_STENCIL_V4_MAX_AHEAD : GP_STENCIL_MAX_AHEAD;
    const long long standin = vec == 4 ? STENCIL_V4_AHEAD_STANDIN : STENCIL_AHEAD_STANDIN;
    occ o;
    char why[200];
    double planes = 0;
    long long ahead = 1;
    for (; ahead <= max_ahead; ahead++) {
        GP_TRY(occupancy(in, &cu, vec, tx, min_ty, sector, ahead, &o));
        planes = gp_rule_loads_in_flight(&f, o.threads, o.per_plane, why, sizeof why);
        if (planes <= 0) { /* no DRAM facts: the stand-in */
            ahead = standin;
            GP_TRY(occupancy(in, &cu, vec, tx, min_ty, sector, ahead, &o));
            break;
        }
        if (STENCIL_LOADED * planes <= (double)ahead || ahead == max_ahead)
            break;
    }
    const long long lds = vec == 4 ? GP_STENCIL_V4_LDS_BYTES(tx, o.ty) : GP_STENCIL_LDS_BYTES(tx, o.ty);
    GP_TRY(gp_rule_set(out, "stencil", "tile_y", o.ty, "occupancy",
                       "%lld x %lld threads (vec %lld, %lld regs %s, %lld B LDS): %lld blocks/CU = %lld resident "
                       "threads, the most; the smallest tile_y of equals -> %lld%s%s",
                       tx, o.ty, vec, o.res.regs, o.res.src, lds, o.blocks, o.threads, o.ty, sep, cu.fallback));
    const long long cus = (long long)f.cus.v > 0 ? (long long)f.cus.v : 1;
    const long long tiles = (n[0] + tx - 1) / tx * ((n[1] + o.ty - 1) / o.ty);
    const long long most = (tiles * n[2] + cus - 1) / cus, bpc = most < o.blocks ? most : o.blocks;
    if (bpc != o.blocks) /* the shape's reason first: the provenance is cut at its length */
        GP_TRY(gp_rule_set(out, "stencil", "blocks_per_cu", bpc, "occupancy",
                           "%lld tiles x nz %lld give %lld CUs%s %lld blocks each -> %lld (a CU holds %lld: "
                           "registers.per_cu %lld / (%lld regs x %lld threads))", tiles, n[2], cus,
                           f.cus.have ? "" : " (none: 64)", most, bpc, o.blocks, cu.regs_per_cu, o.res.regs,
                           tx * o.ty));
    else
        GP_TRY(gp_rule_set(out, "stencil", "blocks_per_cu", bpc, "occupancy",
                           "registers.per_cu %lld / (%lld regs x %lld threads), lds %lld / %lld B, threads %lld -> "
                           "%lld; the z split fills rounds of %lld x CUs%s%s",
                           cu.regs_per_cu, o.res.regs, tx * o.ty, cu.lds_per_cu, lds, cu.max_threads_cu, o.blocks,
                           o.blocks, sep, cu.fallback));
    GP_TRY(gp_rule_set(out, "stencil", "planes_ahead", ahead, "little",
                       "%s%s (%.2f B a thread a plane), x %.0f under load -> %lld%s%s%s",
                       planes > 0 && STENCIL_LOADED * planes > (double)ahead ? "short at the most compiled: " : "",
                       why, o.per_plane, STENCIL_LOADED, ahead, planes > 0 ? "" : " (stand-in)", sep, cu.fallback));
    return gp_rule_set(out, "stencil", "vec", vec, "instructions",
                       "wave %lld x 16 B = %lld B, cache.l1.line_bytes %lld%s: %s -> %lld", cu.wave, cu.wave * 16,
                       line, f.l1_line.have ? "" : " (none: 128)", vwhy, vec);
}
