/* Reliability on the host: tables for another arch are refused, records are
 * written so that an interrupted run loses nothing, a characterization
 * resumes only from records that are valid for this device and version, and
 * results measured on a noisy machine are flagged in records and the report. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "gp_test.h"
#include "record.h"
#include "report.h"
#include "resume.h"
#include "table.h"

#define VER "9.8.7"

static void test_dev(gp_device_info *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "NVIDIA H200");
    snprintf(d->vendor, sizeof d->vendor, "NVIDIA");
    snprintf(d->arch, sizeof d->arch, "sm_90");
    snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "0000:3b:00.0");
    d->compute_units = 132;
    d->wave_size = 32;
}

/* A complete record as gp_probe_execute writes it: clocks, a value, a
 * series of `rows` rows, this version, the check's outcome. */
static gp_record *make_record(const char *probe, const gp_device_info *d, const char *check, int rows)
{
    gp_record *r = calloc(1, sizeof *r);
    gp_record_init(r, probe, d);
    snprintf(r->version, sizeof r->version, "%s", VER);
    snprintf(r->check, sizeof r->check, "%s", check);
    r->have_clock = 1;
    r->clock_before.measured_mhz = r->clock_after.measured_mhz = 1980;
    r->clock_before.smi.other_processes = r->clock_after.smi.other_processes = 0;
    gp_record_value(r, "latency_cycles", 30, "cycles", 0.01, "unit test");
    gp_series *s = gp_record_series(r, "curve", "x,y");
    for (int i = 0; i < rows; i++) {
        double row[2] = {i, 2.0 * i};
        gp_series_append(s, row);
    }
    return r;
}

static int write_record(const char *dir, const char *probe, const gp_device_info *d, const char *check)
{
    gp_record *r = make_record(probe, d, check, 5);
    int ok = gp_record_write(r, dir).code == GP_OK;
    gp_record_free(r);
    free(r);
    return ok;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    if (buf)
        buf[fread(buf, 1, (1 << 20) - 1, f)] = '\0';
    fclose(f);
    return buf;
}

GP_TEST(rel_table_load_arch_rejects_other_arch)
{
    char path[1024];
    gp_table *t = malloc(sizeof *t);
    GP_CHECK(t && gp_test_source_path(path, sizeof path, "tables/gfx900"));
    /* The table is valid, and right for its own arch ... */
    GP_CHECK(gp_table_load_arch(path, "gfx900", t).code == GP_OK);
    /* ... but a GPU of another arch gets exit code 2 and a message naming both. */
    gp_status st = gp_table_load_arch(path, "sm_90", t);
    GP_CHECK(st.code == GP_ERR_USAGE && gp_status_exit_code(&st) == 2);
    GP_CHECK(strstr(st.msg, "gfx900") && strstr(st.msg, "sm_90") && strstr(st.msg, "tables/gfx900"));
    /* The generic table is for arch "generic" only: lookup falls back to it, load_arch does not. */
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/generic"));
    GP_CHECK(gp_table_load_arch(path, "sm_90", t).code == GP_ERR_USAGE);
    free(t);
    return 0;
}

GP_TEST(rel_table_lookup_rejects_measured_table_of_other_arch)
{
    /* A results dir whose table.txt was measured on a gfx900 is no table for
     * an sm_90: an error, not a silent fall-through to the shipped one. */
    char dir[] = "/tmp/gp_rel_lookupXXXXXX", src[1024], tables[1024], dst[1200];
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(gp_test_source_path(src, sizeof src, "tables/gfx900"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    char *text = read_all(src);
    GP_CHECK(text);
    snprintf(dst, sizeof dst, "%s/table.txt", dir);
    GP_CHECK(gp_test_write_text(dst, text));
    free(text);
    gp_table *t = malloc(sizeof *t);
    gp_status st = gp_table_lookup(dir, tables, "sm_90", t, NULL, 0);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "gfx900") && strstr(st.msg, "table.txt"));
    /* Without the bad measured table the shipped sm_90 one is found. */
    unlink(dst);
    char chosen[GP_TABLE_PATH_LEN];
    GP_CHECK(gp_table_lookup(dir, tables, "sm_90", t, chosen, sizeof chosen).code == GP_OK);
    GP_CHECK(strstr(chosen, "sm_90"));
    /* A missing tables folder is an I/O error (exit 2) naming it. */
    st = gp_table_lookup(NULL, "/nonexistent-gp-tables", "sm_90", t, NULL, 0);
    GP_CHECK(gp_status_exit_code(&st) == 2 && strstr(st.msg, "/nonexistent-gp-tables"));
    free(t);
    rmdir(dir);
    return 0;
}

GP_TEST(rel_fs_check_writable)
{
    char dir[] = "/tmp/gp_rel_wXXXXXX", p[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(p, sizeof p, "%s/new/out", dir);
    GP_CHECK(gp_fs_check_writable(p).code == GP_OK);
    /* The folders it made to try are gone again: a run that stops before
     * its first record (no GPU) leaves no empty --out behind. */
    GP_CHECK(!gp_fs_exists(p) && gp_fs_is_dir(dir));
    snprintf(p, sizeof p, "%s/new", dir);
    GP_CHECK(!gp_fs_exists(p));
    /* An existing folder stays. */
    GP_CHECK(gp_fs_check_writable(dir).code == GP_OK && gp_fs_is_dir(dir));
    /* /proc refuses new directories even to root. */
    gp_status st = gp_fs_check_writable("/proc/gp-forbidden");
    GP_CHECK(st.code == GP_ERR_IO && gp_status_exit_code(&st) == 2 && strstr(st.msg, "/proc/gp-forbidden"));
    snprintf(p, sizeof p, "%s/file", dir);
    GP_CHECK(gp_test_write_text(p, "x"));
    st = gp_fs_check_writable(p);
    GP_CHECK(st.code == GP_ERR_IO && strstr(st.msg, "not a directory"));
    return 0;
}

GP_TEST(rel_record_json_written_last)
{
    /* When a series cannot be written the record's JSON must not appear:
     * readers take the JSON as the sign that the whole record is there. */
    char dir[] = "/tmp/gp_rel_lastXXXXXX", p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(p, sizeof p, "%s/blocked_curve.csv", dir);
    GP_CHECK(mkdir(p, 0700) == 0); /* the rename onto a directory fails */
    gp_device_info d;
    test_dev(&d);
    GP_CHECK(!write_record(dir, "blocked", &d, "ok"));
    snprintf(p, sizeof p, "%s/blocked.json", dir);
    GP_CHECK(!gp_fs_exists(p));
    snprintf(p, sizeof p, "%s/blocked_curve.csv.tmp", dir);
    GP_CHECK(!gp_fs_exists(p)); /* a failed commit removes its temporary */
    /* An earlier complete record survives a failed rewrite untouched. */
    GP_CHECK(write_record(dir, "fine", &d, "ok"));
    snprintf(p, sizeof p, "%s/fine.json", dir);
    char *before = read_all(p);
    char blocker[512];
    snprintf(blocker, sizeof blocker, "%s/fine_curve.csv", dir);
    GP_CHECK(unlink(blocker) == 0 && mkdir(blocker, 0700) == 0);
    GP_CHECK(!write_record(dir, "fine", &d, "failed: other"));
    char *after = read_all(p);
    GP_CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);
    return 0;
}

GP_TEST(rel_record_has_resume_identity)
{
    char dir[] = "/tmp/gp_rel_idXXXXXX", p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    test_dev(&d);
    GP_CHECK(write_record(dir, "idp", &d, "ok"));
    snprintf(p, sizeof p, "%s/idp.json", dir);
    char *text = read_all(p);
    GP_CHECK(text);
    GP_CHECK(strstr(text, "\"gpuprobe_version\": \"" VER "\""));
    GP_CHECK(strstr(text, "\"pci_bus_id\": \"0000:3b:00.0\""));
    GP_CHECK(strstr(text, "\"check\": \"ok\""));
    GP_CHECK(strstr(text, "\"noise\": {\"flagged\": false, \"clock_moved\": false, \"other_processes\": 0}"));
    free(text);
    return 0;
}

GP_TEST(rel_resume_reuses_valid_record)
{
    char dir[] = "/tmp/gp_rel_okXXXXXX", why[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    test_dev(&d);
    GP_CHECK(write_record(dir, "lds", &d, "ok"));
    GP_CHECK(gp_resume_reusable(dir, "lds", &d, VER, 0, why, sizeof why) == 1);
    return 0;
}

GP_TEST(rel_resume_refuses_other_device_or_version)
{
    char dir[] = "/tmp/gp_rel_devXXXXXX", why[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d, other;
    test_dev(&d);
    GP_CHECK(write_record(dir, "lds", &d, "ok"));
    other = d; /* a second H200 in the same host: same name, other bus */
    snprintf(other.pci_bus_id, sizeof other.pci_bus_id, "0000:5d:00.0");
    GP_CHECK(gp_resume_reusable(dir, "lds", &other, VER, 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "measured on") && strstr(why, "0000:3b:00.0") && strstr(why, "0000:5d:00.0"));
    other = d;
    snprintf(other.name, sizeof other.name, "NVIDIA H100 80GB HBM3");
    GP_CHECK(gp_resume_reusable(dir, "lds", &other, VER, 0, why, sizeof why) == 0 && strstr(why, "H100"));
    other = d;
    snprintf(other.arch, sizeof other.arch, "sm_80");
    GP_CHECK(gp_resume_reusable(dir, "lds", &other, VER, 0, why, sizeof why) == 0 && strstr(why, "sm_80"));
    GP_CHECK(gp_resume_reusable(dir, "lds", &d, "9.9.9", 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "written by gpuprobe " VER) && strstr(why, "9.9.9"));
    /* A full sweep does not stand for a --quick one, nor the reverse. */
    GP_CHECK(gp_resume_reusable(dir, "lds", &d, VER, 1, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "measured without --quick, this run is --quick"));
    return 0;
}

GP_TEST(rel_resume_refuses_failed_check_and_broken_files)
{
    char dir[] = "/tmp/gp_rel_badXXXXXX", why[512], p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    test_dev(&d);
    /* The probe's check failed last time: run it again. */
    GP_CHECK(write_record(dir, "failed", &d, "failed: banks 7 is not a power of two"));
    GP_CHECK(gp_resume_reusable(dir, "failed", &d, VER, 0, why, sizeof why) == 0 && strstr(why, "banks 7"));
    /* Never written. */
    GP_CHECK(gp_resume_reusable(dir, "absent", &d, VER, 0, why, sizeof why) == 0 && !strcmp(why, "no record"));
    /* A JSON cut short (not something our writer leaves, but a disk can). */
    GP_CHECK(write_record(dir, "torn", &d, "ok"));
    snprintf(p, sizeof p, "%s/torn.json", dir);
    GP_CHECK(truncate(p, 200) == 0);
    GP_CHECK(gp_resume_reusable(dir, "torn", &d, VER, 0, why, sizeof why) == 0 && strstr(why, "does not parse"));
    GP_CHECK(strstr(why, "torn.json"));
    /* A series file gone, or short of rows. */
    GP_CHECK(write_record(dir, "noseries", &d, "ok"));
    snprintf(p, sizeof p, "%s/noseries_curve.csv", dir);
    GP_CHECK(unlink(p) == 0);
    GP_CHECK(gp_resume_reusable(dir, "noseries", &d, VER, 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "noseries_curve.csv"));
    GP_CHECK(write_record(dir, "short", &d, "ok"));
    snprintf(p, sizeof p, "%s/short_curve.csv", dir);
    GP_CHECK(gp_test_write_text(p, "x,y\n0,0\n1,2\n"));
    GP_CHECK(gp_resume_reusable(dir, "short", &d, VER, 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "2 rows") && strstr(why, "says 5"));
    /* A record under another probe's name. */
    GP_CHECK(write_record(dir, "lds", &d, "ok"));
    char q[512];
    snprintf(p, sizeof p, "%s/lds.json", dir);
    snprintf(q, sizeof q, "%s/atomics.json", dir);
    GP_CHECK(rename(p, q) == 0);
    GP_CHECK(gp_resume_reusable(dir, "atomics", &d, VER, 0, why, sizeof why) == 0 && strstr(why, "'lds'"));
    return 0;
}

GP_TEST(rel_resume_refuses_recorded_h200_data)
{
    /* Records from before resume existed carry no version nor bus id. */
    char dir[1024], why[512];
    GP_CHECK(gp_test_source_path(dir, sizeof dir, "tests/data/h200/records"));
    gp_device_info d;
    test_dev(&d);
    GP_CHECK(gp_resume_reusable(dir, "launch_rate", &d, VER, 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "measured on") || strstr(why, "no version"));
    return 0;
}

GP_TEST(rel_resume_plan_names_reused_and_missing)
{
    char dir[] = "/tmp/gp_rel_planXXXXXX", p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    test_dev(&d);
    GP_CHECK(write_record(dir, "launch_rate", &d, "ok"));
    GP_CHECK(write_record(dir, "lds", &d, "failed: latency 0"));
    snprintf(p, sizeof p, "%s/memory_bandwidth.json.tmp", dir); /* a write the kill cut short */
    GP_CHECK(gp_test_write_text(p, "{\"probe\": \"memory_b"));
    const char *probes[] = {"launch_rate", "lds", "memory_bandwidth"};
    int reuse[3];
    char logp[512];
    snprintf(logp, sizeof logp, "%s/log.txt", dir);
    FILE *log = fopen(logp, "w");
    GP_CHECK(log);
    GP_CHECK(gp_resume_plan(dir, probes, 3, &d, VER, 0, 0, reuse, log) == 1);
    fclose(log);
    GP_CHECK(reuse[0] == 1 && reuse[1] == 0 && reuse[2] == 0);
    char *text = read_all(logp);
    GP_CHECK(text);
    GP_CHECK(strstr(text, "[launch_rate] reused"));
    GP_CHECK(strstr(text, "[lds] to run: its check failed: latency 0"));
    GP_CHECK(strstr(text, "[memory_bandwidth] to run: no record"));
    GP_CHECK(strstr(text, "missing or stale: lds, memory_bandwidth"));
    GP_CHECK(strstr(text, "memory_bandwidth.json.tmp"));
    free(text);
    /* --force reuses nothing. */
    GP_CHECK(gp_resume_plan(dir, probes, 3, &d, VER, 0, 1, reuse, NULL) == 0);
    GP_CHECK(reuse[0] == 0 && reuse[1] == 0 && reuse[2] == 0);
    return 0;
}

GP_TEST(rel_noise_flags)
{
    gp_device_info d;
    test_dev(&d);
    gp_record *r = make_record("n", &d, "ok", 0);
    int known;
    GP_CHECK(gp_record_noise(r, &known) == 0 && known == 1);
    r->clock_moved = 1;
    GP_CHECK(gp_record_noise(r, &known) == GP_NOISE_CLOCK);
    r->clock_after.smi.other_processes = 2;
    GP_CHECK(gp_record_noise(r, &known) == (GP_NOISE_CLOCK | GP_NOISE_SHARED) && known);
    GP_CHECK(gp_record_other_processes(r) == 2);
    r->clock_moved = 0;
    r->clock_before.smi.other_processes = r->clock_after.smi.other_processes = -1; /* no NVML */
    GP_CHECK(gp_record_noise(r, &known) == 0 && known == 0);
    GP_CHECK(gp_record_other_processes(r) == -1);
    r->have_clock = 0;
    GP_CHECK(gp_record_noise(r, &known) == 0 && known == 0);
    gp_record_free(r);
    free(r);
    return 0;
}

GP_TEST(rel_report_lists_flagged_results)
{
    char dir[] = "/tmp/gp_rel_repXXXXXX", p[512];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    test_dev(&d);
    gp_record *r = make_record("atomics", &d, "ok", 3);
    GP_CHECK(gp_record_write(r, dir).code == GP_OK);
    gp_record_free(r);
    free(r);
    r = make_record("divergence", &d, "ok", 3);
    r->clock_after.measured_mhz = 1500;
    r->clock_moved = 1;
    GP_CHECK(gp_record_write(r, dir).code == GP_OK);
    gp_record_free(r);
    free(r);
    r = make_record("lds", &d, "ok", 3);
    r->clock_before.smi.other_processes = 3;
    GP_CHECK(gp_record_write(r, dir).code == GP_OK);
    gp_record_free(r);
    free(r);
    r = make_record("register_limits", &d, "ok", 3);
    r->clock_before.smi.other_processes = r->clock_after.smi.other_processes = -1;
    GP_CHECK(gp_record_write(r, dir).code == GP_OK);
    gp_record_free(r);
    free(r);
    GP_CHECK(gp_report_write(dir, dir).code == GP_OK);
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = read_all(p);
    GP_CHECK(md);
    char *sec = strstr(md, "## Flagged results");
    GP_CHECK(sec);
    char *end = strstr(sec, "## Probes");
    GP_CHECK(end);
    *end = '\0';
    GP_CHECK(strstr(sec, "**divergence**: measured while the clock moved (1980 \xe2\x86\x92 1500 MHz)"));
    GP_CHECK(strstr(sec, "**lds**: measured while 3 other process(es) used the GPU"));
    GP_CHECK(!strstr(sec, "**atomics**") && !strstr(sec, "**register_limits**"));
    GP_CHECK(strstr(sec, "unknown for 1 probe(s)") && strstr(sec, "register_limits"));
    free(md);
    snprintf(p, sizeof p, "%s/report.html", dir);
    char *html = read_all(p);
    GP_CHECK(html && strstr(html, "<h2 id=\"flagged\">Flagged results</h2>"));
    GP_CHECK(strstr(html, "<li><b>lds</b>: measured while 3 other process(es)"));
    free(html);
    return 0;
}
