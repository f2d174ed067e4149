#define _POSIX_C_SOURCE 200809L
#include "node_cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device_id.h"
#include "doc.h"
#include "fsutil.h"

gp_status gp_node_gpu_dir(const char *out, const gp_device_info *dev, char *path, size_t n)
{
    char name[64];
    gp_device_folder_name(dev->pci_bus_id, dev->uuid, dev->index, name, sizeof name);
    return gp_fs_join(path, n, out, name);
}

/* A field of the entry line: tabs and line breaks would split it. */
static void put_field(FILE *f, const char *s, const char *sep)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputs(sep, f);
}

gp_status gp_node_entry_write(const char *path, const gp_device_info *dev, const char *folder)
{
    FILE *f = NULL;
    GP_TRY(gp_fs_open_atomic(path, &f));
    fprintf(f, "%d\t", dev->index);
    put_field(f, folder, "\t");
    put_field(f, dev->name, "\t");
    put_field(f, dev->arch, "\t");
    put_field(f, dev->pci_bus_id, "\t");
    put_field(f, dev->uuid, "\n");
    return gp_fs_commit(f, path);
}

static void copy_field(char *dst, size_t n, const char *src, size_t len)
{
    snprintf(dst, n, "%.*s", (int)(len < n ? len : n - 1), src);
}

gp_status gp_node_entry_read(const char *path, gp_node_gpu *g)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    if (!f)
        return gp_fail(GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    int got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    char *fields[6];
    int k = 0;
    char *p = line;
    line[strcspn(line, "\n")] = '\0';
    while (got && k < 6) {
        fields[k++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    char *end = NULL;
    long ord = got && k == 6 ? strtol(fields[0], &end, 10) : -1;
    if (k != 6 || !end || *end || ord < 0)
        return gp_fail(GP_ERR_USAGE, "%s: not a GPU entry (ordinal, folder, name, arch, bus id, uuid)", path);
    g->ordinal = (int)ord;
    copy_field(g->folder, sizeof g->folder, fields[1], strlen(fields[1]));
    copy_field(g->name, sizeof g->name, fields[2], strlen(fields[2]));
    copy_field(g->arch, sizeof g->arch, fields[3], strlen(fields[3]));
    copy_field(g->pci_bus_id, sizeof g->pci_bus_id, fields[4], strlen(fields[4]));
    copy_field(g->uuid, sizeof g->uuid, fields[5], strlen(fields[5]));
    return gp_ok();
}

void gp_node_index_write(FILE *f, const gp_node_gpu *gpus, int n, const char *build)
{
    gp_doc d;
    gp_doc_init(&d, f, GP_DOC_MD);
    gp_doc_heading(&d, 1, NULL, "GPUs of this node");
    int failed = 0;
    for (int i = 0; i < n; i++)
        failed += gpus[i].rc != 0;
    gp_doc_para_begin(&d, NULL);
    gp_doc_textf(&d, "%d GPU%s characterized one after the other, each in its own process; %d failed. ", n,
                 n == 1 ? "" : "s", failed);
    gp_doc_text(&d, "A folder is named by the GPU's PCI bus id and the first 8 characters of its UUID "
                    "(\"nouuid\" where the runtime reports none); the ordinal is the runtime's at the time of "
                    "the run and may differ in another environment. Compare the folders with gpuprobe fleet.");
    gp_doc_para_end(&d);
    if (build)
        gp_doc_para(&d, NULL, build);
    static const char *const heads[] = {"device", "name", "arch", "PCI bus id", "UUID", "folder", "result"};
    gp_doc_table_begin_aligned(&d, 7, heads, "rllllll");
    for (int i = 0; i < n; i++) {
        const gp_node_gpu *g = &gpus[i];
        char ord[16];
        snprintf(ord, sizeof ord, "%d", g->ordinal);
        gp_doc_row_begin(&d);
        gp_doc_cell(&d, NULL, GP_DOC_PLAIN, ord);
        gp_doc_cell(&d, NULL, GP_DOC_PLAIN, g->name[0] ? g->name : "?");
        gp_doc_cell(&d, NULL, GP_DOC_PLAIN, g->arch[0] ? g->arch : "?");
        gp_doc_cell(&d, NULL, GP_DOC_CODE, g->pci_bus_id[0] ? g->pci_bus_id : "not reported");
        gp_doc_cell(&d, NULL, GP_DOC_CODE, g->uuid[0] ? g->uuid : "not reported");
        gp_doc_cell_begin(&d, NULL, 1);
        if (g->folder[0]) {
            char href[96];
            snprintf(href, sizeof href, "%s/report.md", g->folder);
            gp_doc_link(&d, href, g->folder);
        } else {
            gp_doc_text(&d, "none (the GPU did not open)");
        }
        gp_doc_cell_end(&d);
        if (g->rc == 0)
            gp_doc_cell(&d, NULL, GP_DOC_OK, "ok");
        else
            gp_doc_cell(&d, NULL, GP_DOC_BAD, g->note[0] ? g->note : "failed");
        gp_doc_row_end(&d);
    }
    gp_doc_table_end(&d);
}

/* Run self with args, GP_NODE_ENTRY=entry in its environment; its exit code,
 * or -1 with note set when it did not exit. */
static int spawn_wait(const char *self, char *const *args, const char *entry, char *note, size_t n)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(note, n, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setenv(GP_NODE_ENTRY_ENV, entry, 1);
        execv(self, args);
        fprintf(stderr, "gpuprobe: cannot run %s: %s\n", self, strerror(errno));
        _exit(2);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(note, n, "waitpid failed: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status)) {
        int rc = WEXITSTATUS(status);
        if (rc)
            snprintf(note, n, "exit %d%s", rc,
                     rc == 1 ? " (a probe or check failed)" : rc == 2 ? " (bad input or a GPU this binary cannot run)"
                                                            : rc == 77 ? " (no usable GPU)" : "");
        return rc;
    }
    snprintf(note, n, "killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

gp_status gp_node_run_each(const char *self, const gp_cli *cli, const char *tables, const int *ids, int n,
                           gp_node_gpu *gpus)
{
    const char *cmd = cli->cmd == GP_CMD_CHARACTERIZE ? "characterize" : "run";
    int failed = 0, no_gpu = 0;
    char names[GP_STATUS_MSG_LEN] = "";
    for (int i = 0; i < n; i++) {
        gp_node_gpu *g = &gpus[i];
        memset(g, 0, sizeof *g);
        g->ordinal = ids[i];
        char dev[16], entry[1100], leaf[32];
        snprintf(dev, sizeof dev, "%d", ids[i]);
        snprintf(leaf, sizeof leaf, ".gpu%d.entry", ids[i]);
        GP_TRY(gp_fs_join(entry, sizeof entry, cli->out_dir, leaf));
        remove(entry);
        const char *args[GP_CLI_MAX_PROBES + 16];
        int k = 0;
        args[k++] = self;
        args[k++] = cmd;
        for (int p = 0; cli->cmd == GP_CMD_RUN && p < cli->nprobes; p++)
            args[k++] = cli->probes[p];
        args[k++] = "--device";
        args[k++] = dev;
        args[k++] = "--out";
        args[k++] = cli->out_dir;
        if (tables && tables[0]) {
            args[k++] = "--tables";
            args[k++] = tables;
        }
        if (cli->quick)
            args[k++] = "--quick";
        if (cli->force)
            args[k++] = "--force";
        args[k] = NULL;
        fprintf(stderr, "GPU %d of %d: device %d: gpuprobe %s%s --device %d --out %s\n", i + 1, n, ids[i], cmd,
                cli->cmd == GP_CMD_RUN ? " PROBE..." : "", ids[i], cli->out_dir);
        g->rc = spawn_wait(self, (char *const *)args, entry, g->note, sizeof g->note);
        gp_status es = gp_node_entry_read(entry, g);
        remove(entry);
        if (es.code != GP_OK) /* it failed before its GPU opened */
            g->folder[0] = '\0';
        fprintf(stderr, "GPU %d of %d: device %d: %s, bus %s, %s -> %s%s%s: %s\n", i + 1, n, ids[i],
                g->name[0] ? g->name : "?", g->pci_bus_id[0] ? g->pci_bus_id : "?",
                g->uuid[0] ? g->uuid : "no uuid", cli->out_dir, g->folder[0] ? "/" : "",
                g->folder[0] ? g->folder : " (no folder)", g->rc == 0 ? "ok" : g->note);
        no_gpu += g->rc == 77;
        if (g->rc != 0) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s device %d (%s)", failed ? "," : "", ids[i], g->note);
            failed++;
        }
    }
    if (n && no_gpu == n) /* said by each child */
        return gp_fail(GP_ERR_NO_GPU, "no GPU could run (each of the %d exited 77)", n);
    if (failed)
        return gp_fail(GP_ERR_CHECK, "%d of %d GPUs failed:%s", failed, n, names);
    return gp_ok();
}

void gp_node_self(const char *argv0, char *out, size_t n)
{
    ssize_t len = n ? readlink("/proc/self/exe", out, n - 1) : -1;
    if (len > 0)
        out[len] = '\0';
    else
        snprintf(out, n, "%s", argv0);
}
