/* padding on the CPU: the reference on hand cases, the multiply-shift
 * division against '/', shape and argument checks before any device call,
 * parameters from every shipped table, the rule and the parameter that
 * follows the shape, the shapes' syntax, and the staged kernel's index math
 * emulated block by block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "fastdiv.h"
#include "kernel.h"
#include "data.h"
#include "padding.h"
#include "padding_staged.h"

static const char *const tables[] = {"tables/generic", "tables/sm_90", "tables/sm_80", "tables/gfx900"};

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_padding_params *p)
{
    return gp_kernel_params(&gp_kernel_padding, t, dev, NULL, 0, p, NULL, 0);
}

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
        gp_fastdiv d = gp_fastdiv_make(ds[i]);
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++)
            GP_CHECK(gp_fastdiv_apply(xs[j], d) == xs[j] / ds[i]);
        for (unsigned x = 0x7fffffffu - 5000; x < 0x7fffffffu; x += 7)
            GP_CHECK(gp_fastdiv_apply(x, d) == x / ds[i]);
    }
    for (unsigned dd = 1; dd < 3000; dd++) {
        gp_fastdiv d = gp_fastdiv_make(dd);
        for (unsigned x = 0; x < 20000; x += 3)
            GP_CHECK(gp_fastdiv_apply(x, d) == x / dd);
    }
    return 0;
}

GP_TEST(padding_bad_input_before_device)
{
    gp_padding_params p = {256, 4, 0, ""};
    _Alignas(16) float buf[64] = {0};
    gp_padding_shape ok = {1, 1, 2, 2, 1, 1, 1, 1};
    gp_padding_shape bad[] = {{0, 1, 2, 2, 0, 0, 0, 0}, {1, -1, 2, 2, 0, 0, 0, 0}, {1, 1, 2, 2, -1, 0, 0, 0},
                              {1, 1, 2, 2, 0, 0, 0, -3}, {1, 1, 60000, 60000, 0, 0, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = gp_padding_f32(buf, buf + 32, &bad[i], &p, NULL);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "padding"));
    }
    GP_CHECK(gp_padding_f32(NULL, buf, &ok, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_padding_f32(buf, buf + 2, &ok, &p, NULL).code == GP_ERR_USAGE); /* overlap */
    gp_padding_params q = {256, 3, 0, ""};
    GP_CHECK(gp_padding_f32(buf, buf + 32, &ok, &q, NULL).code == GP_ERR_USAGE);
    /* 4, 8 or 16 items only, fitted; and a 16-byte aligned output. */
    gp_padding_params f = {256, 6, 0, ""};
    GP_CHECK(gp_padding_f32(buf, buf + 32, &ok, &f, NULL).code == GP_ERR_USAGE);
    f.items_per_thread = 4;
    gp_status sf = gp_padding_f32(buf, buf + 33, &ok, &f, NULL);
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
    gp_status st = gp_padding_f32(buf, buf + 32, &ok, &p, NULL);
    GP_CHECK(st.code != GP_ERR_USAGE);
    /* Launches take whole planes under 2^31 elements from 16-byte
     * boundaries: 4k planes up to GP_PADDING_MAX_PLANE elements (a quarter
     * of 2^31 - 1: exactly 4 a launch there); past it, all planes in one
     * launch while they stay under 2^31, else one a launch where a plane is
     * a multiple of 4 elements.  Planes past it that are not, 2^31 or more
     * in all, cannot be cut so: refused (the launcher once took 4 such
     * planes at a time and wrapped its 32-bit count, writing part of the
     * output). */
    GP_CHECK((0x7fffffffll / GP_PADDING_MAX_PLANE & ~3ll) == 4 && (0x7fffffffll / (GP_PADDING_MAX_PLANE + 1) & ~3ll) == 0);
    /* The launcher's cut, the same function the check asks. */
    GP_CHECK(gp_padding_planes_per_launch(16, 10) == (0x7fffffffu / 16 & ~3u));
    GP_CHECK(gp_padding_planes_per_launch(GP_PADDING_MAX_PLANE, 1000) == 4);
    GP_CHECK(gp_padding_planes_per_launch(GP_PADDING_MAX_PLANE + 1, 3) == 3);      /* all in one launch */
    GP_CHECK(gp_padding_planes_per_launch(1089000000ull, 4) == 1);                 /* a multiple of 4: one a launch */
    GP_CHECK(gp_padding_planes_per_launch(1089066001ull, 2) == 0);                 /* no 16-byte cut */
    GP_CHECK(gp_padding_planes_per_launch(1089066001ull, 1) == 1);
    GP_CHECK(gp_padding_planes_per_launch(0x7fffffffull, 1) == 0 && gp_padding_planes_per_launch(0, 1) == 0);
    gp_padding_shape one = {1, 1, 30000, 30000, 0, 0, 0, 0};     /* 9e8 elements, one launch */
    gp_padding_shape four = {1, 4, 33000, 33000, 0, 0, 0, 0};    /* 4 x 1.089e9, a multiple of 4: one a launch */
    gp_padding_shape odd = {1, 2, 33001, 33001, 0, 0, 0, 0};     /* 2 x 1089066001: no 16-byte cut */
    gp_padding_shape odd_one = {1, 1, 33001, 33001, 0, 0, 0, 0}; /* the same plane alone: one launch */
    GP_CHECK(gp_padding_check_shape(&one).code == GP_OK && gp_padding_check_shape(&four).code == GP_OK);
    GP_CHECK(gp_padding_check_shape(&odd_one).code == GP_OK);
    gp_status sh = gp_padding_check_shape(&odd);
    GP_CHECK(sh.code == GP_ERR_USAGE && strstr(sh.msg, "16-byte boundaries"));
    gp_padding_shape whole = {1, 1, 46341, 46341, 0, 0, 0, 0}; /* 2^31 + 4633 elements a plane */
    GP_CHECK(gp_padding_check_shape(&whole).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(padding_params_every_table)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_table(tables[i], &t));
        gp_padding_params p;
        GP_CHECK(from_table(&t, NULL, &p).code == GP_OK);
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
     * 4 B written a thread's item per round trip of twice the idle latency:
     * 5.8 -> 8; block 992 -> 512. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 8);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "block", &block).code == GP_OK && block == 512);
    const gp_table_entry *e = gp_table_find(&t, "kernel.padding", "items_per_thread");
    GP_CHECK(e && strstr(e->prov, "rule gp_padding_rule little: dram 4342 GB/s x 718 cycles"));
    /* planes_per_block: the 7x7 reference row (28 B) is under a sector
     * (32 B), so the staged kernel; 11.6 KiB/CU in flight over 196 B planes
     * = 60.9 -> 64, what the H200 measured best (0.919 of the copy); the
     * provenance carries the arithmetic whole (not cut). */
    long long planes = -1;
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 64);
    e = gp_table_find(&t, "kernel.padding", "planes_per_block");
    GP_CHECK(e && strncmp(e->prov, "rule gp_padding_rule little: row 28 B < sector 32;", 50) == 0);
    GP_CHECK(e && strstr(e->prov, "= 60.9 -> 64") && strstr(e->prov, "bigger planes flat"));
    /* A quarter of the latency: 1.5 -> the least compiled, 4. */
    GP_CHECK(gp_table_set(&t, "dram", "latency_cycles", 657.979736 / 4, "measured cache_latency 2026-11-21").code ==
             GP_OK);
    GP_CHECK(gp_table_set(&t, "dram", "far_latency_cycles", 718.002121 / 4, "measured cache_latency 2026-11-21")
                 .code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 4);
    /* ... and P: 15.2 planes -> 16. */
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 16);
    /* MI25: 450 GB/s x 610 cycles @1536 MHz / 64 CUs over 1280 threads, 2 B
     * each: 1.1 -> the least compiled, 4; block 256. */
    GP_CHECK(gp_test_load_table("tables/gfx900", &t));
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 4);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "block", &block).code == GP_OK && block == 256);
    /* ... P: 2.9 KiB/CU / 196 B = 15.1 -> 16, the row under its 64 B line. */
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 16);
    /* Facts changed on the H200's table: */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    /* sectors of 16 B: the 28 B row spans whole sectors -> the flat kernel; */
    GP_CHECK(gp_table_set(&t, "cache.l1", "sector_bytes", 16, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 0);
    e = gp_table_find(&t, "kernel.padding", "planes_per_block");
    GP_CHECK(e && strstr(e->prov, "reference row 28 B >= cache.l1.sector_bytes 16") && strstr(e->prov, "(flat)"));
    /* twice the bandwidth: 121.8 planes -> 128 (the most compiled); four
     * times: still 128; */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "dram", "bandwidth_gbs", 2 * 4342.0, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 128);
    GP_CHECK(gp_table_set(&t, "dram", "bandwidth_gbs", 4 * 4342.0, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 128);
    /* 8 KiB of LDS a block holds 41 planes: 64 -> 32; 4 KiB (the least a
     * table takes) holds 20 -> 16. */
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_block", 8192, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 32);
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_block", 4096, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 16);
    /* Without a measured DRAM bandwidth (none) the rule takes its stand-in, 8,
     * and says so; without the key at all it says which fact it lacks. */
    for (int i = 0; i < 2; i++) {
        GP_CHECK(gp_test_load_table(i ? "tables/sm_80" : "tables/generic", &t));
        if (i) /* sm_80's facts without the DRAM bandwidth */
            GP_CHECK(gp_table_set_none(&t, "dram", "bandwidth_gbs", "measured test 2026-11-28 not detected: no stream").code ==
                     GP_OK);
        GP_CHECK(gp_test_rule(gp_padding_rule, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.padding", "items_per_thread", &items).code == GP_OK && items == 8);
        e = gp_table_find(&t, "kernel.padding", "items_per_thread");
        GP_CHECK(e && strstr(e->prov, "dram/clock facts none") && strstr(e->prov, "(stand-in)"));
        /* ... and P cannot be sized: the flat kernel, said so. */
        GP_CHECK(gp_table_get_int(&t, "kernel.padding", "planes_per_block", &planes).code == GP_OK && planes == 0);
        e = gp_table_find(&t, "kernel.padding", "planes_per_block");
        GP_CHECK(e && strstr(e->prov, "P unsized -> 0 (flat)"));
        t.e[gp_table_key_index("dram", "bandwidth_gbs")].present = 0;
        gp_status st = gp_test_rule(gp_padding_rule, &t);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] bandwidth_gbs"));
    }
    return 0;
}

/* The staged kernel emulated on the CPU block by block with its own index
 * functions (padding_staged.h): phase 1 copies the block's input planes the
 * way the kernel does (whole 16-byte vectors, then the odd tail), phase 2
 * builds every group of 4 outputs from that copy; the result must equal the
 * reference bit for bit, every block's input and output must start on a
 * 16-byte boundary, and groups must never read past the block's planes.  A
 * wrong plane range, division or tail fails here. */
static int staged_emulated_ok(const gp_padding_shape *s, unsigned P, uint64_t *rng)
{
    const size_t ni = gp_padding_in_elems(s), no = gp_padding_out_elems(s);
    float *in = malloc(ni * 4), *ref = malloc(no * 4), *got = malloc(no * 4), *lds = malloc((size_t)P * s->h * s->w * 4);
    int ok = in && ref && got && lds;
    gp_padding_geom g;
    g.h = (unsigned)s->h, g.w = (unsigned)s->w, g.ho = (unsigned)gp_padding_out_h(s), g.wo = (unsigned)gp_padding_out_w(s);
    g.howo = g.ho * g.wo, g.planes = (unsigned)(s->n * s->c), g.top = s->top, g.left = s->left;
    g.by_howo = gp_fastdiv_make(g.howo), g.by_wo = gp_fastdiv_make(g.wo);
    if (ok) {
        for (size_t i = 0; i < ni; i++)
            in[i] = 1.0f + (float)(gp_rand_u64(rng) % 1000); /* never 0: a missed load shows */
        memset(got, 0xff, no * 4);
        gp_padding_ref_f32(in, ref, s);
    }
    const unsigned hw = g.h * g.w, blocks = (g.planes + P - 1) / P;
    for (unsigned b = 0; b < blocks && ok; b++) {
        const unsigned np = gp_padding_staged_np(b, P, g.planes), nin = np * hw, nout = np * g.howo;
        const size_t in0 = (size_t)b * P * hw, out0 = (size_t)b * P * g.howo;
        ok = np >= 1 && np <= P && in0 % 4 == 0 && out0 % 4 == 0 && in0 + nin <= ni && out0 + nout <= no;
        memset(lds, 0xff, (size_t)P * hw * 4);
        for (unsigned v = 0; v < nin / 4 && ok; v++)
            memcpy(lds + 4 * v, in + in0 + 4 * v, 16);
        for (unsigned e = nin / 4 * 4; e < nin && ok; e++)
            lds[e] = in[in0 + e];
        for (unsigned v = 0; v < (nout + 3) / 4 && ok; v++) {
            float r[4];
            gp_padding_staged_group(lds, v * 4, nout, &g, r);
            for (unsigned k = 0; k < 4 && v * 4 + k < nout; k++)
                got[out0 + v * 4 + k] = r[k];
        }
    }
    ok = ok && memcmp(got, ref, no * 4) == 0;
    free(in), free(ref), free(got), free(lds);
    return ok;
}

GP_TEST(padding_staged_emulated)
{
    uint64_t rng = 11;
    const gp_padding_shape shapes[] = {{1, 1, 1, 1, 0, 0, 0, 0}, {2, 3, 5, 7, 1, 2, 3, 0}, {17, 33, 7, 7, 3, 3, 3, 3},
                                       {3, 5, 4, 4, 2, 1, 1, 2}, {2, 2, 33, 1, 0, 9, 4, 4}, {4, 9, 13, 11, 0, 0, 0, 0}};
    const unsigned Ps[] = {4, 8, 16, 64};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t k = 0; k < 4; k++)
            GP_CHECK(staged_emulated_ok(&shapes[i], Ps[k], &rng));
    return 0;
}

GP_TEST(padding_staged_fit_and_usable)
{
    gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    gp_padding_params p = {512, 8, 6, ""};
    gp_padding_params_fit(&p, &d);
    GP_CHECK(p.planes_per_block == 4 && strstr(p.note, "planes_per_block"));
    p = (gp_padding_params){512, 8, 1000, ""};
    gp_padding_params_fit(&p, &d);
    GP_CHECK(p.planes_per_block == GP_PADDING_MAX_PLANES);
    p = (gp_padding_params){512, 8, 0, ""};
    gp_padding_params_fit(&p, &d);
    GP_CHECK(p.planes_per_block == 0 && p.note[0] == '\0');
    /* Usable: 64 planes of 7x7 = 12544 B of shared memory, aligned input. */
    const gp_padding_shape seed = {1024, 1024, 7, 7, 3, 3, 3, 3}, big = {1, 64, 56, 56, 1, 2, 0, 3};
    const char *a = (const char *)(uintptr_t)0x100000;
    p.planes_per_block = 64;
    GP_CHECK(gp_padding_staged_usable(&p, &seed, a));
    GP_CHECK(!gp_padding_staged_usable(&p, &seed, a + 4));  /* input not 16-byte aligned */
    GP_CHECK(!gp_padding_staged_usable(&p, &big, a));       /* 64 x 12544 B > 48 KiB */
    /* The host stages only planes up to the 7x7 reference the rule sized P
     * for (196 B): 1x49 yes; 1x50 and 8x8 (256 B; 64 of them fit 48 KiB)
     * run flat; 128 planes of 7x7 (25 KiB) still stage. */
    const gp_padding_shape row49 = {2, 8, 1, 49, 1, 1, 1, 1}, row50 = {2, 8, 1, 50, 1, 1, 1, 1},
                           p8x8 = {2, 64, 8, 8, 1, 1, 1, 1};
    GP_CHECK(gp_padding_staged_usable(&p, &row49, a));
    GP_CHECK(!gp_padding_staged_usable(&p, &row50, a));
    GP_CHECK(!gp_padding_staged_usable(&p, &p8x8, a));
    p.planes_per_block = 128;
    GP_CHECK(gp_padding_staged_usable(&p, &seed, a));
    p.planes_per_block = 0;
    GP_CHECK(!gp_padding_staged_usable(&p, &seed, a));
    /* Unfitted planes are refused before any device call. */
    gp_padding_params q = {512, 8, 6, ""};
    gp_status st = gp_padding_f32((const float *)a, (float *)(uintptr_t)0x80000000, &seed, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    /* The optional key: absent is 0; a value is read and shown (the shipped
     * H200 table: the rule's 64). */
    gp_table t;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_padding_params r;
    GP_CHECK(from_table(&t, &d, &r).code == GP_OK && r.planes_per_block == 64);
    t.e[gp_table_key_index("kernel.padding", "planes_per_block")].present = 0;
    GP_CHECK(from_table(&t, &d, &r).code == GP_OK && r.planes_per_block == 0);
    GP_CHECK(gp_table_set(&t, "kernel.padding", "planes_per_block", 32, "rule tune_candidate").code == GP_OK);
    GP_CHECK(from_table(&t, &d, &r).code == GP_OK && r.planes_per_block == 32);
    char buf[160];
    gp_kernel_params_text(&gp_kernel_padding, &r, buf, sizeof buf);
    GP_CHECK(strstr(buf, "planes_per_block=32") != NULL);
    /* The tune sweep checks the rule's 64 from both sides and against the
     * flat kernel: the base (64), 16, 32 and 128 staged, the flat table
     * values among the flat rows; the variants are distinct rows (tune
     * leaves out one equal to the base or to an earlier one). */
    const gp_kernel *k = gp_kernel_find("padding");
    int n = 0, staged = 0, flat_base = 0;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(k && k->nvariants > 3 && from_table(&t, &d, &r).code == GP_OK);
    gp_padding_params seen[32];
    seen[n++] = r;
    staged += r.planes_per_block > 0;
    for (int v = 0; v < k->nvariants; v++) {
        for (int j = 0; j < v; j++)
            GP_CHECK(memcmp(k->variants + v * k->nparams, k->variants + j * k->nparams, sizeof(int) * 3));
        gp_kernel_variant(k, v, &seen[0], &d, &r);
        GP_CHECK(r.note[0] == '\0');
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= gp_params_same(k->params, k->nparams, &seen[j], &r);
        if (dup)
            continue;
        staged += r.planes_per_block > 0;
        flat_base += r.planes_per_block == 0 && r.block == 512 && r.items_per_thread == 16;
        seen[n++] = r;
    }
    GP_CHECK(staged == 4 && flat_base == 1);
    return 0;
}

/* planes_per_block follows the shape through gp_kernel_params on a ruled
 * table (sm_90): the 7x7 headline padded by 3 (the output 3.45x the input)
 * keeps the rule's 64; 64x64 4x4 planes (64 B, Little's 128) are cut to 16
 * so that each of the 132 SMs gets a block (4096 / 132 = 31), and padded by
 * 1 (2.25x) they stage because 256 blocks of 16 are one wave of the 528
 * resident; 56x56 (rows of a sector and more) and 8x8 (over the 196 B the
 * host stages) run flat.  items_per_thread does not follow the load share:
 * 8 (a thread's outputs per round trip), halved to 4 where the grid is short
 * (64x64x8x8: 262144 outputs are 0.24 rounds of the 135168 resident
 * threads at 8). */
GP_TEST(padding_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_padding_rule(&in, &ruled).code == GP_OK);
    static const struct {
        const char *spec;
        int planes, items;
    } want[] = {{"1024x1024x7x7 pad t3 b3 l3 r3", 64, 8},
                {"64x64x4x4 pad 1", 16, 8},
                {"64x64x56x56 pad t1 b2 l0 r3", 0, 8},
                {"64x64x8x8", 0, 4}};
    char note[160];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_shape s;
        gp_padding_params p;
        GP_CHECK(gp_kernel_padding.shape_parse(want[i].spec, &s).code == GP_OK);
        GP_CHECK(gp_kernel_params(&gp_kernel_padding, &ruled, NULL, &s, 0, &p, note, sizeof note).code == GP_OK);
        GP_CHECK(p.planes_per_block == want[i].planes && p.items_per_thread == want[i].items && p.block == 512);
    }
    GP_CHECK(strstr(note, "planes_per_block 64->0"));
    static gp_table out;
    const gp_table_entry *e = gp_test_rule_for(&gp_kernel_padding, &t, "64x64x8x8", "planes_per_block", &out);
    GP_CHECK(e && e->i == 0 && strstr(e->prov, "8x8 plane 256 B > the 196 B"));
    /* 7x7 padded by 1 (1.65x): 65536 planes fit one wave in 512 blocks of
     * 128 (528 resident at 4 a SM) -> staged; 131072 planes fit no wave of
     * up to 128 -> flat; 4096 planes padded by 3: 16 a block (the fill). */
    static const struct {
        const char *spec, *why;
        long long planes;
    } wave[] = {{"128x512x7x7 pad 1", "65536 planes in 512 blocks of 128 <= 528 resident", 128},
                {"256x512x7x7 pad 1", "131072 planes in no single even wave", 0},
                {"16x256x7x7 pad 3", "output 3.45x the input", 16},
                {"8x8x7x7 pad 1", "64 planes < 4 a CU", 0},
                {"200x300x7x7 pad 1", "60000 planes in no single even wave", 0}};
    for (size_t i = 0; i < sizeof wave / sizeof wave[0]; i++) {
        e = gp_test_rule_for(&gp_kernel_padding, &t, wave[i].spec, "planes_per_block", &out);
        if (!e || e->i != wave[i].planes || !strstr(e->prov, wave[i].why))
            fprintf(stderr, "%s: %lld (%s)\n", wave[i].spec, e ? e->i : -1, e ? e->prov : "none");
        GP_CHECK(e && e->i == wave[i].planes && strstr(e->prov, wave[i].why));
    }
    /* The rounds: 8x3x224x224 padded by 3 is 1.17 rounds at 8 items -> 4;
     * 128x256x14x14 by 1 is 7.8 rounds -> Little's 8; 200x300x7x7 by 1 (flat:
     * 469 blocks of 128 would put 4 on the busiest SM, 13 % over the mean)
     * 4.5 rounds -> 8. */
    static const struct {
        const char *spec;
        long long items;
    } rounds[] = {{"8x3x224x224 pad 3", 4}, {"128x256x14x14 pad 1", 8}, {"200x300x7x7 pad 1", 8}};
    for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++) {
        e = gp_test_rule_for(&gp_kernel_padding, &t, rounds[i].spec, "items_per_thread", &out);
        GP_CHECK(e && e->i == rounds[i].items);
        GP_CHECK(rounds[i].items == 8 || strstr(e->prov, "1.17 rounds < 4"));
    }
    return 0;
}

/* Today's bench labels parse and print back; the short forms mean what
 * they say; the cases are shapes the kernel takes. */
GP_TEST(padding_shape_syntax)
{
    const gp_kernel *k = &gp_kernel_padding;
    static const char *const labels[] = {"64x64x56x56 pad t1 b2 l0 r3", "1024x1024x7x7 pad t3 b3 l3 r3"};
    char buf[96];
    gp_shape s;
    for (size_t i = 0; i < 2; i++) {
        GP_CHECK(k->shape_parse(labels[i], &s).code == GP_OK);
        k->shape_label(&s, buf, sizeof buf);
        GP_CHECK(!strcmp(buf, labels[i]));
    }
    GP_CHECK(s.d[GP_PAD_N] == 1024 && s.d[GP_PAD_W] == 7 && s.d[GP_PAD_RIGHT] == 3);
    GP_CHECK(k->shape_parse("2x3x5x7 pad 2", &s).code == GP_OK);
    k->shape_label(&s, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "2x3x5x7 pad t2 b2 l2 r2"));
    GP_CHECK(k->shape_parse("2x3x5x7", &s).code == GP_OK && s.d[GP_PAD_TOP] == 0 && s.d[GP_PAD_RIGHT] == 0);
    GP_CHECK(k->shape_parse("2x3x5x7 pad t1 b2", &s).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("2x3x5x7 pad -1", &s).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("2x3x5x7 pad 1 extra", &s).code == GP_ERR_USAGE);
    gp_kernel_work w;
    GP_CHECK(gp_kernel_work_of_label(k, labels[0], &w).code == GP_OK &&
             w.bytes == 4.0 * (64 * 64 * 56 * 56 + 64 * 64 * 59 * 59));
    static gp_kcase c[GP_KCASE_MAX];
    int n = k->cases(GP_CASES_BENCH, NULL, NULL, 0, c, GP_KCASE_MAX);
    GP_CHECK(n == 2 && (c[0].flags & GP_KCASE_PAIR) && (c[1].flags & GP_KCASE_REPORT));
    k->shape_label(&c[1].shape, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, labels[0]));
    n = k->cases(GP_CASES_VERIFY, NULL, NULL, 0, c, GP_KCASE_MAX);
    GP_CHECK(n == 9);
    for (int i = 0; i < n; i++) {
        gp_padding_shape ps = {(int)c[i].shape.d[0], (int)c[i].shape.d[1], (int)c[i].shape.d[2], (int)c[i].shape.d[3],
                               (int)c[i].shape.d[4], (int)c[i].shape.d[5], (int)c[i].shape.d[6], (int)c[i].shape.d[7]};
        GP_CHECK(gp_padding_check_shape(&ps).code == GP_OK);
    }
    return 0;
}
