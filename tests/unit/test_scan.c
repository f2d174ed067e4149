/* scan on the CPU: references by hand and chunk by chunk, the bench's check
 * against them (every element or a sample), the depth formula by hand, the
 * error bound against a float model of the GPU's order of additions
 * (look-back patterns included), parameters from every shipped table, bad
 * arguments refused before any device call, the variants, the rule on every
 * shipped table's facts and parameters that follow the shape. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "data.h"
#include "kernel.h"
#include "scan.h"
#include "table.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_scan_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_scan, t, dev, NULL, 0, p, note, sizeof note);
}

GP_TEST(scan_ref_hand)
{
    const float x[5] = {1.0f, 2.0f, 3.5f, -4.0f, 0.25f};
    const double inc[5] = {1.0, 3.0, 6.5, 2.5, 2.75}, exc[5] = {0.0, 1.0, 3.0, 6.5, 2.5};
    const double mag[5] = {1.0, 3.0, 6.5, 10.5, 10.75};
    double out[5], sa[5];
    gp_scan_ref_f32(x, 5, 0, NULL, NULL, out, sa);
    for (int i = 0; i < 5; i++)
        GP_CHECK(out[i] == inc[i] && sa[i] == mag[i]);
    gp_scan_ref_f32(x, 5, 1, NULL, NULL, out, NULL);
    for (int i = 0; i < 5; i++)
        GP_CHECK(out[i] == exc[i]);
    /* In two chunks with the running sums carried: the same. */
    double acc = 0, acc_abs = 0;
    gp_scan_ref_f32(x, 2, 1, &acc, &acc_abs, out, sa);
    gp_scan_ref_f32(x + 2, 3, 1, &acc, &acc_abs, out + 2, sa + 2);
    for (int i = 0; i < 5; i++)
        GP_CHECK(out[i] == exc[i] && sa[i] == mag[i]);
    GP_CHECK(acc == 2.75 && acc_abs == 10.75);
    /* fp32 values a float sum would lose: the double reference keeps them. */
    const float y[3] = {16777216.0f, 1.0f, 1.0f};
    gp_scan_ref_f32(y, 3, 0, NULL, NULL, out, NULL);
    GP_CHECK(out[2] == 16777218.0);
    return 0;
}

GP_TEST(scan_ref_i32_wraps)
{
    const int32_t a[4] = {INT32_MAX, 1, -1, INT32_MIN};
    const int32_t inc[4] = {INT32_MAX, INT32_MIN, INT32_MAX, -1};
    const int32_t exc[4] = {0, INT32_MAX, INT32_MIN, INT32_MAX};
    int32_t out[4];
    gp_scan_ref_i32(a, 4, 0, NULL, out);
    GP_CHECK(memcmp(out, inc, sizeof out) == 0);
    gp_scan_ref_i32(a, 4, 1, NULL, out);
    GP_CHECK(memcmp(out, exc, sizeof out) == 0);
    uint32_t acc = 0;
    gp_scan_ref_i32(a, 3, 0, &acc, out);
    gp_scan_ref_i32(a + 3, 1, 0, &acc, out + 3);
    GP_CHECK(memcmp(out, inc, sizeof out) == 0 && acc == 0xffffffffu);
    return 0;
}

/* The bench's check (gp_scan_check): every element, or a sample whose
 * references are made once; a wrong element named, fp32 within its bound,
 * small integers and int32 exact. */
GP_TEST(scan_check_full_and_sampled)
{
    enum { N = 10000 };
    static float x[N];
    static double ref[N];
    static uint32_t got[N];
    static int32_t xi[N], refi[N];
    const gp_scan_params p = {256, 16, 0, ""};
    uint64_t rng = 7;
    gp_fill_uniform_f32(x, N, -1.0f, 1.0f, &rng);
    gp_scan_ref_f32(x, N, 1, NULL, NULL, ref, NULL);
    for (int i = 0; i < N; i++) {
        float g = (float)ref[i];
        memcpy(&got[i], &g, 4);
    }
    gp_scan_expect e = {.x = x, .n = N, .is_f32 = 1, .exclusive = 1, .wave = 32, .stride = 1};
    GP_CHECK(gp_scan_check(&e, &p, got, "full").code == GP_OK);
    float bad = (float)ref[1234] + 0.01f;
    memcpy(&got[1234], &bad, 4);
    gp_status st = gp_scan_check(&e, &p, got, "full");
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "full: out[1234]") && strstr(st.msg, "gamma_"));
    /* A sample: its references once; an element between samples unseen. */
    double sref[N], ssa[N];
    e.stride = 37, e.ref = sref, e.sum_abs = ssa;
    e.nsamples = gp_scan_samples(N, e.stride);
    GP_CHECK(e.nsamples == (N + 36) / 37 || e.nsamples == N / 37);
    gp_scan_ref_samples(&e);
    const size_t at = gp_scan_sample_at(5, 37);
    GP_CHECK(at >= 5 * 37 && at < 6 * 37 && sref[5] == ref[at]);
    /* Every sample, both kinds, as the element-by-element reference. Exact
     * only because gp_fill_uniform_f32 puts its values on a 2^-23 grid: the
     * sums then need fewer than 53 bits in any order (a finer fill would
     * make this test compare within the reference's own bound instead). */
    static double incl[N], incl_abs[N];
    gp_scan_ref_f32(x, N, 0, NULL, NULL, incl, incl_abs);
    int same = 1;
    for (size_t k = 0; k < e.nsamples; k++)
        same &= sref[k] == ref[gp_scan_sample_at(k, 37)] && ssa[k] == incl_abs[gp_scan_sample_at(k, 37)];
    e.exclusive = 0;
    gp_scan_ref_samples(&e);
    for (size_t k = 0; k < e.nsamples; k++)
        same &= sref[k] == incl[gp_scan_sample_at(k, 37)];
    GP_CHECK(same);
    e.exclusive = 1;
    gp_scan_ref_samples(&e);
    size_t off = 1234 == gp_scan_sample_at(1234 / 37, 37) ? 1235 : 1234;
    memcpy(&got[1234], &(float){(float)ref[1234]}, 4);
    memcpy(&got[off], &bad, 4);
    GP_CHECK(gp_scan_check(&e, &p, got, "sample").code == GP_OK);
    memcpy(&got[at], &bad, 4);
    st = gp_scan_check(&e, &p, got, "sample");
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "sample: out[") != NULL);
    /* Small integers exact: an error far within the fp32 bound still fails. */
    for (int i = 0; i < 64; i++)
        x[i] = (float)(i % 17 - 8);
    gp_scan_ref_f32(x, 64, 0, NULL, NULL, ref, NULL);
    for (int i = 0; i < 64; i++)
        memcpy(&got[i], &(float){(float)ref[i]}, 4);
    gp_scan_expect ex = {.x = x, .n = 64, .is_f32 = 1, .exact = 1, .wave = 64, .stride = 1};
    GP_CHECK(gp_scan_check(&ex, &p, got, "int").code == GP_OK);
    memcpy(&got[9], &(float){(float)ref[9] + 0.0001f}, 4);
    GP_CHECK(gp_scan_check(&ex, &p, got, "int").code == GP_ERR_CHECK);
    /* int32: the wrapped sums, exactly. */
    gp_fill_uniform_i32(xi, N, INT32_MIN, INT32_MAX, &rng);
    gp_scan_ref_i32(xi, N, 0, NULL, refi);
    memcpy(got, refi, sizeof refi);
    gp_scan_expect ei = {.x = xi, .n = N, .wave = 32, .stride = 1};
    GP_CHECK(gp_scan_check(&ei, &p, got, "i32").code == GP_OK);
    static int32_t srefi[N], refx[N];
    gp_scan_expect es = {.x = xi, .n = N, .wave = 32, .stride = 37, .refi = srefi};
    es.nsamples = gp_scan_samples(N, es.stride);
    gp_scan_ref_samples(&es);
    for (size_t k = 0; k < es.nsamples; k++)
        same &= srefi[k] == refi[gp_scan_sample_at(k, 37)];
    gp_scan_ref_i32(xi, N, 1, NULL, refx);
    es.exclusive = 1;
    gp_scan_ref_samples(&es);
    for (size_t k = 0; k < es.nsamples; k++)
        same &= srefi[k] == refx[gp_scan_sample_at(k, 37)];
    GP_CHECK(same);
    got[N - 1] ^= 1;
    st = gp_scan_check(&ei, &p, got, "i32");
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "i32: out[9999]") && strstr(st.msg, "exact"));
    return 0;
}

GP_TEST(scan_depth_by_hand)
{
    gp_scan_params p = {256, 16, 0, ""};
    /* In a tile (wave 32, 8 waves): 3 + 5 + 4 rows + 3 + 3 = 18; per tile
     * before it: 5 + 3 = 8. */
    GP_CHECK(gp_scan_tile(&p) == 4096);
    GP_CHECK(gp_scan_f32_depth(&p, 0, 0, 32) == 18);
    GP_CHECK(gp_scan_f32_depth(&p, 4095, 0, 32) == 18);
    GP_CHECK(gp_scan_f32_depth(&p, 4096, 0, 32) == 26);
    GP_CHECK(gp_scan_f32_depth(&p, 4093, 3, 32) == 26); /* head shifts the tiles */
    /* wave 64: 3 + 6 + 4 + 2 + 3 = 18, then 9 per tile. */
    GP_CHECK(gp_scan_f32_depth(&p, 3 * 4096, 0, 64) == 18 + 27);
    GP_CHECK(gp_scan_tiles_for(&p, 0, 0) == 0);
    GP_CHECK(gp_scan_tiles_for(&p, 4096, 0) == 1 && gp_scan_tiles_for(&p, 4096, 1) == 2);
    /* The bound: gamma_d x sum|x|, infinite once d u reaches 1. */
    GP_CHECK_NEAR(gp_f32_sum_bound(18, 1.0), 18 * ldexp(1.0, -24) / (1 - 18 * ldexp(1.0, -24)), 1e-20);
    GP_CHECK(isinf(gp_f32_sum_bound(1ll << 24, 1.0)));
    /* The ring: a predecessor's leaves may come through the reducer's
     * aggregate.  512 x 16 (tile 8192, 16 waves): scanners 3 + 5 + 4 + 4 =
     * 16, reducer 2 + 64 vectors a lane / 8 + 3 + 5 = 18 -> 18 + 3 = 21
     * (19 in registers).  256 x 64: scanners 3 + 5 + 16 + 3 = 27 >
     * reducer 2 + 16 + 3 + 5 = 26 -> 30, as in registers. */
    p = (gp_scan_params){512, 16, 3, ""};
    GP_CHECK(gp_scan_f32_depth(&p, 0, 0, 32) == 21 && gp_scan_f32_depth(&p, 8192, 0, 32) == 29);
    p.stages = 0;
    GP_CHECK(gp_scan_f32_depth(&p, 0, 0, 32) == 19);
    p = (gp_scan_params){256, 64, 3, ""};
    GP_CHECK(gp_scan_f32_depth(&p, 0, 0, 32) == 30);
    return 0;
}

/* ------------------------------------------------------------ GPU model
 * The kernel's order of fp32 additions (scan.hip, steps 1-6), in float.  The
 * look-back sees tile s as finished with its inclusive prefix when s % K == 0
 * and with its aggregate only otherwise (K = 1: always the predecessor's
 * prefix; K > wave: walks of several windows).  With p->stages > 0 (the
 * ring) a whole tile's aggregate is the reducer's sum (scan.hip: vectors
 * l, l + w, ... of lane l into 8 accumulators, their tree, the butterfly),
 * and tile 0's prefix too when it is whole. */
static void ks_scan(float *s, int w)
{
    float t[64];
    for (int o = 1; o < w; o *= 2) {
        for (int l = 0; l < w; l++)
            t[l] = l >= o ? s[l - o] + s[l] : s[l];
        memcpy(s, t, (size_t)w * sizeof(float));
    }
}

static float butterfly(float *v, int w)
{
    float t[64];
    for (int o = w / 2; o > 0; o /= 2) {
        for (int l = 0; l < w; l++)
            t[l] = v[l] + v[l ^ o];
        memcpy(v, t, (size_t)w * sizeof(float));
    }
    return v[0];
}

static void model_scan(const float *x, size_t n, size_t head, const gp_scan_params *p, int w, int K, int exclusive,
                       float *out)
{
    const int B = p->block, V = p->items_per_thread / 4, nw = B / w;
    const size_t tile = gp_scan_tile(p), ntiles = gp_scan_tiles_for(p, n, head), end = head + n;
    float *agg = malloc(ntiles * sizeof(float)), *incl = malloc(ntiles * sizeof(float));
    float *loc = malloc((size_t)B * V * 4 * sizeof(float)), *pre = malloc((size_t)B * V * sizeof(float));
    float wt[64], s[64];
    for (size_t t = 0; t < ntiles; t++) {
        const int whole = t * tile >= head && (t + 1) * tile <= end;
        float red = 0.0f;
        if (p->stages > 0 && whole) {
            float lanes[64];
            const size_t per_lane = tile / 4 / (size_t)w;
            for (int l = 0; l < w; l++) {
                float acc[8] = {0};
                for (size_t i = 0; i < per_lane; i++) {
                    const float *e = x + t * tile + (l + i * (size_t)w) * 4 - head;
                    acc[i % 8] = acc[i % 8] + ((e[0] + e[1]) + (e[2] + e[3]));
                }
                lanes[l] = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
            }
            red = butterfly(lanes, w);
        }
        for (int wid = 0; wid < nw; wid++) {
            float carry = 0.0f;
            for (int j = 0; j < V; j++) {
                for (int l = 0; l < w; l++) {
                    size_t vi = t * tile + (size_t)wid * w * 4 * V + (size_t)l * 4 + (size_t)j * w * 4;
                    float *e = loc + (((size_t)wid * w + l) * V + j) * 4;
                    for (int k = 0; k < 4; k++)
                        e[k] = vi + k >= head && vi + k < end ? x[vi + k - head] : 0.0f;
                    e[1] = e[0] + e[1], e[2] = e[1] + e[2], e[3] = e[2] + e[3];
                    s[l] = e[3];
                }
                ks_scan(s, w);
                for (int l = 0; l < w; l++)
                    pre[((size_t)wid * w + l) * V + j] = l == 0 ? carry : carry + s[l - 1];
                carry = carry + s[w - 1];
            }
            wt[wid] = carry;
        }
        for (int l = 0; l < w; l++)
            s[l] = l < nw ? wt[l] : 0.0f;
        ks_scan(s, w);
        agg[t] = s[nw - 1];
        const float scanned_agg = agg[t];
        if (p->stages > 0 && whole)
            agg[t] = red; /* what the walk reads of an unfinished tile */
        float tpre = 0.0f;
        if (t > 0) {
            long long base = (long long)t - 1;
            for (;;) {
                float v[64];
                int pl = -1;
                for (int l = 0; l < w; l++) {
                    long long idx = base - l;
                    int is_p = idx < 0 || idx % K == 0;
                    if (is_p && pl < 0)
                        pl = l;
                    v[l] = idx < 0 ? 0.0f : is_p ? incl[idx] : agg[idx];
                }
                for (int l = pl >= 0 ? pl + 1 : w; l < w; l++)
                    v[l] = 0.0f;
                tpre = butterfly(v, w) + tpre;
                if (pl >= 0)
                    break;
                base -= w;
            }
        }
        incl[t] = t == 0 ? agg[0] : tpre + scanned_agg;
        for (int wid = 0; wid < nw; wid++) {
            float q = wid == 0 ? 0.0f : s[wid - 1];
            q = t == 0 ? q : tpre + q;
            for (int l = 0; l < w; l++)
                for (int j = 0; j < V; j++) {
                    float b = q + pre[((size_t)wid * w + l) * V + j];
                    const float *e = loc + (((size_t)wid * w + l) * V + j) * 4;
                    size_t vi = t * tile + (size_t)wid * w * 4 * V + (size_t)l * 4 + (size_t)j * w * 4;
                    for (int k = 0; k < 4; k++) {
                        float o = exclusive ? (k == 0 ? b : b + e[k - 1]) : b + e[k];
                        if (vi + k >= head && vi + k < end)
                            out[vi + k - head] = o;
                    }
                }
        }
    }
    free(agg), free(incl), free(loc), free(pre);
}

/* The bound tests' inputs.  0: uniform [-1, 1); 1: positive, spread over
 * 2^20 in magnitude; 2: 1 + 2^-20 everywhere, whose low bits the growing
 * prefix drops at every tile, all one way (the error grows with the tiles:
 * the per-tile term is needed). */
static void fill_bound_input(float *x, size_t n, int kind, unsigned long long *rng)
{
    for (size_t i = 0; i < n; i++) {
        double r = gp_test_rand(rng);
        x[i] = kind == 0 ? (float)(2 * r - 1) : kind == 1 ? (float)ldexp(1.0 + r, (int)(r * 20)) : 1.0f + 0x1p-20f;
    }
}

/* One scan order: the input, its start off the vector grid, the tile shape,
 * the wave, the look-back window and the kind of sum. */
typedef struct {
    const float *x;
    size_t n, head;
    const gp_scan_params *p;
    int w, K, exclusive;
} bound_case;

/* The model's result for `bc` against the double reference, within the fp32
 * bound at every element (the first miss is printed, as `what`case c kind
 * k); the worst error over bound so far in *worst.  1 when every element
 * holds. */
static int model_within_bound(const char *what, int c, int kind, const bound_case *bc, float *got, double *ref,
                              double *sa, double *worst)
{
    model_scan(bc->x, bc->n, bc->head, bc->p, bc->w, bc->K, bc->exclusive, got);
    gp_scan_ref_f32(bc->x, bc->n, bc->exclusive, NULL, NULL, ref, sa);
    for (size_t i = 0; i < bc->n; i++) {
        double err = fabs((double)got[i] - ref[i]);
        double bound = gp_f32_sum_bound(gp_scan_f32_depth(bc->p, i, bc->head, bc->w), sa[i]);
        if (!(err <= bound)) {
            fprintf(stderr, "%scase %d kind %d: out[%zu] error %g > bound %g\n", what, c, kind, i, err, bound);
            return 0;
        }
        if (bound > 0 && err / bound > *worst)
            *worst = err / bound;
    }
    return 1;
}

GP_TEST(scan_bound_holds_for_the_gpu_order)
{
    const size_t n = 200003;
    float *x = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    double *ref = malloc(n * sizeof(double)), *sa = malloc(n * sizeof(double));
    GP_CHECK(x && got && ref && sa);
    const gp_scan_params ps[3] = {{64, 8, 0, ""}, {128, 4, 0, ""}, {64, 32, 0, ""}};
    unsigned long long rng = 11;
    double worst = 0;
    for (int c = 0; c < 6; c++) {
        const gp_scan_params *p = &ps[c % 3];
        const int w = c < 3 ? 32 : 64, K = c % 2 ? 1 : 2 * w + 1;
        const int ex = c % 2;
        const size_t head = (size_t)(c % 4);
        for (int kind = 0; kind < 3; kind++) {
            fill_bound_input(x, n, kind, &rng);
            GP_CHECK(model_within_bound("", c, kind, &(bound_case){x, n, head, p, w, K, ex}, got, ref, sa, &worst));
            /* Not vacuous at the end: well below the magnitudes summed. */
            GP_CHECK(gp_f32_sum_bound(gp_scan_f32_depth(p, n - 1, head, w), sa[n - 1]) < 0.05 * sa[n - 1]);
        }
    }
    GP_CHECK(worst > 0); /* the model does round */
    /* The model drops nothing: small integers scan exactly, in every pattern. */
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)(gp_test_rand(&rng) * 17) - 8);
    for (int c = 0; c < 4; c++) {
        model_scan(x, n, (size_t)c, &ps[c % 3], 32 << (c % 2), c < 2 ? 1 : 97, c % 2, got);
        gp_scan_ref_f32(x, n, c % 2, NULL, NULL, ref, NULL);
        for (size_t i = 0; i < n; i++)
            GP_CHECK((double)got[i] == ref[i]);
    }
    free(x), free(got), free(ref), free(sa);
    return 0;
}

/* The ring's order (the reducer's aggregates on the walk, tile 0's prefix
 * from the reducer) stays within the ring's bound, and scans small integers
 * exactly. */
GP_TEST(scan_bound_holds_for_the_ring_order)
{
    const size_t n = 100003;
    float *x = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    double *ref = malloc(n * sizeof(double)), *sa = malloc(n * sizeof(double));
    GP_CHECK(x && got && ref && sa);
    const gp_scan_params ps[3] = {{64, 16, 2, ""}, {512, 16, 3, ""}, {128, 32, 3, ""}};
    unsigned long long rng = 17;
    double worst = 0;
    for (int c = 0; c < 6; c++) {
        const gp_scan_params *p = &ps[c % 3];
        const int K = c < 2 ? 1 : c < 4 ? 65 : 3;
        const int ex = c % 2;
        const size_t head = (size_t)(c % 4);
        for (int kind = 0; kind < 3; kind++) {
            fill_bound_input(x, n, kind, &rng);
            GP_CHECK(model_within_bound("ring ", c, kind, &(bound_case){x, n, head, p, 32, K, ex}, got, ref, sa, &worst));
        }
        for (size_t i = 0; i < n; i++)
            x[i] = (float)((int)(gp_test_rand(&rng) * 17) - 8);
        model_scan(x, n, head, p, 32, K, ex, got);
        gp_scan_ref_f32(x, n, ex, NULL, NULL, ref, NULL);
        for (size_t i = 0; i < n; i++)
            GP_CHECK((double)got[i] == ref[i]);
    }
    GP_CHECK(worst > 0);
    free(x), free(got), free(ref), free(sa);
    return 0;
}

/* The ring where the device, the binary and the shape allow it; else the
 * register kernel, saying why. */
GP_TEST(scan_ring_fitted_to_the_device)
{
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    snprintf(h200.arch, sizeof h200.arch, "sm_90");
    h200.lds_per_block_optin = 232448;
    const int ring_runs = gp_scan_ring_compiled();
    gp_scan_params p = {256, 64, 3, ""};
    gp_scan_params_fit(&p, &h200);
    GP_CHECK(ring_runs ? p.stages == 3 && p.note[0] == '\0' : p.stages == 0);
    p = (gp_scan_params){256, 64, 8, ""}; /* 8 x 64 KiB: 3 fit */
    gp_scan_params_fit(&p, &h200);
    GP_CHECK(!ring_runs || (p.stages == 3 && strstr(p.note, "stages fitted")));
    p = (gp_scan_params){256, 64, 1, ""}; /* one stage is no ring */
    gp_scan_params_fit(&p, &h200);
    GP_CHECK(p.stages == 0 && strstr(p.note, "2 to 8"));
    p = (gp_scan_params){256, 8, 3, ""}; /* the ring is compiled for 16+ items */
    gp_scan_params_fit(&p, &h200);
    GP_CHECK(p.stages == 0 && strstr(p.note, "stages 0"));
    p = (gp_scan_params){512, 64, 3, ""}; /* 256 scanning threads at 64 items */
    gp_scan_params_fit(&p, &h200);
    GP_CHECK(p.block == 256 && (!ring_runs || p.stages == 3));
    gp_device_info a100 = h200;
    snprintf(a100.arch, sizeof a100.arch, "sm_80");
    p = (gp_scan_params){256, 64, 3, ""};
    gp_scan_params_fit(&p, &a100);
    GP_CHECK(p.stages == 0 && strstr(p.note, "bulk copy"));
    gp_device_info small = h200;
    small.lds_per_block_optin = 100 * 1024; /* one 64 KiB tile */
    p = (gp_scan_params){256, 64, 3, ""};
    gp_scan_params_fit(&p, &small);
    GP_CHECK(p.stages == 0);
    /* Parameters not fitted: refused before any device call. */
    gp_scan_ws ws = {(void *)(uintptr_t)0x40000, gp_scan_ws_bytes(1000), 1000, 0};
    p = (gp_scan_params){256, 8, 3, ""};
    gp_status st = gp_scan_f32((const float *)(uintptr_t)0x100000, (float *)(uintptr_t)0x8000000, 100, 0, &ws, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    return 0;
}

GP_TEST(scan_params_from_tables)
{
    const gp_device_info devs[3] = {gp_test_fake_dev(32, 1024, 132), gp_test_fake_dev(64, 1024, 64), gp_test_fake_dev(64, 256, 8)};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_shipped(table_names[i], &t));
        for (int d = 0; d < 3; d++) {
            gp_scan_params p;
            GP_CHECK(from_table(&t, &devs[d], &p).code == GP_OK);
            const int it = p.items_per_thread;
            GP_CHECK(it == 4 || it == 8 || it == 16 || it == 32 || it == 64);
            GP_CHECK(p.block >= 64 && p.block <= GP_SCAN_BLOCK_LIMIT(p.items_per_thread) &&
                     p.block <= devs[d].max_threads_per_block && !(p.block & (p.block - 1)));
        }
    }
    return 0;
}

/* The look-back's pacing (scan.h GP_SCAN_PACE_MIN_TILES) is on for the
 * headline 2^28 with every shipped table's tile, so the bench measures the
 * paced protocol the H200 experiment measured, and GPU verify runs both
 * sides of it at the table's tile (1000003 elements unpaced, 2^24 + 5
 * paced), so a wrong pause or a broken branch shows there. */
GP_TEST(scan_pacing_threshold_splits_verify_and_covers_the_headline)
{
    const gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    GP_CHECK(GP_SCAN_FIRST_POLL_NS > 0 && GP_SCAN_POLL_NS > 0 && GP_SCAN_POLL_NS <= GP_SCAN_FIRST_POLL_NS);
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table t;
        gp_scan_params p;
        GP_CHECK(gp_test_load_shipped(table_names[i], &t));
        GP_CHECK(from_table(&t, &h200, &p).code == GP_OK);
        GP_CHECK(gp_scan_tiles_for(&p, (size_t)1 << 28, 0) >= GP_SCAN_PACE_MIN_TILES);
        GP_CHECK(gp_scan_tiles_for(&p, ((size_t)1 << 24) + 5, 3) >= GP_SCAN_PACE_MIN_TILES);
        GP_CHECK(gp_scan_tiles_for(&p, 1000003, 3) < GP_SCAN_PACE_MIN_TILES);
        /* The 2^20 bench problem (in L2) is one resident wave: unpaced. */
        GP_CHECK(gp_scan_tiles_for(&p, (size_t)1 << 20, 0) < GP_SCAN_PACE_MIN_TILES);
    }
    return 0;
}

GP_TEST(scan_params_clamped)
{
    gp_device_info d = gp_test_fake_dev(64, 1024, 64);
    gp_scan_params p = {1024, 32, 0, ""};
    gp_scan_params_fit(&p, &d);
    GP_CHECK(p.block == 512 && p.items_per_thread == 32 && strstr(p.note, "block"));
    p = (gp_scan_params){100, 6, 0, ""};
    gp_scan_params_fit(&p, &d);
    GP_CHECK(p.block == 64 && p.items_per_thread == 4 && strstr(p.note, "items_per_thread"));
    p = (gp_scan_params){32, 1, 0, ""}; /* below a wave of 64 and below one vector */
    gp_scan_params_fit(&p, &d);
    GP_CHECK(p.block == 64 && p.items_per_thread == 4);
    p = (gp_scan_params){256, 128, 0, ""};
    gp_scan_params_fit(&p, &d);
    GP_CHECK(p.items_per_thread == 64 && p.block == 256);
    p = (gp_scan_params){256, 16, 0, ""};
    gp_scan_params_fit(&p, &d);
    GP_CHECK(p.note[0] == '\0');
    return 0;
}

GP_TEST(scan_bad_arguments)
{
    gp_scan_params p = {256, 16, 0, ""};
    gp_scan_ws ws = {(void *)(uintptr_t)0x40000, gp_scan_ws_bytes(1000), 1000, 0};
    const float *x = (const float *)(uintptr_t)0x100000;
    float *out = (float *)(uintptr_t)0x8000000;
    /* Every refusal happens before a device call (these pointers are fake). */
    GP_CHECK(gp_scan_f32(x, NULL, 100, 0, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_f32(NULL, out, 100, 0, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_f32(x, out, 100, 0, NULL, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_f32(x, out, 100, 0, &ws, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_f32(x, out, 100, 2, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_f32((const float *)((const char *)x + 2), out, 100, 0, &ws, &p, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_scan_i32((const int32_t *)x, (int32_t *)((char *)out + 1), 100, 1, &ws, &p, NULL).code == GP_ERR_USAGE);
    gp_status st = gp_scan_f32(x, (float *)(x + 50), 100, 0, &ws, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "overlap"));
    st = gp_scan_f32(x, out, (size_t)1000 * 4096 + 1, 0, &ws, &p, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "workspace"));
    GP_CHECK(gp_scan_f32(x, out, SIZE_MAX / 2, 0, &ws, &p, NULL).code == GP_ERR_USAGE);
    gp_scan_params q = p;
    q.items_per_thread = 12;
    st = gp_scan_i32((const int32_t *)x, (int32_t *)out, 100, 0, &ws, &q, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not fitted"));
    q = (gp_scan_params){1024, 32, 0, ""}; /* beyond the 32-item kernel's register budget */
    GP_CHECK(gp_scan_f32(x, out, 100, 0, &ws, &q, NULL).code == GP_ERR_USAGE);
    /* Without a GPU backend, accepted arguments reach the launcher (NO_GPU,
     * not USAGE) with the next epoch; in place is fine. */
    if (strcmp(gp_rt_backend(), "none") == 0) {
        unsigned e0 = ws.epoch;
        st = gp_scan_f32(x, (float *)x, 100, 1, &ws, &p, NULL);
        GP_CHECK(st.code == GP_ERR_NO_GPU && ws.epoch == e0 + 1);
    }
    /* n = 0 writes nothing and needs neither pointers nor a workspace. */
    GP_CHECK(gp_scan_i32(NULL, NULL, 0, 0, NULL, &p, NULL).code == GP_OK);
    gp_scan_ws w;
    GP_CHECK(gp_scan_ws_create(&w, 0).code == GP_ERR_USAGE && w.d == NULL);
    GP_CHECK(gp_scan_ws_create(NULL, 4).code == GP_ERR_USAGE);
    gp_scan_ws_destroy(&w); /* safe on an empty workspace */
    return 0;
}

GP_TEST(scan_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("scan");
    GP_CHECK(k == &gp_kernel_scan && k->cases && k->setup && k->prepare && k->check && k->verify_extra);
    GP_CHECK(k->nvariants > 4 && k->nvariants <= 31);
    gp_table base;
    GP_CHECK(gp_test_load_shipped("gfx900", &base));
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    snprintf(h200.arch, sizeof h200.arch, "sm_90");
    h200.lds_per_block_optin = 232448;
    gp_scan_params p0, p;
    GP_CHECK(from_table(&base, &h200, &p0).code == GP_OK);
    int tiles[8] = {0}, rings = 0; /* distinct tile sizes 2^10 .. 2^14 seen */
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &h200, &p);
        /* every variant is legal as written (a ring only where it runs) */
        GP_CHECK(p.note[0] == '\0' || (!gp_scan_ring_compiled() && strstr(p.note, "stages 0")));
        rings += p.stages > 0;
        size_t t = gp_scan_tile(&p);
        for (int l = 10; l <= 14; l++)
            if (t == ((size_t)1 << l))
                tiles[l - 10] = 1;
    }
    GP_CHECK(tiles[0] + tiles[1] + tiles[2] + tiles[3] + tiles[4] >= 4);
    GP_CHECK(!gp_scan_ring_compiled() || rings >= 4);
    /* Where no copy engine is, every ring becomes a register variant. */
    gp_device_info a100 = h200;
    snprintf(a100.arch, sizeof a100.arch, "sm_80");
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &a100, &p);
        GP_CHECK(p.stages == 0);
    }
    char b[192];
    gp_kernel_params_text(k, &p0, b, sizeof b);
    GP_CHECK(strstr(b, "block=256 items_per_thread=64 stages=0"));
    return 0;
}

/* ----------------------------------------------------------------- rule */

/* The scan rule on the facts of t (kernel.h "Rules"), its values written
 * back into t and read out. */
static gp_status rule_run(gp_table *t, long long *block, long long *items)
{
    gp_rule_in in = {t, NULL, 0};
    gp_status st = gp_scan_rule(&in, t);
    if (st.code == GP_OK) {
        gp_table_get_int(t, "kernel.scan", "block", block);
        gp_table_get_int(t, "kernel.scan", "items_per_thread", items);
    }
    return st;
}

static int rule_on(const char *name, gp_table *t, long long *block, long long *items, gp_status *st)
{
    if (!gp_test_load_shipped(name, t))
        return 0;
    *st = rule_run(t, block, items);
    return 1;
}

GP_TEST(scan_rule_on_shipped_tables)
{
    gp_table t;
    long long block = 0, items = 0;
    gp_status st;
    /* H200: Little's least is 8 items (2 x 4342 GB/s x 718 cycles @1980 MHz
     * / 132 SMs = 23.9 kB over 1024 threads); the tile then takes the most
     * items whose register cap keeps two blocks of 4 warps per SM, at the
     * largest such block: 64 items (launch bounds 256 x 2: cap 128
     * registers) -> 65536 / (2 x 128) = 256 threads, tile 16384: what the
     * H200 measured fastest (1.018x CUB, 2026-11-24; b128/i64 0.999x). */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(block == 256 && items == 64);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "block"), "(2 blocks x 128 regs) -> block 256") &&
             strstr(gp_test_kernel_prov(&t, "scan", "block"), "16384 tiles of 16384"));
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "rule gp_scan_rule tile:", 23) == 0);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "4342 GB/s x 718 cycles"));
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "scan", "block"), "rule gp_scan_rule tile:", 23) == 0);
    GP_CHECK(gp_table_validate(&t, "sm_90 after the scan rule").code == GP_OK);
    /* The ring: sm_90 has the bulk copy engine; (233472 - 2048) B of LDS /
     * 65536 B a tile = 3 stages. */
    long long stages = -1;
    GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 3);
    GP_CHECK(
        strstr(gp_test_kernel_prov(&t, "scan", "stages"), "rule gp_scan_rule ring: sm_90 has the bulk copy engine") &&
        strstr(gp_test_kernel_prov(&t, "scan", "stages"), "= 3 stages"));
    /* gfx900: waves of 64, so 4 waves are 256 threads, which 64 items' cap
     * of 128 VGPRs (2 waves a SIMD) holds twice -> 64 items at 256. */
    GP_CHECK(rule_on("gfx900", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(block == 256 && items == 64);
    GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 0 &&
             strstr(gp_test_kernel_prov(&t, "scan", "stages"), "gfx900 has no bulk copy engine"));
    /* Tables without some facts: rule.h's stand-ins, named in the
     * provenance.  generic: wave none -> 64, as gfx900; no DRAM facts ->
     * Little's least unknown (one vector), the tile as the registers say. */
    GP_CHECK(rule_on("generic", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(block == 256 && items == 64);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "block"), "device.wave_size none: 64"));
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "dram.bandwidth_gbs") &&
             strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "none"));
    /* sm_80: gpu-benches' A100 DRAM figures, Little's least 4 items;
     * warps of 32 as on the H200. */
    GP_CHECK(rule_on("sm_80", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(block == 256 && items == 64);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "1360 GB/s x 574 cycles"));
    GP_CHECK(gp_table_validate(&t, "sm_80 after the scan rule").code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 0);
    /* The sm_90 facts with half the LDS: 114 KiB hold one 64 KiB tile, under
     * the ring's 3, but three of 128 x 64 (32 KiB): the ring at block 128.
     * With a quarter (57 KiB) no ring tile fits three times -> registers. */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_cu", 116736, "measured test 2026-11-25").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 3);
    GP_CHECK(block == 128 && items == 64 && strstr(gp_test_kernel_prov(&t, "scan", "block"), "halved to 128"));
    GP_CHECK(gp_table_set(&t, "lds", "bytes_per_cu", 58368, "measured test 2026-11-25").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK);
    GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 0 &&
             strstr(gp_test_kernel_prov(&t, "scan", "stages"), "under 3") && block == 256 && items == 64);
    return 0;
}

/* A shipped table whose [kernel.scan] rows say they come from the rule holds
 * what the rule derives from that table's facts (a swept value may differ). */
GP_TEST(scan_shipped_rule_rows_match_the_rule)
{
    int checked = 0;
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table shipped, derived;
        long long block, items;
        GP_CHECK(gp_test_load_shipped(table_names[i], &shipped) && gp_test_load_shipped(table_names[i], &derived));
        GP_CHECK(rule_run(&derived, &block, &items).code == GP_OK);
        const char *keys[3] = {"block", "items_per_thread", "stages"};
        for (int k = 0; k < 3; k++) {
            const gp_table_entry *e = gp_table_find(&shipped, "kernel.scan", keys[k]);
            GP_CHECK(e || k == 2); /* stages is optional */
            if (!e)
                continue;
            if (strncmp(e->prov, "rule ", 5) || !strcmp(e->prov, "rule generic-conservative"))
                continue;
            long long a = -1, b = -2;
            GP_CHECK(gp_table_get_int(&shipped, "kernel.scan", keys[k], &a).code == GP_OK);
            GP_CHECK(gp_table_get_int(&derived, "kernel.scan", keys[k], &b).code == GP_OK);
            if (a != b)
                fprintf(stderr, "tables/%s kernel.scan %s = %lld, the rule gives %lld\n", table_names[i], keys[k],
                        a, b);
            GP_CHECK(a == b);
            checked++;
        }
    }
    GP_CHECK(checked >= 4); /* sm_90 and gfx900, both keys */
    return 0;
}

GP_TEST(scan_rule_follows_its_facts)
{
    gp_table t;
    long long block = 0, items = 0;
    gp_status st;
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK && items == 64 && block == 256);
    /* Half the registers (warps of 32): 64 items fit 128 threads twice, 4
     * warps -> 64 items at 128 (the largest block that keeps two). */
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 32768, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 64 && block == 128);
    /* ... and waves of 64: 4 waves are 256 threads, which 64 and 32 items'
     * cap (128) cannot hold twice in 32768 -> 16 items (cap 64) at 256. */
    GP_CHECK(gp_table_set(&t, "device", "wave_size", 64, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 16 && block == 256);
    /* A quarter of the registers (warps of 32): 64 and 32 items fit only 64
     * threads twice, under 4 warps -> 16 items at 128. */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 16384, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 16 && block == 128);
    /* Twice the registers: two blocks of 512 would fit, but the 64-item
     * kernel is compiled for 256 at most -> 256; the launch peak at 128
     * caps it at 128. */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 131072, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 64 && block == 256);
    GP_CHECK(gp_table_set(&t, "launch", "min_block_for_peak", 128, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 64 && block == 128);
    /* A short array: 2^20 elements fill 4 x 132 SMs with no tile of 8 items
     * or more (Little's least on the H200): the least, 512 x 8, puts two
     * tiles (8192 elements) on the busiest SM; 256 x 32 puts one of 8192 on
     * every SM, so it is taken (a larger one would be busier), in registers:
     * 128 tiles cannot give a ring 3 stages a SM.  300000 elements: the
     * least's 74 tiles are one a SM already -> the least.  3000000: the
     * fill's 512 x 8 (733 tiles, 6 on the busiest SM) -> 256 x 32 (367, 3:
     * the same 24576 elements). */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    {
        gp_shape shp = {{(long long)1 << 20}, {0}};
        gp_rule_in in = {&t, &shp, 0};
        long long stages = -1;
        GP_CHECK(gp_scan_rule(&in, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "items_per_thread", &items).code == GP_OK && items == 32);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "block", &block).code == GP_OK && block == 256);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 0);
        GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "block"), "512 x 8 puts 8192 elements on the busiest"));
        shp.d[GP_SCAN_N] = 300000;
        GP_CHECK(gp_scan_rule(&in, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "items_per_thread", &items).code == GP_OK && items == 8);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "block", &block).code == GP_OK && block == 512);
        GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "block"), "no tile"));
        shp.d[GP_SCAN_N] = 3000000;
        GP_CHECK(gp_scan_rule(&in, &t).code == GP_OK);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "items_per_thread", &items).code == GP_OK && items == 32);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "block", &block).code == GP_OK && block == 256);
        GP_CHECK(gp_table_get_int(&t, "kernel.scan", "stages", &stages).code == GP_OK && stages == 0);
    }
    /* Little's least above the tile's first choice: sixteen times the DRAM
     * latency asks for 24 vectors -> 32 -> 64 items at least. */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(gp_table_set(&t, "dram", "far_latency_cycles", 11488, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "registers", "per_cu", 32768, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 64);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "at least 64"));
    /* The DRAM latency not detected (either partition): Little's bound is
     * unknown, and the provenance says which fact; the tile is unchanged. */
    GP_CHECK(rule_on("sm_90", &t, &block, &items, &st) && st.code == GP_OK);
    GP_CHECK(gp_table_set_none(&t, "dram", "latency_cycles", "measured test 2026-11-23 not detected: no chase").code ==
             GP_OK);
    GP_CHECK(gp_table_set_none(&t, "dram", "far_latency_cycles", "measured test 2026-11-23 not detected: no chase")
                 .code == GP_OK);
    GP_CHECK(rule_run(&t, &block, &items).code == GP_OK && items == 64 && block == 256);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "scan", "items_per_thread"), "dram.latency_cycles none"));
    /* A bad fact (a table built in memory can hold what the parser refuses):
     * refused, named, never a division by it. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    int ki = gp_table_key_index("dram", "bandwidth_gbs");
    GP_CHECK(ki >= 0);
    t.e[ki].d = -5;
    st = rule_run(&t, &block, &items);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] bandwidth_gbs"));
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    ki = gp_table_key_index("launch", "min_block_for_peak");
    GP_CHECK(ki >= 0);
    t.e[ki].present = 0;
    st = rule_run(&t, &block, &items);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[launch] min_block_for_peak"));
    return 0;
}

/* The rule for the shape launched: a short array gets tiles small enough to
 * give every CU two blocks twice over (and so no ring, which is compiled for
 * 16 items and more); a middling one the ring's tile at a smaller block; the
 * headline keeps the table's values. */
GP_TEST(scan_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_scan_rule(&in, &ruled).code == GP_OK);
    gp_scan_params big, small;
    char note[160];
    const gp_shape s_big = {{(long long)1 << 28}, {GP_SCAN_FP32, 0}};
    const gp_shape s_small = {{(long long)1 << 20}, {GP_SCAN_INT32, 1}};
    GP_CHECK(gp_kernel_params(&gp_kernel_scan, &ruled, NULL, &s_big, 0, &big, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "as the table"));
    GP_CHECK(big.block == 256 && big.items_per_thread == 64 && big.stages == 3);
    GP_CHECK(gp_kernel_params(&gp_kernel_scan, &ruled, NULL, &s_small, 0, &small, note, sizeof note).code == GP_OK);
    GP_CHECK(strstr(note, "rule for this shape:") && strstr(note, "items_per_thread 64->32") &&
             strstr(note, "stages 3->0"));
    GP_CHECK(small.block == 256 && small.items_per_thread == 32 && small.stages == 0);
    /* 2^28 / 4 CUs' worth of tiles: still the largest tile. */
    const gp_shape s_mid = {{4LL * 132 * 16384}, {0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_scan, &ruled, NULL, &s_mid, 0, &small, note, sizeof note).code == GP_OK);
    GP_CHECK(small.items_per_thread == 64 && small.stages == 3);
    /* 2^22: 256 tiles of 256 x 64 are under 3 a CU, 512 of 128 x 64 are
     * not: the ring at block 128, as many stages as the LDS holds (7). */
    const gp_shape s_4m = {{(long long)1 << 22}, {GP_SCAN_INT32, 0}};
    GP_CHECK(gp_kernel_params(&gp_kernel_scan, &ruled, NULL, &s_4m, 0, &small, note, sizeof note).code == GP_OK);
    GP_CHECK(small.block == 128 && small.items_per_thread == 64 && small.stages == 3);
    GP_CHECK(strstr(note, "block 256->128") && !strstr(note, "stages"));
    return 0;
}

/* Every bench problem's label reads back as its shape (the report reads
 * committed CSVs by label), the committed labels parse, and the case lists
 * fit the driver's room. */
GP_TEST(scan_labels_and_cases)
{
    const gp_kernel *k = &gp_kernel_scan;
    static gp_kcase c[GP_KCASE_MAX];
    gp_device_info dev = gp_test_fake_dev(32, 1024, 132);
    gp_table t;
    gp_scan_params p;
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
            gp_scan_params q;
            gp_kernel_variant(k, v, &p, &dev, &q);
            n = k->cases(GP_CASES_VARIANT, &q, &dev, quick, c, GP_KCASE_MAX);
            GP_CHECK(n >= 8 && n < GP_KCASE_MAX);
        }
    }
    GP_CHECK(k->shape_parse("2^20 int32 exclusive", &s).code == GP_OK && s.d[GP_SCAN_N] == 1 << 20 &&
             s.opt[GP_SCAN_TYPE] == GP_SCAN_INT32 && s.opt[GP_SCAN_EXCLUSIVE] == 1);
    GP_CHECK(k->shape_parse("2^28 fp32", &s).code == GP_OK && s.opt[GP_SCAN_EXCLUSIVE] == 0);
    GP_CHECK(k->shape_parse("1000 exclusive", &s).code == GP_OK && s.opt[GP_SCAN_EXCLUSIVE] == 1);
    k->shape_label(&s, label, sizeof label);
    GP_CHECK(!strcmp(label, "1000 fp32 exclusive"));
    GP_CHECK(k->shape_parse("2^20 fp32 exclusive inclusive", &s).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("not a label", &s).code == GP_ERR_USAGE);
    return 0;
}
