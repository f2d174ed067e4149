/* conv2d on the CPU: the reference against hand-computed cases (it is
 * cross-correlation: the kernel is not flipped), 'same' padding, channels and
 * batch; the tolerance; bad input; the parameters the shipped tables give on
 * an H200-like and an MI25-like device; the floor; the shapes and the rule
 * for the shape. */
#include <limits.h>
#include <string.h>

#include "conv2d.h"
#include "data.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"

static gp_conv2d_shape shape(int n, int in_c, int h, int w, int out_c, int kh, int kw, int ph, int pw)
{
    gp_conv2d_shape s = {n, in_c, h, w, out_c, kh, kw, ph, pw};
    return s;
}

/* H200 as the runtime reports it. */
static gp_device_info h200(void)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200");
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    d.compute_units = 132;
    d.wave_size = 32;
    d.max_threads_per_block = 1024;
    d.max_threads_per_cu = 2048;
    d.max_block_dim[0] = 1024, d.max_block_dim[1] = 1024, d.max_block_dim[2] = 64;
    d.max_grid_dim[0] = INT_MAX, d.max_grid_dim[1] = 65535, d.max_grid_dim[2] = 65535;
    d.lds_per_block = 49152;
    d.lds_per_block_optin = 232448;
    d.lds_per_cu = 233472;
    d.mem_bytes = 150ull << 30;
    d.mem_bus_bits = 6144;
    d.mem_clock_mhz = 2619;
    d.core_clock_mhz = 1980;
    return d;
}

static gp_device_info mi25(void)
{
    gp_device_info d = h200();
    snprintf(d.name, sizeof d.name, "Radeon Instinct MI25");
    snprintf(d.vendor, sizeof d.vendor, "AMD");
    snprintf(d.arch, sizeof d.arch, "gfx900");
    d.compute_units = 64;
    d.wave_size = 64;
    d.lds_per_block = d.lds_per_block_optin = d.lds_per_cu = 65536;
    d.mem_bytes = 16ull << 30;
    d.mem_bus_bits = 2048;
    d.mem_clock_mhz = 945;
    d.core_clock_mhz = 1536;
    return d;
}

/* The plan of a launch of s under table t on d, variant forced unless < 0:
 * the table's parameters as they are (no shape), fitted to d. */
static gp_status plan_make(const gp_table *t, const gp_device_info *d, const gp_conv2d_shape *s, int variant,
                           gp_conv2d_plan *p)
{
    gp_conv2d_params prm;
    GP_TRY(gp_kernel_params(&gp_kernel_conv2d, t, d, NULL, 0, &prm, NULL, 0));
    return gp_conv2d_plan_make(&prm, d, s, variant, p);
}

GP_TEST(conv2d_ref_hand_cross_correlation)
{
    /* x = 1..9 (3x3), w = [[1,2],[3,4]]: y00 = 1*1 + 2*2 + 4*3 + 5*4 = 37.
     * A flipped kernel (true convolution) would give 1*4 + 2*3 + 4*2 + 5*1 = 23. */
    gp_conv2d_shape s = shape(1, 1, 3, 3, 1, 2, 2, 0, 0);
    float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w[4] = {1, 2, 3, 4};
    double y[4], sa[4];
    int oh, ow;
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK);
    GP_CHECK(oh == 2 && ow == 2);
    GP_CHECK(gp_conv2d_y_elems(&s) == 4);
    gp_conv2d_ref(&s, x, w, y, sa);
    GP_CHECK_NEAR(y[0], 37, 0);
    GP_CHECK_NEAR(y[1], 47, 0);
    GP_CHECK_NEAR(y[2], 67, 0);
    GP_CHECK_NEAR(y[3], 77, 0);
    GP_CHECK_NEAR(sa[0], 37, 0); /* all terms positive */
    GP_CHECK_NEAR(gp_conv2d_flops(&s), 2.0 * 4 * 4, 0);
    return 0;
}

GP_TEST(conv2d_ref_same_padding)
{
    /* Ones through a 3x3 box with one zero on each side: 4 at the corners,
     * 6 on the edges, 9 inside. */
    gp_conv2d_shape s = shape(1, 1, 3, 3, 1, 3, 3, 1, 1);
    float x[9], w[9];
    for (int i = 0; i < 9; i++)
        x[i] = w[i] = 1;
    double y[9];
    int oh, ow;
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK);
    GP_CHECK(oh == 3 && ow == 3);
    gp_conv2d_ref(&s, x, w, y, NULL);
    const double want[9] = {4, 6, 4, 6, 9, 6, 4, 6, 4};
    for (int i = 0; i < 9; i++)
        GP_CHECK_NEAR(y[i], want[i], 0);
    /* Asymmetric padding (1, 0) with a 2x4 kernel: 5 + 2 - 2 + 1 rows, 6 - 4 + 1 columns. */
    s = shape(1, 1, 5, 6, 1, 2, 4, 1, 0);
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK);
    GP_CHECK(oh == 6 && ow == 3);
    /* Padding wider than the kernel: an all-zero border. */
    s = shape(1, 1, 2, 2, 1, 1, 1, 2, 2);
    float x4[4] = {1, 2, 3, 4}, w1[1] = {2};
    double y36[36];
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK);
    GP_CHECK(oh == 6 && ow == 6);
    gp_conv2d_ref(&s, x4, w1, y36, NULL);
    GP_CHECK_NEAR(y36[0], 0, 0);
    GP_CHECK_NEAR(y36[2 * 6 + 2], 2, 0);
    GP_CHECK_NEAR(y36[3 * 6 + 3], 8, 0);
    GP_CHECK_NEAR(y36[5 * 6 + 5], 0, 0);
    return 0;
}

GP_TEST(conv2d_ref_channels_and_batch)
{
    /* 1x1 kernel: y[n][o] = sum_c w[o][c] x[n][c], pixel by pixel. */
    gp_conv2d_shape s = shape(2, 2, 1, 2, 3, 1, 1, 0, 0);
    float x[8] = {1, 2, /* n0 c0 */ 3, 4, /* n0 c1 */ -1, 0.5f, /* n1 c0 */ 2, -2 /* n1 c1 */};
    float w[6] = {1, 1, /* o0 */ 2, -1, /* o1 */ 0, 3 /* o2 */};
    double y[12], sa[12];
    gp_conv2d_ref(&s, x, w, y, sa);
    const double want[12] = {4, 6, -1, 0, 9, 12, /* n0: o0 o1 o2 */ 1, -1.5, -4, 3, 6, -6 /* n1 */};
    for (int i = 0; i < 12; i++)
        GP_CHECK_NEAR(y[i], want[i], 1e-15);
    GP_CHECK_NEAR(sa[8], 2 + 2, 1e-15);   /* n1 o1 px0: |-1 x 2| + |2 x -1| */
    GP_CHECK_NEAR(sa[9], 1 + 2, 1e-15);   /* n1 o1 px1: |0.5 x 2| + |-2 x -1| */
    GP_CHECK_NEAR(sa[10], 0 + 6, 1e-15);  /* n1 o2 px0: |-1 x 0| + |2 x 3| */
    return 0;
}

GP_TEST(conv2d_ref_at_matches_full)
{
    gp_conv2d_shape s = shape(2, 3, 9, 11, 4, 2, 4, 1, 2);
    uint64_t st = 7;
    float x[2 * 3 * 9 * 11], w[4 * 3 * 2 * 4];
    gp_fill_uniform_f32(x, sizeof x / 4, -1, 1, &st);
    gp_fill_uniform_f32(w, sizeof w / 4, -1, 1, &st);
    int oh, ow;
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK);
    double y[2 * 4 * 10 * 12], sa[2 * 4 * 10 * 12];
    GP_CHECK(gp_conv2d_y_elems(&s) == sizeof y / sizeof y[0]);
    gp_conv2d_ref(&s, x, w, y, sa);
    size_t i = 0;
    for (int n = 0; n < 2; n++)
        for (int o = 0; o < 4; o++)
            for (int oy = 0; oy < oh; oy++)
                for (int ox = 0; ox < ow; ox++, i++) {
                    double v, a;
                    gp_conv2d_ref_at(&s, x, w, n, o, oy, ox, &v, &a);
                    GP_CHECK_NEAR(v, y[i], 1e-12);
                    GP_CHECK_NEAR(a, sa[i], 1e-12);
                }
    /* A float copy of the reference passes; the sampled check agrees. */
    float got[sizeof y / sizeof y[0]];
    for (size_t j = 0; j < i; j++)
        got[j] = (float)y[j];
    double tol = gp_conv2d_rel_tol(&s), max_rel = -1;
    GP_CHECK(gp_conv2d_compare("t", &s, got, y, sa, tol, &max_rel).code == GP_OK);
    GP_CHECK(max_rel >= 0 && max_rel <= tol);
    GP_CHECK(gp_conv2d_compare_sampled("t", &s, x, w, got, 100, 3, tol, NULL).code == GP_OK);
    /* The bench's: the reference of the edges and 20 drawn outputs, read at their indices. */
    size_t idx[sizeof y / sizeof y[0]];
    double rs[sizeof y / sizeof y[0]], as[sizeof y / sizeof y[0]];
    const size_t ns = gp_conv2d_sample(&s, 20, 3, NULL);
    GP_CHECK(ns == 2 * 2 * 2 * (10 + 12) + 20 && ns <= sizeof idx / sizeof idx[0]);
    gp_conv2d_ref_checked(&s, x, w, 20, 3, idx, rs, as);
    for (size_t j = 0; j < ns; j++)
        GP_CHECK(fabs(rs[j] - y[idx[j]]) < 1e-12 && fabs(as[j] - sa[idx[j]]) < 1e-12);
    GP_CHECK(gp_conv2d_compare_at("t", &s, got, idx, rs, as, ns, tol, NULL).code == GP_OK);
    /* One output off by more than the bound fails, naming it. */
    got[i - 1] += (float)(4 * tol * sa[i - 1] + 1e-6);
    gp_status r = gp_conv2d_compare("t", &s, got, y, sa, tol, NULL);
    GP_CHECK(r.code == GP_ERR_CHECK && strstr(r.msg, "y[1][3][9][11]"));
    GP_CHECK(gp_conv2d_compare_sampled("t", &s, x, w, got, 0, 3, tol, NULL).code == GP_ERR_CHECK);
    r = gp_conv2d_compare_at("t", &s, got, idx, rs, as, ns, tol, NULL); /* the last output is an edge */
    GP_CHECK(r.code == GP_ERR_CHECK && strstr(r.msg, "y[1][3][9][11]"));
    got[i - 1] = (float)y[i - 1];
    got[5] = NAN; /* a poisoned (unwritten) output */
    GP_CHECK(gp_conv2d_compare("t", &s, got, y, sa, tol, NULL).code == GP_ERR_CHECK);
    return 0;
}

GP_TEST(conv2d_tolerance_scale)
{
    /* 2 x (terms + 2) x 2^-24: 1 term -> 6 ulp-ish; the seed's 216 terms ~2.6e-5. */
    gp_conv2d_shape s = shape(1, 1, 1, 1, 1, 1, 1, 0, 0);
    GP_CHECK_NEAR(gp_conv2d_rel_tol(&s), 6.0 / 16777216.0, 1e-15);
    s = shape(1, 6, 768, 512, 6, 6, 6, 0, 0);
    GP_CHECK_NEAR(gp_conv2d_rel_tol(&s), 2.0 * 218 / 16777216.0, 1e-12);
    /* A TF32-like error (10-bit mantissa, ~5e-4 relative) on one term exceeds it. */
    GP_CHECK(gp_conv2d_rel_tol(&s) < 5e-4 / 8);
    return 0;
}

GP_TEST(conv2d_bad_input)
{
    int oh = -1, ow = -1;
    gp_conv2d_shape ok = shape(1, 6, 768, 512, 6, 6, 6, 0, 0);
    GP_CHECK(gp_conv2d_check(&ok, 0, &oh, &ow).code == GP_OK);
    GP_CHECK(oh == 763 && ow == 507);
    /* Zero sizes, field by field. */
    int *fields[] = {&ok.n, &ok.in_c, &ok.h, &ok.w, &ok.out_c, &ok.kh, &ok.kw};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        gp_conv2d_shape s = ok;
        int *f = (int *)((char *)&s + ((char *)fields[i] - (char *)&ok));
        *f = 0;
        gp_status r = gp_conv2d_check(&s, 0, NULL, NULL);
        GP_CHECK(r.code == GP_ERR_USAGE && strstr(r.msg, ">= 1"));
        *f = -3;
        GP_CHECK(gp_conv2d_check(&s, 0, NULL, NULL).code == GP_ERR_USAGE);
    }
    gp_conv2d_shape s = ok;
    s.pad_w = -1;
    GP_CHECK(gp_conv2d_check(&s, 0, NULL, NULL).code == GP_ERR_USAGE);
    /* Kernel larger than the (padded) input. */
    s = shape(1, 1, 3, 8, 1, 5, 3, 0, 0);
    gp_status r = gp_conv2d_check(&s, 0, NULL, NULL);
    GP_CHECK(r.code == GP_ERR_USAGE && strstr(r.msg, "larger than the padded input"));
    s.pad_h = 1; /* 3 + 2 = 5: exactly fits, one output row */
    GP_CHECK(gp_conv2d_check(&s, 0, &oh, &ow).code == GP_OK && oh == 1 && ow == 6);
    s = shape(1, 1, 8, 3, 1, 3, 4, 0, 0);
    GP_CHECK(gp_conv2d_check(&s, 0, NULL, NULL).code == GP_ERR_USAGE);
    /* A plane of 2^31 elements does not fit the GPU code's int indexing. */
    s = shape(1, 1, 65536, 32768, 1, 1, 1, 0, 0);
    GP_CHECK(gp_conv2d_check(&s, 0, NULL, NULL).code == GP_ERR_USAGE);
    /* Sizes whose product overflows, and sizes bigger than the device. */
    s = shape(INT_MAX, INT_MAX, 30000, 30000, INT_MAX, 1, 1, 0, 0);
    r = gp_conv2d_check(&s, 0, NULL, NULL);
    GP_CHECK(r.code == GP_ERR_NOMEM && strstr(r.msg, "overflow"));
    s = shape(64, 16, 2160, 3840, 16, 3, 3, 1, 1); /* 2 x 34 GB */
    r = gp_conv2d_check(&s, 16ull << 30, NULL, NULL);
    GP_CHECK(r.code == GP_ERR_NOMEM && strstr(r.msg, "the device has"));
    GP_CHECK(gp_conv2d_check(&s, 0, NULL, NULL).code == GP_OK);
    gp_device_info d = h200();
    d.mem_bytes = 1ull << 30;
    gp_conv2d_plan p;
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &s, &p).code == GP_ERR_NOMEM);
    /* The run call refuses NULL buffers and plans it did not make, before any device call. */
    s = shape(1, 1, 8, 8, 1, 3, 3, 0, 0);
    d = h200();
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &s, &p).code == GP_OK);
    float dummy[4];
    GP_CHECK(gp_conv2d_run(&p, NULL, dummy, dummy, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_conv2d_run(NULL, dummy, dummy, dummy, NULL).code == GP_ERR_USAGE);
    gp_conv2d_plan bad = p;
    bad.out_h = 99;
    GP_CHECK(gp_conv2d_run(&bad, dummy, dummy, dummy, NULL).code == GP_ERR_USAGE);
    bad = p;
    bad.s.kh = 0;
    GP_CHECK(gp_conv2d_run(&bad, dummy, dummy, dummy, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 4, &d, &s, &p).code == GP_ERR_USAGE); /* no variant 4 */
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, -1, &d, &s, &p).code == GP_ERR_USAGE);
    GP_CHECK(gp_conv2d_plan_fit(0, 32, 128, 8, 0, &d, &s, &p).code == GP_ERR_USAGE);
    return 0;
}

/* Invariants every plan must keep whatever the table says. */
static int plan_sane(const gp_conv2d_plan *p, const gp_device_info *d)
{
    GP_CHECK(p->block >= 32 && p->block <= GP_CONV2D_MAX_BLOCK && p->block <= d->max_threads_per_block);
    GP_CHECK((p->block & (p->block - 1)) == 0);
    if (p->variant == GP_CONV2D_DIRECT)
        return 0;
    GP_CHECK(p->threads_x >= 1 && p->threads_x <= p->block && (p->threads_x & (p->threads_x - 1)) == 0);
    GP_CHECK(p->tile_x == p->threads_x * GP_CONV2D_RX);
    GP_CHECK(p->tile_y == p->block / p->threads_x * p->rows_per_thread);
    GP_CHECK(p->rows_per_thread == 1 || p->rows_per_thread == 2 || p->rows_per_thread == 4);
    GP_CHECK(p->oc_per_thread * p->rows_per_thread * GP_CONV2D_RX <= GP_CONV2D_MAX_ACC);
    GP_CHECK(p->oc_pad >= p->oc_per_thread && (p->oc_pad & (p->oc_pad - 1)) == 0);
    GP_CHECK(p->in_rows == p->tile_y + p->s.kh - 1);
    GP_CHECK(p->fill_cols >= p->tile_x + p->s.kw - 1 && p->pitch >= p->fill_cols);
    if (p->k_spec) {
        int nv = (GP_CONV2D_RX + p->k_spec - 1 + 3) / 4;
        GP_CHECK(p->pitch % 4 == 0 && p->fill_cols >= p->tile_x - 4 + 4 * nv);
        GP_CHECK(p->s.kh == p->k_spec && p->s.kw == p->k_spec);
    }
    if (p->variant == GP_CONV2D_ROLLED)
        GP_CHECK(gp_conv2d_rolled_compiled(p->k_spec, p->rows_per_thread, p->oc_per_thread));
    /* Chunks: 4 columns from s_off left of the tile's first input column,
     * on a 16-byte boundary of the global row; exactly enough to cover fill_cols. */
    GP_CHECK(p->s_off >= 0 && p->s_off <= 3 && (p->s_off + p->s.pad_w) % 4 == 0);
    GP_CHECK(4 * p->nchunk >= p->fill_cols + p->s_off && 4 * (p->nchunk - 1) < p->fill_cols + p->s_off);
    GP_CHECK(p->ic_per_stage >= 1 && p->ic_per_stage <= p->s.in_c);
    GP_CHECK(p->nstages == (p->s.in_c + p->ic_per_stage - 1) / p->ic_per_stage);
    const int kk = p->s.kh * p->s.kw;
    GP_CHECK(p->ws_floats % 4 == 0);
    GP_CHECK(p->ws_floats >= (p->w_resident ? p->s.in_c : p->ic_per_stage) * kk * p->oc_pad);
    /* Resident weights, or two weight buffers; two input stage buffers. */
    GP_CHECK(p->lds_bytes ==
             (size_t)((p->w_resident ? 1 : 2) * p->ws_floats + 2 * p->ic_per_stage * p->in_rows * p->pitch) * 4);
    GP_CHECK(p->lds_bytes <= d->lds_per_block);
    GP_CHECK(p->tiles_x * p->tile_x >= p->out_w && (p->tiles_x - 1) * p->tile_x < p->out_w);
    GP_CHECK(p->tiles_y * p->tile_y >= p->out_h && (p->tiles_y - 1) * p->tile_y < p->out_h);
    GP_CHECK(p->groups * p->oc_per_thread >= p->s.out_c);
    return 0;
}

GP_TEST(conv2d_plans_from_shipped_tables)
{
    const char *names[] = {"tables/sm_90", "tables/sm_80", "tables/gfx900", "tables/generic"};
    static gp_table t; /* ~50 KB */
    const gp_conv2d_shape shapes[] = {
        shape(1, 6, 768, 512, 6, 6, 6, 0, 0),    shape(1, 16, 768, 512, 6, 6, 6, 0, 0),
        shape(1, 3, 2160, 3840, 6, 5, 5, 2, 2),  shape(1, 6, 768, 512, 6, 3, 3, 1, 1),
        shape(2, 5, 19, 21, 3, 2, 4, 1, 0),      shape(1, 3, 16, 16, 4, 9, 9, 4, 4),
        shape(1, 40, 13, 11, 8, 3, 3, 1, 1),     shape(1, 1, 1, 1, 1, 1, 1, 0, 0),
        shape(1, 2, 100, 100, 2, 100, 100, 0, 0), shape(1, 2, 50, 50, 3, 21, 21, 10, 10),
        shape(1, 64, 56, 56, 64, 7, 7, 3, 3),
    };
    gp_device_info devs[2] = {h200(), mi25()};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        GP_CHECK(gp_test_source_path(path, sizeof path, names[i]));
        gp_status st = gp_table_load(path, &t);
        if (st.code != GP_OK)
            fprintf(stderr, "%s\n", st.msg);
        GP_CHECK(st.code == GP_OK);
        for (int d = 0; d < 2; d++) /* each table on both devices: the mistuned runs */
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
                for (int v = -1; v <= GP_CONV2D_ROLLED; v++) {
                    gp_conv2d_plan p;
                    st = plan_make(&t, &devs[d], &shapes[k], v, &p);
                    if (st.code != GP_OK)
                        fprintf(stderr, "%s shape %zu variant %d: %s\n", names[i], k, v, st.msg);
                    GP_CHECK(st.code == GP_OK);
                    if (plan_sane(&p, &devs[d])) {
                        fprintf(stderr, "%s on %s, shape %zu, variant %d\n", names[i], devs[d].arch, k, v);
                        return 1;
                    }
                    if (v == GP_CONV2D_DIRECT)
                        GP_CHECK(p.variant == GP_CONV2D_DIRECT);
                    if (v == GP_CONV2D_GENERIC)
                        GP_CHECK(p.variant != GP_CONV2D_AUTO && p.k_spec == 0);
                }
    }
    /* The H200 table on the seed's problem: 6x6 compiled code, 6 channels per
     * thread (no padded channel for out_c = 6), one input channel per stage
     * (37 rows x 10 chunks = 370 chunks: what 128 threads x 4 prefetch
     * registers hold), 6 stages, the weights of all 6 channels resident,
     * conflict-free 16-byte row loads. */
    char path[1024];
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/sm_90"));
    GP_CHECK(gp_table_load(path, &t).code == GP_OK);
    /* The plan below is for these parameters; the shipped values move with
     * each sweep (gpuprobe tune), the planning rules do not. */
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "tile_x", 32, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "tile_y", 32, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "block", 128, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "out_channels_per_block", 8, "rule test").code == GP_OK);
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "variant", 0, "rule test").code == GP_OK);
    gp_device_info d = h200();
    gp_conv2d_plan p;
    GP_CHECK(plan_make(&t, &d, &shapes[0], -1, &p).code == GP_OK);
    GP_CHECK(p.variant == GP_CONV2D_AUTO && p.k_spec == 6);
    GP_CHECK(p.oc_per_thread == 6 && p.oc_pad == 8 && p.groups == 1);
    GP_CHECK(p.tile_x == 32 && p.tile_y == 32 && p.block == 128 && p.rows_per_thread == 2);
    GP_CHECK(p.in_rows == 37 && p.fill_cols == 40 && p.pitch == 40 && p.s_off == 0 && p.nchunk == 10);
    GP_CHECK(p.ic_per_stage == 1 && p.nstages == 6 && p.w_resident == 1 && p.lds_conflict == 1);
    GP_CHECK(p.ws_floats == 6 * 36 * 8 && p.lds_bytes == (size_t)(6 * 36 * 8 + 2 * 37 * 40) * 4);
    GP_CHECK(p.tiles_x == 16 && p.tiles_y == 24);
    /* The rolled variant of the same plan; not compiled for 3x3 (auto runs, with a note). */
    gp_conv2d_plan r;
    GP_CHECK(plan_make(&t, &d, &shapes[0], GP_CONV2D_ROLLED, &r).code == GP_OK);
    GP_CHECK(r.variant == GP_CONV2D_ROLLED && r.k_spec == 6 && r.lds_bytes == p.lds_bytes && r.pitch == p.pitch);
    char rtext[320];
    gp_conv2d_plan_format(&r, rtext, sizeof rtext);
    GP_CHECK(strstr(rtext, "k6 spec rolled") && strstr(rtext, "1 ch/stage x 6") && strstr(rtext, "weights resident"));
    GP_CHECK(plan_make(&t, &d, &shapes[3], GP_CONV2D_ROLLED, &r).code == GP_OK);
    GP_CHECK(r.variant == GP_CONV2D_AUTO && r.k_spec == 3 && strstr(r.note, "rolled not compiled"));
    /* 3x3 'same' (pad 1): chunks start 3 columns left (16-byte aligned global columns);
     * 8 prefetch chunks per thread: 34 rows x 10 chunks -> 3 channels per stage. */
    GP_CHECK(r.s_off == 3 && r.nchunk == (r.fill_cols + 3 + 3) / 4 && r.ic_per_stage == 3 && r.nstages == 2);
    /* Other sizes: 4x4 has no compiled code, 100x100 does not fit the LDS. */
    gp_conv2d_shape g = shape(1, 6, 768, 512, 6, 4, 4, 0, 0);
    GP_CHECK(plan_make(&t, &d, &g, -1, &p).code == GP_OK);
    /* Scalar reads 4 apart from rows 2 apart: an even row skew leaves 2-way conflicts at best. */
    GP_CHECK(p.variant == GP_CONV2D_GENERIC && p.k_spec == 0 && p.lds_conflict == 2);
    GP_CHECK(plan_make(&t, &d, &shapes[8], -1, &p).code == GP_OK);
    GP_CHECK(p.variant == GP_CONV2D_DIRECT && strstr(p.note, "LDS"));
    /* The table's variant key is read; absent, it means 0. */
    GP_CHECK(gp_table_set(&t, "kernel.conv2d", "variant", 2, "swept conv2d test").code == GP_OK);
    GP_CHECK(plan_make(&t, &d, &shapes[0], -1, &p).code == GP_OK);
    GP_CHECK(p.variant == GP_CONV2D_DIRECT);
    GP_CHECK(plan_make(&t, &d, &shapes[0], GP_CONV2D_AUTO, &p).code == GP_OK);
    GP_CHECK(p.k_spec == 6);
    /* Out-of-range table values are fitted, not trusted: 1024 threads > the
     * launch bounds, 64 channels > the compiled 8. */
    GP_CHECK(gp_conv2d_plan_fit(64, 64, 1024, 64, 0, &d, &shapes[0], &p).code == GP_OK);
    GP_CHECK(plan_sane(&p, &d) == 0 && p.block == GP_CONV2D_MAX_BLOCK && p.oc_per_thread == 6);
    GP_CHECK(strstr(p.note, "block 1024 -> 256") != NULL);
    /* out_c = 16 takes 8 per thread; 9 takes 6 + 6 (not 8 + 8, nor 9 groups of 1); a table max of 1 is kept. */
    gp_conv2d_shape c16 = shape(1, 3, 64, 64, 16, 3, 3, 0, 0), c9 = shape(1, 3, 64, 64, 9, 3, 3, 0, 0);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c16, &p).code == GP_OK && p.oc_per_thread == 8);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c9, &p).code == GP_OK && p.oc_per_thread == 6);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 1, 0, &d, &c9, &p).code == GP_OK && p.oc_per_thread == 1);
    gp_conv2d_shape c3 = shape(1, 3, 64, 64, 3, 3, 3, 0, 0), c1 = shape(1, 3, 64, 64, 1, 3, 3, 0, 0);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c3, &p).code == GP_OK && p.oc_per_thread == 4);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c1, &p).code == GP_OK && p.oc_per_thread == 1);
    char text[320];
    gp_conv2d_plan_format(&p, text, sizeof text);
    GP_CHECK(strstr(text, "k3 spec") != NULL);
    return 0;
}

GP_TEST(conv2d_stage_layout)
{
    gp_device_info d = h200();
    gp_conv2d_plan p;
    /* s_off = (-pad_w) mod 4 for pads 0..5; the chunks cover fill_cols + s_off. */
    const int want[6] = {0, 3, 2, 1, 0, 3};
    for (int pad = 0; pad < 6; pad++) {
        gp_conv2d_shape s = shape(1, 2, 40, 64, 4, 5, 5, pad, pad);
        GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 4, 0, &d, &s, &p).code == GP_OK);
        GP_CHECK(p.s_off == want[pad]);
        GP_CHECK(plan_sane(&p, &d) == 0);
    }
    /* 40 input channels x 7x7 x 8 output channels of weights (62.7 KB) do not
     * fit next to the input buffers: each stage brings its own. */
    gp_conv2d_shape big = shape(1, 40, 12, 24, 8, 7, 7, 3, 3);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &big, &p).code == GP_OK);
    GP_CHECK(p.w_resident == 0 && p.ws_floats == 7 * 7 * 8 * p.ic_per_stage && plan_sane(&p, &d) == 0);
    /* On an MI25's 64 KB too: 62.7 KB of weights plus two 38 x 40 input
     * buffers (11.9 KB) exceed it. */
    gp_device_info m = mi25();
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &m, &big, &p).code == GP_OK && p.w_resident == 0);
    /* 3x3, 4x1 px: 18 rows x 9 chunks = 162 per channel, 8 x 128 chunks would hold
     * 6 channels, but a stage takes at most half of them: two stages to overlap. */
    gp_conv2d_shape k3 = shape(1, 6, 768, 512, 6, 3, 3, 0, 0);
    GP_CHECK(gp_conv2d_plan_fit(32, 16, 128, 8, 0, &d, &k3, &p).code == GP_OK);
    GP_CHECK(p.rows_per_thread == 1 && p.in_rows == 18 && p.nchunk == 9 && p.ic_per_stage == 3 && p.nstages == 2);
    /* One input channel: one stage. */
    gp_conv2d_shape c1 = shape(1, 1, 64, 64, 6, 3, 3, 0, 0);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c1, &p).code == GP_OK && p.ic_per_stage == 1 && p.nstages == 1);
    /* 16 channels of 6x6: resident (18.4 KB), one channel per stage. */
    gp_conv2d_shape c16 = shape(1, 16, 768, 512, 6, 6, 6, 0, 0);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, 0, &d, &c16, &p).code == GP_OK);
    GP_CHECK(p.w_resident == 1 && p.ws_floats == 16 * 36 * 8 && p.ic_per_stage == 1 && p.nstages == 16);
    return 0;
}

GP_TEST(conv2d_conflict_degree_counts)
{
    /* 16-byte reads, 8 lanes per pass, 8 consecutive float4 in one row: none. */
    GP_CHECK(gp_conv2d_conflict_degree(40, 8, 2, 1) == 1);
    /* 2 lanes per row, rows 64 floats apart: 4 rows of a pass share banks 0..7 -> 4 words each. */
    GP_CHECK(gp_conv2d_conflict_degree(64, 2, 1, 1) == 4);
    /* One lane per row, rows 32 floats apart, 4-byte reads: all 32 lanes on bank 0
     * (more than the 4 words the old simulator could hold). */
    GP_CHECK(gp_conv2d_conflict_degree(32, 1, 1, 0) == 32);
    GP_CHECK(gp_conv2d_conflict_degree(16, 1, 1, 0) == 16);
    /* Odd pitch: 32 rows on 32 banks. */
    GP_CHECK(gp_conv2d_conflict_degree(33, 1, 1, 0) == 1);
    /* Generic scalar reads, 8 lanes per row 4 floats apart, rows 2 x 37 apart:
     * banks 4 lanes apart collide in pairs. */
    GP_CHECK(gp_conv2d_conflict_degree(37, 8, 2, 0) == 2);
    return 0;
}

GP_TEST(conv2d_fma_lanes_by_arch)
{
    gp_device_info d = h200();
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 128);
    snprintf(d.arch, sizeof d.arch, "sm_80"); /* A100: 64 FP32 lanes per SM */
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 64);
    snprintf(d.arch, sizeof d.arch, "sm_86");
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 128);
    snprintf(d.arch, sizeof d.arch, "sm_100");
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 128);
    snprintf(d.arch, sizeof d.arch, "sm_70");
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 64);
    d = mi25();
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 64);
    snprintf(d.vendor, sizeof d.vendor, "none");
    GP_CHECK(gp_conv2d_fma_lanes(&d) == 0);
    return 0;
}

GP_TEST(conv2d_floor_seed_problem)
{
    /* 2 x 6 x 763 x 507 x 6 x 36 = 1.0027 GFLOP. */
    gp_conv2d_shape s = shape(1, 6, 768, 512, 6, 6, 6, 0, 0);
    GP_CHECK_NEAR(gp_conv2d_flops(&s), 1002691872.0, 1);
    gp_device_info d = h200();
    gp_conv2d_floor f;
    /* No table: the device's report, 132 x 128 x 1980 MHz = 33.45 TFMA/s -> 14.99 us. */
    GP_CHECK(gp_conv2d_floor_of(&s, NULL, &d, &f).code == GP_OK);
    GP_CHECK_NEAR(f.compute_ms, 1002691872.0 / (2 * 132 * 128 * 1980e6) * 1e3, 1e-9);
    GP_CHECK(f.ms == f.compute_ms && f.memory_ms < f.compute_ms && strstr(f.note, "FP32"));
    /* HBM peak from the bus: 6144 / 8 x 2619 x 2 = 4023 GB/s. */
    GP_CHECK_NEAR(f.bytes_per_s, 6144 / 8.0 * 2619 * 2 * 1e6, 1);
    /* The H200's own table: its measured 124.96 FMA/clk and 4222 GB/s. */
    static gp_table t;
    char path[1024];
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/sm_90"));
    GP_CHECK(gp_table_load(path, &t).code == GP_OK);
    double lanes, gbs;
    GP_CHECK(gp_table_get_double(&t, "compute", "fp32_fma_per_cycle_per_cu", &lanes).code == GP_OK);
    GP_CHECK(gp_table_get_double(&t, "dram", "bandwidth_gbs", &gbs).code == GP_OK);
    GP_CHECK(gp_conv2d_floor_of(&s, &t, &d, &f).code == GP_OK);
    GP_CHECK_NEAR(f.fma_per_s, 132 * lanes * 1980e6, 1);
    GP_CHECK(f.compute_ms > 0.0140 && f.compute_ms < 0.0160);
    GP_CHECK_NEAR(f.bytes_per_s, gbs * 1e9, 1);
    /* Another arch's table (mistuned) does not describe this device: ignored. */
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/gfx900"));
    GP_CHECK(gp_table_load(path, &t).code == GP_OK);
    GP_CHECK(gp_conv2d_floor_of(&s, &t, &d, &f).code == GP_OK);
    GP_CHECK_NEAR(f.fma_per_s, 132 * 128 * 1980e6, 1);
    /* A 1x1 kernel on a big image is bound by DRAM. */
    s = shape(1, 3, 2160, 3840, 3, 1, 1, 0, 0);
    GP_CHECK(gp_conv2d_floor_of(&s, NULL, &d, &f).code == GP_OK);
    GP_CHECK(f.ms == f.memory_ms && strstr(f.note, "DRAM"));
    return 0;
}

/* A 128-VGPR target (gfx11 under clang 15) has the generic tiled kernel
 * with at most GP_CONV2D_MAX_ACC_128 accumulators only: every plan there is a
 * compiled shape (GP_CONV2D_SHAPE_ON), the same table on gfx900 keeps its
 * specialized and rolled kernels. */
GP_TEST(conv2d_plans_per_register_class)
{
    gp_device_info amd = mi25(), rdna3 = mi25();
    snprintf(rdna3.arch, sizeof rdna3.arch, "gfx1100");
    rdna3.wave_size = 32;
    static const int ks[] = {1, 3, 4, 5, 6, 7};
    static const int ocbs[] = {1, 2, 4, 6, 8};
    gp_conv2d_plan p;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        for (size_t j = 0; j < sizeof ocbs / sizeof ocbs[0]; j++)
            for (int variant = 0; variant <= GP_CONV2D_ROLLED; variant++) {
                gp_conv2d_shape s = shape(1, 16, 96, 96, 16, ks[i], ks[i], ks[i] / 2, ks[i] / 2);
                GP_CHECK(gp_conv2d_plan_fit(32, 64, 128, ocbs[j], variant, &rdna3, &s, &p).code == GP_OK);
                if (p.variant == GP_CONV2D_DIRECT)
                    continue;
                GP_CHECK(p.k_spec == 0 && p.variant == GP_CONV2D_GENERIC);
                GP_CHECK(p.rows_per_thread * GP_CONV2D_RX * p.oc_per_thread <= GP_CONV2D_MAX_ACC_128);
                GP_CHECK(GP_CONV2D_SHAPE_ON(GP_REGS_128, p.k_spec, p.rows_per_thread, p.oc_per_thread, 0));
            }
    /* 5x5, 8 channels per thread, 2 rows wanted: gfx900 runs the specialized
     * (or rolled) 2 x 8 block, gfx1100 the generic 1 x 8, and says why. */
    gp_conv2d_shape s5 = shape(1, 16, 96, 96, 16, 5, 5, 2, 2);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, GP_CONV2D_ROLLED, &amd, &s5, &p).code == GP_OK);
    GP_CHECK(p.k_spec == 5 && p.variant == GP_CONV2D_ROLLED && p.rows_per_thread == 2 && p.oc_per_thread == 8);
    GP_CHECK(gp_conv2d_plan_fit(32, 32, 128, 8, GP_CONV2D_ROLLED, &rdna3, &s5, &p).code == GP_OK);
    GP_CHECK(p.k_spec == 0 && p.variant == GP_CONV2D_GENERIC && p.rows_per_thread == 1 && p.oc_per_thread == 8);
    GP_CHECK(strstr(p.note, "gfx1100 has no 5x5 kernel") != NULL);
    return 0;
}

/* Today's bench labels (committed bench CSVs) and the --shape spec read
 * back; labels are canonical; a wrong spec names the syntax. */
GP_TEST(conv2d_shapes_read_their_labels)
{
    static const char *const labels[] = {"1x6x768x512 k6 oc6 valid (seed)", "1x3x768x512 k6 oc6 valid",
                                         "1x16x768x512 k6 oc6 valid",       "1x6x768x512 k3 oc6 valid",
                                         "1x6x768x512 k5 oc6 same",         "1x3x2160x3840 k5 oc6 same",
                                         "1x5x19x21 k2x4 oc3 pad 1,0",      "2x16x100x130 k6 oc16 pad 2,2"};
    const gp_kernel *k = &gp_kernel_conv2d;
    gp_shape g;
    char buf[GP_BENCH_TEXT];
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        GP_CHECK(k->shape_parse(labels[i], &g).code == GP_OK);
        k->shape_label(&g, buf, sizeof buf);
        GP_CHECK(!strcmp(buf, labels[i]));
    }
    /* The seed's shape, however it is spelled, is labelled as its rows were. */
    GP_CHECK(k->shape_parse("1x6x768x512 k6 oc6", &g).code == GP_OK);
    k->shape_label(&g, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "1x6x768x512 k6 oc6 valid (seed)"));
    gp_conv2d_shape s;
    GP_CHECK(k->shape_parse("2x3x1080x1920 k3x5 oc16 same", &g).code == GP_OK);
    GP_CHECK(gp_conv2d_shape_of(&g, &s).code == GP_OK);
    GP_CHECK(s.n == 2 && s.in_c == 3 && s.h == 1080 && s.w == 1920 && s.out_c == 16 && s.kh == 3 && s.kw == 5 &&
             s.pad_h == 1 && s.pad_w == 2);
    static const char *const bad[] = {"1x6x768x512", "1x6x768x512 k6", "1x6x768x512 k0 oc6", "1x6x768 k6 oc6",
                                      "1x6x768x512 k6 oc6 pad 1", "1x6x768x512 k6 oc6 valid!", "not a label"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = k->shape_parse(bad[i], &g);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "ocO"));
    }
    gp_kernel_work w;
    GP_CHECK(gp_kernel_work_of_label(k, "1x6x768x512 k6 oc6 valid (seed)", &w).code == GP_OK);
    GP_CHECK_NEAR(w.flops, 1002691872.0, 1);
    GP_CHECK_NEAR(w.bytes, 4.0 * (6 * 768 * 512 + 6 * 6 * 36 + 6 * 763 * 507), 1);
    /* Random shapes are legal and within their bounds. */
    uint64_t rng = 12345;
    for (int i = 0; i < 200; i++) {
        k->shape_random(&rng, &g);
        GP_CHECK(gp_conv2d_shape_of(&g, &s).code == GP_OK && gp_conv2d_check(&s, 0, NULL, NULL).code == GP_OK);
        GP_CHECK(gp_conv2d_flops(&s) <= 5e8);
        k->shape_label(&g, buf, sizeof buf);
        gp_shape back;
        GP_CHECK(k->shape_parse(buf, &back).code == GP_OK && !memcmp(&back, &g, sizeof g));
    }
    return 0;
}

/* The registry entry: today's bench problems (quick: the seed's and the
 * 'same' 5x5; the variants on the seed's and the 3x3 one), verify's 17
 * cases (quick: 14), and every variant a legal plan on the seed's. */
GP_TEST(conv2d_registered_with_variants)
{
    const gp_kernel *k = gp_kernel_find("conv2d");
    GP_CHECK(k == &gp_kernel_conv2d && k->nvariants >= 13 && k->nvariants <= 31 && k->verify_extra);
    gp_kcase c[GP_KCASE_MAX];
    gp_device_info d = h200();
    char buf[GP_BENCH_TEXT];
    GP_CHECK(k->cases(GP_CASES_BENCH, NULL, &d, 0, c, GP_KCASE_MAX) == 8);
    k->shape_label(&c[0].shape, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "1x6x768x512 k6 oc6 valid (seed)") && (c[0].flags & GP_KCASE_VARIANTS));
    k->shape_label(&c[3].shape, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "1x6x768x512 k3 oc6 valid") && (c[3].flags & GP_KCASE_VARIANTS));
    GP_CHECK(!(c[1].flags & GP_KCASE_VARIANTS) && (c[7].flags & GP_KCASE_SAMPLE));
    GP_CHECK(k->cases(GP_CASES_BENCH, NULL, &d, 1, c, GP_KCASE_MAX) == 2 && !(c[0].flags & GP_KCASE_VARIANTS));
    k->shape_label(&c[1].shape, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "1x6x768x512 k5 oc6 same"));
    GP_CHECK(k->cases(GP_CASES_VERIFY, NULL, &d, 0, c, GP_KCASE_MAX) == 18);
    GP_CHECK(k->cases(GP_CASES_VERIFY, NULL, &d, 1, c, GP_KCASE_MAX) == 14);
    GP_CHECK(k->cases(GP_CASES_VARIANT, NULL, &d, 0, c, GP_KCASE_MAX) == 14);
    static gp_table t;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_conv2d_params p0, p;
    GP_CHECK(gp_kernel_params(k, &t, &d, NULL, 0, &p0, NULL, 0).code == GP_OK);
    const gp_conv2d_shape seed = shape(1, 6, 768, 512, 6, 6, 6, 0, 0);
    int rolled = 0;
    for (int v = 0; v < k->nvariants; v++) {
        gp_conv2d_plan pl;
        gp_kernel_variant(k, v, &p0, &d, &p);
        GP_CHECK(gp_conv2d_plan_make(&p, &d, &seed, -1, &pl).code == GP_OK && plan_sane(&pl, &d) == 0);
        rolled += pl.variant == GP_CONV2D_ROLLED;
    }
    GP_CHECK(rolled == 3);
    /* fit: the launch bounds and the compiled channels. */
    memset(&p, 0, sizeof p);
    p.tile_x = 32, p.tile_y = 32, p.block = 1024, p.out_channels_per_block = 64;
    gp_conv2d_params_fit(&p, &d);
    GP_CHECK(p.block == GP_CONV2D_MAX_BLOCK && p.out_channels_per_block == 8 && strstr(p.note, "block 1024 -> 256"));
    return 0;
}

/* The rule sizes the tile for the problem launched: the fewest rounds of
 * resident blocks x tile area over the shape's output tiles, images and
 * channel groups (conv2d_rule.c).  The seed's 763 x 507 output and the 4K
 * image keep the wide 64 x 16 tile; a 20-column output, four images of it,
 * takes 16 x 64 tiles: 256 blocks in one round where 64 x 16 tiles, three
 * quarters idle, need 500 in two.  A 250 x 250 output of 8 channels makes
 * 64 blocks of 256 threads for 132 CUs: blocks of 128 threads over twice
 * the CUs take half the busiest CU's time; 2x32x128x96 k5x3, 128 blocks
 * of 256, keeps its block. */
GP_TEST(conv2d_params_follow_the_shape)
{
    static gp_table t, ruled, o;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    gp_rule_in in = {&t, NULL, 0};
    ruled = t;
    GP_CHECK(gp_conv2d_rule(&in, &ruled).code == GP_OK);
    const gp_kernel *k = &gp_kernel_conv2d;
    const int shapes[5][9] = {{1, 6, 768, 512, 6, 6, 6, 0, 0},
                              {1, 3, 2160, 3840, 6, 5, 5, 2, 2},
                              {4, 3, 2000, 20, 6, 3, 3, 1, 1},
                              {1, 16, 256, 256, 8, 7, 7, 0, 0},
                              {2, 32, 128, 96, 32, 5, 3, 2, 1}};
    gp_conv2d_params p[5];
    char note[5][160];
    for (int i = 0; i < 5; i++) {
        gp_shape g;
        memset(&g, 0, sizeof g);
        for (int j = 0; j < 7; j++)
            g.d[j] = shapes[i][j];
        g.opt[GP_CONV2D_OPT_PAD_H] = shapes[i][7], g.opt[GP_CONV2D_OPT_PAD_W] = shapes[i][8];
        GP_CHECK(gp_kernel_params(k, &ruled, NULL, &g, 0, &p[i], note[i], sizeof note[i]).code == GP_OK);
        /* The launch takes what the rule gives for the shape. */
        gp_rule_in is = {&t, &g, 0};
        o = t;
        GP_CHECK(gp_conv2d_rule(&is, &o).code == GP_OK);
        long long tx, ty;
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "tile_x", &tx).code == GP_OK && tx == p[i].tile_x);
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "tile_y", &ty).code == GP_OK && ty == p[i].tile_y);
        long long b;
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "block", &b).code == GP_OK && b == p[i].block);
    }
    GP_CHECK(p[0].tile_x == 64 && p[0].tile_y == 16 && strstr(note[0], "as the table"));
    GP_CHECK(p[1].tile_x == 64 && p[1].tile_y == 16);
    /* 9 FLOP a DRAM byte, below the H200's balance of 15: the block with
     * the most threads resident (5 x 128 against 2 x 256), its tile as
     * narrow as the output needs. */
    GP_CHECK(p[2].tile_x == 16 && p[2].tile_y == 32 && p[2].block == 128);
    GP_CHECK(strstr(note[2], "rule for this shape:") && strstr(note[2], "tile_x 64->16"));
    GP_CHECK(p[0].block == 256 && p[3].block == 128 && p[3].tile_x * p[3].tile_y == 512);
    GP_CHECK(strstr(note[3], "block 256->128") && p[3].tile_x >= 32);
    /* 128 blocks of 256 for 132 CUs, nearly a full wave: the block stays
     * (the H200 measured 16 x 16 tiles of 64 threads 1.09x slower there). */
    GP_CHECK(p[4].block == 256 && p[4].tile_x == 64 && p[4].tile_y == 16);
    return 0;
}

/* The block by what bounds the problem (FLOPs a DRAM byte against the
 * machine balance, 15.0 on the H200's facts): 1x3x1080x1920 k3 oc16 (11.4)
 * and 1x1x2048x2048 k3 oc4 (3.6) take the most resident threads, 64 x 8 in
 * 128; 2x16x384x384 k5 oc16 (100) takes 128 for its fewer pixel-rounds
 * (1152 blocks in 2 rounds of 660 against 576 in 3 of 264); 8x64x56x56 k3
 * oc64 (144) and the seed (54) keep 64 x 16 in 256.  The H200 measured each
 * choice within 1.4 % of the best candidate (docs/kernels/conv2d.md). */
GP_TEST(conv2d_block_follows_what_bounds_the_problem)
{
    static gp_table t, o;
    GP_CHECK(gp_test_load_table("tables/sm_90", &t));
    const struct {
        const char *shape;
        int tx, ty, block;
    } want[] = {{"1x3x1080x1920 k3 oc16 same", 64, 8, 128}, {"1x1x2048x2048 k3 oc4 same", 64, 8, 128},
                {"2x16x384x384 k5 oc16 same", 64, 8, 128},  {"8x64x56x56 k3 oc64 same", 64, 16, 256},
                {"1x6x768x512 k6 oc6", 64, 16, 256},        {"1x32x512x512 k5 oc16 same", 64, 16, 256}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_shape g;
        GP_CHECK(gp_kernel_conv2d.shape_parse(want[i].shape, &g).code == GP_OK);
        gp_rule_in in = {&t, &g, 0};
        o = t;
        GP_CHECK(gp_conv2d_rule(&in, &o).code == GP_OK);
        long long tx, ty, b;
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "tile_x", &tx).code == GP_OK && tx == want[i].tx);
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "tile_y", &ty).code == GP_OK && ty == want[i].ty);
        GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "block", &b).code == GP_OK && b == want[i].block);
    }
    /* Without the facts the balance needs, the block stays the waves' one. */
    gp_table bare = t;
    GP_CHECK(gp_table_set_none(&bare, "dram", "bandwidth_gbs", "assumed absent for this test").code == GP_OK);
    gp_shape g;
    GP_CHECK(gp_kernel_conv2d.shape_parse("1x3x1080x1920 k3 oc16 same", &g).code == GP_OK);
    gp_rule_in in = {&bare, &g, 0};
    o = bare;
    GP_CHECK(gp_conv2d_rule(&in, &o).code == GP_OK);
    long long b;
    GP_CHECK(gp_table_get_int(&o, "kernel.conv2d", "block", &b).code == GP_OK && b == 256);
    return 0;
}
