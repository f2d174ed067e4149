#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "probe.h"
#include "telemetry.h"

/* Spin long enough that the clock ramps and the timer's coarse ticks vanish. */
#define CLOCK_SPIN_MS 20.0
/* A clock that moves by more than this between the readings is reported. */
#define CLOCK_MOVE_TOLERANCE 0.02
/* The most a probe waits in all for caps to lift before its long launches
 * (a GPU that stays capped is measured capped and said to be). */
#define CAP_WAIT_S 5.0
/* The spread above which the probes mark a value unstable: a batch spread
 * more waits for the readings of its span before it is kept. */
#define UNSTABLE_SPREAD 0.05

static double guard_now(void *tm) { return gp_telemetry_now(tm); }
static int guard_capped(void *tm, double t0, double t1) { return gp_telemetry_capped(tm, 0, t0, t1); }

gp_status gp_probe_execute(const gp_probe *p, const gp_probe_opts *opts, gp_record *rec)
{
    gp_probe_ctx ctx;
    GP_TRY(gp_rt_device_open(opts->device, &ctx.dev));
    gp_record_init(rec, p->name, &ctx.dev);
    snprintf(rec->version, sizeof rec->version, "%s", opts->version ? opts->version : "");
    snprintf(rec->build, sizeof rec->build, "%s", opts->build ? opts->build : "");
    rec->quick = opts->quick;
    ctx.opts = opts;
    ctx.rec = rec;

    GP_TRY(gp_clock_measure(&ctx.dev, CLOCK_SPIN_MS, &rec->clock_before));
    if (rec->clock_before.timer_calibrated) {
        gp_record_note(rec, "constant-rate timer calibrated against event time: nominal %.4g MHz (%s) is off by a "
                            "factor %.3f; cycles use the calibrated %.4g MHz",
                       ctx.dev.timer_hz / 1e6, ctx.dev.timer_source, rec->clock_before.timer_vs_event,
                       rec->clock_before.timer_hz / 1e6);
        /* The probe and the closing reading use the calibrated rate. */
        ctx.dev.timer_hz = rec->clock_before.timer_hz;
    }
    ctx.clock_mhz = rec->clock_before.measured_mhz;
    if (!(ctx.clock_mhz > 0))
        return gp_fail(GP_ERR_CHECK, "%s: the measured clock is %.1f MHz; cannot convert to cycles",
                       p->name, ctx.clock_mhz);
    /* The vendor library watches the run: a probe measured under a power or
     * thermal cap is flagged with the reasons the driver gave. */
    const char *bus = ctx.dev.pci_bus_id;
    gp_telemetry *tm = NULL;
    char xid_why[96];
    GP_TRY(gp_telemetry_start(ctx.dev.vendor, &bus, 1, GP_TELEMETRY_INTERVAL_S, &tm));
    const double cap_wait = opts->quick ? 1.0 : CAP_WAIT_S;
    memset(&ctx.guard, 0, sizeof ctx.guard);
    if (rec->clock_before.smi.available)
        ctx.guard = (gp_harness_guard){guard_now, guard_capped, NULL, tm, cap_wait,
                                       UNSTABLE_SPREAD, 0, 0, 0};
    gp_smi_xid_watch *xw = gp_smi_xid_open(ctx.dev.vendor, bus, xid_why, sizeof xid_why);
    gp_status ran = p->run(&ctx);
    unsigned long long last_xid = 0;
    const int xids = xw ? gp_smi_xid_poll(xw, 0, &last_xid) : -1;
    gp_smi_xid_close(xw);
    gp_telemetry_stop(tm);
    size_t ns;
    const gp_telemetry_sample *samples = gp_telemetry_samples(tm, &ns);
    gp_telemetry_summarize(samples, ns, 0, 0, gp_telemetry_now(tm) + 1, &rec->telemetry);
    gp_telemetry_free(tm);
    rec->have_telemetry = 1;
    GP_TRY(ran);
    gp_smi_read_health(ctx.dev.vendor, ctx.dev.pci_bus_id, &rec->health);
    rec->health.xids = xids, rec->health.last_xid = last_xid;
    rec->have_health = 1;
    GP_TRY(gp_clock_measure(&ctx.dev, CLOCK_SPIN_MS, &rec->clock_after));
    rec->have_clock = 1;
    rec->clock_moved = gp_clock_moved(&rec->clock_before, &rec->clock_after, CLOCK_MOVE_TOLERANCE);
    if (rec->clock_moved)
        gp_record_note(rec, "flagged: the clock moved from %.0f to %.0f MHz during the probe (beyond %.0f%%)",
                       rec->clock_before.measured_mhz, rec->clock_after.measured_mhz,
                       100 * CLOCK_MOVE_TOLERANCE);
    if (rec->clock_before.timer_suspect)
        gp_record_note(rec, "constant-rate timer disagrees with event time (ratio %.3f): clock figures suspect",
                       rec->clock_before.timer_vs_event);
    if (ctx.guard.dropped || ctx.guard.kept_capped)
        gp_record_note(rec, "caps: %d timed batches ran under a power or thermal cap and were taken again once it "
                            "lifted; %d of the %d kept ran under one (every retry capped, or the probe's %.0f s "
                            "of waiting spent)",
                       ctx.guard.dropped, ctx.guard.kept_capped, ctx.guard.batches, cap_wait);
    if (rec->telemetry.capped > 0) {
        char why[192];
        gp_smi_reasons_text(rec->telemetry.reasons & GP_SMI_REASONS_CAP, why, sizeof why);
        gp_record_note(rec, "flagged: the GPU ran under a cap (%s) in %d of %d vendor readings during the probe",
                       why, rec->telemetry.capped, rec->telemetry.reasons_read);
    }
    char findings[256];
    if (gp_smi_health_flags(&rec->health, findings, sizeof findings))
        gp_record_note(rec, "flagged health: %s", findings);
    int others = gp_record_other_processes(rec);
    if (others > 0)
        gp_record_note(rec, "flagged: %d other process(es) used the GPU during the probe", others);
    else if (others < 0)
        gp_record_note(rec, "whether another process used the GPU: unknown (%s)",
                       rec->clock_before.smi.available ? "the vendor library gave no process list"
                                                       : "no vendor management library (NVML) reading");
    /* Check before writing, and write the outcome with the record: a failing
     * result is still on disk to look at, and a resumed characterization
     * knows it must run that probe again. */
    gp_status chk = p->check ? p->check(rec, &ctx.dev) : gp_ok();
    if (chk.code == GP_OK)
        snprintf(rec->check, sizeof rec->check, "ok");
    else
        snprintf(rec->check, sizeof rec->check, "failed: %s", chk.msg);
    if (opts->out_dir)
        GP_TRY(gp_record_write(rec, opts->out_dir));
    return chk;
}
