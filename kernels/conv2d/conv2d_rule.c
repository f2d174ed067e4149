/* gp_conv2d_rule: every kernel.conv2d parameter from the device facts and the
 * problem.  The models: docs/kernels/conv2d.md, "Rule". */
#include <stdio.h>
#include <string.h>

#include "conv2d.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_conv2d_rule"
/* Registers per thread of the tiled kernels with 4 x RY pixels a thread:
 * ptxas -v reports at most 91 (sm_80) / 80 (sm_90) at RY = 1 and 120 / 123 at
 * RY = 2, over the compiled kernel sizes; rounded up to the allocation
 * granule of 8.  tests/build/check_gpu_build.sh checks these bounds.  With a
 * device open (in->use_device) the runtime's attributes of the instantiation
 * replace them (gp_rule_resources). */
/* The tiled kernels at 1 and 2 rows of 4 pixels a thread (template K, 4, RY,
 * rolled).  AMD: clang holds the register blocks in more VGPRs (gfx900
 * 144 and 169, no launch bound below 256). */
/* regs: CONV2D_REGS_RY1 gp_conv2d_tiledILi[0-9]ELi4ELi1E */
#define CONV2D_REGS_RY1 GP_RULE_REGS(96, 144)
/* regs: CONV2D_REGS_RY2 gp_conv2d_tiledILi[0-9]ELi4ELi2E */
#define CONV2D_REGS_RY2 GP_RULE_REGS(128, 169)
#define CONV2D_REGS(ry) ((ry) == 1 ? CONV2D_REGS_RY1 : CONV2D_REGS_RY2)
/* The most output channels per block compiled in. */
#define CONV2D_MAX_OCB 8
/* Waves a CU needs for its full issue rate in the tiled kernel: one a SIMD
 * (four on every NVIDIA SM and AMD CU), each thread's 32 or 64 independent
 * accumulators holding enough FMAs in flight. */
#define CONV2D_SAT_WAVES 4
/* The headline problem: the seed's 1 x 6 x 768 x 512 input, 6 x 6 kernel,
 * 6 output channels, 'valid'. */
static const gp_conv2d_shape headline = {1, 6, 768, 512, 6, 6, 6, 0, 0};

/* One tile choice at one block size. */
typedef struct tile_pick {
    long long tx, ty, ry, block, slots, occ, blocks;
    double cost, traffic;
    gp_rule_res res;
} tile_pick;

/* The tile at `block` threads: threads_x = tile_x / 4 (4 pixels per thread
 * in x), RY rows per thread.  The problem's blocks are its output tiles (the
 * shape's size, kernel and pads) x images x channel groups (of at most 8
 * output channels).  busiest 0: time ~ rounds of resident blocks x tile area
 * (the one block size: every candidate holds block x 4 x RY pixels, so an
 * output narrower than a tile is what moves it: its idle columns cost
 * rounds, and a narrower tile wins).  busiest 1: the busiest CU's blocks,
 * ceil(blocks / CUs), x tile area over its issue rate, min(1, waves at once
 * / CONV2D_SAT_WAVES) (comparable across block sizes).  Ties go to fewer
 * accumulators per thread (RY), then to the fewest L1 lines staged per
 * output pixel: ceil((tile_x + kw - 1) x 4 / line) x line x (tile_y + kh -
 * 1) / (tile_x x tile_y). */
static gp_status pick_tile(const gp_rule_in *in, const gp_rule_cu *cu, const gp_conv2d_shape *s, long long block,
                           long long oh, long long ow, long long groups, long long line, double cus, int busiest,
                           long long min_tx, tile_pick *best)
{
    const long long kh = s->kh, kw = s->kw, k = kh == kw ? kh : 0; /* k: the compiled size considered (0 generic) */
    const long long ncu = cus >= 1 ? (long long)cus : 1;
    memset(best, 0, sizeof *best);
    best->tx = 32, best->ty = 32, best->ry = 1, best->block = block, best->cost = -1;
    best->res = (gp_rule_res){CONV2D_REGS(1), 0, 1024, "build constant"};
    for (long long tx = min_tx; tx <= 64; tx *= 2) {
        long long thx = tx / GP_CONV2D_RX, thy = block / thx;
        if (thx < 1 || thy < 1)
            continue;
        for (long long ry = 1; ry <= 2 && GP_CONV2D_RX * ry * CONV2D_MAX_OCB <= GP_CONV2D_MAX_ACC; ry *= 2) {
            long long ty = thy * ry;
            if (ty > 64)
                continue;
            gp_rule_res res;
            const int kspec = k == 3 || k == 5 || k == 6 || k == 7 ? (int)k : 0;
            GP_TRY(gp_rule_resources(in->use_device, gp_conv2d_tiled_fn(kspec, (int)ry, CONV2D_MAX_OCB, 0),
                                     CONV2D_REGS(ry), 0, &res));
            if (block > res.max_threads)
                continue;
            long long occ = gp_rule_blocks_per_cu(cu, block, res.regs, res.lds);
            long long slots = ncu * (occ > 0 ? occ : 1);
            long long blocks = ((ow + tx - 1) / tx) * ((oh + ty - 1) / ty) * s->n * groups;
            double cost;
            if (busiest) {
                long long nb = (blocks + ncu - 1) / ncu, at_once = nb < occ ? nb : (occ > 0 ? occ : 1);
                double waves = (double)(at_once * block) / (double)cu->wave;
                cost = (double)(nb * tx * ty) / (waves >= CONV2D_SAT_WAVES ? 1.0 : waves / CONV2D_SAT_WAVES);
            } else {
                cost = (double)((blocks + slots - 1) / slots) * (double)(tx * ty);
            }
            long long row_lines = ((tx + kw - 1) * 4 + line - 1) / line;
            double traffic = (double)(row_lines * line * (ty + kh - 1)) / (double)(tx * ty);
            int better = best->cost < 0 || cost < best->cost * 0.999 ||
                         (cost <= best->cost * 1.001 &&
                          (ry < best->ry || (ry == best->ry && traffic < best->traffic)));
            if (better)
                *best = (tile_pick){tx, ty, ry, block, slots, occ, blocks, cost, traffic, res};
        }
    }
    return gp_ok();
}

gp_status gp_conv2d_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    gp_conv2d_shape own = headline;
    if (in->shape && in->shape->d[GP_CONV2D_DIM_W] > 0)
        GP_TRY(gp_conv2d_shape_of(in->shape, &own));
    const gp_conv2d_shape *s = &own;
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    const gp_rule_cu cu = f.cu;
    double waves = f.waves.v, cus = f.cus.v, line = f.l1_line.v, fma = f.fma.v, bw = f.dram_gbs.v;
    double clk = f.clock_mhz.v;
    int have_waves = f.waves.have, have_cus = f.cus.have, have_line = f.l1_line.have, have_fma = f.fma.have;
    int have_bw = f.dram_gbs.have, have_clk = f.clock_mhz.have;

    /* block: the waves a CU needs for peak FMA issue, within the launch
     * bounds; smaller only for a problem of fewer blocks than CUs (below). */
    const long long max_block = gp_rule_clamp(gp_rule_floor_pow2((long long)waves * cu.wave), 64, GP_CONV2D_MAX_BLOCK);

    /* out_channels_per_block: every input pixel staged is reused by OCB output
     * channels; the most compiled.  The machine balance says which floor binds:
     * a 6x6 kernel does 72 FMA per input load per output channel, far above it. */
    /* FLOPs the FMA units do per DRAM byte; 0 where a fact is none. */
    const double balance = have_fma && have_bw && have_clk && have_cus ? 2.0 * fma * cus * clk * 1e6 / (bw * 1e9) : 0;
    char bal[96] = "machine balance unknown (facts none)";
    if (balance > 0)
        snprintf(bal, sizeof bal, "machine balance %.1f FLOP/B (fp32 %.0f x %.0f CU @%.0f MHz vs %.0f GB/s)",
                 balance, fma, cus, clk, bw);
    GP_TRY(gp_rule_set(out, "conv2d", "out_channels_per_block", CONV2D_MAX_OCB, "reuse",
                       "the most reuse per staged pixel; %s", bal));

    /* tile: pick_tile, for the problem's shape. */
    const long long kh = s->kh, kw = s->kw;
    const long long groups = (s->out_c + CONV2D_MAX_OCB - 1) / CONV2D_MAX_OCB;
    long long oh = (long long)s->h + 2 * s->pad_h - kh + 1, ow = (long long)s->w + 2 * s->pad_w - kw + 1;
    if (oh < 1 || ow < 1)
        oh = s->h, ow = s->w;
    tile_pick best;
    GP_TRY(pick_tile(in, &cu, s, max_block, oh, ow, groups, (long long)line, cus, 0, 16, &best));
    /* Tiles whose rows are whole L1 lines (below: 16-pixel-wide tiles ran slower than the model said). */
    const long long wide = gp_rule_clamp(gp_rule_ceil_pow2((long long)line / 4), 16, 64);
    /* Smaller blocks, where more of them fit a CU (the register count
     * allows blocks, not threads: 96 registers hold 2 blocks of 256, 512
     * threads, or 5 of 128, 640).  Which block wins depends on what bounds
     * the problem, read from its FLOPs a DRAM byte (2 in_c kh kw out_c per
     * 4 (in_c + out_c) bytes an output pixel) against the machine balance:
     * - below it, the kernel waits on memory, and the most threads resident
     *   keep the most bytes in flight (Little's law): the block with the
     *   most resident threads, the larger on a tie;
     * - above it, the FMAs bound: a CU's time goes as its rounds of resident
     *   blocks x the blocks resident x the tile's pixels (each round shares
     *   the CU), so the block that quantizes the problem into the fewest
     *   such pixel-rounds wins, the larger on a tie (fewer barriers and
     *   halo).
     * Measured on the H200 with `gpuprobe tune conv2d --shape` on ten shapes,
     * six of them new to this step (docs/kernels/conv2d.md, "The rule on
     * unseen shapes"). */
    char why[200] = "";
    const double flop_px = 2.0 * s->in_c * (double)(kh * kw) * s->out_c, byte_px = 4.0 * (s->in_c + s->out_c);
    if (balance > 0 && 2 * best.blocks >= (long long)cus) {
        const int mem = flop_px / byte_px < balance;
        tile_pick top = best;
        for (long long b = max_block / 2; b >= 64; b /= 2) {
            tile_pick c;
            GP_TRY(pick_tile(in, &cu, s, b, oh, ow, groups, (long long)line, cus, 0, best.tx < wide ? best.tx : wide,
                             &c));
            const int better = mem ? c.occ * c.block > top.occ * top.block
                                   : c.cost * (double)c.occ < top.cost * (double)top.occ * 0.999;
            if (c.occ > 0 && better)
                top = c;
        }
        if (top.block != best.block) /* said where it moves the block: the tables' text stays as it was */
            snprintf(why, sizeof why, "; %.1f FLOP/B %s the balance %.1f: %s, block %lld", flop_px / byte_px,
                     mem ? "below" : "at or above", balance,
                     mem ? "the most threads resident" : "the fewest pixel-rounds a CU", top.block);
        best = top;
    }
    /* Fewer blocks than half the CUs: most CUs idle, and the busiest runs
     * one block of max_block threads alone.  Smaller blocks spread the same
     * pixels over more CUs; the busiest CU's time then goes as its blocks x
     * tile area over its issue rate, full from CONV2D_SAT_WAVES waves (a
     * thread's 32 or 64 independent accumulators need no more).  The least
     * such time over blocks of 64..max_block / 2 replaces the waves' block
     * where it is a tenth less, among tiles whose rows are whole L1 lines
     * (tile_x >= line / 4 pixels).  Both bounds are measured: on the H200
     * (tools/unseen_shapes.sh, 2026-11-28) 16-pixel-wide tiles in blocks of
     * 64 and 128 ran 1.09x and 1.15x slower than 64 x 16 and 32 x 16, on
     * 2x32x128x96 k5x3 (128 blocks of 256, nearly a full wave) and
     * 1x16x256x256 k7 (64 blocks), though this model gave them less time. */
    char small[160] = "";
    if (2 * best.blocks < (long long)cus) {
        tile_pick at_max, small_best;
        GP_TRY(pick_tile(in, &cu, s, max_block, oh, ow, groups, (long long)line, cus, 1, wide, &at_max));
        small_best = at_max;
        for (long long b = max_block / 2; b >= 64; b /= 2) {
            tile_pick c;
            GP_TRY(pick_tile(in, &cu, s, b, oh, ow, groups, (long long)line, cus, 1, wide, &c));
            if (c.cost < small_best.cost * 0.999)
                small_best = c;
        }
        if (small_best.cost < at_max.cost * 0.9)
            best = small_best;
        snprintf(small, sizeof small,
                 "; %lld blocks < half of %.0f CUs at %lld threads: block %lld (busiest CU %.0f px-time against %.0f; "
                 "full issue from %d waves)",
                 at_max.blocks, cus, max_block, best.block, small_best.cost, at_max.cost, CONV2D_SAT_WAVES);
    }
    GP_TRY(gp_rule_set(out, "conv2d", "block", best.block, "occupancy",
                       "compute.min_waves_for_peak %.0f%s x wave %lld, launch bound %d%s%s", waves,
                       have_waves ? "" : " (none: 8)", cu.wave, GP_CONV2D_MAX_BLOCK, why, small));
    char ks[48];
    if (kh == kw)
        snprintf(ks, sizeof ks, "k%lld", kh);
    else
        snprintf(ks, sizeof ks, "k%lldx%lld", kh, kw);
    if (s->n > 1 || groups > 1) /* the headline's provenance stays as it was */
        snprintf(ks + strlen(ks), sizeof ks - strlen(ks), ", %d images x %lld channel groups", s->n, groups);
    GP_TRY(gp_rule_set(out, "conv2d", "tile_x", best.tx, "waves",
                       "%lldx%lld out (%s): %lld slots (%lld blocks/CU at regs %lld (%s)); %.2f B/px in %.0f B lines%s",
                       oh, ow, ks, best.slots, best.occ, best.res.regs, best.res.src, best.traffic, line,
                       have_line ? "" : " (none: 128)"));
    GP_TRY(gp_rule_set(out, "conv2d", "tile_y", best.ty, "waves", "%lld rows/thread x %lld thread rows; %lldx%lld out",
                       best.ry, best.block / (best.tx / GP_CONV2D_RX), oh, ow));
    /* variant: the tiled kernel with the compiled kernel sizes (it falls back
     * to the generic tiled code for other sizes by itself). */
    GP_TRY(gp_rule_set(out, "conv2d", "variant", 0, "compiled", "tiled with compiled kernel sizes 3 5 6 7%s%s",
                       cu.fallback[0] ? "; " : "", cu.fallback));
    return gp_ok();
}
