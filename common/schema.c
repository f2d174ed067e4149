#include "schema.h"

#include <string.h>

static int digits(const char *s, size_t n, int *v)
{
    if (n == 0 || n > 6)
        return 0;
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        *v = *v * 10 + (s[i] - '0');
    }
    return 1;
}

int gp_schema_parse(const char *version, int *major, int *minor)
{
    const char *dot = version ? strchr(version, '.') : NULL;
    return dot && digits(version, (size_t)(dot - version), major) && digits(dot + 1, strlen(dot + 1), minor);
}

gp_status gp_schema_check(const char *version, const char *supported, const char *where)
{
    int maj, min, smaj, smin;
    if (!gp_schema_parse(supported, &smaj, &smin))
        return gp_fail(GP_ERR_USAGE, "internal: supported schema '%s' is not MAJOR.MINOR", supported);
    if (!gp_schema_parse(version, &maj, &min))
        return gp_fail(GP_ERR_USAGE, "%s: schema_version '%.40s' is not a version (MAJOR.MINOR, such as %s)", where,
                       version ? version : "", supported);
    if (maj > smaj)
        return gp_fail(GP_ERR_USAGE,
                       "%s: schema_version %d.%d is newer than this gpuprobe reads (%d.x): written by a newer "
                       "gpuprobe; read it with that version or a later one",
                       where, maj, min, smaj);
    return gp_ok();
}
