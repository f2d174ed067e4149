/* Tuning tables: parse, validate, write and look up the per-device text file
 * the application kernels read their launch parameters from.
 *
 * Format and every key: docs/tuning-table.md; the key list itself lives in
 * table_keys.c.  In short:
 *
 *     [section]
 *     key = value          # <provenance>
 *
 * where value is an integer, a decimal, `none` (not detected; the comment says
 * why) or, for device.name/vendor/arch, free text, and provenance is one of
 * `measured <probe> <YYYY-MM-DD> [note]`, `published <source> [note]`,
 * `rule <name> [note]`, `swept <kernel> [note]`, or `assumed: <reason>` for a
 * fact no probe, source or rule gives: a conservative stand-in, said so.
 *
 * The parser is strict: an unknown section or key, a bad number, a value
 * outside the key's physical range, a duplicate key or section, a missing
 * required key, a missing provenance comment or any other line that is not a
 * section, a key or a comment is an error "FILE:LINE: reason" with code
 * GP_ERR_USAGE.  A table that loads is complete and consistent, so a kernel
 * never has to guess.
 *
 * A gp_table is a plain value (about 50 KB, no heap memory): copy it, keep it
 * on the stack, no free needed. */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "gp_status.h"
#include "table_keys.h"

#define GP_TABLE_MAX_KEYS 128
#define GP_TABLE_MAX_SECTIONS 32
#define GP_TABLE_TEXT_LEN 128
#define GP_TABLE_PROV_LEN 192
#define GP_TABLE_PATH_LEN 512
/* Files bigger than this are not tuning tables. */
#define GP_TABLE_MAX_FILE (1024 * 1024)
/* Name of a measured table inside a results directory (see gp_table_lookup). */
#define GP_TABLE_RESULTS_NAME "table.txt"
/* device.arch of the fallback table tables/generic. */
#define GP_TABLE_GENERIC_ARCH "generic"

typedef enum gp_prov_kind {
    GP_PROV_MEASURED = 0,
    GP_PROV_PUBLISHED = 1,
    GP_PROV_RULE = 2,
    GP_PROV_SWEPT = 3,
    GP_PROV_ASSUMED = 4  /* a conservative stand-in (tables/generic): "assumed: <reason>" */
} gp_prov_kind;

/* "measured", "published", "rule", "swept", "assumed". */
const char *gp_prov_kind_name(gp_prov_kind k);

typedef struct gp_table_entry {
    int present;                   /* the table has this key */
    int is_none;                   /* value is `none` (not detected) */
    long long i;                   /* GP_TV_INT value */
    double d;                      /* numeric value (ints too) */
    char text[GP_TABLE_TEXT_LEN];  /* GP_TV_TEXT value */
    char prov[GP_TABLE_PROV_LEN];  /* provenance comment, without the '#' */
    gp_prov_kind kind;
    int line;                      /* line in the file it came from; 0 when set in memory */
} gp_table_entry;

/* A kernel's parameters tuned for one class of its shapes (a find-db
 * entry): a section [kernel.<k>@<class>] holding the kernel's keys, every
 * line with the one `swept ...` provenance of the sweep that found them.
 * A launch of a shape of that class takes them (kernels/kernel.h). */
#define GP_TABLE_MAX_SHAPED 32
#define GP_TABLE_SHAPED_KEYS 16
#define GP_TABLE_CLASS_LEN 64
typedef struct gp_table_shaped {
    char kernel[32];
    char cls[GP_TABLE_CLASS_LEN];
    int nkeys;
    short ki[GP_TABLE_SHAPED_KEYS];    /* schema index of each key (a kernel.<k> key) */
    long long v[GP_TABLE_SHAPED_KEYS];
    char prov[GP_TABLE_PROV_LEN];      /* "swept <k> ...": one for the section */
    int line;                          /* its header's line; 0 when set in memory */
} gp_table_shaped;

typedef struct gp_table {
    char source[GP_TABLE_PATH_LEN];              /* file it was loaded from, or "" */
    gp_table_entry e[GP_TABLE_MAX_KEYS];         /* indexed like the schema (gp_table_key_at) */
    int section_line[GP_TABLE_MAX_SECTIONS];     /* header line per schema section, 0 if absent */
    int nlines;                                  /* lines in the source file */
    /* Its format's version (schema.h GP_TABLE_SCHEMA): the file's
     * `schema_version = M.m` line, written before the first section; 1.0
     * for a table without one.  Set before the parse can fail on it, so a
     * caller can tell a table of a newer gpuprobe from a broken one. */
    int schema_major, schema_minor;
    int schema_line;                             /* its line, 0 when absent */
    gp_table_shaped shaped[GP_TABLE_MAX_SHAPED]; /* the find-db entries, in file order */
    int nshaped;
} gp_table;

/* The major version of the table format this build reads and writes. */
int gp_table_schema_major(void);

/* An empty table (every key absent). */
void gp_table_init(gp_table *t);

/* Parse `text` (a whole file's contents); `name` is used in messages.  The
 * result is validated (gp_table_validate). */
gp_status gp_table_parse(gp_table *t, const char *text, const char *name);
/* Read and parse a file. */
gp_status gp_table_load(const char *path, gp_table *t);
/* The same for a facts table (`gpuprobe table derive`): its [kernel.*]
 * sections may be absent or partial (the rules fill them); everything else is
 * checked as gp_table_parse does.  The result is not a complete table until
 * the rules ran (gp_table_validate). */
gp_status gp_table_parse_facts(gp_table *t, const char *text, const char *name);
gp_status gp_table_load_facts(const char *path, gp_table *t);
/* Load and require device.arch == arch: a table written for another
 * architecture is rejected. */
gp_status gp_table_load_arch(const char *path, const char *arch, gp_table *t);

/* Whole-table checks: every required key present (vgpr_max/sgpr_max when the
 * vendor is AMD), and the cross-key rules (wave size fits the arch, L1 smaller
 * than L2, kernel tiles fit a block and the LDS, ...).  `name` for messages. */
gp_status gp_table_validate(const gp_table *t, const char *name);

/* `gpuprobe table check FILE`: GP_OK, or GP_ERR_USAGE / GP_ERR_IO with
 * "FILE:LINE: reason" for the first defect. */
gp_status gp_table_check_file(const char *path);
/* `gpuprobe table show FILE`: load, then print one line per key with its
 * unit and provenance. */
gp_status gp_table_show(const char *path, FILE *out);

/* Write the table as text: sections in schema order, values aligned, one
 * provenance comment per value.  The table must validate; parse(write(t))
 * equals t (gp_table_equal).  gp_table_write is atomic (temp file + rename). */
gp_status gp_table_write_file(const gp_table *t, FILE *f);
gp_status gp_table_write(const gp_table *t, const char *path);
/* The schema_version line and the sections, without the two header comment
 * lines (derive keeps the input's own header). */
gp_status gp_table_write_body(const gp_table *t, FILE *f);

/* 1 when both tables hold the same keys, values and provenance. */
int gp_table_equal(const gp_table *a, const gp_table *b);

/* Lookups.  GP_OK with *out set; otherwise
 *   GP_ERR_USAGE  section.key is not in the schema, has the wrong type for
 *                 this getter, or is absent from the table;
 *   GP_ERR_CHECK  the value is `none` (message carries the reason).
 * get_double also reads integer keys; get_int refuses decimal keys. */
gp_status gp_table_get_double(const gp_table *t, const char *section, const char *key, double *out);
gp_status gp_table_get_int(const gp_table *t, const char *section, const char *key, long long *out);
gp_status gp_table_get_text(const gp_table *t, const char *section, const char *key, const char **out);
/* The entry, or NULL when the key is unknown or absent. */
const gp_table_entry *gp_table_find(const gp_table *t, const char *section, const char *key);

/* The find-db entry of kernel k for shape class cls, or NULL. */
const gp_table_shaped *gp_table_shaped_find(const gp_table *t, const char *kernel, const char *cls);
/* Set key `key` of [kernel.<k>@<cls>] (the entry made when new; every key
 * of it takes `prov`, which must be `swept ...`).  GP_ERR_USAGE for a key
 * that is not the kernel's, a value outside its range, a class of other
 * characters than [A-Za-z0-9._^+-], or more than GP_TABLE_MAX_SHAPED
 * entries. */
gp_status gp_table_shaped_set(gp_table *t, const char *kernel, const char *cls, const char *key, long long v,
                              const char *prov);
/* Drop the entry of kernel k for class cls (nothing when there is none). */
void gp_table_shaped_drop(gp_table *t, const char *kernel, const char *cls);

/* Set a value with its provenance (grammar above), checked like a parsed
 * line (type, range, provenance).  Cross-key rules are checked when the table
 * is validated or written.  gp_table_set takes a number (integral for integer
 * keys); gp_table_set_text parses `value` like the file does (a number,
 * `none`, or text for text keys); gp_table_set_none marks the key not
 * detected, and `provenance` must then carry the reason. */
gp_status gp_table_set(gp_table *t, const char *section, const char *key, double value,
                       const char *provenance);
gp_status gp_table_set_text(gp_table *t, const char *section, const char *key, const char *value,
                            const char *provenance);
gp_status gp_table_set_none(gp_table *t, const char *section, const char *key,
                            const char *provenance);

/* Check a provenance comment (without '#').  is_none: the value is `none`,
 * so a reason must follow the kind and name. */
gp_status gp_table_check_provenance(const char *prov, int is_none, gp_prov_kind *kind);

/* Floors and rules may use a table's device facts only when they are this
 * device's: device.name equals `dev_name` and its provenance is measured.
 * Otherwise (another GPU's shipped table, a published or generic one) every
 * fact outside [device] name/vendor/arch/wave_size and the kernel.* sections
 * becomes `none` with the reason, so a floor falls back to what this device
 * reports or says it is unknown.  Returns 1 when the facts were kept; `why`
 * (size n, may be NULL) says which. */
int gp_table_keep_own_facts(gp_table *t, const char *dev_name, char *why, size_t n);

/* Find the table for a device of architecture `arch`, in this order:
 *   1. <results_dir>/table.txt   the device's own measured table (skipped
 *                                when results_dir is NULL or the file is absent)
 *   2. <tables_dir>/<arch>       the shipped table for the arch (tables/sm_90)
 *   3. <tables_dir>/generic      the conservative fallback (device.arch generic)
 * A table found in 1 or 2 whose device.arch is not `arch` is an error, not a
 * reason to fall through: it was written for another GPU.  A defective table
 * is an error too.  `chosen` (size n, may be NULL) gets the path used. */
gp_status gp_table_lookup(const char *results_dir, const char *tables_dir, const char *arch,
                          gp_table *t, char *chosen, size_t n);

#endif
