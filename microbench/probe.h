/* The probe interface: every probe defines one `const gp_probe gp_probe_<name>`
 * in <name>.c.  The registry (registry.c) lists them; the CLI and CTest both
 * enumerate it (BabelStream's pattern: one interface, one driver). */
#ifndef GP_PROBE_H
#define GP_PROBE_H

#include <stddef.h>
#include "gp_status.h"
#include "harness.h"
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
    /* The vendor library's watch over the probe's long launches: a batch
     * timed under a power or thermal cap is taken again once it lifts
     * (gp_harness_long_launch_guarded); without the library, no guard. */
    gp_harness_guard guard;
} gp_probe_ctx;

/* The facts a probe measures are rows of the tuning table's schema, declared
 * in its folder, microbench/<p>/<p>_facts.inc, one line per key:
 *
 *   GP_FACT(place, "section", "key", type, "unit", min, max, flags,
 *           "written by", "read by", "meaning")
 *
 * type is GP_TV_INT, GP_TV_DOUBLE or GP_TV_TEXT; min..max the inclusive
 * physical range (GP_KIB, GP_MIB for bytes); flags the GP_TK_* of
 * common/table_keys.h.  place orders the sections in a table file: [device]
 * 0 (the runtime's rows, in common/table_keys.c), [launch] 100, [compute]
 * 200, [registers] 300, [cache.l1] 400, [cache.l2] 410, [dram] 500, [lds]
 * 600, [channels] 700, [link] 800, the kernels' sections after them.  Every
 * row of a section gives its place; two probes may share a section
 * (cache_latency and memory_bandwidth both feed [dram]: their rows follow
 * in probe-name order).  common/table_keys.c includes every probe's file
 * through a list the top-level CMakeLists.txt generates; a probe that feeds
 * no table row has none.
 *
 * One tuning-table row a probe feeds: its record value `value_key` sets
 * `section.key` (pipeline/characterize.c walks these for every probe). */
typedef struct gp_probe_row {
    const char *value_key, *section, *key;
} gp_probe_row;

/* How the report plots one series of the probe (pipeline/report_plots.c reads
 * these).  Keyed by series name; series "*" matches any series of the probe
 * (its title then gets the series name).  Column fields list alternatives
 * separated by '|' (the first present and not constant wins); y lists the
 * plotted lines separated by ','.  A plot whose columns are absent is skipped,
 * so the report still plots a changed probe through a later entry or the
 * generic fallback.
 *
 * split names columns whose values part the rows into separate lines (one
 * legend entry each), e.g. a sweep run once with the L1 and once without;
 * where keeps only the rows with the given values (`col=v,col=v`).  Both, and
 * the category columns of a bar chart, use the column-list syntax
 *     col{v=name;v=name},col2
 * where the braces name the ids a probe writes as numbers (a value without a
 * name is shown as col=value).  A bar chart (GP_PLOT_BARS) is for categorical
 * series: x names the category columns, y the value, logy puts the value axis
 * on a log scale and ylabel labels it; bars run horizontally. */
enum {
    GP_PLOT_YZERO = 1,  /* linear y axis from zero: rates and ratios must not exaggerate noise */
    GP_PLOT_POINTS = 2, /* markers only: y jumps between neighbours (conflict degree vs stride) */
    GP_PLOT_BARS = 4,   /* categorical x: horizontal bars */
    GP_PLOT_XBYTES = 8, /* x is a byte count: power-of-two ticks in KiB/MiB/GiB */
    GP_PLOT_YPOW2 = 16, /* y takes powers of two (log y): power-of-two ticks */
    GP_PLOT_XPOW2 = 32, /* x takes powers of two (log x): power-of-two ticks */
};

typedef struct gp_probe_plot {
    const char *series;
    const char *x, *y;
    int logx, logy;
    const char *title, *xlabel, *ylabel; /* NULL labels: the column names */
    int opts;                            /* GP_PLOT_* */
    const char *split, *where;           /* NULL: none */
} gp_probe_plot;

/* How the report's datasheet writes a headline figure (pipeline/datasheet.c). */
typedef enum gp_ds_fmt {
    GP_DS_CLOCK,   /* the clock the probe measured */
    GP_DS_INT,     /* key as a whole number, `unit` after it */
    GP_DS_FLOPS,   /* key FMA/cycle/CU -> FLOP/s; key2 the fraction of the peak */
    GP_DS_GBS,     /* key GB/s; key2 the fraction of key3 (the peak) */
    GP_DS_LATENCY, /* key cycles, key2 ns */
    GP_DS_BYTES,   /* key bytes; key2 (optional) a part of it, named by unit */
    GP_DS_BANKS,   /* key banks x key2 bytes */
    GP_DS_US,      /* key microseconds; key2 (optional) a second one, named by unit */
} gp_ds_fmt;

/* One headline figure of the report's datasheet (its first screen), from a
 * value of the probe's record.  The rows of every probe are shown together
 * in increasing `place`, a row's group heading it; the groups hold the
 * hundreds: Device 100, Compute 200, Memory 300, Latency 400, Caches 500,
 * LDS 600, Launch and registers 700 (a new row takes a free place in its
 * group).  tsec.tkey is the shipped table's entry whose `published` value
 * and source stand beside it; tkey_alt the one shown when tkey is not
 * published (a vendor's line beside a measured sector).  `spec` names the
 * vendor's published figure for the product (specs/) and the band the
 * measured one should reach: the datasheet's verdict. */
typedef struct gp_probe_headline {
    int place;
    const char *group, *label;
    const char *key, *key2, *key3;  /* record values, as fmt reads them; NULL: none */
    gp_ds_fmt fmt;
    const char *unit;
    const char *tsec, *tkey, *tkey_alt; /* NULL: no published column */
    /* The vendor's figure it is judged against (specs/README.md: "dram_gbs"),
     * NULL none; measured / published should lie in [band_lo, band_hi]
     * (band_hi 0: no upper bound). */
    const char *spec;
    double band_lo, band_hi;
} gp_probe_headline;

/* A ceiling of the report's roofline from a value of the probe's record
 * (pipeline/roofline.c).  key lists alternatives separated by '|', the first
 * the record has wins.  GP_ROOF_FLOPS: the value is FMA per cycle per CU, a
 * flat roof of 2 FLOP x the CUs x the clock the probe ran at; GP_ROOF_BYTES:
 * GB/s, a slanted roof.  bound: this is the roof the kernels' floor model
 * holds their FLOPs (fp32) or their bytes (DRAM) to, against which each
 * bench point is placed; one of each kind.  The ceilings of every probe are
 * listed in increasing place. */
enum { GP_ROOF_FLOPS, GP_ROOF_BYTES };

typedef struct gp_probe_roof {
    int place;
    const char *name;  /* "fp32 FMA", "DRAM" */
    int kind;          /* GP_ROOF_* */
    const char *key;
    int bound;
} gp_probe_roof;

#define GP_COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct gp_probe {
    const char *name;
    const char *summary;
    /* Measure and analyse into ctx->rec. */
    gp_status (*run)(gp_probe_ctx *ctx);
    /* Sanity checks of the findings against the device; GP_ERR_CHECK with the
     * reason when a finding contradicts it. */
    gp_status (*check)(const gp_record *rec, const gp_device_info *dev);
    /* What the probe feeds downstream, defined beside it in <name>.c. */
    const gp_probe_row *table_rows;
    size_t ntable_rows;
    const gp_probe_plot *plots;  /* first match wins, in this order */
    size_t nplots;
    const gp_probe_headline *datasheet; /* its rows of the report's datasheet */
    size_t ndatasheet;
    const gp_probe_roof *roofs;         /* its ceilings of the report's roofline */
    size_t nroofs;
    /* Where the probe runs among the others when all run (characterize,
     * selftest): in increasing order, ties by name.  0 for a probe that
     * needs no particular place; one that must run before the others touch
     * the device, or after they are done with it, says so beside it. */
    int order;
} gp_probe;

size_t gp_probe_count(void);
const gp_probe *gp_probe_at(size_t i);   /* NULL past the end */
const gp_probe *gp_probe_find(const char *name);
/* The i-th probe in run order (gp_probe.order, then name); NULL past the end. */
const gp_probe *gp_probe_in_run_order(size_t i);

/* Open the device, bracket the probe with clock readings, run, check, write
 * the record to opts->out_dir (with the check's outcome in it, so a failing
 * result is on disk to look at and a resumed run knows not to reuse it).
 * Results measured while the clock moved or another process used the GPU
 * are flagged in the record (gp_record_noise).  The record is left in *rec
 * for the caller (free it with gp_record_free). */
gp_status gp_probe_execute(const gp_probe *p, const gp_probe_opts *opts, gp_record *rec);

#endif
