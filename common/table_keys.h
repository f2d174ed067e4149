/* The tuning-table schema: the one list of every section and key a tuning
 * table may hold, with its unit, value type, physical range, whether it is
 * required, which probe or rule writes it and which kernel reads it.
 *
 * The parser rejects anything not listed, so adding a key means adding one
 * row where its knowledge lives (and a line in docs/tuning-table.md): a
 * [device] identity row in table_keys.c, a probe's fact in its
 * microbench/<p>/<p>_facts.inc (GP_FACT, microbench/probe.h), a kernel's
 * parameter in its kernels/<k>/<k>_params.inc (GP_PARAM, kernels/params.h).
 * table_keys.c gathers them through lists the top-level CMakeLists.txt
 * generates from the folders.  Ranges are physical plausibility bounds,
 * wide enough for every GPU we know of and narrow enough to catch unit
 * mistakes (KiB written as bytes, ns as cycles). */
#ifndef GP_TABLE_KEYS_H
#define GP_TABLE_KEYS_H

#include <stddef.h>

typedef enum gp_table_vtype {
    GP_TV_INT = 0,     /* decimal integer, no fraction, no exponent */
    GP_TV_DOUBLE = 1,  /* decimal number */
    GP_TV_TEXT = 2     /* free text (device name, vendor, arch) */
} gp_table_vtype;

/* Key flags. */
#define GP_TK_REQUIRED 0x01u     /* every table carries it (value or none) */
#define GP_TK_REQUIRED_AMD 0x02u /* required when device.vendor is AMD */
#define GP_TK_POW2 0x04u         /* value must be a power of two */
#define GP_TK_NO_NONE 0x08u      /* `none` is not allowed: kernels need a value */
#define GP_TK_WAVE 0x10u         /* value must be 32 or 64 */

/* Byte units for the ranges of the rows. */
#define GP_KIB 1024.0
#define GP_MIB (1024.0 * 1024.0)

typedef struct gp_table_key {
    const char *section;  /* "device", "cache.l2", "kernel.gemm" */
    const char *key;      /* "bytes" */
    gp_table_vtype type;
    const char *unit;     /* "bytes", "cycles", "us", "GB/s", "" for counts */
    double min, max;      /* inclusive physical range (ignored for text) */
    unsigned flags;
    const char *writer;   /* probe or rule that produces it */
    const char *reader;   /* kernels / code that consume it */
    const char *doc;      /* one line: what it means */
} gp_table_key;

/* Number of keys in the schema and the i-th one (schema order: grouped by
 * section, sections by their place, the order the writer emits them). */
size_t gp_table_nkeys(void);
const gp_table_key *gp_table_key_at(size_t i);
/* Index of section.key, or -1 when the schema has no such key. */
int gp_table_key_index(const char *section, const char *key);

/* Sections in schema order. */
size_t gp_table_nsections(void);
const char *gp_table_section_at(size_t i);
/* Index of a section name, or -1 when unknown. */
int gp_table_section_index(const char *section);
/* Every section in the schema is required (a table is complete or invalid),
 * so kernels never have to fall back key by key. */

/* 1 when `name` is a kernel of the source tree, built here or not (a table
 * may carry the section of a kernel a -DGP_KERNELS build leaves out). */
int gp_table_kernel_known(const char *name);

/* The application kernels that have a [kernel.<name>] section. */
size_t gp_table_nkernels(void);
const char *gp_table_kernel_at(size_t i);

#endif
