/* The memory of one problem, freed by the driver with the problem.
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

#define GP_KMEM_HOST_MAX 12
#define GP_KMEM_DEV_MAX 12
#define GP_KMEM_OUT_MAX 4

typedef struct gp_kmem_out {
    void *base;         /* device: front guard, output, back guard */
    uint32_t *mirror;   /* host copy of the same words; NULL: the check reads the output itself */
    size_t bytes;       /* of the output, guards not counted */
    int guard;          /* 4-byte words of guard on each side */
} gp_kmem_out;

typedef struct gp_kmem {
    const char *kernel; /* for messages (the driver sets it) */
    void *host[GP_KMEM_HOST_MAX];
    void *dev[GP_KMEM_DEV_MAX];
    int nhost, ndev, nout;
    size_t failed_bytes; /* a host allocation that failed (gp_kmem_ok says so) */
    gp_kmem_out out[GP_KMEM_OUT_MAX];
} gp_kmem;

/* Host memory (zeroed), or NULL (gp_kmem_ok then fails naming the size). */
void *gp_kmem_host(gp_kmem *m, size_t bytes);
/* GP_ERR_NOMEM naming the kernel when a gp_kmem_host failed. */
gp_status gp_kmem_ok(const gp_kmem *m);
/* Device memory of `bytes`; with h, filled from it. */
gp_status gp_kmem_dev(gp_kmem *m, void **d, size_t bytes);
gp_status gp_kmem_dev_copy(gp_kmem *m, void **d, const void *h, size_t bytes);
/* An output of `bytes` between `guard` words of guard on each side: *d the
 * output on the device, *h (h may be NULL: no mirror) its host mirror. */
gp_status gp_kmem_output(gp_kmem *m, void **d, void **h, size_t bytes, int guard);

/* Every declared output poisoned (the driver, before a checked run). */
gp_status gp_kmem_poison(const gp_kmem *m);
/* Every mirrored output copied back, its guards checked (`what` names the run). */
gp_status gp_kmem_fetch(const gp_kmem *m, const char *what);
/* FNV-1a of every declared output's bytes, copied back a chunk at a time. */
gp_status gp_kmem_digest(const gp_kmem *m, uint64_t *h);
/* Everything allocated through m. */
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
