/* The allocation line from capacity knees (cache_latency_analysis.c,
 * gp_mem_line_fit_knees): synthetic knee sets, and knees taken from a
 * simulated set-associative, sectored LRU cache chased the way the probe
 * chases it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cache_latency_analysis.h"
#include "gp_test.h"
#include "probe.h"
#include "record.h"

#define KIB 1024.0

/* Knees of a cache of `cap` bytes in lines of `line`: cap x max(1, s / line),
 * each times (1 +- noise). */
static void model_knees(const double *s, size_t n, double cap, double line, double noise, unsigned long long *seed,
                        double *knee)
{
    for (size_t i = 0; i < n; i++)
        knee[i] = cap / gp_mem_line_touched_fraction(s[i], line) *
                  (1 + noise * (2 * gp_test_rand(seed) - 1));
}

/* gp_mem_line_fit_knees, saying why when it finds no line. */
static int fit(const double *s, const double *knee, size_t n, double sector, gp_mem_line_fit *f)
{
    int ok = gp_mem_line_fit_knees(s, knee, n, sector, f);
    if (!ok)
        fprintf(stderr, "no line: %s\n", f->reason);
    return ok;
}

static const double nv_strides[] = {32, 96, 160, 224, 288};
static const double amd_strides[] = {64, 192, 320, 448, 576};

GP_TEST(cache_line_touched_fraction_exact)
{
    /* Every line while s <= L; one in s / L past it. */
    GP_CHECK_NEAR(gp_mem_line_touched_fraction(32, 128), 1.0, 0);
    GP_CHECK_NEAR(gp_mem_line_touched_fraction(96, 128), 1.0, 0);
    GP_CHECK_NEAR(gp_mem_line_touched_fraction(128, 128), 1.0, 0);
    GP_CHECK_NEAR(gp_mem_line_touched_fraction(160, 128), 0.8, 1e-12);
    GP_CHECK_NEAR(gp_mem_line_touched_fraction(288, 64), 64.0 / 288, 1e-12);
    GP_CHECK(isnan(gp_mem_line_touched_fraction(0, 128)));
    /* Counted: distinct lines of words every s bytes over a long span. */
    double cases[][2] = {{96, 128}, {160, 128}, {224, 64}, {32, 32}, {288, 128}, {320, 64}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double s = cases[c][0], L = cases[c][1];
        long span = 1L << 20, lines = 0, last = -1;
        for (long a = 0; a + 8 <= span; a += (long)s)
            if (a / (long)L != last)
                last = a / (long)L, lines++;
        GP_CHECK_NEAR((double)lines / (double)(span / (long)L), gp_mem_line_touched_fraction(s, L), 0.002);
    }
    return 0;
}

GP_TEST(cache_line_fit_finds_each_line)
{
    unsigned long long seed = 3;
    double knee[5];
    gp_mem_line_fit f;
    /* NVIDIA: 32 B sectors; lines 128, 64 and 32 B. */
    double lines[] = {128, 64, 32};
    for (int i = 0; i < 3; i++) {
        model_knees(nv_strides, 5, 220 * KIB, lines[i], 0, &seed, knee);
        GP_CHECK(fit(nv_strides, knee, 5, 32, &f) == 1);
        GP_CHECK_NEAR(f.line, lines[i], 0);
        GP_CHECK_NEAR(f.capacity, 220 * KIB, 1);
        GP_CHECK(f.residual < 1e-9 && f.runner_up_residual > 0.1 && f.reason[0] == 0);
    }
    /* AMD gfx9: 64 B lines, no sectors, a 16 KiB L1. */
    model_knees(amd_strides, 5, 16 * KIB, 64, 0, &seed, knee);
    GP_CHECK(fit(amd_strides, knee, 5, 64, &f) == 1);
    GP_CHECK_NEAR(f.line, 64, 0);
    GP_CHECK_NEAR(f.capacity, 16 * KIB, 1);
    return 0;
}

GP_TEST(cache_line_fit_survives_noise)
{
    unsigned long long seed = 11;
    double knee[5];
    gp_mem_line_fit f;
    for (int rep = 0; rep < 200; rep++) {
        double line = rep % 2 ? 128 : 64;
        model_knees(nv_strides, 5, 220 * KIB, line, 0.06, &seed, knee);
        GP_CHECK(fit(nv_strides, knee, 5, 32, &f) == 1);
        GP_CHECK_NEAR(f.line, line, 0);
        GP_CHECK(f.residual < 0.06);
        /* A missing knee (a stride whose sweep found none) leaves four; not
         * the sector stride's, which anchors the capacity (below). */
        knee[1 + rep % 4] = NAN;
        GP_CHECK(fit(nv_strides, knee, 5, 32, &f) == 1);
        GP_CHECK_NEAR(f.line, line, 0);
        GP_CHECK(f.nknees == 4);
    }
    return 0;
}

GP_TEST(cache_line_fit_ambiguous_is_none)
{
    double knee[5];
    gp_mem_line_fit f;
    unsigned long long seed = 5;
    /* Without the knee at the sector stride, 32 and 64 B lines both put
     * every other stride past the line: knee ~ s for both, only C differs. */
    model_knees(nv_strides, 5, 220 * KIB, 64, 0, &seed, knee);
    knee[0] = NAN;
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 5, 32, &f) == 0);
    GP_CHECK(isnan(f.line) && strstr(f.reason, "do not separate"));
    /* Flat knees: every stride within one line; 512 and 1024 B predict the same. */
    for (int i = 0; i < 5; i++)
        knee[i] = 220 * KIB;
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 5, 32, &f) == 0);
    GP_CHECK(isnan(f.line) && strstr(f.reason, "do not separate"));
    /* A 256 B line moves only the 288 B knee, by 1.125x: within the noise. */
    model_knees(nv_strides, 5, 220 * KIB, 256, 0.02, &seed, knee);
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 5, 32, &f) == 0);
    GP_CHECK(isnan(f.line) && strstr(f.reason, "do not separate"));
    /* Knees that follow no line: falling with the stride. */
    double falling[5] = {800 * KIB, 400 * KIB, 200 * KIB, 100 * KIB, 50 * KIB};
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, falling, 5, 32, &f) == 0);
    GP_CHECK(isnan(f.line) && strstr(f.reason, "for no line"));
    /* Too few knees, a bad sector. */
    double few[5] = {220 * KIB, NAN, NAN, 385 * KIB, NAN};
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, few, 5, 32, &f) == 0 && strstr(f.reason, "need >= 3"));
    model_knees(nv_strides, 5, 220 * KIB, 128, 0, &seed, knee);
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 5, 48, &f) == 0 && strstr(f.reason, "power of two"));
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 5, NAN, &f) == 0 && isnan(f.line));
    GP_CHECK(gp_mem_line_fit_knees(nv_strides, knee, 0, 32, &f) == 0 && isnan(f.line));
    return 0;
}

GP_TEST(cache_capacity_knee_crossing)
{
    /* A step from 32 to 280 cycles between 200 and 240 KiB, 8 points an octave. */
    double x[40], y[40];
    size_t n = 0;
    for (int k = -8; k < 16; k++, n++) {
        x[n] = 200 * KIB * pow(2.0, k / 8.0);
        y[n] = x[n] <= 205 * KIB ? 32 : x[n] >= 240 * KIB ? 280 : 32 + 248 * (x[n] - 205 * KIB) / (35 * KIB);
    }
    double k = gp_mem_capacity_knee(x, y, n, 156);
    GP_CHECK(k > 205 * KIB && k < 240 * KIB);
    /* The crossing is the one of the interpolated line (in log x). */
    size_t i = 0;
    while (y[i] < 156)
        i++;
    double t = (156 - y[i - 1]) / (y[i] - y[i - 1]);
    GP_CHECK_NEAR(k, exp(log(x[i - 1]) + t * (log(x[i]) - log(x[i - 1]))), 1e-6);
    /* A lone spike below the knee is skipped. */
    double spiky[40];
    memcpy(spiky, y, sizeof y);
    spiky[2] = 300;
    GP_CHECK_NEAR(gp_mem_capacity_knee(x, spiky, n, 156), k, 1e-6);
    /* Above from the first point, never above, above only at the last point. */
    GP_CHECK(isnan(gp_mem_capacity_knee(x + i, y + i, n - i, 156)));
    GP_CHECK(isnan(gp_mem_capacity_knee(x, y, n, 1000)));
    GP_CHECK(isnan(gp_mem_capacity_knee(x, y, i + 1, 156)));
    GP_CHECK(isnan(gp_mem_capacity_knee(x, y, 1, 156)));
    return 0;
}

/* ---- A simulated cache: `sets` x `ways` lines of `line` bytes, each in
 * sectors of `sector`, LRU; set = line address mod sets (power-of-two
 * indexing, as in L1s).  A miss on a resident line fetches its sector. */
typedef struct sim_cache {
    int sets, ways;
    long line, sector;
    long *tag;              /* sets x ways, -1 empty */
    unsigned *valid;        /* sector bits */
    long *stamp;
    long now;
} sim_cache;

static int sim_access(sim_cache *c, long addr)
{
    long ln = addr / c->line;
    int set = (int)(ln % c->sets);
    unsigned bit = 1u << ((addr % c->line) / c->sector);
    long *tg = c->tag + (size_t)set * c->ways, *st = c->stamp + (size_t)set * c->ways;
    unsigned *vb = c->valid + (size_t)set * c->ways;
    c->now++;
    int victim = 0;
    for (int w = 0; w < c->ways; w++) {
        if (tg[w] == ln) {
            st[w] = c->now;
            int hit = (vb[w] & bit) != 0;
            vb[w] |= bit;
            return hit;
        }
        if (st[victim] > st[w])
            victim = w;
    }
    for (int w = 0; w < c->ways; w++)
        if (tg[w] < 0) {
            victim = w;
            break;
        }
    tg[victim] = ln, vb[victim] = bit, st[victim] = c->now;
    return 0;
}

/* Cycles per load of a random cycle over `footprint` bytes at stride s:
 * one warm-up pass, one timed pass; hits 32 cycles, misses 280. */
static double sim_chase(sim_cache *c, long footprint, long s, unsigned long long *seed)
{
    long nodes = footprint / s;
    if (nodes < 2)
        nodes = 2;
    long *order = malloc((size_t)nodes * sizeof *order);
    if (!order)
        return NAN;
    for (long i = 0; i < nodes; i++)
        order[i] = i;
    for (long i = nodes - 1; i > 0; i--) {
        long j = (long)(gp_test_rand(seed) * (double)(i + 1));
        if (j > i)
            j = i;
        long t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (int w = 0; w < c->sets * c->ways; w++)
        c->tag[w] = -1, c->valid[w] = 0, c->stamp[w] = 0;
    long hits = 0;
    for (int pass = 0; pass < 2; pass++)
        for (long i = 0; i < nodes; i++) {
            int h = sim_access(c, order[i] * s);
            if (pass)
                hits += h;
        }
    free(order);
    double hit = (double)hits / (double)nodes;
    return 32 * hit + 280 * (1 - hit);
}

/* The probe's procedure on the simulated cache: per stride, footprints from
 * a quarter of the capacity up, 8 an octave; the knee where the latency has
 * risen a quarter of the way from hits to misses. */
static int sim_knees(sim_cache *c, const double *s, size_t ns, double cap, double *knee)
{
    unsigned long long seed = 21;
    for (size_t i = 0; i < ns; i++) {
        double x[80], y[80];
        size_t n = 0;
        for (int k = -16; k <= 32 && n < 80; k++, n++) {
            x[n] = floor(cap * pow(2.0, k / 8.0) / s[i]) * s[i];
            y[n] = sim_chase(c, (long)x[n], (long)s[i], &seed);
            if (!isfinite(y[n]))
                return 0;
        }
        knee[i] = gp_mem_capacity_knee(x, y, n, gp_mem_knee_threshold(32, 280));
    }
    return 1;
}

static int sim_init(sim_cache *c, int sets, int ways, long line, long sector)
{
    c->sets = sets, c->ways = ways, c->line = line, c->sector = sector, c->now = 0;
    c->tag = malloc((size_t)sets * ways * sizeof *c->tag);
    c->valid = malloc((size_t)sets * ways * sizeof *c->valid);
    c->stamp = malloc((size_t)sets * ways * sizeof *c->stamp);
    return c->tag && c->valid && c->stamp;
}

static void sim_free(sim_cache *c)
{
    free(c->tag), free(c->valid), free(c->stamp);
}

GP_TEST(cache_line_fit_on_simulated_caches)
{
    sim_cache c;
    double knee[5];
    gp_mem_line_fit f;
    /* NVIDIA-like: 32 KiB, 128 B lines of 32 B sectors, 8 ways. */
    GP_CHECK(sim_init(&c, 32, 8, 128, 32));
    int ok = sim_knees(&c, nv_strides, 5, 32 * KIB, knee);
    sim_free(&c);
    GP_CHECK(ok);
    GP_CHECK(fit(nv_strides, knee, 5, 32, &f) == 1);
    GP_CHECK_NEAR(f.line, 128, 0);
    GP_CHECK(fabs(f.capacity / (32 * KIB) - 1) < 0.1);
    /* AMD gfx9-like: 16 KiB, 64 B lines, no sectors, 4 ways. */
    GP_CHECK(sim_init(&c, 64, 4, 64, 64));
    ok = sim_knees(&c, amd_strides, 5, 16 * KIB, knee);
    sim_free(&c);
    GP_CHECK(ok);
    GP_CHECK(fit(amd_strides, knee, 5, 64, &f) == 1);
    GP_CHECK_NEAR(f.line, 64, 0);
    GP_CHECK(fabs(f.capacity / (16 * KIB) - 1) < 0.1);
    return 0;
}

GP_TEST(cache_line_power_of_two_strides_alias)
{
    /* Why the strides are odd multiples: at 256 B on 128 B lines only the
     * even sets are used, so the knee stays at the capacity instead of moving
     * out to 2x, and a fit over power-of-two strides misses the line. */
    sim_cache c;
    double s[5] = {32, 64, 128, 256, 512}, knee[5];
    gp_mem_line_fit f;
    GP_CHECK(sim_init(&c, 32, 8, 128, 32));
    int ok = sim_knees(&c, s, 5, 32 * KIB, knee);
    sim_free(&c);
    GP_CHECK(ok);
    GP_CHECK(knee[3] < 1.2 * knee[0] && knee[4] < 1.2 * knee[0]);
    GP_CHECK(gp_mem_line_fit_knees(s, knee, 5, 32, &f) == 0 || f.line != 128);
    return 0;
}

/* The probe's check: lines and sectors are powers of two, and the L1 sector
 * is no larger than the L1 line. */
static gp_status check_lines(double sector, double line)
{
    static gp_record r;
    gp_device_info dev;
    memset(&dev, 0, sizeof dev);
    gp_record_init(&r, "cache_latency", &dev);
    gp_record_value(&r, "l1_latency_cycles", 32, "cycles", -1, "test");
    gp_record_value(&r, "l2_latency_cycles", 281, "cycles", -1, "test");
    gp_record_value(&r, "dram_latency_cycles", 680, "cycles", -1, "test");
    gp_record_value(&r, "l1_sector_bytes", sector, "bytes", -1, "test");
    if (isfinite(line))
        gp_record_value(&r, "l1_line_bytes", line, "bytes", -1, "test");
    else
        gp_record_none(&r, "l1_line_bytes", "bytes", "the knees do not separate the candidates");
    const gp_probe *p = gp_probe_find("cache_latency");
    gp_status st = p && p->check ? p->check(&r, &dev) : gp_fail(GP_ERR_USAGE, "no cache_latency probe");
    gp_record_free(&r);
    return st;
}

GP_TEST(cache_line_probe_check)
{
    GP_CHECK(check_lines(32, 128).code == GP_OK);
    GP_CHECK(check_lines(64, 64).code == GP_OK);
    GP_CHECK(check_lines(32, NAN).code == GP_OK);
    gp_status st = check_lines(64, 32);
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "exceeds the L1 line"));
    st = check_lines(32, 96);
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "l1_line_bytes = 96"));
    return 0;
}
