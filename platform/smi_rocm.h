/* AMD's system-management library, rocm-smi (librocm_smi64), through dlopen
 * like NVML: the readings and health counters smi.h gives on NVIDIA, as far
 * as its stable C entry points reach.  Private to smi.c. */
#ifndef GP_SMI_ROCM_H
#define GP_SMI_ROCM_H

#include <stddef.h>

#include "smi.h"

/* Power and temperature of the GPU at `pci_bus_id` ("0000:03:00.0") into
 * out (source "rocm-smi"); 0 with out untouched when the library or the
 * device is absent.  The clock and the clock event reasons are not read:
 * rocm-smi gives them only through versioned structures (the in-kernel
 * measured clock stands). */
int gp_rocm_smi_read(const char *pci_bus_id, gp_smi_reading *out);

/* ECC (the memory controller's block) and the PCIe replay counter; 0 with
 * `why` when the library or the device is absent. */
int gp_rocm_smi_health(const char *pci_bus_id, gp_smi_health *out, char *why, size_t n);

#endif
