/* The application-kernel interface.
 *
 * Every kernel folder kernels/<k>/ defines one `const gp_kernel gp_kernel_<k>`
 * (in <k>_bench.c).  The registry (registry.c, a list generated from the
 * folders) is what `gpuprobe verify|bench|tune`, the library and the CTest
 * tests enumerate.  A kernel folder holds (copy kernels/_template to start):
 *
 *   <k>.h           public API: the parameter struct, the launch call, the shape
 *   <k>_params.inc  the [kernel.<k>] parameters, declared once (params.h)
 *   <k>.hip         GPU code and its extern "C" launchers
 *   <k>.c           host side of the launch: fit to the device, argument checks
 *   <k>_rule.c      gp_<k>_rule: every parameter from the device facts for a
 *                   shape (see "Rules"), and the register constants its
 *                   occupancy model assumes, each declared on a "regs:"
 *                   comment line that the build tests
 *                   (tests/build/check_gpu_build.sh) hold against the
 *                   compilers' register counts
 *   <k>_ref.c       CPU reference (double accumulation)
 *   <k>_bench.c     what verify, bench and tune need of it: its problems, how
 *                   to set one up, run it and check it, its baselines, and
 *                   the gp_kernel_<k> entry (the driver, driver.h, does the
 *                   timing, pairing, verdicts and rows)
 *   <k>_vendor.h    where the kernel has a vendor baseline (CUB, cuDNN,
 *   <k>_vendor.cu   cuBLAS, cuSPARSE): its calls, the only kernel files
 *                   that name a vendor API, built when configure found the
 *                   library (kernels/baselines.cmake); without it the
 *                   header's stubs say so (baseline.h)
 *   none.c          launcher stubs for the CPU-only build
 *
 * Shapes.  A problem's shape is the kernel's own dims and options in a
 * gp_shape (its <k>.h says which is which: n c h w for an image, m n k for a
 * product, a count and a type for a scan).  The same struct is what a user
 * names with `--shape SPEC` (the kernel's shape_parse reads its own syntax),
 * what a bench row's problem label spells (shape_label), and what a rule
 * sizes a launch for.
 *
 * Rules.  gp_<k>_rule(in, out) reads the facts of in->facts ([device],
 * [launch], [compute], [registers], [cache.*], [dram], [lds], [channels];
 * any kernel section there is ignored), the kernel's resource use (with
 * in->use_device 1 the runtime's function attributes of the instantiation it
 * considers, else the build constants of <k>_rule.c) and the shape
 * (in->shape; NULL: the kernel's headline bench problem), and sets every
 * kernel.<k> key of `out` with gp_rule_set (rule.h): provenance "rule
 * gp_<k>_rule <model>: <facts used> -> <value>".  It never reads or writes
 * another section of `out`.  A missing, `none`, zero or negative fact it
 * needs is GP_ERR_USAGE naming [section] key (rule.h has checked getters).
 *
 * One path per launch.  gp_kernel_params turns (table, device, shape) into
 * the parameters of one launch: the table's entry for the shape's class
 * ([kernel.<k>@<class>], written by `gpuprobe tune --shape`) where it has
 * one; else a value the kernel's own rule put in the table is recomputed by
 * the rule for this shape (a grid that fills the GPU for a 25 MPixel image
 * need not for a 1 MPixel one); a swept value, or one the rule does not
 * reproduce on the table's facts (another device's table, on purpose), is
 * launched as it is; then the kernel's fit clamps the set to the device and
 * to what is compiled. */
#ifndef GP_KERNEL_H
#define GP_KERNEL_H

#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "gp_status.h"
#include "params.h"
#include "runtime.h"
#include "table.h"

#define GP_SHAPE_DIMS 8
#define GP_SHAPE_OPTS 4

/* A problem's shape in the kernel's own terms (its <k>.h names each slot). */
typedef struct gp_shape {
    long long d[GP_SHAPE_DIMS];
    int opt[GP_SHAPE_OPTS];
} gp_shape;

/* What the driver asks of the device beyond a kernel's own calls: wait for
 * it, and time work on it.  NULL in gp_kernel_opts: the GPU's (runtime
 * synchronize, event-timed repeats, paired ABBA rounds: bench.h); the unit
 * tests put a host model of a kernel behind it. */
typedef struct gp_driver_ops {
    gp_status (*sync)(void);
    gp_status (*time)(gp_bench_work_fn work, void *ctx, const gp_harness_cfg *cfg, gp_harness_result *out);
    gp_status (*pair)(const gp_bench_pair_cfg *cfg, gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b,
                      void *ctx_b, gp_bench_paired *out);
    /* Free and total device memory (tune keeps problems set up while a
     * quarter stays free); NULL: always room. */
    gp_status (*mem_info)(size_t *free_bytes, size_t *total_bytes);
} gp_driver_ops;

typedef struct gp_kernel_opts {
    gp_device_info dev;       /* the open device */
    int quick;                /* fewer cases and shorter timings (smoke runs) */
    unsigned long long seed;  /* random data; a fresh seed per run unless fixed */
    FILE *log;                /* progress and per-case lines (stderr) */
    double budget_s;          /* tune: seconds one kernel may take (0: the default) */
    const gp_driver_ops *ops; /* NULL: the GPU's */
} gp_kernel_opts;

typedef struct gp_rule_in {
    const gp_table *facts;  /* device facts (kernel sections ignored) */
    const gp_shape *shape;  /* NULL: the kernel's headline bench problem */
    int use_device;         /* 1: resource use from the open device (gp_func_attributes);
                               0: the build constants (table derive, unit tests) */
} gp_rule_in;

typedef gp_status (*gp_kernel_rule_fn)(const gp_rule_in *in, gp_table *out);

/* The work of one problem by the kernel's floor model: the DRAM bytes and
 * the floating-point operations it must do (0 for a kernel that only moves
 * data, or integer data), and how they were counted.  The floor of a bench
 * row is the larger of bytes at the measured DRAM bandwidth and flops at
 * the measured fp32 FMA rate; the report's roofline places each row at
 * flops / time against flops / bytes. */
typedef struct gp_kernel_work {
    double bytes, flops;
    char method[160];
} gp_kernel_work;

/* One problem a kernel runs: its shape, the data it is filled with and
 * where its buffers start. */
typedef struct gp_kcase {
    gp_shape shape;
    int data;        /* the kernel's data kind (0: its default, uniform random data) */
    int offset;      /* elements the buffers start past an aligned address (0: aligned) */
    unsigned flags;  /* GP_KCASE_* */
    double target;   /* bench: the paired verdict's bound against the first pairing
                        impl (0: that impl's own target) */
} gp_kcase;

#define GP_KCASE_PAIR 1u     /* bench: ours timed paired (ABBA) with every pairing impl, with a verdict */
#define GP_KCASE_REPORT 2u   /* bench: paired as above, reported without a verdict */
#define GP_KCASE_VARIANTS 4u /* bench: every variant timed on it as a context row, the fastest paired */
/* The check after a timing looks at a sample of the output: a bench problem
 * whose full check would cost more than the timings around it (tune checks
 * every candidate on every problem once; verify's cases never sample). */
#define GP_KCASE_SAMPLE 8u

/* The case lists a kernel gives (gp_kernel.cases). */
enum {
    GP_CASES_BENCH = 0,   /* the bench problems, headline first (quick: smaller ones) */
    GP_CASES_VERIFY = 1,  /* verify's cases for the parameters p */
    GP_CASES_VARIANT = 2  /* the short list every variant (and checked impl) is verified on, for p */
};
#define GP_KCASE_MAX 1024

/* Something else that runs a problem: a vendor library, the device copy of
 * the same bytes, a naive kernel, ours with a path forced.
 * gp_kernel.run_impl(state, i, p) runs impls[i] (p: our parameters for the
 * problem under the first table, for an impl that is ours with a twist);
 * GP_ERR_UNSUPPORTED from it means absent here (no cuDNN, no bulk copy
 * engine): the driver says so and goes on without it. */
typedef struct gp_kimpl {
    const char *name;   /* "CUB DeviceScan::InclusiveSum", "device copy (vendor, same bytes)" */
    int baseline;       /* 1: the first one present is the problem's baseline (speed-ups refer to it) */
    int pair;           /* 1: on GP_KCASE_PAIR / GP_KCASE_REPORT cases ours is timed paired with it */
    double target;      /* the verdict: paired (its time / ours) at least this (1: as fast) */
    int verify;         /* 1: verify checks it too, on the variant cases (a kernel of ours) */
    const char *params; /* its launch configuration for the bench row ("" when none) */
} gp_kimpl;

#define GP_KIMPL_MAX 8

typedef struct gp_kernel {
    const char *name;
    const char *summary;

    /* ---- parameters: the declaration (params.h) and what the kernel does with it */
    const gp_param *params;
    int nparams;
    size_t params_size;  /* sizeof the kernel's parameter struct */
    size_t note_offset;  /* offsetof its char note[] (what fit adjusted) */
    size_t note_size;
    /* Clamp p to the device (dev may be NULL: no device limits) and to what
     * is compiled; says what it changed in p's note. */
    void (*fit)(void *p, const gp_device_info *dev);
    gp_kernel_rule_fn rule;
    /* Cross-key legality of t's [kernel.<k>] (a launch must be legal on any
     * GPU); NULL: nothing beyond each key's range.  GP_ERR_USAGE naming
     * name and the keys. */
    gp_status (*check_table)(const gp_table *t, const char *name);
    /* The variants (tune's candidates after the rule's own, bench's context
     * rows): nvariants rows of nparams values in declaration order
     * (GP_PARAM_KEEP keeps the base value). */
    const int *variants;
    int nvariants;

    /* ---- shapes */
    const char *shape_syntax;  /* "NxCxHxW same|valid", for messages and --help */
    /* A user's --shape SPEC or a bench row's problem label into s; GP_ERR_USAGE
     * naming the syntax when it does not parse. */
    gp_status (*shape_parse)(const char *spec, gp_shape *s);
    /* The canonical spec of s (shape_parse reads it back). */
    void (*shape_label)(const gp_shape *s, char *buf, size_t n);
    /* The class of shapes s belongs to, that one set of tuned parameters
     * serves ([kernel.<k>@<class>] in a table; characters A-Za-z0-9._^+-);
     * NULL: each shape is its own class (its label, spelled so). */
    void (*shape_class)(const gp_shape *s, char *buf, size_t n);
    /* A shape for `verify --random-shapes`, drawn from rng across what the
     * kernel meets: small to large, odd and aligned, few and many channels,
     * every option; its buffers fit a few hundred MB.  NULL: none. */
    void (*shape_random)(uint64_t *rng, gp_shape *s);
    /* The work of s by the floor model; p (may be NULL: the model's least
     * work) the parameters, where the path they choose moves other bytes. */
    gp_status (*work)(const gp_shape *s, const void *p, gp_kernel_work *w);

    /* ---- problems: the case lists, and one case's life */
    /* The cases of `set` (GP_CASES_*) into out (room for max), for the
     * parameters p (NULL for GP_CASES_BENCH); returns the count. */
    int (*cases)(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max);
    /* The bench row's problem name of c: shape_label, plus the data kind
     * where it is not the default ("2^30 u8 skewed 90%"); NULL: shape_label. */
    void (*case_label)(const gp_kcase *c, char *buf, size_t n);
    /* The kernel's state for one case: state_size bytes, zeroed, that start
     * with a gp_kmem (kmem.h): what set-up allocates through it the driver
     * frees with the problem, and the outputs it declares there the driver
     * poisons before every checked run and copies back before check. */
    size_t state_size;
    /* Host data from rng, the reference (computed here, once), device
     * buffers into st. */
    gp_status (*setup)(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st);
    /* Workspace for parameters p (before any run of p; NULL: none needed). */
    gp_status (*prepare)(void *st, const void *p);
    /* After the declared outputs are poisoned: what else a run must start
     * from (an input written back in place; NULL: nothing). */
    gp_status (*poison)(void *st);
    /* Enqueue one run with parameters p (no synchronization). */
    gp_status (*run)(void *st, const void *p);
    /* After a synchronize: the outputs against the reference.  impl -1:
     * ours with parameters p; else what impls[impl] computes (p as for
     * run_impl). */
    gp_status (*check)(void *st, const void *p, int impl, const char *what);
    /* What st holds beyond its gp_kmem (vendor handles, workspaces; NULL: nothing). */
    void (*teardown)(void *st);
    const gp_kimpl *impls;
    int nimpls;
    gp_status (*run_impl)(void *st, int impl, const void *p);
    /* Checks that are not a case (bad arguments refused, two runs bitwise
     * equal, ...): NULL when none. */
    gp_status (*verify_extra)(const gp_table *t, const void *p, const gp_kernel_opts *o);
} gp_kernel;

/* ---- the one path from a table to a launch's parameters */

/* Parameters of kernel k for a launch of shape s (NULL: the table's values
 * as they are) on dev, from t, into p (k->params_size bytes): see "One path
 * per launch" above.  note (n bytes) says where they came from ("rule for
 * this shape: tile_y 128->32", "swept", "table values as they are"). */
gp_status gp_kernel_params(const gp_kernel *k, const gp_table *t, const gp_device_info *dev, const gp_shape *s,
                           int use_device, void *p, char *note, size_t n);

/* The note fit left in p. */
const char *gp_kernel_params_note(const gp_kernel *k, const void *p);

/* "tile=64 pad=1 ... [adjusted: ...]" for a log line. */
void gp_kernel_params_text(const gp_kernel *k, const void *p, char *buf, size_t n);

/* Variant v of k on the base parameters (GP_PARAM_KEEP keeps base's), fitted to dev. */
void gp_kernel_variant(const gp_kernel *k, int v, const void *base, const gp_device_info *dev, void *p);

/* The class of shape s (gp_kernel.shape_class, else its label spelled with
 * the class characters only). */
void gp_kernel_shape_class(const gp_kernel *k, const gp_shape *s, char *buf, size_t n);

/* The bench row label of a case. */
void gp_kernel_case_label(const gp_kernel *k, const gp_kcase *c, char *buf, size_t n);

/* The work of a bench row's problem label (the report's roofline reads
 * committed bench CSVs): shape_parse, then work with no parameters. */
gp_status gp_kernel_work_of_label(const gp_kernel *k, const char *label, gp_kernel_work *w);

/* Run every kernel's rule on `facts` into `out` (a copy of facts with every
 * kernel section set, for the headline problems). */
gp_status gp_kernel_rules_apply(const gp_table *facts, int use_device, gp_table *out);

/* Every kernel's check_table on t. */
gp_status gp_kernel_check_tables(const gp_table *t, const char *name);

size_t gp_kernel_count(void);
const gp_kernel *gp_kernel_at(size_t i); /* NULL past the end */
const gp_kernel *gp_kernel_find(const char *name);

#endif
