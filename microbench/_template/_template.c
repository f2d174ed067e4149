/* _template: the time of one launch of an empty kernel, from bursts of
 * back-to-back launches timed with events (median of the bursts). */
#include <math.h>

#include "evtimer.h"
#include "_template.h"
#include "_template_analysis.h"
#include "probe.h"

#define BURST 100
#define REPEATS 9

static gp_status gp__template_run(gp_probe_ctx *ctx)
{
    gp_evtimer tm;
    double ms[REPEATS];
    GP_TRY(gp_evtimer_create(&tm, 1));
    gp_status st = gp_ok();
    for (int i = 0; i < REPEATS && st.code == GP_OK; i++) {
        st = gp_evtimer_start(&tm);
        if (st.code == GP_OK)
            st = gp__template_launch(tm.stream, BURST);
        if (st.code == GP_OK)
            st = gp_evtimer_stop_ms(&tm, &ms[i]);
    }
    gp_evtimer_destroy(&tm);
    GP_TRY(st);
    double us = gp__template_us_per_launch(ms, REPEATS, BURST);
    if (isfinite(us))
        gp_record_value(ctx->rec, "_template_launch_us", us, "us", -1,
                        "median of 9 event-timed bursts of 100 back-to-back empty launches, / 100");
    else
        gp_record_none(ctx->rec, "_template_launch_us", "us", "the bursts gave no finite time");
    return gp_ok();
}

static gp_status gp__template_check(const gp_record *rec, const gp_device_info *dev)
{
    (void)dev;
    const gp_value *v = gp_record_find(rec, "_template_launch_us");
    if (!v || !(v->value > 0))
        return gp_fail(GP_ERR_CHECK, "_template: no positive launch time");
    return gp_ok();
}

/* What the probe feeds downstream, beside it (microbench/probe.h): the
 * table rows it sets (record value -> section.key, each key declared in
 * _template_facts.inc), how the report plots its series, its rows of the
 * report's datasheet.  This one feeds no table row and records no series. */
static const gp_probe_headline gp__template_datasheet[] = {
    {790, "Launch and registers", "empty launch (template)", "_template_launch_us", NULL, NULL, GP_DS_US, NULL, NULL,
     NULL, NULL, NULL, 0, 0},
};

const gp_probe gp_probe__template = {
    .name = "_template",
    .summary = "time of one empty-kernel launch (template probe)",
    .run = gp__template_run,
    .check = gp__template_check,
    .datasheet = gp__template_datasheet,
    .ndatasheet = GP_COUNT(gp__template_datasheet),
    .order = 0, /* runs among the others, by name */
};
