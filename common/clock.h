/* Core clock as the device runs it: cycles counted in a kernel against the
 * constant-rate timer, and the vendor-reported clock beside it.  Cycles in
 * every probe are converted with the measured clock, never a datasheet's. */
#ifndef GP_CLOCK_H
#define GP_CLOCK_H

#include "runtime.h"
#include "smi.h"

typedef struct gp_clock_reading {
    double measured_mhz;     /* median over CUs */
    double measured_min_mhz;
    double measured_max_mhz;
    double timer_vs_event;   /* nominal timer seconds / event seconds for the spin: ~1 when timer_hz is right */
    int timer_suspect;       /* 1 when timer_vs_event is outside [0.8, 1.05] and was not calibrated */
    double timer_hz;         /* rate the cycles were converted with: nominal, or calibrated */
    double timer_nominal_hz; /* the device's nominal rate (runtime attribute or per-target table) */
    int timer_calibrated;    /* 1 when timer_hz is the event-time calibrated rate */
    gp_smi_reading smi;      /* vendor-reported, may be unavailable */
} gp_clock_reading;

/* MHz from a cycle count over `ticks` of a timer running at timer_hz.
 * Returns 0 when ticks or timer_hz is not positive. */
double gp_clock_mhz(long long cycles, long long ticks, double timer_hz);
/* Relative change from a to b, |b-a|/a; 0 when a is 0. */
double gp_clock_rel_change(double a, double b);
/* True when the clock moved by more than `tolerance` (fraction) between readings. */
int gp_clock_moved(const gp_clock_reading *before, const gp_clock_reading *after, double tolerance);

/* Disagreement between timer and event time beyond which the timer's rate is
 * taken from event time ("a few percent": launch overhead in a 20 ms spin is
 * far below it, a wrong nominal rate such as 100 vs 25 MHz far above). */
#define GP_TIMER_CAL_TOLERANCE 0.05

/* The clock reading from one spin: per-block cycles and timer ticks, the
 * spin's event time, and the timer's nominal rate (0: unknown).  The timer
 * rate is calibrated against event time, ticks[0] / event seconds, and used
 * instead of the nominal one when the two differ by more than `tolerance`
 * (or the nominal rate is unknown).  Pure: unit-tested with fake devices. */
void gp_clock_from_spin(const long long *cycles, const long long *ticks, int blocks, double event_ms,
                        double nominal_hz, double tolerance, gp_clock_reading *out);

/* Spin one single-thread block per CU for about spin_ms and read the clock. */
gp_status gp_clock_measure(const gp_device_info *dev, double spin_ms, gp_clock_reading *out);

#endif
