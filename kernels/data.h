/* Helpers every kernel's verify and bench use: reproducible random data,
 * device buffers that are poisoned before a run, and comparison with a CPU
 * reference under an explicit tolerance. */
#ifndef GP_DATA_H
#define GP_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gp_status.h"

/* splitmix64: a small, good, seedable generator (state advances per call). */
uint64_t gp_rand_u64(uint64_t *state);
/* Uniform in [lo, hi). */
double gp_rand_uniform(uint64_t *state, double lo, double hi);
/* A random size in [lo, hi] for a random shape: log-uniform (as many small
 * sizes as large), and half the time rounded down to a multiple of 32 where
 * that stays >= lo (the aligned sizes kernels have fast paths for). */
long long gp_rand_dim(uint64_t *state, long long lo, long long hi);
/* 0 .. n-1, uniform. */
int gp_rand_pick(uint64_t *state, int n);
/* n values uniform in [lo, hi), two a random word (24 bits each for fp32,
 * 32 for int32). */
void gp_fill_uniform_f32(float *x, size_t n, float lo, float hi, uint64_t *state);
void gp_fill_uniform_i32(int32_t *x, size_t n, int32_t lo, int32_t hi, uint64_t *state);
/* x[0 .. n) (x NULL: none) whole numbers -r .. r as floats, one draw each:
 * the data of an exact check, whose sums stay integers below 2^24, so any
 * order of adding them gives the same float. */
void gp_fill_ints_f32(float *x, size_t n, int r, uint64_t *state);
/* x[0 .. n) the data of a sum or a prefix sum: exact, small whole numbers
 * -8 .. 8 as floats (gp_fill_ints_f32: exact sums below 2^24 elements);
 * else fp32 uniform in [-1, 1), or int32 (is_f32 0) over the whole range,
 * so the sums wrap. */
void gp_fill_sum_data(void *x, size_t n, int is_f32, int exact, uint64_t *state);

/* The error bound of an fp32 sum whose addition tree is depth deep:
 * gamma_depth x sum_abs, gamma_d = d u / (1 - d u), u = 2^-24 (Higham,
 * Accuracy and Stability of Numerical Algorithms, 3.1 and 4.2: every add
 * rounded once; an FMA rounds once for its product and add).  HUGE_VAL
 * where d u >= 1.  Scan's prefixes and spmv's rows hold to it. */
double gp_f32_sum_bound(long long depth, double sum_abs);
/* A seed that differs from run to run (time and address entropy), printed by
 * callers so a failure can be replayed with GP_SEED=<n>. */
uint64_t gp_fresh_seed(void);

/* Device buffer helpers: allocate, copy in, fill with 0xFF bytes (NaN as
 * fp32, -1 as int32) so an output the kernel forgot to write cannot pass. */
gp_status gp_dev_alloc_copy(void **d, const void *h, size_t bytes);
/* Allocate and zero (workspaces of counters); NULL again on failure. */
gp_status gp_dev_alloc_zero(void **d, size_t bytes);
gp_status gp_dev_poison(void *d, size_t bytes);
/* *d (of *bytes) grown to at least `need` bytes: a workspace that serves
 * every later, smaller need (never shrunk; the old contents are lost). */
gp_status gp_dev_grow(void **d, size_t *bytes, size_t need);
/* Free every device buffer of bufs[0..n-1] that is not NULL, the
 * free-on-exit of a kernel's bench and verify state (errors of the free are
 * not reported: the result being returned is the one that matters).
 * GP_DEV_FREE(a, b, ...) counts the list itself. */
void gp_dev_free_all(void *const *bufs, size_t n);
#define GP_DEV_FREE(...) \
    gp_dev_free_all((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* Compare got[] with ref[] (n values): |got - ref| <= atol + rtol * |ref|,
 * and NaN only where ref is NaN.  On the first failure: GP_ERR_CHECK naming
 * `what`, the index, both values and the bound.  *max_abs (may be NULL) gets
 * the largest absolute error seen. */
gp_status gp_compare_f32(const char *what, const float *got, const float *ref, size_t n,
                         double atol, double rtol, double *max_abs);
gp_status gp_compare_i32(const char *what, const int32_t *got, const int32_t *ref, size_t n);

/* A check that bad input is refused: `got` (what the call returned) has
 * `code`, said on log (may be NULL) as "  ok  bad input <what>: <message>";
 * else GP_ERR_CHECK "<kernel> bad input '<what>': got code ..". */
gp_status gp_expect_refused(const char *kernel, const char *what, gp_status got, int code, FILE *log);

/* Parameter fitting: "a; b" notes of what was adjusted, appended within the
 * buffer's n bytes (powers of two: gp_rule_floor_pow2/gp_rule_ceil_pow2 in
 * rule.h). */
void gp_note_append(char *note, size_t n, const char *what);

/* A 1-D block's limits on `dev` (may be NULL): *max_threads the least of the
 * kernel's `cap`, the device's threads per block and its x dimension;
 * *wave the device's wave, at least 64 (whole waves of 64 fit every wave
 * size).  Unknown (0) device limits leave cap and 64. */
struct gp_device_info;
void gp_fit_block_1d(const struct gp_device_info *dev, int cap, int *max_threads, int *wave);

/* The `guard` 4-byte words before (g_lo) and after (g_hi) an output still
 * hold the poison of gp_dev_poison (0xFF bytes): GP_ERR_CHECK naming `what`
 * and the first word a stray store changed. */
gp_status gp_check_guards(const char *what, const uint32_t *g_lo, const uint32_t *g_hi, int guard);

/* Bench problem labels, read back (the report's roofline): the leading
 * "AxBx...": exactly `n` positive integers separated by 'x', into d[];
 * *rest (may be NULL) points after them.  Returns 0 when the label does not
 * start so. */
int gp_label_dims(const char *label, long long *d, int n, const char **rest);
/* "2^K ...": 2^K into *count (K in 0..62), *rest after the exponent. */
int gp_label_pow2(const char *label, long long *count, const char **rest);
/* A count as a label reads it back: "2^K" where it is a power of 2, else
 * the number; then " rest" (e.g. "2^28 fp32", "1000003 int32"). */
void gp_label_count(char *buf, size_t n, long long v, const char *rest);
/* The kernel's work functions' error for a label they do not know. */
gp_status gp_label_unknown(const char *kernel, const char *label, const char *expected);

#endif
