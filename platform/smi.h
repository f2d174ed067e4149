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

#ifdef __cplusplus
}
#endif
#endif
