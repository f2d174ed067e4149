/* The tuning-table schema (see table_keys.h and docs/tuning-table.md).
 *
 * One row per key.  Rows are grouped by section, and the order of sections
 * here is the order the writer emits them.  Ranges are inclusive physical
 * bounds, not tuning advice: they catch unit slips and corrupt files. */
#include "table_keys.h"

#include <string.h>
#include <threads.h>

#define KB 1024.0
#define MB (1024.0 * 1024.0)

/* Shorthands for the flags, to keep the rows on one line each. */
#define R GP_TK_REQUIRED
#define RA GP_TK_REQUIRED_AMD
#define P2 GP_TK_POW2
#define NN GP_TK_NO_NONE
#define W GP_TK_WAVE

/* Who reads the device facts: rules derive kernel parameters from them and
 * the report prints them; the kernels themselves read only kernel.*. */
#define RULES "tuning rules, report"

static const gp_table_key keys[] = {
    /* ---- device: identity and the facts everything else is scaled by */
    {"device", "name", GP_TV_TEXT, "", 0, 0, R | NN, "runtime device info",
     "report, lookup messages", "marketing name the runtime reports"},
    {"device", "vendor", GP_TV_TEXT, "", 0, 0, R | NN, "runtime device info",
     "validator (AMD keys), report", "AMD, NVIDIA, or generic for the fallback table"},
    {"device", "arch", GP_TV_TEXT, "", 0, 0, R | NN, "runtime device info",
     "gp_table_lookup (must match the requested arch)", "sm_90, gfx900, ... or generic"},
    {"device", "wave_size", GP_TV_INT, "threads", 32, 64, R | W, "runtime device info, measured launch_rate",
     "rules (block multiples); kernels use GP_WAVE_SIZE, never this", "threads per wave/warp: 32 or 64"},
    {"device", "compute_units", GP_TV_INT, "", 1, 4096, R, "runtime device info, measured fma_throughput",
     "reduce/histogram grid sizing (via rules), report", "CUs (AMD) or SMs (NVIDIA)"},
    {"device", "clock_mhz", GP_TV_DOUBLE, "MHz", 100, 5000, R, "measured clock (cycle counter vs timer)",
     "cycle/ns conversions, report", "core clock the probes ran at"},
    {"device", "global_bytes", GP_TV_INT, "bytes", 64 * MB, 1.0e15, 0, "runtime device info",
     "report", "device memory size"},

    /* ---- launch: what it costs to start work */
    {"launch", "peak_threads_per_cycle", GP_TV_DOUBLE, "threads/cycle", 0.01, 1.0e6, R, "measured launch_rate",
     RULES, "device-wide thread launch rate at the best block size"},
    {"launch", "min_block_for_peak", GP_TV_INT, "threads", 1, 1024, R, "measured launch_rate",
     "rules (smallest block a kernel should use)", "smallest block size reaching the peak launch rate"},
    {"launch", "launch_us", GP_TV_DOUBLE, "us", 0.05, 10000, R, "measured launch_rate",
     "rules (fuse vs split), report", "time per back-to-back empty kernel launch on a stream"},
    {"launch", "graph_launch_us", GP_TV_DOUBLE, "us", 0.01, 10000, R, "measured launch_rate",
     "report", "time per kernel node when launched as a graph"},
    {"launch", "blocks_per_cycle", GP_TV_DOUBLE, "blocks/cycle", 1.0e-4, 1000, 0, "measured launch_rate",
     "report", "device-wide block dispatch rate with tiny blocks"},

    /* ---- compute */
    {"compute", "fp32_fma_per_cycle_per_cu", GP_TV_DOUBLE, "FMA/cycle/CU", 1, 4096, R, "measured fma_throughput",
     "gemm/conv2d rules, report", "FP32 FMA lanes per CU per cycle"},
    {"compute", "fp32_peak_fraction", GP_TV_DOUBLE, "", 0.01, 1.0, R, "measured fma_throughput",
     "report, bench ratios", "measured FP32 peak / theoretical peak"},
    {"compute", "fp64_fma_per_cycle_per_cu", GP_TV_DOUBLE, "FMA/cycle/CU", 0.01, 4096, R, "measured fma_throughput",
     "report", "FP64 FMA lanes per CU per cycle"},
    {"compute", "min_waves_for_peak", GP_TV_INT, "waves/CU", 1, 256, R, "measured fma_throughput",
     "rules (occupancy target for block/grid)", "waves per CU needed to reach FP32 peak"},

    /* ---- registers */
    {"registers", "per_thread_max", GP_TV_INT, "registers", 16, 1024, R, "build register_limits, published vendor ISA guide",
     "gemm/conv2d rules (tile per thread)", "32-bit registers one thread may use"},
    {"registers", "per_cu", GP_TV_INT, "registers", 4096, 4194304, R, "published vendor ISA guide, measured occupancy",
     "rules (occupancy)", "32-bit registers per CU (all lanes)"},
    {"registers", "alloc_granule", GP_TV_INT, "registers", 1, 256, R | P2, "published vendor ISA guide",
     "rules (occupancy)", "per-thread register allocation granule"},
    {"registers", "vgpr_max", GP_TV_INT, "registers", 16, 1024, RA, "build register_limits (asm at rising VGPR numbers)",
     "rules (AMD occupancy)", "AMD: highest usable VGPR count per thread"},
    {"registers", "sgpr_max", GP_TV_INT, "registers", 8, 256, RA, "build register_limits (asm at rising SGPR numbers)",
     "rules (AMD occupancy)", "AMD: highest usable SGPR count per wave"},

    /* ---- caches */
    {"cache.l1", "bytes", GP_TV_INT, "bytes", 1 * KB, 16 * MB, R, "measured cache_latency (pointer chase step)",
     "batchnorm/ssim rules (working set per CU)", "L1 / vector cache capacity per CU"},
    {"cache.l1", "line_bytes", GP_TV_INT, "bytes", 16, 512, R | P2, "measured cache_latency (capacity knees vs stride)",
     "conv2d rule (lines staged per tile row)", "L1 line: the allocation and tag granule (128 B on NVIDIA, 64 B on gfx9)"},
    {"cache.l1", "sector_bytes", GP_TV_INT, "bytes", 16, 512, P2, "measured cache_latency (stride knee)",
     "rules (fetch granularity)", "L1 miss fetch granule: the sector (32 B on NVIDIA; the line where there are no sectors)"},
    {"cache.l1", "latency_cycles", GP_TV_DOUBLE, "cycles", 1, 2000, R, "measured cache_latency",
     "report", "L1 hit latency"},
    {"cache.l1", "far_latency_cycles", GP_TV_DOUBLE, "cycles", 1, 4000, 0, "measured cache_latency",
     "report", "second plateau where the level has two"},
    {"cache.l2", "bytes", GP_TV_INT, "bytes", 64 * KB, 4096 * MB, R, "measured cache_latency (pointer chase step)",
     "rules (blocking for L2 reuse)", "L2 capacity (whole device)"},
    {"cache.l2", "line_bytes", GP_TV_INT, "bytes", 16, 512, R | P2, "published vendor guide (not measured: L2 too large to sweep cheaply)",
     "rules (access granularity)", "L2 line: the allocation and tag granule (128 B on NVIDIA, 64 B on gfx9)"},
    {"cache.l2", "sector_bytes", GP_TV_INT, "bytes", 16, 512, P2, "measured cache_latency (stride knee)",
     "rules (fetch granularity)", "L2 miss fetch granule from DRAM (a sector or more: 64 B measured on the H200)"},
    {"cache.l2", "latency_cycles", GP_TV_DOUBLE, "cycles", 1, 5000, R, "measured cache_latency",
     "report", "L2 hit latency (near partition)"},
    {"cache.l2", "far_latency_cycles", GP_TV_DOUBLE, "cycles", 1, 10000, 0, "measured cache_latency",
     "report", "L2 hit latency in the far partition (H100/H200)"},

    /* ---- device memory */
    {"dram", "latency_cycles", GP_TV_DOUBLE, "cycles", 10, 20000, R, "measured cache_latency",
     "report", "DRAM load latency (pointer chase beyond L2)"},
    {"dram", "latency_ns", GP_TV_DOUBLE, "ns", 10, 10000, R, "measured cache_latency",
     "report", "the same in ns at the measured clock"},
    {"dram", "near_latency_cycles", GP_TV_DOUBLE, "cycles", 10, 20000, 0, "measured cache_latency (partition step)",
     "report", "DRAM latency of the lines served through the near L2 partition (the faster first-load class; H100/H200)"},
    {"dram", "far_latency_cycles", GP_TV_DOUBLE, "cycles", 10, 20000, 0, "measured cache_latency (partition step)",
     "report", "DRAM latency of the lines served through the far L2 partition (the slower first-load class; H100/H200)"},
    {"dram", "bandwidth_gbs", GP_TV_DOUBLE, "GB/s", 1, 100000, R, "measured memory_bandwidth",
     "bench ratios, report", "best measured copy/read bandwidth (1e9 B/s)"},
    {"dram", "peak_gbs", GP_TV_DOUBLE, "GB/s", 1, 100000, R, "published vendor datasheet",
     "report (efficiency)", "theoretical peak bandwidth"},

    /* ---- LDS / shared memory */
    {"lds", "bytes_per_cu", GP_TV_INT, "bytes", 4 * KB, 4 * MB, R, "runtime device info, published",
     "rules (occupancy), gemm/conv2d tile limits", "LDS / shared memory per CU"},
    {"lds", "bytes_per_block", GP_TV_INT, "bytes", 4 * KB, 4 * MB, 0, "runtime device info",
     "gemm/conv2d/ssim rules", "largest LDS allocation one block may make"},
    {"lds", "banks", GP_TV_INT, "", 1, 128, R | P2, "measured lds_banks",
     "transpose/ssim rules (pad)", "number of LDS banks"},
    {"lds", "bank_bytes", GP_TV_INT, "bytes", 1, 16, R | P2, "measured lds_banks",
     "transpose/ssim rules (pad)", "width of one bank"},
    {"lds", "latency_cycles", GP_TV_DOUBLE, "cycles", 1, 1000, R, "measured lds_latency",
     "report", "LDS load latency"},

    /* ---- memory channels */
    {"channels", "interleave_bytes", GP_TV_INT, "bytes", 32, 16 * MB, R | P2, "measured channel_conflicts",
     "rules (pad_elems)", "address interleave between memory channels"},
    {"channels", "count", GP_TV_INT, "", 1, 4096, R, "measured channel_conflicts, published",
     "rules (pad_elems)", "number of memory channels"},
    {"channels", "pad_elems", GP_TV_INT, "elements", 0, 4096, R, "measured channel_conflicts, published, assumed",
     "gemm, padding, transpose (row pitch padding)", "4-byte elements added to a row pitch to spread channels"},

    /* ---- the GPU's links (interconnect probe): optional, a table without them is complete */
    {"link", "h2d_pinned_gbs", GP_TV_DOUBLE, "GB/s", 0.01, 10000, 0, "measured interconnect",
     "rules (host transfer cost), report", "host-to-device copy bandwidth from pinned memory at the largest size"},
    {"link", "d2h_pinned_gbs", GP_TV_DOUBLE, "GB/s", 0.01, 10000, 0, "measured interconnect",
     "rules (host transfer cost), report", "device-to-host copy bandwidth to pinned memory at the largest size"},
    {"link", "pageable_pinned_ratio", GP_TV_DOUBLE, "", 0.001, 2, 0, "measured interconnect",
     "report", "pageable over pinned bandwidth at the largest size, the lesser of H2D and D2H"},
    {"link", "min_transfer_bytes_full_bw", GP_TV_INT, "bytes", 1, 1.0e13, 0, "measured interconnect",
     "rules (batch host transfers to at least this)", "smallest transfer from which both directions reach 90% of peak"},
    {"link", "h2d_latency_us", GP_TV_DOUBLE, "us", 0.01, 1.0e6, 0, "measured interconnect",
     "rules (host transfer cost), report", "time of one 4-byte pinned host-to-device copy"},
    {"link", "pcie_gbs", GP_TV_DOUBLE, "GB/s", 0.1, 10000, 0, "NVML PCIe generation and width",
     "report (efficiency)", "PCIe data rate per direction after line encoding"},
    {"link", "p2p_gbs", GP_TV_DOUBLE, "GB/s", 0.01, 100000, 0, "measured interconnect",
     "report", "lowest one-direction peer copy bandwidth over the GPU pairs"},
    {"link", "p2p_bidir_gbs", GP_TV_DOUBLE, "GB/s", 0.01, 100000, 0, "measured interconnect",
     "report", "lowest both-directions peer copy bandwidth over the GPU pairs"},

    /* ---- application kernels: every value is a launch parameter, never none.
     * Each kernel declares its parameters once, beside it, in
     * kernels/<k>/<k>_params.inc (kernels/params.h); the top-level
     * CMakeLists.txt generates the list of #include lines from the kernel
     * folders.  The default there is the reader's, not the schema's. */
#define GP_PARAM(k, key, unit, min, max, dflt, flags, doc) \
    {"kernel." #k, #key, GP_TV_INT, unit, min, max, (flags) | GP_TK_NO_NONE, "rule gp_" #k "_rule, swept " #k, #k, doc},
#include "gp_kernel_keys.inc"
#undef GP_PARAM
};

#define NKEYS (sizeof keys / sizeof keys[0])
_Static_assert(NKEYS < 1024 / 2, "the key hash wants its slots at most half full");

/* The kernel folders, from the same generated list as the registry. */
static const char *const kernels[] = {
#define GP_KERNEL(name) #name,
#include "gp_kernel_table.h"
#undef GP_KERNEL
    NULL /* keeps the array non-empty while no kernel exists */
};

size_t gp_table_nkeys(void) { return NKEYS; }

const gp_table_key *gp_table_key_at(size_t i) { return i < NKEYS ? &keys[i] : NULL; }

/* section.key -> row, hashed: every table read and every rule's fact goes
 * through here (the library derives a shape's parameters in microseconds).
 * Open addressing over a power of two well above the rows; built once. */
#define HASH_SLOTS 1024
static short slot_row[HASH_SLOTS]; /* row + 1; 0: empty */
static once_flag hash_once = ONCE_FLAG_INIT;

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

static void hash_build(void)
{
    for (size_t i = 0; i < NKEYS; i++) {
        unsigned h = hash_of(keys[i].section, keys[i].key) & (HASH_SLOTS - 1);
        while (slot_row[h])
            h = (h + 1) & (HASH_SLOTS - 1);
        slot_row[h] = (short)(i + 1);
    }
}

int gp_table_key_index(const char *section, const char *key)
{
    call_once(&hash_once, hash_build);
    for (unsigned h = hash_of(section, key) & (HASH_SLOTS - 1); slot_row[h]; h = (h + 1) & (HASH_SLOTS - 1)) {
        const gp_table_key *k = &keys[slot_row[h] - 1];
        if (!strcmp(k->key, key) && !strcmp(k->section, section))
            return slot_row[h] - 1;
    }
    return -1;
}

/* Sections are the distinct keys[].section values in order of appearance;
 * the rows are grouped, so a section starts where the name changes. */
size_t gp_table_nsections(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; i++)
        n += i == 0 || strcmp(keys[i].section, keys[i - 1].section) != 0;
    return n;
}

const char *gp_table_section_at(size_t idx)
{
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; i++) {
        if (i == 0 || strcmp(keys[i].section, keys[i - 1].section) != 0) {
            if (n == idx)
                return keys[i].section;
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
