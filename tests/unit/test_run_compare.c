/* gpuprobe compare: two runs' records, value by value (pipeline/run_compare.c,
 * app/compare_cmd.c).  Values are hand-made so each rule has a case on
 * either side of its line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_cmd.h"
#include "fsutil.h"
#include "gp_test.h"
#include "gp_test_record.h"
#include "json_read.h"
#include "record.h"
#include "run_compare.h"
#include "schema.h"

static gp_value val(const char *key, double v, const char *unit, double spread)
{
    gp_value x;
    memset(&x, 0, sizeof x);
    snprintf(x.key, sizeof x.key, "%s", key);
    snprintf(x.unit, sizeof x.unit, "%s", unit);
    x.value = v;
    x.spread = spread;
    x.detected = isfinite(v);
    return x;
}

static gp_cmp_verdict verdict(const gp_value *a, const gp_value *b, gp_cmp_row *row)
{
    gp_cmp_value("p", a, b, GP_CMP_DEFAULT_FLOOR, row);
    return row->verdict;
}

GP_TEST(cmp_value_identical_agrees)
{
    gp_cmp_row r;
    gp_value a = val("read_gbs", 4641.43, "GB/s", 0.002);
    GP_CHECK(verdict(&a, &a, &r) == GP_CMP_AGREES);
    GP_CHECK(r.diff == 0 && !r.exact);
    GP_CHECK_NEAR(r.band, 0.005, 1e-15); /* spread 0.2 % < floor 0.5 % */
    GP_CHECK(r.band_src == GP_CMP_BAND_FLOOR);
    return 0;
}

GP_TEST(cmp_value_moved_2pct_spread_half_pct_differs)
{
    gp_cmp_row r;
    gp_value a = val("latency_cycles", 100, "cycles", 0.005), b = val("latency_cycles", 102, "cycles", 0.004);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS);
    GP_CHECK_NEAR(r.diff, 0.02, 1e-12);
    GP_CHECK_NEAR(r.band, 0.005, 1e-15);
    /* Downwards too: (B - A) / |A| = -2 %. */
    b.value = 98;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS);
    GP_CHECK_NEAR(r.diff, -0.02, 1e-12);
    /* A spread of 3 % in either run widens the band past 2 %. */
    b.spread = 0.03;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES);
    GP_CHECK(r.band_src == GP_CMP_BAND_SPREAD_B && r.band == 0.03);
    return 0;
}

GP_TEST(cmp_value_moved_03pct_spread_half_pct_agrees)
{
    gp_cmp_row r;
    gp_value a = val("latency_cycles", 200, "cycles", 0.005), b = val("latency_cycles", 200.6, "cycles", 0.005);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES);
    GP_CHECK_NEAR(r.diff, 0.003, 1e-12);
    /* The band edge: exactly 0.5 % agrees, 0.51 % does not. */
    b.value = 201;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES);
    b.value = 201.02;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS);
    /* A negative A: the difference is relative to |A|. */
    a = val("loss", -10, "ms", -1);
    b = val("loss", -10.03, "ms", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES);
    GP_CHECK_NEAR(r.diff, -0.003, 1e-12);
    /* Larger floor from the caller (1.5 % inside 2 %)... */
    a = val("x", 100.5, "ms", -1);
    b = val("x", 102, "ms", -1);
    gp_cmp_value("p", &a, &b, 0.02, &r);
    GP_CHECK(r.verdict == GP_CMP_AGREES && r.band == 0.02 && !r.exact);
    /* ...but not for integers in both runs without a spread: those are exact. */
    a.value = 100;
    gp_cmp_value("p", &a, &b, 0.02, &r);
    GP_CHECK(r.verdict == GP_CMP_DIFFERS && r.exact);
    return 0;
}

GP_TEST(cmp_value_integer_changed_differs)
{
    gp_cmp_row r;
    /* A structural unit without a spread: exact. */
    gp_value a = val("banks", 32, "banks", -1), b = val("banks", 33, "banks", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS);
    GP_CHECK(r.exact && r.band == 0 && r.band_src == GP_CMP_BAND_EXACT);
    GP_CHECK(verdict(&a, &a, &r) == GP_CMP_AGREES && r.exact);
    /* 0.1 % off would be inside the floor, but a line size is a count. */
    a = val("l2_line_bytes", 1000, "bytes", -1);
    b = val("l2_line_bytes", 1001, "bytes", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && r.exact);
    /* A structural unit holding a fraction of a byte is still exact. */
    b.value = 1000.5;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && r.exact);
    /* Not a structural unit, but integers in both runs and no spread: exact. */
    a = val("best_unroll", 1000, "x", -1);
    b = val("best_unroll", 1001, "x", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && r.exact);
    /* Integer in one run only: measured, the floor applies (0.05 % agrees). */
    b.value = 1000.5;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES && !r.exact);
    /* A spread in either run makes a size a measured value (l2_bytes from a curve). */
    a = val("l2_bytes", 62886494, "bytes", 0.043);
    b = val("l2_bytes", 62900000, "bytes", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES && !r.exact && r.band_src == GP_CMP_BAND_SPREAD_A);
    GP_CHECK(gp_cmp_structural_unit("bytes") && gp_cmp_structural_unit("CUs") && gp_cmp_structural_unit("Registers"));
    GP_CHECK(!gp_cmp_structural_unit("GB/s") && !gp_cmp_structural_unit("threads/cycle") &&
             !gp_cmp_structural_unit("") && !gp_cmp_structural_unit(NULL));
    return 0;
}

GP_TEST(cmp_value_unstable_is_warned_not_differs)
{
    gp_cmp_row r;
    gp_value a = val("launch_us", 3.64, "us", 0.058), b = val("launch_us", 3.08, "us", 0.27);
    b.unstable = 1;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_UNSTABLE);
    GP_CHECK(!gp_cmp_counts_as_differs(r.verdict));
    GP_CHECK_NEAR(r.diff, (3.08 - 3.64) / 3.64, 1e-12); /* still shown */
    /* Flagged in run A only: the same. */
    b.unstable = 0;
    a.unstable = 1;
    b.spread = 0.001;
    b.value = 5;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_UNSTABLE);
    return 0;
}

GP_TEST(cmp_value_missing_and_none_reported)
{
    gp_cmp_row r;
    gp_value a = val("interleave_bytes", 256, "bytes", -1), none = val("interleave_bytes", NAN, "bytes", -1);
    GP_CHECK(verdict(&a, NULL, &r) == GP_CMP_ONLY_IN_A && r.in_a && !r.in_b);
    GP_CHECK(verdict(NULL, &a, &r) == GP_CMP_ONLY_IN_B && !r.in_a && r.in_b);
    GP_CHECK(!strcmp(r.key, "interleave_bytes") && !strcmp(r.unit, "bytes"));
    GP_CHECK(verdict(&none, &a, &r) == GP_CMP_NONE_IN_A && gp_cmp_counts_as_differs(r.verdict));
    GP_CHECK(verdict(&a, &none, &r) == GP_CMP_NONE_IN_B && gp_cmp_counts_as_differs(r.verdict));
    GP_CHECK(verdict(&none, &none, &r) == GP_CMP_NONE_BOTH && !gp_cmp_counts_as_differs(r.verdict));
    /* detected = 0 with a stale number is "none" too. */
    gp_value stale = a;
    stale.detected = 0;
    GP_CHECK(verdict(&stale, &a, &r) == GP_CMP_NONE_IN_A);
    GP_CHECK(!gp_cmp_counts_as_differs(GP_CMP_ONLY_IN_A) && !gp_cmp_counts_as_differs(GP_CMP_AGREES));
    return 0;
}

GP_TEST(cmp_value_zero_and_near_zero_fraction)
{
    gp_cmp_row r;
    /* A loss fraction of about zero: compared in absolute points. */
    gp_value a = val("non_wave_multiple_loss", -1.7e-5, "fraction", -1), b = val("non_wave_multiple_loss", 2.1e-5,
                                                                                   "fraction", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES && r.absolute);
    GP_CHECK_NEAR(r.diff, 3.8e-5, 1e-12);
    b.value = 0.009; /* 0.9 points of loss appeared */
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && r.absolute);
    /* A fraction away from zero stays relative. */
    a = val("dram_fraction_of_peak", 0.9, "fraction", -1);
    b = val("dram_fraction_of_peak", 0.91, "fraction", -1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && !r.absolute);
    /* A = 0 elsewhere: agrees only when B = 0. */
    a = val("pad_ms", 0, "ms", 0.01);
    b = val("pad_ms", 0, "ms", 0.01);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_AGREES && r.diff == 0);
    b.value = 1e-9;
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS && isinf(r.diff));
    /* Units that changed between the runs never agree. */
    a = val("size", 4, "KiB", 0.1);
    b = val("size", 4, "MiB", 0.1);
    GP_CHECK(verdict(&a, &b, &r) == GP_CMP_DIFFERS);
    return 0;
}

/* ---- folders ---- */

static gp_device_info h200(void)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200");
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    snprintf(d.pci_bus_id, sizeof d.pci_bus_id, "0000:00:06.0");
    d.compute_units = 132;
    d.wave_size = 32;
    d.core_clock_mhz = 1980;
    return d;
}

/* Write probes "lds" and "atomics" into dir; `bump` scales lds latency,
 * `banks` is lds banks, `unstable` flags atomics' rate. */
static gp_status write_run(const char *dir, const gp_device_info *dev, double clock, double bump, double banks,
                           int unstable, int extra_probe)
{
    gp_record *r = malloc(sizeof *r);
    if (!r)
        return gp_fail(GP_ERR_NOMEM, "test");
    gp_record_init(r, "lds", dev);
    snprintf(r->version, sizeof r->version, "0.1.0");
    snprintf(r->check, sizeof r->check, "ok");
    r->have_clock = 1;
    r->clock_before.measured_mhz = r->clock_after.measured_mhz = clock;
    r->clock_before.smi.other_processes = r->clock_after.smi.other_processes = 0;
    gp_record_value(r, "latency_cycles", 23.0 * bump, "cycles", 0.005, "chase");
    gp_record_value(r, "banks", banks, "banks", -1, "strides");
    gp_record_none(r, "broadcast", "x", "not measured here");
    gp_status st = gp_record_write(r, dir);
    gp_record_free(r);
    gp_record_init(r, "atomics", dev);
    r->have_clock = 1;
    r->clock_before.measured_mhz = r->clock_after.measured_mhz = clock;
    gp_value *v = gp_record_value(r, "global_gops", 97.5, "Gop/s", 0.14, "atomicAdd");
    if (v)
        v->unstable = unstable;
    if (st.code == GP_OK)
        st = gp_record_write(r, dir);
    gp_record_free(r);
    if (extra_probe && st.code == GP_OK) {
        gp_record_init(r, "divergence", dev);
        gp_record_value(r, "divergent_slowdown", 2.0, "ratio", 0.001, "branches");
        st = gp_record_write(r, dir);
        gp_record_free(r);
    }
    free(r);
    return st;
}

static int read_file(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return 1;
}

/* Markdown of a comparison into buf. */
static int md_of(const gp_cmp_result *res, char *buf, size_t n)
{
    FILE *f = tmpfile();
    if (!f)
        return 0;
    gp_cmp_write_md(f, res);
    rewind(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return 1;
}

GP_TEST(cmp_runs_identical_folders_agree)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", a[256], b[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    gp_device_info d = h200();
    GP_CHECK(write_run(a, &d, 1980, 1.0, 32, 0, 0).code == GP_OK);
    GP_CHECK(write_run(b, &d, 1979, 1.0, 32, 0, 0).code == GP_OK);
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK);
    GP_CHECK(A.nrecs == 2 && !strcmp(A.recs[0].probe, "atomics") && !strcmp(A.recs[1].probe, "lds"));
    GP_CHECK(A.recs[1].nvalues == 3 && A.recs[1].values[0].spread == 0.005 && !A.recs[1].values[2].detected);
    GP_CHECK(gp_cmp_load_dir(b, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.agree == 3 && res.differ == 0 && res.unstable == 0 && res.none_both == 1 && res.only_one == 0);
    GP_CHECK(res.probes_common == 2 && !res.devices_differ && !res.clocks_differ);
    GP_CHECK(res.side_a.clock_median == 1980 && res.side_b.clock_median == 1979);
    char md[16384];
    GP_CHECK(md_of(&res, md, sizeof md));
    GP_CHECK(strstr(md, "3 of 3 characteristics agree within their spreads; 0 differ; 0 unstable"));
    GP_CHECK(strstr(md, "Same device in both runs: NVIDIA H200 (sm_90)"));
    GP_CHECK(strstr(md, "| probe | key | run A | run B | difference | band | verdict |"));
    GP_CHECK(strstr(md, "| lds | `banks` | 32 banks | 32 banks | 0 | exact | agrees |"));
    GP_CHECK(!strstr(md, "broadcast")); /* none in both: counted, not listed */
    /* lds latency and banks feed [lds] of the table; atomics' test key does not. */
    GP_CHECK(res.table_agree == 2 && res.table_differ == 0 && res.table_unstable == 0);
    GP_CHECK(strstr(md, "Tuning table: 2 of 2 values it takes agree; 0 differ; 0 unstable."));
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}

GP_TEST(cmp_runs_differ_unstable_and_missing_probe)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", a[256], b[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    gp_device_info d = h200();
    GP_CHECK(write_run(a, &d, 1980, 1.0, 32, 0, 1).code == GP_OK);
    GP_CHECK(write_run(b, &d, 1980, 1.02, 16, 1, 0).code == GP_OK);
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK && A.nrecs == 3);
    GP_CHECK(gp_cmp_load_dir(b, &B).code == GP_OK && B.nrecs == 2);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.agree == 0 && res.differ == 2 && res.unstable == 1 && res.probes_common == 2);
    char md[16384];
    GP_CHECK(md_of(&res, md, sizeof md));
    GP_CHECK(strstr(md, "0 of 3 characteristics agree within their spreads; 2 differ; 1 unstable"));
    GP_CHECK(strstr(md, "probe only in run A (a difference: the other run has no record): divergence"));
    GP_CHECK(res.probes_missing == 1);
    GP_CHECK(strstr(md, "| lds | `latency_cycles` | 23 cycles | 23.46 cycles | +2% | 0.5% (floor) | **differs** |"));
    GP_CHECK(strstr(md, "| atomics | `global_gops` | 97.5 Gop/s | 97.5 Gop/s | 0 | 14% (spread A) | unstable (warned) |"));
    GP_CHECK(res.table_agree == 0 && res.table_differ == 2 && res.table_unstable == 0);
    GP_CHECK(strstr(md, "Tuning table: 0 of 2 values it takes agree; 2 differ; 0 unstable."));
    GP_CHECK(strstr(md, "not agreeing: `lds.latency_cycles` differs, `lds.banks` differs)"));
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}

GP_TEST(cmp_runs_different_devices_flagged)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", a[256], b[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    gp_device_info d = h200(), mi25 = h200();
    snprintf(mi25.name, sizeof mi25.name, "Radeon Instinct MI25");
    snprintf(mi25.arch, sizeof mi25.arch, "gfx900");
    mi25.core_clock_mhz = 1500;
    GP_CHECK(write_run(a, &d, 1980, 1.0, 32, 0, 0).code == GP_OK);
    GP_CHECK(write_run(b, &mi25, 1500, 1.0, 32, 0, 0).code == GP_OK);
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK && gp_cmp_load_dir(b, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.devices_differ && res.clocks_differ);
    GP_CHECK(res.agree == 3); /* the comparison still runs */
    char md[16384];
    GP_CHECK(md_of(&res, md, sizeof md));
    GP_CHECK(strstr(md, "**The runs are from different devices:** A is NVIDIA H200 (sm_90, 1980 MHz), B is "
                        "Radeon Instinct MI25 (gfx900, 1500 MHz)"));
    GP_CHECK(strstr(md, "**The measured clocks differ by -24.2%**"));
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&B);
    /* Same model, another reported clock: a different device too. */
    gp_device_info slow = h200();
    slow.core_clock_mhz = 1755;
    char c[256];
    snprintf(c, sizeof c, "%s/c", dir);
    GP_CHECK(write_run(c, &slow, 1980, 1.0, 32, 0, 0).code == GP_OK);
    GP_CHECK(gp_cmp_load_dir(c, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.devices_differ && !res.clocks_differ);
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&B);
    gp_cmp_run_free(&A);
    return 0;
}

GP_TEST(cmp_load_bad_input)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_cmp_run R;
    gp_status st = gp_cmp_load_dir("/nonexistent/gp-results", &R);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "'/nonexistent/gp-results' does not exist"));
    st = gp_cmp_load_dir(dir, &R); /* empty */
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no probe records") && strstr(st.msg, dir));
    snprintf(p, sizeof p, "%s/notes.json", dir);
    GP_CHECK(gp_test_write_text(p, "{\"title\": \"not a record\"}\n"));
    st = gp_cmp_load_dir(dir, &R);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "none with a \"probe\" member"));
    snprintf(p, sizeof p, "%s/lds.json", dir);
    GP_CHECK(gp_test_write_text(p, "{\"probe\": \"lds\",\n \"values\": [1,]}\n"));
    st = gp_cmp_load_dir(dir, &R);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json:2:"));
    GP_CHECK(gp_status_exit_code(&st) == 2);
    GP_CHECK(gp_test_write_text(p, "{\"probe\": \"lds\", \"values\": [{\"key\": \"banks\", \"value\": 32, \"unit\": \"banks\"}]}"));
    GP_CHECK(gp_cmp_load_dir(dir, &R).code == GP_OK);
    GP_CHECK(R.nrecs == 1 && R.nskipped == 1 && R.recs[0].nvalues == 1 && R.recs[0].values[0].spread < 0);
    GP_CHECK(R.recs[0].values[0].detected && R.recs[0].values[0].value == 32);
    gp_cmp_run_free(&R);
    /* A file instead of a folder. */
    st = gp_cmp_load_dir(p, &R);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "is not a directory"));
    return 0;
}

GP_TEST(cmp_runs_no_common_probe_is_bad_input)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", a[256], b[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    GP_CHECK(gp_fs_mkdirs(a).code == GP_OK && gp_fs_mkdirs(b).code == GP_OK);
    char p[512];
    snprintf(p, sizeof p, "%s/lds.json", a);
    GP_CHECK(gp_test_write_text(p, "{\"probe\": \"lds\", \"values\": []}"));
    snprintf(p, sizeof p, "%s/atomics.json", b);
    GP_CHECK(gp_test_write_text(p, "{\"probe\": \"atomics\", \"values\": []}"));
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK && gp_cmp_load_dir(b, &B).code == GP_OK);
    gp_status st = gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no probe in common") && strstr(st.msg, "atomics"));
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}

/* compare's command line through the one parser, into compare's options. */
static gp_status parse(int argc, const char **argv, gp_compare_opts *o)
{
    static gp_cli c;
    gp_status st = gp_cli_parse(argc, (char **)argv, &c);
    gp_compare_opts_of(&c, o);
    return st;
}

GP_TEST(cmp_command_line)
{
    gp_compare_opts o;
    const char *ok[] = {"gpuprobe", "compare", "r1", "--tolerance-floor", "0.01", "r2", "--out", "x.md"};
    GP_CHECK(parse(8, ok, &o).code == GP_OK);
    GP_CHECK(!strcmp(o.dir_a, "r1") && !strcmp(o.dir_b, "r2") && !strcmp(o.out_file, "x.md") && o.floor == 0.01);
    const char *dflt[] = {"gpuprobe", "compare", "r1", "r2"};
    GP_CHECK(parse(4, dflt, &o).code == GP_OK && o.floor == GP_CMP_DEFAULT_FLOOR && !o.out_file);
    gp_status st;
    const char *one[] = {"gpuprobe", "compare", "r1"};
    st = parse(3, one, &o);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "two results folders"));
    const char *three[] = {"gpuprobe", "compare", "r1", "r2", "r3"};
    st = parse(5, three, &o);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "'r3'"));
    const char *pct[] = {"gpuprobe", "compare", "r1", "r2", "--tolerance-floor", "0.5%"};
    st = parse(6, pct, &o);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "'0.5%'"));
    const char *big[] = {"gpuprobe", "compare", "r1", "r2", "--tolerance-floor", "5"};
    GP_CHECK(parse(6, big, &o).code == GP_ERR_USAGE);
    const char *neg[] = {"gpuprobe", "compare", "r1", "r2", "--tolerance-floor", "-0.1"};
    GP_CHECK(parse(6, neg, &o).code == GP_ERR_USAGE);
    const char *nan_[] = {"gpuprobe", "compare", "r1", "r2", "--tolerance-floor", "nan"};
    GP_CHECK(parse(6, nan_, &o).code == GP_ERR_USAGE);
    const char *noval[] = {"gpuprobe", "compare", "r1", "r2", "--out"};
    GP_CHECK(parse(5, noval, &o).code == GP_ERR_USAGE);
    const char *bad[] = {"gpuprobe", "compare", "r1", "r2", "--quick"};
    st = parse(5, bad, &o);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--quick"));
    return 0;
}

GP_TEST(cmp_command_status_and_out_file)
{
    char dir[] = "/tmp/gp_unit_cmpXXXXXX", a[256], b[256], out[256], tmp[300], md[16384];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(out, sizeof out, "%s/report/repeat-runs.md", dir);
    gp_device_info d = h200();
    GP_CHECK(write_run(a, &d, 1980, 1.0, 32, 0, 0).code == GP_OK);
    GP_CHECK(write_run(b, &d, 1980, 1.003, 32, 0, 0).code == GP_OK);
    gp_compare_opts o = {a, b, out, GP_CMP_DEFAULT_FLOOR, {0}, 0, 0};
    GP_CHECK(gp_compare_run(&o, NULL).code == GP_OK); /* +0.3 % inside 0.5 % */
    GP_CHECK(read_file(out, md, sizeof md) && strstr(md, "3 of 3 characteristics agree"));
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    GP_CHECK(access(tmp, F_OK) != 0);
    /* A tighter floor than the records' spread changes nothing (spread 0.5 %)... */
    o.floor = 0.001;
    GP_CHECK(gp_compare_run(&o, NULL).code == GP_OK);
    /* ...a changed bank count is a failed check: exit 1. */
    GP_CHECK(write_run(b, &d, 1980, 1.0, 33, 0, 0).code == GP_OK);
    gp_status st = gp_compare_run(&o, NULL);
    GP_CHECK(st.code == GP_ERR_CHECK && gp_status_exit_code(&st) == 1 && strstr(st.msg, "1 of 3"));
    GP_CHECK(read_file(out, md, sizeof md) && strstr(md, "2 of 3 characteristics agree within their spreads; 1 differ"));
    /* Bad input: exit 2. */
    o.dir_b = "/nonexistent/gp-b";
    st = gp_compare_run(&o, NULL);
    GP_CHECK(gp_status_exit_code(&st) == 2 && strstr(st.msg, "/nonexistent/gp-b"));
    o.dir_b = b;
    o.out_file = dir; /* a folder */
    st = gp_compare_run(&o, NULL);
    GP_CHECK(gp_status_exit_code(&st) == 2 && strstr(st.msg, "is a folder"));
    return 0;
}

GP_TEST(rel2_compare_missing_probe_differs_unless_narrowed)
{
    char src[1024], dir[] = "/tmp/gp_unit_rel2XXXXXX", b[300];
    GP_CHECK(gp_test_source_path(src, sizeof src, "tests/data/h200/records"));
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(b, sizeof b, "%s/b", dir);
    GP_CHECK(gp_test_copy_records(src, b, "lds.json"));
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(src, &A).code == GP_OK && gp_cmp_load_dir(b, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    GP_CHECK(res.differ == 0 && res.probes_missing == 1);
    char md[1 << 16];
    FILE *f = fmemopen(md, sizeof md, "w");
    GP_CHECK(f != NULL);
    gp_cmp_write_md(f, &res);
    fclose(f);
    GP_CHECK(strstr(md, "**1 probe in one run only**"));
    GP_CHECK(!strstr(md, dir) && strstr(md, "- Run B: `b`")); /* absolute folders by base name */
    GP_CHECK(strstr(md, "probe only in run A (a difference: the other run has no record): lds"));
    gp_cmp_result_free(&res);
    /* --only narrows: lds not named, nothing missing */
    const char *only[] = {"atomics", "cache_latency"};
    GP_CHECK(gp_cmp_runs_only(&A, &B, GP_CMP_DEFAULT_FLOOR, only, 2, &res).code == GP_OK);
    GP_CHECK(res.probes_missing == 0 && res.probes_common == 2 && res.differ == 0);
    gp_cmp_result_free(&res);
    /* --only naming the missing probe: a difference again */
    const char *only_lds[] = {"lds", "atomics"};
    GP_CHECK(gp_cmp_runs_only(&A, &B, GP_CMP_DEFAULT_FLOOR, only_lds, 2, &res).code == GP_OK);
    GP_CHECK(res.probes_missing == 1 && res.probes_common == 1);
    gp_cmp_result_free(&res);
    const char *nope[] = {"nope"};
    gp_status st = gp_cmp_runs_only(&A, &B, GP_CMP_DEFAULT_FLOOR, nope, 1, &res);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--only nope"));
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}

static gp_value point(const char *key, double x, double spread, const char *unit)
{
    gp_record r;
    gp_record_init(&r, "p", NULL);
    gp_value v = *gp_record_value(&r, key, x, unit, spread, "test");
    gp_record_free(&r);
    return v;
}

GP_TEST(rel2_compare_uses_between_launch_spread)
{
    /* l2_far_latency: 0.3 % within the run, 1.2 % between fresh launches;
     * a second run 0.9 % away agrees only through the between-launch spread. */
    gp_value a = point("l2_far_latency_cycles", 513.5, 0.003, "cycles");
    gp_value b = point("l2_far_latency_cycles", 513.5 * 1.009, 0.003, "cycles");
    gp_cmp_row row;
    gp_cmp_value("cache_latency", &a, &b, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_DIFFERS);
    double launches[5] = {510.0, 513.5, 516.1, 512.0, 514.9};
    gp_value_between(&a, launches, 5);
    GP_CHECK_NEAR(a.spread_between, (516.1 - 510.0) / 513.5, 1e-12);
    gp_cmp_value("cache_latency", &a, &b, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_SPREAD_A);
    /* ...and survives the record's JSON */
    char dir[] = "/tmp/gp_unit_rel2XXXXXX", path[300];
    GP_CHECK(mkdtemp(dir) != NULL);
    static gp_record r;
    gp_record_init(&r, "cache_latency", NULL);
    gp_value *v = gp_record_value(&r, "l2_far_latency_cycles", 513.5, "cycles", 0.003, "chase");
    gp_value_between(v, launches, 5);
    gp_value *best = gp_record_value(&r, "fp32_best_block_threads", 256, "threads", -1, "plateau");
    gp_value_range(best, 256, 768);
    GP_CHECK(gp_test_record_round_trip(&r, dir, path, sizeof path));
    const gp_value *rv = gp_record_find(&r, "l2_far_latency_cycles");
    GP_CHECK(rv && fabs(rv->spread_between - a.spread_between) < 1e-6);
    rv = gp_record_find(&r, "fp32_best_block_threads");
    GP_CHECK(rv && rv->has_range && rv->range_lo == 256 && rv->range_hi == 768);
    gp_record_free(&r);
    return 0;
}

GP_TEST(rel2_compare_ranges_agree_when_they_overlap)
{
    gp_value a = point("fp32_best_block_threads", 256, -1, "threads");
    gp_value b = point("fp32_best_block_threads", 768, -1, "threads");
    gp_cmp_row row;
    gp_cmp_value("fma_throughput", &a, &b, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_DIFFERS); /* two arg-maxes of a flat plateau */
    gp_value_range(&a, 256, 768);
    gp_value_range(&b, 512, 1024);
    gp_cmp_value("fma_throughput", &a, &b, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_AGREES && row.band_src == GP_CMP_BAND_RANGE);
    gp_value c = point("fp32_best_block_threads", 128, -1, "threads");
    gp_value_range(&c, 64, 192);
    gp_cmp_value("fma_throughput", &a, &c, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_DIFFERS);
    /* a point inside the other run's range agrees */
    gp_value d = point("fp32_best_block_threads", 512, -1, "threads");
    gp_cmp_value("fma_throughput", &a, &d, GP_CMP_DEFAULT_FLOOR, &row);
    GP_CHECK(row.verdict == GP_CMP_AGREES);
    return 0;
}

/* compare --json: one object another tool can read back. */
GP_TEST(rel3_compare_json_reads_back)
{
    char a[1024], b[1024];
    GP_CHECK(gp_test_source_path(a, sizeof a, "docs/reports/h200"));
    GP_CHECK(gp_test_source_path(b, sizeof b, "docs/reports/h200/repeat/run1"));
    gp_cmp_run A, B;
    gp_cmp_result res;
    GP_CHECK(gp_cmp_load_dir(a, &A).code == GP_OK && gp_cmp_load_dir(b, &B).code == GP_OK);
    GP_CHECK(gp_cmp_runs(&A, &B, GP_CMP_DEFAULT_FLOOR, &res).code == GP_OK);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    GP_CHECK(f != NULL);
    gp_cmp_write_json(f, &res);
    fclose(f);
    gp_json j;
    gp_status st = gp_json_parse(out, n, "compare.json", &j);
    GP_CHECK(st.code == GP_OK);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "schema_version", ""), GP_COMPARE_SCHEMA));
    const gp_json *sum = gp_json_get(&j, "summary"), *vals = gp_json_get(&j, "values");
    GP_CHECK(gp_json_num_of(sum, "differ", -1) == res.differ && gp_json_num_of(sum, "agree", -1) == res.agree);
    GP_CHECK(vals && vals->type == GP_JSON_ARR && vals->nkids == (size_t)res.nrows);
    GP_CHECK(!strcmp(gp_json_str_of(gp_json_get(&j, "run_b"), "folder", ""), "run1"));
    int differs = 0;
    for (size_t i = 0; i < vals->nkids; i++)
        differs += !strcmp(gp_json_str_of(&vals->kids[i], "verdict", ""), "differs");
    GP_CHECK(differs > 0 && differs <= res.differ);
    gp_json_free(&j);
    free(out);
    gp_cmp_result_free(&res);
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return 0;
}
