/* One problem of a kernel, set up once and run many times (driver_problem.h). */
#include "driver_problem.h"

#include <stdlib.h>
#include <string.h>


static gp_status gpu_time(gp_bench_work_fn work, void *ctx, const gp_harness_cfg *cfg, gp_harness_result *out)
{
    return gp_bench_time_cfg(work, ctx, cfg, out);
}

static const gp_driver_ops gpu_ops = {gp_rt_synchronize, gpu_time, gp_bench_pair_with, gp_rt_mem_info};

const gp_driver_ops *gp_driver_ops_of(const gp_kernel_opts *o) { return o && o->ops ? o->ops : &gpu_ops; }

gp_status gp_problem_setup(const gp_kernel *k, const gp_kcase *c, const gp_device_info *dev, uint64_t *rng,
                           gp_problem *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->c = *c;
    gp_kernel_case_label(k, c, pr->label, sizeof pr->label);
    if (k->state_size < sizeof(gp_kmem) || !(pr->st = calloc(1, k->state_size)))
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory for a problem's state", k->name);
    ((gp_kmem *)pr->st)->kernel = k->name;
    gp_status st = k->setup(c, dev, rng, pr->st);
    if (st.code != GP_OK)
        gp_problem_free(k, pr);
    return st;
}

void gp_problem_free(const gp_kernel *k, gp_problem *pr)
{
    if (pr->st && k->teardown)
        k->teardown(pr->st);
    if (pr->st)
        gp_kmem_free(pr->st);
    free(pr->st);
    pr->st = NULL;
}

gp_status gp_problem_poison(const gp_kernel *k, gp_problem *pr)
{
    GP_TRY(gp_kmem_poison(pr->st));
    return k->poison ? k->poison(pr->st) : gp_ok();
}

gp_status gp_problem_check(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *what)
{
    GP_TRY(gp_kmem_fetch(pr->st, what));
    return k->check(pr->st, p, impl, what);
}

static void what_of(const gp_kernel *k, const gp_problem *pr, const char *who, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s (%s)", k->name, pr->label, who);
}

/* A failure of the run itself (a launch refused, a runtime error) names the
 * case too. */
static gp_status named(gp_status st, const char *what)
{
    if (st.code == GP_OK || st.code == GP_ERR_CHECK || st.code == GP_ERR_UNSUPPORTED)
        return st;
    gp_status s = st;
    snprintf(s.msg, sizeof s.msg, "%.120s: %.190s", what, st.msg);
    return s;
}

/* Ours with p, or impls[impl] (given p too: an impl may be ours with a
 * path forced). */
static gp_status run_once(const gp_kernel *k, gp_problem *pr, const void *p, int impl)
{
    return impl < 0 ? k->run(pr->st, p) : k->run_impl(pr->st, impl, p);
}

gp_status gp_problem_run_checked(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *who,
                                 const gp_driver_ops *ops)
{
    char what[2 * GP_BENCH_TEXT + 64];
    what_of(k, pr, who, what, sizeof what);
    if (k->prepare && p)
        GP_TRY(named(k->prepare(pr->st, p), what));
    GP_TRY(named(gp_problem_poison(k, pr), what));
    GP_TRY(named(run_once(k, pr, p, impl), what));
    GP_TRY(named(ops->sync(), what));
    return gp_problem_check(k, pr, p, impl, what);
}

typedef struct timed {
    const gp_kernel *k;
    gp_problem *pr;
    const void *p;
    int impl;
} timed;

static gp_status timed_run(void *ctx)
{
    timed *t = ctx;
    return run_once(t->k, t->pr, t->p, t->impl);
}

/* The name of what ran, for a failure after its timing. */
static void who_of(const gp_kernel *k, const void *p, int impl, char *buf, size_t n)
{
    if (impl < 0)
        gp_kernel_params_text(k, p, buf, n);
    else
        snprintf(buf, n, "%s", k->impls[impl].name);
}

gp_status gp_problem_time(const gp_kernel *k, gp_problem *pr, const void *p, int impl, int quick,
                          const gp_harness_cfg *cfg, const gp_driver_ops *ops, gp_harness_result *r)
{
    char who[GP_BENCH_TEXT], what[2 * GP_BENCH_TEXT + 64], w2[2 * GP_BENCH_TEXT + 96];
    who_of(k, p, impl, who, sizeof who);
    what_of(k, pr, who, what, sizeof what);
    if (k->prepare && p)
        GP_TRY(named(k->prepare(pr->st, p), what));
    GP_TRY(named(gp_problem_poison(k, pr), what));
    /* One untimed run first: an impl absent here says so before any timing,
     * and lazy set-up (a vendor handle, a module load) stays out of it. */
    GP_TRY(named(run_once(k, pr, p, impl), what));
    timed t = {k, pr, p, impl};
    gp_harness_cfg defaults = gp_bench_time_defaults(quick);
    GP_TRY(named(ops->time(timed_run, &t, cfg ? cfg : &defaults, r), what));
    GP_TRY(named(ops->sync(), what));
    snprintf(w2, sizeof w2, "timed %s", what);
    return gp_problem_check(k, pr, p, impl, w2);
}

gp_status gp_problem_pair(const gp_kernel *k, gp_problem *pr, const void *p, int impl, int quick, const char *who,
                          const gp_driver_ops *ops, gp_bench_paired *out)
{
    char what[2 * GP_BENCH_TEXT + 96];
    snprintf(what, sizeof what, "%s %s (%s, after its paired loop with %s)", k->name, pr->label, who,
             k->impls[impl].name);
    if (k->prepare)
        GP_TRY(named(k->prepare(pr->st, p), what));
    GP_TRY(named(gp_problem_poison(k, pr), what));
    timed a = {k, pr, p, -1}, b = {k, pr, p, impl};
    gp_bench_pair_cfg cfg = gp_bench_pair_defaults(quick);
    GP_TRY(named(ops->pair(&cfg, timed_run, &a, timed_run, &b, out), what));
    GP_TRY(named(ops->sync(), what));
    return gp_problem_check(k, pr, p, -1, what);
}

gp_status gp_problem_pair_params(const gp_kernel *k, gp_problem *pr, const void *a, const void *b,
                                 const gp_bench_pair_cfg *cfg, const char *who, const gp_driver_ops *ops,
                                 gp_bench_paired *out)
{
    char what[2 * GP_BENCH_TEXT + 96];
    snprintf(what, sizeof what, "%s %s (%s, after its paired loop)", k->name, pr->label, who);
    if (k->prepare) {
        GP_TRY(named(k->prepare(pr->st, b), what));
        GP_TRY(named(k->prepare(pr->st, a), what));
    }
    GP_TRY(named(gp_problem_poison(k, pr), what));
    timed ta = {k, pr, a, -1}, tb = {k, pr, b, -1};
    GP_TRY(named(ops->pair(cfg, timed_run, &ta, timed_run, &tb, out), what));
    GP_TRY(named(ops->sync(), what));
    return gp_problem_check(k, pr, a, -1, what);
}

gp_status gp_problem_check_case(const gp_kernel *k, const gp_kcase *c, const void *p, int impl, int runs,
                                const gp_kernel_opts *o, uint64_t *rng, gp_problem_more_fn more)
{
    gp_problem pr;
    char who[GP_BENCH_TEXT];
    GP_TRY(gp_problem_setup(k, c, &o->dev, rng, &pr));
    who_of(k, p, impl, who, sizeof who);
    gp_status st = gp_ok();
    for (int i = 0; i < runs && st.code == GP_OK; i++)
        st = gp_problem_run_checked(k, &pr, p, impl, who, gp_driver_ops_of(o));
    if (st.code == GP_OK && more)
        st = more(k, &pr, p, o);
    gp_problem_free(k, &pr);
    return st;
}

gp_status gp_problem_each_case(const gp_kernel *k, int set, const gp_table *t, const void *p,
                               const gp_kernel_opts *o, uint64_t *rng, gp_problem_case_fn fn, int *checked)
{
    gp_kcase *c = calloc(GP_KCASE_MAX, sizeof *c);
    gp_status st = c ? gp_ok() : gp_fail(GP_ERR_NOMEM, "%s: out of host memory for its cases", k->name);
    const int n = c ? k->cases(set, p, &o->dev, o->quick, c, GP_KCASE_MAX) : 0;
    int done = 0;
    for (int i = 0; i < n && st.code == GP_OK; i++) {
        gp_problem pr;
        st = gp_problem_setup(k, &c[i], &o->dev, rng, &pr);
        if (st.code != GP_OK)
            break;
        st = fn(k, &pr, t, p, o);
        done += st.code == GP_OK;
        st = st.code == GP_ERR_UNSUPPORTED ? gp_ok() : st;
        gp_problem_free(k, &pr);
    }
    free(c);
    if (checked)
        *checked = done;
    return st;
}

gp_status gp_problem_run_as(const gp_kernel *k, gp_problem *pr, const void *p, int impl, const char *what,
                            const gp_driver_ops *ops)
{
    GP_TRY(gp_problem_poison(k, pr));
    GP_TRY(run_once(k, pr, p, impl));
    GP_TRY(ops->sync());
    return gp_problem_check(k, pr, p, impl, what);
}

gp_status gp_problem_repeatable(const gp_kernel *k, gp_problem *pr, const void *p, const gp_kernel_opts *o)
{
    uint64_t h1, h2;
    GP_TRY(gp_kmem_digest(pr->st, &h1));
    GP_TRY(gp_problem_poison(k, pr));
    GP_TRY(k->run(pr->st, p));
    GP_TRY(gp_driver_ops_of(o)->sync());
    GP_TRY(gp_kmem_digest(pr->st, &h2));
    if (h1 != h2)
        return gp_fail(GP_ERR_CHECK, "%s %s: two runs on the same input differ", k->name, pr->label);
    if (o->log)
        fprintf(o->log, "  ok  two runs bitwise identical\n");
    return gp_ok();
}
