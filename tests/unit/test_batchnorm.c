/* batchnorm on the CPU: the reference on a hand case and on data with a
 * large mean, the workspace layout and split, argument checks before any
 * device call, parameters from every shipped table, and the rule. */
#include <math.h>
#include <string.h>

#include "batchnorm.h"
#include "gp_test.h"
#include "gp_test_table.h"

GP_TEST(batchnorm_ref_hand)
{
    /* Channel 0: {1, 3} and {5, 7} over N=2 -> mean 4, var 5; channel 1: all 2 -> var 0. */
    const float x[8] = {1, 3, 2, 2, 5, 7, 2, 2};
    const float g[2] = {2, 1}, b[2] = {1, -1};
    gp_batchnorm_shape s = {2, 2, 1, 2};
    float y[8];
    double mean[2], invstd[2];
    gp_batchnorm_ref_train(x, y, &s, g, b, 1e-5, mean, invstd);
    GP_CHECK_NEAR(mean[0], 4.0, 1e-12);
    GP_CHECK_NEAR(invstd[0], 1.0 / sqrt(5.0 + 1e-5), 1e-12);
    GP_CHECK_NEAR(mean[1], 2.0, 1e-12);
    GP_CHECK_NEAR(invstd[1], 1.0 / sqrt(1e-5), 1e-9);
    GP_CHECK_NEAR(y[0], (1 - 4) * 2 / sqrt(5.0 + 1e-5) + 1, 1e-6);
    GP_CHECK_NEAR(y[5], (7 - 4) * 2 / sqrt(5.0 + 1e-5) + 1, 1e-6);
    GP_CHECK_NEAR(y[2], -1.0, 1e-6);
    /* Inference with the same statistics gives the same y. */
    float yi[8];
    const float m[2] = {4, 2}, v[2] = {5, 0};
    gp_batchnorm_ref_infer(x, yi, &s, g, b, m, v, 1e-5);
    for (int i = 0; i < 8; i++)
        GP_CHECK_NEAR(yi[i], y[i], 1e-5);
    return 0;
}

GP_TEST(batchnorm_ref_large_mean)
{
    /* 1e4 + {-1, 0, 1}: variance 2/3, which a one-pass fp32 sum of squares
     * would lose entirely; the double two-pass reference keeps it. */
    const float x[3] = {9999, 10000, 10001};
    const float g[1] = {1}, b[1] = {0};
    gp_batchnorm_shape s = {3, 1, 1, 1};
    double mean, invstd;
    gp_batchnorm_ref_train(x, NULL, &s, g, b, 1e-5, &mean, &invstd);
    GP_CHECK_NEAR(mean, 10000.0, 1e-9);
    GP_CHECK_NEAR(1.0 / (invstd * invstd) - 1e-5, 2.0 / 3.0, 1e-9);
    return 0;
}

GP_TEST(batchnorm_split_and_workspace)
{
    gp_batchnorm_params p = {256, 1, 0, ""};
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 132, d.max_threads_per_cu = 2048, d.max_threads_per_block = 1024;
    gp_batchnorm_params_fit(&p, &d);
    GP_CHECK(p.resident_blocks == 132 * 8);
    gp_batchnorm_shape a = {128, 64, 56, 56}, b = {32, 256, 14, 14}, one = {1, 3, 1, 1};
    GP_CHECK(gp_batchnorm_split(&p, &a) == 17);      /* ceil(1056 / 64) */
    GP_CHECK(gp_batchnorm_split(&p, &b) == 5);       /* ceil(1056 / 256), 6272 values need 7 */
    GP_CHECK(gp_batchnorm_split(&p, &one) == 1);     /* one value per channel */
    size_t part, fin;
    size_t bytes = gp_batchnorm_ws_offsets(3, 5, &part, &fin);
    GP_CHECK(part == 16 && fin == 16 + 16 * 15 && bytes == fin + 24);
    /* items 8 halves the largest block (the register budget). */
    gp_batchnorm_params q = {1024, 8, 0, ""};
    gp_batchnorm_params_fit(&q, &d);
    GP_CHECK(q.block == 512 && q.note[0]);
    return 0;
}

GP_TEST(batchnorm_bad_input_before_device)
{
    gp_batchnorm_params p = {256, 2, 1056, ""};
    float x[16] = {0}, y[16] = {0}, g[2] = {0}, b[2] = {0}, m[2] = {0}, v[2] = {0};
    gp_batchnorm_shape s = {2, 2, 2, 2}, bad = {2, 0, 2, 2};
    gp_batchnorm_ws ws = {x, 64, 2, 1};
    GP_CHECK(gp_batchnorm_train_f32(x, y, &bad, g, b, 1e-5, NULL, NULL, &ws, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, NULL, b, 1e-5, NULL, NULL, &ws, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 0.0, NULL, NULL, &ws, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, x, &s, g, b, 1e-5, NULL, NULL, &ws, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, NULL, NULL, NULL, &p).code == GP_ERR_USAGE);
    gp_batchnorm_ws other = {x, 64, 3, 1};
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, NULL, NULL, &other, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, NULL, v, 1e-5, &p).code == GP_ERR_USAGE);
    gp_batchnorm_params q = {256, 3, 1056, ""};
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &q).code == GP_ERR_USAGE);
    /* Good arguments reach the launcher (no GPU here). */
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &p).code != GP_ERR_USAGE);
    return 0;
}

GP_TEST(batchnorm_params_every_table)
{
    static const char *const tables[] = {"tables/generic", "tables/sm_90", "tables/sm_80", "tables/gfx900"};
    for (size_t i = 0; i < 4; i++) {
        gp_table t;
        gp_batchnorm_params p;
        GP_CHECK(gp_test_load_table(tables[i], &t));
        GP_CHECK(gp_batchnorm_params_from_table(&t, NULL, &p).code == GP_OK);
        GP_CHECK(p.block >= 64 && p.items >= 1 && p.items <= GP_BN_MAX_ITEMS && p.resident_blocks >= 1);
    }
    return 0;
}

GP_TEST(batchnorm_rule)
{
    gp_table t;
    long long items, block;
    /* H200: 4342 GB/s x 718 cycles @1980 MHz / 132 / 2048 threads / 16 B = 0.36 -> 1; block 992 -> 512. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "items_per_thread", &items).code == GP_OK && items == 1);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "block", &block).code == GP_OK && block == 512);
    /* Eight times the latency: 2.91 16-byte loads -> 4. */
    GP_CHECK(gp_table_set(&t, "dram", "latency_cycles", 8 * 657.979736, "measured cache_latency 2026-11-21").code ==
             GP_OK);
    GP_CHECK(gp_table_set(&t, "dram", "far_latency_cycles", 8 * 718.002121, "measured cache_latency 2026-11-21")
                 .code == GP_OK);
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "items_per_thread", &items).code == GP_OK && items == 4);
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "block", &block).code == GP_OK && block == 256);
    /* The generic table's DRAM facts are none: the stand-in, 2, named; a
     * table without the key at all is refused naming it. */
    GP_CHECK(gp_test_load_table("tables/generic", &t));
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "items_per_thread", &items).code == GP_OK && items == 2);
    const gp_table_entry *e = gp_table_find(&t, "kernel.batchnorm", "items_per_thread");
    GP_CHECK(e && strstr(e->prov, "dram/clock facts none") && strstr(e->prov, "(stand-in)"));
    t.e[gp_table_key_index("dram", "latency_cycles")].present = 0;
    gp_status st = gp_test_rule(gp_batchnorm_rule, &t);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] latency_cycles"));
    return 0;
}
