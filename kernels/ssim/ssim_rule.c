/* gp_ssim_rule: every kernel.ssim parameter from the device facts and the
 * problem.  The models: docs/kernels/ssim.md, "Rule".
 *
 * The shape (n c h w; the border does not enter) moves two of them:
 * tile_y, the strip height, by the busiest CU's time: a problem of P = n c
 * planes of H rows and T = ceil(W / tile_x) column tiles launches B = P T
 * ceil(H / tile_y) blocks; the busiest CU runs m = ceil(B / CUs) of them in
 * waves of the k it holds at once, each wave as long as its busiest
 * scheduler takes to issue its warps (a scheduler with w warps issues when
 * one of them is ready, each ready with probability p: 1 - (1 - p)^w), each
 * block the rows its strip reads in whole passes and a fixed cost: a 1
 * Mpixel image fills the CUs only with short strips, a 4K RGB one with tall
 * strips that pay less halo, and a partial last wave costs what its busiest
 * scheduler issues, not a full wave.  And tile_x through the image's load
 * width (W a multiple of 4: the float4 instantiation, whose register and
 * LDS use the occupancy takes). */
#include <math.h>
#include <stdio.h>

#include "kernel.h"
#include "rule.h"
#include "ssim.h"

#define RULE "gp_ssim_rule"
/* Registers per thread of every fused instantiation (tile_x 32/64/128 x
 * prefetch/direct x scalar/float4): ptxas -v for sm_80 and sm_90 reports 128,
 * the bound the kernel's launch bounds give 256 threads in a 64 Ki file.
 * With a device open (in->use_device) the runtime's attributes replace it
 * (gp_rule_resources). */
/* regs: SSIM_REGS gp_ssim_fused_kernel */
#define SSIM_REGS 128
/* A block's fixed cost beyond its rows and halo (the pipeline's fill, its
 * partial sum's reduction and store, the block's launch), in rows of a
 * 128-wide strip.  Read off the H100 and H200 runs of 2026-11-28 (`tune
 * ssim --shape`, and the H200's headline sweep): 128-row strips beat
 * 32-row ones 1.13x on 1x3x1080x1920, 1.20x on 8x3x512x512 and 1.20x on
 * 2x3x720x1280 valid, which this model gives for any cost from 5 rows up,
 * and beat 512-row ones 1.03x on the headline, which it gives up to 14;
 * 10 is the middle of that window (whole rounds of blocks, the model
 * before the partial wave, gave 7..14).  Without it the model took 32-row
 * strips on those shapes. */
#define SSIM_BLOCK_ROWS 10
/* The chance that one warp of the fused kernel is ready to issue in a
 * cycle, p in the issue model 1 - (1 - p)^w of a scheduler holding w warps.
 * From Nsight Compute on the H200 (docs/kernels/ssim.md, "Fewer
 * instructions, blocks of two warps"): the 64-wide kernel issued on 83.8 %
 * of the cycles with 3.68 warps a scheduler resident, so p = 1 - 0.162^(1 /
 * 3.68) = 0.39 (the kernel before that change: 0.81 with 3.84, p = 0.35).
 * The kernel's own property (its dependency chains), not the device's: the
 * same p on every target.  Of the 17 shapes the H200 swept with this rule,
 * p = 0.35 picks the same strips on 16 and 103 rows (1.058x the best) for
 * 8x3x512x512, where 0.39 takes 128, the best candidate.  On wave-64 targets
 * a block of 128 threads is half a wave a SIMD: the warps a scheduler holds
 * move in halves. */
#define SSIM_WARP_READY 0.39
/* Waves a block: the row group (and the block) is at most this many
 * waves wide (two at wave 32: 64 columns; at wave 64: 128).  Every pass
 * ends at a barrier, and a block's warps sit on different schedulers, each
 * shared with other blocks' warps: the block waits for its slowest warp,
 * and the more warps it has, the longer.  Nsight Compute on the H200, the
 * 4K image (docs/kernels/ssim.md, "Fewer instructions, blocks of two
 * warps"): warps stalled on the barrier per issued instruction 1.11 with
 * 128-wide groups (4 warps a block), 0.25 with 64-wide ones (2 warps), the
 * same 118 M instructions, issue slots busy 77 % against 84 %.  Narrower
 * still, a 32-wide group stages 50 % more halo columns per output than a
 * 64-wide one (16 / 32 against 16 / 64) and ran 1-9 % slower in the same
 * sweeps. */
#define SSIM_BLOCK_WAVES 2
/* Warp schedulers (NVIDIA) or SIMDs (AMD GCN/CDNA) a CU: 4 on every target
 * this tree compiles but RDNA's (2 SIMD32 a CU), where it stands in. */
#define SSIM_SCHEDULERS 4
/* The issue rate of a scheduler holding `warps` warps of the fused kernel:
 * it issues when one of them is ready, each ready with SSIM_WARP_READY. */
static double issue_rate(double warps) { return 1.0 - pow(1.0 - SSIM_WARP_READY, warps); }
/* A wave of j blocks of `per_sched` warps a scheduler each (a fraction for
 * blocks of fewer warps than schedulers), in block-times: the warps go to
 * the schedulers in turn, so the busiest holds ceil(j per_sched) of them and
 * the wave lasts while it issues their rows. */
static double wave_cost(long long j, double per_sched)
{
    double w = ceil((double)j * per_sched - 1e-9);
    return w / issue_rate(w) / per_sched;
}

/* The headline problem: bench's 1 x 3 x 2160 x 3840 image, border 'same'. */
static const long long headline[4] = {1, 3, 2160, 3840};

/* LDS of one row group (ssim.c's lds_per_group: the moments and the staging
 * rows). */
static long long lds_per_group(long long tile_x)
{
    return (long long)GP_SSIM_ROWS * (tile_x + 1) * 16 + 2ll * GP_SSIM_ROWS * (tile_x + 20) * 4;
}

gp_status gp_ssim_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    long long d[4];
    for (int k = 0; k < 4; k++) /* a size the shape leaves 0 is the headline's */
        d[k] = in->shape && in->shape->d[GP_SSIM_SHAPE_N + k] > 0 ? in->shape->d[GP_SSIM_SHAPE_N + k] : headline[k];
    const long long n = d[0], c = d[1], h = d[2], w = d[3];
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    const gp_rule_cu cu = f.cu;
    double waves = f.waves.v, cus = f.cus.v;
    int have_waves = f.waves.have, have_cus = f.cus.have;
    long long want = (long long)waves * cu.wave; /* resident threads per CU for peak issue */

    /* tile_x: the widest row group (32, 64, 128; at least one wave, at most
     * SSIM_BLOCK_WAVES) whose occupancy (registers, LDS, thread cap) still
     * gives the threads per CU the fma probe needed for peak; if none does,
     * the one with the most resident threads, the wider on a tie (the halo
     * costs 16 / tile_x of the staging). */
    /* Resource use per row group width: the prefetch instantiation (the one
     * with the most live registers) for the image's load width. */
    int vec = w % 4 == 0;
    long long tile_x = 0, best_thr = -1, occ_at = 0;
    gp_rule_res res = {0}, at = {0};
    for (long long tx = 32; tx <= 128; tx *= 2) {
        GP_TRY(gp_rule_resources(in->use_device, gp_ssim_fused_fn((int)tx, GP_SSIM_VARIANT_PREFETCH, vec), SSIM_REGS,
                                 lds_per_group(tx), &res));
        if (tx < cu.wave || tx > SSIM_BLOCK_WAVES * cu.wave || res.lds > cu.lds_per_block || tx > res.max_threads)
            continue;
        long long occ = gp_rule_blocks_per_cu(&cu, tx, res.regs, res.lds);
        long long thr = occ * tx;
        if (occ > 0 && (thr >= want || thr >= best_thr)) {
            tile_x = tx, best_thr = thr, occ_at = occ, at = res;
        }
    }
    if (!tile_x)
        return gp_fail(GP_ERR_UNSUPPORTED, "%s: no row group of 32..128 columns fits lds.bytes_per_block %lld", RULE,
                       cu.lds_per_block);
    GP_TRY(gp_rule_set(out, "ssim", "tile_x", tile_x, "occupancy",
                       "%lld blocks/CU (regs %lld (%s), %lld B LDS) x %lld thr vs %lld wanted "
                       "(min_waves %.0f%s x wave %lld), at most %d waves a block%s%s",
                       occ_at, at.regs, at.src, at.lds, tile_x, want, waves, have_waves ? "" : " none: 8",
                       cu.wave, SSIM_BLOCK_WAVES, cu.fallback[0] ? "; " : "", cu.fallback));

    /* block: one row group; more groups per block only bundle strips the
     * CU's block slots would run anyway. */
    long long block = tile_x < cu.wave ? cu.wave : tile_x;
    block = gp_rule_clamp(block, 64, GP_SSIM_MAX_BLOCK);
    GP_TRY(gp_rule_set(out, "ssim", "block", block, "wave", "one row group of %lld (wave %lld)", tile_x, cu.wave));

    /* tile_y: rows per strip.  The busiest CU's m = ceil(blocks / CUs)
     * blocks run in q = m / occ full waves and one of r = m % occ, a wave
     * lasting while its busiest scheduler issues its warps (wave_cost), each
     * block the strip's rows + 10 halo rows rounded up to whole passes of 8,
     * plus SSIM_BLOCK_ROWS: time ~ rows x (q wave(occ) + wave(r)), least over
     * every strip count whose strips (evened out as the kernel does) hold
     * 16..512 rows: the counts between powers of two are where a wave comes
     * out whole on the schedulers. */
    const long long ncu = cus >= 1 ? (long long)cus : 1;
    const double warps_per_block = (double)block / (double)cu.wave / SSIM_SCHEDULERS;
    long long planes = n * c, ntx = (w + tile_x - 1) / tile_x;
    long long best_ty = 128, best_m = 0, best_strips = 1;
    double best_cost = -1;
    for (long long strips = 1; strips == 1 || strips <= (h + 15) / 16; strips++) {
        long long even = (h + strips - 1) / strips;
        if (even > 512 || (h + even - 1) / even != strips) /* the kernel makes fewer strips of this height */
            continue;
        long long blocks = planes * ntx * strips, m = (blocks + ncu - 1) / ncu;
        long long q = m / occ_at, r = m % occ_at;
        double waves_cost = (double)q * wave_cost(occ_at, warps_per_block);
        if (r)
            waves_cost += wave_cost(r, warps_per_block);
        /* the kernel stages and filters whole passes of GP_SSIM_ROWS rows */
        long long passes = (even + 2 * GP_SSIM_HALF + GP_SSIM_ROWS - 1) / GP_SSIM_ROWS;
        double cost = waves_cost * (double)(passes * GP_SSIM_ROWS + SSIM_BLOCK_ROWS);
        if (best_cost < 0 || cost < best_cost)
            best_cost = cost, best_ty = even, best_m = m, best_strips = strips;
    }
    GP_TRY(gp_rule_set(out, "ssim", "tile_y", best_ty, "waves",
                       "%lldx%lldx%lldx%lld: %lld planes x %lld column tiles x %lld strips, busiest of %s%lld CUs "
                       "%lld blocks in waves of %lld, each as long as its busiest of %d schedulers issues at "
                       "1-(1-%.2f)^warps -> least (passes of rows + halo + %d) x waves",
                       n, c, h, w, planes, ntx, best_strips, have_cus ? "" : "compute_units none: ", ncu, best_m,
                       occ_at, SSIM_SCHEDULERS, SSIM_WARP_READY, SSIM_BLOCK_ROWS));

    /* variant: prefetch holds the next pass's rows in registers; take it when
     * the registers per thread at the occupancy target, registers.per_cu /
     * (min_waves x wave), cover the kernel's SSIM_REGS. */
    long long budget = cu.regs_per_cu / (want > 0 ? want : 1);
    int prefetch = budget >= at.regs;
    GP_TRY(gp_rule_set(out, "ssim", "variant", prefetch ? GP_SSIM_VARIANT_PREFETCH : GP_SSIM_VARIANT_DIRECT,
                       "registers", "registers.per_cu %lld / %lld threads = %lld regs/thread %s %lld (%s) -> %s",
                       cu.regs_per_cu, want, budget, prefetch ? ">=" : "<", at.regs, at.src,
                       prefetch ? "prefetch" : "direct"));
    return gp_ok();
}
