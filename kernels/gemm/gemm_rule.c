/* gemm rule: the tile from the register file, the LDS and the FMA rate.
 *
 * Each compiled configuration (gemm.h, largest block tile first: the most
 * FMAs per byte loaded) needs per thread its 64 accumulators, 16 fragment
 * registers, its share of the next slab (tile x tile_k / block for A and B)
 * and about 24 for addresses and indices.  The first configuration whose
 *   - registers fit registers.per_thread_max,
 *   - two stages fit lds.bytes_per_block,
 *   - two blocks fit a CU by registers.per_cu and lds.bytes_per_cu (one
 *     block's barrier overlaps the other's FMAs; 64 independent
 *     accumulators per thread hide the FMA latency without more waves),
 *   - and whose k-step keeps the CU's FMA pipes busy for at least 16 LDS
 *     latencies per barrier: tile_m tile_n tile_k x 2 blocks /
 *     compute.fp32_fma_per_cycle_per_cu >= 16 x lds.latency_cycles,
 * wins; among equal tiles the smaller k-step (less LDS) comes first.  The
 * block must be whole waves (device.wave_size). */
#include <stdio.h>

#include "gemm.h"
#include "krule.h"

gp_status gp_gemm_rule(gp_table *t)
{
    const char *r = "tile_from_registers";
    double rpt, rcu, ldsb, ldscu, wave, fma, ldslat;
    GP_TRY(gp_rule_fact(t, r, "registers", "per_thread_max", 32, 1024, &rpt));
    GP_TRY(gp_rule_fact(t, r, "registers", "per_cu", 1024, 1e7, &rcu));
    GP_TRY(gp_rule_fact(t, r, "lds", "bytes_per_block", 1024, 1e7, &ldsb));
    GP_TRY(gp_rule_fact(t, r, "lds", "bytes_per_cu", 1024, 1e7, &ldscu));
    GP_TRY(gp_rule_fact(t, r, "device", "wave_size", 32, 64, &wave));
    GP_TRY(gp_rule_fact(t, r, "compute", "fp32_fma_per_cycle_per_cu", 1, 4096, &fma));
    GP_TRY(gp_rule_fact(t, r, "lds", "latency_cycles", 1, 1e4, &ldslat));
    static const int order[GP_GEMM_NCONFIGS] = {0, 1, 2, 3};
    for (int oi = 0; oi < GP_GEMM_NCONFIGS; oi++) {
        const int *c = gp_gemm_configs[order[oi]];
        int tm = c[0], tn = c[1], tk = c[2], block = c[3];
        double regs = 64 + 16 + (double)(tm + tn) * tk / block + 24;
        double lds = (double)gp_gemm_lds_bytes(tm, tn, tk);
        double by_regs = rcu / (regs * block), by_lds = ldscu / lds;
        double slab = (double)tm * tn * tk * 2 / fma;
        if (regs > rpt || lds > ldsb || by_regs < 2 || by_lds < 2 || block % (int)wave || slab < 16 * ldslat)
            continue;
        char prov[192];
        snprintf(prov, sizeof prov,
                 "rule tile_from_registers: %.0f regs <= per_thread_max %.0f, 2 blocks in per_cu %.0f and "
                 "lds %.0f B/CU, slab %.0f cycles at %.0f FMA/cycle >= 16 x lds latency %.0f",
                 regs, rpt, rcu, ldscu, slab, fma, ldslat);
        GP_TRY(gp_table_set(t, "kernel.gemm", "tile_m", tm, prov));
        GP_TRY(gp_table_set(t, "kernel.gemm", "tile_n", tn, prov));
        GP_TRY(gp_table_set(t, "kernel.gemm", "tile_k", tk, prov));
        GP_TRY(gp_table_set(t, "kernel.gemm", "block", block, prov));
        return gp_ok();
    }
    return gp_fail(GP_ERR_USAGE,
                   "rule tile_from_registers: no compiled gemm tile fits registers.per_thread_max %.0f, per_cu %.0f, "
                   "lds.bytes_per_block %.0f, bytes_per_cu %.0f",
                   rpt, rcu, ldsb, ldscu);
}
