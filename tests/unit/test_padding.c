/* padding on the CPU: the reference on hand cases, the multiply-shift
 * division against '/', shape and argument checks before any device call,
 * parameters from every shipped table, and the rule. */
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kdiv.h"
#include "padding.h"

static const char *const tables[] = {"tables/generic", "tables/sm_90", "tables/sm_80", "tables/gfx900"};

GP_TEST(padding_ref_hand)
{
    /* One 2x2 plane padded t1 b0 l0 r2 -> 3x4. */
    const float in[4] = {1, 2, 3, 4};
    const float want[12] = {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0};
    float out[12];
    gp_padding_shape s = {1, 1, 2, 2, 1, 0, 0, 2};
    GP_CHECK(gp_padding_out_h(&s) == 3 && gp_padding_out_w(&s) == 4 && gp_padding_out_elems(&s) == 12);
    memset(out, 0xff, sizeof out);
    gp_padding_ref_f32(in, out, &s);
    GP_CHECK(!memcmp(out, want, sizeof want));
    /* Two planes, no padding: a copy. */
    gp_padding_shape c = {2, 1, 1, 2, 0, 0, 0, 0};
    gp_padding_ref_f32(in, out, &c);
    GP_CHECK(!memcmp(out, in, sizeof in));
    return 0;
}

GP_TEST(kdiv_matches_division)
{
    static const unsigned ds[] = {1, 2, 3, 7, 13, 169, 196, 784, 3136, 65535, 65536, 1000003, 0x40000000u,
                                  0x7ffffffeu};
    static const unsigned xs[] = {0, 1, 2, 12, 168, 169, 170, 1u << 20, 0x3fffffffu, 0x7ffffffeu, 0x7fffffffu};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        gp_kdiv d = gp_kdivider(ds[i]);
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++)
            GP_CHECK(gp_kdiv_apply(xs[j], d) == xs[j] / ds[i]);
        for (unsigned x = 0x7fffffffu - 5000; x < 0x7fffffffu; x += 7)
            GP_CHECK(gp_kdiv_apply(x, d) == x / ds[i]);
    }
    for (unsigned dd = 1; dd < 3000; dd++) {
        gp_kdiv d = gp_kdivider(dd);
        for (unsigned x = 0; x < 20000; x += 3)
            GP_CHECK(gp_kdiv_apply(x, d) == x / dd);
    }
    return 0;
}

GP_TEST(padding_bad_input_before_device)
{
    gp_padding_params p = {256, 4, ""};
    _Alignas(16) float buf[64] = {0};
    gp_padding_shape ok = {1, 1, 2, 2, 1, 1, 1, 1};
    gp_padding_shape bad[] = {{0, 1, 2, 2, 0, 0, 0, 0}, {1, -1, 2, 2, 0, 0, 0, 0}, {1, 1, 2, 2, -1, 0, 0, 0},
                              {1, 1, 2, 2, 0, 0, 0, -3}, {1, 1, 60000, 60000, 0, 0, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = gp_padding_f32(buf, buf + 32, &bad[i], &p);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "padding"));
    }
    GP_CHECK(gp_padding_f32(NULL, buf, &ok, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_padding_f32(buf, buf + 2, &ok, &p).code == GP_ERR_USAGE); /* overlap */
    gp_padding_params q = {256, 3, ""};
    GP_CHECK(gp_padding_f32(buf, buf + 32, &ok, &q).code == GP_ERR_USAGE);
    /* 4, 8 or 16 items only, fitted; and a 16-byte aligned output. */
    gp_padding_params f = {256, 6, ""};
    GP_CHECK(gp_padding_f32(buf, buf + 32, &ok, &f).code == GP_ERR_USAGE);
    f.items_per_thread = 4;
    gp_status sf = gp_padding_f32(buf, buf + 33, &ok, &f);
    GP_CHECK(sf.code == GP_ERR_USAGE && strstr(sf.msg, "16-byte"));
    gp_padding_params_fit(&f, NULL);
    GP_CHECK(f.items_per_thread == 4 && f.note[0] == '\0');
    f.items_per_thread = 6;
    gp_padding_params_fit(&f, NULL);
    GP_CHECK(f.items_per_thread == 4 && strstr(f.note, "items_per_thread"));
    f.items_per_thread = 40;
    gp_padding_params_fit(&f, NULL);
    GP_CHECK(f.items_per_thread == 16);
    /* Good arguments reach the launcher (no GPU here). */
    gp_status st = gp_padding_f32(buf, buf + 32, &ok, &p);
    GP_CHECK(st.code != GP_ERR_USAGE);
    return 0;
}

GP_TEST(padding_params_every_table)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_table(tables[i], &t));
        gp_padding_params p;
        GP_CHECK(gp_padding_params_from_table(&t, NULL, &p).code == GP_OK);
        GP_CHECK(p.block >= 64 && p.block <= 1024 && !(p.block & (p.block - 1)));
        GP_CHECK(p.items_per_thread >= GP_PADDING_MIN_ITEMS && p.items_per_thread <= GP_PADDING_MAX_ITEMS);
    }
    return 0;
}

GP_TEST(padding_rule)
{
    gp_table t;
    long long items, block;
    /* H200: 4342 GB/s x 718 cycles (the far partition) @1980 MHz / 132 SMs
     * = 11.9 kB per SM over 1024 threads (2 blocks of 512 at 48 registers),
     * 4 B loads for 49 of 169 outputs: 10.0 loads -> 16; block 992 -> 512. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 16);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "block", &block).code == GP_OK && block == 512);
    const gp_table_entry *e = gp_table_find(&t, "kernel.padding", "items_per_thread");
    GP_CHECK(e && strstr(e->prov, "rule gp_padding_rule little: dram 4342 GB/s x 718 cycles"));
    /* A quarter of the latency: 2.5 loads -> 4. */
    GP_CHECK(gp_table_set(&t, "dram", "latency_cycles", 657.979736 / 4, "measured cache_latency 2026-11-21").code ==
             GP_OK);
    GP_CHECK(gp_table_set(&t, "dram", "far_latency_cycles", 718.002121 / 4, "measured cache_latency 2026-11-21")
                 .code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 4);
    /* MI25: 450 GB/s x 647 cycles @1536 MHz / 64 CUs over 1280 threads, 1.16 B
     * each: 2.0 loads -> the least compiled, 4; block 256. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 4);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "block", &block).code == GP_OK && block == 256);
    /* Without a measured DRAM bandwidth (none) the rule takes its stand-in, 8,
     * and says so; without the key at all it says which fact it lacks. */
    for (int i = 0; i < 2; i++) {
        GP_CHECK(gp_test_load_table(i ? "tables/sm_80" : "tables/generic", &t));
        GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 8);
        e = gp_table_find(&t, "kernel.padding", "items_per_thread");
        GP_CHECK(e && strstr(e->prov, "dram/clock facts none") && strstr(e->prov, "(stand-in)"));
        t.e[gp_table_key_index("dram", "bandwidth_gbs")].present = 0;
        gp_status st = gp_test_rule(gp_padding_rule, &t);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] bandwidth_gbs"));
    }
    return 0;
}
