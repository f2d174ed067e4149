/* batchnorm on the CPU: the reference on a hand case and on data with a
 * large mean, the workspace layout and split, argument checks before any
 * device call, parameters from every shipped table, the rule and the
 * parameter that follows the shape, the shapes' syntax and the cases. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batchnorm.h"
#include "batchnorm_index.h"
#include "data.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"

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
    gp_batchnorm_params p = {.block = 256, .items_per_thread = 1};
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 132, d.max_threads_per_cu = 2048, d.max_threads_per_block = 1024;
    gp_batchnorm_params_fit(&p, &d);
    GP_CHECK(p.resident_blocks == 132 * 8);
    gp_batchnorm_shape a = {128, 64, 56, 56}, b = {32, 256, 14, 14}, one = {1, 3, 1, 1};
    /* 64 channels on 1056 slots: 16 a channel fill 0.970 of one wave, 17
     * (ceil) 0.515 of two, 33 exactly two: 16, the fewest waves within 5 %. */
    GP_CHECK(gp_batchnorm_split(&p, &a) == 16);
    /* 256 channels, 6272 values need at most 7: 4 fill 1024 of 1056. */
    GP_CHECK(gp_batchnorm_split(&p, &b) == 4);
    GP_CHECK(gp_batchnorm_split(&p, &one) == 1);     /* one value per channel */
    size_t part, fin;
    size_t bytes = gp_batchnorm_ws_offsets(3, 5, &part, &fin);
    GP_CHECK(part == 16 && fin == 16 + 16 * 15 && bytes == fin + 24);
    /* items 8 halves the largest block (the register budget). */
    gp_batchnorm_params q = {.block = 1024, .items_per_thread = 8};
    gp_batchnorm_params_fit(&q, &d);
    GP_CHECK(q.block == 512 && q.note[0]);
    return 0;
}

GP_TEST(batchnorm_wave_efficiency)
{
    GP_CHECK_NEAR(gp_batchnorm_wave_eff(1056, 1056), 1.0, 0);
    GP_CHECK_NEAR(gp_batchnorm_wave_eff(1088, 1056), 1088.0 / 2112, 1e-12); /* a tail of 32 */
    GP_CHECK_NEAR(gp_batchnorm_wave_eff(1024, 1056), 1024.0 / 1056, 1e-12);
    GP_CHECK(gp_batchnorm_wave_eff(0, 1056) == 0 && gp_batchnorm_wave_eff(5, 0) == 0);
    /* The H200 rule's block 512: 528 slots, 64 channels -> 8 (one wave,
     * 0.970), not 33 (four waves, 1.000), nor ceil(528 / 64) = 9. */
    gp_batchnorm_params p = {.block = 512, .items_per_thread = 1, .resident_blocks = 528};
    gp_batchnorm_shape big = {128, 64, 56, 56}, many = {8, 1024, 32, 32}, odd = {64, 48, 56, 56};
    GP_CHECK(gp_batchnorm_split(&p, &big) == 8);
    /* 48 channels: 11 a channel fill 528 of 528, one whole wave. */
    GP_CHECK(gp_batchnorm_split(&p, &odd) == 11);
    /* More channels than slots: one block a channel already fills 0.970. */
    GP_CHECK(gp_batchnorm_split(&p, &many) == 1);
    return 0;
}

GP_TEST(batchnorm_fused_choice)
{
    /* H200-like: 132 CUs, block 512, the rule's limit 8192 and 132 channels. */
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 132, d.max_threads_per_cu = 2048, d.max_threads_per_block = 1024;
    gp_batchnorm_params p = {.block = 512, .items_per_thread = 1, .fused_max_values = 8192, .fused_min_channels = 132};
    gp_batchnorm_params_fit(&p, &d);
    GP_CHECK(p.fused_max_values == 8192 && p.note[0] == '\0');
    gp_batchnorm_shape headline = {32, 256, 14, 14}, big = {128, 64, 56, 56};
    GP_CHECK(gp_batchnorm_fused(&p, &headline));  /* 6272 values, 256 channels */
    GP_CHECK(!gp_batchnorm_fused(&p, &big));      /* 200704 values a channel */
    gp_batchnorm_shape at = {1, 132, 1, 8192}, over = {1, 132, 1, 8193};
    GP_CHECK(gp_batchnorm_fused(&p, &at) && !gp_batchnorm_fused(&p, &over));
    /* Fewer channels than CUs: split while the split path gives a channel
     * several blocks (8192 values over 512 x 4), fused when it gives one. */
    gp_batchnorm_shape few = {1, 64, 1, 8192}, few_small = {1, 64, 1, 2048};
    GP_CHECK(!gp_batchnorm_fused(&p, &few));
    GP_CHECK(gp_batchnorm_split(&p, &few_small) == 1 && gp_batchnorm_fused(&p, &few_small));
    /* 0: never. */
    gp_batchnorm_params off = p;
    off.fused_max_values = 0;
    GP_CHECK(!gp_batchnorm_fused(&off, &headline));
    /* The fit caps the limit at block x values a thread: 32, 16 at 1024. */
    gp_batchnorm_params q = {.block = 1024, .items_per_thread = 1, .fused_max_values = 1 << 20, .fused_min_channels = 1};
    gp_batchnorm_params_fit(&q, &d);
    GP_CHECK(q.fused_max_values == 1024 * 16 && strstr(q.note, "fused_max_values"));
    q = (gp_batchnorm_params){.block = 256, .items_per_thread = 1, .fused_max_values = 1 << 20, .fused_min_channels = 0};
    gp_batchnorm_params_fit(&q, &d);
    GP_CHECK(q.fused_max_values == 256 * 32 && q.fused_min_channels == 1);
    /* hold_bytes: whole 16-byte units within what one block may use (d's opt-in LDS, else 48 KiB). */
    q.hold_bytes = 100, q.note[0] = '\0';
    gp_batchnorm_params_fit(&q, &d);
    GP_CHECK(q.hold_bytes == 96 && strstr(q.note, "hold_bytes"));
    gp_device_info small = d;
    small.lds_per_block_optin = 16 * 1024;
    q.hold_bytes = 1024, q.note[0] = '\0';
    gp_batchnorm_params_fit(&q, &small);
    GP_CHECK(q.hold_bytes == (16 * 1024 - GP_BN_HOLD_STATIC_LDS) / 256 / 16 * 16 && q.hold_bytes == 48);
    /* The fused block: 1568 float4 units (the headline) keep 512 threads,
     * 4 units each; 9 units take 64 threads; 65 take 128; 2048 exactly 4.
     * Single values (a plane of 7 x 7), at least 4 a thread: 16 x 49 = 784
     * take 256 threads, not 512 of 1.5 values each in a kernel of 4. */
    int per = 0;
    GP_CHECK(gp_batchnorm_fused_block(512, 1568, 1, &per) == 512 && per == 4);
    GP_CHECK(gp_batchnorm_fused_block(512, 9, 1, &per) == 64 && per == 1);
    GP_CHECK(gp_batchnorm_fused_block(512, 65, 1, &per) == 128 && per == 1);
    GP_CHECK(gp_batchnorm_fused_block(512, 2048, 1, &per) == 512 && per == 4);
    GP_CHECK(gp_batchnorm_fused_block(512, 2049, 1, &per) == 512 && per == 5);
    GP_CHECK(gp_batchnorm_fused_block(512, 784, 4, &per) == 256 && per == 4);
    GP_CHECK(gp_batchnorm_fused_block(512, 1025, 4, &per) == 512 && per == 3);
    GP_CHECK(gp_batchnorm_fused_block(512, 100, 4, &per) == 64 && per == 2);
    return 0;
}

/* The fused kernel's walk, as the launcher sets it up (vector width, block,
 * units a thread): every value of the tensor is visited exactly once, by
 * its own channel's block, and no thread needs more than the values
 * compiled.  Widths 4 and 1, units no multiple of the block, and the
 * largest channel a block of 512 and of 1024 holds. */
GP_TEST(batchnorm_fused_walk_covers_each_value_once)
{
    const struct {
        gp_batchnorm_shape s;
        int block, vec;
    } cases[] = {
        {{32, 5, 14, 14}, 512, 4}, {{3, 4, 7, 7}, 512, 1},    {{5, 3, 6, 10}, 256, 4}, {{1, 2, 1, 16384}, 512, 4},
        {{1, 2, 1, 16381}, 512, 1}, {{1, 3, 1, 16384}, 1024, 4}, {{2, 3, 1, 1}, 512, 1},  {{1, 1, 1, 1}, 64, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const gp_batchnorm_shape *s = &cases[k].s;
        const unsigned vec = (unsigned)cases[k].vec, hw = (unsigned)(s->h * s->w), pp = hw / vec;
        const unsigned units = (unsigned)s->n * pp, C = (unsigned)s->c;
        int per = 0, b = gp_batchnorm_fused_block(cases[k].block, units, vec == 4 ? 1 : 4, &per);
        GP_CHECK(per * (int)vec <= GP_BN_FUSED_VPT(b));
        /* The launcher's compiled units a thread: the least power of 2 that
         * holds per (4 at least for single values). */
        int u_comp = vec == 4 ? 1 : 4;
        while (u_comp < per)
            u_comp *= 2;
        GP_CHECK(u_comp * (int)vec <= GP_BN_FUSED_VPT(b));
        size_t total = gp_batchnorm_elems(s) / vec;
        unsigned char *seen = calloc(total, 1);
        GP_CHECK(seen != NULL);
        gp_fastdiv by_plane = gp_fastdiv_make(pp);
        unsigned gap = gp_bn_fused_gap(C, pp);
        for (unsigned c = 0; c < C; c++)
            for (int t = 0; t < b; t++)
                for (int j = 0; j < u_comp; j++) {
                    unsigned u = (unsigned)t + (unsigned)j * (unsigned)b;
                    if (u >= units)
                        continue;
                    size_t at = (size_t)c * pp + gp_bn_fused_offset(u, by_plane, gap);
                    GP_CHECK(at < total);
                    GP_CHECK((at / pp) % C == c); /* its own channel's plane */
                    seen[at]++;
                }
        size_t once = 0;
        for (size_t i = 0; i < total; i++)
            once += seen[i] == 1;
        free(seen);
        GP_CHECK(once == total);
    }
    return 0;
}

GP_TEST(batchnorm_bad_input_before_device)
{
    gp_batchnorm_params p = {.block = 256, .items_per_thread = 2, .fused_min_channels = 1, .resident_blocks = 1056};
    float x[16] = {0}, y[16] = {0}, g[2] = {0}, b[2] = {0}, m[2] = {0}, v[2] = {0};
    gp_batchnorm_shape s = {2, 2, 2, 2}, bad = {2, 0, 2, 2};
    gp_batchnorm_ws ws = {x, 64, 2, 1};
    GP_CHECK(gp_batchnorm_train_f32(x, y, &bad, g, b, 1e-5, NULL, NULL, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, NULL, b, 1e-5, NULL, NULL, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 0.0, NULL, NULL, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, x, &s, g, b, 1e-5, NULL, NULL, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, NULL, NULL, NULL, &p, NULL).code == GP_ERR_USAGE);
    gp_batchnorm_ws other = {x, 64, 3, 1};
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, NULL, NULL, &other, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, NULL, v, 1e-5, &p, NULL).code == GP_ERR_USAGE);
    gp_batchnorm_params q = {.block = 256, .items_per_thread = 3, .fused_min_channels = 1, .resident_blocks = 1056};
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &q, NULL).code == GP_ERR_USAGE);
    /* A fused limit above what a block holds (256 x 32), or no channel minimum: not fitted. */
    gp_batchnorm_params f = p;
    f.fused_max_values = 256 * 32 + 1;
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &f, NULL).code == GP_ERR_USAGE);
    f = p, f.fused_min_channels = 0;
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &f, NULL).code == GP_ERR_USAGE);
    /* Training that takes the fused path still gets its arguments checked first. */
    f = p, f.fused_max_values = 8;
    GP_CHECK(gp_batchnorm_fused(&f, &s));
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, NULL, b, 1e-5, NULL, NULL, &ws, &f, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, NULL, NULL, &ws, &f, NULL).code != GP_ERR_USAGE);
    /* Good arguments reach the launcher (no GPU here). */
    GP_CHECK(gp_batchnorm_infer_f32(x, y, &s, g, b, m, v, 1e-5, &p, NULL).code != GP_ERR_USAGE);
    /* The per-channel vectors: 4-byte aligned, and none that a call writes
     * (y, save_mean, save_invstd) overlapping another buffer. */
    gp_status st = gp_batchnorm_infer_f32(x, y, &s, (const float *)((uintptr_t)g + 2), b, m, v, 1e-5, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "gamma must be 4-byte aligned"));
    st = gp_batchnorm_infer_f32(x, y, &s, g, y + 14, m, v, 1e-5, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "y and beta overlap"));
    st = gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, x + 1, NULL, &ws, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "x and save_mean overlap"));
    float sv[3] = {0}; /* save_mean sv[0..1], save_invstd sv[1..2]: both written, overlapping */
    st = gp_batchnorm_train_f32(x, y, &s, g, b, 1e-5, sv, sv + 1, &ws, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "save_mean and save_invstd overlap"));
    GP_CHECK(gp_batchnorm_train_f32(x, y, &s, g, g, 1e-5, m, v, &ws, &p, NULL).code != GP_ERR_USAGE); /* read twice */
    GP_CHECK(gp_batchnorm_infer_f32(x, x, &s, g, b, m, v, 1e-5, &p, NULL).code != GP_ERR_USAGE);      /* in place */
    /* Workspaces: no address refused; made for a context and a bad shape, left
     * zeroed so that its destroy frees nothing. */
    GP_CHECK(gp_batchnorm_ws_create(NULL, &s, &p).code == GP_ERR_USAGE);
    st = gp_batchnorm_ws_create_for(NULL, &s, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "workspace: its address is NULL"));
    gp_batchnorm_ws junk;
    memset(&junk, 0xab, sizeof junk);
    GP_CHECK(gp_batchnorm_ws_create_for(NULL, &bad, &junk).code == GP_ERR_USAGE);
    GP_CHECK(junk.d == NULL && junk.bytes == 0);
    gp_batchnorm_ws_destroy(&junk);
    return 0;
}

GP_TEST(batchnorm_params_every_table)
{
    static const char *const tables[] = {"tables/generic", "tables/sm_90", "tables/sm_80", "tables/gfx900"};
    for (size_t i = 0; i < 4; i++) {
        gp_table t;
        gp_batchnorm_params p;
        GP_CHECK(gp_test_load_table(tables[i], &t));
        GP_CHECK(gp_kernel_params(&gp_kernel_batchnorm, &t, NULL, NULL, 0, &p, NULL, 0).code == GP_OK);
        GP_CHECK(p.block >= 64 && p.items_per_thread >= 1 && p.items_per_thread <= GP_BN_MAX_ITEMS &&
                 p.resident_blocks >= 1);
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
    /* Fused: 512 threads x 32 values need 98 regs -> 104 x 512 = 53248 of
     * 65536: 1 block/CU; x 16 values, 56 regs: 2 -> 8192.  Channels: 132 CUs. */
    long long fmax, fmin;
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "fused_max_values", &fmax).code == GP_OK && fmax == 8192);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "fused_min_channels", &fmin).code == GP_OK && fmin == 132);
    const gp_table_entry *fe = gp_table_find(&t, "kernel.batchnorm", "fused_max_values");
    GP_CHECK(fe && strstr(fe->prov, "512 thr x 16 values (56 regs"));
    /* Hold: 512 threads at 63 regs (64 allocated) -> 2 blocks/CU; 233472 / 2
     * - 1024 reserved - 528 static = 115184 B -> 224 B a thread. */
    long long hold;
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "hold_bytes", &hold).code == GP_OK && hold == 224);
    /* A quarter of the LDS: 58368 / 2 - 1552 = 27632 B a block -> 48 B (53.97 down to 16-B units). */
    gp_table l = t;
    GP_CHECK(gp_table_set(&l, "lds", "bytes_per_cu", 233472 / 4, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &l).code == GP_OK);
    GP_CHECK(gp_table_get_int(&l, "kernel.batchnorm", "hold_bytes", &hold).code == GP_OK && hold == 48);
    /* Too little LDS for one unit a thread: two launches. */
    GP_CHECK(gp_table_set(&l, "lds", "bytes_per_cu", 16384, "measured lds 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &l).code == GP_OK);
    GP_CHECK(gp_table_get_int(&l, "kernel.batchnorm", "hold_bytes", &hold).code == GP_OK && hold == 0);
    /* Half the register file: 512 x 16 values fit once -> 8 values (32 regs): 4096. */
    gp_table h = t;
    GP_CHECK(gp_table_set(&h, "registers", "per_cu", 32768, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &h).code == GP_OK);
    GP_CHECK(gp_table_get_int(&h, "kernel.batchnorm", "fused_max_values", &fmax).code == GP_OK && fmax == 4096);
    /* A file too small for 2 blocks of 4 values: never fused. */
    GP_CHECK(gp_table_set(&h, "registers", "per_cu", 16384, "measured register_limits 2026-11-21").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_batchnorm_rule, &h).code == GP_OK);
    GP_CHECK(gp_table_get_int(&h, "kernel.batchnorm", "fused_max_values", &fmax).code == GP_OK && fmax == 0);
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
    /* MI25: 256 threads x 32 values (98 regs, wave 64) -> 2 blocks/CU: 8192; 64 CUs. */
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "fused_max_values", &fmax).code == GP_OK && fmax == 8192);
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "fused_min_channels", &fmin).code == GP_OK && fmin == 64);
    /* MI25: 256 threads at 29 VGPRs (32 allocated) -> 8 blocks/CU of 64 KiB: 7664 B a block -> 16 B. */
    GP_CHECK(gp_table_get_int(&t, "kernel.batchnorm", "hold_bytes", &hold).code == GP_OK && hold == 16);
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

/* items_per_thread follows the shape through gp_kernel_params on a ruled
 * table: sm_80's facts without the DRAM bandwidth take the stand-in 2
 * (block 256, 108 CUs x 8 = 864 resident) for the headline, 1 for
 * 2x64x16x16, whose 512 values a channel fill 1 block where a wave over 64
 * channels wants 14.  The H200's 1 stays 1. */
GP_TEST(batchnorm_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_table("tables/sm_80", &t));
    GP_CHECK(gp_table_set_none(&t, "dram", "bandwidth_gbs", "measured test 2026-11-28 not detected: no stream").code == GP_OK);
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_batchnorm_rule(&in, &ruled).code == GP_OK);
    gp_shape head, small;
    GP_CHECK(gp_kernel_batchnorm.shape_parse("128x64x56x56 train", &head).code == GP_OK);
    GP_CHECK(gp_kernel_batchnorm.shape_parse("2x64x16x16", &small).code == GP_OK);
    gp_batchnorm_params ph, ps;
    char note[160];
    GP_CHECK(gp_kernel_params(&gp_kernel_batchnorm, &ruled, NULL, &head, 0, &ph, note, sizeof note).code == GP_OK);
    GP_CHECK(ph.items_per_thread == 2 && ph.block == 256 && strstr(note, "as the table"));
    GP_CHECK(gp_kernel_params(&gp_kernel_batchnorm, &ruled, NULL, &small, 0, &ps, note, sizeof note).code == GP_OK);
    GP_CHECK(ps.items_per_thread == 1 && ps.block == 256 && strstr(note, "items_per_thread 2->1"));
    static gp_table out;
    out = t;
    gp_rule_in sin = {&t, &small, 0};
    GP_CHECK(gp_batchnorm_rule(&sin, &out).code == GP_OK);
    const gp_table_entry *e = gp_table_find(&out, "kernel.batchnorm", "items_per_thread");
    GP_CHECK(e && e->i == 1 && strstr(e->prov, "512 values a channel fill 1 blocks") && strstr(e->prov, "= 14 -> 1"));
    return 0;
}

/* The bench labels read back; every case batchnorm runs is a tensor it
 * takes, and the fused shapes sit at the parameters' limit. */
GP_TEST(batchnorm_shapes_and_cases)
{
    const gp_kernel *k = &gp_kernel_batchnorm;
    static const char *const labels[] = {"128x64x56x56 train", "32x256x14x14 train", "2x3x5x7 infer"};
    char buf[96];
    gp_shape s;
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        GP_CHECK(k->shape_parse(labels[i], &s).code == GP_OK);
        k->shape_label(&s, buf, sizeof buf);
        GP_CHECK(!strcmp(buf, labels[i]));
    }
    GP_CHECK(k->shape_parse("128x64x56", &s).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("1x2x3x4 backward", &s).code == GP_ERR_USAGE);
    /* The floor's bytes follow the path: x read twice split, once fused. */
    gp_kernel_work w;
    gp_batchnorm_params p = {.block = 512, .items_per_thread = 1, .fused_max_values = 8192,
                             .fused_min_channels = 132};
    gp_batchnorm_params_fit(&p, NULL);
    GP_CHECK(k->shape_parse("32x256x14x14 train", &s).code == GP_OK);
    GP_CHECK(k->work(&s, NULL, &w).code == GP_OK && w.bytes == 12.0 * 32 * 256 * 14 * 14);
    GP_CHECK(k->work(&s, &p, &w).code == GP_OK && w.bytes == 8.0 * 32 * 256 * 14 * 14 && strstr(w.method, "fused"));
    static gp_kcase c[GP_KCASE_MAX];
    int n = k->cases(GP_CASES_VERIFY, &p, NULL, 0, c, GP_KCASE_MAX);
    GP_CHECK(n == 30);
    int at_limit = 0;
    for (int i = 0; i < n; i++) {
        gp_shape r;
        k->shape_label(&c[i].shape, buf, sizeof buf);
        GP_CHECK(k->shape_parse(buf, &r).code == GP_OK && !memcmp(&r, &c[i].shape, sizeof r));
        at_limit += c[i].shape.d[GP_BN_W] == 8192 && c[i].shape.d[GP_BN_C] == 132;
    }
    GP_CHECK(at_limit == 2); /* training and inference */
    GP_CHECK(k->cases(GP_CASES_VARIANT, &p, NULL, 0, c, GP_KCASE_MAX) == 14);
    GP_CHECK(k->cases(GP_CASES_BENCH, NULL, NULL, 0, c, GP_KCASE_MAX) == 2 && c[0].shape.d[GP_BN_N] == 128);
    return 0;
}

/* The bench's reference and check (batchnorm_ref.c): the reference passes within its bounds, which a large mean
 * widens; a value out of them is named, the statistics only in training. */
GP_TEST(batchnorm_bench_check)
{
    const gp_batchnorm_shape s = {2, 3, 2, 5};
    float x[60], ref[60], y[60], inf[60], g[3] = {1.0f, 0.5f, 1.5f}, b[3] = {0.0f, 1.0f, -1.0f}, st[9], mean[3];
    double bound[2];
    for (int i = 0; i < 60; i++)
        x[i] = 1000.0f + (float)(i % 7) * 0.25f;
    GP_CHECK(gp_batchnorm_ref_stats(x, ref, &s, g, b, 1e-5, st, bound).code == GP_OK);
    GP_CHECK(bound[0] > 1e-5 + 1e-4 && bound[1] > 1e-7 + 1e-4);
    memcpy(y, ref, sizeof y), memcpy(mean, st, sizeof mean);
    GP_CHECK(gp_batchnorm_check("bn", y, ref, 60, mean, st + 6, st, 3, bound).code == GP_OK);
    mean[1] += 0.01f;
    gp_status e = gp_batchnorm_check("bn", y, ref, 60, mean, st + 6, st, 3, bound);
    GP_CHECK(e.code == GP_ERR_CHECK && strstr(e.msg, "bn saved mean") != NULL);
    GP_CHECK(gp_batchnorm_check("bn", y, ref, 60, NULL, NULL, st, 3, bound).code == GP_OK);
    y[17] += 0.01f;
    GP_CHECK(gp_batchnorm_check("bn", y, ref, 60, NULL, NULL, st, 3, bound).code == GP_ERR_CHECK);
    /* What inference is given: the variance of each channel. */
    gp_batchnorm_ref_infer(x, inf, &s, g, b, st, st + 3, 1e-5);
    GP_CHECK(gp_compare_f32("infer", inf, ref, 60, 1e-3, 0.0, NULL).code == GP_OK);
    return 0;
}
