/* reduce CPU references: the fp32 sum accumulated in double (with the sum of
 * magnitudes the error bound scales with), and the int32 sum wrapped modulo
 * 2^32 (accumulated in uint32_t: defined overflow, the two's-complement
 * result). */
#include <math.h>

#include "reduce.h"

double gp_reduce_ref_f32(const float *x, size_t n, double *sum_abs)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        s += (double)x[i];
        a += fabs((double)x[i]);
    }
    if (sum_abs)
        *sum_abs = a;
    return s;
}

int32_t gp_reduce_ref_i32(const int32_t *x, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += (uint32_t)x[i];
    /* Back to int32 without implementation-defined conversion of values >= 2^31. */
    return s <= (uint32_t)INT32_MAX ? (int32_t)s : (int32_t)(s - (uint32_t)INT32_MAX - 1u) + INT32_MIN;
}
