/* NVML through dlopen: only the few entry points we need, declared here with
 * the types NVML documents, so no NVML header is needed to build. */
#define _GNU_SOURCE
#include "smi.h"

#include <stdio.h>
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
    /* rocm-smi is not read yet: on AMD the reported clock is "not available"
     * and the in-kernel measurement stands alone. */
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
        snprintf(out->why, sizeof out->why, "no vendor library read on %s (NVML is NVIDIA's; rocm-smi not used)",
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
