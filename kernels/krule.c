/* Shared by the kernels' rule functions: a device fact read with the rule's
 * name in the error, and power-of-two rounding. */
#include "krule.h"

gp_status gp_rule_fact(const gp_table *t, const char *rule, const char *section, const char *key, double min,
                       double max, double *out)
{
    gp_status st = gp_table_get_double(t, section, key, out);
    if (st.code != GP_OK)
        return gp_fail(GP_ERR_USAGE, "rule %s: fact %s.%s is not usable (%s)", rule, section, key, st.msg);
    if (!(*out >= min && *out <= max))
        return gp_fail(GP_ERR_USAGE, "rule %s: fact %s.%s = %g is outside %g..%g", rule, section, key, *out, min,
                       max);
    return gp_ok();
}

int gp_rule_ceil_pow2(double v)
{
    int p = 1;
    while (p < v && p < (1 << 30))
        p *= 2;
    return p;
}

int gp_rule_floor_pow2(double v)
{
    int p = 1;
    while (p * 2.0 <= v && p < (1 << 30))
        p *= 2;
    return p;
}
