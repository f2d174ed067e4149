/* stencil on the CPU: the reference by hand, the error bound against a float
 * model of the kernel's order (with and without FMA), the z split's cost
 * model by hand and against an exhaustive search, parameters from every
 * shipped table and clamped, bad arguments refused before any device call,
 * the variants, the table section's legality, the shapes read back, and the
 * rule on every shipped table's facts and for a shape. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "data.h"
#include "stencil.h"
#include "stencil_v4.h"
#include "table.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

GP_TEST(stencil_ref_hand)
{
    /* 3x3x4: the interior is (1, 1, 1) and (1, 1, 2). in = index. */
    const gp_stencil_shape s = {3, 3, 4};
    float in[36];
    for (int i = 0; i < 36; i++)
        in[i] = (float)i;
    double out[9], mag[9];
    gp_stencil_ref_plane(in, &s, 0.5f, -0.25f, 1, out, mag);
    /* Center 13: neighbours 12, 14, 10, 16, 4, 22 (sum 78). */
    GP_CHECK(out[4] == 0.5 * 13 - 0.25 * 78);
    GP_CHECK(mag[4] == 0.5 * 13 + 0.25 * 78);
    for (int i = 0; i < 9; i++)
        if (i != 4)
            GP_CHECK(out[i] == (double)in[9 + i] && mag[i] == 0.0); /* border: the input */
    gp_stencil_ref_plane(in, &s, 0.5f, -0.25f, 3, out, NULL); /* the last plane: all border */
    for (int i = 0; i < 9; i++)
        GP_CHECK(out[i] == (double)in[27 + i]);
    /* A dimension below 3: no interior at all. */
    const gp_stencil_shape flat = {5, 2, 5};
    float f[50];
    for (int i = 0; i < 50; i++)
        f[i] = (float)(i * 3 - 7);
    double o[10];
    gp_stencil_ref_plane(f, &flat, 2.0f, 1.0f, 2, o, NULL);
    for (int i = 0; i < 10; i++)
        GP_CHECK(o[i] == (double)f[20 + i]);
    return 0;
}

/* The kernel's order in float (stencil.hip), FMA-contracted or not. */
static float model_point(float c0, float c1, float c, const float n[6], int fma)
{
    volatile float s = ((n[0] + n[1]) + (n[2] + n[3])) + (n[4] + n[5]);
    volatile float t = c1 * s;
    if (fma)
        return fmaf(c0, c, t);
    volatile float u = c0 * c;
    return u + t;
}

GP_TEST(stencil_bound_holds_for_the_kernel_order)
{
    GP_CHECK_NEAR(gp_stencil_f32_bound(1.0), 8 * ldexp(1.0, -24) / (1 - 8 * ldexp(1.0, -24)), 1e-22);
    uint64_t rng = 17;
    double worst = 0;
    for (int trial = 0; trial < 200000; trial++) {
        float n[6], c = (float)gp_rand_uniform(&rng, -1, 1);
        /* Every third trial: near-cancelling neighbours (the relative error
         * of the sum is largest there, the bound scales with sum |n|). */
        for (int k = 0; k < 6; k++)
            n[k] = trial % 3 ? (float)gp_rand_uniform(&rng, -1, 1)
                             : (float)((k % 2 ? -1.0 : 1.0) * (1.0 + gp_rand_uniform(&rng, 0, 1e-3)));
        const float c0 = (float)gp_rand_uniform(&rng, -2, 2), c1 = (float)gp_rand_uniform(&rng, -1, 1);
        double sum = 0, sum_abs = 0;
        for (int k = 0; k < 6; k++)
            sum += n[k], sum_abs += fabs(n[k]);
        const double ref = (double)c0 * c + (double)c1 * sum;
        const double mag = fabs((double)c0 * c) + fabs((double)c1) * sum_abs;
        for (int fma = 0; fma <= 1; fma++) {
            double err = fabs((double)model_point(c0, c1, c, n, fma) - ref);
            GP_CHECK(err <= gp_stencil_f32_bound(mag));
            if (mag > 0 && err / gp_stencil_f32_bound(mag) > worst)
                worst = err / gp_stencil_f32_bound(mag);
        }
    }
    /* Not vacuous: the worst case uses a visible part of the bound. */
    GP_CHECK(worst > 0.05);
    return 0;
}

/* ------------------------------------------------------------ z split */

static long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

/* The cost model without the early stop: the smallest cost over every c. */
static long long best_cost_exhaustive(const gp_stencil_params *p, const gp_stencil_shape *s)
{
    long long tiles = cdiv(s->nx, p->tile_x) * cdiv(s->ny, p->tile_y), r = (long long)p->blocks_per_cu * p->cus;
    long long best = -1;
    for (long long c = 1; c <= s->nz; c++) {
        long long cost = cdiv(tiles * c, r) * (cdiv(s->nz, c) + 2);
        if (best < 0 || cost < best)
            best = cost;
    }
    return best;
}

GP_TEST(stencil_z_split_by_hand)
{
    gp_stencil_params p = {64, 8, 2, 4, 1, 132, ""};
    /* 512^3: 8 x 64 = 512 tiles, 528 resident: one round of 512 planes
     * (514) beats two rounds of 256 (516). */
    gp_stencil_shape s = {512, 512, 512};
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 1 && gp_stencil_z_per_chunk(&p, &s) == 512);
    /* 256^3: 128 tiles; 4 chunks of 64 fill one round (66). */
    s = (gp_stencil_shape){256, 256, 256};
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 4 && gp_stencil_z_per_chunk(&p, &s) == 64);
    /* Two tiles, a tall column: on a big GPU 150 chunks of 2 planes fill
     * one round (cost 4; 300 chunks would take two rounds: 6)... */
    s = (gp_stencil_shape){9, 9, 300};
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 150 && gp_stencil_z_per_chunk(&p, &s) == 2);
    /* ...and on one CU of 4 blocks, 2 chunks of 150 planes (152; 4 chunks
     * of 75 take two rounds: 154). */
    p.cus = 1;
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 2 && gp_stencil_z_per_chunk(&p, &s) == 150);
    /* The chunks always cover nz: (chunks - 1) x per < nz <= chunks x per. */
    uint64_t rng = 5;
    for (int i = 0; i < 3000; i++) {
        gp_stencil_params q = {32 << (int)(gp_rand_u64(&rng) % 3), 4 << (int)(gp_rand_u64(&rng) % 3),
                               1, 1 + (int)(gp_rand_u64(&rng) % 16), 1, 1 + (int)(gp_rand_u64(&rng) % 200), ""};
        gp_stencil_shape t = {1 + (int)(gp_rand_u64(&rng) % 700), 1 + (int)(gp_rand_u64(&rng) % 700),
                              1 + (int)(gp_rand_u64(&rng) % 900)};
        int c = gp_stencil_z_chunks(&q, &t), per = gp_stencil_z_per_chunk(&q, &t);
        GP_CHECK(c >= 1 && c <= t.nz && (long long)(c - 1) * per < t.nz && (long long)c * per >= t.nz);
        /* The early stop never misses the best split. */
        long long tiles = cdiv(t.nx, q.tile_x) * cdiv(t.ny, q.tile_y);
        long long cost = cdiv(tiles * c, (long long)q.blocks_per_cu * q.cus) * (per + 2);
        GP_CHECK(cost == best_cost_exhaustive(&q, &t));
    }
    return 0;
}

/* ------------------------------------------------------------ parameters */

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_stencil_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_stencil, t, dev, NULL, 0, p, note, sizeof note);
}

GP_TEST(stencil_params_from_tables)
{
    const gp_device_info devs[3] = {gp_test_fake_dev(32, 1024, 132), gp_test_fake_dev(64, 1024, 64),
                                    gp_test_fake_dev(64, 256, 8)};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_shipped(table_names[i], &t));
        for (int d = 0; d < 3; d++) {
            gp_stencil_params p;
            GP_CHECK(from_table(&t, &devs[d], &p).code == GP_OK);
            GP_CHECK(p.tile_x >= 32 && p.tile_x <= 128 && p.tile_y >= 4 && p.tile_y <= 16);
            GP_CHECK(p.tile_x * p.tile_y <= devs[d].max_threads_per_block && p.tile_x * p.tile_y <= 512);
            GP_CHECK(p.planes_ahead == 1 || p.planes_ahead == 2 || p.planes_ahead == 4);
            GP_CHECK(p.cus == devs[d].compute_units && p.blocks_per_cu >= 1);
        }
    }
    return 0;
}

GP_TEST(stencil_params_clamped)
{
    gp_device_info d = gp_test_fake_dev(64, 1024, 64);
    gp_stencil_params p = {128, 16, 3, 8, 1, 0, ""}; /* 2048 threads: fewer rows */
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.tile_x == 128 && p.tile_y == 4 && strstr(p.note, "tile") && p.cus == 64);
    p = (gp_stencil_params){100, 3, 4, 0, 1, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.tile_x == 64 && p.tile_y == 4 && p.planes_ahead == 3 && p.blocks_per_cu == 1);
    GP_CHECK(strstr(p.note, "planes_ahead") && strstr(p.note, "blocks_per_cu"));
    d = gp_test_fake_dev(32, 128, 8); /* a device granting 128 threads */
    p = (gp_stencil_params){64, 8, 1, 4, 1, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.tile_x == 32 && p.tile_y == 4);
    p = (gp_stencil_params){64, 8, 2, 4, 1, 0, ""};
    gp_stencil_params_fit(&p, NULL);
    GP_CHECK(p.note[0] == '\0' && p.cus == 1);
    return 0;
}

GP_TEST(stencil_bad_arguments)
{
    gp_stencil_params p = {64, 8, 2, 4, 1, 132, ""};
    const float *x = (const float *)(uintptr_t)0x100000;
    float *out = (float *)(uintptr_t)0x80000000;
    const gp_stencil_shape s = {100, 100, 100};
    /* Every refusal happens before a device call (these pointers are fake). */
    GP_CHECK(gp_stencil_f32(x, NULL, &s, 1, 1, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_stencil_f32(NULL, out, &s, 1, 1, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_stencil_f32(x, out, NULL, 1, 1, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_stencil_f32(x, out, &s, 1, 1, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_stencil_f32((const float *)((const char *)x + 2), out, &s, 1, 1, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_stencil_naive_f32(x, (float *)((char *)out + 1), &s, 1, 1, NULL).code == GP_ERR_USAGE);
    gp_status st = gp_stencil_f32(x, out, &s, NAN, 1, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "finite"));
    GP_CHECK(gp_stencil_naive_f32(x, out, &s, 1, INFINITY, NULL).code == GP_ERR_USAGE);
    st = gp_stencil_f32(x, (float *)(x + 999999), &s, 1, 1, &p, NULL); /* the last element shared */
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "overlap"));
    GP_CHECK(gp_stencil_naive_f32(x, (float *)x, &s, 1, 1, NULL).code == GP_ERR_USAGE); /* in place */
    const gp_stencil_shape bad[4] = {{0, 5, 5}, {5, -1, 5}, {5, 5, 65536}, {1 << 20, 1, 1}};
    const char *dim[4] = {"nx", "ny", "nz", "nx"};
    for (int i = 0; i < 4; i++) {
        st = gp_stencil_f32(x, out, &bad[i], 1, 1, &p, NULL);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, dim[i]));
    }
    gp_stencil_params q = p;
    q.planes_ahead = 4;
    st = gp_stencil_f32(x, out, &s, 1, 1, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = (gp_stencil_params){128, 8, 2, 4, 1, 132, ""}; /* 1024 threads: beyond the launch bounds */
    GP_CHECK(gp_stencil_f32(x, out, &s, 1, 1, &q, NULL).code == GP_ERR_USAGE);
    /* Without a GPU backend, accepted arguments reach the launcher (NO_GPU,
     * not USAGE). */
    if (strcmp(gp_rt_backend(), "none") == 0) {
        GP_CHECK(gp_stencil_f32(x, out, &s, 1, 1, &p, NULL).code == GP_ERR_NO_GPU);
        GP_CHECK(gp_stencil_naive_f32(x, out, &s, 1, 1, NULL).code == GP_ERR_NO_GPU);
    }
    return 0;
}

GP_TEST(stencil_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("stencil");
    GP_CHECK(k == &gp_kernel_stencil && k->rule == gp_stencil_rule && k->cases && k->check && k->check_table);
    GP_CHECK(k->nvariants > 4 && k->nvariants <= 31 && k->verify_extra);
    gp_table base;
    GP_CHECK(gp_test_load_shipped("gfx900", &base));
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    h200.max_threads_per_cu = 2048, h200.regs_per_cu = 65536;
    gp_stencil_params p0, p;
    GP_CHECK(from_table(&base, &h200, &p0).code == GP_OK);
    int aheads = 0, tiles = 0, vecs = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &h200, &p);
        GP_CHECK(p.note[0] == '\0'); /* every variant is legal as written */
        /* The occupancy at the kernel's registers: 32 (2048 threads an SM);
         * vec 4: 56 at 1 plane ahead (65536 / (56 x 128) = 9 blocks of 128,
         * not 8: the z split the H200 measured best), 64 at 2. */
        const int regs = p.vec != 4 ? 32 : p.planes_ahead == 1 ? 56 : 64;
        GP_CHECK(gp_stencil_build_regs(p.vec, p.planes_ahead) == regs);
        GP_CHECK(p.blocks_per_cu == 65536 / (regs * p.tile_x * p.tile_y));
        if (p.vec == 4 && p.planes_ahead == 1 && p.tile_x * p.tile_y == 128)
            GP_CHECK(p.blocks_per_cu == 9);
        aheads |= 1 << p.planes_ahead;
        tiles |= p.tile_x == 16 ? 8 : p.tile_x == 32 ? 1 : p.tile_x == 64 ? 2 : 4;
        vecs |= p.vec;
        if (p.vec == 4)
            GP_CHECK(p.tile_x * p.tile_y <= GP_STENCIL_V4_MAX_BLOCK && p.planes_ahead <= GP_STENCIL_V4_MAX_AHEAD);
    }
    GP_CHECK(aheads == (2 | 4 | 8) && tiles == 15 && vecs == (1 | 4));
    /* The rule's H200 pick (128 x 4 points, 1 ahead, 9 blocks) and the
     * experiment's near-winners (64 x 8 points, 128 x 8, at 1 and 2 ahead)
     * are all variants, so a sweep checks the rule. */
    const int want[][3] = {{32, 4, 1}, {16, 8, 1}, {32, 4, 2}, {32, 8, 1}, {32, 8, 2}, {16, 8, 2}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = 0;
        for (int v = 0; v < k->nvariants; v++) {
            gp_kernel_variant(k, v, &p0, &h200, &p);
            found |= p.vec == 4 && p.tile_x == want[w][0] && p.tile_y == want[w][1] && p.planes_ahead == want[w][2];
        }
        GP_CHECK(found);
    }
    /* The rule's 1-wide pick (64 x 4, 2 ahead, 8 blocks) and its 1-plane
     * neighbour, which the H200 sweep on unaligned rows put 4-10 % behind,
     * are variants too. */
    for (int a = 1; a <= 2; a++) {
        int found = 0;
        for (int v = 0; v < k->nvariants; v++) {
            gp_kernel_variant(k, v, &p0, &h200, &p);
            found |= p.vec == 1 && p.tile_x == 64 && p.tile_y == 4 && p.planes_ahead == a && p.blocks_per_cu == 8;
        }
        GP_CHECK(found);
    }
    /* The device copy is the baseline (0.85 of it), the naive kernel context
     * that verify checks too. */
    GP_CHECK(k->nimpls == 2 && !k->impls[0].baseline && k->impls[0].verify && k->impls[1].baseline);
    GP_CHECK(k->impls[1].pair && k->impls[1].target == 0.85);
    char b[192];
    gp_kernel_params_text(k, &p0, b, sizeof b);
    GP_CHECK(strstr(b, "tile_x=64 tile_y=4 planes_ahead=1 blocks_per_cu=4 vec=4"));
    return 0;
}

/* ------------------------------------------------------ the 4-wide kernel */

/* One plane of the 4-wide kernel's LDS, emulated for a whole tile inside a
 * large grid (every halo point exists): each thread's center vector and each
 * halo thread's value(s) are written at the offsets the kernel uses
 * (stencil_v4.h), then every offset the compute reads (the rows above and
 * below as vectors, the left and right neighbours of the thread's 4 points)
 * must have been written by exactly one thread; vector accesses must be
 * 16-byte aligned and everything inside the plane.  A wrong pitch, a halo
 * thread out of place or a missing column fails here. */
static int v4_plane_ok(int tx, int ty)
{
    const int pitch = GP_STENCIL_V4_PITCH(tx), size = pitch * (ty + 2);
    if (2 * tx + 2 * ty > tx * ty || 2 * size * 4 != GP_STENCIL_V4_LDS_BYTES(tx, ty))
        return 0;
    int *writes = calloc((size_t)size, sizeof(int));
    if (!writes)
        return 0;
    int ok = 1, halo_threads = 0;
    for (int t = 0; t < tx * ty && ok; t++) {
        const int lx = t % tx, ly = t / tx, c = gp_stencil_v4_lds(4 * lx, ly, tx);
        ok = c % 4 == 0 && c >= 0 && c + 3 < size;
        for (int k = 0; k < 4 && ok; k++)
            writes[c + k]++;
        const gp_stencil_v4_halo h = gp_stencil_v4_halo_of(t, tx, ty);
        if (h.kind < 0)
            continue;
        halo_threads++;
        const int o = gp_stencil_v4_lds(h.x, h.y, tx), n = h.kind <= 1 ? 4 : 1;
        ok = ok && o >= 0 && o + n <= size && (n == 1 || o % 4 == 0);
        /* Rows above/below the tile, columns left/right of it: never a
         * center. */
        ok = ok && (h.kind <= 1 ? (h.y == -1 || h.y == ty) && h.x >= 0 && h.x + 3 < 4 * tx
                                : (h.x == -1 || h.x == 4 * tx) && h.y >= 0 && h.y < ty);
        for (int k = 0; k < n && ok; k++)
            writes[o + k]++;
    }
    ok = ok && halo_threads == 2 * tx + 2 * ty;
    for (int t = 0; t < tx * ty && ok; t++) {
        const int lx = t % tx, ly = t / tx, c = gp_stencil_v4_lds(4 * lx, ly, tx);
        const int reads[] = {c - pitch, c - pitch + 1, c - pitch + 2, c - pitch + 3, c + pitch, c + pitch + 1,
                             c + pitch + 2, c + pitch + 3, c - 1, c + 4};
        ok = (c - pitch) % 4 == 0 && (c + pitch) % 4 == 0;
        for (size_t r = 0; r < sizeof reads / sizeof reads[0] && ok; r++)
            ok = reads[r] >= 0 && reads[r] < size && writes[reads[r]] == 1;
        /* What it reads is its neighbour's point: the offset of (x +- 1, y)
         * and (x, y +- 1) for its first and last point. */
        ok = ok && c - 1 == gp_stencil_v4_lds(4 * lx - 1, ly, tx) && c + 4 == gp_stencil_v4_lds(4 * lx + 4, ly, tx) &&
             c - pitch == gp_stencil_v4_lds(4 * lx, ly - 1, tx) && c + pitch == gp_stencil_v4_lds(4 * lx, ly + 1, tx);
    }
    for (int i = 0; i < size && ok; i++)
        ok = writes[i] <= 1; /* no point written twice (a race between threads) */
    free(writes);
    return ok;
}

GP_TEST(stencil_v4_lds_plane_emulated)
{
    /* Every tile the vec 4 fit allows: 16..128 x 4..16, at most 256 threads. */
    int n = 0;
    for (int tx = GP_STENCIL_MIN_TX; tx <= GP_STENCIL_MAX_TX; tx *= 2)
        for (int ty = GP_STENCIL_MIN_TY; ty <= GP_STENCIL_MAX_TY && tx * ty <= GP_STENCIL_V4_MAX_BLOCK; ty *= 2) {
            GP_CHECK(v4_plane_ok(tx, ty));
            n++;
        }
    GP_CHECK(n == 6); /* 16 x 4, 16 x 8, 16 x 16, 32 x 4, 32 x 8, 64 x 4 (not vacuous) */
    return 0;
}

GP_TEST(stencil_vec_usable_and_z_split)
{
    gp_stencil_params p = {32, 4, 2, 8, 4, 132, ""};
    const gp_stencil_shape s = {512, 512, 512}, odd = {514, 512, 512};
    const char *a = (const char *)(uintptr_t)0x100000;
    GP_CHECK(gp_stencil_vec_usable(&p, &s, a, a + 4096));
    GP_CHECK(!gp_stencil_vec_usable(&p, &odd, a, a + 4096));      /* rows not 16-byte aligned */
    GP_CHECK(!gp_stencil_vec_usable(&p, &s, a + 4, a + 4096));    /* input off by one element */
    GP_CHECK(!gp_stencil_vec_usable(&p, &s, a, a + 4100));        /* output off by one element */
    p.vec = 1;
    GP_CHECK(!gp_stencil_vec_usable(&p, &s, a, a + 4096));
    /* The z split counts 4-wide tiles: 512^3 with 32 x 4 threads of 4
     * points is 4 x 128 = 512 tiles; 8 x 132 = 1056 resident blocks: two
     * chunks of 256 planes fill one round (258) where one chunk leaves half
     * the GPU idle (514). */
    p.vec = 4;
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 2 && gp_stencil_z_per_chunk(&p, &s) == 256);
    /* At the rule's 9 blocks (56 registers): 1188 resident; 9 chunks of 57
     * planes take 4 rounds of 59 (236) < 2 chunks' one round of 258: the
     * experiment's z9 (0.900 of the copy vs 0.863 at z2).  256^3: 128
     * tiles, 9 chunks of 29 in one round (31 < 8 chunks' 34): z9 there too. */
    p.blocks_per_cu = 9;
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 9 && gp_stencil_z_per_chunk(&p, &s) == 57);
    const gp_stencil_shape s256 = {256, 256, 256};
    GP_CHECK(gp_stencil_z_chunks(&p, &s256) == 9 && gp_stencil_z_per_chunk(&p, &s256) == 29);
    p.blocks_per_cu = 8;
    /* The same tile 1-wide: 16 x 128 = 2048 tiles, two rounds of whole
     * columns (2 x 514 = 1028) beat four rounds of half columns (4 x 258). */
    p.vec = 1;
    GP_CHECK(gp_stencil_z_chunks(&p, &s) == 1);
    return 0;
}

GP_TEST(stencil_params_vec_fitted)
{
    gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    /* 512 threads 4-wide: beyond its 256-thread launch bounds, fewer rows. */
    gp_stencil_params p = {64, 8, 2, 4, 4, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.vec == 4 && p.tile_x == 64 && p.tile_y == 4 && strstr(p.note, "256 threads (vec 4)"));
    /* 3 planes ahead are compiled 1-wide only. */
    p = (gp_stencil_params){32, 4, 3, 4, 4, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.vec == 4 && p.planes_ahead == 2 && strstr(p.note, "vec 4"));
    /* vec 2 is not compiled: 1, said so; 0 (not set) is 1 silently. */
    p = (gp_stencil_params){32, 4, 2, 4, 2, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.vec == 1 && strstr(p.note, "vec"));
    p = (gp_stencil_params){32, 4, 2, 4, 0, 0, ""};
    gp_stencil_params_fit(&p, &d);
    GP_CHECK(p.vec == 1 && p.note[0] == '\0');
    /* Unfitted vec 4 parameters are refused before any device call. */
    const float *x = (const float *)(uintptr_t)0x100000;
    float *out = (float *)(uintptr_t)0x80000000;
    const gp_stencil_shape s = {100, 100, 100};
    gp_stencil_params q = {64, 8, 2, 4, 4, 132, ""}; /* 512 threads */
    gp_status st = gp_stencil_f32(x, out, &s, 1, 1, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = (gp_stencil_params){32, 4, 3, 4, 4, 132, ""}; /* 3 ahead */
    GP_CHECK(gp_stencil_f32(x, out, &s, 1, 1, &q, NULL).code == GP_ERR_USAGE);
    /* The table's optional key: absent is 1; 4 is read. */
    gp_table t;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    const int vi = gp_table_key_index("kernel.stencil", "vec");
    GP_CHECK(vi >= 0 && t.e[vi].present && t.e[vi].i == 4);
    t.e[vi].present = 0; /* a table written before the key */
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_x", 64, "rule test").code == GP_OK);
    gp_stencil_params r;
    GP_CHECK(from_table(&t, &d, &r).code == GP_OK && r.vec == 1 && r.tile_x == 64);
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "vec", 4, "rule tune_candidate").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_x", 32, "rule tune_candidate").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_y", 4, "rule tune_candidate").code == GP_OK);
    GP_CHECK(gp_table_validate(&t, "vec 4").code == GP_OK && gp_kernel_check_tables(&t, "vec 4").code == GP_OK);
    GP_CHECK(from_table(&t, &d, &r).code == GP_OK && r.vec == 4 && r.note[0] == '\0');
    /* The kernel's table check holds vec 4 to its launch bounds (256
     * threads) and its compiled planes (1, 2). */
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_y", 16, "rule test").code == GP_OK);
    gp_status vs = gp_kernel_check_tables(&t, "vec 4, 512 threads");
    GP_CHECK(vs.code != GP_OK && strstr(vs.msg, "256 (vec 4)"));
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_y", 4, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "planes_ahead", 3, "rule test").code == GP_OK);
    vs = gp_kernel_check_tables(&t, "vec 4, 3 ahead");
    GP_CHECK(vs.code != GP_OK && strstr(vs.msg, "planes_ahead 3 with vec 4"));
    char buf[192];
    gp_kernel_params_text(&gp_kernel_stencil, &r, buf, sizeof buf);
    GP_CHECK(strstr(buf, "vec=4") != NULL);
    return 0;
}

/* ----------------------------------------------------------------- rule */

static long long kv(const gp_table *t, const char *key)
{
    long long v = -1;
    gp_table_get_int(t, "kernel.stencil", key, &v);
    return v;
}

GP_TEST(stencil_rule_on_shipped_tables)
{
    gp_table t;
    /* H200: wave 32 x 16 B = 512 B, whole 128 B lines -> vec 4; tile_x =
     * max(wave 32, 2 x 32 B sectors / 4, 128 / 16) = 32 (128 points, 512 B a
     * row); 1 plane ahead at 56 registers: 32 x 4 holds 9 blocks (1152
     * threads), 32 x 8 only 4 (1024) -> tile_y 4; a thread loads 16 B + its
     * halo share (2 x 32 x 16 + 2 x 4 x 32 B sectors) / 128 = 26 B a plane,
     * 1152 of them 30 KB against Little's 11.6 KiB/CU = 0.40 -> 1 plane.  The
     * experiment's best, 128 x 4 /a1 z9 (0.900 of the copy). */
    GP_CHECK(gp_test_load_shipped("sm_90", &t) && gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "vec") == 4 && kv(&t, "tile_x") == 32 && kv(&t, "tile_y") == 4);
    GP_CHECK(kv(&t, "blocks_per_cu") == 9 && kv(&t, "planes_ahead") == 1);
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "stencil", "vec"), "rule gp_stencil_rule instructions:", 34) == 0);
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "rule gp_stencil_rule little:", 28) == 0);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "4342 GB/s x 718 cycles"));
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "1152 thr x 26 B = 0.40"));
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "stencil", "tile_x"), "rule gp_stencil_rule sectors:", 29) == 0);
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "stencil", "tile_y"), "rule gp_stencil_rule occupancy:", 31) == 0);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "tile_y"), "56 regs"));
    GP_CHECK(gp_table_validate(&t, "sm_90 after the stencil rule").code == GP_OK);
    /* With those parameters the host cuts 512^3 into the measured 9 z
     * chunks. */
    gp_stencil_params p;
    GP_CHECK(from_table(&t, NULL, &p).code == GP_OK);
    p.cus = 132;
    const gp_stencil_shape s512 = {512, 512, 512};
    GP_CHECK(gp_stencil_z_chunks(&p, &s512) == 9);
    /* gfx900: wave 64 -> tile_x 64 (256 points), 64 x 4 = the 4-wide
     * kernel's 256 threads; 4 blocks by registers (56 x 4 waves of 64);
     * 450 GB/s is far below what they keep in flight -> 1 plane ahead. */
    GP_CHECK(gp_test_load_shipped("gfx900", &t) && gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "vec") == 4 && kv(&t, "tile_x") == 64 && kv(&t, "tile_y") == 4);
    GP_CHECK(kv(&t, "blocks_per_cu") == 4 && kv(&t, "planes_ahead") == 1);
    /* Tables without some facts: rule.h's stand-ins, named. generic: wave
     * none -> 64; no DRAM facts -> 1 plane (the 4-wide stand-in). */
    GP_CHECK(gp_test_load_shipped("generic", &t) && gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "tile_x") == 64 && kv(&t, "tile_y") == 4 && kv(&t, "planes_ahead") == 1 && kv(&t, "vec") == 4);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "tile_x"), "device.wave_size none: 64"));
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "stand-in"));
    /* A100: the H200's tile and 9 blocks (the same SM). */
    GP_CHECK(gp_test_load_shipped("sm_80", &t) && gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "tile_x") == 32 && kv(&t, "tile_y") == 4 && kv(&t, "blocks_per_cu") == 9 && kv(&t, "vec") == 4);
    GP_CHECK(gp_table_validate(&t, "sm_80 after the stencil rule").code == GP_OK);
    /* Every shipped table: the rule's parameters are legal as written. */
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        GP_CHECK(gp_test_load_shipped(table_names[i], &t) && gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
        gp_stencil_params q;
        GP_CHECK(from_table(&t, NULL, &q).code == GP_OK && q.note[0] == '\0');
    }
    return 0;
}

/* The rule follows its facts: lines wider than a wave's 16-byte access
 * give the 1-wide kernel (and its model: sectors widen the tile), fewer
 * registers per CU lower the blocks and move the planes ahead (the
 * register cost of a plane counted), a slower memory needs fewer; a bad fact
 * is GP_ERR_USAGE naming it. */
GP_TEST(stencil_rule_follows_the_facts)
{
    gp_table t;
    /* 1024 B lines (beyond the schema's 512: an in-memory table): a wave's
     * 512 B are not whole lines -> vec 1, the 1-wide model: a row of whole
     * lines wants 256 threads, 128 at most (512 over 4 rows) -> 128 x 4 at
     * 32 registers, 4 blocks; 11.6 KiB over 2048 threads x 6.06 B = 0.96,
     * twice that under load 1.92 -> 2 planes. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    int li = gp_table_key_index("cache.l1", "line_bytes");
    GP_CHECK(li >= 0);
    t.e[li].d = 1024, t.e[li].i = 1024;
    GP_CHECK(gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "vec") == 1 && kv(&t, "tile_x") == 128 && kv(&t, "tile_y") == 4);
    GP_CHECK(kv(&t, "blocks_per_cu") == 4 && kv(&t, "planes_ahead") == 2);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "vec"), "not whole lines"));
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "x 2 under load -> 2"));
    /* 128 B sectors: a row of 4 x 2 sectors is 1 KiB, 64 threads of 16 B. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "cache.l1", "sector_bytes", 128, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "vec") == 4 && kv(&t, "tile_x") == 64 && kv(&t, "tile_y") == 4);
    /* Half the registers: 32 x 4 at 56 holds 4 blocks (512 threads), 32 x 8
     * 2 (512: a tie, the smaller tile_y); 24.25 B a plane x 512 = 12.4 KB
     * against 11.6 KiB: 0.96, twice under load 1.92 > 1 -> 2 planes, at 64
     * registers the same 4 blocks of 32 x 4. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 32768, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "blocks_per_cu") == 4 && kv(&t, "tile_y") == 4 && kv(&t, "planes_ahead") == 2);
    /* 4x the bandwidth: 46.4 KiB over 27.9 KB = 1.7, twice that under load:
     * 1 plane is short -> 2, the most compiled for vec 4 and still short
     * (3.8 at 1024 threads), which the provenance says; at 64 registers 8
     * blocks of 32 x 4 or 4 of 32 x 8 (1024 threads each: the smaller
     * tile_y). */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "dram", "bandwidth_gbs", 4 * 4341.57817, "measured test 2026-11-24").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "planes_ahead") == 2 && kv(&t, "blocks_per_cu") == 8 && kv(&t, "tile_y") == 4);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "stencil", "planes_ahead"), "little: short at the most compiled: dram"));
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "dram", "bandwidth_gbs", 1000, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(gp_test_rule(gp_stencil_rule, &t).code == GP_OK);
    GP_CHECK(kv(&t, "planes_ahead") == 1 && kv(&t, "blocks_per_cu") == 9);
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    int ki = gp_table_key_index("cache.l1", "sector_bytes");
    GP_CHECK(ki >= 0);
    t.e[ki].d = 0, t.e[ki].i = 0; /* the fact the tile_x model reads, zero (an in-memory table) */
    gp_status st = gp_test_rule(gp_stencil_rule, &t);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[cache.l1] sector_bytes"));
    return 0;
}

/* A table whose tile exceeds the kernel's 512 threads is refused by the
 * kernel's table check, naming the section and the line (the kernel would
 * clamp it, but a table that says so is wrong), before any launch reads it. */
GP_TEST(stencil_table_cross_rule)
{
    gp_table t;
    gp_stencil_params p;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_validate(&t, "sm_90").code == GP_OK && gp_kernel_check_tables(&t, "sm_90").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_y", 16, "rule test").code == GP_OK);
    gp_status st = gp_kernel_check_tables(&t, "sm_90 with a 64 x 16 stencil tile");
    GP_CHECK(st.code != GP_OK && strstr(st.msg, "kernel.stencil") && strstr(st.msg, "512"));
    GP_CHECK(strstr(st.msg, "sm_90 with a 64 x 16 stencil tile:") && from_table(&t, NULL, &p).code == GP_ERR_USAGE);
    /* The 1-wide kernel's bound: 512 threads. */
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "vec", 1, "rule test").code == GP_OK);
    GP_CHECK(gp_kernel_check_tables(&t, "1-wide 32 x 16").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.stencil", "tile_x", 64, "rule test").code == GP_OK);
    st = gp_kernel_check_tables(&t, "1-wide 64 x 16");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "1024 threads exceeds 512") && !strstr(st.msg, "vec 4"));
    return 0;
}

/* The bench labels (committed bench CSVs) and a user's spec read back. */
GP_TEST(stencil_shapes_read_back)
{
    const gp_kernel *k = &gp_kernel_stencil;
    gp_shape s, t;
    char b[96];
    GP_CHECK(k->shape_parse("512^3 fp32", &s).code == GP_OK && s.d[GP_STENCIL_NX] == 512);
    GP_CHECK(s.d[GP_STENCIL_NY] == 512 && s.d[GP_STENCIL_NZ] == 512);
    k->shape_label(&s, b, sizeof b);
    GP_CHECK(strcmp(b, "512^3 fp32") == 0);
    GP_CHECK(k->shape_parse("130x20x70", &s).code == GP_OK && s.d[GP_STENCIL_NY] == 20);
    k->shape_label(&s, b, sizeof b);
    GP_CHECK(strcmp(b, "130x20x70 fp32") == 0 && k->shape_parse(b, &t).code == GP_OK && !memcmp(&s, &t, sizeof s));
    GP_CHECK(k->shape_parse("256^3", &s).code == GP_OK && s.d[GP_STENCIL_NZ] == 256);
    const char *bad[] = {"0^3", "130x20", "130x20x70x2", "65536x1x1", "512^3 fp64", "not a label"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = k->shape_parse(bad[i], &s);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, bad[i]));
    }
    gp_kernel_work w;
    GP_CHECK(gp_kernel_work_of_label(k, "512^3 fp32", &w).code == GP_OK);
    GP_CHECK(w.bytes == 8.0 * 512 * 512 * 512 && w.flops == 8.0 * 510 * 510 * 510);
    return 0;
}

/* blocks_per_cu follows the shape where the problem cannot fill a round: the
 * headline and 256^3 keep the occupancy (9 on the H200), 64 x 64 x 8 (32
 * tiles of 32 x 4 threads, 8 planes: 256 blocks over 132 SMs) gets 2, 16^3
 * one; the z split is the same either way, 4-wide or falling back. */
GP_TEST(stencil_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_stencil_rule(&in, &ruled).code == GP_OK);
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    static const struct {
        const char *spec;
        int bpc;
    } want[] = {{"512^3 fp32", 9}, {"256^3", 9}, {"64x64x8", 2}, {"16^3", 1}, {"132x20x7", 2}, {"132x20x70", 9}};
    char note[160];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_shape s;
        gp_stencil_params p, occ;
        GP_CHECK(gp_kernel_stencil.shape_parse(want[i].spec, &s).code == GP_OK);
        GP_CHECK(gp_kernel_params(&gp_kernel_stencil, &ruled, &h200, &s, 0, &p, note, sizeof note).code == GP_OK);
        if (p.blocks_per_cu != want[i].bpc)
            fprintf(stderr, "%s: blocks_per_cu %d, want %d\n", want[i].spec, p.blocks_per_cu, want[i].bpc);
        GP_CHECK(p.blocks_per_cu == want[i].bpc && p.tile_x == 32 && p.tile_y == 4 && p.vec == 4);
        occ = p;
        occ.blocks_per_cu = 9;
        const gp_stencil_shape g = {(int)s.d[GP_STENCIL_NX], (int)s.d[GP_STENCIL_NY], (int)s.d[GP_STENCIL_NZ]};
        for (int vec = 4; vec >= 1; vec -= 3) {
            p.vec = occ.vec = vec;
            GP_CHECK(gp_stencil_z_chunks(&p, &g) == gp_stencil_z_chunks(&occ, &g));
        }
    }
    GP_CHECK(strstr(note, "blocks_per_cu 9->") == NULL); /* the last one keeps it */
    gp_shape s;
    gp_stencil_params p;
    GP_CHECK(gp_kernel_stencil.shape_parse("64x64x8", &s).code == GP_OK);
    GP_CHECK(gp_kernel_params(&gp_kernel_stencil, &ruled, &h200, &s, 0, &p, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "blocks_per_cu 9->2"));
    static gp_table out;
    out = t;
    gp_rule_in sin = {&t, &s, 0};
    GP_CHECK(gp_stencil_rule(&sin, &out).code == GP_OK);
    GP_CHECK(strstr(gp_test_kernel_prov(&out, "stencil", "blocks_per_cu"),
                    "32 tiles x nz 8 give 132 CUs 2 blocks each -> 2 (a CU holds 9"));
    GP_CHECK(!strstr(gp_test_kernel_prov(&ruled, "stencil", "blocks_per_cu"), "tiles x nz"));
    return 0;
}

/* The 4-wide kernel needs rows of a multiple of 4 points (each row's start
 * 16-byte aligned): on the H100's facts the rule keeps vec 4 for 512^3 and
 * 1000 x 200 x 150, and gives the 1-wide kernel's own parameters (vec 1 and
 * its wider row of threads) for rows of 250 points, which the launch would
 * run 1-wide anyway.  Rows of 257 points pad to 320 in 64-wide tiles and to
 * 288 in 32-wide ones: the rule halves the row and doubles tile_y, keeping
 * the block's threads; 250 pads to 256 either way and keeps the wide row. */
GP_TEST(stencil_vec_follows_the_row_alignment)
{
    static gp_table t;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    const gp_device_info d = gp_test_fake_dev(32, 1024, 132);
    const long long dims[4][3] = {{512, 512, 512}, {1000, 200, 150}, {250, 255, 300}, {257, 255, 300}};
    gp_stencil_params p[4];
    char note[4][160];
    for (int i = 0; i < 4; i++) {
        gp_shape s;
        memset(&s, 0, sizeof s);
        for (int k = 0; k < 3; k++)
            s.d[GP_STENCIL_NX + k] = dims[i][k];
        GP_CHECK(gp_kernel_params(&gp_kernel_stencil, &t, &d, &s, 0, &p[i], note[i], sizeof note[i]).code == GP_OK);
    }
    GP_CHECK(p[0].vec == 4 && p[1].vec == 4 && strstr(note[1], "as the table"));
    GP_CHECK(p[2].vec == 1 && strstr(note[2], "vec 4->1") && p[2].tile_x > p[0].tile_x);
    GP_CHECK(p[3].vec == 1 && p[3].tile_x == p[2].tile_x / 2 && p[3].tile_y == 2 * p[2].tile_y);
    return 0;
}

/* The row's tail in the provenance: the padded widths it compared. */
GP_TEST(stencil_row_tail_names_the_padded_widths)
{
    static gp_table t;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_shape s;
    GP_CHECK(gp_kernel_stencil.shape_parse("130x258x300", &s).code == GP_OK);
    static gp_table out;
    out = t;
    gp_rule_in in = {&t, &s, 0};
    GP_CHECK(gp_stencil_rule(&in, &out).code == GP_OK);
    GP_CHECK(strstr(gp_test_kernel_prov(&out, "stencil", "tile_x"), "nx 130 pads to 192 at 64, 160 at 32 -> 32"));
    return 0;
}

/* The bench's data and check (stencil_ref.c): the rounded reference passes; an interior point out of its interval
 * and a border point not the input's bits are named; a sample (stride 2) looks at even points only. */
GP_TEST(stencil_bench_check)
{
    const gp_stencil_shape s = {5, 4, 3};
    float in[60], out[60], lo[60], hi[60], lo2[30], hi2[30];
    double plane[20];
    uint64_t rng = 11;
    for (int exact = 0; exact <= 1; exact++) {
        const float c0 = exact ? -6.0f : 0.4f, c1 = exact ? 1.0f : 0.1f;
        gp_stencil_fill(in, 60, exact, &rng);
        for (int i = 0; exact && i < 60; i++)
            GP_CHECK(in[i] == (float)(int)in[i] && in[i] >= -8 && in[i] <= 8);
        gp_stencil_ref_bounds(in, &s, c0, c1, exact, 1, lo, hi);
        for (int z = 0; z < 3; z++) {
            gp_stencil_ref_plane(in, &s, c0, c1, z, plane, NULL);
            for (int i = 0; i < 20; i++)
                out[z * 20 + i] = (float)plane[i];
        }
        GP_CHECK(gp_stencil_check("st", out, in, &s, c0, c1, exact, 1, lo, hi).code == GP_OK);
        const float keep = out[27];
        out[27] = hi[27] + 1.0f; /* (2, 1, 1) */
        gp_status e = gp_stencil_check("st", out, in, &s, c0, c1, exact, 1, lo, hi);
        GP_CHECK(e.code == GP_ERR_CHECK && strstr(e.msg, "(x 2, y 1, z 1) =") != NULL);
        gp_stencil_ref_bounds(in, &s, c0, c1, exact, 2, lo2, hi2);
        GP_CHECK(gp_stencil_check("st", out, in, &s, c0, c1, exact, 2, lo2, hi2).code == GP_OK);
        out[27] = keep;
        out[0] = nextafterf(in[0], INFINITY);
        e = gp_stencil_check("st", out, in, &s, c0, c1, exact, 1, lo, hi);
        GP_CHECK(e.code == GP_ERR_CHECK && strstr(e.msg, "(x 0, y 0, z 0) border") != NULL);
    }
    return 0;
}
