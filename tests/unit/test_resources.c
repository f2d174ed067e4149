/* CTest's resource spec from a device list (app/resources_cmd.h), on fake
 * lists: the JSON read back with the project's strict reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "json_read.h"
#include "resources_cmd.h"

/* The spec for devs as text, parsed; 0 on success. */
static int spec_of(const gp_rsrc_device *devs, int n, int slots, gp_json *j, gp_status *st)
{
    FILE *f = tmpfile();
    if (!f)
        return 1;
    *st = gp_resources_write(f, devs, n, slots);
    long len = ftell(f);
    char *buf = malloc((size_t)len + 1);
    rewind(f);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    int rc = 0;
    if (st->code == GP_OK)
        rc = gp_json_parse(buf, (size_t)len, "spec", j).code != GP_OK;
    else
        rc = len != 0; /* nothing written on failure */
    free(buf);
    return rc;
}

GP_TEST(resources_spec_lists_usable_gpus)
{
    /* Four devices; the third is one this binary cannot run on. */
    gp_rsrc_device devs[4] = {{0, 1, ""}, {1, 1, ""}, {2, 0, "no code for gfx1100"}, {3, 1, ""}};
    gp_json j;
    gp_status st;
    GP_CHECK(spec_of(devs, 4, 2, &j, &st) == 0);
    GP_CHECK(st.code == GP_OK);
    const gp_json *ver = gp_json_get(&j, "version");
    GP_CHECK(ver && gp_json_num_of(ver, "major", -1) == 1 && gp_json_num_of(ver, "minor", -1) == 0);
    const gp_json *local = gp_json_get(&j, "local");
    GP_CHECK(local && local->type == GP_JSON_ARR && local->nkids == 1);
    const gp_json *gpus = gp_json_get(&local->kids[0], "gpus");
    GP_CHECK(gpus && gpus->type == GP_JSON_ARR && gpus->nkids == 3);
    static const char *const ids[] = {"0", "1", "3"};
    for (size_t i = 0; i < 3; i++) {
        /* CTest wants the id a string and slots a number */
        const gp_json *id = gp_json_get(&gpus->kids[i], "id");
        GP_CHECK(id && id->type == GP_JSON_STR && !strcmp(id->str, ids[i]));
        const gp_json *slots = gp_json_get(&gpus->kids[i], "slots");
        GP_CHECK(slots && slots->type == GP_JSON_NUM && slots->num == 2);
    }
    gp_json_free(&j);
    return 0;
}

GP_TEST(resources_spec_one_gpu)
{
    gp_rsrc_device one = {0, 1, ""};
    gp_json j;
    gp_status st;
    GP_CHECK(spec_of(&one, 1, 1, &j, &st) == 0 && st.code == GP_OK);
    const gp_json *gpus = gp_json_get(&gp_json_get(&j, "local")->kids[0], "gpus");
    GP_CHECK(gpus->nkids == 1 && !strcmp(gp_json_get(&gpus->kids[0], "id")->str, "0"));
    gp_json_free(&j);
    return 0;
}

GP_TEST(resources_spec_refuses_no_gpu_and_bad_slots)
{
    gp_json j;
    gp_status st;
    /* No device, or none usable: no spec (exit 77), and nothing written. */
    GP_CHECK(spec_of(NULL, 0, 1, &j, &st) == 0 && st.code == GP_ERR_NO_GPU);
    gp_rsrc_device none[2] = {{0, 0, "old"}, {1, 0, "old"}};
    GP_CHECK(spec_of(none, 2, 1, &j, &st) == 0 && st.code == GP_ERR_NO_GPU);
    GP_CHECK(strstr(st.msg, "2 device(s)"));
    gp_rsrc_device one = {0, 1, ""};
    GP_CHECK(spec_of(&one, 1, 0, &j, &st) == 0 && st.code == GP_ERR_USAGE);
    GP_CHECK(strstr(st.msg, "--slots"));
    return 0;
}
