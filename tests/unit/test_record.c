#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "fsutil.h"
#include "gp_test.h"
#include "record.h"

GP_TEST(clock_mhz_arithmetic)
{
    /* 1.98e6 cycles over 1 ms of a 1 GHz (ns) timer = 1980 MHz. */
    GP_CHECK_NEAR(gp_clock_mhz(1980000, 1000000, 1e9), 1980.0, 1e-9);
    /* 100 MHz timer (AMD s_memrealtime): 1536 cycles per 100 ticks = 1536 MHz. */
    GP_CHECK_NEAR(gp_clock_mhz(1536000, 100000, 100e6), 1536.0, 1e-9);
    GP_CHECK(gp_clock_mhz(1000, 0, 1e9) == 0.0);
    GP_CHECK(gp_clock_mhz(1000, 10, 0) == 0.0);
    return 0;
}

GP_TEST(clock_moved_detection)
{
    gp_clock_reading a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.measured_mhz = 1980;
    b.measured_mhz = 1970;
    GP_CHECK(!gp_clock_moved(&a, &b, 0.02));
    b.measured_mhz = 1600;
    GP_CHECK(gp_clock_moved(&a, &b, 0.02));
    GP_CHECK_NEAR(gp_clock_rel_change(2000, 1500), 0.25, 1e-12);
    GP_CHECK(gp_clock_rel_change(0, 5) == 0.0);
    return 0;
}

static gp_record *new_record(void)
{
    gp_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "Test GPU");
    snprintf(dev.arch, sizeof dev.arch, "sm_90");
    dev.compute_units = 132;
    gp_record *r = malloc(sizeof *r);
    gp_record_init(r, "unit_probe", &dev);
    return r;
}

GP_TEST(record_values_and_none)
{
    gp_record *r = new_record();
    GP_CHECK(gp_record_value(r, "peak", 64.0, "threads/cycle", 0.01, "median") != NULL);
    GP_CHECK(gp_record_none(r, "knee", "threads", "curve is flat") != NULL);
    const gp_value *v = gp_record_find(r, "peak");
    GP_CHECK(v && v->detected && v->value == 64.0 && !strcmp(v->unit, "threads/cycle"));
    v = gp_record_find(r, "knee");
    GP_CHECK(v && !v->detected && strstr(v->note, "flat"));
    GP_CHECK(gp_record_find(r, "missing") == NULL);
    /* A NaN value is never reported as detected. */
    v = gp_record_value(r, "nan", NAN, "", -1, "");
    GP_CHECK(v && !v->detected);
    gp_record_free(r);
    free(r);
    return 0;
}

GP_TEST(record_series_grows)
{
    gp_record *r = new_record();
    gp_series *s = gp_record_series(r, "curve", "x,y,z");
    GP_CHECK(s && s->ncols == 3 && !strcmp(s->cols[2], "z"));
    for (int i = 0; i < 1000; i++) {
        double row[3] = {i, 2.0 * i, -i};
        GP_CHECK(gp_series_append(s, row).code == GP_OK);
    }
    GP_CHECK(s->nrows == 1000);
    GP_CHECK(s->data[999 * 3 + 1] == 1998.0);
    gp_record_free(r);
    free(r);
    return 0;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f)
        return -1;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

GP_TEST(record_write_files)
{
    char dir[] = "/tmp/gp_unit_recXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char out[256];
    snprintf(out, sizeof out, "%s/nested/out", dir);
    gp_record *r = new_record();
    gp_record_value(r, "peak", 1.5, "x", 0.02, "method \"quoted\"");
    gp_series *s = gp_record_series(r, "curve", "a,b");
    double row[2] = {1, 2};
    gp_series_append(s, row);
    gp_series_append(s, row);
    gp_record_note(r, "a finding with %d", 42);
    GP_CHECK(gp_record_write(r, out).code == GP_OK);
    char p[512];
    snprintf(p, sizeof p, "%s/unit_probe.json", out);
    GP_CHECK(file_size(p) > 100);
    FILE *f = fopen(p, "r");
    char buf[8192] = {0};
    GP_CHECK(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    GP_CHECK(strstr(buf, "\"probe\": \"unit_probe\""));
    GP_CHECK(strstr(buf, "method \\\"quoted\\\"")); /* escaped */
    GP_CHECK(strstr(buf, "unit_probe_curve.csv"));
    snprintf(p, sizeof p, "%s/unit_probe_curve.csv", out);
    GP_CHECK(count_lines(p) == 3); /* header + 2 rows */
    snprintf(p, sizeof p, "%s/unit_probe.md", out);
    GP_CHECK(file_size(p) > 50);
    snprintf(p, sizeof p, "%s/unit_probe.json.tmp", out);
    GP_CHECK(file_size(p) < 0); /* no temporary left behind */
    gp_record_free(r);
    free(r);
    return 0;
}

GP_TEST(fs_mkdirs_nested_and_on_file)
{
    char dir[] = "/tmp/gp_unit_fsXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char p[256];
    snprintf(p, sizeof p, "%s/a/b/c", dir);
    GP_CHECK(gp_fs_mkdirs(p).code == GP_OK);
    GP_CHECK(gp_fs_mkdirs(p).code == GP_OK); /* idempotent */
    snprintf(p, sizeof p, "%s/file", dir);
    FILE *f = fopen(p, "w");
    GP_CHECK(f);
    fclose(f);
    gp_status st = gp_fs_mkdirs(p);
    GP_CHECK(st.code == GP_ERR_IO && strstr(st.msg, "not a directory"));
    snprintf(p, sizeof p, "%s/file/sub", dir);
    GP_CHECK(gp_fs_mkdirs(p).code == GP_ERR_IO);
    return 0;
}
