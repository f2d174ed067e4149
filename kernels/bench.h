/* Timing and reporting of application kernels: event-timed repeats through
 * the harness, and a result table (one row per kernel x problem x
 * implementation x table) printed as Markdown with its floor and the
 * speed-up over the baseline of the same problem. */
#ifndef GP_BENCH_H
#define GP_BENCH_H

#include <stdio.h>

#include "gp_status.h"
#include "harness.h"
#include "runtime.h"
#include "stats.h"
#include "table.h"

#define GP_BENCH_MAX_ROWS 2048 /* every kernel in one bench run: 11 kernels x 4 tables with their variants */
#define GP_BENCH_TEXT 160

typedef struct gp_bench_row {
    char kernel[32];
    char problem[GP_BENCH_TEXT];   /* "1x3x2160x3840 same" */
    char impl[GP_BENCH_TEXT];      /* "gpuprobe", "cuDNN (best of Find)", "CUB DeviceReduce", "device copy" */
    char table[GP_BENCH_TEXT];     /* table label for gpuprobe rows, "" for baselines */
    char params[GP_BENCH_TEXT];    /* the launch parameters used, "" for baselines */
    int is_baseline;               /* the row others in the problem are compared with */
    gp_summary ms;                 /* milliseconds per run */
    int stable;
    double floor_ms;               /* time at the device's limit (0: not computed) */
    char floor_note[GP_BENCH_TEXT];/* what bounds it: "DRAM 299 MB at 4641 GB/s" */
    /* Optional paired comparison with the problem's baseline (gp_bench_pair,
     * gp_bench_set_pair): the summary of the per-round ratio baseline time /
     * this row's time (> 1: this row faster) and the ABBA rounds behind it. */
    int has_pair;
    gp_summary pair_ratio;
    int pair_rounds;
} gp_bench_row;

typedef struct gp_bench {
    gp_bench_row rows[GP_BENCH_MAX_ROWS];
    int nrows;
} gp_bench;

/* Enqueue one run of the work on the default stream (no synchronization). */
typedef gp_status (*gp_bench_work_fn)(void *ctx);

/* Time `work`: warm-up, then event-timed repeats until the spread is small
 * (CV 2%) or the budget is spent; quick shortens both. */
gp_status gp_bench_time(gp_bench_work_fn work, void *ctx, int quick, gp_harness_result *out);
/* The settings gp_bench_time uses: 3 warm-up runs, 20..200 repeats in 2 s
 * (quick: 5..20 in 0.5 s), CV 2 %. */
gp_harness_cfg gp_bench_time_defaults(int quick);
/* The same under the harness settings cfg (tune's shorter sweep). */
gp_status gp_bench_time_cfg(gp_bench_work_fn work, void *ctx, const gp_harness_cfg *cfg, gp_harness_result *out);

/* ------------------------------------------------------------------ paired
 * Two implementations A and B timed interleaved in one loop, so clock and
 * thermal drift hit both alike: warm-up of both, then rounds of four
 * event-timed runs in the order A B B A (each run its own start/stop event
 * pair).  A and B sit symmetrically about the round's middle, so any drift
 * linear in time scales both sums alike and cancels from the per-round ratio
 * r = (tB1 + tB2) / (tA1 + tA2): A's speed-up over B (> 1: A faster; with
 * equal bytes moved, also A's bandwidth as a fraction of B's). */
#define GP_BENCH_PAIR_MAX_ROUNDS 128

typedef struct gp_bench_paired {
    int rounds;                                 /* complete ABBA rounds (0: no result) */
    double ratio[GP_BENCH_PAIR_MAX_ROUNDS];     /* per round (tB1 + tB2) / (tA1 + tA2) */
    double a_ms[2 * GP_BENCH_PAIR_MAX_ROUNDS];  /* A1, A2 of round 0, then of round 1, ... */
    double b_ms[2 * GP_BENCH_PAIR_MAX_ROUNDS];  /* B1, B2 likewise */
    gp_summary ratio_s;                         /* median, p10, p90, ... of ratio[] */
    double a_median_ms, b_median_ms;            /* medians of all A and all B runs */
    int budget_hit;                             /* stopped by the time budget before `rounds` wanted */
} gp_bench_paired;

typedef struct gp_bench_pair_cfg {
    int warmup;         /* runs of each (A B A B ...), discarded */
    int rounds;         /* ABBA rounds wanted, 1..GP_BENCH_PAIR_MAX_ROUNDS */
    int min_rounds;     /* the budget stops no earlier than this */
    double budget_s;    /* stop after the round in which this much clock time was spent */
    gp_clock_fn clock;  /* NULL: the host monotonic clock */
    void *clock_ctx;
} gp_bench_pair_cfg;

/* 3 warm-up runs each, 60 rounds in 3 s (quick: 15 rounds in 0.75 s), at least 5 rounds. */
gp_bench_pair_cfg gp_bench_pair_defaults(int quick);

/* The pure part: per-round ratios and their summary from the run times of
 * `rounds` rounds (a_ms[2r], a_ms[2r+1] = A's two runs of round r; b_ms the
 * same for B).  GP_ERR_USAGE for rounds outside 1..GP_BENCH_PAIR_MAX_ROUNDS,
 * GP_ERR_CHECK for a time that is not finite and > 0 (a ratio of it means
 * nothing); on error out->rounds is 0, so the verdicts say undecided. */
gp_status gp_bench_pair_ratios(const double *a_ms, const double *b_ms, int rounds, gp_bench_paired *out);

/* The loop with injected measurements (tests use fake ones and a fake
 * clock): warm-up, ABBA rounds, then gp_bench_pair_ratios. */
gp_status gp_bench_pair_run(const gp_bench_pair_cfg *cfg, gp_measure_fn a, void *ctx_a, gp_measure_fn b,
                            void *ctx_b, gp_bench_paired *out);

/* On the GPU: each work function enqueues one run (no synchronization, as
 * for gp_bench_time) and each run is bracketed by its own event pair, queued
 * behind a stream hold (gp_evtimer_hold): the GPU's time, not the launch. */
gp_status gp_bench_pair(gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b, void *ctx_b, int quick,
                        gp_bench_paired *out);
/* The same under cfg (tune's budgeted pairing). */
gp_status gp_bench_pair_with(const gp_bench_pair_cfg *cfg, gp_bench_work_fn a, void *ctx_a, gp_bench_work_fn b,
                             void *ctx_b, gp_bench_paired *out);

/* Verdicts, one-sided: 1 yes, 0 no, -1 undecided (no rounds or a ratio that
 * is not finite).  at_least: median ratio >= target (target 1: "A at least as
 * fast as B"; 0.95: "A's bandwidth >= 95% of B's" for equal bytes).  faster:
 * p10 of the ratio > 1 (A faster in at least 90% of the rounds). */
int gp_bench_pair_at_least(const gp_bench_paired *p, double target);
int gp_bench_pair_faster(const gp_bench_paired *p);
/* "yes", "no", "undecided". */
const char *gp_bench_verdict_word(int verdict);

/* Attach a paired result to row i (its ratio: the problem's baseline over
 * this row). */
gp_status gp_bench_set_pair(gp_bench *b, int i, const gp_bench_paired *p);

/* Append a row; fields as in gp_bench_row (strings may be NULL = ""). */
gp_status gp_bench_add(gp_bench *b, const char *kernel, const char *problem, const char *impl,
                       const char *table, const char *params, int is_baseline,
                       const gp_harness_result *r, double floor_ms, const char *floor_note);

/* Speed-up of row i over its problem's baseline (baseline ms / row ms), or 0
 * when the problem has no baseline. */
double gp_bench_speedup(const gp_bench *b, int i);

/* DRAM bandwidth for a floor, GB/s: the table's measured triad
 * ([dram] bandwidth_gbs), else the peak from the device's bus width and
 * memory clock; `src` (size n) says which. */
double gp_bench_dram_gbs(const gp_table *t, const gp_device_info *dev, char *src, size_t n);

/* Markdown table: kernel, problem, implementation, table, median ms, spread,
 * floor ms, time/floor, speed-up over the baseline, parameters, and the
 * paired ratio vs the baseline (p10-p90) where a row has one. */
void gp_bench_print_markdown(const gp_bench *b, FILE *out);
/* CSV of the same (one row per line, header first); the paired columns
 * ratio_median, ratio_p10, ratio_p90, rounds come last, empty without a pair. */
gp_status gp_bench_write_csv(const gp_bench *b, const char *path);

#endif
