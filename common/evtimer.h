/* Event timing of GPU work on a stream: the stream and the two events every
 * probe needs, and the start/stop pair around the work it times.  One place
 * for what each probe used to create, record, read and destroy by hand. */
#ifndef GP_EVTIMER_H
#define GP_EVTIMER_H

#include "runtime.h"

typedef struct gp_evtimer {
    gp_stream stream;    /* NULL: the default stream */
    gp_event start, stop;
    gp_hold *hold;       /* set by gp_evtimer_hold: each interval starts behind a hold */
    int hold_timeouts;   /* holds that let go by their timeout (the timer then stopped holding) */
} gp_evtimer;

/* Two events, and a new stream when own_stream is set (else the default
 * stream).  On failure nothing is left allocated. */
gp_status gp_evtimer_create(gp_evtimer *t, int own_stream);
/* Hold the stream before each start (runtime.h, gp_rt_hold_*), so each
 * interval is the work's GPU time without the host's launch calls: what a
 * kernel takes when the application keeps the GPU fed.  For work that does
 * not wait on the host.  If a hold lets go by its timeout, the timer stops
 * holding (hold_timeouts counts it) and that interval is kept: it starts
 * when the hold let go, so it holds the launches the host made after that.
 * Without a hold each interval on an idle GPU also holds the work's launch.
 * Between gp_evtimer_start and gp_evtimer_stop_ms the stream is held: a
 * caller whose work fails in between destroys the timer (which releases
 * it) or calls gp_evtimer_stop_ms. */
gp_status gp_evtimer_hold(gp_evtimer *t);
/* Stop holding (safe without a hold): a paired timing drops both sides'
 * holds when one times out, so its two sides are timed alike. */
void gp_evtimer_drop_hold(gp_evtimer *t);
/* Safe on a zeroed or partly created timer. */
void gp_evtimer_destroy(gp_evtimer *t);
/* Record the start event on the timer's stream; queue the work after it. */
gp_status gp_evtimer_start(gp_evtimer *t);
/* Record the stop event, wait for it, and give the milliseconds since start. */
gp_status gp_evtimer_stop_ms(gp_evtimer *t, double *ms);

#endif
