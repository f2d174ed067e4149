/* The library's context (kernels/context.c) without a GPU: where it finds
 * the table and says so, the per-device cache path, and the parameter sets
 * it keeps per shape, from several threads. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <threads.h>
#include <unistd.h>

#include "context.h"
#include "fsutil.h"
#include "gemm.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "histogram.h"
#include "kernel.h"
#include "reduce.h"
#include "scan.h"
#include "transpose.h"

static gp_device_info h200(void)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    snprintf(d.pci_bus_id, sizeof d.pci_bus_id, "0000:3B:00.0");
    snprintf(d.uuid, sizeof d.uuid, "GPU-8c5f1a2b-0000-1111-2222-333344445555");
    d.compute_units = 132, d.wave_size = 32, d.max_threads_per_block = 1024, d.lds_per_block = 48 * 1024;
    d.max_block_dim[0] = d.max_block_dim[1] = 1024;
    return d;
}

GP_TEST(context_cache_path_per_device)
{
    gp_device_info d = h200();
    char p[512];
    GP_CHECK(gp_context_cache_path("/c", &d, p, sizeof p).code == GP_OK);
    GP_CHECK(!strcmp(p, "/c/gpuprobe/0000-3b-00.0_8c5f1a2b/table.txt"));
    setenv("XDG_CACHE_HOME", "/x", 1);
    GP_CHECK(gp_context_cache_path(NULL, &d, p, sizeof p).code == GP_OK && !strncmp(p, "/x/gpuprobe/", 12));
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/me", 1);
    GP_CHECK(gp_context_cache_path(NULL, &d, p, sizeof p).code == GP_OK &&
             !strcmp(p, "/home/me/.cache/gpuprobe/0000-3b-00.0_8c5f1a2b/table.txt"));
    char small[16];
    GP_CHECK(gp_context_cache_path("/c", &d, small, sizeof small).code == GP_ERR_USAGE);
    return 0;
}

/* The lookup order: given, GP_TABLE, the cache, shipped, generic. */
GP_TEST(context_table_lookup_order)
{
    char tables[512], cache[64] = "/tmp/gp_ctx_XXXXXX", path[512], file[512];
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    GP_CHECK(mkdtemp(cache) != NULL);
    gp_device_info d = h200();
    gp_context_opts o = {0, NULL, tables, cache};
    gp_context *c = NULL;
    unsetenv("GP_TABLE");
    /* Nothing measured: the shipped sm_90 table. */
    GP_CHECK(gp_context_open_for(&d, &o, &c).code == GP_OK);
    GP_CHECK(gp_context_table_source(c) == GP_CONTEXT_TABLE_SHIPPED && strstr(gp_context_table_said(c), "sm_90"));
    gp_context_close(c);
    /* An arch without a shipped table: the generic one. */
    gp_device_info other = d;
    snprintf(other.arch, sizeof other.arch, "sm_86");
    GP_CHECK(gp_context_open_for(&other, &o, &c).code == GP_OK);
    GP_CHECK(gp_context_table_source(c) == GP_CONTEXT_TABLE_GENERIC);
    gp_context_close(c);
    /* characterize's copy in the per-device cache comes first: stored
     * whole (the folder made), at the path the lookup reads. */
    char stored[512];
    GP_CHECK(gp_context_cache_path(cache, &d, file, sizeof file).code == GP_OK);
    snprintf(path, sizeof path, "%.400s/sm_90", tables);
    GP_CHECK(gp_context_cache_store(cache, &d, path, stored, sizeof stored).code == GP_OK && !strcmp(stored, file));
    GP_CHECK(strstr(file, "/gpuprobe/0000-3b-00.0_8c5f1a2b/table.txt") != NULL);
    GP_CHECK(gp_context_cache_store(cache, &d, "/nonexistent/table.txt", stored, sizeof stored).code != GP_OK);
    GP_CHECK(gp_context_open_for(&d, &o, &c).code == GP_OK);
    GP_CHECK(gp_context_table_source(c) == GP_CONTEXT_TABLE_CACHE && strstr(gp_context_table_said(c), file));
    gp_context_close(c);
    /* GP_TABLE over the cache; the given table over GP_TABLE. */
    snprintf(path, sizeof path, "%.400s/generic", tables);
    setenv("GP_TABLE", path, 1);
    GP_CHECK(gp_context_open_for(&d, &o, &c).code == GP_OK && gp_context_table_source(c) == GP_CONTEXT_TABLE_ENV);
    gp_context_close(c);
    o.table = file;
    GP_CHECK(gp_context_open_for(&d, &o, &c).code == GP_OK && gp_context_table_source(c) == GP_CONTEXT_TABLE_GIVEN);
    gp_context_close(c);
    unsetenv("GP_TABLE");
    /* Another GPU's table is an error naming it, not a fall-through. */
    snprintf(path, sizeof path, "%.400s/gfx900", tables);
    o.table = path;
    gp_status st = gp_context_open_for(&d, &o, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "gfx900") && c == NULL);
    o.table = "/nonexistent/table.txt";
    GP_CHECK(gp_context_open_for(&d, &o, &c).code != GP_OK && c == NULL);
    remove(file);
    return 0;
}

typedef struct worker {
    gp_context *c;
    int ok;
} worker;

/* 200 calls over 10 shapes, as a thread of an application would make them. */
static int work(void *arg)
{
    worker *w = arg;
    w->ok = 1;
    for (int i = 0; i < 200; i++) {
        gp_shape s = {{1000 + 64 * (i % 10), 3000}, {0}};
        gp_transpose_params p;
        w->ok &= gp_context_params(w->c, &gp_kernel_transpose, &s, &p).code == GP_OK && p.tile >= 8;
    }
    return 0;
}

/* A context for d on the shipped tables, no GP_TABLE and no cache: what
 * the parameter tests look up in; NULL when it does not open. */
static gp_context *open_shipped(const gp_device_info *d)
{
    char tables[512];
    gp_context *c = NULL;
    if (!gp_test_source_path(tables, sizeof tables, "tables"))
        return NULL;
    gp_context_opts o = {0, NULL, tables, "/nonexistent-cache"};
    unsetenv("GP_TABLE");
    return gp_context_open_for(d, &o, &c).code == GP_OK ? c : NULL;
}

GP_TEST(context_keeps_one_parameter_set_per_shape)
{
    gp_device_info d = h200();
    gp_context *c = open_shipped(&d);
    GP_CHECK(c != NULL);
    /* The same parameters as the one path gives for the shape. */
    gp_shape s = {{12000, 12000}, {0}};
    gp_transpose_params a, b;
    char note[160];
    GP_CHECK(gp_context_params(c, &gp_kernel_transpose, &s, &a).code == GP_OK && gp_context_nshapes(c) == 1);
    GP_CHECK(gp_kernel_params(&gp_kernel_transpose, gp_context_table(c), &d, &s, 1, &b, note, sizeof note).code ==
             GP_OK);
    GP_CHECK(!memcmp(&a, &b, sizeof a));
    GP_CHECK(gp_context_params(c, &gp_kernel_transpose, &s, &a).code == GP_OK && gp_context_nshapes(c) == 1);
    /* Four threads at once: ten more shapes, each kept once. */
    thrd_t th[4];
    worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i].c = c;
        GP_CHECK(thrd_create(&th[i], work, &w[i]) == thrd_success);
    }
    for (int i = 0; i < 4; i++)
        GP_CHECK(thrd_join(th[i], NULL) == thrd_success && w[i].ok);
    GP_CHECK(gp_context_nshapes(c) == 11);
    gp_context_close(c);
    return 0;
}

/* The count-shape call reduce, scan and histogram take (n in d[0], the
 * options in opt[0] and opt[1]) gives what the one path gives for that
 * shape, and says which kernel had no context. */
GP_TEST(context_params_of_count_shapes)
{
    gp_device_info d = h200();
    gp_context *c = open_shipped(&d);
    GP_CHECK(c != NULL);
    char note[160];
    gp_scan_params sa, sb;
    GP_CHECK(gp_context_params_of_count(c, &gp_kernel_scan, 1000003, GP_SCAN_INT32, 1, &sa).code == GP_OK);
    gp_shape s = {{1000003}, {GP_SCAN_INT32, 1}};
    GP_CHECK(gp_kernel_params(&gp_kernel_scan, gp_context_table(c), &d, &s, 1, &sb, note, sizeof note).code == GP_OK);
    GP_CHECK(!memcmp(&sa, &sb, sizeof sa));
    gp_reduce_params ra, rb;
    GP_CHECK(gp_context_params_of_count(c, &gp_kernel_reduce, 1 << 28, GP_REDUCE_FP32, 0, &ra).code == GP_OK);
    gp_shape r = {{1 << 28}, {GP_REDUCE_FP32}};
    GP_CHECK(gp_kernel_params(&gp_kernel_reduce, gp_context_table(c), &d, &r, 1, &rb, note, sizeof note).code == GP_OK);
    GP_CHECK(!memcmp(&ra, &rb, sizeof ra));
    gp_histogram_params h;
    GP_CHECK(gp_context_params_of_count(c, &gp_kernel_histogram, 1 << 20, GP_HIST_U32, 0, &h).code == GP_OK);
    GP_CHECK(gp_context_nshapes(c) == 3);
    gp_status st = gp_context_params_of_count(NULL, &gp_kernel_histogram, 10, GP_HIST_U8, 0, &h);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "histogram: no context"));
    /* A count no device holds is refused before any rule runs on it (the
     * rules size bytes from n in long long) and keeps no set. */
    st = gp_context_params_of_count(c, &gp_kernel_histogram, (size_t)1 << 62, GP_HIST_U32, 0, &h);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "more than any device holds"));
    st = gp_context_params_of_count(c, &gp_kernel_scan, SIZE_MAX, GP_SCAN_FP32, 0, &sa);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "more than any device holds") && gp_context_nshapes(c) == 3);
    /* A context made for a described device switches no device, nor do
     * the plans made for it; only gp_context_open's contexts do. */
    GP_CHECK(gp_context_bound_device(c) == -1 && gp_context_bound_device(NULL) == -1);
    GP_CHECK(gp_context_params(c, &gp_kernel_scan, NULL, &sa).code == GP_ERR_USAGE);
    GP_CHECK(gp_context_params(NULL, &gp_kernel_scan, &s, &sa).code == GP_ERR_USAGE);
    gp_context_close(c);
    /* No place for the context: refused, not a crash. */
    GP_CHECK(gp_context_open(NULL, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_context_open_for(&d, NULL, NULL).code == GP_ERR_USAGE);
    gp_context *none = NULL;
    GP_CHECK(gp_context_open_for(NULL, NULL, &none).code == GP_ERR_USAGE);
    return 0;
}

/* SGEMM through the context on the H200's shipped table: the shallow product's parameters split k, so its
 * workspace is 3 slices of 1023 x 1028 floats, 8192^3's stream-K slots, a transposed product's none; a
 * short workspace, no context or no place for the size is GP_ERR_USAGE before any launch, and gp_sgemm (no
 * workspace) does not ask for one. */
GP_TEST(context_sgemm_workspace)
{
    gp_device_info d = h200();
    gp_context *c = open_shipped(&d);
    GP_CHECK(c != NULL);
    gp_gemm_problem small = {GP_GEMM_ROW_MAJOR, 0, 0, 1023, 1025, 511, 1.0f, 0.0f, 511, 1025, 1025};
    gp_gemm_problem head = {GP_GEMM_ROW_MAJOR, 0, 0, 8192, 8192, 8192, 1.0f, 0.0f, 8192, 8192, 8192};
    size_t bytes = 1;
    GP_CHECK(gp_sgemm_workspace_size(c, &small, &bytes).code == GP_OK && bytes == (size_t)3 * 1023 * 1028 * 4);
    GP_CHECK(gp_sgemm_workspace_size(c, &head, &bytes).code == GP_OK && bytes == gp_gemm_sk_bytes(132, 128, 256));
    gp_gemm_problem tn = head;
    tn.trans_a = 1;
    GP_CHECK(gp_sgemm_workspace_size(c, &tn, &bytes).code == GP_OK && bytes == 0);
    GP_CHECK(gp_sgemm_workspace_size(c, &small, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_sgemm_workspace_size(NULL, &small, &bytes).code == GP_ERR_USAGE);
    /* Addresses 256 MiB apart that nothing dereferences: every refusal comes before a launch. */
    float *const a = (float *)(uintptr_t)0x10000000u, *const b = (float *)(uintptr_t)0x20000000u;
    float *const cc = (float *)(uintptr_t)0x30000000u, *const w = (float *)(uintptr_t)0x40000000u;
    gp_status st = gp_sgemm_ws(c, &small, a, b, cc, w, 4096, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "needs a workspace of 12619728 bytes"));
    st = gp_sgemm_ws(NULL, &small, a, b, cc, w, 4096, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no context"));
    gp_gemm_problem bad = small;
    bad.lda = 7;
    GP_CHECK(gp_sgemm_ws(c, &bad, a, b, cc, w, 4096, NULL).code == GP_ERR_USAGE);
    GP_CHECK(gp_sgemm(c, &small, a, NULL, cc, NULL).code == GP_ERR_USAGE);
    /* Without a workspace the shapes that would split or share out their last wave run plain: past every
     * check to the launcher (which, without a GPU backend, says so). */
    GP_CHECK(gp_sgemm(c, &small, a, b, cc, NULL).code != GP_ERR_USAGE);
    GP_CHECK(gp_sgemm(c, &head, a, b, (float *)(uintptr_t)0x50000000u, NULL).code != GP_ERR_USAGE);
    gp_context_close(c);
    return 0;
}

/* The thread's CPU time: the derivation is host work on one thread, and
 * CTest runs this beside other tests (and the scratch-kernel test runs the
 * unit suite inside another), where wall time also counts the time slices
 * other processes took. */
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What a call costs on the host before its launch, for every kernel on its
 * bench shapes under the shipped sm_90 table: deriving the parameters of a
 * shape the context has not seen (the one shape path: find-db entry, else
 * the rule for the shape) and looking up one it has.  The library promises
 * at most 50 us and 2 us (docs/library.md); the medians over 21 rounds are
 * checked against those and printed (under the sanitizers printed only:
 * the bounds are for optimized host code). */
GP_TEST(context_derivation_and_lookup_costs)
{
    gp_device_info d = h200();
    gp_context *c = open_shipped(&d);
    GP_CHECK(c != NULL);
#if defined(__SANITIZE_ADDRESS__)
    const int bounded = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    const int bounded = 0;
#else
    const int bounded = 1;
#endif
#else
    const int bounded = 1;
#endif
    enum { ROUNDS = 21 };
    for (size_t i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel *k = gp_kernel_at(i);
        gp_kcase cs[GP_KCASE_MAX];
        int n = k->cases(GP_CASES_BENCH, NULL, &d, 0, cs, GP_KCASE_MAX);
        GP_CHECK(n > 0);
        unsigned char p[4096];
        GP_CHECK(k->params_size <= sizeof p);
        char note[160];
        double derive[ROUNDS], lookup[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            double t0 = now_us();
            for (int j = 0; j < n; j++)
                GP_CHECK(gp_kernel_params(k, gp_context_table(c), &d, &cs[j].shape, 1, p, note, sizeof note).code ==
                         GP_OK);
            double t1 = now_us();
            for (int j = 0; j < n; j++)
                GP_CHECK(gp_context_params(c, k, &cs[j].shape, p).code == GP_OK);
            double t2 = now_us();
            derive[r] = (t1 - t0) / n;
            if (r > 0) /* the first round kept the shapes */
                lookup[r - 1] = (t2 - t1) / n;
        }
        qsort(derive, ROUNDS, sizeof *derive, cmp_double);
        qsort(lookup, ROUNDS - 1, sizeof *lookup, cmp_double);
        printf("  %-10s %2d shapes: a new shape %6.2f us (median, max %6.2f), a kept one %5.3f us\n", k->name, n,
               derive[ROUNDS / 2], derive[ROUNDS - 1], lookup[(ROUNDS - 1) / 2]);
        GP_CHECK(!bounded || derive[ROUNDS / 2] <= 50);
        GP_CHECK(!bounded || lookup[(ROUNDS - 1) / 2] <= 2);
    }
    gp_context_close(c);
    return 0;
}
