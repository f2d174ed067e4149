#include "fleet_cmd.h"

#include <stdio.h>
#include <string.h>

#include "datasheet.h"
#include "fleet.h"
#include "fsutil.h"

/* One line per outlier on stdout, whatever else is written: what a batch
 * job's log shows. */
static void print_summary(FILE *f, const gp_fleet *fl)
{
    fprintf(f, "fleet: %d GPUs, %d model(s); %d value(s) outside on %d GPU(s); %d low clock or DRAM bandwidth; "
           "%d warned\n",
           fl->ngpus, fl->nmodels, fl->noutliers, fl->ngpus_out, fl->nhealth, fl->nwarned);
    for (int m = 0; m < fl->nmodels; m++)
        fprintf(f, "  model %s (%s): %d GPU(s)%s\n", fl->models[m].name, fl->models[m].arch, fl->models[m].ngpus,
               fl->models[m].ngpus < GP_FLEET_MIN_GROUP ? ", too few to judge against each other" : "");
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_datasheet *ds = fl->gpus[g].ds;
        if (!ds)
            continue;
        fprintf(f, "  %s against the %s (specs/%s):", fl->gpus[g].label, ds->spec_name, ds->spec_file);
        for (int i = 0; i < ds->nrows; i++)
            if (ds->rows[i].verdict && ds->rows[i].fraction == ds->rows[i].fraction)
                fprintf(f, " %s %.3f %s;", ds->rows[i].spec_key, ds->rows[i].fraction, ds->rows[i].verdict);
        fprintf(f, "%s\n", fl->gpus[g].vendor_health_low ? " [health: below the product's band]" : "");
    }
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        for (int g = 0; g < fl->ngpus; g++)
            if (c->verdict[g] == GP_FLEET_LOW || c->verdict[g] == GP_FLEET_HIGH)
                fprintf(f, "  outlier: %s %s.%s = %.6g %s (%s; model median %.6g, robust z %.3g, %+.2f %%)%s\n",
                       fl->gpus[g].label, c->probe, c->key, c->x[g], c->unit,
                       c->verdict[g] == GP_FLEET_LOW ? "low" : "high", c->center.median, c->z[g], 100 * c->dev[g],
                       c->health && c->verdict[g] == GP_FLEET_LOW ? " [health]" : "");
    }
}

static void write_prometheus(FILE *f, const void *fl) { gp_fleet_write_prometheus(f, fl); }

/* The fleet's files into --out, else its Markdown (or with --json its JSON)
 * to stdout; the summary lines on stdout, or stderr under --json. */
static gp_status write_fleet(const gp_cli *cli, const gp_fleet *fl)
{
    if (cli->prometheus) { /* first: a file that cannot be written leaves no other output */
        GP_TRY(gp_fs_write_file(cli->prometheus, "--prometheus", write_prometheus, fl));
        fprintf(stderr, "fleet: %s written (Prometheus text format)\n", cli->prometheus);
    }
    if (cli->out_given) {
        GP_TRY(gp_fleet_write_dir(fl, cli->out_dir));
        fprintf(stderr, "fleet: %s/fleet.md, fleet.html and fleet.json written\n", cli->out_dir);
    }
    if (cli->json) {
        gp_fleet_write_json(stdout, fl);
    } else if (!cli->out_given) {
        gp_fleet_write_md(stdout, fl);
        fputc('\n', stdout);
    }
    print_summary(cli->json ? stderr : stdout, fl);
    return gp_ok();
}

gp_status gp_cmd_fleet(gp_cli *cli)
{
    gp_fleet fl;
    gp_status st = gp_fleet_build(cli->dirs, cli->ndirs, &cli->threshold, &fl);
    if (st.code != GP_OK) /* bad input, whatever failed: exit 2 */
        return gp_fail(GP_ERR_USAGE, "fleet: %s", st.msg);
    st = gp_fleet_judge_specs(&fl, cli->tables_found);
    if (st.code != GP_OK) {
        gp_fleet_free(&fl);
        return gp_fail(GP_ERR_USAGE, "fleet: %s", st.msg);
    }
    st = write_fleet(cli, &fl); /* no output of a fleet whose files could not be written */
    int outliers = fl.noutliers, gpus = fl.ngpus_out, below = fl.nvendor_health, counters = fl.ncounters_flagged;
    gp_fleet_free(&fl);
    if (st.code != GP_OK)
        return gp_fail(GP_ERR_USAGE, "fleet: %s", st.msg);
    if (outliers)
        return gp_fail(GP_ERR_CHECK, "fleet: %d value(s) outside the threshold on %d GPU(s)", outliers, gpus);
    if (counters)
        return gp_fail(GP_ERR_CHECK, "fleet: %d GPU(s) with a finding in their health counters", counters);
    if (below)
        return gp_fail(GP_ERR_CHECK, "fleet: %d GPU(s) with a clock or DRAM bandwidth below the product's band", below);
    return gp_ok();
}
