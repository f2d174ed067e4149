/* The one driver of every kernel: verify, bench and tune over the gp_kernel
 * interface (kernel.h).  A kernel says what its problems are, how to set one
 * up, run it and check it; the driver owns the loops, the timing, the paired
 * comparisons, the verdicts, the rows and the log.
 *
 * Every problem is set up once (host data, the CPU reference, device
 * buffers) and then serves every parameter set and implementation timed on
 * it; every timed output is checked once after its timing, outside the timed
 * loop; outputs are poisoned before every run that is checked. */
#ifndef GP_DRIVER_H
#define GP_DRIVER_H

#include <stdio.h>

#include "bench.h"
#include "kernel.h"

/* A table a bench times the kernel under, and its row label. */
typedef struct gp_driver_table {
    const gp_table *t;
    const char *label;  /* "measured sm_90", "generic", "mistuned gfx900" */
} gp_driver_table;

/* k against its CPU reference under t: every verify case (and each of the
 * user's shapes, on random data), with the parameters the one path gives
 * for the case's shape; every variant on the variant cases; the impls of
 * ours (gp_kimpl.verify) likewise; then k's own extra checks.  GP_ERR_CHECK
 * naming the case and the parameters at the first mismatch. */
gp_status gp_driver_verify(const gp_kernel *k, const gp_table *t, const gp_shape *shapes, int nshapes,
                           const gp_kernel_opts *o);

/* The variants one verify run of k has checked, by their parameters: a
 * variant is its declared parameters fitted to the device (fit reads
 * nothing else) run on the cases those parameters and the device choose,
 * so a later table whose variant has the same parameters would launch the
 * same kernels on the same cases; it is not checked again.  Zeroed before
 * the first table of a kernel; full: later variants are checked anyway. */
#define GP_VERIFY_SEEN_MAX 128
#define GP_VERIFY_SEEN_BYTES 512 /* a kernel's parameter struct at most (a larger one: never skipped) */
typedef struct gp_verify_seen {
    int n;
    _Alignas(8) unsigned char p[GP_VERIFY_SEEN_MAX][GP_VERIFY_SEEN_BYTES];
} gp_verify_seen;
/* gp_driver_verify, each variant skipped where `seen` holds its parameters
 * (and added once it passed); seen NULL: every variant, as gp_driver_verify. */
gp_status gp_driver_verify_seen(const gp_kernel *k, const gp_table *t, const gp_shape *shapes, int nshapes,
                                const gp_kernel_opts *o, gp_verify_seen *seen);

/* k timed on its bench problems, or on the user's shapes when nshapes > 0:
 * per problem, ours under every table (a row each, labelled), then, under
 * the first table, every impl (the baselines), the paired comparisons with
 * their verdicts (GP_KCASE_PAIR / GP_KCASE_REPORT) and the variants
 * (GP_KCASE_VARIANTS).  Floors from `facts` (this device's own facts or
 * none) and the device.  Rows into b. */
gp_status gp_driver_bench(const gp_kernel *k, const gp_table *facts, const gp_driver_table *tables, int ntables,
                          const gp_shape *shapes, int nshapes, const gp_kernel_opts *o, gp_bench *b);

/* The floor of a problem: the larger of the work's bytes at the DRAM
 * bandwidth and its flops at the fp32 FMA peak, both from facts (else what
 * the device reports; a rate neither has is left out); note names the bound
 * and the other time.  0 when neither rate is known. */
double gp_driver_floor_ms(const gp_kernel *k, const gp_table *facts, const gp_device_info *dev, const gp_shape *s,
                          const void *p, char *note, size_t n);

#endif
