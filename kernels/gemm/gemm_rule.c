/* gp_gemm_rule: the tile from the register file, the LDS and the FMA rate.
 *
 * The configurations the rule considers (gemm.h, GP_GEMM_RULE_ORDER: most
 * FMAs per byte loaded first, tile_m tile_n / (4 (tile_m + tile_n)):
 * 128x256 21.3, 128x128 16, 128x64 10.7, 64x64 8), each only where the
 * table's device.arch compiles it (its register class,
 * platform/gp_target.h), need per thread their accumulators (the thread
 * tile tile_m tile_n / block: 64 or 128), fragment registers (an A column of
 * 8 and a B row of thread tile / 8: 16 or 24), a share of the next slab
 * (tile x tile_k / block for A and B) and about 24 for addresses and
 * indices.  The first configuration whose
 *   - registers fit registers.per_thread_max,
 *   - two stages fit the LDS a block may use,
 *   - enough blocks fit a CU (the occupancy model of kernels/rule.h): two
 *     for the 8 x 8 thread tile (one block's barrier overlaps the other's
 *     FMAs; its 64 accumulators and 4 reads a k-step do not hide it alone),
 *     one for the warp-tiled 8 x 16 (128 independent FMAs per 6 LDS reads a
 *     k-step; 128x256x8/256 holds 188 estimated, 202-206 ptxas sm_90
 *     registers x 256 threads = 52 Ki of 64 Ki: one block an SM, measured
 *     on the H200 2026-11-24 at 0.938 of cuBLAS against 0.882 for the same
 *     warp code at two blocks of 128x128x8/128; docs/kernels/gemm.md,
 *     "Measured"),
 *   - the block is whole waves (device.wave_size),
 *   - and whose slab keeps the CU's FMA pipes busy for at least 16 LDS
 *     latencies per barrier: tile_m tile_n tile_k x min(blocks/CU, 2) /
 *     compute.fp32_fma_per_cycle_per_cu >= 16 x lds.latency_cycles,
 * wins; among equal tiles the smaller k-step (less LDS) comes first.
 * When none passes every test, the first that fits the LDS of a block (the
 * rest cost speed, not correctness: registers beyond per_thread_max spill)
 * with the failed tests named; when none fits the LDS, GP_ERR_UNSUPPORTED.
 * That tile is the large-problem choice, and the headline's (4096^3, row-major
 * NN): with no shape the rule stops there.  For a shape (kernel.h, "One path
 * per launch") it takes the per-problem step (gemm.h, gp_gemm_plan) on the
 * facts: the busiest SM's time of 128x256x8/256, 128x128x8/256,
 * 128x128x16/256 and 128x64x8/128, from the grid over device.compute_units,
 * the blocks a CU holds of each, their measured relative rates and the
 * 4-byte loads of rows whose leading dimension is not a multiple of 4, and
 * the provenance says which ran and why: on the H200, 4095 x 4097 x 1023
 * (544 blocks of 128x256, 5 an SM, x 0.85 for its 4-byte rows) runs
 * 128x128x8/256 (1056 blocks, 8 an SM at 2 a round); 1024^3 (32 blocks of
 * 128x256 for 132 SMs) runs 128x64x8/128; 4096^3 keeps 128x256.  The
 * pointers' alignment is the launch's to judge (gp_gemm_f32): a shape has
 * none, so the step assumes 16-byte aligned A and B.  The same step, in
 * seconds on the FMA rate, clock, DRAM bandwidth and launch time, sets
 * split_k (k cut across blocks where the tiles leave SMs idle,
 * gp_gemm_plan_split) and stream_k (the last partial wave shared out,
 * the same call); with one of those facts none, neither.
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

/* The registers a thread of each configuration compiles to at most (gemm.h
 * GP_GEMM_REGS_*: its launch bounds, by vendor), as the occupancy model
 * counts them (gp_gemm_config_regs); the build tests hold each against the
 * compilers' reports. */
/* regs: GP_GEMM_RULE_REGS_SLAB8 gp_gemm_kernelILi128ELi128ELi8ELi256E */
/* regs: GP_GEMM_RULE_REGS_WIDE gp_gemm_kernelILi(128ELi128ELi16ELi256|128ELi64ELi8ELi128|64ELi64ELi8ELi64)E */
/* regs: GP_GEMM_REGS_WT gp_gemm_wt(_nn)?_kernel targets=^sm_ */

static const int rule_order[GP_GEMM_RULE_CONFIGS] = {GP_GEMM_RULE_ORDER};

/* Blocks a CU holds of configuration cfg (the occupancy model, kernels/rule.h,
 * at the register estimate of gp_gemm_config_regs). */
static long long config_blocks(const gp_rule_cu *cu, int cfg)
{
    const int *c = gp_gemm_configs[cfg];
    return gp_rule_blocks_per_cu(cu, c[3], gp_gemm_config_regs(cfg), (long long)gp_gemm_lds_bytes(c[0], c[1], c[2]));
}

long long gp_gemm_blocks_per_cu(const gp_table *t, int cfg)
{
    gp_rule_cu cu;
    if (!t || cfg < 0 || cfg >= GP_GEMM_NCONFIGS || gp_rule_cu_facts(t, RULE, &cu).code != GP_OK)
        return 0;
    return config_blocks(&cu, cfg);
}

/* The configuration the shape runs, its k splits and stream-K (gemm.h, gp_gemm_plan_split, 16-byte aligned
 * pointers), with why in `why`; `chosen`, 1 and 0 where the step does not apply (no step for it, a shape that is
 * no problem, or device.compute_units none: the waves cannot be counted).  The split's facts: the FMA rate,
 * the clock, the DRAM bandwidth and the launch time; where one is none the step does not split. */
static int plan_for_shape(const gp_shape *s, const gp_rule_facts *f, double launch_us, int chosen, int *split,
                          int *sk, char *why, size_t n)
{
    gp_gemm_problem q;
    gp_gemm_params p;
    why[0] = 0;
    *split = 1, *sk = 0;
    if (!s || chosen != GP_GEMM_FALLBACK_FROM || !f->cus.have)
        return chosen;
    gp_gemm_problem_of_shape(s, 1.0f, 0.0f, &q);
    if (gp_gemm_check_problem(&q).code != GP_OK)
        return chosen;
    memset(&p, 0, sizeof p);
    p.config = chosen, p.cus = (int)f->cus.v;
    for (int i = 0; i < GP_GEMM_NCONFIGS; i++)
        p.blocks_cu[i] = (int)config_blocks(&f->cu, i);
    const gp_gemm_split_facts sf = {f->fma.have ? f->fma.v : 0, f->clock_mhz.have ? f->clock_mhz.v * 1e6 : 0,
                                    f->dram_gbs.have ? f->dram_gbs.v * 1e9 : 0, launch_us * 1e-6};
    return gp_gemm_plan_split(&q, &p, &sf, split, sk, why, n);
}

/* The per-problem step where the chosen tile has one ("; per problem the
 * fastest of 4 tiles by a busiest-SM model"), else "; 128x128x8/128 a tune
 * candidate" for each configuration outside the rule's order that the
 * target compiles (none for an unknown target); the provenance holds
 * GP_TABLE_PROV_LEN characters, room for one of the two. */
static void later_note(unsigned cls, int chosen, char *buf, size_t n)
{
    buf[0] = 0;
    if (chosen == GP_GEMM_FALLBACK_FROM) {
        snprintf(buf, n, "; per problem the fastest of 4 tiles by a busiest-SM model");
        return;
    }
    for (int i = 0; i < GP_GEMM_NCONFIGS && cls; i++) {
        int in_rule = 0;
        for (int j = 0; j < GP_GEMM_RULE_CONFIGS; j++)
            in_rule |= rule_order[j] == i;
        const int *c = gp_gemm_configs[i];
        size_t used = strlen(buf);
        if (!in_rule && gp_gemm_config_on(i, cls))
            snprintf(buf + used, n - used, "; %dx%dx%d/%d a tune candidate", c[0], c[1], c[2], c[3]);
    }
}

gp_status gp_gemm_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_table *t = in->facts;
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(t, RULE, &f));
    double rpt, lat, launch_us;
    int have_rpt, have_lat, have_launch;
    GP_TRY(gp_rule_fact_or(t, RULE, "launch", "launch_us", -1, &launch_us, &have_launch));
    GP_TRY(gp_rule_fact_or(t, RULE, "registers", "per_thread_max", REGS_STANDIN, &rpt, &have_rpt));
    GP_TRY(gp_rule_fact_or(t, RULE, "lds", "latency_cycles", LDS_LATENCY_STANDIN, &lat, &have_lat));
    double fma = f.fma.have ? f.fma.v : FMA_STANDIN;
    const gp_rule_cu *cu = &f.cu;
    /* Only the tiles the device's target has (device.arch is a required key). */
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    const unsigned cls = arch ? gp_target_reg_class(arch->text) : 0;

    int pick = -1, fallback = -1;
    char failed[96] = "";
    for (int o = 0; o < GP_GEMM_RULE_CONFIGS && pick < 0; o++) {
        const int i = rule_order[o], *c = gp_gemm_configs[i];
        long long regs = gp_gemm_config_regs(i), lds = (long long)gp_gemm_lds_bytes(c[0], c[1], c[2]);
        if (!gp_gemm_config_on(i, cls) || lds > cu->lds_per_block)
            continue;
        if (fallback < 0)
            fallback = i;
        const long long bpc = gp_rule_blocks_per_cu(cu, c[3], regs, lds);
        double slab = (double)c[0] * c[1] * c[2] * (bpc < 2 ? bpc : 2) / fma;
        int fits_regs = regs <= rpt, two = bpc >= (GP_GEMM_THREAD_TILE(c[0], c[1], c[3]) == 128 ? 1 : 2);
        int waves = c[3] % cu->wave == 0, deep = slab >= 16 * lat;
        if (fits_regs && two && waves && deep)
            pick = i;
        else if (i == fallback)
            snprintf(failed, sizeof failed, "%s%s%s%s", fits_regs ? "" : " exceeds per_thread_max",
                     two ? "" : " too few blocks/CU", waves ? "" : " not whole waves", deep ? "" : " slab < 16 lds latencies");
    }
    if (pick < 0 && fallback < 0)
        return gp_fail(GP_ERR_UNSUPPORTED,
                       "rule " RULE ": no compiled gemm tile fits [lds] bytes_per_block %lld (the smallest needs %zu B)",
                       cu->lds_per_block, gp_gemm_lds_bytes(64, 64, 8));
    int chosen = pick >= 0 ? pick : fallback;
    const int *c = gp_gemm_configs[chosen];
    long long regs = gp_gemm_config_regs(chosen);
    char why[384], later[160];
    later_note(cls, chosen, later, sizeof later);
    snprintf(why, sizeof why,
             "%lld regs vs max %.0f%s, %lld blocks/CU, slab %.0f cycles at %.0f FMA/cycle%s vs 16 x lds "
             "latency %.0f%s%s%s%s%s",
             regs, rpt, have_rpt ? "" : " (none: 128)",
             config_blocks(cu, chosen), (double)c[0] * c[1] * c[2] * (config_blocks(cu, chosen) < 2 ? config_blocks(cu, chosen) : 2) / fma, fma, f.fma.have ? "" : " (none: 64)", lat,
             have_lat ? "" : " (none: 64)", pick >= 0 ? "" : "; no tile passes all, first in LDS:", pick >= 0 ? "" : failed, later,
             cu->fallback[0] ? "; " : "");
    static const char *const keys[4] = {"tile_m", "tile_n", "tile_k", "block"};
    char plan[320];
    int split, sk;
    const int ran = plan_for_shape(in->shape, &f, have_launch ? launch_us : -1, chosen, &split, &sk, plan, sizeof plan);
    const gp_shape *s = in->shape;
    if (ran != chosen || split > 1 || sk) { /* the per-problem step's tile, split or stream-K, for this shape */
        for (int i = 0; i < 4; i++)
            GP_TRY(gp_rule_set(out, "gemm", keys[i], gp_gemm_configs[ran][i], "waves",
                               "%lldx%lldx%lld: %s (the per-problem step of %dx%dx%d/%d)", s->d[GP_GEMM_M], s->d[GP_GEMM_N],
                               s->d[GP_GEMM_K], plan, c[0], c[1], c[2], c[3]));
        GP_TRY(gp_rule_set(out, "gemm", "split_k", split, "waves", "%lldx%lldx%lld: %s", s->d[GP_GEMM_M],
                           s->d[GP_GEMM_N], s->d[GP_GEMM_K], split > 1 ? plan : "k whole: a split is not faster by the model"));
        return gp_rule_set(out, "gemm", "stream_k", sk, "waves", "%lldx%lldx%lld: %s", s->d[GP_GEMM_M],
                           s->d[GP_GEMM_N], s->d[GP_GEMM_K], sk ? plan : "whole waves: stream-K is not faster by the model");
    }
    for (int i = 0; i < 4; i++)
        GP_TRY(gp_rule_set(out, "gemm", keys[i], c[i], "registers", "%s%s", why, cu->fallback));
    if (chosen != GP_GEMM_FALLBACK_FROM) {
        GP_TRY(gp_rule_set(out, "gemm", "split_k", 1, "waves", "k whole: the %dx%dx%d/%d kernel does not split k",
                           c[0], c[1], c[2], c[3]));
        return gp_rule_set(out, "gemm", "stream_k", 0, "waves", "the %dx%dx%d/%d kernel has no stream-K", c[0], c[1],
                           c[2], c[3]);
    }
    GP_TRY(gp_rule_set(out, "gemm", "split_k", 1, "waves", "%s",
                       s ? "k whole: a split is not faster by the model (gemm.h, gp_gemm_plan_split)"
                         : "k whole for the large problem; per shape the split of a busiest-SM model"));
    return gp_rule_set(out, "gemm", "stream_k", 0, "waves", "%s",
                       s ? "whole waves: stream-K is not faster by the model (gemm.h, gp_gemm_plan_split)"
                         : "per shape: stream-K over a partial last wave where the busiest-SM model says");
}

/* ---- the legality of a table's [kernel.gemm] (gemm.h, gp_gemm_check_table) */

gp_status gp_gemm_check_table(const gp_table *t, const char *name)
{
    long long tm, tn, tk, gb;
    if (gp_table_get_int(t, "kernel.gemm", "tile_m", &tm).code != GP_OK ||
        gp_table_get_int(t, "kernel.gemm", "tile_n", &tn).code != GP_OK ||
        gp_table_get_int(t, "kernel.gemm", "tile_k", &tk).code != GP_OK ||
        gp_table_get_int(t, "kernel.gemm", "block", &gb).code != GP_OK)
        return gp_ok(); /* absent: the reader names it */
    const int line = gp_table_find(t, "kernel.gemm", "block")->line;
    if ((tm * tn) % gb)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.gemm: tile_m x tile_n = %lld is not a multiple of block = %lld",
                       name, line, tm * tn, gb);
    if ((tm * tn) / gb > 256)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.gemm: %lld accumulators per thread (tile_m x tile_n / block) "
                       "exceeds 256", name, line, (tm * tn) / gb);
    if ((tm + tn) * tk * 4 > 48 * 1024)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.gemm: (tile_m + tile_n) x tile_k x 4 = %lld bytes exceeds 48 KiB "
                       "of LDS", name, line, (tm + tn) * tk * 4);
    return gp_ok();
}
