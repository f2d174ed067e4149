#include "compare_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "run_compare.h"

void gp_compare_opts_of(const gp_cli *c, gp_compare_opts *o)
{
    memset(o, 0, sizeof *o);
    o->dir_a = c->ndirs > 0 ? c->dirs[0] : NULL;
    o->dir_b = c->ndirs > 1 ? c->dirs[1] : NULL;
    o->out_file = c->out_file;
    o->floor = c->floor;
    for (int i = 0; i < c->nonly && i < GP_COMPARE_MAX_ONLY; i++)
        o->only[o->nonly++] = c->only[i];
    o->json = c->json;
}

/* --out FILE: its folder and name, refused at once when FILE is a folder. */
static gp_status split_out(const char *path, char *dir, size_t dn, const char **name)
{
    if (gp_fs_is_dir(path))
        return gp_fail(GP_ERR_USAGE, "--out '%s' is a folder; name a file (e.g. %s/repeat-runs.md)", path, path);
    if (snprintf(dir, dn, "%s", path) >= (int)dn)
        return gp_fail(GP_ERR_USAGE, "--out path too long: '%s'", path);
    char *slash = strrchr(dir, '/');
    *name = slash ? path + (slash - dir) + 1 : path;
    if (!**name)
        return gp_fail(GP_ERR_USAGE, "--out '%s' names no file", path);
    if (!slash)
        snprintf(dir, dn, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return gp_ok();
}

/* The page into FILE, its folder created as the other commands create
 * --out, and removed again when the write fails. */
static gp_status write_out(const char *path, const gp_cmp_result *res, const gp_compare_opts *o)
{
    char dir[1024];
    const char *name = NULL;
    GP_TRY(split_out(path, dir, sizeof dir, &name));
    gp_fs_set set;
    FILE *f;
    GP_TRY(gp_fs_set_begin(&set, dir));
    gp_status st = gp_fs_set_open(&set, name, &f);
    if (st.code == GP_OK) {
        if (o->json)
            gp_cmp_write_json(f, res);
        else
            gp_cmp_write_md(f, res);
        st = gp_fs_set_close(&set, f, name);
    }
    if (st.code == GP_OK)
        return gp_fs_set_commit(&set);
    gp_fs_set_abort(&set);
    return st;
}

gp_status gp_compare_run(const gp_compare_opts *o, FILE *out)
{
    gp_cmp_run A, B;
    gp_cmp_result res;
    char outdir[1024];
    const char *outname = NULL;
    if (o->out_file) /* a folder named as --out fails before the work */
        GP_TRY(split_out(o->out_file, outdir, sizeof outdir, &outname));
    GP_TRY(gp_cmp_load_dir(o->dir_a, &A));
    gp_status st = gp_cmp_load_dir(o->dir_b, &B);
    if (st.code != GP_OK) {
        gp_cmp_run_free(&A);
        return st;
    }
    st = gp_cmp_runs_only(&A, &B, o->floor, o->only, o->nonly, &res);
    if (st.code == GP_OK) {
        if (out) {
            if (o->json)
                gp_cmp_write_json(out, &res);
            else
                gp_cmp_write_md(out, &res);
            fflush(out);
        }
        if (o->out_file)
            st = write_out(o->out_file, &res, o);
        if (st.code == GP_OK && res.differ > 0)
            st = gp_fail(GP_ERR_CHECK, "%d of %d characteristics differ beyond their spreads (the table says which)",
                         res.differ, res.agree + res.differ + res.unstable);
        else if (st.code == GP_OK && res.probes_missing > 0)
            st = gp_fail(GP_ERR_CHECK, "%d probe%s recorded in one run only (the notes name %s; --only narrows the "
                         "comparison)", res.probes_missing, res.probes_missing == 1 ? "" : "s",
                         res.probes_missing == 1 ? "it" : "them");
        gp_cmp_result_free(&res);
    }
    gp_cmp_run_free(&A);
    gp_cmp_run_free(&B);
    return st;
}

gp_status gp_cmd_compare(gp_cli *cli)
{
    gp_compare_opts o;
    gp_compare_opts_of(cli, &o);
    return gp_compare_run(&o, stdout);
}
