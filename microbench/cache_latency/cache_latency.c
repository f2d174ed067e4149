/* cache_latency: every level of the memory hierarchy seen by one thread's
 * dependent loads: capacity, hit latency and line size ([Vega-HIP] sections
 * 2.6 and 2.7, made a random cycle and a footprint sweep).
 *
 * Method: one thread chases 64-bit pointers, one node per 128-byte slot, in
 * a random cycle over the whole footprint; after a warm-up pass over the
 * footprint (so the caches hold what fits) it times N dependent loads with
 * the in-kernel cycle counter.  Footprints 1 KiB .. 4x the reported L2 at 4
 * points per octave, then 2 per octave on to a few GiB (TLB reach; only a
 * sample of 64K nodes is chased there).  The curve is segmented into
 * plateaus (cache_latency_analysis.c, over gp_mem_plateaus of common/analysis.c): each plateau is a level, its median
 * the hit latency, the step after it the capacity, refined by extra points
 * inside each step.  A second sweep with loads that skip L1 gives the L2
 * latency directly.  Line size: a sequential chase at strides 8..1024 B over
 * 4x the level's capacity in nodes (the span grows with the stride, so large
 * strides do not fall back into the level); the average latency rises with
 * the stride until every load misses, at the fetch size of a miss.
 * DRAM latency by L2 partition: cold sample lines, each timed on its first
 * load (DRAM) and on an L1-bypassing re-load (near or far L2 hit), split in
 * two classes by the re-load (see partition_step).
 *
 * Random cycle: the footprint is cut into P pages of L consecutive nodes
 * (L = 1 up to 4M nodes, then the smallest power of two keeping P <= 4M);
 * random visiting orders of the pages and of the line slots (Fisher-Yates,
 * seeded) are read as one cycle: (page order k, line 0) for every k, then
 * line order 1, ...  That is one cycle over all nodes (as Sattolo's
 * algorithm would give), each load lands on a different random page, and
 * the host builds only O(P + L) state (16 MB at most). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_latency.h"
#include "cache_latency_analysis.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define STRIDE 128
#define MAX_PAGES (1u << 22)
#define MAX_POINTS 200
#define PLATEAU_TOL 0.12
#define MAX_LEVELS 16

typedef struct chase_env {
    gp_probe_ctx *ctx;
    char *buf;
    size_t buf_bytes;
    unsigned *d_next_page, *d_next_line;
    unsigned *h_order, *h_next;   /* host scratch, MAX_PAGES each */
    size_t max_lines;
    long long *d_cycles;
    void *d_sink;
    uint64_t rng;
    int reps;
    long long loads;
} chase_env;

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: seeded, reproducible, good enough to shuffle. */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Random visiting order of 0..n-1 read as a cycle: next[order[k]] = order[k+1]. */
static unsigned random_cycle(uint64_t *rng, unsigned *order, unsigned *next, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        order[i] = i;
    for (unsigned i = n - 1; i > 0; i--) {
        unsigned j = (unsigned)(rng_next(rng) % (i + 1));
        unsigned t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (unsigned k = 0; k < n; k++)
        next[order[k]] = order[(k + 1) % n];
    return order[0];
}

/* Build the random cycle over `bytes` of the buffer, one node every `slot`
 * bytes (a multiple of 8); returns the start node address. */
static gp_status build_random(chase_env *e, size_t bytes, int slot, void **start, long long *nodes_out)
{
    long long nodes = (long long)(bytes / (size_t)slot);
    long long lines = 1;
    while (nodes / lines > (long long)MAX_PAGES)
        lines *= 2;
    if ((size_t)lines > e->max_lines)
        return gp_fail(GP_ERR_NOMEM, "cache_latency: %lld lines per page exceed %zu", lines, e->max_lines);
    unsigned pages = (unsigned)(nodes / lines);
    nodes = (long long)pages * lines;
    if (pages < 2)
        return gp_fail(GP_ERR_USAGE, "cache_latency: footprint %zu B too small", bytes);
    unsigned p0 = random_cycle(&e->rng, e->h_order, e->h_next, pages);
    unsigned last_page = e->h_order[pages - 1];
    GP_TRY(gp_rt_copy_to_device(e->d_next_page, e->h_next, pages * sizeof(unsigned)));
    unsigned l0 = random_cycle(&e->rng, e->h_order, e->h_next, (unsigned)lines);
    GP_TRY(gp_rt_copy_to_device(e->d_next_line, e->h_next, (size_t)lines * sizeof(unsigned)));
    GP_TRY(gp_cache_chase_init(e->buf, nodes, slot, (int)lines, e->d_next_page, e->d_next_line, last_page));
    *start = e->buf + ((size_t)p0 * (size_t)lines + l0) * (size_t)slot;
    *nodes_out = nodes;
    return gp_ok();
}

/* Chase from `start`; median cycles per load over the timed passes. */
static gp_status chase(chase_env *e, const void *start, int bypass, long long warm, double *cpl,
                       double *spread)
{
    long long cyc[GP_CACHE_MAX_REPS];
    double per[GP_CACHE_MAX_REPS];
    GP_TRY(gp_cache_chase_run(start, bypass, warm, e->loads, e->reps, e->d_cycles, e->d_sink));
    GP_TRY(gp_rt_copy_to_host(cyc, e->d_cycles, (size_t)e->reps * sizeof cyc[0]));
    for (int r = 0; r < e->reps; r++)
        per[r] = (double)cyc[r] / (double)e->loads;
    gp_summary s;
    gp_stats_summarize(per, (size_t)e->reps, &s);
    *cpl = s.median;
    *spread = gp_stats_rel_spread(&s);
    return gp_ok();
}

static long long round16(long long v)
{
    return (v + 15) / 16 * 16;
}

/* One footprint of the random-cycle sweep, one node every `slot` bytes. */
static gp_status measure_footprint_at(chase_env *e, size_t bytes, int slot, int bypass, double l2_bytes,
                                      double *cpl, double *spread)
{
    void *start = NULL;
    long long nodes = 0;
    GP_TRY(build_random(e, bytes, slot, &start, &nodes));
    /* Warm the whole footprint while a cache might hold it; past 2x L2
     * nothing would, and a full pass over GiB would take seconds. */
    long long warm = (double)bytes <= 2.0 * l2_bytes ? nodes : (nodes < 32768 ? nodes : 32768);
    return chase(e, start, bypass, round16(warm), cpl, spread);
}

/* One footprint of the random-cycle sweep: a node per 128-byte slot. */
static gp_status measure_footprint(chase_env *e, size_t bytes, int bypass, double l2_bytes, double *cpl,
                                   double *spread)
{
    return measure_footprint_at(e, bytes, STRIDE, bypass, l2_bytes, cpl, spread);
}

typedef struct curve {
    double x[MAX_POINTS], y[MAX_POINTS], spread[MAX_POINTS];
    size_t n;
} curve;

static void curve_add(curve *c, double x, double y, double sp)
{
    if (c->n >= MAX_POINTS)
        return;
    size_t i = c->n++;
    while (i > 0 && c->x[i - 1] > x) {
        c->x[i] = c->x[i - 1], c->y[i] = c->y[i - 1], c->spread[i] = c->spread[i - 1];
        i--;
    }
    c->x[i] = x, c->y[i] = y, c->spread[i] = sp;
}

static int curve_has(const curve *c, double x)
{
    for (size_t i = 0; i < c->n; i++)
        if (fabs(c->x[i] - x) < STRIDE)
            return 1;
    return 0;
}

static size_t round_fp(double bytes)
{
    size_t b = (size_t)(bytes / STRIDE) * STRIDE;
    return b < 8 * STRIDE ? 8 * STRIDE : b;
}

static gp_status sweep(chase_env *e, curve *c, int bypass, double lo, double hi, double per_octave,
                       double l2_bytes, gp_series *ser, const char *what)
{
    int total = (int)ceil(log2(hi / lo) * per_octave) + 1, done = 0;
    for (double k = 0; k < total; k++) {
        size_t b = round_fp(lo * pow(2.0, k / per_octave));
        if ((double)b > hi * 1.0001 || b > e->buf_bytes || curve_has(c, (double)b))
            continue;
        double cpl, sp;
        GP_TRY(measure_footprint(e, b, bypass, l2_bytes, &cpl, &sp));
        curve_add(c, (double)b, cpl, sp);
        double row[5] = {(double)b, bypass, cpl, 1e3 * cpl / e->ctx->clock_mhz, sp};
        GP_TRY(gp_series_append(ser, row));
        gp_progress("cache_latency", ++done, total, "%s %.0f KiB: %.1f cycles/load", what, b / 1024.0, cpl);
    }
    return gp_ok();
}

/* Measure 3 extra footprints inside each step between levels. */
static gp_status refine(chase_env *e, curve *c, int bypass, double l2_bytes, gp_series *ser)
{
    gp_mem_level lv[MAX_LEVELS];
    size_t nl = gp_mem_levels(c->x, c->y, c->n, PLATEAU_TOL, lv, MAX_LEVELS);
    for (size_t i = 0; i + 1 < nl && i < 6; i++) {
        double a = lv[i].capacity_lo, b = lv[i].capacity_hi;
        if (!(b > a) || b > 2.0 * l2_bytes * 4)
            continue;
        for (int k = 1; k <= 3; k++) {
            size_t f = round_fp(a * pow(b / a, k / 4.0));
            if (curve_has(c, (double)f) || f > e->buf_bytes)
                continue;
            double cpl, sp;
            GP_TRY(measure_footprint(e, f, bypass, l2_bytes, &cpl, &sp));
            curve_add(c, (double)f, cpl, sp);
            double row[5] = {(double)f, bypass, cpl, 1e3 * cpl / e->ctx->clock_mhz, sp};
            GP_TRY(gp_series_append(ser, row));
        }
    }
    return gp_ok();
}

/* Sequential chase at strides 8..1024 B over a level of `capacity` bytes:
 * cycles per load.  At a fixed footprint a large stride touches few
 * distinct lines (900 KB at 1024 B is 880 lines, 110 KB of lines: back in
 * an H200's L1), so the node count is kept instead: `base` / s nodes up to
 * s = 32 (base = 4x the capacity), then base / 32 nodes at every larger
 * stride, the span growing with the stride (capped by the buffer).  Then
 * even 32-byte allocation units would be touched 4x the capacity over, and
 * 128-byte lines 16x; the space taken in the next level is nodes x 128 B at
 * most (4x the capacity), so the L1 sweep still hits L2.  A stride whose
 * capped node count covers less than 2x the capacity ends the sweep. */
static gp_status stride_sweep(chase_env *e, size_t base, double capacity, int bypass, gp_series *ser,
                              const char *level, double *s, double *y, size_t *n)
{
    *n = 0;
    for (int st = 8; st <= 1024; st *= 2) {
        long long nodes = (long long)(base / (size_t)(st < 32 ? st : 32));
        long long fit = (long long)(e->buf_bytes / (size_t)st);
        if (nodes > fit)
            nodes = fit;
        /* Distinct bytes a cache must hold, counted in 32-byte units. */
        double touched = (double)nodes * (st < 32 ? st : 32);
        if (nodes < 64 || touched < 2.0 * capacity) {
            gp_record_note(e->ctx->rec, "%s line: stride sweep stops before %d B: %lld nodes fit the buffer, "
                                        "too few to exceed 2x the capacity", level, st, nodes);
            break;
        }
        GP_TRY(gp_cache_chase_seq_init(e->buf, nodes, st));
        /* Cached: warm once so the nodes sit in the next level (they are
         * >= 4x this level, so this level keeps missing).  Bypass: no
         * warm-up; the start of the buffer was written longest ago and is
         * cold, and the timed passes (reps x loads) never come back to it
         * when nodes exceed them. */
        long long warm = bypass ? 0 : round16(nodes);
        double cpl, sp;
        GP_TRY(chase(e, e->buf, bypass, warm, &cpl, &sp));
        s[*n] = st;
        y[(*n)++] = cpl;
        double row[5] = {st, (double)nodes * st, bypass, cpl, sp};
        GP_TRY(gp_series_append(ser, row));
        gp_progress("cache_latency", (int)*n, 8, "%s line: stride %d B: %.1f cycles/load", level, st, cpl);
    }
    return gp_ok();
}

static gp_value *record_cycles(gp_probe_ctx *ctx, const char *key, double cycles, double spread,
                               const char *method)
{
    return gp_record_value(ctx->rec, key, cycles, "cycles", spread, method);
}

static double spread_on(const curve *c, double xlo, double xhi)
{
    double sp[MAX_POINTS];
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->x[i] >= xlo && c->x[i] <= xhi)
            sp[k++] = c->spread[i];
    return k ? gp_stats_median(sp, k) : -1;
}

/* A level's latency width: its plateau's spread, or the between-launch
 * spread of the value recorded for it where that is wider. */
static double level_width(gp_record *r, const curve *c, const gp_mem_level *lv, const gp_mem_hierarchy *h, int idx)
{
    double w = spread_on(c, lv[idx].x_first, lv[idx].x_last);
    const char *key = idx == h->l2_far ? "l2_far_latency_cycles"
                      : idx == h->l2   ? "l2_latency_cycles"
                      : idx == h->l1   ? "l1_latency_cycles"
                      : idx == h->dram ? "dram_latency_cycles"
                      : idx == h->tlb  ? "dram_tlb_miss_latency_cycles"
                                       : NULL;
    const gp_value *v = key ? gp_record_find(r, key) : NULL;
    return v && v->spread_between > w ? v->spread_between : w;
}

/* <name>_bytes_confidence as an interval: the confidence is computed from a
 * step ratio of two latencies, so it moves with them (two H200 runs: 0.641
 * and 0.649 from a far-L2 latency 0.3 % apart). */
static void confidence_interval(gp_record *r, const curve *c, const gp_mem_level *lv, size_t nl,
                                const gp_mem_hierarchy *h, int idx, const char *name)
{
    char key[64], why[160];
    snprintf(key, sizeof key, "%s_bytes_confidence", name);
    gp_value *v = NULL;
    for (int i = 0; i < r->nvalues; i++)
        if (!strcmp(r->values[i].key, key))
            v = &r->values[i];
    if (!v || !v->detected || idx < 0 || (size_t)idx + 1 >= nl)
        return;
    double w_this = level_width(r, c, lv, h, idx), w_next = level_width(r, c, lv, h, idx + 1), lo, hi;
    gp_mem_confidence_interval(&lv[idx], w_this, w_next, &lo, &hi);
    snprintf(why, sizeof why, "p10..p90: the step ratio %.3fx moved by the two latencies' widths (%.2f%%, %.2f%%)",
             lv[idx].step_ratio, 100 * fmax(w_this, 0), 100 * fmax(w_next, 0));
    gp_value_interval(v, lo, hi, why);
}

/* Returns the latency value recorded (NULL: none). */
static gp_value *record_level(gp_probe_ctx *ctx, const curve *c, const gp_mem_level *lv, int idx,
                              const char *name, const char *what)
{
    char key[64], method[256];
    if (idx < 0) {
        snprintf(key, sizeof key, "%s_latency_cycles", name);
        char reason[160];
        snprintf(reason, sizeof reason, "no %s plateau in the latency-vs-footprint curve", what);
        gp_record_none(ctx->rec, key, "cycles", reason);
        return NULL;
    }
    const gp_mem_level *l = &lv[idx];
    double sp = spread_on(c, l->x_first, l->x_last);
    snprintf(key, sizeof key, "%s_latency_cycles", name);
    snprintf(method, sizeof method,
             "median cycles/load over the %d footprints of the %s plateau (%.0f..%.0f KiB), random "
             "pointer chase, one thread, gp_cycles",
             l->npoints, what, l->x_first / 1024, l->x_last / 1024);
    gp_value *v = record_cycles(ctx, key, l->latency, sp, method);
    snprintf(key, sizeof key, "%s_latency_ns", name);
    gp_record_ns_of_cycles(ctx->rec, key, l->latency, sp, ctx->clock_mhz);
    return v;
}

static void record_capacity(gp_probe_ctx *ctx, const gp_mem_level *l, const char *name, const char *what)
{
    char key[64], method[256];
    snprintf(key, sizeof key, "%s_bytes", name);
    if (!l || !isfinite(l->capacity)) {
        char reason[160];
        snprintf(reason, sizeof reason, "no step out of the %s plateau", what);
        gp_record_none(ctx->rec, key, "bytes", reason);
        snprintf(key, sizeof key, "%s_bytes_confidence", name);
        gp_record_none(ctx->rec, key, "fraction", reason);
        return;
    }
    snprintf(method, sizeof method,
             "geometric midpoint between the last footprint on the %s plateau (%.0f KiB) and the next "
             "(%.0f KiB); latency steps %.2fx there",
             what, l->capacity_lo / 1024, l->capacity_hi / 1024, l->step_ratio);
    gp_value *v = gp_record_value(ctx->rec, key, l->capacity, "bytes",
                                  (l->capacity_hi - l->capacity_lo) / l->capacity, method);
    if (v)
        v->unstable = l->confidence < 0.5;
    snprintf(key, sizeof key, "%s_bytes_confidence", name);
    gp_record_value(ctx->rec, key, l->confidence, "fraction", -1,
                    "step sharpness (latency ratio, 1.5x = full) x plateau support (3 points = full) / "
                    "(1 + transition points / 4)");
}

static void record_line(gp_probe_ctx *ctx, const char *key, const double *s, const double *y, size_t n,
                        const char *method)
{
    double conf;
    double line = gp_mem_line_knee(s, y, n, 0.25, &conf);
    if (!isfinite(line)) {
        gp_record_none(ctx->rec, key, "bytes",
                       "stride sweep shows no knee (flat, still rising at the largest stride, or "
                       "too few strides)");
        return;
    }
    gp_value *v = gp_record_value(ctx->rec, key, line, "bytes", -1, method);
    if (v) {
        v->unstable = conf < 0.5;
        snprintf(v->note, sizeof v->note, "knee confidence %.2f", conf);
    }
}

/* ---- L1 allocation line: capacity knee against stride.
 *
 * The random chase again, with one node every s bytes for s = the sector
 * (the stride knee's granule) times 1, 3, 5, 7, 9: odd multiples, so the
 * touched lines spread over every set.  The fraction of lines touched is
 * min(1, L / s), so the capacity knee (the footprint at which the latency
 * rises a quarter of the way from the L1 hit to the L2 hit) stays at C while
 * s <= L and moves out to C s / L past it; gp_mem_line_fit_knees fits L.
 * Per stride: footprints 2^(1/8) apart from 0.7x the L1 capacity (halved
 * while already past the knee) until two in a row are past it, or 12x the
 * capacity (a 32 B line of 32 B sectors puts the 9x stride's knee at 9x). */
#define LINE_MULTS 5
static const int line_mults[LINE_MULTS] = {1, 3, 5, 7, 9};
#define LINE_PER_OCTAVE 8
#define LINE_MAX_POINTS 48
#define LINE_MAX_SPAN 12.0

static gp_status line_point(chase_env *e, double footprint, int s, double l2r, gp_series *ser, double *fp,
                            double *cpl)
{
    size_t b = (size_t)(footprint / s) * (size_t)s;
    if (b < 8 * (size_t)s)
        b = 8 * (size_t)s;
    double sp;
    GP_TRY(measure_footprint_at(e, b, s, 0, l2r, cpl, &sp));
    *fp = (double)b;
    double row[4] = {s, (double)b, *cpl, sp};
    return gp_series_append(ser, row);
}

/* The capacity knee at stride s (NaN: none). */
static gp_status knee_sweep(chase_env *e, int s, double cap, double thr, double l2r, gp_series *ser, double *knee)
{
    double x[LINE_MAX_POINTS], y[LINE_MAX_POINTS], f = 0.7 * cap;
    size_t n = 0;
    *knee = NAN;
    GP_TRY(line_point(e, f, s, l2r, ser, &x[0], &y[0]));
    /* Already past the knee (a capacity the 128-byte sweep overstated, as
     * with lines under 128 B): start lower. */
    for (int down = 0; y[0] >= thr && down < 4; down++) {
        f /= 2;
        GP_TRY(line_point(e, f, s, l2r, ser, &x[0], &y[0]));
    }
    n = 1;
    if (y[0] >= thr)
        return gp_ok();
    int above = 0;
    while (n < LINE_MAX_POINTS && above < 2) {
        f *= pow(2.0, 1.0 / LINE_PER_OCTAVE);
        if (f > LINE_MAX_SPAN * cap || f > (double)e->buf_bytes)
            break;
        GP_TRY(line_point(e, f, s, l2r, ser, &x[n], &y[n]));
        above = y[n] >= thr ? above + 1 : 0;
        n++;
    }
    *knee = gp_mem_capacity_knee(x, y, n, thr);
    return gp_ok();
}

static void line_none(gp_record *r, const char *reason)
{
    gp_record_none(r, "l1_line_bytes", "bytes", reason);
    gp_record_none(r, "l1_line_fit_residual", "fraction", reason);
}

static gp_status line_step(chase_env *e, double l2r, gp_series *ser)
{
    gp_record *r = e->ctx->rec;
    const gp_value *cap = gp_record_find(r, "l1_bytes"), *l1 = gp_record_find(r, "l1_latency_cycles"),
                   *l2 = gp_record_find(r, "l2_latency_cycles"), *sec = gp_record_find(r, "l1_sector_bytes");
    if (!cap || !cap->detected || !l1 || !l1->detected || !l2 || !l2->detected) {
        line_none(r, "needs the L1 capacity and the L1 and L2 hit latencies of the footprint sweep");
        return gp_ok();
    }
    double thr = gp_mem_knee_threshold(l1->value, l2->value);
    if (!isfinite(thr)) {
        line_none(r, "L2 hit latency not above the L1 hit latency: no knee threshold");
        return gp_ok();
    }
    /* The stride knee's granule, else 32 B (the smallest sector known): a
     * base below the line still separates it, one above it would not. */
    int sector = 32;
    if (sec && sec->detected && sec->value >= 16 && sec->value <= 256)
        sector = (int)lround(sec->value);
    else
        gp_record_note(r, "L1 line: no sector measured, strides in multiples of 32 B");
    double s[LINE_MULTS], knee[LINE_MULTS];
    for (int i = 0; i < LINE_MULTS; i++) {
        s[i] = sector * line_mults[i];
        GP_TRY(knee_sweep(e, (int)s[i], cap->value, thr, l2r, ser, &knee[i]));
        gp_progress("cache_latency", i + 1, LINE_MULTS, "L1 line: stride %.0f B: knee %.1f KiB", s[i],
                    knee[i] / 1024);
    }
    gp_mem_line_fit f;
    gp_mem_line_fit_knees(s, knee, LINE_MULTS, sector, &f);
    char knees[160] = "", cands[200] = "";
    for (int i = 0, o = 0; i < LINE_MULTS && o < (int)sizeof knees; i++)
        o += snprintf(knees + o, sizeof knees - (size_t)o, "%s%.0f B: %.0f KiB", i ? ", " : "", s[i], knee[i] / 1024);
    for (size_t c = 0, o = 0; c < f.ncand && o < sizeof cands; c++)
        o += (size_t)snprintf(cands + o, sizeof cands - o, "%s%.0f B %.3f", c ? ", " : "", f.cand[c],
                              f.cand_residual[c]);
    gp_record_note(r, "L1 line: capacity knees (latency past %.0f cycles) at stride %s", thr, knees);
    gp_record_note(r, "L1 line: RMS log residual of knee = C max(1, s / L) by L: %s", cands);
    if (!isfinite(f.line)) {
        line_none(r, f.reason);
        return gp_ok();
    }
    char method[256];
    snprintf(method, sizeof method,
             "fit of knee = C max(1, s/L) to the L1 capacity knees of a random chase touching one word every s = "
             "%d x 1,3,5,7,9 B: C = %.0f KiB; next best L = %.0f B (residual %.3f)",
             sector, f.capacity / 1024, f.runner_up, f.runner_up_residual);
    gp_value *v = gp_record_value(r, "l1_line_bytes", f.line, "bytes", -1, method);
    if (v)
        snprintf(v->note, sizeof v->note, "fit residual %.3f (RMS of log knee / model) over %zu knees", f.residual,
                 f.nknees);
    gp_record_value(r, "l1_line_fit_residual", f.residual, "fraction", -1,
                    "RMS of log(knee / (C max(1, s/L))) at the fitted line");
    /* The 128-byte sweep's capacity counts 128-byte slots: a line under
     * 128 B holds one of them in part, so it overstates the capacity by
     * up to 128 / L (when the sets do not alias). */
    if (fabs(f.capacity / cap->value - 1) > 0.15)
        gp_record_note(r, "L1 line: the fitted capacity %.0f KiB differs from l1_bytes %.0f KiB (128-byte "
                          "slots) by %.0f%%", f.capacity / 1024, cap->value / 1024,
                       100 * fabs(f.capacity / cap->value - 1));
    return gp_ok();
}

/* ---- DRAM latency by L2 partition.
 *
 * S sample lines (4096, quick 1024), one per 128-byte slot, drawn at random
 * (one per equal stratum, so they are distinct) over the first
 * min(half the buffer, 4x the reported L2), form one cycle in a random
 * (Fisher-Yates) order.  A kernel writes the S pointers; a whole-grid kernel
 * then reads the next min(the rest, 4x L2) of the buffer, passes enough to
 * read >= 4x L2 in all (2 passes over 2x L2 with --quick), so no sample line
 * is left in a cache.  One thread walks the cycle and times, per line, the
 * first load (cached path, as the chase: DRAM), an L1-bypassing re-load (an
 * L2 hit, near or far partition) and a second cached re-load (an L1 hit:
 * the timing overhead is its median minus the chase's L1 latency).  The
 * samples are split by the re-load time, else by the first-load time
 * (gp_mem_partition_split, gp_mem_partition_split_by). */
#define PART_SAMPLES 4096
#define PART_SAMPLES_QUICK 1024

static const char *const part_keys[][2] = {
    {"dram_near_latency_cycles", "cycles"}, {"dram_near_latency_ns", "ns"},
    {"dram_far_latency_cycles", "cycles"},  {"dram_far_latency_ns", "ns"},
    {"l2_near_hit_cycles_sampled", "cycles"}, {"l2_far_hit_cycles_sampled", "cycles"},
    {"dram_partition_far_fraction", "fraction"},
};

static void partition_none(gp_record *r, const char *reason)
{
    for (size_t i = 0; i < sizeof part_keys / sizeof part_keys[0]; i++)
        gp_record_none(r, part_keys[i][0], part_keys[i][1], reason);
}

static double rel_spread(double p10, double p90, double med)
{
    return isfinite(p10) && isfinite(p90) && med > 0 ? (p90 - p10) / med : -1;
}

/* The keys of one class: DRAM latency (cycles and ns) and the sampled L2 hit. */
static void partition_class_keys(gp_probe_ctx *ctx, const gp_mem_partition *p, const gp_mem_partition_class *c,
                                 const char *name, const char *cal)
{
    char key[64], method[256];
    double sp = rel_spread(c->dram_p10, c->dram_p90, c->dram_median);
    snprintf(key, sizeof key, "dram_%s_latency_cycles", name);
    if (!isfinite(c->dram_median)) {
        gp_record_none(ctx->rec, key, "cycles", "no sample of the class had a cold first load");
        snprintf(key, sizeof key, "dram_%s_latency_ns", name);
        gp_record_none(ctx->rec, key, "ns", "no sample of the class had a cold first load");
    } else {
        snprintf(method, sizeof method,
                 "median cycles of the first (cold, cached-path) load of the %zu sampled lines whose %s "
                 "is in the %s class (%s %.0f raw cycles), one thread; %s",
                 c->dram_count, p->by_first ? "first load" : "L2 re-load", name,
                 c == &p->near_cls ? "<=" : ">", p->threshold, cal);
        gp_value *v = gp_record_value(ctx->rec, key, c->dram_median, "cycles", sp, method);
        if (v)
            v->unstable = c->dram_count < 50;
        snprintf(key, sizeof key, "dram_%s_latency_ns", name);
        gp_record_ns_of_cycles(ctx->rec, key, c->dram_median, sp, ctx->clock_mhz);
    }
    snprintf(key, sizeof key, "l2_%s_hit_cycles_sampled", name);
    snprintf(method, sizeof method,
             "median cycles of an L1-bypassing re-load (NVIDIA ld.global.cg, AMD agent-scope atomic load) right after "
             "the first load, over the %zu samples of the %s class; %s",
             c->count, name, cal);
    gp_record_value(ctx->rec, key, c->l2_median, "cycles", rel_spread(c->l2_p10, c->l2_p90, c->l2_median),
                    method);
}

static void partition_report(gp_probe_ctx *ctx, const gp_mem_partition *p, double l1_raw, double l1_chase,
                             int samples, double span, double flush, int passes)
{
    gp_record *r = ctx->rec;
    char cal[96];
    if (p->overhead > 0)
        snprintf(cal, sizeof cal, "less %.1f cycles of timing overhead (L1-hit re-load %.1f - chase L1 %.1f)",
                 p->overhead, l1_raw, l1_chase);
    else if (isfinite(l1_chase))
        snprintf(cal, sizeof cal, "raw: L1-hit re-load %.1f not above chase L1 %.1f, no overhead taken",
                 l1_raw, l1_chase);
    else
        snprintf(cal, sizeof cal, "raw: includes the timing overhead (no chase L1 latency to calibrate)");
    gp_record_note(r, "partition: %d lines over %.0f MiB, flush %.0f MiB x %d; %zu kept, %zu outside the "
                      "%s fence %.0f..%.0f, %zu first loads not cold (not in DRAM figures); L1-hit re-load "
                      "%.1f cycles",
                   samples, span / 1048576, flush / 1048576, passes, p->n_used, p->n_outliers,
                   p->by_first ? "first-load" : "re-load", p->fence_lo, p->fence_hi, p->n_warm, l1_raw);
    if (!p->detected) {
        partition_none(r, p->reason);
        gp_record_note(r, "partition: one class (%s of the best split %.2fx apart); all kept samples: "
                          "L2 re-load %.0f, DRAM %.0f (p10 %.0f, p90 %.0f) cycles (%s)",
                       p->by_first ? "first loads" : "re-loads", p->l2_ratio, p->near_cls.l2_median,
                       p->near_cls.dram_median, p->near_cls.dram_p10,
                       p->near_cls.dram_p90, p->overhead > 0 ? "overhead taken" : "raw");
        return;
    }
    partition_class_keys(ctx, p, &p->near_cls, "near", cal);
    partition_class_keys(ctx, p, &p->far_cls, "far", cal);
    char method[256];
    snprintf(method, sizeof method,
             "far-class samples / samples kept; classes by Otsu's threshold on log %s cycles "
             "(%.0f raw), each >= %.0f%% of the samples, medians >= %.2fx apart, valley <= %.2f of the peaks",
             p->by_first ? "first-load" : "re-load", p->threshold, 100 * GP_MEM_PART_MIN_FRACTION,
             GP_MEM_PART_MIN_RATIO, GP_MEM_PART_MAX_VALLEY);
    gp_value *ff = gp_record_value(r, "dram_partition_far_fraction", p->far_fraction, "fraction", -1, method);
    /* A class fraction is a count, not a median: each sampled line's class
     * follows its physical address, which another allocation (another run)
     * draws anew, so the fraction is a binomial estimate over the lines kept
     * (two H200 runs: 0.555 and 0.561 of 4096, 0.6 sigma apart). */
    double flo, fhi;
    if (gp_binomial_interval(p->far_fraction, (double)p->n_used, &flo, &fhi)) {
        char why[160];
        snprintf(why, sizeof why, "binomial p10..p90 over the %zu lines kept: a line's class follows its "
                                  "physical address, new in every allocation", p->n_used);
        gp_value_interval(ff, flo, fhi, why);
    }
    const gp_mem_partition_class *n = &p->near_cls, *f = &p->far_cls;
    gp_record_note(r, "partition (classes by the %s, valley %.2f): near %zu samples: L2 %.0f, DRAM %.0f (p10 %.0f, "
                      "p90 %.0f); far %zu: L2 %.0f, DRAM %.0f (p10 %.0f, p90 %.0f) cycles; far fraction %.2f",
                   p->by_first ? "first-load time" : "re-load time", p->valley,
                   n->count, n->l2_median, n->dram_median, n->dram_p10, n->dram_p90, f->count, f->l2_median,
                   f->dram_median, f->dram_p10, f->dram_p90, p->far_fraction);
    double w = (1 - p->far_fraction) * n->dram_median + p->far_fraction * f->dram_median;
    const gp_value *dr = gp_record_find(r, "dram_latency_cycles");
    if (dr && dr->detected && isfinite(dr->value) && dr->value > 0) {
        double dev = w / dr->value - 1;
        gp_record_note(r, "partition: weighted DRAM latency %.0f cycles %s the chase plateau's %.0f (%+.0f%%; "
                          "15%% tolerance)",
                       w, fabs(dev) <= 0.15 ? "agrees with" : "DIFFERS from", dr->value, 100 * dev);
    } else {
        gp_record_note(r, "partition: weighted DRAM latency %.0f cycles (no chase DRAM plateau to compare)", w);
    }
}

static gp_status partition_step(chase_env *e, double l2r)
{
    gp_probe_ctx *ctx = e->ctx;
    gp_record *r = ctx->rec;
    int S = ctx->opts->quick ? PART_SAMPLES_QUICK : PART_SAMPLES;
    /* Samples over the first min(half the buffer, 4x L2), the flush region
     * right after it (up to 4x L2): together well inside the TLB reach the
     * footprint sweep sees (no rise up to GiBs on the H200). */
    size_t half = (size_t)fmin((double)(e->buf_bytes / 2), 4.0 * l2r) / STRIDE * STRIDE;
    size_t flush = (size_t)fmin((double)(e->buf_bytes - half), 4.0 * l2r) / 8 * 8;
    size_t nslots = half / STRIDE;
    if ((double)flush < 1.5 * l2r || nslots < (size_t)S * 4) {
        char reason[160];
        snprintf(reason, sizeof reason, "buffer %.0f MiB too small for the partition step (samples + a >= 2x L2 "
                 "flush region need 4x the L2)", e->buf_bytes / 1048576.0);
        partition_none(r, reason);
        return gp_ok();
    }
    int passes = (int)ceil(4.0 * l2r / (double)flush);
    passes = passes < 1 ? 1 : passes > 4 ? 4 : passes;
    int blocks = ctx->dev.compute_units > 0 ? 4 * ctx->dev.compute_units : 256;
    blocks = blocks > 65535 ? 65535 : blocks;

    uint64_t *pairs = malloc((size_t)S * 2 * sizeof *pairs);
    uint64_t *slot = malloc((size_t)S * sizeof *slot);
    unsigned *order = malloc((size_t)S * sizeof *order);
    long long *ht = malloc((size_t)S * 3 * sizeof *ht);
    double *t1 = malloc((size_t)S * sizeof *t1), *t2 = malloc((size_t)S * sizeof *t2),
           *tl = malloc((size_t)S * sizeof *tl);
    void *dmem = NULL;
    gp_status st = gp_ok();
    if (!pairs || !slot || !order || !ht || !t1 || !t2 || !tl) {
        st = gp_fail(GP_ERR_NOMEM, "cache_latency partition: no host memory for %d samples", S);
        goto done;
    }
    /* One slot per stratum of nslots / S slots: distinct, spread over the region. */
    size_t stratum = nslots / (size_t)S;
    for (int i = 0; i < S; i++) {
        slot[i] = (uint64_t)i * stratum + rng_next(&e->rng) % stratum;
        order[i] = (unsigned)i;
    }
    for (int i = S - 1; i > 0; i--) {
        unsigned j = (unsigned)(rng_next(&e->rng) % (uint64_t)(i + 1));
        unsigned t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < S; k++) {
        pairs[2 * k] = slot[order[k]] * STRIDE;
        pairs[2 * k + 1] = slot[order[(k + 1) % S]] * STRIDE;
    }
    st = gp_rt_malloc(&dmem, (size_t)S * 5 * sizeof(uint64_t));
    if (st.code != GP_OK)
        goto done;
    uint64_t *d_pairs = dmem;
    long long *d_t = (long long *)((uint64_t *)dmem + 2 * (size_t)S);
    if ((st = gp_rt_copy_to_device(d_pairs, pairs, (size_t)S * 2 * sizeof *pairs)).code != GP_OK ||
        (st = gp_cache_partition_init(e->buf, (const unsigned long long *)d_pairs, S)).code != GP_OK ||
        (st = gp_cache_partition_flush(e->buf + half, flush, passes, blocks, e->d_sink)).code != GP_OK ||
        (st = gp_cache_partition_run(e->buf + slot[order[0]] * STRIDE, S, d_t, d_t + S, d_t + 2 * S,
                                     e->d_sink)).code != GP_OK ||
        (st = gp_rt_copy_to_host(ht, d_t, (size_t)S * 3 * sizeof *ht)).code != GP_OK)
        goto done;
    for (int i = 0; i < S; i++) {
        t1[i] = (double)ht[i];
        t2[i] = (double)ht[S + i];
        tl[i] = (double)ht[2 * S + i];
    }
    gp_progress("cache_latency", 1, 1, "partition: %d sampled lines, flush %.0f MiB x %d", S,
                flush / 1048576.0, passes);

    /* Timing overhead: an L1-hit re-load timed the same way, less the chase's L1 latency. */
    double l1_raw = gp_stats_median(tl, (size_t)S);
    const gp_value *l1v = gp_record_find(r, "l1_latency_cycles");
    double l1_chase = l1v && l1v->detected && isfinite(l1v->value) ? l1v->value : NAN;
    double ov = isfinite(l1_chase) && l1_raw > l1_chase ? l1_raw - l1_chase : 0;
    /* Classes by the re-load (L2 hit) time first; when the re-loads show one
     * class, by the first load (DRAM) time: on the H200 the near L2 keeps a
     * copy of every far line it fetched, so every re-load is a near hit,
     * while the first loads split in two (gp_mem_partition_split_by). */
    gp_mem_partition p, by_l2;
    gp_mem_partition_split(t2, t1, (size_t)S, ov, &by_l2);
    p = by_l2;
    if (!by_l2.detected) {
        gp_mem_partition_split_by(t1, t2, t1, (size_t)S, ov, &p);
        gp_record_note(r, "partition: re-loads: %.200s", by_l2.reason);
    }
    partition_report(ctx, &p, l1_raw, l1_chase, S, (double)half, (double)flush, passes);
    gp_series *ser = gp_record_series(r, "partition", "sample,t_first_cycles,t_second_cycles,t_l1_cycles,class");
    if (!ser) {
        st = gp_fail(GP_ERR_NOMEM, "cache_latency: no room for the partition series");
        goto done;
    }
    for (int i = 0; i < S && st.code == GP_OK; i++) {
        double row[5] = {i, t1[i], t2[i], tl[i], gp_mem_partition_class_of(&p, p.by_first ? t1[i] : t2[i])};
        st = gp_series_append(ser, row);
    }
done:
    if (dmem)
        gp_rt_free(dmem);
    free(pairs), free(slot), free(order), free(ht), free(t1), free(t2), free(tl);
    return st;
}

static gp_status run_all(chase_env *e)
{
    gp_probe_ctx *ctx = e->ctx;
    gp_record *r = ctx->rec;
    int quick = ctx->opts->quick;
    double l2r = ctx->dev.l2_bytes > 0 ? (double)ctx->dev.l2_bytes : 64.0 * 1048576;
    gp_series *sc = gp_record_series(r, "footprint", "bytes,bypass_l1,cycles_per_load,ns_per_load,spread");
    gp_series *sl = gp_record_series(r, "stride", "stride_bytes,footprint_bytes,bypass_l1,cycles_per_load,spread");
    gp_series *sk = gp_record_series(r, "line_capacity", "stride_bytes,footprint_bytes,cycles_per_load,spread");
    if (!sc || !sl || !sk)
        return gp_fail(GP_ERR_NOMEM, "cache_latency: no room for series");

    /* 1. Random chase, cached loads. */
    static curve cc, cb;
    memset(&cc, 0, sizeof cc);
    memset(&cb, 0, sizeof cb);
    double top = fmin(4.0 * l2r, (double)e->buf_bytes);
    /* Four footprints an octave in quick mode too: at two, the far-L2 plateau of a
     * partitioned L2 (H200: 30..60 MiB) holds one point and the near half reads
     * as the whole L2.  Quick saves on repeats and loads instead. */
    GP_TRY(sweep(e, &cc, 0, 1024, top, 4, l2r, sc, "cached"));
    if ((double)e->buf_bytes > top * 1.5)
        GP_TRY(sweep(e, &cc, 0, top, (double)e->buf_bytes, quick ? 1 : 2, l2r, sc, "cached"));
    GP_TRY(refine(e, &cc, 0, l2r, sc));
    /* 2. The same with loads that skip L1: L2 seen directly. */
    GP_TRY(sweep(e, &cb, 1, 1024, fmin(2.0 * l2r, (double)e->buf_bytes), 1, l2r, sc, "bypass"));

    gp_mem_level lv[MAX_LEVELS], bl[MAX_LEVELS];
    size_t nl = gp_mem_levels(cc.x, cc.y, cc.n, PLATEAU_TOL, lv, MAX_LEVELS);
    size_t nb = gp_mem_levels(cb.x, cb.y, cb.n, PLATEAU_TOL, bl, MAX_LEVELS);
    double l2_direct = nb > 0 && bl[0].x_first <= cb.x[0] ? bl[0].latency : 0;
    gp_mem_hierarchy h;
    gp_mem_label(lv, nl, (double)ctx->dev.l2_bytes, l2_direct, &h);
    for (size_t i = 0; i < nl; i++) {
        char note[200];
        gp_mem_level_note(note, sizeof note, i, &lv[i]);
        gp_record_note(r, "%s", note);
    }

    record_level(ctx, &cc, lv, h.l1, "l1", "L1");
    record_capacity(ctx, h.l1 >= 0 ? &lv[h.l1] : NULL, "l1", "L1");
    record_level(ctx, &cc, lv, h.l2, "l2", "L2");
    int l2last = h.l2_far >= 0 ? h.l2_far : h.l2;
    record_capacity(ctx, l2last >= 0 ? &lv[l2last] : NULL, "l2", "L2");
    const gp_value *l2cap_v = gp_record_find(r, "l2_bytes");
    if (l2cap_v && l2cap_v->detected && ctx->dev.l2_bytes > 0 &&
        fabs(l2cap_v->value / (double)ctx->dev.l2_bytes - 1) > 0.10)
        gp_record_note(r, "detected L2 capacity %.1f MiB differs from the reported %.1f MiB by %.0f%% "
                          "(a finding: e.g. part of the L2 not usable as a data cache, or not all enabled)",
                       l2cap_v->value / 1048576, ctx->dev.l2_bytes / 1048576.0,
                       100 * fabs(l2cap_v->value / (double)ctx->dev.l2_bytes - 1));
    if (h.l2_far >= 0) {
        gp_value *far = record_level(ctx, &cc, lv, h.l2_far, "l2_far", "far L2");
        /* The far-L2 latency moved between two H200 runs by more than its
         * plateau's spread: chase the plateau's middle footprint
         * in fresh launches, each over a new random chain, and record how far
         * they spread. */
        double mid = sqrt(lv[h.l2_far].x_first * lv[h.l2_far].x_last), per[GP_BETWEEN_LAUNCHES], sp_;
        for (int k = 0; k < GP_BETWEEN_LAUNCHES && far; k++)
            GP_TRY(measure_footprint(e, (size_t)mid, 0, l2r, &per[k], &sp_));
        gp_value_between(far, per, GP_BETWEEN_LAUNCHES);
        record_capacity(ctx, &lv[h.l2], "l2_near", "near L2");
    } else {
        gp_record_none(r, "l2_far_latency_cycles", "cycles", "no second L2 plateau before DRAM");
    }
    if (h.unexplained)
        gp_record_note(r, "%d further plateau(s) between L2 and DRAM are not labelled", h.unexplained);
    if (l2_direct > 0)
        record_cycles(ctx, "l2_direct_latency_cycles", l2_direct, spread_on(&cb, bl[0].x_first, bl[0].x_last),
                      "first plateau of the chase with L1-bypassing loads (NVIDIA ld.global.cg, AMD "
                      "agent-scope atomic load: glc, sc1 on gfx94x)");
    else
        gp_record_none(r, "l2_direct_latency_cycles", "cycles", "no plateau in the L1-bypass sweep");
    if (h.dram >= 0) {
        record_level(ctx, &cc, lv, h.dram, "dram", "DRAM");
    } else {
        gp_record_none(r, "dram_latency_cycles", "cycles", "no plateau past 1.5x the reported L2");
        gp_record_none(r, "dram_latency_ns", "ns", "no plateau past 1.5x the reported L2");
    }
    if (h.tlb >= 0) {
        record_level(ctx, &cc, lv, h.tlb, "dram_tlb_miss", "past-TLB-reach DRAM");
        record_capacity(ctx, &lv[h.dram], "tlb_reach", "DRAM (TLB hit)");
    } else {
        gp_record_note(r, "no further latency rise past the DRAM plateau up to %.0f MiB (TLB reach not "
                          "exceeded, or no TLB effect)", cc.n ? cc.x[cc.n - 1] / 1048576 : 0);
    }

    /* The confidences once every latency (and the far L2's between-launch
     * spread) is recorded. */
    confidence_interval(r, &cc, lv, nl, &h, h.l1, "l1");
    confidence_interval(r, &cc, lv, nl, &h, l2last, "l2");
    if (h.l2_far >= 0)
        confidence_interval(r, &cc, lv, nl, &h, h.l2, "l2_near");
    if (h.tlb >= 0)
        confidence_interval(r, &cc, lv, nl, &h, h.dram, "tlb_reach");

    /* 3. DRAM latency by L2 partition: needs the L1 latency and the reported L2. */
    GP_TRY(partition_step(e, l2r));

    /* 4. Sectors (miss fetch granules): a sequential chase over 4x each
     * level's capacity; then the L1 allocation line from capacity knees. */
    double s[16], y[16];
    size_t n;
    const gp_value *l1b = gp_record_find(r, "l1_bytes");
    if (l1b && l1b->detected && 4 * l1b->value < l2r / 2) {
        GP_TRY(stride_sweep(e, round_fp(4 * l1b->value), l1b->value, 0, sl, "L1", s, y, &n));
        record_line(ctx, "l1_sector_bytes", s, y, n,
                    "knee (first stride at 90% of the maximum) of cycles/load vs stride (8..1024 B), "
                    "sequential chase over 4x the L1 capacity in nodes (span grows with the stride "
                    "past 32 B), cached loads: the granularity an L1 miss fetches (the sector "
                    "where lines are sectored), not the allocation line");
    } else {
        gp_record_none(r, "l1_sector_bytes", "bytes", "no L1 capacity to size the stride sweep");
    }
    const gp_value *l2b = gp_record_find(r, "l2_bytes");
    double l2cap = fmax(l2r, l2b && l2b->detected ? l2b->value : 0);
    if ((size_t)(4 * l2cap) <= e->buf_bytes) {
        GP_TRY(stride_sweep(e, round_fp(4 * l2cap), l2cap, 1, sl, "L2", s, y, &n));
        record_line(ctx, "l2_sector_bytes", s, y, n,
                    "knee (first stride at 90% of the maximum) of cycles/load vs stride (8..1024 B), "
                    "sequential chase over 4x the L2 in nodes (span grows with the stride past 32 B, "
                    "capped by the buffer), L1-bypassing loads, cold: the granularity an L2 miss "
                    "fetches from DRAM, not the allocation line");
    } else {
        gp_record_none(r, "l2_sector_bytes", "bytes", "buffer smaller than 4x L2");
    }
    GP_TRY(line_step(e, l2r, sk));
    /* The same knees for L2 would chase footprints to 9x its capacity (over
     * 500 MB on the H200) at 5 strides, a full warm-up pass each: seconds
     * the run does not spend; and NVIDIA hashes L2 addresses over slices,
     * which blurs the knee the fit needs. */
    gp_record_none(r, "l2_line_bytes", "bytes",
                   "not measured: a capacity sweep to 9x the L2 at 5 strides costs seconds; the table keeps "
                   "the published line");
    return gp_ok();
}

static gp_status cache_latency_run(gp_probe_ctx *ctx)
{
    chase_env e;
    memset(&e, 0, sizeof e);
    e.ctx = ctx;
    e.rng = 0x6770726F6265ull; /* fixed seed: runs are reproducible */
    e.reps = ctx->opts->quick ? 3 : 5;
    e.loads = ctx->opts->quick ? 16384 : 65536;
    size_t freeb = 0, totalb = 0;
    GP_TRY(gp_rt_mem_info(&freeb, &totalb));
    double l2r = ctx->dev.l2_bytes > 0 ? (double)ctx->dev.l2_bytes : 64.0 * 1048576;
    /* A few GiB for TLB reach (4x L2 in quick mode), at most half the free memory. */
    double want = ctx->opts->quick ? 4.0 * l2r : fmax(4.0 * l2r, 4.0 * 1073741824.0);
    size_t bytes = (size_t)fmin(want, 0.5 * (double)freeb);
    bytes = bytes / (1u << 20) * (1u << 20);
    if (bytes < (1u << 20))
        return gp_fail(GP_ERR_NOMEM, "cache_latency: only %zu bytes of device memory free", freeb);
    e.buf_bytes = bytes;
    e.max_lines = (size_t)(bytes / STRIDE / MAX_PAGES) + 1;
    gp_status st = gp_rt_malloc((void **)&e.buf, bytes);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_next_page, MAX_PAGES * sizeof(unsigned));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_next_line, e.max_lines * sizeof(unsigned));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_cycles, GP_CACHE_MAX_REPS * sizeof(long long));
    if (st.code == GP_OK)
        st = gp_rt_malloc(&e.d_sink, 2 * sizeof(uint64_t));
    if (st.code == GP_OK) {
        e.h_order = malloc(MAX_PAGES * sizeof(unsigned));
        e.h_next = malloc(MAX_PAGES * sizeof(unsigned));
        if (!e.h_order || !e.h_next)
            st = gp_fail(GP_ERR_NOMEM, "cache_latency: no host memory for the cycle");
    }
    if (st.code == GP_OK)
        st = run_all(&e);
    free(e.h_order);
    free(e.h_next);
    if (e.d_sink)
        gp_rt_free(e.d_sink);
    if (e.d_cycles)
        gp_rt_free(e.d_cycles);
    if (e.d_next_line)
        gp_rt_free(e.d_next_line);
    if (e.d_next_page)
        gp_rt_free(e.d_next_page);
    if (e.buf)
        gp_rt_free(e.buf);
    return st;
}

static const gp_value *found(const gp_record *rec, const char *key)
{
    const gp_value *v = gp_record_find(rec, key);
    return v && v->detected && isfinite(v->value) ? v : NULL;
}

static int pow2_in(double v, double lo, double hi)
{
    long x = lround(v);
    return v >= lo && v <= hi && x > 0 && (x & (x - 1)) == 0;
}

static gp_status cache_latency_check(const gp_record *rec, const gp_device_info *dev)
{
    const gp_value *l1 = found(rec, "l1_latency_cycles"), *l2 = found(rec, "l2_latency_cycles"),
                   *dr = found(rec, "dram_latency_cycles");
    if (!l2 && !dr)
        return gp_fail(GP_ERR_CHECK, "cache_latency: neither an L2 nor a DRAM latency was found");
    if (l1 && l2 && !(l1->value < l2->value))
        return gp_fail(GP_ERR_CHECK, "cache_latency: L1 latency %.1f is not below L2 latency %.1f cycles",
                       l1->value, l2->value);
    if (l2 && dr && !(l2->value < dr->value))
        return gp_fail(GP_ERR_CHECK, "cache_latency: L2 latency %.1f is not below DRAM latency %.1f cycles",
                       l2->value, dr->value);
    if (l1 && !(l1->value > 1))
        return gp_fail(GP_ERR_CHECK, "cache_latency: L1 latency %.2f cycles is not a load latency", l1->value);
    const char *lines[] = {"l1_sector_bytes", "l2_sector_bytes", "l1_line_bytes", "l2_line_bytes"};
    for (int i = 0; i < 4; i++) {
        const gp_value *v = found(rec, lines[i]);
        if (v && !pow2_in(v->value, 16, 512))
            return gp_fail(GP_ERR_CHECK, "cache_latency: %s = %.0f is not a power of two in 16..512",
                           lines[i], v->value);
    }
    /* A sector is a part of a line. */
    const gp_value *sec = found(rec, "l1_sector_bytes"), *line = found(rec, "l1_line_bytes");
    if (sec && line && sec->value > line->value)
        return gp_fail(GP_ERR_CHECK, "cache_latency: L1 sector %.0f B exceeds the L1 line %.0f B", sec->value,
                       line->value);
    const gp_value *l2b = found(rec, "l2_bytes");
    if (l2b && dev->l2_bytes > 0) {
        double ratio = l2b->value / (double)dev->l2_bytes;
        if (ratio < 0.5 || ratio > 2.0)
            return gp_fail(GP_ERR_CHECK,
                           "cache_latency: detected L2 %.1f MiB is not within 2x of the reported %.1f MiB",
                           l2b->value / 1048576, dev->l2_bytes / 1048576.0);
    }
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row cache_latency_table_rows[] = {
    {"l1_bytes", "cache.l1", "bytes"},
    /* The stride knee finds the granule a miss fetches: the sector.  The
     * capacity knees against stride find the allocation line. */
    {"l1_sector_bytes", "cache.l1", "sector_bytes"},
    {"l1_line_bytes", "cache.l1", "line_bytes"},
    {"l1_latency_cycles", "cache.l1", "latency_cycles"},
    {"l2_bytes", "cache.l2", "bytes"},
    /* l2_line_bytes is not measured (none): the table keeps the published line. */
    {"l2_sector_bytes", "cache.l2", "dram_fetch_bytes"},
    {"l2_latency_cycles", "cache.l2", "latency_cycles"},
    {"l2_far_latency_cycles", "cache.l2", "far_latency_cycles"},
    {"dram_latency_cycles", "dram", "latency_cycles"},
    {"dram_latency_ns", "dram", "latency_ns"},
    {"dram_near_latency_cycles", "dram", "near_latency_cycles"},
    {"dram_far_latency_cycles", "dram", "far_latency_cycles"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
#define CACHE_BYTES_X "bytes|footprint_bytes|footprint|size_bytes"
#define CACHE_LAT_Y "cycles_per_load|cycles|latency_cycles"
static const gp_probe_plot cache_latency_plots[] = {
    {"footprint", CACHE_BYTES_X, CACHE_LAT_Y, 1, 0, "Load latency vs footprint (pointer chase)",
     "footprint (bytes)", "latency (cycles per load)", GP_PLOT_YZERO | GP_PLOT_XBYTES,
     "bypass_l1{0=cached loads (L1 and L2);1=L1 bypassed (L2 and DRAM)}", NULL},
    {"stride", "stride_bytes", CACHE_LAT_Y, 1, 0, "Load latency vs stride (line size)",
     "stride between loads (bytes)", "latency (cycles per load)", GP_PLOT_YZERO | GP_PLOT_XBYTES,
     "bypass_l1{0=L2-resident footprint, L1 on;1=DRAM footprint, L1 bypassed}", NULL},
    {"line_capacity", "footprint_bytes", CACHE_LAT_Y, 1, 0, "L1 capacity knee vs stride (allocation line)",
     "footprint (bytes)", "latency (cycles per load)", GP_PLOT_YZERO | GP_PLOT_XBYTES, "stride_bytes", NULL},
    /* A guess for a series not named above: skipped when the columns differ. */
    {"*", CACHE_BYTES_X, "cycles|latency_cycles|cycles_per_load|ns|latency_ns", 1, 0,
     "Latency vs footprint", NULL, NULL, GP_PLOT_YZERO, NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline cache_latency_datasheet[] = {
    {400, "Latency", "L1 latency", "l1_latency_cycles", "l1_latency_ns", NULL, GP_DS_LATENCY, NULL, "cache.l1",
     "latency_cycles", NULL, NULL, 0, 0},
    {410, "Latency", "L2 latency (near)", "l2_latency_cycles", "l2_latency_ns", NULL, GP_DS_LATENCY, NULL, "cache.l2",
     "latency_cycles", NULL, NULL, 0, 0},
    {420, "Latency", "L2 latency (far)", "l2_far_latency_cycles", "l2_far_latency_ns", NULL, GP_DS_LATENCY, NULL,
     "cache.l2", "far_latency_cycles", NULL, NULL, 0, 0},
    {430, "Latency", "DRAM latency", "dram_latency_cycles", "dram_latency_ns", NULL, GP_DS_LATENCY, NULL, "dram",
     "latency_cycles", NULL, NULL, 0, 0},
    {500, "Caches", "L1 size", "l1_bytes", NULL, NULL, GP_DS_BYTES, NULL, "cache.l1", "bytes", NULL, NULL, 0, 0},
    /* A vendor publishes the line and says what sectors it holds: that line's
     * source stands beside the measured sector. */
    {510, "Caches", "L1 fetch granule (sector)", "l1_sector_bytes", NULL, NULL, GP_DS_BYTES, NULL, "cache.l1",
     "sector_bytes", "line_bytes", NULL, 0, 0},
    /* The capacity knee within 10 % of the vendor's size either way. */
    {520, "Caches", "L2 size", "l2_bytes", "l2_near_bytes", NULL, GP_DS_BYTES, "near part", "cache.l2", "bytes", NULL,
     "l2_bytes", 0.9, 1.1},
    {530, "Caches", "DRAM fetch granule (an L2 miss)", "l2_sector_bytes", NULL, NULL, GP_DS_BYTES, NULL, "cache.l2",
     "sector_bytes", "line_bytes", NULL, 0, 0},
};

const gp_probe gp_probe_cache_latency = {
    .name = "cache_latency",
    .summary = "capacity, hit latency and line size of every cache level, DRAM latency and TLB reach "
               "(one-thread random pointer chase over a footprint sweep)",
    .run = cache_latency_run,
    .check = cache_latency_check,
    .table_rows = cache_latency_table_rows,
    .ntable_rows = GP_COUNT(cache_latency_table_rows),
    .plots = cache_latency_plots,
    .nplots = GP_COUNT(cache_latency_plots),
    .datasheet = cache_latency_datasheet,
    .ndatasheet = GP_COUNT(cache_latency_datasheet),
};
