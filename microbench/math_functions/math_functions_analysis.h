/* math_functions analysis: op and precision ids (shared with the kernels and
 * the CSV series), key names, the chains' constants, and the arithmetic that
 * turns cycle counts and event times into latency and throughput.  Pure C,
 * unit-tested on the CPU. */
#ifndef GP_MATH_FUNCTIONS_ANALYSIS_H
#define GP_MATH_FUNCTIONS_ANALYSIS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Op ids as written in the series CSV (docs/probes/math_functions.md).  The
 * identity is the baseline chain x = x*c + d with no function in it. */
enum {
    GP_MF_SIN = 0,
    GP_MF_COS = 1,
    GP_MF_EXP = 2,
    GP_MF_LOG = 3,
    GP_MF_SQRT = 4,
    GP_MF_RSQRT = 5,
    GP_MF_DIV = 6,
    GP_MF_IDENTITY = 7,
    GP_MF_NOPS = 8
};

/* Precision ids: fp32 precise library call, fp32 fast intrinsic, fp64. */
enum { GP_MF_F32 = 0, GP_MF_F32FAST = 1, GP_MF_F64 = 2, GP_MF_NPRECS = 3 };

const char *gp_math_op_name(int op);      /* "sin" ... "identity"; NULL when out of range */
const char *gp_math_prec_name(int prec);  /* "f32", "f32fast", "f64"; NULL when out of range */

/* "<op>_<prec>_<what>" into buf; returns buf, or NULL when an id is out of
 * range or the key does not fit. */
char *gp_math_key(char *buf, size_t len, int op, int prec, const char *what);

/* Constants of the chain x = f(x) * c + d (f(x) = k / x for division) that
 * keep x inside f's domain and away from slow paths (small |x| for sin/cos,
 * x > 0 for log/sqrt/rsqrt/div).  They are passed to the kernel as arguments,
 * so nothing can be folded.  Returns 0 when op is out of range. */
int gp_math_chain_params(int op, double *x0, double *c, double *d, double *k);

/* Per-op latency: cycles per chain step with the op minus the identity
 * chain's cycles per step (the FMA and loop share).  NaN on bad input. */
double gp_math_net_latency(double cycles_per_step, double identity_cycles_per_step);

/* Ops per cycle per CU from a whole-chip run. NaN on bad input. */
double gp_math_per_cycle_per_cu(double ops, double ms, double clock_mhz, int compute_units);

/* 1 when the fast variant is worse than the precise one by more than tol
 * (e.g. 0.2): throughput lower than precise/(1+tol) or latency higher than
 * precise*(1+tol).  Non-finite inputs compare as not worse. */
int gp_math_fast_is_slower(double fast_tput, double precise_tput, double fast_lat, double precise_lat,
                           double tol);

#ifdef __cplusplus
}
#endif
#endif
