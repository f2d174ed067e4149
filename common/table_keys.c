/* The tuning-table schema (see table_keys.h and docs/tuning-table.md).
 *
 * One row per key.  Rows are grouped by section, and the order of sections
 * here is the order the writer emits them.  Ranges are inclusive physical
 * bounds, not tuning advice: they catch unit slips and corrupt files. */
#include "table_keys.h"

#include <string.h>

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
    {"cache.l1", "line_bytes", GP_TV_INT, "bytes", 16, 512, R | P2, "measured cache_line",
     "rules (access granularity)", "L1 line size"},
    {"cache.l1", "latency_cycles", GP_TV_DOUBLE, "cycles", 1, 2000, R, "measured cache_latency",
     "report", "L1 hit latency"},
    {"cache.l1", "far_latency_cycles", GP_TV_DOUBLE, "cycles", 1, 4000, 0, "measured cache_latency",
     "report", "second plateau where the level has two"},
    {"cache.l2", "bytes", GP_TV_INT, "bytes", 64 * KB, 4096 * MB, R, "measured cache_latency (pointer chase step)",
     "rules (blocking for L2 reuse)", "L2 capacity (whole device)"},
    {"cache.l2", "line_bytes", GP_TV_INT, "bytes", 16, 512, R | P2, "measured cache_line",
     "rules (access granularity)", "L2 line size"},
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
    {"channels", "pad_elems", GP_TV_INT, "elements", 0, 4096, R, "measured channel_conflicts, rule pad_from_channels",
     "gemm, padding, transpose (row pitch padding)", "4-byte elements added to a row pitch to spread channels"},

    /* ---- application kernels: every value is a launch parameter, never none */
    {"kernel.ssim", "tile_x", GP_TV_INT, "pixels", 8, 128, R | NN | P2, "rule tile_from_banks, swept ssim", "ssim", "output columns per row group (one thread each; 32, 64, 128 built)"},
    {"kernel.ssim", "tile_y", GP_TV_INT, "pixels", 1, 4096, R | NN, "rule ssim_halo, swept ssim", "ssim", "output rows per strip one row group walks (halo cost 10 / tile_y)"},
    {"kernel.ssim", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept ssim", "ssim", "threads per block (tile_x x row groups; at most 256 used)"},
    {"kernel.ssim", "variant", GP_TV_INT, "", 0, 1, NN, "rule ssim_variant, swept ssim", "ssim", "0: next pass prefetched into registers, 1: loaded after the vertical pass"},

    {"kernel.conv2d", "tile_x", GP_TV_INT, "pixels", 4, 64, R | NN | P2, "rule tile_from_lds, swept conv2d", "conv2d", "output tile width per block"},
    {"kernel.conv2d", "tile_y", GP_TV_INT, "pixels", 1, 64, R | NN, "rule tile_from_lds, swept conv2d", "conv2d", "output tile height per block"},
    {"kernel.conv2d", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept conv2d", "conv2d", "threads per block"},
    {"kernel.conv2d", "out_channels_per_block", GP_TV_INT, "channels", 1, 64, R | NN, "rule tile_from_registers, swept conv2d", "conv2d", "output channels one block computes"},
    {"kernel.conv2d", "variant", GP_TV_INT, "", 0, 3, NN, "rule generic-conservative, swept conv2d", "conv2d", "code path: 0 tiled with compiled kernel sizes, 1 tiled generic, 2 direct, 3 as 0 with the kernel-row loop rolled; optional, default 0"},

    {"kernel.transpose", "tile", GP_TV_INT, "elements", 8, 64, R | NN | P2, "rule tile_from_banks, swept transpose", "transpose", "square tile edge"},
    {"kernel.transpose", "pad", GP_TV_INT, "elements", 0, 8, R | NN, "rule pad_from_banks", "transpose", "LDS row padding against bank conflicts"},
    {"kernel.transpose", "block_rows", GP_TV_INT, "rows", 1, 64, R | NN | P2, "rule block_from_launch, swept transpose", "transpose", "tile rows per pass (block = tile x block_rows)"},
    {"kernel.transpose", "vec", GP_TV_INT, "elements", 1, 4, NN | P2, "rule generic-conservative, swept transpose", "transpose", "elements per global access (1, 2, 4: 4-, 8-, 16-byte loads/stores); optional, default 1"},
    {"kernel.transpose", "group", GP_TV_INT, "tile rows", 1, 4096, NN, "rule generic-conservative, swept transpose", "transpose", "tile rows per group of the block order (1: row-major tile order); optional, default 1"},
    {"kernel.transpose", "swizzle", GP_TV_INT, "", 0, 1, NN, "rule generic-conservative, swept transpose", "transpose", "1: unpadded shared tile with XOR-swizzled chunks and vector shared accesses (vec 2, 4; tiles 32, 64); optional, default 0"},
    {"kernel.transpose", "stream", GP_TV_INT, "", 0, 3, NN, "rule generic-conservative, swept transpose", "transpose", "streaming (evict-first) global accesses: bit 0 loads, bit 1 stores (tiles 32, 64); optional, default 0"},
    {"kernel.transpose", "tiles_per_block", GP_TV_INT, "tiles", 1, 64, NN, "rule generic-conservative, swept transpose", "transpose", "tiles one block moves (1: one tile per block, no grid-stride); optional, default 1"},

    {"kernel.reduce", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept reduce", "reduce", "threads per block"},
    {"kernel.reduce", "items_per_thread", GP_TV_INT, "vectors", 1, 64, R | NN, "rule ilp_from_dram_latency, swept reduce", "reduce", "16-byte loads (4 elements) each thread issues per pass, one accumulator each"},
    {"kernel.reduce", "grid_per_cu", GP_TV_INT, "blocks/CU", 1, 64, R | NN, "rule grid_from_occupancy, swept reduce", "reduce", "blocks launched per CU (grid-stride loop)"},
    {"kernel.reduce", "one_pass", GP_TV_INT, "", 0, 1, NN, "rule generic-conservative, swept reduce", "reduce", "1: one pass, as many blocks as the data needs (grid_per_cu unused); 0: grid_per_cu x CUs blocks, grid-stride; optional, default 0"},
    {"kernel.reduce", "stream", GP_TV_INT, "", 0, 1, NN, "rule generic-conservative, swept reduce", "reduce", "1: streaming (evict-first / non-temporal) 16-byte loads; optional, default 0"},

    {"kernel.gemm", "tile_m", GP_TV_INT, "elements", 16, 256, R | NN | P2, "rule tile_from_registers, swept gemm", "gemm", "block tile rows of C"},
    {"kernel.gemm", "tile_n", GP_TV_INT, "elements", 16, 256, R | NN | P2, "rule tile_from_registers, swept gemm", "gemm", "block tile columns of C"},
    {"kernel.gemm", "tile_k", GP_TV_INT, "elements", 4, 64, R | NN | P2, "rule tile_from_lds, swept gemm", "gemm", "depth of the LDS stage"},
    {"kernel.gemm", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept gemm", "gemm", "threads per block"},

    {"kernel.scan", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept scan", "scan", "threads per block"},
    {"kernel.scan", "items_per_thread", GP_TV_INT, "elements", 1, 32, R | NN, "rule ilp_from_dram_latency, swept scan", "scan", "elements per thread per tile, whole 16-byte vectors: 4, 8, 16 or 32 (others are rounded)"},

    {"kernel.histogram", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept histogram", "histogram", "threads per block"},
    {"kernel.histogram", "items_per_thread", GP_TV_INT, "elements", 1, 64, R | NN, "rule ilp_from_dram_latency, swept histogram", "histogram", "elements each thread bins"},
    {"kernel.histogram", "private_copies", GP_TV_INT, "copies", 1, 32, R | NN | P2, "rule copies_from_lds, swept histogram", "histogram", "LDS sub-histograms per block against atomic contention"},

    {"kernel.spmv", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept spmv", "spmv", "threads per block"},
    {"kernel.spmv", "threads_per_row", GP_TV_INT, "threads", 1, 32, R | NN | P2, "rule row_group_from_nnz, swept spmv", "spmv", "threads sharing one CSR row (within one wave on any GPU)"},

    {"kernel.stencil", "tile_x", GP_TV_INT, "points", 16, 128, R | NN | P2, "rule tile_from_line, swept stencil", "stencil", "tile width (threads in x)"},
    {"kernel.stencil", "tile_y", GP_TV_INT, "points", 1, 64, R | NN | P2, "rule tile_from_launch, swept stencil", "stencil", "tile height (threads in y)"},

    {"kernel.padding", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept padding", "padding", "threads per block"},
    {"kernel.padding", "channels_per_thread", GP_TV_INT, "channels", 1, 64, R | NN, "rule ilp_from_dram_latency, swept padding", "padding", "channels each thread copies (seed 2.13)"},

    {"kernel.batchnorm", "block", GP_TV_INT, "threads", 64, 1024, R | NN | P2, "rule block_from_launch, swept batchnorm", "batchnorm", "threads per block"},
    {"kernel.batchnorm", "threads_per_channel", GP_TV_INT, "threads", 1, 1024, R | NN | P2, "rule split_from_registers, swept batchnorm", "batchnorm", "threads sharing one channel's batch (seed 2.14)"},
};

#define NKEYS (sizeof keys / sizeof keys[0])

static const char *const kernels[] = {"ssim", "conv2d", "transpose", "reduce", "gemm", "scan",
                                      "histogram", "spmv", "stencil", "padding", "batchnorm"};

size_t gp_table_nkeys(void) { return NKEYS; }

const gp_table_key *gp_table_key_at(size_t i) { return i < NKEYS ? &keys[i] : NULL; }

int gp_table_key_index(const char *section, const char *key)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].key, key))
            return (int)i;
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

size_t gp_table_nkernels(void) { return sizeof kernels / sizeof kernels[0]; }

const char *gp_table_kernel_at(size_t i) { return i < gp_table_nkernels() ? kernels[i] : NULL; }
