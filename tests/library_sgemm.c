/* library_sgemm: the library's SGEMM calls on a GPU, against the CPU
 * reference, through a context (docs/library.md, "SGEMM").
 *
 * For each problem, gp_sgemm (no workspace: never split, no stream-K) and
 * gp_sgemm_ws with the workspace gp_sgemm_workspace_size asks for (the
 * context's parameters for the shape may split k or share out the last
 * wave; which, the size says).  The data are small integers (the bench's
 * exact check: every sum is exact in fp32 in any order), so each result
 * must equal the reference exactly; C is poisoned (NaN) where beta is 0 and
 * reset to its input where it is not, before every call.  The problems are
 * the ones whose plans differ on NVIDIA's tables: a product of few tiles
 * (split k on an H200), one with a partial last wave (stream-K), a
 * transposed column-major one with beta, and an odd small one.
 * Exit 0 when every result matches, 1 when one does not, 77 without a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "data.h"
#include "gemm.h"
#include "gpu_program.h"
#include "kernel.h"
#include "runtime.h"

static int fail(gp_status st, const char *what) { return gp_program_fail("library_sgemm", st, what); }

typedef struct bufs {
    float *h_a, *h_b, *h_c, *h_out;
    float *d_a, *d_b, *d_c;
    void *d_work;
    gp_gemm_checked *chk;
    size_t na, nb, nc, nchk;
} bufs;

/* C as the call must find it: the input where beta reads it, NaN where it must not. */
static gp_status reset_c(const gp_gemm_problem *q, bufs *b)
{
    if (q->beta != 0.0f)
        return gp_rt_copy_to_device(b->d_c, b->h_c, b->nc * sizeof(float));
    for (size_t i = 0; i < b->nc; i++)
        b->h_out[i] = NAN;
    return gp_rt_copy_to_device(b->d_c, b->h_out, b->nc * sizeof(float));
}

static int check(const gp_gemm_problem *q, bufs *b, const char *what, gp_stream s)
{
    if (fail(gp_rt_stream_synchronize(s), what) || fail(gp_rt_copy_to_host(b->h_out, b->d_c, b->nc * sizeof(float)), what))
        return 1;
    return fail(gp_gemm_check_exact(what, q, b->h_out, b->chk, b->nchk), what);
}

static int run_problem(gp_context *ctx, const gp_gemm_problem *q, const char *name, uint64_t *rng, gp_stream s)
{
    bufs b = {0};
    b.na = gp_gemm_a_elems(q), b.nb = gp_gemm_b_elems(q), b.nc = gp_gemm_c_elems(q), b.nchk = gp_gemm_sample_size(q);
    b.h_a = malloc(b.na * sizeof(float)), b.h_b = malloc(b.nb * sizeof(float));
    b.h_c = malloc(b.nc * sizeof(float)), b.h_out = malloc(b.nc * sizeof(float));
    b.chk = malloc(b.nchk * sizeof *b.chk);
    int bad = !b.h_a || !b.h_b || !b.h_c || !b.h_out || !b.chk;
    if (bad)
        fprintf(stderr, "library_sgemm: %s: out of host memory\n", name);
    size_t work = 0;
    if (!bad) {
        gp_fill_ints_f32(b.h_a, b.na, 2, rng), gp_fill_ints_f32(b.h_b, b.nb, 2, rng);
        gp_fill_ints_f32(b.h_c, b.nc, 2, rng);
        gp_gemm_ref_sample(q, b.h_a, b.h_b, q->beta != 0.0f ? b.h_c : NULL, rng, b.chk);
        bad = fail(gp_sgemm_workspace_size(ctx, q, &work), "workspace size") ||
              fail(gp_rt_malloc((void **)&b.d_a, b.na * sizeof(float)), "malloc") ||
              fail(gp_rt_malloc((void **)&b.d_b, b.nb * sizeof(float)), "malloc") ||
              fail(gp_rt_malloc((void **)&b.d_c, b.nc * sizeof(float)), "malloc") ||
              (work && fail(gp_rt_malloc(&b.d_work, work), "malloc")) ||
              fail(gp_rt_copy_to_device(b.d_a, b.h_a, b.na * sizeof(float)), "copy") ||
              fail(gp_rt_copy_to_device(b.d_b, b.h_b, b.nb * sizeof(float)), "copy");
    }
    if (!bad) {
        printf("  %-34s workspace %9zu B (%s)\n", name, work, work ? "the context's plan splits or shares k" : "plain");
        bad = fail(reset_c(q, &b), "reset C") ||
              fail(gp_sgemm(ctx, q, b.d_a, b.d_b, b.d_c, s), "gp_sgemm") || check(q, &b, "gp_sgemm", s) ||
              fail(reset_c(q, &b), "reset C") ||
              fail(gp_sgemm_ws(ctx, q, b.d_a, b.d_b, b.d_c, b.d_work, work, s), "gp_sgemm_ws") ||
              check(q, &b, "gp_sgemm_ws", s);
    }
    gp_rt_free(b.d_a), gp_rt_free(b.d_b), gp_rt_free(b.d_c), gp_rt_free(b.d_work);
    free(b.h_a), free(b.h_b), free(b.h_c), free(b.h_out), free(b.chk);
    return bad;
}

int main(void)
{
    gp_device_info dev;
    const int opened = gp_program_device("library_sgemm", &dev);
    if (opened)
        return opened;
    gp_context *ctx = NULL;
    gp_stream s = NULL;
    if (fail(gp_context_open(NULL, &ctx), "context") || fail(gp_rt_stream_create(&s), "stream"))
        return 1;
    const char *seed_env = getenv("GP_SEED");
    uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 20261130u, rng = seed;
    printf("device: %s (%s); table: %s; seed %llu (GP_SEED)\n", dev.name, dev.arch, gp_context_table_said(ctx),
           (unsigned long long)seed);
    /* In gemm's own shape syntax, leading dimensions the least the layout allows. */
    static const struct {
        const char *spec;
        float beta;
    } cases[] = {
        {"1023x1025x511 NN row-major", 0.0f},   {"2000x3000x1500 NN row-major", 0.0f},
        {"1536x1536x2048 NN col-major", 0.0f},  {"768x640x1000 TN col-major", 0.5f},
        {"37x129x65 NT row-major", -1.0f},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_shape shape;
        gp_gemm_problem q;
        if (fail(gp_kernel_gemm.shape_parse(cases[i].spec, &shape), cases[i].spec)) {
            bad = 1;
            continue;
        }
        gp_gemm_problem_of_shape(&shape, 1.0f, cases[i].beta, &q);
        bad |= run_problem(ctx, &q, cases[i].spec, &rng, s);
    }
    gp_rt_stream_destroy(s);
    gp_context_close(ctx);
    printf("library_sgemm: %s\n", bad ? "FAILED" : "ok (every result equal to the reference)");
    return bad;
}
