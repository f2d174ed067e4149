#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <string.h>
#include <time.h>

gp_harness_cfg gp_harness_defaults(void)
{
    gp_harness_cfg c;
    memset(&c, 0, sizeof c);
    c.warmup = 1;
    c.min_reps = 5;
    c.max_reps = 50;
    c.target_cv = 0.02;
    c.budget_s = 2.0;
    return c;
}

double gp_harness_monotonic_s(void *unused)
{
    (void)unused;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

gp_status gp_harness_run(const gp_harness_cfg *cfg, gp_measure_fn fn, void *ctx,
                         gp_harness_result *out)
{
    memset(out, 0, sizeof *out);
    if (cfg->min_reps < 1 || cfg->max_reps < cfg->min_reps)
        return gp_fail(GP_ERR_USAGE, "harness: need 1 <= min_reps <= max_reps (got %d, %d)",
                       cfg->min_reps, cfg->max_reps);
    gp_clock_fn now = cfg->clock ? cfg->clock : gp_harness_monotonic_s;
    int max_reps = cfg->max_reps < GP_HARNESS_MAX_SAMPLES ? cfg->max_reps : GP_HARNESS_MAX_SAMPLES;
    double sample;
    for (int i = 0; i < cfg->warmup; i++)
        GP_TRY(fn(ctx, &sample));
    double t0 = now(cfg->clock_ctx);
    for (;;) {
        GP_TRY(fn(ctx, &sample));
        out->samples[out->n++] = sample;
        if ((int)out->n < cfg->min_reps)
            continue;
        double cv = gp_stats_cv(out->samples, out->n);
        if (cv <= cfg->target_cv) {
            out->stable = 1;
            out->stop_reason = GP_STOP_STABLE;
            break;
        }
        if ((int)out->n >= max_reps) {
            out->stop_reason = GP_STOP_MAX_REPS;
            break;
        }
        if (now(cfg->clock_ctx) - t0 >= cfg->budget_s) {
            out->stop_reason = GP_STOP_BUDGET;
            break;
        }
    }
    gp_stats_summarize(out->samples, out->n, &out->summary);
    return gp_ok();
}

gp_status gp_harness_long_launch(int quick, gp_measure_fn fn, void *ctx, double *median, double *spread)
{
    gp_harness_cfg cfg = gp_harness_defaults();
    cfg.warmup = 1;
    cfg.min_reps = 3;
    cfg.max_reps = quick ? 3 : 5;
    cfg.budget_s = quick ? 0.1 : 0.4;
    gp_harness_result res;
    GP_TRY(gp_harness_run(&cfg, fn, ctx, &res));
    *median = res.summary.median;
    *spread = gp_stats_rel_spread(&res.summary);
    return gp_ok();
}

static void nap(gp_harness_guard *g, double s)
{
    if (g->sleep) {
        g->sleep(g->ctx, s);
        return;
    }
    struct timespec t = {(time_t)s, (long)(1e9 * (s - (double)(time_t)s))};
    nanosleep(&t, NULL);
}

/* Wait while the latest reading names a cap, within the guard's wait. */
static void wait_uncapped(gp_harness_guard *g)
{
    while (g->wait_left_s > 0) {
        const double t = g->now(g->ctx);
        if (g->capped(g->ctx, t, t) != 1)
            return;
        nap(g, GP_HARNESS_GUARD_POLL_S);
        g->wait_left_s -= GP_HARNESS_GUARD_POLL_S;
    }
}

gp_status gp_harness_long_launch_guarded(int quick, gp_measure_fn fn, void *ctx, gp_harness_guard *g,
                                         double *median, double *spread)
{
    if (!g || !g->capped || !g->now)
        return gp_harness_long_launch(quick, fn, ctx, median, spread);
    for (int attempt = 0;; attempt++) {
        wait_uncapped(g);
        const double t0 = g->now(g->ctx);
        GP_TRY(gp_harness_long_launch(quick, fn, ctx, median, spread));
        const double t1 = g->now(g->ctx);
        int capped = g->capped(g->ctx, t0, t1);
        if (capped != 1 && g->spread_limit > 0 && *spread > g->spread_limit && g->wait_left_s > 0) {
            /* Launches at several clocks: the readings of the span may not have come yet. */
            nap(g, GP_HARNESS_GUARD_SETTLE_S);
            g->wait_left_s -= GP_HARNESS_GUARD_SETTLE_S;
            capped = g->capped(g->ctx, t0, g->now(g->ctx));
        }
        if (capped != 1) {
            g->batches++;
            return gp_ok();
        }
        if (attempt == GP_HARNESS_GUARD_RETRIES || g->wait_left_s <= 0) {
            g->batches++, g->kept_capped++;
            return gp_ok();
        }
        g->dropped++;
    }
}
