#define _POSIX_C_SOURCE 200809L
#include "resume.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fsutil.h"
#include "json_read.h"

/* Set the reason; returns 0 (not reusable) so callers can `return say(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int say(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Every series the record names is there with the rows it says. */
static int series_ok(const char *dir, const gp_json *root, char *why, size_t n)
{
    const gp_json *ser = gp_json_get(root, "series");
    if (ser && ser->type != GP_JSON_ARR)
        return say(why, n, "its \"series\" is not a list");
    for (size_t i = 0; ser && i < ser->nkids; i++) {
        const char *file = gp_json_str_of(&ser->kids[i], "file", "");
        double rows = gp_json_num_of(&ser->kids[i], "rows", NAN);
        /* A record names files beside itself; anything else is not ours. */
        if (!file[0] || strchr(file, '/') || file[0] == '.')
            return say(why, n, "it names a series file '%s' that is not a plain file name", file);
        char path[1200];
        if (gp_fs_join(path, sizeof path, dir, file).code != GP_OK)
            return say(why, n, "series file name '%s' too long", file);
        gp_series s;
        gp_status st = gp_csv_read(path, &s);
        if (st.code != GP_OK)
            return say(why, n, "series %s unreadable: %s", file, st.msg);
        size_t got = s.nrows;
        free(s.data);
        if (!isfinite(rows) || rows < 0 || (double)got != rows)
            return say(why, n, "series %s has %zu rows, the record says %.0f", file, got,
                       isfinite(rows) ? rows : -1.0);
    }
    return 1;
}

int gp_resume_reusable(const char *dir, const char *probe, const gp_device_info *dev, const char *version,
                       int quick, char *why, size_t n)
{
    char path[1200], name[160];
    if (why && n)
        why[0] = '\0';
    snprintf(name, sizeof name, "%s.json", probe);
    if (gp_fs_join(path, sizeof path, dir, name).code != GP_OK)
        return say(why, n, "path of %s/%s too long", dir, name);
    if (!gp_fs_exists(path))
        return say(why, n, "no record");
    gp_json root;
    gp_status st = gp_json_read_file(path, &root);
    if (st.code != GP_OK)
        return say(why, n, "record does not parse: %s", st.msg);
    int ok = 0;
    const gp_json *d = gp_json_get(&root, "device");
    const char *rec_probe = gp_json_str_of(&root, "probe", "");
    const char *rec_ver = gp_json_str_of(&root, "gpuprobe_version", "");
    const char *check = gp_json_str_of(&root, "check", "");
    const char *rname = gp_json_str_of(d, "name", ""), *rbus = gp_json_str_of(d, "pci_bus_id", "");
    const char *rarch = gp_json_str_of(d, "arch", ""), *ruuid = gp_json_str_of(d, "uuid", "");
    if (root.type != GP_JSON_OBJ || strcmp(rec_probe, probe))
        say(why, n, "%s names probe '%s', not '%s'", name, rec_probe, probe);
    else if (strcmp(rname, dev->name) || strcmp(rbus, dev->pci_bus_id) || strcmp(rarch, dev->arch) ||
             strcmp(ruuid, dev->uuid)) {
        /* The UUID tells apart two GPUs that swapped bus ids (moved between
         * nodes or slots); "" on both sides when the runtime has none. */
        char other[400];
        snprintf(other, sizeof other, "%.160s (%.40s, bus %.40s, uuid %.48s)", rname[0] ? rname : "?",
                 rarch[0] ? rarch : "?", rbus[0] ? rbus : "?", ruuid[0] ? ruuid : "none");
        char self[400];
        snprintf(self, sizeof self, "%.160s (%.40s, bus %.40s, uuid %.48s)", dev->name, dev->arch, dev->pci_bus_id,
                 dev->uuid[0] ? dev->uuid : "none");
        say(why, n, "measured on %s, this GPU is %s", other, self);
    } else if (!version || strcmp(rec_ver, version))
        say(why, n, "written by gpuprobe %s, this is %s", rec_ver[0] ? rec_ver : "(no version: older)",
            version ? version : "?");
    else if (gp_json_bool_of(&root, "quick", -1) != (quick != 0))
        say(why, n, "measured %s, this run is %s", gp_json_bool_of(&root, "quick", 0) ? "with --quick" : "without --quick",
            quick ? "--quick" : "a full one");
    else if (!check[0])
        say(why, n, "its check did not run (interrupted)");
    else if (strcmp(check, "ok"))
        say(why, n, "its check %s", check);
    else
        ok = series_ok(dir, &root, why, n);
    gp_json_free(&root);
    return ok;
}

/* Stray temporary files (<name>.tmp) of the given probes: an interrupted write. */
static void list_stray(const char *dir, const char *const *probes, int n, FILE *log)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int shown = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".tmp"))
            continue;
        for (int i = 0; i < n; i++) {
            size_t pl = strlen(probes[i]);
            if (strncmp(e->d_name, probes[i], pl) || (e->d_name[pl] != '.' && e->d_name[pl] != '_'))
                continue;
            fprintf(log, "%s %s", shown++ ? "," : "resume: partial files of an interrupted write (ignored, replaced on rerun):",
                    e->d_name);
            break;
        }
    }
    closedir(d);
    if (shown)
        fputc('\n', log);
}

int gp_resume_plan(const char *dir, const char *const *probes, int n, const gp_device_info *dev,
                   const char *version, int quick, int force, int *reuse, FILE *log)
{
    int reused = 0, absent = 0;
    char(*why)[512] = calloc((size_t)(n > 0 ? n : 1), sizeof *why);
    for (int i = 0; i < n; i++) {
        reuse[i] = 0;
        if (why)
            why[i][0] = '\0';
        if (force)
            continue;
        reuse[i] = gp_resume_reusable(dir, probes[i], dev, version, quick, why ? why[i] : NULL, why ? sizeof why[i] : 0);
        reused += reuse[i];
        absent += !reuse[i] && why && !strcmp(why[i], "no record");
    }
    if (log && force) {
        fprintf(log, "resume: --force: every probe runs again\n");
    } else if (log && absent == n) {
        fprintf(log, "resume: no records in %s yet: running all %d probes\n", dir, n);
    } else if (log) {
        for (int i = 0; i < n; i++)
            if (reuse[i])
                fprintf(log, "[%s] reused: %s/%s.json (valid record of this GPU and version; --force reruns it)\n",
                        probes[i], dir, probes[i]);
            else
                fprintf(log, "[%s] to run: %s\n", probes[i], why ? why[i] : "?");
        if (reused == n) {
            fprintf(log, "resume: every probe has a valid record in %s; nothing to run\n", dir);
        } else {
            fprintf(log, "resume: %d of %d probe records in %s reused; missing or stale:", reused, n, dir);
            for (int i = 0, k = 0; i < n; i++)
                if (!reuse[i])
                    fprintf(log, "%s %s", k++ ? "," : "", probes[i]);
            fputc('\n', log);
        }
    }
    if (log)
        list_stray(dir, probes, n, log);
    free(why);
    return reused;
}
