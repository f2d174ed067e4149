/* transpose for the driver (kernels/driver.h): its problems, one problem's
 * set-up, run and exact check, the vendor device copy of the same bytes as
 * its baseline, our copy kernels as context, and the gp_kernel entry. */
#include "transpose.h"
#define GP_KERNEL_NAME transpose
#include "kernel_decl.h"

/* The variants: tune's candidates and bench's context rows, in the order of
 * transpose_params.inc.  The first run on the H200 (8192 x 8192, vendor copy
 * 0.1336 ms) had t64/br8/v1/g16 best at 0.1400 ms; the rest probe streaming
 * hints, the swizzled vector layout and several tiles per block around it.
 * The last five walk the tiles column-major (group 4096, clamped to the
 * tile rows: consecutive blocks go down one tile column, so the blocks
 * running together write whole output rows), measured at 0.967-0.979 of the
 * vendor copy's speed (ABBA-paired, 4096^2 to 16384^2) against 0.940-0.968
 * for groups of 16 tile rows and 0.947-0.986 for row-major. */
static const int variants[][NPARAMS] = {
    {32, 1, 8, 1, 1, 0, 0, 1},   {64, 1, 8, 1, 1, 0, 0, 1},   {64, 1, 8, 1, 16, 0, 0, 1},
    {64, 1, 8, 1, 32, 0, 0, 1},  {64, 1, 8, 1, 16, 0, 1, 1},  {64, 1, 8, 1, 16, 0, 2, 1},
    {64, 1, 8, 1, 16, 0, 3, 1},  {64, 1, 8, 1, 16, 0, 0, 2},  {64, 1, 8, 1, 16, 0, 0, 8},
    {32, 1, 8, 1, 16, 0, 3, 1},  {64, 1, 4, 1, 16, 0, 0, 1},  {64, 1, 16, 2, 16, 0, 0, 1},
    {64, 0, 16, 4, 16, 1, 0, 1}, {64, 0, 16, 4, 16, 1, 3, 1}, {64, 0, 16, 4, 16, 1, 1, 1},
    {64, 0, 8, 2, 16, 1, 0, 1},  {64, 0, 16, 2, 16, 1, 0, 1}, {64, 0, 16, 2, 16, 1, 1, 1},
    {32, 0, 8, 4, 16, 1, 0, 1},  {32, 0, 16, 4, 16, 1, 0, 1}, {64, 0, 16, 4, 16, 1, 0, 4},
    {64, 1, 8, 1, 4096, 0, 0, 1}, {64, 1, 8, 1, 4096, 0, 2, 1}, {64, 1, 4, 1, 4096, 0, 0, 1},
    {64, 0, 8, 2, 4096, 1, 0, 1}, {64, 0, 16, 4, 4096, 1, 2, 1},
};

/* ---- shapes: "RxC", also read as a bench label "RxC fp32"; random: rows
 * and columns 1 .. 16384, at most 2^25 elements (128 MB) */

#define SYNTAX "RxC (rows x cols of the fp32 input, e.g. 12000x12000)"
static const gp_shape_format format = {
    2, .words = {{-1, {"fp32"}}}, .lo = {1, 1}, .hi = {16384, 16384}, .max_elems = 1ll << 25,
};
GP_KERNEL_SHAPE_FORMAT(format, SYNTAX)
GP_KERNEL_SHAPE_RANDOM(format)

/* The floor's model: the matrix read and written once, no arithmetic. */
static gp_status work(const gp_shape *s, const void *p, gp_kernel_work *w)
{
    (void)p;
    w->bytes = 2 * 4.0 * (double)s->d[GP_TRANSPOSE_ROWS] * (double)s->d[GP_TRANSPOSE_COLS];
    w->flops = 0;
    snprintf(w->method, sizeof w->method, "matrix read and written once (4 B each); no arithmetic");
    return gp_ok();
}

/* ---- cases */

static int cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    /* Tiny, odd, prime, tile multiples and not, long thin ones (one with more
     * tile rows than a 2D grid could hold), sizes whose rows and columns are
     * multiples of 4 but not of the tile (vector path with edges), and a
     * misaligned input (the vector kernels fall back). */
    static const long long verify[][3] = {
        {1, 1, 0},       {1, 1000, 0},    {1000, 1, 0},    {2, 3, 0},       {3, 5, 0},         {7, 7, 0},
        {31, 33, 0},     {32, 32, 0},     {33, 31, 0},     {64, 64, 0},     {64, 64, 1},       {65, 127, 0},
        {100, 36, 0},    {36, 100, 0},    {128, 4, 0},     {4, 128, 0},     {257, 1023, 0},    {1000, 999, 0},
        {17, 4096, 0},   {4096, 17, 0},   {1024, 1024, 0}, {2048, 2052, 0}, {1023, 1025, 3},   {3000001, 1, 0},
        {1, 3000001, 0}, {2500000, 3, 0},
    };
    static const long long variant[][2] = {{1000, 999}, {100, 36}, {2048, 2052}, {4099, 257}, {96, 4100}};
    const long long big = quick ? 4096 : 8192; /* 2 x 256 MiB moved (quick: 2 x 64) */
    int n = 0;
    (void)p, (void)dev;
    switch (set) {
    case GP_CASES_BENCH:
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {big, big}, .flags = GP_KCASE_PAIR | GP_KCASE_VARIANTS});
        /* every tile row and column has an edge */
        return gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {big - 1, big + 1}});
    case GP_CASES_VERIFY:
        for (size_t i = 0; i < (quick ? 21 : sizeof verify / sizeof verify[0]); i++)
            n = gp_kcase_add(out, n, max,
                             (gp_kcase){.shape.d = {verify[i][0], verify[i][1]}, .offset = (int)verify[i][2]});
        return n;
    default:
        for (size_t i = 0; i < sizeof variant / sizeof variant[0]; i++)
            n = gp_kcase_add(out, n, max, (gp_kcase){.shape.d = {variant[i][0], variant[i][1]}});
        return n;
    }
}

/* ---- one problem */

typedef struct state {
    gp_kmem mem;
    size_t rows, cols, n;
    const gp_device_info *dev;
    float *h_in, *h_ref, *h_out;
    float *d_alloc, *d_out;
    const float *d_in; /* d_alloc + the case's offset */
} state;

static gp_status setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    state *s = st;
    s->rows = (size_t)c->shape.d[GP_TRANSPOSE_ROWS], s->cols = (size_t)c->shape.d[GP_TRANSPOSE_COLS];
    s->dev = dev;
    if (s->rows == 0 || s->cols == 0 || s->rows > SIZE_MAX / 16 / s->cols)
        return gp_fail(GP_ERR_USAGE, "transpose: %zu x %zu is no matrix this bench can hold", s->rows, s->cols);
    s->n = s->rows * s->cols;
    const size_t bytes = s->n * sizeof(float);
    s->h_in = gp_kmem_host(&s->mem, bytes), s->h_ref = gp_kmem_host(&s->mem, bytes);
    GP_TRY(gp_kmem_ok(&s->mem));
    GP_TRY(gp_kmem_dev(&s->mem, (void **)&s->d_alloc, bytes + (size_t)c->offset * sizeof(float)));
    GP_TRY(gp_kmem_output(&s->mem, (void **)&s->d_out, (void **)&s->h_out, bytes, 0));
    s->d_in = s->d_alloc + c->offset;
    gp_fill_uniform_f32(s->h_in, s->n, -1000.0f, 1000.0f, rng);
    gp_transpose_ref_f32(s->h_in, s->h_ref, s->rows, s->cols);
    return gp_rt_copy_to_device(s->d_alloc + c->offset, s->h_in, bytes);
}

static gp_status run(void *p, const void *prm)
{
    state *s = p;
    return gp_transpose_f32(s->d_in, s->d_out, s->rows, s->cols, prm, NULL);
}

/* Our copy kernels (context): persistent, one pass, one pass streaming. */
enum { IMPL_VENDOR_COPY, IMPL_COPY_PERSISTENT, IMPL_COPY_ONE_PASS, IMPL_COPY_STREAMING, NIMPLS };
static const gp_kimpl impls[NIMPLS] = {
    {"device copy (vendor, same bytes)", 1, 1, 0.95, 0, ""},
    {"gpuprobe copy kernel (context, 16-byte accesses)", 0, 0, 0, 0, "grid 8 x CUs, block 256, 4 x 16 B per thread"},
    {"gpuprobe copy kernel one-pass (context)", 0, 0, 0, 0, "grid n / 4096, block 256, 4 x 16 B per thread"},
    {"gpuprobe copy kernel one-pass streaming (context)", 0, 0, 0, 0,
     "grid n / 4096, block 256, 4 x 16 B per thread, ld/st .cs"},
};

static gp_status run_impl(void *p, int impl, const void *prm)
{
    (void)prm;
    state *s = p;
    if (s->d_in != s->d_alloc)
        return gp_fail(GP_ERR_UNSUPPORTED, "the copies need a 16-byte aligned input");
    if (impl == IMPL_VENDOR_COPY)
        return gp_rt_copy_device_async(s->d_out, s->d_in, s->n * sizeof(float), NULL);
    return gp_transpose_copy_f32(s->d_in, s->d_out, s->n, s->dev, impl - IMPL_COPY_PERSISTENT, NULL);
}

/* Ours: the exact transpose; a copy: the input itself. */
static gp_status check(void *p, const void *prm, int impl, const char *what)
{
    state *s = p;
    const float *ref = impl < 0 ? s->h_ref : s->h_in;
    (void)prm;
    return memcmp(s->h_out, ref, s->n * sizeof(float)) ? gp_compare_f32(what, s->h_out, ref, s->n, 0.0, 0.0, NULL)
                                                       : gp_ok();
}

/* What makes a [kernel.transpose] legal on any GPU (at most 1024 threads,
 * the tile within the 48 KiB of LDS every target grants a block). */
static gp_status check_table(const gp_table *t, const char *name)
{
    long long tile, rows, pad;
    if (gp_table_get_int(t, "kernel.transpose", "tile", &tile).code != GP_OK ||
        gp_table_get_int(t, "kernel.transpose", "block_rows", &rows).code != GP_OK ||
        gp_table_get_int(t, "kernel.transpose", "pad", &pad).code != GP_OK)
        return gp_ok(); /* absent: the reader names it */
    const gp_table_entry *e = gp_table_find(t, "kernel.transpose", "block_rows");
    if (rows > tile || tile % rows)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.transpose.block_rows = %lld must divide tile = %lld", name,
                       e->line, rows, tile);
    if (tile * rows > 1024)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.transpose: tile x block_rows = %lld threads exceeds 1024", name,
                       e->line, tile * rows);
    if (tile * (tile + pad) * 8 > 48 * 1024)
        return gp_fail(GP_ERR_USAGE, "%s:%d: kernel.transpose: tile %lld (+pad %lld) of doubles exceeds 48 KiB of LDS",
                       name, e->line, tile, pad);
    return gp_ok();
}

const gp_kernel gp_kernel_transpose = {
    GP_KERNEL_DECLARED,
    .summary = "fp32 matrix transpose of any shape through padded shared-memory tiles (vs the vendor device copy)",
    .check_table = check_table, .shape_syntax = SYNTAX, .shape_parse = shape_parse, .shape_label = shape_label,
    .shape_random = shape_random, .work = work, .cases = cases, .state_size = sizeof(state), .setup = setup, .run = run,
    .check = check, .impls = impls, .nimpls = NIMPLS, .run_impl = run_impl,
};
