/* gp__template_rule: every kernel._template parameter from the device facts,
 * for a shape.
 *
 * block: the smallest block that reaches the launch-rate peak (launch
 * facts), a power of 2.  items_per_thread: Little's law: the bytes a CU
 * must keep in flight to hold its share of the DRAM bandwidth over the DRAM
 * latency, over the threads it holds, in 16-byte loads of x and y (2 a
 * vector); a problem too small to give every resident thread that many
 * vectors gets fewer, so the whole GPU still has work. */
#include <stdio.h>

#include "_template.h"
#include "kernel.h"
#include "rule.h"

#define RULE "gp__template_rule"
/* Registers per thread of gp__template_kernel<4>, the most vectors it is
 * compiled for: 8 float4 in flight within the 64 registers its launch
 * bound of 1024 threads grants (8 and 16 vectors spilled there). */
#define TEMPLATE_REGS 40
/* The headline bench problem: 2^26 values. */
#define HEADLINE_N (1ll << 26)

gp_status gp__template_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), 64, 1024);
    GP_TRY(gp_rule_set(out, "_template", "block", block, "launch",
                       "launch.min_block_for_peak %.0f%s -> %lld threads", f.min_block.v,
                       f.min_block.have ? "" : " (none: 256)", block));
    long long threads = gp_rule_blocks_per_cu(&f.cu, block, TEMPLATE_REGS, 0) * block;
    char why[200];
    double loads = gp_rule_loads_in_flight(&f, threads, 2 * 16.0, why, sizeof why);
    long long items = loads > 0 ? gp_rule_clamp(gp_rule_ceil_pow2((long long)(loads + 0.999999)), 1, 4) : 4;
    const long long n = in->shape && in->shape->d[GP__TEMPLATE_N] > 0 ? in->shape->d[GP__TEMPLATE_N] : HEADLINE_N;
    const long long fill = n / 4 / (threads * (long long)f.cus.v > 0 ? threads * (long long)f.cus.v : 1);
    while (items > 1 && items > fill)
        items /= 2;
    return gp_rule_set(out, "_template", "items_per_thread", items, "little", "%s -> %lld (n %lld: %lld vectors a "
                       "resident thread)%s", why, items, n, fill, loads > 0 ? "" : "; stand-in 4");
}
