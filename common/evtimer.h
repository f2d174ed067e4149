/* Event timing of GPU work on a stream: the stream and the two events every
 * probe needs, and the start/stop pair around the work it times.  One place
 * for what each probe used to create, record, read and destroy by hand. */
#ifndef GP_EVTIMER_H
#define GP_EVTIMER_H

#include "runtime.h"

typedef struct gp_evtimer {
    gp_stream stream;    /* NULL: the default stream */
    gp_event start, stop;
} gp_evtimer;

/* Two events, and a new stream when own_stream is set (else the default
 * stream).  On failure nothing is left allocated. */
gp_status gp_evtimer_create(gp_evtimer *t, int own_stream);
/* Safe on a zeroed or partly created timer. */
void gp_evtimer_destroy(gp_evtimer *t);
/* Record the start event on the timer's stream; queue the work after it. */
gp_status gp_evtimer_start(const gp_evtimer *t);
/* Record the stop event, wait for it, and give the milliseconds since start. */
gp_status gp_evtimer_stop_ms(const gp_evtimer *t, double *ms);

#endif
