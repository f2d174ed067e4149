#include "progress.h"

#include <stdarg.h>
#include <stdio.h>

static int enabled = 1;

void gp_progress_enable(int on) { enabled = on; }

void gp_progress(const char *probe, int done, int total, const char *fmt, ...)
{
    if (!enabled)
        return;
    va_list ap;
    fprintf(stderr, "[%s] %d/%d ", probe, done, total);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
