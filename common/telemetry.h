/* What the vendor library says while work runs: clock, power, temperature
 * and the clock event reasons of one or more GPUs, sampled on a thread of
 * its own at a fixed interval, and summarized over a span of time.
 *
 * NVML refreshes these readings about every 100 ms at best (its sampling
 * period for power is of that order), so faster sampling only repeats
 * values; 50 ms catches every refresh.  A GPU the library cannot read gives
 * no samples, and its summary says why. */
#ifndef GP_TELEMETRY_H
#define GP_TELEMETRY_H

#include <stddef.h>

#include "gp_status.h"
#include "smi.h"

#define GP_TELEMETRY_INTERVAL_S 0.05
#define GP_TELEMETRY_MAX_GPUS 16

typedef struct gp_telemetry_sample {
    double t_s;                  /* seconds since the sampler started */
    int gpu;                     /* index into the sampler's GPU list */
    double sm_clock_mhz, power_w, temperature_c;
    unsigned long long reasons;  /* GP_SMI_REASON_* bits */
    int reasons_read;
} gp_telemetry_sample;

typedef struct gp_telemetry gp_telemetry;

/* Start sampling the GPUs at `bus_ids` (n of them, vendor as the runtime
 * names it) every interval_s seconds.  GP_ERR_NOMEM / GP_ERR_RUNTIME when
 * the thread cannot start; a GPU the library cannot read is not an error. */
gp_status gp_telemetry_start(const char *vendor, const char *const *bus_ids, int n, double interval_s,
                             gp_telemetry **out);
/* Seconds since the start, on the sampler's clock (to mark phases). */
double gp_telemetry_now(const gp_telemetry *t);
/* Stop the thread; the samples stay readable until gp_telemetry_free. */
void gp_telemetry_stop(gp_telemetry *t);
const gp_telemetry_sample *gp_telemetry_samples(const gp_telemetry *t, size_t *n);
void gp_telemetry_free(gp_telemetry *t);

/* One GPU over [t0, t1): samples read, the clock's median and minimum, the
 * power's median and maximum, the hottest reading, the union of the
 * reasons, and how many samples ran under a cap (GP_SMI_REASONS_CAP). */
typedef struct gp_telemetry_summary {
    int samples;                 /* 0: none read (why says why) */
    double clock_median_mhz, clock_min_mhz;
    double power_median_w, power_max_w;
    double temperature_max_c;
    unsigned long long reasons;  /* every reason seen, idle included */
    int reasons_read;            /* samples that gave the reasons */
    int capped;                  /* samples with a power, thermal or slowdown reason */
    char why[96];
} gp_telemetry_summary;

/* Pure: summarize `samples` (any order) for gpu over [t0, t1). */
void gp_telemetry_summarize(const gp_telemetry_sample *samples, size_t n, int gpu, double t0, double t1,
                            gp_telemetry_summary *out);

/* The capped fraction of the summary, 0 when no sample gave its reasons. */
double gp_telemetry_capped_fraction(const gp_telemetry_summary *s);

/* Whether gpu ran under a cap (GP_SMI_REASONS_CAP) over [t0, t1], as far
 * as the readings tell: 1 when one taken in [t0 - interval, t1] names a cap
 * (NVML's reasons are its state when read, held over its refresh period, so
 * the reading just before t0 speaks for the span's start); 0 when none
 * does and some gave reasons; -1 when no reading in the span gave any.
 * Pure: samples in any order. */
int gp_telemetry_capped_span(const gp_telemetry_sample *samples, size_t n, int gpu, double t0, double t1,
                             double interval);
/* The same over a running sampler's readings so far (under its lock). */
int gp_telemetry_capped(gp_telemetry *t, int gpu, double t0, double t1);

#endif
