/* histogram for the driver (kernels/driver.h): its problems (256 bins over
 * bytes, 4096 bins over keys, five kinds of data), one problem's set-up,
 * run and exact check (every bin, guards around the bins), the persistent
 * grid against the runtime's occupancy calculator, CUB
 * DeviceHistogram::HistogramEven as its baseline, and the gp_kernel entry. */
#include <string.h>

#include "histogram.h"
#include "histogram_vendor.h"
#define GP_KERNEL_NAME histogram
#include "kernel_decl.h"

/* The variants (tune's candidates, bench's context rows), in the order of
 * histogram_params.inc.  The last gives up the copies (one shared histogram
 * a block, as CUB and the textbook kernel), to show what the copies buy on
 * skewed data. */
static const int variants[][NPARAMS] = {
    {256, 1, 32, 2}, {256, 2, 32, 2},  {256, 4, 32, 2}, {512, 1, 32, 2}, {512, 2, 32, 2},
    {128, 2, 32, 2}, {1024, 1, 32, 2}, {1024, 2, 32, 2}, {256, 2, 16, 2}, {256, 2, 8, 2},  {256, 2, 1, 1},
};

#define HOT_U8 0x5a /* the hot bin of the skewed data */
#define HOT_U32 1234u

/* Data kinds (gp_kcase.data): 0 uniform (bytes; keys in [0, 4096)); 1
 * skewed, about 90 % on the hot bin and the rest uniform; 2 one value
 * everywhere (every atomic on one bin); 3 (keys only) uniform over
 * [0, 5000), some keys out of range; 4 (keys only) the full 32-bit range,
 * nearly all out of range. */
static const char *const kind_names[] = {"uniform", "skewed 90%", "one value", "keys to 5000", "full range"};
#define NKINDS 5
#define KINDS(u32) ((u32) ? NKINDS : 3) /* the kinds of bytes (u32 0) or keys */

/* The data (tune sets up 2^30 bytes and 2^28 keys: the host's work, not the
 * GPU's, set the histogram's tune time).  A uniform byte is 8 bits of a
 * random word (eight a word), a skewed one takes 16 (four a word): a cold one
 * where the low 8 are < 26 (10.2 %), its value the high 8.  A uniform key
 * takes 16 bits (four a word, the low 12 its bin), the others 32 (two a
 * word): a skewed key is cold where its high 16 % 10 == 0. */
static uint8_t byte_of(int kind, uint32_t r16, uint8_t one)
{
    return kind == 0 ? (uint8_t)r16 : kind == 1 ? ((r16 & 0xffu) < 26 ? (uint8_t)(r16 >> 8) : HOT_U8) : one;
}

static uint32_t key_of(int kind, uint32_t r32, uint32_t one)
{
    const uint32_t key = r32 % GP_HIST_U32_BINS;
    return kind == 0 ? key : kind == 1 ? ((r32 >> 16) % 10 == 0 ? key : HOT_U32) : kind == 2 ? one
         : kind == 3 ? r32 % 5000 : r32;
}

static void fill_u8(uint8_t *x, size_t n, int kind, uint64_t *rng)
{
    const uint8_t one = (uint8_t)gp_rand_u64(rng);
    size_t i = 0;
    if (kind == 2)
        memset(x, one, n), i = n;
    else if (kind == 0)
        for (uint64_t r; i + 8 <= n; i += 8)
            r = gp_rand_u64(rng), memcpy(x + i, &r, 8);
    else
        for (uint64_t r; i + 4 <= n; i += 4) {
            r = gp_rand_u64(rng);
            for (int j = 0; j < 4; j++, r >>= 16)
                x[i + j] = byte_of(1, (uint32_t)(r & 0xffffu), one);
        }
    for (; i < n; i++)
        x[i] = byte_of(kind, (uint32_t)gp_rand_u64(rng), one);
}

/* Keys of one kind from 2 or 4 a random word (KIND a constant: the
 * compiler drops key_of's other kinds from the loop). */
#define FILL_KEYS(KIND, PER)                                                                                  \
    for (uint64_t r; i + (PER) <= n; i += (PER)) {                                                            \
        r = gp_rand_u64(rng);                                                                                 \
        for (size_t j = 0; j < (PER); j++, r >>= 64 / (PER))                                                  \
            x[i + j] = key_of(KIND, (uint32_t)(r & (((uint64_t)1 << 64 / (PER)) - 1)), one);                  \
    }

static void fill_u32(uint32_t *x, size_t n, int kind, uint64_t *rng)
{
    const uint32_t one = (uint32_t)(gp_rand_u64(rng) % GP_HIST_U32_BINS);
    size_t i = 0;
    switch (kind) {
    case 0: FILL_KEYS(0, 4) break;
    case 1: FILL_KEYS(1, 2) break;
    case 3: FILL_KEYS(3, 2) break;
    case 4: FILL_KEYS(4, 2) break;
    default:
        for (; i < n; i++) /* one value */
            x[i] = one;
    }
    for (; i < n; i++)
        x[i] = key_of(kind, (uint32_t)gp_rand_u64(rng), one);
}

static void fill(void *x, size_t n, int u32, int kind, uint64_t *rng)
{
    if (u32)
        fill_u32(x, n, kind, rng);
    else
        fill_u8(x, n, kind, rng);
}

/* ---- shapes: "N" or "2^K", then u8 (default) or u32: the bench labels
 * "2^30 u8, 256 bins" and "2^28 u32 keys, 4096 bins", with or without the
 * data kind after them ("... skewed 90%"), read back too; random: 1 .. 2^28
 * samples, bytes or keys */

#define SYNTAX "N or 2^K, then u8 or u32 (a data kind after it: uniform, skewed 90%, ...)"
static const gp_shape_format format = {
    1, .count = 1, .words = {{GP_HIST_TYPE, {"u8, 256 bins", "u32 keys, 4096 bins"}}}, .brief = {{"u8", "u32"}},
    .kinds = kind_names, .nkinds = NKINDS, .lo = {1}, .hi = {1ll << 28},
};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
GP_KERNEL_SHAPE_RANDOM(format)
/* "2^30 u8, 256 bins skewed 90%": the data kind always, an offset where there is one. */
static void case_label(const gp_kcase *c, char *buf, size_t n) { gp_shape_format_case_label(&format, c, buf, n); }

/* The floor's model: the input read once (the bins are noise); no FLOPs
 * (integer counting). */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    const int u32 = s->opt[GP_HIST_TYPE] == GP_HIST_U32;
    (void)p;
    return gp_work_model(w, (double)s->d[GP_HIST_N] * (u32 ? 4.0 : 1.0), 0, "the %s input read once (the bins are "
                         "noise); integer counts, no FLOPs", u32 ? "4-byte" : "1-byte");
}

/* ---- cases */

/* len samples, bytes (u32 0) or keys, of a data kind at an offset. */
#define HIST_CASE(u32, len, kind, off, f) \
    ((gp_kcase){.shape = {{len}, {(u32) ? GP_HIST_U32 : GP_HIST_U8}}, .data = kind, .offset = off, .flags = f})

static int cases(int set, const void *prm, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    const gp_histogram_params *p = prm;
    int n = 0;
    (void)dev;
    if (set == GP_CASES_BENCH) { /* 2^30 bytes, 2^28 keys (quick: 2^26, 2^24) */
        for (int u32 = 0; u32 <= 1; u32++)
            for (int kind = 0; kind <= 1; kind++) /* uniform: the verdict against CUB; skewed: reported */
                n = gp_kcase_add(out, n, max, HIST_CASE(u32, 1ll << ((quick ? 26 : 30) - 2 * u32), kind, 0,
                                                        GP_KCASE_VARIANTS | (kind ? GP_KCASE_REPORT : GP_KCASE_PAIR)));
        return n;
    }
    const long long step = (long long)p->block * p->items_per_thread * 16;
    if (set == GP_CASES_VARIANT) { /* offsets 0..3 elements */
        const long long len[] = {5, step + 1, (long long)p->grid_u8 * step + 3, 1000003};
        for (int i = 0; i < 4; i++)
            for (int u32 = 0; u32 <= 1; u32++)
                n = gp_kcase_add(out, n, max, HIST_CASE(u32, len[i], i % 2, i, 0));
        return n;
    }
    /* Lengths (samples): empty, the ends alone, around a vector, around one
     * step of a block and of the whole grid, and large ones; bytes at offsets
     * 0 and 1..15, keys at 0 and 1..3 elements. */
    const long long len[] = {0, 1, 3, 15, 16, 17, 31, 33, 1000, step - 1, step, step + 1,
                             (long long)p->grid_u8 * step + 7, 1000003, (1 << 24) + 5, 30000001};
    const int nlen = (int)(sizeof len / sizeof len[0]) - (quick ? 2 : 0);
    for (int i = 0; i < nlen; i++)
        for (int u32 = 0; u32 <= 1; u32++)
            for (int kind = 0; kind < KINDS(u32); kind++)
                for (int off = 0; off <= 1; off++)
                    n = gp_kcase_add(out, n, max, HIST_CASE(u32, len[i], kind, off ? 1 + i % (u32 ? 3 : 15) : 0, 0));
    return n;
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    size_t n;
    int is_u32, nbins;
    const gp_device_info *dev;
    void *d_in;          /* the case's offset into its buffer */
    uint32_t *d_bins;    /* nbins, guarded (GP_KCASE_GUARD words each side) */
    uint32_t ref[GP_HIST_U32_BINS], *got;
    gp_scratch tmp;      /* CUB's, on its first run */
} state;

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    s->n = (size_t)c->shape.d[GP_HIST_N], s->dev = dev;
    s->is_u32 = c->shape.opt[GP_HIST_TYPE] == GP_HIST_U32, s->nbins = s->is_u32 ? GP_HIST_U32_BINS : GP_HIST_U8_BINS;
    const size_t size = s->is_u32 ? 4 : 1;
    if (s->n > GP_HIST_MAX_N || c->offset < 0 || c->data < 0 || c->data >= KINDS(s->is_u32))
        return gp_fail(GP_ERR_USAGE, "histogram: %zu samples of data kind %d is no problem this bench can hold", s->n,
                       c->data);
    void *h_in = gp_kmem_host(&s->mem, s->n * size + 16);
    GP_TRY(gp_kmem_ok(&s->mem));
    fill(h_in, s->n, s->is_u32, c->data, rng);
    if (s->is_u32)
        gp_histogram_ref_u32(h_in, s->n, s->ref);
    else
        gp_histogram_ref_u8(h_in, s->n, s->ref);
    GP_TRY(gp_kmem_input(&s->mem, &s->d_in, h_in, s->n * size, (size_t)c->offset * size));
    return gp_kmem_output(&s->mem, (void **)&s->d_bins, (void **)&s->got, (size_t)s->nbins * 4, GP_KCASE_GUARD);
}

/* The grid the model sizes (gp_histogram_blocks_per_cu) must be resident at
 * once, or a second round of blocks would do its share after the others: at
 * most what the runtime's occupancy calculator grants, for both kernels of
 * the parameters p. */
static gp_status prepare(void *st, const void *prm)
{
    const state *s = st;
    const gp_histogram_params *p = prm;
    for (int u32 = 0; u32 <= 1 && s->dev->compute_units >= 1; u32++) {
        int occ = 0, grid = u32 ? p->grid_u32 : p->grid_u8, copies = u32 ? p->copies_u32 : p->copies_u8;
        GP_TRY(gp_histogram_occupancy(u32, p->block, p->items_per_thread, copies, &occ));
        if (grid > occ * s->dev->compute_units)
            return gp_fail(GP_ERR_CHECK, "histogram %s: the model's grid %d exceeds the %d x %d blocks the occupancy "
                           "calculator grants (block %d, %d vectors, %d copies)", u32 ? "u32" : "u8", grid, occ,
                           s->dev->compute_units, p->block, p->items_per_thread, copies);
    }
    return gp_ok();
}

static gp_status run(void *st, const void *p)
{
    state *s = st;
    return s->is_u32 ? gp_histogram_u32(s->d_in, s->n, s->d_bins, p, NULL)
                     : gp_histogram_u8(s->d_in, s->n, s->d_bins, p, NULL);
}

static const gp_kimpl impls[] = {{"CUB DeviceHistogram::HistogramEven", 1, 1, 1.0, 0, ""}};

static gp_status cub(void *st, void *tmp)
{
    state *s = st;
    return s->is_u32 ? gp_vendor_histogram_u32(s->d_in, s->n, s->d_bins, tmp, &s->tmp.bytes)
                     : gp_vendor_histogram_u8(s->d_in, s->n, s->d_bins, tmp, &s->tmp.bytes);
}

static gp_status run_impl(void *st, int impl, const void *p)
{
    state *s = st;
    (void)impl, (void)p;
    return gp_kmem_scratch(&s->mem, &s->tmp, cub, s);
}

/* Ours and CUB alike (the guards still poisoned: kmem.h): every bin exact. */
static gp_status check(void *st, const void *p, int impl, const char *what)
{
    state *s = st;
    (void)p, (void)impl;
    for (int b = 0; b < s->nbins; b++)
        if (s->got[b] != s->ref[b])
            return gp_fail(GP_ERR_CHECK, "%s: bin %d = %u, exact %u", what, b, s->got[b], s->ref[b]);
    return gp_ok();
}

const gp_kernel gp_kernel_histogram = {
    GP_KERNEL_DECLARED,
    .summary = "256 bins over uint8 and 4096 bins over uint32 keys, LDS sub-histograms a bank each (vs CUB "
               "HistogramEven)",
    .shape_syntax = "N or 2^K, then u8 (default: 256 bins) or u32 (keys, 4096 bins)", .shape_parse = shape_parse,
    .shape_label = shape_label, .shape_random = shape_random, .work = work, .cases = cases, .case_label = case_label,
    .state_size = sizeof(state), .setup = setup, .prepare = prepare, .run = run, .check = check, .impls = impls,
    .nimpls = 1, .run_impl = run_impl,
};
