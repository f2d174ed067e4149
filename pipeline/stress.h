/* A node under load: every GPU runs the FMA chain kernel (fma_throughput)
 * and the DRAM triad (memory_bandwidth) for a fixed time, first each GPU
 * alone, then all of them at once, while the vendor library samples clock,
 * power, temperature and the clock event reasons of every GPU
 * (common/telemetry.h).  A GPU whose rate together falls more than
 * `max_loss` below its rate alone is flagged: the node cannot feed or cool
 * every GPU at full speed, or they share a link.  Health counters and the
 * XID events seen during the run go with each GPU.
 *
 * Rates are per launch (about 20 ms each, event-timed), the first launch of
 * each phase dropped; a phase's rate is the median over its launches, with
 * the 10th and 90th percentiles beside it. */
#ifndef GP_STRESS_H
#define GP_STRESS_H

#include <stddef.h>

#include "runtime.h"
#include "smi.h"
#include "telemetry.h"

#define GP_STRESS_MAX_GPUS GP_TELEMETRY_MAX_GPUS
#define GP_STRESS_DEFAULT_SECONDS 15.0
#define GP_STRESS_DEFAULT_MAX_LOSS 0.05

enum { GP_STRESS_FMA = 0, GP_STRESS_DRAM = 1, GP_STRESS_NPHASES = 2 };

typedef struct gp_stress_opts {
    const int *devices;    /* runtime indices of the GPUs to load */
    int ndevices;
    double seconds;        /* length of each phase (FMA, DRAM), alone and together */
    double max_loss;       /* a GPU losing more than this fraction together is flagged */
    int skip_alone;        /* 1: only the concurrent phase (no one-GPU reference) */
    int progress;          /* 1: a line per phase on stderr */
} gp_stress_opts;

/* One phase of one GPU: rate over its launches, the span it ran in (seconds
 * on the telemetry clock) and what the vendor library saw in it. */
typedef struct gp_stress_phase {
    int launches;                  /* counted (the first, a warm-up, is not) */
    double median, p10, p90;       /* TFLOP/s (FMA) or GB/s (DRAM); NaN: not run */
    double t0, t1;
    gp_telemetry_summary tel;
} gp_stress_phase;

typedef struct gp_stress_gpu {
    gp_device_info dev;
    gp_stress_phase alone[GP_STRESS_NPHASES], together[GP_STRESS_NPHASES];
    double ratio[GP_STRESS_NPHASES];  /* together / alone median; NaN without both */
    int lost[GP_STRESS_NPHASES];      /* ratio below 1 - max_loss */
    gp_smi_health health;             /* read after the run */
    gp_smi_link link_loaded;          /* PCIe link read while host-to-device copies load it */
    int link_downtrained;             /* 1: below its maximum generation or width under load */
    int xids;                         /* XID events during the run; -1: not watched (xid_why) */
    unsigned long long last_xid;
    char xid_why[96];
    size_t dram_bytes;                /* the triad's three arrays */
} gp_stress_gpu;

typedef struct gp_stress {
    gp_stress_opts opts;
    int ngpus;
    gp_stress_gpu gpus[GP_STRESS_MAX_GPUS];
    gp_telemetry_sample *samples;     /* every reading of the run (owned) */
    size_t nsamples;
    double together_t0, together_t1;  /* the concurrent phases' span */
    char date[16];
} gp_stress;

/* Run the phases on opts->devices.  GP_ERR_NO_GPU without a GPU backend;
 * the first GPU error stops the run (every thread is joined first). */
gp_status gp_stress_run(const gp_stress_opts *opts, gp_stress *out);
void gp_stress_free(gp_stress *s);

/* Pure: ratios and flags from the phases (also applied by gp_stress_run). */
void gp_stress_judge(gp_stress *s);
/* GPUs flagged: a loss under load, a health finding, an XID, a downtrained link. */
int gp_stress_flagged(const gp_stress *s, int g, char *why, size_t n);

/* stress.json, stress.md, stress_samples.csv and the plots (clock, power,
 * temperature over time, one line per GPU; rates alone and together) into
 * dir, each written whole or not at all. */
gp_status gp_stress_write(const gp_stress *s, const char *dir);

#endif
