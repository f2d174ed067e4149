/* tune's per-problem decision: see tune_pick.h. */
#include "tune_pick.h"

#include <math.h>
#include <string.h>

int gp_tune_pair_beats(const gp_tune_paired *pr)
{
    return pr->rounds > 0 && isfinite(pr->ratio.p10) && pr->ratio.p10 > 1.0;
}

int gp_tune_pair_loses(const gp_tune_paired *pr)
{
    return pr->rounds > 0 && isfinite(pr->ratio.p90) && pr->ratio.p90 < 1.0;
}

gp_status gp_tune_leaders(const gp_tune_grid *g, gp_tune_pick *p)
{
    memset(p, 0, sizeof *p);
    if (g->ncands < 1 || g->nproblems < 1 || g->ncands > GP_TUNE_MAX_CANDS || g->nproblems > GP_TUNE_MAX_PROBLEMS)
        return gp_fail(GP_ERR_USAGE, "tune: %d candidates x %d problems: nothing to decide", g->ncands,
                       g->nproblems);
    for (int q = 0; q < g->nproblems; q++) {
        const gp_summary *rule = &g->ms[0][q];
        if (rule->n == 0 || !(rule->median > 0))
            return gp_fail(GP_ERR_USAGE, "tune: the rule's candidate has no time on problem %d", q);
        if (rule->median > g->ms[0][p->headline].median)
            p->headline = q;
        int best = 0;
        for (int c = 1; c < g->ncands; c++)
            if (g->ms[c][q].n > 0 && g->ms[c][q].median < g->ms[best][q].median)
                best = c;
        p->best[q] = best;
        p->tie_lo[q] = p->tie_hi[q] = 1.0; /* the rule leads: it ties itself */
    }
    return gp_ok();
}

int gp_tune_to_pair(const gp_tune_grid *g, const gp_tune_pick *p, int *lead)
{
    int n = 0;
    for (int q = 0; q < g->nproblems; q++) {
        int c = p->best[q], skip = c == 0 || (g->quick && q != p->headline);
        for (int i = 0; i < n; i++)
            skip |= lead[i] == c; /* paired already */
        if (!skip)
            lead[n++] = c;
    }
    return n;
}

gp_status gp_tune_decide(const gp_tune_grid *g, gp_tune_pick *p)
{
    GP_TRY(gp_tune_leaders(g, p));
    double best_ratio = 0;
    for (int q = 0; q < g->nproblems; q++) {
        int lead = p->best[q];
        double rel = 0; /* the paired spread, relative: (p90 - p10) of the ratio */
        if (lead != 0) {
            const gp_tune_paired *pr = &g->pair[lead][q];
            if (pr->rounds < 1 && g->quick && q != p->headline) {
                /* Quick: this leader was not paired; the rule stays here,
                 * with no near-tie range to report. */
                p->unpaired[q] = 1;
                p->tie_lo[q] = p->tie_hi[q] = NAN;
                continue;
            }
            if (pr->rounds < 1)
                return gp_fail(GP_ERR_USAGE, "tune: leader %d of problem %d%s was not timed paired with the rule",
                               lead, q, q == p->headline ? " (the headline)" : "");
            p->tie_lo[q] = pr->ratio.p10, p->tie_hi[q] = pr->ratio.p90;
            rel = pr->ratio.p90 - pr->ratio.p10;
        }
        /* Near ties: the candidates whose sweep time is within the paired
         * spread of the leader's. */
        for (int c = 0; c < g->ncands; c++)
            if (g->ms[c][q].n > 0 && g->ms[c][q].median <= g->ms[lead][q].median * (1 + rel))
                p->near_tie[q]++;
    }
    /* The choice: a leader that beats the rule on the headline beyond the
     * paired spread, and is beaten beyond it nowhere. */
    for (int q = 0; q < g->nproblems; q++) {
        int c = p->best[q];
        if (c == 0 || !gp_tune_pair_beats(&g->pair[c][p->headline]))
            continue;
        int loses = 0;
        for (int r = 0; r < g->nproblems; r++)
            loses |= g->pair[c][r].rounds < 1 || gp_tune_pair_loses(&g->pair[c][r]);
        if (!loses && g->pair[c][p->headline].ratio.median > best_ratio)
            best_ratio = g->pair[c][p->headline].ratio.median, p->chosen = c;
    }
    return gp_ok();
}
