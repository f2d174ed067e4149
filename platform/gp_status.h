/* gp_status: the one error type of gpuprobe.
 *
 * Every fallible function returns a gp_status by value: a code and a message
 * that names what failed and where.  The library never calls exit(); only the
 * command-line front end turns a status into an exit code.  Plain C, shared by
 * host C code and by the extern "C" launchers in .hip files. */
#ifndef GP_STATUS_H
#define GP_STATUS_H

#include <stdarg.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gp_code {
    GP_OK = 0,
    GP_ERR_RUNTIME = 1,   /* the GPU runtime reported an error */
    GP_ERR_CHECK = 2,     /* a probe's sanity check or a kernel's verification failed */
    GP_ERR_USAGE = 3,     /* bad arguments or bad input file */
    GP_ERR_IO = 4,        /* file could not be read or written */
    GP_ERR_NOMEM = 5,     /* host or device allocation failed, or size does not fit */
    GP_ERR_NO_GPU = 6,    /* no backend compiled or no device present */
    GP_ERR_UNSUPPORTED = 7 /* an optional library or feature is absent: skip, and say so */
};

#define GP_STATUS_MSG_LEN 320

typedef struct gp_status {
    int code;
    char msg[GP_STATUS_MSG_LEN];
} gp_status;

static inline gp_status gp_ok(void)
{
    gp_status s;
    s.code = GP_OK;
    s.msg[0] = '\0';
    return s;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline gp_status gp_fail(int code, const char *fmt, ...)
{
    gp_status s;
    va_list ap;
    s.code = code;
    va_start(ap, fmt);
    vsnprintf(s.msg, sizeof s.msg, fmt, ap);
    va_end(ap);
    return s;
}

/* Propagate a failing status from an expression. */
#define GP_TRY(expr)                         \
    do {                                     \
        gp_status gp_try_s_ = (expr);        \
        if (gp_try_s_.code != GP_OK)         \
            return gp_try_s_;                \
    } while (0)

/* Exit code the CLI maps a status to (docs/architecture.md: 0, 1, 2, 77). */
static inline int gp_status_exit_code(const gp_status *s)
{
    switch (s->code) {
    case GP_OK: return 0;
    case GP_ERR_USAGE: return 2;
    case GP_ERR_NOMEM: return 2;
    case GP_ERR_IO: return 2;   /* a file that cannot be read or written is bad input */
    case GP_ERR_NO_GPU: return 77;
    case GP_ERR_UNSUPPORTED: return 77;
    default: return 1;
    }
}

#ifdef __cplusplus
}
#endif
#endif
