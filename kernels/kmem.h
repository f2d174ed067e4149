/* The memory of one problem, and its plans, freed by the driver with the
 * problem.
 *
 * A kernel's problem state (gp_kernel.state_size bytes, zeroed) starts with a
 * gp_kmem; what its set-up allocates through it, host or device, the driver
 * frees after the kernel's own teardown (if any), on success and on error
 * alike, so a set-up returns at its first failure and leaks nothing.
 *
 * An output declared with gp_kmem_output is poisoned by the driver before
 * every run that is checked (0xFF bytes: NaN, -1), guard words and all; where
 * it has a host mirror the driver copies it back, and checks its guards,
 * before the kernel's check reads the mirror. */
#ifndef GP_KMEM_H
#define GP_KMEM_H

#include <stddef.h>
#include <stdint.h>

#include "gp_status.h"
#include "params.h"

#define GP_KMEM_HOST_MAX 12
#define GP_KMEM_DEV_MAX 12
#define GP_KMEM_OUT_MAX 4
/* Output mirrors of this size or more are page-locked where the runtime
 * can: the copy engines then move them at the link's rate, not the staged
 * pageable one (H200: D2H 9.5 GB/s pageable), which tune's checks of large
 * outputs, one a candidate, would otherwise wait on. */
#define GP_KMEM_PIN_MIN ((size_t)32 << 20)
#define GP_KMEM_PLANS 4 /* plans kept a problem: tune pairs two parameter sets run after run */

/* The plans of one problem (what a launch needs, made on the host: a kernel's
 * own, a forced code path's), made once per launch key and kept, so that
 * the first, untimed run makes them and the timed ones reuse them.  A key
 * is the declared parameters and a path: what else picks the code (ours:
 * -1; a variant or format forced). */
typedef struct gp_kplan_kind {
    size_t size;             /* bytes of a plan */
    const gp_param *params;  /* the parameters' declaration (params.h) */
    int nparams;
    size_t params_size;
    /* The plan of (p, path) into `plan` (size bytes, zeroed) for the problem
     * whose state is st (the state that starts with the gp_kmem); on an
     * error it leaves nothing to free. */
    gp_status (*make)(void *st, const void *p, int path, void *plan);
    void (*destroy)(void *plan); /* NULL: a plan holds nothing to free */
} gp_kplan_kind;

typedef struct gp_kmem_out {
    void *base;         /* device: front guard, output, back guard */
    uint32_t *mirror;   /* host copy of the same words; NULL: the check reads the output itself */
    size_t bytes;       /* of the output, guards not counted */
    int guard;          /* 4-byte words of guard on each side */
} gp_kmem_out;

typedef struct gp_kmem {
    const char *kernel; /* for messages (the driver sets it) */
    void *host[GP_KMEM_HOST_MAX];
    size_t host_pinned[GP_KMEM_HOST_MAX]; /* its bytes where host[i] is page-locked, else 0 */
    void *dev[GP_KMEM_DEV_MAX];
    int nhost, ndev, nout;
    size_t failed_bytes; /* a host allocation that failed (gp_kmem_ok says so) */
    gp_kmem_out out[GP_KMEM_OUT_MAX];
    const gp_kplan_kind *plan_kind;
    unsigned char *plans;                       /* GP_KMEM_PLANS slots: the parameters, then the plan */
    int plan_path[GP_KMEM_PLANS];
    unsigned long long plan_used[GP_KMEM_PLANS]; /* its last use (0: the slot is empty) */
    unsigned long long plan_clock;
} gp_kmem;

/* Host memory (zeroed), or NULL (gp_kmem_ok then fails naming the size). */
void *gp_kmem_host(gp_kmem *m, size_t bytes);
/* GP_ERR_NOMEM naming the kernel when a gp_kmem_host failed. */
gp_status gp_kmem_ok(const gp_kmem *m);
/* Device memory of `bytes` (at least one byte, as gp_kmem_host: an empty
 * array still has an address); with h, filled from it. */
gp_status gp_kmem_dev(gp_kmem *m, void **d, size_t bytes);
gp_status gp_kmem_dev_copy(gp_kmem *m, void **d, const void *h, size_t bytes);
/* An output of `bytes` between `guard` words of guard on each side: *d the
 * output on the device, *h (h may be NULL: no mirror) its host mirror
 * (page-locked from GP_KMEM_PIN_MIN bytes where the runtime can). */
gp_status gp_kmem_output(gp_kmem *m, void **d, void **h, size_t bytes, int guard);

/* The plan of (p, path): the one kept, else made by kind->make in the
 * least recently used of GP_KMEM_PLANS slots (the plan there destroyed
 * first), into *plan (plan may be NULL: made, not wanted yet).  Every call
 * gives m the same kind.  A plan stays where it is until its slot is needed,
 * so the plan returned last is still there after the next call. */
gp_status gp_kmem_plan(gp_kmem *m, const gp_kplan_kind *kind, const void *p, int path, void **plan);

/* Every declared output poisoned (the driver, before a checked run). */
gp_status gp_kmem_poison(const gp_kmem *m);
/* Every mirrored output copied back, its guards checked (`what` names the run). */
gp_status gp_kmem_fetch(const gp_kmem *m, const char *what);
/* FNV-1a of every declared output's bytes, copied back a chunk at a time. */
gp_status gp_kmem_digest(const gp_kmem *m, uint64_t *h);
/* Everything allocated through m, its plans destroyed first. */
void gp_kmem_free(gp_kmem *m);

/* ---- a case's buffers, allocated through its gp_kmem (freed with it) */

/* 4-byte words of guard poisoned on each side of a case's output (a store
 * past either end shows), the `guard` of gp_kmem_output. */
#define GP_KCASE_GUARD 16

/* An input of `bytes` starting `skip` bytes past an aligned address (the
 * case's offset), with 16 bytes to spare after it (a 16-byte load that
 * covers its last element stays inside); *d the input, filled from h where
 * h is not NULL. */
gp_status gp_kmem_input(gp_kmem *m, void **d, const void *h, size_t bytes, size_t skip);
/* An output as gp_kmem_output declares it (poisoned, guarded, mirrored
 * into *h where h is not NULL), but `words` 4-byte words (0..3) past the
 * 16-byte alignment: the front guard, the output and the back guard all
 * start there. */
gp_status gp_kmem_output_at(gp_kmem *m, void **d, void **h, size_t bytes, int guard, int words);
/* The scratch of a library call that, given none (NULL), says how many
 * bytes it needs (CUB's calls: into sc->bytes): the first gp_kmem_scratch
 * asks, allocates sc->d through m, and every one calls call(st, sc->d). */
typedef struct gp_scratch {
    void *d;
    size_t bytes;
} gp_scratch;
typedef gp_status (*gp_scratch_call_fn)(void *st, void *tmp);
gp_status gp_kmem_scratch(gp_kmem *m, gp_scratch *sc, gp_scratch_call_fn call, void *st);

#endif
