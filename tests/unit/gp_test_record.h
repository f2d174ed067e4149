/* Records in unit tests: the round trip a value's fields must survive, and
 * folders of records copied. */
#ifndef GP_TEST_RECORD_H
#define GP_TEST_RECORD_H

#include <stdio.h>
#include <string.h>

#include "fsutil.h"
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

/* The probe records (*.json) of folder `from` copied into `to` (made), all
 * but the one named `skip` (NULL: none).  1 on success. */
static inline int gp_test_copy_records(const char *from, const char *to, const char *skip)
{
    if (gp_fs_mkdirs(to).code != GP_OK)
        return 0;
    char **names = NULL;
    size_t n = 0;
    if (gp_fs_list_sorted(from, ".json", "records", &names, &n).code != GP_OK)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        if (skip && !strcmp(names[i], skip))
            continue;
        char a[1200], b[1200], buf[4096];
        snprintf(a, sizeof a, "%s/%s", from, names[i]);
        snprintf(b, sizeof b, "%s/%s", to, names[i]);
        FILE *in = fopen(a, "rb"), *out = fopen(b, "wb");
        size_t k;
        while (in && out && (k = fread(buf, 1, sizeof buf, in)) > 0)
            ok &= fwrite(buf, 1, k, out) == k;
        ok &= in && out;
        if (in)
            fclose(in);
        if (out)
            ok &= fclose(out) == 0;
    }
    gp_fs_names_free(names, n);
    return ok;
}

#endif
