/* The vendors' published figures per product (specs/<product>.txt, format
 * in specs/README.md): the datasheet sets each beside the measured figure,
 * as a fraction with a band and a verdict, so one GPU can be judged alone. */
#ifndef GP_SPECS_H
#define GP_SPECS_H

#include <stddef.h>

#include "gp_status.h"

enum {
    GP_SPEC_CLOCK_MHZ,
    GP_SPEC_COMPUTE_UNITS,
    GP_SPEC_FP32_TFLOPS,
    GP_SPEC_FP64_TFLOPS,
    GP_SPEC_DRAM_GBS,
    GP_SPEC_L2_BYTES,
    /* Dense matrix-engine peaks (tensor cores, MFMA), FLOP/s x 1e-12 (int8:
     * OP/s): the vendors' figures "with sparsity" are twice these. */
    GP_SPEC_FP16_MATRIX_TFLOPS,
    GP_SPEC_BF16_MATRIX_TFLOPS,
    GP_SPEC_TF32_MATRIX_TFLOPS,
    GP_SPEC_FP32_MATRIX_TFLOPS,
    GP_SPEC_INT8_MATRIX_TOPS,
    GP_SPEC_FP8_MATRIX_TFLOPS,
    GP_SPEC_NFIGURES
};

#define GP_SPEC_MATCHES 4

typedef struct gp_spec {
    char file[64];                      /* "nvidia-h200.txt" */
    char name[96];                      /* "NVIDIA H200 SXM 141GB" */
    char match[GP_SPEC_MATCHES][48];    /* device-name texts, "" past the last */
    double v[GP_SPEC_NFIGURES];         /* 0: the file does not give it */
    char src[GP_SPEC_NFIGURES][200];    /* each figure's source */
    int fp32_packed;                    /* fp32_tflops counts packed FP32: one FMA a lane is half */
} gp_spec;

/* The figure's key in a spec file ("dram_gbs"), or NULL past the end. */
const char *gp_spec_key(int figure);
/* The figure of a datasheet key (gp_probe_headline.spec), or -1. */
int gp_spec_figure(const char *key);

/* Parse one spec file: every line `key = value # source`, known keys, a
 * positive value and a source for each figure, at least one match and a
 * name.  GP_ERR_USAGE naming FILE:LINE otherwise. */
gp_status gp_spec_load(const char *path, gp_spec *s);

/* Whether `text` occurs in `device_name` as whole words (what follows and
 * precedes it is not a letter or digit: "MI25" is not in "MI250X"). */
int gp_spec_matches(const char *device_name, const char *text);

/* The spec in `dir` (its *.txt files in name order, the first a match of
 * which the device name contains) into s: 1 found, 0 none matches (or no
 * such folder); a file that does not parse is an error naming it. */
gp_status gp_spec_find(const char *dir, const char *device_name, gp_spec *s, int *found);

/* gp_spec_find in the specs/ folder beside the shipped tables' folder
 * (tables_dir/../specs: the source tree's and the installed share/gpuprobe
 * alike); tables_dir NULL or "": none found. */
gp_status gp_spec_find_beside(const char *tables_dir, const char *device_name, gp_spec *s, int *found);

/* Whether a figure is a rate given in 1e12 per second (the FMA and matrix
 * peaks), which gp_spec_value scales to per second. */
int gp_spec_is_tera(int figure);

/* The published value in the datasheet's units: clock MHz, CUs, FLOP/s,
 * GB/s, bytes; fp32 of a packed-FP32 spec halved (one FMA a lane).  0 when
 * the spec lacks it. */
double gp_spec_value(const gp_spec *s, int figure);

#endif
