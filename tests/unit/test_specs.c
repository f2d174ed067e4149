#define _POSIX_C_SOURCE 200809L
/* The vendors' published figures (specs/, pipeline/specs.c): every shipped
 * file parses with a source for each figure, a device name finds its
 * product (whole words: an MI250X is not an MI25), bad files are refused
 * naming file and line, and the datasheet's verdict follows the band. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datasheet.h"
#include "gp_test.h"
#include "specs.h"

GP_TEST(specs_shipped_files_parse_and_match_their_devices)
{
    char dir[1024];
    GP_CHECK(gp_test_source_path(dir, sizeof dir, "specs"));
    static const struct {
        const char *device, *file;
    } want[] = {
        {"NVIDIA H200", "nvidia-h200.txt"},
        {"NVIDIA H100 80GB HBM3", "nvidia-h100-sxm.txt"},
        {"NVIDIA H100 PCIe", "nvidia-h100-pcie.txt"},
        {"NVIDIA A100-SXM4-40GB", "nvidia-a100-40gb.txt"},
        {"NVIDIA A100-SXM4-80GB", "nvidia-a100-80gb-sxm.txt"},
        {"NVIDIA A100 80GB PCIe", "nvidia-a100-80gb-pcie.txt"},
        {"Radeon Instinct MI25", "amd-mi25.txt"},
        {"AMD Instinct MI210", "amd-mi210.txt"},
        {"AMD Instinct MI250X", "amd-mi250x.txt"},
        {"AMD Instinct MI300X", "amd-mi300x.txt"},
        {"NVIDIA GeForce RTX 4090", NULL},
        {"NVIDIA H2000", NULL},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_spec s;
        int found = -1;
        gp_status st = gp_spec_find(dir, want[i].device, &s, &found);
        if (st.code != GP_OK)
            fprintf(stderr, "%s\n", st.msg);
        GP_CHECK(st.code == GP_OK && found == (want[i].file != NULL));
        if (!want[i].file)
            continue;
        if (strcmp(s.file, want[i].file))
            fprintf(stderr, "%s: found %s, want %s\n", want[i].device, s.file, want[i].file);
        GP_CHECK(!strcmp(s.file, want[i].file) && s.name[0]);
        /* Every shipped file gives every figure up to the L2, each with its
         * source; a matrix peak only where the product has that input
         * precision (no MI25 matrix unit, no fp32 tensor-core input), and
         * then with its source too. */
        for (int f = 0; f <= GP_SPEC_L2_BYTES; f++)
            GP_CHECK(s.v[f] > 0 && strlen(s.src[f]) > 10);
        for (int f = GP_SPEC_L2_BYTES + 1; f < GP_SPEC_NFIGURES; f++)
            GP_CHECK(s.v[f] == 0 || strlen(s.src[f]) > 10);
        /* fp32 is never above fp64 x 64 nor below fp64, in FLOP/s, and the
         * clock x CUs x lanes accounts for the fp32 peak within 5 %. */
        const double fp32 = gp_spec_value(&s, GP_SPEC_FP32_TFLOPS), fp64 = gp_spec_value(&s, GP_SPEC_FP64_TFLOPS);
        GP_CHECK(fp32 >= fp64 && fp32 <= 64 * fp64);
        const double lanes = fp32 / (2e6 * s.v[GP_SPEC_CLOCK_MHZ] * s.v[GP_SPEC_COMPUTE_UNITS]);
        if (fabs(lanes - 64) > 3.2 && fabs(lanes - 128) > 6.4)
            fprintf(stderr, "%s: %.1f FP32 lanes a CU\n", s.file, lanes);
        GP_CHECK(fabs(lanes - 64) <= 3.2 || fabs(lanes - 128) <= 6.4);
    }
    /* The MI300X's figure counts packed FP32: one FMA a lane is half. */
    gp_spec s;
    int found = 0;
    GP_CHECK(gp_spec_find(dir, "AMD Instinct MI300X", &s, &found).code == GP_OK && found && s.fp32_packed);
    GP_CHECK(fabs(gp_spec_value(&s, GP_SPEC_FP32_TFLOPS) - 81.7e12) < 1e10);
    GP_CHECK(gp_spec_matches("AMD Instinct MI250X", "MI250X") && !gp_spec_matches("AMD Instinct MI250X", "MI25"));
    GP_CHECK(gp_spec_find("/nonexistent/specs", "NVIDIA H200", &s, &found).code == GP_OK && !found);
    return 0;
}

GP_TEST(specs_bad_files_refused_with_file_and_line)
{
    char dir[] = "/tmp/gp_specs_XXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"name = X\nmatch = X\ndram_gbs = 100\n", "without its source"},
        {"name = X\nmatch = X\ndram_gbps = 100 # s\n", "unknown key"},
        {"name = X\nmatch = X\ndram_gbs = -5 # s\n", "positive"},
        {"name = X\nmatch = X\ndram_gbs = 5e # s\n", "not a number"},
        {"name = X\ndram_gbs = 5 # s\n", "no `match"},
        {"match = X\ndram_gbs = 5 # s\n", "no `name"},
        {"name = X\nmatch = X\ndram_gbs = 5 # s\ndram_gbs = 6 # t\n", "given twice"},
        {"name = X\nmatch = X\nfp32_packed = 2\n", "0 or 1"},
        {"name = X\nmatch = X\njust words\n", "not `key = value"},
    };
    char path[1100];
    snprintf(path, sizeof path, "%s/a.txt", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        GP_CHECK(gp_test_write_text(path, bad[i].text));
        gp_spec s;
        gp_status st = gp_spec_load(path, &s);
        if (st.code != GP_ERR_USAGE || !strstr(st.msg, bad[i].want) || !strstr(st.msg, "a.txt:"))
            fprintf(stderr, "case %zu: %s\n", i, st.msg);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, bad[i].want) && strstr(st.msg, "a.txt:"));
        /* The folder lookup names the bad file too. */
        int found = 0;
        st = gp_spec_find(dir, "X", &s, &found);
        GP_CHECK(st.code == GP_ERR_USAGE && !found);
    }
    GP_CHECK(gp_test_write_text(path, "# a comment\nname = Y\nmatch = Y GPU\n\nl2_bytes = 1024 # the vendor\n"));
    gp_spec s;
    int found = 0;
    GP_CHECK(gp_spec_find(dir, "Vendor Y GPU 2", &s, &found).code == GP_OK && found);
    GP_CHECK(s.v[GP_SPEC_L2_BYTES] == 1024 && !strcmp(s.src[GP_SPEC_L2_BYTES], "the vendor"));
    GP_CHECK(gp_spec_value(&s, GP_SPEC_DRAM_GBS) == 0);
    unlink(path);
    rmdir(dir);
    return 0;
}

/* The verdict: within the band, low, high; a missing measurement or a
 * figure the spec lacks says so (H200 figures of 2026-11-21). */
GP_TEST(specs_datasheet_verdicts)
{
    gp_spec s;
    memset(&s, 0, sizeof s);
    snprintf(s.name, sizeof s.name, "Test GPU"), snprintf(s.file, sizeof s.file, "test.txt");
    s.v[GP_SPEC_DRAM_GBS] = 4800, s.v[GP_SPEC_L2_BYTES] = 52428800, s.v[GP_SPEC_FP64_TFLOPS] = 34;
    s.v[GP_SPEC_COMPUTE_UNITS] = 132;
    for (int f = 0; f < GP_SPEC_NFIGURES; f++)
        snprintf(s.src[f], sizeof s.src[f], "source %d", f);
    static gp_datasheet ds;
    memset(&ds, 0, sizeof ds);
    const struct {
        const char *key;
        double num, lo, hi;
        int missing;
        const char *verdict;
    } rows[] = {
        {"dram_gbs", 4341.6e9, 0.85, 0, 0, "within"},   {"l2_bytes", 62886494, 0.9, 1.1, 0, "high"},
        {"fp64_tflops", 30.7e12, 0.95, 0, 0, "low"},    {"compute_units", 132, 1, 1, 0, "within"},
        {"compute_units", 131, 1, 1, 0, "low"},         {"dram_gbs", NAN, 0.85, 0, 1, "not measured"},
        {"fp32_tflops", 60e12, 0.95, 0, 0, NULL},       {NULL, 1, 0, 0, 0, NULL},
    };
    ds.nrows = (int)(sizeof rows / sizeof rows[0]);
    for (int i = 0; i < ds.nrows; i++) {
        ds.rows[i].spec_key = rows[i].key, ds.rows[i].num = rows[i].num, ds.rows[i].missing = rows[i].missing;
        ds.rows[i].band_lo = rows[i].lo, ds.rows[i].band_hi = rows[i].hi;
    }
    gp_datasheet_judge(&ds, &s);
    for (int i = 0; i < ds.nrows; i++) {
        const gp_ds_row *r = &ds.rows[i];
        if (!rows[i].verdict) {
            GP_CHECK(r->verdict == NULL && !r->vendor[0] && isnan(r->fraction));
            continue;
        }
        if (!r->verdict || strcmp(r->verdict, rows[i].verdict))
            fprintf(stderr, "row %d: %s, want %s\n", i, r->verdict ? r->verdict : "none", rows[i].verdict);
        GP_CHECK(r->verdict && !strcmp(r->verdict, rows[i].verdict) && strstr(r->vendor, "source"));
    }
    GP_CHECK(fabs(ds.rows[0].fraction - 0.9045) < 1e-3 && !strcmp(ds.rows[0].band, ">= 0.85"));
    GP_CHECK(!strcmp(ds.rows[1].band, "0.90-1.10") && !strcmp(ds.rows[3].band, "= 1"));
    GP_CHECK(!strcmp(ds.spec_name, "Test GPU") && !strcmp(ds.spec_file, "test.txt"));
    /* No spec: no vendor column. */
    gp_datasheet_judge(&ds, NULL);
    GP_CHECK(!ds.spec_name[0] && !ds.rows[0].vendor[0] && ds.rows[0].verdict == NULL);
    return 0;
}
