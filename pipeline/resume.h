/* Resuming a characterization: which probe records in a results directory
 * can stand for this run, and which probes must run (again).
 *
 * A record is reused only when all of these hold:
 *   - <dir>/<probe>.json exists, parses, and names this probe;
 *   - it was measured on this device: same device name, PCI bus id, UUID and arch;
 *   - it was written by this gpuprobe version, in the same mode (--quick or
 *     not: a quick sweep does not stand for a full one, nor the reverse);
 *   - the probe's check passed ("check": "ok"; a failed or missing check runs
 *     the probe again);
 *   - every series file the record names exists with the rows it says.
 * Records are written atomically and the JSON last (record.c), so an
 * interrupted run leaves complete earlier records and at most stray *.tmp
 * files, which are named and ignored. */
#ifndef GP_RESUME_H
#define GP_RESUME_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "runtime.h"

/* 1 when <dir>/<probe>.json may be reused on `dev` by gpuprobe `version`
 * running with --quick (quick = 1) or without;
 * 0 with the reason in why (size n, may be NULL): "no record", "record does
 * not parse: ...", "measured on ...", "written by gpuprobe ...", ... */
int gp_resume_reusable(const char *dir, const char *probe, const gp_device_info *dev, const char *version,
                       int quick, char *why, size_t n);

/* Decide for each of the n probes whether to run it: reuse[i] = 1 for a
 * reusable record (never when force).  Prints to log (may be NULL) one line
 * per reused record ("[p] reused: ..."), one per probe to run with its reason
 * ("[p] to run: no record"), a summary naming the missing or stale ones, and
 * the stray temporary files an interrupted write left; a folder with no
 * record at all gets one line.  Returns the number reused. */
int gp_resume_plan(const char *dir, const char *const *probes, int n, const gp_device_info *dev,
                   const char *version, int quick, int force, int *reuse, FILE *log);

#endif
