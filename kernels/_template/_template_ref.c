/* _template's CPU reference: y = a x + y, in double, rounded once. */
#include "_template.h"

void gp__template_ref_f32(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = (float)((double)a * x[i] + y[i]);
}
