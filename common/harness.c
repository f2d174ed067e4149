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
