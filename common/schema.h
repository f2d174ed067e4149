/* Versions of gpuprobe's file formats, "MAJOR.MINOR" (docs/formats.md).
 * A minor version adds members or lines an older reader may ignore; a major
 * version changes or drops one.  A reader takes every minor version of the
 * majors it knows and refuses a newer major by name, rather than reading a
 * changed field as the old one. */
#ifndef GP_SCHEMA_H
#define GP_SCHEMA_H

#include "gp_status.h"

/* Probe records (<probe>.json, "schema_version"); a record without the
 * member is 1.0. */
#define GP_RECORD_SCHEMA "1.2"
/* Tuning tables (a `schema_version = M.m` line before the first section);
 * a table without it is 1.0. */
#define GP_TABLE_SCHEMA "1.1"
/* `gpuprobe compare --json`. */
#define GP_COMPARE_SCHEMA "1.0"
/* `gpuprobe fleet --json` and fleet.json (1.0: "fleet_format": 1 alone). */
#define GP_FLEET_SCHEMA "1.3"

/* Parse "M.m" (digits, one dot, digits; each at most 6 digits): 1 and
 * *major, *minor, else 0. */
int gp_schema_parse(const char *version, int *major, int *minor);
/* GP_OK when `version` is readable by a reader of `supported`: the same or
 * an older major.  GP_ERR_USAGE naming `where` otherwise: "'v' is not a
 * version (MAJOR.MINOR)", or "schema_version 2.0 is newer than this gpuprobe
 * reads (1.x): written by a newer gpuprobe; read it with that version". */
gp_status gp_schema_check(const char *version, const char *supported, const char *where);

#endif
