/* A probe's result: values (with unit, method and spread), raw series, notes,
 * and the clocks it ran at.  Written as <probe>.json, <probe>.md and one
 * <probe>_<series>.csv per series, so any finding can be recomputed. */
#ifndef GP_RECORD_H
#define GP_RECORD_H

#include <stddef.h>
#include "clock.h"
#include "gp_status.h"
#include "runtime.h"
#include "telemetry.h"

#define GP_RECORD_MAX_VALUES 96
#define GP_RECORD_MAX_SERIES 12
#define GP_RECORD_MAX_NOTES 24
#define GP_SERIES_MAX_COLS 12

typedef struct gp_value {
    char key[64];
    double value;
    int detected;        /* 0: not detected; `note` says why */
    int unstable;        /* spread above the probe's stability threshold */
    char unit[32];
    double spread;       /* relative spread (p90-p10)/median of the samples behind it; <0 unknown */
    /* between-launch spread: the same measurement repeated in fresh launches,
     * (max-min)/median of the per-launch values; <0 not measured.  It catches
     * what one launch's samples share (placement, a clock state) */
    double spread_between;
    /* the value went through the core clock the probe measured before it ran
     * (probe.h's clock_mhz): a rate per cycle from an event time, a fraction
     * of a per-cycle peak, a time in ns from cycles.  A clock that moved
     * during the probe makes it uncertain, which `compare` reports
     * (GP_NOISE_CLOCK).  Set by gp_record_value from the unit
     * (gp_unit_per_cycle) and by gp_record_ns_of_cycles; a probe sets it for
     * other units.  JSON "clock_converted"; a record written before the
     * member existed is read by the unit. */
    int clock_converted;
    /* a near-tie recorded as a range (every candidate within the plateau's
     * spread, e.g. block sizes 256..768): range_lo <= value <= range_hi
     * when has_range; a point otherwise */
    int has_range;
    double range_lo, range_hi;
    /* what the range is when it is an uncertainty interval rather than a
     * near-tie (gp_value_interval): how it was derived, "" otherwise */
    char range_method[160];
    char method[256];
    char note[256];
} gp_value;

typedef struct gp_series {
    char name[48];
    int ncols;
    char cols[GP_SERIES_MAX_COLS][32];
    double *data;        /* row-major, nrows * ncols */
    size_t nrows, cap;
} gp_series;

/* What a record's check field holds: the probe's own sanity check, run
 * before the record is written (a resumed characterization reuses only
 * records whose check passed). */
#define GP_RECORD_CHECK_LEN 288

typedef struct gp_record {
    char probe[48];
    char date[16];
    char version[32];    /* gpuprobe version that measured it ("" unknown) */
    char build[320];     /* its `gpuprobe --version` line: git revision, targets,
                            compilers, baselines ("" in older records) */
    char check[GP_RECORD_CHECK_LEN]; /* "ok", "failed: <reason>", or "" (not run) */
    int quick;           /* measured with --quick (shorter sweeps) */
    gp_device_info dev;
    int have_clock;
    gp_clock_reading clock_before, clock_after;
    int clock_moved;
    /* The vendor library's readings over the probe's run (telemetry.h):
     * whether it ran under a power or thermal cap, and why. */
    int have_telemetry;
    gp_telemetry_summary telemetry;
    /* The GPU's health counters after the run (smi.h); source "none" with
     * the reason when no library gave them. */
    int have_health;
    gp_smi_health health;
    gp_value values[GP_RECORD_MAX_VALUES];
    int nvalues;
    gp_series series[GP_RECORD_MAX_SERIES];
    int nseries;
    char notes[GP_RECORD_MAX_NOTES][256];
    int nnotes;
} gp_record;

void gp_record_init(gp_record *r, const char *probe, const gp_device_info *dev);
void gp_record_free(gp_record *r);

/* 1 when `unit` is a rate per cycle ("op/cycle", "FMA/cycle",
 * "ops/cycle/CU"): every such value in this suite is a count over an event
 * time divided by the measured clock.  "cycles" alone (a latency read from
 * the in-kernel cycle counter) is not. */
int gp_unit_per_cycle(const char *unit);
/* Add a measured value; spread < 0 means unknown.  Returns the slot or NULL when full.
 * clock_converted starts as gp_unit_per_cycle(unit). */
gp_value *gp_record_value(gp_record *r, const char *key, double value, const char *unit,
                          double spread, const char *method);
/* gp_record_value, and mark the value unstable when its spread (known,
 * >= 0) exceeds max_spread (a probe's repeatability threshold). */
gp_value *gp_record_value_within(gp_record *r, const char *key, double value, const char *unit, double spread,
                                 double max_spread, const char *method);
/* How many fresh launches a probe repeats a run-to-run-sensitive value in
 * (the first launch counts): cheap, and enough to see the spread. */
#define GP_BETWEEN_LAUNCHES 3
/* A value whose fresh launches spread by more than this is not reproducible
 * to better than that: the run marks it unstable (gp_value_between) and
 * `compare` reports it so, never as agreeing. */
#define GP_BETWEEN_UNSTABLE 0.10
/* Give v a between-launch spread from n per-launch values (n >= 2; the
 * spread is (max - min) / |median|), and mark v unstable when that spread
 * exceeds GP_BETWEEN_UNSTABLE; no-op for v NULL or n < 2. */
void gp_value_between(gp_value *v, const double *per_launch, int n);
/* v measured at n points spread over the probe's run, each in fresh
 * launches (per_point[0..n), one of them the measurement v was recorded
 * from): v's value becomes their median (of the finite ones) and its
 * between-launch spread theirs (gp_value_between).  A median of launches
 * apart in time reproduces better than any one of them, and their spread
 * holds what drifts over a run (clock, temperature), which one launch's
 * repeats share.  No-op for v NULL or not detected, or fewer than 2
 * finite points. */
void gp_value_points(gp_value *v, const double *per_point, int n);
/* A probe's check that the record carries what it promises: every key of
 * keys[0..n) that is detected has a between-launch spread.  GP_ERR_CHECK
 * naming the probe and the first key without one. */
gp_status gp_record_require_between(const gp_record *r, const char *const *keys, int n);
/* Record v as a range [lo, hi] (a near-tie, not an arg-max). */
void gp_value_range(gp_value *v, double lo, double hi);
/* Record v's uncertainty as an interval [lo, hi] with how it was derived
 * (`why`, into range_method): for a value that is a model's output rather
 * than a median of samples (a confidence score, a class fraction, a time
 * converted at a clock the GPU sets itself).  `compare` treats it as a range:
 * two runs agree when their intervals overlap. */
void gp_value_interval(gp_value *v, double lo, double hi, const char *why);
/* The p10..p90 interval of a fraction p estimated from n independent
 * yes/no draws (binomial, normal approximation: p +- 1.2816 sqrt(p(1-p)/n),
 * clipped to 0..1), the same p10..p90 convention as the spreads.  0 for
 * n < 1 or p outside 0..1 (lo = hi = NAN). */
int gp_binomial_interval(double p, double n, double *lo, double *hi);
/* A latency measured in cycles (relative spread `spread`, < 0 unknown),
 * recorded as `key` in ns at the clock the probe measured (clock_mhz).  The
 * GPU sets its core clock by power and temperature, so the time in ns is
 * known only within [cycles_p10 / f_hi, cycles_p90 / f_lo], f_lo the lowest
 * clock measured before the probe, f_hi the device's reported maximum (or
 * the highest measured): the value carries that interval (an H100 run
 * measured the same 23.0 LDS cycles as 11.6 and 12.4 ns, at 1980 and
 * 1860 MHz). */
gp_value *gp_record_ns_of_cycles(gp_record *r, const char *key, double cycles, double spread, double clock_mhz);
/* Add a value the probe could not detect, with the reason. */
gp_value *gp_record_none(gp_record *r, const char *key, const char *unit, const char *reason);
const gp_value *gp_record_find(const gp_record *r, const char *key);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void gp_record_note(gp_record *r, const char *fmt, ...);

/* Add a series with `ncols` column names given as a comma-separated list. */
gp_series *gp_record_series(gp_record *r, const char *name, const char *cols_csv);
gp_status gp_series_append(gp_series *s, const double *row);

/* Write <dir>/<probe>.json, .md and _<series>.csv (each atomically).  The
 * JSON goes last: a record whose .json exists has all its files (a run
 * killed in between leaves the older complete set or no .json). */
gp_status gp_record_write(const gp_record *r, const char *dir);

/* Read back the JSON that gp_record_write wrote: header, device, clocks,
 * values and notes (not the series: their data is in the CSV files beside
 * it; a reader that wants them walks the JSON's "series").  r is cleared
 * first.  Values without a key are skipped.  Returns 0 with *why when the
 * JSON is not a probe record; adds to *dropped (may be NULL) the values and
 * notes beyond the record's limits. */
struct gp_json;
int gp_record_from_json(const struct gp_json *j, gp_record *r, int *dropped, const char **why);

/* Check a parsed record before it is believed: an object whose
 * "schema_version" (when present) is a major version this build reads
 * (schema.h), with a non-empty "probe"; "check" "", "ok" or "failed: ...";
 * the device's strings and its compute_units, wave_size and
 * reported clock not negative; each value with a non-empty "key" that no
 * other value has, its "value" a finite number, or null with "detected" not
 * true and a non-empty "note" (the reason it was not detected); "spread"
 * and "spread_between" finite and >= 0 or null; a value below zero only in
 * a unit that may be (fraction, ratio, x, none); "detected"/"unstable"
 * booleans; "unit"/"method"/"note" strings.  GP_ERR_USAGE (exit 2) naming
 * `file` and the key otherwise: a corrupt record must not read as "not
 * detected", nor its second value be silently dropped.  Whether the probe
 * exists and the file is named for it is the reader's check
 * (pipeline/records.h), which knows the probes. */
gp_status gp_record_check_json(const struct gp_json *j, const char *file);

/* Noisy-machine flags of a record (docs/architecture.md "Measuring honestly"). */
#define GP_NOISE_CLOCK 1   /* the measured clock moved beyond the tolerance */
#define GP_NOISE_SHARED 2  /* another process used the GPU */
#define GP_NOISE_CAPPED 4  /* the vendor library saw a power or thermal cap during the run */
/* The GP_NOISE_* bits of r; *sharing_known (may be NULL) is 0 when no vendor
 * reading (NVML) could say whether another process used the GPU. */
int gp_record_noise(const gp_record *r, int *sharing_known);
/* Other processes seen on the GPU before or after the probe: the larger of
 * the two readings, -1 when neither reading could tell. */
int gp_record_other_processes(const gp_record *r);

#endif
