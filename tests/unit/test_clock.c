#include "gp_test.h"
#include "clock.h"
#include "timer_rate.h"
#include "gp_cycle_span.h"

#include <string.h>

/* A fake device: its constant-rate timer really counts at true_hz, its core
 * runs at true_mhz, and one spin of spin_ms per CU is timed by events that
 * also see a 15 us launch.  Returns the clock module's reading when the
 * device claims the timer runs at nominal_hz. */
static gp_clock_reading fake_spin(double true_hz, double true_mhz, double nominal_hz, double spin_ms)
{
    enum { CUS = 4 };
    long long cycles[CUS], ticks[CUS];
    for (int i = 0; i < CUS; i++) {
        cycles[i] = (long long)(spin_ms * 1e3 * true_mhz * (1 + 0.001 * i));
        ticks[i] = (long long)(cycles[i] / (true_mhz * 1e6) * true_hz);
    }
    gp_clock_reading r;
    gp_clock_from_spin(cycles, ticks, CUS, spin_ms + 0.015, nominal_hz, GP_TIMER_CAL_TOLERANCE, &r);
    return r;
}

GP_TEST(clock_timer_25mhz_nominal_100)
{
    /* An MI25 (gfx9: s_memrealtime at 25 MHz) that a table calls 100 MHz: the
     * clock would read 4x too high (5.7 GHz for 1.4 GHz).  Calibrated, it is
     * the core's clock and the record says the rate was calibrated. */
    gp_clock_reading r = fake_spin(25e6, 1400, 100e6, 20);
    GP_CHECK(r.timer_calibrated);
    GP_CHECK_NEAR(r.timer_vs_event, 0.25, 0.001);
    GP_CHECK_NEAR(r.timer_hz, 25e6, 25e6 * 0.002);
    GP_CHECK_NEAR(r.measured_mhz, 1400, 1400 * 0.005);
    GP_CHECK(!r.timer_suspect);
    GP_CHECK_NEAR(r.timer_nominal_hz, 100e6, 0);
    return 0;
}

GP_TEST(clock_timer_100mhz_nominal_25)
{
    /* gfx940/gfx10/gfx11 count at 100 MHz; a device that says 25 MHz. */
    gp_clock_reading r = fake_spin(100e6, 2100, 25e6, 20);
    GP_CHECK(r.timer_calibrated);
    GP_CHECK_NEAR(r.timer_hz, 100e6, 100e6 * 0.002);
    GP_CHECK_NEAR(r.measured_mhz, 2100, 2100 * 0.005);
    return 0;
}

GP_TEST(clock_timer_nominal_right_is_kept)
{
    /* Right within the launch overhead: the nominal rate is used as is. */
    gp_clock_reading r = fake_spin(25e6, 1400, 25e6, 20);
    GP_CHECK(!r.timer_calibrated);
    GP_CHECK_NEAR(r.timer_hz, 25e6, 0);
    GP_CHECK_NEAR(r.measured_mhz, 1400, 1400 * 0.005);
    /* A rate nobody knows (0) is always calibrated. */
    r = fake_spin(100e6, 1700, 0, 20);
    GP_CHECK(r.timer_calibrated);
    GP_CHECK_NEAR(r.measured_mhz, 1700, 1700 * 0.005);
    return 0;
}

GP_TEST(clock_amd_timer_table)
{
    const char *src = NULL;
    /* Vega10 counts at 27 MHz (LLVM libc time_utils.h; mscclpp): 25 would be
     * 7 % off, beyond the 5 % the calibration forgives. */
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx900", &src), 27e6, 0);
    GP_CHECK(src && strstr(src, "table"));
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx900:xnack-", NULL), 27e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx902", NULL), 25e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx906", NULL), 25e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx908", NULL), 25e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx90a", NULL), 25e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx940", NULL), 100e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx942", NULL), 100e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx1030", NULL), 100e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx1100", NULL), 100e6, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx803", &src), 0, 0);
    GP_CHECK(strstr(src, "unknown"));
    GP_CHECK_NEAR(gp_amd_timer_hz("sm_90", &src), 0, 0);
    GP_CHECK_NEAR(gp_amd_timer_hz("", &src), 0, 0);
    return 0;
}

/* A fake core-cycle counter of `bits` bits (gfx11's HW_REG_SHADER_CYCLES has
 * 20): the true cycle count, masked. */
static long long fake_counter(long long true_cycles, int bits)
{
    return bits < 64 ? true_cycles & ((1ll << bits) - 1) : true_cycles;
}

/* A latency pass as the chase, LDS and math kernels time it (gp_device.h's
 * GP_CYCLE_START / GP_CYCLE_LAP / GP_CYCLE_END): `loads` dependent
 * operations of `lat` cycles each, a lap after every GP_CYCLE_LAP_WORK of
 * them, starting at counter value `t0`.  laps = 0: the two reads only. */
static long long timed_pass(long long t0, long long loads, long long lat, int bits, int laps)
{
    long long t = t0;
    gp_cycle_span s;
    gp_span_start(&s, fake_counter(t, bits));
    for (long long i = 0; i < loads; i += GP_CYCLE_LAP_WORK) {
        t += GP_CYCLE_LAP_WORK * lat;
        if (laps)
            gp_span_lap(&s, fake_counter(t, bits), bits);
    }
    t += 7; /* the closing branch on the last value */
    gp_span_lap(&s, fake_counter(t, bits), bits);
    return s.total;
}

/* The probes' passes (65,536 loads in cache_latency and lds) are about 2M
 * cycles at 30 cycles a load: a 20-bit counter wraps in every pass.  Timed
 * in laps, the pass comes out exact whatever the start and the latency (up
 * to 65,535 cycles a load); with one difference of two reads it is short by
 * whole wraps. */
GP_TEST(clock_narrow_counter_laps_sum_exactly)
{
    const long long loads = 65536;
    const long long lats[] = {1, 23, 30, 63, 239, 647, 2339, 65535};
    const long long starts[] = {0, 1, (1 << 20) - 5, 123456789};
    for (size_t i = 0; i < sizeof lats / sizeof lats[0]; i++)
        for (size_t j = 0; j < sizeof starts / sizeof starts[0]; j++) {
            long long want = loads * lats[i] + 7;
            GP_CHECK(timed_pass(starts[j], loads, lats[i], 20, 1) == want);
            GP_CHECK(timed_pass(starts[j], loads, lats[i], 64, 1) == want);
            GP_CHECK(timed_pass(starts[j], loads, lats[i], 64, 0) == want);
            /* The fake does wrap: one difference of two reads is wrong by
             * whole wraps for any pass of 2^20 cycles or more. */
            if (want >= (1ll << 20)) {
                long long once = timed_pass(starts[j], loads, lats[i], 20, 0);
                GP_CHECK(once != want);
                GP_CHECK((want - once) % (1ll << 20) == 0);
            }
        }
    /* One interval: the masked difference across a wrap. */
    GP_CHECK(gp_counter_delta((1 << 20) - 10, 5, 20) == 15);
    GP_CHECK(gp_counter_delta(100, 5, 64) == -95);
    return 0;
}
