#include "gp_test.h"
#include "register_limits_analysis.h"
#include "register_limits.h"

#include <math.h>
#include <stdio.h>

/* Resident threads per CU for `regs` per thread: a register file of `rf`
 * registers allocated in units of `g` per thread, wave-granular, in blocks
 * of `block` threads, capped at `cap`. */
static double resident(double regs, double rf, int g, int wave, int block, double cap)
{
    double a = ceil(regs / g) * g;
    double waves = floor(rf / (a * wave));
    double t = floor(waves * wave / block) * block;
    return t < cap ? t : cap;
}

GP_TEST(register_granule_nvidia_like)
{
    /* 64K registers, granule 8, warps of 32, blocks of 64, 2048 threads max;
     * register counts as a compiler reports them (not multiples of 8). */
    double regs[] = {18, 26, 34, 43, 50, 58, 67, 75, 90, 106, 131, 170, 203, 255};
    double thr[14];
    for (int i = 0; i < 14; i++)
        thr[i] = resident(regs[i], 65536, 8, 32, 64, 2048);
    gp_register_fit f = gp_register_fit_granule(regs, thr, 14, 32, 64);
    GP_CHECK(f.granule == 8);
    GP_CHECK(f.per_cu_lo <= 65536);
    GP_CHECK_NEAR(f.per_cu, 65536, 0);
    GP_CHECK(f.limited_points >= 10);
    return 0;
}

GP_TEST(register_granule_amd_like)
{
    /* gfx9-like: 4 SIMDs of 256 registers x 64 lanes, granule 4, per-SIMD
     * wave count capped at 10, blocks of 128 threads. */
    double regs[] = {20, 29, 37, 42, 51, 66, 83, 101, 130, 170, 256};
    double thr[11];
    for (int i = 0; i < 11; i++) {
        double a = ceil(regs[i] / 4) * 4, per_simd = floor(256 / a);
        if (per_simd > 10)
            per_simd = 10;
        thr[i] = floor(4 * per_simd * 64 / 128) * 128;
    }
    gp_register_fit f = gp_register_fit_granule(regs, thr, 11, 64, 128);
    GP_CHECK(f.granule == 4);
    GP_CHECK(f.per_cu_lo <= 65536);
    GP_CHECK_NEAR(f.per_cu, 65536, 0);
    return 0;
}

GP_TEST(register_granule_not_detected)
{
    /* Occupancy that does not depend on registers: nothing to fit. */
    double regs[] = {20, 40, 80, 160}, thr[] = {2048, 2048, 2048, 2048};
    GP_CHECK(gp_register_fit_granule(regs, thr, 4, 32, 64).granule == -1);
    /* Occupancy that rises with registers contradicts every granule. */
    double up[] = {256, 512, 1024, 1536};
    double rg[] = {200, 150, 100, 30};
    GP_CHECK(gp_register_fit_granule(rg, up, 4, 32, 64).granule == -1);
    return 0;
}

GP_TEST(register_cliffs_and_throughput)
{
    unsigned long long seed = 3;
    double thr_res[] = {2048, 2048, 1536, 1536, 1024, 768, 512, 512};
    double perf[8];
    /* Latency-bound: throughput proportional to occupancy below 1024 threads. */
    for (int i = 0; i < 8; i++) {
        double occ = thr_res[i] < 1024 ? thr_res[i] : 1024;
        perf[i] = occ * (1 + 0.02 * (gp_test_rand(&seed) - 0.5));
    }
    int idx[8];
    int k = gp_register_cliffs(thr_res, 8, 0.05, idx, 8);
    GP_CHECK(k == 4 && idx[0] == 2 && idx[1] == 4 && idx[2] == 5 && idx[3] == 6);
    /* The first two cliffs leave enough threads to hide latency. */
    GP_CHECK(gp_register_cliffs_followed(thr_res, perf, 8, idx, k, 0.5) == 2);
    double flat[] = {100, 100, 100};
    GP_CHECK(gp_register_cliffs(flat, 3, 0.05, idx, 8) == 0);
    double spill[] = {0, 0, 0, 16, 64};
    GP_CHECK(gp_register_first_spill(spill, 5) == 3);
    GP_CHECK(gp_register_first_spill(spill, 3) == -1);
    return 0;
}

/* VGPRs per thread HIP 5.2 (clang 15) compiles each chain variant of
 * register_limits.hip to, by live values: the .vgpr_count of
 * `hipcc -O3 -x hip --offload-arch=T --cuda-device-only -S` (printed by the
 * build test build.amd_register_limits.T).  A variant missing here fails the
 * test: refresh the table from that build test. */
static const struct {
    int live, gfx900, gfx90a;
} amd_vgprs[] = {
    {16, 17, 18},    {20, 20, 21},    {24, 24, 25},    {28, 28, 29},    {32, 32, 33},    {36, 36, 37},
    {40, 40, 41},    {44, 44, 45},    {48, 48, 49},    {52, 52, 53},    {56, 56, 57},    {60, 60, 90},
    {64, 64, 96},    {68, 68, 102},   {72, 72, 108},   {76, 76, 114},   {80, 80, 120},   {84, 84, 126},
    {88, 88, 132},   {92, 92, 138},   {96, 96, 144},   {100, 100, 150}, {104, 104, 156}, {108, 108, 162},
    {112, 112, 168}, {116, 116, 174}, {120, 120, 180}, {124, 124, 186}, {128, 128, 192}, {136, 136, 204},
    {144, 144, 216}, {152, 152, 228}, {160, 160, 240}, {168, 168, 252}, {176, 176, 256}, {184, 184, 256},
    {192, 192, 256}, {200, 201, 256}, {208, 209, 256}, {216, 217, 256}, {224, 225, 256}, {232, 233, 256},
    {240, 241, 256}, {248, 249, 256}, {256, 256, 258}, {264, 256, 334}, {272, 256, 336},
};

/* The probe's variants (GP_REGLIM_VARIANTS) with a target's compiled VGPRs,
 * and the threads per CU an AMD CU grants them: 4 SIMDs, `file` VGPRs per
 * lane each, allocated in units of `g`, at most `cap` waves per SIMD, one
 * wave64 per block of GP_REGLIM_BLOCK (64) threads.  Returns the point count,
 * or -1 when a variant has no compiled count in amd_vgprs. */
static int amd_points(int gfx90a, int g, double file, double cap, double *regs, double *thr)
{
    static const int live[] = {
#define LIVE(R) R,
        GP_REGLIM_VARIANTS(LIVE)
#undef LIVE
    };
    int n = 0;
    for (size_t i = 0; i < sizeof live / sizeof live[0]; i++) {
        size_t j = 0;
        while (j < sizeof amd_vgprs / sizeof amd_vgprs[0] && amd_vgprs[j].live != live[i])
            j++;
        if (j == sizeof amd_vgprs / sizeof amd_vgprs[0]) {
            fprintf(stderr, "no compiled VGPR count for %d live values\n", live[i]);
            return -1;
        }
        regs[n] = gfx90a ? amd_vgprs[j].gfx90a : amd_vgprs[j].gfx900;
        double waves = floor(file / (ceil(regs[n] / g) * g));
        thr[n++] = 4 * (waves < cap ? waves : cap) * 64;
    }
    return n;
}

GP_TEST(register_granule_gfx900_compiled)
{
    /* gfx900: 256 VGPRs per lane per SIMD, granule 4, 10 waves per SIMD.
     * With only multiples of 8 live values a granule of 8 explains the same
     * occupancy, and the fit (ties: the larger g) would say 8. */
    double regs[64], thr[64];
    int n = amd_points(0, 4, 256, 10, regs, thr);
    GP_CHECK(n >= 2 && GP_REGLIM_BLOCK == 64);
    gp_register_fit f = gp_register_fit_granule(regs, thr, (size_t)n, 64, GP_REGLIM_BLOCK);
    GP_CHECK(f.granule == 4);
    GP_CHECK_NEAR(f.per_cu, 65536, 0);
    return 0;
}

GP_TEST(register_granule_gfx90a_compiled)
{
    /* gfx90a: 512 unified VGPRs+AGPRs per lane per SIMD, granule 8, 8 waves
     * per SIMD: the same variants must fit 8, not 4. */
    double regs[64], thr[64];
    int n = amd_points(1, 8, 512, 8, regs, thr);
    GP_CHECK(n >= 2);
    gp_register_fit f = gp_register_fit_granule(regs, thr, (size_t)n, 64, GP_REGLIM_BLOCK);
    GP_CHECK(f.granule == 8);
    return 0;
}
