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

/* A guard on a fake clock: polls of the latest reading answer capped
 * `polls` times and then not; batch k answers batch_capped[k] (0 past the
 * script); sleeps add up in `slept`. */
typedef struct {
    int polls;
    const int *batch_capped;
    int nb, batch;
    double t, slept;
} fake_guard;

static double fg_now(void *c) { return ((fake_guard *)c)->t += 1.0; }
static int fg_capped(void *c, double t0, double t1)
{
    fake_guard *f = c;
    if (t0 == t1)
        return f->polls-- > 0;
    return f->batch < f->nb ? f->batch_capped[f->batch++] : 0;
}
static void fg_sleep(void *c, double s) { ((fake_guard *)c)->slept += s; }

static gp_harness_guard guard_of(fake_guard *f, double wait_s)
{
    gp_harness_guard g = {fg_now, fg_capped, fg_sleep, f, wait_s, 0, 0, 0, 0};
    return g;
}

GP_TEST(harness_guard_takes_a_capped_batch_again)
{
    double seq[] = {2.0};
    script s = {seq, 1, 0, 0, 0, -1};
    const int capped[] = {1, 0};
    fake_guard f = {0, capped, 2, 0, 0, 0};
    gp_harness_guard g = guard_of(&f, 1.0);
    double ms, spread;
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &s, &g, &ms, &spread).code == GP_OK);
    GP_CHECK(g.dropped == 1 && g.batches == 1 && g.kept_capped == 0);
    GP_CHECK(f.batch == 2 && ms == 2.0);
    /* Two batches ran: each a warm-up and at least three launches. */
    GP_CHECK(s.calls >= 8);
    return 0;
}

GP_TEST(harness_guard_keeps_a_batch_every_retry_found_capped)
{
    double seq[] = {3.0};
    script s = {seq, 1, 0, 0, 0, -1};
    const int capped[] = {1, 1, 1, 1};
    fake_guard f = {0, capped, 4, 0, 0, 0};
    gp_harness_guard g = guard_of(&f, 1.0);
    double ms, spread;
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &s, &g, &ms, &spread).code == GP_OK);
    GP_CHECK(g.dropped == GP_HARNESS_GUARD_RETRIES && g.kept_capped == 1 && g.batches == 1);
    GP_CHECK(f.batch == GP_HARNESS_GUARD_RETRIES + 1);
    return 0;
}

GP_TEST(harness_guard_waits_out_a_cap_within_its_wait)
{
    double seq[] = {1.0};
    script s = {seq, 1, 0, 0, 0, -1};
    fake_guard f = {3, NULL, 0, 0, 0, 0};
    gp_harness_guard g = guard_of(&f, 1.0);
    double ms, spread;
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &s, &g, &ms, &spread).code == GP_OK);
    GP_CHECK(f.slept > 2.9 * GP_HARNESS_GUARD_POLL_S && f.slept < 3.1 * GP_HARNESS_GUARD_POLL_S);
    GP_CHECK(g.dropped == 0 && g.batches == 1);

    /* Its wait spent: no more waiting, and a capped batch is kept at once. */
    const int capped[] = {1, 0};
    fake_guard h = {100, capped, 2, 0, 0, 0};
    gp_harness_guard k = guard_of(&h, 2 * GP_HARNESS_GUARD_POLL_S);
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &s, &k, &ms, &spread).code == GP_OK);
    GP_CHECK(h.slept < 2.1 * GP_HARNESS_GUARD_POLL_S && k.wait_left_s <= 0);
    GP_CHECK(k.dropped == 0 && k.kept_capped == 1 && h.batch == 1);
    return 0;
}

GP_TEST(harness_guard_absent_is_the_plain_long_launch)
{
    double seq[] = {4.0};
    script s = {seq, 1, 0, 0, 0, -1};
    double ms, spread;
    GP_CHECK(gp_harness_long_launch_guarded(1, scripted, &s, NULL, &ms, &spread).code == GP_OK && ms == 4.0);
    /* A failing launch stops it, guarded or not. */
    script bad = {seq, 1, 0, 0, 0, 2};
    fake_guard f = {0, NULL, 0, 0, 0, 0};
    gp_harness_guard g = guard_of(&f, 1.0);
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &bad, &g, &ms, &spread).code == GP_ERR_RUNTIME);
    return 0;
}

/* A batch spread beyond the limit, which the readings so far call uncapped,
 * waits for its own and is taken again when they say capped; a steady one
 * is not waited on. */
GP_TEST(harness_guard_waits_for_the_readings_of_a_spread_batch)
{
    double seq[] = {1.0, 1.3, 0.8, 1.2, 0.9};
    script s = {seq, 5, 0, 0, 0, -1};
    const int capped[] = {0, 1, 0, 0};
    fake_guard f = {0, capped, 4, 0, 0, 0};
    gp_harness_guard g = guard_of(&f, 1.0);
    g.spread_limit = 0.05;
    double ms, spread;
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &s, &g, &ms, &spread).code == GP_OK);
    GP_CHECK(spread > 0.05 && g.dropped == 1 && g.batches == 1 && f.batch == 4);
    GP_CHECK(f.slept > 1.9 * GP_HARNESS_GUARD_SETTLE_S && f.slept < 2.1 * GP_HARNESS_GUARD_SETTLE_S);

    double steady[] = {2.0};
    script t = {steady, 1, 0, 0, 0, -1};
    fake_guard h = {0, capped, 1, 0, 0, 0};
    gp_harness_guard k = guard_of(&h, 1.0);
    k.spread_limit = 0.05;
    GP_CHECK(gp_harness_long_launch_guarded(0, scripted, &t, &k, &ms, &spread).code == GP_OK);
    GP_CHECK(h.slept == 0 && h.batch == 1 && k.dropped == 0);
    return 0;
}
