/* The tuning-table schema (see table_keys.h and docs/tuning-table.md),
 * gathered from where each row's knowledge lives: the device's identity
 * here, each probe's facts from its folder, each kernel's parameters from
 * its folder.
 *
 * One row per key.  Ranges are inclusive physical bounds, not tuning
 * advice: they catch unit slips and corrupt files. */
#include "table_keys.h"

#include <string.h>
#include <threads.h>

/* One schema row and the place of its section in a table file. */
typedef struct schema_row {
    int place;
    gp_table_key k;
} schema_row;

#define GP_FACT(place, section, key, type, unit, min, max, flags, writer, reader, doc) \
    {place, {section, key, type, unit, min, max, flags, writer, reader, doc}},

/* Kernel sections come after every fact section. */
#define KERNEL_PLACE 1000000

static const schema_row rows[] = {
    /* [device]: the identity the runtime reports and the facts everything
     * else is scaled by; the table step fills them from any record. */
    GP_FACT(0, "device", "name", GP_TV_TEXT, "", 0, 0, GP_TK_REQUIRED | GP_TK_NO_NONE,
            "runtime device info", "report, lookup messages", "marketing name the runtime reports")
    GP_FACT(0, "device", "vendor", GP_TV_TEXT, "", 0, 0, GP_TK_REQUIRED | GP_TK_NO_NONE,
            "runtime device info", "validator (AMD keys), report", "AMD, NVIDIA, or generic for the fallback table")
    GP_FACT(0, "device", "arch", GP_TV_TEXT, "", 0, 0, GP_TK_REQUIRED | GP_TK_NO_NONE,
            "runtime device info", "gp_table_lookup (must match the requested arch)", "sm_90, gfx900, ... or generic")
    GP_FACT(0, "device", "wave_size", GP_TV_INT, "threads", 32, 64, GP_TK_REQUIRED | GP_TK_WAVE,
            "runtime device info, measured launch_rate",
            "rules (block multiples); kernels use GP_WAVE_SIZE, never this", "threads per wave/warp: 32 or 64")
    GP_FACT(0, "device", "compute_units", GP_TV_INT, "", 1, 4096, GP_TK_REQUIRED,
            "runtime device info, measured fma_throughput", "reduce/histogram grid sizing (via rules), report",
            "CUs (AMD) or SMs (NVIDIA)")
    GP_FACT(0, "device", "clock_mhz", GP_TV_DOUBLE, "MHz", 100, 5000, GP_TK_REQUIRED,
            "measured clock (cycle counter vs timer)", "cycle/ns conversions, report", "core clock the probes ran at")
    GP_FACT(0, "device", "global_bytes", GP_TV_INT, "bytes", 64 * GP_MIB, 1.0e15, 0,
            "runtime device info", "report", "device memory size")

    /* Every probe's fact rows, from its folder: microbench/<p>/<p>_facts.inc
     * through a list the top-level CMakeLists.txt generates. */
#include "gp_probe_facts.inc"

    /* Application kernels: every value is a launch parameter, never none.
     * Each kernel declares its parameters once, beside it, in
     * kernels/<k>/<k>_params.inc (kernels/params.h); the top-level
     * CMakeLists.txt generates the list of #include lines from the kernel
     * folders.  The default there is the reader's, not the schema's. */
#define GP_PARAM(k, key, unit, min, max, dflt, flags, doc)                                                           \
    {KERNEL_PLACE,                                                                                                   \
     {"kernel." #k, #key, GP_TV_INT, unit, min, max, (flags) | GP_TK_NO_NONE, "rule gp_" #k "_rule, swept " #k, #k, \
      doc}},
#include "gp_kernel_keys.inc"
#undef GP_PARAM
};
#undef GP_FACT

#define NKEYS (sizeof rows / sizeof rows[0])
_Static_assert(NKEYS < 1024 / 2, "the key hash wants its slots at most half full");

/* The kernel folders, from the same generated list as the registry. */
static const char *const kernels[] = {
#define GP_KERNEL(name) #name,
#include "gp_kernel_table.h"
#undef GP_KERNEL
    NULL /* keeps the array non-empty while no kernel exists */
};

/* Schema order: rows by the place of their section, in the order above
 * within a place (the device's, then the probes' by name, then the
 * kernels'), so a section two probes share stays one block.  Built once,
 * with the hash below. */
static const gp_table_key *ordered[NKEYS];

/* section.key -> row, hashed: every table read and every rule's fact goes
 * through here (the library derives a shape's parameters in microseconds).
 * Open addressing over a power of two well above the rows. */
#define HASH_SLOTS 1024
static short slot_row[HASH_SLOTS]; /* schema index + 1; 0: empty */
static once_flag schema_once = ONCE_FLAG_INIT;

static unsigned hash_of(const char *section, const char *key)
{
    unsigned h = 2166136261u; /* FNV-1a over "section" '.' "key" */
    for (const char *c = section; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    h = (h ^ '.') * 16777619u;
    for (const char *c = key; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    return h;
}

static void schema_build(void)
{
    size_t n = 0;
    const schema_row *sorted[NKEYS];
    for (size_t i = 0; i < NKEYS; i++) { /* stable insertion by place */
        size_t j = n++;
        for (; j > 0 && sorted[j - 1]->place > rows[i].place; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = &rows[i];
    }
    for (size_t i = 0; i < NKEYS; i++) {
        ordered[i] = &sorted[i]->k;
        unsigned h = hash_of(ordered[i]->section, ordered[i]->key) & (HASH_SLOTS - 1);
        while (slot_row[h])
            h = (h + 1) & (HASH_SLOTS - 1);
        slot_row[h] = (short)(i + 1);
    }
}

size_t gp_table_nkeys(void) { return NKEYS; }

const gp_table_key *gp_table_key_at(size_t i)
{
    call_once(&schema_once, schema_build);
    return i < NKEYS ? ordered[i] : NULL;
}

int gp_table_key_index(const char *section, const char *key)
{
    call_once(&schema_once, schema_build);
    for (unsigned h = hash_of(section, key) & (HASH_SLOTS - 1); slot_row[h]; h = (h + 1) & (HASH_SLOTS - 1)) {
        const gp_table_key *k = ordered[slot_row[h] - 1];
        if (!strcmp(k->key, key) && !strcmp(k->section, section))
            return slot_row[h] - 1;
    }
    return -1;
}

/* Sections are the distinct section names in schema order; the rows are
 * grouped, so a section starts where the name changes. */
static int section_starts(size_t i)
{
    return i == 0 || strcmp(gp_table_key_at(i)->section, gp_table_key_at(i - 1)->section) != 0;
}

size_t gp_table_nsections(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; i++)
        n += section_starts(i);
    return n;
}

const char *gp_table_section_at(size_t idx)
{
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; i++) {
        if (section_starts(i)) {
            if (n == idx)
                return gp_table_key_at(i)->section;
            n++;
        }
    }
    return NULL;
}

int gp_table_section_index(const char *section)
{
    size_t n = gp_table_nsections();
    for (size_t i = 0; i < n; i++)
        if (!strcmp(gp_table_section_at(i), section))
            return (int)i;
    return -1;
}

static const char *const known_kernels[] = {
#define GP_KERNEL(name) #name,
#include "gp_kernel_all.h"
#undef GP_KERNEL
    NULL};

int gp_table_kernel_known(const char *name)
{
    for (size_t i = 0; known_kernels[i]; i++)
        if (!strcmp(known_kernels[i], name))
            return 1;
    return 0;
}

size_t gp_table_nkernels(void) { return sizeof kernels / sizeof kernels[0] - 1; }

const char *gp_table_kernel_at(size_t i) { return i < gp_table_nkernels() ? kernels[i] : NULL; }
