/* matrix_engine: dense matrix-engine rates (tensor cores, MFMA, WMMA) per
 * input precision, on one CU and on the whole chip, and the latency of one
 * dependent instruction.
 *
 * Method (fma_throughput's, for matrix instructions): a kernel whose waves
 * each issue GP_MMA_ACC independent chains of matrix instructions is timed
 * with events at ~10 ms a launch (work calibrated per point); FLOP/cycle =
 * instructions x 2 m n k / (seconds x measured clock).  One block on one CU
 * as its waves grow; the chip with every CU holding as many such blocks as
 * fit; one wave with one chain for the latency.  The instruction shapes
 * come from the device code itself (a query kernel), so a binary built for
 * several targets counts what the device ran.  An op the target has no
 * instruction for is recorded as `none` with the reason. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "evtimer.h"
#include "harness.h"
#include "matrix_engine.h"
#include "matrix_engine_analysis.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#define PROBE "matrix_engine"
#define MAX_SIZES 32

/* Key prefix of each op's values (sized by its initializers: an op added
 * to the enum and not here fails to compile instead of reading NULL). */
static const char *const op_key[] = {"fp16_mma",   "bf16_mma",   "tf32_mma",   "fp32_mma",
                                     "int8_mma",   "fp8_mma",    "fp16_wgmma", "bf16_wgmma",
                                     "tf32_wgmma", "int8_wgmma", "fp8_wgmma"};
_Static_assert(sizeof op_key / sizeof op_key[0] == GP_MMA_NOPS, "one key prefix per op");
/* The precisions of the [matrix] rows (GP_MMA_FP16 .. GP_MMA_FP8): each
 * takes the better of its paths, the ops gp_mma_precision maps to it. */
enum { NPREC = 6 };
static const char *const prec_name[NPREC] = {"fp16", "bf16", "tf32", "fp32", "int8", "fp8"};

typedef struct mma_run {
    gp_evtimer tm;
    float *out;
    int op, chain;
    unsigned blocks;
    int threads;
    long iters;
    gp_mma_shape shape;
} mma_run;

/* Matrix instructions one launch issues. */
static double insts_of(const mma_run *t)
{
    const int acc = t->chain ? 1 : (gp_mma_is_wgmma(t->op) ? GP_MMA_WG_ACC : GP_MMA_ACC);
    const double groups = (double)t->blocks * (t->threads / t->shape.group);
    return groups * (double)t->iters * GP_MMA_INNER * acc;
}

static gp_status time_once(void *ctx, double *ms)
{
    mma_run *t = ctx;
    GP_TRY(gp_evtimer_start(&t->tm));
    GP_TRY(gp_mma_launch(t->tm.stream, t->op, t->chain, t->blocks, t->threads, (int)t->iters, t->out));
    return gp_evtimer_stop_ms(&t->tm, ms);
}

/* Scale the loop trips until one launch takes about target_ms. */
static gp_status calibrate(mma_run *t, double target_ms)
{
    double ms;
    t->iters = 4;
    GP_TRY(time_once(t, &ms)); /* first launch: module load, clock ramp */
    for (int step = 0; step < 8; step++) {
        GP_TRY(time_once(t, &ms));
        double scale = ms > 0 ? target_ms / ms : 64.0;
        if (scale > 0.8 && scale < 1.25)
            break;
        long w = (long)(t->iters * (scale > 64 ? 64 : scale));
        w = w < 1 ? 1 : w > (1L << 28) ? (1L << 28) : w;
        if (w == t->iters)
            break;
        t->iters = w;
    }
    return gp_ok();
}

/* Median of a few launches: its time and spread. */
static gp_status measure(gp_probe_ctx *ctx, mma_run *t, double *ms, double *spread)
{
    return gp_harness_long_launch_guarded(ctx->opts->quick, time_once, t, &ctx->guard, ms, spread);
}

/* A value whose launches spread by more than 5 % is marked unstable. */
static gp_value *set_value(gp_record *r, const char *key, double v, const char *unit, double spread,
                           const char *method)
{
    return gp_record_value_within(r, key, v, unit, spread, 0.05, method);
}

static void key_of(char *out, size_t n, int op, const char *what)
{
    snprintf(out, n, "%s_%s", op_key[op], what);
}

static const char *ops_unit(int op, int per_cycle)
{
    if (gp_mma_precision(op) == GP_MMA_INT8)
        return per_cycle ? "OP/cycle" : "TOPS";
    return per_cycle ? "FLOP/cycle" : "TFLOPS";
}

/* One block on one CU, its waves growing: the best FLOP/cycle and the
 * block size it came at. */
static gp_status sweep_one_cu(gp_probe_ctx *ctx, mma_run *t, double target_ms, gp_series *ser, int *best_threads)
{
    int sizes[MAX_SIZES];
    int n = gp_mma_block_sizes(t->shape.group, ctx->dev.max_threads_per_block, sizes, MAX_SIZES);
    double best = -1, best_sp = 0;
    const double per_inst = gp_mma_flops_per_inst(t->shape.m, t->shape.n, t->shape.k);
    t->chain = 0, t->blocks = 1;
    for (int i = 0; i < n; i++) {
        int fit = 0;
        GP_TRY(gp_mma_blocks_per_cu(t->op, 0, sizes[i], &fit));
        if (fit < 1)
            break; /* the kernel's register or launch bound: larger blocks do not fit either */
        t->threads = sizes[i];
        GP_TRY(calibrate(t, target_ms));
        double ms, sp;
        GP_TRY(measure(ctx, t, &ms, &sp));
        double rate = gp_mma_per_cycle(insts_of(t) * per_inst, ms, ctx->clock_mhz);
        double row[6] = {t->op, sizes[i], (double)sizes[i] / t->shape.group, ms, sp, rate};
        GP_TRY(gp_series_append(ser, row));
        if (rate > best)
            best = rate, best_sp = sp, *best_threads = sizes[i];
    }
    if (!(best > 0))
        return gp_fail(GP_ERR_CHECK, PROBE ": %s: no positive one-CU rate", op_key[t->op]);
    char key[64], m[320];
    key_of(key, sizeof key, t->op, "flop_per_cycle_per_cu");
    snprintf(m, sizeof m, "one block on one CU, %d..%d threads, each group of %d issuing %d independent %dx%dx%d "
                          "chains; 2mnk per instruction x count / (event time x measured clock), best block",
             sizes[0], sizes[n - 1], t->shape.group, gp_mma_is_wgmma(t->op) ? GP_MMA_WG_ACC : GP_MMA_ACC,
             t->shape.m, t->shape.n, t->shape.k);
    set_value(ctx->rec, key, best, ops_unit(t->op, 1), best_sp, m);
    return gp_ok();
}

/* Every CU full: as many blocks of the best size as fit, times the CUs. */
static gp_status chip(gp_probe_ctx *ctx, mma_run *t, double target_ms, int threads, double out[2])
{
    const int cus = ctx->dev.compute_units > 0 ? ctx->dev.compute_units : 1;
    int per_cu = 0;
    GP_TRY(gp_mma_blocks_per_cu(t->op, 0, threads, &per_cu));
    if (per_cu < 1)
        return gp_fail(GP_ERR_CHECK, PROBE ": %s: no block of %d threads fits on a CU", op_key[t->op], threads);
    t->chain = 0, t->threads = threads, t->blocks = (unsigned)(per_cu * cus);
    GP_TRY(calibrate(t, target_ms));
    double ms, sp;
    GP_TRY(measure(ctx, t, &ms, &sp));
    const double ops = insts_of(t) * gp_mma_flops_per_inst(t->shape.m, t->shape.n, t->shape.k);
    /* Multiply-adds per cycle per CU: half the FLOP, the unit the table,
     * the datasheet and the roofline take (fp32_fma_per_cycle_per_cu's). */
    out[0] = gp_mma_per_cycle(ops / 2, ms, ctx->clock_mhz) / cus;
    out[1] = gp_mma_tflops(ops, ms);
    char key[64], m[320];
    key_of(key, sizeof key, t->op, "fma_per_cycle_per_cu");
    snprintf(m, sizeof m, "whole chip: %u blocks of %d threads (%d per CU x %d CUs); multiply-adds (FLOP / 2) / "
                          "(event time x clock measured before the probe) / CUs",
             t->blocks, threads, per_cu, cus);
    set_value(ctx->rec, key, out[0], "FMA/cycle/CU", sp, m);
    key_of(key, sizeof key, t->op, "tflops_chip");
    snprintf(m, sizeof m, "whole chip, the same launch: 2mnk per instruction x count / event time (no clock)");
    set_value(ctx->rec, key, out[1], ops_unit(t->op, 0), sp, m);
    return gp_ok();
}

/* One wave, one accumulator: every instruction waits for the previous. */
static gp_status latency(gp_probe_ctx *ctx, mma_run *t, double target_ms)
{
    t->chain = 1, t->blocks = 1, t->threads = t->shape.group;
    GP_TRY(calibrate(t, target_ms));
    double ms, sp;
    GP_TRY(measure(ctx, t, &ms, &sp));
    double cyc = gp_mma_latency_cycles(ms, ctx->clock_mhz, insts_of(t));
    char key[64], m[256];
    key_of(key, sizeof key, t->op, "latency_cycles");
    snprintf(m, sizeof m, "one wave, one accumulator: %ld x %d dependent %dx%dx%d instructions; event time x "
                          "measured clock / count",
             t->iters, GP_MMA_INNER, t->shape.m, t->shape.n, t->shape.k);
    set_value(ctx->rec, key, cyc, "cycles", sp, m);
    return gp_ok();
}

static void record_none(gp_probe_ctx *ctx, int op, const char *why)
{
    static const char *const what[] = {"flop_per_cycle_per_cu", "fma_per_cycle_per_cu", "tflops_chip",
                                       "latency_cycles"};
    static const char *const units[] = {"FLOP/cycle", "FMA/cycle/CU", "TFLOPS", "cycles"};
    const int n = gp_mma_is_wgmma(op) ? 3 : 4; /* the warpgroup kernel times no latency */
    for (int i = 0; i < n; i++) {
        char key[64];
        key_of(key, sizeof key, op, what[i]);
        gp_record_none(ctx->rec, key, units[i], why);
    }
}

static gp_status run_op(gp_probe_ctx *ctx, mma_run *t, int op, gp_series *ser, double chip_out[2])
{
    const double target = ctx->opts->quick ? 2.0 : 10.0;
    chip_out[0] = chip_out[1] = NAN;
    if (t->shape.m <= 0) {
        record_none(ctx, op, gp_mma_none_reason(ctx->dev.arch, op));
        return gp_ok();
    }
    int best = t->shape.group;
    GP_TRY(sweep_one_cu(ctx, t, target, ser, &best));
    if (!gp_mma_is_wgmma(op))
        GP_TRY(latency(ctx, t, target));
    return chip(ctx, t, target, best, chip_out);
}

/* [matrix]'s rows: each precision's better path (mma.sync or wgmma on
 * NVIDIA; fp32 has one path, the others two where the target has wgmma). */
static void record_peaks(gp_probe_ctx *ctx, double chip_fma[GP_MMA_NOPS])
{
    for (int p = 0; p < NPREC; p++) {
        double cand[GP_MMA_NOPS];
        int paths[GP_MMA_NOPS], n = 0;
        for (int op = 0; op < GP_MMA_NOPS; op++)
            if (gp_mma_precision(op) == p)
                paths[n] = op, cand[n++] = chip_fma[op];
        char key[64], m[256];
        snprintf(key, sizeof key, "%s_matrix_fma_per_cycle_per_cu", prec_name[p]);
        int i = gp_mma_choose_peak(cand, (size_t)n);
        if (i < 0) {
            gp_record_none(ctx->rec, key, "FMA/cycle/CU", gp_mma_none_reason(ctx->dev.arch, p));
            continue;
        }
        snprintf(m, sizeof m, "the larger whole-chip rate of this precision's paths: %s_fma_per_cycle_per_cu",
                 op_key[paths[i]]);
        set_value(ctx->rec, key, cand[i], "FMA/cycle/CU", -1, m);
    }
}

static gp_status run_all(gp_probe_ctx *ctx, mma_run *t)
{
    gp_mma_shape shapes[GP_MMA_NOPS];
    memset(shapes, 0, sizeof shapes);
    GP_TRY(gp_mma_query(shapes));
    gp_series *ser = gp_record_series(ctx->rec, "one_cu", "op,threads,groups,ms_median,spread,flop_per_cycle");
    gp_series *cs = gp_record_series(ctx->rec, "chip", "op,fma_per_cycle_per_cu,tflops");
    if (!ser || !cs)
        return gp_fail(GP_ERR_NOMEM, PROBE ": no room for series");
    double chip_fma[GP_MMA_NOPS];
    for (int op = 0; op < GP_MMA_NOPS; op++) {
        t->op = op, t->shape = shapes[op];
        double c[2];
        GP_TRY(run_op(ctx, t, op, ser, c));
        chip_fma[op] = c[0];
        if (isfinite(c[0])) {
            double row[3] = {op, c[0], c[1]};
            GP_TRY(gp_series_append(cs, row));
        }
        gp_progress(PROBE, op + 1, GP_MMA_NOPS, "%s: %s", op_key[op],
                    isfinite(c[1]) ? "timed" : "none on this target");
    }
    record_peaks(ctx, chip_fma);
    return gp_ok();
}

static gp_status matrix_engine_run(gp_probe_ctx *ctx)
{
    mma_run t;
    memset(&t, 0, sizeof t);
    gp_status st = gp_evtimer_create(&t.tm, 1);
    if (st.code == GP_OK)
        st = gp_rt_malloc((void **)&t.out, 64);
    if (st.code == GP_OK)
        st = run_all(ctx, &t);
    if (t.out)
        gp_rt_free(t.out);
    gp_evtimer_destroy(&t.tm);
    return st;
}

/* A matrix rate above this many multiply-adds per cycle per CU is a clock or
 * count error: 4x the largest published (H100 fp8 and int8, 8192 dense OP a
 * clock an SM: 4096 multiply-adds). */
#define MAX_FMA_PER_CU 16384.0

static gp_status matrix_engine_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    int timed = 0;
    for (int op = 0; op < GP_MMA_NOPS; op++) {
        char key[64];
        key_of(key, sizeof key, op, "fma_per_cycle_per_cu");
        const gp_value *v = gp_record_find(rec, key);
        if (!v || !v->detected)
            continue;
        if (!(v->value > 0) || v->value > MAX_FMA_PER_CU)
            return gp_fail(GP_ERR_CHECK, PROBE ": %s = %.1f FMA/cycle/CU, outside (0, %.0f]: the clock or the "
                                        "instruction count is wrong", key, v->value, MAX_FMA_PER_CU);
        timed++;
    }
    /* A target without a matrix unit times nothing; that is not a failure,
     * but every op must then say why. */
    const gp_value *f16 = gp_record_find(rec, "fp16_matrix_fma_per_cycle_per_cu");
    if (!timed && (!f16 || f16->detected || !f16->note[0]))
        return gp_fail(GP_ERR_CHECK, PROBE ": nothing timed and no reason recorded");
    return gp_ok();
}

/* The tuning-table rows (record value -> section.key, matrix_engine_facts.inc). */
static const gp_probe_row matrix_engine_table_rows[] = {
    {"fp16_matrix_fma_per_cycle_per_cu", "matrix", "fp16_fma_per_cycle_per_cu"},
    {"bf16_matrix_fma_per_cycle_per_cu", "matrix", "bf16_fma_per_cycle_per_cu"},
    {"tf32_matrix_fma_per_cycle_per_cu", "matrix", "tf32_fma_per_cycle_per_cu"},
    {"fp32_matrix_fma_per_cycle_per_cu", "matrix", "fp32_fma_per_cycle_per_cu"},
    {"int8_matrix_fma_per_cycle_per_cu", "matrix", "int8_fma_per_cycle_per_cu"},
    {"fp8_matrix_fma_per_cycle_per_cu", "matrix", "fp8_fma_per_cycle_per_cu"},
    {"fp16_mma_latency_cycles", "matrix", "fp16_latency_cycles"},
};

#define OP_NAMES                                                                                          \
    "op{0=fp16;1=bf16;2=tf32;3=fp32;4=int8 (OP);5=fp8;6=fp16 wgmma;7=bf16 wgmma;8=tf32 wgmma;9=int8 wgmma (OP);" \
    "10=fp8 wgmma}"
static const gp_probe_plot matrix_engine_plots[] = {
    {"one_cu", "groups", "flop_per_cycle", 0, 0, "Matrix FLOP per cycle vs issuing groups (one block on one CU)",
     "warps / waves / warpgroups in the block", "FLOP per cycle (one CU)", GP_PLOT_YZERO, OP_NAMES, NULL},
    {"chip", OP_NAMES, "tflops", 0, 0, "Whole-chip matrix rate by path", NULL, "TFLOPS (TOPS for int8)",
     GP_PLOT_BARS, NULL, NULL},
};

/* Datasheet: each precision's chip rate against the vendor's dense figure;
 * within 10 % of it is the mark (throttling under a full matrix load shows
 * here, as the clock measured before the probe overstates the one it ran). */
#define ROW(place, label, prec, spec)                                                                       \
    {place, "Compute", label, prec "_matrix_fma_per_cycle_per_cu", NULL, NULL, GP_DS_FLOPS, NULL, "matrix", \
     prec "_fma_per_cycle_per_cu", NULL, spec, 0.90, 0}
static const gp_probe_headline matrix_engine_datasheet[] = {
    ROW(220, "fp16 matrix rate (dense)", "fp16", "fp16_matrix_tflops"),
    ROW(230, "bf16 matrix rate (dense)", "bf16", "bf16_matrix_tflops"),
    ROW(240, "tf32 matrix rate (dense)", "tf32", "tf32_matrix_tflops"),
    ROW(250, "fp32 matrix rate (dense)", "fp32", "fp32_matrix_tflops"),
    ROW(260, "int8 matrix rate (dense, OP/s)", "int8", "int8_matrix_tops"),
    ROW(270, "fp8 matrix rate (dense)", "fp8", "fp8_matrix_tflops"),
};
#undef ROW

static const gp_probe_roof matrix_engine_roofs[] = {
    {120, "fp16 matrix", GP_ROOF_FLOPS, "fp16_matrix_fma_per_cycle_per_cu", 0},
    {130, "tf32 matrix", GP_ROOF_FLOPS, "tf32_matrix_fma_per_cycle_per_cu", 0},
    {140, "fp8 matrix", GP_ROOF_FLOPS, "fp8_matrix_fma_per_cycle_per_cu", 0},
};

const gp_probe gp_probe_matrix_engine = {
    .name = PROBE,
    .summary = "matrix-engine rates per precision (mma.sync, wgmma, MFMA, WMMA): one CU, chip, latency",
    .run = matrix_engine_run,
    .check = matrix_engine_check,
    .table_rows = matrix_engine_table_rows,
    .ntable_rows = GP_COUNT(matrix_engine_table_rows),
    .plots = matrix_engine_plots,
    .nplots = GP_COUNT(matrix_engine_plots),
    .datasheet = matrix_engine_datasheet,
    .ndatasheet = GP_COUNT(matrix_engine_datasheet),
    .roofs = matrix_engine_roofs,
    .nroofs = GP_COUNT(matrix_engine_roofs),
    .order = 0, /* runs among the others, by name */
};
