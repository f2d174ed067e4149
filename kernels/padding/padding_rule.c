/* gp_padding_rule: every kernel.padding parameter from the device facts.
 *
 * items_per_thread (Little's law): to stream at the DRAM bandwidth B with
 * latency L, B x L bytes must be in flight, B x L / CUs per CU.  A CU keeps
 * the threads the occupancy model grants at PADDING_REGS registers resident;
 * each thread's items_per_thread outputs issue their loads before its stores,
 * but only the outputs inside the input load (a fraction f of them, the
 * launched shape's own; without a shape the headline problem's, 7 x 7 planes
 * padded by 3 to 13 x 13, f = 49 / 169), so a thread has f x items 4-byte
 * loads outstanding:
 *     items_per_thread = ceil_pow2(B L / (CUs x threads per CU x 4 B x f)),
 * between 4 and GP_PADDING_MAX_ITEMS.  Without the DRAM facts (none) the
 * stand-in is 8, the middle of the compiled 4..16.
 * block: the smallest block the launch-rate probe saw reach the peak
 * (launch.min_block_for_peak, stand-in 256), as a power of two below it,
 * 64..1024.
 * planes_per_block (the staged kernel, sized for the 7 x 7 reference plane,
 * GP_PADDING_STAGED_PLANE_BYTES = 196 B, padding_staged.h):
 *   - whether: the flat kernel gathers each input row with 4-byte loads; a
 *     28 B row is less than a sector (cache.l1.sector_bytes, else
 *     line_bytes), so a row's sector is fetched for part of it and the next
 *     row starts mid-sector: the staged kernel's 16-byte loads of whole
 *     contiguous planes pay that off.  A row of a sector or more: 0 (flat).
 *   - how many: a block's P planes are its loads in flight (phase 1 issues
 *     them all before the barrier), so P = the Little's-law bytes a CU must
 *     keep in flight (dram bandwidth x latency / CUs) over one plane's bytes,
 *     ceil_pow2, 4..GP_PADDING_MAX_PLANES, and at most the planes the LDS a
 *     block may use holds (lds.bytes_per_block, the compiled 48 KiB).
 *     H200: 11.6 KiB/CU / 196 B = 60.9 -> 64.  Measured (H200 2026-11-24,
 *     `gpuprobe bench padding --table lookup`, paired vs the copy, 7x7 + 3):
 *     P 16, 32, 64: 0.665, 0.814, 0.919; flat (512 x 16) 0.873.
 *   - without the DRAM facts P cannot be sized: 0 (flat).
 * The table key is the headline's P (no shape: the 7 x 7 reference plane).
 * For a shape the rule sizes P for the shape's own plane the same way: a
 * row of a sector or more, or a plane larger than the reference's 196 B
 * (which the host never stages: gp_padding_staged_usable), is 0 (flat; 56x56
 * measured flat 0.998 of the copy, staged 0.82-0.84); a smaller plane gets
 * more planes a block for the same bytes in flight (H200, 4 x 4 planes of
 * 64 B: 11.6 KiB / 64 B = 186 -> 128, the most compiled).  The models:
 * docs/kernels/padding.md. */
#include "kernel.h"
#include "padding.h"
#include "padding_staged.h"
#include "rule.h"

#define RULE "gp_padding_rule"
/* Registers per thread the occupancy model assumes: ptxas sm_90 uses 30, 32
 * and 42 at 4, 8 and 16 items (tests/build/rule_regs.txt checks it). */
/* regs: PADDING_REGS gp_padding_kernelILi(4|8|16)E */
#define PADDING_REGS 48
/* items_per_thread when the DRAM facts are none. */
#define PADDING_ITEMS_STANDIN 8
/* The headline problem's share of outputs that load: 7 x 7 of 13 x 13. */
#define HEADLINE_INSIDE (49.0 / 169.0)

/* planes_per_block for the input plane of sh (NULL: the 7 x 7 reference):
 * see the comment at the top. */
static gp_status planes_rule(const gp_table *facts, const gp_shape *sh, gp_table *out)
{
    gp_rule_facts f;
    double sector;
    int have_sector, h = GP_PADDING_STAGED_REF_H, w = GP_PADDING_STAGED_REF_W;
    GP_TRY(gp_rule_read_facts(facts, RULE, &f));
    GP_TRY(gp_rule_fact_or(facts, RULE, "cache.l1", "sector_bytes", f.l1_line.v, &sector, &have_sector));
    if (sh && sh->d[GP_PAD_H] > 0 && sh->d[GP_PAD_W] > 0) {
        const long long ph = sh->d[GP_PAD_H], pw = sh->d[GP_PAD_W];
        if (ph > GP_PADDING_STAGED_PLANE_BYTES || pw > GP_PADDING_STAGED_PLANE_BYTES ||
            ph * pw * 4 > GP_PADDING_STAGED_PLANE_BYTES)
            return gp_rule_set(out, "padding", "planes_per_block", 0, "sectors",
                               "%lldx%lld plane %.0f B > the %d B (%dx%d) the host stages -> 0 (flat)", ph, pw,
                               4.0 * (double)ph * (double)pw, GP_PADDING_STAGED_PLANE_BYTES, GP_PADDING_STAGED_REF_H,
                               GP_PADDING_STAGED_REF_W);
        h = (int)sh->d[GP_PAD_H], w = (int)sh->d[GP_PAD_W];
    }
    const int row = w * 4, plane = h * w * 4;
    const char *sname = have_sector ? "cache.l1.sector_bytes" : "cache.l1.line_bytes (sector none)";
    if (row >= sector)
        return gp_rule_set(out, "padding", "planes_per_block", 0, "sectors",
                           "%dx%d %s row %d B >= %s %.0f: the flat kernel's gathers read whole sectors -> 0 "
                           "(flat)",
                           h, w, sh ? "plane" : "reference", row, sname, sector);
    if (!f.dram_gbs.have || !f.dram_latency.have || !f.clock_mhz.have)
        return gp_rule_set(out, "padding", "planes_per_block", 0, "little",
                           "row %d B < %s %.0f, but the dram/clock facts are none: P unsized -> 0 (flat)", row, sname,
                           sector);
    const double per_cu =
        gp_rule_bytes_in_flight_per_cu(f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v, (long long)f.cus.v);
    long long lds = f.cu.lds_per_block < GP_PADDING_STAGED_LDS ? f.cu.lds_per_block : GP_PADDING_STAGED_LDS;
    const long long fit = lds / plane;
    const double want = per_cu / plane;
    long long P = gp_rule_ceil_pow2((long long)(want > GP_PADDING_MAX_PLANES ? GP_PADDING_MAX_PLANES : want + 0.999999));
    P = gp_rule_clamp(P, 4, GP_PADDING_MAX_PLANES);
    if (P > fit)
        P = fit >= 4 ? gp_rule_floor_pow2(fit) : 0;
    return gp_rule_set(out, "padding", "planes_per_block", P, "little",
                       "row %d B < %s %.0f; dram %.0f GB/s x %.0f cyc @%.0f MHz / %.0f CUs = %.1f KiB/CU / %d B "
                       "(%dx%d plane) = %.1f -> %lld (lds %lld B: <= %lld); bigger planes flat",
                       row, have_sector ? "sector" : "line", sector, f.dram_gbs.v, f.dram_latency.v, f.clock_mhz.v,
                       f.cus.v, per_cu / 1024.0, plane, h, w, want, P, lds, fit);
}

/* The share of sh's outputs that load an input value (NULL or no plane: the
 * headline's 49 / 169).  Only those outputs put a load in flight, so a shape
 * padded by little (28 x 28 by 1: 0.87) needs about a third of the headline's
 * items for the same bytes in flight. */
static double inside_share(const gp_shape *sh)
{
    if (!sh || sh->d[GP_PAD_H] < 1 || sh->d[GP_PAD_W] < 1)
        return HEADLINE_INSIDE;
    const double h = (double)sh->d[GP_PAD_H], w = (double)sh->d[GP_PAD_W];
    const double oh = h + (double)(sh->d[GP_PAD_TOP] + sh->d[GP_PAD_BOTTOM]);
    const double ow = w + (double)(sh->d[GP_PAD_LEFT] + sh->d[GP_PAD_RIGHT]);
    return oh > 0 && ow > 0 ? h * w / (oh * ow) : HEADLINE_INSIDE;
}

gp_status gp_padding_rule(const gp_rule_in *in, gp_table *out)
{
    const gp_rule_stream s = {"padding",
                              RULE,
                              "items_per_thread",
                              PADDING_REGS,
                              4.0 * inside_share(in->shape),
                              GP_PADDING_MAX_ITEMS,
                              GP_PADDING_MAX_BLOCK,
                              PADDING_ITEMS_STANDIN,
                              GP_PADDING_MIN_ITEMS};
    GP_TRY(gp_rule_streaming(in->facts, &s, out));
    return planes_rule(in->facts, in->shape, out);
}
