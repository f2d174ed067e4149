/* gp_scan_rule: kernel.scan block and items_per_thread from the device facts
 * and the problem's length.  The models, with the H200 figures they land on:
 * docs/kernels/scan.md, "Rule".
 *
 * Little's law ("little") sets the least items per thread: to stream at
 * dram.bandwidth_gbs every CU needs bandwidth x latency / CUs bytes of loads
 * in flight; a tile holds its loads for about one DRAM latency and then waits
 * about as long on the look-back and its stores, so only half of the resident
 * threads have loads in flight: need twice that, over the resident threads,
 * in whole 16-byte vectors.
 *
 * The tile ("tile") then takes as many items as the registers allow: every
 * tile pays one step of the look-back chain (its descriptor published, its
 * predecessors' read), a serial cost that more bytes in flight do not hide
 * (H200, 2^28 fp32, 256 threads: 1.55, 0.98, 0.83, 0.76 ms at 4, 8, 16, 32
 * items, while Little's law is met from 8).  So: the largest items per thread
 * (64 down to Little's least) whose kernel, at its launch bounds' register
 * cap, still keeps two blocks of at least 4 waves per CU (one loading while
 * the other waits on its look-back), the largest such block (the fewest
 * tiles, so the fewest look-back steps) up to launch.min_block_for_peak and
 * RULE_MAX_BLOCK, and whose tiles still give every CU two blocks twice over
 * for the problem's length (a short array wants small tiles to fill the GPU).
 * H200: 64 items at 128 registers (launch bounds 256 x 2 a CU; ptxas 117-125)
 * -> 65536 / (2 x 128) = block 256, tile 16384, 16384 tiles of 2^28 >= 4 x
 * 132.  Measured (H200 2026-11-24, `gpuprobe bench scan --table lookup`,
 * paired vs CUB InclusiveSum): b256/i64 1.018x (p10-p90 1.010-1.030),
 * b128/i64 0.999x (0.988-1.011); unpaired b128/i32 0.96, b256/i32 0.95,
 * b512/i16 0.85: the largest tile wins.
 *
 * A short array ("fewest", register kernel) then takes the largest tile that
 * puts no more elements on the busiest CU: fewer look-back steps at the same
 * streaming time (fewest_tiles below). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gp_target.h"
#include "kernel.h"
#include "rule.h"
#include "scan.h"

#define RULE "gp_scan_rule"
/* LDS per block: the tile ticket and one total per wave (scan.hip s_tile,
 * s_wave), sized for the most waves a block can have. */
#define SCAN_LDS (4 + 4 * (GP_SCAN_MAX_BLOCK / 32))
/* The largest block the rule picks: a block stalls whole while wave 0 looks
 * back. */
#define RULE_MAX_BLOCK 512
/* The headline problem: 2^28 elements. */
#define HEADLINE_N ((long long)1 << 28)
/* The ring's least stages in the rule: the tile being scanned (waiting on its
 * look-back), the next one landed with its aggregate out (so the tiles behind
 * it on other CUs are not held up: scan.hip), and one in flight. */
#define RULE_MIN_STAGES 3

/* Registers per thread the kernel for `items` may use: its launch bounds cap
 * them at 65536 / (its block limit x the blocks per CU it asks for) (scan.h
 * GP_SCAN_BLOCK_LIMIT, scan.hip GP_SCAN_LB_MIN; ptxas sm_90 uses 32..48,
 * 69..72 and 115..125 for 4..16, 32 and 64 items; tests/build/rule_regs.txt
 * checks ptxas against these). */
/* The kernels of 4, 8 and 16 items (template element, V = 1, 2, 4 vectors,
 * either store width), 32 (V = 8) and 64 (V = 16). */
/* regs: SCAN_REGS_16 gp_scan_kernelI[fj]Li[124]E */
/* regs: SCAN_REGS_32 gp_scan_kernelI[fj]Li8E */
/* regs: SCAN_REGS_64 gp_scan_kernelI[fj]Li16E */
#define SCAN_REGS_16 64  /* items 4, 8, 16: 1024 threads */
#define SCAN_REGS_32 128 /* items 32: 512 threads */
#define SCAN_REGS_64 128 /* items 64: 256 threads, 2 blocks a CU */
static long long scan_regs(long long items)
{
    return items <= 16 ? SCAN_REGS_16 : items <= 32 ? SCAN_REGS_32 : SCAN_REGS_64;
}

/* The facts Little's law needs that the table has as none, "a, b"; "" when
 * it has them all. */
static void missing_dram_facts(const gp_rule_facts *f, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!f->dram_gbs.have)
        snprintf(buf + strlen(buf), n - strlen(buf), "%sdram.bandwidth_gbs", buf[0] ? ", " : "");
    if (!f->dram_latency.have)
        snprintf(buf + strlen(buf), n - strlen(buf), "%sdram.latency_cycles", buf[0] ? ", " : "");
    if (!f->clock_mhz.have)
        snprintf(buf + strlen(buf), n - strlen(buf), "%sdevice.clock_mhz", buf[0] ? ", " : "");
}

/* Little's least items per thread at `block` threads (resident as the
 * occupancy model says at that kernel's register cap); *why gets the
 * arithmetic. */
static long long little_items(const gp_rule_facts *f, long long block, char *why, size_t n)
{
    char missing[96];
    missing_dram_facts(f, missing, sizeof missing);
    if (missing[0]) {
        snprintf(why, n, "Little's bound unknown (%s none): from one 16-byte vector", missing);
        return GP_SCAN_MIN_ITEMS;
    }
    long long occ = gp_rule_blocks_per_cu(&f->cu, block, scan_regs(16), SCAN_LDS);
    long long resident = (occ < 1 ? 1 : occ) * block;
    double need = 2.0 * gp_rule_bytes_in_flight_per_cu(f->dram_gbs.v, f->dram_latency.v, f->clock_mhz.v,
                                                      (long long)f->cus.v);
    double vecs = need / (double)resident / 16.0;
    vecs = vecs > GP_SCAN_MAX_ITEMS / 4 ? GP_SCAN_MAX_ITEMS / 4 : vecs; /* before the cast: facts may be huge */
    long long items = gp_rule_clamp(4 * gp_rule_ceil_pow2((long long)ceil(vecs)), GP_SCAN_MIN_ITEMS,
                                    GP_SCAN_MAX_ITEMS);
    snprintf(why, n, "Little: 2 x %.0f GB/s x %.0f cycles @%.0f MHz / %.0f CUs%s = %.0f B/CU over %lld threads "
                     "= %.1f vectors -> at least %lld",
             f->dram_gbs.v, f->dram_latency.v, f->clock_mhz.v, f->cus.v, f->cus.have ? "" : " (none)", need,
             resident, need / (double)resident / 16.0, items);
    return items;
}

/* device.arch, "none" when the table has none. */
static const char *arch_of(const gp_table *t)
{
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    return arch && arch->present && !arch->is_none ? arch->text : "none";
}

/* The block that keeps two of `items` a CU at its kernel's register cap, at
 * most the launch peak and `limit` (the kernel's block bound). */
static long long two_a_cu(const gp_rule_cu *cu, long long items, long long peak, long long limit)
{
    long long b = gp_rule_floor_pow2(cu->regs_per_cu / (2 * scan_regs(items)));
    b = b > peak ? peak : b;
    return b > limit ? limit : b;
}

/* The LDS one persistent ring block may fill: the CU's, less the runtime's
 * reserve for the block and the ring's static shared memory. */
static long long ring_room(const gp_rule_cu *cu)
{
    return cu->lds_per_cu - cu->lds_block_reserve - GP_SCAN_RING_LDS_RESERVE;
}

/* The ring ("ring"): with a bulk copy engine (device.arch, gp_target.h) the
 * tile's loads need not wait on its look-back: as many stages of the tile as
 * one block's share of the CU's LDS holds (one block a CU: the tile is the
 * register kernel's largest), at least RULE_MIN_STAGES, at most
 * GP_SCAN_RING_MAX_STAGES.  H200: (233472 - 1024 - 1024) / 65536 B = 3.5 ->
 * 3 stages of 16384 fp32, the best of the rings measured (0.979 of the copy,
 * docs/kernels/scan.md "Ring").  Otherwise 0: the register kernel. */
static gp_status ring_stages(const gp_table *t, const gp_rule_cu *cu, long long block, long long items,
                             long long tiles, long long cus, gp_table *out)
{
    const char *name = arch_of(t);
    const long long tile_bytes = block * items * 4;
    if (!gp_target_has_bulk_copy(name))
        return gp_rule_set(out, "scan", "stages", 0, "ring",
                           "device.arch %s has no bulk copy engine (NVIDIA sm_90+): tiles in registers", name);
    if (items < GP_SCAN_RING_MIN_ITEMS || block > GP_SCAN_RING_BLOCK_LIMIT(items))
        return gp_rule_set(out, "scan", "stages", 0, "ring",
                           "tile %lld x %lld is not a compiled ring shape (16+ items, block <= %d): tiles in registers",
                           block, items, GP_SCAN_RING_BLOCK_LIMIT(items));
    if (tiles < RULE_MIN_STAGES * cus)
        return gp_rule_set(out, "scan", "stages", 0, "ring",
                           "%lld tiles < %d stages x %lld CUs: the ring's blocks would wait; tiles in registers", tiles,
                           RULE_MIN_STAGES, cus);
    /* The runtime's reserve for the block (rule.h: 1 KB on NVIDIA), then the
     * ring's static shared memory. */
    const long long room = ring_room(cu);
    long long stages = room > 0 ? room / tile_bytes : 0;
    stages = stages > GP_SCAN_RING_MAX_STAGES ? GP_SCAN_RING_MAX_STAGES : stages;
    if (stages < RULE_MIN_STAGES)
        return gp_rule_set(out, "scan", "stages", 0, "ring",
                           "lds.bytes_per_cu %lld holds %lld tiles of %lld B, under %d: tiles in registers",
                           cu->lds_per_cu, stages, tile_bytes, RULE_MIN_STAGES);
    /* No more stages than a CU's share of the tiles (at least the least
     * ring): a block's producer takes a ticket for every free stage, so
     * more let the first blocks take tiles the others would have run, and
     * the load goes uneven.  H200, 2^22 int32 in tiles of 128 x 64 (3.9 a
     * CU): 7 stages ran 1.128x slower than 3 (tools/unseen_shapes.sh,
     * 2026-11-28). */
    const long long share = tiles / (cus > 0 ? cus : 1), fit = stages;
    if (stages > share)
        stages = share > RULE_MIN_STAGES ? share : RULE_MIN_STAGES;
    char capped[96] = "";
    if (stages != fit)
        snprintf(capped, sizeof capped, "; %lld tiles / %lld CUs: a CU's share -> %lld", tiles, cus, stages);
    return gp_rule_set(out, "scan", "stages", stages, "ring",
                       "%s has the bulk copy engine; lds.bytes_per_cu %lld - %lld - %d reserved = %lld B / tile %lld x "
                       "%lld x 4 B = %lld stages (>= %d: scanned, landed, in flight)%s",
                       name, cu->lds_per_cu, cu->lds_block_reserve, GP_SCAN_RING_LDS_RESERVE, room, block, items,
                       fit, RULE_MIN_STAGES, capped);
}

/* The busiest CU's elements when n is cut into tiles of `tile`: its share of
 * the tiles, rounded up, times the tile. */
static long long busiest_cu(long long n, long long tile, long long cus)
{
    const long long tiles = (n + tile - 1) / tile;
    return (tiles + cus - 1) / cus * tile;
}

/* The fewest tiles ("fewest"): the busiest CU's elements set the streaming
 * time, whatever the tile, and every tile pays one look-back step.  So from
 * the tile chosen (Little's least for a short array, no tile filling
 * 4 x CUs; else the fill's), the largest tile (64 items down, at the block
 * two_a_cu gives) whose busiest CU holds no more elements.  *why gets the
 * arithmetic when the tile moves.  H200 (2026-11-29, `tune scan --shape`,
 * register kernel): 1000003 fp32 in 512 x 8 tiles (245, two on the busiest
 * SM) ran 1.086x slower than 256 x 32 (123, one each: 8192 elements on the
 * busiest SM either way); 3000000 in the fill's 512 x 8 (733 tiles, 6 on the
 * busiest SM) 1.064x slower than 256 x 32 (367, 3: 24576 elements either
 * way); 300000 (74 tiles of 4096, one a SM) keeps the least, within 1.6 %. */
static void fewest_tiles(const gp_rule_cu *cu, long long peak, long long lo, long long n, long long cus,
                         long long *block, long long *items, char *why, size_t nwhy)
{
    const long long b0 = *block, i0 = *items, cap = busiest_cu(n, b0 * i0, cus);
    for (long long it = GP_SCAN_MAX_ITEMS; it > i0; it /= 2) {
        const long long b = two_a_cu(cu, it, peak, GP_SCAN_BLOCK_LIMIT(it));
        if (b >= lo && b * it > *block * *items && busiest_cu(n, b * it, cus) <= cap)
            *block = b, *items = it;
    }
    if (*block != b0 || *items != i0)
        snprintf(why, nwhy,
                 "%lld x %lld puts %lld elements on the busiest of %lld CUs for n = %lld; the fewest tiles with no "
                 "more: %lld x %lld",
                 b0, i0, cap, cus, n, *block, *items);
}

gp_status gp_scan_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The array's length: the shape's, else the headline 2^28 (the type and
     * the kind of scan do not change the model: 4-byte elements either way). */
    const long long n = in->shape && in->shape->d[GP_SCAN_N] > 0 ? in->shape->d[GP_SCAN_N] : HEADLINE_N;

    const long long lo = gp_rule_clamp(4 * cu.wave, 64, RULE_MAX_BLOCK);
    const long long peak = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), lo, RULE_MAX_BLOCK);
    char little[256];
    const long long least = little_items(&f, peak, little, sizeof little);
    const long long cus = (long long)f.cus.v;

    long long items = least, block = peak;
    char why[256] = "";
    int ring = 0;
    /* The ring first, where the device has the bulk copy engine: its
     * persistent blocks (one a CU) keep RULE_MIN_STAGES tiles in flight, so
     * the problem must give every CU that many tiles; its tile is the
     * largest compiled (64 items) at the largest block, halved until the
     * problem has the tiles.  H200, 2^22 int32: 128 x 64 (512 tiles, 3.9 a
     * CU) in the ring ran 1.20x faster than the register kernel's 512 x 8
     * tiles the fill below gives (`tools/unseen_shapes.sh`, 2026-11-28). */
    if (gp_target_has_bulk_copy(arch_of(in->facts))) {
        const long long it = GP_SCAN_MAX_ITEMS;
        const long long b0 = two_a_cu(&cu, it, peak, GP_SCAN_RING_BLOCK_LIMIT(it));
        long long b = b0;
        for (; b >= lo && !why[0]; b /= 2) {
            long long tiles = (n + b * it - 1) / (b * it);
            if (tiles < RULE_MIN_STAGES * cus || ring_room(&cu) / (b * it * 4) < RULE_MIN_STAGES)
                continue;
            items = it, block = b, ring = 1;
            char halved[48] = "";
            if (b != b0)
                snprintf(halved, sizeof halved, ", halved to %lld", b);
            snprintf(why, sizeof why,
                     "%lld regs/CU / (2 blocks x %lld regs) -> block %lld (launch peak %lld, >= %lld, ring <= %d)%s; "
                     "the ring: %lld tiles of %lld for n = %lld >= %d stages x %lld CUs",
                     cu.regs_per_cu, scan_regs(it), b0, peak, lo, GP_SCAN_RING_BLOCK_LIMIT(it), halved, tiles, b * it,
                     n, RULE_MIN_STAGES, cus);
        }
    }
    for (long long it = GP_SCAN_MAX_ITEMS; it >= least && !why[0]; it /= 2) {
        const long long b = two_a_cu(&cu, it, peak, GP_SCAN_BLOCK_LIMIT(it));
        if (b < lo)
            continue;
        long long tiles = (n + b * it - 1) / (b * it);
        if (tiles < 4 * cus)
            continue;
        items = it, block = b;
        snprintf(why, sizeof why,
                 "%lld regs/CU / (2 blocks x %lld regs) -> block %lld (launch peak %lld, >= %lld); %lld tiles of "
                 "%lld for n = %lld >= 4 x %lld CUs",
                 cu.regs_per_cu, scan_regs(it), b, peak, lo, tiles, b * it, n, cus);
        break;
    }
    if (!why[0])
        snprintf(why, sizeof why, "no tile of %lld..%d items fills 4 x %lld CUs for n = %lld: the least, block %lld",
                 least, GP_SCAN_MAX_ITEMS, cus, n, block);
    if (!ring)
        fewest_tiles(&cu, peak, lo, n, cus, &block, &items, why, sizeof why);
    GP_TRY(gp_rule_set(out, "scan", "block", block, "tile", "%s%s%s", why, cu.fallback[0] ? "; " : "",
                       cu.fallback));
    GP_TRY(gp_rule_set(out, "scan", "items_per_thread", items, "tile", "%s; the largest tile: %lld", little, items));
    return ring_stages(in->facts, &cu, block, items, (n + block * items - 1) / (block * items), cus, out);
}
