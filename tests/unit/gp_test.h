/* A minimal test harness: each test is a function returning 0 on success;
 * GP_CHECK prints the failed condition with file and line and fails the test.
 * A test is `GP_TEST(name) { ... return 0; }` at the start of a line in any
 * tests/unit/test_*.c: CMake finds it there, adds it to the runner's table
 * and registers one CTest test per name, so no list is kept by hand. */
#ifndef GP_TEST_H
#define GP_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GP_CHECK(cond)                                                          \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            return 1;                                                           \
        }                                                                       \
    } while (0)

#define GP_CHECK_NEAR(a, b, tol)                                                       \
    do {                                                                               \
        double gp_a_ = (a), gp_b_ = (b);                                               \
        if (!(fabs(gp_a_ - gp_b_) <= (tol))) {                                         \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g within %g\n", __FILE__, __LINE__, \
                    #a, gp_a_, gp_b_, (double)(tol));                                  \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

#define GP_TEST(name) int test_##name(void); int test_##name(void)

/* Path of `rel` under the source tree, which CTest names in GP_SOURCE_DIR
 * (tests that read tests/data or tables/).  0, with a message, when unset. */
static inline int gp_test_source_path(char *out, size_t n, const char *rel)
{
    const char *src = getenv("GP_SOURCE_DIR");
    if (!src || !*src) {
        fprintf(stderr, "GP_SOURCE_DIR is not set: run through ctest\n");
        return 0;
    }
    return snprintf(out, n, "%s/%s", src, rel) < (int)n;
}

/* Write `text` to `path` (a fixture file).  1 on success, 0 when the file
 * could not be written. */
static inline int gp_test_write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

/* The whole of `path`, NUL-terminated, in malloc'd memory (the caller
 * frees it); its length in *n when n is not NULL.  NULL when the file cannot
 * be read whole. */
static inline char *gp_test_read_text(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[len] = '\0';
        if (n)
            *n = (size_t)len;
    }
    return buf;
}

/* Deterministic pseudo-random numbers for synthetic curves (xorshift64*). */
static inline double gp_test_rand(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

#endif
