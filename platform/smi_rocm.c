/* rocm-smi through dlopen: the entry points and enums as rocm_smi.h
 * documents them (ROCm 5 and 6), declared here so no ROCm header is needed. */
#include "smi_rocm.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__unix__)
#include <dlfcn.h>
#endif

#define RSMI_STATUS_SUCCESS 0
#define RSMI_GPU_BLOCK_UMC 0x1ull   /* the memory controller: DRAM ECC */
#define RSMI_TEMP_TYPE_EDGE 0
#define RSMI_TEMP_CURRENT 0

#if defined(__unix__)
static void *rsmi_lib(void)
{
    /* Loaded once, kept for the process: the caller initializes it on its
     * first thread (telemetry.c does so before it starts its own). */
    static void *lib;
    static int tried, ok;
    static const char *const names[] = {"librocm_smi64.so", "librocm_smi64.so.7", "librocm_smi64.so.6",
                                        "librocm_smi64.so.5", "librocm_smi64.so.1"};
    if (!tried) {
        tried = 1;
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++)
            lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            int (*init)(uint64_t) = (int (*)(uint64_t))dlsym(lib, "rsmi_init");
            ok = init && init(0) == RSMI_STATUS_SUCCESS;
        }
    }
    return ok ? lib : NULL;
}

/* The library's index of the device at "DOMAIN:BUS:DEV.FN", -1 when none.
 * Its BDF id packs domain << 32 | bus << 8 | device << 3 | function (newer
 * versions add a partition in other bits, which are masked off). */
static int rsmi_index(void *lib, const char *bus_id)
{
    unsigned dom, bus, dev, fn, n = 0;
    if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
        return -1;
    int (*count)(uint32_t *) = (int (*)(uint32_t *))dlsym(lib, "rsmi_num_monitor_devices");
    int (*pci)(uint32_t, uint64_t *) = (int (*)(uint32_t, uint64_t *))dlsym(lib, "rsmi_dev_pci_id_get");
    if (!count || !pci || count(&n) != RSMI_STATUS_SUCCESS)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t id;
        if (pci(i, &id) != RSMI_STATUS_SUCCESS)
            continue;
        if ((id >> 32 & 0xffff) == dom && (id >> 8 & 0xff) == bus && (id >> 3 & 0x1f) == dev && (id & 0x7) == fn)
            return (int)i;
    }
    return -1;
}
#endif

int gp_rocm_smi_read(const char *pci_bus_id, gp_smi_reading *out)
{
#if defined(__unix__)
    void *lib = rsmi_lib();
    const int i = lib ? rsmi_index(lib, pci_bus_id) : -1;
    if (i < 0)
        return 0;
    out->available = 1;
    snprintf(out->source, sizeof out->source, "rocm-smi");
    int (*power)(uint32_t, uint32_t, uint64_t *) =
        (int (*)(uint32_t, uint32_t, uint64_t *))dlsym(lib, "rsmi_dev_power_ave_get");
    int (*temp)(uint32_t, uint32_t, int, int64_t *) =
        (int (*)(uint32_t, uint32_t, int, int64_t *))dlsym(lib, "rsmi_dev_temp_metric_get");
    uint64_t uw;
    int64_t mc;
    if (power && power((uint32_t)i, 0, &uw) == RSMI_STATUS_SUCCESS)
        out->power_w = (double)uw / 1e6;
    if (temp && temp((uint32_t)i, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &mc) == RSMI_STATUS_SUCCESS)
        out->temperature_c = (double)mc / 1e3;
    return 1;
#else
    (void)pci_bus_id, (void)out;
    return 0;
#endif
}

int gp_rocm_smi_health(const char *pci_bus_id, gp_smi_health *out, char *why, size_t n)
{
#if defined(__unix__)
    void *lib = rsmi_lib();
    if (!lib) {
        snprintf(why, n, "rocm-smi (librocm_smi64) not loadable or not initialised");
        return 0;
    }
    const int i = rsmi_index(lib, pci_bus_id);
    if (i < 0) {
        snprintf(why, n, "rocm-smi has no device at this PCI bus id");
        return 0;
    }
    /* rsmi_error_count_t: correctable, uncorrectable (ROCm 6 appends a
     * deferred count: the buffer leaves room). */
    uint64_t ec[4] = {0, 0, 0, 0}, enabled = 0, replays;
    int (*ecc)(uint32_t, uint64_t, uint64_t *) = (int (*)(uint32_t, uint64_t, uint64_t *))dlsym(lib, "rsmi_dev_ecc_count_get");
    int (*on)(uint32_t, uint64_t *) = (int (*)(uint32_t, uint64_t *))dlsym(lib, "rsmi_dev_ecc_enabled_get");
    int (*replay)(uint32_t, uint64_t *) = (int (*)(uint32_t, uint64_t *))dlsym(lib, "rsmi_dev_pci_replay_counter_get");
    out->available = 1;
    snprintf(out->source, sizeof out->source, "rocm-smi");
    if (on && on((uint32_t)i, &enabled) == RSMI_STATUS_SUCCESS)
        out->ecc_enabled = (enabled & RSMI_GPU_BLOCK_UMC) != 0;
    /* rocm-smi counts since the driver loaded: the volatile counters. */
    if (ecc && ecc((uint32_t)i, RSMI_GPU_BLOCK_UMC, ec) == RSMI_STATUS_SUCCESS) {
        out->ecc_corrected_volatile = (long long)ec[0];
        out->ecc_uncorrected_volatile = (long long)ec[1];
    }
    if (replay && replay((uint32_t)i, &replays) == RSMI_STATUS_SUCCESS)
        out->pcie_replays = (long long)replays;
    return 1;
#else
    (void)pci_bus_id, (void)out;
    snprintf(why, n, "rocm-smi is read on Linux only");
    return 0;
#endif
}
