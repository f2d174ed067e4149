/* Vendor system-management readings (NVML on NVIDIA, rocm-smi on AMD), loaded
 * at run time with dlopen so that neither is a build dependency.  Absent
 * libraries make every reading "not available", never an error. */
#ifndef GP_SMI_H
#define GP_SMI_H

#include <stddef.h>

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
    /* Why the clock is below its maximum now (NVML's clock event reasons,
     * GP_SMI_REASON_* bits); reasons_read 0 when the library gave none. */
    unsigned long long reasons;
    int reasons_read;
    char source[32];        /* "nvml", "rocm-smi" or "none" */
} gp_smi_reading;

/* NVML's clock event reason bits (nvmlClocksEventReason*, formerly
 * nvmlClocksThrottleReason*), as the driver reports them. */
#define GP_SMI_REASON_IDLE 0x1ull
#define GP_SMI_REASON_APP_CLOCKS 0x2ull
#define GP_SMI_REASON_SW_POWER_CAP 0x4ull
#define GP_SMI_REASON_HW_SLOWDOWN 0x8ull
#define GP_SMI_REASON_SYNC_BOOST 0x10ull
#define GP_SMI_REASON_SW_THERMAL 0x20ull
#define GP_SMI_REASON_HW_THERMAL 0x40ull
#define GP_SMI_REASON_HW_POWER_BRAKE 0x80ull
#define GP_SMI_REASON_DISPLAY_CLOCKS 0x100ull
/* The reasons that take clock away from a busy GPU: power and thermal caps,
 * hardware slowdown.  Idle, application clocks, sync boost and display
 * clocks are settings or states, not a cap a measurement ran under. */
#define GP_SMI_REASONS_CAP                                                                              \
    (GP_SMI_REASON_SW_POWER_CAP | GP_SMI_REASON_HW_SLOWDOWN | GP_SMI_REASON_SW_THERMAL |                 \
     GP_SMI_REASON_HW_THERMAL | GP_SMI_REASON_HW_POWER_BRAKE)

/* The set bits of `reasons` in words, comma-separated ("power cap, thermal
 * (software)"), "none" for 0. */
void gp_smi_reasons_text(unsigned long long reasons, char *buf, size_t n);

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

/* ---- Health counters: what the driver has counted against the GPU.  A
 * counter the library does not give is -1 ("not read"); available 0 with
 * `why` when no library answered at all. */
typedef struct gp_smi_health {
    int available;
    char why[96];
    char source[32];                  /* "nvml" or "none" */
    int ecc_enabled;                  /* 1 on, 0 off, -1 not read */
    long long ecc_uncorrected_volatile, ecc_uncorrected_aggregate; /* since boot / over the GPU's life */
    long long ecc_corrected_volatile, ecc_corrected_aggregate;
    int remapped_uncorrectable, remapped_correctable; /* rows remapped (Ampere on) */
    int remap_pending, remap_failed;  /* a remap waits for a reset; the remap failed */
    int retired_pending;              /* pages waiting to retire (before Ampere) */
    long long pcie_replays;           /* PCIe replay counter */
    int xids;                         /* XID events seen while watched (gp_smi_xid_*); -1: not watched */
    unsigned long long last_xid;
    double power_limit_w;             /* the enforced power limit; 0 not read */
} gp_smi_health;

/* Read the health counters of the GPU at `pci_bus_id`. */
void gp_smi_read_health(const char *vendor, const char *pci_bus_id, gp_smi_health *out);

/* What in `h` makes the GPU unhealthy, whatever its speed: an uncorrected
 * ECC error since boot, a pending or failed row remap, pages waiting to
 * retire, an XID event while watched.  Returns the number of such findings and names them in buf
 * ("" when none). */
int gp_smi_health_flags(const gp_smi_health *h, char *buf, size_t n);

/* Append one finding, formatted, to buf ("; " between findings) and count
 * it in *count, also when buf has no room left for its text: the findings
 * of the health counters, `stress` and `fleet` read alike. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void gp_smi_add_finding(char *buf, size_t n, int *count, const char *fmt, ...);

/* ---- XID events: NVML reports the critical ones (nvmlEventTypeXidCriticalError)
 * only while someone watches, so a run counts those that occur during it.
 * gp_smi_xid_open returns NULL with `why` filled when it cannot watch. */
typedef struct gp_smi_xid_watch gp_smi_xid_watch;
gp_smi_xid_watch *gp_smi_xid_open(const char *vendor, const char *pci_bus_id, char *why, size_t n);
/* Events seen since the last poll (waits at most timeout_ms); *last gets the
 * last XID number. */
int gp_smi_xid_poll(gp_smi_xid_watch *w, unsigned timeout_ms, unsigned long long *last);
void gp_smi_xid_close(gp_smi_xid_watch *w);

#ifdef __cplusplus
}
#endif
#endif
