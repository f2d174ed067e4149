/* image_stats: libgpuprobe in an application (docs/library.md).
 *
 * Two 1080 x 1920 grey images, one a noisy copy of the other.  On the GPU,
 * each call with the parameters the device's table gives for its shape:
 *   - the SSIM map of the pair ('same' border, 11 x 11 Gaussian window) and
 *     its mean, and of the first image with itself;
 *   - the sum of each image, of the first one's transpose, and of the SSIM
 *     map (a reduction).
 * Checks: the sums against the CPU's (double precision) within 1e-5
 * relative (a float reduction of 2 million values carries about 1e-7 of
 * rounding: a hundredfold margin that still fails on a lost block); the
 * map's sum over its pixels against the SSIM call's own mean, within 1e-5;
 * SSIM of an image with itself 1 within 1e-5; SSIM of the noisy pair
 * strictly inside (0.5, 1).
 *
 * Exit 0 when every check holds, 1 when one fails, 77 when there is no GPU
 * (or the library has no code for this one): the convention of the suite's
 * tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gpuprobe/gpuprobe.h>

#define ROWS 1080
#define COLS 1920

static int failed(gp_status st, const char *what)
{
    if (st.code == GP_OK)
        return 0;
    fprintf(stderr, "image_stats: %s: %s\n", what, st.msg);
    return 1;
}

/* A reproducible pseudo-random value in [0, 1) (xorshift64*). */
static float next_unit(unsigned long long *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return (float)((*s * 2685821657736338717ull) >> 40) / (float)(1 << 24);
}

static int check_sum(const char *what, float got, double want)
{
    double rel = fabs(got - want) / fabs(want);
    printf("  %-22s GPU %.6e  CPU %.6e  relative error %.1e\n", what, got, want, rel);
    if (rel <= 1e-5)
        return 0;
    fprintf(stderr, "image_stats: %s: relative error %.2e over 1e-5\n", what, rel);
    return 1;
}

int main(void)
{
    gp_context *ctx;
    gp_status st = gp_context_open(NULL, &ctx);
    if (st.code == GP_ERR_NO_GPU || st.code == GP_ERR_USAGE) {
        /* No GPU, or none this build has code for: nothing to run. */
        printf("image_stats: skipped: %s\n", st.msg);
        return 77;
    }
    if (failed(st, "context"))
        return 1;
    printf("device: %s (%s)\ntable: %s\n", gp_context_device(ctx)->name, gp_context_device(ctx)->arch,
           gp_context_table_said(ctx));

    const size_t n = (size_t)ROWS * COLS;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        fprintf(stderr, "image_stats: out of host memory\n");
        return 1;
    }
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    double sum_a = 0, sum_b = 0;
    for (size_t i = 0; i < n; i++) {
        a[i] = next_unit(&seed);
        b[i] = 0.9f * a[i] + 0.1f * next_unit(&seed);
        sum_a += a[i], sum_b += b[i];
    }

    float *d_a = NULL, *d_b = NULL, *d_t = NULL, *d_sums = NULL, *d_map = NULL;
    double *d_means = NULL;
    void *d_work = NULL;
    size_t work_bytes = 0;
    const gp_ssim_dims dims = {1, 1, ROWS, COLS};
    gp_reduce_ws ws = {0};
    gp_stream stream = NULL;
    int bad = failed(gp_rt_malloc((void **)&d_a, n * sizeof *d_a), "malloc") ||
              failed(gp_rt_malloc((void **)&d_b, n * sizeof *d_b), "malloc") ||
              failed(gp_rt_malloc((void **)&d_t, n * sizeof *d_t), "malloc") ||
              failed(gp_rt_malloc((void **)&d_sums, 4 * sizeof *d_sums), "malloc") ||
              failed(gp_rt_malloc((void **)&d_map, n * sizeof *d_map), "malloc") ||
              failed(gp_rt_malloc((void **)&d_means, 2 * sizeof *d_means), "malloc") ||
              /* SSIM's workspace for this shape: its size asked once, made once. */
              failed(gp_ssim_workspace_size(ctx, &dims, GP_SSIM_SAME, &work_bytes), "ssim workspace size") ||
              failed(gp_rt_malloc(&d_work, work_bytes ? work_bytes : 8), "malloc") ||
              failed(gp_rt_stream_create(&stream), "stream") ||
              /* Made once, outside the hot path: it allocates. */
              failed(gp_reduce_ws_create_any(&ws), "reduce workspace") ||
              failed(gp_rt_copy_to_device(d_a, a, n * sizeof *a), "copy") ||
              failed(gp_rt_copy_to_device(d_b, b, n * sizeof *b), "copy");

    /* The calls: asynchronous on one stream, one workspace shared by the
     * reductions (they run in order on that stream). */
    if (!bad)
        bad = failed(gp_transpose(ctx, d_a, d_t, ROWS, COLS, stream), "transpose") ||
              failed(gp_reduce_sum(ctx, d_a, n, d_sums + 0, &ws, stream), "sum a") ||
              failed(gp_reduce_sum(ctx, d_b, n, d_sums + 1, &ws, stream), "sum b") ||
              failed(gp_reduce_sum(ctx, d_t, n, d_sums + 2, &ws, stream), "sum of the transpose") ||
              failed(gp_ssim(ctx, d_a, d_a, d_map, d_means + 1, &dims, GP_SSIM_SAME, d_work, work_bytes, stream),
                     "ssim of a with itself") ||
              failed(gp_ssim(ctx, d_a, d_b, d_map, d_means + 0, &dims, GP_SSIM_SAME, d_work, work_bytes, stream),
                     "ssim of a and b") ||
              failed(gp_reduce_sum(ctx, d_map, n, d_sums + 3, &ws, stream), "sum of the ssim map") ||
              failed(gp_rt_stream_synchronize(stream), "synchronize");

    float sums[4];
    double means[2];
    if (!bad)
        bad = failed(gp_rt_copy_to_host(sums, d_sums, sizeof sums), "copy back") ||
              failed(gp_rt_copy_to_host(means, d_means, sizeof means), "copy back");
    if (!bad) {
        printf("checks (relative tolerance 1e-5):\n");
        bad = check_sum("sum of a", sums[0], sum_a) | check_sum("sum of b", sums[1], sum_b) |
              check_sum("sum of a's transpose", sums[2], sum_a) |
              check_sum("ssim map summed / n", sums[3] / (float)n, means[0]) |
              check_sum("ssim(a, a)", (float)means[1], 1.0);
        printf("  ssim(a, b) = %.6f\n", means[0]);
        if (!(means[0] > 0.5 && means[0] < 1)) {
            fprintf(stderr, "image_stats: ssim of the noisy pair %.6f is not inside (0.5, 1)\n", means[0]);
            bad = 1;
        }
    }
    /* One transposed element, read back: the transpose moved the data. */
    if (!bad) {
        float t;
        const size_t r = 517, c = 1333;
        bad = failed(gp_rt_copy_to_host(&t, d_t + c * ROWS + r, sizeof t), "copy back");
        if (!bad && t != a[r * COLS + c]) {
            fprintf(stderr, "image_stats: transpose: t[%zu][%zu] = %g, a[%zu][%zu] = %g\n", c, r, t, r, c,
                    a[r * COLS + c]);
            bad = 1;
        }
    }
    printf("parameter sets kept by the context: %d\n", gp_context_nshapes(ctx));

    gp_reduce_ws_destroy(&ws);
    if (stream)
        gp_rt_stream_destroy(stream);
    gp_rt_free(d_a), gp_rt_free(d_b), gp_rt_free(d_t), gp_rt_free(d_sums), gp_rt_free(d_map);
    gp_rt_free(d_means), gp_rt_free(d_work);
    free(a), free(b);
    gp_context_close(ctx);
    printf("image_stats: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
