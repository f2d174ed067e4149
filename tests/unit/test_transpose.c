/* transpose on the CPU: the reference against hand-made cases, the
 * division-free tile mapping against '/', parameters from every shipped
 * table clamped to several devices, the tuning candidates, and bad arguments
 * refused before any device call. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "table.h"
#include "transpose.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

static gp_device_info fake_dev(int wave, int max_threads, size_t lds)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 132;
    d.wave_size = wave;
    d.max_threads_per_block = max_threads;
    d.max_block_dim[0] = max_threads, d.max_block_dim[1] = max_threads, d.max_block_dim[2] = 64;
    d.max_grid_dim[0] = 0x7fffffff;
    d.lds_per_block = lds;
    return d;
}

static int load_table(const char *name, gp_table *t)
{
    char rel[64];
    snprintf(rel, sizeof rel, "tables/%s", name);
    return gp_test_load_table(rel, t);
}

GP_TEST(transpose_ref_hand)
{
    /* [[1 2 3] [4 5 6]] -> [[1 4] [2 5] [3 6]] */
    const float in[6] = {1, 2, 3, 4, 5, 6};
    const float want[6] = {1, 4, 2, 5, 3, 6};
    float out[6];
    gp_transpose_ref_f32(in, out, 2, 3);
    GP_CHECK(!memcmp(out, want, sizeof want));
    /* 1 x N and N x 1 keep the memory order. */
    gp_transpose_ref_f32(in, out, 1, 6);
    GP_CHECK(!memcmp(out, in, sizeof in));
    gp_transpose_ref_f32(in, out, 6, 1);
    GP_CHECK(!memcmp(out, in, sizeof in));
    return 0;
}

GP_TEST(transpose_ref_blocked_matches_naive)
{
    /* Shapes across the reference's 32-element blocking, and the round trip. */
    const size_t shapes[][2] = {{33, 65}, {64, 32}, {1, 100}, {100, 1}, {31, 31}, {97, 3}};
    unsigned long long rng = 7;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t r = shapes[s][0], c = shapes[s][1], n = r * c;
        float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *back = malloc(n * sizeof(float));
        GP_CHECK(a && b && back);
        for (size_t i = 0; i < n; i++)
            a[i] = (float)gp_test_rand(&rng);
        gp_transpose_ref_f32(a, b, r, c);
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < c; j++)
                GP_CHECK(b[j * r + i] == a[i * c + j]);
        gp_transpose_ref_f32(b, back, c, r);
        GP_CHECK(!memcmp(a, back, n * sizeof(float)));
        free(a), free(b), free(back);
    }
    return 0;
}

GP_TEST(transpose_fastdiv_matches_division)
{
    unsigned long long rng = 11;
    const unsigned edges[] = {0u, 1u, 2u, 3u, 63u, 64u, 65u, 1000u, 65535u, 65536u, 0x7ffffffeu, 0x7fffffffu};
    for (unsigned d = 1; d < 3000; d++) {
        gp_transpose_fastdiv f = gp_transpose_fastdiv_make(d);
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
            unsigned n = edges[i];
            GP_CHECK(gp_transpose_fastdiv_apply(n, f) == n / d);
            if (n >= 1)
                GP_CHECK(gp_transpose_fastdiv_apply(n - 1, f) == (n - 1) / d);
        }
        for (int k = 0; k < 200; k++) {
            unsigned n = (unsigned)(gp_test_rand(&rng) * 2147483647.0);
            GP_CHECK(gp_transpose_fastdiv_apply(n, f) == n / d);
            unsigned m = d * (unsigned)(k + 1); /* exact multiples and their neighbours */
            if (m < 0x7fffffffu && m / (unsigned)(k + 1) == d) {
                GP_CHECK(gp_transpose_fastdiv_apply(m, f) == m / d);
                GP_CHECK(gp_transpose_fastdiv_apply(m - 1, f) == (m - 1) / d);
            }
        }
    }
    /* Large divisors, including powers of two and 2^31 - 1. */
    for (int k = 0; k < 20000; k++) {
        unsigned d = 1u + (unsigned)(gp_test_rand(&rng) * 2147483646.0);
        if (k < 31)
            d = 1u << k;
        gp_transpose_fastdiv f = gp_transpose_fastdiv_make(d);
        unsigned n = (unsigned)(gp_test_rand(&rng) * 2147483647.0);
        GP_CHECK(gp_transpose_fastdiv_apply(n, f) == n / d);
        GP_CHECK(gp_transpose_fastdiv_apply(0x7fffffffu, f) == 0x7fffffffu / d);
    }
    return 0;
}

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_transpose_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_transpose, t, dev, NULL, 0, p, note, sizeof note);
}

static void format(const gp_transpose_params *p, char *b, size_t n)
{
    gp_kernel_params_text(&gp_kernel_transpose, p, b, n);
}

GP_TEST(transpose_params_from_generic)
{
    gp_table t;
    gp_transpose_params p;
    GP_CHECK(load_table("generic", &t));
    gp_device_info h200 = fake_dev(32, 1024, 48 * 1024);
    GP_CHECK(from_table(&t, &h200, &p).code == GP_OK);
    /* generic's rule values: the bank tile (no bandwidth to model dispatch), column order and streamed stores
     * (the move exceeds its 1 MiB L2) */
    GP_CHECK(p.tile == 32 && p.pad == 1 && p.block_rows == 8 && p.vec == 1 && p.group == 256);
    GP_CHECK(p.swizzle == 0 && p.stream == 2 && p.tiles_per_block == 1);
    GP_CHECK(p.note[0] == '\0');
    char b[192];
    format(&p, b, sizeof b);
    GP_CHECK(strstr(b, "tile=32") && strstr(b, "block_rows=8") && strstr(b, "stream=2"));
    /* The new optional keys are read. */
    gp_table w = t;
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "tile", 64, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "block_rows", 16, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "vec", 4, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "swizzle", 1, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "stream", 3, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&w, "kernel.transpose", "tiles_per_block", 4, "rule test").code == GP_OK);
    GP_CHECK(from_table(&w, &h200, &p).code == GP_OK);
    GP_CHECK(p.tile == 64 && p.block_rows == 16 && p.vec == 4 && p.swizzle == 1 && p.stream == 3 &&
             p.tiles_per_block == 4 && p.note[0] == '\0');
    format(&p, b, sizeof b);
    GP_CHECK(strstr(b, "swizzle=1 stream=3 tiles_per_block=4"));
    /* The optional keys absent: the classic kernel. */
    gp_table u = t;
    gp_table_init(&u);
    GP_CHECK(gp_table_set(&u, "kernel.transpose", "tile", 64, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&u, "kernel.transpose", "pad", 2, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&u, "kernel.transpose", "block_rows", 16, "rule test").code == GP_OK);
    GP_CHECK(from_table(&u, &h200, &p).code == GP_OK);
    GP_CHECK(p.tile == 64 && p.pad == 2 && p.block_rows == 16 && p.vec == 1 && p.group == 1);
    GP_CHECK(p.swizzle == 0 && p.stream == 0 && p.tiles_per_block == 1);
    /* A missing required key is an error, not a guess. */
    gp_table_init(&u);
    GP_CHECK(from_table(&u, &h200, &p).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(transpose_params_clamped_to_device)
{
    gp_transpose_params p;
    /* 64 x 16 = 1024 threads on a device of 256: more rows per thread. */
    gp_device_info small = fake_dev(64, 256, 64 * 1024);
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 1, p.block_rows = 16, p.vec = 1, p.group = 1;
    gp_transpose_params_fit(&p, &small);
    GP_CHECK(p.tile == 64 && p.block_rows == 4 && p.note[0]);
    /* More than 16 rows per thread is not compiled: block_rows raised. */
    gp_device_info big = fake_dev(32, 1024, 48 * 1024);
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 1, p.block_rows = 1, p.vec = 1, p.group = 1;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.block_rows == 4 && p.tile / p.block_rows <= GP_TRANSPOSE_MAX_ITEMS);
    /* Vectors only on tiles of 32 and 64; a vec of 3 becomes 2. */
    memset(&p, 0, sizeof p);
    p.tile = 16, p.pad = 1, p.block_rows = 4, p.vec = 4, p.group = 0;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.vec == 1 && p.group == 1);
    memset(&p, 0, sizeof p);
    p.tile = 32, p.pad = 1, p.block_rows = 8, p.vec = 3, p.group = 4;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.vec == 2 && p.group == 4);
    /* Shared memory of 4 KiB: a 32 x 33 tile (4224 bytes) does not fit. */
    gp_device_info tiny = fake_dev(32, 1024, 4096);
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 1, p.block_rows = 8, p.vec = 4, p.group = 1;
    gp_transpose_params_fit(&p, &tiny);
    GP_CHECK(p.tile == 16 && p.vec == 1 && (size_t)p.tile * (p.tile + p.pad) * 4 <= 4096);
    /* Swizzle and stream exist for tiles 32 and 64 only; the swizzle also
     * needs vec > 1 and at most 32 elements per thread. */
    memset(&p, 0, sizeof p);
    p.tile = 16, p.pad = 1, p.block_rows = 4, p.vec = 1, p.group = 1, p.swizzle = 1, p.stream = 3;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.swizzle == 0 && p.stream == 0 && strstr(p.note, "stream"));
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 1, p.block_rows = 8, p.vec = 1, p.group = 1, p.swizzle = 1, p.stream = 2;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.swizzle == 0 && p.stream == 2 && p.tiles_per_block == 1);
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 0, p.block_rows = 4, p.vec = 4, p.group = 1, p.swizzle = 1; /* 16 x 4 elements */
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.swizzle == 0 && strstr(p.note, "swizzle"));
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 0, p.block_rows = 16, p.vec = 4, p.group = 1, p.swizzle = 1, p.stream = 9,
    p.tiles_per_block = 1000;
    gp_transpose_params_fit(&p, &big);
    GP_CHECK(p.swizzle == 1 && p.stream == 3 && p.tiles_per_block == GP_TRANSPOSE_MAX_TILES_PER_BLOCK);
    memset(&p, 0, sizeof p);
    p.tile = 64, p.pad = 1, p.block_rows = 16, p.vec = 4, p.group = 1, p.swizzle = 1, p.tiles_per_block = 0;
    gp_transpose_params_fit(&p, &tiny); /* tile 16 on 4 KiB: vec 1, no swizzle */
    GP_CHECK(p.tile == 16 && p.vec == 1 && p.swizzle == 0 && p.tiles_per_block == 1);
    return 0;
}

/* The swizzled layout: a bijection onto the unpadded tile, chunks stay whole
 * (vector accesses aligned), and every quarter-warp (16-byte accesses) or
 * half-warp (8-byte) of the kernel's shared stores and loads touches distinct
 * bank groups.  Store: lanes tx (chunk) of one tile row r.  Load: lanes tx
 * read chunk cb of rows tx * vec + j. */
GP_TEST(transpose_swizzle_layout_conflict_free)
{
    for (int tile = 32; tile <= 64; tile *= 2) {
        for (int vec = 2; vec <= 4; vec *= 2) {
            int n = tile * tile, nc = tile / vec, phase = 128 / (4 * vec); /* lanes per 128-byte phase */
            unsigned char *seen = calloc((size_t)n, 1);
            GP_CHECK(seen);
            for (int r = 0; r < tile; r++)
                for (int c = 0; c < tile; c++) {
                    int a = GP_TRANSPOSE_SWZ_AT(r, c, tile, vec);
                    GP_CHECK(a >= 0 && a < n && !seen[a]);
                    seen[a] = 1;
                    /* A chunk's elements stay together and in order. */
                    GP_CHECK(a % vec == c % vec && a / tile == r);
                }
            free(seen);
            for (int r = 0; r < tile; r++) /* stores: one row, lanes tx = phase-aligned runs */
                for (int t0 = 0; t0 < nc; t0 += phase) {
                    int used = 0;
                    for (int tx = t0; tx < t0 + phase; tx++) {
                        int grp = (GP_TRANSPOSE_SWZ_AT(r, tx * vec, tile, vec) / vec) % phase;
                        GP_CHECK(!(used & (1 << grp)));
                        used |= 1 << grp;
                    }
                }
            for (int cb = 0; cb < nc; cb++) /* loads: chunk cb of rows tx * vec + j */
                for (int j = 0; j < vec; j++)
                    for (int t0 = 0; t0 < nc; t0 += phase) {
                        int used = 0;
                        for (int tx = t0; tx < t0 + phase; tx++) {
                            int grp = (GP_TRANSPOSE_SWZ_AT(tx * vec + j, cb * vec, tile, vec) / vec) % phase;
                            GP_CHECK(!(used & (1 << grp)));
                            used |= 1 << grp;
                        }
                    }
        }
    }
    /* The check can fail: without the XOR the column loads conflict. */
    int used = 0, conflict = 0;
    for (int tx = 0; tx < 8; tx++) {
        int grp = ((tx * 4) * 32 / 4) % 8; /* unswizzled chunk 0 of rows tx * 4 */
        conflict |= (used >> grp) & 1;
        used |= 1 << grp;
    }
    GP_CHECK(conflict);
    return 0;
}

/* Every shipped table on every kind of device gives parameters the GPU code
 * has a kernel for and the device can launch. */
GP_TEST(transpose_params_every_table_every_device)
{
    gp_device_info devs[4] = {fake_dev(32, 1024, 48 * 1024), fake_dev(64, 1024, 64 * 1024),
                              fake_dev(64, 256, 32 * 1024), fake_dev(32, 128, 16 * 1024)};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table t;
        GP_CHECK(load_table(table_names[i], &t));
        for (int d = 0; d < 4; d++) {
            gp_transpose_params p;
            GP_CHECK(from_table(&t, &devs[d], &p).code == GP_OK);
            int items = p.tile / p.block_rows;
            GP_CHECK(p.tile >= 8 && p.tile <= 64 && !(p.tile & (p.tile - 1)));
            GP_CHECK(p.tile % p.block_rows == 0 && items <= GP_TRANSPOSE_MAX_ITEMS && !(items & (items - 1)));
            GP_CHECK((p.tile / p.vec) * p.block_rows <= devs[d].max_threads_per_block);
            GP_CHECK((size_t)p.tile * (size_t)(p.tile + p.pad) * 4 <= devs[d].lds_per_block);
            GP_CHECK(p.vec == 1 || (p.tile >= 32 && (p.vec == 2 || p.vec == 4)));
            GP_CHECK(p.stream >= 0 && p.stream <= 3 && (p.tile >= 32 || (!p.stream && !p.swizzle)));
            GP_CHECK(!p.swizzle || (p.vec > 1 && items * p.vec <= 32));
            GP_CHECK(p.tiles_per_block >= 1 && p.tiles_per_block <= GP_TRANSPOSE_MAX_TILES_PER_BLOCK);
        }
    }
    return 0;
}

GP_TEST(transpose_effective_vec)
{
    gp_transpose_params p;
    memset(&p, 0, sizeof p);
    p.tile = 32, p.pad = 1, p.block_rows = 8, p.vec = 4, p.group = 1;
    gp_transpose_params_fit(&p, NULL);
    void *a = (void *)(uintptr_t)0x10000, *b = (void *)(uintptr_t)0x20000;
    GP_CHECK(gp_transpose_effective_vec(&p, 64, 64, a, b) == 4);
    GP_CHECK(gp_transpose_effective_vec(&p, 64, 66, a, b) == 2);   /* cols even, not a multiple of 4 */
    GP_CHECK(gp_transpose_effective_vec(&p, 63, 64, a, b) == 1);   /* odd rows: output rows misaligned */
    GP_CHECK(gp_transpose_effective_vec(&p, 64, 64, (char *)a + 4, b) == 1);
    GP_CHECK(gp_transpose_effective_vec(&p, 64, 64, (char *)a + 8, b) == 2);
    return 0;
}

GP_TEST(transpose_bad_arguments)
{
    gp_transpose_params p;
    memset(&p, 0, sizeof p);
    p.tile = 32, p.pad = 1, p.block_rows = 8, p.vec = 1, p.group = 1;
    gp_transpose_params_fit(&p, NULL);
    float *a = (float *)(uintptr_t)0x100000, *b = (float *)(uintptr_t)0x900000;
    /* Every refusal happens before a device call (these pointers are fake). */
    GP_CHECK(gp_transpose_f32(a, b, 4, 4, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_transpose_f32(NULL, b, 4, 4, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_transpose_f32(a, NULL, 4, 4, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_transpose_f32(a, a + 8, 4, 4, &p, NULL).code == GP_ERR_USAGE); /* overlap */
    gp_status st;
    st = gp_transpose_f32(a, a, 4, 4, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "overlap"));
    GP_CHECK(gp_transpose_f32((float *)((char *)a + 2), b, 4, 4, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_transpose_f32(a, b, (size_t)1 << 40, (size_t)1 << 40, &p, NULL).code == GP_ERR_USAGE);
    float *far = (float *)(uintptr_t)((uintptr_t)1 << 46);
    st = gp_transpose_f32(a, far, (size_t)1 << 36, 1, &p, NULL); /* 2^31 tiles: more than the kernel counts */
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "tiles"));
    gp_transpose_params q = p;
    q.tile = 48;
    st = gp_transpose_f32(a, b, 4, 4, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = p;
    q.block_rows = 3;
    GP_CHECK(gp_transpose_f32(a, b, 4, 4, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.swizzle = 1; /* vec 1: never fitted that way */
    GP_CHECK(gp_transpose_f32(a, b, 4, 4, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.stream = 4;
    GP_CHECK(gp_transpose_f32(a, b, 4, 4, &q, NULL).code == GP_ERR_USAGE);
    q = p;
    q.tiles_per_block = 0;
    GP_CHECK(gp_transpose_f32(a, b, 4, 4, &q, NULL).code == GP_ERR_USAGE);
    /* An empty matrix is done without touching the device. */
    GP_CHECK(gp_transpose_f32(a, b, 0, 5, &p, NULL).code == GP_OK);
    GP_CHECK(gp_transpose_f32(NULL, NULL, 7, 0, &p, NULL).code == GP_OK);
    GP_CHECK(gp_transpose_copy_f32((float *)((char *)a + 4), b, 16, NULL, GP_TRANSPOSE_COPY_PERSISTENT, NULL).code ==
             GP_ERR_USAGE);
    GP_CHECK(gp_transpose_copy_f32(a, b, 16, NULL, 3, NULL).code == GP_ERR_USAGE); /* no such mode */
    return 0;
}

/* A launch must be legal on any GPU: the kernel checks its table section
 * (gp_kernel.check_table) before reading it. */
GP_TEST(transpose_table_section_is_legal)
{
    static gp_table t;
    gp_transpose_params p;
    GP_CHECK(load_table("sm_90", &t));
    GP_CHECK(gp_kernel_check_tables(&t, "sm_90").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.transpose", "tile", 32, "swept transpose").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.transpose", "block_rows", 64, "swept transpose").code == GP_OK);
    gp_status st = gp_kernel_check_tables(&t, "t");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "must divide tile"));
    GP_CHECK(from_table(&t, NULL, &p).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(transpose_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("transpose");
    GP_CHECK(k == &gp_kernel_transpose && k->cases && k->setup && k->run && k->check && k->nvariants > 4);
    gp_table base;
    GP_CHECK(load_table("sm_90", &base));
    gp_device_info h200 = fake_dev(32, 1024, 48 * 1024);
    gp_transpose_params p0, p;
    GP_CHECK(from_table(&base, &h200, &p0).code == GP_OK);
    int differ = 0, swz = 0, stream = 0, tpb = 0, colmajor = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &h200, &p);
        differ += !gp_params_same(k->params, k->nparams, &p, &p0);
        swz += p.swizzle, stream += p.stream != 0, tpb += p.tiles_per_block > 1;
        colmajor += p.group >= 4096; /* the column-major tile order the H200 experiment favoured */
    }
    /* The shipped sm_90 values are one of the variants; every other one differs. */
    GP_CHECK(differ >= k->nvariants - 1 && swz > 0 && stream > 0 && tpb > 0 && colmajor > 0);
    return 0;
}

/* The rule sizes the dispatch and the L2 choice for the shape launched: a
 * matrix that fits the L2 is moved in row-major tile order with cached
 * stores, a big one column-major with streamed stores; an odd one gets the
 * tile rows it has. */
GP_TEST(transpose_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(load_table("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_transpose_rule(&in, &ruled).code == GP_OK);
    gp_transpose_params big, small, odd;
    char note[160];
    const gp_shape s_big = {{8192, 8192}, {0}}, s_small = {{1024, 1024}, {0}}, s_odd = {{11999, 12001}, {0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &ruled, NULL, &s_big, 0, &big, note, sizeof note).code == GP_OK);
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &ruled, NULL, &s_small, 0, &small, note, sizeof note).code ==
             GP_OK);
    GP_CHECK(strstr(note, "rule for this shape:") && strstr(note, "group"));
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &ruled, NULL, &s_odd, 0, &odd, note, sizeof note).code == GP_OK);
    GP_CHECK(big.group > 1 && big.stream == GP_TRANSPOSE_STREAM_STORES);
    GP_CHECK(small.group == 1 && small.stream == 0); /* 8 MiB moved: inside the H200's L2 */
    GP_CHECK(odd.group == (11999 + odd.tile - 1) / odd.tile);
    /* Two L2 partitions (sm_90 has a far latency): the move is weighed
     * against one partition's half, 30 MiB of the 60: 48 MB streams, 29.5
     * MB (2560 x 1440) does not; without the far latency 48 MB fits. */
    gp_transpose_params mid, below;
    const gp_shape s_mid = {{3000, 2000}, {0}}, s_below = {{2560, 1440}, {0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &ruled, NULL, &s_mid, 0, &mid, note, sizeof note).code == GP_OK);
    GP_CHECK(mid.group == (3000 + mid.tile - 1) / mid.tile && mid.stream == GP_TRANSPOSE_STREAM_STORES);
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &ruled, NULL, &s_below, 0, &below, note, sizeof note).code ==
             GP_OK);
    GP_CHECK(below.group == 1 && below.stream == 0);
    static gp_table one;
    one = ruled;
    GP_CHECK(gp_table_set_none(&one, "cache.l2", "far_latency_cycles", "assumed: one L2 partition, no far latency").code == GP_OK);
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, &one, NULL, &s_mid, 0, &mid, note, sizeof note).code == GP_OK);
    GP_CHECK(mid.group == 1 && mid.stream == 0);
    return 0;
}
