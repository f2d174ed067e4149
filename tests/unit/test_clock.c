#include "gp_test.h"
#include "clock.h"
#include "timer_rate.h"

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
    GP_CHECK_NEAR(gp_amd_timer_hz("gfx900", &src), 25e6, 0);
    GP_CHECK(src && strstr(src, "table"));
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
