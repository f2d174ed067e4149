/* Analysis of the lds probe: the bank geometry of shared memory from
 * conflict degrees, and the padding that removes the conflicts of a column
 * read.  Pure C over arrays, unit-tested on synthetic and recorded series. */
#ifndef GP_LDS_ANALYSIS_H
#define GP_LDS_ANALYSIS_H

#include <stddef.h>

/* Shared-memory bank geometry from conflict degrees of `elem_bytes`-wide
 * accesses at power-of-two strides (in elements): degree[i] = time at
 * stride[i] / time at stride 1.  With B banks of w bytes, the first
 * power-of-two stride that conflicts is s_c = 2w / elem (two lanes a bank
 * apart) and the degree doubles with the stride until it saturates at
 * s_sat = B w / elem.  Writes *bank_bytes = elem s_c / 2 and
 * *banks = s_sat elem / bank_bytes; returns 0, or -1 when no conflict is
 * seen or the degree never stops doubling within the strides given.
 * The geometry is the effective one for these accesses: hardware that
 * serves half a wave per pass with 2B banks of w/2 bytes reads the same. */
int gp_mem_bank_geometry(const double *stride, const double *degree, size_t n, int elem_bytes,
                         int *banks, int *bank_bytes, double *confidence);

/* Padding p in 0..max_pad with the smallest degree at stride tile + p
 * (the column read of a [rows][tile + p] tile of elements); ties go to the
 * smallest p.  Returns -1 when any stride tile + p is missing. */
int gp_mem_best_pad(const double *stride, const double *degree, size_t n, int tile, int max_pad,
                    double *degree_out);

/* The probe's parameters (shared with the tests on recorded series): the
 * bank geometry is read from accesses of this width, and the pad of a
 * column read is chosen in 0..GP_LDS_MAX_PAD. */
#define GP_LDS_BANK_ELEM_BYTES 4
#define GP_LDS_MAX_PAD 4

#endif
