/* kbench on the CPU: the paired (ABBA) comparison from synthetic run times
 * (ratio, summary, drift cancellation, bad input), the verdicts, the ABBA
 * loop's order and budget with fake measurements and a fake clock, and the
 * paired column of the Markdown table and the CSV. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp_test.h"
#include "bench.h"

/* Run times of `rounds` ABBA rounds for true times a and b (ms); run k of the
 * sequence (A B B A per round) is scaled by (1 + mul * k) and has add * k
 * added: drift linear in the run index. */
static void abba_times(double a, double b, int rounds, double mul, double add, double *ta, double *tb)
{
    for (int r = 0; r < rounds; r++) {
        int k = 4 * r;
        ta[2 * r] = a * (1 + mul * k) + add * k;
        tb[2 * r] = b * (1 + mul * (k + 1)) + add * (k + 1);
        tb[2 * r + 1] = b * (1 + mul * (k + 2)) + add * (k + 2);
        ta[2 * r + 1] = a * (1 + mul * (k + 3)) + add * (k + 3);
    }
}

GP_TEST(kbench_pair_ratio_constant_times)
{
    double ta[20], tb[20];
    abba_times(0.2, 0.25, 10, 0, 0, ta, tb);
    gp_bench_paired p;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 10, &p).code == GP_OK);
    GP_CHECK(p.rounds == 10);
    GP_CHECK(p.ratio_s.n == 10);
    GP_CHECK_NEAR(p.ratio_s.median, 1.25, 1e-12); /* B 25% slower: A is 1.25x B's speed */
    GP_CHECK_NEAR(p.ratio_s.p10, 1.25, 1e-12);
    GP_CHECK_NEAR(p.ratio_s.p90, 1.25, 1e-12);
    GP_CHECK_NEAR(p.a_median_ms, 0.2, 1e-12);
    GP_CHECK_NEAR(p.b_median_ms, 0.25, 1e-12);
    GP_CHECK(p.budget_hit == 0);
    return 0;
}

/* Hand-computed rounds: the ratio is the sum of B's two runs over A's two,
 * not a ratio of medians or of single runs. */
GP_TEST(kbench_pair_ratio_hand_computed)
{
    const double ta[6] = {1.0, 3.0, 2.0, 2.0, 4.0, 1.0};
    const double tb[6] = {2.0, 2.0, 1.0, 1.0, 5.0, 5.0};
    gp_bench_paired p;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 3, &p).code == GP_OK);
    GP_CHECK_NEAR(p.ratio[0], 4.0 / 4.0, 1e-15);
    GP_CHECK_NEAR(p.ratio[1], 2.0 / 4.0, 1e-15);
    GP_CHECK_NEAR(p.ratio[2], 10.0 / 5.0, 1e-15);
    GP_CHECK_NEAR(p.ratio_s.median, 1.0, 1e-15);
    /* percentiles with linear interpolation over {0.5, 1, 2}: p10 = 0.6, p90 = 1.8 */
    GP_CHECK_NEAR(p.ratio_s.p10, 0.6, 1e-12);
    GP_CHECK_NEAR(p.ratio_s.p90, 1.8, 1e-12);
    GP_CHECK_NEAR(p.a_median_ms, 2.0, 1e-15); /* {1,1,2,2,3,4} */
    GP_CHECK_NEAR(p.b_median_ms, 2.0, 1e-15); /* {1,1,2,2,5,5} */
    return 0;
}

/* Times growing linearly over the rounds (clock or thermal drift): the ABBA
 * ratio stays at the true ratio, where timing A's runs first and B's after
 * (what separate gp_bench_time calls do) does not. */
GP_TEST(kbench_pair_ratio_cancels_linear_drift)
{
    enum { R = 60 };
    double ta[2 * R], tb[2 * R];
    gp_bench_paired p;
    const double a = 0.14, b = 0.1333; /* transpose vs copy: true ratio 0.952 */
    const double truth = b / a;

    /* Multiplicative drift (the clock slows): +30% over the 240 runs. Exact. */
    abba_times(a, b, R, 0.30 / (4 * R), 0, ta, tb);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, R, &p).code == GP_OK);
    for (int r = 0; r < R; r++)
        GP_CHECK_NEAR(p.ratio[r], truth, 1e-12);
    GP_CHECK_NEAR(p.ratio_s.median, truth, 1e-12);

    /* Additive drift: +5% of A's time over the run (a fixed cost growing). */
    abba_times(a, b, R, 0, 0.05 * a / (4 * R), ta, tb);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, R, &p).code == GP_OK);
    GP_CHECK(fabs(p.ratio_s.median / truth - 1) < 0.005);
    GP_CHECK(fabs(p.ratio_s.p10 / truth - 1) < 0.005);
    GP_CHECK(fabs(p.ratio_s.p90 / truth - 1) < 0.005);

    /* Both at once, and a verdict right at the target is still decided right:
     * true ratio 0.955 >= 0.95 under 30% drift. */
    abba_times(1.0, 0.955, R, 0.30 / (4 * R), 0.02 / (4 * R), ta, tb);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, R, &p).code == GP_OK);
    GP_CHECK(fabs(p.ratio_s.median / 0.955 - 1) < 0.005);
    GP_CHECK(gp_bench_pair_at_least(&p, 0.95) == 1);

    /* The unpaired estimate under the same multiplicative drift: all of A
     * timed (runs 0..2R-1), then all of B (runs 2R..4R-1): off by ~15%. */
    double sa[2 * R], sb[2 * R];
    const double g = 0.30 / (4 * R);
    for (int i = 0; i < 2 * R; i++) {
        sa[i] = a * (1 + g * i);
        sb[i] = b * (1 + g * (2 * R + i));
    }
    double naive = gp_stats_median(sb, 2 * R) / gp_stats_median(sa, 2 * R);
    GP_CHECK(fabs(naive / truth - 1) > 0.05);
    return 0;
}

/* Noisy runs (+-3%, deterministic): the median lands near the truth and the
 * p10-p90 band brackets it. */
GP_TEST(kbench_pair_ratio_noise)
{
    enum { R = 60 };
    double ta[2 * R], tb[2 * R];
    unsigned long long seed = 12345;
    for (int i = 0; i < 2 * R; i++) {
        ta[i] = 0.2467 * (1 + 0.06 * (gp_test_rand(&seed) - 0.5));
        tb[i] = 0.2470 * 1.02 * (1 + 0.06 * (gp_test_rand(&seed) - 0.5));
    }
    gp_bench_paired p;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, R, &p).code == GP_OK);
    double truth = 0.2470 * 1.02 / 0.2467;
    GP_CHECK(fabs(p.ratio_s.median / truth - 1) < 0.01);
    GP_CHECK(p.ratio_s.p10 < p.ratio_s.median && p.ratio_s.median < p.ratio_s.p90);
    GP_CHECK(p.ratio_s.p10 < truth && truth < p.ratio_s.p90);
    return 0;
}

GP_TEST(kbench_pair_ratio_bad_input)
{
    double ta[8] = {1, 1, 1, 1, 1, 1, 1, 1}, tb[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    gp_bench_paired p;
    /* 0 rounds: an error, nothing decided. */
    memset(&p, 0x5a, sizeof p);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 0, &p).code == GP_ERR_USAGE);
    GP_CHECK(p.rounds == 0);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == -1);
    GP_CHECK(gp_bench_pair_faster(&p) == -1);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, -3, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, GP_BENCH_PAIR_MAX_ROUNDS + 1, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_bench_pair_ratios(NULL, tb, 1, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_bench_pair_ratios(ta, NULL, 1, &p).code == GP_ERR_USAGE);
    /* Zero times: a ratio of them means nothing (A zero would be infinitely fast). */
    ta[2] = 0.0;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_ERR_CHECK);
    GP_CHECK(p.rounds == 0);
    GP_CHECK(gp_bench_pair_at_least(&p, 0.95) == -1);
    ta[2] = 1.0, tb[5] = 0.0;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_ERR_CHECK);
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 2, &p).code == GP_OK); /* the zero is beyond 2 rounds */
    tb[5] = -1.0;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_ERR_CHECK);
    tb[5] = NAN;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_ERR_CHECK);
    tb[5] = INFINITY;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_ERR_CHECK);
    tb[5] = 1.0;
    GP_CHECK(gp_bench_pair_ratios(ta, tb, 4, &p).code == GP_OK);
    GP_CHECK(p.rounds == 4);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == 1);
    return 0;
}

static gp_bench_paired paired_with(double median, double p10, double p90, int rounds)
{
    gp_bench_paired p;
    memset(&p, 0, sizeof p);
    p.rounds = rounds;
    p.ratio_s.n = (size_t)rounds;
    p.ratio_s.median = median, p.ratio_s.p10 = p10, p.ratio_s.p90 = p90;
    return p;
}

GP_TEST(kbench_pair_verdicts)
{
    gp_bench_paired p = paired_with(1.0, 0.99, 1.01, 60);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == 1); /* parity counts as at least as fast */
    GP_CHECK(gp_bench_pair_faster(&p) == 0);
    p = paired_with(0.999, 0.99, 1.01, 60);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == 0);
    p = paired_with(1.012, 1.004, 1.020, 60);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == 1);
    GP_CHECK(gp_bench_pair_faster(&p) == 1);
    p = paired_with(1.012, 1.0, 1.020, 60);
    GP_CHECK(gp_bench_pair_faster(&p) == 0); /* p10 must exceed 1 */
    /* Fraction target: transpose at >= 95% of the copy's bandwidth. */
    p = paired_with(0.953, 0.94, 0.96, 60);
    GP_CHECK(gp_bench_pair_at_least(&p, 0.95) == 1);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == 0);
    p = paired_with(0.949, 0.94, 0.96, 60);
    GP_CHECK(gp_bench_pair_at_least(&p, 0.95) == 0);
    /* Undecided: no rounds, a non-finite summary, no result at all. */
    p = paired_with(1.2, 1.1, 1.3, 0);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == -1);
    GP_CHECK(gp_bench_pair_faster(&p) == -1);
    p = paired_with(NAN, NAN, NAN, 10);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == -1);
    GP_CHECK(gp_bench_pair_faster(&p) == -1);
    GP_CHECK(gp_bench_pair_at_least(NULL, 1.0) == -1);
    GP_CHECK(!strcmp(gp_bench_verdict_word(1), "yes"));
    GP_CHECK(!strcmp(gp_bench_verdict_word(0), "no"));
    GP_CHECK(!strcmp(gp_bench_verdict_word(-1), "undecided"));
    return 0;
}

/* ---- the ABBA loop with fake measurements and a fake clock */

typedef struct fake {
    char seq[1024]; /* 'A' / 'B' in the order measured */
    int n;
    double now_s;     /* the fake clock */
    double step_s;    /* clock advance per measurement */
    double a_ms, b_ms;
    double drift;     /* per measurement: multiplicative slow-down */
    int fail_at;      /* measurement index that fails (-1: none) */
} fake;

static gp_status fake_measure(fake *f, char who, double base, double *ms)
{
    if (f->n == f->fail_at)
        return gp_fail(GP_ERR_RUNTIME, "fake measurement %d failed", f->n);
    if (f->n < (int)sizeof f->seq - 1)
        f->seq[f->n] = who;
    *ms = base * (1 + f->drift * f->n);
    f->n++;
    f->now_s += f->step_s;
    return gp_ok();
}
static fake *g_fake;
static gp_status measure_a(void *ctx, double *ms)
{
    fake *f = ctx;
    return fake_measure(f, 'A', f->a_ms, ms);
}
static gp_status measure_b(void *ctx, double *ms)
{
    fake *f = ctx;
    return fake_measure(f, 'B', f->b_ms, ms);
}
static double fake_clock(void *ctx)
{
    (void)ctx;
    return g_fake->now_s;
}

static void fake_init(fake *f, gp_bench_pair_cfg *cfg)
{
    memset(f, 0, sizeof *f);
    f->a_ms = 2.0, f->b_ms = 3.0, f->step_s = 1.0, f->fail_at = -1;
    g_fake = f;
    *cfg = gp_bench_pair_defaults(0);
    cfg->clock = fake_clock;
}

GP_TEST(kbench_pair_run_order_and_rounds)
{
    fake f;
    gp_bench_pair_cfg cfg;
    fake_init(&f, &cfg);
    cfg.warmup = 2, cfg.rounds = 3, cfg.budget_s = 1e9;
    gp_bench_paired p;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_OK);
    GP_CHECK(!strcmp(f.seq, "ABAB" "ABBA" "ABBA" "ABBA"));
    GP_CHECK(p.rounds == 3 && p.budget_hit == 0);
    GP_CHECK_NEAR(p.ratio_s.median, 1.5, 1e-12);
    /* Drift over the measured runs (warm-up included): still 1.5. */
    fake_init(&f, &cfg);
    cfg.budget_s = 1e9;
    f.drift = 0.01;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_OK);
    GP_CHECK(p.rounds == 60);
    GP_CHECK(strlen(f.seq) == 2 * 3 + 4 * 60);
    GP_CHECK_NEAR(p.ratio_s.p10, 1.5, 1e-12);
    GP_CHECK_NEAR(p.ratio_s.p90, 1.5, 1e-12);
    /* Defaults: 60 rounds in 3 s, quick 15 in 0.75 s. */
    gp_bench_pair_cfg d = gp_bench_pair_defaults(0), q = gp_bench_pair_defaults(1);
    GP_CHECK(d.rounds == 60 && q.rounds == 15);
    GP_CHECK_NEAR(d.budget_s, 3.0, 0);
    GP_CHECK_NEAR(q.budget_s, 0.75, 0);
    GP_CHECK(d.warmup > 0 && q.warmup > 0);
    return 0;
}

GP_TEST(kbench_pair_run_budget)
{
    fake f;
    gp_bench_pair_cfg cfg;
    gp_bench_paired p;
    /* 1 s per run, 4 s per round: a 10 s budget ends after round 3 (12 s). */
    fake_init(&f, &cfg);
    cfg.warmup = 1, cfg.rounds = 60, cfg.min_rounds = 2, cfg.budget_s = 10.0;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_OK);
    GP_CHECK(p.rounds == 3);
    GP_CHECK(p.budget_hit == 1);
    GP_CHECK(f.n == 2 + 12); /* whole rounds only */
    /* A spent budget still gives min_rounds. */
    fake_init(&f, &cfg);
    cfg.min_rounds = 5, cfg.budget_s = 0;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_OK);
    GP_CHECK(p.rounds == 5 && p.budget_hit == 1);
    /* Reaching the rounds wanted is not a budget stop. */
    fake_init(&f, &cfg);
    cfg.rounds = 5, cfg.min_rounds = 5, cfg.budget_s = 0;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_OK);
    GP_CHECK(p.rounds == 5 && p.budget_hit == 0);
    return 0;
}

GP_TEST(kbench_pair_run_errors)
{
    fake f;
    gp_bench_pair_cfg cfg;
    gp_bench_paired p;
    fake_init(&f, &cfg);
    cfg.rounds = 0;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_ERR_USAGE);
    GP_CHECK(p.rounds == 0 && f.n == 0);
    cfg.rounds = GP_BENCH_PAIR_MAX_ROUNDS + 1;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_ERR_USAGE);
    /* A failing measurement (here B's in round 2) is passed on, nothing decided. */
    fake_init(&f, &cfg);
    cfg.warmup = 0, cfg.rounds = 10;
    f.fail_at = 5;
    gp_status st = gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p);
    GP_CHECK(st.code == GP_ERR_RUNTIME);
    GP_CHECK(strstr(st.msg, "fake measurement 5") != NULL);
    GP_CHECK(p.rounds == 0);
    GP_CHECK(gp_bench_pair_at_least(&p, 1.0) == -1);
    /* A zero time from the timer: GP_ERR_CHECK, not a ratio of infinity. */
    fake_init(&f, &cfg);
    f.a_ms = 0.0;
    GP_CHECK(gp_bench_pair_run(&cfg, measure_a, &f, measure_b, &f, &p).code == GP_ERR_CHECK);
    GP_CHECK(p.rounds == 0);
    return 0;
}

/* ---- the paired column in the table and the CSV */

static gp_bench *two_rows(void)
{
    gp_bench *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    gp_harness_result r;
    memset(&r, 0, sizeof r);
    r.summary.median = 0.25, r.summary.p10 = 0.24, r.summary.p90 = 0.26, r.summary.n = 20;
    r.stable = 1;
    if (gp_bench_add(b, "reduce", "2^28 fp32", "gpuprobe", "sm_90", "b256", 0, &r, 0.23, "DRAM").code != GP_OK)
        return NULL;
    r.summary.median = 0.253;
    if (gp_bench_add(b, "reduce", "2^28 fp32", "CUB DeviceReduce::Sum", "", "", 1, &r, 0.23, "DRAM").code != GP_OK)
        return NULL;
    return b;
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

GP_TEST(kbench_pair_markdown_and_csv)
{
    gp_bench *b = two_rows();
    GP_CHECK(b != NULL);
    gp_bench_paired p = paired_with(1.012, 1.004, 1.020, 60);
    GP_CHECK(gp_bench_set_pair(b, 2, &p).code == GP_ERR_USAGE);  /* no such row */
    GP_CHECK(gp_bench_set_pair(b, -1, &p).code == GP_ERR_USAGE);
    gp_bench_paired none = paired_with(1.0, 1.0, 1.0, 0);
    GP_CHECK(gp_bench_set_pair(b, 0, &none).code == GP_ERR_USAGE); /* no rounds */
    GP_CHECK(b->rows[0].has_pair == 0);
    GP_CHECK(gp_bench_set_pair(b, 0, &p).code == GP_OK);
    GP_CHECK(b->rows[0].has_pair == 1 && b->rows[0].pair_rounds == 60);

    char dir[] = "/tmp/gp_unit_kbenchXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char path[256], buf[4096];
    snprintf(path, sizeof path, "%s/table.md", dir);
    FILE *f = fopen(path, "w");
    GP_CHECK(f != NULL);
    gp_bench_print_markdown(b, f);
    fclose(f);
    f = fopen(path, "r");
    GP_CHECK(f != NULL);
    char lines[4][1024];
    int nl = 0;
    while (nl < 4 && fgets(lines[nl], sizeof lines[nl], f))
        nl++;
    GP_CHECK(fgets(buf, sizeof buf, f) == NULL);
    fclose(f);
    GP_CHECK(nl == 4);
    /* Old columns unchanged, the new one last; every line has 12 '|'. */
    GP_CHECK(strstr(lines[0], "| speed-up vs baseline | parameters | paired vs baseline (p10-p90) |\n") != NULL);
    for (int i = 0; i < 4; i++)
        GP_CHECK(count_char(lines[i], '|') == 12);
    GP_CHECK(strstr(lines[2], "| 1.01x | b256 | 1.012x (1.004-1.020), 60 rounds ABBA |\n") != NULL);
    GP_CHECK(strstr(lines[3], "CUB DeviceReduce::Sum (baseline)") != NULL);
    GP_CHECK(strstr(lines[3], "ABBA") == NULL);
    GP_CHECK(strstr(lines[3], "|  |  |\n") != NULL); /* empty parameters, empty pair */

    snprintf(path, sizeof path, "%s/bench.csv", dir);
    GP_CHECK(gp_bench_write_csv(b, path).code == GP_OK);
    f = fopen(path, "r");
    GP_CHECK(f != NULL);
    nl = 0;
    while (nl < 4 && fgets(lines[nl], sizeof lines[nl], f))
        nl++;
    fclose(f);
    GP_CHECK(nl == 3);
    GP_CHECK(!strcmp(lines[0], "kernel,problem,impl,table,baseline,median_ms,min_ms,p10_ms,p90_ms,n,stable,"
                               "floor_ms,speedup,params,ratio_median,ratio_p10,ratio_p90,rounds\n"));
    GP_CHECK(strstr(lines[1], ",\"b256\",1.012000,1.004000,1.020000,60\n") != NULL);
    GP_CHECK(strstr(lines[2], ",\"\",,,,\n") != NULL);
    GP_CHECK(count_char(lines[0], ',') == count_char(lines[2], ','));
    remove(path);
    snprintf(path, sizeof path, "%s/table.md", dir);
    remove(path);
    rmdir(dir);
    free(b);
    return 0;
}
