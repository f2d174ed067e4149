/* Two runs of the same probes, compared: does each characteristic of run B
 * agree with run A's within the spreads the records report?
 * (`gpuprobe compare DIR_A DIR_B`, docs/reliability.md "Two runs in a row".)
 *
 * For each probe with a record in both folders and each value key:
 *   d    = (B - A) / |A|                     relative difference
 *   band = max(spread_A, spread_B, floor)    spreads as stored, (p90-p10)/median;
 *                                            each run's the larger of its within-run
 *                                            and between-launch (fresh launches)
 *                                            spreads; a run without one adds nothing
 * and the value agrees when |d| <= band.  Exceptions, in this order:
 *   - a key in one record only: "only in A" / "only in B" (listed, not counted);
 *   - not detected in both runs: skipped (counted as "not detected in either");
 *   - detected in one run only: "none in A" / "none in B", counted as differing;
 *   - flagged unstable in either run, or a between-launch spread above
 *     GP_BETWEEN_UNSTABLE (10 %) in either: "unstable (warned)", counted
 *     apart, never a failure (the run already saw it does not reproduce);
 *     d and band still shown;
 *   - converted through the measured clock (gp_value.clock_converted: a
 *     rate per cycle, ns from cycles) and beyond its band, in a probe whose
 *     record in either run says the clock moved during it (GP_NOISE_CLOCK):
 *     "unstable (clock moved)", with the reason (gp_cmp_clock_rule).  The
 *     run cannot tell the hardware's change from the clock's.  Values in
 *     other units stay strict, and a converted value within its band still
 *     agrees;
 *   - structural values need exact equality: when neither run stores a spread
 *     and the unit is a count of things (bytes, banks, lanes, CUs, registers,
 *     threads, waves, ... see gp_cmp_structural_unit) or both values are
 *     integers (a line size, a wave size, a best block size).  A spread given
 *     in either run makes the value a measured one again (l2_bytes from a
 *     latency curve);
 *   - a `fraction` whose run-A value lies within +-floor of zero (a loss of
 *     -0.002 %): d is B - A in absolute fraction points, a relative change of
 *     nothing meaning nothing;
 *   - a near-tie recorded as a range in either run (fp32_best_block_threads:
 *     every block size within the plateau's spread), or a model's output
 *     recorded with its uncertainty interval (gp_value_interval: a
 *     confidence from the latencies it is computed from, a class fraction
 *     as a binomial estimate, a time in ns at a clock the GPU sets itself):
 *     agrees when the two ranges overlap, a plain value counting as a range
 *     of one (or by the rules above: a range widens what agrees, never
 *     narrows it);
 *   - A = 0 (outside that case): agrees only when B = 0 too.
 *
 * Pure host C: no GPU, no output beyond the FILE given. */
#ifndef GP_RUN_COMPARE_H
#define GP_RUN_COMPARE_H

#include <stdio.h>

#include "gp_status.h"
#include "json_read.h"
#include "record.h"

#define GP_CMP_DEFAULT_FLOOR 0.005
/* Measured clocks of the two runs further apart than this are pointed out
 * (the same tolerance that flags a clock that moved during one probe). */
#define GP_CMP_CLOCK_TOLERANCE 0.02

typedef enum gp_cmp_verdict {
    GP_CMP_AGREES,
    GP_CMP_DIFFERS,
    GP_CMP_UNSTABLE,   /* flagged unstable in either run: warned, not a failure */
    GP_CMP_NONE_IN_A,  /* not detected in A, detected in B (counted as differing) */
    GP_CMP_NONE_IN_B,
    GP_CMP_ONLY_IN_A,  /* the key is absent from B's record (not counted) */
    GP_CMP_ONLY_IN_B,
    GP_CMP_NONE_BOTH   /* detected in neither: skipped */
} gp_cmp_verdict;

/* Where a value's band comes from. */
typedef enum gp_cmp_band_src {
    GP_CMP_BAND_FLOOR,
    GP_CMP_BAND_SPREAD_A,
    GP_CMP_BAND_SPREAD_B,
    GP_CMP_BAND_EXACT,
    GP_CMP_BAND_RANGE        /* near-tie ranges: agree when they overlap */
} gp_cmp_band_src;

typedef struct gp_cmp_row {
    char probe[48];
    char key[64];
    char unit[32];
    int in_a, in_b;          /* the key is in the record */
    int det_a, det_b;        /* detected (a finite value) */
    double a, b;
    double spread_a, spread_b; /* <0: none stored; the larger of the within-run
                                * and the between-launch spread */
    int range;               /* either run recorded a near-tie range: agrees when
                              * the ranges (a point is a range of one) overlap */
    double lo_a, hi_a, lo_b, hi_b;
    int unstable_a, unstable_b;
    int clock_converted;     /* either run's value went through the measured clock */
    char why[200];           /* why a value is unstable, when the run did not flag
                              * it itself (the clock rule); "" otherwise */
    int exact;               /* structural: exact equality required */
    int absolute;            /* diff is B - A (near-zero fraction), not relative */
    double diff;             /* (B-A)/|A|, or B-A when absolute; NAN when not compared;
                              * +-INFINITY when A = 0 and B != 0 */
    double band;             /* allowed |diff|; 0 when exact */
    gp_cmp_band_src band_src;
    gp_cmp_verdict verdict;
    char table_key[64];      /* "section.key" when the value feeds the tuning table
                              * (its probe's table rows), "" otherwise */
} gp_cmp_row;

/* 1 when `unit` counts things (exact equality without a spread). */
int gp_cmp_structural_unit(const char *unit);
/* Compare value `a` of run A with `b` of run B (either may be NULL: key
 * absent).  floor: the smallest band (GP_CMP_DEFAULT_FLOOR). */
void gp_cmp_value(const char *probe, const gp_value *a, const gp_value *b, double floor, gp_cmp_row *out);
/* The clock rule on a row gp_cmp_value filled from records ra and rb (either
 * may be NULL): a clock-converted value that differs, where either record
 * has clock_moved, becomes GP_CMP_UNSTABLE with row->why naming the run and
 * its clock readings.  Anything else is left as it is. */
void gp_cmp_clock_rule(gp_cmp_row *row, const gp_record *ra, const gp_record *rb);
const char *gp_cmp_verdict_name(gp_cmp_verdict v);
/* Counts towards the summary: agrees/differs/unstable (none in A/B differ). */
int gp_cmp_counts_as_differs(gp_cmp_verdict v);

/* One results folder. */
typedef struct gp_cmp_run {
    char dir[512];
    gp_record *recs;         /* sorted by file name */
    int nrecs;
    int nskipped;            /* *.json files that are not probe records */
} gp_cmp_run;

/* Read every <probe>.json in dir through the checked reader
 * (pipeline/records.h).  GP_ERR_USAGE (exit 2) naming the problem: a
 * missing folder, no records, a file that is not valid JSON (with its line
 * and column), a record that contradicts itself or its file name, records
 * of two devices; GP_ERR_IO for an unreadable file. */
gp_status gp_cmp_load_dir(const char *dir, gp_cmp_run *run);
void gp_cmp_run_free(gp_cmp_run *run);

/* Summary of one run's device, date and clock, from its records. */
typedef struct gp_cmp_side {
    char name[256], arch[32], pci_bus_id[32], version[32];
    double reported_mhz;     /* the runtime's (maximum) clock */
    double clock_min, clock_max, clock_median; /* measured in-kernel, over the records; NAN none */
    char date_first[16], date_last[16];
    int quick;               /* records measured with --quick (any) */
    int nrecs;
} gp_cmp_side;

typedef struct gp_cmp_result {
    const char *dir_a, *dir_b;
    double floor;
    gp_cmp_side side_a, side_b;
    int devices_differ;      /* name, arch or reported clock */
    int clocks_differ;       /* measured median clocks further apart than GP_CMP_CLOCK_TOLERANCE */
    gp_cmp_row *rows;
    int nrows;
    int agree, differ, unstable, only_one, none_both;
    /* the same counts over the rows that feed the tuning table: what a
     * derived table.txt would take from each run */
    int table_agree, table_differ, table_unstable;
    int probes_common;
    /* probes with a record in one run only (not narrowed away by an `only`
     * list): a difference, because a probe that vanished measured nothing */
    int probes_missing;
    /* probes in one folder only, and per-probe notes (noise flags, checks),
     * as ready-made lines */
    char (*notes)[320];
    int nnotes, notes_cap;
} gp_cmp_result;

/* Compare two loaded runs.  GP_ERR_USAGE when they share no probe. */
gp_status gp_cmp_runs(const gp_cmp_run *A, const gp_cmp_run *B, double floor, gp_cmp_result *res);
/* The same, narrowed to the probes named in only[0..nonly) (nonly 0: all).
 * GP_ERR_USAGE when a named probe is in neither run. */
gp_status gp_cmp_runs_only(const gp_cmp_run *A, const gp_cmp_run *B, double floor, const char *const *only,
                           int nonly, gp_cmp_result *res);
void gp_cmp_result_free(gp_cmp_result *res);
/* The Markdown report: header (folders, devices, dates, clocks), the summary
 * line "N of M characteristics agree within their spreads; K differ; U
 * unstable", notes, then the table probe | key | run A | run B | difference |
 * band | verdict. */
void gp_cmp_write_md(FILE *f, const gp_cmp_result *res);
/* The same as one JSON object for other tools (docs/formats.md, schema
 * GP_COMPARE_SCHEMA): both runs, the counts, the notes and every value's
 * row, the verdicts as identifiers ("agrees", "differs", ...). */
void gp_cmp_write_json(FILE *f, const gp_cmp_result *res);

#endif
