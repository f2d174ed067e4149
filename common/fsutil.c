#define _POSIX_C_SOURCE 200809L
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

gp_status gp_fs_mkdirs(const char *path)
{
    char buf[1024];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return gp_fail(GP_ERR_USAGE, "bad directory path '%s'", path);
    memcpy(buf, path, len + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return gp_fail(GP_ERR_IO, "cannot create directory '%s': %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return gp_fail(GP_ERR_IO, "cannot create directory '%s': %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return gp_fail(GP_ERR_IO, "'%s' exists and is not a directory", buf);
    return gp_ok();
}

gp_status gp_fs_open_atomic(const char *path, FILE **f)
{
    char tmp[1100];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s'", path);
    *f = fopen(tmp, "w");
    if (!*f)
        return gp_fail(GP_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    return gp_ok();
}

gp_status gp_fs_commit(FILE *f, const char *path)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* Flushed and synced before the rename: after a crash the name holds
     * either the old file or the whole new one, never a torn one. */
    int bad = fflush(f) != 0 || ferror(f);
    if (!bad)
        bad = fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS; /* EINVAL: pipes, special files */
    int err = errno;
    if (fclose(f) != 0 || bad) {
        remove(tmp);
        return gp_fail(GP_ERR_IO, "write to '%s' failed: %s", tmp, strerror(bad ? err : errno));
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        remove(tmp);
        return gp_fail(GP_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, path, strerror(err));
    }
    return gp_ok();
}

gp_status gp_fs_check_writable(const char *dir)
{
    GP_TRY(gp_fs_mkdirs(dir));
    char probe[1100];
    if (snprintf(probe, sizeof probe, "%s/.gpuprobe-write-check.%ld", dir, (long)getpid()) >= (int)sizeof probe)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s'", dir);
    FILE *f = fopen(probe, "w");
    if (!f)
        return gp_fail(GP_ERR_IO, "cannot write in output directory '%s': %s", dir, strerror(errno));
    int bad = fputs("gpuprobe\n", f) < 0;
    bad |= fclose(f) != 0;
    remove(probe);
    if (bad)
        return gp_fail(GP_ERR_IO, "cannot write in output directory '%s' (disk full?)", dir);
    return gp_ok();
}

int gp_fs_is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void gp_fs_base_name(char *out, size_t n, const char *path)
{
    if (!path)
        path = "";
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/')
        start--;
    snprintf(out, n, "%.*s", (int)(len - start), path + start);
}

gp_status gp_fs_require_dir(const char *path, const char *what)
{
    if (gp_fs_is_dir(path))
        return gp_ok();
    return gp_fail(GP_ERR_USAGE, "'%s' %s (%s)", path ? path : "", gp_fs_exists(path) ? "is not a directory"
                                                                                    : "does not exist", what);
}

int gp_fs_exists(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0;
}

gp_status gp_fs_join(char *out, size_t n, const char *dir, const char *name)
{
    int w = snprintf(out, n, "%s/%s", dir, name);
    if (w < 0 || (size_t)w >= n)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s/%s'", dir, name);
    return gp_ok();
}

void gp_fs_today(char out[16])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 16, "%Y-%m-%d", &tm);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void gp_fs_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

gp_status gp_fs_list_sorted(const char *dir, const char *suffix, const char *what, char ***names, size_t *n)
{
    *names = NULL, *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return gp_fail(GP_ERR_USAGE, "cannot open %s '%s': %s", what, dir, strerror(errno));
    const size_t sl = strlen(suffix);
    char **v = NULL;
    size_t k = 0, cap = 0;
    gp_status st = gp_ok();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= sl || e->d_name[0] == '.' || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        if (k == cap) {
            cap = cap ? 2 * cap : 16;
            char **nv = realloc(v, cap * sizeof *nv);
            if (!nv) {
                st = gp_fail(GP_ERR_NOMEM, "out of host memory listing '%s'", dir);
                break;
            }
            v = nv;
        }
        if (!(v[k] = strdup(e->d_name))) {
            st = gp_fail(GP_ERR_NOMEM, "out of host memory listing '%s'", dir);
            break;
        }
        k++;
    }
    closedir(d);
    if (st.code != GP_OK) {
        gp_fs_names_free(v, k);
        return st;
    }
    if (k)
        qsort(v, k, sizeof *v, cmp_name);
    *names = v, *n = k;
    return gp_ok();
}

void gp_fs_abandon(FILE *f, const char *path)
{
    char tmp[1300];
    fclose(f);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    remove(tmp);
}
