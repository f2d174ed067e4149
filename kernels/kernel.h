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
 *   <k>_rule.c   gp_<k>_rule: every kernel.<k> parameter from the device
 *                facts (see "Rules" below; the models in docs/kernels/<k>.md)
 *   <k>_keys.inc the [kernel.<k>] rows of the tuning-table schema (see "Kernel
 *                keys" below)
 *   none.c       launcher stubs for the CPU-only build
 *
 * Kernel keys.  <k>_keys.inc holds one line per key of [kernel.<k>]:
 *
 *   GP_KERNEL_KEY(k, key, type, "unit", min, max, flags, "what it means")
 *
 * k and key are bare words (ssim, tile_x); type is GP_TV_INT or
 * GP_TV_DOUBLE; min..max the inclusive range any valid value lies in; flags
 * the GP_TK_* of table_keys.h (kernel keys carry GP_TK_NO_NONE: a kernel needs
 * a value).  No default and no provenance are written there: the value of
 * every key comes from the rule (its provenance names the model and the facts)
 * or from a sweep.  The top-level CMakeLists.txt includes every kernel
 * folder's file into the schema (common/table_keys.c), so a kernel folder
 * brings its keys with it and no shared list is edited.
 *
 * Rules.  gp_<k>_rule(in, out) reads the facts of in->facts ([device],
 * [launch], [compute], [registers], [cache.*], [dram], [lds], [channels]; any
 * kernel section there is ignored), the kernel's resource use (registers per
 * thread, LDS and max threads per block of the instantiation it considers:
 * with in->use_device 1, the runtime's function attributes of the function
 * address the kernel's .hip hands out (gp_rule_resources over
 * gp_func_attributes); with 0, or where that instantiation or a GPU is
 * missing, the constants in <k>_rule.c, which tests/build/check_gpu_build.sh
 * checks against ptxas's report for sm_80/sm_90; the provenance names the
 * source) and the problem shape (in->shape; NULL
 * means the kernel's headline bench problem), and sets every kernel.<k> key of
 * `out` with gp_rule_set (kernels/rule.h): provenance
 * "rule gp_<k>_rule <model>: <facts used> -> <value>".  It never reads or
 * writes another section of `out`.  A missing, `none`, zero or negative fact
 * it needs is GP_ERR_USAGE naming [section] key (exit 2), never a division by
 * zero; kernels/rule.h has the checked getters.
 *
 * At launch (bench, verify), a kernel whose values came from its own rule
 * runs the rule again for the problem it launches
 * (gp_kernel_params_for_shape, derive.h): a grid or strip that fills the GPU
 * for a 25 MPixel image need not for a 1 MPixel one.  Swept values stay (they
 * were swept for their problem class), and the bench row says which. */
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

/* The problem a rule sizes its launch for (the kernel's own dims meaning:
 * n x c x h x w images, or a flat count in w with n = c = h = 1). */
typedef struct gp_rule_shape {
    long long n, c, h, w;
} gp_rule_shape;

typedef struct gp_rule_in {
    const gp_table *facts;       /* device facts (kernel sections ignored) */
    const gp_rule_shape *shape;  /* NULL: the kernel's headline bench problem */
    int use_device;              /* 1: resource use from the open device (gp_func_attributes);
                                    0: the build constants (table derive, unit tests) */
} gp_rule_in;

typedef gp_status (*gp_kernel_rule_fn)(const gp_rule_in *in, gp_table *out);

/* The work one bench problem must do, by the kernel's floor model: the DRAM
 * bytes its floor counts and the floating-point operations it counts (0 for
 * a kernel that only moves data, or integer data).  The report's roofline
 * places each bench row at flops / time against bytes / flops. */
typedef struct gp_kernel_work {
    double bytes, flops;
    char method[160]; /* how they were counted: "2 m n k FLOP; A, B read and C written once" */
} gp_kernel_work;

typedef gp_status (*gp_kernel_work_fn)(const char *problem, gp_kernel_work *out);

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
     * first being base's own values (gp_kcand_make, kcandidates.h, makes
     * the list from the keys and one row of values per variant).  The sweep
     * times each with `bench` (with_baselines 0) and keeps the fastest,
     * recorded as `swept <name>`. */
    gp_status (*candidates)(const gp_table *base, const gp_device_info *dev, gp_table *out, int max,
                            int *n);
    /* Required: every kernel.<name> key from the facts (see "Rules" above).
     * characterize, `gpuprobe table derive` and tune's starting point call it. */
    gp_kernel_rule_fn rule;
    /* Required: the work of a bench problem from the label `bench` gives it
     * (gp_bench_row.problem), by the same model as the bench's floor.
     * GP_ERR_USAGE naming the label when it is not one of this kernel's. */
    gp_kernel_work_fn work;
} gp_kernel;

/* Run every kernel's rule on `facts` into `out` (a copy of facts with every
 * kernel section set); swept values are not kept here (see characterize). */
gp_status gp_kernel_rules_apply(const gp_table *facts, int use_device, gp_table *out);

size_t gp_kernel_count(void);
const gp_kernel *gp_kernel_at(size_t i);   /* NULL past the end */
const gp_kernel *gp_kernel_find(const char *name);

#endif
