/* Launchers of _template.hip (implemented there, and as stubs in none.c). */
#ifndef GP__TEMPLATE_H
#define GP__TEMPLATE_H

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `count` back-to-back launches of a one-thread empty kernel on stream s. */
gp_status gp__template_launch(gp_stream s, int count);

#ifdef __cplusplus
}
#endif
#endif
