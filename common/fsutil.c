#define _XOPEN_SOURCE 700
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
    gp_fs_made made;
    GP_TRY(gp_fs_mkdirs_undoable(dir, &made));
    char probe[1100];
    gp_status st = gp_ok();
    if (snprintf(probe, sizeof probe, "%s/.gpuprobe-write-check.%ld", dir, (long)getpid()) >= (int)sizeof probe)
        st = gp_fail(GP_ERR_USAGE, "path too long: '%s'", dir);
    FILE *f = st.code == GP_OK ? fopen(probe, "w") : NULL;
    if (st.code == GP_OK && !f)
        st = gp_fail(GP_ERR_IO, "cannot write in output directory '%s': %s", dir, strerror(errno));
    if (f) {
        int bad = fputs("gpuprobe\n", f) < 0;
        bad |= fclose(f) != 0;
        remove(probe);
        if (bad)
            st = gp_fail(GP_ERR_IO, "cannot write in output directory '%s' (disk full?)", dir);
    }
    gp_fs_mkdirs_undo(&made);
    return st;
}

gp_status gp_fs_check_file_writable(const char *path)
{
    char dir[1024];
    if (!path || !*path)
        return gp_fail(GP_ERR_USAGE, "empty output file name");
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s'", path);
    if (gp_fs_is_dir(path))
        return gp_fail(GP_ERR_USAGE, "'%s' is a folder; name a file", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (!gp_fs_is_dir(dir))
        return gp_fail(GP_ERR_IO, "cannot write '%s': folder '%s' %s", path, dir,
                       gp_fs_exists(dir) ? "is not a directory" : "does not exist");
    char probe[1100];
    if (snprintf(probe, sizeof probe, "%s/.gpuprobe-write-check.%ld", dir, (long)getpid()) >= (int)sizeof probe)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s'", path);
    FILE *f = fopen(probe, "w");
    if (!f)
        return gp_fail(GP_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    fclose(f);
    remove(probe);
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

int gp_fs_lexists(const char *path)
{
    struct stat st;
    return path && lstat(path, &st) == 0;
}

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    return "not a plain file";
}

/* Why path could not be opened, with what a plain errno does not say. */
static gp_status open_error(const char *path, int err)
{
    struct stat st;
    if (err == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return gp_fail(GP_ERR_IO, "cannot read '%s': a symbolic link to nothing (dangling)", path);
    if (err == ELOOP)
        return gp_fail(GP_ERR_IO, "cannot read '%s': a loop of symbolic links", path);
    return gp_fail(GP_ERR_IO, "cannot read '%s': %s", path, strerror(err));
}

gp_status gp_fs_read_regular(const char *path, size_t limit, const char *what, char **buf, size_t *n)
{
    *buf = NULL;
    *n = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return open_error(path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return gp_fail(GP_ERR_IO, "cannot read '%s': %s", path, strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return gp_fail(GP_ERR_USAGE, "'%s' is not a regular file (%s): gpuprobe reads %s only from a regular file",
                       path, file_kind(st.st_mode), what);
    }
    if ((unsigned long long)st.st_size > limit) {
        close(fd);
        return gp_fail(GP_ERR_USAGE, "%s: %lld bytes, larger than %zu: not %s", path, (long long)st.st_size,
                       limit, what);
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *b = malloc(cap + 1);
    gp_status res = b ? gp_ok() : gp_fail(GP_ERR_NOMEM, "%s: out of host memory", path);
    while (res.code == GP_OK) {
        if (len == cap) { /* the file grew while it was read */
            if (cap > limit) {
                res = gp_fail(GP_ERR_USAGE, "%s: larger than %zu bytes: not %s", path, limit, what);
                break;
            }
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                res = gp_fail(GP_ERR_NOMEM, "%s: out of host memory", path);
                break;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t got = read(fd, b + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            res = gp_fail(GP_ERR_IO, "error reading '%s': %s", path, strerror(errno));
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    if (res.code != GP_OK) {
        free(b);
        return res;
    }
    b[len] = '\0';
    *buf = b;
    *n = len;
    return gp_ok();
}

gp_status gp_fs_mkdirs_undoable(const char *path, gp_fs_made *made)
{
    memset(made, 0, sizeof *made);
    char buf[1024];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return gp_fail(GP_ERR_USAGE, "bad directory path '%s'", path);
    memcpy(buf, path, len + 1);
    snprintf(made->leaf, sizeof made->leaf, "%s", path);
    for (char *p = buf + 1;; p++) {
        int last = *p == '\0';
        if (!last && *p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) == 0) {
            if (!made->top[0])
                snprintf(made->top, sizeof made->top, "%s", buf);
        } else if (errno != EEXIST) {
            gp_status st = gp_fail(GP_ERR_IO, "cannot create directory '%s': %s", buf, strerror(errno));
            gp_fs_mkdirs_undo(made);
            return st;
        }
        if (last)
            break;
        *p = '/';
    }
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gp_fs_mkdirs_undo(made);
        return gp_fail(GP_ERR_IO, "'%s' exists and is not a directory", buf);
    }
    return gp_ok();
}

void gp_fs_mkdirs_undo(gp_fs_made *made)
{
    if (!made->top[0])
        return;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", made->leaf);
    size_t top = strlen(made->top);
    /* leaf, then each parent down to top: rmdir fails (and stops) on one that is not empty */
    while (strlen(buf) >= top && strncmp(buf, made->top, top) == 0) {
        if (rmdir(buf) != 0 && errno != ENOENT)
            break;
        char *slash = strrchr(buf, '/');
        if (!slash || strlen(buf) == top)
            break;
        *slash = '\0';
    }
    made->top[0] = '\0';
}

/* ---- a set of output files, all or nothing ---- */

static gp_status set_path(char *out, size_t n, const gp_fs_set *s, const char *prefix, const char *name,
                          const char *suffix)
{
    int w = snprintf(out, n, "%s/%s%s%s", s->dir, prefix, name, suffix);
    if (w < 0 || (size_t)w >= n)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s/%s'", s->dir, name);
    return gp_ok();
}

gp_status gp_fs_set_begin(gp_fs_set *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    if (snprintf(s->dir, sizeof s->dir, "%s", dir) >= (int)sizeof s->dir)
        return gp_fail(GP_ERR_USAGE, "path too long: '%s'", dir);
    return gp_fs_mkdirs_undoable(dir, &s->made);
}

gp_status gp_fs_set_open(gp_fs_set *s, const char *name, FILE **f)
{
    char path[1300], tmp[1300];
    *f = NULL;
    if (strlen(name) >= sizeof s->names[0] || strchr(name, '/'))
        return gp_fail(GP_ERR_USAGE, "output name '%s' is not a plain file name", name);
    GP_TRY(set_path(path, sizeof path, s, "", name, ""));
    GP_TRY(set_path(tmp, sizeof tmp, s, "", name, ".tmp"));
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return gp_fail(GP_ERR_IO, "cannot write '%s': it exists and is %s; move it away", path,
                       S_ISLNK(st.st_mode) ? "a symbolic link" : file_kind(st.st_mode));
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        char(*nn)[256] = realloc(s->names, (size_t)cap * sizeof *nn);
        if (!nn)
            return gp_fail(GP_ERR_NOMEM, "out of host memory for the output files of '%s'", s->dir);
        s->names = nn;
        s->cap = cap;
    }
    *f = fopen(tmp, "w");
    if (!*f)
        return gp_fail(GP_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    snprintf(s->names[s->n++], sizeof s->names[0], "%s", name);
    return gp_ok();
}

gp_status gp_fs_set_close(gp_fs_set *s, FILE *f, const char *name)
{
    char tmp[1300];
    int bad = fflush(f) != 0 || ferror(f);
    if (!bad)
        bad = fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS;
    int err = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (!bad)
        return gp_ok();
    GP_TRY(set_path(tmp, sizeof tmp, s, "", name, ".tmp"));
    return gp_fail(GP_ERR_IO, "write to '%s' failed: %s", tmp, strerror(err));
}

/* Put back files 0..k-1 of the set: the old file where there was one, none where there was not. */
static void set_roll_back(const gp_fs_set *s, const int *had, int k)
{
    for (int j = k - 1; j >= 0; j--) {
        char path[1300], old[1300];
        if (set_path(path, sizeof path, s, "", s->names[j], "").code != GP_OK ||
            set_path(old, sizeof old, s, ".", s->names[j], ".gp-old").code != GP_OK)
            continue;
        if (had[j])
            rename(old, path);
        else
            remove(path);
    }
}

static void set_remove_tmps(const gp_fs_set *s, int from)
{
    for (int j = from; j < s->n; j++) {
        char tmp[1300];
        if (set_path(tmp, sizeof tmp, s, "", s->names[j], ".tmp").code == GP_OK)
            remove(tmp);
    }
}

gp_status gp_fs_set_commit(gp_fs_set *s)
{
    int *had = calloc((size_t)(s->n ? s->n : 1), sizeof *had);
    gp_status st = had ? gp_ok() : gp_fail(GP_ERR_NOMEM, "out of host memory committing '%s'", s->dir);
    int i = 0;
    for (; st.code == GP_OK && i < s->n; i++) {
        char path[1300], tmp[1300], old[1300];
        st = set_path(path, sizeof path, s, "", s->names[i], "");
        if (st.code == GP_OK)
            st = set_path(tmp, sizeof tmp, s, "", s->names[i], ".tmp");
        if (st.code == GP_OK)
            st = set_path(old, sizeof old, s, ".", s->names[i], ".gp-old");
        if (st.code != GP_OK)
            break;
        struct stat ls;
        had[i] = lstat(path, &ls) == 0;
        if (had[i] && !S_ISREG(ls.st_mode)) { /* appeared since the set opened it */
            st = gp_fail(GP_ERR_IO, "cannot write '%s': it exists and is %s; move it away", path,
                         S_ISLNK(ls.st_mode) ? "a symbolic link" : file_kind(ls.st_mode));
            had[i] = 0;
            break;
        }
        if (had[i] && rename(path, old) != 0) {
            st = gp_fail(GP_ERR_IO, "cannot replace '%s': %s", path, strerror(errno));
            had[i] = 0;
            break;
        }
        if (rename(tmp, path) != 0) {
            st = gp_fail(GP_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
            if (had[i])
                rename(old, path);
            break;
        }
    }
    if (st.code != GP_OK) {
        if (had)
            set_roll_back(s, had, i);
        set_remove_tmps(s, i);
        gp_fs_mkdirs_undo(&s->made);
    } else {
        for (int j = 0; j < s->n; j++) {
            char old[1300];
            if (had[j] && set_path(old, sizeof old, s, ".", s->names[j], ".gp-old").code == GP_OK)
                remove(old);
        }
    }
    free(had);
    free(s->names);
    s->names = NULL;
    s->n = s->cap = 0;
    return st;
}

void gp_fs_set_abort(gp_fs_set *s)
{
    set_remove_tmps(s, 0);
    gp_fs_mkdirs_undo(&s->made);
    free(s->names);
    s->names = NULL;
    s->n = s->cap = 0;
}

/* ---- paths as a command from the current folder names them ---- */

/* The absolute, symlink-free form of path, whose tail may not exist yet:
 * the longest existing prefix through realpath, the rest appended. */
static int resolve(const char *path, char *out, size_t n)
{
    char buf[PATH_MAX], rest[PATH_MAX] = "";
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return 0;
    for (;;) {
        char real[PATH_MAX];
        if (realpath(buf, real)) {
            size_t rl = strlen(real);
            return snprintf(out, n, "%s%s%s", real, rest[0] && (rl == 0 || real[rl - 1] != '/') ? "/" : "", rest) <
                   (int)n;
        }
        char *slash = strrchr(buf, '/');
        if (!slash)
            return 0;
        char tail[PATH_MAX];
        snprintf(tail, sizeof tail, "%s%s%s", slash + 1, rest[0] && slash[1] ? "/" : "", rest);
        snprintf(rest, sizeof rest, "%s", tail);
        if (slash == buf)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
}

void gp_fs_relative(char *out, size_t n, const char *path)
{
    char cwd[PATH_MAX], target[PATH_MAX];
    if (!path || path[0] != '/') {
        snprintf(out, n, "%s", path ? path : "");
        return;
    }
    if (!getcwd(cwd, sizeof cwd) || !resolve(cwd, cwd, sizeof cwd) || !resolve(path, target, sizeof target)) {
        gp_fs_base_name(out, n, path);
        return;
    }
    /* the common leading components */
    size_t i = 0, common = 0;
    while (cwd[i] && cwd[i] == target[i]) {
        i++;
        if (cwd[i] == '/' || (!cwd[i] && (target[i] == '/' || !target[i])))
            common = i;
    }
    if (!cwd[i] && (target[i] == '/' || !target[i]))
        common = i;
    size_t used = 0;
    out[0] = '\0';
    for (const char *c = cwd + common; *c; c++)
        if (*c == '/' && c[1] && used + 4 < n) {
            memcpy(out + used, "../", 4);
            used += 3;
        }
    const char *t = target + common;
    while (*t == '/')
        t++;
    if (!*t && used == 0)
        snprintf(out, n, ".");
    else if (!*t && used > 0)
        out[used - 1] = '\0';
    else
        snprintf(out + used, n - used, "%s", t);
}

gp_status gp_fs_split_file(const char *path, const char *what, char *dir, size_t dn, const char **name)
{
    if (gp_fs_is_dir(path))
        return gp_fail(GP_ERR_USAGE, "%s '%s' is a folder; name a file in it", what, path);
    if (snprintf(dir, dn, "%s", path) >= (int)dn)
        return gp_fail(GP_ERR_USAGE, "%s path too long: '%s'", what, path);
    char *slash = strrchr(dir, '/');
    *name = slash ? path + (slash - dir) + 1 : path;
    if (!**name)
        return gp_fail(GP_ERR_USAGE, "%s '%s' names no file", what, path);
    if (!slash)
        snprintf(dir, dn, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return gp_ok();
}

gp_status gp_fs_write_file(const char *path, const char *what, void (*write)(FILE *f, const void *ctx),
                           const void *ctx)
{
    char dir[1024];
    const char *name = NULL;
    GP_TRY(gp_fs_split_file(path, what, dir, sizeof dir, &name));
    gp_fs_set set;
    FILE *f;
    GP_TRY(gp_fs_set_begin(&set, dir));
    gp_status st = gp_fs_set_open(&set, name, &f);
    if (st.code == GP_OK) {
        write(f, ctx);
        st = gp_fs_set_close(&set, f, name);
    }
    if (st.code == GP_OK)
        return gp_fs_set_commit(&set);
    gp_fs_set_abort(&set);
    return st;
}
