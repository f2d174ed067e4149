/* conv2d CPU reference: double accumulation, and per output the sum of
 * |x||w| over its terms, the scale of the rounding error of any fp32 sum of
 * those terms. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "conv2d.h"
#include "data.h"

static int out_h_of(const gp_conv2d_shape *s) { return s->h + 2 * s->pad_h - s->kh + 1; }
static int out_w_of(const gp_conv2d_shape *s) { return s->w + 2 * s->pad_w - s->kw + 1; }

void gp_conv2d_ref(const gp_conv2d_shape *s, const float *x, const float *w, double *y, double *s_abs)
{
    const int oh = out_h_of(s), ow = out_w_of(s);
    const size_t oplane = (size_t)oh * ow, iplane = (size_t)s->h * s->w;
    for (int img = 0; img < s->n; img++) {
        for (int oc = 0; oc < s->out_c; oc++) {
            size_t obase = ((size_t)img * s->out_c + oc) * oplane;
            for (size_t i = 0; i < oplane; i++) {
                if (y)
                    y[obase + i] = 0;
                if (s_abs)
                    s_abs[obase + i] = 0;
            }
            for (int c = 0; c < s->in_c; c++) {
                const float *xp = x + ((size_t)img * s->in_c + c) * iplane;
                for (int ky = 0; ky < s->kh; ky++) {
                    for (int kx = 0; kx < s->kw; kx++) {
                        double wv = w[(((size_t)oc * s->in_c + c) * s->kh + ky) * s->kw + kx];
                        /* Outputs whose tap (ky, kx) lands inside the image. */
                        int ox0 = s->pad_w - kx > 0 ? s->pad_w - kx : 0;
                        int ox1 = s->w + s->pad_w - kx < ow ? s->w + s->pad_w - kx : ow;
                        for (int oy = 0; oy < oh; oy++) {
                            int iy = oy + ky - s->pad_h;
                            if (iy < 0 || iy >= s->h)
                                continue;
                            const float *xr = xp + (size_t)iy * s->w + (kx - s->pad_w);
                            size_t o = obase + (size_t)oy * ow;
                            for (int ox = ox0; ox < ox1; ox++) {
                                double t = (double)xr[ox] * wv;
                                if (y)
                                    y[o + ox] += t;
                                if (s_abs)
                                    s_abs[o + ox] += fabs(t);
                            }
                        }
                    }
                }
            }
        }
    }
}

void gp_conv2d_ref_at(const gp_conv2d_shape *s, const float *x, const float *w, int img, int oc, int oy,
                      int ox, double *y, double *s_abs)
{
    double acc = 0, abs_acc = 0;
    const size_t iplane = (size_t)s->h * s->w;
    for (int c = 0; c < s->in_c; c++) {
        const float *xp = x + ((size_t)img * s->in_c + c) * iplane;
        const float *wp = w + ((size_t)oc * s->in_c + c) * s->kh * s->kw;
        for (int ky = 0; ky < s->kh; ky++) {
            int iy = oy + ky - s->pad_h;
            if (iy < 0 || iy >= s->h)
                continue;
            for (int kx = 0; kx < s->kw; kx++) {
                int ix = ox + kx - s->pad_w;
                if (ix < 0 || ix >= s->w)
                    continue;
                double t = (double)xp[(size_t)iy * s->w + ix] * wp[ky * s->kw + kx];
                acc += t;
                abs_acc += fabs(t);
            }
        }
    }
    if (y)
        *y = acc;
    if (s_abs)
        *s_abs = abs_acc;
}

double gp_conv2d_rel_tol(const gp_conv2d_shape *s)
{
    double terms = (double)s->in_c * s->kh * s->kw;
    return 2.0 * (terms + 2.0) * ldexp(1.0, -24);
}

/* One output against its reference; updates *max_rel. */
static gp_status check_one(const char *what, const gp_conv2d_shape *s, size_t idx, double got, double ref,
                           double sa, double tol, double *max_rel)
{
    double err = fabs(got - ref), bound = tol * sa + 1e-30;
    if (!(err <= bound)) {
        int ow = out_w_of(s), oh = out_h_of(s);
        size_t i = idx;
        int ox = (int)(i % (size_t)ow);
        i /= (size_t)ow;
        int oy = (int)(i % (size_t)oh);
        i /= (size_t)oh;
        int oc = (int)(i % (size_t)s->out_c);
        int img = (int)(i / (size_t)s->out_c);
        return gp_fail(GP_ERR_CHECK,
                       "%s: y[%d][%d][%d][%d] is %.9g, reference %.9g (error %.3g > %.3g = %.3g x sum|x||w| %.4g)",
                       what, img, oc, oy, ox, got, ref, err, bound, tol, sa);
    }
    if (sa > 0 && err / sa > *max_rel)
        *max_rel = err / sa;
    return gp_ok();
}

gp_status gp_conv2d_compare(const char *what, const gp_conv2d_shape *s, const float *got, const double *ref,
                            const double *s_abs, double tol, double *max_rel)
{
    return gp_conv2d_compare_at(what, s, got, NULL, ref, s_abs, gp_conv2d_y_elems(s), tol, max_rel);
}

/* Output (img, oc, oy, ox) into idx[*k] (idx NULL: counted only). */
static void sample_at(const gp_conv2d_shape *s, size_t *idx, size_t *k, size_t img, size_t oc, size_t oy, size_t ox)
{
    if (idx)
        idx[*k] = ((img * (size_t)s->out_c + oc) * (size_t)out_h_of(s) + oy) * (size_t)out_w_of(s) + ox;
    ++*k;
}

size_t gp_conv2d_sample(const gp_conv2d_shape *s, size_t nsample, unsigned long long seed, size_t *idx)
{
    const size_t oh = (size_t)out_h_of(s), ow = (size_t)out_w_of(s);
    size_t k = 0;
    /* Edges: where padding and partial tiles are. */
    const size_t imgs[2] = {0, (size_t)s->n - 1}, ocs[2] = {0, (size_t)s->out_c - 1}, rows[2] = {0, oh - 1};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int r = 0; r < 2; r++) {
                for (size_t ox = 0; ox < ow; ox++)
                    sample_at(s, idx, &k, imgs[a], ocs[b], rows[r], ox);
                for (size_t oy = 0; oy < oh; oy++)
                    sample_at(s, idx, &k, imgs[a], ocs[b], oy, r ? ow - 1 : 0);
            }
    uint64_t st = seed;
    for (size_t i = 0; i < nsample; i++) {
        const size_t img = (size_t)(gp_rand_u64(&st) % (uint64_t)s->n);
        const size_t oc = (size_t)(gp_rand_u64(&st) % (uint64_t)s->out_c);
        const size_t oy = (size_t)(gp_rand_u64(&st) % (uint64_t)oh);
        sample_at(s, idx, &k, img, oc, oy, (size_t)(gp_rand_u64(&st) % (uint64_t)ow));
    }
    return k;
}

gp_status gp_conv2d_compare_at(const char *what, const gp_conv2d_shape *s, const float *got, const size_t *idx,
                               const double *ref, const double *s_abs, size_t n, double tol, double *max_rel)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t at = idx ? idx[i] : i;
        GP_TRY(check_one(what, s, at, got[at], ref[i], s_abs[i], tol, &worst));
    }
    if (max_rel)
        *max_rel = worst;
    return gp_ok();
}

void gp_conv2d_ref_index(const gp_conv2d_shape *s, const float *x, const float *w, size_t i, double *ref, double *sa)
{
    const size_t oh = (size_t)out_h_of(s), ow = (size_t)out_w_of(s);
    const int ox = (int)(i % ow), oy = (int)(i / ow % oh), oc = (int)(i / ow / oh % (size_t)s->out_c);
    gp_conv2d_ref_at(s, x, w, (int)(i / ow / oh / (size_t)s->out_c), oc, oy, ox, ref, sa);
}

void gp_conv2d_ref_checked(const gp_conv2d_shape *s, const float *x, const float *w, size_t nsample,
                           unsigned long long seed, size_t *idx, double *ref, double *sa)
{
    if (!idx) {
        gp_conv2d_ref(s, x, w, ref, sa);
        return;
    }
    const size_t n = gp_conv2d_sample(s, nsample, seed, idx);
    for (size_t i = 0; i < n; i++)
        gp_conv2d_ref_index(s, x, w, idx[i], &ref[i], &sa[i]);
}

gp_status gp_conv2d_compare_sampled(const char *what, const gp_conv2d_shape *s, const float *x, const float *w,
                                    const float *got, size_t nsample, unsigned long long seed, double tol,
                                    double *max_rel)
{
    double worst = 0;
    const size_t n = gp_conv2d_sample(s, nsample, seed, NULL);
    size_t *idx = malloc(n * sizeof *idx);
    if (!idx)
        return gp_fail(GP_ERR_NOMEM, "%s: out of host memory for %zu samples", what, n);
    gp_conv2d_sample(s, nsample, seed, idx);
    gp_status st = gp_ok();
    for (size_t i = 0; i < n && st.code == GP_OK; i++) {
        double ref, sa;
        gp_conv2d_ref_index(s, x, w, idx[i], &ref, &sa);
        st = check_one(what, s, idx[i], got[idx[i]], ref, sa, tol, &worst);
    }
    free(idx);
    if (st.code == GP_OK && max_rel)
        *max_rel = worst;
    return st;
}
