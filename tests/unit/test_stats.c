#include "gp_test.h"
#include "stats.h"

GP_TEST(stats_median_odd_even)
{
    double odd[] = {5, 1, 3};
    double even[] = {4, 1, 3, 2};
    GP_CHECK_NEAR(gp_stats_median(odd, 3), 3.0, 0);
    GP_CHECK_NEAR(gp_stats_median(even, 4), 2.5, 1e-12);
    /* Input is not reordered. */
    GP_CHECK(odd[0] == 5 && odd[1] == 1);
    return 0;
}

GP_TEST(stats_percentile_interpolates)
{
    double x[] = {10, 20, 30, 40, 50};
    GP_CHECK_NEAR(gp_stats_percentile(x, 5, 0), 10, 0);
    GP_CHECK_NEAR(gp_stats_percentile(x, 5, 100), 50, 0);
    GP_CHECK_NEAR(gp_stats_percentile(x, 5, 25), 20, 1e-12);
    GP_CHECK_NEAR(gp_stats_percentile(x, 5, 10), 14, 1e-12);
    /* Large series take the heap path. */
    double big[1000];
    for (int i = 0; i < 1000; i++)
        big[i] = 999 - i;
    GP_CHECK_NEAR(gp_stats_median(big, 1000), 499.5, 1e-12);
    return 0;
}

GP_TEST(stats_mad_and_cv)
{
    double x[] = {1, 2, 3, 4, 100};
    GP_CHECK_NEAR(gp_stats_mad(x, 5), 1.0, 1e-12);
    double c[] = {2, 2, 2, 2};
    GP_CHECK_NEAR(gp_stats_cv(c, 4), 0.0, 0);
    double y[] = {9, 11};
    /* stddev (n-1) = sqrt(2), mean 10 */
    GP_CHECK_NEAR(gp_stats_cv(y, 2), sqrt(2.0) / 10.0, 1e-12);
    return 0;
}

GP_TEST(stats_empty_is_nan)
{
    gp_summary s;
    GP_CHECK(isnan(gp_stats_median(NULL, 0)));
    gp_stats_summarize(NULL, 0, &s);
    GP_CHECK(s.n == 0 && isnan(s.median) && isnan(s.min));
    return 0;
}

GP_TEST(stats_summary_spread)
{
    double x[11];
    for (int i = 0; i <= 10; i++)
        x[i] = 100 + i; /* 100..110 */
    gp_summary s;
    gp_stats_summarize(x, 11, &s);
    GP_CHECK_NEAR(s.median, 105, 1e-12);
    GP_CHECK_NEAR(s.min, 100, 0);
    GP_CHECK_NEAR(s.max, 110, 0);
    GP_CHECK_NEAR(s.p10, 101, 1e-12);
    GP_CHECK_NEAR(s.p90, 109, 1e-12);
    GP_CHECK_NEAR(gp_stats_rel_spread(&s), 8.0 / 105.0, 1e-12);
    return 0;
}
