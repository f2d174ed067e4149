/* Entry points of every probe (one pair per <probe>.c). */
#ifndef GP_PROBES_H
#define GP_PROBES_H

#include "probe.h"

gp_status gp_launch_rate_run(gp_probe_ctx *ctx);
gp_status gp_launch_rate_check(const gp_record *rec, const gp_device_info *dev);

#endif
