#include "clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double gp_clock_mhz(long long cycles, long long ticks, double timer_hz)
{
    if (ticks <= 0 || timer_hz <= 0)
        return 0.0;
    double seconds = (double)ticks / timer_hz;
    return (double)cycles / seconds / 1e6;
}

double gp_clock_rel_change(double a, double b)
{
    if (a == 0)
        return 0.0;
    return fabs(b - a) / fabs(a);
}

int gp_clock_moved(const gp_clock_reading *before, const gp_clock_reading *after, double tolerance)
{
    return gp_clock_rel_change(before->measured_mhz, after->measured_mhz) > tolerance;
}

void gp_clock_from_spin(const long long *cycles, const long long *ticks, int blocks, double event_ms,
                        double nominal_hz, double tolerance, gp_clock_reading *out)
{
    memset(out, 0, sizeof *out);
    out->timer_nominal_hz = nominal_hz;
    out->timer_hz = nominal_hz;
    if (blocks < 1 || !(event_ms > 0) || ticks[0] <= 0)
        return;
    /* The events bracket the launch as well as the spin (platform/clock.hip),
     * so the event rate is low by the launch overhead: ~0.1% of a 20 ms spin. */
    double event_hz = (double)ticks[0] / (event_ms / 1e3);
    out->timer_vs_event = nominal_hz > 0 ? event_hz / nominal_hz : 0;
    if (!(nominal_hz > 0) || fabs(out->timer_vs_event - 1) > tolerance) {
        out->timer_hz = event_hz;
        out->timer_calibrated = 1;
    }
    out->timer_suspect = !out->timer_calibrated && (out->timer_vs_event < 0.8 || out->timer_vs_event > 1.05);
    double *mhz = malloc(sizeof *mhz * (size_t)blocks);
    if (!mhz)
        return; /* measured_mhz stays 0: the caller reports it cannot convert */
    for (int i = 0; i < blocks; i++)
        mhz[i] = gp_clock_mhz(cycles[i], ticks[i], out->timer_hz);
    gp_summary s;
    gp_stats_summarize(mhz, (size_t)blocks, &s);
    free(mhz);
    out->measured_mhz = s.median;
    out->measured_min_mhz = s.min;
    out->measured_max_mhz = s.max;
}

gp_status gp_clock_measure(const gp_device_info *dev, double spin_ms, gp_clock_reading *out)
{
    memset(out, 0, sizeof *out);
    int blocks = dev->compute_units > 0 ? dev->compute_units : 1;
    /* The reported maximum clock only sizes the spin; the result does not use it. */
    double guess_mhz = dev->core_clock_mhz > 0 ? dev->core_clock_mhz : 1000.0;
    long long spin_cycles = (long long)(spin_ms * 1e3 * guess_mhz);
    long long *cycles = calloc((size_t)blocks, sizeof *cycles);
    long long *ticks = calloc((size_t)blocks, sizeof *ticks);
    gp_status st = gp_ok();
    if (!cycles || !ticks) {
        st = gp_fail(GP_ERR_NOMEM, "clock: host allocation failed");
        goto done;
    }
    gp_smi_read(dev->vendor, dev->pci_bus_id, &out->smi);
    double ms = 0;
    if ((st = gp_rt_clock_spin(blocks, spin_cycles, cycles, ticks, &ms)).code)
        goto done;
    gp_smi_reading smi = out->smi;
    gp_clock_from_spin(cycles, ticks, blocks, ms, dev->timer_hz, GP_TIMER_CAL_TOLERANCE, out);
    out->smi = smi;
done:
    free(cycles);
    free(ticks);
    return st;
}
