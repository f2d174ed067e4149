/* reduce on the CPU: references against hand-computed sums (int32
 * wrapping), the summation depth and error bound against a float model of
 * the GPU's addition order, parameters from every shipped table clamped to
 * several devices, the variants, parameters that follow the shape, and bad
 * arguments refused before any device call. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "reduce.h"
#include "table.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_reduce_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_reduce, t, dev, NULL, 0, p, note, sizeof note);
}

GP_TEST(reduce_ref_hand)
{
    const float x[5] = {1.0f, 2.0f, 3.5f, -4.0f, 0.25f};
    double a = -1;
    GP_CHECK(gp_reduce_ref_f32(x, 5, &a) == 2.75);
    GP_CHECK(a == 10.75);
    GP_CHECK(gp_reduce_ref_f32(x, 0, &a) == 0.0 && a == 0.0); /* empty: 0 */
    GP_CHECK(gp_reduce_ref_f32(x, 1, NULL) == 1.0);
    /* fp32 values a float sum would lose: the double reference keeps them. */
    const float y[3] = {16777216.0f, 1.0f, 1.0f};
    GP_CHECK(gp_reduce_ref_f32(y, 3, NULL) == 16777218.0);
    return 0;
}

GP_TEST(reduce_ref_i32_wraps)
{
    const int32_t a[2] = {INT32_MAX, 1};
    GP_CHECK(gp_reduce_ref_i32(a, 2) == INT32_MIN);
    const int32_t b[2] = {INT32_MIN, -1};
    GP_CHECK(gp_reduce_ref_i32(b, 2) == INT32_MAX);
    const int32_t c[4] = {INT32_MIN, INT32_MIN, 5, -7};
    GP_CHECK(gp_reduce_ref_i32(c, 4) == -2);
    GP_CHECK(gp_reduce_ref_i32(c, 0) == 0);
    GP_CHECK(gp_reduce_ref_i32(c + 2, 1) == 5);
    /* Random full-range values against the exact 64-bit sum modulo 2^32. */
    unsigned long long rng = 3;
    int32_t x[1000];
    long long exact = 0;
    for (int i = 0; i < 1000; i++) {
        x[i] = (int32_t)(long long)((gp_test_rand(&rng) - 0.5) * 4294967295.0);
        exact += x[i];
    }
    long long m = ((exact % 4294967296LL) + 4294967296LL) % 4294967296LL;
    long long want = m >= 2147483648LL ? m - 4294967296LL : m;
    GP_CHECK(gp_reduce_ref_i32(x, 1000) == (int32_t)want);
    return 0;
}

GP_TEST(reduce_depth_by_hand)
{
    gp_reduce_params p;
    memset(&p, 0, sizeof p);
    p.block = 256, p.items_per_thread = 4, p.grid_per_cu = 4, p.grid = 528;
    /* n = 2^28, aligned: 2^26 vectors, 528 x 256 x 4 = 540672 per pass ->
     * 125 passes; + 2 (tree over 4 loads) + 1 (head/tail) + 2 (lanes) + 10
     * (block: 2 x log2 32) + 8 + 5 (a group of 256 partials: 8 per lane,
     * butterfly) + 1 + 5 (3 groups: 1 per lane, butterfly). */
    GP_CHECK(gp_reduce_f32_depth(&p, (size_t)1 << 28, 0, 32) == 125 + 2 + 1 + 2 + 10 + 13 + 6);
    /* wave 64: 2 x 6 in the block, 4 + 6 per group, 1 + 6 over the groups. */
    GP_CHECK(gp_reduce_f32_depth(&p, (size_t)1 << 28, 0, 64) == 125 + 2 + 1 + 2 + 12 + 10 + 7);
    /* One element: the grid shrinks to one block (one group: no second
     * level); 0 passes. */
    GP_CHECK(gp_reduce_f32_depth(&p, 1, 1, 32) == 0 + 2 + 1 + 2 + 10 + 1 + 5);
    GP_CHECK(gp_reduce_f32_depth(&p, 0, 0, 32) == 0);
    /* One pass: 2^28 elements, 256 x 2 x 4 per block -> 2^17 blocks (the cap
     * is 2^20): 1 pass, 512 groups of 256 -> 16 per lane over the groups. */
    p.items_per_thread = 2, p.one_pass = 1, p.grid = GP_REDUCE_ONE_PASS_MAX_GRID;
    GP_CHECK(gp_reduce_grid_for(&p, (size_t)1 << 28) == 1 << 17);
    GP_CHECK(gp_reduce_f32_depth(&p, (size_t)1 << 28, 0, 32) == 1 + 1 + 1 + 2 + 10 + 13 + (16 + 5));
    /* Bound: d u / (1 - d u) x sum|x|. */
    double u = ldexp(1.0, -24);
    GP_CHECK_NEAR(gp_reduce_f32_bound(153, 2.0), 2.0 * 153 * u / (1 - 153 * u), 1e-18);
    GP_CHECK(gp_reduce_f32_bound(0, 5.0) == 0.0);
    GP_CHECK(isinf(gp_reduce_f32_bound(1 << 24, 1.0)));
    return 0;
}

GP_TEST(reduce_grid_for_length)
{
    gp_reduce_params p;
    memset(&p, 0, sizeof p);
    p.block = 256, p.items_per_thread = 4, p.grid_per_cu = 4;
    gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    gp_reduce_params_fit(&p, &d);
    GP_CHECK(p.grid == 528);
    GP_CHECK(gp_reduce_grid_for(&p, 0) == 1);
    GP_CHECK(gp_reduce_grid_for(&p, 4096) == 1);           /* one block x 4 vectors x 4 */
    GP_CHECK(gp_reduce_grid_for(&p, 4097) == 2);
    GP_CHECK(gp_reduce_grid_for(&p, (size_t)1 << 20) == 256);
    GP_CHECK(gp_reduce_grid_for(&p, (size_t)1 << 28) == 528);
    return 0;
}

/* The GPU's order of additions, in float, for the bound check: per thread
 * and pass a pairwise tree over its U loaded vectors (missing ones zero in
 * the last pass) added to one vector accumulator, head and tail into lanes x
 * and y, lanes (x+y)+(z+w), butterfly over each wave, the same over the wave
 * sums; then per group of GP_RED_GROUP blocks and over the groups: lane l of
 * one wave adds values l, l + w, ... serially, then the butterfly. */
static float wave_butterfly(float *v, int w)
{
    for (int o = w / 2; o > 0; o /= 2) {
        float t[64];
        for (int l = 0; l < w; l++)
            t[l] = v[l] + v[l ^ o];
        memcpy(v, t, (size_t)w * sizeof(float));
    }
    return v[0];
}

static float block_tree(const float *t, int block, int w)
{
    float ws[64], lane[64];
    int nw = block / w;
    for (int k = 0; k < nw; k++) {
        memcpy(lane, t + k * w, (size_t)w * sizeof(float));
        ws[k] = wave_butterfly(lane, w);
    }
    for (int l = 0; l < w; l++)
        lane[l] = l < nw ? ws[l] : 0.0f;
    return wave_butterfly(lane, w);
}

static float wave_sum_of(const float *p, int n, int w)
{
    float lane[64];
    for (int l = 0; l < w; l++) {
        float s = 0.0f;
        for (int j = l; j < n; j += w)
            s += p[j];
        lane[l] = s;
    }
    return wave_butterfly(lane, w);
}

static float model_sum(const float *x, size_t n, size_t head, const gp_reduce_params *p, int w)
{
    int grid = gp_reduce_grid_for(p, n), B = p->block, U = p->items_per_thread;
    size_t nv = (n - head) / 4, tail = n - head - 4 * nv, stride = (size_t)grid * B * U;
    float *partials = malloc((size_t)grid * sizeof(float)), *t = malloc((size_t)B * sizeof(float));
    for (int b = 0; b < grid; b++) {
        for (int th = 0; th < B; th++) {
            float acc[4] = {0, 0, 0, 0}, v[16][4];
            size_t i = (size_t)b * B * U + th;
            for (; i < nv; i += stride) { /* full passes and the last, partial one */
                for (int u = 0; u < U; u++)
                    for (int e = 0; e < 4; e++)
                        v[u][e] = i + (size_t)u * B < nv ? x[head + 4 * (i + (size_t)u * B) + e] : 0.0f;
                for (int s = U / 2; s > 0; s /= 2)
                    for (int u = 0; u < s; u++)
                        for (int e = 0; e < 4; e++)
                            v[u][e] += v[u + s][e];
                for (int e = 0; e < 4; e++)
                    acc[e] += v[0][e];
            }
            size_t g = (size_t)b * B + th;
            if (g < head)
                acc[0] += x[g];
            if (g < tail)
                acc[1] += x[head + 4 * nv + g];
            t[th] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        }
        partials[b] = block_tree(t, B, w);
    }
    int G = (int)GP_RED_GROUP, ngroups = (grid + G - 1) / G;
    float *gp = malloc((size_t)ngroups * sizeof(float));
    for (int k = 0; k < ngroups; k++)
        gp[k] = wave_sum_of(partials + (size_t)k * G, grid - k * G < G ? grid - k * G : G, w);
    float r = ngroups == 1 ? gp[0] : wave_sum_of(gp, ngroups, w);
    free(partials), free(t), free(gp);
    return r;
}

GP_TEST(reduce_bound_holds_for_the_gpu_order)
{
    /* Persistent (8 blocks, 37 passes) and one pass (1172 blocks: 5 groups). */
    gp_reduce_params ps[2];
    memset(ps, 0, sizeof ps);
    ps[0].block = 64, ps[0].items_per_thread = 4, ps[0].grid_per_cu = 2;
    ps[1].block = 64, ps[1].items_per_thread = 1, ps[1].one_pass = 1;
    gp_device_info d = gp_test_fake_dev(32, 1024, 4);
    gp_reduce_params_fit(&ps[0], &d);
    gp_reduce_params_fit(&ps[1], &d);
    const size_t n = 300001;
    GP_CHECK(gp_reduce_grid_for(&ps[1], n) == 1172);
    float *x = malloc(n * sizeof(float));
    GP_CHECK(x);
    unsigned long long rng = 5;
    for (int c = 0; c < 4; c++) {
        const gp_reduce_params p = ps[c / 2];
        const int w = 32 << (c % 2);
        for (int kind = 0; kind < 3; kind++) {
            for (size_t i = 0; i < n; i++) {
                double r = gp_test_rand(&rng);
                /* 0: uniform [-1, 1); 1: all positive, spread over 2^20 in
                 * magnitude; 2: one huge value the small ones get lost against. */
                x[i] = kind == 0 ? (float)(2 * r - 1) : kind == 1 ? (float)ldexp(1.0 + r, (int)(r * 20)) : 1.0f;
            }
            if (kind == 2)
                x[0] = 16777216.0f;
            for (size_t head = 0; head < 4; head += 3) {
                double sum_abs, ref = gp_reduce_ref_f32(x, n, &sum_abs);
                float got = model_sum(x, n, head, &p, w);
                int depth = gp_reduce_f32_depth(&p, n, head, w);
                double err = fabs((double)got - ref), bound = gp_reduce_f32_bound(depth, sum_abs);
                if (!(err <= bound))
                    fprintf(stderr, "kind %d wave %d head %zu: error %g > bound %g (depth %d)\n", kind, w, head,
                            err, bound, depth);
                GP_CHECK(err <= bound);
                /* The bound is not vacuous: well below the magnitudes summed. */
                GP_CHECK(bound < 1e-3 * sum_abs);
            }
        }
    }
    /* The model drops nothing: small integers sum exactly. */
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)(gp_test_rand(&rng) * 17) - 8);
    GP_CHECK((double)model_sum(x, n, 1, &ps[0], 32) == gp_reduce_ref_f32(x, n, NULL));
    GP_CHECK((double)model_sum(x, n, 3, &ps[1], 64) == gp_reduce_ref_f32(x, n, NULL));
    free(x);
    return 0;
}

GP_TEST(reduce_params_from_tables)
{
    gp_table t;
    gp_reduce_params p;
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    GP_CHECK(gp_test_load_shipped("generic", &t));
    GP_CHECK(from_table(&t, &h200, &p).code == GP_OK);
    /* generic's rule values: 8 resident blocks of 256 at 32 registers, streamed (1 GiB > its 1 MiB L2) */
    GP_CHECK(p.block == 256 && p.items_per_thread == 4 && p.grid_per_cu == 8 && p.grid == 1056 && !p.note[0]);
    GP_CHECK(p.one_pass == 0 && p.stream == 1);
    char b[192];
    gp_kernel_params_text(&gp_kernel_reduce, &p, b, sizeof b);
    GP_CHECK(strstr(b, "block=256") && strstr(b, "grid_per_cu=8") && strstr(b, "stream=1"));
    /* The optional keys are read; absent, they are 0. */
    gp_table u = t;
    GP_CHECK(gp_table_set(&u, "kernel.reduce", "one_pass", 1, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&u, "kernel.reduce", "stream", 1, "rule test").code == GP_OK);
    GP_CHECK(from_table(&u, &h200, &p).code == GP_OK);
    GP_CHECK(p.one_pass == 1 && p.stream == 1 && p.grid == GP_REDUCE_ONE_PASS_MAX_GRID);
    gp_table_init(&u);
    GP_CHECK(gp_table_set(&u, "kernel.reduce", "block", 128, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&u, "kernel.reduce", "items_per_thread", 2, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&u, "kernel.reduce", "grid_per_cu", 2, "rule test").code == GP_OK);
    GP_CHECK(from_table(&u, &h200, &p).code == GP_OK);
    GP_CHECK(p.block == 128 && p.items_per_thread == 2 && p.grid == 264 && p.one_pass == 0 && p.stream == 0);
    gp_table_init(&t);
    GP_CHECK(from_table(&t, &h200, &p).code == GP_ERR_USAGE);
    /* Every shipped table on every kind of device: a block the kernel for
     * its vector count is compiled for, whole waves, within the device. */
    gp_device_info devs[3] = {gp_test_fake_dev(32, 1024, 132), gp_test_fake_dev(64, 1024, 64), gp_test_fake_dev(64, 256, 8)};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        GP_CHECK(gp_test_load_shipped(table_names[i], &t));
        for (int k = 0; k < 3; k++) {
            GP_CHECK(from_table(&t, &devs[k], &p).code == GP_OK);
            GP_CHECK(p.block >= devs[k].wave_size && p.block <= devs[k].max_threads_per_block);
            GP_CHECK(!(p.block & (p.block - 1)) && !(p.items_per_thread & (p.items_per_thread - 1)) && p.items_per_thread <= GP_REDUCE_MAX_VECS);
            GP_CHECK(p.grid == p.grid_per_cu * devs[k].compute_units);
        }
    }
    return 0;
}

GP_TEST(reduce_params_clamped)
{
    gp_device_info d = gp_test_fake_dev(64, 1024, 10);
    gp_reduce_params p;
    memset(&p, 0, sizeof p);
    p.block = 1024, p.items_per_thread = 64, p.grid_per_cu = 100;
    gp_reduce_params_fit(&p, &d);
    GP_CHECK(p.items_per_thread == 16 && p.block == 256 && p.grid_per_cu == 64 && p.grid == 640 && p.note[0]);
    memset(&p, 0, sizeof p);
    p.block = 32, p.items_per_thread = 3, p.grid_per_cu = 0;
    gp_reduce_params_fit(&p, &d);
    GP_CHECK(p.items_per_thread == 2 && p.block == 64 && p.grid_per_cu == 1 && p.grid == 10);
    memset(&p, 0, sizeof p);
    p.block = 600, p.items_per_thread = 8, p.grid_per_cu = 2;
    gp_reduce_params_fit(&p, &d);
    GP_CHECK(p.block == 512 && p.items_per_thread == 8);
    /* The persistent grid is what a CU holds at once: 2048 threads and 64K
     * registers per CU; U <= 4 stays within 32 registers, U = 8 within 64,
     * U = 16 within 128. */
    gp_device_info h = gp_test_fake_dev(32, 1024, 132);
    h.max_threads_per_cu = 2048, h.regs_per_cu = 65536;
    const int cases[][4] = {/* block, U, grid_per_cu asked, kept */
                            {256, 4, 8, 8},  {256, 2, 16, 8}, {1024, 2, 4, 2}, {256, 8, 8, 4},
                            {512, 8, 2, 2},  {256, 16, 4, 2}, {128, 8, 8, 8},  {64, 1, 64, 32}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&p, 0, sizeof p);
        p.block = cases[i][0], p.items_per_thread = cases[i][1], p.grid_per_cu = cases[i][2];
        gp_reduce_params_fit(&p, &h);
        GP_CHECK(p.grid_per_cu == cases[i][3] && p.grid == 132 * cases[i][3]);
        GP_CHECK(!!p.note[0] == (cases[i][2] != cases[i][3]));
    }
    /* One pass: grid_per_cu unused, the grid is the cap. */
    memset(&p, 0, sizeof p);
    p.block = 256, p.items_per_thread = 4, p.grid_per_cu = 3, p.one_pass = 7, p.stream = 2;
    gp_reduce_params_fit(&p, &h);
    GP_CHECK(p.one_pass == 1 && p.stream == 1 && p.grid == GP_REDUCE_ONE_PASS_MAX_GRID && !p.note[0]);
    GP_CHECK(gp_reduce_grid_for(&p, (size_t)1 << 28) == 1 << 16);
    GP_CHECK(gp_reduce_grid_for(&p, 4097) == 2);
    char b[192];
    gp_kernel_params_text(&gp_kernel_reduce, &p, b, sizeof b);
    GP_CHECK(strstr(b, "one_pass=1") && strstr(b, "stream=1"));
    /* Workspace: 16 + 4 x (2 x groups + grid) bytes. */
    GP_CHECK(gp_reduce_ws_bytes(528) == 16 + 4 * (2 * 3 + 528));
    GP_CHECK(gp_reduce_ws_bytes(256) == 16 + 4 * (2 * 1 + 256));
    GP_CHECK(gp_reduce_ws_bytes(GP_REDUCE_ONE_PASS_MAX_GRID) == 16 + 4 * (2 * 4096 + (1 << 20)));
    return 0;
}

GP_TEST(reduce_bad_arguments)
{
    gp_reduce_params p;
    memset(&p, 0, sizeof p);
    p.block = 256, p.items_per_thread = 4, p.grid_per_cu = 4;
    gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    gp_reduce_params_fit(&p, &d);
    gp_reduce_ws ws = {(void *)(uintptr_t)0x40000, gp_reduce_ws_bytes(528), 528};
    gp_reduce_ws small = {(void *)(uintptr_t)0x40000, 16 + 4, 1};
    const float *x = (const float *)(uintptr_t)0x100000;
    float *out = (float *)(uintptr_t)0x200000;
    /* Every refusal happens before a device call (these pointers are fake). */
    GP_CHECK(gp_reduce_sum_f32(x, 100, NULL, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_reduce_sum_f32(NULL, 100, out, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_reduce_sum_f32(x, 100, out, NULL, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_reduce_sum_f32(x, 100, out, &ws, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_reduce_sum_f32((const float *)((const char *)x + 2), 100, out, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_reduce_sum_i32((const int32_t *)x, 100, (int32_t *)((char *)out + 1), &ws, &p, NULL).code ==
             GP_ERR_USAGE);
    gp_status st = gp_reduce_sum_f32(x, (size_t)1 << 24, out, &small, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "workspace"));
    GP_CHECK(gp_reduce_sum_f32(x, SIZE_MAX / 2, out, &ws, &p, NULL).code == GP_ERR_USAGE);
    gp_reduce_params q = p;
    q.items_per_thread = 3;
    st = gp_reduce_sum_i32((const int32_t *)x, 100, (int32_t *)out, &ws, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = p;
    q.block = 1024, q.items_per_thread = 16; /* beyond the U = 16 kernel's register budget */
    GP_CHECK(gp_reduce_sum_f32(x, 100, out, &ws, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.stream = 2;
    GP_CHECK(gp_reduce_sum_f32(x, 100, out, &ws, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.grid = GP_REDUCE_ONE_PASS_MAX_GRID + 1;
    GP_CHECK(gp_reduce_sum_f32(x, 100, out, &ws, &q, NULL).code == GP_ERR_USAGE);
    /* A one-pass run of 2^24 elements needs 2^12 blocks: the 528-block workspace is too small. */
    q = p;
    q.one_pass = 1, q.grid = GP_REDUCE_ONE_PASS_MAX_GRID;
    st = gp_reduce_sum_f32(x, (size_t)1 << 24, out, &ws, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "workspace"));
    gp_reduce_ws w;
    GP_CHECK(gp_reduce_ws_create(&w, NULL).code == GP_ERR_USAGE && w.d == NULL);
    GP_CHECK(gp_reduce_ws_create(NULL, NULL).code == GP_ERR_USAGE);
    gp_reduce_ws_destroy(&w); /* safe on an empty workspace */
    return 0;
}

GP_TEST(reduce_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("reduce");
    GP_CHECK(k == &gp_kernel_reduce && k->cases && k->setup && k->run && k->check && k->prepare);
    GP_CHECK(k->nvariants > 4 && k->nvariants <= 31);
    gp_table base;
    GP_CHECK(gp_test_load_shipped("gfx900", &base));
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    gp_reduce_params p0, p;
    GP_CHECK(from_table(&base, &h200, &p0).code == GP_OK);
    int one = 0, cs = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &h200, &p);
        GP_CHECK(p.block >= 64 && p.block <= 1024 && p.grid >= 1);
        one += p.one_pass, cs += p.stream;
    }
    GP_CHECK(one > 0 && cs > 0 && one < k->nvariants);
    char b[192];
    gp_kernel_params_text(k, &p0, b, sizeof b);
    GP_CHECK(strstr(b, "block=") && strstr(b, "items_per_thread="));
    return 0;
}

/* The rule for the shape launched: an array within one sweep of the
 * persistent grid runs in one pass, one that fits the L2 is not streamed;
 * the headline keeps the table's values. */
GP_TEST(reduce_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_reduce_rule(&in, &ruled).code == GP_OK);
    gp_reduce_params big, small, head;
    char note[160];
    const gp_shape s_big = {{(long long)1 << 28}, {GP_REDUCE_FP32}};
    const gp_shape s_small = {{(long long)1 << 20}, {GP_REDUCE_INT32}};
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, NULL, 0, &head, note, sizeof note).code == GP_OK);
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s_big, 0, &big, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "as the table"));
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s_small, 0, &small, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "rule for this shape:") && strstr(note, "one_pass 0->1") && strstr(note, "stream 1->0"));
    GP_CHECK(head.one_pass == 0 && head.stream == 1 && big.one_pass == 0 && big.stream == 1);
    GP_CHECK(small.one_pass == 1 && small.stream == 0 && small.block == big.block);
    /* One element past one sweep of the persistent grid (8 x 132 blocks of
     * 256 x 4 vectors): persistent again. */
    const gp_shape s_sweep = {{8LL * 132 * 256 * 4 * 4 + 1}, {0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s_sweep, 0, &small, note, sizeof note).code == GP_OK);
    GP_CHECK(small.one_pass == 0);
    /* One pass within one group of the cross-block sum: 1 M elements are
     * 245 blocks of 256 x 4 vectors (one group, the block stays); 2 M would
     * be 489 and 4 M 977 (a second level), so the blocks grow to 512 and
     * 1024 (245 and 256 blocks), the resident threads unchanged. */
    gp_reduce_params m1, m2, m4;
    const gp_shape s1 = {{1000003}, {0}}, s2 = {{2000000}, {0}}, s4 = {{4000000}, {0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s1, 0, &m1, note, sizeof note).code == GP_OK);
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s2, 0, &m2, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "block 256->512"));
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, &ruled, NULL, &s4, 0, &m4, note, sizeof note).code == GP_OK);
    GP_CHECK(m1.one_pass && m2.one_pass && m4.one_pass && m1.block == 256 && m2.block == 512 && m4.block == 1024);
    GP_CHECK(m1.items_per_thread == 4 && m2.items_per_thread == 4 && m4.items_per_thread == 4);
    GP_CHECK(m2.block * m2.grid_per_cu == m1.block * m1.grid_per_cu &&
             m4.block * m4.grid_per_cu == m1.block * m1.grid_per_cu);
    static gp_table o;
    o = ruled;
    gp_rule_in in4 = {&t, &s4, 0};
    GP_CHECK(gp_reduce_rule(&in4, &o).code == GP_OK);
    GP_CHECK(strstr(gp_test_kernel_prov(&o, "reduce", "block"), "977 blocks of 256 x 4 vectors > 256"));
    return 0;
}

/* Every bench problem's label reads back as its shape (the report reads
 * committed CSVs by label), the committed labels parse, and the case lists
 * fit the driver's room. */
GP_TEST(reduce_labels_and_cases)
{
    const gp_kernel *k = &gp_kernel_reduce;
    static gp_kcase c[GP_KCASE_MAX];
    gp_device_info dev = gp_test_fake_dev(32, 1024, 132);
    gp_table t;
    gp_reduce_params p;
    char label[GP_BENCH_TEXT];
    gp_shape s;
    GP_CHECK(gp_test_load_shipped("sm_90", &t) && from_table(&t, &dev, &p).code == GP_OK);
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
            gp_reduce_params q;
            gp_kernel_variant(k, v, &p, &dev, &q);
            n = k->cases(GP_CASES_VARIANT, &q, &dev, quick, c, GP_KCASE_MAX);
            GP_CHECK(n >= 8 && n < GP_KCASE_MAX);
        }
    }
    GP_CHECK(k->shape_parse("2^28 int32", &s).code == GP_OK && s.d[0] == 1 << 28 && s.opt[0] == GP_REDUCE_INT32);
    GP_CHECK(k->shape_parse("1000", &s).code == GP_OK && s.d[0] == 1000 && s.opt[0] == GP_REDUCE_FP32);
    k->shape_label(&s, label, sizeof label);
    GP_CHECK(!strcmp(label, "1000 fp32"));
    GP_CHECK(k->shape_parse("not a label", &s).code == GP_ERR_USAGE);
    return 0;
}
