/* The declared shape syntax and the bench files' case helpers
 * (kernels/shape_format.c): short word forms and data kinds read, case
 * labels with kinds and offsets, the work model's result, and a case's
 * buffers (an input at an offset, an output off the alignment, a library
 * call's scratch): their bookkeeping on a GPU build, their errors on the
 * CPU-only one. */
#include <stdio.h>
#include <string.h>

#include "data.h"
#include "gp_test.h"
#include "kmem.h"
#include "runtime.h"
#include "shape_format.h"

static const char *const hist_kinds[] = {"uniform", "skewed 90%", "one value"};
static const gp_shape_format hist = {
    1, .count = 1, .words = {{0, {"u8, 256 bins", "u32 keys, 4096 bins"}}}, .brief = {{"u8", "u32"}},
    .kinds = hist_kinds, .nkinds = 3,
};
static const char *const scan_kinds[] = {"", ", output shifted", ", in place"};
static const gp_shape_format scan = {
    1, .count = 1, .words = {{0, {"fp32", "int32"}}, {1, {"inclusive", "exclusive"}}},
    .kinds = scan_kinds, .nkinds = 3, .kind_from = 1, .kind_offset = 1,
};

static int parses(const gp_shape_format *f, const char *spec, long long n, int opt0)
{
    gp_shape s;
    gp_status st = gp_shape_format_parse(f, "k", "SYNTAX", spec, &s);
    if (st.code != GP_OK)
        fprintf(stderr, "'%s': %s\n", spec, st.msg);
    return st.code == GP_OK && s.d[0] == n && s.opt[0] == opt0;
}

static int refused(const gp_shape_format *f, const char *spec)
{
    gp_shape s;
    gp_status st = gp_shape_format_parse(f, "k", "SYNTAX", spec, &s);
    return st.code == GP_ERR_USAGE && strstr(st.msg, "k: shape '") && strstr(st.msg, "' is not SYNTAX");
}

static const char *case_label(const gp_shape_format *f, gp_kcase c)
{
    static char buf[160];
    gp_shape_format_case_label(f, &c, buf, sizeof buf);
    return buf;
}

GP_TEST(shape_format_short_words_and_kinds)
{
    /* The long form and the short one, with or without a kind after them. */
    GP_CHECK(parses(&hist, "2^30 u8, 256 bins skewed 90%", 1ll << 30, 0));
    GP_CHECK(parses(&hist, "2^28 u32 keys, 4096 bins uniform", 1ll << 28, 1));
    GP_CHECK(parses(&hist, "1000 u32", 1000, 1) && parses(&hist, "1000 u8", 1000, 0));
    GP_CHECK(parses(&hist, "1000", 1000, 0) && parses(&hist, "1000 one value", 1000, 0));
    GP_CHECK(parses(&hist, "7 u32 skewed 90%", 7, 1));
    GP_CHECK(refused(&hist, "2^20 u8 lumpy") && refused(&hist, "1000 u32 keys") && refused(&hist, "1000 u8x"));
    GP_CHECK(refused(&hist, "2^30 uniform u8") && refused(&hist, "1000 uniform uniform") && refused(&hist, "0"));
    /* Labels write the long form, whatever was read. */
    char buf[160];
    gp_shape s;
    GP_CHECK(gp_shape_format_parse(&hist, "k", "S", "1000 u32", &s).code == GP_OK);
    gp_shape_format_label(&hist, &s, buf, sizeof buf);
    GP_CHECK(!strcmp(buf, "1000 u32 keys, 4096 bins"));
    /* A kind that starts with a comma follows the words without a space. */
    GP_CHECK(parses(&scan, "1000 int32 exclusive, in place", 1000, 1));
    GP_CHECK(parses(&scan, "1000, output shifted", 1000, 0));
    GP_CHECK(refused(&scan, "1000 fp32 , in place") && refused(&scan, "1000 fp32, in placed"));
    return 0;
}

GP_TEST(shape_format_case_labels)
{
    gp_kcase c = {.shape = {{1ll << 30}, {0}}};
    /* kind_from 0: every kind named, kind 0 too; the offset where there is one. */
    GP_CHECK(!strcmp(case_label(&hist, c), "2^30 u8, 256 bins uniform"));
    c.data = 1, c.offset = 3, c.shape.opt[0] = 1;
    GP_CHECK(!strcmp(case_label(&hist, c), "2^30 u32 keys, 4096 bins skewed 90% +3 elements"));
    c.data = 7, c.offset = 0; /* no such kind: nothing named */
    GP_CHECK(!strcmp(case_label(&hist, c), "2^30 u32 keys, 4096 bins"));
    /* kind_from 1, kind_offset 1: the default kind unnamed, a named one with
     * its offset (0 too), a comma kind right after the shape. */
    gp_kcase d = {.shape = {{1000}, {1, 1}}};
    GP_CHECK(!strcmp(case_label(&scan, d), "1000 int32 exclusive"));
    d.offset = 2;
    GP_CHECK(!strcmp(case_label(&scan, d), "1000 int32 exclusive +2 elements"));
    d.data = 2, d.offset = 0;
    GP_CHECK(!strcmp(case_label(&scan, d), "1000 int32 exclusive, in place +0 elements"));
    /* Truncated, never overrun. */
    char small[12];
    memset(small, 'x', sizeof small);
    gp_shape_format_case_label(&scan, &d, small, 8);
    GP_CHECK(strlen(small) == 7 && small[8] == 'x');
    return 0;
}

GP_TEST(shape_format_work_model)
{
    gp_kernel_work w;
    memset(&w, 0x55, sizeof w);
    GP_CHECK(gp_work_model(&w, 8e9, 2e9, "read %d, written %s", 1, "once").code == GP_OK);
    GP_CHECK(w.bytes == 8e9 && w.flops == 2e9 && !strcmp(w.method, "read 1, written once"));
    return 0;
}

static int calls;
static size_t asked;

static gp_status fake_call(void *st, void *tmp)
{
    gp_scratch *sc = st;
    calls++;
    if (!tmp)
        sc->bytes = asked;
    return gp_ok();
}

/* Without a device (the CPU-only build, or no GPU here) every allocation is
 * refused, and nothing is declared; with one the buffers are real and the
 * checks run through them. */
GP_TEST(kmem_case_buffers)
{
    void *probe = NULL;
    const gp_status none = gp_rt_malloc(&probe, 16);
    const int gpu = none.code == GP_OK;
    if (gpu)
        gp_rt_free(probe);
    gp_kmem m;
    memset(&m, 0, sizeof m);
    m.kernel = "k";
    /* Scratch: asked for once (its size), allocated once, then each call gets it. */
    gp_scratch sc = {0};
    calls = 0, asked = 1000;
    gp_status st = gp_kmem_scratch(&m, &sc, fake_call, &sc);
    if (!gpu) {
        GP_CHECK(st.code == none.code && calls == 1 && sc.d == NULL && sc.bytes == 1000);
    } else {
        GP_CHECK(st.code == GP_OK && calls == 2 && sc.d != NULL && m.ndev == 1);
        void *d = sc.d;
        GP_CHECK(gp_kmem_scratch(&m, &sc, fake_call, &sc).code == GP_OK && calls == 3 && sc.d == d && m.ndev == 1);
    }
    /* A scratch already there: no size asked. */
    gp_scratch have = {(void *)&have, 8};
    calls = 0;
    GP_CHECK(gp_kmem_scratch(&m, &have, fake_call, &have).code == GP_OK && calls == 1);
    /* An input at an offset, and an output 1..3 words off the alignment
     * between guards that the driver's poison and fetch keep whole. */
    const uint32_t in[5] = {1, 2, 3, 4, 5};
    void *d_in = NULL, *d_out = NULL, *h = NULL;
    st = gp_kmem_input(&m, &d_in, in, sizeof in, 12);
    GP_CHECK(gpu ? st.code == GP_OK && ((uintptr_t)d_in & 15) == 12 : st.code == none.code);
    for (int words = 0; words < 4; words++) {
        const int nout = m.nout;
        st = gp_kmem_output_at(&m, &d_out, &h, sizeof in, 16, words);
        if (!gpu) {
            GP_CHECK(st.code == none.code && m.nout == nout);
            continue;
        }
        const gp_kmem_out *o = &m.out[m.nout - 1];
        GP_CHECK(st.code == GP_OK && m.nout == nout + 1 && o->bytes == sizeof in && o->guard == 16);
        GP_CHECK(((uintptr_t)d_out & 15) == 4 * (uintptr_t)words && (char *)d_out == (char *)o->base + 64);
        GP_CHECK((uint32_t *)h == o->mirror + 16);
        GP_CHECK(gp_kmem_poison(&m).code == GP_OK && gp_rt_copy_to_device(d_out, in, sizeof in).code == GP_OK);
        GP_CHECK(gp_kmem_fetch(&m, "t").code == GP_OK && !memcmp(h, in, sizeof in));
        /* A store one word past the output shows in the back guard. */
        GP_CHECK(gp_rt_copy_to_device((uint32_t *)d_out + 5, in, 4).code == GP_OK);
        st = gp_kmem_fetch(&m, "t");
        GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "t: a store landed outside the output"));
        GP_CHECK(gp_kmem_poison(&m).code == GP_OK);
    }
    gp_kmem_free(&m);
    return 0;
}
