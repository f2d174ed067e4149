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
