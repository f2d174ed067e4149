/* Writing JSON: strings escaped (RFC 8259), numbers that read back as the
 * same double, null for what JSON cannot hold (NaN, infinity).  The outputs
 * other tools consume (compare --json, fleet --json) go through it. */
#ifndef GP_JSON_WRITE_H
#define GP_JSON_WRITE_H

#include <stdio.h>

/* s (may be NULL: "") as a JSON string. */
void gp_json_write_str(FILE *f, const char *s);
/* v in the fewest digits (15..17) that read back as the same double, or
 * null when not finite. */
void gp_json_write_num(FILE *f, double v);
/* true / false. */
void gp_json_write_bool(FILE *f, int b);

#endif
