#include "compare_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "run_compare.h"

static const char usage[] =
    "usage: gpuprobe compare DIR_A DIR_B [--out FILE] [--json] [--tolerance-floor F] [--only PROBE...]\n"
    "  compare the probe records of two results folders value by value; a value agrees when\n"
    "  |B - A| / |A| <= max(spread A, spread B, F) (F a fraction, default 0.005 = 0.5 %)\n"
    "  a probe recorded in one run only is a difference, unless --only names the probes to compare\n"
    "  --json: the comparison as JSON (docs/formats.md) instead of Markdown, on stdout and in FILE\n"
    "  exit 0: all agree (unstable values are reported, not failed); 1: some differ; 2: bad input\n";

gp_status gp_compare_parse(int argc, char **argv, gp_compare_opts *o)
{
    memset(o, 0, sizeof *o);
    o->floor = GP_CMP_DEFAULT_FLOOR;
    int ndirs = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--only")) {
            /* PROBE words up to the next option; commas separate too */
            int before = o->nonly;
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                char *w = argv[++i];
                for (char *tok = w, *comma; tok; tok = comma) {
                    comma = strchr(tok, ',');
                    if (comma)
                        *comma++ = '\0';
                    if (!*tok)
                        continue;
                    if (o->nonly >= GP_COMPARE_MAX_ONLY)
                        return gp_fail(GP_ERR_USAGE, "--only: more than %d probes", GP_COMPARE_MAX_ONLY);
                    o->only[o->nonly++] = tok;
                }
            }
            if (o->nonly == before)
                return gp_fail(GP_ERR_USAGE, "--only needs one or more probe names (e.g. --only lds atomics)");
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--out") || !strcmp(a, "--tolerance-floor")) {
            if (i + 1 >= argc)
                return gp_fail(GP_ERR_USAGE, "option %s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--out")) {
                if (!*v)
                    return gp_fail(GP_ERR_USAGE, "--out needs a file name");
                o->out_file = v;
            } else {
                char *end;
                double x = strtod(v, &end);
                if (!*v || *end || !isfinite(x) || x < 0 || x >= 1)
                    return gp_fail(GP_ERR_USAGE,
                                   "--tolerance-floor: '%s' is not a fraction in [0, 1) (0.005 means 0.5 %%)", v);
                o->floor = x;
            }
        } else if (a[0] == '-' && a[1]) {
            return gp_fail(GP_ERR_USAGE, "unknown option '%s' for compare", a);
        } else if (ndirs < 2) {
            if (!*a)
                return gp_fail(GP_ERR_USAGE, "compare: empty folder name");
            if (ndirs++)
                o->dir_b = a;
            else
                o->dir_a = a;
        } else {
            return gp_fail(GP_ERR_USAGE, "compare takes two results folders; '%s' is a third", a);
        }
    }
    if (ndirs < 2)
        return gp_fail(GP_ERR_USAGE, "compare needs two results folders (DIR_A DIR_B)");
    return gp_ok();
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

int gp_compare_main(int argc, char **argv)
{
    gp_compare_opts o;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
    gp_status st = gp_compare_parse(argc, argv, &o);
    if (st.code != GP_OK) {
        fprintf(stderr, "gpuprobe: %s\n\n%s", st.msg, usage);
        return gp_status_exit_code(&st);
    }
    st = gp_compare_run(&o, stdout);
    if (st.code != GP_OK)
        fprintf(stderr, "gpuprobe: %s\n", st.msg);
    return gp_status_exit_code(&st);
}
