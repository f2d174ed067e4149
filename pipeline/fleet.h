/* A fleet report: N results folders (one GPU each, from any number of
 * nodes), every characteristic compared across the GPUs of the same device
 * model (`gpuprobe fleet DIR...`, README "Many GPUs").
 *
 * A GPU is one results folder of a characterize run (or `ctest -L
 * microbench`): its per-probe JSON records.  GPUs are grouped by device
 * model, the records' name and arch: an H100 and an H200 are different
 * models and never judged against each other.  Per model and characteristic
 * (probe.key, plus each GPU's measured clock) the report gives the median,
 * the MAD and the GPUs outside the threshold (fleet_stats.h: the rule).  The
 * health checks flag a GPU whose measured clock or DRAM bandwidth (the
 * record value that sets the table's dram.bandwidth_gbs) is low against its
 * model's median.
 *
 * Bad input is GP_ERR_USAGE (exit 2) naming the folder and the file: a
 * missing folder, a corrupt record (compare's reader), a folder mixing
 * devices, and a probe that other folders recorded but this one lacks. */
#ifndef GP_FLEET_H
#define GP_FLEET_H

#include <stdio.h>

#include "fleet_stats.h"
#include "run_compare.h"

struct gp_datasheet;

/* The clock characteristic: the median of the in-kernel measured clock over
 * a folder's records (each record's readings before and after its probe). */
#define GP_FLEET_CLOCK_PROBE "clock"
#define GP_FLEET_CLOCK_KEY "measured_mhz"
/* The DRAM bandwidth the health check reads: the probe and record value
 * whose table row sets the table's dram.bandwidth_gbs (gp_probe.table_rows).
 * 0 when no probe feeds it (then no bandwidth health check). */
int gp_fleet_bw_source(const char **probe, const char **key);

typedef struct gp_fleet_gpu {
    char label[512];        /* the folder's base name (its path when names repeat) */
    char name[256], arch[32], pci_bus_id[32];
    int model;              /* index into models */
    int quick;              /* some record measured with --quick */
    double clock_mhz;       /* median measured clock; NAN none */
    gp_cmp_run run;
    /* Against the vendor's figures for its product (gp_fleet_judge_specs):
     * its datasheet judged (NULL: no spec matched, or not judged), and how
     * many health figures (clock, DRAM bandwidth) are below their band. */
    struct gp_datasheet *ds;
    int vendor_health_low;
    /* The driver's health counters of its newest record that has them
     * (have_health 0: none has), what in them flags the GPU, and how many
     * of its probes ran under a power or thermal cap. */
    int have_health;
    gp_smi_health health;
    int health_findings;
    char health_text[256];
    int capped_probes;
} gp_fleet_gpu;

typedef struct gp_fleet_model {
    char name[256], arch[32];
    int ngpus;
} gp_fleet_model;

typedef enum gp_fleet_verdict {
    GP_FLEET_NONE,          /* no value (absent or not detected) */
    GP_FLEET_INSIDE,
    GP_FLEET_LOW,           /* outside, below the median */
    GP_FLEET_HIGH,
    GP_FLEET_WARNED         /* outside, but the GPU's own run flagged the value unstable */
} gp_fleet_verdict;

/* One characteristic of one model; arrays over the fleet's GPUs (entries of
 * other models: NAN / GP_FLEET_NONE). */
typedef struct gp_fleet_char {
    char probe[48], key[64], unit[32];
    int model;
    gp_fleet_center center;
    int judged;             /* center.n >= GP_FLEET_MIN_GROUP */
    int health;             /* clock or DRAM bandwidth: a low value is a health flag */
    int noutside;           /* GP_FLEET_LOW/HIGH */
    double *x, *z, *dev;
    gp_fleet_verdict *verdict;
} gp_fleet_char;

typedef struct gp_fleet {
    gp_fleet_threshold threshold;
    gp_fleet_gpu *gpus;
    int ngpus;
    gp_fleet_model *models;
    int nmodels;
    gp_fleet_char *chars;
    int nchars, chars_cap;
    int noutliers;          /* (characteristic, GPU) pairs outside, unstable ones apart */
    int nwarned;
    int ngpus_out;          /* GPUs with at least one outlier */
    int nhealth;            /* low clock or DRAM bandwidth flags */
    int nvendor;            /* GPUs judged against their product's figures */
    int nvendor_health;     /* GPUs whose clock or DRAM bandwidth is below the product's band */
    int ncounters_flagged;  /* GPUs whose health counters hold a finding (ECC, remaps, retired pages) */
} gp_fleet;

/* Load the folders and judge every characteristic.  On failure nothing is
 * left to free. */
gp_status gp_fleet_build(const char *const *dirs, int ndirs, const gp_fleet_threshold *t, gp_fleet *fl);
void gp_fleet_free(gp_fleet *fl);

/* GPU g has an outlier (any characteristic). */
int gp_fleet_gpu_out(const gp_fleet *fl, int g);

/* Judge every GPU against its product's published figures (specs.h: the
 * files of specs/ beside the shipped tables' folder, picked by the device
 * name), whatever the size of its model's group: one GPU alone is judged
 * too.  A spec file that does not parse is GP_ERR_USAGE naming it; a GPU no
 * file matches is left unjudged.  tables_dir NULL or "": nothing judged. */
gp_status gp_fleet_judge_specs(gp_fleet *fl, const char *tables_dir);

/* GPU g is healthy: no characteristic outside its model's threshold (the
 * unstable ones apart), no low clock or DRAM bandwidth against the model or
 * against the product's band. */
int gp_fleet_gpu_healthy(const gp_fleet *fl, int g);

/* The fleet in Prometheus' text format for node-exporter's textfile
 * collector (docs/formats.md): per GPU and characteristic its value, and
 * whether it is outside the model's threshold; per GPU and vendor figure
 * measured / published and whether it is within the band; per GPU a health
 * gauge. */
void gp_fleet_write_prometheus(FILE *f, const gp_fleet *fl);

/* Writers (fleet_write.c): Markdown, HTML with one strip plot per
 * characteristic (outliers labelled), JSON. */
void gp_fleet_write_md(FILE *f, const gp_fleet *fl);
gp_status gp_fleet_write_html(FILE *f, const gp_fleet *fl);
void gp_fleet_write_json(FILE *f, const gp_fleet *fl);
/* fleet.md, fleet.html and fleet.json into dir (created), as one set: all
 * three in place, or none and dir as it was (fsutil.h gp_fs_set). */
gp_status gp_fleet_write_dir(const gp_fleet *fl, const char *dir);

#endif
