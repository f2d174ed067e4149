/* spmv host API: parameters clamped to the device, the CSR checks, the
 * choice of kernel and format per matrix, the plan's device arrays, argument
 * checks before any device call, and the fp32 error bound. */
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "data.h"
#include "kernel.h"
#include "rule.h"
#include "transfer.h"

void gp_spmv_params_fit(gp_spmv_params *p, const gp_device_info *dev)
{
    int max_threads, wave;
    gp_fit_block_1d(dev, GP_SPMV_MAX_BLOCK, &max_threads, &wave);
    /* Whole waves of 64 (every wave size divides it), at most the device's. */
    int lim = (int)gp_rule_floor_pow2(max_threads);
    int block = p->block < wave ? wave : (int)gp_rule_floor_pow2(p->block);
    if (block > lim)
        block = lim;
    if (block != p->block)
        gp_note_append(p->note, sizeof p->note, "block fitted to whole waves and the device");
    int u = p->unroll < 1 ? 1 : p->unroll > GP_SPMV_MAX_UNROLL ? GP_SPMV_MAX_UNROLL : (int)gp_rule_floor_pow2(p->unroll);
    if (u != p->unroll)
        gp_note_append(p->note, sizeof p->note, "unroll rounded to 1, 2, 4 or 8");
    int s = p->scalar_max_row < 0 ? 0 : p->scalar_max_row;
    if (s != p->scalar_max_row)
        gp_note_append(p->note, sizeof p->note, "scalar_max_row raised to 0");
    p->block = block;
    p->unroll = u;
    p->scalar_max_row = s;
}

static int params_ok(const gp_spmv_params *p)
{
    int u = p->unroll;
    return p && (u == 1 || u == 2 || u == 4 || u == 8) && p->block >= 64 && p->block <= GP_SPMV_MAX_BLOCK &&
           !(p->block & (p->block - 1)) && p->scalar_max_row >= 0;
}

/* ------------------------------------------------------------------ CSR */

gp_status gp_csr_alloc(gp_csr *a, int rows, int cols, long long nnz)
{
    memset(a, 0, sizeof *a);
    if (rows < 0 || cols < 0 || nnz < 0 || nnz > INT_MAX)
        return gp_fail(GP_ERR_USAGE, "csr: %d x %d with %lld nonzeros is outside the 32-bit index range", rows, cols,
                       nnz);
    a->row_ptr = malloc(((size_t)rows + 1) * sizeof(int));
    a->col = malloc((size_t)(nnz ? nnz : 1) * sizeof(int));
    a->val = malloc((size_t)(nnz ? nnz : 1) * sizeof(float));
    if (!a->row_ptr || !a->col || !a->val) {
        gp_csr_free(a);
        return gp_fail(GP_ERR_NOMEM, "csr: out of host memory for %d rows and %lld nonzeros", rows, nnz);
    }
    a->rows = rows, a->cols = cols, a->nnz = nnz;
    a->row_ptr[0] = 0;
    return gp_ok();
}

void gp_csr_free(gp_csr *a)
{
    if (!a)
        return;
    free(a->row_ptr), free(a->col), free(a->val);
    memset(a, 0, sizeof *a);
}

/* The O(1) part of gp_csr_check: sizes in range, arrays present.  A plan
 * on a matrix its caller checked whole still checks this much. */
static gp_status csr_sizes_check(const gp_csr *a, const char *what)
{
    if (!a || a->rows < 0 || a->cols < 0 || a->nnz < 0 || a->nnz > INT_MAX)
        return gp_fail(GP_ERR_USAGE, "%s: no matrix, or its sizes are negative or beyond 32-bit indices", what);
    if (!a->row_ptr || (a->nnz > 0 && (!a->col || !a->val)))
        return gp_fail(GP_ERR_USAGE, "%s: missing row_ptr, col or val array", what);
    return gp_ok();
}

gp_status gp_csr_check(const gp_csr *a, const char *what)
{
    GP_TRY(csr_sizes_check(a, what));
    if (a->row_ptr[0] != 0)
        return gp_fail(GP_ERR_USAGE, "%s: row_ptr[0] = %d, not 0", what, a->row_ptr[0]);
    for (int r = 0; r < a->rows; r++) {
        int s = a->row_ptr[r], e = a->row_ptr[r + 1];
        if (e < s || e > a->nnz)
            return gp_fail(GP_ERR_USAGE, "%s: row %d: row_ptr %d..%d decreases or passes nnz %lld", what, r, s, e,
                           a->nnz);
        for (int j = s; j < e; j++)
            if (a->col[j] < 0 || a->col[j] >= a->cols)
                return gp_fail(GP_ERR_USAGE, "%s: row %d: column %d outside 0..%d", what, r, a->col[j], a->cols - 1);
    }
    if (a->row_ptr[a->rows] != a->nnz)
        return gp_fail(GP_ERR_USAGE, "%s: row_ptr[%d] = %d, not nnz %lld", what, a->rows, a->row_ptr[a->rows], a->nnz);
    return gp_ok();
}

/* --------------------------------------------------------------- choice */

gp_status gp_spmv_choose(const int *row_ptr, int rows, const gp_spmv_params *p, int wave, int format,
                         int force_tpr, gp_spmv_choice *c)
{
    memset(c, 0, sizeof *c);
    if (!row_ptr || rows < 0 || !p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "spmv choose: no row pointers, negative rows or parameters not fitted");
    if (wave != 32 && wave != 64)
        return gp_fail(GP_ERR_USAGE, "spmv choose: wave %d is not 32 or 64", wave);
    if (format < GP_SPMV_AUTO || format > GP_SPMV_ELL)
        return gp_fail(GP_ERR_USAGE, "spmv choose: format %d unknown", format);
    if (force_tpr < 0 || force_tpr > wave || (force_tpr & (force_tpr - 1)))
        return gp_fail(GP_ERR_USAGE, "spmv choose: threads per row %d is not a power of two up to %d", force_tpr,
                       wave);
    long long nnz = rows ? row_ptr[rows] : 0, wmax_sum = 0;
    int maxl = 0, wmax = 0;
    for (int r = 0; r < rows; r++) {
        int l = row_ptr[r + 1] - row_ptr[r];
        maxl = l > maxl ? l : maxl;
        wmax = l > wmax ? l : wmax;
        if (r % wave == wave - 1 || r == rows - 1)
            wmax_sum += wmax, wmax = 0;
    }
    long long nwaves = ((long long)rows + wave - 1) / wave;
    c->mean = rows ? (double)nnz / rows : 0;
    c->wave_max_mean = nwaves ? (double)wmax_sum / (double)nwaves : 0;
    c->max_row = maxl;
    /* ELL when its slots cost no more bytes than CSR: width x rows x 8 (col
     * and value a slot) <= nnz x 8 + (rows + 1) x 4 (the row pointers ELL
     * does without).  Then no slot is wasted beyond what row_ptr cost. */
    double ell_bytes = (double)maxl * rows * 8, csr_bytes = (double)nnz * 8 + ((double)rows + 1) * 4;
    int ell_fits = (double)maxl * rows <= (double)INT_MAX * 64 && ell_bytes <= csr_bytes;
    if (format == GP_SPMV_ELL || (format == GP_SPMV_AUTO && ell_fits && rows > 0)) {
        c->format = GP_SPMV_ELL;
        c->ell_width = maxl;
        c->tpr = 1;
        c->long_min = LLONG_MAX;
        snprintf(c->why, sizeof c->why, "ELL width %d: %.0f MB of slots %s CSR's %.0f MB (mean %.2f)%s", maxl,
                 ell_bytes / 1e6, ell_fits ? "<=" : ">", csr_bytes / 1e6, c->mean,
                 format == GP_SPMV_ELL ? ", forced" : "");
        return gp_ok();
    }
    c->format = GP_SPMV_CSR;
    const char *how;
    if (force_tpr > 0) {
        c->tpr = force_tpr;
        how = "forced";
    } else if (c->mean <= p->scalar_max_row && c->wave_max_mean <= 2 * c->mean) {
        c->tpr = 1;
        how = "scalar: mean <= scalar_max_row, wave's longest <= 2 x mean";
    } else {
        long long t = gp_rule_clamp(gp_rule_floor_pow2((long long)c->mean), 2, wave);
        c->tpr = (int)t;
        how = "vector: floor_pow2(mean) in 2..wave";
    }
    /* A row longer than a block gets the whole block (a group of tpr lanes
     * would run on alone long after its neighbours). */
    c->long_min = p->block;
    for (int r = 0; r < rows; r++)
        c->nlong += row_ptr[r + 1] - row_ptr[r] > c->long_min;
    snprintf(c->why, sizeof c->why,
             "CSR %d lane%s a row (%s; mean %.2f, wave's longest %.1f, scalar_max_row %d); %lld row%s > %lld "
             "nonzeros a block each%s",
             c->tpr, c->tpr == 1 ? "" : "s", how, c->mean, c->wave_max_mean, p->scalar_max_row, c->nlong,
             c->nlong == 1 ? "" : "s", c->long_min,
             format == GP_SPMV_AUTO ? (ell_fits ? "" : "; ELL would pad") : "; CSR forced");
    return gp_ok();
}

static int log2i(long long v)
{
    int l = 0;
    while ((1ll << l) < v)
        l++;
    return l;
}

long long gp_spmv_f32_depth(const gp_spmv_choice *c, const gp_spmv_params *p, int wave, long long L)
{
    if (L <= 0)
        return 0;
    if (c->format == GP_SPMV_ELL)
        return L;
    if (L > c->long_min)
        return (L + p->block - 1) / p->block + 2 * log2i(wave);
    return (L + c->tpr - 1) / c->tpr + log2i(c->tpr);
}

/* ----------------------------------------------------------------- plan */

void gp_spmv_plan_destroy(gp_spmv_plan *pl)
{
    if (!pl)
        return;
    if (pl->d_long)
        gp_rt_free(pl->d_long);
    if (pl->d_ell_col && !pl->ell_borrowed)
        gp_rt_free(pl->d_ell_col);
    if (pl->d_ell_val && !pl->ell_borrowed)
        gp_rt_free(pl->d_ell_val);
    memset(pl, 0, sizeof *pl);
}

/* The long rows' list, uploaded. */
static gp_status upload_long(gp_spmv_plan *pl, const gp_csr *a)
{
    int *h = malloc((size_t)pl->c.nlong * sizeof(int));
    if (!h)
        return gp_fail(GP_ERR_NOMEM, "spmv plan: out of host memory for %lld long rows", pl->c.nlong);
    long long k = 0;
    for (int r = 0; r < a->rows; r++)
        if (a->row_ptr[r + 1] - a->row_ptr[r] > pl->c.long_min)
            h[k++] = r;
    gp_status st = gp_dev_alloc_copy((void **)&pl->d_long, h, (size_t)k * sizeof(int));
    free(h);
    return st;
}

/* ELL arrays (column-major, padding col -1 value 0), built on the host and
 * uploaded. */
static gp_status upload_ell(gp_spmv_plan *pl, const gp_csr *a)
{
    size_t slots = (size_t)pl->c.ell_width * (size_t)a->rows;
    int *hc = malloc((slots ? slots : 1) * sizeof(int));
    float *hv = malloc((slots ? slots : 1) * sizeof(float));
    gp_status st = gp_ok();
    if (!hc || !hv)
        st = gp_fail(GP_ERR_NOMEM, "spmv plan: out of host memory for %zu ELL slots", slots);
    /* Slot-major, as the slots lie: sequential writes (row-major writes
     * stride by the row count, 1.3x slower for 4 M rows). */
    for (int k = 0; st.code == GP_OK && k < pl->c.ell_width; k++) {
        int *c = hc + (size_t)k * (size_t)a->rows;
        float *v = hv + (size_t)k * (size_t)a->rows;
        for (int r = 0; r < a->rows; r++) {
            int s = a->row_ptr[r], l = a->row_ptr[r + 1] - s;
            c[r] = k < l ? a->col[s + k] : -1;
            v[r] = k < l ? a->val[s + k] : 0.0f;
        }
    }
    if (st.code == GP_OK && slots)
        st = gp_dev_alloc_copy((void **)&pl->d_ell_col, hc, slots * sizeof(int));
    if (st.code == GP_OK && slots)
        st = gp_dev_alloc_copy((void **)&pl->d_ell_val, hv, slots * sizeof(float));
    free(hc), free(hv);
    return st;
}

gp_status gp_spmv_plan_create(gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr, const int *d_col,
                              const float *d_val, const gp_spmv_params *p, int wave, int format, int force_tpr)
{
    memset(pl, 0, sizeof *pl);
    GP_TRY(gp_csr_check(a, "spmv plan"));
    return gp_spmv_plan_create_sharing(pl, a, d_row_ptr, d_col, d_val, p, wave, format, force_tpr, NULL);
}

gp_status gp_spmv_plan_create_sharing(gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr, const int *d_col,
                                      const float *d_val, const gp_spmv_params *p, int wave, int format,
                                      int force_tpr, const gp_spmv_plan *owner)
{
    memset(pl, 0, sizeof *pl);
    if (!p || !params_ok(p))
        return gp_fail(GP_ERR_USAGE, "spmv plan: parameters not fitted (use gp_spmv_params_fit)");
    GP_TRY(csr_sizes_check(a, "spmv plan"));
    if (!d_row_ptr || (a->nnz > 0 && (!d_col || !d_val)))
        return gp_fail(GP_ERR_USAGE, "spmv plan: the matrix's device arrays are missing");
    GP_TRY(gp_spmv_choose(a->row_ptr, a->rows, p, wave, format, force_tpr, &pl->c));
    pl->p = *p;
    pl->wave = wave;
    pl->rows = a->rows, pl->cols = a->cols, pl->nnz = a->nnz;
    pl->d_row_ptr = d_row_ptr, pl->d_col = d_col, pl->d_val = d_val;
    gp_status st = gp_ok();
    const int share = owner && owner->d_ell_col && owner->d_ell_val && owner->c.format == GP_SPMV_ELL &&
                      owner->c.ell_width == pl->c.ell_width && owner->rows == a->rows && owner->d_col == d_col;
    if (pl->c.format == GP_SPMV_ELL && pl->c.ell_width > 0 && share)
        pl->d_ell_col = owner->d_ell_col, pl->d_ell_val = owner->d_ell_val, pl->ell_borrowed = 1;
    else if (pl->c.format == GP_SPMV_ELL && pl->c.ell_width > 0)
        st = upload_ell(pl, a);
    else if (pl->c.format == GP_SPMV_CSR && pl->c.nlong > 0)
        st = upload_long(pl, a);
    if (st.code != GP_OK)
        gp_spmv_plan_destroy(pl);
    return st;
}

gp_status gp_spmv_run(const gp_spmv_plan *pl, const float *d_x, float *d_y, gp_stream stream)
{
    if (!pl || !params_ok(&pl->p) || (pl->c.format != GP_SPMV_CSR && pl->c.format != GP_SPMV_ELL))
        return gp_fail(GP_ERR_USAGE, "spmv run: no plan (gp_spmv_plan_create)");
    if (pl->rows == 0)
        return gp_ok();
    if (!d_y || (pl->cols > 0 && !d_x))
        return gp_fail(GP_ERR_USAGE, "spmv run: %s pointer is NULL", d_y ? "x" : "y");
    if ((uintptr_t)d_x % 4 || (uintptr_t)d_y % 4)
        return gp_fail(GP_ERR_USAGE, "spmv run: x and y must be 4-byte aligned");
    uintptr_t xa = (uintptr_t)d_x, ya = (uintptr_t)d_y;
    size_t xb = (size_t)pl->cols * 4, yb = (size_t)pl->rows * 4;
    if (xa > UINTPTR_MAX - xb || ya > UINTPTR_MAX - yb)
        return gp_fail(GP_ERR_USAGE, "spmv run: x or y runs past the address space");
    if (d_x && xa < ya + yb && ya < xa + xb)
        return gp_fail(GP_ERR_USAGE, "spmv run: x and y overlap (y = A x cannot be computed in place)");
    if (pl->device > 0) /* a library plan runs on its context's device, whichever is current */
        GP_TRY(gp_rt_set_device(pl->device - 1));
    if (pl->c.format == GP_SPMV_ELL)
        return gp_spmv_launch_ell(pl->rows, pl->c.ell_width, pl->d_ell_col, pl->d_ell_val, d_x, d_y, pl->p.unroll,
                                  pl->p.block, stream);
    return gp_spmv_launch_csr(pl->rows, pl->d_row_ptr, pl->d_col, pl->d_val, d_x, d_y, pl->d_long, pl->c.nlong,
                              pl->c.long_min, pl->c.tpr, pl->p.unroll, pl->p.block, stream);
}

/* ---- the library's call */

gp_status gp_spmv_plan_for(struct gp_context *ctx, gp_spmv_plan *pl, const gp_csr *a, const int *d_row_ptr,
                           const int *d_col, const float *d_val)
{
    if (pl)
        memset(pl, 0, sizeof *pl); /* destroyable whatever happens below */
    if (!ctx || !pl || !a)
        return gp_fail(GP_ERR_USAGE, "spmv: %s is NULL", !ctx ? "the context" : !pl ? "the plan" : "the matrix");
    if (a->rows < 1 || a->cols < 1 || a->nnz < 0)
        return gp_fail(GP_ERR_USAGE, "spmv: a %d x %d matrix of %lld nonzeros", a->rows, a->cols, a->nnz);
    gp_shape s;
    memset(&s, 0, sizeof s);
    s.d[GP_SPMV_ROWS] = a->rows, s.d[GP_SPMV_COLS] = a->cols;
    s.d[GP_SPMV_LEN] = (a->nnz + a->rows / 2) / a->rows;
    s.opt[GP_SPMV_OPT_KIND] = GP_SPMV_KIND_UNIFORM;
    gp_spmv_params p;
    GP_TRY(gp_context_params(ctx, &gp_kernel_spmv, &s, &p));
    const gp_device_info *dev = gp_context_device(ctx);
    GP_TRY(gp_spmv_plan_create(pl, a, d_row_ptr, d_col, d_val, &p, dev->wave_size > 0 ? dev->wave_size : 32,
                               GP_SPMV_AUTO, 0));
    pl->device = 1 + gp_context_bound_device(ctx);
    return gp_ok();
}
