#include "data.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runtime.h"

uint64_t gp_rand_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double gp_rand_uniform(uint64_t *state, double lo, double hi)
{
    /* 53 random bits -> [0, 1) */
    double u = (double)(gp_rand_u64(state) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

long long gp_rand_dim(uint64_t *state, long long lo, long long hi)
{
    if (lo < 1)
        lo = 1;
    if (hi <= lo)
        return lo;
    long long v = (long long)exp(gp_rand_uniform(state, log((double)lo), log((double)hi + 1)));
    v = v < lo ? lo : v > hi ? hi : v;
    if (gp_rand_u64(state) & 1 && v / 32 * 32 >= lo && v >= 32)
        v = v / 32 * 32;
    return v;
}

int gp_rand_pick(uint64_t *state, int n) { return n > 1 ? (int)(gp_rand_u64(state) % (uint64_t)n) : 0; }

/* Two values a random word, 24 bits each (a float's precision in [0.5, 1)):
 * the host's fill of a 2^28-element problem is most of its set-up. */
void gp_fill_uniform_f32(float *x, size_t n, float lo, float hi, uint64_t *state)
{
    const double span = (double)hi - (double)lo, unit = 1.0 / 16777216.0;
    for (size_t i = 0; i < n; i += 2) {
        const uint64_t r = gp_rand_u64(state);
        const float v = (float)(lo + span * ((double)(uint32_t)(r >> 40) * unit));
        const float w = (float)(lo + span * ((double)(uint32_t)(r >> 16 & 0xFFFFFF) * unit));
        x[i] = v < hi ? v : lo; /* rounding to float may reach hi */
        if (i + 1 < n)
            x[i + 1] = w < hi ? w : lo;
    }
}

/* Two values a random word, each 32 bits scaled onto the span (a value's
 * bias below 2^-32: negligible here; the 64-bit modulo it replaces had
 * less, at one word a value). */
void gp_fill_uniform_i32(int32_t *x, size_t n, int32_t lo, int32_t hi, uint64_t *state)
{
    const uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo);
    for (size_t i = 0; i < n; i += 2) {
        const uint64_t r = gp_rand_u64(state);
        x[i] = (int32_t)((int64_t)lo + (int64_t)(((r >> 32) * span) >> 32));
        if (i + 1 < n)
            x[i + 1] = (int32_t)((int64_t)lo + (int64_t)(((r & 0xFFFFFFFFu) * span) >> 32));
    }
}

void gp_fill_ints_f32(float *x, size_t n, int r, uint64_t *state)
{
    for (size_t i = 0; x && i < n; i++)
        x[i] = (float)((int)(gp_rand_u64(state) % (uint64_t)(2 * r + 1)) - r);
}

void gp_fill_sum_data(void *x, size_t n, int is_f32, int exact, uint64_t *state)
{
    if (exact)
        gp_fill_ints_f32(x, n, 8, state);
    else if (is_f32)
        gp_fill_uniform_f32(x, n, -1.0f, 1.0f, state);
    else
        gp_fill_uniform_i32(x, n, INT32_MIN, INT32_MAX, state);
}

uint64_t gp_fresh_seed(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    uint64_t s = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
    s ^= (uint64_t)(uintptr_t)&ts;
    return gp_rand_u64(&s);
}

gp_status gp_dev_alloc_copy(void **d, const void *h, size_t bytes)
{
    *d = NULL;
    GP_TRY(gp_rt_malloc(d, bytes));
    gp_status st = gp_rt_copy_to_device(*d, h, bytes);
    if (st.code != GP_OK) {
        gp_rt_free(*d);
        *d = NULL;
    }
    return st;
}

gp_status gp_dev_alloc_zero(void **d, size_t bytes)
{
    *d = NULL;
    GP_TRY(gp_rt_malloc(d, bytes));
    gp_status st = gp_rt_memset(*d, 0, bytes);
    if (st.code != GP_OK) {
        gp_rt_free(*d);
        *d = NULL;
    }
    return st;
}

gp_status gp_dev_poison(void *d, size_t bytes) { return gp_rt_memset(d, 0xFF, bytes); }

gp_status gp_dev_grow(void **d, size_t *bytes, size_t need)
{
    if (need <= *bytes)
        return gp_ok();
    GP_DEV_FREE(*d);
    *d = NULL, *bytes = 0;
    GP_TRY(gp_rt_malloc(d, need));
    *bytes = need;
    return gp_ok();
}

void gp_dev_free_all(void *const *bufs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (bufs[i])
            (void)gp_rt_free(bufs[i]);
}

gp_status gp_compare_f32(const char *what, const float *got, const float *ref, size_t n,
                         double atol, double rtol, double *max_abs)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double g = got[i], r = ref[i];
        if (isnan(r)) {
            if (!isnan(g))
                return gp_fail(GP_ERR_CHECK, "%s: element %zu is %.9g, reference is NaN", what, i, g);
            continue;
        }
        double err = fabs(g - r);
        double bound = atol + rtol * fabs(r);
        if (!(err <= bound)) /* also catches NaN in got */
            return gp_fail(GP_ERR_CHECK, "%s: element %zu is %.9g, reference %.9g (error %.3g > bound %.3g)",
                           what, i, g, r, err, bound);
        if (err > worst)
            worst = err;
    }
    if (max_abs)
        *max_abs = worst;
    return gp_ok();
}

gp_status gp_compare_i32(const char *what, const int32_t *got, const int32_t *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i])
            return gp_fail(GP_ERR_CHECK, "%s: element %zu is %d, reference %d", what, i, (int)got[i],
                           (int)ref[i]);
    return gp_ok();
}

void gp_note_append(char *note, size_t n, const char *what)
{
    size_t len = strlen(note);
    if (len + 1 < n)
        snprintf(note + len, n - len, "%s%s", len ? "; " : "", what);
}

void gp_fit_block_1d(const gp_device_info *dev, int cap, int *max_threads, int *wave)
{
    *max_threads = cap, *wave = 64;
    if (!dev)
        return;
    if (dev->max_threads_per_block > 0 && dev->max_threads_per_block < *max_threads)
        *max_threads = dev->max_threads_per_block;
    if (dev->max_block_dim[0] > 0 && dev->max_block_dim[0] < *max_threads)
        *max_threads = dev->max_block_dim[0];
    if (dev->wave_size > *wave)
        *wave = dev->wave_size;
}

gp_status gp_check_guards(const char *what, const uint32_t *g_lo, const uint32_t *g_hi, int guard)
{
    for (int k = 0; k < guard; k++)
        if (g_lo[k] != 0xffffffffu || g_hi[k] != 0xffffffffu)
            return gp_fail(GP_ERR_CHECK, "%s: a store landed outside the output (%s guard element %d)", what,
                           g_lo[k] != 0xffffffffu ? "front" : "back", k);
    return gp_ok();
}

int gp_label_dims(const char *label, long long *d, int n, const char **rest)
{
    const char *p = label;
    for (int i = 0; i < n; i++) {
        if (i > 0 && *p++ != 'x')
            return 0;
        if (*p < '0' || *p > '9')
            return 0;
        char *e;
        d[i] = strtoll(p, &e, 10);
        if (d[i] <= 0)
            return 0;
        p = e;
    }
    if (*p == 'x')
        return 0; /* more dimensions than asked for */
    if (rest)
        *rest = p;
    return 1;
}

void gp_label_count(char *buf, size_t n, long long v, const char *rest)
{
    int k = 0;
    while (k < 62 && (1ll << k) < v)
        k++;
    if (v > 0 && (1ll << k) == v)
        snprintf(buf, n, "2^%d %s", k, rest);
    else
        snprintf(buf, n, "%lld %s", v, rest);
}

int gp_label_pow2(const char *label, long long *count, const char **rest)
{
    if (strncmp(label, "2^", 2) != 0 || label[2] < '0' || label[2] > '9')
        return 0;
    char *e;
    long k = strtol(label + 2, &e, 10);
    if (k < 0 || k > 62)
        return 0;
    *count = 1LL << k;
    if (rest)
        *rest = e;
    return 1;
}

gp_status gp_label_unknown(const char *kernel, const char *label, const char *expected)
{
    return gp_fail(GP_ERR_USAGE, "%s: bench problem '%s' is not one of this kernel's (expected %s)", kernel, label,
                   expected);
}

gp_status gp_expect_refused(const char *kernel, const char *what, gp_status got, int code, FILE *log)
{
    if (got.code != code)
        return gp_fail(GP_ERR_CHECK, "%s bad input '%s': got code %d (%s), expected %d", kernel, what, got.code,
                       got.msg, code);
    if (log)
        fprintf(log, "  ok  bad input %s: %s\n", what, got.msg);
    return gp_ok();
}

double gp_f32_sum_bound(long long depth, double sum_abs)
{
    const double du = (double)depth * ldexp(1.0, -24);
    if (du >= 1.0)
        return HUGE_VAL;
    return du / (1.0 - du) * sum_abs;
}
