/* Timing and reporting of application kernels: event-timed repeats through
 * the harness, and a result table (one row per kernel x problem x
 * implementation x table) printed as Markdown with its floor and the
 * speed-up over the baseline of the same problem. */
#ifndef GP_KBENCH_H
#define GP_KBENCH_H

#include <stdio.h>

#include "gp_status.h"
#include "harness.h"
#include "runtime.h"
#include "stats.h"
#include "table.h"

#define GP_BENCH_MAX_ROWS 256
#define GP_BENCH_TEXT 160

typedef struct gp_bench_row {
    char kernel[32];
    char problem[GP_BENCH_TEXT];   /* "1x3x2160x3840 same" */
    char impl[GP_BENCH_TEXT];      /* "gpuprobe", "cuDNN (best of Find)", "CUB DeviceReduce", "device copy" */
    char table[GP_BENCH_TEXT];     /* table label for gpuprobe rows, "" for baselines */
    char params[GP_BENCH_TEXT];    /* the launch parameters used, "" for baselines */
    int is_baseline;               /* the row others in the problem are compared with */
    gp_summary ms;                 /* milliseconds per run */
    int stable;
    double floor_ms;               /* time at the device's limit (0: not computed) */
    char floor_note[GP_BENCH_TEXT];/* what bounds it: "DRAM 299 MB at 4641 GB/s" */
} gp_bench_row;

typedef struct gp_bench {
    gp_bench_row rows[GP_BENCH_MAX_ROWS];
    int nrows;
} gp_bench;

/* Enqueue one run of the work on the default stream (no synchronization). */
typedef gp_status (*gp_bench_work_fn)(void *ctx);

/* Time `work`: warm-up, then event-timed repeats until the spread is small
 * (CV 2%) or the budget is spent; quick shortens both. */
gp_status gp_bench_time(gp_bench_work_fn work, void *ctx, int quick, gp_harness_result *out);

/* Append a row; fields as in gp_bench_row (strings may be NULL = ""). */
gp_status gp_bench_add(gp_bench *b, const char *kernel, const char *problem, const char *impl,
                       const char *table, const char *params, int is_baseline,
                       const gp_harness_result *r, double floor_ms, const char *floor_note);

/* Speed-up of row i over its problem's baseline (baseline ms / row ms), or 0
 * when the problem has no baseline. */
double gp_bench_speedup(const gp_bench *b, int i);

/* DRAM bandwidth for a floor, GB/s: the table's measured triad
 * ([dram] bandwidth_gbs), else the peak from the device's bus width and
 * memory clock; `src` (size n) says which. */
double gp_bench_dram_gbs(const gp_table *t, const gp_device_info *dev, char *src, size_t n);

/* Markdown table: kernel, problem, implementation, table, median ms, spread,
 * floor ms, time/floor, speed-up over the baseline, parameters. */
void gp_bench_print_markdown(const gp_bench *b, FILE *out);
/* CSV of the same (one row per line, header first). */
gp_status gp_bench_write_csv(const gp_bench *b, const char *path);

#endif
