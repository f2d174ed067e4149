#include "evtimer.h"

#include <string.h>

gp_status gp_evtimer_create(gp_evtimer *t, int own_stream)
{
    memset(t, 0, sizeof *t);
    gp_status st = own_stream ? gp_rt_stream_create(&t->stream) : gp_ok();
    if (st.code == GP_OK)
        st = gp_rt_event_create(&t->start);
    if (st.code == GP_OK)
        st = gp_rt_event_create(&t->stop);
    if (st.code != GP_OK)
        gp_evtimer_destroy(t);
    return st;
}

gp_status gp_evtimer_hold(gp_evtimer *t)
{
    return t->hold ? gp_ok() : gp_rt_hold_create(&t->hold);
}

void gp_evtimer_destroy(gp_evtimer *t)
{
    gp_rt_hold_destroy(t->hold);
    gp_rt_event_destroy(t->start);
    gp_rt_event_destroy(t->stop);
    gp_rt_stream_destroy(t->stream);
    memset(t, 0, sizeof *t);
}

gp_status gp_evtimer_start(gp_evtimer *t)
{
    if (t->hold)
        GP_TRY(gp_rt_hold_begin(t->hold, t->stream));
    gp_status st = gp_rt_event_record(t->start, t->stream);
    if (st.code != GP_OK)
        gp_rt_hold_release(t->hold); /* nothing is timed: let the stream go */
    return st;
}

void gp_evtimer_drop_hold(gp_evtimer *t)
{
    gp_rt_hold_destroy(t->hold);
    t->hold = NULL;
}

gp_status gp_evtimer_stop_ms(gp_evtimer *t, double *ms)
{
    float f;
    gp_status st = gp_rt_event_record(t->stop, t->stream);
    gp_rt_hold_release(t->hold); /* also when the record failed: nothing may stay held */
    GP_TRY(st);
    GP_TRY(gp_rt_event_elapsed_ms(t->start, t->stop, &f));
    if (t->hold && gp_rt_hold_timed_out(t->hold)) {
        gp_evtimer_drop_hold(t);
        t->hold_timeouts++;
    }
    *ms = f;
    return gp_ok();
}
