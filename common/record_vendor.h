/* The vendor library's part of a probe record (record.h): the telemetry
 * summary over the run and the health counters, in JSON and on the probe's
 * page.  `stress` writes the same two objects. */
#ifndef GP_RECORD_VENDOR_H
#define GP_RECORD_VENDOR_H

#include <stdio.h>

#include "doc.h"
#include "json_read.h"
#include "record.h"

/* The JSON objects (docs/formats.md, records 1.2). */
void gp_json_telemetry(FILE *f, const gp_telemetry_summary *t);
void gp_json_health(FILE *f, const gp_smi_health *h);

/* ",\n  \"telemetry\": {...},\n  \"health\": {...}" for what r has. */
void gp_record_vendor_json(FILE *f, const gp_record *r);
/* The inverse: fills r's telemetry and health from a record's JSON. */
void gp_record_vendor_read(const gp_json *j, gp_record *r);
/* Items of the probe page's clock list: the capped share and its reasons,
 * and the health findings. */
void gp_record_vendor_md(gp_doc *d, const gp_record *r);

#endif
