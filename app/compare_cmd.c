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

/* The page, Markdown or JSON as asked, into --out FILE. */
typedef struct page {
    const gp_cmp_result *res;
    const gp_compare_opts *o;
} page;

static void write_page(FILE *f, const void *ctx)
{
    const page *p = ctx;
    if (p->o->json)
        gp_cmp_write_json(f, p->res);
    else
        gp_cmp_write_md(f, p->res);
}

gp_status gp_compare_run(const gp_compare_opts *o, FILE *out)
{
    gp_cmp_run A, B;
    gp_cmp_result res;
    char outdir[1024];
    const char *outname = NULL;
    if (o->out_file) /* a folder named as --out fails before the work */
        GP_TRY(gp_fs_split_file(o->out_file, "--out", outdir, sizeof outdir, &outname));
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
            st = gp_fs_write_file(o->out_file, "--out", write_page, &(page){&res, o});
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
