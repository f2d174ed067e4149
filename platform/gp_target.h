/* Register classes of the compiled targets: how many registers the compiler
 * lets one thread of a kernel keep, which decides the register blocks a
 * kernel can instantiate there without spilling.  Pure C, no vendor API:
 * host code asks by target name (gp_target_reg_class), device code reads the
 * compile-time GP_REG_CLASS / GP_VGPR_BUDGET of gp_device.h, and both use
 * the same class bits, so a kernel's list of shapes per class (a mask per
 * shape) is written once and read on both sides.
 *
 *   GP_REGS_NV   NVIDIA: 255 registers per thread (ptxas; launch bounds
 *                choose fewer).
 *   GP_REGS_256  AMD gfx9/gfx10: 256 VGPRs per thread (gfx90a/gfx940 can add
 *                AGPRs, which these kernels do not use).
 *   GP_REGS_128  AMD gfx11 as clang 15 (Debian 12's ROCm 5.2) compiles it:
 *                at most 128 VGPRs per thread whatever the launch bounds,
 *                wave size, amdgpu_waves_per_eu or amdgpu_num_vgpr (the same
 *                IR gets up to 256 for gfx1030; `.vgpr_count` in the -S
 *                output).  A kernel tuned for 256 spills to scratch there, so
 *                each kernel instantiates for this class only the shapes that
 *                fit 128.
 *
 * The rule that maps a target to its class is in two places that must agree:
 * gp_target_reg_class (by name: "gfx11..." is GP_REGS_128) and gp_device.h
 * (by the compiler's __GFX11__).  tests/build/check_gpu_build.sh holds every
 * class to no scratch; tests/unit/test_target.c holds the names. */
#ifndef GP_TARGET_H
#define GP_TARGET_H

#define GP_REGS_NV 1u
#define GP_REGS_256 2u
#define GP_REGS_128 4u

#ifdef __cplusplus
extern "C" {
#endif

/* The class of a target name ("sm_90", "gfx900", "gfx1100"; feature
 * suffixes such as ":xnack-" ignored); 0 for a name of neither vendor. */
unsigned gp_target_reg_class(const char *arch);
/* Registers one thread may hold in a class (255, 256, 128; 0 for 0). */
int gp_target_reg_budget(unsigned reg_class);
/* 1 for a target with the bulk copy engine that gp_device.h's gp_bulk_load
 * drives (NVIDIA sm_90 and later: PTX ISA 8.0 cp.async.bulk), else 0. */
int gp_target_has_bulk_copy(const char *arch);
/* Shared memory the runtime keeps back from each resident block, which an
 * occupancy count adds to the block's own: 1024 bytes on NVIDIA targets
 * (CUDA C++ Programming Guide, "Shared Memory" for compute capability 8.x
 * and 9.x: 1 KB per block for system use; the H200's 233472 B hold 6 blocks
 * of 32 KiB, not 7), 0 on AMD (none documented) and unknown names. */
int gp_target_lds_block_reserve(const char *arch);
/* Threads one CU (SM) holds resident: 2048 on NVIDIA sm_80/sm_90 (64 warps:
 * CUDA C++ Programming Guide, compute capabilities table); on AMD 4 SIMDs x
 * the waves a SIMD holds x 64: 10 waves on gfx9 before gfx90a (2560: AMD
 * Vega ISA guide), 8 on gfx90a and gfx94x (2048: AMD CDNA2/CDNA3 ISA
 * guides).  0 for a name this does not know (wave64 RDNA modes, unknown
 * targets): the caller's stand-in. */
int gp_target_threads_per_cu(const char *arch);
/* "NVIDIA, 255 registers/thread" etc., for messages. */
const char *gp_target_reg_class_name(unsigned reg_class);

#ifdef __cplusplus
}
#endif
#endif
