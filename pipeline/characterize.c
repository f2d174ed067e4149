#define _POSIX_C_SOURCE 200809L
#include "characterize.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fsutil.h"
#include "json_read.h"
#include "probe.h"
#include "record.h"

/* The record values of one probe, read from <dir>/<probe>.json. */
typedef struct loaded {
    gp_json root;
    int ok;
} loaded;

static const gp_json *find_value(const gp_json *root, const char *key)
{
    const gp_json *vals = gp_json_get(root, "values");
    if (!vals || vals->type != GP_JSON_ARR)
        return NULL;
    for (size_t i = 0; i < vals->nkids; i++)
        if (!strcmp(gp_json_str_of(&vals->kids[i], "key", ""), key))
            return &vals->kids[i];
    return NULL;
}

static void logf_(FILE *log, const char *fmt, const char *a, const char *b, const char *c)
{
    if (log)
        fprintf(log, fmt, a, b, c);
}

/* Set one table key from one record value; a value the probe could not detect
 * becomes `none` with the probe's reason. */
static gp_status apply(gp_table *t, const char *probe, const gp_probe_row *m, const gp_json *root, FILE *log)
{
    const gp_json *v = find_value(root, m->value_key);
    char prov[GP_TABLE_PROV_LEN];
    const char *date = gp_json_str_of(root, "date", "0000-00-00");
    if (!v) {
        logf_(log, "table: %s.%s kept from the base table (%s did not record it)\n", m->section,
              m->key, probe);
        return gp_ok();
    }
    double x = gp_json_num_of(v, "value", NAN);
    if (!gp_json_bool_of(v, "detected", 0) || !isfinite(x)) {
        snprintf(prov, sizeof prov, "measured %s %s not detected: %.120s", probe, date,
                 gp_json_str_of(v, "note", "no reason given"));
        return gp_table_set_none(t, m->section, m->key, prov);
    }
    int ki = gp_table_key_index(m->section, m->key);
    if (ki >= 0 && gp_table_key_at((size_t)ki)->type == GP_TV_INT)
        x = (double)llround(x);
    snprintf(prov, sizeof prov, "measured %s %s", probe, date);
    gp_status st = gp_table_set(t, m->section, m->key, x, prov);
    if (st.code != GP_OK) /* out of the key's physical range: a finding, keep the base value */
        logf_(log, "table: %s.%s not taken: %s\n", m->section, m->key, st.msg);
    return gp_ok();
}

static gp_status load_record(const char *dir, const char *probe, loaded *l)
{
    char path[1024], name[128];
    snprintf(name, sizeof name, "%s.json", probe);
    GP_TRY(gp_fs_join(path, sizeof path, dir, name));
    FILE *f = fopen(path, "r");
    l->ok = 0;
    if (!f)
        return gp_ok(); /* probe not run: its keys stay as the base table has them */
    fclose(f);
    GP_TRY(gp_json_read_file(path, &l->root));
    gp_status st = gp_record_check_json(&l->root, path);
    if (st.code != GP_OK) {
        gp_json_free(&l->root);
        return st;
    }
    l->ok = 1;
    return gp_ok();
}

/* A timed sweep (`gpuprobe tune`) outranks a rule: kernel parameters the
 * results' current table.txt holds as `swept` survive a rebuild. */
static void keep_swept(const char *results_dir, const char *arch, gp_table *t, FILE *log)
{
    static gp_table old; /* ~50 KB: off the stack */
    char path[1024];
    if (gp_fs_join(path, sizeof path, results_dir, GP_TABLE_RESULTS_NAME).code != GP_OK)
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fclose(f);
    if (gp_table_load_arch(path, arch, &old).code != GP_OK) {
        logf_(log, "table: %s%s%s does not load for this device: its swept values are not kept\n", path, "", "");
        return;
    }
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        const gp_table_entry *e = gp_table_find(&old, k->section, k->key);
        if (strncmp(k->section, "kernel.", 7) || !e || e->kind != GP_PROV_SWEPT || e->is_none)
            continue;
        if (gp_table_set(t, k->section, k->key, e->d, e->prov).code == GP_OK)
            logf_(log, "table: %s.%s kept from the last sweep (%s)\n", k->section, k->key, e->prov);
    }
}

gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                gp_table *t, char *base, size_t n, FILE *log)
{
    if (!rules)
        return gp_fail(GP_ERR_USAGE, "characterize: no kernel rules given (every kernel section comes from them)");
    /* Any record gives the device; launch_rate runs first and always. */
    loaded dev_rec;
    const char *probes_for_device[] = {"launch_rate", "fma_throughput", "cache_latency", "lds"};
    dev_rec.ok = 0;
    for (size_t i = 0; i < 4 && !dev_rec.ok; i++)
        GP_TRY(load_record(results_dir, probes_for_device[i], &dev_rec));
    if (!dev_rec.ok)
        return gp_fail(GP_ERR_USAGE, "%s: no probe records (launch_rate.json, ...) to build a table from",
                       results_dir);
    const gp_json *dev = gp_json_get(&dev_rec.root, "device");
    char arch[GP_TABLE_TEXT_LEN]; /* copied: the record is freed before the rules run */
    snprintf(arch, sizeof arch, "%s", gp_json_str_of(dev, "arch", ""));
    const char *date = gp_json_str_of(&dev_rec.root, "date", "0000-00-00");
    char prov[GP_TABLE_PROV_LEN];
    gp_status st = gp_table_lookup(NULL, tables_dir, arch, t, base, n);
    if (st.code == GP_OK) {
        snprintf(prov, sizeof prov, "measured runtime %s", date);
        st = gp_table_set_text(t, "device", "name", gp_json_str_of(dev, "name", "unknown"), prov);
    }
    if (st.code == GP_OK)
        st = gp_table_set_text(t, "device", "vendor", gp_json_str_of(dev, "vendor", "unknown"), prov);
    if (st.code == GP_OK)
        st = gp_table_set_text(t, "device", "arch", arch, prov);
    if (st.code == GP_OK) {
        /* Before any probe measures the CU count, the runtime's report stands. */
        st = gp_table_set(t, "device", "compute_units", gp_json_num_of(dev, "compute_units", 0), prov);
    }
    const gp_json *clk = gp_json_get(gp_json_get(&dev_rec.root, "clock"), "before");
    double mhz = gp_json_num_of(clk, "measured_mhz", NAN);
    if (st.code == GP_OK && isfinite(mhz)) {
        snprintf(prov, sizeof prov, "measured %s %s in-kernel cycles vs timer",
                 gp_json_str_of(&dev_rec.root, "probe", "?"), date);
        st = gp_table_set(t, "device", "clock_mhz", (double)llround(mhz), prov);
    }
    gp_json_free(&dev_rec.root);
    GP_TRY(st);

    /* Every probe's own table rows (gp_probe.table_rows), its record read once. */
    for (size_t i = 0; gp_probe_at(i); i++) {
        const gp_probe *p = gp_probe_at(i);
        if (!p->ntable_rows)
            continue;
        loaded rec;
        GP_TRY(load_record(results_dir, p->name, &rec));
        for (size_t k = 0; k < p->ntable_rows; k++) {
            const gp_probe_row *m = &p->table_rows[k];
            if (!rec.ok)
                logf_(log, "table: %s.%s kept from the base table (no %s record)\n", m->section, m->key, p->name);
            else
                st = apply(t, p->name, m, &rec.root, log);
            if (st.code != GP_OK)
                break;
        }
        if (rec.ok)
            gp_json_free(&rec.root);
        GP_TRY(st);
    }
    /* Every kernel section from this run's facts: nothing of the base table's
     * kernel sections (another GPU's sweep) survives. */
    GP_TRY(rules(t, t));
    if (log)
        fprintf(log, "table: every kernel section derived by its rule from the facts\n");
    keep_swept(results_dir, arch, t, log);
    return gp_table_validate(t, "measured table");
}

gp_status gp_characterize_write(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                 FILE *log)
{
    static gp_table t; /* ~50 KB: off the stack */
    char base[GP_TABLE_PATH_LEN], path[1024];
    if (gp_fs_exists(results_dir))
        GP_TRY(gp_fs_require_dir(results_dir, "name the results directory that holds the probe records"));
    GP_TRY(gp_characterize_table(results_dir, tables_dir, rules, &t, base, sizeof base, log));
    GP_TRY(gp_fs_join(path, sizeof path, results_dir, GP_TABLE_RESULTS_NAME));
    GP_TRY(gp_table_write(&t, path));
    if (log)
        fprintf(log, "table: %s written (base: %s)\n", path, base);
    return gp_ok();
}
