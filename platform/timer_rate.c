#include "timer_rate.h"

#include <stdlib.h>
#include <string.h>

/* The constant-rate counter (s_memrealtime; gfx11: MSG_RTN_GET_REALTIME)
 * runs at 100 MHz on gfx940+ (CDNA3), gfx10 and gfx11 (RDNA), and at 25 MHz
 * on the gfx9 parts before gfx940 except Vega10 (gfx900), whose counter runs
 * at 27 MHz: LLVM libc's GPU time utilities (libc/src/time/gpu/time_utils.h:
 * "25 MHz ... except for Vega 10 which is actually 27 MHz"), and mscclpp
 * counts 27 MHz on gfx900, 25 on gfx906/908/90a.  RCCL uses 25 MHz for every
 * gfx9 part before gfx942, which is 7 % slow on a Vega10.  Whatever this
 * says, the clock module calibrates the rate against event time
 * (common/clock.c) and uses the calibrated rate when the two disagree by
 * more than 5 %; 27/25 is beyond that, so the table's figure decides only
 * which source a record names, and that must be the right one. */
double gp_amd_timer_hz(const char *arch, const char **source)
{
    static const char *const src =
        "per-target table (gfx900 Vega10: 27 MHz; other gfx9 before gfx940: 25 MHz; gfx940+, gfx10, gfx11: "
        "100 MHz; LLVM libc GPU time_utils.h)";
    if (!arch || strncmp(arch, "gfx", 3) != 0 || !arch[3]) {
        if (source)
            *source = "not an AMD target name: timer rate unknown";
        return 0;
    }
    if (source)
        *source = src;
    const char *num = arch + 3;
    size_t len = strspn(num, "0123456789abcdef");
    if (len == 3 && num[0] == '9') {
        /* gfx9MS: M the minor (hex), S the stepping. gfx94x and later: 100 MHz. */
        if (num[1] == '0' && num[2] == '0')
            return 27e6; /* Vega10 */
        return strtol((char[]){num[1], 0}, NULL, 16) >= 4 ? 100e6 : 25e6;
    }
    if (len == 4 && num[0] == '1' && (num[1] == '0' || num[1] == '1'))
        return 100e6;
    if (source)
        *source = "target not in the timer-rate table: timer rate unknown";
    return 0;
}
