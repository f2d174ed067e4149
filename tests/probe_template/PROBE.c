/* PROBE: the time of one launch of an empty kernel, from bursts of
 * back-to-back launches timed with events (median of the bursts). */
#include <math.h>

#include "evtimer.h"
#include "PROBE.h"
#include "PROBE_analysis.h"
#include "probe.h"

#define BURST 100
#define REPEATS 9

static gp_status PROBE_run(gp_probe_ctx *ctx)
{
    gp_evtimer tm;
    double ms[REPEATS];
    GP_TRY(gp_evtimer_create(&tm, 1));
    gp_status st = gp_ok();
    for (int i = 0; i < REPEATS && st.code == GP_OK; i++) {
        st = gp_evtimer_start(&tm);
        if (st.code == GP_OK)
            st = gp_PROBE_launch(tm.stream, BURST);
        if (st.code == GP_OK)
            st = gp_evtimer_stop_ms(&tm, &ms[i]);
    }
    gp_evtimer_destroy(&tm);
    GP_TRY(st);
    double us = gp_PROBE_us_per_launch(ms, REPEATS, BURST);
    if (isfinite(us))
        gp_record_value(ctx->rec, "PROBE_launch_us", us, "us", -1,
                        "median of 9 event-timed bursts of 100 back-to-back empty launches, / 100");
    else
        gp_record_none(ctx->rec, "PROBE_launch_us", "us", "the bursts gave no finite time");
    return gp_ok();
}

static gp_status PROBE_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    const gp_value *v = gp_record_find(rec, "PROBE_launch_us");
    if (!v || !(v->value > 0))
        return gp_fail(GP_ERR_CHECK, "PROBE: no positive launch time");
    return gp_ok();
}

const gp_probe gp_probe_PROBE = {
    "PROBE",
    "time of one empty-kernel launch (template probe)",
    PROBE_run,
    PROBE_check,
};
