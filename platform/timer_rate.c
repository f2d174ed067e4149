#include "timer_rate.h"

#include <stdlib.h>
#include <string.h>

/* gfx9 parts before gfx940 (gfx900/902/904/906/908/909/90a/90c) count
 * s_memrealtime at 25 MHz (about 25-27 MHz measured): RCCL's device timer
 * uses 2.5e7 Hz for every target but gfx942, and the HIP runtime reports the
 * same as the wall-clock rate attribute.  gfx940+ (CDNA3), gfx10 and gfx11
 * (RDNA) count at 100 MHz.  Whatever this says, the clock module calibrates
 * the rate against event time (common/clock.c) and uses the calibrated rate
 * when the two disagree. */
double gp_amd_timer_hz(const char *arch, const char **source)
{
    static const char *const src =
        "per-target table (gfx9 before gfx940: 25 MHz; gfx940+, gfx10, gfx11: 100 MHz; as RCCL's timer rate "
        "and HIP's wall-clock rate attribute)";
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
        return strtol((char[]){num[1], 0}, NULL, 16) >= 4 ? 100e6 : 25e6;
    }
    if (len == 4 && num[0] == '1' && (num[1] == '0' || num[1] == '1'))
        return 100e6;
    if (source)
        *source = "target not in the timer-rate table: timer rate unknown";
    return 0;
}
