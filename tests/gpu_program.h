/* What the GPU test programs share (label kernels, each alone on the GPU;
 * tests/CMakeLists.txt, gp_kernels_program): a failed call said on stderr
 * under the program's name, and device 0 opened, or the skip said. */
#ifndef GP_TESTS_GPU_PROGRAM_H
#define GP_TESTS_GPU_PROGRAM_H

#include <stdio.h>

#include "target_check.h"

/* 0 when st is GP_OK; else the failure said as "PROG: WHAT: message", 1. */
static inline int gp_program_fail(const char *prog, gp_status st, const char *what)
{
    if (st.code == GP_OK)
        return 0;
    fprintf(stderr, "%s: %s: %s\n", prog, what, st.msg);
    return 1;
}

/* Device 0 into dev: 0 when it opened; 77 (CTest's skip) without a GPU,
 * said on stdout; 1 on any other failure, said on stderr. */
static inline int gp_program_device(const char *prog, gp_device_info *dev)
{
    gp_status st = gp_device_open_checked(0, dev);
    if (st.code == GP_ERR_NO_GPU) {
        printf("%s: skipped: %s\n", prog, st.msg);
        return 77;
    }
    return gp_program_fail(prog, st, "device");
}

#endif
