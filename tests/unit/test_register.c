#include "gp_test.h"
#include "register_limits_analysis.h"

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
