/* The kernel registry and the one path from a table to a launch's
 * parameters (kernel.h).  The registry's list is generated from the kernel
 * folders (top-level CMakeLists.txt), which also generates the CTest tests:
 * the CLI, the library and CTest enumerate the same list. */
#include "kernel.h"

#include <string.h>

#define GP_KERNEL(name) extern const gp_kernel gp_kernel_##name;
#include "gp_kernel_table.h"
#undef GP_KERNEL

static const gp_kernel *const kernels[] = {
#define GP_KERNEL(name) &gp_kernel_##name,
#include "gp_kernel_table.h"
#undef GP_KERNEL
    NULL /* keeps the array non-empty while no kernel exists */
};

size_t gp_kernel_count(void) { return sizeof kernels / sizeof kernels[0] - 1; }

const gp_kernel *gp_kernel_at(size_t i) { return i < gp_kernel_count() ? kernels[i] : NULL; }

const gp_kernel *gp_kernel_find(const char *name)
{
    for (size_t i = 0; i < gp_kernel_count(); i++)
        if (strcmp(kernels[i]->name, name) == 0)
            return kernels[i];
    return NULL;
}

gp_status gp_kernel_rules_apply(const gp_table *facts, int use_device, gp_table *out)
{
    if (out != facts)
        *out = *facts;
    gp_rule_in in = {facts, NULL, use_device};
    for (size_t i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel *k = kernels[i];
        if (!k->rule)
            return gp_fail(GP_ERR_USAGE, "kernel %s has no rule (gp_kernel.rule): every kernel derives its "
                           "parameters from the facts", k->name);
        GP_TRY(k->rule(&in, out));
    }
    return gp_ok();
}

gp_status gp_kernel_check_tables(const gp_table *t, const char *name)
{
    for (size_t i = 0; i < gp_kernel_count(); i++)
        if (kernels[i]->check_table)
            GP_TRY(kernels[i]->check_table(t, name));
    return gp_ok();
}

/* ---- the one path (kernel.h, "One path per launch") */

/* Is entry i of t a value of kernel k's own rule? */
static int rule_value(const gp_table *t, size_t i, const char *section, const char *own)
{
    const gp_table_entry *e = &t->e[i];
    return !strcmp(gp_table_key_at(i)->section, section) && e->present && e->kind == GP_PROV_RULE &&
           !strncmp(e->prov, own, strlen(own));
}

/* t's [kernel.<k>] values for shape s into out (a copy of t): where they are
 * the rule's own and the rule reproduces them on t's facts for the headline,
 * the rule's values for s. */
static gp_status values_for_shape(const gp_kernel *k, const gp_table *t, const gp_shape *s, int use_device,
                                  gp_table *out, char *note, size_t n)
{
    static gp_table head; /* ~50 KB: off the stack (one launch path at a time) */
    char section[64], own[64];
    snprintf(section, sizeof section, "kernel.%s", k->name);
    snprintf(own, sizeof own, "rule gp_%s_rule ", k->name);
    int nrule = 0, npresent = 0, reproduced = 1;
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        nrule += rule_value(t, i, section, own);
        npresent += t->e[i].present && !strcmp(gp_table_key_at(i)->section, section);
    }
    if (npresent == 0) { /* a table written before the kernel existed: its rule */
        gp_rule_in in = {t, s, use_device};
        GP_TRY(k->rule(&in, out));
        snprintf(note, n, "the rule's (the table has no [%s])", section);
        return gp_ok();
    }
    if (nrule == 0) {
        snprintf(note, n, "swept or set by hand: as the table");
        return gp_ok();
    }
    gp_rule_in hin = {t, NULL, use_device}, pin = {t, s, use_device};
    head = *t;
    GP_TRY(k->rule(&hin, &head));
    for (size_t i = 0; i < gp_table_nkeys(); i++)
        if (rule_value(t, i, section, own))
            reproduced &= head.e[i].present && head.e[i].d == t->e[i].d;
    if (!reproduced) {
        snprintf(note, n, "table values as they are (the rule on these facts gives others)");
        return gp_ok();
    }
    if (!s) {
        snprintf(note, n, "the rule's, for the headline problem");
        return gp_ok();
    }
    GP_TRY(k->rule(&pin, out));
    size_t len = (size_t)snprintf(note, n, "rule for this shape:");
    int changed = 0;
    for (size_t i = 0; i < gp_table_nkeys(); i++) {
        if (!rule_value(t, i, section, own))
            continue;
        if (out->e[i].d != t->e[i].d && len < n) {
            len += (size_t)snprintf(note + len, n - len, " %s %lld->%lld", gp_table_key_at(i)->key, t->e[i].i,
                                    out->e[i].i);
            changed = 1;
        }
    }
    /* Keys the rule does not own in t (swept ones beside rule ones) stay. */
    for (size_t i = 0; i < gp_table_nkeys(); i++)
        if (!strcmp(gp_table_key_at(i)->section, section) && !rule_value(t, i, section, own))
            out->e[i] = t->e[i];
    if (!changed && len < n)
        snprintf(note + len, n - len, " as the table");
    return gp_ok();
}

gp_status gp_kernel_params(const gp_kernel *k, const gp_table *t, const gp_device_info *dev, const gp_shape *s,
                           int use_device, void *p, char *note, size_t n)
{
    static gp_table per; /* ~50 KB: off the stack */
    char scratch[8];
    if (!note || n == 0)
        note = scratch, n = sizeof scratch;
    note[0] = '\0';
    if (k->check_table)
        GP_TRY(k->check_table(t, t->source[0] ? t->source : "table"));
    per = *t;
    GP_TRY(values_for_shape(k, t, s, use_device, &per, note, n));
    memset(p, 0, k->params_size);
    GP_TRY(gp_params_read(k->name, k->params, k->nparams, &per, p));
    k->fit(p, dev);
    return gp_ok();
}

const char *gp_kernel_params_note(const gp_kernel *k, const void *p)
{
    return (const char *)p + k->note_offset;
}

void gp_kernel_params_text(const gp_kernel *k, const void *p, char *buf, size_t n)
{
    gp_params_format(k->params, k->nparams, p, buf, n);
    const char *note = gp_kernel_params_note(k, p);
    size_t len = strlen(buf);
    if (note[0] && len < n)
        snprintf(buf + len, n - len, " [adjusted: %s]", note);
}

void gp_kernel_variant(const gp_kernel *k, int v, const void *base, const gp_device_info *dev, void *p)
{
    memcpy(p, base, k->params_size);
    memset((char *)p + k->note_offset, 0, k->note_size);
    gp_params_set_row(k->params, k->nparams, p, k->variants + (size_t)v * (size_t)k->nparams);
    k->fit(p, dev);
}

void gp_kernel_case_label(const gp_kernel *k, const gp_kcase *c, char *buf, size_t n)
{
    if (k->case_label)
        k->case_label(c, buf, n);
    else
        k->shape_label(&c->shape, buf, n);
}

gp_status gp_kernel_work_of_label(const gp_kernel *k, const char *label, gp_kernel_work *w)
{
    gp_shape s;
    memset(w, 0, sizeof *w);
    GP_TRY(k->shape_parse(label, &s));
    return k->work(&s, NULL, w);
}
