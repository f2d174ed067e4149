#define _POSIX_C_SOURCE 200809L
/* Loading a fleet's results folders and judging each characteristic per
 * device model (fleet.h). */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "probe.h"
#include "stats.h"

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

/* The median of the in-kernel measured clock over the records. */
static double median_clock(const gp_cmp_run *run)
{
    double *c = malloc(2 * (size_t)run->nrecs * sizeof *c + 1);
    int n = 0;
    for (int i = 0; c && i < run->nrecs; i++) {
        const gp_record *r = &run->recs[i];
        if (!r->have_clock)
            continue;
        if (isfinite(r->clock_before.measured_mhz) && r->clock_before.measured_mhz > 0)
            c[n++] = r->clock_before.measured_mhz;
        if (isfinite(r->clock_after.measured_mhz) && r->clock_after.measured_mhz > 0)
            c[n++] = r->clock_after.measured_mhz;
    }
    double m = n > 0 ? gp_stats_median(c, (size_t)n) : NAN;
    free(c);
    return m;
}

/* The PCIe link interconnect read right after its largest copies, below
 * what the GPU and the slot support together: a downtrained link (a bad
 * riser, slot or switch port) is a health finding whatever the speed. */
static void link_finding(gp_fleet_gpu *g)
{
    for (int i = 0; i < g->run.nrecs; i++) {
        const gp_record *r = &g->run.recs[i];
        if (strcmp(r->probe, "interconnect"))
            continue;
        const gp_value *gen = gp_record_find(r, "pcie_gen"), *width = gp_record_find(r, "pcie_width");
        const gp_value *mgen = gp_record_find(r, "pcie_max_gen"), *mwidth = gp_record_find(r, "pcie_max_width");
        if (!gen || !width || !mgen || !mwidth || !gen->detected || !width->detected || !mgen->detected ||
            !mwidth->detected || (gen->value >= mgen->value && width->value >= mwidth->value))
            return;
        gp_smi_add_finding(g->health_text, sizeof g->health_text, &g->health_findings,
                           "PCIe link Gen%.0f x%.0f after copies, below its Gen%.0f x%.0f", gen->value, width->value,
                           mgen->value, mwidth->value);
        return;
    }
}

/* One folder: one GPU.  The records reader refuses a folder that mixes
 * devices: the fleet could not say which GPU a value belongs to. */
static gp_status load_gpu(const char *dir, gp_fleet_gpu *g)
{
    memset(g, 0, sizeof *g);
    GP_TRY(gp_cmp_load_dir(dir, &g->run));
    const gp_record *first = &g->run.recs[0];
    gp_fs_base_name(g->label, sizeof g->label, dir);
    copy_str(g->name, sizeof g->name, first->dev.name);
    copy_str(g->arch, sizeof g->arch, first->dev.arch);
    copy_str(g->pci_bus_id, sizeof g->pci_bus_id, first->dev.pci_bus_id);
    for (int i = 0; i < g->run.nrecs; i++)
        g->quick |= g->run.recs[i].quick;
    g->clock_mhz = median_clock(&g->run);
    /* The newest record's counters: a remap that became pending since an
     * older one counts.  XIDs: the sum over the records. */
    int newest = -1;
    for (int i = 0; i < g->run.nrecs; i++) {
        const gp_record *r = &g->run.recs[i];
        g->capped_probes += r->have_telemetry && r->telemetry.capped > 0;
        if (r->have_health && r->health.available && (newest < 0 || strcmp(r->date, g->run.recs[newest].date) >= 0))
            newest = i;
    }
    if (newest >= 0) {
        g->have_health = 1;
        g->health = g->run.recs[newest].health;
        /* XIDs are events of a run, not counters: every probe's count adds up. */
        g->health.xids = -1;
        for (int i = 0; i < g->run.nrecs; i++) {
            const gp_smi_health *h = &g->run.recs[i].health;
            if (!g->run.recs[i].have_health || h->xids < 0)
                continue;
            g->health.xids = (g->health.xids > 0 ? g->health.xids : 0) + h->xids;
            if (h->xids > 0)
                g->health.last_xid = h->last_xid;
        }
        g->health_findings = gp_smi_health_flags(&g->health, g->health_text, sizeof g->health_text);
    }
    link_finding(g);
    return gp_ok();
}

/* A folder named twice (`fleet A A`, or A and a link to it) would count one
 * GPU as two and pull the model's median towards it. */
static gp_status check_distinct(const char *const *dirs, int ndirs)
{
    struct stat *st = calloc((size_t)ndirs, sizeof *st);
    if (!st)
        return gp_fail(GP_ERR_NOMEM, "out of host memory for %d results folders", ndirs);
    gp_status res = gp_ok();
    for (int i = 0; i < ndirs && res.code == GP_OK; i++) {
        if (stat(dirs[i], &st[i]) != 0)
            continue; /* the loader names a missing folder */
        for (int k = 0; k < i && res.code == GP_OK; k++)
            if (st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino && st[i].st_ino)
                res = gp_fail(GP_ERR_USAGE, "results folder '%s' is given twice (also as '%s'): each GPU's folder "
                                            "once",
                              dirs[i], dirs[k]);
    }
    free(st);
    return res;
}

static const gp_record *find_probe(const gp_cmp_run *run, const char *probe)
{
    for (int i = 0; i < run->nrecs; i++)
        if (!strcmp(run->recs[i].probe, probe))
            return &run->recs[i];
    return NULL;
}

/* A probe some folder recorded and another lacks: the fleet would compare
 * GPUs on different evidence, so it is bad input, named. */
static gp_status check_same_probes(const gp_fleet *fl)
{
    for (int g = 0; g < fl->ngpus; g++)
        for (int i = 0; i < fl->gpus[g].run.nrecs; i++) {
            const char *probe = fl->gpus[g].run.recs[i].probe;
            for (int h = 0; h < fl->ngpus; h++)
                if (!find_probe(&fl->gpus[h].run, probe))
                    return gp_fail(GP_ERR_USAGE,
                                   "results folder '%s' has no record of probe '%s' (missing %s.json; '%s' has "
                                   "one): run the probe there, or leave the folder out",
                                   fl->gpus[h].run.dir, probe, probe, fl->gpus[g].run.dir);
        }
    return gp_ok();
}

int gp_fleet_bw_source(const char **probe, const char **key)
{
    for (size_t i = 0; gp_probe_at(i); i++)
        for (size_t k = 0; k < gp_probe_at(i)->ntable_rows; k++) {
            const gp_probe_row *r = &gp_probe_at(i)->table_rows[k];
            if (!strcmp(r->section, "dram") && !strcmp(r->key, "bandwidth_gbs")) {
                *probe = gp_probe_at(i)->name;
                *key = r->value_key;
                return 1;
            }
        }
    return 0;
}

static gp_status add_char(gp_fleet *fl, int model, const char *probe, const char *key, const char *unit, int *idx)
{
    for (int i = 0; i < fl->nchars; i++) {
        const gp_fleet_char *c = &fl->chars[i];
        if (c->model == model && !strcmp(c->probe, probe) && !strcmp(c->key, key)) {
            *idx = i;
            return gp_ok();
        }
    }
    if (fl->nchars == fl->chars_cap) {
        int cap = fl->chars_cap ? 2 * fl->chars_cap : 256;
        gp_fleet_char *p = realloc(fl->chars, (size_t)cap * sizeof *p);
        if (!p)
            return gp_fail(GP_ERR_NOMEM, "out of host memory for the fleet's characteristics");
        fl->chars = p;
        fl->chars_cap = cap;
    }
    gp_fleet_char *c = &fl->chars[fl->nchars];
    memset(c, 0, sizeof *c);
    copy_str(c->probe, sizeof c->probe, probe);
    copy_str(c->key, sizeof c->key, key);
    copy_str(c->unit, sizeof c->unit, unit);
    c->model = model;
    const char *bw_probe, *bw_key;
    c->health = (!strcmp(probe, GP_FLEET_CLOCK_PROBE) && !strcmp(key, GP_FLEET_CLOCK_KEY)) ||
                (gp_fleet_bw_source(&bw_probe, &bw_key) && !strcmp(probe, bw_probe) && !strcmp(key, bw_key));
    size_t n = (size_t)fl->ngpus;
    c->x = malloc(n * sizeof *c->x);
    c->z = malloc(n * sizeof *c->z);
    c->dev = malloc(n * sizeof *c->dev);
    c->verdict = calloc(n, sizeof *c->verdict);
    fl->nchars++;
    if (!c->x || !c->z || !c->dev || !c->verdict)
        return gp_fail(GP_ERR_NOMEM, "out of host memory for the fleet's characteristics");
    for (size_t g = 0; g < n; g++)
        c->x[g] = c->z[g] = c->dev[g] = NAN;
    *idx = fl->nchars - 1;
    return gp_ok();
}

/* The run's own spread of a value: the larger of the within-run and the
 * between-launch spread (compare's band), < 0 when neither was measured. */
static double own_spread(const gp_value *v)
{
    double w = isfinite(v->spread) && v->spread >= 0 ? v->spread : -1;
    if (isfinite(v->spread_between) && v->spread_between > w)
        w = v->spread_between;
    return w;
}

static const gp_value *value_of(const gp_fleet *fl, int g, const gp_fleet_char *c)
{
    const gp_record *r = find_probe(&fl->gpus[g].run, c->probe);
    return r ? gp_record_find(r, c->key) : NULL;
}

/* The median over the model's GPUs of their runs' spreads of c; -1 none. */
static double model_spread(const gp_fleet *fl, const gp_fleet_char *c)
{
    double *s = malloc((size_t)fl->ngpus * sizeof *s);
    int n = 0;
    for (int g = 0; s && g < fl->ngpus; g++) {
        const gp_value *val = fl->gpus[g].model == c->model ? value_of(fl, g, c) : NULL;
        if (val && val->detected && own_spread(val) >= 0)
            s[n++] = own_spread(val);
    }
    double m = n > 0 ? gp_stats_median(s, (size_t)n) : -1;
    free(s);
    return m;
}

static void judge(gp_fleet *fl, gp_fleet_char *c)
{
    gp_fleet_center_of(c->x, fl->ngpus, &c->center);
    c->judged = c->center.n >= GP_FLEET_MIN_GROUP;
    double typical = model_spread(fl, c);
    for (int g = 0; g < fl->ngpus; g++) {
        if (fl->gpus[g].model != c->model || !isfinite(c->x[g]))
            continue;
        gp_fleet_value v = {c->x[g], -1, 0, 0, 0, 0, 0};
        int unstable = 0;
        const gp_value *val = value_of(fl, g, c);
        if (val) {
            double own = own_spread(val);
            v.spread = own > typical ? own : typical;
            v.structural = v.spread < 0 && gp_cmp_structural_unit(val->unit);
            v.fraction = !strcmp(val->unit, "fraction");
            v.has_range = val->has_range;
            v.lo = val->range_lo;
            v.hi = val->range_hi;
            unstable = val->unstable || (isfinite(val->spread_between) && val->spread_between > GP_BETWEEN_UNSTABLE);
        }
        c->z[g] = gp_fleet_robust_z(&v, &c->center);
        c->dev[g] = gp_fleet_deviation(&v, &c->center);
        int side = gp_fleet_outside(&v, &c->center, &fl->threshold);
        if (!side)
            c->verdict[g] = GP_FLEET_INSIDE;
        else if (unstable) {
            c->verdict[g] = GP_FLEET_WARNED;
            fl->nwarned++;
        } else {
            c->verdict[g] = side < 0 ? GP_FLEET_LOW : GP_FLEET_HIGH;
            c->noutside++;
            fl->noutliers++;
            if (c->health && side < 0)
                fl->nhealth++;
        }
    }
}

/* A value of the node, not of the GPU: how many GPUs the runtime lists
 * (interconnect.p2p_gpus).  A GPU of a 1-GPU node beside seven of 8-GPU
 * nodes is no outlier. */
static int node_value(const gp_value *v)
{
    return !strcmp(v->unit, "GPUs");
}

static gp_status collect(gp_fleet *fl)
{
    for (int g = 0; g < fl->ngpus; g++) {
        const gp_fleet_gpu *gpu = &fl->gpus[g];
        int idx;
        GP_TRY(add_char(fl, gpu->model, GP_FLEET_CLOCK_PROBE, GP_FLEET_CLOCK_KEY, "MHz", &idx));
        fl->chars[idx].x[g] = gpu->clock_mhz;
        for (int i = 0; i < gpu->run.nrecs; i++) {
            const gp_record *r = &gpu->run.recs[i];
            for (int v = 0; v < r->nvalues; v++) {
                const gp_value *val = &r->values[v];
                if (node_value(val))
                    continue;
                GP_TRY(add_char(fl, gpu->model, r->probe, val->key, val->unit, &idx));
                gp_fleet_char *c = &fl->chars[idx];
                if (strcmp(c->unit, val->unit) != 0)
                    return gp_fail(GP_ERR_USAGE, "%s.%s is in %s in results folder '%s' but in %s in another folder "
                                                 "of the same model: records of different gpuprobe versions?",
                                   r->probe, val->key, val->unit, gpu->run.dir, c->unit);
                if (val->detected && isfinite(val->value))
                    c->x[g] = val->value;
            }
        }
    }
    for (int i = 0; i < fl->nchars; i++)
        judge(fl, &fl->chars[i]);
    for (int g = 0; g < fl->ngpus; g++)
        fl->ngpus_out += gp_fleet_gpu_out(fl, g);
    return gp_ok();
}

int gp_fleet_gpu_out(const gp_fleet *fl, int g)
{
    for (int i = 0; i < fl->nchars; i++)
        if (fl->chars[i].verdict[g] == GP_FLEET_LOW || fl->chars[i].verdict[g] == GP_FLEET_HIGH)
            return 1;
    return 0;
}

static int model_of(gp_fleet *fl, const gp_fleet_gpu *g)
{
    for (int m = 0; m < fl->nmodels; m++)
        if (!strcmp(fl->models[m].name, g->name) && !strcmp(fl->models[m].arch, g->arch)) {
            fl->models[m].ngpus++;
            return m;
        }
    gp_fleet_model *m = &fl->models[fl->nmodels];
    copy_str(m->name, sizeof m->name, g->name);
    copy_str(m->arch, sizeof m->arch, g->arch);
    m->ngpus = 1;
    return fl->nmodels++;
}

/* Labels name GPUs in the report: the folder's base name, its full path
 * when two folders share a base name. */
static void unique_labels(gp_fleet *fl)
{
    for (int g = 0; g < fl->ngpus; g++)
        for (int h = 0; h < fl->ngpus; h++)
            if (h != g && !strcmp(fl->gpus[g].label, fl->gpus[h].label)) {
                copy_str(fl->gpus[g].label, sizeof fl->gpus[g].label, fl->gpus[g].run.dir);
                break;
            }
}

gp_status gp_fleet_build(const char *const *dirs, int ndirs, const gp_fleet_threshold *t, gp_fleet *fl)
{
    memset(fl, 0, sizeof *fl);
    fl->threshold = *t;
    if (ndirs < 1)
        return gp_fail(GP_ERR_USAGE, "fleet needs at least one results folder");
    fl->gpus = calloc((size_t)ndirs, sizeof *fl->gpus);
    fl->models = calloc((size_t)ndirs, sizeof *fl->models);
    if (!fl->gpus || !fl->models) {
        gp_fleet_free(fl);
        return gp_fail(GP_ERR_NOMEM, "out of host memory for %d results folders", ndirs);
    }
    gp_status st = check_distinct(dirs, ndirs);
    for (int i = 0; i < ndirs && st.code == GP_OK; i++) {
        st = load_gpu(dirs[i], &fl->gpus[i]);
        if (st.code == GP_OK) {
            fl->ngpus++;
            fl->gpus[i].model = model_of(fl, &fl->gpus[i]);
            fl->ncounters_flagged += fl->gpus[i].health_findings > 0;
        }
    }
    if (st.code == GP_OK)
        st = check_same_probes(fl);
    if (st.code == GP_OK) {
        unique_labels(fl);
        st = collect(fl);
    }
    if (st.code != GP_OK)
        gp_fleet_free(fl);
    return st;
}

void gp_fleet_free(gp_fleet *fl)
{
    for (int i = 0; i < fl->nchars; i++) {
        free(fl->chars[i].x);
        free(fl->chars[i].z);
        free(fl->chars[i].dev);
        free(fl->chars[i].verdict);
    }
    free(fl->chars);
    for (int g = 0; g < fl->ngpus; g++) {
        gp_cmp_run_free(&fl->gpus[g].run);
        free(fl->gpus[g].ds);
    }
    free(fl->gpus);
    free(fl->models);
    memset(fl, 0, sizeof *fl);
}
