/* scan CPU references: fp32 prefix sums accumulated in double with the
 * running sum of magnitudes the error bound scales with, and int32 prefix
 * sums wrapped modulo 2^32 (accumulated in uint32_t: defined overflow).  The
 * running sums are carried in and out so that a long array can be checked a
 * chunk at a time without an n-element double array. */
#include <math.h>

#include "scan.h"

void gp_scan_ref_f32(const float *x, size_t n, int exclusive, double *acc, double *acc_abs, double *out,
                     double *sum_abs)
{
    double s = acc ? *acc : 0, a = acc_abs ? *acc_abs : 0;
    for (size_t i = 0; i < n; i++) {
        if (exclusive && out)
            out[i] = s;
        s += (double)x[i];
        a += fabs((double)x[i]);
        if (!exclusive && out)
            out[i] = s;
        if (sum_abs)
            sum_abs[i] = a; /* magnitudes through x[i]: bounds both kinds */
    }
    if (acc)
        *acc = s;
    if (acc_abs)
        *acc_abs = a;
}

/* uint32 back to int32 without implementation-defined conversion of values
 * >= 2^31. */
static int32_t wrap_i32(uint32_t s)
{
    return s <= (uint32_t)INT32_MAX ? (int32_t)s : (int32_t)(s - (uint32_t)INT32_MAX - 1u) + INT32_MIN;
}

void gp_scan_ref_i32(const int32_t *x, size_t n, int exclusive, uint32_t *acc, int32_t *out)
{
    uint32_t s = acc ? *acc : 0;
    for (size_t i = 0; i < n; i++) {
        if (exclusive)
            out[i] = wrap_i32(s);
        s += (uint32_t)x[i];
        if (!exclusive)
            out[i] = wrap_i32(s);
    }
    if (acc)
        *acc = s;
}
