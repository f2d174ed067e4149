/* The memory of one problem (kmem.h). */
#include "kmem.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "runtime.h"
#include "transfer.h"

/* Page-locked bytes this process holds through kmem: pinning stops at a
 * quarter of the host's memory, so a large problem cannot starve the host. */
static atomic_size_t pinned_total;

static size_t pin_limit(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages / 4 * (size_t)page : 0;
}

/* A large buffer pinned (zeroed here: pinned memory comes as it was left),
 * else NULL.  Only output mirrors ask: they are copied back at every check
 * (tune checks each candidate on each problem), where pinning pays; an
 * input goes up once a problem, and pinning it costs more than it saves
 * (the H200 host: reduce's 1 GiB inputs pinned, its set-up 3.5 s against
 * 2.8-3.0 s with only the mirrors pinned). */
static void *host_pinned(size_t bytes)
{
    void *p = NULL;
    if (bytes < GP_KMEM_PIN_MIN)
        return NULL;
    if (atomic_fetch_add(&pinned_total, bytes) + bytes <= pin_limit() &&
        gp_rt_host_alloc_pinned(&p, bytes).code == GP_OK && p)
        return memset(p, 0, bytes);
    atomic_fetch_sub(&pinned_total, bytes);
    return NULL;
}

/* Host memory for m, page-locked where `pin` asks and the runtime can. */
static void *host_alloc(gp_kmem *m, size_t bytes, int pin)
{
    void *p = NULL;
    if (m->nhost < GP_KMEM_HOST_MAX) {
        p = pin ? host_pinned(bytes) : NULL;
        m->host_pinned[m->nhost] = p ? bytes : 0;
        p = p ? p : calloc(1, bytes ? bytes : 1);
    }
    if (p)
        m->host[m->nhost++] = p;
    else if (!m->failed_bytes)
        m->failed_bytes = bytes ? bytes : 1;
    return p;
}

void *gp_kmem_host(gp_kmem *m, size_t bytes) { return host_alloc(m, bytes, 0); }

gp_status gp_kmem_ok(const gp_kmem *m)
{
    if (m->failed_bytes)
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory for %zu bytes", m->kernel ? m->kernel : "kernel",
                       m->failed_bytes);
    return gp_ok();
}

gp_status gp_kmem_dev(gp_kmem *m, void **d, size_t bytes)
{
    *d = NULL;
    if (m->ndev >= GP_KMEM_DEV_MAX)
        return gp_fail(GP_ERR_USAGE, "%s: more than %d device buffers a problem", m->kernel, GP_KMEM_DEV_MAX);
    GP_TRY(gp_rt_malloc(d, bytes ? bytes : 1));
    m->dev[m->ndev++] = *d;
    return gp_ok();
}

gp_status gp_kmem_dev_copy(gp_kmem *m, void **d, const void *h, size_t bytes)
{
    GP_TRY(gp_kmem_dev(m, d, bytes));
    return bytes ? gp_rt_copy_to_device(*d, h, bytes) : gp_ok();
}

gp_status gp_kmem_output(gp_kmem *m, void **d, void **h, size_t bytes, int guard)
{
    if (m->nout >= GP_KMEM_OUT_MAX)
        return gp_fail(GP_ERR_USAGE, "%s: more than %d outputs a problem", m->kernel, GP_KMEM_OUT_MAX);
    gp_kmem_out *o = &m->out[m->nout];
    const size_t all = bytes + 8 * (size_t)guard;
    o->bytes = bytes, o->guard = guard;
    if (h) {
        o->mirror = host_alloc(m, all, 1); /* copied back at every check */
        GP_TRY(gp_kmem_ok(m));
        *h = o->mirror + guard;
    }
    GP_TRY(gp_kmem_dev(m, &o->base, all));
    *d = (uint32_t *)o->base + guard;
    m->nout++;
    return gp_ok();
}

gp_status gp_kmem_poison(const gp_kmem *m)
{
    for (int i = 0; i < m->nout; i++)
        GP_TRY(gp_dev_poison(m->out[i].base, m->out[i].bytes + 8 * (size_t)m->out[i].guard));
    return gp_ok();
}

gp_status gp_kmem_fetch(const gp_kmem *m, const char *what)
{
    for (int i = 0; i < m->nout; i++) {
        const gp_kmem_out *o = &m->out[i];
        if (!o->mirror)
            continue;
        GP_TRY(gp_rt_copy_to_host(o->mirror, o->base, o->bytes + 8 * (size_t)o->guard));
        if (o->guard)
            GP_TRY(gp_check_guards(what, o->mirror, o->mirror + o->guard + o->bytes / 4, o->guard));
    }
    return gp_ok();
}

gp_status gp_kmem_digest(const gp_kmem *m, uint64_t *h)
{
    enum { CHUNK = 1 << 22 };
    unsigned char *buf = malloc(CHUNK);
    gp_status st = buf ? gp_ok() : gp_fail(GP_ERR_NOMEM, "%s: out of host memory for a digest", m->kernel);
    *h = 14695981039346656037ull;
    for (int i = 0; i < m->nout && st.code == GP_OK; i++)
        for (size_t at = 0; at < m->out[i].bytes && st.code == GP_OK; at += CHUNK) {
            const size_t len = m->out[i].bytes - at < CHUNK ? m->out[i].bytes - at : CHUNK;
            st = gp_rt_copy_to_host(buf, (char *)m->out[i].base + 4 * (size_t)m->out[i].guard + at, len);
            for (size_t k = 0; k < len && st.code == GP_OK; k++)
                *h = (*h ^ buf[k]) * 1099511628211ull;
        }
    free(buf);
    return st;
}

/* Slot i's parameters (its plan follows them, 16-byte aligned). */
static unsigned char *slot(const gp_kmem *m, int i, int plan)
{
    const size_t at = (m->plan_kind->params_size + 15) / 16 * 16;
    return m->plans + (size_t)i * (at + m->plan_kind->size) + (plan ? at : 0);
}

gp_status gp_kmem_plan(gp_kmem *m, const gp_kplan_kind *kind, const void *p, int path, void **plan)
{
    if (m->plan_kind && m->plan_kind != kind)
        return gp_fail(GP_ERR_USAGE, "%s: plans of two kinds in one problem", m->kernel);
    m->plan_kind = kind;
    if (!m->plans && !(m->plans = calloc(GP_KMEM_PLANS, (kind->params_size + 15) / 16 * 16 + kind->size)))
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory for %d plans", m->kernel, GP_KMEM_PLANS);
    int i = 0;
    for (int j = 0; j < GP_KMEM_PLANS; j++) {
        const int same = gp_params_same(kind->params, kind->nparams, slot(m, j, 0), p);
        if (m->plan_used[j] && m->plan_path[j] == path && same) {
            m->plan_used[j] = ++m->plan_clock;
            if (plan)
                *plan = slot(m, j, 1);
            return gp_ok();
        }
        i = m->plan_used[j] < m->plan_used[i] ? j : i; /* an empty slot (0), else the least recently used */
    }
    if (m->plan_used[i] && kind->destroy)
        kind->destroy(slot(m, i, 1));
    m->plan_used[i] = 0;
    memset(slot(m, i, 1), 0, kind->size);
    GP_TRY(kind->make(m, p, path, slot(m, i, 1)));
    memcpy(slot(m, i, 0), p, kind->params_size);
    m->plan_path[i] = path, m->plan_used[i] = ++m->plan_clock;
    if (plan)
        *plan = slot(m, i, 1);
    return gp_ok();
}

void gp_kmem_free(gp_kmem *m)
{
    for (int i = 0; m->plans && i < GP_KMEM_PLANS; i++)
        if (m->plan_used[i] && m->plan_kind->destroy)
            m->plan_kind->destroy(slot(m, i, 1));
    free(m->plans);
    m->plans = NULL, m->plan_kind = NULL;
    memset(m->plan_used, 0, sizeof m->plan_used);
    for (int i = 0; i < m->nhost; i++) {
        if (!m->host_pinned[i])
            free(m->host[i]);
        else if (gp_rt_host_free_pinned(m->host[i]).code == GP_OK)
            atomic_fetch_sub(&pinned_total, m->host_pinned[i]);
        /* else leaked and still counted: later buffers fall back to calloc
         * sooner, the safe side for a runtime that can no longer free */
        m->host_pinned[i] = 0;
    }
    gp_dev_free_all(m->dev, (size_t)m->ndev);
    m->nhost = m->ndev = m->nout = 0;
}

gp_status gp_kmem_input(gp_kmem *m, void **d, const void *h, size_t bytes, size_t skip)
{
    char *base;
    GP_TRY(gp_kmem_dev(m, (void **)&base, skip + bytes + 16));
    *d = base + skip;
    return h && bytes ? gp_rt_copy_to_device(*d, h, bytes) : gp_ok();
}

gp_status gp_kmem_output_at(gp_kmem *m, void **d, void **h, size_t bytes, int guard, int words)
{
    /* Declared `words` longer, then moved up by as much: what the driver
     * poisons and copies back (base .. base + bytes + both guards) ends
     * where the allocation does. */
    GP_TRY(gp_kmem_output(m, d, h, bytes + 4 * (size_t)words, guard));
    gp_kmem_out *o = &m->out[m->nout - 1];
    o->base = (uint32_t *)o->base + words, o->bytes = bytes;
    *d = (uint32_t *)*d + words;
    return gp_ok();
}

gp_status gp_kmem_scratch(gp_kmem *m, gp_scratch *sc, gp_scratch_call_fn call, void *st)
{
    if (!sc->d) {
        GP_TRY(call(st, NULL));
        GP_TRY(gp_kmem_dev(m, &sc->d, sc->bytes ? sc->bytes : 16));
    }
    return call(st, sc->d);
}
