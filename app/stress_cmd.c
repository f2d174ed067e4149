#include "stress_cmd.h"

#include <stdio.h>

#include "fsutil.h"
#include "stress.h"

gp_status gp_cmd_stress(gp_cli *cli)
{
    int devices[GP_STRESS_MAX_GPUS], n = 0, count = 0;
    /* A bad --out fails now, not after minutes of load. */
    GP_TRY(gp_fs_check_writable(cli->out_dir));
    GP_TRY(gp_rt_device_count(&count));
    if (cli->device_mode == GP_DEVICE_ALL) {
        for (int d = 0; d < count && n < GP_STRESS_MAX_GPUS; d++)
            devices[n++] = d;
    } else {
        devices[n++] = cli->device;
    }
    if (n == 0)
        return gp_fail(GP_ERR_NO_GPU, "stress: no GPU");
    gp_stress_opts o = {devices, n, cli->stress_seconds > 0 ? cli->stress_seconds : GP_STRESS_DEFAULT_SECONDS,
                        cli->max_loss > 0 ? cli->max_loss : GP_STRESS_DEFAULT_MAX_LOSS, 0, 1};
    if (cli->quick)
        o.seconds = cli->stress_seconds > 0 ? cli->stress_seconds : 3;
    static gp_stress s; /* large (its GPUs' records): not on the stack */
    gp_status st = gp_stress_run(&o, &s);
    if (st.code == GP_OK)
        st = gp_stress_write(&s, cli->out_dir);
    int flagged = 0;
    for (int g = 0; g < s.ngpus && st.code == GP_OK; g++) {
        char why[512];
        const gp_stress_gpu *G = &s.gpus[g];
        const int k = gp_stress_flagged(&s, g, why, sizeof why);
        flagged += k > 0;
        printf("GPU %d (%s): FMA %.4g TFLOP/s alone", G->dev.index, G->dev.pci_bus_id, G->alone[0].median);
        if (s.ngpus > 1)
            printf(", %.4g together (%.3f)", G->together[0].median, G->ratio[0]);
        printf("; DRAM %.4g GB/s alone", G->alone[1].median);
        if (s.ngpus > 1)
            printf(", %.4g together (%.3f)", G->together[1].median, G->ratio[1]);
        printf("; %s%s\n", k ? "flagged: " : "ok", k ? why : "");
    }
    gp_stress_free(&s);
    GP_TRY(st);
    printf("stress: %s/stress.md\n", cli->out_dir);
    if (flagged)
        return gp_fail(GP_ERR_CHECK, "stress: %d GPU(s) flagged", flagged);
    return gp_ok();
}
