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
typedef struct {
    unsigned int pid;
    unsigned long long used_gpu_memory;
    unsigned int gpu_instance_id, compute_instance_id;
} nvml_process_info;

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
    int (*procs)(nvml_device, unsigned *, nvml_process_info *) =
        (int (*)(nvml_device, unsigned *, nvml_process_info *))dlsym(
            lib, "nvmlDeviceGetComputeRunningProcesses_v3");
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
    if (procs) {
        nvml_process_info info[64];
        unsigned n = 64;
        if (procs(dev, &n, info) == 0) {
            int others = 0;
            for (unsigned i = 0; i < n; i++)
                if (info[i].pid != (unsigned)getpid())
                    others++;
            out->other_processes = others;
        }
    }
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
