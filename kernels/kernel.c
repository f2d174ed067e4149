/* The kernel registry and the one path from a table to a launch's
 * parameters (kernel.h).  The registry's list is generated from the kernel
 * folders (top-level CMakeLists.txt), which also generates the CTest tests:
 * the CLI, the library and CTest enumerate the same list. */
#include "kernel.h"

#include <ctype.h>
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

/* Scratch tables for the rule runs of one thread (~50 KB each: off the
 * stack; per thread, so contexts on several threads derive at once).  A
 * rule sets every key of its own section and reads nothing else of its
 * output, so a scratch table needs no clearing between runs. */
static _Thread_local gp_table scratch_head, scratch_shape;

static gp_status run_rule(const gp_kernel *k, const gp_table *facts, const gp_shape *s, int use_device,
                          gp_table *out)
{
    gp_rule_in in = {facts, s, use_device};
    return k->rule(&in, out);
}

/* The declared key i of k in the table schema. */
static int key_index(const gp_kernel *k, int i)
{
    char section[64];
    snprintf(section, sizeof section, "kernel.%s", k->name);
    return gp_table_key_index(section, k->params[i].key);
}

static int *field(const gp_kernel *k, void *p, int i) { return (int *)((char *)p + k->params[i].offset); }

/* p's rule-owned keys (in t) from the rule run for shape s; the note says
 * what moved. */
static gp_status rule_for_shape(const gp_kernel *k, const gp_table *t, const gp_shape *s, int use_device, void *p,
                                const char *own, char *note, size_t n)
{
    GP_TRY(run_rule(k, t, s, use_device, &scratch_shape));
    size_t len = (size_t)snprintf(note, n, "rule for this shape:");
    int changed = 0;
    for (int i = 0; i < k->nparams; i++) {
        int ki = key_index(k, i);
        if (ki < 0 || !t->e[ki].present || t->e[ki].kind != GP_PROV_RULE || strncmp(t->e[ki].prov, own, strlen(own)))
            continue; /* a swept value beside the rule's stays */
        long long v = scratch_shape.e[ki].i;
        if (v != t->e[ki].i && len < n) {
            len += (size_t)snprintf(note + len, n - len, " %s %lld->%lld", k->params[i].key, t->e[ki].i, v);
            changed = 1;
        }
        *field(k, p, i) = (int)v;
    }
    if (!changed && len < n)
        snprintf(note + len, n - len, " as the table");
    return gp_ok();
}

void gp_kernel_shape_class(const gp_kernel *k, const gp_shape *s, char *buf, size_t n)
{
    if (k->shape_class) {
        k->shape_class(s, buf, n);
        return;
    }
    k->shape_label(s, buf, n);
    for (char *c = buf; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._^+-", *c))
            *c = *c == ' ' ? '.' : '-';
}

/* The table's entry for s's class into p (every key its default first). */
static int from_shaped(const gp_kernel *k, const gp_table *t, const gp_shape *s, void *p, char *note, size_t n)
{
    char cls[GP_TABLE_CLASS_LEN];
    if (!s || !t->nshaped)
        return 0;
    gp_kernel_shape_class(k, s, cls, sizeof cls);
    const gp_table_shaped *e = gp_table_shaped_find(t, k->name, cls);
    if (!e)
        return 0;
    for (int i = 0; i < k->nparams; i++) {
        int ki = key_index(k, i);
        *field(k, p, i) = (int)k->params[i].dflt;
        for (int j = 0; j < e->nkeys; j++)
            if (e->ki[j] == ki)
                *field(k, p, i) = (int)e->v[j];
    }
    snprintf(note, n, "tuned for this shape's class %s (%.80s)", cls, e->prov);
    return 1;
}

gp_status gp_kernel_params(const gp_kernel *k, const gp_table *t, const gp_device_info *dev, const gp_shape *s,
                           int use_device, void *p, char *note, size_t n)
{
    char section[64], own[64], scratch[8];
    if (!note || n == 0)
        note = scratch, n = sizeof scratch;
    note[0] = '\0';
    snprintf(section, sizeof section, "kernel.%s", k->name);
    snprintf(own, sizeof own, "rule gp_%s_rule ", k->name);
    if (k->check_table)
        GP_TRY(k->check_table(t, t->source[0] ? t->source : "table"));
    memset(p, 0, k->params_size);
    if (from_shaped(k, t, s, p, note, n)) {
        k->fit(p, dev);
        return gp_ok();
    }
    int nrule = 0, npresent = 0, reproduced = 1, ki[64];
    if (k->nparams > 64)
        return gp_fail(GP_ERR_USAGE, "%s: %d parameters, at most 64", k->name, k->nparams);
    for (int i = 0; i < k->nparams; i++) {
        ki[i] = key_index(k, i);
        if (ki[i] < 0)
            return gp_fail(GP_ERR_USAGE, "%s: parameter %s is not in the table schema", k->name, k->params[i].key);
        nrule += rule_value(t, (size_t)ki[i], section, own);
        npresent += t->e[ki[i]].present;
    }
    if (npresent == 0) { /* a table written before the kernel existed: its rule */
        GP_TRY(run_rule(k, t, s, use_device, &scratch_shape));
        GP_TRY(gp_params_read(k->name, k->params, k->nparams, &scratch_shape, p));
        snprintf(note, n, "the rule's (the table has no [%s])", section);
    } else {
        GP_TRY(gp_params_read(k->name, k->params, k->nparams, t, p));
        if (nrule == 0) {
            snprintf(note, n, "swept or set by hand: as the table");
        } else {
            /* The rule's values are this table's facts' only where the rule
             * gives them again (not another device's next to these facts). */
            GP_TRY(run_rule(k, t, NULL, use_device, &scratch_head));
            for (int i = 0; i < k->nparams; i++)
                if (rule_value(t, (size_t)ki[i], section, own))
                    reproduced &= scratch_head.e[ki[i]].present && scratch_head.e[ki[i]].d == t->e[ki[i]].d;
            if (!reproduced)
                snprintf(note, n, "table values as they are (the rule on these facts gives others)");
            else if (!s)
                snprintf(note, n, "the rule's, for the headline problem");
            else
                GP_TRY(rule_for_shape(k, t, s, use_device, p, own, note, n));
        }
    }
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
