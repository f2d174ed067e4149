/* stencil CPU reference: one output point or plane at a time in double (a
 * whole 512^3 grid of doubles would be 1 GiB), with the magnitude the fp32
 * error bound scales with. */
#include <math.h>
#include <string.h>

#include "stencil.h"

#include "data.h"

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

void gp_stencil_fill(float *in, size_t n, int exact, uint64_t *rng)
{
    if (exact)
        gp_fill_ints_f32(in, n, 8, rng);
    else
        gp_fill_uniform_f32(in, n, -1.0f, 1.0f, rng);
}

/* Point i's coordinates (x fastest). */
static void coords(const gp_stencil_shape *g, size_t i, int *x, int *y, int *z)
{
    *x = (int)(i % (size_t)g->nx), *y = (int)(i / (size_t)g->nx % (size_t)g->ny);
    *z = (int)(i / ((size_t)g->nx * (size_t)g->ny));
}

/* The least float >= v (up 1) or the greatest <= v (up 0). */
static float round_to(double v, int up)
{
    float f = (float)v;
    if (up && (double)f < v)
        return nextafterf(f, INFINITY);
    return !up && (double)f > v ? nextafterf(f, -INFINITY) : f;
}

void gp_stencil_ref_bounds(const float *in, const gp_stencil_shape *s, float c0, float c1, int exact, size_t stride,
                           float *lo, float *hi)
{
    const size_t n = gp_stencil_elems(s);
    for (size_t i = 0, j = 0; i < n; i += stride, j++) {
        double ref, mag;
        int x, y, z;
        coords(s, i, &x, &y, &z);
        gp_stencil_ref_point(in, s, c0, c1, x, y, z, &ref, &mag);
        const double bound = exact ? 0.0 : gp_stencil_f32_bound(mag);
        lo[j] = round_to(ref - bound, 1), hi[j] = round_to(ref + bound, 0);
    }
}

gp_status gp_stencil_check(const char *what, const float *out, const float *in, const gp_stencil_shape *s, float c0,
                           float c1, int exact, size_t stride, const float *lo, const float *hi)
{
    const size_t n = gp_stencil_elems(s);
    for (size_t i = 0, j = 0; i < n; i += stride, j++) {
        int x, y, z;
        coords(s, i, &x, &y, &z);
        const int border = x == 0 || y == 0 || z == 0 || x == s->nx - 1 || y == s->ny - 1 || z == s->nz - 1;
        if (border ? !memcmp(&out[i], &in[i], 4) : out[i] >= lo[j] && out[i] <= hi[j])
            continue;
        double ref, mag;
        gp_stencil_ref_point(in, s, c0, c1, x, y, z, &ref, &mag);
        const double bound = border || exact ? 0.0 : gp_stencil_f32_bound(mag);
        return gp_fail(GP_ERR_CHECK, "%s: (x %d, y %d, z %d)%s = %.9g, reference %.17g (error %.3g > bound %.3g)",
                       what, x, y, z, border ? " border" : "", (double)out[i], ref, fabs((double)out[i] - ref), bound);
    }
    return gp_ok();
}
