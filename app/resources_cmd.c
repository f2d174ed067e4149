#include "resources_cmd.h"

#include <string.h>

#include "fsutil.h"
#include "runtime.h"
#include "target_check.h"

#define GP_RSRC_MAX_DEVICES 64

gp_status gp_resources_write(FILE *f, const gp_rsrc_device *devs, int n, int slots)
{
    if (slots < 1)
        return gp_fail(GP_ERR_USAGE, "--slots: %d; a GPU takes at least 1 test at a time", slots);
    int usable = 0;
    for (int i = 0; i < n; i++)
        usable += devs[i].usable != 0;
    if (!usable)
        return gp_fail(GP_ERR_NO_GPU, "no usable GPU for the resource spec (%d device(s) listed)", n);
    fputs("{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [\n    {\n      \"gpus\": [\n", f);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (devs[i].usable)
            fprintf(f, "        {\"id\": \"%d\", \"slots\": %d}%s\n", devs[i].ordinal, slots, ++k < usable ? "," : "");
    fputs("      ]\n    }\n  ]\n}\n", f);
    return gp_ok();
}

static gp_status list_devices(gp_rsrc_device *devs, int *n)
{
    int count = 0;
    GP_TRY(gp_rt_device_count(&count));
    *n = 0;
    for (int i = 0; i < count && i < GP_RSRC_MAX_DEVICES; i++) {
        gp_device_info info;
        gp_status st = gp_device_open_checked(i, &info);
        devs[*n].ordinal = i;
        devs[*n].usable = st.code == GP_OK;
        snprintf(devs[*n].why, sizeof devs[*n].why, "%s", st.msg);
        if (st.code != GP_OK)
            fprintf(stderr, "resources: device %d left out: %s\n", i, st.msg);
        (*n)++;
    }
    return gp_ok();
}

/* The spec into FILE, atomically. */
static gp_status write_file(const char *out, const gp_rsrc_device *devs, int n, int slots)
{
    FILE *f = NULL;
    GP_TRY(gp_fs_open_atomic(out, &f));
    gp_status st = gp_resources_write(f, devs, n, slots);
    if (st.code != GP_OK) {
        gp_fs_abandon(f, out);
        return st;
    }
    GP_TRY(gp_fs_commit(f, out));
    fprintf(stderr, "resources: %s written\n", out);
    return gp_ok();
}

gp_status gp_cmd_resources(gp_cli *cli)
{
    const char *out = cli->out_file;
    /* A bad --out is the user's mistake, whether or not there is a GPU. */
    gp_status st = out ? gp_fs_check_file_writable(out) : gp_ok();
    if (st.code != GP_OK)
        return gp_fail(GP_ERR_USAGE, "resources: --out: %s", st.msg);
    gp_rsrc_device devs[GP_RSRC_MAX_DEVICES];
    int n = 0;
    st = list_devices(devs, &n);
    if (st.code == GP_OK)
        st = out ? write_file(out, devs, n, cli->slots) : gp_resources_write(stdout, devs, n, cli->slots);
    return st.code == GP_OK ? st : gp_fail(st.code, "resources: %s", st.msg);
}
