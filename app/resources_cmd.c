#include "resources_cmd.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "runtime.h"
#include "target_check.h"

#define GP_RSRC_MAX_DEVICES 64

static const char usage[] =
    "usage: gpuprobe resources [--out FILE] [--slots N]\n"
    "  write CTest's resource specification file (JSON) from the runtime's device list: one \"gpus\"\n"
    "  resource per GPU this binary runs on, id = the --device ordinal, N tests at once on each (default 1);\n"
    "  to stdout, or FILE; then: ctest --resource-spec-file FILE -j N\n"
    "  exit 0: written; 77: no usable GPU; 2: bad input\n";

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

int gp_resources_main(int argc, char **argv)
{
    const char *out = NULL;
    int slots = 1;
    gp_status st = gp_ok();
    for (int i = 2; i < argc && st.code == GP_OK; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--slots") && i + 1 < argc) {
            char *end = NULL;
            long v = strtol(argv[++i], &end, 10);
            if (!end || *end || end == argv[i] || v < 1 || v > 1000)
                st = gp_fail(GP_ERR_USAGE, "--slots: '%s' is not a count of tests per GPU (1 to 1000)", argv[i]);
            slots = (int)v;
        } else {
            st = gp_fail(GP_ERR_USAGE, "resources: unknown option or missing value '%s'", argv[i]);
        }
    }
    if (st.code != GP_OK) {
        fprintf(stderr, "gpuprobe: %s\n\n%s", st.msg, usage);
        return 2;
    }
    /* A bad --out is the user's mistake, whether or not there is a GPU. */
    if (out && (st = gp_fs_check_file_writable(out)).code != GP_OK) {
        fprintf(stderr, "gpuprobe: resources: --out: %s\n", st.msg);
        return 2;
    }
    gp_rsrc_device devs[GP_RSRC_MAX_DEVICES];
    int n = 0;
    st = list_devices(devs, &n);
    if (st.code == GP_OK && !out)
        st = gp_resources_write(stdout, devs, n, slots);
    else if (st.code == GP_OK) {
        FILE *f = NULL;
        st = gp_fs_open_atomic(out, &f);
        if (st.code == GP_OK) {
            st = gp_resources_write(f, devs, n, slots);
            if (st.code == GP_OK)
                st = gp_fs_commit(f, out);
            else
                gp_fs_abandon(f, out);
        }
        if (st.code == GP_OK)
            fprintf(stderr, "resources: %s written\n", out);
    }
    if (st.code != GP_OK)
        fprintf(stderr, "gpuprobe: resources: %s\n", st.msg);
    return gp_status_exit_code(&st);
}
