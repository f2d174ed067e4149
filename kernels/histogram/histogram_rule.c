/* gp_histogram_rule: kernel.histogram copies_u8, copies_u32, block and
 * items_per_thread from the device facts.  The models, with the H200
 * figures they land on: docs/kernels/histogram.md, "Rule".
 *
 * copies_<t> ("banks"): as many sub-histograms as the LDS has banks (thread
 * t counts into copy t mod copies, word bin x copies + copy: with one copy a
 * bank, a wave's atomics never share a bank or a word, whatever the data),
 * at most what fits lds.bytes_per_block and the compiled 48 KiB: a power of
 * two.
 *
 * block ("occupancy"): the grid is persistent, so the block only sets how
 * many threads the LDS-limited blocks bring: the CU holds lds.bytes_per_cu /
 * (the u8 sub-histograms' bytes) blocks, and the block is the largest power
 * of two whose that many blocks stay within the CU's resident threads.
 *
 * items_per_thread ("little"): Little's law.  Each CU must keep dram
 * bandwidth x latency / CUs bytes of loads in flight.  A thread loads its
 * vectors, then counts them (16 LDS atomics a vector of bytes), so about
 * half the resident threads are loading at any time (x 2), and the latency
 * under full load is about twice the idle one the chase measures (x 2):
 * 4 x that, over the resident threads, rounded up to whole 16-byte vectors, a
 * power of two, at most 2 (the kernels up to 2 vectors share the 32-register
 * bound, so the choice costs no occupancy). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "histogram.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_histogram_rule"
/* Registers per thread of the kernels of 1 and 2 vectors (histogram.h
 * GP_HIST_REGS; their launch bounds); checked against ptxas by
 * tests/build/rule_regs.txt. */
#define HIST_REGS 32
#define RULE_MAX_VECS 2

static gp_status set_copies(gp_table *out, const char *key, int bins, double banks, int have_banks,
                            const gp_rule_cu *cu, long long *copies)
{
    long long lds = cu->lds_per_block < GP_HIST_MAX_LDS ? cu->lds_per_block : GP_HIST_MAX_LDS;
    long long fit = lds / (long long)gp_histogram_lds_bytes(1, bins);
    long long by_banks = gp_rule_floor_pow2((long long)banks);
    long long c = gp_rule_floor_pow2(fit < by_banks ? fit : by_banks);
    c = gp_rule_clamp(c, 1, GP_HIST_MAX_COPIES);
    *copies = c;
    return gp_rule_set(out, "histogram", key, c, "banks",
                       "lds.banks %.0f%s; lds.bytes_per_block %lld, compiled %d: %lld copies of %d bins fit -> "
                       "min(%lld, %lld) -> %lld%s%s",
                       banks, have_banks ? "" : " (none: 32)", cu->lds_per_block, GP_HIST_MAX_LDS, fit, bins,
                       by_banks, fit, c, cu->fallback[0] ? "; " : "", cu->fallback);
}

gp_status gp_histogram_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The headline problems (2^30 bytes, 2^28 keys) and any other size get
     * the same parameters: the model is per CU and does not depend on n. */
    (void)in->shape;
    double banks = 32;
    int have_banks = 0;
    GP_TRY(gp_rule_fact_or(in->facts, RULE, "lds", "banks", 32, &banks, &have_banks));

    long long c8, c32;
    GP_TRY(set_copies(out, "copies_u8", GP_HIST_U8_BINS, banks, have_banks, &cu, &c8));
    GP_TRY(set_copies(out, "copies_u32", GP_HIST_U32_BINS, banks, have_banks, &cu, &c32));

    const long long lds8 = (long long)gp_histogram_lds_bytes((int)c8, GP_HIST_U8_BINS);
    long long by_lds = cu.lds_per_cu / lds8;
    by_lds = by_lds < 1 ? 1 : by_lds;
    const long long lo = cu.wave > 64 ? cu.wave : 64;
    long long block = gp_rule_clamp(gp_rule_floor_pow2(cu.max_threads_cu / by_lds), lo, GP_HIST_MAX_BLOCK);
    GP_TRY(gp_rule_set(out, "histogram", "block", block, "occupancy",
                       "lds.bytes_per_cu %lld / %lld B of u8 copies = %lld blocks; %lld resident threads / %lld, "
                       "a power of 2 in %lld..%d -> %lld",
                       cu.lds_per_cu, lds8, by_lds, cu.max_threads_cu, by_lds, lo, GP_HIST_MAX_BLOCK, block));

    long long occ = gp_rule_blocks_per_cu(&cu, block, HIST_REGS, lds8);
    long long resident = (occ < 1 ? 1 : occ) * block;
    char why[200];
    double vecs = gp_rule_loads_in_flight(&f, resident, 16.0, why, sizeof why);
    if (vecs <= 0)
        return gp_rule_set(out, "histogram", "items_per_thread", 1, "little",
                           "%s: one 16-byte vector per thread -> 1", why);
    vecs *= 4.0; /* half the threads loading, and the latency under load twice the idle one */
    vecs = vecs > RULE_MAX_VECS ? RULE_MAX_VECS : vecs; /* before the cast: facts may be huge */
    long long v = gp_rule_clamp(gp_rule_ceil_pow2((long long)ceil(vecs)), 1, RULE_MAX_VECS);
    return gp_rule_set(out, "histogram", "items_per_thread", v, "little",
                       "4 x (%s) -> %.2f vectors -> %lld", why, vecs, v);
}
