/* The fleet report's statistics and outlier rule (pipeline/fleet_stats.h). */
#include <math.h>
#include <string.h>

#include "fleet_stats.h"
#include "gp_test.h"

GP_TEST(fleet_center_median_mad)
{
    /* NaN is "no value": left out of the centre. */
    double x[] = {10, 12, NAN, 11, 100, 9};
    gp_fleet_center c;
    gp_fleet_center_of(x, 6, &c);
    GP_CHECK(c.n == 5);
    GP_CHECK_NEAR(c.median, 11, 0);
    /* |x - 11| = 1, 1, 0, 89, 2 -> median 1 */
    GP_CHECK_NEAR(c.mad, 1, 0);
    gp_fleet_center_of(x, 0, &c);
    GP_CHECK(c.n == 0 && isnan(c.median));
    return 0;
}

GP_TEST(fleet_robust_z_and_deviation)
{
    gp_fleet_center c = {5, 100, 2};
    gp_fleet_value v = {90, -1, 0, 0, 0, 0, 0};
    /* 0.6745 * (90 - 100) / 2 */
    GP_CHECK_NEAR(gp_fleet_robust_z(&v, &c), -3.3725, 1e-12);
    GP_CHECK_NEAR(gp_fleet_deviation(&v, &c), -0.10, 1e-12);
    /* The MAD is taken as at least 0.5 % of the median for a measured value:
     * a MAD of 0.01 around 100 would make 99.4 a z of -40. */
    gp_fleet_center tight = {5, 100, 0.01};
    v.x = 99.4;
    GP_CHECK_NEAR(gp_fleet_robust_z(&v, &tight), 0.6745 * -0.6 / 0.5, 1e-9);
    /* A count keeps its MAD: 0 with most GPUs equal, any other value infinite. */
    gp_fleet_center counts = {4, 132, 0};
    gp_fleet_value sms = {131, -1, 1, 0, 0, 0, 0};
    GP_CHECK(isinf(gp_fleet_robust_z(&sms, &counts)) && gp_fleet_robust_z(&sms, &counts) < 0);
    sms.x = 132;
    GP_CHECK(gp_fleet_robust_z(&sms, &counts) == 0);
    /* A fraction near zero moves in absolute points. */
    gp_fleet_center loss = {3, 0.00016, 0.0001};
    gp_fleet_value f = {-0.00003, -1, 0, 1, 0, 0, 0};
    GP_CHECK_NEAR(gp_fleet_deviation(&f, &loss), -0.00019, 1e-15);
    return 0;
}

GP_TEST(fleet_outlier_rule)
{
    gp_fleet_threshold z = {GP_FLEET_RULE_Z, 3.5}, pct = {GP_FLEET_RULE_PERCENT, 5};
    /* Four GPUs near 4350 GB/s, MAD 17 (the recorded H200 runs). */
    gp_fleet_center bw = {4, 4350, 17};
    gp_fleet_value low = {0.92 * 4341.6, 0.0023, 0, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&low, &bw, &z) == -1);
    GP_CHECK(gp_fleet_outside(&low, &bw, &pct) == -1);
    gp_fleet_value high = {4700, 0.0023, 0, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&high, &bw, &z) == 1);
    gp_fleet_value near = {4374, 0.0023, 0, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&near, &bw, &z) == 0);
    /* Inside the value's noise: a 6 % move with a 16 % spread is no outlier,
     * however small the MAD. */
    gp_fleet_center tight = {4, 565, 0.5};
    gp_fleet_value noisy = {600, 0.16, 0, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&noisy, &tight, &z) == 0);
    noisy.spread = 0.01;
    GP_CHECK(gp_fleet_outside(&noisy, &tight, &z) == 1);
    /* 5 %: 8 % out, 4 % in. */
    gp_fleet_value four = {0.96 * 4350, -1, 0, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&four, &bw, &pct) == 0);
    /* Too few GPUs: never judged. */
    gp_fleet_center two = {2, 4350, 17};
    GP_CHECK(gp_fleet_outside(&low, &two, &z) == 0);
    GP_CHECK(gp_fleet_outside(&low, &two, &pct) == 0);
    /* A near-tie range that holds the median is inside. */
    gp_fleet_center blk = {5, 512, 0};
    gp_fleet_value tie = {256, -1, 1, 0, 1, 256, 768};
    GP_CHECK(gp_fleet_outside(&tie, &blk, &z) == 0);
    tie.hi = 384;
    GP_CHECK(gp_fleet_outside(&tie, &blk, &z) == -1);
    /* A count: one SM fewer is out (no noise floor). */
    gp_fleet_center sms = {8, 132, 0};
    gp_fleet_value one_less = {131, -1, 1, 0, 0, 0, 0};
    GP_CHECK(gp_fleet_outside(&one_less, &sms, &z) == -1);
    return 0;
}

GP_TEST(fleet_threshold_parse)
{
    gp_fleet_threshold t;
    GP_CHECK(gp_fleet_threshold_parse("3.5", &t).code == GP_OK && t.rule == GP_FLEET_RULE_Z && t.limit == 3.5);
    GP_CHECK(gp_fleet_threshold_parse("4z", &t).code == GP_OK && t.rule == GP_FLEET_RULE_Z && t.limit == 4);
    GP_CHECK(gp_fleet_threshold_parse("5%", &t).code == GP_OK && t.rule == GP_FLEET_RULE_PERCENT && t.limit == 5);
    static const char *const bad[] = {"", "0", "-3", "5%%", "abc", "3x", "nan", "inf%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_status st = gp_fleet_threshold_parse(bad[i], &t);
        GP_CHECK(st.code == GP_ERR_USAGE);
        GP_CHECK(strstr(st.msg, "--threshold"));
    }
    return 0;
}
