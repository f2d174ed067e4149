#include "fleet_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

static const char usage[] =
    "usage: gpuprobe fleet DIR... [--threshold T] [--out DIR] [--json]\n"
    "  compare the results folders of many GPUs (one folder per GPU, any number of nodes), per device\n"
    "  model: per characteristic the median, the MAD and the GPUs outside the threshold; flags a GPU\n"
    "  whose measured clock or DRAM bandwidth is low\n"
    "  --threshold T  robust z (3.5 or 3.5z, the default 3.5) or percent from the model's median (5%)\n"
    "  --out DIR      write fleet.md, fleet.html (strip plots) and fleet.json there; without it the\n"
    "                 Markdown goes to stdout\n"
    "  --json         the JSON of fleet.json (docs/formats.md) to stdout instead, the summary to stderr\n"
    "  exit 0: no outlier; 1: an outlier; 2: bad input (a missing folder or record, a corrupt record)\n";

gp_status gp_fleet_parse(int argc, char **argv, gp_fleet_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threshold.rule = GP_FLEET_RULE_Z;
    o->threshold.limit = GP_FLEET_DEFAULT_Z;
    o->dirs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *o->dirs);
    if (!o->dirs)
        return gp_fail(GP_ERR_NOMEM, "out of host memory");
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--threshold") || !strcmp(a, "--out")) {
            if (i + 1 >= argc)
                return gp_fail(GP_ERR_USAGE, "%s needs a value", a);
            if (!strcmp(a, "--out"))
                o->out = argv[++i];
            else
                GP_TRY(gp_fleet_threshold_parse(argv[++i], &o->threshold));
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            return gp_fail(GP_ERR_USAGE, "help");
        } else if (a[0] == '-' && a[1]) {
            return gp_fail(GP_ERR_USAGE, "fleet: unknown option '%s'", a);
        } else {
            o->dirs[o->ndirs++] = a;
        }
    }
    if (o->ndirs < 1)
        return gp_fail(GP_ERR_USAGE, "fleet needs at least one results folder");
    return gp_ok();
}

/* One line per outlier on stdout, whatever else is written: what a batch
 * job's log shows. */
static void print_summary(FILE *f, const gp_fleet *fl)
{
    fprintf(f, "fleet: %d GPUs, %d model(s); %d value(s) outside on %d GPU(s); %d low clock or DRAM bandwidth; "
           "%d warned\n",
           fl->ngpus, fl->nmodels, fl->noutliers, fl->ngpus_out, fl->nhealth, fl->nwarned);
    for (int m = 0; m < fl->nmodels; m++)
        fprintf(f, "  model %s (%s): %d GPU(s)%s\n", fl->models[m].name, fl->models[m].arch, fl->models[m].ngpus,
               fl->models[m].ngpus < GP_FLEET_MIN_GROUP ? ", too few to judge" : "");
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

int gp_fleet_main(int argc, char **argv)
{
    gp_fleet_opts o;
    gp_status st = gp_fleet_parse(argc, argv, &o);
    if (st.code != GP_OK) {
        int help = !strcmp(st.msg, "help");
        free(o.dirs);
        if (!help)
            fprintf(stderr, "gpuprobe: %s\n\n", st.msg);
        fputs(usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    gp_fleet fl;
    st = gp_fleet_build(o.dirs, o.ndirs, &o.threshold, &fl);
    free(o.dirs);
    if (st.code != GP_OK) {
        fprintf(stderr, "gpuprobe: fleet: %s\n", st.msg);
        return 2;
    }
    if (o.out) {
        st = gp_fleet_write_dir(&fl, o.out);
        if (st.code == GP_OK)
            fprintf(stderr, "fleet: %s/fleet.md, fleet.html and fleet.json written\n", o.out);
    }
    if (st.code != GP_OK) { /* no output of a fleet whose files could not be written */
        gp_fleet_free(&fl);
        fprintf(stderr, "gpuprobe: fleet: %s\n", st.msg);
        return 2;
    }
    if (o.json) {
        gp_fleet_write_json(stdout, &fl);
    } else if (!o.out) {
        gp_fleet_write_md(stdout, &fl);
        fputc('\n', stdout);
    }
    print_summary(o.json ? stderr : stdout, &fl);
    int rc = fl.noutliers ? 1 : 0;
    gp_fleet_free(&fl);
    return rc;
}
