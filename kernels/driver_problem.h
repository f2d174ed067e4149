/* One problem of a kernel, set up once and run many times: what verify,
 * bench and tune (driver.c, tune.c) share.  Every run that is checked is
 * poisoned first; every timing is checked once after it, outside the timed
 * loop. */
#ifndef GP_DRIVER_PROBLEM_H
#define GP_DRIVER_PROBLEM_H

#include "bench.h"
#include "harness.h"
#include "kernel.h"
#include "kmem.h"

typedef struct gp_problem {
    gp_kcase c;
    char label[GP_BENCH_TEXT];  /* the bench row's problem name */
    void *st;                   /* the kernel's state (gp_kernel.setup) */
} gp_problem;

/* The device operations of o (the GPU's when o->ops is NULL). */
const gp_driver_ops *gp_driver_ops_of(const gp_kernel_opts *o);

/* Set up case c (host data from rng, reference, device buffers); on an
 * error nothing stays allocated. */
gp_status gp_problem_setup(const gp_kernel *k, const gp_kcase *c, const gp_device_info *dev, uint64_t *rng,
                           gp_problem *pr);
void gp_problem_free(const gp_kernel *k, gp_problem *pr);

/* The declared outputs poisoned, then the kernel's own poison (if any). */
gp_status gp_problem_poison(const gp_kernel *k, gp_problem *pr);
/* The mirrored outputs copied back and their guards checked, then the
 * kernel's check. */
gp_status gp_problem_check(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *what);

/* One run, checked: ours with p (impl -1) or impls[impl] (given p, which
 * may be NULL for an impl); `who` names it in a failure ("tile=64 ...",
 * "CUB"). */
gp_status gp_problem_run_checked(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *who,
                                 const gp_driver_ops *ops);

/* Time ours with p (impl -1) or impls[impl]: poisoned, event-timed
 * repeats (cfg, or the bench defaults for quick when cfg is NULL), then the
 * output checked.  GP_ERR_UNSUPPORTED (an impl absent here) before any
 * timing. */
gp_status gp_problem_time(const gp_kernel *k, gp_problem *pr, const void *p, int impl, int quick,
                          const gp_harness_cfg *cfg, const gp_driver_ops *ops, gp_harness_result *r);

/* Ours with p (A) against impls[impl] (B), paired ABBA (bench.h); ours ran
 * last, so its output is checked after the loop. */
gp_status gp_problem_pair(const gp_kernel *k, gp_problem *pr, const void *p, int impl, int quick, const char *who,
                          const gp_driver_ops *ops, gp_bench_paired *out);

/* Ours with parameters a against ours with b, paired ABBA under cfg; a's
 * output is checked after the loop. */
gp_status gp_problem_pair_params(const gp_kernel *k, gp_problem *pr, const void *a, const void *b,
                                 const gp_bench_pair_cfg *cfg, const char *who, const gp_driver_ops *ops,
                                 gp_bench_paired *out);

/* What a check beyond the cases does with a problem after its checked runs. */
typedef gp_status (*gp_problem_more_fn)(const gp_kernel *k, gp_problem *pr, const void *p, const gp_kernel_opts *o);

/* Case c set up, run `runs` times in a row, each checked (ours with p, or
 * impls[impl]), then `more` (NULL: nothing) on it, and freed: the checks a
 * kernel makes beyond its cases (verify_extra). */
gp_status gp_problem_check_case(const gp_kernel *k, const gp_kcase *c, const void *p, int impl, int runs,
                                const gp_kernel_opts *o, uint64_t *rng, gp_problem_more_fn more);

/* A check beyond the cases on one problem set up (verify_extra's table t
 * and parameters p). */
typedef gp_status (*gp_problem_case_fn)(const gp_kernel *k, gp_problem *pr, const gp_table *t, const void *p,
                                        const gp_kernel_opts *o);

/* Every case of `set` for p, set up in turn (data from rng), fn on it, and
 * freed: verify_extra's loop over its cases.  fn's GP_ERR_UNSUPPORTED says
 * there was nothing to check on that case; any other error stops the loop.
 * *checked (may be NULL): the cases fn checked. */
gp_status gp_problem_each_case(const gp_kernel *k, int set, const gp_table *t, const void *p,
                               const gp_kernel_opts *o, uint64_t *rng, gp_problem_case_fn fn, int *checked);

/* One run of ours with p (impl -1) or impls[impl], poisoned first and
 * checked after, `what` naming it whole in a failed check. */
gp_status gp_problem_run_as(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *what,
                            const gp_driver_ops *ops);

/* One more run of ours with p gives every declared output bit for bit as
 * the run before it (a gp_problem_more_fn). */
gp_status gp_problem_repeatable(const gp_kernel *k, gp_problem *pr, const void *p, const gp_kernel_opts *o);

#endif
