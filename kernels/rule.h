/* Helpers for the kernel rules (gp_<k>_rule, see kernel.h "Rules"): checked
 * reads of the device facts, the occupancy and bytes-in-flight models the
 * rules share, and the setter that writes a value with its provenance.
 *
 * Every getter fails with GP_ERR_USAGE naming "[section] key" when the fact is
 * absent, `none`, not finite or not positive, so no rule divides by zero on a
 * bad table; the message says which rule needed it. */
#ifndef GP_RULE_H
#define GP_RULE_H

#include <stddef.h>

#include "gp_status.h"
#include "table.h"

/* A positive fact (integer or decimal key). */
gp_status gp_rule_fact(const gp_table *t, const char *rule, const char *section, const char *key, double *out);
/* A positive integer fact. */
gp_status gp_rule_fact_int(const gp_table *t, const char *rule, const char *section, const char *key,
                           long long *out);
/* A fact that may be `none` (not detected): *out = fallback then, *found = 0,
 * and the rule says in its provenance that it fell back.  Absent (the key is
 * not in the table at all) or not positive is still an error. */
gp_status gp_rule_fact_or(const gp_table *t, const char *rule, const char *section, const char *key,
                          double fallback, double *out, int *found);

/* Set kernel.<k>.<key> = v with provenance "rule gp_<k>_rule <model>: <why>"
 * (why printf-style; cut to the provenance length). */
gp_status gp_rule_set(gp_table *out, const char *k, const char *key, long long v, const char *model,
                      const char *why_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Resource use of the kernel instantiation a rule considers (kernel.h,
 * "Rules"): with use_device 1 and a compiled instantiation `fn`, the
 * runtime's function attributes (gp_func_attributes: registers per thread,
 * static LDS, max threads per block); otherwise, or where no GPU backend is
 * built, the build constants the rule passes (build_regs, checked against
 * ptxas by tests/build/check_gpu_build.sh).  dyn_lds: the dynamic LDS per block
 * the launch asks for, added to the static LDS.  src names the source, for
 * the provenance ("regs 128 (cudaFuncGetAttributes)"). */
typedef struct gp_rule_res {
    long long regs;         /* registers per thread */
    long long lds;          /* LDS per block: static + dyn_lds */
    long long max_threads;  /* threads per block the instantiation allows; 1024 from the build */
    char src[64];
} gp_rule_res;
gp_status gp_rule_resources(int use_device, const void *fn, long long build_regs, long long dyn_lds,
                            gp_rule_res *r);

/* Registers per thread a kernel compiles to, as a rule's build constant
 * that differs by vendor: `nv` where the facts being derived are an NVIDIA
 * target's (and for a table of no known vendor), `amd` where they are an
 * AMD target's: the device.arch of the facts the rule read last with
 * gp_rule_cu_facts (every rule reads them before it sizes anything).  Each
 * such constant is declared in its rule file as
 * and every build constant of registers (this or a plain number) is declared
 * in its rule file with a line
 *   / * regs: EXPR <kernel name regex> [targets=<target regex>] * /
 * that tests/build/check_gpu_build.sh evaluates (the C preprocessor, on the
 * rule file) and holds against what the compiler reports for every kernel
 * the regex matches: ptxas's registers on sm_*, `.vgpr_count` on gfx*.  An
 * AMD count is held to the waves a SIMD the value allows on gfx9 (a file of
 * 256 VGPRs a lane): on gfx90a/gfx94x, whose VGPRs and AGPRs share 512 a
 * lane, to twice the value; on RDNA (gfx10, gfx11: 1024 or more a lane in
 * wave32), to four times it. */
#define GP_RULE_REGS(nv, amd) gp_rule_build_regs((nv), (amd))
int gp_rule_build_regs(int nv, int amd);

/* What one CU grants: the facts the occupancy model needs. */
typedef struct gp_rule_cu {
    long long wave;            /* device.wave_size */
    long long regs_per_cu;     /* registers.per_cu (32-bit registers, all lanes) */
    long long reg_granule;     /* registers.alloc_granule (per thread) */
    long long lds_per_cu;      /* lds.bytes_per_cu */
    long long lds_per_block;   /* lds.bytes_per_block, else 48 KiB (what every target grants) */
    long long max_threads_cu;  /* threads resident per CU: 2048 for wave 32 targets, 2560 (40 waves) for wave 64 */
    long long lds_block_reserve; /* LDS the runtime keeps back from each resident block (gp_target_lds_block_reserve) */
    char fallback[160];        /* the facts that were none and what stood in for them, "" when none was */
} gp_rule_cu;

/* The CU facts; a fact that is none takes the conservative stand-in named in
 * cu->fallback (wave 64: a block of whole 64-lane waves is whole 32-lane warps
 * too; 64 Ki registers; granule 8; 48 KiB LDS). */
gp_status gp_rule_cu_facts(const gp_table *t, const char *rule, gp_rule_cu *cu);

/* Occupancy model: blocks of `block` threads using `regs` registers per
 * thread and `lds` bytes of LDS per block that one CU holds at once (the
 * least of the register, LDS and thread limits); 0 when one block does not
 * fit.  A block that uses LDS takes lds + cu->lds_block_reserve of the CU's
 * (without LDS the reserve binds no target: 228 blocks on an H200). */
long long gp_rule_blocks_per_cu(const gp_rule_cu *cu, long long block, long long regs, long long lds);

/* Little's law: bytes a device must keep in flight to sustain bandwidth_gbs
 * at a latency of latency_cycles at clock_mhz, per CU. */
double gp_rule_bytes_in_flight_per_cu(double bandwidth_gbs, double latency_cycles, double clock_mhz,
                                      long long cus);

/* A fact several rules read, and whether the table had it (have = 0: `none`,
 * v = the stand-in named below, and the rule says so in its provenance). */
typedef struct gp_rule_val {
    double v;
    int have;
} gp_rule_val;

/* The facts the rules share, each read with gp_rule_fact_or (stand-ins:
 * min_waves_for_peak 8, compute_units 64 (the fewest of the GPUs the tables
 * describe, MI25: a grid for a small GPU, not one CU), min_block_for_peak
 * 256, l1 line 128; the rest 0, and a rule that needs one checks `have`).
 * dram_latency is the larger of dram.latency_cycles and
 * dram.far_latency_cycles: the far partition's lines are outstanding longest. */
typedef struct gp_rule_facts {
    gp_rule_cu cu;  /* the occupancy facts (gp_rule_cu_facts) */
    gp_rule_val waves, cus, clock_mhz, fma, min_block, blocks_per_cycle, threads_per_cycle;
    gp_rule_val dram_gbs, dram_latency, l2_bytes, l1_line;
} gp_rule_facts;

gp_status gp_rule_read_facts(const gp_table *t, const char *rule, gp_rule_facts *f);

/* Little's law per thread, for the streaming kernels (padding, batchnorm):
 * the loads of load_bytes each of threads_per_cu resident threads must keep
 * outstanding so a CU holds its share of dram bandwidth x latency (clock,
 * compute units as read).  0 when dram.bandwidth_gbs, the DRAM latency or
 * device.clock_mhz is none: the caller says so and takes its stand-in.  `why`
 * gets the facts and the arithmetic for the provenance. */
double gp_rule_loads_in_flight(const gp_rule_facts *f, long long threads_per_cu, double load_bytes, char *why,
                               size_t n);

/* The rule of a streaming kernel (padding, batchnorm): block =
 * floor_pow2(launch.min_block_for_peak), 64..max_block; items_key = the
 * loads of load_bytes each resident thread (the occupancy at `regs`
 * registers) keeps in flight by Little's law, ceil_pow2, 1..max_items, or
 * `standin` (named) when the DRAM facts are none. */
typedef struct gp_rule_stream {
    const char *k, *rule, *items_key;
    long long regs;
    double load_bytes;
    long long max_items, max_block, standin;
    long long min_items; /* the least compiled (0: 1) */
} gp_rule_stream;
gp_status gp_rule_streaming(const gp_table *facts, const gp_rule_stream *s, gp_table *out);

long long gp_rule_floor_pow2(long long x);   /* largest power of 2 <= x (1 for x < 1) */
long long gp_rule_ceil_pow2(long long x);    /* smallest power of 2 >= x (1 for x < 1) */
long long gp_rule_clamp(long long x, long long lo, long long hi);

#endif
