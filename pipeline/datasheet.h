/* The report's first screen: the headline figures of a GPU, each from its
 * probe record (with a link to the probe's section), and where the shipped
 * table of the same architecture has a published value for it, that value
 * and its source. */
#ifndef GP_DATASHEET_H
#define GP_DATASHEET_H

#include "record.h"
#include "specs.h"
#include "table.h"

#define GP_DS_MAX_ROWS 32

typedef struct gp_ds_row {
    const char *group, *label;
    const char *probe;     /* the record it comes from (link target) */
    char value[200];       /* "65.3 TFLOP/s (97.6% of peak)", or why it is missing */
    double num;            /* the headline number in base units (ratio of two GPUs); NAN when missing */
    int missing;           /* 1: no record or value: `value` says why */
    char published[300];   /* "128 B: CUDA C++ Programming Guide (...)" or "" */
    /* Against the vendor's figure for the product (specs/): "" when none. */
    char vendor[300];      /* "4800 GB/s: NVIDIA H200 datasheet ..." */
    double fraction;       /* measured / published; NAN when either is missing */
    const char *verdict;   /* "within", "low", "high", "not measured", or NULL */
    char band[48];         /* ">= 0.85", "0.90-1.10", "= 1" */
    const char *spec_key;  /* the probe's gp_probe_headline.spec and band */
    double band_lo, band_hi;
} gp_ds_row;

typedef struct gp_datasheet {
    gp_ds_row rows[GP_DS_MAX_ROWS];
    int nrows;
    char spec_name[96], spec_file[64]; /* the product judged against ("" none), its specs/ file */
    char spec_why[200];                /* why there is none: "no specs/ file matches ..." */
} gp_datasheet;

/* The rows from n records (any order, NULL entries skipped); `shipped` (may
 * be NULL) is the shipped table of the records' architecture: its entries
 * whose provenance is `published` fill the published column. */
void gp_datasheet_build(const gp_record *const *recs, int n, const gp_table *shipped, gp_datasheet *ds);

/* Each row that declares a vendor figure (gp_probe_headline.spec) against
 * the product's spec: the published value, measured / published, the
 * band and the verdict. */
void gp_datasheet_judge(gp_datasheet *ds, const gp_spec *spec);

/* The record of `probe` among n (NULL entries skipped), or NULL. */
const gp_record *gp_ds_record_of(const gp_record *const *recs, int n, const char *probe);
/* The core clock a probe ran at, MHz: measured after it, else before;
 * NAN when the record has no clock reading. */
double gp_ds_measured_mhz(const gp_record *r);
/* The clock a probe's per-cycle rates were divided by: the one measured
 * before it (the probes convert times to cycles with it), else
 * gp_ds_measured_mhz.  A chip rate rebuilt from a per-cycle one takes this
 * clock, so a clock that fell during the probe does not lower it twice. */
double gp_ds_rate_mhz(const gp_record *r);

/* A byte count in binary units: "220 KiB", "60.0 MiB", "128 B". */
void gp_ds_format_bytes(char *out, size_t n, double bytes);

#endif
