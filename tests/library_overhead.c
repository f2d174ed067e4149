/* library_overhead: what the library's call costs over a bare kernel launch
 * (docs/library.md, "Overhead").
 *
 * On a tiny problem (a 32 x 32 transpose: one block, the GPU idle between
 * launches), the host time to enqueue 256 launches on a stream, three ways:
 *   bare     gp_transpose_launch, its arguments worked out beforehand (what
 *            a hand-written <<<>>> launch costs);
 *   kernel   gp_transpose_f32 with the parameters given (the argument checks
 *            and the launch geometry);
 *   library  gp_transpose on a warm context (the shape's parameter set
 *            looked up, then the same).
 * 31 rounds, the three interleaved in ABBA order round by round, the stream
 * drained between rounds so the queue never fills; medians and quartiles.
 * The library's promise: at most 2 us per call over bare.  Then the first
 * call of a shape the context has not seen (its parameters derived): at
 * most 50 us over a warm call.
 * Exit 0 when both hold, 1 when not, 77 without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "context.h"
#include "gpu_program.h"
#include "kernel.h"
#include "runtime.h"
#include "transpose.h"

enum { CALLS = 256, ROUNDS = 31, WAYS = 3 };

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int fail(gp_status st, const char *what) { return gp_program_fail("library_overhead", st, what); }

typedef struct setup {
    gp_context *ctx;
    gp_transpose_params p;
    int items; /* rows per thread of the vector-1 launch */
    float *in, *out;
    gp_stream s;
} setup;

/* One round of CALLS enqueues `way`, in microseconds per call. */
static double round_of(setup *u, int way, int *bad)
{
    const size_t n = 32;
    gp_status st = gp_ok();
    double t0 = now_us();
    for (int i = 0; i < CALLS && st.code == GP_OK; i++) {
        if (way == 0)
            st = gp_transpose_launch(u->in, u->out, n, n, u->p.tile, u->p.pad, u->items, 1, u->p.group, 0,
                                     u->p.stream, u->p.tiles_per_block, u->s);
        else if (way == 1)
            st = gp_transpose_f32(u->in, u->out, n, n, &u->p, u->s);
        else
            st = gp_transpose(u->ctx, u->in, u->out, n, n, u->s);
    }
    double t = (now_us() - t0) / CALLS;
    *bad |= fail(st, "launch") || fail(gp_rt_stream_synchronize(u->s), "synchronize");
    return t;
}

int main(void)
{
    gp_device_info dev;
    const int opened = gp_program_device("library_overhead", &dev);
    if (opened)
        return opened;
    setup u = {0};
    if (fail(gp_context_open(NULL, &u.ctx), "context"))
        return 1;
    printf("device: %s (%s); table: %s\n", dev.name, dev.arch, gp_context_table_said(u.ctx));
    gp_shape shape = {{0}, {0}};
    shape.d[GP_TRANSPOSE_ROWS] = shape.d[GP_TRANSPOSE_COLS] = 32;
    int bad = fail(gp_context_params(u.ctx, &gp_kernel_transpose, &shape, &u.p), "parameters") ||
              fail(gp_rt_malloc((void **)&u.in, 32 * 32 * 4), "malloc") ||
              fail(gp_rt_malloc((void **)&u.out, 32 * 32 * 4), "malloc") ||
              fail(gp_rt_stream_create(&u.s), "stream");
    /* The bare launch without the fitting: vector 1 and no swizzle are right
     * for any shape; rows per thread so that a tile's threads fit a block. */
    u.items = u.p.tile / u.p.block_rows;
    while (u.p.tile * (u.p.tile / u.items) > 1024 && u.items < u.p.tile)
        u.items *= 2;
    double t[WAYS][ROUNDS];
    for (int w = 0; w < WAYS && !bad; w++) /* warm-up: code loaded, context warm */
        round_of(&u, w, &bad);
    for (int r = 0; r < ROUNDS && !bad; r++)
        for (int j = 0; j < WAYS; j++) {
            int w = r % 2 ? WAYS - 1 - j : j; /* ABBA over the rounds */
            t[w][r] = round_of(&u, w, &bad);
        }
    /* A new shape each call: the derivation on top of the call. */
    double fresh[ROUNDS];
    for (int r = 0; r < ROUNDS && !bad; r++) {
        double t0 = now_us();
        bad |= fail(gp_transpose(u.ctx, u.in, u.out, 1 + r, 7 + r % 8, u.s), "new shape"); /* within 32 x 32 */
        fresh[r] = now_us() - t0;
        bad |= fail(gp_rt_stream_synchronize(u.s), "synchronize");
    }
    if (bad)
        return 1;
    const char *names[WAYS] = {"bare launch", "kernel call", "library call"};
    double med[WAYS];
    printf("host time to enqueue one 32x32 transpose (%d calls x %d rounds, ABBA; median [q1, q3]):\n", CALLS,
           ROUNDS);
    for (int w = 0; w < WAYS; w++) {
        qsort(t[w], ROUNDS, sizeof(double), cmp_double);
        med[w] = t[w][ROUNDS / 2];
        printf("  %-13s %6.3f us [%6.3f, %6.3f]\n", names[w], med[w], t[w][ROUNDS / 4], t[w][3 * ROUNDS / 4]);
    }
    qsort(fresh, ROUNDS, sizeof(double), cmp_double);
    double over = med[2] - med[0], derive = fresh[ROUNDS / 2] - med[2];
    printf("library over bare: %.3f us per call (at most 2)\n", over);
    printf("a new shape's first call: %.2f us median, %.2f us over a warm call (at most 50)\n", fresh[ROUNDS / 2],
           derive);
    gp_rt_free(u.in), gp_rt_free(u.out), gp_rt_stream_destroy(u.s);
    gp_context_close(u.ctx);
    int ok = over <= 2 && derive <= 50;
    printf("library_overhead: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
