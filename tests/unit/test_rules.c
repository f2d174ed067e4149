/* The kernel rules (kernels/<k>/<k>_rule.c): on the facts of every shipped
 * table, on randomized facts, one fact at a time, on bad facts; and the
 * shipped tables' kernel sections against what `table derive` computes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "derive.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "rule.h"

static const char *const shipped[] = {"tables/generic", "tables/gfx900", "tables/sm_80", "tables/sm_90"};
#define NSHIPPED (sizeof shipped / sizeof shipped[0])

/* Every kernel's parameters, read back the way the kernels read them (no
 * device: the table's values fitted to what the code is built for). */
static int kernels_accept(const gp_table *t)
{
    for (size_t i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel *k = gp_kernel_at(i);
        void *p = calloc(1, k->params_size);
        char note[GP_BENCH_TEXT];
        gp_status st = p ? gp_kernel_params(k, t, NULL, NULL, 0, p, note, sizeof note)
                         : gp_fail(GP_ERR_NOMEM, "no memory");
        free(p);
        if (st.code != GP_OK) {
            fprintf(stderr, "%s parameters refused: %s\n", k->name, st.msg);
            return 0;
        }
    }
    return 1;
}

/* The kernels a -DGP_KERNELS build leaves out are not checked here. */
static int built(const char *k) { return gp_kernel_find(k) != NULL; }

static long long kval(const gp_table *t, const char *k, const char *key)
{
    char sec[64];
    long long v = -1;
    snprintf(sec, sizeof sec, "kernel.%s", k);
    if (gp_table_get_int(t, sec, key, &v).code != GP_OK)
        return -1;
    return v;
}

/* The facts of tables/sm_90 (kernel sections as the rules make them). */
static int sm90_ruled(gp_table *t)
{
    static gp_table base;
    if (!gp_test_load_table("tables/sm_90", &base))
        return 0;
    return gp_kernel_rules_apply(&base, 0, t).code == GP_OK;
}

GP_TEST(rules_on_every_shipped_table)
{
    for (size_t i = 0; i < NSHIPPED; i++) {
        static gp_table t, r;
        GP_CHECK(gp_test_load_table(shipped[i], &t));
        gp_status st = gp_kernel_rules_apply(&t, 0, &r);
        if (st.code)
            fprintf(stderr, "%s: %s\n", shipped[i], st.msg);
        GP_CHECK(st.code == GP_OK);
        GP_CHECK(gp_table_validate(&r, shipped[i]).code == GP_OK);
        /* Every kernel key set by its rule, with the rule and a model named. */
        for (size_t k = 0; k < gp_table_nkeys(); k++) {
            const gp_table_key *key = gp_table_key_at(k);
            if (strncmp(key->section, "kernel.", 7))
                continue;
            char want[64];
            snprintf(want, sizeof want, "rule gp_%s_rule ", key->section + 7);
            GP_CHECK(r.e[k].present && r.e[k].kind == GP_PROV_RULE && !strncmp(r.e[k].prov, want, strlen(want)));
        }
        GP_CHECK(kernels_accept(&r));
    }
    return 0;
}

/* The shipped kernel sections are what `gpuprobe table derive` computes from
 * the tables' facts (swept values kept): regenerate them with
 *   gpuprobe table derive tables/<t> -o tables/<t>
 * when a rule or a fact changes.  No hand-typed rule provenance remains. */
GP_TEST(rules_shipped_tables_are_derived)
{
    for (size_t i = 0; i < NSHIPPED; i++) {
        static gp_table t, d;
        GP_CHECK(gp_test_load_table(shipped[i], &t));
        GP_CHECK(gp_kernel_derive(&t, 0, &d).code == GP_OK);
        for (size_t k = 0; k < gp_table_nkeys(); k++) {
            const gp_table_key *key = gp_table_key_at(k);
            if (strncmp(key->section, "kernel.", 7) || !t.e[k].present)
                continue;
            int same = d.e[k].present && d.e[k].d == t.e[k].d && !strcmp(d.e[k].prov, t.e[k].prov);
            if (!same)
                fprintf(stderr, "%s: %s.%s = %g # %s, derive gives %g # %s\n", shipped[i], key->section, key->key,
                        t.e[k].d, t.e[k].prov, d.e[k].d, d.e[k].prov);
            GP_CHECK(same);
            GP_CHECK(t.e[k].kind == GP_PROV_SWEPT || !strncmp(t.e[k].prov, "rule gp_", 8));
        }
    }
    return 0;
}

/* A numeric fact drawn log-uniformly in its schema range (powers of two and
 * integers where the key asks). */
static double draw(const gp_table_key *k, unsigned long long *rng)
{
    double lo = k->min > 0 ? k->min : 1, hi = k->max;
    double x = exp(log(lo) + gp_test_rand(rng) * (log(hi) - log(lo)));
    if (k->flags & GP_TK_WAVE)
        return gp_test_rand(rng) < 0.5 ? 32 : 64;
    if (k->flags & GP_TK_POW2)
        x = pow(2.0, floor(log2(x)));
    if (k->type == GP_TV_INT)
        x = floor(x);
    return x < lo ? lo : x > hi ? hi : x;
}

/* Put a randomized table's facts in the order every real device has them
 * (the table's own cross-checks, common/table.c check_physics): latencies
 * L1 < L2 < DRAM and LDS < L2, bandwidth within its peak, FP64 within the FP32
 * peak, a sector within its line.  Facts that are none stay none. */
static double fact(gp_table *t, const char *sec, const char *key)
{
    double v = NAN;
    if (gp_table_get_double(t, sec, key, &v).code != GP_OK)
        return NAN;
    return v;
}

static void order_facts(gp_table *t)
{
    const char *prov = "measured test 2026-11-23";
    double l1 = fact(t, "cache.l1", "latency_cycles"), l2 = fact(t, "cache.l2", "latency_cycles");
    double dram = fact(t, "dram", "latency_cycles"), lds = fact(t, "lds", "latency_cycles");
    if (isfinite(l1) && isfinite(l2) && l2 <= l1)
        gp_table_set(t, "cache.l2", "latency_cycles", l2 = fmin(2000, l1 * 1.5 + 1), prov);
    if (isfinite(l2) && isfinite(dram) && dram <= l2)
        gp_table_set(t, "dram", "latency_cycles", dram = l2 * 1.5 + 1, prov);
    if (isfinite(l1) && isfinite(dram) && dram <= l1)
        gp_table_set(t, "dram", "latency_cycles", l1 * 2 + 1, prov);
    if (isfinite(lds) && isfinite(l2) && lds >= l2)
        gp_table_set(t, "lds", "latency_cycles", l2 / 2, prov);
    double bw = fact(t, "dram", "bandwidth_gbs"), peak = fact(t, "dram", "peak_gbs");
    if (isfinite(bw) && isfinite(peak) && bw > peak)
        gp_table_set(t, "dram", "bandwidth_gbs", peak, prov);
    double wave = fact(t, "device", "wave_size"), f32 = fact(t, "compute", "fp32_fma_per_cycle_per_cu");
    if (isfinite(wave) && isfinite(f32) && f32 > 8 * wave)
        gp_table_set(t, "compute", "fp32_fma_per_cycle_per_cu", f32 = 8 * wave, prov);
    double frac = fact(t, "compute", "fp32_peak_fraction"), f64 = fact(t, "compute", "fp64_fma_per_cycle_per_cu");
    double f32_peak = isfinite(frac) && frac > 0 ? f32 / frac : f32;
    if (isfinite(f64) && isfinite(f32_peak) && f64 > f32_peak)
        gp_table_set(t, "compute", "fp64_fma_per_cycle_per_cu", f32_peak, prov);
    static const char *const levels[] = {"cache.l1", "cache.l2"};
    for (int i = 0; i < 2; i++) {
        double line = fact(t, levels[i], "line_bytes"), sector = fact(t, levels[i], "sector_bytes");
        if (isfinite(line) && isfinite(sector) && sector > line)
            gp_table_set(t, levels[i], "sector_bytes", line, prov); /* both powers of two: divides */
    }
}

GP_TEST(rules_on_random_facts_give_valid_parameters)
{
    static gp_table base, t, r;
    unsigned long long rng = 20261123;
    GP_CHECK(gp_test_load_table("tables/sm_90", &base));
    int ok = 0, refused = 0, tries = 0;
    /* 200 consistent random devices (draws whose facts contradict each other,
     * L1 above L2 and the like, are not devices: drawn again). */
    for (int it = 0; ok + refused < 200 && tries < 20000; it++, tries++) {
        t = base;
        for (size_t k = 0; k < gp_table_nkeys(); k++) {
            const gp_table_key *key = gp_table_key_at(k);
            if (key->type == GP_TV_TEXT || !strncmp(key->section, "kernel.", 7) || !t.e[k].present)
                continue;
            if (gp_test_rand(&rng) < 0.1 && !(key->flags & GP_TK_NO_NONE)) {
                gp_table_set_none(&t, key->section, key->key, "measured test not detected: randomized");
                continue;
            }
            gp_table_set(&t, key->section, key->key, draw(key, &rng), "measured test 2026-11-23");
        }
        order_facts(&t);
        if (gp_table_validate(&t, "random").code != GP_OK) /* facts that contradict each other: not a device */
            continue;
        gp_status st = gp_kernel_rules_apply(&t, 0, &r);
        if (st.code == GP_ERR_UNSUPPORTED) { /* e.g. LDS per block below one ssim row group */
            refused++;
            continue;
        }
        if (st.code != GP_OK)
            fprintf(stderr, "iteration %d: %s\n", it, st.msg);
        GP_CHECK(st.code == GP_OK);
        GP_CHECK(gp_table_validate(&r, "ruled").code == GP_OK);
        GP_CHECK(kernels_accept(&r));
        /* The launch shapes are legal on any GPU. */
        GP_CHECK(gp_kernel_check_tables(&r, "ruled").code == GP_OK);
        GP_CHECK(!built("transpose") || kval(&r, "transpose", "tile") * kval(&r, "transpose", "block_rows") <= 1024);
        GP_CHECK(!built("ssim") || kval(&r, "ssim", "block") % kval(&r, "ssim", "tile_x") == 0);
        GP_CHECK(!built("gemm") ||
                 kval(&r, "gemm", "tile_m") * kval(&r, "gemm", "tile_n") % kval(&r, "gemm", "block") == 0);
        ok++;
    }
    fprintf(stderr, "random facts: %d ruled, %d refused\n", ok, refused);
    GP_CHECK(ok + refused == 200 && ok >= 150); /* refusals only where an ssim row group cannot fit */
    return 0;
}

/* Change one fact, see the parameter its model names move the right way. */
static int with_fact(const char *section, const char *key, double v, gp_table *r)
{
    static gp_table t;
    if (!gp_test_load_table("tables/sm_90", &t))
        return 0;
    gp_status st = gp_table_set(&t, section, key, v, "measured test 2026-11-23");
    if (st.code == GP_OK)
        st = gp_kernel_rules_apply(&t, 0, r);
    if (st.code)
        fprintf(stderr, "%s.%s = %g: %s\n", section, key, v, st.msg);
    return st.code == GP_OK;
}

GP_TEST(rules_follow_one_fact)
{
    static gp_table a, b;
    GP_CHECK(sm90_ruled(&a));
    /* transpose pad: one bank of skew, 8-byte banks need 2 elements. */
    GP_CHECK(kval(&a, "transpose", "pad") == 1);
    GP_CHECK(with_fact("lds", "bank_bytes", 8, &b) && kval(&b, "transpose", "pad") == 2);
    /* transpose tile: a fast block dispatcher needs no big tile. */
    GP_CHECK(kval(&a, "transpose", "tile") == 64);
    GP_CHECK(with_fact("launch", "blocks_per_cycle", 100, &b) && kval(&b, "transpose", "tile") == 32);
    /* transpose block: the launch peak's block size. */
    GP_CHECK(with_fact("launch", "min_block_for_peak", 256, &b) && kval(&b, "transpose", "block_rows") == 4);
    /* transpose / reduce streaming: a matrix that fits the L2 is cached. */
    GP_CHECK(kval(&a, "transpose", "stream") == 2);
    GP_CHECK(with_fact("cache.l2", "bytes", 2048.0 * 1024 * 1024, &b) && kval(&b, "transpose", "stream") == 0 &&
             kval(&b, "transpose", "group") == 1);
    if (!built("reduce") || !built("conv2d") || !built("ssim"))
        return 0;
    GP_CHECK(kval(&a, "reduce", "stream") == 1 && kval(&b, "reduce", "stream") == 0);
    /* reduce / conv2d block: the waves a CU needs for peak. */
    GP_CHECK(kval(&a, "reduce", "block") == 256 && kval(&a, "conv2d", "block") == 256);
    GP_CHECK(with_fact("compute", "min_waves_for_peak", 4, &b) && kval(&b, "reduce", "block") == 128 &&
             kval(&b, "conv2d", "block") == 128);
    /* reduce grid: half the registers, half the resident blocks. */
    GP_CHECK(with_fact("registers", "per_cu", 32768, &b) && kval(&b, "reduce", "grid_per_cu") ==
                                                                 kval(&a, "reduce", "grid_per_cu") / 2);
    /* ssim tile_x: a block of two waves, 64 columns on wave 32 and 128 on
     * wave 64; a 9 KiB block LDS holds a 32-column row group, not 64. */
    GP_CHECK(kval(&a, "ssim", "tile_x") == 64 && kval(&a, "ssim", "block") == 64);
    GP_CHECK(with_fact("device", "wave_size", 64, &b) && kval(&b, "ssim", "tile_x") == 128 &&
             kval(&b, "ssim", "block") == 128);
    GP_CHECK(with_fact("lds", "bytes_per_block", 9216, &b) && kval(&b, "ssim", "tile_x") == 32);
    /* ssim variant: wave 64 with 12 waves for peak leaves 85 registers a
     * thread, too few to prefetch (gfx900); wave 32 and 8 waves leave 256.
     * (GP_SSIM_VARIANT_PREFETCH 0, DIRECT 1, ssim.h.) */
    GP_CHECK(kval(&a, "ssim", "variant") == 0);
    GP_CHECK(with_fact("compute", "min_waves_for_peak", 12, &b));
    GP_CHECK(kval(&b, "ssim", "variant") == 0); /* 12 x 32: 170 registers */
    static gp_table t;
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_kernel_rules_apply(&t, 0, &b).code == GP_OK && kval(&b, "ssim", "variant") == 1);
    /* conv2d tile: 128 B lines favour a wide tile, 32 B a square one. */
    GP_CHECK(kval(&a, "conv2d", "tile_x") == 64 && kval(&a, "conv2d", "tile_y") == 16);
    GP_CHECK(with_fact("cache.l1", "line_bytes", 32, &b) && kval(&b, "conv2d", "tile_x") == 32);
    /* ssim tile_y follows the problem: a 1 Mpixel image gets shorter strips
     * than the 4K one, so its grid still fills the GPU. */
    gp_shape small = {{1, 1, 1024, 1024}, {0}};
    gp_rule_in in = {&a, &small, 0};
    b = a;
    GP_CHECK(gp_kernel_find("ssim")->rule(&in, &b).code == GP_OK);
    GP_CHECK(kval(&b, "ssim", "tile_y") < kval(&a, "ssim", "tile_y"));
    return 0;
}

/* ssim's strips are priced on the busiest CU: its blocks run in waves of
 * the blocks it holds, a wave as long as its busiest scheduler takes to
 * issue its warps (1 - (1 - p)^warps a cycle), a block's rows in whole
 * passes of 8; every strip count is a candidate.  On the sm_90 facts
 * (64-column tiles of 2 warps, 8 blocks a CU) a 4000 x 3000 frame (47
 * column tiles) in 22 strips of 182 rows is 1034 blocks, 8 on the busiest
 * of 132 CUs, one whole wave, where 16 strips of 250 are 752 blocks, 6 on
 * it, whose busiest scheduler holds 3 warps of the 4 it could: 1876 against
 * 2127 (the H200 ran 182 rows in 0.0728 ms, 256 in 0.0756).  The 4K image
 * takes 11 strips of 197 rows (15 blocks a CU: a wave of 8 and one of 7,
 * whose busiest scheduler holds 4 warps, as in a whole wave; the H200 ran
 * it 0.1478 ms against 0.1538 for the powers of two's best, 128 rows). */
GP_TEST(ssim_strips_price_the_partial_wave)
{
    static gp_table a, b;
    if (!built("ssim"))
        return 0;
    GP_CHECK(sm90_ruled(&a));
    const long long shapes[][5] = {{1, 1, 4000, 3000, 182}, {1, 3, 1440, 2560, 180}, {1, 3, 1080, 1920, 99},
                                   {1, 3, 2160, 3840, 197}, {8, 3, 512, 512, 128},   {1, 1, 1024, 1024, 22}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        gp_shape sh = {{shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]}, {0}};
        gp_rule_in in = {&a, &sh, 0};
        b = a;
        GP_CHECK(gp_kernel_find("ssim")->rule(&in, &b).code == GP_OK);
        GP_CHECK(kval(&b, "ssim", "tile_y") == shapes[i][4]);
    }
    /* Half the CUs: the frame's 22 strips are 16 blocks a CU, two whole
     * waves, and 11 strips of 364 rows (517 blocks, 8 a CU) one: 3584
     * against 3751. */
    GP_CHECK(with_fact("device", "compute_units", 66, &b));
    gp_shape frame = {{1, 1, 4000, 3000}, {0}};
    gp_rule_in in = {&b, &frame, 0};
    static gp_table c;
    c = b;
    GP_CHECK(gp_kernel_find("ssim")->rule(&in, &c).code == GP_OK);
    GP_CHECK(kval(&c, "ssim", "tile_y") == 364);
    return 0;
}

/* The occupancy model adds the runtime's shared memory per block
 * (gp_target_lds_block_reserve) to every block that uses LDS: the H200's
 * 233472 B hold 6 blocks of 32 KiB, as its runtime does, not 7; gfx900
 * reserves none; a block without LDS is not limited by it. */
GP_TEST(rules_occupancy_counts_the_lds_reserve)
{
    static gp_table t;
    gp_rule_cu cu;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_rule_cu_facts(&t, "test", &cu).code == GP_OK);
    GP_CHECK(cu.lds_block_reserve == 1024 && cu.lds_per_cu == 233472);
    GP_CHECK(gp_rule_blocks_per_cu(&cu, 256, 32, 32768) == 6);
    GP_CHECK(gp_rule_blocks_per_cu(&cu, 256, 32, 0) == 8); /* threads and registers: 2048 / 256 */
    cu.lds_block_reserve = 0;
    GP_CHECK(gp_rule_blocks_per_cu(&cu, 256, 32, 32768) == 7);
    GP_CHECK(gp_test_load_shipped("gfx900", &t));
    GP_CHECK(gp_rule_cu_facts(&t, "test", &cu).code == GP_OK);
    GP_CHECK(cu.lds_block_reserve == 0 && gp_rule_blocks_per_cu(&cu, 256, 32, 32768) == 2);
    return 0;
}

/* Bad facts: exit 2 (GP_ERR_USAGE) naming the key, never a division by zero. */
GP_TEST(rules_bad_facts_name_the_key)
{
    static gp_table t, r;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    int ki = gp_table_key_index("lds", "banks");
    GP_CHECK(ki >= 0);
    t.e[ki].present = 0; /* missing key */
    gp_status st = gp_kernel_rules_apply(&t, 0, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[lds] banks"));
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set_none(&t, "lds", "banks", "measured lds 2026-11-23 not detected: test").code == GP_OK);
    st = gp_kernel_rules_apply(&t, 0, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[lds] banks is none"));
    /* A zero or negative value cannot be set (schema range), but a table
     * built in memory could carry one: the getters refuse it by name. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    ki = gp_table_key_index("dram", "bandwidth_gbs");
    t.e[ki].d = -5;
    st = gp_kernel_rules_apply(&t, 0, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] bandwidth_gbs"));
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    ki = gp_table_key_index("lds", "banks");
    t.e[ki].d = 0, t.e[ki].i = 0;
    st = gp_kernel_rules_apply(&t, 0, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[lds] banks"));
    return 0;
}

/* Resource use: the build constants without a device (table derive, unit
 * tests, the CPU-only build), named as such in the provenance; with a device
 * the runtime's function attributes (gp_func_attributes) and their source. */
GP_TEST(rules_resources_say_where_the_registers_came_from)
{
    gp_rule_res r;
    GP_CHECK(gp_rule_resources(0, NULL, 96, 100, &r).code == GP_OK);
    GP_CHECK(r.regs == 96 && r.lds == 100 && r.max_threads == 1024 && !strcmp(r.src, "build constant"));
    GP_CHECK(gp_rule_resources(1, NULL, 96, 0, &r).code == GP_OK);
    GP_CHECK(r.regs == 96 && strstr(r.src, "not compiled"));
    /* use_device 1 where there is no GPU (CPU-only build: the instantiation
     * is NULL; a GPU build on a machine without one: gp_func_attributes says
     * GP_ERR_NO_GPU): the build constant, and the rule's values are those of
     * use_device 0. */
    static gp_table facts, dev, build;
    GP_CHECK(gp_test_load_table("tables/sm_90", &facts));
    gp_rule_in with_dev = {&facts, NULL, 1}, without = {&facts, NULL, 0};
    if (!built("ssim") || !built("conv2d") || !built("reduce"))
        return 0;
    GP_CHECK(gp_kernel_find("ssim")->rule(&without, &build).code == GP_OK);
    GP_CHECK(gp_kernel_find("ssim")->rule(&with_dev, &dev).code == GP_OK);
    const gp_table_entry *b = gp_table_find(&build, "kernel.ssim", "tile_x");
    const gp_table_entry *d = gp_table_find(&dev, "kernel.ssim", "tile_x");
    GP_CHECK(b && strstr(b->prov, "regs 128 (build constant)"));
    GP_CHECK(d && (strstr(d->prov, "FuncGetAttributes)") || strstr(d->prov, "regs 128 (build constant: ")));
    if (d && !strstr(d->prov, "FuncGetAttributes)")) /* no device: the same values */
        for (size_t k = 0; k < gp_table_nkeys(); k++)
            if (!strcmp(gp_table_key_at(k)->section, "kernel.ssim"))
                GP_CHECK(build.e[k].d == dev.e[k].d);
    /* conv2d and reduce name theirs too. */
    GP_CHECK(gp_kernel_find("conv2d")->rule(&without, &build).code == GP_OK &&
             gp_kernel_find("reduce")->rule(&without, &build).code == GP_OK);
    b = gp_table_find(&build, "kernel.conv2d", "tile_x");
    GP_CHECK(b && strstr(b->prov, "regs 96 (build constant)"));
    b = gp_table_find(&build, "kernel.reduce", "items_per_thread");
    GP_CHECK(b && strstr(b->prov, "(build constant)"));
    return 0;
}

/* Provenance: `assumed: <reason>` is its own kind; `table check` takes a
 * `rule NAME` only for a rule function this binary has, on its own kernel's
 * keys; every shipped table passes. */
GP_TEST(rules_table_check_knows_assumed_and_the_rule_names)
{
    gp_prov_kind kind = GP_PROV_MEASURED;
    GP_CHECK(gp_table_check_provenance("assumed: 48 KiB every target grants", 0, &kind).code == GP_OK);
    GP_CHECK(kind == GP_PROV_ASSUMED && !strcmp(gp_prov_kind_name(kind), "assumed"));
    GP_CHECK(gp_table_check_provenance("assumed:", 0, &kind).code == GP_ERR_USAGE);
    GP_CHECK(gp_table_check_provenance("assumed", 1, &kind).code == GP_ERR_USAGE);
    for (size_t i = 0; i < NSHIPPED; i++) {
        static gp_table t;
        GP_CHECK(gp_test_load_table(shipped[i], &t));
        gp_status st = gp_table_check_rules(&t, shipped[i]);
        if (st.code)
            fprintf(stderr, "%s\n", st.msg);
        GP_CHECK(st.code == GP_OK);
    }
    static gp_table t, bad;
    GP_CHECK(gp_test_load_table("tables/generic", &t));
    /* The generic table's stand-ins are assumed, not a rule. */
    const gp_table_entry *e = gp_table_find(&t, "lds", "bytes_per_block");
    GP_CHECK(e && e->kind == GP_PROV_ASSUMED);
    /* A hand-typed rule on a fact. */
    bad = t;
    GP_CHECK(gp_table_set(&bad, "channels", "pad_elems", 16, "rule pad_from_channels: by hand").code == GP_OK);
    gp_status st = gp_table_check_rules(&bad, "x");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "channels.pad_elems") && strstr(st.msg, "pad_from_channels"));
    if (!built("ssim") || !built("conv2d"))
        return 0;
    /* A real rule's name on a fact, or on another kernel's key. */
    bad = t;
    GP_CHECK(gp_table_set(&bad, "lds", "banks", 32, "rule gp_ssim_rule: no").code == GP_OK);
    GP_CHECK(gp_table_check_rules(&bad, "x").code == GP_ERR_USAGE);
    bad = t;
    GP_CHECK(gp_table_set(&bad, "kernel.conv2d", "tile_x", 64, "rule gp_ssim_rule occupancy: no").code == GP_OK);
    st = gp_table_check_rules(&bad, "x");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "kernel.conv2d.tile_x"));
    /* A rule name no kernel has, shaped like one. */
    bad = t;
    GP_CHECK(gp_table_set(&bad, "kernel.conv2d", "tile_x", 64, "rule gp_conv3d_rule waves: no").code == GP_OK);
    GP_CHECK(gp_table_check_rules(&bad, "x").code == GP_ERR_USAGE);
    /* A kernel key is never assumed. */
    bad = t;
    GP_CHECK(gp_table_set(&bad, "kernel.conv2d", "tile_x", 64, "assumed: looks fine").code == GP_OK);
    GP_CHECK(gp_table_check_rules(&bad, "x").code == GP_ERR_USAGE);
    /* The rule's own name on its own key passes. */
    bad = t;
    GP_CHECK(gp_table_set(&bad, "kernel.conv2d", "tile_x", 64, "rule gp_conv2d_rule waves: fine").code == GP_OK);
    GP_CHECK(gp_table_check_rules(&bad, "x").code == GP_OK);
    return 0;
}

/* kernel.<k>.<key> of the rule run on t for one shape (use_device 0). */
static long long rule_for(const gp_table *t, const char *k, const gp_shape *s, const char *key)
{
    static gp_table o;
    o = *t;
    gp_rule_in in = {t, s, 0};
    if (gp_kernel_find(k)->rule(&in, &o).code != GP_OK)
        return -1;
    return kval(&o, k, key);
}

/* The launch path's value of one parameter of kernel k for shape s. */
static long long launch_value(const gp_table *t, const char *k, const gp_shape *s, const char *key, char *note,
                              size_t n)
{
    const gp_kernel *kern = gp_kernel_find(k);
    void *p = calloc(1, kern->params_size);
    long long v = -1;
    if (p && gp_kernel_params(kern, t, NULL, s, 0, p, note, n).code == GP_OK)
        v = gp_params_get(kern->params, kern->nparams, p, key);
    free(p);
    return v;
}

/* Rules per problem shape at launch: a value the rule gave is re-derived for
 * the problem launched (ssim's strips for a 1 Mpixel image are not those of
 * a 4K one); a swept value, and another device's values next to this one's
 * facts, are launched as they are. */
GP_TEST(rules_launch_rederives_the_rule_for_the_problem)
{
    static gp_table ruled, swept, mistuned, gfx;
    if (!built("ssim") || !built("conv2d"))
        return 0;
    GP_CHECK(sm90_ruled(&ruled));
    const gp_shape small = {{1, 1, 1024, 1024}, {0}}, big = {{1, 3, 2160, 3840}, {0}};
    /* The model: 1024 rows in 16-row strips fill the CUs' slots in fewer
     * rounds than 128-row ones; 2160 rows x 3 planes do not need that. */
    long long ty_small = rule_for(&ruled, "ssim", &small, "tile_y");
    long long ty_big = rule_for(&ruled, "ssim", &big, "tile_y");
    GP_CHECK(ty_small > 0 && ty_big > 0 && ty_small < ty_big);
    /* The launch path (bench and verify) uses the rule's value for its problem. */
    char ns[GP_BENCH_TEXT], nb[GP_BENCH_TEXT];
    GP_CHECK(launch_value(&ruled, "ssim", &small, "tile_y", ns, sizeof ns) == ty_small);
    GP_CHECK(launch_value(&ruled, "ssim", &big, "tile_y", nb, sizeof nb) == ty_big);
    GP_CHECK(strstr(ns, "rule for this shape: ") && strstr(ns, "tile_y"));
    GP_CHECK(strstr(nb, "rule for this shape: as the table"));
    /* conv2d: the launch path takes the rule's tile for each input too
     * (shape n c h w out_c kh kw, pads in opt). */
    const gp_shape cs = {{1, 6, 768, 512, 6, 6, 6}, {0, 0}}, cb = {{1, 3, 2160, 3840, 6, 5, 5}, {2, 2}};
    GP_CHECK(launch_value(&ruled, "conv2d", &cs, "tile_x", ns, sizeof ns) == rule_for(&ruled, "conv2d", &cs, "tile_x"));
    GP_CHECK(launch_value(&ruled, "conv2d", &cs, "tile_y", ns, sizeof ns) == rule_for(&ruled, "conv2d", &cs, "tile_y"));
    GP_CHECK(launch_value(&ruled, "conv2d", &cb, "tile_x", nb, sizeof nb) == rule_for(&ruled, "conv2d", &cb, "tile_x"));
    GP_CHECK(launch_value(&ruled, "conv2d", &cb, "tile_y", nb, sizeof nb) == rule_for(&ruled, "conv2d", &cb, "tile_y"));
    GP_CHECK(!strncmp(ns, "rule for this shape:", 20) && !strncmp(nb, "rule for this shape:", 20));
    /* Swept values (what tune writes where a leader beat the rule): kept for
     * every problem. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &swept));
    const char *keys[] = {"tile_x", "tile_y", "block", "variant"};
    const double swept_vals[] = {128, 64, 128, 0};
    for (int i = 0; i < 4; i++)
        GP_CHECK(gp_table_set(&swept, "kernel.ssim", keys[i], swept_vals[i], "swept test 2026-11-29").code == GP_OK);
    GP_CHECK(launch_value(&swept, "ssim", &small, "tile_y", ns, sizeof ns) == kval(&swept, "ssim", "tile_y"));
    GP_CHECK(strstr(ns, "as the table"));
    /* gfx900's rule values next to sm_90's facts (bench --mistuned): as they are. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &gfx));
    mistuned = ruled;
    for (size_t k = 0; k < gp_table_nkeys(); k++)
        if (!strcmp(gp_table_key_at(k)->section, "kernel.ssim"))
            mistuned.e[k] = gfx.e[k];
    GP_CHECK(launch_value(&mistuned, "ssim", &small, "tile_y", ns, sizeof ns) == kval(&gfx, "ssim", "tile_y"));
    GP_CHECK(launch_value(&mistuned, "ssim", &small, "variant", ns, sizeof ns) == kval(&gfx, "ssim", "variant"));
    GP_CHECK(strstr(ns, "as they are"));
    return 0;
}
