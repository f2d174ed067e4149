/* Helpers of the bench files in kernels/data.c: the data of a sum, a
 * workspace grown for each parameter set, and a bad input's refusal
 * checked and said. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "data.h"
#include "gp_test.h"
#include "runtime.h"

GP_TEST(bench_data_sum_data)
{
    enum { N = 4096 };
    static float a[N], b[N];
    static int32_t ia[N], ib[N];
    uint64_t r1 = 3, r2 = 3;
    /* Each kind is the fill it names, draw for draw. */
    gp_fill_sum_data(a, N, 1, 1, &r1);
    gp_fill_ints_f32(b, N, 8, &r2);
    GP_CHECK(!memcmp(a, b, sizeof a) && r1 == r2);
    int seen[17] = {0};
    for (int i = 0; i < N; i++) {
        GP_CHECK(a[i] == (float)(int)a[i] && a[i] >= -8 && a[i] <= 8);
        seen[(int)a[i] + 8] = 1;
    }
    for (int v = 0; v < 17; v++)
        GP_CHECK(seen[v]);
    gp_fill_sum_data(a, N, 1, 0, &r1);
    gp_fill_uniform_f32(b, N, -1.0f, 1.0f, &r2);
    GP_CHECK(!memcmp(a, b, sizeof a) && r1 == r2);
    gp_fill_sum_data(ia, N, 0, 0, &r1);
    gp_fill_uniform_i32(ib, N, INT32_MIN, INT32_MAX, &r2);
    GP_CHECK(!memcmp(ia, ib, sizeof ia) && r1 == r2);
    int neg = 0, big = 0;
    for (int i = 0; i < N; i++)
        neg += ia[i] < 0, big += ia[i] > (1 << 30) || ia[i] < -(1 << 30);
    GP_CHECK(neg > N / 3 && big > N / 4); /* the whole range: the sums wrap */
    gp_fill_sum_data(NULL, 0, 1, 1, &r1);
    return 0;
}

GP_TEST(bench_data_uniform_fills)
{
    enum { N = 1 << 16 };
    static float f[N];
    static int32_t v[N];
    uint64_t r = 11;
    /* Odd n: every value written (77 is in neither range), none past it. */
    for (int i = 0; i < N; i++)
        f[i] = 77, v[i] = 77;
    gp_fill_uniform_f32(f, N - 1, -1.0f, 1.0f, &r);
    gp_fill_uniform_i32(v, N - 1, -5, 5, &r);
    GP_CHECK(f[N - 1] == 77 && v[N - 1] == 77);
    double mean = 0;
    int below = 0, seen[10] = {0}, in_range = 1;
    for (int i = 0; i < N - 1; i++) {
        in_range &= f[i] >= -1.0f && f[i] < 1.0f && v[i] >= -5 && v[i] < 5;
        if (v[i] >= -5 && v[i] < 5)
            seen[v[i] + 5]++;
        mean += f[i], below += f[i] < -0.98f;
    }
    GP_CHECK(in_range);
    /* Uniform: a mean near 0 (sd of the mean 0.0023), 1 % in the lowest
     * hundredth of the range (655 expected, sd 25), each of the ten
     * integers about a tenth (sd 77; both words' halves used: an unused
     * half would leave pairs equal or a bin empty). */
    GP_CHECK(mean / (N - 1) > -0.02 && mean / (N - 1) < 0.02);
    GP_CHECK(below > N / 200 && below < N / 50);
    for (int k = 0; k < 10; k++)
        GP_CHECK(seen[k] > N / 12 && seen[k] < N / 8);
    int equal_pairs = 0;
    for (int i = 0; i + 1 < N - 1; i += 2)
        equal_pairs += f[i] == f[i + 1];
    GP_CHECK(equal_pairs < 4);
    return 0;
}

GP_TEST(bench_data_workspace_grows)
{
    void *d = NULL;
    size_t bytes = 0;
    /* Nothing needed: nothing allocated, on any build. */
    GP_CHECK(gp_dev_grow(&d, &bytes, 0).code == GP_OK && d == NULL && bytes == 0);
    void *probe = NULL;
    const gp_status none = gp_rt_malloc(&probe, 16);
    gp_status st = gp_dev_grow(&d, &bytes, 1000);
    if (none.code != GP_OK) { /* no device here: refused, nothing kept */
        GP_CHECK(st.code == none.code && d == NULL && bytes == 0);
        return 0;
    }
    gp_rt_free(probe);
    GP_CHECK(st.code == GP_OK && d != NULL && bytes == 1000);
    void *first = d;
    GP_CHECK(gp_dev_grow(&d, &bytes, 500).code == GP_OK && d == first && bytes == 1000); /* never shrunk */
    GP_CHECK(gp_dev_grow(&d, &bytes, 4000).code == GP_OK && d != NULL && bytes == 4000);
    GP_DEV_FREE(d);
    return 0;
}

GP_TEST(bench_data_refusals)
{
    char text[512] = "";
    FILE *log = tmpfile();
    GP_CHECK(log != NULL);
    GP_CHECK(gp_expect_refused("k", "zero size", gp_fail(GP_ERR_USAGE, "no pixels"), GP_ERR_USAGE, log).code == GP_OK);
    GP_CHECK(gp_expect_refused("k", "quiet", gp_fail(GP_ERR_NOMEM, "big"), GP_ERR_NOMEM, NULL).code == GP_OK);
    /* Accepted, or refused with another code: a failed check naming both. */
    gp_status st = gp_expect_refused("k", "2^41 pixels", gp_ok(), GP_ERR_NOMEM, log);
    GP_CHECK(st.code == GP_ERR_CHECK);
    char want[160];
    snprintf(want, sizeof want, "k bad input '2^41 pixels': got code %d (), expected %d", GP_OK, GP_ERR_NOMEM);
    GP_CHECK(!strcmp(st.msg, want));
    st = gp_expect_refused("k", "short", gp_fail(GP_ERR_NOMEM, "why"), GP_ERR_USAGE, log);
    snprintf(want, sizeof want, "k bad input 'short': got code %d (why), expected %d", GP_ERR_NOMEM, GP_ERR_USAGE);
    GP_CHECK(st.code == GP_ERR_CHECK && !strcmp(st.msg, want));
    /* Only the refusals that passed are said. */
    rewind(log);
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = '\0';
    fclose(log);
    GP_CHECK(!strcmp(text, "  ok  bad input zero size: no pixels\n"));
    return 0;
}
