/* The probe interface: every probe defines one `const gp_probe gp_probe_<name>`
 * in <name>.c.  The registry (registry.c) lists them; the CLI and CTest both
 * enumerate it (BabelStream's pattern: one interface, one driver). */
#ifndef GP_PROBE_H
#define GP_PROBE_H

#include <stddef.h>
#include "gp_status.h"
#include "record.h"
#include "runtime.h"

typedef struct gp_probe_opts {
    int device;           /* device index */
    int quick;            /* shorter sweeps and timings (smoke runs) */
    const char *out_dir;  /* where records are written */
    const char *version;  /* gpuprobe version, stored in the record (NULL: "") */
    const char *build;    /* gpuprobe --version's line, stored in the record (NULL: "") */
} gp_probe_opts;

typedef struct gp_probe_ctx {
    gp_device_info dev;
    const gp_probe_opts *opts;
    gp_record *rec;
    double clock_mhz;     /* measured before the probe: convert times to cycles with this */
} gp_probe_ctx;

typedef struct gp_probe {
    const char *name;
    const char *summary;
    /* Measure and analyse into ctx->rec. */
    gp_status (*run)(gp_probe_ctx *ctx);
    /* Sanity checks of the findings against the device; GP_ERR_CHECK with the
     * reason when a finding contradicts it. */
    gp_status (*check)(const gp_record *rec, const gp_device_info *dev);
} gp_probe;

size_t gp_probe_count(void);
const gp_probe *gp_probe_at(size_t i);   /* NULL past the end */
const gp_probe *gp_probe_find(const char *name);

/* Open the device, bracket the probe with clock readings, run, check, write
 * the record to opts->out_dir (with the check's outcome in it, so a failing
 * result is on disk to look at and a resumed run knows not to reuse it).
 * Results measured while the clock moved or another process used the GPU
 * are flagged in the record (gp_record_noise).  The record is left in *rec
 * for the caller (free it with gp_record_free). */
gp_status gp_probe_execute(const gp_probe *p, const gp_probe_opts *opts, gp_record *rec);

#endif
