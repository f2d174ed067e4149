/* gp_spmv_rule: kernel.spmv block, unroll and scalar_max_row from the device
 * facts, for a shape.  The models, with the H200 figures they land on:
 * docs/kernels/spmv.md, "Rule".
 *
 * block ("retire"): one wave a SIMD, 4 x wave (128 threads on NVIDIA, 256
 * on AMD's wave64), in 64..512 (the kernels' launch bounds).  A block
 * retires only when its slowest row is done, and its slot stays taken until
 * then; the CU holds as many threads in small blocks as in large ones (an
 * H200: 16 blocks of 128 or 4 of 512, 2048 threads either way), so the
 * smallest block that still gives every SIMD a wave idles the least on
 * uneven rows.  H200 2026-11-28 (`gpuprobe tune spmv`, sweep medians): on
 * the 4096^2 Laplacian 0.208 ms at 128 against 0.221 at 512, on the
 * power-law matrix 0.400 against 0.429; uniform rows of 16 tie (0.483,
 * 0.485).  Then, against the shape's row count, halved (down to 64) while
 * the matrix's rows, at one thread a row (the fewest threads any plan runs:
 * ELL and scalar CSR), make fewer blocks than the device has CUs.  (A
 * smaller block also lowers long_min, the row length from which a row gets
 * a block of its own: the few rows a small matrix has are shared more
 * widely.)
 *
 * unroll ("little"): Little's law.  To stream at dram.bandwidth_gbs every CU
 * needs bandwidth x latency / CUs bytes in flight.  A lane's nonzeros come
 * down a chain of three dependent loads (the row pointers, then column and
 * value, then x at that column), and only the middle one moves the matrix's
 * 8 bytes a nonzero, so that load must carry three times the product: unroll
 * = 3 x need / (resident threads x 8 B), a power of two in 1..8, resident
 * threads from the occupancy model at the kernels' 32 registers.
 *
 * scalar_max_row ("l1"): one thread a row makes each load instruction of a
 * wave touch `wave` different rows; the lines it brings serve that row's
 * next nonzeros only if every resident thread's row (mean L nonzeros x 8 B)
 * stays in L1 meanwhile: L <= cache.l1.bytes / (8 x resident threads). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "rule.h"
#include "spmv.h"

#define RULE "gp_spmv_rule"
/* Registers a thread: the kernels' launch bounds (512 threads, four blocks a
 * SM on NVIDIA: spmv.hip GP_SPMV_LB) cap them at 32; ptxas sm_90 reports 32
 * for every instantiation.  Checked by tests/build/rule_regs.txt. */
/* Every CSR and ELL instantiation (lanes a row x unroll); launch bounds (512,
 * 4) cap them at 32 on NVIDIA.  AMD gets the block bound alone: 66 VGPRs on
 * gfx900 (8-nonzero batches spill below 64, spmv.hip). */
/* regs: SPMV_REGS gp_spmv_(csr|ell)_kernel */
#define SPMV_REGS GP_RULE_REGS(32, 66)
/* LDS a block: one float per wave for the long-row reduction (spmv.hip). */
#define SPMV_LDS (4 * (GP_SPMV_MAX_BLOCK / 32))
#define RULE_MAX_BLOCK GP_SPMV_MAX_BLOCK
/* SIMDs (warp schedulers) a CU has: four on every NVIDIA SM since Maxwell
 * and every AMD GCN/CDNA CU (RDNA's WGP mode pairs two CUs of 2 each). */
#define RULE_SIMDS 4
/* unroll when the DRAM facts are none: 4 nonzeros (32 bytes of matrix) a
 * lane, a whole 32-byte sector of values per lane-batch. */
#define UNROLL_STANDIN 4
/* The headline problem's rows: bench's 4096 x 4096 grid Laplacian. */
#define HEADLINE_ROWS (4096ll * 4096ll)

gp_status gp_spmv_rule(const gp_rule_in *in, gp_table *out)
{
    gp_rule_facts f;
    GP_TRY(gp_rule_read_facts(in->facts, RULE, &f));
    const gp_rule_cu cu = f.cu;
    /* The choice per matrix (format, lanes a row) stays the plan's, from
     * these and the row lengths; the shape sizes the block to its rows. */
    const long long rows =
        in->shape && in->shape->d[GP_SPMV_ROWS] > 0 ? in->shape->d[GP_SPMV_ROWS] : HEADLINE_ROWS;
    const long long cus = (long long)f.cus.v > 0 ? (long long)f.cus.v : 1;
    const long long least = gp_rule_clamp(RULE_SIMDS * cu.wave, 64, RULE_MAX_BLOCK);
    long long block = least;
    while (block > 64 && (rows + block - 1) / block < cus)
        block /= 2;
    char fill[160] = "";
    if (block != least)
        snprintf(fill, sizeof fill, "; %lld rows, a thread a row: halved while fewer blocks than %lld CUs%s -> %lld",
                 rows, cus, f.cus.have ? "" : " (none: 64)", block);
    GP_TRY(gp_rule_set(out, "spmv", "block", block, "retire",
                       "a block retires with its slowest row: the least of %d waves (one a SIMD) x wave %lld -> "
                       "%lld%s%s%s",
                       RULE_SIMDS, cu.wave, least, fill, cu.fallback[0] ? "; " : "", cu.fallback));

    long long occ = gp_rule_blocks_per_cu(&cu, block, SPMV_REGS, SPMV_LDS);
    long long resident = (occ < 1 ? 1 : occ) * block;
    char why[200];
    double loads = gp_rule_loads_in_flight(&f, resident, 8.0, why, sizeof why);
    if (loads > 0) {
        long long unroll =
            gp_rule_clamp(gp_rule_ceil_pow2((long long)ceil(3.0 * loads - 1e-9)), 1, GP_SPMV_MAX_UNROLL);
        GP_TRY(gp_rule_set(out, "spmv", "unroll", unroll, "little", "3 x (%s) = %.2f -> %lld", why, 3.0 * loads,
                           unroll));
    } else {
        GP_TRY(gp_rule_set(out, "spmv", "unroll", UNROLL_STANDIN, "little",
                           "%s: stand-in %d (a 32-byte sector of values a lane)", why, UNROLL_STANDIN));
    }

    double l1 = 0;
    int have_l1 = 0;
    GP_TRY(gp_rule_fact_or(in->facts, RULE, "cache.l1", "bytes", 0, &l1, &have_l1));
    if (!have_l1)
        return gp_rule_set(out, "spmv", "scalar_max_row", 0, "l1",
                           "cache.l1.bytes none: the scalar kernel's L1 reuse unknown -> 0 (vector always)");
    double lmax = l1 / (8.0 * (double)resident);
    long long smax = gp_rule_clamp((long long)floor(lmax), 0, 64);
    return gp_rule_set(out, "spmv", "scalar_max_row", smax, "l1",
                       "cache.l1.bytes %.0f / (8 B x %lld resident threads: %lld blocks of %lld at %d regs) = %.2f "
                       "-> %lld",
                       l1, resident, occ, block, SPMV_REGS, lmax, smax);
}
