/* NVML through dlopen: only the few entry points we need, declared here with
 * the types NVML documents, so no NVML header is needed to build. */
#define _GNU_SOURCE
#include "smi.h"
#include "smi_rocm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__unix__)
#include <dlfcn.h>
#endif

typedef void *nvml_device;
/* nvmlProcessInfo_t of the _v2/_v3 entry points, and the older v1 layout. */
typedef struct {
    unsigned int pid;
    unsigned long long used_gpu_memory;
    unsigned int gpu_instance_id, compute_instance_id;
} nvml_process_info;
typedef struct {
    unsigned int pid;
    unsigned long long used_gpu_memory;
} nvml_process_info_v1;

#define NVML_SUCCESS 0
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define GP_SMI_MAX_PROCS 64

static void set_none(gp_smi_reading *out)
{
    memset(out, 0, sizeof *out);
    out->other_processes = -1;
    snprintf(out->source, sizeof out->source, "none");
}

#if defined(__unix__)
static void *nvml_lib(void)
{
    /* Loaded once and kept for the life of the process: NVML init is costly. */
    static void *lib;
    static int tried, ok;
    if (!tried) {
        tried = 1;
        lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
            ok = init && init() == 0;
        }
    }
    return ok ? lib : NULL;
}

static int gp_smi_other_processes(void *lib, nvml_device dev);

static void read_nvml(const char *pci_bus_id, gp_smi_reading *out)
{
    void *lib = nvml_lib();
    if (!lib || !pci_bus_id || !pci_bus_id[0])
        return;
    int (*by_bus)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    int (*clock)(nvml_device, int, unsigned *) =
        (int (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    int (*temp)(nvml_device, int, unsigned *) =
        (int (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
    int (*power)(nvml_device, unsigned *) =
        (int (*)(nvml_device, unsigned *))dlsym(lib, "nvmlDeviceGetPowerUsage");
    nvml_device dev;
    if (!by_bus || by_bus(pci_bus_id, &dev) != 0)
        return;
    unsigned v;
    out->available = 1;
    snprintf(out->source, sizeof out->source, "nvml");
    /* NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 */
    if (clock && clock(dev, 1, &v) == 0)
        out->sm_clock_mhz = v;
    if (clock && clock(dev, 2, &v) == 0)
        out->mem_clock_mhz = v;
    if (temp && temp(dev, 0, &v) == 0)
        out->temperature_c = v;
    if (power && power(dev, &v) == 0)
        out->power_w = v / 1000.0;
    out->other_processes = gp_smi_other_processes(lib, dev);
    /* The entry point was renamed in NVML 12.x; the bits kept their values. */
    int (*reasons)(nvml_device, unsigned long long *) =
        (int (*)(nvml_device, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons)
        reasons = (int (*)(nvml_device, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    out->reasons_read = reasons && reasons(dev, &out->reasons) == NVML_SUCCESS;
}

/* Compute processes on the GPU other than this one, -1 when NVML cannot say.
 * NVML lists pids in the host's pid namespace: in a container our own pid is
 * not among them, so when it is absent one listed process is taken to be us
 * (this one holds a context on the GPU whenever a probe asks). */
static int gp_smi_other_processes(void *lib, nvml_device dev)
{
    static const char *names[] = {"nvmlDeviceGetComputeRunningProcesses_v3",
                                  "nvmlDeviceGetComputeRunningProcesses_v2",
                                  "nvmlDeviceGetComputeRunningProcesses"};
    unsigned pids[GP_SMI_MAX_PROCS];
    unsigned n = 0;
    int rc = -1;
    for (int v = 0; v < 3 && rc < 0; v++) {
        void *fn = dlsym(lib, names[v]);
        if (!fn)
            continue;
        unsigned cnt = GP_SMI_MAX_PROCS;
        int r;
        if (v < 2) {
            nvml_process_info info[GP_SMI_MAX_PROCS];
            r = ((int (*)(nvml_device, unsigned *, nvml_process_info *))fn)(dev, &cnt, info);
            for (unsigned i = 0; r == NVML_SUCCESS && i < cnt && i < GP_SMI_MAX_PROCS; i++)
                pids[i] = info[i].pid;
        } else {
            nvml_process_info_v1 info[GP_SMI_MAX_PROCS];
            r = ((int (*)(nvml_device, unsigned *, nvml_process_info_v1 *))fn)(dev, &cnt, info);
            for (unsigned i = 0; r == NVML_SUCCESS && i < cnt && i < GP_SMI_MAX_PROCS; i++)
                pids[i] = info[i].pid;
        }
        if (r == NVML_SUCCESS) {
            n = cnt < GP_SMI_MAX_PROCS ? cnt : GP_SMI_MAX_PROCS;
            rc = 0;
        } else if (r == NVML_ERROR_INSUFFICIENT_SIZE) {
            return cnt > 1 ? (int)cnt - 1 : 1; /* more than we asked for: plenty of others */
        }
    }
    if (rc < 0)
        return -1;
    int self = 0;
    for (unsigned i = 0; i < n; i++)
        self += pids[i] == (unsigned)getpid();
    /* Listed: the others are the rest.  Not listed with n > 0: another pid
     * namespace, one of the n is us.  None listed: nobody else either. */
    if (self)
        return (int)n - self;
    return n ? (int)n - 1 : 0;
}
#endif

void gp_smi_read(const char *vendor, const char *pci_bus_id, gp_smi_reading *out)
{
    set_none(out);
#if defined(__unix__)
    if (vendor && strcmp(vendor, "NVIDIA") == 0)
        read_nvml(pci_bus_id, out);
#else
    (void)vendor, (void)pci_bus_id;
#endif
    /* On AMD, power and temperature from rocm-smi; no reported clock, so the
     * in-kernel measurement stands alone. */
    if (vendor && strcmp(vendor, "AMD") == 0)
        gp_rocm_smi_read(pci_bus_id, out);
}

void gp_smi_reasons_text(unsigned long long reasons, char *buf, size_t n)
{
    static const struct {
        unsigned long long bit;
        const char *name;
    } names[] = {{GP_SMI_REASON_IDLE, "idle"},
                 {GP_SMI_REASON_APP_CLOCKS, "application clocks"},
                 {GP_SMI_REASON_SW_POWER_CAP, "power cap"},
                 {GP_SMI_REASON_HW_SLOWDOWN, "hardware slowdown"},
                 {GP_SMI_REASON_SYNC_BOOST, "sync boost"},
                 {GP_SMI_REASON_SW_THERMAL, "thermal (software)"},
                 {GP_SMI_REASON_HW_THERMAL, "thermal (hardware)"},
                 {GP_SMI_REASON_HW_POWER_BRAKE, "power brake"},
                 {GP_SMI_REASON_DISPLAY_CLOCKS, "display clocks"}};
    size_t at = 0;
    if (!n)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (reasons & names[i].bit && at < n) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", names[i].name);
            at += w > 0 ? (size_t)w : 0;
        }
    if (!buf[0])
        snprintf(buf, n, "none");
}

/* ---- Links: PCIe generation and width, NVLink state, the path between two
 * GPUs.  Entry points and enums as NVML documents them (nvml.h). */
#define GP_NVML_NVLINK_MAX_LINKS 18 /* NVML_NVLINK_MAX_LINKS (Hopper: 18) */

#if defined(__unix__)
typedef int (*nvml_uint_fn)(nvml_device, unsigned *);

static int nvml_handle(const char *pci_bus_id, void **lib_out, nvml_device *dev)
{
    void *lib = nvml_lib();
    if (!lib || !pci_bus_id || !pci_bus_id[0])
        return 0;
    int (*by_bus)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    if (!by_bus || by_bus(pci_bus_id, dev) != NVML_SUCCESS)
        return 0;
    *lib_out = lib;
    return 1;
}

static int nvml_uint(void *lib, const char *name, nvml_device dev)
{
    nvml_uint_fn fn = (nvml_uint_fn)dlsym(lib, name);
    unsigned v;
    return fn && fn(dev, &v) == NVML_SUCCESS ? (int)v : 0;
}
#endif

void gp_smi_read_link(const char *vendor, const char *pci_bus_id, gp_smi_link *out)
{
    memset(out, 0, sizeof *out);
    out->nvlink_active = -1;
    if (!vendor || strcmp(vendor, "NVIDIA") != 0) {
        snprintf(out->why, sizeof out->why, "no vendor library read on %s (NVML is NVIDIA's; links are not read through rocm-smi)",
                 vendor && vendor[0] ? vendor : "this device");
        return;
    }
#if defined(__unix__)
    void *lib = NULL;
    nvml_device dev;
    if (!nvml_lib()) {
        snprintf(out->why, sizeof out->why, "NVML (libnvidia-ml.so.1) not loadable or not initialised");
        return;
    }
    if (!nvml_handle(pci_bus_id, &lib, &dev)) {
        snprintf(out->why, sizeof out->why, "NVML has no device at PCI bus id '%.40s'", pci_bus_id ? pci_bus_id : "");
        return;
    }
    out->curr_gen = nvml_uint(lib, "nvmlDeviceGetCurrPcieLinkGeneration", dev);
    out->curr_width = nvml_uint(lib, "nvmlDeviceGetCurrPcieLinkWidth", dev);
    out->max_gen = nvml_uint(lib, "nvmlDeviceGetMaxPcieLinkGeneration", dev);
    out->max_width = nvml_uint(lib, "nvmlDeviceGetMaxPcieLinkWidth", dev);
    out->gpu_max_gen = nvml_uint(lib, "nvmlDeviceGetGpuMaxPcieLinkGeneration", dev);
    int (*state)(nvml_device, unsigned, int *) =
        (int (*)(nvml_device, unsigned, int *))dlsym(lib, "nvmlDeviceGetNvLinkState");
    if (state) {
        int active = 0, any = 0;
        for (unsigned l = 0; l < GP_NVML_NVLINK_MAX_LINKS; l++) {
            int on = 0; /* nvmlEnableState_t: 1 enabled */
            if (state(dev, l, &on) == NVML_SUCCESS) {
                any = 1;
                active += on == 1;
            }
        }
        out->nvlink_active = any ? active : 0;
    }
    out->available = out->curr_gen > 0 && out->curr_width > 0;
    if (!out->available)
        snprintf(out->why, sizeof out->why, "NVML gave no current PCIe generation and width");
#else
    (void)pci_bus_id;
    snprintf(out->why, sizeof out->why, "NVML is read on Linux only");
#endif
}

/* nvmlGpuTopologyLevel_t, nearest first. */
static const char *topology_name(int level)
{
    switch (level) {
    case 0: return "same board";
    case 10: return "one PCIe switch";
    case 20: return "several PCIe switches";
    case 30: return "one host bridge";
    case 40: return "one NUMA node (host bridges)";
    case 50: return "across CPU sockets";
    default: return "";
    }
}

void gp_smi_read_pair(const char *vendor, const char *bus_a, const char *bus_b, gp_smi_pair *out)
{
    memset(out, 0, sizeof *out);
    out->nvlink = -1;
#if defined(__unix__)
    void *lib = NULL;
    nvml_device a, b;
    if (!vendor || strcmp(vendor, "NVIDIA") != 0 || !nvml_handle(bus_a, &lib, &a) || !nvml_handle(bus_b, &lib, &b))
        return;
    out->available = 1;
    /* NVML_P2P_CAPS_INDEX_NVLINK = 2; NVML_P2P_STATUS_OK = 0. */
    int (*p2p)(nvml_device, nvml_device, int, int *) =
        (int (*)(nvml_device, nvml_device, int, int *))dlsym(lib, "nvmlDeviceGetP2PStatus");
    int status;
    if (p2p && p2p(a, b, 2, &status) == NVML_SUCCESS)
        out->nvlink = status == 0;
    int (*anc)(nvml_device, nvml_device, int *) =
        (int (*)(nvml_device, nvml_device, int *))dlsym(lib, "nvmlDeviceGetTopologyCommonAncestor");
    int level;
    if (anc && anc(a, b, &level) == NVML_SUCCESS)
        snprintf(out->topology, sizeof out->topology, "%s", topology_name(level));
#else
    (void)vendor, (void)bus_a, (void)bus_b;
#endif
}

/* ---- Health counters.  Enums as nvml.h has them: nvmlMemoryErrorType_t
 * (corrected 0, uncorrected 1), nvmlEccCounterType_t (volatile 0,
 * aggregate 1), nvmlEnableState_t (enabled 1). */
static void health_none(gp_smi_health *out, const char *why)
{
    memset(out, 0, sizeof *out);
    out->ecc_enabled = -1;
    out->ecc_uncorrected_volatile = out->ecc_uncorrected_aggregate = -1;
    out->ecc_corrected_volatile = out->ecc_corrected_aggregate = -1;
    out->remapped_uncorrectable = out->remapped_correctable = out->remap_pending = out->remap_failed = -1;
    out->retired_pending = -1;
    out->pcie_replays = -1;
    out->xids = -1;
    snprintf(out->source, sizeof out->source, "none");
    snprintf(out->why, sizeof out->why, "%s", why);
}

#if defined(__unix__)
static long long nvml_ecc(void *lib, nvml_device dev, int type, int counter)
{
    int (*fn)(nvml_device, int, int, unsigned long long *) =
        (int (*)(nvml_device, int, int, unsigned long long *))dlsym(lib, "nvmlDeviceGetTotalEccErrors");
    unsigned long long v;
    return fn && fn(dev, type, counter, &v) == NVML_SUCCESS ? (long long)v : -1;
}

static void read_nvml_health(void *lib, nvml_device dev, gp_smi_health *out)
{
    int (*ecc_mode)(nvml_device, int *, int *) = (int (*)(nvml_device, int *, int *))dlsym(lib, "nvmlDeviceGetEccMode");
    int cur, pend;
    if (ecc_mode && ecc_mode(dev, &cur, &pend) == NVML_SUCCESS)
        out->ecc_enabled = cur == 1;
    out->ecc_uncorrected_volatile = nvml_ecc(lib, dev, 1, 0);
    out->ecc_uncorrected_aggregate = nvml_ecc(lib, dev, 1, 1);
    out->ecc_corrected_volatile = nvml_ecc(lib, dev, 0, 0);
    out->ecc_corrected_aggregate = nvml_ecc(lib, dev, 0, 1);
    int (*remap)(nvml_device, unsigned *, unsigned *, unsigned *, unsigned *) =
        (int (*)(nvml_device, unsigned *, unsigned *, unsigned *, unsigned *))dlsym(lib, "nvmlDeviceGetRemappedRows");
    unsigned corr, unc, pending, failed;
    if (remap && remap(dev, &corr, &unc, &pending, &failed) == NVML_SUCCESS) {
        out->remapped_correctable = (int)corr, out->remapped_uncorrectable = (int)unc;
        out->remap_pending = pending != 0, out->remap_failed = failed != 0;
    }
    int (*retired)(nvml_device, int *) = (int (*)(nvml_device, int *))dlsym(lib, "nvmlDeviceGetRetiredPagesPendingStatus");
    int on;
    if (retired && retired(dev, &on) == NVML_SUCCESS)
        out->retired_pending = on == 1;
    unsigned v;
    int (*replay)(nvml_device, unsigned *) = (int (*)(nvml_device, unsigned *))dlsym(lib, "nvmlDeviceGetPcieReplayCounter");
    if (replay && replay(dev, &v) == NVML_SUCCESS)
        out->pcie_replays = v;
    int (*limit)(nvml_device, unsigned *) = (int (*)(nvml_device, unsigned *))dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit");
    if (limit && limit(dev, &v) == NVML_SUCCESS)
        out->power_limit_w = v / 1000.0;
}
#endif

void gp_smi_read_health(const char *vendor, const char *pci_bus_id, gp_smi_health *out)
{
    if (vendor && strcmp(vendor, "AMD") == 0) {
        char why[96];
        health_none(out, "");
        if (!gp_rocm_smi_health(pci_bus_id, out, why, sizeof why))
            health_none(out, why);
        return;
    }
    if (!vendor || strcmp(vendor, "NVIDIA") != 0) {
        health_none(out, "no health counters read on this vendor (NVML is NVIDIA's, rocm-smi AMD's)");
        return;
    }
#if defined(__unix__)
    void *lib = NULL;
    nvml_device dev;
    if (!nvml_lib()) {
        health_none(out, "NVML (libnvidia-ml.so.1) not loadable or not initialised");
        return;
    }
    if (!nvml_handle(pci_bus_id, &lib, &dev)) {
        health_none(out, "NVML has no device at this PCI bus id");
        return;
    }
    health_none(out, "");
    out->available = 1;
    snprintf(out->source, sizeof out->source, "nvml");
    read_nvml_health(lib, dev, out);
#else
    (void)pci_bus_id;
    health_none(out, "NVML is read on Linux only");
#endif
}

void gp_smi_add_finding(char *buf, size_t n, int *count, const char *fmt, ...)
{
    const size_t at = strlen(buf);
    va_list ap;
    (*count)++;
    if (at + 2 >= n)
        return;
    if (at)
        strcpy(buf + at, "; ");
    const size_t len = strlen(buf);
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

int gp_smi_health_flags(const gp_smi_health *h, char *buf, size_t n)
{
    int k = 0;
    if (!n)
        return 0;
    buf[0] = '\0';
    if (!h->available)
        return 0;
    if (h->ecc_uncorrected_volatile > 0)
        gp_smi_add_finding(buf, n, &k, "%lld uncorrected ECC errors since boot", h->ecc_uncorrected_volatile);
    if (h->remap_pending > 0)
        gp_smi_add_finding(buf, n, &k, "a row remap is pending (reset the GPU)");
    if (h->remap_failed > 0)
        gp_smi_add_finding(buf, n, &k, "a row remap failed");
    if (h->retired_pending > 0)
        gp_smi_add_finding(buf, n, &k, "pages are waiting to retire (reset the GPU)");
    if (h->xids > 0)
        gp_smi_add_finding(buf, n, &k, "%d XID event(s) during the run (last XID %llu)", h->xids, h->last_xid);
    return k;
}

/* ---- XID events: nvmlEventSetCreate / nvmlDeviceRegisterEvents /
 * nvmlEventSetWait_v2 with nvmlEventTypeXidCriticalError (8). */
struct gp_smi_xid_watch {
    void *lib;
    void *set;
};

typedef struct {
    nvml_device device;
    unsigned long long type, data;
    unsigned gpu_instance, compute_instance;
} nvml_event_data;

gp_smi_xid_watch *gp_smi_xid_open(const char *vendor, const char *pci_bus_id, char *why, size_t n)
{
#if defined(__unix__)
    void *lib = NULL;
    nvml_device dev;
    if (!vendor || strcmp(vendor, "NVIDIA") != 0) {
        snprintf(why, n, "XID events are NVIDIA's (NVML); not watched on this vendor");
        return NULL;
    }
    if (!nvml_handle(pci_bus_id, &lib, &dev)) {
        snprintf(why, n, "NVML not loadable, or no device at this PCI bus id");
        return NULL;
    }
    int (*create)(void **) = (int (*)(void **))dlsym(lib, "nvmlEventSetCreate");
    int (*reg)(nvml_device, unsigned long long, void *) =
        (int (*)(nvml_device, unsigned long long, void *))dlsym(lib, "nvmlDeviceRegisterEvents");
    int (*fre)(void *) = (int (*)(void *))dlsym(lib, "nvmlEventSetFree");
    void *set = NULL;
    if (!create || !reg || !fre || create(&set) != NVML_SUCCESS) {
        snprintf(why, n, "NVML has no event sets here");
        return NULL;
    }
    int rc = reg(dev, 8ull, set);
    if (rc != NVML_SUCCESS) {
        fre(set);
        snprintf(why, n, "NVML refused to watch XID events on this GPU (error %d)", rc);
        return NULL;
    }
    gp_smi_xid_watch *w = calloc(1, sizeof *w);
    if (!w) {
        fre(set);
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    w->lib = lib, w->set = set;
    return w;
#else
    (void)vendor, (void)pci_bus_id;
    snprintf(why, n, "NVML is read on Linux only");
    return NULL;
#endif
}

int gp_smi_xid_poll(gp_smi_xid_watch *w, unsigned timeout_ms, unsigned long long *last)
{
    int k = 0;
#if defined(__unix__)
    if (!w)
        return 0;
    int (*wait)(void *, nvml_event_data *, unsigned) =
        (int (*)(void *, nvml_event_data *, unsigned))dlsym(w->lib, "nvmlEventSetWait_v2");
    nvml_event_data e;
    /* Drain what is queued; only the first wait may block. */
    while (wait && k < 1000 && wait(w->set, &e, k ? 0 : timeout_ms) == NVML_SUCCESS) {
        if (e.type & 8ull) {
            k++;
            if (last)
                *last = e.data;
        }
    }
#else
    (void)w, (void)timeout_ms, (void)last;
#endif
    return k;
}

void gp_smi_xid_close(gp_smi_xid_watch *w)
{
#if defined(__unix__)
    if (!w)
        return;
    int (*fre)(void *) = (int (*)(void *))dlsym(w->lib, "nvmlEventSetFree");
    if (fre)
        fre(w->set);
    free(w);
#else
    (void)w;
#endif
}
