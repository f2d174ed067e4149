/* stencil CPU reference: one output point or plane at a time in double (a
 * whole 512^3 grid of doubles would be 1 GiB), with the magnitude the fp32
 * error bound scales with. */
#include <math.h>

#include "stencil.h"

void gp_stencil_ref_point(const float *in, const gp_stencil_shape *s, float c0, float c1, int x, int y, int z,
                          double *out, double *mag)
{
    const size_t nx = (size_t)s->nx, plane = nx * (size_t)s->ny;
    const size_t i = (size_t)z * plane + (size_t)y * nx + (size_t)x;
    const int border = x == 0 || y == 0 || z == 0 || x == s->nx - 1 || y == s->ny - 1 || z == s->nz - 1;
    if (border) {
        *out = (double)in[i];
        if (mag)
            *mag = 0.0;
        return;
    }
    const double n[6] = {in[i - 1], in[i + 1], in[i - nx], in[i + nx], in[i - plane], in[i + plane]};
    double sum = 0.0, sum_abs = 0.0;
    for (int k = 0; k < 6; k++)
        sum += n[k], sum_abs += fabs(n[k]);
    *out = (double)c0 * (double)in[i] + (double)c1 * sum;
    if (mag)
        *mag = fabs((double)c0 * (double)in[i]) + fabs((double)c1) * sum_abs;
}

void gp_stencil_ref_plane(const float *in, const gp_stencil_shape *s, float c0, float c1, int z, double *out,
                          double *mag)
{
    const size_t nx = (size_t)s->nx;
    for (int y = 0; y < s->ny; y++)
        for (int x = 0; x < s->nx; x++) {
            const size_t i = (size_t)y * nx + (size_t)x;
            gp_stencil_ref_point(in, s, c0, c1, x, y, z, &out[i], mag ? &mag[i] : NULL);
        }
}
