/* The application-kernel interface: every kernel folder kernels/<k>/ defines
 * one `const gp_kernel gp_kernel_<k>` in <k>_bench.c.  The registry
 * (registry.c, generated list) is what `gpuprobe verify|bench` and the
 * `kernels`/`bench` CTest tests enumerate, like the probe registry.
 *
 * A kernel folder holds:
 *   <k>.h        public API: parameters, gp_<k>_params_from_table, the run call
 *   <k>.hip      GPU code and extern "C" launchers
 *   <k>.c        host API: parameters from the tuning table, argument checks
 *   <k>_ref.c    CPU reference (double accumulation)
 *   <k>_bench.c  verify (against the reference) and bench (against the floor
 *                and the vendor baseline), and the gp_kernel_<k> entry
 *   none.c       launcher stubs for the CPU-only build */
#ifndef GP_KERNEL_H
#define GP_KERNEL_H

#include <stdio.h>

#include "gp_status.h"
#include "kbench.h"
#include "runtime.h"
#include "table.h"

typedef struct gp_kernel_opts {
    gp_device_info dev;   /* the open device */
    int quick;            /* fewer shapes and repeats (smoke runs) */
    unsigned long long seed;  /* random data; a fresh seed per run unless fixed */
    FILE *log;            /* progress and per-case lines (stderr) */
} gp_kernel_opts;

typedef struct gp_kernel {
    const char *name;
    const char *summary;
    /* Print the launch parameters this table gives on this device. */
    gp_status (*print_params)(const gp_table *t, const gp_device_info *dev, FILE *out);
    /* Correctness: every case on fresh random data against the CPU reference
     * with the parameters from t; outputs poisoned (NaN) before each run.
     * GP_ERR_CHECK naming the case, index and error on a mismatch. */
    gp_status (*verify)(const gp_table *t, const gp_kernel_opts *o);
    /* Speed: time the kernel with parameters from t on its benchmark
     * problems, one row per problem labelled `table_label`; when
     * with_baselines, also the vendor/copy baseline rows.  The result of the
     * timed run is checked too (a fast wrong answer is not a result). */
    gp_status (*bench)(const gp_table *t, const char *table_label, int with_baselines,
                       const gp_kernel_opts *o, gp_bench *b);
    /* Optional (NULL: not tunable).  The candidate parameter sets a timed
     * sweep tries (`gpuprobe tune`): up to `max` copies of `base`, each with
     * other kernel.<name> values (set with gp_table_set, any provenance), the
     * first being base's own values.  The sweep times each with `bench`
     * (with_baselines 0) and keeps the fastest, recorded as `swept <name>`. */
    gp_status (*candidates)(const gp_table *base, const gp_device_info *dev, gp_table *out, int max,
                            int *n);
} gp_kernel;

size_t gp_kernel_count(void);
const gp_kernel *gp_kernel_at(size_t i);   /* NULL past the end */
const gp_kernel *gp_kernel_find(const char *name);

#endif
