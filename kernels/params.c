/* Kernel parameters from their one declaration (params.h). */
#include "params.h"

#include <stdio.h>
#include <string.h>

#include "table.h"

static int *field(const gp_param *d, void *p) { return (int *)((char *)p + d->offset); }
static const int *cfield(const gp_param *d, const void *p) { return (const int *)((const char *)p + d->offset); }

gp_status gp_params_read(const char *kernel, const gp_param *desc, int nparams, const gp_table *t, void *p)
{
    char section[64];
    snprintf(section, sizeof section, "kernel.%s", kernel);
    for (int i = 0; i < nparams; i++) {
        const gp_param *d = &desc[i];
        const gp_table_entry *e = gp_table_find(t, section, d->key);
        long long v = d->dflt;
        if (e) {
            GP_TRY(gp_table_get_int(t, section, d->key, &v));
        } else if (d->flags & GP_TK_REQUIRED) {
            return gp_fail(GP_ERR_USAGE, "table %s: [%s] %s is missing (a required parameter)",
                           t->source[0] ? t->source : "(in memory)", section, d->key);
        }
        *field(d, p) = (int)(v < d->min ? d->min : v > d->max ? d->max : v);
    }
    return gp_ok();
}

void gp_params_format(const gp_param *desc, int nparams, const void *p, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < nparams && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%d", i ? " " : "", desc[i].key, *cfield(&desc[i], p));
}

int gp_params_same(const gp_param *desc, int nparams, const void *a, const void *b)
{
    for (int i = 0; i < nparams; i++)
        if (*cfield(&desc[i], a) != *cfield(&desc[i], b))
            return 0;
    return 1;
}

void gp_params_set_row(const gp_param *desc, int nparams, void *p, const int *row)
{
    for (int i = 0; i < nparams; i++)
        if (row[i] != GP_PARAM_KEEP)
            *field(&desc[i], p) = row[i];
}

gp_status gp_params_to_table(const char *kernel, const gp_param *desc, int nparams, const void *p, gp_table *t,
                             const char *prov)
{
    char section[64];
    snprintf(section, sizeof section, "kernel.%s", kernel);
    for (int i = 0; i < nparams; i++)
        GP_TRY(gp_table_set(t, section, desc[i].key, *cfield(&desc[i], p), prov));
    return gp_ok();
}

int gp_params_get(const gp_param *desc, int nparams, const void *p, const char *key)
{
    for (int i = 0; i < nparams; i++)
        if (!strcmp(desc[i].key, key))
            return *cfield(&desc[i], p);
    return -1;
}
