/* Which GPU a result came from: the UUID text of a device from the bytes its
 * runtime returns, and the name of its results folder.  Pure C, no vendor
 * API: runtime.hip hands in the raw bytes, the unit tests fake them.
 *
 * UUID text, as the vendors' tools print it:
 *   NVIDIA  cudaDeviceProp.uuid is 16 binary bytes; nvidia-smi -L prints them
 *           "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower-case hex).
 *   AMD     hipDeviceGetUuid fills its 16 bytes with text: the hex digits of
 *           the GPU's unique id that the HSA runtime reports as "GPU-<id>"
 *           (rocm-smi's "Unique ID"); a GPU without one reports "GPU-XX".
 *           The text is kept as it is, with "GPU-" in front.
 * All-zero NVIDIA bytes, or AMD bytes that are empty, "XX" or not printable,
 * give no UUID: the caller says so ("uuid": "", with the reason) rather than
 * invent one.
 *
 * Results folder of one GPU (characterize --device N|all, microbench tests
 * under a CTest resource spec):  <bus>_<uuid8>
 *   <bus>    the PCI bus id "DDDD:BB:DD.F" with ':' written '-' and letters in
 *            lower case ("0000-3b-00.0"): ':' is not allowed in Windows and
 *            SMB file names and reads as a host in scp and rsync paths;
 *            "nobus-dev<N>" when the runtime gave no bus id (N the ordinal)
 *   <uuid8>  the first 8 characters of the UUID after "GPU-", dashes left
 *            out, lower case ("8c5f1a2b"); "nouuid" when there is none
 * Any other character than [a-z0-9.-] in either part becomes '-', and a
 * leading '.' too (no hidden or ".." folder), so a runtime's odd answer
 * never makes a path.  The bus id and the UUID prefix together name a GPU
 * on a node; the ordinal changes with CUDA_VISIBLE_DEVICES and is never the
 * name alone. */
#ifndef GP_DEVICE_ID_H
#define GP_DEVICE_ID_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_UUID_RAW_LEN 16

/* The UUID text of raw (GP_UUID_RAW_LEN bytes) into out (size n; 48 holds
 * any): amd = 1 for hipDeviceGetUuid's text bytes, 0 for NVIDIA's binary
 * ones.  Returns 1 when there is a UUID; 0 with out "" and the reason in
 * why (size nwhy, may be NULL) when the bytes carry none. */
int gp_uuid_format(const unsigned char *raw, int amd, char *out, size_t n, char *why, size_t nwhy);

/* The results folder name of a GPU (the format above) into out (size n; 64
 * holds any).  pci_bus_id and uuid may be "" (not reported); ordinal is
 * used only with no bus id. */
void gp_device_folder_name(const char *pci_bus_id, const char *uuid, int ordinal, char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
