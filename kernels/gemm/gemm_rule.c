/* gp_gemm_rule: the tile from the register file, the LDS and the FMA rate.
 *
 * Each configuration compiled for the table's device.arch (gemm.h: its
 * register class, platform/gp_target.h; largest block tile first: the most
 * FMAs per byte loaded) needs per thread its accumulators (the thread tile
 * tile_m tile_n / block: 64 or 128), its fragment registers (an A column of
 * 8 and a B row of thread tile / 8: 16 or 24), its share of the next slab
 * (tile x tile_k / block for A and B) and about 24 for addresses and
 * indices.  Only the measured configurations (0 .. GP_GEMM_RULE_CONFIGS - 1)
 * compete: the warp-tiled 128x128x8/128 (thread tile 8 x 16, gemm.hip) has
 * no paired GPU run yet, so it stays a tune candidate and the provenance
 * says so where the target compiles it ("unmeasured").  The first
 * configuration whose
 *   - registers fit registers.per_thread_max,
 *   - two stages fit the LDS a block may use,
 *   - two blocks fit a CU (the occupancy model of kernels/rule.h: one
 *     block's barrier overlaps the other's FMAs; 64 independent
 *     accumulators per thread hide the FMA latency without more waves),
 *   - the block is whole waves (device.wave_size),
 *   - and whose k-step keeps the CU's FMA pipes busy for at least 16 LDS
 *     latencies per barrier: tile_m tile_n tile_k x 2 blocks /
 *     compute.fp32_fma_per_cycle_per_cu >= 16 x lds.latency_cycles,
 * wins; among equal tiles the smaller k-step (less LDS) comes first.
 * When none passes every test, the first that fits the LDS of a block (the
 * rest cost speed, not correctness: registers beyond per_thread_max spill)
 * with the failed tests named; when none fits the LDS, GP_ERR_UNSUPPORTED.
 * Stand-ins for facts that are none: those of gp_rule_read_facts, FMA rate 64
 * per cycle (the fewest lanes of a supported CU), LDS latency 64 cycles. The
 * models: docs/kernels/gemm.md. */
#include <stdio.h>
#include <string.h>

#include "gemm.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_gemm_rule"
#define FMA_STANDIN 64
#define LDS_LATENCY_STANDIN 64
#define REGS_STANDIN 128

/* The configuration's register estimate (see above). */
static long long config_regs(const int *c)
{
    const long long tt = GP_GEMM_THREAD_TILE(c[0], c[1], c[3]);
    return tt + 8 + tt / 8 + (long long)(c[0] + c[1]) * c[2] / c[3] + 24;
}

/* "; 128x128x8/128 unmeasured, a tune candidate" for each configuration the
 * rule skips that the target compiles (none for an unknown target). */
static void unmeasured_note(unsigned cls, char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = GP_GEMM_RULE_CONFIGS; i < GP_GEMM_NCONFIGS && cls; i++) {
        const int *c = gp_gemm_configs[i];
        size_t used = strlen(buf);
        if (gp_gemm_config_on(i, cls))
            snprintf(buf + used, n - used, "; %dx%dx%d/%d unmeasured, a tune candidate", c[0], c[1], c[2], c[3]);
    }
}

gp_status gp_gemm_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    double rpt, lat;
    int have_rpt, have_lat;
    GP_TRY(gp_rule_fact_or(t, RULE, "registers", "per_thread_max", REGS_STANDIN, &rpt, &have_rpt));
    GP_TRY(gp_rule_fact_or(t, RULE, "lds", "latency_cycles", LDS_LATENCY_STANDIN, &lat, &have_lat));
    double fma = f.fma.have ? f.fma.v : FMA_STANDIN;
    const gp_rule_cu *cu = &f.cu;
    /* Only the tiles the device's target has (device.arch is a required key). */
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    const unsigned cls = arch ? gp_target_reg_class(arch->text) : 0;

    int pick = -1, fallback = -1;
    char failed[96] = "";
    for (int i = 0; i < GP_GEMM_RULE_CONFIGS && pick < 0; i++) {
        const int *c = gp_gemm_configs[i];
        long long regs = config_regs(c), lds = (long long)gp_gemm_lds_bytes(c[0], c[1], c[2]);
        if (!gp_gemm_config_on(i, cls) || lds > cu->lds_per_block)
            continue;
        if (fallback < 0)
            fallback = i;
        double slab = (double)c[0] * c[1] * c[2] * 2 / fma;
        int fits_regs = regs <= rpt, two = gp_rule_blocks_per_cu(cu, c[3], regs, lds) >= 2;
        int waves = c[3] % cu->wave == 0, deep = slab >= 16 * lat;
        if (fits_regs && two && waves && deep)
            pick = i;
        else if (i == fallback)
            snprintf(failed, sizeof failed, "%s%s%s%s", fits_regs ? "" : " exceeds per_thread_max",
                     two ? "" : " <2 blocks/CU", waves ? "" : " not whole waves", deep ? "" : " slab < 16 lds latencies");
    }
    if (pick < 0 && fallback < 0)
        return gp_fail(GP_ERR_UNSUPPORTED,
                       "rule " RULE ": no compiled gemm tile fits [lds] bytes_per_block %lld (the smallest needs %zu B)",
                       cu->lds_per_block, gp_gemm_lds_bytes(64, 64, 8));
    int chosen = pick >= 0 ? pick : fallback;
    const int *c = gp_gemm_configs[chosen];
    long long regs = config_regs(c);
    char why[288], later[96];
    unmeasured_note(cls, later, sizeof later);
    snprintf(why, sizeof why,
             "%lld regs vs per_thread_max %.0f%s, %lld blocks/CU, slab %.0f cycles at %.0f FMA/cycle%s vs 16 x lds "
             "latency %.0f%s%s%s%s%s",
             regs, rpt, have_rpt ? "" : " (none: 128)",
             gp_rule_blocks_per_cu(cu, c[3], regs, (long long)gp_gemm_lds_bytes(c[0], c[1], c[2])),
             (double)c[0] * c[1] * c[2] * 2 / fma, fma, f.fma.have ? "" : " (none: 64)", lat,
             have_lat ? "" : " (none: 64)", pick >= 0 ? "" : "; no tile passes all, first in LDS:", failed, later,
             cu->fallback[0] ? "; " : "");
    static const char *const keys[4] = {"tile_m", "tile_n", "tile_k", "block"};
    for (int i = 0; i < 4; i++)
        GP_TRY(gp_rule_set(out, "gemm", keys[i], c[i], "registers", "%s%s", why, cu->fallback));
    return gp_ok();
}
