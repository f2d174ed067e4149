/* `gpuprobe tune`'s decision, per problem and not on an average (issue 13):
 * candidate 0 is the rule's choice; a candidate replaces it only where it
 * beats it by more than the timing spread. */
#ifndef GP_TUNE_PICK_H
#define GP_TUNE_PICK_H

#include "gp_status.h"
#include "stats.h"

#define GP_TUNE_MAX_CANDS 32
#define GP_TUNE_MAX_PROBLEMS 16

typedef struct gp_tune_grid {
    int ncands, nproblems;
    gp_summary ms[GP_TUNE_MAX_CANDS][GP_TUNE_MAX_PROBLEMS]; /* n = 0: not measured */
} gp_tune_grid;

typedef struct gp_tune_pick {
    int headline;        /* the problem that decides: where the rule's candidate takes longest (full size) */
    int best[GP_TUNE_MAX_PROBLEMS];      /* fastest candidate per problem (by median) */
    int near_tie[GP_TUNE_MAX_PROBLEMS];  /* candidates within the rule's spread of the fastest */
    int chosen;          /* 0 (the rule) unless best[headline] beats it by more than the spread */
} gp_tune_pick;

/* 1 when a is faster than b beyond both spreads: a's p90 below b's p10. */
int gp_tune_beats(const gp_summary *a, const gp_summary *b);

/* GP_ERR_USAGE when the grid is empty or the rule's candidate has no time on
 * some problem. */
gp_status gp_tune_decide(const gp_tune_grid *g, gp_tune_pick *p);

#endif
