/* gp_batchnorm_rule: every kernel.batchnorm parameter from the device facts.
 *
 * items_per_thread (Little's law, as for padding but with 16-byte loads):
 * B x L bytes in flight over the CUs, each keeping the threads the occupancy
 * model grants at BN_REGS registers resident:
 *     items = ceil_pow2(B L / (CUs x threads per CU x 16 B)), 1..8.
 * Without the DRAM facts (none) the stand-in is 2 loads.
 * block: launch.min_block_for_peak (stand-in 256) as a power of two below
 * it, 64..1024.  Blocks per channel are not a table value: they follow from
 * the shape and the device's resident blocks at run time
 * (gp_batchnorm_split), which gives a channel at most the blocks its N H W
 * values fill at block x items x 4 values a block.
 * items_per_thread for a shape (none: the headline, 128x64x56x56, whose
 * channels fill every split): halved from the Little's-law value while a
 * channel's values fill fewer such blocks than one wave over the channels
 * wants, ceil(resident / C) (resident = device.compute_units x the blocks
 * of `block` a CU holds at BN_REGS): fewer loads in flight a thread, but a
 * short channel spread over the blocks the GPU holds instead of a few
 * blocks per channel and idle CUs.  H200 (block 512, 528 resident):
 * items is already 1; sm_80's stand-in 2 (block 256, 864 resident) drops
 * to 1 for 2x64x16x16 (512 values a channel: 1 block of 2048 values, want
 * 14).
 *
 * The fused path (one kernel, a block per channel holding the channel's
 * values in registers):
 * fused_max_values = block x V, V the most values a thread holds (4..32,
 * 16 in blocks of 1024) at which one CU still keeps 2 such blocks by the
 * occupancy model (registers.per_cu, alloc_granule, wave, the kernel's
 * registers at V values below): a block alternates a load phase, two
 * barrier reductions and a store phase, and a second resident block keeps
 * the CU's loads in flight while the first one reduces.  No V with 2
 * blocks: 0 (the split kernels always).
 * fused_min_channels = device.compute_units (stand-in 64, named): one block
 * per channel covers the CUs only with C >= CUs; below that the split
 * kernels spread a channel over several blocks and win on large channels
 * (gp_batchnorm_fused still fuses when the split would give a channel one
 * block too).
 *
 * hold_bytes (the one-launch split path, x's first units kept in LDS):
 * the LDS a CU's blocks leave free at the occupancy the kernel's registers
 * allow, per thread in 16-byte units: floor((lds.bytes_per_cu / n - reserve
 * - static) / block / 16) x 16, n = blocks per CU at the registers below.
 * The launcher opts in beyond 48 KiB a block, so the cap is the CU's LDS.
 * The models: docs/kernels/batchnorm.md. */
#include "batchnorm.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp_batchnorm_rule"
/* Registers per thread the occupancy model assumes (ptxas sm_90: the stats
 * kernels 32..54, the apply kernels 15..82 by items and vector width, so the
 * wider variants are resident less than the model says). */
#define BN_REGS 32
/* items_per_thread when the DRAM facts are none. */
#define BN_ITEMS_STANDIN 2
/* Registers per thread of the fused kernel at V values a thread, the larger
 * of its float4 and scalar instantiations (gp_bn_fused<4, V/4>, <1, V>),
 * ptxas -v sm_80 and sm_90 (nvcc 13); checked by tests/build/check_gpu_build.sh.
 * (gfx900 VGPRs: 30, 38, 54, 86: under these but at V = 8.) */
/* The fused kernels at 4, 8, 16 and 32 values a thread (template VEC, units:
 * <4, V/4> and <1, V>).  AMD: 38 VGPRs at 8 values on gfx900. */
/* regs: BN_FUSED_REGS_4 gp_bn_fusedILi(4ELi1|1ELi4)E */
/* regs: BN_FUSED_REGS_8 gp_bn_fusedILi(4ELi2|1ELi8)E */
/* regs: BN_FUSED_REGS_16 gp_bn_fusedILi(4ELi4|1ELi16)E */
/* regs: BN_FUSED_REGS_32 gp_bn_fusedILi(4ELi8|1ELi32)E */
#define BN_FUSED_REGS_4 32
#define BN_FUSED_REGS_8 GP_RULE_REGS(32, 38)
#define BN_FUSED_REGS_16 56
#define BN_FUSED_REGS_32 98
/* The one-launch kernel (gp_bn_resident<4, I>, <1, I>) at items I. */
/* regs: BN_HOLD_REGS_1 gp_bn_residentILi[14]ELi1E */
/* regs: BN_HOLD_REGS_2 gp_bn_residentILi[14]ELi2E */
/* regs: BN_HOLD_REGS_4 gp_bn_residentILi[14]ELi4E */
/* regs: BN_HOLD_REGS_8 gp_bn_residentILi[14]ELi8E */
#define BN_HOLD_REGS_1 GP_RULE_REGS(63, 29)
#define BN_HOLD_REGS_2 GP_RULE_REGS(63, 28)
#define BN_HOLD_REGS_4 GP_RULE_REGS(63, 38)
#define BN_HOLD_REGS_8 GP_RULE_REGS(96, 62)
/* LDS of the fused kernel: two block sums of 32 waves x 2 doubles, ptxas 768 B. */
#define BN_FUSED_LDS 768
/* Blocks a CU must hold for the fused kernel (see above). */
#define BN_FUSED_BLOCKS_PER_CU 2

static long long fused_regs(long long v)
{
    return v <= 4 ? BN_FUSED_REGS_4 : v <= 8 ? BN_FUSED_REGS_8 : v <= 16 ? BN_FUSED_REGS_16 : BN_FUSED_REGS_32;
}

static gp_status fused_rule(const gp_table *facts, gp_table *out)
{
    gp_rule_facts f;
    long long block;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    GP_TRY(gp_table_get_int(out, "kernel.batchnorm", "block", &block));
    long long v = GP_BN_FUSED_VPT(block), occ = 0;
    for (; v >= 4; v /= 2) {
        occ = gp_rule_blocks_per_cu(&f.cu, block, fused_regs(v), BN_FUSED_LDS);
        if (occ >= BN_FUSED_BLOCKS_PER_CU)
            break;
    }
    long long vmax = v >= 4 ? block * v : 0;
    if (vmax)
        GP_TRY(gp_rule_set(out, "batchnorm", "fused_max_values", vmax, "registers",
                           "%lld thr x %lld values (%lld regs, build constant) -> %lld blocks/CU of registers.per_cu "
                           "%lld >= %d%s%s",
                           block, v, fused_regs(v), occ, f.cu.regs_per_cu, BN_FUSED_BLOCKS_PER_CU,
                           f.cu.fallback[0] ? "; " : "", f.cu.fallback));
    else
        GP_TRY(gp_rule_set(out, "batchnorm", "fused_max_values", 0, "registers",
                           "%lld thr x 4 values (%lld regs) -> fewer than %d blocks/CU of registers.per_cu %lld: "
                           "never fused", block, fused_regs(4), BN_FUSED_BLOCKS_PER_CU, f.cu.regs_per_cu));
    long long cus = gp_rule_clamp((long long)f.cus.v, 1, 65535);
    return gp_rule_set(out, "batchnorm", "fused_min_channels", cus, "cus",
                       "a block per channel covers device.compute_units %lld%s", cus,
                       f.cus.have ? "" : " (none: 64)");
}

static long long hold_regs(long long items)
{
    return items <= 1 ? BN_HOLD_REGS_1 : items <= 2 ? BN_HOLD_REGS_2 : items <= 4 ? BN_HOLD_REGS_4 : BN_HOLD_REGS_8;
}

/* hold_bytes (see the top): the LDS the one-launch kernel's blocks leave
 * free at the occupancy its registers allow, shared by a block's threads. */
static gp_status hold_rule(const gp_table *facts, gp_table *out)
{
    gp_rule_facts f;
    long long block, items;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    GP_TRY(gp_table_get_int(out, "kernel.batchnorm", "block", &block));
    GP_TRY(gp_table_get_int(out, "kernel.batchnorm", "items_per_thread", &items));
    /* The launcher opts in to more than the default per-block LDS
     * (gp_func_dynamic_lds), up to the CU's less the reserve: what sm_80,
     * sm_90 and gfx9 grant one block. */
    gp_rule_cu cu = f.cu;
    cu.lds_per_block = cu.lds_per_cu - cu.lds_block_reserve;
    const long long regs = hold_regs(items), st = GP_BN_HOLD_STATIC_LDS;
    const long long per_cu = gp_rule_blocks_per_cu(&cu, block, regs, st);
    long long avail = per_cu > 0 ? cu.lds_per_cu / per_cu - cu.lds_block_reserve - st : 0;
    long long hold = avail > 0 ? gp_rule_clamp(avail / block / 16 * 16, 0, GP_BN_MAX_HOLD) : 0;
    while (hold > 0 && gp_rule_blocks_per_cu(&cu, block, regs, st + hold * block) < per_cu)
        hold -= 16;
    return gp_rule_set(out, "batchnorm", "hold_bytes", hold, "lds",
                       "lds.bytes_per_cu %lld / %lld blocks of %lld thr (%lld regs, build constant) - %lld reserved "
                       "- %lld static = %lld B a block -> %lld B a thread (16-B units)%s%s",
                       cu.lds_per_cu, per_cu, block, regs, cu.lds_block_reserve, st, avail, hold,
                       f.cu.fallback[0] ? "; " : "", f.cu.fallback);
}

/* items_per_thread for the shape (see the top): lowered only where a
 * channel's values fill fewer blocks than a wave over the channels wants. */
static gp_status items_for_shape(const gp_table *facts, const gp_shape *sh, gp_table *out)
{
    if (!sh || sh->d[GP_BN_N] < 1 || sh->d[GP_BN_C] < 1 || sh->d[GP_BN_H] < 1 || sh->d[GP_BN_W] < 1)
        return gp_ok();
    gp_rule_facts f;
    long long block, items;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    GP_TRY(gp_table_get_int(out, "kernel.batchnorm", "block", &block));
    GP_TRY(gp_table_get_int(out, "kernel.batchnorm", "items_per_thread", &items));
    const long long per_cu = gp_rule_blocks_per_cu(&f.cu, block, BN_REGS, 0);
    const long long resident = (long long)f.cus.v * (per_cu > 0 ? per_cu : 1), c = sh->d[GP_BN_C];
    const long long m = sh->d[GP_BN_N] * sh->d[GP_BN_H] * sh->d[GP_BN_W], want = (resident + c - 1) / c;
    long long it = items;
    while (it > 1 && (m + block * it * 4 - 1) / (block * it * 4) < want)
        it /= 2;
    if (it == items)
        return gp_ok();
    return gp_rule_set(out, "batchnorm", "items_per_thread", it, "waves",
                       "%lld values a channel fill %lld blocks of %lld x %lld x 4 < ceil(%lld resident / %lld "
                       "channels) = %lld -> %lld (fill %lld)",
                       m, (m + block * items * 4 - 1) / (block * items * 4), block, items, resident, c, want, it,
                       (m + block * it * 4 - 1) / (block * it * 4));
}

gp_status gp_batchnorm_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"batchnorm",     RULE, "items_per_thread", BN_REGS, 16.0,
                              GP_BN_MAX_ITEMS, GP_BN_MAX_BLOCK, BN_ITEMS_STANDIN, 1};
    GP_TRY(gp_rule_streaming(in->facts, &s, out));
    GP_TRY(fused_rule(in->facts, out));
    GP_TRY(items_for_shape(in->facts, in->shape, out));
    return hold_rule(in->facts, out);
}
