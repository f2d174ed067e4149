#include <stdio.h>

#include "clock.h"
#include "probe.h"

/* Spin long enough that the clock ramps and the timer's coarse ticks vanish. */
#define CLOCK_SPIN_MS 20.0
/* A clock that moves by more than this between the readings is reported. */
#define CLOCK_MOVE_TOLERANCE 0.02

gp_status gp_probe_execute(const gp_probe *p, const gp_probe_opts *opts, gp_record *rec)
{
    gp_probe_ctx ctx;
    GP_TRY(gp_rt_device_open(opts->device, &ctx.dev));
    gp_record_init(rec, p->name, &ctx.dev);
    ctx.opts = opts;
    ctx.rec = rec;

    GP_TRY(gp_clock_measure(&ctx.dev, CLOCK_SPIN_MS, &rec->clock_before));
    ctx.clock_mhz = rec->clock_before.measured_mhz;
    if (!(ctx.clock_mhz > 0))
        return gp_fail(GP_ERR_CHECK, "%s: the measured clock is %.1f MHz; cannot convert to cycles",
                       p->name, ctx.clock_mhz);
    GP_TRY(p->run(&ctx));
    GP_TRY(gp_clock_measure(&ctx.dev, CLOCK_SPIN_MS, &rec->clock_after));
    rec->have_clock = 1;
    rec->clock_moved = gp_clock_moved(&rec->clock_before, &rec->clock_after, CLOCK_MOVE_TOLERANCE);
    if (rec->clock_moved)
        gp_record_note(rec, "clock moved from %.0f to %.0f MHz during the probe",
                       rec->clock_before.measured_mhz, rec->clock_after.measured_mhz);
    if (rec->clock_before.timer_suspect)
        gp_record_note(rec, "constant-rate timer disagrees with event time (ratio %.3f): clock figures suspect",
                       rec->clock_before.timer_vs_event);
    if (rec->clock_before.smi.other_processes > 0)
        gp_record_note(rec, "%d other process(es) used the GPU during the probe",
                       rec->clock_before.smi.other_processes);
    if (opts->out_dir)
        GP_TRY(gp_record_write(rec, opts->out_dir));
    /* Check after writing, so a failing result is still on disk to look at. */
    if (p->check)
        GP_TRY(p->check(rec, &ctx.dev));
    return gp_ok();
}
