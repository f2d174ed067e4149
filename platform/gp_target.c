#include "gp_target.h"

#include <string.h>

/* gfx11 is GP_REGS_128 where clang 15 (Debian 12's ROCm 5.2) compiles it:
 * it caps every gfx11 kernel at 128 VGPRs (gp_target.h); a HIP build with a
 * newer clang (ROCm 5.5 ships clang 16) grants 256 there as on gfx10, and
 * gp_device.h keys the device pass's class on the same __clang_major__.
 * Builds without a HIP compiler (CUDA, CPU: table derive) take the cap of
 * the toolchain this project's CI builds with.  Every other AMD target
 * grants 256. */
#if defined(GP_HIP_CLANG_MAJOR) && GP_HIP_CLANG_MAJOR >= 16
#define GP_GFX11_CLASS GP_REGS_256
#else
#define GP_GFX11_CLASS GP_REGS_128
#endif
unsigned gp_target_reg_class(const char *arch)
{
    if (!arch)
        return 0;
    if (!strncmp(arch, "sm_", 3) && arch[3] >= '0' && arch[3] <= '9')
        return GP_REGS_NV;
    if (strncmp(arch, "gfx", 3) != 0 || !(arch[3] >= '0' && arch[3] <= '9'))
        return 0;
    const char *num = arch + 3;
    size_t len = strspn(num, "0123456789abcdef");
    if (len < 3)
        return 0;
    return len == 4 && num[0] == '1' && num[1] == '1' ? GP_GFX11_CLASS : GP_REGS_256;
}

int gp_target_has_bulk_copy(const char *arch)
{
    if (!arch || strncmp(arch, "sm_", 3) != 0)
        return 0;
    int v = 0;
    for (const char *c = arch + 3; *c >= '0' && *c <= '9'; c++)
        v = v * 10 + (*c - '0');
    return v >= 90;
}

int gp_target_lds_block_reserve(const char *arch) { return gp_target_reg_class(arch) == GP_REGS_NV ? 1024 : 0; }

int gp_target_threads_per_cu(const char *arch)
{
    unsigned cls = gp_target_reg_class(arch);
    if (cls == GP_REGS_NV)
        return 2048;
    if (cls != GP_REGS_256 || arch[3] != '9' || strspn(arch + 3, "0123456789abcdef") != 3)
        return 0;
    /* gfx9MS: minor a (gfx90a) and minor 4 (gfx94x) hold 8 waves a SIMD. */
    if (arch[5] == 'a' || arch[4] >= '4')
        return 2048;
    return 2560;
}

int gp_target_reg_budget(unsigned reg_class)
{
    switch (reg_class) {
    case GP_REGS_NV: return 255;
    case GP_REGS_256: return 256;
    case GP_REGS_128: return 128;
    default: return 0;
    }
}

const char *gp_target_reg_class_name(unsigned reg_class)
{
    switch (reg_class) {
    case GP_REGS_NV: return "NVIDIA, 255 registers per thread";
    case GP_REGS_256: return "AMD, 256 VGPRs per thread";
    case GP_REGS_128: return "AMD gfx11 under clang 15, 128 VGPRs per thread";
    default: return "unknown target";
    }
}
