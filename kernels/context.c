/* The library's context (context.h). */
#define _POSIX_C_SOURCE 200809L
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "device_id.h"
#include "fsutil.h"
#include "kernel.h"
#include "table.h"
#include "tables_dir.h"
#include "target_check.h"
#include "transfer.h"

/* One kept parameter set: kernel, shape, and the parameters (params_size
 * bytes of the kernel's struct). */
typedef struct entry {
    const gp_kernel *k;
    gp_shape s;
    void *p;
} entry;

struct gp_context {
    gp_device_info dev;
    gp_table table;
    gp_context_table_from from;
    char said[GP_TABLE_PATH_LEN + 160];
    mtx_t lock;
    entry *slots;   /* open addressing, nslots a power of two, at most half full */
    int nslots, nused;
    int bound;      /* opened on a device (gp_context_open): calls make it current */
};

/* ---- the table (context.h, the order) */

static gp_status load_for(const char *path, const gp_device_info *dev, gp_table *t)
{
    GP_TRY(gp_table_load(path, t));
    const gp_table_entry *arch = gp_table_find(t, "device", "arch");
    if (strcmp(arch->text, dev->arch) && strcmp(arch->text, GP_TABLE_GENERIC_ARCH))
        return gp_fail(GP_ERR_USAGE, "%s: table written for %s, this GPU is %s", path, arch->text, dev->arch);
    return gp_kernel_check_tables(t, path);
}

gp_status gp_context_cache_path(const char *cache_dir, const gp_device_info *dev, char *out, size_t n)
{
    char root[GP_TABLE_PATH_LEN], folder[64];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache_dir && *cache_dir)
        snprintf(root, sizeof root, "%s", cache_dir);
    else if (xdg && *xdg)
        snprintf(root, sizeof root, "%s", xdg);
    else if (home && *home)
        snprintf(root, sizeof root, "%s/.cache", home);
    else
        return gp_fail(GP_ERR_USAGE, "the per-device table cache: neither XDG_CACHE_HOME nor HOME is set");
    gp_device_folder_name(dev->pci_bus_id, dev->uuid, dev->index, folder, sizeof folder);
    if (snprintf(out, n, "%s/gpuprobe/%s/%s", root, folder, GP_TABLE_RESULTS_NAME) >= (int)n)
        return gp_fail(GP_ERR_USAGE, "the per-device table cache: path under '%s' too long", root);
    return gp_ok();
}

gp_status gp_context_cache_store(const char *cache_dir, const gp_device_info *dev, const char *table, char *stored,
                                 size_t n)
{
    char path[GP_TABLE_PATH_LEN], dir[GP_TABLE_PATH_LEN], *text = NULL;
    size_t len = 0;
    FILE *f = NULL;
    GP_TRY(gp_context_cache_path(cache_dir, dev, path, sizeof path));
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    GP_TRY(gp_fs_read_regular(table, 16u << 20, "the measured table", &text, &len));
    gp_status st = gp_fs_mkdirs(dir);
    if (st.code == GP_OK)
        st = gp_fs_open_atomic(path, &f);
    if (st.code == GP_OK) {
        fwrite(text, 1, len, f);
        st = gp_fs_commit(f, path);
    }
    free(text);
    if (st.code == GP_OK)
        snprintf(stored, n, "%s", path);
    return st;
}

static gp_status find_table(gp_context *c, const gp_context_opts *o)
{
    char path[GP_TABLE_PATH_LEN] = "", dir[GP_TABLE_PATH_LEN];
    const char *given = o && o->table ? o->table : NULL, *env = getenv("GP_TABLE");
    if (given || (env && *env)) {
        c->from = given ? GP_CONTEXT_TABLE_GIVEN : GP_CONTEXT_TABLE_ENV;
        GP_TRY(load_for(given ? given : env, &c->dev, &c->table));
        snprintf(c->said, sizeof c->said, "%s: %s", given ? "given" : "GP_TABLE", given ? given : env);
        return gp_ok();
    }
    if (gp_context_cache_path(o ? o->cache_dir : NULL, &c->dev, path, sizeof path).code == GP_OK &&
        gp_fs_exists(path)) {
        c->from = GP_CONTEXT_TABLE_CACHE;
        GP_TRY(load_for(path, &c->dev, &c->table));
        snprintf(c->said, sizeof c->said, "measured: the per-device cache %s", path);
        return gp_ok();
    }
    gp_tables_from tf = gp_tables_dir_find(o ? o->tables_dir : NULL, dir, sizeof dir);
    if (tf == GP_TABLES_FROM_NONE)
        return gp_fail(GP_ERR_USAGE, "no tuning table: none given, none measured for this GPU (gpuprobe "
                       "characterize fills %s) and no shipped tables found (set GP_TABLES_DIR)",
                       path[0] ? path : "the per-device cache");
    const char *names[2] = {c->dev.arch, GP_TABLE_GENERIC_ARCH};
    for (int i = 0; i < 2; i++) {
        GP_TRY(gp_fs_join(path, sizeof path, dir, names[i]));
        if (!gp_fs_exists(path))
            continue;
        c->from = i ? GP_CONTEXT_TABLE_GENERIC : GP_CONTEXT_TABLE_SHIPPED;
        GP_TRY(load_for(path, &c->dev, &c->table));
        snprintf(c->said, sizeof c->said, "%s: %s (tables from %s)", i ? "generic" : "shipped", path,
                 gp_tables_from_name(tf));
        return gp_ok();
    }
    return gp_fail(GP_ERR_USAGE, "%s holds neither %s nor %s", dir, c->dev.arch, GP_TABLE_GENERIC_ARCH);
}

gp_status gp_context_open_for(const gp_device_info *dev, const gp_context_opts *opts, gp_context **out)
{
    if (!out || !dev)
        return gp_fail(GP_ERR_USAGE, "gpuprobe context: %s is NULL", !out ? "the context's address" : "the device");
    *out = NULL;
    gp_context *c = calloc(1, sizeof *c);
    if (!c)
        return gp_fail(GP_ERR_NOMEM, "gpuprobe context: out of host memory");
    if (mtx_init(&c->lock, mtx_plain) != thrd_success) {
        free(c);
        return gp_fail(GP_ERR_NOMEM, "gpuprobe context: no mutex");
    }
    c->dev = *dev;
    gp_status st = find_table(c, opts);
    if (st.code != GP_OK) {
        gp_context_close(c);
        return st;
    }
    *out = c;
    return gp_ok();
}

gp_status gp_context_open(const gp_context_opts *opts, gp_context **out)
{
    gp_device_info dev;
    if (!out)
        return gp_fail(GP_ERR_USAGE, "gpuprobe context: the context's address is NULL");
    *out = NULL;
    GP_TRY(gp_device_open_checked(opts ? opts->device : 0, &dev));
    GP_TRY(gp_context_open_for(&dev, opts, out));
    (*out)->bound = 1;
    return gp_ok();
}

void gp_context_close(gp_context *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nslots; i++)
        free(c->slots[i].p);
    free(c->slots);
    mtx_destroy(&c->lock);
    free(c);
}

const gp_device_info *gp_context_device(const gp_context *c) { return &c->dev; }
int gp_context_bound_device(const gp_context *c) { return c && c->bound ? c->dev.index : -1; }
const gp_table *gp_context_table(const gp_context *c) { return &c->table; }
gp_context_table_from gp_context_table_source(const gp_context *c) { return c->from; }
const char *gp_context_table_said(const gp_context *c) { return c->said; }

int gp_context_nshapes(const gp_context *c)
{
    mtx_lock((mtx_t *)&c->lock);
    int n = c->nused;
    mtx_unlock((mtx_t *)&c->lock);
    return n;
}

/* ---- the kept parameter sets */

static unsigned hash_of(const gp_kernel *k, const gp_shape *s)
{
    unsigned long long h = 1469598103934665603ull ^ (unsigned long long)(size_t)k;
    const unsigned char *b = (const unsigned char *)s;
    for (size_t i = 0; i < sizeof *s; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return (unsigned)(h ^ (h >> 32));
}

/* The slot of (k, s): its entry, or the empty slot it would take. */
static entry *slot_of(entry *slots, int nslots, const gp_kernel *k, const gp_shape *s)
{
    for (unsigned i = hash_of(k, s) & (unsigned)(nslots - 1);; i = (i + 1) & (unsigned)(nslots - 1))
        if (!slots[i].k || (slots[i].k == k && !memcmp(&slots[i].s, s, sizeof *s)))
            return &slots[i];
}

/* An application that calls with ever new sizes (a reduction over every n)
 * would grow the kept sets without end: past GP_CONTEXT_MAX_SHAPES they are
 * all forgotten and derived again as they come (a derivation costs
 * microseconds; the slots stay allocated). */
static void forget_all(gp_context *c)
{
    for (int i = 0; i < c->nslots; i++) {
        free(c->slots[i].p);
        c->slots[i].p = NULL, c->slots[i].k = NULL;
    }
    c->nused = 0;
}

static gp_status grow(gp_context *c)
{
    int n = c->nslots ? 2 * c->nslots : 64;
    entry *slots = calloc((size_t)n, sizeof *slots);
    if (!slots)
        return gp_fail(GP_ERR_NOMEM, "gpuprobe context: out of host memory for parameter sets");
    for (int i = 0; i < c->nslots; i++)
        if (c->slots[i].k)
            *slot_of(slots, n, c->slots[i].k, &c->slots[i].s) = c->slots[i];
    free(c->slots);
    c->slots = slots, c->nslots = n;
    return gp_ok();
}

#define GP_CONTEXT_MAX_COUNT ((size_t)1 << 48)

gp_status gp_context_params_of_count(gp_context *ctx, const gp_kernel *k, size_t n, int opt0, int opt1, void *p)
{
    gp_shape s;
    memset(&s, 0, sizeof s);
    s.d[0] = (long long)n, s.opt[0] = opt0, s.opt[1] = opt1;
    if (!ctx)
        return gp_fail(GP_ERR_USAGE, "%s: no context (gp_context_open)", k->name);
    /* Before any rule sees it: the rules size bytes and tiles from n in long
     * long arithmetic, and no device holds 2^48 elements. */
    if (n > GP_CONTEXT_MAX_COUNT)
        return gp_fail(GP_ERR_USAGE, "%s: %zu elements, more than any device holds (at most 2^48)", k->name, n);
    return gp_context_params(ctx, k, &s, p);
}

gp_status gp_context_params(gp_context *c, const gp_kernel *k, const gp_shape *s, void *p)
{
    if (!c || !k || !s || !p)
        return gp_fail(GP_ERR_USAGE, "gp_context_params: %s is NULL",
                       !c ? "the context" : !k ? "the kernel" : !s ? "the shape" : "the parameters' address");
    /* Every call asks for its parameters first: the context's device is
     * made current on the calling thread here, so a call launches on its
     * context's device whatever another context or thread made current. */
    if (c->bound)
        GP_TRY(gp_rt_set_device(c->dev.index));
    mtx_lock(&c->lock);
    if (c->nslots) {
        entry *e = slot_of(c->slots, c->nslots, k, s);
        if (e->k) {
            memcpy(p, e->p, k->params_size);
            mtx_unlock(&c->lock);
            return gp_ok();
        }
    }
    mtx_unlock(&c->lock);
    /* A new shape: derived outside the lock (the rules run on per-thread
     * scratch tables), then kept unless another thread kept it first. */
    char note[160];
    GP_TRY(gp_kernel_params(k, &c->table, &c->dev, s, 1, p, note, sizeof note));
    void *copy = malloc(k->params_size);
    if (!copy)
        return gp_fail(GP_ERR_NOMEM, "gpuprobe context: out of host memory for parameter sets");
    memcpy(copy, p, k->params_size);
    gp_status st = gp_ok();
    mtx_lock(&c->lock);
    if (c->nused >= GP_CONTEXT_MAX_SHAPES)
        forget_all(c);
    if (2 * (c->nused + 1) > c->nslots)
        st = grow(c);
    if (st.code == GP_OK) {
        entry *e = slot_of(c->slots, c->nslots, k, s);
        if (!e->k) {
            e->k = k, e->s = *s, e->p = copy, copy = NULL;
            c->nused++;
        }
    }
    mtx_unlock(&c->lock);
    free(copy);
    return st;
}
