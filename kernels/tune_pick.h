/* `gpuprobe tune`'s decision, per problem and not on an average (an average
 * hides a problem the leader loses):
 * candidate 0 is the rule's choice.  Every candidate is timed once on every
 * bench problem at full size (the unpaired sweep, which names each
 * problem's leader); then each leader and the rule are timed paired, ABBA
 * (kernels/bench.h, "paired"), on every problem, and a leader replaces the
 * rule only where the paired ratio says it is faster beyond the paired
 * spread. */
#ifndef GP_TUNE_PICK_H
#define GP_TUNE_PICK_H

#include "gp_status.h"
#include "stats.h"

#define GP_TUNE_MAX_CANDS 32
#define GP_TUNE_MAX_PROBLEMS 16

/* A leader against the rule on one problem: per ABBA round the ratio
 * rule time / leader time (> 1: the leader faster), as gp_bench_pair_ratios
 * computes it with the leader as A and the rule as B. */
typedef struct gp_tune_paired {
    int rounds;               /* 0: not paired */
    gp_summary ratio;         /* median, p10, p90 of the per-round ratios */
    double cand_ms, rule_ms;  /* medians of the leader's and the rule's paired runs */
} gp_tune_paired;

typedef struct gp_tune_grid {
    int ncands, nproblems;
    /* tune --quick: only the headline problem's leader was timed paired (on
     * every problem); another problem whose own leader was not paired keeps
     * the rule and is marked unpaired (gp_tune_pick.unpaired).  0: every
     * leader must be paired. */
    int quick;
    gp_summary ms[GP_TUNE_MAX_CANDS][GP_TUNE_MAX_PROBLEMS];       /* unpaired sweep; n = 0: not measured */
    gp_tune_paired pair[GP_TUNE_MAX_CANDS][GP_TUNE_MAX_PROBLEMS]; /* leaders vs the rule (gp_tune_leaders) */
} gp_tune_grid;

typedef struct gp_tune_pick {
    int headline;        /* the problem that decides: where the rule's candidate takes longest (full size) */
    int best[GP_TUNE_MAX_PROBLEMS];      /* the problem's leader in the unpaired sweep (by median) */
    int near_tie[GP_TUNE_MAX_PROBLEMS];  /* candidates within the paired spread of the leader */
    /* The near-tie range: p10..p90 of the leader's paired ratio over the
     * rule; the rule is a near tie of the leader when tie_lo <= 1. */
    double tie_lo[GP_TUNE_MAX_PROBLEMS], tie_hi[GP_TUNE_MAX_PROBLEMS];
    /* 1: the problem's leader was not timed paired (quick grids only): no
     * near-tie range (tie_lo, tie_hi NaN, near_tie 0), the rule kept there. */
    int unpaired[GP_TUNE_MAX_PROBLEMS];
    int chosen;          /* 0 (the rule) unless a leader beats it beyond the paired spread (gp_tune_decide) */
} gp_tune_pick;

/* 1 when the paired result says the leader is faster than the rule beyond
 * the spread: the ratio's p10 > 1 (faster in at least 90 % of the rounds). */
int gp_tune_pair_beats(const gp_tune_paired *pr);
/* 1 when the rule is faster than the leader beyond the spread: p90 < 1. */
int gp_tune_pair_loses(const gp_tune_paired *pr);

/* From the unpaired sweep: the headline problem and each problem's leader
 * (p->best); the candidates to time paired are the distinct best[q] != 0.
 * GP_ERR_USAGE when the grid is empty or the rule's candidate has no time on
 * some problem. */
gp_status gp_tune_leaders(const gp_tune_grid *g, gp_tune_pick *p);

/* The leaders to time paired with the rule (after gp_tune_leaders), each
 * once, into lead[] (room for GP_TUNE_MAX_PROBLEMS); returns the count.
 * Every problem's leader that is not the rule's candidate; with g->quick,
 * the headline problem's leader only (none when the rule leads there). */
int gp_tune_to_pair(const gp_tune_grid *g, const gp_tune_pick *p, int *lead);

/* After the leaders' paired runs (g->pair[c][q] for every leader c and every
 * problem q): the near-tie ranges and the choice.  A leader replaces the
 * rule when it beats the rule on the headline problem (gp_tune_pair_beats)
 * and loses beyond the spread on no problem; of several, the one with the
 * largest median ratio on the headline.  GP_ERR_USAGE when a leader was
 * not paired on its problem; with g->quick, only when the headline's leader
 * was not (the others are marked p->unpaired and cannot be chosen). */
gp_status gp_tune_decide(const gp_tune_grid *g, gp_tune_pick *p);

#endif
