/* The statistics of a fleet report (`gpuprobe fleet`): the centre and robust
 * spread of one characteristic over the GPUs of one device model, and the
 * rule that calls a GPU's value an outlier.
 *
 *   median, MAD = median |x_i - median|           (unscaled, as gp_stats_mad)
 *   robust z    = 0.6745 (x - median) / MAD'      (Iglewicz and Hoaglin's
 *                 modified z-score: 0.6745 makes the MAD of normal data a
 *                 standard deviation; they recommend |z| > 3.5 as the cut),
 *                 MAD' = max(MAD, floor |median|) for a measured value: three
 *                 runs that agree to 0.1 % must not make a 0.6 % one an
 *                 outlier (on the recorded H200 runs, a MAD of 0.02 % gave
 *                 cos_f64 at -0.5 % a z of -27); MAD itself for a count
 *   deviation   = (x - median) / |median|          (a fraction; for a
 *                 fraction within +-floor of zero, x - median: a loss of
 *                 -0.003 % against +0.016 % is no 117 % change)
 *
 * A value is outside when, in this order:
 *   - its model has at least GP_FLEET_MIN_GROUP GPUs with the value (with two,
 *     either one could be the odd one: nothing is judged);
 *   - it is not inside the noise the runs measured: |deviation| above
 *     max(spread, floor), spread the larger of its own run's and the median
 *     over the model's GPUs of theirs (compare's band, max(spread A, spread
 *     B), over a fleet: one calm run must not make its value an outlier
 *     among runs that all measured 16 % spreads), the floor
 *     GP_FLEET_NOISE_FLOOR for a measured value and 0 for a count of things
 *     (a GPU with 131 SMs among 132s);
 *   - a near-tie range the run recorded (a best block size of 256..768) does
 *     not include the median;
 *   - and the threshold holds: |robust z| > limit (rule z), or |deviation|
 *     > limit % (rule %).  With MAD 0 (most GPUs equal) any value past the
 *     noise guard has an infinite z.
 * Pure host C. */
#ifndef GP_FLEET_STATS_H
#define GP_FLEET_STATS_H

#include "gp_status.h"

#define GP_FLEET_DEFAULT_Z 3.5
#define GP_FLEET_MIN_GROUP 3
#define GP_FLEET_NOISE_FLOOR 0.005 /* compare's default tolerance floor (0.5 %) */
#define GP_FLEET_MAD_TO_SIGMA 0.6745

typedef enum gp_fleet_rule { GP_FLEET_RULE_Z, GP_FLEET_RULE_PERCENT } gp_fleet_rule;

typedef struct gp_fleet_threshold {
    gp_fleet_rule rule;
    double limit; /* robust z, or percent */
} gp_fleet_threshold;

/* "3.5" or "3.5z": robust z; "5%": percent from the model's median.
 * GP_ERR_USAGE naming the text otherwise (a number > 0 is needed). */
gp_status gp_fleet_threshold_parse(const char *text, gp_fleet_threshold *t);

typedef struct gp_fleet_center {
    int n;
    double median, mad; /* NAN when n == 0 */
} gp_fleet_center;

/* Median and MAD of the finite values among x[0..n) (NaN: no value). */
void gp_fleet_center_of(const double *x, int n, gp_fleet_center *c);
/* One GPU's value.  spread: the relative spread that bounds its noise, the
 * larger of its run's own and the model's median (< 0 none); structural: a count of things (no noise floor); fraction: the
 * unit is "fraction"; has_range with lo..hi: a near-tie range the run recorded. */
typedef struct gp_fleet_value {
    double x, spread;
    int structural;
    int fraction;
    int has_range;
    double lo, hi;
} gp_fleet_value;

/* 0.6745 (x - median) / MAD' (above); with MAD' 0 (a count, most GPUs
 * equal): 0 when x equals the median, else +-INFINITY. */
double gp_fleet_robust_z(const gp_fleet_value *v, const gp_fleet_center *c);
/* (x - median) / |median|, or x - median (a median of 0, a near-zero fraction). */
double gp_fleet_deviation(const gp_fleet_value *v, const gp_fleet_center *c);

/* One value against its model's centre: -1 outside below, +1 outside above,
 * 0 inside (or not judged: c->n < GP_FLEET_MIN_GROUP, x not finite). */
int gp_fleet_outside(const gp_fleet_value *v, const gp_fleet_center *c, const gp_fleet_threshold *t);

/* The threshold as words ("robust z > 3.5", "more than 5 % from the median"). */
void gp_fleet_threshold_text(const gp_fleet_threshold *t, char *out, int n);

#endif
