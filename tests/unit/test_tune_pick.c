/* tune's per-problem decision (kernels/tune_pick.c). */
#include <string.h>

#include "gp_test.h"
#include "tune_pick.h"

static gp_summary t(double median, double spread)
{
    gp_summary s;
    memset(&s, 0, sizeof s);
    s.n = 20, s.median = median, s.p10 = median * (1 - spread / 2), s.p90 = median * (1 + spread / 2);
    return s;
}

GP_TEST(tune_pick_keeps_the_rule_within_the_spread)
{
    static gp_tune_grid g;
    gp_tune_pick p;
    memset(&g, 0, sizeof g);
    g.ncands = 3, g.nproblems = 2;
    /* problem 0: the 4K image (headline: the rule takes longest there); problem 1: 1 Mpixel */
    g.ms[0][0] = t(0.200, 0.02), g.ms[1][0] = t(0.198, 0.02), g.ms[2][0] = t(0.230, 0.02);
    g.ms[0][1] = t(0.030, 0.02), g.ms[1][1] = t(0.020, 0.02), g.ms[2][1] = t(0.031, 0.02);
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK);
    GP_CHECK(p.headline == 0);
    GP_CHECK(p.best[0] == 1 && p.best[1] == 1);
    /* 1 % faster on the headline, inside the 2 % spread: the rule stays,
     * however much candidate 1 wins on the small problem (no averaging). */
    GP_CHECK(p.chosen == 0);
    GP_CHECK(p.near_tie[0] == 2 && p.near_tie[1] == 1);
    /* 10 % faster on the headline: beyond the spread, it replaces the rule. */
    g.ms[1][0] = t(0.180, 0.02);
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 1);
    /* A noisy rule time widens the near-tie range and keeps the rule. */
    g.ms[0][0] = t(0.200, 0.30);
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 0 && p.near_tie[0] == 3);
    /* No time for the rule: nothing to decide against. */
    g.ms[0][1].n = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    g.ncands = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    return 0;
}
