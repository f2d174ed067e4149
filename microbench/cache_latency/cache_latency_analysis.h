/* Analysis of the cache_latency probe: levels and steps in latency versus
 * footprint (cache levels, their capacity and hit latency, from the shared
 * gp_mem_plateaus of common/analysis.h), the knee of a stride sweep (line
 * size) and the DRAM latency by L2 partition.  Pure C over arrays,
 * unit-tested on synthetic curves (tests/unit/test_memory_analysis.c) and on
 * the recorded H200 series (tests/unit/test_recorded_h200.c). */
#ifndef GP_CACHE_LATENCY_ANALYSIS_H
#define GP_CACHE_LATENCY_ANALYSIS_H

#include <stddef.h>

#include "analysis.h"


/* One level of the hierarchy as seen in the curve. */
typedef struct gp_mem_level {
    double latency;       /* plateau median */
    double capacity;      /* bytes: geometric midpoint between the last footprint on the
                           * plateau and the next measured footprint; NaN for the last */
    double capacity_lo;   /* the last footprint on the plateau (capacity is at least this) */
    double capacity_hi;   /* the next measured footprint (capacity is below this) */
    double step_ratio;    /* latency of the next level / this one; NaN for the last */
    double confidence;    /* 0..1: sharpness of the step and support of both plateaus */
    double step_support;  /* the support factor of the step: confidence = sharpness(step_ratio)
                           * x step_support (gp_mem_step_confidence); NaN for the last */
    double x_first, x_last;
    int npoints;
} gp_mem_level;

/* Plateaus turned into levels with capacities and confidences.  Returns the
 * number of levels written. */
size_t gp_mem_levels(const double *x, const double *y, size_t n, double tol, gp_mem_level *out,
                     size_t max_out);

/* The finding line of level i: "level 1: 280.6 cycles over 304..27554 KiB
 * (27 points), step x1.83, confidence 0.50"; the last level has no next
 * one, so no step ("... (18 points), last level, confidence 1.00"). */
void gp_mem_level_note(char *out, size_t n, size_t i, const gp_mem_level *l);

/* A step's confidence: sharpness (log step_ratio / log 1.5, clipped to 0..1;
 * a 1.5x step is full) x step_support.  NaN when either is not finite. */
double gp_mem_step_confidence(double step_ratio, double step_support);
/* A confidence is a model's output, not a median of samples: its p10..p90
 * interval comes from the latencies its step ratio is made of.  With the
 * relative p10..p90 widths of this level's and the next level's latency,
 * the ratio spans step_ratio x (1 -+ hypot(w_this, w_next) / 2) and the
 * confidence the sharpness at both ends.  The last level (no step) gives
 * lo = hi = confidence.  The plateau support and transition points are
 * counts and stay as measured. */
void gp_mem_confidence_interval(const gp_mem_level *l, double w_this, double w_next, double *lo, double *hi);

/* Which level is which.  -1 where a level was not found. */
typedef struct gp_mem_hierarchy {
    int l1, l2, l2_far, dram, tlb;
    int unexplained;      /* levels between L2 and DRAM beyond near/far */
} gp_mem_hierarchy;

/* Label levels.  `l2_reported` (bytes, 0 if unknown) says which footprints
 * cannot be L2 hits: the DRAM level is the first one reaching past 1.5x it.
 * `l2_direct_latency` (cycles, <= 0 if unknown) is the latency of loads that
 * bypass L1: a first level no faster than 0.85x it is L2, not L1.  Levels
 * between L1 and DRAM are L2 (the first) and far L2 (the last, if there are
 * two or more); a level after DRAM is a TLB-miss level.  Returns the number
 * of labelled levels. */
int gp_mem_label(const gp_mem_level *lv, size_t n, double l2_reported, double l2_direct_latency,
                 gp_mem_hierarchy *h);

/* Knee of a stride sweep: average latency per load for a sequential chase at
 * stride s rises as hit + (miss - hit) * s / line up to s = line and is flat
 * after.  Returns the smallest stride whose latency reaches 90% of the
 * maximum (and 85% of the way up from the smallest stride's latency), when
 * the next stride stays there too (a plateau of >= 2 points).  Points that
 * fall after the plateau are ignored (with half the confidence).  NaN when
 * the curve does not rise by `min_rise` (relative), or when the maximum is
 * a single point (still rising at the largest stride).  *confidence (may be
 * NULL) in 0..1.  x ascending. */
double gp_mem_line_knee(const double *stride, const double *lat, size_t n, double min_rise,
                        double *confidence);


/* Allocation (tag) line from capacity knees.  A random chase that touches
 * one 8-byte word every s bytes touches every line of its footprint while
 * s <= L (two words s apart cannot skip a line of L >= s bytes) and one line
 * in s / L when s > L (no line holds two words; words never straddle a line):
 * the fraction of lines touched is exactly min(1, L / s).  A cache of C bytes
 * in lines of L therefore holds a footprint up to C x max(1, s / L): the
 * capacity knee stays at C for s <= L and moves out with s past it.  The
 * strides are odd multiples of the sector so the touched lines spread over
 * every set (a power-of-two stride would leave sets unused and move the knee
 * back in). */
double gp_mem_line_touched_fraction(double stride, double line);

/* Capacity knee of one stride's footprint sweep: the footprint (x ascending)
 * at which the latency first crosses `threshold` (gp_mem_knee_threshold) and stays above it at the
 * next point, interpolated linearly in log footprint between the last point
 * below and the first above.  NaN when the first point is already above
 * (no level below the knee was seen), when the curve never crosses, or when
 * only the last point crosses (not confirmed). */
double gp_mem_capacity_knee(const double *x, const double *y, size_t n, double threshold);

/* The threshold of the knee: a quarter of the way from the level's hit
 * latency up to the next level's.  Low enough to mark where the latency
 * rises from the level (in an LRU cache of W ways the quarter is reached
 * about 1 / (4 W) of the capacity past it), high enough above the plateau's
 * noise (32 +- 1 cycles against 94 on the H200's L1). */
#define GP_MEM_KNEE_RISE 0.25
double gp_mem_knee_threshold(double level_latency, double next_latency);

/* The fit: for each candidate L (powers of two from the sector up to twice
 * the largest stride's power of two, so that at least two candidates predict
 * flat knees), the capacity C that fits log knee best (the mean of
 * log knee - log max(1, s / L)) and the RMS of what is left.  The best L
 * stands when its residual is <= GP_MEM_LINE_MAX_RESIDUAL and every other
 * candidate's residual is >= GP_MEM_LINE_SEPARATION x max(the best's,
 * GP_MEM_LINE_NOISE_FLOOR): otherwise the knees do not separate the
 * candidates and the line is none, with the reason. */
#define GP_MEM_LINE_MIN_KNEES 3
#define GP_MEM_LINE_MAX_RESIDUAL 0.15
#define GP_MEM_LINE_SEPARATION 2.5
#define GP_MEM_LINE_NOISE_FLOOR 0.03
#define GP_MEM_LINE_MAX_CANDIDATES 16

typedef struct gp_mem_line_fit {
    double line;               /* bytes; NaN when none */
    double capacity;           /* bytes: C of the best candidate (NaN when no fit) */
    double residual;           /* RMS of log(knee / (C max(1, s / L))) at the best candidate */
    double runner_up;          /* the candidate with the next smallest residual (NaN: none) */
    double runner_up_residual;
    size_t nknees;             /* finite, positive knees used */
    size_t ncand;
    double cand[GP_MEM_LINE_MAX_CANDIDATES], cand_residual[GP_MEM_LINE_MAX_CANDIDATES];
    char reason[256];          /* why none ("" when found) */
} gp_mem_line_fit;

/* Fit L to n (stride, knee) pairs; knees that are NaN are skipped.  `sector`
 * (bytes, a power of two > 0) is the smallest candidate.  Returns 1 when a
 * line was found (out->line finite), else 0 with out->reason. */
int gp_mem_line_fit_knees(const double *stride, const double *knee, size_t n, double sector,
                          gp_mem_line_fit *out);

/* DRAM latency by L2 partition.  A one-thread walk over cold sample lines
 * times, per line, the first load (t_first: an L2 miss served by DRAM) and
 * an immediate L1-bypassing re-load (t_second: an L2 hit, in the near or the
 * far partition where the L2 has two, as on H100/H200).  The samples are
 * split into two classes by t_second: Otsu's threshold (the largest
 * between-class variance) over log t_second, computed exactly on the sorted
 * values, after dropping samples outside [median / 4, 4 x median] (TLB
 * misses, refresh, preemption).  The split is real when each class holds
 * >= GP_MEM_PART_MIN_FRACTION of the samples kept and the class medians of
 * t_second differ by >= GP_MEM_PART_MIN_RATIO; otherwise there is one class.
 * A sample whose first load was no slower than 1.05x its re-load was not
 * cold (the flush missed it): it counts for the classes but not for the
 * DRAM figures. */
#define GP_MEM_PART_MIN_FRACTION 0.10
#define GP_MEM_PART_MIN_RATIO 1.25
/* And the two classes are two modes, not one spread-out mode cut in two:
 * the emptiest of the seven bins between the class medians (log scale) holds
 * at most this fraction of the lesser of the two bins at the medians
 * (gp_mem_valley_depth): a Gaussian or flat spread gives about 1 or more. */
#define GP_MEM_PART_MAX_VALLEY 0.5
#define GP_MEM_PART_MIN_SAMPLES 8

typedef struct gp_mem_partition_class {
    size_t count;                           /* samples kept in the class */
    size_t dram_count;                      /* of them, with a cold first load */
    double l2_median, l2_p10, l2_p90;       /* t_second - overhead */
    double dram_median, dram_p10, dram_p90; /* t_first - overhead, cold samples only */
} gp_mem_partition_class;

typedef struct gp_mem_partition {
    int detected;          /* 1: two classes (near, far); 0: one class (in near) */
    size_t n;              /* samples given */
    size_t n_used;         /* finite, positive, inside the fence */
    size_t n_outliers;     /* outside the fence (or not finite / not positive) */
    size_t n_warm;         /* first load no slower than 1.05x the re-load */
    double fence_lo, fence_hi;
    double threshold;      /* raw t_second: <= near, > far; NaN when not detected */
    double far_fraction;   /* far.count / n_used; 0 when not detected */
    double l2_ratio;       /* far / near median of the key of the best split seen (even rejected) */
    double valley;         /* gp_mem_valley_depth of that split (NaN: none) */
    int by_first;          /* 1: classes by the first-load (DRAM) time, 0: by the re-load (L2) time */
    double overhead;       /* the overhead subtracted from every figure */
    gp_mem_partition_class near_cls, far_cls; /* not detected: near_cls holds all, far_cls empty (NaN) */
    char reason[320];      /* why not detected ("" when detected) */
} gp_mem_partition;

/* Split n samples (t_second[i], t_first[i], raw cycles) as described above.
 * `overhead` (cycles, >= 0; 0 for raw figures) is subtracted from every
 * reported median and percentile, not from the threshold or the fence.
 * Any n (0 included) is fine.  Returns out->detected. */
int gp_mem_partition_split(const double *t_second, const double *t_first, size_t n, double overhead,
                           gp_mem_partition *out);

/* The same with the classes cut by `key`: t_second (the function above) or
 * t_first.  On the H200 every re-load hits the near partition (the near L2
 * keeps a copy of a far line it fetched), so the re-loads show one class,
 * while the first loads split cleanly in two: lines homed in the near
 * partition's memory and lines that go through the far partition.  The
 * threshold, fence and class_of then refer to the key. */
int gp_mem_partition_split_by(const double *key, const double *t_second, const double *t_first, size_t n,
                              double overhead, gp_mem_partition *out);


/* Class of one sample by its raw key value (t_second for
 * gp_mem_partition_split): 0 near (or the one class), 1 far, -1 outside the
 * fence / not usable. */
int gp_mem_partition_class_of(const gp_mem_partition *p, double key);

#endif
