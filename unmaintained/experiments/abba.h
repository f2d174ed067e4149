// Shared by the bandwidth experiments (stencil_variants.cu, padding_variants.cu,
// scan_variants.cu): error checks, the poisoned-output check and the paired
// A B B A timing of a variant against a reference (drift cancels).  Header
// only, standalone CUDA: every experiment builds with one nvcc line.
#ifndef GP_EXPERIMENTS_ABBA_H
#define GP_EXPERIMENTS_ABBA_H
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef std::function<void()> launch_fn;

// Quantile p of x (nearest rank; x is copied).
static double abba_q(std::vector<double> x, double p)
{
    std::sort(x.begin(), x.end());
    return x[(size_t)(p * (double)(x.size() - 1) + 0.5)];
}

// One timed launch in milliseconds (events around it on the default stream).
static float abba_time(const launch_fn &f)
{
    static cudaEvent_t e0, e1;
    static bool made;
    if (!made) { CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1)); made = true; }
    float ms = 0;
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaGetLastError());
    return ms;
}

static void abba_header(const char *ref)
{
    printf("%-34s %9s %9s %9s %9s %9s  %s\n", "variant", "ms", "ref ms", "ratio", "p10", "p90", "check");
    printf("(ratio = %s time / variant time over paired A B B A rounds: the variant's fraction of the reference's speed)\n", ref);
}

// Times `a` against `ref` in `rounds` A B B A rounds after 3 warm-up pairs;
// prints median times and the p50 / p10 / p90 of the per-round ratio, and
// `check` (run by the caller on a poisoned output before).  Returns the median
// ratio.
static double abba_row(const char *name, const launch_fn &a, const launch_fn &ref, int rounds, const char *check)
{
    for (int w = 0; w < 3; w++) { a(); ref(); }
    CK(cudaDeviceSynchronize());
    std::vector<double> ratio, ta, tb;
    for (int r = 0; r < rounds; r++) {
        const float t0 = abba_time(a), t1 = abba_time(ref), t2 = abba_time(ref), t3 = abba_time(a);
        ratio.push_back((t1 + t2) / (double)(t0 + t3));
        ta.push_back((t0 + t3) / 2.0), tb.push_back((t1 + t2) / 2.0);
    }
    const double p50 = abba_q(ratio, 0.5);
    printf("%-34s %9.4f %9.4f %9.4f %9.4f %9.4f  %s\n", name, abba_q(ta, 0.5), abba_q(tb, 0.5), p50, abba_q(ratio, 0.1),
           abba_q(ratio, 0.9), check);
    fflush(stdout);
    return p50;
}

// Fills n bytes at d with 0xFF (NaN for floats, -1 for ints): what a kernel
// does not write stays visibly poisoned.
static void poison(void *d, size_t bytes) { CK(cudaMemset(d, 0xff, bytes)); CK(cudaDeviceSynchronize()); }

// Rounds from argv[1] (default 30).
static int abba_rounds(int argc, char **argv) { return argc > 1 ? std::max(1, atoi(argv[1])) : 30; }
#endif
