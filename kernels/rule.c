/* Helpers for the kernel rules: see rule.h. */
#include "rule.h"
#include "runtime.h"
#include "gp_target.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

gp_status gp_rule_fact_or(const gp_table *t, const char *rule, const char *section, const char *key,
                          double fallback, double *out, int *found)
{
    const gp_table_entry *e = gp_table_find(t, section, key);
    *out = fallback;
    if (found)
        *found = 0;
    int ki = gp_table_key_index(section, key);
    if (ki < 0)
        return gp_fail(GP_ERR_USAGE, "%s: [%s] %s is not a table key (internal)", rule, section, key);
    /* A table carries every required key (value or none): absent is a defect.
     * An optional key may be absent, which reads like none. */
    if ((!e || !e->present) && (gp_table_key_at((size_t)ki)->flags & GP_TK_REQUIRED))
        return gp_fail(GP_ERR_USAGE, "%s: the facts have no [%s] %s, which the rule needs", rule, section, key);
    if (!e || !e->present)
        return gp_ok();
    if (e->is_none)
        return gp_ok();
    if (!isfinite(e->d) || e->d <= 0)
        return gp_fail(GP_ERR_USAGE, "%s: [%s] %s = %g: the rule needs a positive value", rule, section, key,
                       e->d);
    *out = e->d;
    if (found)
        *found = 1;
    return gp_ok();
}

gp_status gp_rule_fact(const gp_table *t, const char *rule, const char *section, const char *key, double *out)
{
    const gp_table_entry *e = gp_table_find(t, section, key);
    if (e && e->present && e->is_none)
        return gp_fail(GP_ERR_USAGE, "%s: [%s] %s is none (%s), and the rule needs it", rule, section, key,
                       e->prov);
    int found = 0;
    GP_TRY(gp_rule_fact_or(t, rule, section, key, 0, out, &found));
    return gp_ok();
}

gp_status gp_rule_fact_int(const gp_table *t, const char *rule, const char *section, const char *key,
                           long long *out)
{
    double d = 0;
    GP_TRY(gp_rule_fact(t, rule, section, key, &d));
    *out = llround(d);
    return gp_ok();
}

gp_status gp_rule_set(gp_table *out, const char *k, const char *key, long long v, const char *model,
                      const char *why_fmt, ...)
{
    char why[GP_TABLE_PROV_LEN], prov[2 * GP_TABLE_PROV_LEN], section[64];
    va_list ap;
    va_start(ap, why_fmt);
    vsnprintf(why, sizeof why, why_fmt, ap);
    va_end(ap);
    snprintf(prov, sizeof prov, "rule gp_%s_rule %s: %s", k, model, why);
    prov[GP_TABLE_PROV_LEN - 1] = '\0'; /* a provenance is one line of the table: cut, never overflow */
    snprintf(section, sizeof section, "kernel.%s", k);
    gp_status st = gp_table_set(out, section, key, (double)v, prov);
    if (st.code != GP_OK)
        return gp_fail(st.code, "gp_%s_rule: %s.%s = %lld rejected: %s", k, section, key, v, st.msg);
    return gp_ok();
}

gp_status gp_rule_resources(int use_device, const void *fn, long long build_regs, long long dyn_lds,
                            gp_rule_res *r)
{
    r->regs = build_regs, r->lds = dyn_lds, r->max_threads = 1024;
    snprintf(r->src, sizeof r->src, "build constant");
    if (!use_device)
        return gp_ok();
    if (!fn) {
        snprintf(r->src, sizeof r->src, "build constant: instantiation not compiled");
        return gp_ok();
    }
    gp_func_attr a;
    gp_status st = gp_func_attributes(fn, &a);
    if (st.code == GP_ERR_NO_GPU) { /* no backend or no device: nothing to ask */
        snprintf(r->src, sizeof r->src, "build constant: no GPU");
        return gp_ok();
    }
    GP_TRY(st);
    if (a.regs_per_thread < 1 || a.max_threads_per_block < 1)
        return gp_fail(GP_ERR_CHECK, "%s: %d registers, %d threads per block: not a kernel's attributes", a.source,
                       a.regs_per_thread, a.max_threads_per_block);
    r->regs = a.regs_per_thread;
    r->lds = (long long)a.static_lds_bytes + dyn_lds;
    r->max_threads = a.max_threads_per_block;
    snprintf(r->src, sizeof r->src, "%s", a.source);
    return gp_ok();
}

/* One CU fact, or its stand-in (noted in cu->fallback) when it is none. */
static gp_status cu_fact(const gp_table *t, const char *rule, const char *section, const char *key,
                         double standin, long long *out, gp_rule_cu *cu)
{
    double d;
    int found;
    GP_TRY(gp_rule_fact_or(t, rule, section, key, standin, &d, &found));
    *out = (long long)d;
    if (!found) {
        size_t len = strlen(cu->fallback);
        snprintf(cu->fallback + len, sizeof cu->fallback - len, "%s%s.%s none: %.0f", len ? ", " : "", section,
                 key, standin);
    }
    return gp_ok();
}

/* The register class of the facts read last (gp_rule_cu_facts), for
 * gp_rule_build_regs; derivation runs one rule at a time. */
static _Thread_local unsigned rule_reg_class;

int gp_rule_build_regs(int nv, int amd)
{
    return rule_reg_class == GP_REGS_256 || rule_reg_class == GP_REGS_128 ? amd : nv;
}

gp_status gp_rule_cu_facts(const gp_table *t, const char *rule, gp_rule_cu *cu)
{
    memset(cu, 0, sizeof *cu);
    GP_TRY(cu_fact(t, rule, "device", "wave_size", 64, &cu->wave, cu));
    GP_TRY(cu_fact(t, rule, "registers", "per_cu", 65536, &cu->regs_per_cu, cu));
    GP_TRY(cu_fact(t, rule, "registers", "alloc_granule", 8, &cu->reg_granule, cu));
    GP_TRY(cu_fact(t, rule, "lds", "bytes_per_cu", 48 * 1024, &cu->lds_per_cu, cu));
    GP_TRY(cu_fact(t, rule, "lds", "bytes_per_block", 48 * 1024, &cu->lds_per_block, cu));
    if (cu->lds_per_block > cu->lds_per_cu)
        cu->lds_per_block = cu->lds_per_cu;
    /* Resident-thread cap per CU, by target (gp_target_threads_per_cu: 2048
     * on sm_80/sm_90, 2560 on gfx9 before gfx90a, 2048 on gfx90a/gfx94x,
     * whose SIMDs hold 8 waves, not 10).  Not a measured fact yet; for a
     * target of no known figure the wave size picks: 40 waves of 64, or
     * 2048 threads. */
    const gp_table_entry *tgt = gp_table_find(t, "device", "arch");
    int cap = gp_target_threads_per_cu(tgt ? tgt->text : NULL);
    cu->max_threads_cu = cap > 0 ? cap : cu->wave == 64 ? 40 * 64 : 2048;
    /* The runtime's shared memory per block (gp_target.h), by device.arch:
     * the histogram rule's block missed by 7.8 % on the H200 without it
     * (docs/kernels/histogram.md). */
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    cu->lds_block_reserve = gp_target_lds_block_reserve(arch ? arch->text : NULL); /* "none": no target, 0 */
    rule_reg_class = gp_target_reg_class(arch ? arch->text : NULL);
    return gp_ok();
}

long long gp_rule_blocks_per_cu(const gp_rule_cu *cu, long long block, long long regs, long long lds)
{
    if (block <= 0 || block > 1024)
        return 0;
    long long g = cu->reg_granule > 0 ? cu->reg_granule : 1;
    long long r = regs < 1 ? 1 : (regs + g - 1) / g * g;
    long long waves = (block + cu->wave - 1) / cu->wave;
    long long by_regs = cu->regs_per_cu / (r * waves * cu->wave);
    long long by_lds =
        lds > 0 ? (lds <= cu->lds_per_block ? cu->lds_per_cu / (lds + cu->lds_block_reserve) : 0) : 1 << 20;
    long long by_threads = cu->max_threads_cu / (waves * cu->wave);
    long long n = by_regs < by_lds ? by_regs : by_lds;
    return n < by_threads ? n : by_threads;
}

double gp_rule_bytes_in_flight_per_cu(double bandwidth_gbs, double latency_cycles, double clock_mhz,
                                      long long cus)
{
    /* bytes = (B/s) x (s): latency_cycles / (clock_mhz x 1e6) seconds. */
    return bandwidth_gbs * 1e9 * (latency_cycles / (clock_mhz * 1e6)) / (double)cus;
}

double gp_rule_loads_in_flight(const gp_rule_facts *f, long long threads_per_cu, double load_bytes, char *why,
                               size_t n)
{
    if (!f->dram_gbs.have || !f->dram_latency.have || !f->clock_mhz.have || threads_per_cu < 1) {
        snprintf(why, n, "Little's bound unknown (dram/clock facts none)");
        return 0;
    }
    double per_cu = gp_rule_bytes_in_flight_per_cu(f->dram_gbs.v, f->dram_latency.v, f->clock_mhz.v,
                                                   (long long)f->cus.v);
    double loads = per_cu / ((double)threads_per_cu * load_bytes);
    snprintf(why, n, "dram %.0f GB/s x %.0f cycles @%.0f MHz / %.0f CUs%s = %.1f KiB/CU over %lld thr x %.3g B = %.2f",
             f->dram_gbs.v, f->dram_latency.v, f->clock_mhz.v, f->cus.v, f->cus.have ? "" : " (none: 64)",
             per_cu / 1024.0, threads_per_cu, load_bytes, loads);
    return loads;
}

gp_status gp_rule_streaming(const gp_table *facts, const gp_rule_stream *s, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(facts, s->rule, &f));
    long long block = gp_rule_clamp(gp_rule_floor_pow2((long long)f.min_block.v), 64, s->max_block);
    GP_TRY(gp_rule_set(out, s->k, "block", block, "launch",
                       "launch.min_block_for_peak %.0f%s -> %lld threads (power of 2, 64..%lld)", f.min_block.v,
                       f.min_block.have ? "" : " (none: 256)", block, s->max_block));
    long long threads = gp_rule_blocks_per_cu(&f.cu, block, s->regs, 0) * block;
    char why[200];
    double loads = gp_rule_loads_in_flight(&f, threads, s->load_bytes, why, sizeof why);
    long long least = s->min_items > 1 ? s->min_items : 1;
    /* Clamped before the cast: a shape's tiny load share can make loads huge. */
    const double capped = loads > (double)s->max_items ? (double)s->max_items : loads;
    long long items = loads > 0 ? gp_rule_clamp(gp_rule_ceil_pow2((long long)(capped + 0.999999)), least, s->max_items)
                                : s->standin;
    return gp_rule_set(out, s->k, s->items_key, items, "little", "%s -> %lld%s%s%s", why, items,
                       loads > 0 ? "" : " (stand-in)", f.cu.fallback[0] ? "; " : "", f.cu.fallback);
}

static gp_status val(const gp_table *t, const char *rule, const char *section, const char *key, double standin,
                     gp_rule_val *v)
{
    return gp_rule_fact_or(t, rule, section, key, standin, &v->v, &v->have);
}

gp_status gp_rule_read_facts(const gp_table *t, const char *rule, gp_rule_facts *f)
{
    gp_rule_val far;
    GP_TRY(gp_rule_cu_facts(t, rule, &f->cu));
    GP_TRY(val(t, rule, "compute", "min_waves_for_peak", 8, &f->waves));
    GP_TRY(val(t, rule, "device", "compute_units", 64, &f->cus));
    GP_TRY(val(t, rule, "device", "clock_mhz", 0, &f->clock_mhz));
    GP_TRY(val(t, rule, "compute", "fp32_fma_per_cycle_per_cu", 0, &f->fma));
    GP_TRY(val(t, rule, "launch", "min_block_for_peak", 256, &f->min_block));
    GP_TRY(val(t, rule, "launch", "blocks_per_cycle", 0, &f->blocks_per_cycle));
    GP_TRY(val(t, rule, "launch", "peak_threads_per_cycle", 0, &f->threads_per_cycle));
    GP_TRY(val(t, rule, "dram", "bandwidth_gbs", 0, &f->dram_gbs));
    GP_TRY(val(t, rule, "dram", "latency_cycles", 0, &f->dram_latency));
    GP_TRY(val(t, rule, "dram", "far_latency_cycles", 0, &far));
    if (far.have && far.v > f->dram_latency.v)
        f->dram_latency = far;
    GP_TRY(val(t, rule, "cache.l2", "bytes", 0, &f->l2_bytes));
    return val(t, rule, "cache.l1", "line_bytes", 128, &f->l1_line);
}

long long gp_rule_floor_pow2(long long x)
{
    long long p = 1;
    while (p * 2 <= x)
        p *= 2;
    return p;
}

long long gp_rule_ceil_pow2(long long x)
{
    long long p = 1;
    while (p < x)
        p *= 2;
    return p;
}

long long gp_rule_clamp(long long x, long long lo, long long hi) { return x < lo ? lo : x > hi ? hi : x; }
