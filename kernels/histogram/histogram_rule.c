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
 * many threads the LDS-limited blocks bring: the block (a power of two) whose
 * blocks a CU (the occupancy model, with the u8 sub-histograms' bytes plus
 * the runtime's per-block reserve) x threads is largest, the largest of
 * equals (fewer blocks: fewer merges of the copies).  The first rule took lds.bytes_per_cu / copies = 7 blocks on the
 * H200 and the largest block 7 of which fit 2048 threads (256); the runtime
 * held 6 (its 1 KiB reserve), 1536 threads, and b512/v2 ran 7.8 % (u8) and
 * 4.3 % (u32) faster than the rule's b256/v2 (2026-11-24,
 * docs/kernels/histogram.md).  512 x 4 = 2048 threads.
 *
 * items_per_thread ("little"): Little's law.  Each CU must keep dram
 * bandwidth x latency / CUs bytes of loads in flight.  A thread loads its
 * vectors, then counts them (16 LDS atomics a vector of bytes), so about
 * half the resident threads are loading at any time (x 2), and the latency
 * under full load is about twice the idle one the chase measures (x 2):
 * 4 x that, over the resident threads, rounded up to whole 16-byte vectors, a
 * power of two, at most 2 (the kernels up to 2 vectors share the 32-register
 * bound, so the choice costs no occupancy).  The shape: a problem too small
 * to give every resident thread of the GPU that many vectors runs on fewer
 * blocks (the launch cuts the persistent grid), with the same vectors a
 * thread: fewer vectors would mean more blocks, each with its own zeroing
 * and merge of the copies.  But a problem of fewer blocks than CUs spreads
 * ("spread"): smaller blocks, down to one a CU and to a block's counters'
 * bytes (spread_over_cus below). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "histogram.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_histogram_rule"
/* Registers per thread of the kernels of 1 and 2 vectors (histogram.h
 * GP_HIST_REGS; their launch bounds); checked against ptxas by
 * tests/build/check_gpu_build.sh. */
/* The kernels of 1 and 2 vectors a step (template u32?, log2 copies, V), every copy count. */
/* regs: HIST_REGS gp_hist_kernelILi[01]ELi[0-5]ELi[12]E */
#define HIST_REGS 32
#define RULE_MAX_VECS 2
/* The headline problems' input: 2^30 bytes (2^30 u8, or 2^28 u32 keys). */
#define HEADLINE_BYTES (1ll << 30)

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

/* A problem of fewer blocks than CUs ("spread"): the launch cuts the
 * persistent grid, so a few CUs count everything while the rest idle.  Each
 * block's time is its zeroing and merging of its copies (copies x bins LDS
 * words, each written once and read once) plus its counting (one LDS atomic
 * a sample): halve the block's bytes (the vectors first, keeping the threads
 * that zero and merge, then the block) while the halved grid still has at
 * most one block a CU and each block still counts at least as many bytes as
 * its counters take (`floor` bytes), past which its fixed work dominates.
 * H200 (2026-11-29, `tune histogram --shape`, u8 with 32 copies: 8 KiB of
 * counters): 300000 u8 in the table's 1024 x 2 vectors (10 blocks) ran
 * 0.0063 ms, in 512 x 1 (37 blocks of 8 KiB) 0.0056, the best; 500000 the
 * same (61 blocks) 0.0059 against 0.0063; 2^22 keeps 1024 x 2 (128 blocks,
 * halving gives 256).  Returns whether the block or vectors moved. */
static int spread_over_cus(long long bytes, long long floor, long long cus, long long lo, long long *block,
                           long long *vecs)
{
    const long long b0 = *block, v0 = *vecs;
    for (;;) {
        const long long half = *block * *vecs * 16 / 2;
        if (half < floor || half < 1 || (bytes + half - 1) / half > cus)
            break;
        if (*vecs > 1)
            *vecs /= 2;
        else if (*block / 2 >= lo)
            *block /= 2;
        else
            break;
    }
    return *block != b0 || *vecs != v0;
}

gp_status gp_histogram_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The problem's bytes: its samples x their size; the headline: 2^30 bytes
     * (both headline problems, 2^30 u8 and 2^28 u32 keys, read 1 GiB). */
    const gp_shape *shp = in->shape;
    const long long bytes = shp && shp->d[GP_HIST_N] > 0
                                ? shp->d[GP_HIST_N] * (shp->opt[GP_HIST_TYPE] == GP_HIST_U32 ? 4 : 1)
                                : HEADLINE_BYTES;
    double banks = 32;
    int have_banks = 0;
    GP_TRY(gp_rule_fact_or(in->facts, RULE, "lds", "banks", 32, &banks, &have_banks));

    long long c8, c32;
    GP_TRY(set_copies(out, "copies_u8", GP_HIST_U8_BINS, banks, have_banks, &cu, &c8));
    GP_TRY(set_copies(out, "copies_u32", GP_HIST_U32_BINS, banks, have_banks, &cu, &c32));

    const long long lds8 = (long long)gp_histogram_lds_bytes((int)c8, GP_HIST_U8_BINS);
    /* The block: the grid is persistent, so it only decides how many threads
     * a CU holds.  Each power of two in lo..max gets the occupancy model's
     * blocks a CU (registers, the u8 copies' LDS plus the runtime's reserve
     * per block, resident threads) x its threads; the most resident threads
     * win, the largest block of equals: each block zeroes and merges its
     * copies once, a fixed cost a block, so at equal threads fewer blocks
     * cost less (H200 2026-11-29, b1024 against b512 at 2 vectors: 2^24 u8
     * 0.0164 against 0.0185 ms, 5e6 u32 keys 0.0201 against 0.0260, 2^28
     * keys 0.2489 against 0.2535; docs/kernels/histogram.md). */
    const long long lo = cu.wave > 64 ? cu.wave : 64;
    long long block = lo, resident = 0;
    char seen[160] = "";
    for (long long b = lo; b <= GP_HIST_MAX_BLOCK; b *= 2) {
        const long long r = gp_rule_blocks_per_cu(&cu, b, HIST_REGS, lds8) * b;
        snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%lld:%lld", seen[0] ? " " : "", b, r);
        if (r >= resident && r > 0)
            resident = r, block = b;
    }
    resident = resident < 1 ? block : resident;
    GP_TRY(gp_rule_set(out, "histogram", "block", block, "occupancy",
                       "lds.bytes_per_cu %lld / (%lld B u8 copies + %lld reserved); threads a CU by block %s -> %lld",
                       cu.lds_per_cu, lds8, cu.lds_block_reserve, seen, block));

    char why[200];
    double vecs = gp_rule_loads_in_flight(&f, resident, 16.0, why, sizeof why);
    if (vecs <= 0)
        return gp_rule_set(out, "histogram", "items_per_thread", 1, "little",
                           "%s: one 16-byte vector per thread -> 1", why);
    vecs *= 4.0; /* half the threads loading, and the latency under load twice the idle one */
    vecs = vecs > RULE_MAX_VECS ? RULE_MAX_VECS : vecs; /* before the cast: facts may be huge */
    long long v = gp_rule_clamp(gp_rule_ceil_pow2((long long)ceil(vecs)), 1, RULE_MAX_VECS);
    /* The shape: a problem that cannot give every resident thread v vectors
     * gets fewer blocks (the launch cuts the persistent grid to the blocks
     * its vectors need), not fewer vectors: halving them would double the
     * blocks and their merges (H200 2026-11-29, 2^22 u8 in blocks of 1024:
     * 1 vector 0.0144 ms, 2 vectors 0.0133). */
    if (!shp || shp->d[GP_HIST_N] < 1)
        return gp_rule_set(out, "histogram", "items_per_thread", v, "little",
                           "4 x (%s) -> %.2f vectors -> %lld", why, vecs, v);
    /* The blocks a CU holds for this shape's kernel: its own copies' LDS. */
    const int u32 = shp->opt[GP_HIST_TYPE] == GP_HIST_U32;
    const long long lds = u32 ? (long long)gp_histogram_lds_bytes((int)c32, GP_HIST_U32_BINS) : lds8;
    const long long need = (bytes / 16 + v * block - 1) / (v * block);
    const long long slots = gp_rule_blocks_per_cu(&cu, block, HIST_REGS, lds) * (long long)f.cus.v;
    long long b = block, vv = v;
    const long long counters = u32 ? c32 * GP_HIST_U32_BINS : c8 * GP_HIST_U8_BINS;
    if (spread_over_cus(bytes, counters * (u32 ? 4 : 1), (long long)f.cus.v, lo, &b, &vv)) {
        GP_TRY(gp_rule_set(out, "histogram", "block", b, "spread",
                           "%lld B: %lld blocks of %lld x %lld vectors (<= %.0f CUs; each counts at least its %lld "
                           "counters' bytes, which it zeroes and merges)",
                           bytes, (bytes + b * vv * 16 - 1) / (b * vv * 16), b, vv, f.cus.v, counters));
        return gp_rule_set(out, "histogram", "items_per_thread", vv, "spread",
                           "%lld B spread over the CUs: %lld x %lld vectors (the table's %lld x %lld fill %lld); %s",
                           bytes, b, vv, block, v, need, why);
    }
    /* The shape's part first: the provenance is cut at its length. */
    return gp_rule_set(out, "histogram", "items_per_thread", v, "little",
                       "%lld B fill %lld of the %lld resident blocks%s; 4 x (%s) -> %.2f vectors -> %lld", bytes,
                       need < slots ? need : slots, slots,
                       need < slots ? " (fewer blocks, not fewer vectors: each block merges once)" : "", why, vecs, v);
}
