/* A problem's plans (kernels/kmem.h, gp_kmem_plan) and the verify_extra
 * loop over a kernel's cases (kernels/driver_problem.h), on the host: a
 * plan that records how it was made, and a kernel that doubles its input. */
#include <string.h>

#include "data.h"
#include "driver_problem.h"
#include "gp_test.h"
#include "kmem.h"
#include "shape_format.h"

typedef struct fake_params {
    int a, b;
    char note[16];
} fake_params;

static const gp_param fake_desc[] = {GP_PARAM_ROW(fake_params, a, 0, 100, 1, 0),
                                     GP_PARAM_ROW(fake_params, b, 0, 100, 1, 0)};

typedef struct fake_plan {
    int a, path, serial;
} fake_plan;

typedef struct fake_state {
    gp_kmem mem;
    int made, destroyed, refuse;
} fake_state;

static gp_status fake_make(void *st, const void *prm, int path, void *plan)
{
    fake_state *s = st;
    const fake_params *p = prm;
    fake_plan *pl = plan;
    if (s->refuse == path)
        return gp_fail(GP_ERR_UNSUPPORTED, "path %d refused", path);
    pl->a = p->a, pl->path = path, pl->serial = ++s->made;
    return gp_ok();
}

static int destroyed;
static void fake_destroy(void *plan)
{
    (void)plan;
    destroyed++;
}

static const gp_kplan_kind kind = {sizeof(fake_plan), fake_desc, 2, sizeof(fake_params), fake_make, fake_destroy};

GP_TEST(kmem_plans_kept_per_parameters_and_path)
{
    fake_state s;
    memset(&s, 0, sizeof s);
    s.refuse = 99, destroyed = 0;
    fake_params p = {1, 2, "x"}, q = {1, 2, "another note"}, r = {3, 2, ""};
    fake_plan *a, *b, *c;
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, -1, (void **)&a).code == GP_OK && a->serial == 1 && a->path == -1);
    /* The note is no parameter: the same plan. */
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &q, -1, (void **)&b).code == GP_OK && b == a && s.made == 1);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, 2, (void **)&b).code == GP_OK && b != a && b->path == 2);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &r, -1, (void **)&c).code == GP_OK && c->a == 3 && s.made == 3);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, -1, NULL).code == GP_OK && s.made == 3);
    /* A refused plan is not kept, and takes no plan's place. */
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, 99, (void **)&c).code == GP_ERR_UNSUPPORTED && destroyed == 0);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, -1, (void **)&a).code == GP_OK && a->serial == 1);
    gp_kmem_free(&s.mem);
    GP_CHECK(destroyed == 3 && !s.mem.plans);
    return 0;
}

/* A mirror past GP_KMEM_PIN_MIN: zeroed whether it came pinned or, without
 * a runtime that pins, from calloc; freed by its own path (ASan holds the
 * CPU build's side), and the counter back where it was (a second round
 * gets the same kind of memory). */
GP_TEST(kmem_large_mirror_zeroed_and_freed)
{
    const size_t bytes = GP_KMEM_PIN_MIN + 4096;
    for (int round = 0; round < 2; round++) {
        gp_kmem m = {.kernel = "test"};
        void *d = NULL, *h = NULL;
        const gp_status st = gp_kmem_output(&m, &d, &h, bytes, 2);
        GP_CHECK(h != NULL && m.nhost == 1);
        const unsigned char *c = h;
        int zero = 1;
        for (size_t i = 0; i < bytes; i += 4093)
            zero &= c[i] == 0;
        GP_CHECK(zero && c[bytes - 1] == 0);
        GP_CHECK(st.code == GP_OK ? d != NULL : d == NULL); /* no device: the mirror made, the output refused */
        gp_kmem_free(&m);
        GP_CHECK(m.nhost == 0 && m.host_pinned[0] == 0);
    }
    return 0;
}

GP_TEST(kmem_plans_make_room_for_the_least_recently_used)
{
    fake_state s;
    memset(&s, 0, sizeof s);
    s.refuse = 99, destroyed = 0;
    fake_params p = {0, 0, ""};
    fake_plan *first, *pl;
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, 0, (void **)&first).code == GP_OK);
    for (int i = 1; i < GP_KMEM_PLANS; i++)
        GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, i, (void **)&pl).code == GP_OK);
    /* Path 0 used again: path 1 is now the least recent and makes room. */
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, 0, (void **)&pl).code == GP_OK && pl == first);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, GP_KMEM_PLANS, (void **)&pl).code == GP_OK && destroyed == 1);
    GP_CHECK(pl->path == GP_KMEM_PLANS && first->path == 0 && s.made == GP_KMEM_PLANS + 1);
    GP_CHECK(gp_kmem_plan(&s.mem, &kind, &p, 1, (void **)&pl).code == GP_OK && s.made == GP_KMEM_PLANS + 2);
    static const gp_kplan_kind other = {sizeof(fake_plan), fake_desc, 2, sizeof(fake_params), fake_make, NULL};
    GP_CHECK(gp_kmem_plan(&s.mem, &other, &p, 0, (void **)&pl).code == GP_ERR_USAGE);
    gp_kmem_free(&s.mem);
    GP_CHECK(destroyed == 2 + GP_KMEM_PLANS);
    return 0;
}

/* ---- a host kernel for the case loop: y = 2 x, case 2 with nothing to check */

typedef struct dbl_state {
    gp_kmem mem;
    long long n;
    float *x, *y;
} dbl_state;

static gp_status dbl_setup(const gp_kcase *c, const gp_device_info *dev, uint64_t *rng, void *st)
{
    dbl_state *s = st;
    (void)dev;
    s->n = c->shape.d[0];
    s->x = gp_kmem_host(&s->mem, (size_t)s->n * 4), s->y = gp_kmem_host(&s->mem, (size_t)s->n * 4);
    GP_TRY(gp_kmem_ok(&s->mem));
    gp_fill_uniform_f32(s->x, (size_t)s->n, -1, 1, rng);
    return gp_ok();
}

static gp_status dbl_poison(void *st)
{
    dbl_state *s = st;
    memset(s->y, 0xff, (size_t)s->n * 4);
    return gp_ok();
}

static int wrong;
static gp_status dbl_run(void *st, const void *p)
{
    dbl_state *s = st;
    (void)p;
    for (long long i = 0; i < s->n; i++)
        s->y[i] = 2 * s->x[i] + (float)(wrong && i == s->n - 1);
    return gp_ok();
}

static gp_status dbl_check(void *st, const void *p, int impl, const char *what)
{
    dbl_state *s = st;
    (void)p, (void)impl;
    for (long long i = 0; i < s->n; i++)
        if (s->y[i] != 2 * s->x[i])
            return gp_fail(GP_ERR_CHECK, "%s: element %lld", what, i);
    return gp_ok();
}

static int dbl_cases(int set, const void *p, const gp_device_info *dev, int quick, gp_kcase *out, int max)
{
    int n = 0;
    (void)set, (void)p, (void)dev, (void)quick;
    for (long long len = 1; len <= 4; len++)
        n = gp_kcase_add(out, n, max, (gp_kcase){.shape = {{len}}});
    return n;
}

static void dbl_label(const gp_shape *s, char *buf, size_t n) { snprintf(buf, n, "%lld", s->d[0]); }

static const gp_kernel dbl = {.name = "dbl", .shape_label = dbl_label, .cases = dbl_cases,
                              .state_size = sizeof(dbl_state), .setup = dbl_setup, .poison = dbl_poison,
                              .run = dbl_run, .check = dbl_check};

static gp_status no_sync(void) { return gp_ok(); }
static const gp_driver_ops host_ops = {no_sync, NULL, NULL, NULL};
static int seen;

static gp_status check_as(const gp_kernel *k, gp_problem *pr, const gp_table *t, const void *p,
                          const gp_kernel_opts *o)
{
    (void)t;
    seen++;
    if (pr->c.shape.d[0] == 2)
        return gp_fail(GP_ERR_UNSUPPORTED, "nothing to check");
    return gp_problem_run_as(k, pr, p, -1, "the case as named", gp_driver_ops_of(o));
}

GP_TEST(problem_each_case_counts_what_it_checked)
{
    gp_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &host_ops;
    uint64_t rng = 7;
    int checked = -1;
    seen = 0, wrong = 0;
    GP_CHECK(gp_problem_each_case(&dbl, GP_CASES_VERIFY, NULL, NULL, &o, &rng, check_as, &checked).code == GP_OK);
    GP_CHECK(seen == 4 && checked == 3);
    /* A wrong answer stops the loop, named as the caller said. */
    seen = 0, wrong = 1;
    gp_status st = gp_problem_each_case(&dbl, GP_CASES_VERIFY, NULL, NULL, &o, &rng, check_as, &checked);
    GP_CHECK(st.code == GP_ERR_CHECK && strstr(st.msg, "the case as named: element 0") && seen == 1 && checked == 0);
    return 0;
}
