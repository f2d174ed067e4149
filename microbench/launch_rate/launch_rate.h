/* Launchers of launch_rate.hip. */
#ifndef GP_LAUNCH_RATE_H
#define GP_LAUNCH_RATE_H

#include "runtime.h"

gp_status gp_launch_rate_launch(gp_stream s, unsigned grid, int bx, int by, int bz);
gp_status gp_launch_rate_burst(gp_stream s, int count);

#endif
