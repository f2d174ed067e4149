/* Host runtime of gpuprobe, written once in HIP spelling.
 * hipcc compiles it for AMD; nvcc compiles it for NVIDIA through
 * gp_hip_to_cuda.h (included by gp_device.h). */
#include "gp_device.h"
#include "runtime.h"
#include "no_gpu.h"
#include "timer_rate.h"
#include "device_id.h"

#include <limits.h>
#include <string.h>

#include <mutex>

#ifndef GP_COMPILED_ARCHS
#define GP_COMPILED_ARCHS "unknown"
#endif

#define CHECK(call) GP_TRY(gp_hip_status((call), #call))

extern "C" const char *gp_rt_backend(void)
{
#if defined(GP_VENDOR_AMD)
    return "hip";
#else
    return "cuda";
#endif
}

extern "C" const char *gp_rt_compiled_archs(void) { return GP_COMPILED_ARCHS; }

/* nvcc is given plain CMAKE_CUDA_ARCHITECTURES numbers: compute_NN PTX is
 * embedded beside the SASS (the driver can JIT it for newer GPUs). */
extern "C" int gp_rt_compiled_ptx(void)
{
#if defined(GP_VENDOR_AMD)
    return 0;
#else
    return 1;
#endif
}

extern "C" gp_status gp_rt_device_count(int *count)
{
    *count = 0;
    hipError_t e = hipGetDeviceCount(count);
    if (e == hipErrorInsufficientDriver) {
        *count = 0;
        (void)hipGetLastError();
        return gp_rt_no_gpu(gp_rt_backend(), GP_NO_GPU_NO_DRIVER, NULL);
    }
    if (e == hipErrorNoDevice || (e == hipSuccess && *count == 0)) {
        *count = 0;
        (void)hipGetLastError();
        return gp_rt_no_gpu(gp_rt_backend(), GP_NO_GPU_NO_DEVICE, NULL);
    }
    if (e != hipSuccess) {
        *count = 0;
        (void)hipGetLastError();
        /* A runtime that cannot start (no device node, ...) means no GPU. */
        return gp_rt_no_gpu(gp_rt_backend(), GP_NO_GPU_OTHER, hipGetErrorString(e));
    }
    return gp_ok();
}

extern "C" gp_status gp_func_attributes(const void *kernel_fn, gp_func_attr *out)
{
    memset(out, 0, sizeof *out);
    if (!kernel_fn)
        return gp_fail(GP_ERR_USAGE, "gp_func_attributes: no kernel function (that instantiation is not compiled)");
    int count = 0; /* no driver or no device: GP_ERR_NO_GPU, as for every other call */
    GP_TRY(gp_rt_device_count(&count));
    hipFuncAttributes a;
    memset(&a, 0, sizeof a);
    CHECK(hipFuncGetAttributes(&a, kernel_fn));
    out->regs_per_thread = a.numRegs;
    out->static_lds_bytes = a.sharedSizeBytes;
    out->local_bytes = a.localSizeBytes;
    out->max_threads_per_block = a.maxThreadsPerBlock;
#if defined(GP_VENDOR_AMD)
    snprintf(out->source, sizeof out->source, "hipFuncGetAttributes");
#else
    out->code_arch = a.ptxVersion;
    snprintf(out->source, sizeof out->source, "cudaFuncGetAttributes");
#endif
    return gp_ok();
}

extern "C" gp_status gp_func_dynamic_lds(const void *kernel_fn, int threads, size_t dyn_lds, int *blocks_per_cu,
                                         int *cus)
{
    /* The opt-in is one value per function (and device): raised, never
     * lowered, so a launch after a larger one still finds room.  Occupancy
     * answers are kept per function, threads, LDS and device (a handful of
     * ring shapes per process); past the table's size they are asked anew. */
    static struct {
        const void *fn;
        int device;
        size_t lds;
    } optin[32];
    static struct {
        const void *fn;
        int threads, device, blocks, cus;
        size_t lds;
    } seen[64];
    static int noptin, nseen;
    /* One process, many threads (the library's calls may come from several
     * at once): the tables and the opt-in they record change together. */
    static std::mutex lock;
    const std::lock_guard<std::mutex> held(lock);
    *blocks_per_cu = 0, *cus = 0;
    if (!kernel_fn || threads < 1)
        return gp_fail(GP_ERR_USAGE, "gp_func_dynamic_lds: no kernel function or no threads");
    if (dyn_lds > (size_t)INT_MAX)
        return gp_fail(GP_ERR_USAGE, "gp_func_dynamic_lds: %zu bytes of LDS", dyn_lds);
    int device = 0;
    CHECK(hipGetDevice(&device));
    int o = 0;
    while (o < noptin && !(optin[o].fn == kernel_fn && optin[o].device == device))
        o++;
    if (o == noptin || optin[o].lds < dyn_lds) {
        /* More than the device grants a block is the caller's error, said as
         * such (and no failed call leaves its error for the next launch). */
        int grant = 0;
        hipFuncAttributes fa;
        memset(&fa, 0, sizeof fa);
        CHECK(hipDeviceGetAttribute(&grant, hipDeviceAttributeSharedMemPerBlockOptin, device));
        CHECK(hipFuncGetAttributes(&fa, kernel_fn));
        if (dyn_lds + (size_t)fa.sharedSizeBytes > (size_t)grant)
            return gp_fail(GP_ERR_USAGE, "%zu B of dynamic + %zu B of static shared memory exceed the %d B a block "
                           "may have on this device", dyn_lds, (size_t)fa.sharedSizeBytes, grant);
        hipError_t e = hipFuncSetAttribute(kernel_fn, hipFuncAttributeMaxDynamicSharedMemorySize, (int)dyn_lds);
        if (e != hipSuccess) {
            (void)hipGetLastError();
            return gp_hip_status(e, "hipFuncSetAttribute(MaxDynamicSharedMemorySize)");
        }
        if (o == noptin && noptin < (int)(sizeof optin / sizeof optin[0]))
            optin[noptin].fn = kernel_fn, optin[noptin].device = device, noptin++;
        if (o < noptin)
            optin[o].lds = dyn_lds;
    }
    for (int i = 0; i < nseen; i++)
        if (seen[i].fn == kernel_fn && seen[i].threads == threads && seen[i].lds == dyn_lds &&
            seen[i].device == device) {
            *blocks_per_cu = seen[i].blocks, *cus = seen[i].cus;
            return gp_ok();
        }
    CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_cu, kernel_fn, threads, dyn_lds));
    CHECK(hipDeviceGetAttribute(cus, hipDeviceAttributeMultiprocessorCount, device));
    if (nseen < (int)(sizeof seen / sizeof seen[0])) {
        seen[nseen].fn = kernel_fn, seen[nseen].threads = threads, seen[nseen].lds = dyn_lds;
        seen[nseen].device = device, seen[nseen].blocks = *blocks_per_cu, seen[nseen].cus = *cus;
        nseen++;
    }
    return gp_ok();
}

static int attr(hipDeviceAttribute_t a, int dev)
{
    int v = 0;
    if (hipDeviceGetAttribute(&v, a, dev) != hipSuccess) {
        (void)hipGetLastError();
        return 0;
    }
    return v;
}

/* The device's UUID (platform/device_id.h): NVIDIA's 16 binary bytes are in
 * the properties; HIP 5.2's hipDeviceProp_t has none, so AMD asks
 * hipDeviceGetUuid, whose bytes are the unique id's text. */
static void read_uuid(int index, const hipDeviceProp_t *p, gp_device_info *info)
{
    char why[96];
#if defined(GP_VENDOR_AMD)
    (void)p;
    hipUUID u;
    memset(&u, 0, sizeof u);
    hipError_t e = hipDeviceGetUuid(&u, index);
    if (e != hipSuccess) {
        (void)hipGetLastError();
        snprintf(info->uuid_source, sizeof info->uuid_source, "none: hipDeviceGetUuid failed: %s",
                 hipGetErrorString(e));
        return;
    }
    const char *src = "hipDeviceGetUuid";
    int ok = gp_uuid_format((const unsigned char *)u.bytes, 1, info->uuid, sizeof info->uuid, why, sizeof why);
#else
    (void)index;
    const char *src = "cudaDeviceProp.uuid";
    int ok = gp_uuid_format((const unsigned char *)p->uuid.bytes, 0, info->uuid, sizeof info->uuid, why, sizeof why);
#endif
    if (ok)
        snprintf(info->uuid_source, sizeof info->uuid_source, "%s", src);
    else
        snprintf(info->uuid_source, sizeof info->uuid_source, "none: %s: %s", src, why);
}

static char open_arch[32];
extern "C" const char *gp_rt_open_arch(void) { return open_arch; }

extern "C" gp_status gp_rt_device_open(int index, gp_device_info *info)
{
    int count = 0;
    GP_TRY(gp_rt_device_count(&count));
    if (index < 0 || index >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s present)", index, count,
                       count == 1 ? "" : "s");
    CHECK(hipSetDevice(index));
    hipDeviceProp_t p;
    CHECK(hipGetDeviceProperties(&p, index));

    memset(info, 0, sizeof *info);
    info->index = index;
    snprintf(info->name, sizeof info->name, "%s", p.name);
#if defined(GP_VENDOR_AMD)
    snprintf(info->vendor, sizeof info->vendor, "AMD");
    /* gcnArchName carries feature flags ("gfx90a:sramecc+:xnack-"): keep the name. */
    snprintf(info->arch, sizeof info->arch, "%s", p.gcnArchName);
    char *colon = strchr(info->arch, ':');
    if (colon)
        *colon = '\0';
    /* The real-time counter's rate differs by target (27 MHz on gfx900, 25 MHz
     * on the other gfx9 before gfx940, 100 MHz on gfx940+, gfx10, gfx11): the
     * runtime's attribute where this
     * HIP has it, else the per-target table.  The clock module calibrates it
     * against event time either way (common/clock.c). */
    const char *src = NULL;
    info->timer_hz = gp_amd_timer_hz(info->arch, &src);
#if defined(GP_HAVE_HIP_WALL_CLOCK_RATE)
    int khz = attr(hipDeviceAttributeWallClockRate, index);
    if (khz > 0) {
        info->timer_hz = khz * 1e3;
        src = "HIP runtime (hipDeviceAttributeWallClockRate)";
    }
#endif
    snprintf(info->timer_source, sizeof info->timer_source, "%s", src ? src : "unknown");
#else
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", p.major, p.minor);
    info->timer_hz = 1e9; /* %globaltimer counts nanoseconds */
    snprintf(info->timer_source, sizeof info->timer_source, "%%globaltimer counts nanoseconds (PTX ISA)");
#endif
    if (hipDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, index) != hipSuccess) {
        (void)hipGetLastError();
        info->pci_bus_id[0] = '\0';
    }
    read_uuid(index, &p, info);
    info->compute_units = p.multiProcessorCount;
    info->wave_size = p.warpSize;
    info->max_threads_per_block = p.maxThreadsPerBlock;
    info->max_threads_per_cu = p.maxThreadsPerMultiProcessor;
    for (int i = 0; i < 3; i++) {
        info->max_block_dim[i] = p.maxThreadsDim[i];
        info->max_grid_dim[i] = p.maxGridSize[i];
    }
    info->lds_per_block = p.sharedMemPerBlock;
    info->lds_per_block_optin = (size_t)attr(hipDeviceAttributeSharedMemPerBlockOptin, index);
    if (info->lds_per_block_optin < info->lds_per_block)
        info->lds_per_block_optin = info->lds_per_block;
    info->lds_per_cu = (size_t)attr(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, index);
    if (info->lds_per_cu == 0)
        info->lds_per_cu = info->lds_per_block;
    info->regs_per_block = p.regsPerBlock;
    info->regs_per_cu = attr(hipDeviceAttributeMaxRegistersPerMultiprocessor, index);
    info->l2_bytes = (size_t)attr(hipDeviceAttributeL2CacheSize, index);
    info->mem_bytes = p.totalGlobalMem;
    info->mem_bus_bits = attr(hipDeviceAttributeMemoryBusWidth, index);
    info->mem_clock_mhz = attr(hipDeviceAttributeMemoryClockRate, index) / 1000.0;
    info->core_clock_mhz = attr(hipDeviceAttributeClockRate, index) / 1000.0;
    snprintf(open_arch, sizeof open_arch, "%s", info->arch);
    return gp_ok();
}

extern "C" gp_status gp_rt_malloc(void **ptr, size_t bytes)
{
    *ptr = NULL;
    hipError_t e = hipMalloc(ptr, bytes);
    if (e != hipSuccess) {
        (void)hipGetLastError();
        *ptr = NULL;
        return gp_fail(GP_ERR_NOMEM, "device allocation of %zu bytes failed: %s", bytes,
                       hipGetErrorString(e));
    }
    return gp_ok();
}

extern "C" gp_status gp_rt_free(void *ptr)
{
    if (!ptr)
        return gp_ok();
    CHECK(hipFree(ptr));
    return gp_ok();
}

extern "C" gp_status gp_rt_memset(void *dst, int byte, size_t bytes)
{
    CHECK(hipMemset(dst, byte, bytes));
    return gp_ok();
}

extern "C" gp_status gp_rt_memset_async(void *dst, int byte, size_t bytes, gp_stream s)
{
    CHECK(hipMemsetAsync(dst, byte, bytes, (hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_copy_to_device(void *dst, const void *src, size_t bytes)
{
    CHECK(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice));
    return gp_ok();
}

extern "C" gp_status gp_rt_copy_to_host(void *dst, const void *src, size_t bytes)
{
    CHECK(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost));
    return gp_ok();
}

extern "C" gp_status gp_rt_copy_device_async(void *dst, const void *src, size_t bytes, gp_stream s)
{
    CHECK(hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, (hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    CHECK(hipMemGetInfo(free_bytes, total_bytes));
    return gp_ok();
}

extern "C" gp_status gp_rt_synchronize(void)
{
    CHECK(hipDeviceSynchronize());
    return gp_ok();
}

extern "C" gp_status gp_rt_stream_create(gp_stream *s)
{
    hipStream_t h;
    CHECK(hipStreamCreateWithFlags(&h, hipStreamNonBlocking));
    *s = (gp_stream)h;
    return gp_ok();
}

extern "C" gp_status gp_rt_stream_destroy(gp_stream s)
{
    if (s)
        CHECK(hipStreamDestroy((hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_stream_synchronize(gp_stream s)
{
    CHECK(hipStreamSynchronize((hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_event_create(gp_event *e)
{
    hipEvent_t h;
    CHECK(hipEventCreate(&h));
    *e = (gp_event)h;
    return gp_ok();
}

extern "C" gp_status gp_rt_event_destroy(gp_event e)
{
    if (e)
        CHECK(hipEventDestroy((hipEvent_t)e));
    return gp_ok();
}

extern "C" gp_status gp_rt_event_record(gp_event e, gp_stream s)
{
    CHECK(hipEventRecord((hipEvent_t)e, (hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_event_elapsed_ms(gp_event start, gp_event stop, float *ms)
{
    CHECK(hipEventSynchronize((hipEvent_t)stop));
    CHECK(hipEventElapsedTime(ms, (hipEvent_t)start, (hipEvent_t)stop));
    return gp_ok();
}

extern "C" gp_status gp_rt_graph_capture_begin(gp_stream s)
{
    if (!s)
        return gp_fail(GP_ERR_USAGE, "graph capture needs a created stream, not the default one");
    CHECK(hipStreamBeginCapture((hipStream_t)s, hipStreamCaptureModeGlobal));
    return gp_ok();
}

extern "C" gp_status gp_rt_graph_capture_end(gp_stream s, gp_graph *g)
{
    hipGraph_t graph;
    hipGraphExec_t exec;
    CHECK(hipStreamEndCapture((hipStream_t)s, &graph));
    hipError_t e = gp_graph_instantiate(&exec, graph);
    (void)hipGraphDestroy(graph);
    GP_TRY(gp_hip_status(e, "graph instantiate"));
    *g = (gp_graph)exec;
    return gp_ok();
}

extern "C" gp_status gp_rt_graph_launch(gp_graph g, gp_stream s)
{
    CHECK(hipGraphLaunch((hipGraphExec_t)g, (hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_graph_destroy(gp_graph g)
{
    if (g)
        CHECK(hipGraphExecDestroy((hipGraphExec_t)g));
    return gp_ok();
}
