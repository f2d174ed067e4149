#include "target_check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* "sm_90" -> major 9, minor 0 ("sm_100" -> 10, 0; "sm_86" -> 8, 6), arch-
 * specific suffix ("sm_90a") in *specific.  0 when not of that form. */
static int parse_sm(const char *s, size_t len, int *major, int *minor, int *specific)
{
    if (len < 5 || strncmp(s, "sm_", 3))
        return 0;
    size_t d = 3, e = 3;
    while (e < len && isdigit((unsigned char)s[e]))
        e++;
    if (e - d < 2)
        return 0;
    *specific = e < len;
    if (e < len && !(e + 1 == len && (s[e] == 'a' || s[e] == 'f')))
        return 0;
    *minor = s[e - 1] - '0';
    *major = atoi(s + d) / 10;  /* digits before the last */
    return 1;
}

/* Length of a target name without its feature flags ("gfx90a:xnack-"). */
static size_t name_len(const char *s, size_t len)
{
    const char *colon = memchr(s, ':', len);
    return colon ? (size_t)(colon - s) : len;
}

gp_target_fit gp_target_fit_of(const char *backend, const char *compiled, int ptx, const char *device_arch,
                               char *used, size_t n)
{
    gp_target_fit best = GP_TARGET_NONE;
    int best_major = -1, best_minor = -1, dmaj = 0, dmin = 0, dspec = 0;
    int cuda = backend && !strcmp(backend, "cuda");
    size_t dlen = device_arch ? name_len(device_arch, strlen(device_arch)) : 0;
    if (used && n)
        used[0] = '\0';
    if (!compiled || !dlen || (cuda && !parse_sm(device_arch, dlen, &dmaj, &dmin, &dspec)))
        return GP_TARGET_NONE;
    for (const char *p = compiled; *p;) {
        size_t len = strcspn(p, "; ");
        gp_target_fit fit = GP_TARGET_NONE;
        int maj = 0, min = 0, spec = 0;
        if (!cuda) {
            if (len && name_len(p, len) == dlen && !strncmp(p, device_arch, dlen))
                fit = GP_TARGET_NATIVE;
        } else if (parse_sm(p, len, &maj, &min, &spec)) {
            if (spec)
                fit = maj == dmaj && min == dmin ? GP_TARGET_NATIVE : GP_TARGET_NONE;
            else if (maj == dmaj && min <= dmin)
                fit = GP_TARGET_NATIVE;
            else if (ptx && (maj < dmaj || (maj == dmaj && min <= dmin)))
                fit = GP_TARGET_JIT;
        }
        /* Native beats JIT; among equals the newest target (the driver's choice too). */
        if (fit != GP_TARGET_NONE &&
            (best == GP_TARGET_NONE || fit < best ||
             (fit == best && (maj > best_major || (maj == best_major && min > best_minor))))) {
            best = fit;
            best_major = maj;
            best_minor = min;
            if (used && n)
                snprintf(used, n, "%.*s", (int)len, p);
        }
        p += len;
        p += strspn(p, "; ");
    }
    return best;
}

/* The preset that builds for `arch`, if CMakePresets.json has one. */
static const char *preset_for(const char *arch)
{
    static const char *const known[][2] = {
        {"sm_80", "sm80"}, {"sm_90", "sm90"}, {"gfx900", "gfx900"}, {"gfx90a", "gfx90a"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(arch, known[i][0]))
            return known[i][1];
    return NULL;
}

gp_status gp_target_check(const char *backend, const char *compiled, int ptx, const char *device_arch,
                          const char *device_name, char *note, size_t n)
{
    char used[32];
    if (note && n)
        note[0] = '\0';
    gp_target_fit fit = gp_target_fit_of(backend, compiled, ptx, device_arch, used, sizeof used);
    if (fit == GP_TARGET_JIT && note && n)
        snprintf(note, n,
                 "this GPU is %s and the binary has no machine code for it: the driver JIT-compiles the "
                 "%s PTX (slower start; build for %s for native code)",
                 device_arch, used, device_arch);
    if (fit != GP_TARGET_NONE)
        return gp_ok();
    const char *preset = preset_for(device_arch);
    char how[160];
    if (preset)
        snprintf(how, sizeof how, "cmake --workflow --preset package-%s, or cmake --preset %s", preset, preset);
    else
        snprintf(how, sizeof how, "cmake -S . -B build/%s -DGP_ARCHS=%s", device_arch, device_arch);
    return gp_fail(GP_ERR_USAGE,
                   "this gpuprobe has device code for %s only; GPU '%s' is %s, which cannot run it. "
                   "Build one for it: %s",
                   compiled && *compiled ? compiled : "no target", device_name ? device_name : "?",
                   device_arch ? device_arch : "?", how);
}

gp_status gp_device_open_checked(int index, gp_device_info *dev)
{
    char note[256];
    GP_TRY(gp_rt_device_open(index, dev));
    GP_TRY(gp_target_check(gp_rt_backend(), gp_rt_compiled_archs(), gp_rt_compiled_ptx(), dev->arch, dev->name, note,
                           sizeof note));
    if (note[0])
        fprintf(stderr, "gpuprobe: note: %s\n", note);
    return gp_ok();
}
