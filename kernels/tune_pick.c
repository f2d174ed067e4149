/* tune's per-problem decision: see tune_pick.h. */
#include "tune_pick.h"

#include <string.h>

int gp_tune_beats(const gp_summary *a, const gp_summary *b)
{
    return a->n > 0 && b->n > 0 && a->p90 < b->p10;
}

gp_status gp_tune_decide(const gp_tune_grid *g, gp_tune_pick *p)
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
        /* Near tie: within the rule's own relative spread of the fastest. */
        double spread = (rule->p90 - rule->p10) / rule->median;
        for (int c = 0; c < g->ncands; c++)
            if (g->ms[c][q].n > 0 && g->ms[c][q].median <= g->ms[best][q].median * (1 + spread))
                p->near_tie[q]++;
    }
    int h = p->headline, b = p->best[h];
    p->chosen = gp_tune_beats(&g->ms[b][h], &g->ms[0][h]) ? b : 0;
    return gp_ok();
}
