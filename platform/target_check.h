/* Does this binary's device code run on the GPU it opened?  Decided before
 * the first kernel launch, so a binary built for another target says so and
 * exits 2 instead of failing (or crashing) inside a probe.
 *
 * The rule implemented:
 *  - AMD (gfxNNN): a code object runs only on the target it was built for
 *    (feature flags such as ":xnack-" are ignored); there is no forward
 *    compatibility between gfx targets.
 *  - NVIDIA (sm_XY): SASS built for sm_XY runs on sm_XZ with Z >= Y (same
 *    major, equal or newer minor); PTX for compute_XY is JIT-compiled by the
 *    driver for any newer GPU.  This project's CMake embeds both (plain
 *    CMAKE_CUDA_ARCHITECTURES numbers), so an sm_80 build runs on sm_90 through
 *    the JIT (said on stderr), and an sm_90 build does not run on sm_80.  Arch-
 *    specific targets (sm_90a) run on exactly that arch: their PTX is not
 *    forward compatible. */
#ifndef GP_TARGET_CHECK_H
#define GP_TARGET_CHECK_H

#include <stddef.h>

#include "gp_status.h"
#include "runtime.h"

typedef enum {
    GP_TARGET_NATIVE,   /* machine code for this GPU is in the binary */
    GP_TARGET_JIT,      /* only PTX the driver compiles at load time */
    GP_TARGET_NONE      /* nothing in the binary runs here */
} gp_target_fit;

/* Pure: backend "cuda" or "hip", compiled targets separated by ';' or ' ',
 * ptx: 1 when CUDA targets carry PTX, the device's arch ("sm_80", "gfx90a").
 * `used` (n bytes, may be NULL) gets the compiled target that would run. */
gp_target_fit gp_target_fit_of(const char *backend, const char *compiled, int ptx, const char *device_arch,
                               char *used, size_t n);

/* GP_ERR_USAGE naming the targets built in, the GPU's arch and how to build
 * for it, when nothing fits; else ok, with a note for a JIT fit in `note`
 * (n bytes, "" when native). */
gp_status gp_target_check(const char *backend, const char *compiled, int ptx, const char *device_arch,
                          const char *device_name, char *note, size_t n);

/* gp_rt_device_open, then gp_target_check against this binary's targets;
 * a JIT note goes to stderr.  Every command that launches kernels opens the
 * device through this. */
gp_status gp_device_open_checked(int index, gp_device_info *dev);

#endif
