/* Analysis of the interconnect probe: pure, series in, values out
 * (unit-tested without a GPU in tests/unit/test_interconnect.c). */
#ifndef GP_PROBE_INTERCONNECT_ANALYSIS_H
#define GP_PROBE_INTERCONNECT_ANALYSIS_H

#include <stddef.h>

/* The fraction of the peak a transfer size must reach to count as full
 * bandwidth (the `[link] min_transfer_bytes_full_bw` key). */
#define GP_IC_FULL_BW_FRAC 0.90

/* PCIe line rate per lane in GT/s (2.5, 5, 8, 16, 32, 64 for generations
 * 1..6) and the fraction of it that carries data after line encoding: 8b/10b
 * for gen1/2, 128b/130b for gen3..5, 1 for gen6 (PAM4 with FLIT mode: no
 * line code, the FLIT's CRC and FEC are framing like the TLP headers, which
 * are not modelled for any generation).  NaN for a generation outside 1..6. */
double gp_ic_pcie_gts(int gen);
double gp_ic_pcie_encoding(int gen);
/* Data rate of one direction of a link of `width` lanes in GB/s (1e9 B/s):
 * GT/s x encoding x width / 8.  Gen5 x16: 63.0 GB/s.  NaN for an unknown
 * generation or width < 1. */
double gp_ic_pcie_gbs(int gen, int width);

/* The smallest transfer size at full bandwidth: bytes[] ascending, gbs[] the
 * bandwidth at each size; the peak is the largest size's.  Returns the first
 * index from which every size reaches frac x peak, so a noisy early point
 * that touches the level and falls back does not count.  -1 when the peak is
 * not a positive number or when only the largest size reaches it (the curve
 * still rises: no plateau to reach). */
int gp_ic_full_bw_index(const double *bytes, const double *gbs, size_t n, double frac);

/* A GPU-by-GPU matrix of one P2P figure, [src][dst] with data flowing from
 * src to dst; NaN where not measured, the diagonal always NaN. */
#define GP_IC_MAX_GPUS 16
typedef struct gp_ic_matrix {
    int n;
    double v[GP_IC_MAX_GPUS][GP_IC_MAX_GPUS];
} gp_ic_matrix;

/* 0 when n is outside 1..GP_IC_MAX_GPUS (m then holds n = 0). */
int gp_ic_matrix_init(gp_ic_matrix *m, int n);
/* 0 when src or dst is out of range or src == dst. */
int gp_ic_matrix_set(gp_ic_matrix *m, int src, int dst, double v);

typedef struct gp_ic_summary {
    int pairs;                /* off-diagonal cells with a finite value */
    double min, median, max;  /* over those cells; NaN when pairs == 0 */
    int min_src, min_dst;     /* the pair of the lowest value; -1 when none */
    int max_src, max_dst;     /* the pair of the highest value (the slowest for a latency); -1 when none */
} gp_ic_summary;
/* Summarize the measured pairs; returns s->pairs. */
int gp_ic_matrix_summarize(const gp_ic_matrix *m, gp_ic_summary *s);
/* One row as text: "GPU 0 -> | - | 370.1 | n/a |" with `decimals` digits,
 * a Markdown table row (header: gp_ic_matrix_header).  Returns the length
 * written, 0 when src is out of range or buf too short. */
size_t gp_ic_matrix_row(const gp_ic_matrix *m, int src, int decimals, char *buf, size_t len);
/* "from \\ to | GPU 0 | GPU 1 |" and its separator line, for m's size. */
size_t gp_ic_matrix_header(const gp_ic_matrix *m, char *buf, size_t len);

/* One NVLink's data rate, one direction, in GB/s (1e9 B/s), for the NVIDIA
 * data-centre architectures whose NVLink generation the architecture fixes,
 * from NVIDIA's published totals (all links, both directions):
 *   sm_60 P100  NVLink 1:  4 links, 160 GB/s -> 20 per link per direction;
 *   sm_70 V100  NVLink 2:  6 links, 300 GB/s -> 25;
 *   sm_80 A100  NVLink 3: 12 links, 600 GB/s -> 25;
 *   sm_90 H100/H200 NVLink 4: 18 links, 900 GB/s -> 25;
 *   sm_100 B200 NVLink 5: 18 links, 1800 GB/s -> 50.
 * NaN for anything else (sm_86/89 boards, AMD, ""): their link is not fixed
 * by the architecture, and no rate is made up.  The GPU's NVLink rate is
 * this times the links NVML reports active. */
double gp_ic_nvlink_link_gbs(const char *arch);

/* Why the P2P values cannot be measured with `ngpus` visible: "one GPU
 * visible", "no GPU visible"; NULL when there are two or more. */
const char *gp_ic_p2p_reason(int ngpus);



/* A pointer-chase chain for the latency kernels: `nodes` nodes `stride`
 * elements apart in next[] (nodes x stride elements), linked into one cycle
 * in a pseudo-random order from `seed` (Sattolo's algorithm), node 0 at
 * index 0.  Following fewer than `nodes` links from 0 never revisits a node,
 * so no cache serves a load twice.  0 when nodes < 2 or stride < 1. */
int gp_ic_chain_build(unsigned *next, size_t nodes, size_t stride, unsigned seed);
#endif
