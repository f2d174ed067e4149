/* Every GPU of a node: `characterize --device N|all` and `run --device ctest`.
 *
 * A GPU chosen by --device writes into its own folder under --out, named by
 * its PCI bus id and UUID (platform/device_id.h: "0000-3b-00.0_8c5f1a2b"),
 * never by the ordinal alone: ordinals change with CUDA_VISIBLE_DEVICES /
 * HIP_VISIBLE_DEVICES and between boots, a bus id and UUID do not.  Without
 * --device, records go straight into --out as they always did.
 *
 * Several GPUs (--device all, or CTest allocating more than one) run one
 * after the other, each in a child process of this binary with --device N:
 * a GPU that fails, hangs the driver or crashes the process does not stop
 * the others, and each GPU's launch_rate runs first in a fresh process as on
 * one GPU (a process that already ran probes slows graph launches;
 * gp_probe_launch_rate's order).  The child names its GPU and folder to the parent in a
 * one-line file (GP_NODE_ENTRY); the parent prints "GPU i of n: ..." and
 * writes <out>/index.md (characterize) listing every GPU with its folder and
 * outcome.  Exit 0 when every GPU succeeded, else 1 naming the failed ones. */
#ifndef GP_NODE_CMD_H
#define GP_NODE_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "gp_status.h"
#include "runtime.h"

/* One GPU of a node run. */
typedef struct gp_node_gpu {
    int ordinal;
    int rc;             /* its child's exit code; -1 when it did not exit (killed) */
    char folder[64];    /* under --out; "" when the GPU never opened */
    char name[256], arch[32], pci_bus_id[32], uuid[48];
    char note[128];     /* why it failed ("exit 1 (...)", "killed by signal 9"), "" when ok */
} gp_node_gpu;

/* The environment variable through which a child names its GPU. */
#define GP_NODE_ENTRY_ENV "GP_NODE_ENTRY"

/* <out>/<the GPU's folder name> into path (size n). */
gp_status gp_node_gpu_dir(const char *out, const gp_device_info *dev, char *path, size_t n);

/* The child's line for its parent: ordinal, folder and identity of dev. */
gp_status gp_node_entry_write(const char *path, const gp_device_info *dev, const char *folder);
/* Read it back into g (its rc and note untouched). */
gp_status gp_node_entry_read(const char *path, gp_node_gpu *g);

/* <out>/index.md of a node run: one row per GPU, its folder linked. */
void gp_node_index_write(FILE *f, const gp_node_gpu *gpus, int n, const char *build);

/* This executable's path into out (size n): /proc/self/exe, else argv0. */
void gp_node_self(const char *argv0, char *out, size_t n);

/* Run the command of cli (run or characterize) on each of the n devices in
 * ids, each in a child with --device ids[i]; gpus (size n) gets each one's
 * outcome.  self: this executable; tables: the tables folder found (may be
 * "").  GP_OK when all succeeded; GP_ERR_NO_GPU when every child exited 77;
 * else GP_ERR_CHECK (exit 1) naming the failed ones. */
gp_status gp_node_run_each(const char *self, const gp_cli *cli, const char *tables, const int *ids, int n,
                           gp_node_gpu *gpus);

#endif
