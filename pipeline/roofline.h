/* The roofline of one GPU from its measured ceilings, with the application
 * kernels' bench results as points.
 *
 * Axes, as the report draws them: x = bytes per FLOP (DRAM bytes the
 * kernel's floor model counts over the FLOPs it counts: the reciprocal of
 * the usual arithmetic intensity), y = achieved FLOP/s.  A compute ceiling
 * is flat (FLOP/s); a bandwidth ceiling B is the line y = B / x.  A point's
 * roof is min(fp32 peak, DRAM / x): the bound its floor is computed against.
 *
 * Ceilings come from the records, where each probe's roofs say
 * (gp_probe.roofs: fp32 and DRAM bound the points), points from the bench CSVs (`gpuprobe bench ... --out DIR` writes
 * DIR/bench_<kernels>.csv) found in the results folder. */
#ifndef GP_ROOFLINE_H
#define GP_ROOFLINE_H

#include <stdio.h>

#include "gp_status.h"
#include "record.h"

#define GP_RL_MAX_CEILINGS 8
#define GP_RL_MAX_POINTS 96
#define GP_RL_MAX_FILES 8
#define GP_RL_FAR_BELOW 0.5 /* a point under half its roof is called out */

typedef enum gp_rl_kind { GP_RL_COMPUTE, GP_RL_BANDWIDTH } gp_rl_kind;

typedef struct gp_rl_ceiling {
    char name[32];          /* "fp32 FMA", "DRAM" */
    gp_rl_kind kind;
    double value;           /* FLOP/s or bytes/s; NAN: not measured (why: method) */
    char probe[48], key[64];/* the record value it comes from */
    int bound;              /* the roof the kernels' floor model holds them to (gp_probe_roof.bound) */
    char method[256];       /* how it was derived, or why it is missing */
} gp_rl_ceiling;

typedef struct gp_rl_point {
    char kernel[32], problem[160], table[160];
    double ms;              /* median time of the row */
    double bytes, flops;    /* by the kernel's floor model */
    double flops_per_s, bytes_per_s;
    double roof;            /* FLOP/s (or bytes/s for a point without FLOPs) at its x */
    const char *roof_name;  /* the ceiling that bounds it there */
    double fraction;        /* achieved / roof */
    char method[160];       /* how bytes and FLOPs were counted */
    char file[128];         /* the bench CSV it came from */
} gp_rl_point;

/* Reads a point's work from its kernel and label; the report passes the
 * kernel registry's models (gp_kernel.work), tests a fake. */
typedef gp_status (*gp_rl_work_fn)(const char *kernel, const char *problem, double *bytes, double *flops,
                                   char *method, size_t n);

typedef struct gp_roofline {
    gp_rl_ceiling ceil[GP_RL_MAX_CEILINGS];
    int nceil;
    gp_rl_point pts[GP_RL_MAX_POINTS];
    int npts;
    char files[GP_RL_MAX_FILES][128]; /* bench CSVs read, relative to the folder */
    int nfiles;
    char skipped[8][GP_STATUS_MSG_LEN + 64];   /* rows left out and why (the first few) */
    int nskipped;
    int dropped;            /* points beyond GP_RL_MAX_POINTS */
} gp_roofline;

/* The ceilings from a folder's records (any order; missing probes give
 * ceilings marked not measured, with the reason). */
void gp_roofline_ceilings(const gp_record *const *recs, int n, gp_roofline *rl);

/* The points from the bench CSVs in `dir` (bench_*.csv, in name order): for
 * each kernel and problem, the first row timed as "gpuprobe" (the table's
 * own parameters; variants and baselines are left out), placed against the
 * ceilings already in rl.  No CSV is not an error (rl->nfiles 0); a CSV
 * that cannot be read is GP_ERR_USAGE naming it. */
gp_status gp_roofline_points(const char *dir, gp_rl_work_fn work, gp_roofline *rl);

/* The measured ceiling named `name`, or NULL when absent or not measured. */
const gp_rl_ceiling *gp_roofline_ceiling(const gp_roofline *rl, const char *name);

/* One bench CSV row's text fields split (RFC 4180 quotes): up to `max`
 * fields into f (each at most fn bytes).  Returns the field count. */
int gp_csv_split_line(const char *line, char (*f)[256], int max);

#endif
