/* `gpuprobe table derive`: the kernel sections of a table from its facts (see
 * derive.h). */
#define _POSIX_C_SOURCE 200809L
#include "derive.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

gp_status gp_kernel_derive(const gp_table *in, int use_device, gp_table *out)
{
    static gp_table ruled; /* ~50 KB: off the stack */
    GP_TRY(gp_kernel_rules_apply(in, use_device, &ruled));
    /* A timed sweep outranks a rule: the input's swept values stay. */
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        const gp_table_entry *e = &in->e[i];
        if (!strncmp(k->section, "kernel.", 7) && e->present && e->kind == GP_PROV_SWEPT)
            ruled.e[i] = *e;
    }
    GP_TRY(gp_table_validate(&ruled, in->source[0] ? in->source : "derived table"));
    *out = ruled;
    return gp_ok();
}

/* The rule name of "rule NAME[:|,] note" into name (n bytes). */
static void rule_name(const char *prov, char *name, size_t n)
{
    const char *p = prov + 4; /* past "rule" */
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strcspn(p, " \t:,");
    snprintf(name, n, "%.*s", (int)(len < n ? len : n - 1), p);
}

gp_status gp_table_check_rules(const gp_table *t, const char *path)
{
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        const gp_table_key *k = gp_table_key_at(i);
        const gp_table_entry *e = &t->e[i];
        if (!e->present)
            continue;
        int is_kernel = !strncmp(k->section, "kernel.", 7);
        if (is_kernel && e->kind == GP_PROV_ASSUMED)
            return gp_fail(GP_ERR_USAGE, "%s:%d: %s.%s is `assumed`: a kernel value comes from its rule (gpuprobe "
                           "table derive) or a sweep", path, e->line, k->section, k->key);
        if (e->kind != GP_PROV_RULE)
            continue;
        char name[64], kname[48];
        rule_name(e->prov, name, sizeof name);
        size_t len = strlen(name);
        /* gp_<k>_rule: k between the prefix and the suffix. */
        int shaped = len > 8 && !strncmp(name, "gp_", 3) && !strcmp(name + len - 5, "_rule");
        snprintf(kname, sizeof kname, "%.*s", shaped ? (int)(len - 8) : 0, name + 3);
        const gp_kernel *kern = shaped ? gp_kernel_find(kname) : NULL;
        if (!kern || !kern->rule)
            return gp_fail(GP_ERR_USAGE, "%s:%d: %s.%s: `rule %s` is not a rule function of this gpuprobe (the rules "
                           "are gp_<kernel>_rule; a stand-in fact says `assumed: <reason>`)", path, e->line,
                           k->section, k->key, name);
        if (!is_kernel || strcmp(k->section + 7, kname))
            return gp_fail(GP_ERR_USAGE, "%s:%d: %s.%s: `rule %s` computes kernel.%s, not this key", path, e->line,
                           k->section, k->key, name, kname);
    }
    return gp_ok();
}

gp_status gp_table_check_file_rules(const char *path)
{
    static gp_table t;
    GP_TRY(gp_table_load(path, &t));
    GP_TRY(gp_kernel_check_tables(&t, path));
    return gp_table_check_rules(&t, path);
}

/* The input's leading comment lines (its title and sources), kept as they are. */
static void copy_header(const char *path, FILE *out)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && line[0] == '#')
        fputs(line, out);
    fclose(f);
}

gp_status gp_table_derive_file(const char *in_path, const char *out_path, FILE *out)
{
    static gp_table facts, derived;
    GP_TRY(gp_table_load_facts(in_path, &facts));
    GP_TRY(gp_kernel_derive(&facts, 0, &derived));
    if (!out_path) {
        copy_header(in_path, out);
        return gp_table_write_body(&derived, out);
    }
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gp_fail(GP_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    copy_header(in_path, f);
    gp_status st = gp_table_write_body(&derived, f);
    if (fclose(f) != 0 && st.code == GP_OK)
        st = gp_fail(GP_ERR_IO, "error writing '%s'", tmp);
    if (st.code == GP_OK && rename(tmp, out_path) != 0)
        st = gp_fail(GP_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, out_path, strerror(errno));
    if (st.code != GP_OK)
        remove(tmp);
    return st;
}
