#define _POSIX_C_SOURCE 200809L
#include "characterize.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "json_read.h"
#include "probe.h"
#include "record.h"
#include "records.h"

/* A table row taken from a record: which record value feeds which key, so
 * that a table the values break names the record (an L1 latency above the
 * L2's is the record's fault, not the table's). */
typedef struct applied {
    const char *file, *value_key, *section, *key;
    double value;
} applied;

#define MAX_APPLIED 128

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
 * becomes `none` with the probe's reason.  A value taken is noted in *ap. */
static gp_status apply(gp_table *t, const gp_rec_file *rf, const gp_probe_row *m, applied *ap, int *nap,
                       FILE *log)
{
    const char *probe = rf->rec.probe;
    const gp_json *v = find_value(&rf->json, m->value_key);
    char prov[GP_TABLE_PROV_LEN];
    const char *date = gp_json_str_of(&rf->json, "date", "0000-00-00");
    if (!v) {
        logf_(log, "table: %s.%s kept from the base table (%s did not record it)\n", m->section,
              m->key, probe);
        return gp_ok();
    }
    double x = gp_json_num_of(v, "value", NAN);
    if (!gp_json_bool_of(v, "detected", 0) || !isfinite(x)) {
        snprintf(prov, sizeof prov, "measured %.24s %.10s not detected: %.120s", probe, date,
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
    else if (*nap < MAX_APPLIED)
        ap[(*nap)++] = (applied){rf->file, m->value_key, m->section, m->key, x};
    return gp_ok();
}

/* A timed sweep (`gpuprobe tune`) outranks a rule: kernel parameters the
 * results' current table.txt holds as `swept` survive a rebuild.  A table
 * that does not load for this device only loses them (said in the log);
 * one of a newer format is an error, since the rebuild would overwrite it. */
static gp_status keep_swept(const char *results_dir, const char *arch, gp_table *t, FILE *log)
{
    static gp_table old; /* ~50 KB: off the stack */
    char path[1024];
    GP_TRY(gp_fs_join(path, sizeof path, results_dir, GP_TABLE_RESULTS_NAME));
    if (!gp_fs_lexists(path))
        return gp_ok();
    gp_status st = gp_table_load_arch(path, arch, &old);
    if (st.code != GP_OK && (old.schema_major > gp_table_schema_major() || st.code != GP_ERR_USAGE))
        return st;
    if (st.code != GP_OK) {
        logf_(log, "table: %s does not load for this device (%s): its swept values are not kept\n", path, st.msg, "");
        return gp_ok();
    }
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        const gp_table_entry *e = gp_table_find(&old, k->section, k->key);
        if (strncmp(k->section, "kernel.", 7) || !e || e->kind != GP_PROV_SWEPT || e->is_none)
            continue;
        if (gp_table_set(t, k->section, k->key, e->d, e->prov).code == GP_OK)
            logf_(log, "table: %s.%s kept from the last sweep (%s)\n", k->section, k->key, e->prov);
    }
    return gp_ok();
}

/* msg names the table key `name` (not as part of a longer name). */
static int mentions(const char *msg, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = msg; (p = strstr(p, name)) != NULL; p++) {
        int before = p > msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* A table the records' values break: the message names the records whose
 * values the broken keys came from. */
static gp_status name_records(gp_status st, const applied *ap, int nap)
{
    char who[GP_STATUS_MSG_LEN] = "";
    size_t used = 0;
    for (int i = 0; i < nap && used + 1 < sizeof who; i++) {
        char full[96];
        snprintf(full, sizeof full, "%s.%s", ap[i].section, ap[i].key);
        if (!mentions(st.msg, full))
            continue;
        int w = snprintf(who + used, sizeof who - used, "%s%s: %s = %.6g", used ? "; " : "", ap[i].file,
                         ap[i].value_key, ap[i].value);
        used = w > 0 ? used + (size_t)w : used;
    }
    if (!who[0])
        return st;
    return gp_fail(st.code, "%.150s breaks the table: %s", who, st.msg);
}

/* The device facts the runtime reported, from the record of the probe that
 * ran first (run order, gp_probe.order): its clock reading comes before any
 * other probe loaded the GPU. */
static gp_status device_facts(const gp_records *R, const char *tables_dir, gp_table *t, char *arch, size_t archn,
                              char *base, size_t n)
{
    const gp_rec_file *dr = NULL;
    for (size_t i = 0; gp_probe_in_run_order(i) && !dr; i++)
        dr = gp_records_find(R, gp_probe_in_run_order(i)->name);
    if (!dr)
        dr = &R->files[0];
    const gp_json *dev = gp_json_get(&dr->json, "device");
    snprintf(arch, archn, "%s", gp_json_str_of(dev, "arch", ""));
    const char *date = gp_json_str_of(&dr->json, "date", "0000-00-00");
    char prov[GP_TABLE_PROV_LEN];
    GP_TRY(gp_table_lookup(NULL, tables_dir, arch, t, base, n));
    snprintf(prov, sizeof prov, "measured runtime %s", date);
    GP_TRY(gp_table_set_text(t, "device", "name", gp_json_str_of(dev, "name", "unknown"), prov));
    GP_TRY(gp_table_set_text(t, "device", "vendor", gp_json_str_of(dev, "vendor", "unknown"), prov));
    GP_TRY(gp_table_set_text(t, "device", "arch", arch, prov));
    /* Before any probe measures the CU count, the runtime's report stands. */
    GP_TRY(gp_table_set(t, "device", "compute_units", gp_json_num_of(dev, "compute_units", 0), prov));
    const gp_json *clk = gp_json_get(gp_json_get(&dr->json, "clock"), "before");
    double mhz = gp_json_num_of(clk, "measured_mhz", NAN);
    if (isfinite(mhz)) {
        snprintf(prov, sizeof prov, "measured %s %s in-kernel cycles vs timer", dr->rec.probe, date);
        GP_TRY(gp_table_set(t, "device", "clock_mhz", (double)llround(mhz), prov));
    }
    return gp_ok();
}

static gp_status build(const gp_records *R, const char *results_dir, const char *tables_dir,
                       gp_char_rules_fn rules, gp_table *t, char *base, size_t n, FILE *log)
{
    char arch[GP_TABLE_TEXT_LEN];
    GP_TRY(device_facts(R, tables_dir, t, arch, sizeof arch, base, n));
    applied ap[MAX_APPLIED];
    int nap = 0;
    /* Every probe's own table rows (gp_probe.table_rows). */
    for (size_t i = 0; gp_probe_at(i); i++) {
        const gp_probe *p = gp_probe_at(i);
        const gp_rec_file *rf = gp_records_find(R, p->name);
        for (size_t k = 0; k < p->ntable_rows; k++) {
            const gp_probe_row *m = &p->table_rows[k];
            if (!rf)
                logf_(log, "table: %s.%s kept from the base table (no %s record)\n", m->section, m->key, p->name);
            else
                GP_TRY(apply(t, rf, m, ap, &nap, log));
        }
    }
    /* Every kernel section from this run's facts: nothing of the base table's
     * kernel sections (another GPU's sweep) survives. */
    gp_status st = rules(t, t);
    if (st.code != GP_OK)
        return name_records(st, ap, nap);
    if (log)
        fprintf(log, "table: every kernel section derived by its rule from the facts\n");
    GP_TRY(keep_swept(results_dir, arch, t, log));
    st = gp_table_validate(t, "measured table");
    return st.code == GP_OK ? st : name_records(st, ap, nap);
}

gp_status gp_characterize_table(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                gp_table *t, char *base, size_t n, FILE *log)
{
    if (!rules)
        return gp_fail(GP_ERR_USAGE, "characterize: no kernel rules given (every kernel section comes from them)");
    gp_records R;
    GP_TRY(gp_records_load(results_dir, "run probes with --out DIR first, or name the directory that holds them",
                           &R));
    gp_status st = build(&R, results_dir, tables_dir, rules, t, base, n, log);
    gp_records_free(&R);
    return st;
}

gp_status gp_characterize_text(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                char **text, char *base, size_t n, FILE *log)
{
    static gp_table t; /* ~50 KB: off the stack */
    *text = NULL;
    GP_TRY(gp_characterize_table(results_dir, tables_dir, rules, &t, base, n, log));
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f)
        return gp_fail(GP_ERR_NOMEM, "out of host memory for the table");
    gp_status st = gp_table_write_file(&t, f);
    if (fclose(f) != 0 && st.code == GP_OK)
        st = gp_fail(GP_ERR_NOMEM, "out of host memory for the table");
    if (st.code != GP_OK) {
        free(*text);
        *text = NULL;
    }
    return st;
}

gp_status gp_characterize_write(const char *results_dir, const char *tables_dir, gp_char_rules_fn rules,
                                 FILE *log)
{
    static gp_table t; /* ~50 KB: off the stack */
    char base[GP_TABLE_PATH_LEN], path[1024];
    GP_TRY(gp_characterize_table(results_dir, tables_dir, rules, &t, base, sizeof base, log));
    GP_TRY(gp_fs_join(path, sizeof path, results_dir, GP_TABLE_RESULTS_NAME));
    GP_TRY(gp_table_write(&t, path));
    if (log)
        fprintf(log, "table: %s written (base: %s)\n", path, base);
    return gp_ok();
}
