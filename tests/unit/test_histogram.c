/* histogram on the CPU: the references by hand and chunk by chunk, the
 * kernel's split of the input into ends and 16-byte vectors, parameters and
 * the persistent grid from a device, bad arguments refused before any
 * device call, the variants, the rule on every shipped table's facts and one
 * fact at a time, and parameters that follow the shape. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "histogram.h"
#include "kernel.h"
#include "table.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

GP_TEST(histogram_ref_hand)
{
    const uint8_t x[7] = {0, 255, 7, 7, 0, 7, 128};
    static uint32_t b[GP_HIST_U32_BINS];
    memset(b, 0, sizeof b);
    gp_histogram_ref_u8(x, 7, b);
    GP_CHECK(b[0] == 2 && b[7] == 3 && b[255] == 1 && b[128] == 1 && b[1] == 0);
    /* Chunks add up: the second half once more doubles its bins only. */
    gp_histogram_ref_u8(x + 4, 3, b);
    GP_CHECK(b[0] == 3 && b[7] == 4 && b[128] == 2 && b[255] == 1);
    memset(b, 0, sizeof b);
    const uint32_t k[6] = {0, 4095, 4096, 0xffffffffu, 17, 17};
    gp_histogram_ref_u32(k, 6, b);
    GP_CHECK(b[0] == 1 && b[4095] == 1 && b[17] == 2);
    uint32_t total = 0;
    for (int i = 0; i < GP_HIST_U32_BINS; i++)
        total += b[i];
    GP_CHECK(total == 4); /* 4096 and 2^32 - 1 are counted nowhere */
    return 0;
}

/* Every sample is in exactly one of the ends or vectors, the vectors start
 * on a 16-byte boundary, and block 0 can count both ends one a thread. */
GP_TEST(histogram_split_covers_every_sample)
{
    const size_t sizes[2] = {1, 4};
    for (int s = 0; s < 2; s++) {
        const size_t size = sizes[s];
        for (uintptr_t a = 0x1000; a < 0x1010; a += size) {
            for (size_t n = 0; n < 200; n++) {
                size_t lead, nvec, tail;
                gp_histogram_split(a, n, size, &lead, &nvec, &tail);
                GP_CHECK(lead + nvec * (16 / size) + tail == n);
                GP_CHECK(lead < 16 / size && tail < 16 / size && lead + tail < 64);
                if (nvec)
                    GP_CHECK((a + lead * size) % 16 == 0);
                /* The lead runs up to the boundary unless n ends first. */
                GP_CHECK(lead == n || (a + lead * size) % 16 == 0);
            }
        }
    }
    size_t lead, nvec, tail;
    gp_histogram_split(0x1003, (size_t)1 << 30, 1, &lead, &nvec, &tail);
    GP_CHECK(lead == 13 && nvec == ((size_t)1 << 26) - 1 && tail == 3);
    return 0;
}

/* An H200 as the runtime reports it, with its vendor. */
static gp_device_info h200(const char *vendor)
{
    gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    snprintf(d.arch, sizeof d.arch, "%s", strcmp(vendor, "NVIDIA") ? "gfx90a" : "sm_90");
    d.max_threads_per_cu = 2048;
    d.regs_per_cu = 65536;
    d.lds_per_cu = 233472;
    d.lds_per_block = 49152;
    return d;
}

GP_TEST(histogram_params_fit_and_grid)
{
    gp_device_info d = h200("NVIDIA");
    gp_histogram_params p = {256, 1, 32, 2, 0, 0, ""};
    gp_histogram_params_fit(&p, &d);
    GP_CHECK(p.note[0] == '\0');
    /* 32 KiB of copies + the 1 KiB NVIDIA reserves: 6 blocks of 256 a SM
     * (7 would need 231 KiB of 228). */
    GP_CHECK(gp_histogram_blocks_per_cu(&d, 256, 1, 32768) == 6);
    GP_CHECK(p.grid_u8 == 6 * 132 && p.grid_u32 == 6 * 132);
    /* Without the reserve (AMD's rule) 7; 512 threads: the thread limit, 4. */
    gp_device_info a = h200("AMD");
    GP_CHECK(gp_histogram_blocks_per_cu(&a, 256, 1, 32768) == 7);
    GP_CHECK(gp_histogram_blocks_per_cu(&d, 512, 1, 32768) == 4);
    /* 4 vectors: 64 registers, so registers limit 256-thread blocks to 4. */
    GP_CHECK(gp_histogram_blocks_per_cu(&d, 256, 4, 1024) == 4);
    GP_CHECK(gp_histogram_blocks_per_cu(NULL, 256, 1, 32768) == 1);
    /* Copies beyond the LDS a block may use, vectors not compiled, a block
     * below a wave: fitted, and the note says so. */
    p = (gp_histogram_params){100, 3, 64, 32, 0, 0, ""};
    gp_histogram_params_fit(&p, &d);
    GP_CHECK(p.block == 64 && p.items_per_thread == 2 && p.copies_u8 == 32 && p.copies_u32 == 2);
    GP_CHECK(strstr(p.note, "copies_u32") && strstr(p.note, "block") && strstr(p.note, "items_per_thread"));
    /* A device granting 16 KiB a block: 16 copies of 256 bins, 1 of 4096. */
    d.lds_per_block = 16384;
    p = (gp_histogram_params){256, 1, 32, 2, 0, 0, ""};
    gp_histogram_params_fit(&p, &d);
    GP_CHECK(p.copies_u8 == 16 && p.copies_u32 == 1);
    char buf[192];
    gp_kernel_params_text(&gp_kernel_histogram, &p, buf, sizeof buf);
    GP_CHECK(strstr(buf, "copies_u8=16 copies_u32=1"));
    return 0;
}

GP_TEST(histogram_bad_arguments)
{
    gp_device_info d = h200("NVIDIA");
    gp_histogram_params p = {256, 1, 32, 2, 0, 0, ""};
    gp_histogram_params_fit(&p, &d);
    const uint8_t *x = (const uint8_t *)(uintptr_t)0x100000;
    uint32_t *bins = (uint32_t *)(uintptr_t)0x8000000;
    gp_status st;
    /* Every refusal happens before a device call (these pointers are fake). */
    GP_CHECK(gp_histogram_u8(x, 100, NULL, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_histogram_u8(NULL, 100, bins, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_histogram_u8(x, 100, bins, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_histogram_u8(x, 100, (uint32_t *)((char *)bins + 2), &p, NULL).code == GP_ERR_USAGE);
    st = gp_histogram_u32((const uint32_t *)(x + 2), 100, bins, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "4-byte aligned"));
    st = gp_histogram_u8(x, (size_t)1 << 32, bins, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "32-bit counts"));
    st = gp_histogram_u8(x, 4096, (uint32_t *)(uintptr_t)(0x100000 + 1024), &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "overlap"));
    /* The bins just before the keys: no overlap. */
    GP_CHECK(gp_histogram_u32((const uint32_t *)x, 10, (uint32_t *)(uintptr_t)(0x100000 - 16384), &p, NULL).code !=
             GP_ERR_USAGE);
    gp_histogram_params q = p;
    q.copies_u8 = 12;
    st = gp_histogram_u8(x, 100, bins, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = p;
    q.copies_u32 = 4; /* 64 KiB: beyond the compiled 48 */
    GP_CHECK(gp_histogram_u32((const uint32_t *)x, 100, bins, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.grid_u8 = 0;
    GP_CHECK(gp_histogram_u8(x, 100, bins, &q, NULL).code == GP_ERR_USAGE);
    /* Without a GPU backend, accepted arguments reach the launcher (NO_GPU,
     * not USAGE); n = 0 needs no input and still zeroes the bins. */
    if (strcmp(gp_rt_backend(), "none") == 0) {
        GP_CHECK(gp_histogram_u8(x + 3, 1000, bins, &p, NULL).code == GP_ERR_NO_GPU);
        GP_CHECK(gp_histogram_u32(NULL, 0, bins, &p, NULL).code == GP_ERR_NO_GPU);
    }
    return 0;
}

GP_TEST(histogram_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("histogram");
    GP_CHECK(k == &gp_kernel_histogram && k->rule == gp_histogram_rule && k->cases && k->prepare && k->check);
    GP_CHECK(k->nvariants > 4 && k->nvariants <= 31);
    gp_table base;
    GP_CHECK(gp_test_load_shipped("sm_90", &base));
    gp_device_info d = h200("NVIDIA");
    gp_histogram_params p0, p;
    char note[160];
    GP_CHECK(gp_kernel_params(k, &base, &d, NULL, 0, &p0, note, sizeof note).code == GP_OK);
    int vecs_seen = 0, copies_seen = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &d, &p);
        GP_CHECK(p.note[0] == '\0'); /* every variant is legal as written */
        vecs_seen |= p.items_per_thread;
        copies_seen |= p.copies_u8;
    }
    GP_CHECK(vecs_seen == (1 | 2 | 4) && (copies_seen & 1) && (copies_seen & 32));
    /* The block sizes of equal resident threads the rule chooses between
     * (512 and 1024 a SM's 2048) at its 2 vectors are both candidates, so a
     * sweep checks the choice. */
    int b512 = 0, b1024 = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &d, &p);
        b512 |= p.block == 512 && p.items_per_thread == 2 && p.copies_u8 == 32;
        b1024 |= p.block == 1024 && p.items_per_thread == 2 && p.copies_u8 == 32;
    }
    GP_CHECK(b512 && b1024);
    char b[192];
    gp_kernel_params_text(k, &p0, b, sizeof b);
    GP_CHECK(strstr(b, "block=1024 items_per_thread=2 copies_u8=32 copies_u32=2"));
    return 0;
}

/* ----------------------------------------------------------------- rule */

typedef struct ruled {
    long long block, items, c8, c32;
} ruled;

static gp_status rule_run(gp_table *t, ruled *r)
{
    gp_rule_in in = {t, NULL, 0};
    gp_status st = gp_histogram_rule(&in, t);
    if (st.code == GP_OK) {
        gp_table_get_int(t, "kernel.histogram", "block", &r->block);
        gp_table_get_int(t, "kernel.histogram", "items_per_thread", &r->items);
        gp_table_get_int(t, "kernel.histogram", "copies_u8", &r->c8);
        gp_table_get_int(t, "kernel.histogram", "copies_u32", &r->c32);
    }
    return st;
}

static int rule_on(const char *name, gp_table *t, ruled *r)
{
    memset(r, 0, sizeof *r);
    return gp_test_load_shipped(name, t) && rule_run(t, r).code == GP_OK;
}

GP_TEST(histogram_rule_on_shipped_tables)
{
    gp_table t;
    ruled r;
    /* H200: 32 banks, 48 KiB a block -> 32 copies of 256 bins (32 KiB), 2 of
     * 4096; 233472 / (32768 + 1024 reserved) = 6 blocks: 256 threads hold
     * 1536 a SM, 512 threads 4 blocks (the thread limit) = 2048, as does
     * 1024 -> 1024, the larger of equals (half the blocks, half the merges of
     * the copies; b512/v2 ran 7.8 % faster than b256/v2 on the H200); 4 x
     * 11.6 KiB over 2048 threads = 1.46 vectors -> 2. */
    GP_CHECK(rule_on("sm_90", &t, &r));
    GP_CHECK(r.c8 == 32 && r.c32 == 2 && r.block == 1024 && r.items == 2);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "histogram", "block"), "1024 reserved") &&
             strstr(gp_test_kernel_prov(&t, "histogram", "block"), "256:1536 512:2048 1024:2048 -> 1024"));
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "histogram", "copies_u8"), "rule gp_histogram_rule banks:", 29) == 0);
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "histogram", "block"), "rule gp_histogram_rule occupancy:", 33) == 0);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "histogram", "items_per_thread"), "4342 GB/s x 718 cycles"));
    GP_CHECK(gp_table_validate(&t, "sm_90 after the histogram rule").code == GP_OK);
    /* gfx900 (no reserve): 64 KiB a CU holds 2 such blocks: 1024 threads
     * bring the most, 2048; 4 x 2.9 KiB over 2048 threads = 0.36 vectors
     * -> 1. */
    GP_CHECK(rule_on("gfx900", &t, &r));
    GP_CHECK(r.c8 == 32 && r.c32 == 2 && r.block == 1024 && r.items == 1);
    /* sm_80: 167936 / 33792 -> 4 blocks -> 512 threads fill 2048, as do 2 of
     * 1024 -> 1024; 4 x 5.0 KiB / (2048 x 16 B) = 0.63 vectors -> 1
     * (gpu-benches' A100 figures). */
    GP_CHECK(rule_on("sm_80", &t, &r));
    GP_CHECK(r.block == 1024 && r.items == 1 &&
             strstr(gp_test_kernel_prov(&t, "histogram", "items_per_thread"), "1360 GB/s"));
    /* generic: the wave none (64) is named. */
    GP_CHECK(rule_on("generic", &t, &r));
    GP_CHECK(r.block == 1024 && strstr(gp_test_kernel_prov(&t, "histogram", "copies_u8"), "device.wave_size none"));
    return 0;
}

/* A shipped table whose [kernel.histogram] rows say they come from the rule
 * holds what the rule derives from that table's facts. */
GP_TEST(histogram_shipped_rule_rows_match_the_rule)
{
    int checked = 0;
    const char *keys[4] = {"block", "items_per_thread", "copies_u8", "copies_u32"};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table shipped, derived;
        ruled r;
        GP_CHECK(gp_test_load_shipped(table_names[i], &shipped) && gp_test_load_shipped(table_names[i], &derived));
        GP_CHECK(rule_run(&derived, &r).code == GP_OK);
        for (int k = 0; k < 4; k++) {
            const gp_table_entry *e = gp_table_find(&shipped, "kernel.histogram", keys[k]);
            GP_CHECK(e);
            if (strncmp(e->prov, "rule ", 5))
                continue;
            long long a = -1, b = -2;
            GP_CHECK(gp_table_get_int(&shipped, "kernel.histogram", keys[k], &a).code == GP_OK);
            GP_CHECK(gp_table_get_int(&derived, "kernel.histogram", keys[k], &b).code == GP_OK);
            if (a != b)
                fprintf(stderr, "tables/%s kernel.histogram %s = %lld, the rule gives %lld\n", table_names[i],
                        keys[k], a, b);
            GP_CHECK(a == b);
            checked++;
        }
    }
    GP_CHECK(checked >= 8);
    return 0;
}

GP_TEST(histogram_rule_follows_its_facts)
{
    gp_table t;
    ruled r;
    GP_CHECK(rule_on("sm_90", &t, &r) && r.c8 == 32);
    /* 16 banks: 16 copies; 16 KiB + 1 KiB a block -> 13 blocks: 128 threads
     * hold 1664 a SM, 256 (8 blocks by threads) 2048, as do 512 and 1024 ->
     * 1024. */
    GP_CHECK(gp_table_set(&t, "lds", "banks", 16, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &r).code == GP_OK && r.c8 == 16 && r.c32 == 2 && r.block == 1024);
    /* 12 KiB a block: 8 copies of 256 bins (a power of two of 12), none of
     * 4096 fit but one is the least. */
    GP_CHECK(rule_on("sm_90", &t, &r));
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_block", 12288, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &r).code == GP_OK && r.c8 == 8 && r.c32 == 1);
    /* Twice the far DRAM latency: 3.3 vectors, capped at 2 (the 32-register
     * kernels). */
    GP_CHECK(rule_on("sm_90", &t, &r) && r.items == 2);
    GP_CHECK(gp_table_set(&t, "dram", "far_latency_cycles", 1436, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &r).code == GP_OK && r.items == 2);
    /* Twice the SMs on the first facts: half the bytes a SM, 0.73 -> 1. */
    GP_CHECK(rule_on("sm_90", &t, &r));
    GP_CHECK(gp_table_set(&t, "device", "compute_units", 264, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &r).code == GP_OK && r.items == 1);
    /* No DRAM latency (either partition): Little's bound unknown, 1, said. */
    GP_CHECK(rule_on("sm_90", &t, &r));
    GP_CHECK(gp_table_set_none(&t, "dram", "latency_cycles", "measured test 2026-11-23 not detected: no chase").code ==
             GP_OK);
    GP_CHECK(gp_table_set_none(&t, "dram", "far_latency_cycles", "measured test 2026-11-23 not detected: no chase")
                 .code == GP_OK);
    GP_CHECK(rule_run(&t, &r).code == GP_OK && r.items == 1 &&
             strstr(gp_test_kernel_prov(&t, "histogram", "items_per_thread"), "unknown"));
    /* A bad fact: refused, named, never a division by it. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    int ki = gp_table_key_index("lds", "bytes_per_cu");
    GP_CHECK(ki >= 0);
    t.e[ki].d = -5;
    gp_status st = rule_run(&t, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[lds] bytes_per_cu"));
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    ki = gp_table_key_index("lds", "banks");
    GP_CHECK(ki >= 0);
    t.e[ki].d = 0;
    st = rule_run(&t, &r);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[lds] banks"));
    return 0;
}

/* The rule for the shape launched: the vectors a thread do not follow the
 * shape (a small problem runs on fewer blocks, each merging its copies
 * once), and the provenance says how many of the resident blocks it fills;
 * the headline problems (1 GiB either way) keep the table's values. */
GP_TEST(histogram_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_histogram_rule(&in, &ruled).code == GP_OK);
    gp_histogram_params p;
    char note[160];
    const gp_shape s_u8 = {{(long long)1 << 30}, {GP_HIST_U8}}, s_u32 = {{(long long)1 << 28}, {GP_HIST_U32}};
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_u8, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.items_per_thread == 2 && strstr(note, "as the table"));
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_u32, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.items_per_thread == 2 && strstr(note, "as the table"));
    /* 2^22 bytes are 2^18 vectors, 128 blocks of 1024 threads at 2 each, of
     * the 264 resident (2 a SM): still 2 vectors; 2^22 keys likewise. */
    const gp_shape s_small = {{(long long)1 << 22}, {GP_HIST_U8}}, s_keys = {{(long long)1 << 22}, {GP_HIST_U32}};
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_small, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.items_per_thread == 2 && strstr(note, "as the table"));
    GP_CHECK(p.block == 1024 && p.copies_u8 == 32);
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_keys, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.items_per_thread == 2);
    /* 300000 bytes would be 10 blocks of 1024 x 2 vectors on 132 SMs: spread
     * to 37 blocks of 512 x 1 (8 KiB each, the u8 copies' 32 x 256
     * counters); halving again would leave a block fewer bytes than it has
     * counters.  2^20 keys (4 MiB): 128 blocks, already spread. */
    const gp_shape s_short = {{300000}, {GP_HIST_U8}}, s_keys20 = {{(long long)1 << 20}, {GP_HIST_U32}};
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_short, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.block == 512 && p.items_per_thread == 1 && p.copies_u8 == 32);
    GP_CHECK(gp_kernel_params(&gp_kernel_histogram, &ruled, NULL, &s_keys20, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(p.block == 1024 && p.items_per_thread == 2);
    const gp_table_entry *e = gp_test_rule_for(&gp_kernel_histogram, &t, "300000", "block", &ruled);
    GP_CHECK(e && strstr(e->prov, "300000 B: 37 blocks of 512 x 1 vectors"));
    /* The rule's provenance says why. */
    gp_rule_in small_in = {&t, &s_small, 0};
    GP_CHECK(gp_histogram_rule(&small_in, &ruled).code == GP_OK);
    GP_CHECK(strstr(gp_test_kernel_prov(&ruled, "histogram", "items_per_thread"),
                    "4194304 B fill 128 of the 264 resident blocks (fewer blocks"));
    return 0;
}

/* Every bench problem's label reads back as its shape (the report reads
 * committed CSVs by label), the committed labels parse, and the case lists
 * fit the driver's room. */
GP_TEST(histogram_labels_and_cases)
{
    const gp_kernel *k = &gp_kernel_histogram;
    static gp_kcase c[GP_KCASE_MAX];
    gp_device_info dev = gp_test_fake_dev(32, 1024, 132);
    gp_table t;
    gp_histogram_params p;
    char label[GP_BENCH_TEXT];
    gp_shape s;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_kernel_params(k, &t, &dev, NULL, 0, &p, label, sizeof label).code == GP_OK);
    for (int quick = 0; quick <= 1; quick++) {
        int n = k->cases(GP_CASES_BENCH, NULL, &dev, quick, c, GP_KCASE_MAX);
        GP_CHECK(n >= 2 && (c[0].flags & GP_KCASE_PAIR) && (c[0].flags & GP_KCASE_VARIANTS));
        for (int i = 0; i < n; i++) {
            gp_kernel_case_label(k, &c[i], label, sizeof label);
            GP_CHECK(k->shape_parse(label, &s).code == GP_OK && !memcmp(&s, &c[i].shape, sizeof s));
        }
        n = k->cases(GP_CASES_VERIFY, &p, &dev, quick, c, GP_KCASE_MAX);
        GP_CHECK(n > 100 && n < GP_KCASE_MAX);
        for (int v = 0; v < k->nvariants; v++) {
            gp_histogram_params q;
            gp_kernel_variant(k, v, &p, &dev, &q);
            n = k->cases(GP_CASES_VARIANT, &q, &dev, quick, c, GP_KCASE_MAX);
            GP_CHECK(n >= 8 && n < GP_KCASE_MAX);
        }
    }
    GP_CHECK(k->shape_parse("2^30 u8, 256 bins skewed 90%", &s).code == GP_OK && s.d[GP_HIST_N] == 1 << 30 &&
             s.opt[GP_HIST_TYPE] == GP_HIST_U8);
    GP_CHECK(k->shape_parse("2^28 u32 keys, 4096 bins uniform", &s).code == GP_OK &&
             s.opt[GP_HIST_TYPE] == GP_HIST_U32);
    GP_CHECK(k->shape_parse("1000 u32", &s).code == GP_OK && s.d[GP_HIST_N] == 1000 &&
             s.opt[GP_HIST_TYPE] == GP_HIST_U32);
    k->shape_label(&s, label, sizeof label);
    GP_CHECK(!strcmp(label, "1000 u32 keys, 4096 bins"));
    GP_CHECK(k->shape_parse("2^20 u8 lumpy", &s).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("not a label", &s).code == GP_ERR_USAGE);
    return 0;
}
