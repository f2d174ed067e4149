#include "gp_target.h"

#include <string.h>

/* gfx11 is GP_REGS_128: clang 15 caps every gfx11 kernel at 128 VGPRs
 * (gp_target.h); every other AMD target grants 256. */
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
    return len == 4 && num[0] == '1' && num[1] == '1' ? GP_REGS_128 : GP_REGS_256;
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
