/* tune's per-problem decision (kernels/tune_pick.c) on synthetic paired
 * timings: the leader of each problem against the rule, ABBA. */
#include <string.h>

#include "gp_test.h"
#include "bench.h"
#include "tune_pick.h"

static gp_summary t(double median, double spread)
{
    gp_summary s;
    memset(&s, 0, sizeof s);
    s.n = 20, s.median = median, s.p10 = median * (1 - spread / 2), s.p90 = median * (1 + spread / 2);
    return s;
}

/* Leader c against the rule on problem q: `rounds` ABBA rounds with the
 * leader at lead_ms and the rule at rule_ms, each run off by +-noise
 * (relative), alternating so the per-round ratios spread. */
static int pair(gp_tune_grid *g, int c, int q, double lead_ms, double rule_ms, double noise)
{
    double a[10], b[10];
    for (int i = 0; i < 10; i++) {
        double sgn = (i / 2) % 2 ? 1 : -1;
        a[i] = lead_ms * (1 + sgn * noise);
        b[i] = rule_ms * (1 - sgn * noise);
    }
    gp_bench_paired pr;
    if (gp_bench_pair_ratios(a, b, 5, &pr).code != GP_OK)
        return 0;
    g->pair[c][q].rounds = pr.rounds, g->pair[c][q].ratio = pr.ratio_s;
    g->pair[c][q].cand_ms = pr.a_median_ms, g->pair[c][q].rule_ms = pr.b_median_ms;
    return 1;
}

/* Three candidates on two problems (0: the 4K image, the headline where the
 * rule takes longest; 1: 1 Mpixel), each time unpaired with a 2 % spread. */
static gp_tune_grid *grid(double c0p0, double c1p0, double c2p0, double c0p1, double c1p1, double c2p1)
{
    static gp_tune_grid g;
    memset(&g, 0, sizeof g);
    g.ncands = 3, g.nproblems = 2;
    g.ms[0][0] = t(c0p0, 0.02), g.ms[1][0] = t(c1p0, 0.02), g.ms[2][0] = t(c2p0, 0.02);
    g.ms[0][1] = t(c0p1, 0.02), g.ms[1][1] = t(c1p1, 0.02), g.ms[2][1] = t(c2p1, 0.02);
    return &g;
}

GP_TEST(tune_pick_keeps_the_rule_within_the_paired_spread)
{
    gp_tune_pick p;
    /* The unpaired sweep says candidate 1 leads both problems by 10 % or more. */
    static gp_tune_grid g; /* ~90 KB: off the stack */
    g = *grid(0.200, 0.180, 0.230, 0.030, 0.020, 0.031);
    GP_CHECK(gp_tune_leaders(&g, &p).code == GP_OK);
    GP_CHECK(p.headline == 0 && p.best[0] == 1 && p.best[1] == 1);
    /* Not yet paired: no decision on unpaired times. */
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    /* Paired, the 10 % lead was drift: 1 % faster with 4 % noise per run, so
     * the ratio's p10 is below 1 and the rule stays. */
    GP_CHECK(pair(&g, 1, 0, 0.198, 0.200, 0.04) && pair(&g, 1, 1, 0.020, 0.030, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK);
    GP_CHECK(p.chosen == 0);
    GP_CHECK(p.tie_lo[0] < 1 && p.tie_hi[0] > 1);      /* the rule inside the near-tie range */
    /* Near ties: the rule's sweep 0.200 lies within 0.180 x (1 + the paired
     * spread, ~0.16) on the headline; nothing but the leader on problem 1. */
    GP_CHECK(p.near_tie[0] == 2 && p.near_tie[1] == 1);
    /* Paired 10 % faster with 1 % noise: beyond the spread, it replaces the rule. */
    GP_CHECK(pair(&g, 1, 0, 0.180, 0.200, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 1 && p.tie_lo[0] > 1);
    /* ... unless it loses beyond the spread on another problem. */
    GP_CHECK(pair(&g, 1, 1, 0.036, 0.030, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 0);
    /* No time for the rule: nothing to decide against. */
    g.ms[0][1].n = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    g.ncands = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(tune_pick_takes_the_leader_that_wins_most_on_the_headline)
{
    gp_tune_pick p;
    /* Candidate 1 leads the headline, candidate 2 the small problem. */
    static gp_tune_grid g; /* ~90 KB: off the stack */
    g = *grid(0.200, 0.170, 0.190, 0.030, 0.031, 0.020);
    GP_CHECK(gp_tune_leaders(&g, &p).code == GP_OK && p.best[0] == 1 && p.best[1] == 2);
    GP_CHECK(pair(&g, 1, 0, 0.170, 0.200, 0.01) && pair(&g, 1, 1, 0.0301, 0.030, 0.01));
    GP_CHECK(pair(&g, 2, 0, 0.190, 0.200, 0.01) && pair(&g, 2, 1, 0.020, 0.030, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 1);
    /* Paired, candidate 2 wins the headline by more: it is taken. */
    GP_CHECK(pair(&g, 2, 0, 0.160, 0.200, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 2);
    return 0;
}

/* tune --quick pairs only the headline problem's leader (on every problem):
 * another problem's own leader stays unpaired, keeps the rule and is marked
 * so; a full tune still refuses to decide on an unpaired leader. */
GP_TEST(tune_pick_quick_accepts_unpaired_leaders_off_the_headline)
{
    gp_tune_pick p;
    static gp_tune_grid g; /* ~90 KB: off the stack */
    /* Candidate 1 leads the headline (problem 0), candidate 2 problem 1. */
    g = *grid(0.200, 0.170, 0.190, 0.030, 0.031, 0.020);
    GP_CHECK(gp_tune_leaders(&g, &p).code == GP_OK && p.headline == 0 && p.best[0] == 1 && p.best[1] == 2);
    /* Only the headline's leader paired, on both problems: 15 % faster on the
     * headline, even on problem 1. */
    GP_CHECK(pair(&g, 1, 0, 0.170, 0.200, 0.01) && pair(&g, 1, 1, 0.0301, 0.030, 0.01));
    /* Full: leader 2 of problem 1 was not paired, so no decision. */
    g.quick = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    /* Quick: decided; problem 1 is marked unpaired, with no near-tie range. */
    g.quick = 1;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK);
    GP_CHECK(p.chosen == 1);
    GP_CHECK(!p.unpaired[0] && p.unpaired[1]);
    GP_CHECK(p.tie_lo[0] > 1 && isnan(p.tie_lo[1]) && isnan(p.tie_hi[1]));
    GP_CHECK(p.near_tie[0] >= 1 && p.near_tie[1] == 0);
    /* The headline's leader losing beyond the spread on problem 1 still keeps the rule. */
    GP_CHECK(pair(&g, 1, 1, 0.036, 0.030, 0.01));
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK && p.chosen == 0 && p.unpaired[1]);
    return 0;
}

GP_TEST(tune_pick_quick_still_needs_the_headline_leader_paired)
{
    gp_tune_pick p;
    static gp_tune_grid g; /* ~90 KB: off the stack */
    g = *grid(0.200, 0.170, 0.190, 0.030, 0.031, 0.020);
    g.quick = 1;
    /* Nothing paired: the headline's leader decides, so quick refuses too. */
    gp_status st = gp_tune_decide(&g, &p);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "headline"));
    /* The rule leads the headline: nothing to pair there; candidate 2's lead
     * on problem 1 is unpaired and the rule is kept. */
    g = *grid(0.200, 0.210, 0.220, 0.030, 0.031, 0.020);
    g.quick = 1;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_OK);
    GP_CHECK(p.best[0] == 0 && p.best[1] == 2 && p.chosen == 0 && !p.unpaired[0] && p.unpaired[1]);
    GP_CHECK(p.tie_lo[0] == 1.0 && p.near_tie[0] >= 1);
    g.quick = 0;
    GP_CHECK(gp_tune_decide(&g, &p).code == GP_ERR_USAGE);
    return 0;
}

/* Which leaders tune times paired: each distinct non-rule leader once; quick,
 * the headline problem's leader alone, even when an earlier problem has
 * the same leader. */
GP_TEST(tune_pick_leaders_to_pair_full_and_quick)
{
    static gp_tune_grid g; /* ~90 KB: off the stack */
    gp_tune_pick p;
    int lead[GP_TUNE_MAX_PROBLEMS];
    memset(&g, 0, sizeof g);
    memset(&p, 0, sizeof p);
    g.ncands = 4, g.nproblems = 4;
    const int best[4] = {2, 3, 2, 0};
    memcpy(p.best, best, sizeof best);
    p.headline = 2;
    GP_CHECK(gp_tune_to_pair(&g, &p, lead) == 2 && lead[0] == 2 && lead[1] == 3);
    g.quick = 1;
    GP_CHECK(gp_tune_to_pair(&g, &p, lead) == 1 && lead[0] == 2);
    p.headline = 1;
    GP_CHECK(gp_tune_to_pair(&g, &p, lead) == 1 && lead[0] == 3);
    p.headline = 3; /* the rule leads the headline: nothing to pair */
    GP_CHECK(gp_tune_to_pair(&g, &p, lead) == 0);
    g.quick = 0;
    GP_CHECK(gp_tune_to_pair(&g, &p, lead) == 2);
    return 0;
}
