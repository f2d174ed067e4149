/* `gpuprobe tune`: a timed sweep of a kernel's candidate parameters within a
 * time budget, deciding as tune_pick.h says (per problem, paired with the
 * rule's choice, never on an average).
 *
 * Candidate 0 is the rule's choice for each problem's shape; the others are
 * the kernel's variants on it.  Every problem is set up once (host data and
 * reference once), kept while the device has room, and serves the whole
 * sweep and the pairing; every candidate is verified once per problem,
 * outside its timing.  The budget sets how long each timing and each
 * pairing may run: the sweep gets most of it, the pairing of the leaders
 * with the rule the rest, and every timing keeps its minimum of repeats and
 * rounds, so a tight budget makes the figures coarser, never the
 * comparison one-sided.  Progress, with an estimate of the time left, goes
 * to the log. */
#ifndef GP_TUNE_H
#define GP_TUNE_H

#include <stdio.h>

#include "kernel.h"
#include "tune_pick.h"

/* Seconds one kernel's tune aims at when no --budget is given (the
 * characterize workflow tunes every kernel: 11 x this, plus the probes,
 * within its 300 s). */
#define GP_TUNE_BUDGET_S 15.0
#define GP_TUNE_BUDGET_QUICK_S 4.0

/* Tune k on its bench problems (or the user's shapes): base gets the rule's
 * values for k (its facts'), replaced by the winner's, provenance `swept`,
 * where a candidate beat the rule.  A Markdown section per kernel goes to md
 * (may be NULL), a table row per problem to summary (may be NULL). */
gp_status gp_tune_kernel(const gp_kernel *k, gp_table *base, const gp_shape *shapes, int nshapes,
                         const gp_kernel_opts *o, FILE *md, FILE *summary);

#endif
