/* gemm host API: parameters snapped to a compiled configuration, problem
 * checks, and the column-major -> row-major mapping, all before any device
 * call.  The tile for a problem's shape is the rule's (gemm_rule.c, through
 * gp_kernel_params); the launch reads only the parameters it is given. */
#include "gemm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "context.h"
#include "kernel.h"
#include "rule.h"

/* The order gemm.hip's launcher dispatches in (gemm.h: GP_GEMM_CFG*). */
const int gp_gemm_configs[GP_GEMM_NCONFIGS][5] = {{GP_GEMM_CFG0}, {GP_GEMM_CFG1}, {GP_GEMM_CFG2}, {GP_GEMM_CFG3},
                                                        {GP_GEMM_CFG4}, {GP_GEMM_CFG5}};

int gp_gemm_config_on(int cfg, unsigned reg_class)
{
    if (cfg < 0 || cfg >= GP_GEMM_NCONFIGS)
        return 0;
    return reg_class == 0 || ((unsigned)gp_gemm_configs[cfg][4] & reg_class) != 0;
}

size_t gp_gemm_lds_bytes(int tile_m, int tile_n, int tile_k)
{
    return 2u * (size_t)tile_k * (size_t)(tile_m + tile_n + 2 * GP_GEMM_LDS_PAD) * 4u;
}

long long gp_gemm_config_regs(int cfg)
{
    const int *c = gp_gemm_configs[cfg];
    if (GP_GEMM_THREAD_TILE(c[0], c[1], c[3]) == 128)
        return GP_GEMM_REGS_WT;
    return (c[0] + c[1]) * c[2] / c[3] > 8 ? GP_GEMM_RULE_REGS_WIDE : GP_GEMM_RULE_REGS_SLAB8;
}

/* What one CU of dev grants, for the occupancy model (kernels/rule.h); a
 * limit the runtime did not report takes the rules' stand-in for a fact
 * that is none. */
static void device_cu(const gp_device_info *dev, gp_rule_cu *cu)
{
    memset(cu, 0, sizeof *cu);
    cu->wave = dev->wave_size > 0 ? dev->wave_size : 64;
    cu->regs_per_cu = dev->regs_per_cu > 0 ? dev->regs_per_cu : 65536;
    cu->reg_granule = 8;
    cu->lds_per_cu = dev->lds_per_cu > 0 ? (long long)dev->lds_per_cu : 48 * 1024;
    cu->lds_per_block = dev->lds_per_block > 0 ? (long long)dev->lds_per_block : 48 * 1024;
    if (cu->lds_per_block > cu->lds_per_cu)
        cu->lds_per_block = cu->lds_per_cu;
    cu->max_threads_cu = dev->max_threads_per_cu > 0 ? dev->max_threads_per_cu : cu->wave == 64 ? 40 * 64 : 2048;
    cu->lds_block_reserve = gp_target_lds_block_reserve(dev->arch[0] ? dev->arch : NULL);
}

/* The launch's pointer step (gemm.h, gp_gemm_plan) needs the device's CUs
 * and each configuration's blocks per CU. */
static void fit_occupancy(gp_gemm_params *p, const gp_device_info *dev)
{
    gp_rule_cu cu;
    memset(&cu, 0, sizeof cu);
    p->cus = dev && dev->compute_units > 0 ? dev->compute_units : 0;
    if (p->cus)
        device_cu(dev, &cu);
    for (int i = 0; i < GP_GEMM_NCONFIGS; i++) {
        const int *c = gp_gemm_configs[i];
        p->blocks_cu[i] = p->cus ? (int)gp_rule_blocks_per_cu(&cu, c[3], gp_gemm_config_regs(i),
                                                              (long long)gp_gemm_lds_bytes(c[0], c[1], c[2]))
                                 : 0;
    }
}

void gp_gemm_params_fit(gp_gemm_params *p, const gp_device_info *dev)
{
    size_t lds = dev && dev->lds_per_block ? dev->lds_per_block : 49152;
    const unsigned cls = dev ? gp_target_reg_class(dev->arch) : 0;
    int pick = -1, known = 0;
    for (int i = 0; i < GP_GEMM_NCONFIGS; i++) {
        const int *c = gp_gemm_configs[i];
        if (c[0] == p->tile_m && c[1] == p->tile_n && c[2] == p->tile_k && c[3] == p->block) {
            known = 1;
            if (gp_gemm_config_on(i, cls) && gp_gemm_lds_bytes(c[0], c[1], c[2]) <= lds)
                pick = i;
        }
    }
    if (pick < 0) {
        for (int i = GP_GEMM_NCONFIGS - 1; i >= 0; i--)
            if (gp_gemm_config_on(i, cls) &&
                gp_gemm_lds_bytes(gp_gemm_configs[i][0], gp_gemm_configs[i][1], gp_gemm_configs[i][2]) <= lds)
                pick = i;
        if (pick < 0) /* none fits the LDS: the smallest of the class */
            for (int i = 0; i < GP_GEMM_NCONFIGS; i++)
                if (gp_gemm_config_on(i, cls))
                    pick = i;
        if (known && cls)
            snprintf(p->note, sizeof p->note, "%dx%dx%d/%d is not compiled for %s (%s) or exceeds its LDS per block: "
                     "nearest compiled", p->tile_m, p->tile_n, p->tile_k, p->block, dev->arch,
                     gp_target_reg_class_name(cls));
        else
            snprintf(p->note, sizeof p->note, "%dx%dx%d/%d is not compiled (or exceeds LDS per block): nearest compiled",
                     p->tile_m, p->tile_n, p->tile_k, p->block);
    }
    p->config = pick;
    p->tile_m = gp_gemm_configs[pick][0], p->tile_n = gp_gemm_configs[pick][1];
    p->tile_k = gp_gemm_configs[pick][2], p->block = gp_gemm_configs[pick][3];
    if (p->split_k > 1 && !GP_GEMM_SPLITS(p->tile_m, p->tile_n, p->block)) {
        size_t used = strlen(p->note);
        snprintf(p->note + used, sizeof p->note - used, "%ssplit_k %d -> 1: the %dx%dx%d/%d kernel does not split k",
                 used ? "; " : "", p->split_k, p->tile_m, p->tile_n, p->tile_k, p->block);
        p->split_k = 1;
    }
    if (p->split_k < 1)
        p->split_k = 1;
    if (p->stream_k && (pick != GP_GEMM_FALLBACK_FROM || p->split_k > 1)) {
        size_t used = strlen(p->note);
        snprintf(p->note + used, sizeof p->note - used, "%sstream_k 1 -> 0: %s", used ? "; " : "",
                 p->split_k > 1 ? "k is split" : "only the 128x256x8/256 kernel has it");
        p->stream_k = 0;
    }
    fit_occupancy(p, dev);
}

void gp_gemm_problem_of_shape(const gp_shape *s, float alpha, float beta, gp_gemm_problem *q)
{
    memset(q, 0, sizeof *q);
    q->layout = s->opt[GP_GEMM_OPT_LAYOUT] ? GP_GEMM_COL_MAJOR : GP_GEMM_ROW_MAJOR;
    q->trans_a = s->opt[GP_GEMM_OPT_TRANS_A] != 0, q->trans_b = s->opt[GP_GEMM_OPT_TRANS_B] != 0;
    q->m = (int)s->d[GP_GEMM_M], q->n = (int)s->d[GP_GEMM_N], q->k = (int)s->d[GP_GEMM_K];
    q->alpha = alpha, q->beta = beta;
    /* The least leading dimension: the stored columns (row-major) or rows
     * (column-major) of op's operand as laid out. */
    const int rm = q->layout == GP_GEMM_ROW_MAJOR;
    const int ac = q->trans_a ? q->m : q->k, ar = q->trans_a ? q->k : q->m;
    const int bc = q->trans_b ? q->k : q->n, br = q->trans_b ? q->n : q->k;
    const long long least[3] = {rm ? ac : ar, rm ? bc : br, rm ? q->n : q->m};
    int *ld[3] = {&q->lda, &q->ldb, &q->ldc};
    for (int i = 0; i < 3; i++) {
        const long long v = s->d[GP_GEMM_LDA + i];
        *ld[i] = (int)(v > 0 ? (v > 0x7fffffff ? 0x7fffffff : v) : least[i]);
    }
}

/* The configurations the per-problem step weighs (gemm.h, gp_gemm_plan),
 * the chosen 128x256 first, and each one's per-SM rate at its full
 * occupancy relative to 128x256's (GP_GEMM_RATE_*). */
static const int plan_cfgs[] = {5, 0, 1, 2};
static const double plan_rate[GP_GEMM_NCONFIGS] = {GP_GEMM_RATE_CFG0, GP_GEMM_RATE_CFG1, GP_GEMM_RATE_CFG2, 0, 0, 1.0};

/* U: the 16-byte load factor of the warp-tiled kernel on the problem's
 * rows (1 for the quadrant kernel, which loads 4 bytes always). */
static double load_factor(const gp_gemm_problem *q, int cfg, int ptrs16)
{
    const int *c = gp_gemm_configs[cfg];
    if (GP_GEMM_THREAD_TILE(c[0], c[1], c[3]) != 128)
        return 1.0;
    const int rm = q->layout == GP_GEMM_ROW_MAJOR;
    /* The launched A (tile_m rows of the slab) and B (tile_n): ld % 4. */
    const int a_ld = rm ? q->lda : q->ldb, b_ld = rm ? q->ldb : q->lda;
    const double a_share = (double)c[0] / (c[0] + c[1]);
    double bad = (!ptrs16 || a_ld % 4 ? a_share : 0) + (!ptrs16 || b_ld % 4 ? 1 - a_share : 0);
    return 1.0 - GP_GEMM_LD4_LOSS * bad;
}

/* The busiest SM's time, in 128x256-tile-k-steps at 128x256's full rate:
 * the grid the launcher makes (the row-major problem's ceil(m / tile_m) x
 * ceil(n / tile_n); column-major: m and n swap) times `pieces` (split k),
 * dealt one block an SM at a time, so the busiest SM runs ceil(blocks /
 * SMs) = full rounds of blocks_cu and a remainder; a round of b blocks runs
 * at rate(b) = rate(blocks_cu) x (b / blocks_cu)^GP_GEMM_PARTIAL_EXP. */
static double busiest(const gp_gemm_problem *q, const gp_gemm_params *p, int cfg, int ptrs16, long long pieces,
                      long long *blocks)
{
    const int *c = gp_gemm_configs[cfg];
    const int rm = q->layout == GP_GEMM_ROW_MAJOR, bcu = p->blocks_cu[cfg];
    const long long m = rm ? q->m : q->n, n = rm ? q->n : q->m;
    *blocks = ((m + c[0] - 1) / c[0]) * ((n + c[1] - 1) / c[1]) * pieces;
    if (p->cus <= 0 || bcu <= 0 || !(plan_rate[cfg] > 0))
        return HUGE_VAL;
    const long long per_sm = (*blocks + p->cus - 1) / p->cus, rem = per_sm % bcu;
    const double tile = (double)c[0] * c[1] / (128.0 * 256.0), rate = plan_rate[cfg] * load_factor(q, cfg, ptrs16);
    double t = (double)(per_sm - rem) * tile / rate;
    if (rem)
        t += (double)rem * tile / (rate * pow((double)rem / bcu, GP_GEMM_PARTIAL_EXP));
    return t;
}

double gp_gemm_plan_time(const gp_gemm_problem *q, const gp_gemm_params *p, int cfg, int ptrs16, long long *blocks)
{
    return busiest(q, p, cfg, ptrs16, 1, blocks);
}

/* The pieces k is cut into at `split` splits of configuration cfg's k-step. */
static int split_pieces(int k, int split, int tile_k)
{
    const int kc = gp_gemm_split_kc(k, split, tile_k);
    return (k + kc - 1) / kc;
}

static int split_facts_ok(const gp_gemm_split_facts *f)
{
    return f && f->fma_per_cycle_cu > 0 && f->clock_hz > 0 && f->dram_bytes_s > 0 && f->launch_s >= 0;
}

double gp_gemm_split_time(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f, int cfg,
                          int split)
{
    long long blocks;
    if (!split_facts_ok(f) || cfg < 0 || cfg >= GP_GEMM_NCONFIGS || split < 1)
        return HUGE_VAL;
    const int tk = gp_gemm_configs[cfg][2], pieces = split_pieces(q->k, split, tk);
    const int kc = pieces > 1 ? gp_gemm_split_kc(q->k, split, tk) : q->k;
    const double units = busiest(q, p, cfg, 1, pieces, &blocks);
    if (!(units < HUGE_VAL))
        return HUGE_VAL;
    /* One unit: a 128 x 256 tile kc deep at 128x256's sustained rate. */
    double t = units * 128.0 * 256.0 * kc / (f->fma_per_cycle_cu * f->clock_hz * GP_GEMM_RATE_PEAK);
    if (pieces > 1) {
        const int rm = q->layout == GP_GEMM_ROW_MAJOR;
        const double m = rm ? q->m : q->n, n = gp_gemm_split_ld(rm ? q->n : q->m);
        t += 2.0 * pieces * m * n * 4.0 / f->dram_bytes_s + f->launch_s;
    }
    return t;
}

/* The tile and split of gp_gemm_plan_split before stream-K is weighed. */
static int plan_tile_split(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f,
                           int *split, char *why, size_t n)
{
    *split = 1;
    const int t = gp_gemm_plan(q, p, 1, why, n);
    if (p->config != GP_GEMM_FALLBACK_FROM || !split_facts_ok(f) || p->cus <= 0)
        return t;
    const double t0 = gp_gemm_split_time(q, p, f, t, 1);
    double best = HUGE_VAL;
    int pick = t, s_best = 1;
    for (size_t i = 0; i < sizeof plan_cfgs / sizeof plan_cfgs[0]; i++)
        for (int sp = 2; sp <= GP_GEMM_SPLIT_MAX; sp++) {
            const int cfg = plan_cfgs[i], *c = gp_gemm_configs[cfg];
            if (!GP_GEMM_SPLITS(c[0], c[1], c[3]) || split_pieces(q->k, sp, c[2]) < 2)
                continue;
            const double ts = gp_gemm_split_time(q, p, f, cfg, sp);
            if (ts < best)
                best = ts, pick = cfg, s_best = sp;
        }
    if (!(best * GP_GEMM_PLAN_MARGIN < t0))
        return t;
    const int *c = gp_gemm_configs[pick], *c0 = gp_gemm_configs[t];
    long long blocks;
    const int pieces = split_pieces(q->k, s_best, c[2]);
    busiest(q, p, pick, 1, pieces, &blocks);
    *split = s_best;
    if (why && n)
        snprintf(why, n, "ran %dx%dx%d/%d, k in %d pieces: %lld blocks, %lld a CU, model %.1f us vs %.1f unsplit "
                 "(%dx%dx%d/%d)", c[0], c[1], c[2], c[3], pieces, blocks, (long long)p->blocks_cu[pick], best * 1e6,
                 t0 * 1e6, c0[0], c0[1], c0[2], c0[3]);
    return pick;
}

int gp_gemm_plan_split(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f, int *split,
                       int *sk, char *why, size_t n)
{
    const int cfg = plan_tile_split(q, p, f, split, why, n);
    if (!sk)
        return cfg;
    const double against = gp_gemm_split_time(q, p, f, cfg, *split), t = gp_gemm_sk_time(q, p, f);
    *sk = t * GP_GEMM_SK_MARGIN < against;
    if (!*sk)
        return cfg;
    const int *c = gp_gemm_configs[GP_GEMM_FALLBACK_FROM];
    *split = 1;
    if (why && n)
        snprintf(why, n, "ran %dx%dx%d/%d, stream-K over the last wave: model %.1f us vs %.1f for the plan without it",
                 c[0], c[1], c[2], c[3], t * 1e6, against * 1e6);
    return GP_GEMM_FALLBACK_FROM;
}

/* The launched row-major problem's m and n (column-major: C^T), and whether it runs the row-major NN kernel (A
 * K-contiguous, B N-contiguous: row-major NN, column-major NN). */
static int launched_nn(const gp_gemm_problem *q, int *m, int *n)
{
    const int rm = q->layout == GP_GEMM_ROW_MAJOR;
    *m = rm ? q->m : q->n, *n = rm ? q->n : q->m;
    return !q->trans_a && !q->trans_b;
}

/* Stream-K's workspace for q under p (0: it does not apply: no stream_k, another tile or layout, the SMs
 * unknown, or no partial wave to share). */
static size_t sk_bytes(const gp_gemm_problem *q, const gp_gemm_params *p)
{
    int m, n;
    gp_gemm_sk_shape sh;
    if (!p->stream_k || p->split_k > 1 || p->config != GP_GEMM_FALLBACK_FROM || p->cus <= 0 || !launched_nn(q, &m, &n))
        return 0;
    const int *c = gp_gemm_configs[p->config];
    if (!gp_gemm_sk_plan(m, n, q->k, c[0], c[1], c[2], p->cus, &sh))
        return 0;
    return gp_gemm_sk_bytes(p->cus, c[0], c[1]);
}

double gp_gemm_sk_time(const gp_gemm_problem *q, const gp_gemm_params *p, const gp_gemm_split_facts *f)
{
    int m, n;
    gp_gemm_sk_shape sh;
    const int cfg = GP_GEMM_FALLBACK_FROM, *c = gp_gemm_configs[cfg];
    if (!split_facts_ok(f) || p->cus <= 0 || p->blocks_cu[cfg] != 1 || !launched_nn(q, &m, &n) ||
        !gp_gemm_sk_plan(m, n, q->k, c[0], c[1], c[2], p->cus, &sh))
        return HUGE_VAL;
    /* Whole waves, then the rest's share of a wave; a round is a 128 x 256 tile k deep at the sustained rate. */
    const double round = 128.0 * 256.0 * q->k / (f->fma_per_cycle_cu * f->clock_hz * GP_GEMM_RATE_PEAK) /
                         load_factor(q, cfg, 1);
    const double rounds = (double)sh.dp_tiles / p->cus + (double)sh.sk_tiles / p->cus / GP_GEMM_SK_RATE;
    /* Each block writes at most two parts and the finishers read them all: 4 slots a block, once. */
    const double parts = 4.0 * p->cus * c[0] * c[1] * 4.0;
    return rounds * round + parts / f->dram_bytes_s + f->launch_s;
}

size_t gp_gemm_workspace_bytes(const gp_gemm_problem *q, const gp_gemm_params *p)
{
    if (!q || !p || p->config < 0 || p->config >= GP_GEMM_NCONFIGS || q->k < 1)
        return 0;
    if (p->split_k <= 1)
        return sk_bytes(q, p);
    const int *c = gp_gemm_configs[p->config];
    if (!GP_GEMM_SPLITS(c[0], c[1], c[3]))
        return 0;
    const int pieces = split_pieces(q->k, p->split_k, c[2]);
    if (pieces < 2)
        return 0;
    const int rm = q->layout == GP_GEMM_ROW_MAJOR;
    return (size_t)pieces * (size_t)(rm ? q->m : q->n) * (size_t)gp_gemm_split_ld(rm ? q->n : q->m) * 4u;
}

int gp_gemm_plan(const gp_gemm_problem *q, const gp_gemm_params *p, int ptrs16, char *why, size_t n)
{
    const int t = p->config;
    if (why && n)
        why[0] = 0;
    if (t != GP_GEMM_FALLBACK_FROM || p->cus <= 0 || p->blocks_cu[t] <= 0)
        return t;
    long long bt, b, bbest;
    const double tt = gp_gemm_plan_time(q, p, t, ptrs16, &bt);
    double best = tt;
    int pick = t;
    bbest = bt;
    for (size_t i = 1; i < sizeof plan_cfgs / sizeof plan_cfgs[0]; i++) {
        const double ti = gp_gemm_plan_time(q, p, plan_cfgs[i], ptrs16, &b);
        if (ti < best)
            best = ti, pick = plan_cfgs[i], bbest = b;
    }
    if (pick != t && best * GP_GEMM_PLAN_MARGIN > tt)
        pick = t, best = tt, bbest = bt;
    const int *c = gp_gemm_configs[pick];
    if (why && n)
        snprintf(why, n, "ran %dx%dx%d/%d: %lld blocks, %lld a CU, time %.2f vs 128x256's %.2f (%lld blocks, ld %.2f)",
                 c[0], c[1], c[2], c[3], bbest, (long long)p->blocks_cu[pick], best, tt, bt, load_factor(q, t, ptrs16));
    return pick;
}

/* Stored rows x columns of A and B (as laid out in memory, in the problem's
 * layout: a row-major r x c matrix, or a column-major one). */
static void a_dims(const gp_gemm_problem *q, long long *r, long long *c)
{
    *r = q->trans_a ? q->k : q->m, *c = q->trans_a ? q->m : q->k;
}
static void b_dims(const gp_gemm_problem *q, long long *r, long long *c)
{
    *r = q->trans_b ? q->n : q->k, *c = q->trans_b ? q->k : q->n;
}

/* Elements spanned: ld x (rows for row-major, columns for column-major). */
static size_t span(const gp_gemm_problem *q, long long r, long long c, int ld)
{
    long long outer = q->layout == GP_GEMM_ROW_MAJOR ? r : c, inner = q->layout == GP_GEMM_ROW_MAJOR ? c : r;
    return (size_t)((outer - 1) * (long long)ld + inner);
}

size_t gp_gemm_a_elems(const gp_gemm_problem *q)
{
    long long r, c;
    a_dims(q, &r, &c);
    return span(q, r, c, q->lda);
}
size_t gp_gemm_b_elems(const gp_gemm_problem *q)
{
    long long r, c;
    b_dims(q, &r, &c);
    return span(q, r, c, q->ldb);
}
size_t gp_gemm_c_elems(const gp_gemm_problem *q) { return span(q, q->m, q->n, q->ldc); }

gp_status gp_gemm_check_problem(const gp_gemm_problem *q)
{
    if (!q)
        return gp_fail(GP_ERR_USAGE, "gemm: problem is NULL");
    if (q->layout != GP_GEMM_ROW_MAJOR && q->layout != GP_GEMM_COL_MAJOR)
        return gp_fail(GP_ERR_USAGE, "gemm: layout %d, want row-major (0) or column-major (1)", (int)q->layout);
    if ((q->trans_a != 0 && q->trans_a != 1) || (q->trans_b != 0 && q->trans_b != 1))
        return gp_fail(GP_ERR_USAGE, "gemm: trans_a = %d, trans_b = %d, want 0 or 1", q->trans_a, q->trans_b);
    if (q->m < 1 || q->n < 1 || q->k < 1)
        return gp_fail(GP_ERR_USAGE, "gemm: m = %d, n = %d, k = %d, want each >= 1", q->m, q->n, q->k);
    if (!isfinite(q->alpha) || !isfinite(q->beta))
        return gp_fail(GP_ERR_USAGE, "gemm: alpha = %g, beta = %g, want finite values", (double)q->alpha,
                       (double)q->beta);
    const int rm = q->layout == GP_GEMM_ROW_MAJOR;
    long long ar, ac, br, bc;
    a_dims(q, &ar, &ac);
    b_dims(q, &br, &bc);
    const struct {
        const char *name;
        int ld;
        long long need;
    } lds[3] = {{"lda", q->lda, rm ? ac : ar}, {"ldb", q->ldb, rm ? bc : br}, {"ldc", q->ldc, rm ? q->n : q->m}};
    for (int i = 0; i < 3; i++)
        if ((long long)lds[i].ld < lds[i].need)
            return gp_fail(GP_ERR_USAGE, "gemm: %s = %d is below the %lld stored %s of the %s layout", lds[i].name,
                           lds[i].ld, lds[i].need, rm ? "columns" : "rows", rm ? "row-major" : "column-major");
    /* Column-major runs as the row-major C^T: its row tiles are n's. */
    if ((rm ? q->m : q->n) > 65535 * 64)
        return gp_fail(GP_ERR_USAGE, "gemm: %s = %d exceeds the grid (65535 tiles of at least 64 rows)", rm ? "m" : "n",
                       rm ? q->m : q->n);
    /* The kernel steps through A and B with 32-bit offsets. */
    if (gp_gemm_a_elems(q) >= 0x7fffffffu || gp_gemm_b_elems(q) >= 0x7fffffffu)
        return gp_fail(GP_ERR_USAGE, "gemm: A (%zu) or B (%zu elements) spans 2^31 elements or more",
                       gp_gemm_a_elems(q), gp_gemm_b_elems(q));
    if ((double)gp_gemm_c_elems(q) * 4 >= (double)SIZE_MAX / 4)
        return gp_fail(GP_ERR_USAGE, "gemm: C overflows the address space");
    return gp_ok();
}

gp_status gp_gemm_f32(const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                      const gp_gemm_params *p, float *d_work, size_t work_bytes, gp_stream stream)
{
    GP_TRY(gp_gemm_check_problem(q));
    if (!p || p->config < 0 || p->config >= GP_GEMM_NCONFIGS)
        return gp_fail(GP_ERR_USAGE, "gemm: parameters not fitted (use gp_gemm_params_fit)");
    if (!d_a || !d_b || !d_c)
        return gp_fail(GP_ERR_USAGE, "gemm: %s pointer is NULL", !d_a ? "A" : !d_b ? "B" : "C");
    if ((uintptr_t)d_a % 4 || (uintptr_t)d_b % 4 || (uintptr_t)d_c % 4)
        return gp_fail(GP_ERR_USAGE, "gemm: pointers must be 4-byte aligned");
    const char *c0 = (const char *)d_c, *c1 = c0 + gp_gemm_c_elems(q) * 4;
    const char *a0 = (const char *)d_a, *a1 = a0 + gp_gemm_a_elems(q) * 4;
    const char *b0 = (const char *)d_b, *b1 = b0 + gp_gemm_b_elems(q) * 4;
    if ((c0 < a1 && a0 < c1) || (c0 < b1 && b0 < c1))
        return gp_fail(GP_ERR_USAGE, "gemm: C overlaps A or B");
    /* The rule chose the tile for the shape with 16-byte aligned pointers;
     * where A or B is not, the warp-tiled kernel loads 4 bytes at a time,
     * and the per-problem step may run another tile (at the same split). */
    const int ptrs16 = (uintptr_t)d_a % 16 == 0 && (uintptr_t)d_b % 16 == 0;
    gp_gemm_params run = *p;
    run.config = ptrs16 ? p->config : gp_gemm_plan(q, p, 0, NULL, 0);
    const size_t need = gp_gemm_workspace_bytes(q, &run);
    if (need) {
        const char *w0 = (const char *)d_work, *w1 = w0 + need;
        if (!d_work || work_bytes < need)
            return gp_fail(GP_ERR_USAGE, "gemm: %s needs a workspace of %zu bytes, %s",
                           run.split_k > 1 ? "split_k" : "stream_k", need, d_work ? "fewer given" : "none given");
        if ((uintptr_t)d_work % 16)
            return gp_fail(GP_ERR_USAGE, "gemm: the workspace must be 16-byte aligned");
        if ((w0 < a1 && a0 < w1) || (w0 < b1 && b0 < w1) || (w0 < c1 && c0 < w1))
            return gp_fail(GP_ERR_USAGE, "gemm: the workspace overlaps A, B or C");
    }
    const int split = need && run.split_k > 1 ? run.split_k : 1, sk = need && split == 1 ? run.cus : 0;
    /* Row-major: A K-contiguous unless transposed, B K-contiguous when
     * transposed.  Column-major: the row-major C^T = op(B)^T op(A)^T. */
    if (q->layout == GP_GEMM_ROW_MAJOR)
        return gp_gemm_launch_rm(run.config, !q->trans_a, q->trans_b, q->m, q->n, q->k, q->alpha, d_a, q->lda, d_b,
                                 q->ldb, q->beta, d_c, q->ldc, split, sk, d_work, stream);
    return gp_gemm_launch_rm(run.config, !q->trans_b, q->trans_a, q->n, q->m, q->k, q->alpha, d_b, q->ldb, d_a,
                             q->lda, q->beta, d_c, q->ldc, split, sk, d_work, stream);
}

/* ---- the library's calls */

/* The context's parameters for q's shape. */
static gp_status context_params(struct gp_context *ctx, const gp_gemm_problem *q, gp_gemm_params *p)
{
    gp_shape s;
    if (!ctx || !q)
        return gp_fail(GP_ERR_USAGE, "gemm: no %s", !ctx ? "context (gp_context_open)" : "problem");
    GP_TRY(gp_gemm_check_problem(q));
    memset(&s, 0, sizeof s);
    s.d[GP_GEMM_M] = q->m, s.d[GP_GEMM_N] = q->n, s.d[GP_GEMM_K] = q->k;
    s.d[GP_GEMM_LDA] = q->lda, s.d[GP_GEMM_LDB] = q->ldb, s.d[GP_GEMM_LDC] = q->ldc;
    s.opt[GP_GEMM_OPT_LAYOUT] = q->layout, s.opt[GP_GEMM_OPT_TRANS_A] = q->trans_a;
    s.opt[GP_GEMM_OPT_TRANS_B] = q->trans_b;
    return gp_context_params(ctx, &gp_kernel_gemm, &s, p);
}

gp_status gp_sgemm(struct gp_context *ctx, const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                   gp_stream stream)
{
    gp_gemm_params p;
    GP_TRY(context_params(ctx, q, &p));
    p.split_k = 1, p.stream_k = 0; /* neither without a workspace */
    return gp_gemm_f32(q, d_a, d_b, d_c, &p, NULL, 0, stream);
}

gp_status gp_sgemm_workspace_size(struct gp_context *ctx, const gp_gemm_problem *q, size_t *bytes)
{
    gp_gemm_params p;
    if (!bytes)
        return gp_fail(GP_ERR_USAGE, "gemm: no place for the workspace size");
    GP_TRY(context_params(ctx, q, &p));
    *bytes = gp_gemm_workspace_bytes(q, &p);
    return gp_ok();
}

gp_status gp_sgemm_ws(struct gp_context *ctx, const gp_gemm_problem *q, const float *d_a, const float *d_b, float *d_c,
                      void *d_work, size_t work_bytes, gp_stream stream)
{
    gp_gemm_params p;
    GP_TRY(context_params(ctx, q, &p));
    return gp_gemm_f32(q, d_a, d_b, d_c, &p, (float *)d_work, work_bytes, stream);
}
