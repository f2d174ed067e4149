/* timing_hold: the stream hold keeps the host out of a timed interval
 * (common/evtimer.h, gp_evtimer_hold; kernels/bench.c times every run so).
 *
 * 1. Work with a host pause inside: a 4 KiB device copy, the host sleeping
 *    300 us, a second copy.  Timed without a hold, the interval holds the
 *    pause (>= 300 us); behind a hold, the GPU meets both copies back to
 *    back and the interval is the copies' time alone (< 150 us, where a
 *    4 KiB copy takes a few).  Medians of 21 runs each.
 * 2. Work that waits on the host inside (a synchronize): the hold cannot be
 *    released before the work is queued, so it lets go by its timeout; the
 *    timer must say so (hold_timeouts 1), give a positive time, stop
 *    holding, and time the next runs without waiting again.
 * 3. bench's own timing (kernels/bench.c): gp_bench_time_cfg on the paused
 *    work must read the held time (< 150 us); and a pairing of the paused
 *    work against work that synchronizes inside must time both sides alike
 *    once the second's hold timed out: the first side then reads the pause
 *    too (>= 300 us), not a held time against an unheld one.
 * Exit 0 when all hold, 1 when not, 77 without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "evtimer.h"
#include "gpu_program.h"
#include "runtime.h"
#include "stats.h"

enum { RUNS = 21, BYTES = 4096 };
#define PAUSE_US 300.0
#define HELD_MAX_US 150.0

typedef struct work {
    void *a, *b;
    int sync_inside;
} work;

static void pause_us(double us)
{
    struct timespec t = {0, (long)(us * 1e3)};
    nanosleep(&t, NULL);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static gp_status run_work(const work *w)
{
    GP_TRY(gp_rt_copy_device_async(w->b, w->a, BYTES, NULL));
    if (w->sync_inside)
        GP_TRY(gp_rt_synchronize());
    else
        pause_us(PAUSE_US);
    return gp_rt_copy_device_async(w->a, w->b, BYTES, NULL);
}

static gp_status time_once(gp_evtimer *t, const work *w, double *us)
{
    double ms;
    GP_TRY(gp_evtimer_start(t));
    GP_TRY(run_work(w));
    GP_TRY(gp_evtimer_stop_ms(t, &ms));
    *us = ms * 1e3;
    return gp_ok();
}

static gp_status paused_run(void *ctx) { return run_work(ctx); }

static int fail(gp_status st, const char *what) { return gp_program_fail("timing_hold", st, what); }

/* Median interval of RUNS runs of w, with or without a hold. */
static int median_us(int held, const work *w, double *med)
{
    gp_evtimer t;
    double us[RUNS] = {0};
    *med = 0;
    if (fail(gp_evtimer_create(&t, 0), "timer"))
        return 1;
    int bad = held && fail(gp_evtimer_hold(&t), "hold");
    for (int i = 0; i < RUNS && !bad; i++)
        bad = fail(time_once(&t, w, &us[i]), held ? "held run" : "plain run");
    if (!bad && held && t.hold_timeouts) {
        fprintf(stderr, "timing_hold: a hold timed out on work that does not wait on the host\n");
        bad = 1;
    }
    gp_evtimer_destroy(&t);
    if (!bad)
        *med = gp_stats_median(us, RUNS);
    return bad;
}

int main(void)
{
    gp_device_info dev;
    const int opened = gp_program_device("timing_hold", &dev);
    if (opened)
        return opened;
    work w = {NULL, NULL, 0};
    if (fail(gp_rt_malloc(&w.a, BYTES), "malloc") || fail(gp_rt_malloc(&w.b, BYTES), "malloc"))
        return 1;
    printf("device: %s (%s)\n", dev.name, dev.arch);
    double plain = 0, held = 0;
    int bad = median_us(0, &w, &plain) || median_us(1, &w, &held);
    if (!bad) {
        printf("two 4 KiB copies with a %.0f us host pause between: %.1f us without a hold (want >= %.0f), "
               "%.1f us behind one (want < %.0f)\n", PAUSE_US, plain, PAUSE_US, held, HELD_MAX_US);
        bad = plain < PAUSE_US || held >= HELD_MAX_US;
    }

    /* Work that synchronizes inside: one timeout, then no more holds. */
    gp_evtimer t;
    w.sync_inside = 1;
    if (!bad && !fail(gp_evtimer_create(&t, 0), "timer")) {
        double us[3] = {0, 0, 0}, t0 = now_s(), first_s = 0;
        bad = fail(gp_evtimer_hold(&t), "hold");
        for (int i = 0; i < 3 && !bad; i++) {
            bad = fail(time_once(&t, &w, &us[i]), "run that synchronizes inside");
            if (i == 0)
                first_s = now_s() - t0;
        }
        double rest_s = now_s() - t0 - first_s;
        printf("work that synchronizes inside: %d hold(s) timed out, first run %.1f ms of wall time, the next two "
               "%.1f ms, intervals %.1f %.1f %.1f us, still holding: %s\n", t.hold_timeouts, first_s * 1e3,
               rest_s * 1e3, us[0], us[1], us[2], t.hold ? "yes" : "no");
        if (!bad && (t.hold_timeouts != 1 || t.hold || us[0] <= 0 || us[1] <= 0 || us[2] <= 0 || rest_s > 0.010)) {
            fprintf(stderr, "timing_hold: want exactly one timeout, the hold dropped, positive times and the next "
                            "runs without waiting (< 10 ms)\n");
            bad = 1;
        }
        gp_evtimer_destroy(&t);
    } else if (!bad) {
        bad = 1;
    }

    /* bench's timing: held, and a pair timed alike after one side's timeout. */
    work paused = {w.a, w.b, 0}, syncs = {w.a, w.b, 1};
    if (!bad) {
        gp_harness_cfg cfg = gp_bench_time_defaults(1);
        gp_harness_result r;
        bad = fail(gp_bench_time_cfg(paused_run, &paused, &cfg, &r), "bench timing");
        if (!bad) {
            printf("gp_bench_time_cfg of the paused work: %.1f us (want < %.0f)\n", r.summary.median * 1e3,
                   HELD_MAX_US);
            bad = !(r.summary.median * 1e3 < HELD_MAX_US);
        }
    }
    if (!bad) {
        gp_bench_pair_cfg cfg = gp_bench_pair_defaults(1);
        gp_bench_paired pp;
        bad = fail(gp_bench_pair_with(&cfg, paused_run, &paused, paused_run, &syncs, &pp), "bench pairing");
        if (!bad) {
            printf("paired: the paused work %.1f us against work that synchronizes inside %.1f us, %d rounds "
                   "(want the first >= %.0f: timed as the second once its hold timed out)\n",
                   pp.a_median_ms * 1e3, pp.b_median_ms * 1e3, pp.rounds, PAUSE_US);
            bad = !(pp.a_median_ms * 1e3 >= PAUSE_US);
        }
    }
    gp_rt_free(w.a);
    gp_rt_free(w.b);
    printf("timing_hold: %s\n", bad ? "FAILED" : "passed");
    return bad;
}
