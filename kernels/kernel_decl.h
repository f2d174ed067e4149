/* What every kernels/<k>/<k>_bench.c declares the same way, from the
 * kernel's bare name.  A bench file says
 *
 *     #include "<k>.h"
 *     #define GP_KERNEL_NAME <k>
 *     #include "kernel_decl.h"
 *
 * and has
 *   params[], NPARAMS    the descriptors of <k>_params.inc for the struct
 *                        gp_<k>_params (params.h)
 *   fit()                gp_<k>_params_fit as gp_kernel.fit
 *   GP_KERNEL_DECLARED   the gp_kernel fields that follow from the name: .name,
 *                        the parameters and their struct's layout, .fit, .rule
 *                        (gp_<k>_rule) and the variants (its `variants` array,
 *                        NPARAMS values a row)
 *   GP_KERNEL_SHAPE_FORMAT(f, syntax), GP_KERNEL_SHAPE_RANDOM(f)
 *                        shape_parse / shape_label / shape_random from a
 *                        declared gp_shape_format (shape_format.h)
 * and the headers a bench file uses: the kernel interface, the problem's
 * memory (kmem.h), data and labels (data.h), the driver's problem calls. */
#ifndef GP_KERNEL_NAME
#error "define GP_KERNEL_NAME (the kernel's bare name) before including kernel_decl.h"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "driver_problem.h"
#include "kernel.h"
#include "kmem.h"
#include "shape_format.h"

#define GP_KD_STR2(x) #x
#define GP_KD_STR(x) GP_KD_STR2(x)
#define GP_KD_CAT2(a, b, c) a##b##c
#define GP_KD_CAT(a, b, c) GP_KD_CAT2(a, b, c)
#define GP_KD_INC2(k) GP_KD_STR(k##_params.inc)
#define GP_KD_INC(k) GP_KD_INC2(k)
#define GP_KD_PARAMS GP_KD_CAT(gp_, GP_KERNEL_NAME, _params)

static const gp_param params[] = {
#define GP_PARAM(k, key, unit, lo, hi, dflt, flags, doc) GP_PARAM_ROW(GP_KD_PARAMS, key, lo, hi, dflt, flags),
#include GP_KD_INC(GP_KERNEL_NAME)
#undef GP_PARAM
};
#define NPARAMS ((int)(sizeof params / sizeof params[0]))

static void fit(void *p, const gp_device_info *dev) { GP_KD_CAT(gp_, GP_KERNEL_NAME, _params_fit)(p, dev); }

#define GP_KERNEL_DECLARED                                                                                      \
    .name = GP_KD_STR(GP_KERNEL_NAME), .params = params, .nparams = NPARAMS, .params_size = sizeof(GP_KD_PARAMS), \
    .note_offset = offsetof(GP_KD_PARAMS, note), .note_size = sizeof(((GP_KD_PARAMS *)0)->note), .fit = fit,     \
    .rule = GP_KD_CAT(gp_, GP_KERNEL_NAME, _rule), .variants = &variants[0][0],                                  \
    .nvariants = (int)(sizeof variants / sizeof variants[0])

#define GP_KERNEL_SHAPE_FORMAT(f, syntax)                                               \
    static gp_status shape_parse(const char *spec, gp_shape *s)                         \
    {                                                                                   \
        return gp_shape_format_parse(&(f), GP_KD_STR(GP_KERNEL_NAME), syntax, spec, s); \
    }                                                                                   \
    static void shape_label(const gp_shape *s, char *buf, size_t n) { gp_shape_format_label(&(f), s, buf, n); }
#define GP_KERNEL_SHAPE_RANDOM(f) \
    static void shape_random(uint64_t *rng, gp_shape *s) { gp_shape_format_random(&(f), rng, s); }
