#define _POSIX_C_SOURCE 200809L
/* A results folder's records, read and checked (records.h). */
#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "probe.h"

/* The probe a file is named for ("lds" for lds.json), or NULL. */
static const gp_probe *named_probe(const char *name)
{
    size_t len = strlen(name);
    char stem[128];
    if (len <= 5 || len - 5 >= sizeof stem || strcmp(name + len - 5, ".json"))
        return NULL;
    memcpy(stem, name, len - 5);
    stem[len - 5] = '\0';
    return gp_probe_find(stem);
}

int gp_records_check_one(const gp_json *j, const char *name, const char *path, gp_status *st, const char **why)
{
    *st = gp_ok();
    const gp_probe *named = named_probe(name);
    if (!gp_json_get(j, "probe")) {
        if (named) {
            *st = gp_fail(GP_ERR_USAGE, "%s: no \"probe\" member, so not a record, although the file is named for "
                                        "probe '%s'",
                          path, named->name);
            return 0;
        }
        *why = "no \"probe\" member: not a probe record";
        return 0;
    }
    if ((*st = gp_record_check_json(j, path)).code != GP_OK)
        return 0;
    const char *probe = gp_json_str_of(j, "probe", "");
    if (!gp_probe_find(probe)) {
        *st = gp_fail(GP_ERR_USAGE, "%s: \"probe\" is '%.60s', a probe this gpuprobe does not know (gpuprobe list "
                                    "shows the probes; a record of a newer gpuprobe?)",
                      path, probe);
        return 0;
    }
    if (named != gp_probe_find(probe)) {
        *st = gp_fail(GP_ERR_USAGE, "%s: \"probe\" is '%.60s', but the file is not named %.60s.json: a record "
                                    "renamed or copied over another",
                      path, probe, probe);
        return 0;
    }
    return 1;
}

int gp_records_same_device(const gp_record *a, const gp_record *b)
{
    return !strcmp(a->dev.name, b->dev.name) && !strcmp(a->dev.arch, b->dev.arch) &&
           !strcmp(a->dev.pci_bus_id, b->dev.pci_bus_id);
}

void gp_records_free(gp_records *r)
{
    for (int i = 0; i < r->n; i++)
        gp_json_free(&r->files[i].json);
    free(r->files);
    r->files = NULL;
    r->n = 0;
}

const gp_rec_file *gp_records_find(const gp_records *r, const char *probe)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->files[i].rec.probe, probe))
            return &r->files[i];
    return NULL;
}

/* A record of schema 1.0 (no "schema_version") as the current reader
 * takes it: cache_latency wrote the last level's missing step as "step
 * xnan", which reads as what it meant. */
static void read_older(const gp_json *j, gp_record *r)
{
    if (gp_json_get(j, "schema_version"))
        return;
    static const char old[] = "step xnan", now[] = "last level";
    for (int i = 0; i < r->nnotes; i++) {
        char *at = strstr(r->notes[i], old);
        if (!at)
            continue;
        char fixed[sizeof r->notes[0]];
        snprintf(fixed, sizeof fixed, "%.*s%s%s", (int)(at - r->notes[i]), r->notes[i], now, at + sizeof old - 1);
        memcpy(r->notes[i], fixed, sizeof fixed);
    }
}

/* One file of the folder into r (a record) or r->skipped (not one). */
static gp_status load_one(gp_records *r, const char *name)
{
    char path[1300];
    GP_TRY(gp_fs_join(path, sizeof path, r->dir, name));
    gp_rec_file *f = &r->files[r->n];
    memset(f, 0, sizeof *f);
    GP_TRY(gp_json_read_file(path, &f->json));
    gp_status st;
    const char *why = NULL;
    if (!gp_records_check_one(&f->json, name, path, &st, &why)) {
        gp_json_free(&f->json);
        if (st.code == GP_OK && r->nskipped < (int)(sizeof r->skipped / sizeof r->skipped[0]))
            snprintf(r->skipped[r->nskipped++], sizeof r->skipped[0], "%s: %s", name, why);
        return st;
    }
    snprintf(f->file, sizeof f->file, "%s", name);
    if (!gp_record_from_json(&f->json, &f->rec, &f->dropped, &why)) {
        gp_json_free(&f->json);
        return gp_fail(GP_ERR_USAGE, "%s: %s", path, why);
    }
    read_older(&f->json, &f->rec);
    r->n++;
    return gp_ok();
}

/* Every record from the device of the first: a folder is one GPU's. */
static gp_status check_one_device(const gp_records *r)
{
    const gp_record *a = &r->files[0].rec;
    for (int i = 1; i < r->n; i++) {
        const gp_record *b = &r->files[i].rec;
        if (!gp_records_same_device(a, b))
            return gp_fail(GP_ERR_USAGE,
                           "results folder '%s' mixes devices: %s is %s (%s) at %s, %s %s (%s) at %s; give one "
                           "folder per GPU",
                           r->dir, r->files[0].file, a->dev.name, a->dev.arch, a->dev.pci_bus_id, r->files[i].file,
                           b->dev.name, b->dev.arch, b->dev.pci_bus_id);
    }
    return gp_ok();
}

gp_status gp_records_load(const char *dir, const char *hint, gp_records *out)
{
    memset(out, 0, sizeof *out);
    if (!dir || !*dir)
        return gp_fail(GP_ERR_USAGE, "empty results folder name");
    snprintf(out->dir, sizeof out->dir, "%s", dir);
    if (!gp_fs_is_dir(dir))
        return gp_fail(GP_ERR_USAGE, "results folder '%s' %s", dir,
                       gp_fs_exists(dir) ? "is not a directory" : "does not exist");
    char **names = NULL;
    size_t n = 0;
    gp_status st = gp_fs_list_sorted(dir, ".json", "results folder", &names, &n);
    if (st.code == GP_OK && n && !(out->files = calloc(n, sizeof *out->files)))
        st = gp_fail(GP_ERR_NOMEM, "out of host memory reading the records of '%s'", dir);
    for (size_t i = 0; st.code == GP_OK && i < n; i++)
        st = load_one(out, names[i]);
    gp_fs_names_free(names, n);
    if (st.code == GP_OK && out->n == 0 && out->nskipped)
        st = gp_fail(GP_ERR_USAGE, "no probe records in '%s': %d JSON file(s), none with a \"probe\" member", dir,
                     out->nskipped);
    else if (st.code == GP_OK && out->n == 0)
        st = gp_fail(GP_ERR_USAGE, "no probe records (*.json) in '%s'%s%s", dir, hint && hint[0] ? ": " : "",
                     hint ? hint : "");
    if (st.code == GP_OK)
        st = check_one_device(out);
    if (st.code != GP_OK)
        gp_records_free(out);
    return st;
}
