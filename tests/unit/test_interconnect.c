/* The interconnect probe's analysis (PCIe rate model, the full-bandwidth
 * size, the P2P matrices, the chase chain) and its record -> [link] table
 * mapping. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "characterize.h"
#include "gp_test.h"
#include "interconnect_analysis.h"
#include "kernel.h"
#include "record.h"

/* ---------------------------------------------------------------- PCIe rates */

GP_TEST(interconnect_pcie_rate_each_generation)
{
    /* x16, one direction, after line encoding (PCIe Base Specification rates). */
    GP_CHECK_NEAR(gp_ic_pcie_gbs(1, 16), 2.5 * 0.8 * 16 / 8, 1e-12);   /* 4.0 */
    GP_CHECK_NEAR(gp_ic_pcie_gbs(2, 16), 5.0 * 0.8 * 16 / 8, 1e-12);   /* 8.0 */
    GP_CHECK_NEAR(gp_ic_pcie_gbs(3, 16), 8.0 * 128 / 130 * 16 / 8, 1e-12);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(4, 16), 16.0 * 128 / 130 * 16 / 8, 1e-12);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(5, 16), 32.0 * 128 / 130 * 16 / 8, 1e-12);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(6, 16), 64.0 * 16 / 8, 1e-12);
    /* The figures people quote: gen3 x16 15.75, gen4 31.5, gen5 63.0 GB/s. */
    GP_CHECK_NEAR(gp_ic_pcie_gbs(3, 16), 15.754, 1e-3);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(4, 16), 31.508, 1e-3);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(5, 16), 63.015, 1e-3);
    /* Width scales linearly. */
    GP_CHECK_NEAR(gp_ic_pcie_gbs(4, 8), gp_ic_pcie_gbs(4, 16) / 2, 1e-12);
    GP_CHECK_NEAR(gp_ic_pcie_gbs(3, 1), 0.984615, 1e-6);
    /* Unknown: never a guess. */
    GP_CHECK(isnan(gp_ic_pcie_gbs(0, 16)));
    GP_CHECK(isnan(gp_ic_pcie_gbs(7, 16)));
    GP_CHECK(isnan(gp_ic_pcie_gbs(5, 0)));
    GP_CHECK(isnan(gp_ic_pcie_gts(-1)) && isnan(gp_ic_pcie_encoding(9)));
    return 0;
}

/* ---------------------------------------------------------------- full-bandwidth size */

static void sizes(double *x, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = 4096.0 * pow(4, i); /* 4 KiB .. 1 GiB at n = 10 */
}

GP_TEST(interconnect_full_bw_monotone_curve)
{
    /* A latency-plus-rate curve: bw(s) = s / (t0 + s / peak), t0 = 10 us,
     * peak 55 GB/s: 90% of the plateau needs s >= 9 t0 peak = 4.95 MB, so
     * 16 MiB is the first power-of-4 size there (4 MiB gives 88%). */
    double x[10], y[10];
    sizes(x, 10);
    for (int i = 0; i < 10; i++)
        y[i] = x[i] / (10e-6 + x[i] / 55e9) / 1e9;
    int i90 = gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC);
    GP_CHECK(i90 == 6 && x[i90] == 16777216.0);
    /* A flat curve is at full bandwidth from the smallest size. */
    for (int i = 0; i < 10; i++)
        y[i] = 50;
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == 0);
    return 0;
}

GP_TEST(interconnect_full_bw_noisy_curve)
{
    /* A small size that spikes to the level and falls back (a lucky
     * sample) does not count; a dip after the knee moves the answer past it. */
    double x[10], y[10] = {2, 50, 8, 20, 40, 49, 51, 50, 52, 51};
    sizes(x, 10);
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == 5);
    y[7] = 40; /* below 90% of 51 */
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == 8);
    return 0;
}

GP_TEST(interconnect_full_bw_never_reached)
{
    /* Still rising at the largest size (the rate doubles with each 4x in
     * size): only the last point reaches 90% of itself, which is no plateau. */
    double x[10], y[10];
    sizes(x, 10);
    for (int i = 0; i < 10; i++)
        y[i] = pow(2, i);
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == -1);
    /* No positive peak, or too few sizes. */
    y[9] = 0;
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == -1);
    y[9] = NAN;
    GP_CHECK(gp_ic_full_bw_index(x, y, 10, GP_IC_FULL_BW_FRAC) == -1);
    GP_CHECK(gp_ic_full_bw_index(x, y, 1, GP_IC_FULL_BW_FRAC) == -1);
    return 0;
}

/* ---------------------------------------------------------------- P2P matrices */

GP_TEST(interconnect_nvlink_rate_by_arch)
{
    /* H100/H200: 18 links x 25 GB/s = 450 GB/s per direction, half of the
     * 900 GB/s NVIDIA quotes for both directions. */
    GP_CHECK(18 * gp_ic_nvlink_link_gbs("sm_90") == 450);
    GP_CHECK(12 * gp_ic_nvlink_link_gbs("sm_80") == 300);
    GP_CHECK(gp_ic_nvlink_link_gbs("sm_100") == 50 && gp_ic_nvlink_link_gbs("sm_60") == 20);
    /* Not fixed by the architecture, or not NVIDIA: no rate. */
    GP_CHECK(isnan(gp_ic_nvlink_link_gbs("sm_86")));
    GP_CHECK(isnan(gp_ic_nvlink_link_gbs("gfx90a")));
    GP_CHECK(isnan(gp_ic_nvlink_link_gbs("")) && isnan(gp_ic_nvlink_link_gbs(NULL)));
    GP_CHECK(isnan(gp_ic_nvlink_link_gbs("sm_9")));
    return 0;
}

GP_TEST(interconnect_matrix_one_gpu)
{
    static gp_ic_matrix m;
    GP_CHECK(gp_ic_matrix_init(&m, 1));
    GP_CHECK(!gp_ic_matrix_set(&m, 0, 0, 5)); /* the diagonal is no pair */
    GP_CHECK(!gp_ic_matrix_set(&m, 0, 1, 5)); /* out of range */
    gp_ic_summary s;
    GP_CHECK(gp_ic_matrix_summarize(&m, &s) == 0 && isnan(s.min) && s.min_src == -1);
    char row[128];
    GP_CHECK(gp_ic_matrix_row(&m, 0, 1, row, sizeof row) > 0 && !strcmp(row, "| GPU 0 -> | - |"));
    GP_CHECK(gp_ic_matrix_row(&m, 1, 1, row, sizeof row) == 0);
    GP_CHECK(!strcmp(gp_ic_p2p_reason(1), "one GPU visible"));
    GP_CHECK(!strcmp(gp_ic_p2p_reason(0), "no GPU visible"));
    GP_CHECK(gp_ic_p2p_reason(2) == NULL);
    GP_CHECK(!gp_ic_matrix_init(&m, 0) && m.n == 0);
    GP_CHECK(!gp_ic_matrix_init(&m, GP_IC_MAX_GPUS + 1));
    return 0;
}

GP_TEST(interconnect_matrix_two_gpus)
{
    static gp_ic_matrix m;
    GP_CHECK(gp_ic_matrix_init(&m, 2));
    GP_CHECK(gp_ic_matrix_set(&m, 0, 1, 370.25) && gp_ic_matrix_set(&m, 1, 0, 368.5));
    gp_ic_summary s;
    GP_CHECK(gp_ic_matrix_summarize(&m, &s) == 2);
    GP_CHECK(s.min == 368.5 && s.min_src == 1 && s.min_dst == 0);
    GP_CHECK(s.max == 370.25 && s.max_src == 0 && s.max_dst == 1);
    GP_CHECK_NEAR(s.median, 369.375, 1e-9);
    char buf[256];
    GP_CHECK(gp_ic_matrix_header(&m, buf, sizeof buf) > 0);
    GP_CHECK(!strcmp(buf, "| from \\ to | GPU 0 | GPU 1 |\n| --- | --- | --- |"));
    GP_CHECK(gp_ic_matrix_row(&m, 0, 1, buf, sizeof buf) > 0 && !strcmp(buf, "| GPU 0 -> | - | 370.2 |"));
    GP_CHECK(gp_ic_matrix_row(&m, 1, 2, buf, sizeof buf) > 0 && !strcmp(buf, "| GPU 1 -> | 368.50 | - |"));
    /* Too short a buffer: nothing, never a cut row. */
    GP_CHECK(gp_ic_matrix_row(&m, 0, 1, buf, 12) == 0);
    GP_CHECK(gp_ic_matrix_header(&m, buf, 20) == 0);
    return 0;
}

GP_TEST(interconnect_matrix_four_gpus_with_gaps)
{
    /* Four GPUs, two NVLink pairs (0-1, 2-3) fast, the rest over PCIe, and
     * one pair without peer access (3 -> 0 not measured). */
    static gp_ic_matrix m;
    GP_CHECK(gp_ic_matrix_init(&m, 4));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j)
                GP_CHECK(gp_ic_matrix_set(&m, i, j, (i / 2 == j / 2) ? 300 + i : 25 + j));
    GP_CHECK(gp_ic_matrix_set(&m, 3, 0, NAN));
    gp_ic_summary s;
    GP_CHECK(gp_ic_matrix_summarize(&m, &s) == 11);
    /* 2 -> 0 over PCIe is the slowest pair, 3 -> 2 over NVLink the fastest. */
    GP_CHECK(s.min == 25 && s.min_src == 2 && s.min_dst == 0);
    GP_CHECK(s.max == 303 && s.max_src == 3 && s.max_dst == 2);
    /* Sorted: 25 26 26 27 27 28 28 300 301 302 303 (3 -> 0 left out). */
    GP_CHECK(s.median == 28);
    char buf[256];
    GP_CHECK(gp_ic_matrix_row(&m, 3, 0, buf, sizeof buf) > 0 && !strcmp(buf, "| GPU 3 -> | n/a | 26 | 303 | - |"));
    GP_CHECK(gp_ic_matrix_header(&m, buf, sizeof buf) > 0 && strstr(buf, "| GPU 3 |\n| --- | --- | --- | --- | --- |"));
    return 0;
}

/* ---------------------------------------------------------------- chase chain */

GP_TEST(interconnect_chase_chain_is_one_cycle)
{
    enum { NODES = 257, STRIDE = 16 };
    static unsigned next[NODES * STRIDE];
    static char seen[NODES];
    GP_CHECK(gp_ic_chain_build(next, NODES, STRIDE, 7));
    unsigned j = 0;
    for (int s = 0; s < NODES; s++) {
        GP_CHECK(j % STRIDE == 0 && j / STRIDE < NODES);
        GP_CHECK(!seen[j / STRIDE]); /* no node twice before the cycle closes */
        seen[j / STRIDE] = 1;
        j = next[j];
    }
    GP_CHECK(j == 0); /* back at the start after exactly NODES links */
    /* Not sequential: a prefetcher must not see a stride. */
    int sequential = 0;
    for (int k = 0; k < NODES; k++)
        sequential += next[k * STRIDE] == (unsigned)(((k + 1) % NODES) * STRIDE);
    GP_CHECK(sequential < NODES / 8);
    GP_CHECK(!gp_ic_chain_build(next, 1, STRIDE, 7) && !gp_ic_chain_build(next, NODES, 0, 7));
    return 0;
}

/* ---------------------------------------------------------------- record -> table */

static int copy_records(const char *src, const char *dst)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp '%s'/*.json '%s'/ 2>/dev/null", src, dst);
    return system(cmd) == 0;
}

static gp_status rules(const gp_table *facts, gp_table *out) { return gp_kernel_rules_apply(facts, 0, out); }

GP_TEST(interconnect_record_to_link_table)
{
    char rec[512], tables[512], dir[] = "/tmp/gp_link_XXXXXX";
    GP_CHECK(gp_test_source_path(rec, sizeof rec, "tests/data/h200/records"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(copy_records(rec, dir));
    /* Without an interconnect record the table has no [link] keys. */
    static gp_table t;
    GP_CHECK(gp_characterize_table(dir, tables, rules, &t, NULL, 0, NULL).code == GP_OK);
    GP_CHECK(!gp_table_find(&t, "link", "h2d_pinned_gbs") || !gp_table_find(&t, "link", "h2d_pinned_gbs")->present);
    /* A one-GPU record: measured host link, P2P not detected. */
    static gp_record r;
    gp_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "NVIDIA H200");
    snprintf(dev.arch, sizeof dev.arch, "sm_90");
    snprintf(dev.vendor, sizeof dev.vendor, "NVIDIA");
    gp_record_init(&r, "interconnect", &dev);
    snprintf(r.date, sizeof r.date, "2026-11-24");
    snprintf(r.check, sizeof r.check, "ok");
    gp_record_value(&r, "h2d_pinned_gbs", 55.3, "GB/s", 0.01, "test");
    gp_record_value(&r, "d2h_pinned_gbs", 55.9, "GB/s", 0.01, "test");
    gp_record_value(&r, "pageable_pinned_ratio", 0.41, "fraction", -1, "test");
    gp_record_value(&r, "min_transfer_bytes_full_bw", 4194304.4, "bytes", -1, "test");
    gp_record_value(&r, "h2d_latency_4b_us", 2.1, "us", 0.05, "test");
    gp_record_value(&r, "link_gbs", gp_ic_pcie_gbs(5, 16), "GB/s", -1, "test");
    gp_record_none(&r, "p2p_ce_gbs_min", "GB/s", "one GPU visible");
    gp_record_none(&r, "p2p_ce_bidir_gbs_min", "GB/s", "one GPU visible");
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    gp_record_free(&r);
    static gp_table u;
    gp_status st = gp_characterize_table(dir, tables, rules, &u, NULL, 0, NULL);
    if (st.code)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    double d;
    long long b;
    GP_CHECK(gp_table_get_double(&u, "link", "h2d_pinned_gbs", &d).code == GP_OK && d == 55.3);
    GP_CHECK(gp_table_get_double(&u, "link", "d2h_pinned_gbs", &d).code == GP_OK && d == 55.9);
    GP_CHECK(gp_table_get_double(&u, "link", "pageable_pinned_ratio", &d).code == GP_OK && d == 0.41);
    GP_CHECK(gp_table_get_int(&u, "link", "min_transfer_bytes_full_bw", &b).code == GP_OK && b == 4194304);
    GP_CHECK(gp_table_get_double(&u, "link", "h2d_latency_us", &d).code == GP_OK && d == 2.1);
    GP_CHECK(gp_table_get_double(&u, "link", "pcie_gbs", &d).code == GP_OK && fabs(d - 63.015) < 1e-3);
    const gp_table_entry *e = gp_table_find(&u, "link", "h2d_pinned_gbs");
    GP_CHECK(e && strstr(e->prov, "measured interconnect 2026-11-24"));
    e = gp_table_find(&u, "link", "p2p_gbs");
    GP_CHECK(e && e->present && e->is_none && strstr(e->prov, "one GPU visible"));
    e = gp_table_find(&u, "link", "p2p_bidir_gbs");
    GP_CHECK(e && e->present && e->is_none);
    /* The table with [link] writes and reads back (table check accepts it). */
    char path[1100];
    snprintf(path, sizeof path, "%s/table.txt", dir);
    GP_CHECK(gp_table_write(&u, path).code == GP_OK);
    static gp_table back;
    GP_CHECK(gp_table_load(path, &back).code == GP_OK);
    GP_CHECK(gp_table_equal(&u, &back));
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    GP_CHECK(system(cmd) == 0);
    return 0;
}
