/* Timing harness: warm up, then repeat a measurement until its spread is
 * small or a time budget is spent.  The clock is injected so the stopping
 * logic can be unit-tested with a fake clock. */
#ifndef GP_HARNESS_H
#define GP_HARNESS_H

#include <stddef.h>
#include "gp_status.h"
#include "stats.h"

/* One measurement: writes a sample (for example milliseconds) into *sample. */
typedef gp_status (*gp_measure_fn)(void *ctx, double *sample);
/* Seconds since an arbitrary origin. */
typedef double (*gp_clock_fn)(void *clock_ctx);

typedef struct gp_harness_cfg {
    int warmup;            /* measurements run and discarded first */
    int min_reps;          /* at least this many kept samples */
    int max_reps;          /* at most this many (and at most GP_HARNESS_MAX_SAMPLES) */
    double target_cv;      /* stop once the coefficient of variation is below */
    double budget_s;       /* stop once this much clock time is spent (after min_reps) */
    gp_clock_fn clock;     /* NULL: the host monotonic clock */
    void *clock_ctx;
} gp_harness_cfg;

#define GP_HARNESS_MAX_SAMPLES 256

typedef struct gp_harness_result {
    double samples[GP_HARNESS_MAX_SAMPLES];
    size_t n;
    gp_summary summary;
    int stable;            /* 1 when the target CV was reached */
    int stop_reason;       /* GP_STOP_* */
} gp_harness_result;

enum { GP_STOP_STABLE = 1, GP_STOP_MAX_REPS = 2, GP_STOP_BUDGET = 3 };

/* Defaults: 1 warm-up, 5..50 repeats, CV 2%, 2 s budget. */
gp_harness_cfg gp_harness_defaults(void);
double gp_harness_monotonic_s(void *unused);
gp_status gp_harness_run(const gp_harness_cfg *cfg, gp_measure_fn fn, void *ctx,
                         gp_harness_result *out);

/* The median and relative spread (gp_stats_rel_spread) of a kernel launch
 * calibrated to several milliseconds (fma_throughput, matrix_engine): 1
 * warm-up, 3 to 5 launches within 0.4 s; with `quick`, 3 within 0.1 s.
 * Launches that long settle their median in a few samples. */
gp_status gp_harness_long_launch(int quick, gp_measure_fn fn, void *ctx, double *median, double *spread);

/* A long launch's watch on power and thermal caps, so that a batch of
 * launches that ran under one is dropped and taken again once the cap has
 * lifted, as nvbench drops throttled samples.  capped(t0, t1) on now()'s
 * clock: 1 under a cap, 0 not, -1 unknown (taken as not); with t0 = t1 it
 * speaks for the latest reading.  Before a batch the guard waits while the
 * latest reading names a cap; a batch that ran under one is taken again,
 * at most GP_HARNESS_GUARD_RETRIES times, and then kept and counted.  The
 * readings come late (NVML refreshes about every 100 ms), so a batch whose
 * launches spread by more than spread_limit waits GP_HARNESS_GUARD_SETTLE_S
 * for the readings of its own span before it is judged.  Waiting stops for
 * good once wait_left_s is spent (a GPU that stays capped is measured
 * capped and said to be, not waited on). */
typedef struct gp_harness_guard {
    double (*now)(void *ctx);
    int (*capped)(void *ctx, double t0, double t1);
    void (*sleep)(void *ctx, double s); /* NULL: nanosleep */
    void *ctx;
    double wait_left_s; /* the waiting this guard may still do, seconds */
    double spread_limit; /* a batch spread beyond this waits for its readings (0: never) */
    int batches;        /* batches kept */
    int dropped;        /* batches dropped as capped and taken again */
    int kept_capped;    /* batches kept under a cap: every retry was capped, or no wait was left */
} gp_harness_guard;

#define GP_HARNESS_GUARD_RETRIES 2
#define GP_HARNESS_GUARD_POLL_S 0.025
#define GP_HARNESS_GUARD_SETTLE_S 0.15

/* gp_harness_long_launch under a guard (g NULL or without capped: none). */
gp_status gp_harness_long_launch_guarded(int quick, gp_measure_fn fn, void *ctx, gp_harness_guard *g,
                                         double *median, double *spread);

#endif
