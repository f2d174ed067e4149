/* scan rule: kernel.scan block and items_per_thread from the device facts
 * (docs/kernels/scan.md, "Rule").  Pure: reads the table, writes two keys.
 *
 * block ("rule block_from_launch"): the largest power of two not above
 * launch.min_block_for_peak (smaller blocks leave the launcher short of its
 * peak), at least 4 waves (the wave-0 look-back then waits for 3 waves' loads
 * at most) and at most 512 (a block stalls whole while wave 0 looks back; two
 * blocks per CU at the register budget below keep one loading while the
 * other waits).
 *
 * items_per_thread ("rule ilp_from_dram_latency"): Little's law.  To stream
 * at dram.bandwidth_gbs every CU needs bandwidth x latency / CUs bytes of
 * loads in flight; a tile holds its loads for about one DRAM latency and then
 * waits about as long again on the look-back and its stores, so only half of
 * the resident threads have loads in flight: need 2 x bandwidth x latency /
 * CUs bytes over registers.per_cu / 64 resident threads (the kernel's 64
 * registers per thread up to 16 items), rounded up to whole 16-byte vectors,
 * a power of two in 4..16. */
#include <math.h>
#include <stdio.h>

#include "kutil.h"
#include "scan.h"

#define SCAN_REGS_PER_THREAD 64

static gp_status fact(const gp_table *t, const char *sec, const char *key, double lo, double hi, double *out)
{
    gp_status st = gp_table_get_double(t, sec, key, out);
    if (st.code != GP_OK)
        return gp_fail(GP_ERR_USAGE, "scan rule: fact [%s] %s missing: %s", sec, key, st.msg);
    if (!(*out >= lo && *out <= hi))
        return gp_fail(GP_ERR_USAGE, "scan rule: fact [%s] %s = %g outside %g..%g", sec, key, *out, lo, hi);
    return gp_ok();
}

gp_status gp_scan_rule(gp_table *t)
{
    double wave, cus, regs, bw, lat, minblock;
    GP_TRY(fact(t, "device", "wave_size", 32, 64, &wave));
    GP_TRY(fact(t, "device", "compute_units", 1, 4096, &cus));
    GP_TRY(fact(t, "registers", "per_cu", 4096, 4194304, &regs));
    GP_TRY(fact(t, "dram", "bandwidth_gbs", 1, 1e6, &bw));
    GP_TRY(fact(t, "dram", "latency_ns", 1, 1e5, &lat));
    GP_TRY(fact(t, "launch", "min_block_for_peak", 1, 1024, &minblock));

    int block = gp_floor_pow2(minblock);
    int lo = 4 * (int)wave < 64 ? 64 : 4 * (int)wave;
    block = block < lo ? lo : block > 512 ? 512 : block;

    double need = 2.0 * bw * lat / cus;          /* bytes in flight per CU (GB/s x ns = bytes) */
    double resident = floor(regs / SCAN_REGS_PER_THREAD);
    double per_thread = need / resident;         /* bytes each resident thread keeps in flight */
    int items = 4 * gp_ceil_pow2(per_thread / 16.0); /* whole 16-byte vectors */
    items = items < 4 ? 4 : items > 16 ? 16 : items;

    char prov[256];
    snprintf(prov, sizeof prov, "rule block_from_launch: min_block_for_peak %g, wave %g: pow2 in %d..512", minblock,
             wave, lo);
    GP_TRY(gp_table_set(t, "kernel.scan", "block", block, prov));
    snprintf(prov, sizeof prov,
             "rule ilp_from_dram_latency: 2 x %.0f GB/s x %.0f ns / %g CUs = %.0f B over %.0f threads (%g regs / %d)",
             bw, lat, cus, need, resident, regs, SCAN_REGS_PER_THREAD);
    GP_TRY(gp_table_set(t, "kernel.scan", "items_per_thread", items, prov));
    return gp_ok();
}
