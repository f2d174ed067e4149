#include "interconnect_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

/* PCI Express Base Specification line rates, generations 1..6. */
static const double gts[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};

double gp_ic_pcie_gts(int gen)
{
    return gen >= 1 && gen <= 6 ? gts[gen - 1] : NAN;
}

double gp_ic_pcie_encoding(int gen)
{
    if (gen == 1 || gen == 2)
        return 8.0 / 10.0;
    if (gen >= 3 && gen <= 5)
        return 128.0 / 130.0;
    if (gen == 6)
        return 1.0;
    return NAN;
}

double gp_ic_pcie_gbs(int gen, int width)
{
    if (width < 1)
        return NAN;
    return gp_ic_pcie_gts(gen) * gp_ic_pcie_encoding(gen) * width / 8.0;
}

int gp_ic_full_bw_index(const double *bytes, const double *gbs, size_t n, double frac)
{
    (void)bytes; /* ascending by contract: the index is the size */
    if (n < 2 || !(gbs[n - 1] > 0) || !isfinite(gbs[n - 1]))
        return -1;
    double level = frac * gbs[n - 1];
    size_t i = n - 1;
    while (i > 0 && gbs[i - 1] >= level)
        i--;
    return i + 1 < n ? (int)i : -1;
}

int gp_ic_matrix_init(gp_ic_matrix *m, int n)
{
    m->n = 0;
    for (int i = 0; i < GP_IC_MAX_GPUS; i++)
        for (int j = 0; j < GP_IC_MAX_GPUS; j++)
            m->v[i][j] = NAN;
    if (n < 1 || n > GP_IC_MAX_GPUS)
        return 0;
    m->n = n;
    return 1;
}

int gp_ic_matrix_set(gp_ic_matrix *m, int src, int dst, double v)
{
    if (src < 0 || dst < 0 || src >= m->n || dst >= m->n || src == dst)
        return 0;
    m->v[src][dst] = v;
    return 1;
}

int gp_ic_matrix_summarize(const gp_ic_matrix *m, gp_ic_summary *s)
{
    double vals[GP_IC_MAX_GPUS * GP_IC_MAX_GPUS];
    int k = 0;
    s->min = s->median = s->max = NAN;
    s->min_src = s->min_dst = s->max_src = s->max_dst = -1;
    for (int i = 0; i < m->n; i++)
        for (int j = 0; j < m->n; j++) {
            double v = m->v[i][j];
            if (i == j || !isfinite(v))
                continue;
            if (k == 0 || v < s->min) {
                s->min = v;
                s->min_src = i, s->min_dst = j;
            }
            if (k == 0 || v > s->max) {
                s->max = v;
                s->max_src = i, s->max_dst = j;
            }
            vals[k++] = v;
        }
    s->pairs = k;
    if (k)
        s->median = gp_stats_median(vals, (size_t)k);
    return k;
}

size_t gp_ic_matrix_row(const gp_ic_matrix *m, int src, int decimals, char *buf, size_t len)
{
    if (src < 0 || src >= m->n || len == 0)
        return 0;
    size_t at = 0;
    int w = snprintf(buf, len, "| GPU %d -> |", src);
    if (w < 0 || (size_t)w >= len)
        return 0;
    at = (size_t)w;
    for (int j = 0; j < m->n; j++) {
        double v = m->v[src][j];
        if (j == src)
            w = snprintf(buf + at, len - at, " - |");
        else if (!isfinite(v))
            w = snprintf(buf + at, len - at, " n/a |");
        else
            w = snprintf(buf + at, len - at, " %.*f |", decimals, v);
        if (w < 0 || (size_t)w >= len - at)
            return 0;
        at += (size_t)w;
    }
    return at;
}

size_t gp_ic_matrix_header(const gp_ic_matrix *m, char *buf, size_t len)
{
    if (m->n < 1 || len == 0)
        return 0;
    size_t at = 0;
    int w = snprintf(buf, len, "| from \\ to |");
    for (int pass = 0; pass < 2 && w >= 0 && (size_t)w < len - at; pass++) {
        at += (size_t)w;
        for (int j = 0; j < m->n; j++) {
            w = pass ? snprintf(buf + at, len - at, " --- |") : snprintf(buf + at, len - at, " GPU %d |", j);
            if (w < 0 || (size_t)w >= len - at)
                return 0;
            at += (size_t)w;
        }
        w = pass ? 0 : snprintf(buf + at, len - at, "\n| --- |");
    }
    if (w < 0 || (size_t)w >= len - at)
        return 0;
    return at;
}

double gp_ic_nvlink_link_gbs(const char *arch)
{
    static const struct {
        const char *arch;
        double gbs;
    } rates[] = {{"sm_60", 20}, {"sm_70", 25}, {"sm_80", 25}, {"sm_90", 25}, {"sm_90a", 25}, {"sm_100", 50}};
    for (size_t i = 0; arch && i < sizeof rates / sizeof rates[0]; i++)
        if (!strcmp(arch, rates[i].arch))
            return rates[i].gbs;
    return NAN;
}

const char *gp_ic_p2p_reason(int ngpus)
{
    if (ngpus >= 2)
        return NULL;
    return ngpus == 1 ? "one GPU visible" : "no GPU visible";
}

int gp_ic_chain_build(unsigned *next, size_t nodes, size_t stride, unsigned seed)
{
    if (nodes < 2 || stride < 1 || nodes * stride > 0xffffffffu)
        return 0;
    /* Sattolo: a uniformly random single cycle over the nodes. */
    unsigned x = seed ? seed : 1u;
    for (size_t k = 0; k < nodes * stride; k++)
        next[k] = 0;
    /* The identity at the node slots, then Sattolo's swaps in place. */
    for (size_t k = 0; k < nodes; k++)
        next[k * stride] = (unsigned)k;
    for (size_t k = nodes - 1; k > 0; k--) {
        x = x * 1664525u + 1013904223u; /* Numerical Recipes' LCG */
        size_t r = (size_t)(x >> 8) % k;
        unsigned t = next[k * stride];
        next[k * stride] = next[r * stride];
        next[r * stride] = t;
    }
    /* next[] now holds a permutation sigma at the node slots; Sattolo's
     * permutation is one cycle, so node v links to sigma(v). */
    for (size_t k = 0; k < nodes; k++)
        next[k * stride] = (unsigned)(next[k * stride] * stride);
    return 1;
}
