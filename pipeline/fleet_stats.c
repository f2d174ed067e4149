#include "fleet_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

gp_status gp_fleet_threshold_parse(const char *text, gp_fleet_threshold *t)
{
    if (!text || !*text)
        return gp_fail(GP_ERR_USAGE, "--threshold: empty; give a robust z (3.5 or 3.5z) or a percent (5%%)");
    char *end = NULL;
    double v = strtod(text, &end);
    gp_fleet_rule rule = GP_FLEET_RULE_Z;
    if (end && !strcmp(end, "%"))
        rule = GP_FLEET_RULE_PERCENT;
    else if (end && (!strcmp(end, "z") || !strcmp(end, "")))
        rule = GP_FLEET_RULE_Z;
    else
        end = NULL;
    if (!end || end == text || !isfinite(v) || v <= 0)
        return gp_fail(GP_ERR_USAGE,
                       "--threshold: '%s' is not a robust z (a number > 0, e.g. 3.5 or 3.5z) or a percent (5%%)", text);
    t->rule = rule;
    t->limit = v;
    return gp_ok();
}

void gp_fleet_center_of(const double *x, int n, gp_fleet_center *c)
{
    c->n = 0;
    c->median = c->mad = NAN;
    double *v = n > 0 ? malloc((size_t)n * sizeof *v) : NULL;
    if (!v)
        return;
    for (int i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[c->n++] = x[i];
    if (c->n > 0) {
        c->median = gp_stats_median(v, (size_t)c->n);
        c->mad = gp_stats_mad(v, (size_t)c->n);
    }
    free(v);
}

static int absolute(const gp_fleet_value *v, const gp_fleet_center *c)
{
    return c->median == 0 || (v->fraction && fabs(c->median) <= GP_FLEET_NOISE_FLOOR);
}

double gp_fleet_robust_z(const gp_fleet_value *v, const gp_fleet_center *c)
{
    double d = v->x - c->median;
    double mad = c->mad;
    if (!v->structural) {
        double floor_ = GP_FLEET_NOISE_FLOOR * (absolute(v, c) ? 1 : fabs(c->median));
        if (mad < floor_)
            mad = floor_;
    }
    if (mad > 0)
        return GP_FLEET_MAD_TO_SIGMA * d / mad;
    return d == 0 ? 0 : copysign(INFINITY, d);
}

double gp_fleet_deviation(const gp_fleet_value *v, const gp_fleet_center *c)
{
    double d = v->x - c->median;
    return absolute(v, c) ? d : d / fabs(c->median);
}

int gp_fleet_outside(const gp_fleet_value *v, const gp_fleet_center *c, const gp_fleet_threshold *t)
{
    if (c->n < GP_FLEET_MIN_GROUP || !isfinite(v->x) || !isfinite(c->median))
        return 0;
    double dev = gp_fleet_deviation(v, c);
    double noise = v->structural ? 0 : GP_FLEET_NOISE_FLOOR;
    if (v->spread > noise)
        noise = v->spread;
    if (fabs(dev) <= noise * (1 + 1e-9))
        return 0;
    if (v->has_range && v->lo <= c->median && c->median <= v->hi)
        return 0;
    int out = t->rule == GP_FLEET_RULE_PERCENT ? fabs(dev) * 100 > t->limit
                                               : fabs(gp_fleet_robust_z(v, c)) > t->limit;
    return out ? (dev < 0 ? -1 : 1) : 0;
}

void gp_fleet_threshold_text(const gp_fleet_threshold *t, char *out, int n)
{
    if (t->rule == GP_FLEET_RULE_PERCENT)
        snprintf(out, (size_t)n, "more than %g %% from the model's median", t->limit);
    else
        snprintf(out, (size_t)n,
                 "robust z = 0.6745 (x - median) / MAD beyond +-%g (the MAD taken as at least %g %% of the "
                 "median for a measured value)",
                 t->limit, 100 * GP_FLEET_NOISE_FLOOR);
}
