/* Launchers of PROBE.hip (implemented there, and as stubs in none.c). */
#ifndef GP_PROBE_PROBE_H
#define GP_PROBE_PROBE_H

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `count` back-to-back launches of a one-thread empty kernel on stream s. */
gp_status gp_PROBE_launch(gp_stream s, int count);

#ifdef __cplusplus
}
#endif
#endif
