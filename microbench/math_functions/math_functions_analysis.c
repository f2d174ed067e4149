#include "math_functions_analysis.h"

#include <math.h>
#include <stdio.h>

static const char *const op_names[GP_MF_NOPS] = {"sin", "cos", "exp", "log", "sqrt", "rsqrt", "div",
                                                 "identity"};
static const char *const prec_names[GP_MF_NPRECS] = {"f32", "f32fast", "f64"};

const char *gp_math_op_name(int op)
{
    return op >= 0 && op < GP_MF_NOPS ? op_names[op] : NULL;
}

const char *gp_math_prec_name(int prec)
{
    return prec >= 0 && prec < GP_MF_NPRECS ? prec_names[prec] : NULL;
}

char *gp_math_key(char *buf, size_t len, int op, int prec, const char *what)
{
    const char *o = gp_math_op_name(op), *p = gp_math_prec_name(prec);
    if (!o || !p || !what || !buf || len == 0)
        return NULL;
    int n = snprintf(buf, len, "%s_%s_%s", o, p, what);
    return n > 0 && (size_t)n < len ? buf : NULL;
}

int gp_math_chain_params(int op, double *x0, double *c, double *d, double *k)
{
    /* Each chain settles near a fixed point inside the domain; that is fine:
     * the kernel cannot know it (constants are arguments), and the cost of
     * these functions does not depend on the value within the fast path. */
    *k = 1.5;
    switch (op) {
    case GP_MF_SIN:      /* x in [-0.5, 1.5]: no large-argument reduction */
    case GP_MF_COS:
        *x0 = 0.5, *c = 1.0, *d = 0.5;
        return 1;
    case GP_MF_EXP:      /* x = 0.1 e^x - 0.5 stays near -0.44 */
        *x0 = 0.0, *c = 0.1, *d = -0.5;
        return 1;
    case GP_MF_LOG:      /* x = ln x + 2.5 stays positive (near 3.9) */
        *x0 = 1.0, *c = 1.0, *d = 2.5;
        return 1;
    case GP_MF_SQRT:     /* x = sqrt x + 0.5 stays positive */
        *x0 = 2.0, *c = 1.0, *d = 0.5;
        return 1;
    case GP_MF_RSQRT:    /* x = 1/sqrt x + 0.5 stays positive */
        *x0 = 1.0, *c = 1.0, *d = 0.5;
        return 1;
    case GP_MF_DIV:      /* x = 1.5 / x + 0.5 stays positive (near 1.5) */
        *x0 = 1.0, *c = 1.0, *d = 0.5;
        return 1;
    case GP_MF_IDENTITY: /* x = 0.999 x + 0.001 stays near 1 */
        *x0 = 1.0, *c = 0.999, *d = 0.001;
        return 1;
    default:
        return 0;
    }
}

double gp_math_net_latency(double cycles_per_step, double identity_cycles_per_step)
{
    if (!isfinite(cycles_per_step) || !isfinite(identity_cycles_per_step) || cycles_per_step <= 0 ||
        identity_cycles_per_step < 0)
        return NAN;
    return cycles_per_step - identity_cycles_per_step;
}

double gp_math_per_cycle_per_cu(double ops, double ms, double clock_mhz, int compute_units)
{
    if (!(ops > 0) || !(ms > 0) || !(clock_mhz > 0) || compute_units <= 0 || !isfinite(ops) ||
        !isfinite(ms) || !isfinite(clock_mhz))
        return NAN;
    return ops / (ms * 1e-3 * clock_mhz * 1e6 * compute_units);
}

int gp_math_fast_is_slower(double fast_tput, double precise_tput, double fast_lat, double precise_lat,
                           double tol)
{
    int slower = 0;
    if (isfinite(fast_tput) && isfinite(precise_tput) && fast_tput > 0 && precise_tput > 0 &&
        fast_tput * (1.0 + tol) < precise_tput)
        slower = 1;
    if (isfinite(fast_lat) && isfinite(precise_lat) && fast_lat > 0 && precise_lat > 0 &&
        fast_lat > precise_lat * (1.0 + tol))
        slower = 1;
    return slower;
}
