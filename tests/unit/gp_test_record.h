/* Records in unit tests: the round trip a value's fields must survive. */
#ifndef GP_TEST_RECORD_H
#define GP_TEST_RECORD_H

#include <stdio.h>

#include "json_read.h"
#include "record.h"

/* Write r into dir, then read its JSON back into r (freed first), checked
 * as a record (gp_record_check_json).  The JSON's path goes to path.  1 on
 * success, 0 when a step failed. */
static inline int gp_test_record_round_trip(gp_record *r, const char *dir, char *path, size_t n)
{
    char probe[sizeof r->probe];
    snprintf(probe, sizeof probe, "%s", r->probe);
    if (gp_record_write(r, dir).code != GP_OK)
        return 0;
    gp_record_free(r);
    snprintf(path, n, "%s/%s.json", dir, probe);
    gp_json j;
    if (gp_json_read_file(path, &j).code != GP_OK)
        return 0;
    const char *why = NULL;
    int ok = gp_record_check_json(&j, path).code == GP_OK && gp_record_from_json(&j, r, NULL, &why);
    gp_json_free(&j);
    return ok;
}

#endif
