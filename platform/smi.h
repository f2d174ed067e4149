/* Vendor system-management readings (NVML on NVIDIA, rocm-smi on AMD), loaded
 * at run time with dlopen so that neither is a build dependency.  Absent
 * libraries make every reading "not available", never an error. */
#ifndef GP_SMI_H
#define GP_SMI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_smi_reading {
    int available;          /* 0: no vendor library, fields are unset */
    double sm_clock_mhz;    /* current core clock */
    double mem_clock_mhz;   /* current memory clock */
    double temperature_c;
    double power_w;
    int other_processes;    /* compute processes on the GPU other than us; -1 unknown */
    char source[32];        /* "nvml", "rocm-smi" or "none" */
} gp_smi_reading;

/* Read the GPU whose PCI bus id is `pci_bus_id` ("0000:3b:00.0"). */
void gp_smi_read(const char *vendor, const char *pci_bus_id, gp_smi_reading *out);

/* ---- The GPU's links (the interconnect probe): what NVML reports, never a
 * guess.  Absent NVML (AMD, no driver library) leaves available = 0 and
 * `why` saying so. */
typedef struct gp_smi_link {
    int available;          /* 0: no reading; `why` says why */
    int curr_gen, curr_width;  /* PCIe link now (it may train down when idle); 0 unread */
    int max_gen, max_width;    /* the most the GPU and the slot support together; 0 unread */
    int gpu_max_gen;           /* the most the GPU itself supports; 0 unread */
    int nvlink_active;         /* NVLinks whose state is active; -1 unread */
    char why[96];
} gp_smi_link;

/* Read the PCIe generation and width (current and maximum) and the count of
 * active NVLinks of the GPU at `pci_bus_id` (NVIDIA only). */
void gp_smi_read_link(const char *vendor, const char *pci_bus_id, gp_smi_link *out);

/* What NVML says of the path between two GPUs: whether NVLink joins them
 * (nvmlDeviceGetP2PStatus, NVLink index: 1 yes, 0 no, -1 unknown) and
 * their closest common ancestor in the PCIe tree ("" unknown). */
typedef struct gp_smi_pair {
    int available;
    int nvlink;
    char topology[48];
} gp_smi_pair;
void gp_smi_read_pair(const char *vendor, const char *bus_a, const char *bus_b, gp_smi_pair *out);

#ifdef __cplusplus
}
#endif
#endif
