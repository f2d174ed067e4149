/* Backend "none": no GPU compiler was found at configure time.  The host
 * library, the CLI and every CPU test still build; each GPU call says why it
 * cannot run, with GP_ERR_NO_GPU so the CLI exits 77 and CTest skips. */
#include "runtime.h"

#include <string.h>

static gp_status none(void)
{
    return gp_fail(GP_ERR_NO_GPU,
                   "no GPU backend compiled: this build found neither nvcc nor hipcc "
                   "(configure with a GPU compiler to run probes)");
}

const char *gp_rt_backend(void) { return "none"; }
const char *gp_rt_compiled_archs(void) { return ""; }
int gp_rt_compiled_ptx(void) { return 0; }
const char *gp_rt_open_arch(void) { return ""; }

gp_status gp_rt_device_count(int *count)
{
    *count = 0;
    return none();
}

gp_status gp_rt_device_open(int index, gp_device_info *info)
{
    (void)index;
    memset(info, 0, sizeof *info);
    return none();
}

gp_status gp_func_attributes(const void *kernel_fn, gp_func_attr *out)
{
    (void)kernel_fn;
    memset(out, 0, sizeof *out);
    return none();
}

gp_status gp_func_dynamic_lds(const void *kernel_fn, int threads, size_t dyn_lds, int *blocks_per_cu, int *cus)
{
    (void)kernel_fn, (void)threads, (void)dyn_lds;
    *blocks_per_cu = 0, *cus = 0;
    return none();
}

gp_status gp_rt_malloc(void **ptr, size_t bytes)
{
    (void)bytes;
    *ptr = NULL;
    return none();
}

gp_status gp_rt_free(void *ptr)
{
    return ptr ? none() : gp_ok();
}

gp_status gp_rt_memset(void *dst, int byte, size_t bytes)
{
    (void)dst, (void)byte, (void)bytes;
    return none();
}

gp_status gp_rt_memset_async(void *dst, int byte, size_t bytes, gp_stream s)
{
    (void)dst, (void)byte, (void)bytes, (void)s;
    return none();
}

gp_status gp_rt_copy_to_device(void *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return none();
}

gp_status gp_rt_copy_to_host(void *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return none();
}

gp_status gp_rt_copy_device_async(void *dst, const void *src, size_t bytes, gp_stream s)
{
    (void)dst, (void)src, (void)bytes, (void)s;
    return none();
}

gp_status gp_rt_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = 0;
    return none();
}

gp_status gp_rt_synchronize(void) { return none(); }

gp_status gp_rt_stream_create(gp_stream *s)
{
    *s = NULL;
    return none();
}

gp_status gp_rt_stream_destroy(gp_stream s) { return s ? none() : gp_ok(); }
gp_status gp_rt_stream_synchronize(gp_stream s)
{
    (void)s;
    return none();
}

gp_status gp_rt_event_create(gp_event *e)
{
    *e = NULL;
    return none();
}

gp_status gp_rt_event_destroy(gp_event e) { return e ? none() : gp_ok(); }

gp_status gp_rt_event_record(gp_event e, gp_stream s)
{
    (void)e, (void)s;
    return none();
}

gp_status gp_rt_event_elapsed_ms(gp_event start, gp_event stop, float *ms)
{
    (void)start, (void)stop;
    *ms = 0;
    return none();
}

gp_status gp_rt_graph_capture_begin(gp_stream s)
{
    (void)s;
    return none();
}

gp_status gp_rt_graph_capture_end(gp_stream s, gp_graph *g)
{
    (void)s;
    *g = NULL;
    return none();
}

gp_status gp_rt_graph_launch(gp_graph g, gp_stream s)
{
    (void)g, (void)s;
    return none();
}

gp_status gp_rt_graph_destroy(gp_graph g) { return g ? none() : gp_ok(); }

gp_status gp_rt_clock_spin(int blocks, long long spin_cycles, long long *cycles, long long *ticks, double *event_ms)
{
    (void)blocks, (void)spin_cycles, (void)cycles, (void)ticks, (void)event_ms;
    return none();
}

gp_status gp_rt_hold_create(gp_hold **h)
{
    *h = NULL;
    return none();
}

void gp_rt_hold_destroy(gp_hold *h) { (void)h; }

gp_status gp_rt_hold_begin(gp_hold *h, gp_stream s)
{
    (void)h, (void)s;
    return none();
}

void gp_rt_hold_release(gp_hold *h) { (void)h; }

int gp_rt_hold_timed_out(const gp_hold *h)
{
    (void)h;
    return 0;
}
