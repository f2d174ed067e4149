/* gp_scan_rule: kernel.scan block and items_per_thread from the device facts.
 * The models, with the H200 figures they land on: docs/kernels/scan.md,
 * "Rule".
 *
 * block ("launch"): the largest power of two not above
 * launch.min_block_for_peak (smaller blocks leave the launcher short of its
 * peak), at least 4 waves (the wave-0 look-back then waits for 3 waves' loads
 * at most) and at most 512 (a block stalls whole while wave 0 looks back; two
 * blocks per CU at the register budget below keep one loading while the other
 * waits).
 *
 * items_per_thread ("little"): Little's law.  To stream at dram.bandwidth_gbs
 * every CU needs bandwidth x latency / CUs bytes of loads in flight; a tile
 * holds its loads for about one DRAM latency and then waits about as long
 * again on the look-back and its stores, so only half of the resident threads
 * have loads in flight: need twice that, over the threads the occupancy model
 * keeps resident at the kernel's register bound, rounded up to whole 16-byte
 * vectors, a power of two in 4..16 elements (the kernels up to 16 items share
 * one 64-register bound, so the choice costs no occupancy). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "rule.h"
#include "scan.h"

#define RULE "gp_scan_rule"
/* Registers per thread of the kernels up to 16 items: their launch bounds
 * (1024 threads, scan.hip GP_SCAN_LB) cap them at 65536 / 1024 (ptxas sm_90
 * reports 32..48); checked against ptxas by tests/build/rule_regs.txt. */
#define SCAN_REGS 64
/* LDS per block: the tile ticket and one total per wave (scan.hip s_tile,
 * s_wave), sized for the most waves a block can have. */
#define SCAN_LDS (4 + 4 * (GP_SCAN_MAX_BLOCK / 32))
/* The largest block and items per thread the rule picks (see above). */
#define RULE_MAX_BLOCK 512
#define RULE_MAX_ITEMS 16

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

gp_status gp_scan_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The headline problem (2^28 elements) and any other shape get the same
     * parameters: the model is per CU and does not depend on n. */
    (void)in->shape;

    long long lo = gp_rule_clamp(4 * cu.wave, 64, RULE_MAX_BLOCK);
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), lo, RULE_MAX_BLOCK);
    GP_TRY(gp_rule_set(out, "scan", "block", block, "launch",
                       "launch.min_block_for_peak %.0f%s, wave %lld: a power of 2 in %lld..%d -> %lld%s%s",
                       f.min_block.v, f.min_block.have ? "" : " (none: 256)", cu.wave, lo, RULE_MAX_BLOCK, block,
                       cu.fallback[0] ? "; " : "", cu.fallback));

    /* Resident threads per CU at the kernel's register bound; a CU with
     * fewer registers than one block needs still runs one block. */
    long long occ = gp_rule_blocks_per_cu(&cu, block, SCAN_REGS, SCAN_LDS);
    long long resident = (occ < 1 ? 1 : occ) * block;
    char missing[96];
    missing_dram_facts(&f, missing, sizeof missing);
    if (missing[0]) {
        /* No bandwidth-latency product to size the loads in flight: one
         * vector per thread, the smallest tile, which fills a GPU soonest. */
        return gp_rule_set(out, "scan", "items_per_thread", GP_SCAN_MIN_ITEMS, "little",
                           "Little's bound unknown (%s none): one 16-byte vector per thread -> %d", missing,
                           GP_SCAN_MIN_ITEMS);
    }
    double need = 2.0 * gp_rule_bytes_in_flight_per_cu(f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v,
                                                      (long long)f.cus.v);
    double vecs = need / (double)resident / 16.0; /* 16-byte vectors each resident thread keeps in flight */
    vecs = vecs > RULE_MAX_ITEMS / 4 ? RULE_MAX_ITEMS / 4 : vecs; /* before the cast: facts may be huge */
    long long items = gp_rule_clamp(4 * gp_rule_ceil_pow2((long long)ceil(vecs)), GP_SCAN_MIN_ITEMS, RULE_MAX_ITEMS);
    return gp_rule_set(out, "scan", "items_per_thread", items, "little",
                       "2 x %.0f GB/s x %.0f cycles @%.0f MHz / %.0f CUs%s = %.0f B/CU over %lld resident "
                       "threads (%d regs each, %lld a CU) -> %.1f vectors -> %lld",
                       f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v, f.cus.v, f.cus.have ? "" : " (none)", need,
                       resident, SCAN_REGS, cu.regs_per_cu, need / (double)resident / 16.0, items);
}
