/* Run-to-run agreement (between-run spreads; the package
 * compare): what a record says about a value's reproducibility, and how
 * `compare` judges two runs by it.  The numbers are the ones that differed
 * between the H200 and H100 runs of 2026-11-23 (docs/reports/h200/README.md,
 * "Two repeat runs" and "The sm_90 package against the build tree";
 * docs/reports/h100/README.md, "Runs"). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cache_latency_analysis.h"
#include "divergence_analysis.h"
#include "gp_test.h"
#include "gp_test_record.h"
#include "json_read.h"
#include "probe.h"
#include "record.h"
#include "run_compare.h"

static gp_value point(const char *key, double x, const char *unit, double spread)
{
    static gp_record r; /* large: not on the stack */
    gp_record_init(&r, "p", NULL);
    gp_value v = *gp_record_value(&r, key, x, unit, spread, "test");
    gp_record_free(&r);
    return v;
}

static gp_cmp_verdict judge(const gp_value *a, const gp_value *b, gp_cmp_row *row)
{
    gp_cmp_value("p", a, b, GP_CMP_DEFAULT_FLOOR, row);
    return row->verdict;
}

GP_TEST(spreads_between_launch_band_agrees_beyond_both_differs)
{
    /* 0.3 % within the run, 2 % between fresh launches */
    gp_value a = point("rate_gops", 100.0, "Gop/s", 0.003);
    const double launches[3] = {100.0, 98.6, 100.6};
    gp_value_between(&a, launches, 3);
    GP_CHECK_NEAR(a.spread_between, 0.02, 1e-12);
    GP_CHECK(!a.unstable);
    gp_cmp_row row;
    gp_value b = point("rate_gops", 101.5, "Gop/s", 0.003); /* beyond within, inside between */
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_SPREAD_A);
    GP_CHECK(judge(&b, &a, &row) == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_SPREAD_B);
    gp_value c = point("rate_gops", 103.0, "Gop/s", 0.003); /* beyond both */
    GP_CHECK(judge(&a, &c, &row) == GP_CMP_DIFFERS);
    GP_CHECK_NEAR(row.band, 0.02, 1e-12);
    return 0;
}

GP_TEST(spreads_between_launch_above_limit_marks_unstable)
{
    /* The H100's coalesced fp32 atomics: fresh launches 12 % apart.  The
     * run sees it does not reproduce: the record says unstable. */
    gp_value a = point("global_atomic_coalesced_fp32_gops", 492.2, "Gop/s", 0.037);
    const double launches[3] = {492.2, 440.0, 470.0};
    gp_value_between(&a, launches, 3);
    GP_CHECK(a.spread_between > GP_BETWEEN_UNSTABLE);
    GP_CHECK(a.unstable);
    /* below the limit the probe's own flag stands */
    gp_value q = point("global_atomic_coalesced_fp32_gops", 492.2, "Gop/s", 0.037);
    const double close[3] = {492.2, 480.0, 488.0};
    gp_value_between(&q, close, 3);
    GP_CHECK(q.spread_between < GP_BETWEEN_UNSTABLE && !q.unstable);
    return 0;
}

GP_TEST(spreads_compare_reports_large_between_launch_spread_unstable)
{
    /* A record whose between-launch spread is above the limit but whose
     * unstable flag is not set (written before gp_value_between set it):
     * compare reports it unstable, not agreeing within a 15 % band. */
    gp_value a = point("global_atomic_coalesced_fp32_gops", 492.2, "Gop/s", 0.037);
    a.spread_between = 0.15;
    gp_value b = point("global_atomic_coalesced_fp32_gops", 471.3, "Gop/s", 0.02);
    gp_cmp_row row;
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_UNSTABLE);
    GP_CHECK(judge(&b, &a, &row) == GP_CMP_UNSTABLE);
    GP_CHECK(!gp_cmp_counts_as_differs(row.verdict));
    /* at the limit it is a band like any other */
    a.spread_between = GP_BETWEEN_UNSTABLE;
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_AGREES);
    /* an unstable-marked value is reported unstable whatever its numbers */
    gp_value u = point("launch_us", 4.97, "us", 0.047);
    u.unstable = 1;
    gp_value w = point("launch_us", 3.88, "us", 0.116);
    GP_CHECK(judge(&u, &w, &row) == GP_CMP_UNSTABLE);
    GP_CHECK(judge(&w, &u, &row) == GP_CMP_UNSTABLE);
    return 0;
}

GP_TEST(spreads_far_fraction_is_a_binomial_interval)
{
    double lo, hi;
    GP_CHECK(gp_binomial_interval(0.5, 10000, &lo, &hi));
    GP_CHECK_NEAR(lo, 0.5 - 1.2816 * 0.005, 1e-9);
    GP_CHECK_NEAR(hi, 0.5 + 1.2816 * 0.005, 1e-9);
    GP_CHECK(gp_binomial_interval(0.0, 100, &lo, &hi) && lo == 0 && hi == 0);
    GP_CHECK(!gp_binomial_interval(0.5, 0, &lo, &hi) && isnan(lo));
    GP_CHECK(!gp_binomial_interval(1.5, 100, &lo, &hi));
    /* The H200: 0.554932 and 0.560547 of 4096 lines, 1 % apart against a
     * 0.5 % floor: as plain values they differ (today's verdict)... */
    gp_value a = point("dram_partition_far_fraction", 2273.0 / 4096, "fraction", -1);
    gp_value b = point("dram_partition_far_fraction", 2296.0 / 4096, "fraction", -1);
    gp_cmp_row row;
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_DIFFERS);
    /* ...as binomial estimates they are 0.6 sigma apart and agree */
    GP_CHECK(gp_binomial_interval(a.value, 4096, &lo, &hi));
    gp_value_interval(&a, lo, hi, "binomial");
    GP_CHECK(gp_binomial_interval(b.value, 4096, &lo, &hi));
    gp_value_interval(&b, lo, hi, "binomial");
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_RANGE);
    /* a partition that really moved (50 % far) still differs */
    gp_value c = point("dram_partition_far_fraction", 0.50, "fraction", -1);
    GP_CHECK(gp_binomial_interval(c.value, 4096, &lo, &hi));
    gp_value_interval(&c, lo, hi, "binomial");
    GP_CHECK(judge(&a, &c, &row) == GP_CMP_DIFFERS);
    return 0;
}

GP_TEST(spreads_confidence_interval_follows_its_latencies)
{
    /* l2_bytes_confidence = sharpness of the far-L2 -> DRAM step: H200 runs
     * A and B (far L2 523.354 / 521.621, DRAM 678.586 / 678.635 cycles). */
    gp_mem_level la, lb;
    memset(&la, 0, sizeof la);
    memset(&lb, 0, sizeof lb);
    la.step_support = lb.step_support = 1.0;
    la.step_ratio = 678.586 / 523.354;
    lb.step_ratio = 678.635 / 521.621;
    la.confidence = gp_mem_step_confidence(la.step_ratio, la.step_support);
    lb.confidence = gp_mem_step_confidence(lb.step_ratio, lb.step_support);
    GP_CHECK_NEAR(la.confidence, 0.64063, 2e-5); /* the recorded values */
    GP_CHECK_NEAR(lb.confidence, 0.648988, 2e-5);
    gp_value a = point("l2_bytes_confidence", la.confidence, "fraction", -1);
    gp_value b = point("l2_bytes_confidence", lb.confidence, "fraction", -1);
    gp_cmp_row row;
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_DIFFERS); /* +1.3 % against the 0.5 % floor */
    /* far L2 1.2 % between fresh launches, DRAM plateau 0.78 % */
    double lo, hi;
    gp_mem_confidence_interval(&la, 0.012, 0.0078, &lo, &hi);
    GP_CHECK(lo < la.confidence && la.confidence < hi);
    gp_value_interval(&a, lo, hi, "step ratio");
    gp_mem_confidence_interval(&lb, 0.012, 0.0078, &lo, &hi);
    gp_value_interval(&b, lo, hi, "step ratio");
    GP_CHECK(judge(&a, &b, &row) == GP_CMP_AGREES);
    /* a step that really changed (1.30x -> 1.45x) still differs */
    gp_mem_level lc = la;
    lc.step_ratio = 1.45;
    lc.confidence = gp_mem_step_confidence(lc.step_ratio, 1.0);
    gp_value c = point("l2_bytes_confidence", lc.confidence, "fraction", -1);
    gp_mem_confidence_interval(&lc, 0.012, 0.0078, &lo, &hi);
    gp_value_interval(&c, lo, hi, "step ratio");
    GP_CHECK(judge(&a, &c, &row) == GP_CMP_DIFFERS);
    /* a saturated step (>= 1.5x) is certain; the last level has no step */
    gp_mem_level ls = la;
    ls.step_ratio = 2.0;
    ls.confidence = gp_mem_step_confidence(2.0, 1.0);
    gp_mem_confidence_interval(&ls, 0.05, 0.05, &lo, &hi);
    GP_CHECK(lo == 1.0 && hi == 1.0);
    gp_mem_level ll = la;
    ll.step_ratio = NAN;
    ll.step_support = NAN;
    ll.confidence = 0.5;
    gp_mem_confidence_interval(&ll, 0.05, 0.05, &lo, &hi);
    GP_CHECK(lo == 0.5 && hi == 0.5);
    return 0;
}

GP_TEST(spreads_levels_confidence_is_step_confidence)
{
    /* gp_mem_levels and the interval share one formula */
    const double x[9] = {1e3, 2e3, 4e3, 8e3, 16e3, 32e3, 64e3, 128e3, 256e3};
    const double y[9] = {30, 30, 30, 30, 40, 40, 40, 40, 40};
    gp_mem_level lv[4];
    size_t n = gp_mem_levels(x, y, 9, 0.05, lv, 4);
    GP_CHECK(n == 2);
    GP_CHECK_NEAR(lv[0].confidence, gp_mem_step_confidence(lv[0].step_ratio, lv[0].step_support), 1e-12);
    GP_CHECK_NEAR(lv[0].confidence, log(40.0 / 30.0) / log(1.5), 1e-9);
    GP_CHECK(isnan(lv[1].step_support));
    return 0;
}

static void clocked_record(gp_record *r, double core_max, double measured, double lo, double hi)
{
    gp_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.core_clock_mhz = core_max;
    gp_record_init(r, "lds", &dev);
    r->clock_before.measured_mhz = measured;
    r->clock_before.measured_min_mhz = lo;
    r->clock_before.measured_max_mhz = hi;
}

GP_TEST(spreads_ns_of_cycles_carries_the_clock_interval)
{
    /* The H100: 23.0028 LDS cycles in both runs, 11.6176 ns at 1980 MHz in
     * run A, 12.3698 ns at 1859.6 MHz in run B (+6.5 %, band 0.5 %). */
    static gp_record ra, rb, rc;
    clocked_record(&ra, 1980, 1980, 1975, 1980);
    clocked_record(&rb, 1980, 1859.6, 1852, 1861);
    gp_value *a = gp_record_ns_of_cycles(&ra, "latency_ns", 23.0028, 3.5e-5, 1980);
    gp_value *b = gp_record_ns_of_cycles(&rb, "latency_ns", 23.0028, 3.5e-5, 1859.6);
    GP_CHECK(a && b);
    GP_CHECK_NEAR(a->value, 11.6176, 1e-4);
    GP_CHECK_NEAR(b->value, 12.3698, 1e-4);
    GP_CHECK(a->has_range && a->range_lo <= a->value && a->value <= a->range_hi);
    GP_CHECK_NEAR(b->range_lo, 1e3 * 23.0028 * (1 - 3.5e-5 / 2) / 1980, 1e-9);
    GP_CHECK_NEAR(b->range_hi, 1e3 * 23.0028 * (1 + 3.5e-5 / 2) / 1852, 1e-9);
    GP_CHECK(strstr(b->range_method, "1852") && strstr(b->range_method, "1980"));
    gp_cmp_row row;
    GP_CHECK(judge(a, b, &row) == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_RANGE);
    /* without the interval, today's verdict */
    gp_value pa = *a, pb = *b;
    pa.has_range = pb.has_range = 0;
    GP_CHECK(judge(&pa, &pb, &row) == GP_CMP_DIFFERS);
    /* a latency 10 % longer in cycles differs at any clock in the range */
    clocked_record(&rc, 1980, 1980, 1975, 1980);
    gp_value *c = gp_record_ns_of_cycles(&rc, "latency_ns", 23.0028 * 1.10, 3.5e-5, 1980);
    GP_CHECK(judge(b, c, &row) == GP_CMP_DIFFERS);
    /* no reported maximum: the measured clocks alone bound it */
    clocked_record(&rc, 0, 1500, 1490, 1510);
    c = gp_record_ns_of_cycles(&rc, "latency_ns", 30, -1, 1500);
    GP_CHECK(c && c->has_range);
    GP_CHECK_NEAR(c->range_lo, 30e3 / 1510, 1e-9);
    GP_CHECK_NEAR(c->range_hi, 30e3 / 1490, 1e-9);
    gp_record_free(&ra), gp_record_free(&rb), gp_record_free(&rc);
    return 0;
}

GP_TEST(spreads_interval_and_its_method_survive_json)
{
    char dir[] = "/tmp/gp_unit_spreadsXXXXXX", path[300];
    GP_CHECK(mkdtemp(dir) != NULL);
    static gp_record r;
    gp_record_init(&r, "cache_latency", NULL);
    gp_value *v = gp_record_value(&r, "dram_partition_far_fraction", 0.555, "fraction", -1, "Otsu");
    gp_value_interval(v, 0.545, 0.565, "binomial p10..p90 over 4096 lines");
    gp_value *u = gp_record_value(&r, "graph_launch_us", 0.5, "us", 0.01, "graph");
    const double per[3] = {0.5, 0.68, 0.51};
    gp_value_between(u, per, 3);
    GP_CHECK(u->unstable);
    GP_CHECK(gp_test_record_round_trip(&r, dir, path, sizeof path));
    const gp_value *rv = gp_record_find(&r, "dram_partition_far_fraction");
    GP_CHECK(rv && rv->has_range && rv->range_lo == 0.545 && rv->range_hi == 0.565);
    GP_CHECK(!strcmp(rv->range_method, "binomial p10..p90 over 4096 lines"));
    rv = gp_record_find(&r, "graph_launch_us");
    GP_CHECK(rv && rv->unstable && rv->spread_between > GP_BETWEEN_UNSTABLE);
    gp_record_free(&r);
    /* a range_method that is not a string is bad input */
    char *text = gp_test_read_text(path, NULL);
    GP_CHECK(text);
    char *at = strstr(text, "\"range_method\": \"");
    GP_CHECK(at);
    static const char key[] = "\"range_method\": \"", bad[] = "\"range_method\": 7, \"x\": \"";
    size_t head = (size_t)(at - text), len = strlen(text);
    char *mut = malloc(len + sizeof bad);
    GP_CHECK(mut);
    memcpy(mut, text, head);
    strcpy(mut + head, bad);
    strcat(mut, at + strlen(key));
    free(text);
    int wrote = gp_test_write_text(path, mut);
    free(mut);
    GP_CHECK(wrote);
    gp_json j;
    GP_CHECK(gp_json_read_file(path, &j).code == GP_OK);
    gp_status st = gp_record_check_json(&j, path);
    gp_json_free(&j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "range_method"));
    return 0;
}

GP_TEST(spreads_interval_never_narrows_the_band)
{
    /* Both runs at a steady 1980 MHz: the ns intervals are as narrow as the
     * cycles' spread.  Cycles 0.2 % apart are inside the 0.5 % floor and
     * agree, though the intervals do not meet. */
    static gp_record ra, rb;
    clocked_record(&ra, 1980, 1980, 1980, 1980);
    clocked_record(&rb, 1980, 1980, 1980, 1980);
    gp_value *a = gp_record_ns_of_cycles(&ra, "latency_ns", 100.0, 1e-4, 1980);
    gp_value *b = gp_record_ns_of_cycles(&rb, "latency_ns", 100.2, 1e-4, 1980);
    GP_CHECK(a && b && a->range_hi < b->range_lo);
    gp_cmp_row row;
    GP_CHECK(judge(a, b, &row) == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_FLOOR);
    /* and 1 % apart, beyond the floor and the intervals, differs */
    gp_value *c = gp_record_ns_of_cycles(&rb, "latency_ns", 101.0, 1e-4, 1980);
    GP_CHECK(judge(a, c, &row) == GP_CMP_DIFFERS && row.band_src == GP_CMP_BAND_RANGE);
    gp_record_free(&ra), gp_record_free(&rb);
    return 0;
}

/* ---- the clock rule (docs/reports/h100/README.md, "A clock that moved"; tests/data/h100-clock) ---- */

static const gp_cmp_row *row_of(const gp_cmp_result *res, const char *probe, const char *key)
{
    for (int i = 0; i < res->nrows; i++)
        if (!strcmp(res->rows[i].probe, probe) && !strcmp(res->rows[i].key, key))
            return &res->rows[i];
    return NULL;
}

static int load_h100_pair(gp_cmp_run *a, gp_cmp_run *b)
{
    char pa[1024], pb[1024];
    if (!gp_test_source_path(pa, sizeof pa, "tests/data/h100-clock/run1") ||
        !gp_test_source_path(pb, sizeof pb, "tests/data/h100-clock/run2"))
        return 0;
    if (gp_cmp_load_dir(pa, a).code != GP_OK)
        return 0;
    if (gp_cmp_load_dir(pb, b).code != GP_OK) {
        gp_cmp_run_free(a);
        return 0;
    }
    return 1;
}

GP_TEST(spreads_clock_moved_per_cycle_values_unstable)
{
    /* The session-5 H100 pair: 17 differ, 13 of them the atomics' rates per
     * cycle, +5.5..8.7 % together while their Gop/s agree within 1.8 %: run
     * B's atomics converted them at 1844 MHz, and the clock moved during
     * that probe (1844 -> 1943 MHz). */
    static gp_cmp_run A, B;
    GP_CHECK(load_h100_pair(&A, &B));
    gp_cmp_result res;
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.agree == 138);
    GP_CHECK(res.differ == 4);       /* 17 before the rule */
    GP_CHECK(res.unstable == 2 + 13);
    int per_cycle = 0;
    for (int i = 0; i < res.nrows; i++) {
        const gp_cmp_row *r = &res.rows[i];
        if (strcmp(r->probe, "atomics") || !strstr(r->key, "_per_cycle"))
            continue;
        per_cycle++;
        GP_CHECK(r->clock_converted);
        if (r->verdict == GP_CMP_UNSTABLE)
            GP_CHECK(strstr(r->why, "clock moved") && strstr(r->why, "run B") && strstr(r->why, "1844 -> 1943"));
        else /* coalesced int32, +7.86 % within its 8.54 % band, still agrees */
            GP_CHECK(r->verdict == GP_CMP_AGREES && !strcmp(r->key, "global_atomic_coalesced_per_cycle"));
    }
    GP_CHECK(per_cycle == 14);
    /* the same probe's rates per second are not converted: judged as before */
    const gp_cmp_row *g = row_of(&res, "atomics", "global_atomic_uncontended_gops");
    GP_CHECK(g && !g->clock_converted && g->verdict == GP_CMP_AGREES && !g->why[0]);
    /* GB/s in probes whose clock moved in both runs stay strict */
    const gp_cmp_row *v = row_of(&res, "memory_bandwidth", "vendor_copy_gbs");
    GP_CHECK(v && !v->clock_converted && v->verdict == GP_CMP_DIFFERS && !v->why[0]);
    v = row_of(&res, "memory_bandwidth", "l2_bandwidth_gbs");
    GP_CHECK(v && v->verdict == GP_CMP_DIFFERS);
    /* cycles from the in-kernel counter are not converted (cache_latency's clock moved in both runs) */
    v = row_of(&res, "cache_latency", "l2_latency_cycles");
    GP_CHECK(v && !v->clock_converted && v->verdict == GP_CMP_AGREES);
    /* the page says why */
    char *md = NULL;
    size_t mdn = 0;
    FILE *f = open_memstream(&md, &mdn);
    GP_CHECK(f);
    gp_cmp_write_md(f, &res);
    fclose(f);
    GP_CHECK(strstr(md, "4 differ; 15 unstable"));
    GP_CHECK(strstr(md, "| atomics | `global_atomic_grid_contended_per_cycle` | 0.688961 op/cycle | 0.740575 op/cycle | "
                        "+7.49% | 0.5% (floor) | unstable (clock moved) |"));
    GP_CHECK(strstr(md, "atomics `lds_atomic_uncontended_per_cycle`: +7.65%, band 0.5% (floor); the clock moved"));
    free(md);
    gp_cmp_result_free(&res);
    /* With run B's atomics record not flagged, the per-cycle shift is a
     * difference again: the rule follows the record's flag, not the size of
     * the move. */
    for (int i = 0; i < B.nrecs; i++)
        if (!strcmp(B.recs[i].probe, "atomics")) {
            GP_CHECK(B.recs[i].clock_moved);
            B.recs[i].clock_moved = 0;
        }
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.differ == 17 && res.unstable == 2);
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&A), gp_cmp_run_free(&B);
    return 0;
}

GP_TEST(spreads_clock_converted_marks_and_survives_json)
{
    char dir[] = "/tmp/gp_unit_clockXXXXXX", path[300];
    GP_CHECK(mkdtemp(dir) != NULL);
    static gp_record r;
    gp_record_init(&r, "fma_throughput", NULL);
    r.clock_before.measured_mhz = 1980;
    GP_CHECK(gp_record_value(&r, "rate_per_cycle", 1, "op/cycle", -1, "")->clock_converted);
    GP_CHECK(gp_record_value(&r, "per_cu", 1, "ops/cycle/CU", -1, "")->clock_converted);
    GP_CHECK(!gp_record_value(&r, "latency_cycles", 30, "cycles", -1, "")->clock_converted);
    GP_CHECK(!gp_record_value(&r, "rate_gbs", 1, "GB/s", -1, "")->clock_converted);
    GP_CHECK(gp_record_ns_of_cycles(&r, "latency_ns", 30, -1, 1980)->clock_converted);
    /* a probe marks other units itself, and may clear a per-cycle one */
    gp_value *f = gp_record_value(&r, "fp32_peak_fraction", 0.97, "fraction", -1, "");
    f->clock_converted = 1;
    gp_value *c = gp_record_value(&r, "counted_per_cycle", 4, "threads/cycle", -1, "in-kernel cycles");
    c->clock_converted = 0;
    GP_CHECK(gp_test_record_round_trip(&r, dir, path, sizeof path));
    GP_CHECK(gp_record_find(&r, "rate_per_cycle")->clock_converted);
    GP_CHECK(gp_record_find(&r, "latency_ns")->clock_converted);
    GP_CHECK(gp_record_find(&r, "fp32_peak_fraction")->clock_converted);
    GP_CHECK(!gp_record_find(&r, "counted_per_cycle")->clock_converted);
    GP_CHECK(!gp_record_find(&r, "latency_cycles")->clock_converted);
    gp_record_free(&r);
    /* a record without the member (older ones) is read by the unit */
    gp_json j;
    static const char old[] = "{\"probe\": \"atomics\", \"values\": ["
                              "{\"key\": \"a_per_cycle\", \"value\": 1, \"unit\": \"op/cycle\"},"
                              "{\"key\": \"a_gops\", \"value\": 1, \"unit\": \"Gop/s\"}]}";
    GP_CHECK(gp_json_parse(old, strlen(old), "old", &j).code == GP_OK);
    const char *why = NULL;
    GP_CHECK(gp_record_from_json(&j, &r, NULL, &why));
    GP_CHECK(gp_record_find(&r, "a_per_cycle")->clock_converted && !gp_record_find(&r, "a_gops")->clock_converted);
    gp_json_free(&j);
    /* not a boolean: bad input naming the key */
    static const char bad[] = "{\"probe\": \"atomics\", \"values\": [{\"key\": \"a_per_cycle\", \"value\": 1, "
                              "\"clock_converted\": \"yes\"}]}";
    GP_CHECK(gp_json_parse(bad, strlen(bad), "bad", &j).code == GP_OK);
    gp_status st = gp_record_check_json(&j, "atomics.json");
    gp_json_free(&j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "a_per_cycle") && strstr(st.msg, "clock_converted"));
    return 0;
}

/* ---- between-launch spreads of the three values that differed in the H200
 * package compare (docs/reports/h200/README.md, "The sm_90 package") ---- */

/* The committed H200 record of `probe` (docs/reports/h200), read back. */
static int h200_record(const char *probe, gp_record *r)
{
    char rel[128], path[1024];
    snprintf(rel, sizeof rel, "docs/reports/h200/%s.json", probe);
    if (!gp_test_source_path(path, sizeof path, rel))
        return 0;
    gp_json j;
    if (gp_json_read_file(path, &j).code != GP_OK)
        return 0;
    const char *why = NULL;
    int ok = gp_record_from_json(&j, r, NULL, &why);
    gp_json_free(&j);
    return ok;
}

/* The device the H200 records were measured on, as the checks read it. */
static gp_device_info h200_dev(const gp_record *r)
{
    gp_device_info dev = r->dev;
    dev.max_threads_per_block = 1024;
    dev.max_threads_per_cu = 2048;
    dev.l2_bytes = 60u * 1024 * 1024;
    return dev;
}

static gp_status probe_check(const char *probe, const gp_record *r)
{
    const gp_probe *p = gp_probe_find(probe);
    gp_device_info dev = h200_dev(r);
    return p && p->check ? p->check(r, &dev) : gp_fail(GP_ERR_USAGE, "no probe %s", probe);
}

/* The probe's check refuses the committed record (measured before the
 * points existed) naming `key`; with the key's points applied the way the
 * probe applies them, the record passes through JSON with the value the
 * points' median and their spread as spread_between. */
static int points_required(const char *probe, const char *key, const double per[3], double median)
{
    static gp_record r;
    GP_CHECK(h200_record(probe, &r));
    gp_status st = probe_check(probe, &r);
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "between-launch"));
    /* every key the check names, measured at three points; `key` among them */
    int named = 0;
    for (int guard = 0; guard < 8 && st.code == GP_ERR_CHECK && strstr(st.msg, "between-launch"); guard++) {
        const char *at = strstr(st.msg, ": ");
        GP_CHECK(at);
        char k[64];
        GP_CHECK(sscanf(at + 2, "%63s", k) == 1);
        named |= !strcmp(k, key);
        gp_value *v = (gp_value *)gp_record_find(&r, k);
        GP_CHECK(v && v->detected);
        double mine[3];
        for (int i = 0; i < 3; i++)
            mine[i] = !strcmp(k, key) ? per[i] : v->value;
        gp_value_points(v, mine, 3);
        st = probe_check(probe, &r);
    }
    GP_CHECK(st.code == GP_OK && named);
    char dir[] = "/tmp/gp_unit_pointsXXXXXX", path[300];
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(gp_test_record_round_trip(&r, dir, path, sizeof path));
    const gp_value *v = gp_record_find(&r, key);
    GP_CHECK(v && v->detected);
    GP_CHECK_NEAR(v->value, median, 1e-9);
    double lo = fmin(per[0], fmin(per[1], per[2])), hi = fmax(per[0], fmax(per[1], per[2]));
    GP_CHECK_NEAR(v->spread_between, (hi - lo) / median, 1e-8);
    GP_CHECK(probe_check(probe, &r).code == GP_OK);
    gp_record_free(&r);
    return 0;
}

GP_TEST(spreads_points_divergence_serialized_fraction)
{
    /* the package compare's two values and the repeat run's, as three points */
    const double per[3] = {0.995318, 0.990195, 0.997665};
    GP_CHECK(points_required("divergence", "divergence_serialized_fraction", per, 0.995318) == 0);
    /* the fraction itself: (one lane - uniform) / all-B, none without positive times */
    GP_CHECK_NEAR(gp_divergence_serialized_fraction(19.78, 9.94, 9.93), 0.990936556, 1e-9);
    GP_CHECK(isnan(gp_divergence_serialized_fraction(19.78, 0, 9.93)));
    GP_CHECK(isnan(gp_divergence_serialized_fraction(NAN, 9.94, 9.93)));
    return 0;
}

GP_TEST(spreads_points_fma_loop_nounroll)
{
    const double per[3] = {23.9249, 24.1679, 23.745};
    GP_CHECK(points_required("fma_throughput", "loop_nounroll_fma_per_cycle_per_cu", per, 23.9249) == 0);
    return 0;
}

GP_TEST(spreads_points_vendor_copy)
{
    const double per[3] = {4235.07, 4195.62, 4253.59};
    GP_CHECK(points_required("memory_bandwidth", "vendor_copy_gbs", per, 4235.07) == 0);
    /* a value that was not detected is left alone */
    static gp_record r;
    gp_record_init(&r, "memory_bandwidth", NULL);
    gp_value *none = gp_record_none(&r, "vendor_copy_gbs", "GB/s", "the pool is too small for a DRAM-sized copy");
    gp_value_points(none, per, 3);
    GP_CHECK(!none->detected && none->spread_between < 0);
    GP_CHECK(gp_record_require_between(&r, (const char *const[]){"vendor_copy_gbs"}, 1).code == GP_OK);
    gp_record_free(&r);
    return 0;
}
