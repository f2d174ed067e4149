/* gp_padding_rule: every kernel.padding parameter from the device facts.
 *
 * items_per_thread (Little's law): to stream at the DRAM bandwidth B with
 * latency L, B x L bytes must be in flight, B x L / CUs per CU.  A CU keeps
 * the threads the occupancy model grants at PADDING_REGS registers resident.
 * The output is the larger part of the traffic (a padded plane is bigger than
 * its input), and a thread stores its items only after its loads land, so
 * each thread writes items x 4 B per load round trip, whatever share of its
 * outputs load; the round trip under load is about twice the idle latency
 * the chase measures (LOADED_LATENCY, the histogram rule's assumption):
 *     items_per_thread = ceil_pow2(2 B L / (CUs x threads per CU x 4 B)),
 * between 4 and GP_PADDING_MAX_ITEMS.  H200: 2 x 11.9 KiB / (1024 x 4 B) =
 * 5.8 -> 8, the best or within 2.5 % of it on 16 shapes of 4 x 4 to 224 x 224
 * planes padded by 1 to 3 (docs/kernels/padding.md); the loads' share `f`
 * in the denominator, the rule until 2026-11-29, gave 4 on 14 x 14 planes
 * padded by 1 (8 % slower) and 16 on 7 x 7 by 3 (up to 18 % slower on a
 * small problem).  Without the DRAM facts (none) the stand-in is 8, the
 * middle of the compiled 4..16.  A short grid halves them (short_grid_items).
 * block: the smallest block the launch-rate probe saw reach the peak
 * (launch.min_block_for_peak, stand-in 256), as a power of two below it,
 * 64..1024.
 * planes_per_block (the staged kernel, sized for the 7 x 7 reference plane,
 * GP_PADDING_STAGED_PLANE_BYTES = 196 B, padding_staged.h):
 *   - whether: the flat kernel gathers each input row with 4-byte loads,
 *     the staged kernel reads whole contiguous planes with 16-byte ones; a
 *     row of a sector or more (cache.l1.sector_bytes, else line_bytes): 0
 *     (flat).  Below a sector the plane may stage; the shape decides (the
 *     last item: a plane's rows are adjacent in memory, so what staging saves
 *     is load instructions, not sectors, and it pays only where the shape
 *     says).
 *   - how many: a block's P planes are its loads in flight (phase 1 issues
 *     them all before the barrier), so P = the Little's-law bytes a CU must
 *     keep in flight (dram bandwidth x latency / CUs) over one plane's bytes,
 *     ceil_pow2, 4..GP_PADDING_MAX_PLANES, and at most the planes the LDS a
 *     block may use holds (lds.bytes_per_block, the compiled 48 KiB).
 *     H200: 11.6 KiB/CU / 196 B = 60.9 -> 64.  Measured (H200 2026-11-24,
 *     `gpuprobe bench padding --table lookup`, paired vs the copy, 7x7 + 3):
 *     P 16, 32, 64: 0.665, 0.814, 0.919; flat (512 x 16) 0.873.
 *   - without the DRAM facts P cannot be sized: 0 (flat).
 *   - the shape (planes_for_shape): P at most the planes over the CUs, so
 *     every CU gets a block (at least 4: else flat); and the staged kernel
 *     only where its stores cover its loads, the output at least
 *     STAGED_MIN_GROWTH times the input (7 x 7 padded by 3: 3.45), or where
 *     a P of Little's up to 128 puts the whole grid in one even wave of
 *     resident blocks (every block's loads issue at once; the busiest CU at
 *     most STAGED_MAX_TAIL over the mean).  Elsewhere flat: H200,
 *     256x512x7x7 padded by 1 (1.65x, 2048 blocks of 64 planes): staged
 *     1.126x slower than flat; 128x512x7x7 by 1 in 512 blocks of 128 (one
 *     wave of 528) and 128x256x7x7 by 2 in 512 of 64: staged 5-8 % faster.
 * The table key is the headline's P (no shape: the 7 x 7 reference plane).
 * For a shape the rule sizes P for the shape's own plane the same way: a
 * row of a sector or more, or a plane larger than the reference's 196 B
 * (which the host never stages: gp_padding_staged_usable), is 0 (flat; 56x56
 * measured flat 0.998 of the copy, staged 0.82-0.84); a smaller plane gets
 * more planes a block for the same bytes in flight (H200, 4 x 4 planes of
 * 64 B: 11.6 KiB / 64 B = 186 -> 128, the most compiled).  The models:
 * docs/kernels/padding.md. */
#include "kernel.h"
#include "padding.h"
#include "padding_staged.h"
#include "rule.h"

#define RULE "gp_padding_rule"
/* Registers per thread the occupancy model assumes: ptxas sm_90 uses 30, 32
 * and 42 at 4, 8 and 16 items (tests/build/rule_regs.txt checks it). */
/* regs: PADDING_REGS gp_padding_kernelILi(4|8|16)E */
#define PADDING_REGS 48
/* regs: PADDING_STAGED_REGS gp_padding_staged_kernel */
#define PADDING_STAGED_REGS 32 /* ptxas sm_80/sm_90 32; gfx9-11 23 VGPRs */
/* The latency under load over the idle one the chase measures (the model's
 * assumption, as in the histogram rule). */
#define LOADED_LATENCY 2.0
/* The output-to-input ratio from which the staged kernel's stores hide its
 * blocks' load phases at any grid (H200 2026-11-29: 3.45 staged 0-2 %
 * ahead of flat at 2048-4096 blocks; 2.47 and 1.65 7-13 % behind). */
#define STAGED_MIN_GROWTH 3.0
/* The rounds of the resident threads a grid needs before Little's law sizes
 * its items (short_grid_items). */
#define MIN_ROUNDS 4
/* The staged grid's busiest CU may carry at most this much over the mean
 * planes a CU (one wave, planes_for_shape). */
#define STAGED_MAX_TAIL 1.1
/* items_per_thread when the DRAM facts are none. */
#define PADDING_ITEMS_STANDIN 8

/* planes_per_block for a shape whose planes the staged kernel can take,
 * from Little's P (see the comment at the top: the fill, the growth, one
 * wave). */
static gp_status planes_for_shape(const gp_rule_facts *f, const gp_shape *sh, long long P, long long fit,
                                  gp_table *out)
{
    const gp_padding_shape ps = gp_padding_shape_of(sh);
    const long long h = ps.h, w = ps.w, ho = gp_padding_out_h(&ps), wo = gp_padding_out_w(&ps);
    const long long planes = (long long)ps.n * ps.c, cus = (long long)f->cus.v;
    const double growth = (double)(ho * wo) / (double)(h * w);
    const long long per_cu = planes / (cus > 0 ? cus : 1), cap = per_cu > 0 ? gp_rule_floor_pow2(per_cu) : 0;
    if (cap < 4)
        return gp_rule_set(out, "padding", "planes_per_block", 0, "fill",
                           "%lld planes < 4 a CU over %lld CUs: blocks of planes would leave CUs idle -> 0 (flat)",
                           planes, cus);
    if (P > cap)
        P = cap;
    if (growth >= STAGED_MIN_GROWTH)
        return gp_rule_set(out, "padding", "planes_per_block", P, "growth",
                           "%lldx%lld -> %lldx%lld: output %.2fx the input (>= %.0f: the stores hide the loads); "
                           "%lld planes, <= %lld a block for %lld CUs -> %lld",
                           h, w, ho, wo, growth, STAGED_MIN_GROWTH, planes, cap, cus, P);
    long long block = 0;
    GP_TRY(gp_table_get_int(out, "kernel.padding", "block", &block));
    const long long most = fit < GP_PADDING_MAX_PLANES ? fit : GP_PADDING_MAX_PLANES;
    for (long long q = P; q <= most && q <= cap; q *= 2) {
        const long long blocks = (planes + q - 1) / q;
        const long long slots = cus * gp_rule_blocks_per_cu(&f->cu, block, PADDING_STAGED_REGS, q * h * w * 4);
        const long long busiest = (blocks + cus - 1) / cus * q; /* planes on the busiest CU */
        if (blocks <= slots && (double)(busiest * cus) <= STAGED_MAX_TAIL * (double)planes)
            return gp_rule_set(out, "padding", "planes_per_block", q, "wave",
                               "output %.2fx the input (< %.0f); %lld planes in %lld blocks of %lld <= %lld resident "
                               "(%lld CUs): one wave -> %lld",
                               growth, STAGED_MIN_GROWTH, planes, blocks, q, slots, cus, q);
    }
    return gp_rule_set(out, "padding", "planes_per_block", 0, "wave",
                       "output %.2fx the input (< %.0f) and %lld planes in no single even wave of blocks of "
                       "%lld..%lld planes -> 0 (flat)",
                       growth, STAGED_MIN_GROWTH, planes, P, most < cap ? most : cap);
}

/* planes_per_block for the input plane of sh (NULL: the 7 x 7 reference):
 * see the comment at the top. */
static gp_status planes_rule(const gp_table *facts, const gp_shape *sh, gp_table *out)
{
    gp_rule_facts f;
    double sector;
    int have_sector, h = GP_PADDING_STAGED_REF_H, w = GP_PADDING_STAGED_REF_W;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    GP_TRY(gp_rule_fact_or(facts, RULE, "cache.l1", "sector_bytes", f.l1_line.v, &sector, &have_sector));
    if (sh && sh->d[GP_PAD_H] > 0 && sh->d[GP_PAD_W] > 0) {
        const long long ph = sh->d[GP_PAD_H], pw = sh->d[GP_PAD_W];
        if (ph > GP_PADDING_STAGED_PLANE_BYTES || pw > GP_PADDING_STAGED_PLANE_BYTES ||
            ph * pw * 4 > GP_PADDING_STAGED_PLANE_BYTES)
            return gp_rule_set(out, "padding", "planes_per_block", 0, "sectors",
                               "%lldx%lld plane %.0f B > the %d B (%dx%d) the host stages -> 0 (flat)", ph, pw,
                               4.0 * (double)ph * (double)pw, GP_PADDING_STAGED_PLANE_BYTES, GP_PADDING_STAGED_REF_H,
                               GP_PADDING_STAGED_REF_W);
        h = (int)sh->d[GP_PAD_H], w = (int)sh->d[GP_PAD_W];
    }
    const int row = w * 4, plane = h * w * 4;
    const char *sname = have_sector ? "cache.l1.sector_bytes" : "cache.l1.line_bytes (sector none)";
    if (row >= sector)
        return gp_rule_set(out, "padding", "planes_per_block", 0, "sectors",
                           "%dx%d %s row %d B >= %s %.0f: the flat kernel's gathers read whole sectors -> 0 "
                           "(flat)",
                           h, w, sh ? "plane" : "reference", row, sname, sector);
    if (!f.dram_gbs.have || !f.dram_latency.have || !f.clock_mhz.have)
        return gp_rule_set(out, "padding", "planes_per_block", 0, "little",
                           "row %d B < %s %.0f, but the dram/clock facts are none: P unsized -> 0 (flat)", row, sname,
                           sector);
    const double per_cu =
        gp_rule_bytes_in_flight_per_cu(f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v, (long long)f.cus.v);
    long long lds = f.cu.lds_per_block < GP_PADDING_STAGED_LDS ? f.cu.lds_per_block : GP_PADDING_STAGED_LDS;
    const long long fit = lds / plane;
    const double want = per_cu / plane;
    long long P = gp_rule_ceil_pow2((long long)(want > GP_PADDING_MAX_PLANES ? GP_PADDING_MAX_PLANES : want + 0.999999));
    P = gp_rule_clamp(P, 4, GP_PADDING_MAX_PLANES);
    if (P > fit)
        P = fit >= 4 ? gp_rule_floor_pow2(fit) : 0;
    if (sh && P > 0)
        return planes_for_shape(&f, sh, P, fit, out);
    return gp_rule_set(out, "padding", "planes_per_block", P, "little",
                       "row %d B < %s %.0f; dram %.0f GB/s x %.0f cyc @%.0f MHz / %.0f CUs = %.1f KiB/CU / %d B "
                       "(%dx%d plane) = %.1f -> %lld (lds %lld B: <= %lld); bigger planes flat",
                       row, have_sector ? "sector" : "line", sector, f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v,
                       f.cus.v, per_cu / 1024.0, plane, h, w, want, P, lds, fit);
}

/* A short grid ("rounds"): Little's law sizes the items for a stream in
 * steady state, but a problem of fewer than MIN_ROUNDS rounds of the
 * resident threads (each thread's items once a round) is mostly its first
 * and last round, and the last round's tail lasts a thread's chain of items:
 * halve the items (the flat kernel; at least the least compiled) while the
 * grid has fewer rounds.  H200 (2026-11-29): 8x3x224x224 padded by 3 (0.6
 * rounds at 8 items), 96x192x7x7 by 2 (1.0), 64x512x7x7 by 1 (1.2) and
 * 128x128x10x10 by 2 (1.5): 4 items 3-8 % faster than 8; from 200x300x7x7
 * by 1 (2.3 rounds: 4 items 1.9 % faster) up, 8 as fast or faster
 * (128x256x14x14 by 1, 3.9 rounds: 8 items 8 % faster). */
static gp_status short_grid_items(const gp_table *facts, const gp_shape *sh, gp_table *out)
{
    long long items = 0, block = 0, planes = 0;
    if (!sh || sh->d[GP_PAD_H] < 1 || sh->d[GP_PAD_W] < 1)
        return gp_ok();
    GP_TRY(gp_table_get_int(out, "kernel.padding", "planes_per_block", &planes));
    GP_TRY(gp_table_get_int(out, "kernel.padding", "items_per_thread", &items));
    GP_TRY(gp_table_get_int(out, "kernel.padding", "block", &block));
    if (planes > 0 || items <= GP_PADDING_MIN_ITEMS)
        return gp_ok();
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    const gp_padding_shape ps = gp_padding_shape_of(sh);
    const double outputs = (double)gp_padding_out_elems(&ps);
    const double threads = (double)(gp_rule_blocks_per_cu(&f.cu, block, PADDING_REGS, 0) * block) * f.cus.v;
    const long long from = items;
    double rounds = outputs / (threads * (double)items);
    while (rounds < MIN_ROUNDS && items > GP_PADDING_MIN_ITEMS)
        items /= 2, rounds *= 2;
    if (items == from)
        return gp_ok();
    return gp_rule_set(out, "padding", "items_per_thread", items, "rounds",
                       "%.0f outputs / (%.0f resident threads x %lld items) = %.2f rounds < %d: a short grid, "
                       "shorter chains -> %lld",
                       outputs, threads, from, outputs / (threads * (double)from), MIN_ROUNDS, items);
}

gp_status gp_padding_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"padding",
                              RULE,
                              "items_per_thread",
                              PADDING_REGS,
                              4.0 / LOADED_LATENCY,
                              GP_PADDING_MAX_ITEMS,
                              GP_PADDING_MAX_BLOCK,
                              PADDING_ITEMS_STANDIN,
                              GP_PADDING_MIN_ITEMS};
    GP_TRY(gp_rule_streaming(in->facts, &s, out));
    GP_TRY(planes_rule(in->facts, in->shape, out));
    return short_grid_items(in->facts, in->shape, out);
}
