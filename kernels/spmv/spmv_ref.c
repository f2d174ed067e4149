/* spmv on the CPU: the matrices the bench and verify use, generated in code
 * (no downloads), the reference y = A x in double with the magnitudes
 * sum |a x| the fp32 bound scales with, and the check of a y against it. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "kernel.h"
#include "spmv.h"

gp_status gp_spmv_gen_laplacian(gp_csr *a, int n)
{
    if (n < 1 || (long long)n * n > 0x7fffffff / 5)
        return gp_fail(GP_ERR_USAGE, "laplacian: grid %d outside 1..%d", n, (int)sqrt(0x7fffffff / 5.0));
    const int rows = n * n;
    GP_TRY(gp_csr_alloc(a, rows, rows, 5ll * rows - 4ll * n));
    long long k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const int r = i * n + j;
            /* Columns ascending: up, left, the point, right, down. */
            if (i > 0)
                a->col[k] = r - n, a->val[k++] = -1.0f;
            if (j > 0)
                a->col[k] = r - 1, a->val[k++] = -1.0f;
            a->col[k] = r, a->val[k++] = 4.0f;
            if (j < n - 1)
                a->col[k] = r + 1, a->val[k++] = -1.0f;
            if (i < n - 1)
                a->col[k] = r + n, a->val[k++] = -1.0f;
            a->row_ptr[r + 1] = (int)k;
        }
    return gp_ok();
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* L distinct sorted columns in 0..cols-1 (L <= cols): random draws, sorted,
 * then pushed apart where two collide and pulled under cols at the end. */
static void random_columns(int *c, int L, int cols, uint64_t *rng)
{
    for (int k = 0; k < L; k++)
        c[k] = (int)(gp_rand_u64(rng) % (uint64_t)cols);
    if (L < 32) {
        for (int k = 1; k < L; k++)
            for (int m = k; m > 0 && c[m - 1] > c[m]; m--) {
                int t = c[m];
                c[m] = c[m - 1], c[m - 1] = t;
            }
    } else {
        qsort(c, (size_t)L, sizeof *c, cmp_int);
    }
    for (int k = 1; k < L; k++)
        if (c[k] <= c[k - 1])
            c[k] = c[k - 1] + 1;
    for (int k = L - 1; k >= 0; k--)
        if (c[k] > cols - L + k)
            c[k] = cols - L + k;
}

/* Fill col/val of a whose row_ptr is set: random distinct columns, values
 * uniform in [-1, 1). */
static void fill_random(gp_csr *a, uint64_t *rng)
{
    for (int r = 0; r < a->rows; r++) {
        int s = a->row_ptr[r], L = a->row_ptr[r + 1] - s;
        random_columns(a->col + s, L, a->cols, rng);
        for (int k = 0; k < L; k++)
            a->val[s + k] = (float)gp_rand_uniform(rng, -1.0, 1.0);
    }
}

gp_status gp_spmv_gen_lengths(gp_csr *a, int rows, int cols, const int *len, uint64_t *rng)
{
    long long nnz = 0;
    memset(a, 0, sizeof *a);
    for (int r = 0; r < rows; r++) {
        if (len[r] < 0 || len[r] > cols)
            return gp_fail(GP_ERR_USAGE, "matrix: row %d of %d nonzeros in %d columns", r, len[r], cols);
        nnz += len[r];
    }
    GP_TRY(gp_csr_alloc(a, rows, cols, nnz));
    for (int r = 0; r < rows; r++)
        a->row_ptr[r + 1] = a->row_ptr[r] + len[r];
    fill_random(a, rng);
    return gp_ok();
}

gp_status gp_spmv_gen_uniform(gp_csr *a, int rows, int cols, int per_row, uint64_t *rng)
{
    if (rows < 0 || cols < 1 || per_row < 0 || per_row > cols || (long long)rows * per_row > 0x7fffffff)
        return gp_fail(GP_ERR_USAGE, "uniform matrix: %d x %d with %d a row is not possible", rows, cols, per_row);
    GP_TRY(gp_csr_alloc(a, rows, cols, (long long)rows * per_row));
    for (int r = 0; r < rows; r++)
        a->row_ptr[r + 1] = (r + 1) * per_row;
    fill_random(a, rng);
    return gp_ok();
}

gp_status gp_spmv_gen_powerlaw(gp_csr *a, int rows, int cols, int lmin, double alpha, int lmax, uint64_t *rng)
{
    memset(a, 0, sizeof *a);
    if (rows < 0 || cols < 1 || lmin < 0 || lmax < lmin || !(alpha > 0))
        return gp_fail(GP_ERR_USAGE, "power-law matrix: rows %d, cols %d, lengths %d..%d, alpha %g", rows, cols,
                       lmin, lmax, alpha);
    int cap = lmax < cols ? lmax : cols;
    int *len = malloc(((size_t)rows + 1) * sizeof *len);
    if (!len)
        return gp_fail(GP_ERR_NOMEM, "power-law matrix: out of host memory for %d rows", rows);
    for (int r = 0; r < rows; r++) {
        /* Inverse transform: u in (0, 1], L = lmin u^(-1/alpha). */
        double u = 1.0 - gp_rand_uniform(rng, 0.0, 1.0);
        double l = floor((double)lmin * pow(u, -1.0 / alpha));
        len[r] = l > cap ? cap : (int)l;
    }
    gp_status st = gp_spmv_gen_lengths(a, rows, cols, len, rng);
    free(len);
    return st;
}

static int mixed_len(long long r, long long block)
{
    if (r % 11 == 0)
        return 0;
    if (r % 97 == 5)
        return (int)(block + 1 + r % 3);
    return r == 200 ? (int)(3 * block + 7) : (int)(r % 71);
}

gp_status gp_spmv_gen_shape(gp_csr *a, const gp_shape *sh, uint64_t *rng)
{
    const long long rows = sh->d[GP_SPMV_ROWS], cols = sh->d[GP_SPMV_COLS], len = sh->d[GP_SPMV_LEN];
    const long long cut = sh->d[GP_SPMV_CUT] < INT_MAX ? sh->d[GP_SPMV_CUT] : INT_MAX;
    memset(a, 0, sizeof *a);
    if (rows < 1 || rows > INT_MAX || cols < 1 || cols > INT_MAX || len < 0 || len > INT_MAX / 4)
        return gp_fail(GP_ERR_USAGE, "spmv: %lld x %lld (length %lld) is no matrix of 32-bit indices", rows, cols, len);
    switch (sh->opt[GP_SPMV_OPT_KIND]) {
    case GP_SPMV_KIND_LAPLACIAN: return gp_spmv_gen_laplacian(a, (int)len);
    case GP_SPMV_KIND_UNIFORM: return gp_spmv_gen_uniform(a, (int)rows, (int)cols, (int)len, rng);
    case GP_SPMV_KIND_POWERLAW:
        return gp_spmv_gen_powerlaw(a, (int)rows, (int)cols, (int)len, sh->opt[GP_SPMV_OPT_ALPHA] / 100.0, (int)cut,
                                    rng);
    case GP_SPMV_KIND_MIXED: break;
    default: return gp_fail(GP_ERR_USAGE, "spmv: matrix kind %d unknown", sh->opt[GP_SPMV_OPT_KIND]);
    }
    int *l = malloc((size_t)rows * sizeof *l);
    if (!l)
        return gp_fail(GP_ERR_NOMEM, "spmv: out of host memory for %lld row lengths", rows);
    for (long long r = 0; r < rows; r++)
        l[r] = mixed_len(r, len);
    gp_status st = gp_spmv_gen_lengths(a, (int)rows, (int)cols, l, rng);
    free(l);
    return st;
}

/* ---- the shapes' words (spmv.h) */

/* Square, except the mixed kind: 4 B columns, and at least 72, since its
 * rows reach 70 nonzeros (r % 71) whatever B (spmv.h). */
static long long default_cols(const gp_shape *s)
{
    if (s->opt[GP_SPMV_OPT_KIND] != GP_SPMV_KIND_MIXED)
        return s->d[GP_SPMV_ROWS];
    return 4 * s->d[GP_SPMV_LEN] > 72 ? 4 * s->d[GP_SPMV_LEN] : 72;
}

gp_status gp_spmv_shape_parse(const char *spec, gp_shape *s)
{
    long long a = 0, c = 65536, len = 4;
    double alpha = 1.5;
    int n = 0, m = 0, kind = -1;
    memset(s, 0, sizeof *s);
    if (sscanf(spec, "laplacian 5-point %lld^2%n", &a, &n) == 1 ||
        (n = 0, sscanf(spec, "laplacian %lld%n", &a, &n) == 1))
        kind = GP_SPMV_KIND_LAPLACIAN, len = a, a = a > 0 && a <= 46340 ? a * a : 0; /* n^2 in 32 bits */
    else if (n = 0, sscanf(spec, "uniform %lld rows x %lld%n", &a, &len, &n) == 2)
        kind = GP_SPMV_KIND_UNIFORM;
    else if (n = 0, sscanf(spec, "power-law %lld rows%n", &a, &n) == 1) {
        kind = GP_SPMV_KIND_POWERLAW;
        if (n > 0 && sscanf(spec + n, " (%lld/l)^%lf cut %lld%n", &len, &alpha, &c, &m) == 3)
            n += m;
    } else if (n = 0, sscanf(spec, "mixed %lld rows block %lld%n", &a, &len, &n) == 2)
        kind = GP_SPMV_KIND_MIXED;
    const int pl = kind == GP_SPMV_KIND_POWERLAW;
    s->d[GP_SPMV_ROWS] = a, s->d[GP_SPMV_LEN] = len, s->d[GP_SPMV_CUT] = pl ? c : 0;
    s->opt[GP_SPMV_OPT_KIND] = kind, s->opt[GP_SPMV_OPT_ALPHA] = pl ? (int)lround(alpha * 100) : 0;
    s->d[GP_SPMV_COLS] = default_cols(s);
    if (n > 0 && kind != GP_SPMV_KIND_LAPLACIAN && sscanf(spec + n, " cols %lld%n", &s->d[GP_SPMV_COLS], &m) == 1)
        n += m;
    if (kind < 0 || n == 0 || spec[n] || a < 1 || len < 0 || s->d[GP_SPMV_COLS] < 1 || c < 1 || !(alpha > 0))
        return gp_fail(GP_ERR_USAGE, "spmv: shape '%s' is no matrix this bench generates", spec);
    return gp_ok();
}

void gp_spmv_shape_label(const gp_shape *s, char *buf, size_t n)
{
    const long long rows = s->d[GP_SPMV_ROWS], len = s->d[GP_SPMV_LEN];
    const int kind = s->opt[GP_SPMV_OPT_KIND];
    int w = kind == GP_SPMV_KIND_LAPLACIAN ? snprintf(buf, n, "laplacian 5-point %lld^2", len)
            : kind == GP_SPMV_KIND_UNIFORM ? snprintf(buf, n, "uniform %lld rows x %lld", rows, len)
            : kind == GP_SPMV_KIND_MIXED   ? snprintf(buf, n, "mixed %lld rows block %lld", rows, len)
                                           : snprintf(buf, n, "power-law %lld rows (%lld/l)^%g cut %lld", rows, len,
                                                      s->opt[GP_SPMV_OPT_ALPHA] / 100.0, s->d[GP_SPMV_CUT]);
    if (kind != GP_SPMV_KIND_LAPLACIAN && s->d[GP_SPMV_COLS] != default_cols(s) && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " cols %lld", s->d[GP_SPMV_COLS]);
}

/* One of the four generated kinds, up to 2^25 nonzeros: a Laplacian of a
 * 2..2048 grid; 1 .. 2^22 rows of 1 .. 64 at random columns (square or
 * not); a power law over 16 .. 2^21 rows, shortest 1 .. 8, exponent 1.2 ..
 * 3, cut 64 .. 65536; mixed lengths over 1 .. 2^20 rows, blocks 1 .. 32. */
void gp_spmv_shape_random(uint64_t *rng, gp_shape *s)
{
    long long *d = s->d;
    memset(s, 0, sizeof *s);
    const int kind = s->opt[GP_SPMV_OPT_KIND] = gp_rand_pick(rng, 4);
    if (kind == GP_SPMV_KIND_LAPLACIAN)
        d[GP_SPMV_LEN] = gp_rand_dim(rng, 2, 2048), d[GP_SPMV_ROWS] = d[GP_SPMV_LEN] * d[GP_SPMV_LEN];
    else if (kind == GP_SPMV_KIND_UNIFORM)
        do { /* a square matrix holds rows nonzeros a row at most */
            d[GP_SPMV_ROWS] = gp_rand_dim(rng, 1, 1 << 22);
            d[GP_SPMV_LEN] = gp_rand_dim(rng, 1, d[GP_SPMV_ROWS] < 64 ? d[GP_SPMV_ROWS] : 64);
        } while (d[GP_SPMV_ROWS] * d[GP_SPMV_LEN] > (1ll << 25));
    else if (kind == GP_SPMV_KIND_POWERLAW)
        d[GP_SPMV_ROWS] = gp_rand_dim(rng, 16, 1 << 21), d[GP_SPMV_LEN] = 1 + gp_rand_pick(rng, 8),
        s->opt[GP_SPMV_OPT_ALPHA] = 120 + 10 * gp_rand_pick(rng, 19), d[GP_SPMV_CUT] = gp_rand_dim(rng, 64, 65536);
    else
        d[GP_SPMV_ROWS] = gp_rand_dim(rng, 1, 1 << 20), d[GP_SPMV_LEN] = gp_rand_dim(rng, 1, 32);
    d[GP_SPMV_COLS] = default_cols(s);
    if (kind == GP_SPMV_KIND_UNIFORM && gp_rand_pick(rng, 2)) /* not square */
        d[GP_SPMV_COLS] = gp_rand_dim(rng, d[GP_SPMV_LEN], 1 << 22);
}

double gp_spmv_shape_nnz(const gp_shape *sh)
{
    const long long rows = sh->d[GP_SPMV_ROWS], len = sh->d[GP_SPMV_LEN], cols = sh->d[GP_SPMV_COLS];
    const long long cap = sh->d[GP_SPMV_CUT] < cols ? sh->d[GP_SPMV_CUT] : cols, top = cap < 1 << 20 ? cap : 1 << 20;
    const double alpha = sh->opt[GP_SPMV_OPT_ALPHA] / 100.0;
    double e = (double)len;
    switch (sh->opt[GP_SPMV_OPT_KIND]) {
    case GP_SPMV_KIND_LAPLACIAN: return 5.0 * (double)len * (double)len - 4.0 * (double)len;
    case GP_SPMV_KIND_UNIFORM: return (double)rows * (double)len;
    case GP_SPMV_KIND_POWERLAW:
        if (cap <= len || len == 0)
            return (double)rows * (double)(cap < len ? cap : len);
        for (long long l = len + 1; l <= top; l++)
            e += pow((double)len / (double)l, alpha);
        if (cap > top && alpha != 1.0)
            e += pow((double)len, alpha) * (pow(top + 0.5, 1 - alpha) - pow(cap + 0.5, 1 - alpha)) / (alpha - 1);
        return (double)rows * e;
    default:
        e = 0;
        for (long long r = 0; r < rows; r++)
            e += mixed_len(r, len);
        return e;
    }
}

void gp_spmv_ref(const gp_csr *a, const float *x, int r0, int r1, double *y, double *sum_abs)
{
    for (int r = r0; r < r1; r++) {
        double s = 0, m = 0;
        for (int j = a->row_ptr[r]; j < a->row_ptr[r + 1]; j++) {
            double p = (double)a->val[j] * (double)x[a->col[j]];
            s += p;
            m += fabs(p);
        }
        y[r - r0] = s;
        if (sum_abs)
            sum_abs[r - r0] = m;
    }
}

gp_status gp_spmv_check(const gp_csr *a, const float *y, int stride, const double *ref, const double *sum_abs,
                        const gp_spmv_params *p, int wave, int format, int tpr, int exact, const char *what)
{
    gp_spmv_choice c;
    if (format < 0)
        return gp_spmv_check_choice(a, y, stride, ref, sum_abs, NULL, p, wave, exact, what);
    GP_TRY(gp_spmv_choose(a->row_ptr, a->rows, p, wave, format, tpr, &c));
    return gp_spmv_check_choice(a, y, stride, ref, sum_abs, &c, p, wave, exact, what);
}

gp_status gp_spmv_check_choice(const gp_csr *a, const float *y, int stride, const double *ref,
                               const double *sum_abs, const gp_spmv_choice *choice, const gp_spmv_params *p, int wave,
                               int exact, const char *what)
{
    gp_spmv_choice any;
    memset(&any, 0, sizeof any);
    any.format = GP_SPMV_ELL; /* depth L: the bound of any order of a row's additions */
    const gp_spmv_choice c = choice ? *choice : any;
    for (long long r = 0, j = 0; r < a->rows; r += stride, j++) {
        const long long L = a->row_ptr[r + 1] - a->row_ptr[r], d = gp_spmv_f32_depth(&c, p, wave, L);
        const double m = sum_abs[j], err = fabs((double)y[r] - ref[j]);
        const double bound = exact ? 0.0 : gp_f32_sum_bound(d, m) + (double)L * ldexp(1.0, -53) * m;
        if (!(err <= bound))
            return gp_fail(GP_ERR_CHECK, "%s: y[%lld] = %.9g, reference %.17g (row of %lld, error %.3g > bound %.3g = "
                           "gamma_%lld x %.6g; %.60s)", what, r, (double)y[r], ref[j], L, err, bound, d, m, c.why);
    }
    return gp_ok();
}
