/* gp_reduce_rule: every kernel.reduce parameter from the device facts, for
 * a shape.  The models: docs/kernels/reduce.md, "Rule".
 *
 * The shape (n elements, 4 bytes each whatever the type) decides two of
 * them: one_pass, when the data fits one sweep of the persistent grid (a
 * grid that could not be filled pays only its partials: as many blocks as
 * the data needs instead), and stream, when the input exceeds the L2 (read
 * once, so evict-first keeps reusable lines; an input the L2 holds stays
 * cached for the next run).  block, items_per_thread and grid_per_cu are
 * per CU and do not depend on n. */
#include <stdio.h>

#include "kernel.h"
#include "reduce.h"
#include "rule.h"

#define RULE "gp_reduce_rule"
/* The kernels' register bounds (reduce.h, their launch bounds on both
 * vendors), which the persistent grid is sized by: U <= 4, 8, 16. */
/* regs: GP_REDUCE_REGS(4) gp_reduce_kernelI[fj]Li[124]E */
/* regs: GP_REDUCE_REGS(8) gp_reduce_kernelI[fj]Li8E */
/* regs: GP_REDUCE_REGS(16) gp_reduce_kernelI[fj]Li16E */
/* The headline problem: bench's 2^28 fp32 elements. */
#define HEADLINE_ELEMS (1ll << 28)

/* The blocks a one-pass launch of `elems` takes: block x u vectors of 4 each. */
static long long one_pass_blocks(long long elems, long long block, long long u)
{
    return (elems + block * u * 4 - 1) / (block * u * 4);
}

gp_status gp_reduce_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    const gp_rule_cu cu = f.cu;
    double waves = f.waves.v, bw = f.dram_gbs.v, lat = f.dram_latency.v, clk = f.clock_mhz.v, cus = f.cus.v;
    double l2 = f.l2_bytes.v;
    int have_waves = f.waves.have, have_bw = f.dram_gbs.have, have_lat = f.dram_latency.have;
    int have_clk = f.clock_mhz.have, have_cus = f.cus.have, have_l2 = f.l2_bytes.have;
    const long long elems =
        in->shape && in->shape->d[GP_REDUCE_N] > 0 ? in->shape->d[GP_REDUCE_N] : HEADLINE_ELEMS;

    /* block: the waves one CU needs for peak issue (compute.min_waves_for_peak)
     * in one block, so a single resident block per CU already issues at peak. */
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)waves * cu.wave), 64, 256);
    GP_TRY(gp_rule_set(out, "reduce", "block", block, "occupancy",
                       "compute.min_waves_for_peak %.0f%s x wave %lld -> %lld threads (64..256)", waves,
                       have_waves ? "" : " (none: 8)", cu.wave, block));

    /* items_per_thread (U) and grid_per_cu: the bytes in flight per CU,
     * resident threads x U x 16 B, are the most the registers allow (Little's
     * law asks for at least bandwidth x latency); the largest U that costs no
     * occupancy (the kernel is bounded to GP_REDUCE_REGS(U) registers: 32 up to
     * U = 4) wins, and the persistent grid is exactly the resident blocks. */
    long long best_u = 1, best_occ = 0;
    double best_bytes = -1;
    gp_rule_res best_res = {GP_REDUCE_REGS(1), 0, 1024, "build constant"};
    for (long long u = 1; u <= GP_REDUCE_MAX_VECS; u *= 2) {
        gp_rule_res res; /* the streaming instantiation: the one bench's large problem runs */
        GP_TRY(gp_rule_resources(in->use_device, gp_reduce_f32_fn((int)u, 1), GP_REDUCE_REGS(u), 0, &res));
        if (block > res.max_threads)
            continue;
        long long occ = gp_rule_blocks_per_cu(&cu, block, res.regs, res.lds);
        double bytes = (double)occ * (double)block * (double)u * 16.0;
        if (occ > 0 && (bytes > best_bytes * 1.0001 || (bytes >= best_bytes * 0.9999 && occ > best_occ))) {
            best_u = u, best_occ = occ, best_bytes = bytes, best_res = res;
        }
    }
    char little[128] = "";
    if (have_bw && have_lat && have_clk && have_cus)
        snprintf(little, sizeof little, "; Little: dram %.0f GB/s x %.0f cycles @%.0f MHz -> %.1f KiB/CU needed",
                 bw, lat, clk, gp_rule_bytes_in_flight_per_cu(bw, lat, clk, (long long)cus) / 1024.0);
    else
        snprintf(little, sizeof little, "; Little's bound unknown (dram/clock facts none)");
    GP_TRY(gp_rule_set(out, "reduce", "items_per_thread", best_u, "little",
                       "%lld blocks/CU at regs %lld (%s) x %lld thr x %lld x 16 B = %.0f KiB/CU in flight%s",
                       best_occ, best_res.regs, best_res.src, block, best_u, best_bytes / 1024.0, little));
    GP_TRY(gp_rule_set(out, "reduce", "grid_per_cu", best_occ < 1 ? 1 : best_occ, "occupancy",
                       "resident blocks/CU: regs %lld, threads %lld%s%s", cu.regs_per_cu, cu.max_threads_cu,
                       cu.fallback[0] ? "; " : "", cu.fallback));
    /* one_pass: a persistent grid sized to the CUs needs no second launch for
     * its partials; one pass only pays when the data is smaller than the grid
     * covers in one sweep. */
    long long sweep = best_occ * block * best_u * 4 * (have_cus ? (long long)cus : 1);
    int one = elems <= sweep;
    GP_TRY(gp_rule_set(out, "reduce", "one_pass", one, "grid",
                       "%lld elements %s one sweep of the persistent grid (%lld)", elems, one ? "<=" : ">", sweep));
    /* The levels of the cross-block sum (reduce.hip): up to GP_RED_GROUP
     * blocks the last block adds the partials and is done; past it a second
     * level puts a fence, an atomic and a read of the L2 in series after the
     * last block.  A one-pass grid of more blocks than that takes bigger
     * blocks instead, while they keep the same resident threads: the same
     * loads in flight in fewer blocks.  H200 2026-11-29 (2-4 M elements):
     * 489-1056 blocks ran 1.16-1.24x slower than 245-264 of the same loads. */
    if (one) {
        long long b = block, occ = best_occ;
        while (one_pass_blocks(elems, b, best_u) > (long long)GP_RED_GROUP && b * 2 <= best_res.max_threads &&
               b * 2 <= GP_REDUCE_MAX_BLOCK) {
            long long o2 = gp_rule_blocks_per_cu(&cu, b * 2, best_res.regs, best_res.lds);
            if (o2 * b * 2 < occ * b)
                break; /* fewer resident threads: fewer loads in flight */
            b *= 2, occ = o2;
        }
        if (b != block) {
            GP_TRY(gp_rule_set(out, "reduce", "block", b, "grid",
                               "one pass of %lld elements in %lld blocks of %lld x %lld vectors > %u (a second level "
                               "of the cross-block sum) -> %lld blocks of %lld", elems,
                               one_pass_blocks(elems, block, best_u), block, best_u, GP_RED_GROUP,
                               one_pass_blocks(elems, b, best_u), b));
            GP_TRY(gp_rule_set(out, "reduce", "grid_per_cu", occ < 1 ? 1 : occ, "occupancy",
                               "resident blocks/CU of %lld: regs %lld, threads %lld", b, cu.regs_per_cu,
                               cu.max_threads_cu));
        }
    }
    /* stream: data read once and larger than the L2 is streamed (evict-first)
     * so it does not push reusable lines out. */
    double bytes = (double)elems * 4.0;
    int big = !have_l2 || bytes > l2;
    GP_TRY(gp_rule_set(out, "reduce", "stream", big, "l2", "input %.0f MiB %s cache.l2 %.0f MiB%s",
                       bytes / 1048576.0, big ? ">" : "<=", l2 / 1048576.0, have_l2 ? "" : " (none)"));
    return gp_ok();
}
