/* The tuning table built from probe records recorded on the H200. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "characterize.h"
#include "gp_test.h"
#include "probe.h"
#include "kernel.h"

static gp_status rules(const gp_table *facts, gp_table *out) { return gp_kernel_rules_apply(facts, 0, out); }

GP_TEST(characterize_table_from_h200_records)
{
    char rec[512], tables[512], base[512];
    GP_CHECK(gp_test_source_path(rec, sizeof rec, "tests/data/h200/records"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    static gp_table t;
    gp_status st = gp_characterize_table(rec, tables, rules, &t, base, sizeof base, NULL);
    if (st.code)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    const char *arch;
    GP_CHECK(gp_table_get_text(&t, "device", "arch", &arch).code == GP_OK && !strcmp(arch, "sm_90"));
    long long v;
    GP_CHECK(gp_table_get_int(&t, "registers", "per_cu", &v).code == GP_OK && v == 65536);
    GP_CHECK(gp_table_get_int(&t, "device", "wave_size", &v).code == GP_OK && v == 32);
    GP_CHECK(gp_table_get_int(&t, "device", "compute_units", &v).code == GP_OK && v == 132);
    GP_CHECK(gp_table_get_int(&t, "lds", "banks", &v).code == GP_OK && v == 32);
    /* Every kernel value is a rule's over this run's facts: none of the base
     * table's swept values (tables/sm_90) survives, and the rules name the
     * measured facts they used. */
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        if (!strncmp(k->section, "kernel.", 7) && t.e[i].present)
            GP_CHECK(t.e[i].kind == GP_PROV_RULE && strstr(t.e[i].prov, "rule gp_"));
    }
    const gp_table_entry *e = gp_table_find(&t, "kernel.transpose", "pad");
    GP_CHECK(e && e->d == 1 && strstr(e->prov, "32 banks x 4 B"));
    e = gp_table_find(&t, "kernel.reduce", "items_per_thread");
    GP_CHECK(e && strstr(e->prov, "Little: dram"));
    /* Measured provenance carries the probe. */
    e = gp_table_find(&t, "compute", "fp32_fma_per_cycle_per_cu");
    GP_CHECK(e && strstr(e->prov, "measured fma_throughput"));
    /* Channels are hashed on the H200: none, with the probe's reason. */
    e = gp_table_find(&t, "channels", "count");
    GP_CHECK(e && e->is_none && strstr(e->prov, "not detected"));
    return 0;
}

GP_TEST(characterize_needs_records)
{
    char tables[512];
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    static gp_table t;
    gp_status st = gp_characterize_table("/nonexistent-results", tables, rules, &t, NULL, 0, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "'/nonexistent-results' does not exist"));
    char empty[] = "/tmp/gp_unit_charXXXXXX";
    GP_CHECK(mkdtemp(empty) != NULL);
    st = gp_characterize_table(empty, tables, rules, &t, NULL, 0, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no probe records"));
    rmdir(empty);
    /* Every probe's table row names a key the table schema has. */
    size_t nrows = 0;
    for (size_t i = 0; gp_probe_at(i); i++)
        for (size_t k = 0; k < gp_probe_at(i)->ntable_rows; k++, nrows++) {
            const gp_probe_row *m = &gp_probe_at(i)->table_rows[k];
            if (gp_table_key_index(m->section, m->key) < 0)
                fprintf(stderr, "unknown key %s.%s (probe %s)\n", m->section, m->key, gp_probe_at(i)->name);
            GP_CHECK(gp_table_key_index(m->section, m->key) >= 0);
        }
    GP_CHECK(nrows > 0);
    return 0;
}

/* Copy every file of src into dst (flat). */
static int copy_dir(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    if (!d)
        return 0;
    struct dirent *ent;
    char a[1024], b[1024], buf[65536];
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        snprintf(a, sizeof a, "%s/%s", src, ent->d_name);
        snprintf(b, sizeof b, "%s/%s", dst, ent->d_name);
        FILE *in = fopen(a, "rb"), *out = fopen(b, "wb");
        size_t n;
        while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
    }
    closedir(d);
    return 1;
}

GP_TEST(characterize_keeps_swept_kernel_parameters)
{
    char rec[512], tables[512], dir[] = "/tmp/gp_swept_XXXXXX", path[1024];
    GP_CHECK(gp_test_source_path(rec, sizeof rec, "tests/data/h200/records"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(copy_dir(rec, dir));
    static gp_table t;
    GP_CHECK(gp_characterize_table(dir, tables, rules, &t, NULL, 0, NULL).code == GP_OK);
    /* A sweep wrote block = 512 into the results' table ... */
    GP_CHECK(gp_table_set(&t, "kernel.reduce", "block", 512, "swept reduce 2026-01-01: fastest of 4").code ==
             GP_OK);
    snprintf(path, sizeof path, "%s/table.txt", dir);
    GP_CHECK(gp_table_write(&t, path).code == GP_OK);
    /* ... and a rebuild from the records keeps it, while rules still apply. */
    static gp_table again;
    GP_CHECK(gp_characterize_table(dir, tables, rules, &again, NULL, 0, stderr).code == GP_OK);
    const gp_table_entry *e = gp_table_find(&again, "kernel.reduce", "block");
    GP_CHECK(e && e->d == 512 && e->kind == GP_PROV_SWEPT);
    e = gp_table_find(&again, "kernel.transpose", "tile");
    GP_CHECK(e && e->kind == GP_PROV_RULE);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    GP_CHECK(system(cmd) == 0);
    return 0;
}

/* The table step walks the probes in registry order: that order must not
 * matter, so no table key is fed by two rows.  And every plot a probe declares
 * names its series and columns and has a title. */
GP_TEST(probe_rows_and_plots_well_formed)
{
    size_t nplots = 0;
    for (size_t i = 0; gp_probe_at(i); i++) {
        const gp_probe *p = gp_probe_at(i);
        for (size_t k = 0; k < p->ntable_rows; k++)
            for (size_t j = i; gp_probe_at(j); j++) {
                const gp_probe *q = gp_probe_at(j);
                for (size_t m = (j == i ? k + 1 : 0); m < q->ntable_rows; m++)
                    if (!strcmp(p->table_rows[k].section, q->table_rows[m].section) &&
                        !strcmp(p->table_rows[k].key, q->table_rows[m].key)) {
                        fprintf(stderr, "%s.%s fed by %s and %s\n", p->table_rows[k].section,
                                p->table_rows[k].key, p->name, q->name);
                        return 1;
                    }
            }
        for (size_t k = 0; k < p->nplots; k++, nplots++) {
            const gp_probe_plot *pl = &p->plots[k];
            GP_CHECK(pl->series && pl->series[0] && pl->x && pl->x[0] && pl->y && pl->y[0]);
            GP_CHECK(pl->title && pl->title[0]);
        }
    }
    GP_CHECK(nplots > 0);
    return 0;
}

/* Run order comes from the probes' own `order`: launch_rate first (it times
 * the launch path before the others' allocations slow it), interconnect last
 * (it loads the host's link), the rest by name; every probe exactly once. */
GP_TEST(probe_run_order_from_the_probes)
{
    size_t n = gp_probe_count();
    GP_CHECK(gp_probe_in_run_order(n) == NULL);
    GP_CHECK(!strcmp(gp_probe_in_run_order(0)->name, "launch_rate"));
    GP_CHECK(!strcmp(gp_probe_in_run_order(n - 1)->name, "interconnect"));
    for (size_t i = 0; i < n; i++) {
        const gp_probe *p = gp_probe_in_run_order(i);
        GP_CHECK(p != NULL);
        for (size_t j = 0; j < i; j++)
            GP_CHECK(gp_probe_in_run_order(j) != p);
        if (i > 0) {
            const gp_probe *q = gp_probe_in_run_order(i - 1);
            GP_CHECK(q->order < p->order || (q->order == p->order && strcmp(q->name, p->name) < 0));
        }
    }
    return 0;
}

/* Replace the first `find` in file `path` by `with`; 1 on success. */
static int edit_file(const char *path, const char *find, const char *with)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static char buf[1 << 20], out[(1 << 20) + 4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *at = strstr(buf, find);
    if (!at || n + strlen(with) >= sizeof out)
        return 0;
    size_t head = (size_t)(at - buf);
    memcpy(out, buf, head);
    strcpy(out + head, with);
    strcat(out + head, at + strlen(find));
    f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fputs(out, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* Cache lines mean one thing: the probe's sector (stride knee)
 * feeds sector_bytes and its allocation line (capacity knees) line_bytes; a
 * record without a line leaves the published line. */
GP_TEST(characterize_line_and_sector_keys)
{
    char rec[512], tables[512], dir[] = "/tmp/gp_lines_XXXXXX", path[1024];
    GP_CHECK(gp_test_source_path(rec, sizeof rec, "tests/data/h200/records"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    static gp_table t;
    GP_CHECK(gp_characterize_table(rec, tables, rules, &t, NULL, 0, NULL).code == GP_OK);
    const gp_table_entry *e = gp_table_find(&t, "cache.l1", "sector_bytes");
    GP_CHECK(e && e->d == 32 && strstr(e->prov, "measured cache_latency"));
    /* The L2 stride knee is what a miss fetches from DRAM (64 B on the
     * H200), not the L2's 32 B sector, which stays the published one. */
    e = gp_table_find(&t, "cache.l2", "dram_fetch_bytes");
    GP_CHECK(e && e->d == 64 && strstr(e->prov, "measured cache_latency"));
    e = gp_table_find(&t, "cache.l2", "sector_bytes");
    GP_CHECK(e && e->d == 32 && strstr(e->prov, "published"));
    e = gp_table_find(&t, "cache.l1", "line_bytes");
    GP_CHECK(e && e->d == 128 && strstr(e->prov, "published"));
    e = gp_table_find(&t, "cache.l2", "line_bytes");
    GP_CHECK(e && e->d == 128 && strstr(e->prov, "published"));
    /* A record with a measured line of 128 B. */
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(copy_dir(rec, dir));
    snprintf(path, sizeof path, "%s/cache_latency.json", dir);
    GP_CHECK(edit_file(path, "{\"key\": \"l1_sector_bytes\"",
                       "{\"key\": \"l1_line_bytes\", \"value\": 128, \"unit\": \"bytes\", \"spread\": null, "
                       "\"detected\": true, \"unstable\": false, \"method\": \"fit of knee = C max(1, s/L)\", "
                       "\"note\": \"\"},\n    {\"key\": \"l1_sector_bytes\""));
    static gp_table m;
    gp_status st = gp_characterize_table(dir, tables, rules, &m, NULL, 0, NULL);
    if (st.code)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    e = gp_table_find(&m, "cache.l1", "line_bytes");
    GP_CHECK(e && e->d == 128 && strstr(e->prov, "measured cache_latency"));
    e = gp_table_find(&m, "cache.l1", "sector_bytes");
    GP_CHECK(e && e->d == 32 && strstr(e->prov, "measured cache_latency"));
    /* Not measured: none with the probe's reason, never the sector. */
    GP_CHECK(edit_file(path, "{\"key\": \"l1_line_bytes\", \"value\": 128, \"unit\": \"bytes\", \"spread\": null, "
                             "\"detected\": true, \"unstable\": false, \"method\": \"fit of knee = C max(1, s/L)\", "
                             "\"note\": \"\"}",
                       "{\"key\": \"l1_line_bytes\", \"value\": null, \"unit\": \"bytes\", \"spread\": null, "
                       "\"detected\": false, \"unstable\": false, \"method\": \"\", \"note\": \"the knees do not "
                       "separate L = 256 B from L = 512 B\"}"));
    st = gp_characterize_table(dir, tables, rules, &m, NULL, 0, NULL);
    if (st.code)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    e = gp_table_find(&m, "cache.l1", "line_bytes");
    GP_CHECK(e && e->is_none && strstr(e->prov, "not detected"));
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    GP_CHECK(system(cmd) == 0);
    return 0;
}
