/* spmv on the CPU: the reference by hand and the bench's check against it,
 * the generated matrices' structure and row-length law, the plan's choice of
 * format and lanes a row, the depth formula by hand, the error bound against
 * a float model of the GPU's order of additions, parameters from every
 * shipped table, bad input refused before any device call, the variants, the
 * bench labels read back, and the rule on every shipped table's facts and
 * for a shape. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"
#include "data.h"
#include "rule.h"
#include "spmv.h"
#include "table.h"

static const char *const table_names[] = {"generic", "sm_90", "sm_80", "gfx900"};

static const gp_spmv_params P512 = {512, 4, 13, ""};

/* [1 0 2; 0 0 0; -3 4 0.5] x [1, 2, 4] = 9, 0, 7, and its reference. */
typedef struct hand {
    int rp[4], col[5];
    float val[5], x[3];
    gp_csr a;
    double ref[3], sa[3];
} hand;

static void hand_make(hand *h)
{
    const hand init = {{0, 2, 2, 5}, {0, 2, 0, 1, 2}, {1, 2, -3, 4, 0.5f}, {1, 2, 4}, {0}, {0}, {0}};
    *h = init;
    h->a = (gp_csr){3, 3, 5, h->rp, h->col, h->val};
    gp_spmv_ref(&h->a, h->x, 0, 3, h->ref, h->sa);
}

GP_TEST(spmv_ref_hand)
{
    /* [1 0 2; 0 0 0; -3 4 0.5] x [1, 2, 4]: 9, 0, 7. */
    int rp[4] = {0, 2, 2, 5}, col[5] = {0, 2, 0, 1, 2};
    float val[5] = {1, 2, -3, 4, 0.5f}, x[3] = {1, 2, 4};
    gp_csr a = {3, 3, 5, rp, col, val};
    double y[3], sa[3];
    GP_CHECK(gp_csr_check(&a, "hand").code == GP_OK);
    gp_spmv_ref(&a, x, 0, 3, y, sa);
    GP_CHECK(y[0] == 9 && y[1] == 0 && y[2] == 7);
    GP_CHECK(sa[0] == 9 && sa[1] == 0 && sa[2] == 13);
    gp_spmv_ref(&a, x, 2, 3, y, NULL); /* a row range, indexed from r0 */
    GP_CHECK(y[0] == 7);
    return 0;
}

GP_TEST(spmv_csr_check_names_the_row)
{
    int rp[4] = {0, 2, 1, 3}, col[3] = {0, 1, 2};
    float val[3] = {1, 1, 1};
    gp_csr a = {3, 3, 3, rp, col, val};
    gp_status st = gp_csr_check(&a, "m");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "row 1"));
    rp[2] = 2;
    col[2] = 3; /* past the last column */
    st = gp_csr_check(&a, "m");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "row 2") && strstr(st.msg, "column 3"));
    col[2] = 2;
    rp[0] = 1;
    st = gp_csr_check(&a, "m");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "row_ptr[0]"));
    rp[0] = 0, rp[3] = 2;
    st = gp_csr_check(&a, "m");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "nnz"));
    rp[3] = 3;
    GP_CHECK(gp_csr_check(&a, "m").code == GP_OK);
    return 0;
}

/* The bench's check (gp_spmv_check): the rows checked (every one, or a
 * stride), the bound of the path, small integers exact. */
GP_TEST(spmv_check_names_the_row)
{
    hand h;
    hand_make(&h);
    const gp_csr a = h.a;
    double *ref = h.ref, *sa = h.sa;
    float y[3] = {9, 0, 7};
    for (int format = -1; format <= GP_SPMV_CSR; format++)
        GP_CHECK(gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, format, 0, 0, "y").code == GP_OK);
    y[2] = 7.001f;
    gp_status st = gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, -1, 0, 0, "y");
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "y: y[2]") && strstr(st.msg, "row of 3"));
    /* Rows 0 and 2 checked at stride 2 (their references packed): row 1 unseen. */
    double ref2[2] = {ref[0], ref[2]}, sa2[2] = {sa[0], sa[2]};
    y[2] = 7, y[1] = 1;
    GP_CHECK(gp_spmv_check(&a, y, 2, ref2, sa2, &P512, 32, GP_SPMV_CSR, 0, 0, "y").code == GP_OK);
    GP_CHECK(gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, GP_SPMV_CSR, 0, 0, "y").code == GP_ERR_CHECK);
    /* Exact: an error far within the fp32 bound still fails. */
    y[1] = 0, y[0] = nextafterf(9.0f, 10.0f);
    GP_CHECK(gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, GP_SPMV_CSR, 0, 0, "y").code == GP_OK);
    GP_CHECK(gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, GP_SPMV_CSR, 0, 1, "y").code == GP_ERR_CHECK);
    return 0;
}

GP_TEST(spmv_generators)
{
    gp_csr a;
    uint64_t rng = 5;
    /* Laplacian 3^2: 5 x 9 - 4 x 3 = 33 nonzeros; the centre row is the
     * full stencil; a row sums to 0 inside, 2 at a corner, 1 on an edge. */
    GP_CHECK(gp_spmv_gen_laplacian(&a, 3).code == GP_OK);
    GP_CHECK(a.rows == 9 && a.cols == 9 && a.nnz == 33 && gp_csr_check(&a, "lap").code == GP_OK);
    GP_CHECK(a.row_ptr[5] - a.row_ptr[4] == 5);
    const int centre[5] = {1, 3, 4, 5, 7};
    for (int k = 0; k < 5; k++)
        GP_CHECK(a.col[a.row_ptr[4] + k] == centre[k] && a.val[a.row_ptr[4] + k] == (k == 2 ? 4.0f : -1.0f));
    const float sums[9] = {2, 1, 2, 1, 0, 1, 2, 1, 2};
    for (int r = 0; r < 9; r++) {
        float s = 0;
        for (int j = a.row_ptr[r]; j < a.row_ptr[r + 1]; j++)
            s += a.val[j];
        GP_CHECK(s == sums[r]);
    }
    gp_csr_free(&a);
    /* Uniform: exactly per_row distinct sorted columns, values in [-1, 1). */
    GP_CHECK(gp_spmv_gen_uniform(&a, 1000, 40, 16, &rng).code == GP_OK);
    GP_CHECK(a.nnz == 16000 && gp_csr_check(&a, "uniform").code == GP_OK);
    for (int r = 0; r < a.rows; r++)
        for (int j = a.row_ptr[r] + 1; j < a.row_ptr[r + 1]; j++)
            GP_CHECK(a.col[j] > a.col[j - 1]);
    for (long long j = 0; j < a.nnz; j++)
        GP_CHECK(a.val[j] >= -1.0f && a.val[j] < 1.0f);
    gp_csr_free(&a);
    GP_CHECK(gp_spmv_gen_uniform(&a, 10, 4, 4, &rng).code == GP_OK); /* every column */
    for (int j = 0; j < 4; j++)
        GP_CHECK(a.col[36 + j] == j);
    gp_csr_free(&a);
    GP_CHECK(gp_spmv_gen_uniform(&a, 10, 4, 5, &rng).code == GP_ERR_USAGE);
    /* Power-law: lengths in lmin..cap, distinct sorted columns, and the
     * tail P(L >= 16) = (4/16)^1.5 = 1/8, P(L >= 64) = 1/64. */
    const int rows = 200000;
    GP_CHECK(gp_spmv_gen_powerlaw(&a, rows, 100000, 4, 1.5, 5000, &rng).code == GP_OK);
    GP_CHECK(gp_csr_check(&a, "power-law").code == GP_OK);
    int ge16 = 0, ge64 = 0, maxl = 0;
    for (int r = 0; r < rows; r++) {
        int l = a.row_ptr[r + 1] - a.row_ptr[r];
        GP_CHECK(l >= 4 && l <= 5000);
        ge16 += l >= 16, ge64 += l >= 64, maxl = l > maxl ? l : maxl;
        for (int j = a.row_ptr[r] + 1; j < a.row_ptr[r + 1]; j++)
            GP_CHECK(a.col[j] > a.col[j - 1]);
    }
    GP_CHECK(fabs(ge16 / (double)rows - 0.125) < 0.01);
    GP_CHECK(fabs(ge64 / (double)rows - 1.0 / 64) < 0.002);
    GP_CHECK(maxl == 5000); /* 200000 x (4/5000)^1.5 = 4.5 rows expected at the cut */
    gp_csr_free(&a);
    return 0;
}

GP_TEST(spmv_choice)
{
    gp_csr a;
    gp_spmv_choice c;
    uint64_t rng = 9;
    /* Laplacian: width 5 slots cost no more than CSR's bytes -> ELL. */
    GP_CHECK(gp_spmv_gen_laplacian(&a, 64).code == GP_OK);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 0, &c).code == GP_OK);
    GP_CHECK(c.format == GP_SPMV_ELL && c.ell_width == 5 && strstr(c.why, "ELL width 5"));
    /* Forced CSR: mean 4.94 <= 13 and even rows -> one thread a row. */
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_CSR, 0, &c).code == GP_OK);
    GP_CHECK(c.format == GP_SPMV_CSR && c.tpr == 1 && c.nlong == 0);
    gp_spmv_params q = P512;
    q.scalar_max_row = 4; /* below the mean: vector, floor_pow2(4.94) = 4 lanes */
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &q, 32, GP_SPMV_CSR, 0, &c).code == GP_OK);
    GP_CHECK(c.tpr == 4);
    gp_csr_free(&a);
    /* Uniform 16: ELL (width = mean); CSR forced: 16 lanes. */
    GP_CHECK(gp_spmv_gen_uniform(&a, 5000, 5000, 16, &rng).code == GP_OK);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 0, &c).code == GP_OK);
    GP_CHECK(c.format == GP_SPMV_ELL && c.ell_width == 16);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 64, GP_SPMV_CSR, 0, &c).code == GP_OK);
    GP_CHECK(c.format == GP_SPMV_CSR && c.tpr == 16);
    gp_csr_free(&a);
    /* Power-law: ELL would pad -> CSR; the mean is under scalar_max_row but
     * the rows of a wave are uneven -> vector; rows over a block listed. */
    GP_CHECK(gp_spmv_gen_powerlaw(&a, 100000, 100000, 4, 1.5, 20000, &rng).code == GP_OK);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 0, &c).code == GP_OK);
    long long nlong = 0;
    for (int r = 0; r < a.rows; r++)
        nlong += a.row_ptr[r + 1] - a.row_ptr[r] > 512;
    GP_CHECK(c.format == GP_SPMV_CSR && c.mean < 13 && c.wave_max_mean > 2 * c.mean);
    GP_CHECK(c.tpr == (int)gp_rule_floor_pow2((long long)c.mean) && c.tpr >= 2);
    GP_CHECK(c.long_min == 512 && c.nlong == nlong && nlong > 0);
    /* Lanes forced, and a wave of 64 allows 64. */
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 64, GP_SPMV_AUTO, 64, &c).code == GP_OK && c.tpr == 64);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 64, &c).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 3, &c).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 48, GP_SPMV_AUTO, 0, &c).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, 7, 0, &c).code == GP_ERR_USAGE);
    gp_csr_free(&a);
    /* Very long rows in a short matrix: the mean caps at the wave. */
    int len[4] = {3000, 2000, 0, 5000};
    GP_CHECK(gp_spmv_gen_lengths(&a, 4, 6000, len, &rng).code == GP_OK);
    GP_CHECK(gp_spmv_choose(a.row_ptr, a.rows, &P512, 32, GP_SPMV_AUTO, 0, &c).code == GP_OK);
    GP_CHECK(c.format == GP_SPMV_CSR && c.tpr == 32 && c.nlong == 3);
    gp_csr_free(&a);
    return 0;
}

GP_TEST(spmv_depth_by_hand)
{
    gp_spmv_choice c;
    memset(&c, 0, sizeof c);
    c.format = GP_SPMV_CSR, c.tpr = 8, c.long_min = 512;
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 0) == 0);
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 1) == 1 + 3);
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 20) == 3 + 3);
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 512) == 64 + 3);
    /* A long row: ceil(L / block) + 2 log2 wave. */
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 513) == 2 + 10);
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 64, 5000) == 10 + 12);
    c.tpr = 1;
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 7) == 7);
    c.format = GP_SPMV_ELL, c.long_min = 1;
    GP_CHECK(gp_spmv_f32_depth(&c, &P512, 32, 700) == 700);
    GP_CHECK_NEAR(gp_f32_sum_bound(10, 2.0), 2.0 * 10 * ldexp(1.0, -24) / (1 - 10 * ldexp(1.0, -24)), 1e-20);
    GP_CHECK(isinf(gp_f32_sum_bound(1ll << 24, 1.0)));
    return 0;
}

/* ------------------------------------------------------------ GPU model
 * The kernels' order (spmv.hip) in float: lane l of G takes j = l, l + G,
 * ... serially with an FMA each (padding skipped), then the butterfly. */
static float model_lanes(const float *a, const float *x, const int *col, int L, int G, int wave, int nested)
{
    float v[1024];
    for (int l = 0; l < G; l++) {
        float acc = 0.0f;
        for (int j = l; j < L; j += G)
            acc = fmaf(a[j], x[col[j]], acc);
        v[l] = acc;
    }
    if (!nested) {
        for (int o = G / 2; o > 0; o /= 2) {
            float t[1024];
            for (int l = 0; l < G; l++)
                t[l] = v[l] + v[l ^ o];
            memcpy(v, t, (size_t)G * sizeof(float));
        }
        return v[0];
    }
    /* A long row (G = the block): each wave's butterfly, then one over the
     * wave totals padded with zeros to a wave. */
    float w[64] = {0};
    for (int b = 0; b < G / wave; b++) {
        float *s = v + b * wave;
        for (int o = wave / 2; o > 0; o /= 2) {
            float t[64];
            for (int l = 0; l < wave; l++)
                t[l] = s[l] + s[l ^ o];
            memcpy(s, t, (size_t)wave * sizeof(float));
        }
        w[b] = s[0];
    }
    for (int o = wave / 2; o > 0; o /= 2) {
        float t[64];
        for (int l = 0; l < wave; l++)
            t[l] = w[l] + w[l ^ o];
        memcpy(w, t, (size_t)wave * sizeof(float));
    }
    return w[0];
}

GP_TEST(spmv_bound_holds_for_the_gpu_order)
{
    enum { LMAX = 5000 };
    static float a[LMAX], x[LMAX];
    static int col[LMAX];
    uint64_t rng = 17;
    double worst = 0;
    gp_spmv_params p = {256, 4, 13, ""};
    for (int i = 0; i < LMAX; i++)
        col[i] = i;
    const int lens[] = {1, 2, 5, 16, 31, 33, 200, 256, 257, 1000, 4999};
    for (int kind = 0; kind < 3; kind++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            const int L = lens[li];
            for (int i = 0; i < L; i++) {
                double r = gp_rand_uniform(&rng, 0, 1);
                /* 0: uniform products; 1: positive, spread over 2^20; 2:
                 * 1, then terms just under half an ulp of 1, which a serial
                 * sum drops one by one, all the same way: the error then
                 * nears the bound (a depth that undercounts fails here). */
                a[i] = kind == 0   ? (float)(2 * r - 1)
                       : kind == 1 ? (float)ldexp(1.0 + r, (int)(r * 20))
                                   : (i == 0 ? 1.0f : 0x1.fp-25f);
                x[i] = kind == 2 ? 1.0f : (float)gp_rand_uniform(&rng, -1, 1);
            }
            double ref = 0, sa = 0;
            for (int i = 0; i < L; i++)
                ref += (double)a[i] * x[i], sa += fabs((double)a[i] * x[i]);
            for (int wave = 32; wave <= 64; wave *= 2)
                for (int G = 1; G <= wave; G *= 2)
                    for (int fmt = 0; fmt < 3; fmt++) {
                        gp_spmv_choice c;
                        memset(&c, 0, sizeof c);
                        c.format = fmt == 2 ? GP_SPMV_ELL : GP_SPMV_CSR;
                        c.tpr = fmt == 2 ? 1 : G;
                        c.long_min = fmt == 1 ? 0 : 1 << 30; /* 1: the long-row path */
                        float got = fmt == 1   ? model_lanes(a, x, col, L, p.block, wave, 1)
                                    : fmt == 2 ? model_lanes(a, x, col, L, 1, wave, 0)
                                               : model_lanes(a, x, col, L, G, wave, 0);
                        double err = fabs((double)got - ref);
                        double bound = gp_f32_sum_bound(gp_spmv_f32_depth(&c, &p, wave, L), sa);
                        if (!(err <= bound))
                            fprintf(stderr, "kind %d L %d wave %d G %d fmt %d: error %g > bound %g\n", kind, L, wave,
                                    G, fmt, err, bound);
                        GP_CHECK(err <= bound);
                        if (bound > 0 && err / bound > worst)
                            worst = err / bound;
                    }
        }
    GP_CHECK(worst > 0.5); /* the bound is nearly reached: it is not slack */
    return 0;
}

/* What a launch of the headline problem reads from t (the one path). */
static gp_status from_table(const gp_table *t, const gp_device_info *dev, gp_spmv_params *p)
{
    char note[160];
    return gp_kernel_params(&gp_kernel_spmv, t, dev, NULL, 0, p, note, sizeof note);
}

GP_TEST(spmv_params_from_tables)
{
    const gp_device_info devs[3] = {gp_test_fake_dev(32, 1024, 132), gp_test_fake_dev(64, 1024, 64),
                                    gp_test_fake_dev(64, 256, 8)};
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table t;
        GP_CHECK(gp_test_load_shipped(table_names[i], &t));
        for (int d = 0; d < 3; d++) {
            gp_spmv_params p;
            GP_CHECK(from_table(&t, &devs[d], &p).code == GP_OK);
            GP_CHECK(p.unroll == 1 || p.unroll == 2 || p.unroll == 4 || p.unroll == 8);
            GP_CHECK(p.block >= 64 && p.block <= devs[d].max_threads_per_block && !(p.block & (p.block - 1)));
            GP_CHECK(p.scalar_max_row >= 0);
        }
    }
    return 0;
}

GP_TEST(spmv_params_clamped)
{
    gp_device_info d = gp_test_fake_dev(64, 256, 64);
    gp_spmv_params p = {1024, 3, -2, ""};
    gp_spmv_params_fit(&p, &d);
    GP_CHECK(p.block == 256 && p.unroll == 2 && p.scalar_max_row == 0);
    GP_CHECK(strstr(p.note, "block") && strstr(p.note, "unroll") && strstr(p.note, "scalar_max_row"));
    p = (gp_spmv_params){32, 64, 5, ""};
    gp_spmv_params_fit(&p, &d);
    GP_CHECK(p.block == 64 && p.unroll == 8 && p.scalar_max_row == 5);
    p = (gp_spmv_params){128, 4, 5, ""};
    gp_spmv_params_fit(&p, &d);
    GP_CHECK(p.note[0] == '\0');
    return 0;
}

/* The check against a plan's choice is the check that makes the choice
 * itself (the bench checks every timed run so, without choosing again). */
GP_TEST(spmv_check_choice_is_the_check)
{
    hand h;
    hand_make(&h);
    const gp_csr a = h.a;
    const double *ref = h.ref, *sa = h.sa;
    const int *rp = h.rp;
    const float near = nextafterf(7.0f, 8.0f), far = 7.001f;
    for (int format = -1; format <= GP_SPMV_ELL; format++)
        for (int k = 0; k < 3; k++) {
            float y[3] = {9, 0, k == 0 ? 7.0f : k == 1 ? near : far};
            gp_spmv_choice c;
            if (format >= 0)
                GP_CHECK(gp_spmv_choose(rp, 3, &P512, 32, format, 0, &c).code == GP_OK);
            for (int exact = 0; exact <= 1; exact++) {
                const int want = gp_spmv_check(&a, y, 1, ref, sa, &P512, 32, format, 0, exact, "y").code;
                GP_CHECK(gp_spmv_check_choice(&a, y, 1, ref, sa, format >= 0 ? &c : NULL, &P512, 32, exact, "y").code
                         == want);
                GP_CHECK(want == (k == 0 || (k == 1 && !exact) ? GP_OK : GP_ERR_CHECK));
            }
        }
    return 0;
}

GP_TEST(spmv_bad_input_before_the_device)
{
    /* Fake device pointers: every refusal here happens before a device call. */
    const int *drp = (const int *)(uintptr_t)0x100000, *dcol = (const int *)(uintptr_t)0x200000;
    const float *dval = (const float *)(uintptr_t)0x300000, *dx = (const float *)(uintptr_t)0x400000;
    float *dy = (float *)(uintptr_t)0x800000;
    int rp[4] = {0, 2, 2, 5}, col[5] = {0, 2, 0, 1, 2};
    float val[5] = {1, 2, -3, 4, 0.5f};
    gp_csr a = {3, 3, 5, rp, col, val};
    gp_spmv_plan pl;
    gp_spmv_params p = {256, 4, 0, ""}, bad = {100, 4, 0, ""};
    GP_CHECK(gp_spmv_plan_create(&pl, &a, drp, dcol, dval, &bad, 32, GP_SPMV_CSR, 0).code == GP_ERR_USAGE);
    col[3] = 9;
    gp_status st = gp_spmv_plan_create(&pl, &a, drp, dcol, dval, &p, 32, GP_SPMV_CSR, 0);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "row 2"));
    col[3] = 1;
    GP_CHECK(gp_spmv_plan_create(&pl, &a, drp, NULL, dval, &p, 32, GP_SPMV_CSR, 0).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_plan_create(&pl, &a, drp, dcol, dval, &p, 16, GP_SPMV_CSR, 0).code == GP_ERR_USAGE);
    /* CSR without long rows needs no device call to plan. */
    GP_CHECK(gp_spmv_plan_create(&pl, &a, drp, dcol, dval, &p, 32, GP_SPMV_CSR, 0).code == GP_OK);
    GP_CHECK(gp_spmv_run(&pl, dx, NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_run(&pl, NULL, dy, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_spmv_run(&pl, (const float *)((const char *)dx + 2), dy, NULL).code == GP_ERR_USAGE);
    st = gp_spmv_run(&pl, dx, (float *)(dx + 2), NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "overlap"));
    GP_CHECK(gp_spmv_run(NULL, dx, dy, NULL).code == GP_ERR_USAGE);
    /* Accepted arguments reach the launcher: NO_GPU without a backend. */
    if (strcmp(gp_rt_backend(), "none") == 0)
        GP_CHECK(gp_spmv_run(&pl, dx, dy, NULL).code == GP_ERR_NO_GPU);
    gp_spmv_plan_destroy(&pl);
    /* A plan never made is refused, not launched. */
    memset(&pl, 0, sizeof pl);
    GP_CHECK(gp_spmv_run(&pl, dx, dy, NULL).code == GP_ERR_USAGE);
    /* The library's plan call leaves a refused plan zeroed, so that its
     * destroy frees nothing, whatever the caller's memory held. */
    memset(&pl, 0xab, sizeof pl);
    GP_CHECK(gp_spmv_plan_for(NULL, &pl, &a, drp, dcol, dval).code == GP_ERR_USAGE);
    GP_CHECK(pl.d_long == NULL && pl.d_ell_col == NULL && pl.d_ell_val == NULL && pl.device == 0);
    gp_spmv_plan_destroy(&pl);
    return 0;
}

GP_TEST(spmv_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("spmv");
    GP_CHECK(k == &gp_kernel_spmv && k->rule == gp_spmv_rule && k->cases && k->prepare && k->check);
    GP_CHECK(k->nvariants > 8 && k->nvariants <= 31 && k->nimpls <= GP_KIMPL_MAX && k->verify_extra);
    gp_table base;
    GP_CHECK(gp_test_load_shipped("sm_90", &base));
    gp_device_info h200 = gp_test_fake_dev(32, 1024, 132);
    gp_spmv_params p0, p;
    GP_CHECK(from_table(&base, &h200, &p0).code == GP_OK);
    int unrolls = 0, blocks = 0, kept = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_kernel_variant(k, v, &p0, &h200, &p);
        GP_CHECK(p.note[0] == '\0'); /* every variant is legal as written */
        unrolls |= p.unroll, blocks |= p.block;
        kept += p.scalar_max_row == p0.scalar_max_row; /* GP_PARAM_KEEP: the base table's */
    }
    GP_CHECK(unrolls == (1 | 2 | 4 | 8) && (blocks & 256) && (blocks & 512) && kept >= k->nvariants - 2);
    char b[192];
    gp_kernel_params_text(k, &p0, b, sizeof b);
    GP_CHECK(strstr(b, "block=128 unroll=4 scalar_max_row=13"));
    /* cuSPARSE is the baseline (at least as fast: 1.0); ours with CSR and the
     * lanes a row forced are verified too. */
    GP_CHECK(k->impls[0].baseline && k->impls[0].pair && k->impls[0].target == 1.0 && !k->impls[0].verify);
    for (int i = 1; i < k->nimpls; i++)
        GP_CHECK(!k->impls[i].baseline && !k->impls[i].pair && k->impls[i].verify);
    return 0;
}

/* Today's bench labels (committed bench CSVs) read back to the matrices the
 * bench generates, and every case's label reads back to its shape. */
GP_TEST(spmv_shapes_read_back)
{
    const gp_kernel *k = &gp_kernel_spmv;
    static const char *const labels[] = {"laplacian 5-point 4096^2", "uniform 4194304 rows x 16",
                                         "power-law 4194304 rows (4/l)^1.5 cut 65536"};
    gp_shape s, t;
    char b[160];
    for (int i = 0; i < 3; i++) {
        GP_CHECK(k->shape_parse(labels[i], &s).code == GP_OK);
        k->shape_label(&s, b, sizeof b);
        GP_CHECK(strcmp(b, labels[i]) == 0);
    }
    GP_CHECK(k->shape_parse(labels[0], &s).code == GP_OK);
    GP_CHECK(s.d[GP_SPMV_ROWS] == 4096 * 4096 && s.opt[GP_SPMV_OPT_KIND] == GP_SPMV_KIND_LAPLACIAN);
    GP_CHECK(k->shape_parse(labels[2], &s).code == GP_OK);
    GP_CHECK(s.d[GP_SPMV_LEN] == 4 && s.opt[GP_SPMV_OPT_ALPHA] == 150 && s.d[GP_SPMV_CUT] == 65536);
    /* The user's short forms. */
    GP_CHECK(k->shape_parse("laplacian 64", &t).code == GP_OK && t.d[GP_SPMV_ROWS] == 4096);
    GP_CHECK(k->shape_parse("power-law 1000 rows", &t).code == GP_OK && t.d[GP_SPMV_CUT] == 65536);
    GP_CHECK(k->shape_parse("uniform 30001 rows x 3 cols 777", &t).code == GP_OK && t.d[GP_SPMV_COLS] == 777);
    GP_CHECK(k->shape_parse("uniform 30001 rows", &t).code == GP_ERR_USAGE);
    GP_CHECK(k->shape_parse("laplacian 5-point 4096^2 cols 3", &t).code == GP_ERR_USAGE);
    static gp_kcase cs[GP_KCASE_MAX];
    gp_spmv_params p = P512;
    for (int set = GP_CASES_BENCH; set <= GP_CASES_VARIANT; set++) {
        int n = k->cases(set, &p, NULL, 0, cs, GP_KCASE_MAX);
        GP_CHECK(n >= 3);
        for (int i = 0; i < n; i++) {
            k->shape_label(&cs[i].shape, b, sizeof b);
            GP_CHECK(k->shape_parse(b, &t).code == GP_OK && !memcmp(&t, &cs[i].shape, sizeof t));
        }
    }
    /* The floor's model: the Laplacian's 5 n^2 - 4 n nonzeros; the power-law
     * law's expectation, 11.47 a row. */
    gp_kernel_work w;
    GP_CHECK(gp_kernel_work_of_label(k, labels[0], &w).code == GP_OK);
    GP_CHECK_NEAR(w.flops, 2.0 * (5.0 * 4096 * 4096 - 4.0 * 4096), 1);
    GP_CHECK(gp_kernel_work_of_label(k, labels[2], &w).code == GP_OK);
    GP_CHECK(fabs(w.flops / (2.0 * 4194304) - 11.468) < 0.002);
    return 0;
}

/* Every drawn shape (what `verify --random-shapes` runs) generates: a
 * default column count that cannot hold the kind's longest row failed
 * there, on the GPU, after the shape was accepted. */
GP_TEST(spmv_random_shapes_generate)
{
    uint64_t rng = 8189298780578346453ull, data = 1;
    int made = 0;
    for (int j = 0; j < 300; j++) {
        gp_shape s;
        gp_kernel_spmv.shape_random(&rng, &s);
        if (gp_spmv_shape_nnz(&s) > (1 << 20))
            continue;
        gp_csr a;
        memset(&a, 0, sizeof a);
        gp_status st = gp_spmv_gen_shape(&a, &s, &data);
        if (st.code != GP_OK) {
            char b[160];
            gp_kernel_spmv.shape_label(&s, b, sizeof b);
            fprintf(stderr, "'%s': %s\n", b, st.msg);
        }
        GP_CHECK(st.code == GP_OK);
        gp_csr_free(&a);
        made++;
    }
    GP_CHECK(made > 50);
    gp_shape m;
    GP_CHECK(gp_kernel_spmv.shape_parse("mixed 96 rows block 1", &m).code == GP_OK && m.d[GP_SPMV_COLS] == 72);
    return 0;
}

/* ----------------------------------------------------------------- rule */

static gp_status rule_run(gp_table *t, long long v[3])
{
    gp_rule_in in = {t, NULL, 0};
    gp_status st = gp_spmv_rule(&in, t);
    if (st.code == GP_OK) {
        gp_table_get_int(t, "kernel.spmv", "block", &v[0]);
        gp_table_get_int(t, "kernel.spmv", "unroll", &v[1]);
        gp_table_get_int(t, "kernel.spmv", "scalar_max_row", &v[2]);
    }
    return st;
}

GP_TEST(spmv_rule_on_shipped_tables)
{
    gp_table t;
    long long v[3];
    /* H200: 4 waves of 32 -> 128; 3 x 4342 GB/s x 718 cycles @1980 MHz / 132 = 11.9 kB
     * over 2048 threads x 8 B = 2.18 -> 4; 225227 / (8 x 2048) = 13.7 -> 13. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t) && rule_run(&t, v).code == GP_OK);
    GP_CHECK(v[0] == 128 && v[1] == 4 && v[2] == 13);
    GP_CHECK(strncmp(gp_test_kernel_prov(&t, "spmv", "unroll"), "rule gp_spmv_rule little:", 25) == 0);
    GP_CHECK(strstr(gp_test_kernel_prov(&t, "spmv", "scalar_max_row"), "225227"));
    /* gfx900: 256; the kernels hold 66 VGPRs there (3 blocks of 256 a CU, 768
     * threads); 3 x 2.7 kB / (768 x 8) = 1.36 -> 2; 16 KiB / (8 x 768) -> 2. */
    GP_CHECK(gp_test_load_shipped("gfx900", &t) && rule_run(&t, v).code == GP_OK);
    GP_CHECK(v[0] == 256 && v[1] == 2 && v[2] == 2);
    /* generic: no DRAM facts -> the stand-in 4, named; its wave is the
     * stand-in 64 (256 threads). */
    GP_CHECK(gp_test_load_shipped("generic", &t) && rule_run(&t, v).code == GP_OK);
    GP_CHECK(v[0] == 256 && v[1] == 4 && strstr(gp_test_kernel_prov(&t, "spmv", "unroll"), "stand-in"));
    /* sm_80, gpu-benches' A100 figures: 3 x 5.0 KiB / (2048 x 8 B) = 0.94 ->
     * 1; 176128 / (8 x 2048) = 10.75 -> 10. */
    GP_CHECK(gp_test_load_shipped("sm_80", &t) && rule_run(&t, v).code == GP_OK);
    GP_CHECK(v[0] == 128 && v[1] == 1 && v[2] == 10);
    GP_CHECK(gp_table_validate(&t, "sm_80 after the spmv rule").code == GP_OK);
    return 0;
}

GP_TEST(spmv_shipped_rule_rows_match_the_rule)
{
    int checked = 0;
    for (size_t i = 0; i < sizeof table_names / sizeof table_names[0]; i++) {
        gp_table shipped, derived;
        long long v[3];
        GP_CHECK(gp_test_load_shipped(table_names[i], &shipped) && gp_test_load_shipped(table_names[i], &derived));
        GP_CHECK(rule_run(&derived, v).code == GP_OK);
        const char *keys[3] = {"block", "unroll", "scalar_max_row"};
        for (int k = 0; k < 3; k++) {
            const gp_table_entry *e = gp_table_find(&shipped, "kernel.spmv", keys[k]);
            GP_CHECK(e);
            if (strncmp(e->prov, "rule ", 5))
                continue;
            long long a = -1;
            GP_CHECK(gp_table_get_int(&shipped, "kernel.spmv", keys[k], &a).code == GP_OK);
            if (a != v[k])
                fprintf(stderr, "tables/%s kernel.spmv %s = %lld, the rule gives %lld\n", table_names[i], keys[k], a,
                        v[k]);
            GP_CHECK(a == v[k]);
            checked++;
        }
    }
    GP_CHECK(checked >= 6);
    return 0;
}

GP_TEST(spmv_rule_follows_its_facts)
{
    gp_table t;
    long long v[3];
    GP_CHECK(gp_test_load_shipped("sm_90", &t) && rule_run(&t, v).code == GP_OK && v[1] == 4);
    /* Four times the bandwidth: 8.7 -> capped at 8. */
    GP_CHECK(gp_table_set(&t, "dram", "bandwidth_gbs", 17366, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, v).code == GP_OK && v[1] == 8);
    /* Twice the L1 and four times the SMs (a quarter of the bytes in flight
     * each): scalar up to 27, and 0.55 -> 1 nonzero a lane. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    GP_CHECK(gp_table_set(&t, "cache.l1", "bytes", 450454, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "device", "compute_units", 528, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, v).code == GP_OK && v[2] == 27 && v[1] == 1);
    /* The launch peak at 200 threads: block 128, and 16 of them resident. */
    GP_CHECK(gp_table_set(&t, "launch", "min_block_for_peak", 200, "measured test 2026-11-23").code == GP_OK);
    GP_CHECK(rule_run(&t, v).code == GP_OK && v[0] == 128 && v[2] == 27);
    /* L1 not detected: never scalar, and the provenance says why. */
    GP_CHECK(gp_table_set_none(&t, "cache.l1", "bytes", "measured test 2026-11-23 not detected: flat").code == GP_OK);
    GP_CHECK(rule_run(&t, v).code == GP_OK && v[2] == 0 &&
             strstr(gp_test_kernel_prov(&t, "spmv", "scalar_max_row"), "none"));
    /* A bad fact is refused and named. */
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    int ki = gp_table_key_index("dram", "bandwidth_gbs");
    GP_CHECK(ki >= 0);
    t.e[ki].d = -5;
    gp_status st = rule_run(&t, v);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "[dram] bandwidth_gbs"));
    return 0;
}

/* The block follows the rows: the headline (16.8 M rows) keeps the rule's
 * 4 waves of 32, a matrix whose rows cannot give each of the H200's 132 SMs
 * a block of 128 gets a smaller one (10001 rows: 64, 157 blocks), and so
 * does a tiny one. */
GP_TEST(spmv_params_follow_the_shape)
{
    static gp_table t, ruled;
    GP_CHECK(gp_test_load_shipped("sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_spmv_rule(&in, &ruled).code == GP_OK);
    static const struct {
        const char *spec;
        int block;
    } want[] = {{"laplacian 5-point 4096^2", 128}, {"uniform 4194304 rows x 16", 128}, {"laplacian 300", 128},
                {"uniform 10001 rows x 3 cols 777", 64}, {"mixed 1000 rows block 512", 64}};
    char note[160];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_shape s;
        gp_spmv_params p;
        GP_CHECK(gp_kernel_spmv.shape_parse(want[i].spec, &s).code == GP_OK);
        GP_CHECK(gp_kernel_params(&gp_kernel_spmv, &ruled, NULL, &s, 0, &p, note, sizeof note).code == GP_OK);
        if (p.block != want[i].block)
            fprintf(stderr, "%s: block %d, want %d\n", want[i].spec, p.block, want[i].block);
        GP_CHECK(p.block == want[i].block && p.unroll == 4 && p.scalar_max_row == 13);
    }
    GP_CHECK(strstr(note, "block 128->64"));
    /* The rule's provenance says why; the headline's is what it was. */
    static gp_table out;
    out = t;
    gp_shape s;
    GP_CHECK(gp_kernel_spmv.shape_parse("uniform 10001 rows x 3 cols 777", &s).code == GP_OK);
    gp_rule_in sin = {&t, &s, 0};
    GP_CHECK(gp_spmv_rule(&sin, &out).code == GP_OK);
    GP_CHECK(strstr(gp_test_kernel_prov(&out, "spmv", "block"), "10001 rows, a thread a row: halved"));
    GP_CHECK(strstr(gp_test_kernel_prov(&out, "spmv", "block"), "-> 64"));
    GP_CHECK(!strstr(gp_test_kernel_prov(&ruled, "spmv", "block"), "halved"));
    return 0;
}
