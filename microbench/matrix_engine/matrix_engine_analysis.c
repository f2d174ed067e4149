#include "matrix_engine_analysis.h"

#include <math.h>
#include <string.h>

#include "matrix_engine.h"

double gp_mma_flops_per_inst(int m, int n, int k)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    return 2.0 * m * n * k;
}

double gp_mma_per_cycle(double ops, double ms, double mhz)
{
    if (!(ms > 0) || !(mhz > 0))
        return NAN;
    return ops / (ms * 1e-3 * mhz * 1e6);
}

double gp_mma_tflops(double ops, double ms)
{
    if (!(ms > 0))
        return NAN;
    return ops / (ms * 1e-3) / 1e12;
}

double gp_mma_latency_cycles(double ms, double mhz, double insts)
{
    if (!(ms > 0) || !(mhz > 0) || !(insts > 0))
        return NAN;
    return ms * 1e-3 * mhz * 1e6 / insts;
}

int gp_mma_precision(int op)
{
    /* Each op's input precision: the mma.sync / MFMA / WMMA ops are the
     * precisions themselves, each wgmma op maps to the one it shares. */
    static const int prec[] = {
        GP_MMA_FP16, GP_MMA_BF16, GP_MMA_TF32, GP_MMA_FP32, GP_MMA_INT8, GP_MMA_FP8, /* themselves */
        GP_MMA_FP16, GP_MMA_BF16, GP_MMA_TF32, GP_MMA_INT8, GP_MMA_FP8,              /* the wgmma ops */
    };
    _Static_assert(sizeof prec / sizeof prec[0] == GP_MMA_NOPS, "one precision per op");
    if (op < 0 || op >= GP_MMA_NOPS)
        return -1;
    return prec[op];
}

int gp_mma_choose_peak(const double *rates, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(rates[i]) && rates[i] > 0 && (best < 0 || rates[i] > rates[best]))
            best = (int)i;
    return best;
}

static int starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The sm_NN number of an NVIDIA arch name, 0 for any other. */
static int sm_number(const char *arch)
{
    int n = 0;
    if (!starts(arch, "sm_"))
        return 0;
    for (const char *c = arch + 3; *c >= '0' && *c <= '9'; c++)
        n = 10 * n + (*c - '0');
    return n;
}

static const char *nvidia_reason(int sm, int op)
{
    if (sm < 80)
        return "the probe's mma.sync kernels are built for sm_80 and newer";
    if (op == GP_MMA_FP32)
        return "NVIDIA tensor cores take no fp32 inputs; fp32 GEMMs run them as tf32";
    if (op == GP_MMA_FP8 && sm < 89)
        return "mma with .e4m3 inputs needs sm_89 or newer (PTX ISA)";
    if (op == GP_MMA_FP8 && sm == 90)
        return "sm_90 has no fp8 mma.sync: ptxas emulates it with F2FP conversions and f16 HMMA (SASS), "
               "so its instruction count is no fp8 rate; Hopper's fp8 is warpgroup MMA";
    if (gp_mma_is_wgmma(op))
        return sm == 90 ? "needs sm_90a code; this binary carries none for this device (a build for sm_90 adds it)"
                        : "wgmma exists on sm_90a only (PTX ISA)";
    return "no kernel for this op in this binary's code for the device";
}

static const char *amd_reason(const char *arch, int op)
{
    if (gp_mma_is_wgmma(op))
        return "warpgroup MMA is NVIDIA Hopper's; AMD has none";
    if (starts(arch, "gfx900") || starts(arch, "gfx906") || starts(arch, "gfx10"))
        return "no matrix unit on this GPU (GCN gfx900/906, RDNA1/2)";
    if (starts(arch, "gfx908"))
        return "CDNA1 (gfx908) MFMA is not built by this probe";
    if (starts(arch, "gfx90a")) {
        if (op == GP_MMA_TF32 || op == GP_MMA_FP8)
            return "CDNA2 MFMA has no xf32 or fp8 inputs (CDNA3 added them)";
    }
    if (starts(arch, "gfx11")) {
        if (op == GP_MMA_TF32 || op == GP_MMA_FP32 || op == GP_MMA_FP8)
            return "RDNA3 WMMA takes f16, bf16, iu8 and iu4 inputs only";
    }
    return "no matrix instruction for this op in this binary's code for the device";
}

const char *gp_mma_none_reason(const char *arch, int op)
{
    if (starts(arch, "sm_"))
        return nvidia_reason(sm_number(arch), op);
    if (starts(arch, "gfx"))
        return amd_reason(arch, op);
    return "unknown architecture: no matrix instruction known for it";
}

int gp_mma_block_sizes(int group, int max_threads, int *out, int cap)
{
    int n = 0;
    if (group <= 0)
        return 0;
    for (int g = 1; g * group <= max_threads && n < cap;) {
        out[n++] = g * group;
        /* Every group up to 4, then 6, 8, 12, 16, 24, 32: x1.5 from a
         * power of two, x4/3 to the next one. */
        g = g < 4 ? g + 1 : (g & (g - 1)) == 0 ? g * 3 / 2 : g * 4 / 3;
    }
    return n;
}
