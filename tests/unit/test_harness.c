#include <string.h>

#include "gp_test.h"
#include "harness.h"

/* A scripted measurement and a fake clock that advances per call. */
typedef struct {
    const double *seq;
    int n, calls;
    double now, step;
    int fail_at;
} script;

static gp_status scripted(void *ctx, double *sample)
{
    script *s = ctx;
    if (s->fail_at >= 0 && s->calls == s->fail_at)
        return gp_fail(GP_ERR_RUNTIME, "scripted failure at call %d", s->calls);
    *sample = s->seq[s->calls % s->n];
    s->calls++;
    s->now += s->step;
    return gp_ok();
}

static double fake_clock(void *ctx) { return ((script *)ctx)->now; }

static gp_harness_cfg cfg_for(script *s)
{
    gp_harness_cfg c = gp_harness_defaults();
    c.clock = fake_clock;
    c.clock_ctx = s;
    return c;
}

GP_TEST(harness_stops_when_stable)
{
    double seq[] = {1.0, 1.001, 0.999, 1.0, 1.0005};
    script s = {seq, 5, 0, 0, 0.01, -1};
    gp_harness_cfg c = cfg_for(&s);
    gp_harness_result r;
    GP_CHECK(gp_harness_run(&c, scripted, &s, &r).code == GP_OK);
    GP_CHECK(r.stable && r.stop_reason == GP_STOP_STABLE);
    GP_CHECK((int)r.n == c.min_reps); /* stable as soon as allowed */
    GP_CHECK_NEAR(r.summary.median, 1.0, 1e-3);
    return 0;
}

GP_TEST(harness_stops_on_budget_with_fake_clock)
{
    double seq[] = {1, 3, 1, 3}; /* never stable */
    script s = {seq, 4, 0, 0, 0.5, -1};
    gp_harness_cfg c = cfg_for(&s);
    c.budget_s = 2.0;
    gp_harness_result r;
    GP_CHECK(gp_harness_run(&c, scripted, &s, &r).code == GP_OK);
    GP_CHECK(!r.stable && r.stop_reason == GP_STOP_BUDGET);
    /* Budget counts from after warm-up: 0.5 s per sample, at least min_reps. */
    GP_CHECK(r.n == 5);
    return 0;
}

GP_TEST(harness_stops_at_max_reps)
{
    double seq[] = {1, 3};
    script s = {seq, 2, 0, 0, 0.0, -1}; /* the clock never advances */
    gp_harness_cfg c = cfg_for(&s);
    c.max_reps = 12;
    gp_harness_result r;
    GP_CHECK(gp_harness_run(&c, scripted, &s, &r).code == GP_OK);
    GP_CHECK(r.stop_reason == GP_STOP_MAX_REPS && r.n == 12);
    return 0;
}

GP_TEST(harness_discards_warmup)
{
    /* The first (cold) sample is huge; it must not reach the summary. */
    double seq[] = {1000, 1, 1, 1, 1, 1, 1};
    script s = {seq, 7, 0, 0, 0.01, -1};
    gp_harness_cfg c = cfg_for(&s);
    c.warmup = 1;
    gp_harness_result r;
    GP_CHECK(gp_harness_run(&c, scripted, &s, &r).code == GP_OK);
    GP_CHECK_NEAR(r.summary.max, 1.0, 0);
    GP_CHECK(s.calls == (int)r.n + 1);
    return 0;
}

GP_TEST(harness_propagates_error)
{
    double seq[] = {1};
    script s = {seq, 1, 0, 0, 0.01, 3};
    gp_harness_cfg c = cfg_for(&s);
    gp_harness_result r;
    gp_status st = gp_harness_run(&c, scripted, &s, &r);
    GP_CHECK(st.code == GP_ERR_RUNTIME);
    GP_CHECK(strstr(st.msg, "call 3") != NULL);
    return 0;
}

GP_TEST(harness_rejects_bad_config)
{
    double seq[] = {1};
    script s = {seq, 1, 0, 0, 0.01, -1};
    gp_harness_cfg c = cfg_for(&s);
    c.min_reps = 10;
    c.max_reps = 5;
    gp_harness_result r;
    GP_CHECK(gp_harness_run(&c, scripted, &s, &r).code == GP_ERR_USAGE);
    GP_CHECK(s.calls == 0);
    return 0;
}
