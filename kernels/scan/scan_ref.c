/* scan CPU references: fp32 prefix sums accumulated in double with the
 * running sum of magnitudes the error bound scales with, and int32 prefix
 * sums wrapped modulo 2^32 (accumulated in uint32_t: defined overflow).  The
 * running sums are carried in and out so that a long array can be checked a
 * chunk at a time without an n-element double array.  Then the check of an
 * output against them (the bench's: gp_scan_check). */
#include <math.h>
#include <string.h>

#include "data.h"
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

size_t gp_scan_sample_at(size_t k, size_t stride) { return k * stride + (k * 7919) % stride; }

size_t gp_scan_samples(size_t n, size_t stride)
{
    size_t k = 0;
    while (gp_scan_sample_at(k, stride) < n)
        k++;
    return k;
}

/* x[a, b) added into *s and its magnitudes into *sa, four sums at a time
 * (the one pass over a 2^28-element input is set-up tune pays per problem;
 * the reference's own error bound holds in any order). */
static void add_f32(const float *x, size_t a, size_t b, double *s, double *sa)
{
    double p[4] = {0, 0, 0, 0}, q[4] = {0, 0, 0, 0};
    size_t i = a;
    for (; i + 4 <= b; i += 4)
        for (int j = 0; j < 4; j++)
            p[j] += (double)x[i + j], q[j] += fabs((double)x[i + j]);
    for (; i < b; i++)
        p[0] += (double)x[i], q[0] += fabs((double)x[i]);
    *s += (p[0] + p[1]) + (p[2] + p[3]);
    *sa += (q[0] + q[1]) + (q[2] + q[3]);
}

static uint32_t add_i32(const int32_t *x, size_t a, size_t b, uint32_t s)
{
    for (size_t i = a; i < b; i++)
        s += (uint32_t)x[i];
    return s;
}

void gp_scan_ref_samples(gp_scan_expect *e)
{
    double s = 0, sa = 0;
    uint32_t si = 0;
    size_t at = 0; /* x[0, at) summed */
    for (size_t k = 0; k < e->nsamples; k++) {
        const size_t i = gp_scan_sample_at(k, e->stride); /* increasing in k */
        if (e->is_f32) {
            const float *x = e->x;
            add_f32(x, at, i, &s, &sa);
            const double before = s;
            s += (double)x[i], sa += fabs((double)x[i]);
            e->ref[k] = e->exclusive ? before : s, e->sum_abs[k] = sa; /* magnitudes through x[i]: both kinds */
        } else {
            const int32_t *x = e->x;
            si = add_i32(x, at, i, si);
            const uint32_t before = si;
            si += (uint32_t)x[i];
            e->refi[k] = wrap_i32(e->exclusive ? before : si);
        }
        at = i + 1;
    }
}

/* The depth of fp32 sums at element i: d0 in the first tile, step more
 * each tile after it (the parameters' tile, counted from the input's
 * 16-byte boundary); made once a check, not once an element. */
typedef struct depth_model {
    size_t tile, head;
    long long d0, step;
} depth_model;

static depth_model depth_of(const gp_scan_expect *e, const gp_scan_params *p)
{
    depth_model m = {gp_scan_tile(p), e->head, gp_scan_f32_depth(p, 0, 0, e->wave), 0};
    m.step = gp_scan_f32_depth(p, m.tile, 0, e->wave) - m.d0;
    return m;
}

/* out[i] = got within the fp32 bound of its depth (exact for small
 * integers) against the reference r with magnitude sum sa. */
static gp_status check_f32(const gp_scan_expect *e, const depth_model *dm, size_t i, float got, double r, double sa,
                           const char *what)
{
    const long long depth = dm->d0 + (long long)((i + dm->head) / dm->tile) * dm->step;
    const double err = fabs((double)got - r);
    const double bound = e->exact ? 0 : gp_f32_sum_bound(depth, sa) + (double)(i + 1) * ldexp(1.0, -53) * sa;
    if (!(err <= bound))
        return gp_fail(GP_ERR_CHECK, "%s: out[%zu] = %.9g, reference %.17g (error %.3g > bound %.3g = gamma_%lld x "
                       "%.6g)", what, i, (double)got, r, err, bound, depth, sa);
    return gp_ok();
}

static gp_status check_i32(size_t i, int32_t got, int32_t want, const char *what)
{
    if (got != want)
        return gp_fail(GP_ERR_CHECK, "%s: out[%zu] = %d, exact %d", what, i, got, want);
    return gp_ok();
}

enum { CHUNK = 2048 };

/* Every element, the reference streamed alongside (a chunk at a time). */
static gp_status check_all(const gp_scan_expect *e, const depth_model *dm, const uint32_t *got, const char *what)
{
    double acc = 0, acc_abs = 0, r[CHUNK], sa[CHUNK];
    uint32_t acci = 0;
    int32_t ri[CHUNK];
    for (size_t c = 0; c < e->n; c += CHUNK) {
        size_t m = e->n - c < CHUNK ? e->n - c : CHUNK;
        if (e->is_f32) {
            gp_scan_ref_f32((const float *)e->x + c, m, e->exclusive, &acc, &acc_abs, r, sa);
            for (size_t k = 0; k < m; k++) {
                float g;
                memcpy(&g, &got[c + k], 4);
                GP_TRY(check_f32(e, dm, c + k, g, r[k], sa[k], what));
            }
        } else {
            gp_scan_ref_i32((const int32_t *)e->x + c, m, e->exclusive, &acci, ri);
            for (size_t k = 0; k < m; k++)
                GP_TRY(check_i32(c + k, (int32_t)got[c + k], ri[k], what));
        }
    }
    return gp_ok();
}

gp_status gp_scan_check(const gp_scan_expect *e, const gp_scan_params *p, const uint32_t *got, const char *what)
{
    const depth_model dm = depth_of(e, p);
    if (e->stride == 1)
        return check_all(e, &dm, got, what);
    for (size_t k = 0; k < e->nsamples; k++) {
        const size_t i = gp_scan_sample_at(k, e->stride);
        float g;
        memcpy(&g, &got[i], 4);
        GP_TRY(e->is_f32 ? check_f32(e, &dm, i, g, e->ref[k], e->sum_abs[k], what)
                         : check_i32(i, (int32_t)got[i], e->refi[k], what));
    }
    return gp_ok();
}
