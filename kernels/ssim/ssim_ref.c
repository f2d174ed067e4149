/* ssim CPU reference, double precision: separable Gaussian filtering of the
 * five moments (x, y, x^2, y^2, x y) with zero padding, then the SSIM
 * formula per pixel.  Unshifted moments are exact enough in double (the
 * cancellation in E[x^2] - mu^2 costs ~1e-16 relative).  Also the brute-force
 * 121-tap pixel (to test the separable code), the fp32 model of the GPU
 * kernel's arithmetic, and the bench's images and check of a run's map and
 * mean against the reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "ssim.h"

#define NMOM 5

static double ssim_from_moments(double mx, double my, double mxx, double myy, double mxy)
{
    double vx = mxx - mx * mx, vy = myy - my * my, cxy = mxy - mx * my;
    return (2.0 * mx * my + GP_SSIM_C1) * (2.0 * cxy + GP_SSIM_C2) /
           ((mx * mx + my * my + GP_SSIM_C1) * (vx + vy + GP_SSIM_C2));
}

/* Horizontal moments of image row `row` at every column: out[c * 5 + m]. */
static void hrow(const gp_ssim_problem *p, const float *X, const float *Y, long long row, const double g[],
                 double *out)
{
    long long w = p->dims.w;
    memset(out, 0, sizeof(double) * NMOM * (size_t)w);
    if (row < 0 || row >= p->dims.h)
        return;
    const float *xr = X + row * w, *yr = Y + row * w;
    for (long long c = 0; c < w; c++) {
        double s[NMOM] = {0, 0, 0, 0, 0};
        for (int t = 0; t < GP_SSIM_WIN; t++) {
            long long cc = c - GP_SSIM_HALF + t;
            if (cc < 0 || cc >= w)
                continue;
            double x = xr[cc], y = yr[cc];
            s[0] += g[t] * x;
            s[1] += g[t] * y;
            s[2] += g[t] * x * x;
            s[3] += g[t] * y * y;
            s[4] += g[t] * x * y;
        }
        memcpy(out + c * NMOM, s, sizeof s);
    }
}

typedef struct ring {
    long long tag[GP_SSIM_WIN]; /* image row held in slot i, or LLONG_MIN */
    double *rows;               /* 11 x w x 5 */
} ring;

static const double *ring_row(ring *r, const gp_ssim_problem *p, const float *X, const float *Y, long long row,
                              const double g[])
{
    long long slot = ((row % GP_SSIM_WIN) + GP_SSIM_WIN) % GP_SSIM_WIN;
    double *dst = r->rows + slot * NMOM * p->dims.w;
    if (r->tag[slot] != row) {
        hrow(p, X, Y, row, g, dst);
        r->tag[slot] = row;
    }
    return dst;
}

gp_status gp_ssim_ref_rows(const gp_ssim_problem *p, const float *x, const float *y, long long plane,
                           const long long *rows, long long nrows, double *out)
{
    if (!p || p->map_elems <= 0 || plane < 0 || plane >= p->planes)
        return gp_fail(GP_ERR_USAGE, "ssim ref: bad problem or plane %lld", plane);
    double g[GP_SSIM_WIN];
    gp_ssim_gauss(g);
    ring r;
    r.rows = malloc(sizeof(double) * GP_SSIM_WIN * NMOM * (size_t)p->dims.w);
    if (!r.rows)
        return gp_fail(GP_ERR_NOMEM, "ssim ref: out of host memory");
    for (int i = 0; i < GP_SSIM_WIN; i++)
        r.tag[i] = -(1ll << 62);
    const long long half = p->border == GP_SSIM_VALID ? GP_SSIM_HALF : 0;
    const float *X = x + plane * p->dims.h * p->dims.w, *Y = y + plane * p->dims.h * p->dims.w;
    for (long long i = 0; i < nrows; i++) {
        if (rows[i] < 0 || rows[i] >= p->map_h || (i > 0 && rows[i] < rows[i - 1])) {
            free(r.rows);
            return gp_fail(GP_ERR_USAGE, "ssim ref: row %lld out of order or outside 0..%lld", rows[i], p->map_h - 1);
        }
        long long o = rows[i] + half;
        const double *h[GP_SSIM_WIN];
        for (int t = 0; t < GP_SSIM_WIN; t++)
            h[t] = ring_row(&r, p, X, Y, o - GP_SSIM_HALF + t, g);
        for (long long mc = 0; mc < p->map_w; mc++) {
            long long c = mc + half;
            double s[NMOM] = {0, 0, 0, 0, 0};
            for (int t = 0; t < GP_SSIM_WIN; t++)
                for (int m = 0; m < NMOM; m++)
                    s[m] += g[t] * h[t][c * NMOM + m];
            out[i * p->map_w + mc] = ssim_from_moments(s[0], s[1], s[2], s[3], s[4]);
        }
    }
    free(r.rows);
    return gp_ok();
}

gp_status gp_ssim_ref(const gp_ssim_problem *p, const float *x, const float *y, double *map, double *mean)
{
    if (!p || p->map_elems <= 0)
        return gp_fail(GP_ERR_USAGE, "ssim ref: problem not initialized");
    long long *rows = malloc(sizeof(long long) * (size_t)p->map_h);
    double *buf = map ? NULL : malloc(sizeof(double) * (size_t)(p->map_h * p->map_w));
    if (!rows || (!map && !buf)) {
        free(rows);
        free(buf);
        return gp_fail(GP_ERR_NOMEM, "ssim ref: out of host memory");
    }
    for (long long i = 0; i < p->map_h; i++)
        rows[i] = i;
    double sum = 0.0;
    gp_status st = gp_ok();
    for (long long pl = 0; pl < p->planes && st.code == GP_OK; pl++) {
        double *dst = map ? map + pl * p->map_h * p->map_w : buf;
        st = gp_ssim_ref_rows(p, x, y, pl, rows, p->map_h, dst);
        for (long long i = 0; st.code == GP_OK && i < p->map_h; i++) {
            double rs = 0.0; /* per row, then rows: keeps the sum's rounding small */
            for (long long j = 0; j < p->map_w; j++)
                rs += dst[i * p->map_w + j];
            sum += rs;
        }
    }
    if (st.code == GP_OK && mean)
        *mean = sum / (double)p->map_elems;
    free(rows);
    free(buf);
    return st;
}

double gp_ssim_ref_pixel(const gp_ssim_problem *p, const float *x, const float *y, long long plane, long long row,
                         long long col)
{
    double g[GP_SSIM_WIN], s[NMOM] = {0, 0, 0, 0, 0};
    gp_ssim_gauss(g);
    const long long half = p->border == GP_SSIM_VALID ? GP_SSIM_HALF : 0;
    const long long h = p->dims.h, w = p->dims.w;
    const float *X = x + plane * h * w, *Y = y + plane * h * w;
    for (int i = 0; i < GP_SSIM_WIN; i++)
        for (int j = 0; j < GP_SSIM_WIN; j++) {
            long long r = row + half - GP_SSIM_HALF + i, c = col + half - GP_SSIM_HALF + j;
            if (r < 0 || r >= h || c < 0 || c >= w)
                continue;
            double wt = g[i] * g[j], xv = X[r * w + c], yv = Y[r * w + c];
            s[0] += wt * xv;
            s[1] += wt * yv;
            s[2] += wt * xv * xv;
            s[3] += wt * yv * yv;
            s[4] += wt * xv * yv;
        }
    return ssim_from_moments(s[0], s[1], s[2], s[3], s[4]);
}

/* ---- fp32 model of the fused kernel (see ssim.hip for the order of operations) */

static float model_formula(float mux, float muy, float mq, float mp, float sx, float sy)
{
    const float c1 = (float)GP_SSIM_C1, c2 = (float)GP_SSIM_C2;
    const float mx = mux + sx, my = muy + sy;
    float vs = fmaf(-mux, mux, mq);
    vs = fmaf(-muy, muy, vs);
    const float cv = fmaf(-mux, muy, mp);
    const float n1 = fmaf(2.0f * mx, my, c1);
    const float d1 = fmaf(mx, mx, fmaf(my, my, c1));
    const float n2 = fmaf(2.0f, cv, c2);
    const float d2 = vs + c2;
    return (n1 * n2) / (d1 * d2);
}

static float finite_or_zero(float v) { return fabsf(v) <= 3.0e38f ? v : 0.0f; }

gp_status gp_ssim_model_f32(const gp_ssim_problem *p, int tile_x, int tile_y, int shift, const float *x,
                            const float *y, float *map)
{
    if (!p || p->map_elems <= 0 || tile_x < 8 || (tile_x & 3) || tile_y < 1)
        return gp_fail(GP_ERR_USAGE, "ssim model: bad problem or tile %dx%d", tile_x, tile_y);
    float g[GP_SSIM_WIN];
    for (int t = 0; t < GP_SSIM_WIN; t++)
        g[t] = gp_ssim_gauss_f32(t);
    const long long h = p->dims.h, w = p->dims.w;
    const long long half = p->border == GP_SSIM_VALID ? GP_SSIM_HALF : 0;
    const long long ox_lo = half, ox_hi = w - half, oy_lo = half, oy_hi = h - half;
    const long long hr = tile_y + 2 * GP_SSIM_HALF; /* horizontal rows per strip */
    float *hm = malloc(sizeof(float) * 4 * (size_t)(hr * tile_x));
    if (!hm)
        return gp_fail(GP_ERR_NOMEM, "ssim model: out of host memory");
    for (long long pl = 0; pl < p->planes; pl++) {
        const float *X = x + pl * h * w, *Y = y + pl * h * w;
        float *M = map + pl * p->map_h * p->map_w;
        for (long long o0 = oy_lo; o0 < oy_hi; o0 += tile_y) {
            for (long long c0 = (ox_lo / tile_x) * tile_x; c0 < ox_hi; c0 += tile_x) {
                long long sr = o0 + tile_y / 2, sc = c0 + tile_x / 2;
                sr = sr < 0 ? 0 : sr > h - 1 ? h - 1 : sr;
                sc = sc < 0 ? 0 : sc > w - 1 ? w - 1 : sc;
                float sx = shift ? finite_or_zero(X[sr * w + sc]) : 0.0f;
                float sy = shift ? finite_or_zero(Y[sr * w + sc]) : 0.0f;
                /* horizontal: rows o0 - 5 .. o0 + tile_y + 4, columns c0 .. c0 + tile_x - 1 */
                for (long long i = 0; i < hr; i++) {
                    long long row = o0 - GP_SSIM_HALF + i;
                    for (long long u = 0; u < tile_x; u++) {
                        float a[4] = {0, 0, 0, 0};
                        for (int t = 0; t < GP_SSIM_WIN; t++) {
                            long long cc = c0 + u - GP_SSIM_HALF + t;
                            int in = row >= 0 && row < h && cc >= 0 && cc < w;
                            float xv = (in ? X[row * w + cc] : 0.0f) - sx;
                            float yv = (in ? Y[row * w + cc] : 0.0f) - sy;
                            float q = fmaf(yv, yv, xv * xv), pp = xv * yv;
                            if (t == 0) {
                                a[0] = g[0] * xv, a[1] = g[0] * yv, a[2] = g[0] * q, a[3] = g[0] * pp;
                            } else {
                                a[0] = fmaf(g[t], xv, a[0]);
                                a[1] = fmaf(g[t], yv, a[1]);
                                a[2] = fmaf(g[t], q, a[2]);
                                a[3] = fmaf(g[t], pp, a[3]);
                            }
                        }
                        memcpy(hm + 4 * (i * tile_x + u), a, sizeof a);
                    }
                }
                /* vertical, then the formula */
                for (long long o = o0; o < o0 + tile_y && o < oy_hi; o++)
                    for (long long u = 0; u < tile_x; u++) {
                        long long c = c0 + u;
                        if (c < ox_lo || c >= ox_hi)
                            continue;
                        float a[4];
                        for (int m = 0; m < 4; m++) {
                            a[m] = g[0] * hm[4 * ((o - o0) * tile_x + u) + m];
                            for (int t = 1; t < GP_SSIM_WIN; t++)
                                a[m] = fmaf(g[t], hm[4 * ((o - o0 + t) * tile_x + u) + m], a[m]);
                        }
                        M[(o - oy_lo) * p->map_w + (c - ox_lo)] = model_formula(a[0], a[1], a[2], a[3], sx, sy);
                    }
            }
        }
    }
    free(hm);
    return gp_ok();
}

/* ---- the bench's images, the reference of the rows a run is checked on, and the check */

void gp_ssim_fill(int k, const gp_ssim_problem *p, float *x, float *y, uint64_t *rng)
{
    const size_t n = (size_t)p->in_elems, w = (size_t)p->dims.w, h = (size_t)p->dims.h;
    const float c1 = (float)gp_rand_uniform(rng, 0, 1), c2 = (float)gp_rand_uniform(rng, 0, 1);
    gp_fill_uniform_f32(x, n, 0.0f, k == GP_SSIM_NEARZERO ? 1e-3f : 1.0f, rng);
    gp_fill_uniform_f32(y, n, 0.0f, k == GP_SSIM_NEARZERO ? 1e-3f : 1.0f, rng);
    for (size_t i = 0; i < n && k != GP_SSIM_RANDOM && k != GP_SSIM_NEARZERO && k != GP_SSIM_NAN; i++) {
        const size_t r = i / w % h, c = i % w;
        const uint64_t b = gp_rand_u64(rng);
        const float v = x[i] + (float)gp_rand_uniform(rng, -0.05, 0.05);
        if (k == GP_SSIM_CORRELATED)
            y[i] = v < 0 ? 0 : v > 1 ? 1 : v;
        else /* constant, high-contrast (random bits), checkerboard */
            x[i] = k == GP_SSIM_CONSTANT ? c1 : (float)(k == GP_SSIM_CONTRAST ? b & 1 : (r + c) & 1),
            y[i] = k == GP_SSIM_CONSTANT ? c2 : (float)(k == GP_SSIM_CONTRAST ? (b >> 1) & 1 : ((r >> 1) + c) & 1);
    }
    if (k == GP_SSIM_NAN) { /* a corner, an interior pixel, one on a tile edge, and one in y */
        x[0] = x[h / 2 * w + w / 3] = NAN;
        if (w > 64)
            x[h / 3 * w + 64] = NAN;
        y[n - 1 - w / 2] = NAN;
    }
}

gp_status gp_ssim_ref_checked(const gp_ssim_problem *p, const float *x, const float *y, long long nr, double u,
                              int *slot, float *ref, double *mean)
{
    const size_t m = (size_t)(nr * p->map_w);
    long long *rows = malloc((size_t)nr * sizeof *rows);
    double *row = malloc(m * sizeof *row), sum = 0;
    if (!rows || !row) {
        free(rows), free(row);
        return gp_fail(GP_ERR_NOMEM, "ssim: out of host memory for the reference");
    }
    const double gap = nr < p->map_h ? (double)(p->map_h - 12) / (double)(nr - 12) : 0; /* sampled: >= 3 rows */
    for (long long i = 0; i < nr; i++)
        rows[i] = nr == p->map_h || i < 6 ? i : i >= nr - 6 ? p->map_h - (nr - i)
                                                : 6 + (long long)(gap * ((double)(i - 6) + u));
    for (long long r = 0, i = 0; r < p->map_h; r++)
        slot[r] = i < nr && rows[i] == r ? (int)i++ : -1;
    gp_status st = gp_ok();
    for (long long pl = 0; pl < p->planes && st.code == GP_OK; pl++) {
        st = gp_ssim_ref_rows(p, x, y, pl, rows, nr, row);
        for (size_t i = 0; i < m && st.code == GP_OK; i++)
            ref[(size_t)pl * m + i] = (float)row[i], sum += row[i];
    }
    *mean = sum / (double)p->map_elems;
    free(rows), free(row);
    return st;
}

gp_status gp_ssim_compare_map(const char *what, const gp_ssim_problem *p, const float *got, size_t at, size_t len,
                              const float *ref, const int *slot, long long nr, double atol, double *sum)
{
    const size_t w = (size_t)p->map_w, plane = w * (size_t)p->map_h;
    double s = *sum;
    for (size_t i = 0; i < len; i++) {
        const size_t e = at + i, pl = e / plane, r = e % plane / w;
        const double g = got[i];
        s += g;
        if (slot[r] < 0)
            continue;
        const double v = ref[(pl * (size_t)nr + (size_t)slot[r]) * w + e % w];
        if (isnan(v) ? !isnan(g) : !(fabs(g - v) <= atol))
            return gp_fail(GP_ERR_CHECK, "%s: map plane %zu row %zu column %zu = %.9g, reference %.9g (|error| > %.0e)",
                           what, pl, r, e % w, g, v, atol);
    }
    *sum = s;
    return gp_ok();
}

gp_status gp_ssim_compare_mean(const char *what, double mean, double map_mean, const double *ref_mean, double atol)
{
    if (isnan(map_mean) || (ref_mean && isnan(*ref_mean)))
        return isnan(mean) ? gp_ok()
                           : gp_fail(GP_ERR_CHECK, "%s: mean %.9g, expected NaN (the map holds NaN)", what, mean);
    if (!(fabs(mean - map_mean) <= 1e-6))
        return gp_fail(GP_ERR_CHECK, "%s: mean %.9g differs from the sum of its own map %.9g", what, mean, map_mean);
    if (ref_mean && !(fabs(mean - *ref_mean) <= atol))
        return gp_fail(GP_ERR_CHECK, "%s: mean %.9g, reference %.9g (error %.3g > %.0e)", what, mean, *ref_mean,
                       fabs(mean - *ref_mean), atol);
    return gp_ok();
}
