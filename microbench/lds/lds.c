/* lds: shared memory (LDS) latency, banks, bank width and the padding that
 * removes column-read conflicts ([Vega-HIP] §2.9).
 *
 * Latency: one thread chases byte offsets through a random cycle in shared
 * memory; cycles per load from gp_cycles over 64K dependent loads.
 * Conflicts: one block of several waves; every lane reads element
 * lane * stride (4-, 8- or 16-byte elements, strides 1..64, and 128 for
 * 4-byte), 4 independent dependent chains per lane so the shared-memory pipe
 * is saturated: cycles per wave-wide load then count the passes the access
 * needs.  Degree(stride) = cycles(stride) / cycles(stride 1) of the same
 * element size.  Bank width and count from the power-of-two strides
 * (lds_analysis.c); the pad for a [32][32 + p] tile read by
 * column is the stride 32 + p with the smallest degree — the column read is
 * exactly the lane * (32 + p) pattern, so it is measured by the sweep. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lds.h"
#include "lds_analysis.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define LAT_NODES 1024
#define MAX_STRIDES 160

typedef struct lds_env {
    int *d_cycle, *d_zero, *d_sink;
    long long *d_cycles;
} lds_env;

static gp_status measure_latency(gp_probe_ctx *ctx, lds_env *e)
{
    int order[LAT_NODES], cycle[LAT_NODES];
    uint64_t rng = 0x6C6473ull;
    for (int i = 0; i < LAT_NODES; i++)
        order[i] = i;
    for (int i = LAT_NODES - 1; i > 0; i--) { /* Fisher-Yates order read as a cycle */
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((rng >> 33) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Successor byte offsets; the chase starts at node 0, which every cycle over all nodes holds. */
    for (int k = 0; k < LAT_NODES; k++)
        cycle[order[k]] = 4 * order[(k + 1) % LAT_NODES];
    int reps = ctx->opts->quick ? 3 : 7;
    long long loads = ctx->opts->quick ? 16384 : 65536;
    long long cyc[GP_LDS_MAX_REPS];
    double per[GP_LDS_MAX_REPS];
    GP_TRY(gp_rt_copy_to_device(e->d_cycle, cycle, sizeof cycle));
    GP_TRY(gp_lds_latency_run(e->d_cycle, LAT_NODES, loads, reps, e->d_cycles, e->d_sink));
    GP_TRY(gp_rt_copy_to_host(cyc, e->d_cycles, (size_t)reps * sizeof cyc[0]));
    for (int r = 0; r < reps; r++)
        per[r] = (double)cyc[r] / (double)loads;
    gp_summary s;
    gp_stats_summarize(per, (size_t)reps, &s);
    gp_value *v = gp_record_value(ctx->rec, "latency_cycles", s.median, "cycles", gp_stats_rel_spread(&s),
                                  "one thread chases byte offsets through a random 1024-node cycle in shared "
                                  "memory; cycles/load from gp_cycles, median of passes of 64K loads");
    if (v)
        v->unstable = gp_stats_rel_spread(&s) > 0.05;
    gp_record_ns_of_cycles(ctx->rec, "latency_ns", s.median, gp_stats_rel_spread(&s), ctx->clock_mhz);
    gp_progress("lds", 1, 1, "latency %.1f cycles", s.median);
    return gp_ok();
}

typedef struct bank_curve {
    double stride[MAX_STRIDES], cpi[MAX_STRIDES], degree[MAX_STRIDES];
    size_t n;
} bank_curve;

static gp_status measure_banks(gp_probe_ctx *ctx, lds_env *e, int elem, int max_stride, int threads,
                               gp_series *ser, bank_curve *c)
{
    int iters = ctx->opts->quick ? 64 : 256;
    int reps = ctx->opts->quick ? 1 : 3;
    double per_launch = (double)threads / ctx->dev.wave_size * GP_LDS_CHAINS * GP_LDS_UNROLL * iters;
    c->n = 0;
    for (int st = 1; st <= max_stride && c->n < MAX_STRIDES; st = st < 64 ? st + 1 : st * 2) {
        double samples[8];
        for (int r = 0; r < reps; r++) {
            long long cyc;
            GP_TRY(gp_lds_bank_run(elem, st, iters, threads, e->d_zero, e->d_cycles, e->d_sink));
            GP_TRY(gp_rt_copy_to_host(&cyc, e->d_cycles, sizeof cyc));
            samples[r] = (double)cyc / per_launch;
        }
        c->stride[c->n] = st;
        c->cpi[c->n] = gp_stats_median(samples, (size_t)reps);
        c->n++;
    }
    for (size_t i = 0; i < c->n; i++) {
        c->degree[i] = c->cpi[i] / c->cpi[0];
        double row[4] = {c->stride[i], elem, c->cpi[i], c->degree[i]};
        GP_TRY(gp_series_append(ser, row));
    }
    gp_progress("lds", elem, 16, "%d-byte accesses: stride 1 %.2f cycles per wave load", elem, c->cpi[0]);
    return gp_ok();
}

static void analyse_banks(gp_probe_ctx *ctx, const bank_curve *c4, const bank_curve *c8, const bank_curve *c16)
{
    gp_record *r = ctx->rec;
    int banks = 0, bw = 0;
    double conf;
    if (gp_mem_bank_geometry(c4->stride, c4->degree, c4->n, GP_LDS_BANK_ELEM_BYTES, &banks, &bw, &conf) == 0) {
        char m[256];
        snprintf(m, sizeof m,
                 "4-byte accesses at power-of-two strides: degree doubles from stride %d to %d and then "
                 "stays; banks = saturating stride x 4 B / bank width (confidence %.2f)",
                 2 * bw / 4, banks * bw / 4, conf);
        gp_value *v = gp_record_value(r, "banks", banks, "banks", -1, m);
        if (v)
            v->unstable = conf < 0.5;
        gp_record_value(r, "bank_bytes", bw, "bytes", -1,
                        "first conflicting power-of-two stride of 4-byte accesses (2 lanes one bank "
                        "apart) x 4 B / 2; an LDS serving half a wave per pass with twice the banks of half "
                        "the width reads the same");
    } else {
        gp_record_none(r, "banks", "banks", "conflict degree did not double and saturate over power-of-two strides");
        gp_record_none(r, "bank_bytes", "bytes", "conflict degree did not double and saturate over power-of-two strides");
        banks = 0;
    }
    int tile = banks > 0 ? banks : 32;
    double best;
    int pad = gp_mem_best_pad(c4->stride, c4->degree, c4->n, tile, GP_LDS_MAX_PAD, &best);
    if (pad >= 0) {
        char m[256];
        snprintf(m, sizeof m,
                 "pad p in 0..4 with the smallest measured degree of a column read of a [%d][%d+p] tile "
                 "of 4-byte elements (= lanes at stride %d+p); degree %.2f at p=%d", tile, tile, tile, best, pad);
        gp_record_value(r, "pad_elems", pad, "elements", -1, m);
    } else {
        gp_record_none(r, "pad_elems", "elements", "strides tile..tile+4 not measured");
    }
    double worst = 0;
    for (size_t i = 0; i < c4->n; i++)
        worst = fmax(worst, c4->degree[i]);
    gp_record_value(r, "worst_conflict_degree", worst, "x", -1,
                    "largest cycles(stride)/cycles(stride 1) over 4-byte strides 1..128");
    double mn = INFINITY;
    for (size_t i = 0; i < c4->n; i++)
        mn = fmin(mn, c4->cpi[i]);
    gp_record_value(r, "stride1_vs_best", c4->cpi[0] / mn, "x", -1,
                    "cycles at stride 1 / fewest cycles at any stride (4-byte): ~1 when stride 1 is conflict-free");
    /* Bytes a conflict-free wave load moves per cycle, per element size. */
    const bank_curve *cs[3] = {c4, c8, c16};
    int elems[3] = {4, 8, 16};
    for (int k = 0; k < 3; k++)
        gp_record_note(r, "%d-byte accesses at stride 1: %.2f cycles per wave load = %.0f bytes/cycle per CU%s",
                       elems[k], cs[k]->cpi[0], ctx->dev.wave_size * elems[k] / cs[k]->cpi[0],
                       k == 0 ? "" : " (vs 4-byte: wider accesses split into more passes when this is equal)");
}

static gp_status lds_run(gp_probe_ctx *ctx)
{
    gp_record *r = ctx->rec;
    gp_record_value(r, "bytes_per_cu", (double)ctx->dev.lds_per_cu, "bytes", -1,
                    "reported by the runtime (shared memory per CU/SM)");
    int w = ctx->dev.wave_size > 0 ? ctx->dev.wave_size : 32;
    /* 16 waves x 4 chains keep enough loads in flight to cover the latency. */
    int threads = 16 * w;
    if (threads > ctx->dev.max_threads_per_block)
        threads = ctx->dev.max_threads_per_block / w * w;
    if (threads < w)
        return gp_fail(GP_ERR_USAGE, "lds: a block cannot hold one wave of %d", w);
    gp_series *ser = gp_record_series(r, "conflicts", "stride,bytes_per_access,cycles_per_wave_load,degree");
    if (!ser)
        return gp_fail(GP_ERR_NOMEM, "lds: no room for series");
    lds_env e;
    memset(&e, 0, sizeof e);
    int zeros[1 + GP_LDS_CHAINS] = {0};
    static bank_curve c4, c8, c16;
    gp_status st = gp_rt_malloc((void **)&e.d_cycle, LAT_NODES * sizeof(int));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_zero, sizeof zeros);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_sink, GP_LDS_MAX_THREADS * sizeof(int));
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&e.d_cycles, GP_LDS_MAX_REPS * sizeof(long long));
    if (st.code == GP_OK)
        st = gp_rt_copy_to_device(e.d_zero, zeros, sizeof zeros);
    if (st.code == GP_OK)
        st = measure_latency(ctx, &e);
    /* Strides keep every lane inside the 32 KiB array (no wrap, so no
     * accidental same-address broadcast): 4 B up to 128, 8 B up to 64,
     * 16 B up to 32 for wave64. */
    if (st.code == GP_OK)
        st = measure_banks(ctx, &e, 4, 128, threads, ser, &c4);
    if (st.code == GP_OK)
        st = measure_banks(ctx, &e, 8, 64, threads, ser, &c8);
    if (st.code == GP_OK)
        st = measure_banks(ctx, &e, 16, w <= 32 ? 64 : 32, threads, ser, &c16);
    if (e.d_cycle)
        gp_rt_free(e.d_cycle);
    if (e.d_zero)
        gp_rt_free(e.d_zero);
    if (e.d_sink)
        gp_rt_free(e.d_sink);
    if (e.d_cycles)
        gp_rt_free(e.d_cycles);
    GP_TRY(st);
    analyse_banks(ctx, &c4, &c8, &c16);
    return gp_ok();
}

static gp_status lds_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    const gp_value *lat = gp_record_find(rec, "latency_cycles");
    if (!lat || !lat->detected || !(lat->value >= 5 && lat->value <= 500))
        return gp_fail(GP_ERR_CHECK, "lds: latency %.1f cycles outside 5..500", lat ? lat->value : NAN);
    const gp_value *b = gp_record_find(rec, "banks");
    if (b && b->detected) {
        long v = lround(b->value);
        if (v < 8 || v > 64 || (v & (v - 1)))
            return gp_fail(GP_ERR_CHECK, "lds: %ld banks is not a power of two in 8..64", v);
    }
    const gp_value *s1 = gp_record_find(rec, "stride1_vs_best");
    if (!s1 || !(s1->value >= 0.8 && s1->value <= 1.25))
        return gp_fail(GP_ERR_CHECK, "lds: stride 1 is %.2fx the fastest stride: not conflict-free",
                       s1 ? s1->value : NAN);
    return gp_ok();
}

/* The tuning-table rows this probe measures (record value -> section.key). */
static const gp_probe_row lds_table_rows[] = {
    {"bytes_per_cu", "lds", "bytes_per_cu"},
    {"banks", "lds", "banks"},
    {"bank_bytes", "lds", "bank_bytes"},
    {"latency_cycles", "lds", "latency_cycles"},
};

/* How the report plots this probe's series (probe.h has the syntax). */
static const gp_probe_plot lds_plots[] = {
    {"conflicts", "stride", "degree|conflict_degree|ways", 0, 1, "LDS bank-conflict degree vs stride",
     "stride (elements of the access width)", "conflict degree (ways)", GP_PLOT_POINTS | GP_PLOT_YPOW2,
     "bytes_per_access{4=4-byte accesses;8=8-byte accesses;16=16-byte accesses}", NULL},
    /* A guess for a series not named above: skipped when the columns differ. */
    {"*", "stride|stride_words|stride_bytes", "conflict_degree|degree|ways", 0, 0, "Conflict degree vs stride",
     NULL, NULL, GP_PLOT_YZERO, NULL, NULL},
};

/* Its rows of the report's datasheet. */
static const gp_probe_headline lds_datasheet[] = {
    {600, "LDS", "LDS size per CU", "bytes_per_cu", NULL, NULL, GP_DS_BYTES, NULL, "lds", "bytes_per_cu", NULL, NULL, 0, 0},
    {610, "LDS", "LDS banks", "banks", "bank_bytes", NULL, GP_DS_BANKS, NULL, "lds", "banks", NULL, NULL, 0, 0},
    {620, "LDS", "LDS latency", "latency_cycles", "latency_ns", NULL, GP_DS_LATENCY, NULL, "lds", "latency_cycles",
     NULL, NULL, 0, 0},
};

/* Its ceilings of the report's roofline. */
static const gp_probe_roof lds_roofs[] = {
    {220, "LDS", GP_ROOF_BYTES, "bandwidth_gbs|lds_bandwidth_gbs", 0},
};

const gp_probe gp_probe_lds = {
    .name = "lds",
    .summary = "shared memory (LDS): latency, banks, bank width, conflict degree by stride and access size, padding",
    .run = lds_run,
    .check = lds_check,
    .table_rows = lds_table_rows,
    .ntable_rows = GP_COUNT(lds_table_rows),
    .plots = lds_plots,
    .nplots = GP_COUNT(lds_plots),
    .datasheet = lds_datasheet,
    .ndatasheet = GP_COUNT(lds_datasheet),
    .roofs = lds_roofs,
    .nroofs = GP_COUNT(lds_roofs),
};
