/* Every GPU of a node, on the host: UUID text from the runtimes' bytes, the
 * per-GPU folder name, CTest's resource environment, the child's entry line,
 * the node index, --device all|ctest on the command line, records that carry
 * the UUID and a resume that never takes another GPU's record. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ctest_env.h"
#include "device_id.h"
#include "gp_test.h"
#include "json_read.h"
#include "node_cmd.h"
#include "record.h"
#include "resources_cmd.h"
#include "resume.h"

/* ---- UUID text */

GP_TEST(node_uuid_nvidia_bytes)
{
    /* nvidia-smi -L prints these bytes as GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071 */
    const unsigned char raw[16] = {0x8c, 0x5f, 0x1a, 0x2b, 0x0d, 0x3e, 0x4f, 0x60,
                                   0x9a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x60, 0x71};
    char out[48], why[96];
    GP_CHECK(gp_uuid_format(raw, 0, out, sizeof out, why, sizeof why) == 1);
    GP_CHECK(!strcmp(out, "GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071"));
    GP_CHECK(why[0] == '\0');
    /* all zero: the runtime reported none; never a made-up one */
    const unsigned char zero[16] = {0};
    GP_CHECK(gp_uuid_format(zero, 0, out, sizeof out, why, sizeof why) == 0);
    GP_CHECK(out[0] == '\0' && strstr(why, "all zero"));
    GP_CHECK(gp_uuid_format(NULL, 0, out, sizeof out, why, sizeof why) == 0 && out[0] == '\0');
    return 0;
}

GP_TEST(node_uuid_amd_text)
{
    char out[48], why[128];
    /* hipDeviceGetUuid: the unique id's hex text, 16 bytes without a NUL */
    const unsigned char full[16] = {'1', 'a', '2', 'b', '3', 'c', '4', 'd', '5', 'e', '6', 'f', '7', '0', '8', '1'};
    GP_CHECK(gp_uuid_format(full, 1, out, sizeof out, why, sizeof why) == 1);
    GP_CHECK(!strcmp(out, "GPU-1a2b3c4d5e6f7081"));
    /* HSA's "GPU-XX": a GPU without a unique id (older parts) */
    const unsigned char xx[16] = {'X', 'X'};
    GP_CHECK(gp_uuid_format(xx, 1, out, sizeof out, why, sizeof why) == 0);
    GP_CHECK(out[0] == '\0' && strstr(why, "no unique id"));
    const unsigned char empty[16] = {0};
    GP_CHECK(gp_uuid_format(empty, 1, out, sizeof out, why, sizeof why) == 0 && strstr(why, "no unique id"));
    /* binary bytes where text belongs: not taken for an id */
    const unsigned char bin[16] = {'a', 'b', 0x07, 'c'};
    GP_CHECK(gp_uuid_format(bin, 1, out, sizeof out, why, sizeof why) == 0 && strstr(why, "not text"));
    return 0;
}

/* ---- folder names */

GP_TEST(node_folder_name_bus_and_uuid)
{
    char name[64];
    gp_device_folder_name("0000:3B:00.0", "GPU-8C5F1A2B-0d3e-4f60-9a1b-2c3d4e5f6071", 0, name, sizeof name);
    GP_CHECK(!strcmp(name, "0000-3b-00.0_8c5f1a2b"));
    /* the UUID's dashes are not counted: an AMD id and a short NVIDIA head */
    gp_device_folder_name("0000:c1:00.0", "GPU-1a2b3c4d5e6f7081", 2, name, sizeof name);
    GP_CHECK(!strcmp(name, "0000-c1-00.0_1a2b3c4d"));
    gp_device_folder_name("0000:c1:00.0", "GPU-12-34-56-78-9a", 2, name, sizeof name);
    GP_CHECK(!strcmp(name, "0000-c1-00.0_12345678"));
    /* what the runtime did not report is said, and the ordinal only stands in for a missing bus id */
    gp_device_folder_name("0000:3b:00.0", "", 5, name, sizeof name);
    GP_CHECK(!strcmp(name, "0000-3b-00.0_nouuid"));
    gp_device_folder_name("", "GPU-8c5f1a2b", 5, name, sizeof name);
    GP_CHECK(!strcmp(name, "nobus-dev5_8c5f1a2b"));
    gp_device_folder_name(NULL, NULL, 3, name, sizeof name);
    GP_CHECK(!strcmp(name, "nobus-dev3_nouuid"));
    return 0;
}

GP_TEST(node_folder_name_odd_characters)
{
    char name[64];
    /* a runtime's odd answer never makes a path, a hidden folder or a space */
    gp_device_folder_name("../etc/x y", "GPU-a/b\\c d*e:f", 0, name, sizeof name);
    GP_CHECK(!strchr(name, '/') && !strchr(name, '\\') && !strchr(name, ' ') && !strchr(name, ':'));
    GP_CHECK(!strchr(name, '*') && name[0] != '.');
    GP_CHECK(!strcmp(name, "-.-etc-x-y_a-b-c-d-")); /* 8 characters of the UUID, odd ones counted */
    for (const char *p = name; *p; p++)
        GP_CHECK((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_');
    /* a long bus id is cut, never overflows */
    char small[12];
    gp_device_folder_name("0000:3b:00.0", "GPU-8c5f1a2b", 0, small, sizeof small);
    GP_CHECK(strlen(small) == sizeof small - 1);
    return 0;
}

/* ---- CTest's resource environment */

typedef struct fake_env {
    const char *const *kv; /* name, value, name, value, ..., NULL */
} fake_env;

static const char *fake_get(const char *name, void *ctx)
{
    const fake_env *e = ctx;
    for (int i = 0; e->kv[i]; i += 2)
        if (!strcmp(e->kv[i], name))
            return e->kv[i + 1];
    return NULL;
}

static gp_status parse_env(const char *const *kv, int *ids, int *n)
{
    fake_env e = {kv};
    return gp_ctest_gpus(fake_get, &e, ids, GP_CTEST_MAX_GPUS, n);
}

GP_TEST(node_ctest_env_one_group)
{
    int ids[GP_CTEST_MAX_GPUS], n = -1;
    const char *none[] = {NULL};
    /* no spec file: CTest sets nothing, the test runs on device 0 */
    GP_CHECK(parse_env(none, ids, &n).code == GP_OK && n == 0);
    const char *one[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "gpus",
                         "CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1", NULL};
    GP_CHECK(parse_env(one, ids, &n).code == GP_OK && n == 1 && ids[0] == 3);
    return 0;
}

GP_TEST(node_ctest_env_several_groups)
{
    int ids[GP_CTEST_MAX_GPUS], n = -1;
    /* three groups; the second also holds another resource type and two
     * allocations; GPU 5 comes twice (two slots of it) and counts once */
    const char *kv[] = {"CTEST_RESOURCE_GROUP_COUNT", "3",
                        "CTEST_RESOURCE_GROUP_0", "gpus",
                        "CTEST_RESOURCE_GROUP_0_GPUS", "id:5,slots:1",
                        "CTEST_RESOURCE_GROUP_1", "crypto_chips,gpus",
                        "CTEST_RESOURCE_GROUP_1_GPUS", "id:0,slots:2;id:7,slots:1",
                        "CTEST_RESOURCE_GROUP_1_CRYPTO_CHIPS", "id:card0,slots:1",
                        "CTEST_RESOURCE_GROUP_2", "gpus",
                        "CTEST_RESOURCE_GROUP_2_GPUS", "id:5,slots:1",
                        NULL};
    GP_CHECK(parse_env(kv, ids, &n).code == GP_OK);
    GP_CHECK(n == 3 && ids[0] == 5 && ids[1] == 0 && ids[2] == 7);
    return 0;
}

/* The variable named in the message, exit code 2. */
static int malformed(const char *const *kv, const char *names)
{
    int ids[GP_CTEST_MAX_GPUS], n = 0;
    gp_status st = parse_env(kv, ids, &n);
    if (st.code != GP_ERR_USAGE || gp_status_exit_code(&st) != 2 || !strstr(st.msg, names)) {
        fprintf(stderr, "expected a usage error naming '%s', got %d: %s\n", names, st.code, st.msg);
        return 0;
    }
    return 1;
}

GP_TEST(node_ctest_env_malformed)
{
    const char *count[] = {"CTEST_RESOURCE_GROUP_COUNT", "two", NULL};
    GP_CHECK(malformed(count, "CTEST_RESOURCE_GROUP_COUNT='two'"));
    const char *zero[] = {"CTEST_RESOURCE_GROUP_COUNT", "0", NULL};
    GP_CHECK(malformed(zero, "CTEST_RESOURCE_GROUP_COUNT='0'"));
    const char *lost[] = {"CTEST_RESOURCE_GROUP_COUNT", "2", "CTEST_RESOURCE_GROUP_0", "gpus",
                          "CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1", NULL};
    GP_CHECK(malformed(lost, "CTEST_RESOURCE_GROUP_1 is not set"));
    const char *other[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "crypto_chips", NULL};
    GP_CHECK(malformed(other, "CTEST_RESOURCE_GROUP_0='crypto_chips': no gpus resource"));
    const char *gpusx[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "gpusx",
                           "CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1", NULL};
    GP_CHECK(malformed(gpusx, "no gpus resource"));
    const char *unset[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "gpus", NULL};
    GP_CHECK(malformed(unset, "CTEST_RESOURCE_GROUP_0_GPUS is not set"));
    static const char *const bad[] = {"id:3", "id:3,slots:0", "id:x,slots:1", "id:,slots:1", "3,slots:1",
                                      "id:3,slot:1", "id:3,slots:1;", "id:3,slots:1x", "id:-1,slots:1",
                                      "id:3;slots:1", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *kv[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "gpus",
                            "CTEST_RESOURCE_GROUP_0_GPUS", bad[i], NULL};
        GP_CHECK(malformed(kv, "CTEST_RESOURCE_GROUP_0_GPUS"));
    }
    return 0;
}

GP_TEST(node_resources_spec_ids_come_back)
{
    /* The spec `gpuprobe resources` writes lists ids that CTest hands back as
     * "id:<id>,slots:<n>": each one must parse to the ordinal --device takes. */
    gp_rsrc_device devs[3] = {{0, 1, ""}, {1, 0, "no code for gfx1100"}, {6, 1, ""}};
    FILE *f = tmpfile();
    GP_CHECK(f);
    GP_CHECK(gp_resources_write(f, devs, 3, 2).code == GP_OK);
    rewind(f);
    char line[256];
    int ids[GP_CTEST_MAX_GPUS], n = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        int id = -1, slots = 0;
        if (sscanf(line, " {\"id\": \"%d\", \"slots\": %d}", &id, &slots) != 2)
            continue;
        char alloc[64];
        snprintf(alloc, sizeof alloc, "id:%d,slots:%d", id, slots);
        const char *kv[] = {"CTEST_RESOURCE_GROUP_COUNT", "1", "CTEST_RESOURCE_GROUP_0", "gpus",
                            "CTEST_RESOURCE_GROUP_0_GPUS", alloc, NULL};
        GP_CHECK(parse_env(kv, ids, &n).code == GP_OK && n == 1 && ids[0] == id);
        GP_CHECK(id == 0 || id == 6);
        found++;
    }
    fclose(f);
    GP_CHECK(found == 2);
    return 0;
}

/* ---- the child's entry and the node index */

static void test_dev(gp_device_info *d, int index, const char *bus, const char *uuid)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    snprintf(d->name, sizeof d->name, "NVIDIA H200");
    snprintf(d->vendor, sizeof d->vendor, "NVIDIA");
    snprintf(d->arch, sizeof d->arch, "sm_90");
    snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%s", bus);
    snprintf(d->uuid, sizeof d->uuid, "%s", uuid);
    snprintf(d->uuid_source, sizeof d->uuid_source, "cudaDeviceProp.uuid");
    d->compute_units = 132;
    d->wave_size = 32;
}

GP_TEST(node_entry_round_trip)
{
    char dir[] = "/tmp/gp_node_entryXXXXXX", path[128];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/.gpu3.entry", dir);
    gp_device_info d;
    test_dev(&d, 3, "0000:5d:00.0", "GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071");
    snprintf(d.name, sizeof d.name, "NVIDIA\tH200\nNVL"); /* a tab or line break must not split the line */
    GP_CHECK(gp_node_entry_write(path, &d, "0000-5d-00.0_8c5f1a2b").code == GP_OK);
    gp_node_gpu g;
    memset(&g, 0, sizeof g);
    g.rc = 1;
    GP_CHECK(gp_node_entry_read(path, &g).code == GP_OK);
    GP_CHECK(g.ordinal == 3 && g.rc == 1 && !strcmp(g.folder, "0000-5d-00.0_8c5f1a2b"));
    GP_CHECK(!strcmp(g.name, "NVIDIA H200 NVL") && !strcmp(g.arch, "sm_90"));
    GP_CHECK(!strcmp(g.pci_bus_id, "0000:5d:00.0") && !strcmp(g.uuid, "GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071"));
    /* a GPU this binary cannot run: named, no folder */
    GP_CHECK(gp_node_entry_write(path, &d, "").code == GP_OK);
    GP_CHECK(gp_node_entry_read(path, &g).code == GP_OK && g.folder[0] == '\0' && g.ordinal == 3);
    /* not an entry */
    GP_CHECK(gp_test_write_text(path, "3\tonly two fields\n"));
    GP_CHECK(gp_node_entry_read(path, &g).code == GP_ERR_USAGE);
    GP_CHECK(gp_test_write_text(path, "x\ta\tb\tc\td\te\n"));
    GP_CHECK(gp_node_entry_read(path, &g).code == GP_ERR_USAGE);
    unlink(path);
    GP_CHECK(gp_node_entry_read(path, &g).code == GP_ERR_IO);
    rmdir(dir);
    return 0;
}

GP_TEST(node_index_lists_every_gpu)
{
    gp_node_gpu g[3];
    memset(g, 0, sizeof g);
    g[0].ordinal = 0;
    snprintf(g[0].folder, sizeof g[0].folder, "0000-3b-00.0_8c5f1a2b");
    snprintf(g[0].name, sizeof g[0].name, "NVIDIA H200");
    snprintf(g[0].arch, sizeof g[0].arch, "sm_90");
    snprintf(g[0].pci_bus_id, sizeof g[0].pci_bus_id, "0000:3b:00.0");
    snprintf(g[0].uuid, sizeof g[0].uuid, "GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071");
    g[1] = g[0];
    g[1].ordinal = 1;
    snprintf(g[1].folder, sizeof g[1].folder, "0000-5d-00.0_nouuid");
    snprintf(g[1].pci_bus_id, sizeof g[1].pci_bus_id, "0000:5d:00.0");
    g[1].uuid[0] = '\0';
    g[1].rc = 1;
    snprintf(g[1].note, sizeof g[1].note, "exit 1 (a probe or check failed) | lds");
    g[2].ordinal = 2; /* never opened: killed before it named its GPU */
    g[2].rc = -1;
    snprintf(g[2].note, sizeof g[2].note, "killed by signal 9");
    FILE *f = tmpfile();
    GP_CHECK(f);
    gp_node_index_write(f, g, 3, "gpuprobe 0.3.0 (test)");
    long len = ftell(f);
    rewind(f);
    char *md = calloc(1, (size_t)len + 1);
    GP_CHECK(md && fread(md, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    GP_CHECK(strstr(md, "3 GPUs characterized") && strstr(md, "2 failed"));
    GP_CHECK(strstr(md, "[0000-3b-00.0_8c5f1a2b](0000-3b-00.0_8c5f1a2b/report.md)"));
    GP_CHECK(strstr(md, "`GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071`"));
    GP_CHECK(strstr(md, "`not reported`")); /* GPU 1's missing UUID is said */
    GP_CHECK(strstr(md, "a probe or check failed) \\| lds")); /* a '|' does not break the row */
    GP_CHECK(strstr(md, "killed by signal 9") && strstr(md, "none (the GPU did not open)"));
    GP_CHECK(strstr(md, "gpuprobe 0.3.0 (test)"));
    /* one row per GPU under the header: 2 + 3 table lines */
    int rows = 0;
    for (const char *p = md; (p = strstr(p, "\n| ")) != NULL; p++)
        rows++;
    GP_CHECK(rows == 5);
    free(md);
    return 0;
}

/* ---- the command line */

static gp_status parse(int argc, const char **argv, gp_cli *c)
{
    return gp_cli_parse(argc, (char **)argv, c);
}

GP_TEST(node_cli_device_modes)
{
    gp_cli c;
    gp_status st;
    const char *none[] = {"gpuprobe", "characterize"};
    GP_CHECK(parse(2, none, &c).code == GP_OK && c.device_mode == GP_DEVICE_DEFAULT && c.device == 0);
    const char *one[] = {"gpuprobe", "characterize", "--device", "3"};
    GP_CHECK(parse(4, one, &c).code == GP_OK && c.device_mode == GP_DEVICE_ONE && c.device == 3);
    const char *all[] = {"gpuprobe", "characterize", "--device", "all", "--out", "/tmp/n"};
    GP_CHECK(parse(6, all, &c).code == GP_OK && c.device_mode == GP_DEVICE_ALL);
    const char *ctest[] = {"gpuprobe", "run", "lds", "--device", "ctest"};
    GP_CHECK(parse(5, ctest, &c).code == GP_OK && c.device_mode == GP_DEVICE_CTEST);
    const char *run_all[] = {"gpuprobe", "run", "lds", "--device", "all"};
    st = parse(5, run_all, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--device all is for characterize and stress only"));
    const char *char_ctest[] = {"gpuprobe", "characterize", "--device", "ctest"};
    st = parse(4, char_ctest, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--device ctest is for run only"));
    const char *bad[] = {"gpuprobe", "characterize", "--device", "x"};
    st = parse(4, bad, &c);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "--device: 'x' is not a GPU index in 0..1024 or 'all'"));
    const char *big[] = {"gpuprobe", "characterize", "--device", "1025"};
    GP_CHECK(parse(4, big, &c).code == GP_ERR_USAGE);
    return 0;
}

/* ---- records say which GPU; resume never takes another GPU's */

GP_TEST(node_record_carries_uuid_and_resume_checks_it)
{
    char dir[] = "/tmp/gp_node_resumeXXXXXX", why[512], path[128];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d, other;
    test_dev(&d, 0, "0000:3b:00.0", "GPU-8c5f1a2b-0d3e-4f60-9a1b-2c3d4e5f6071");
    gp_record *r = calloc(1, sizeof *r);
    GP_CHECK(r);
    gp_record_init(r, "lds", &d);
    snprintf(r->version, sizeof r->version, "9.8.7");
    snprintf(r->check, sizeof r->check, "ok");
    gp_record_value(r, "banks", 32, "banks", 0.0, "unit test");
    GP_CHECK(gp_record_write(r, dir).code == GP_OK);
    gp_record_free(r);
    /* written and read back */
    snprintf(path, sizeof path, "%s/lds.json", dir);
    gp_json j;
    const char *not_record = NULL;
    GP_CHECK(gp_json_read_file(path, &j).code == GP_OK);
    GP_CHECK(gp_record_from_json(&j, r, NULL, &not_record) == 1);
    gp_json_free(&j);
    GP_CHECK(!strcmp(r->dev.uuid, d.uuid) && !strcmp(r->dev.uuid_source, "cudaDeviceProp.uuid"));
    gp_record_free(r);
    GP_CHECK(gp_resume_reusable(dir, "lds", &d, "9.8.7", 0, why, sizeof why) == 1);
    /* the same bus id on another node (or a swapped board): another UUID */
    other = d;
    snprintf(other.uuid, sizeof other.uuid, "GPU-00000000-1111-2222-3333-444444444444");
    GP_CHECK(gp_resume_reusable(dir, "lds", &other, "9.8.7", 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "measured on") && strstr(why, "GPU-8c5f1a2b") && strstr(why, "GPU-00000000"));
    /* a runtime without UUIDs on both sides still resumes by bus id */
    other = d;
    other.uuid[0] = '\0';
    GP_CHECK(gp_resume_reusable(dir, "lds", &other, "9.8.7", 0, why, sizeof why) == 0);
    GP_CHECK(strstr(why, "uuid none"));
    free(r);
    return 0;
}

/* ---- a node run, with a stand-in for the binary: each "GPU" a child */

GP_TEST(node_run_each_survives_failing_gpus)
{
    char dir[] = "/tmp/gp_node_runXXXXXX", self[128], log[128];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(self, sizeof self, "%s/fake-gpuprobe", dir);
    snprintf(log, sizeof log, "%s/args.log", dir);
    /* device 0 ok, 1 a failed check, 2 killed, 3 no GPU before it opened,
     * 4 ok: the ones after a failure still run */
    char script[1024];
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "echo \"$*\" >> %s\n"
             "dev=$3\n"
             "[ \"$dev\" = 3 ] && exit 77\n"
             "printf '%%s\\t%%s\\tFake GPU\\tsm_90\\t0000:0%%s:00.0\\tGPU-%%s0000000\\n' $dev 0000-0$dev-00.0_${dev}0000000"
             " $dev $dev > \"$GP_NODE_ENTRY\"\n"
             "[ \"$dev\" = 1 ] && exit 1\n"
             "[ \"$dev\" = 2 ] && kill -9 $$\n"
             "exit 0\n",
             log);
    GP_CHECK(gp_test_write_text(self, script));
    GP_CHECK(chmod(self, 0755) == 0);
    gp_cli cli;
    memset(&cli, 0, sizeof cli);
    cli.cmd = GP_CMD_CHARACTERIZE;
    cli.out_dir = dir;
    cli.quick = 1;
    int ids[5] = {0, 1, 2, 3, 4};
    gp_node_gpu g[5];
    gp_status st = gp_node_run_each(self, &cli, "/opt/tables", ids, 5, g);
    GP_CHECK(st.code == GP_ERR_CHECK && gp_status_exit_code(&st) == 1);
    GP_CHECK(strstr(st.msg, "3 of 5 GPUs failed") && strstr(st.msg, "device 1 (exit 1") &&
             strstr(st.msg, "device 2 (killed by signal 9)") && strstr(st.msg, "device 3 (exit 77"));
    GP_CHECK(g[0].rc == 0 && !strcmp(g[0].folder, "0000-00-00.0_00000000") && !strcmp(g[0].name, "Fake GPU"));
    GP_CHECK(g[1].rc == 1 && !strcmp(g[1].pci_bus_id, "0000:01:00.0") && strstr(g[1].note, "a probe or check failed"));
    GP_CHECK(g[2].rc == -1 && !strcmp(g[2].uuid, "GPU-20000000") && !strcmp(g[2].note, "killed by signal 9"));
    GP_CHECK(g[3].rc == 77 && g[3].folder[0] == '\0' && g[3].ordinal == 3);
    GP_CHECK(g[4].rc == 0 && g[4].note[0] == '\0');
    /* what each child was asked, and no entry file left behind */
    char *args = NULL;
    FILE *f = fopen(log, "r");
    GP_CHECK(f);
    args = calloc(1, 4096);
    GP_CHECK(args && fread(args, 1, 4095, f) > 0);
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "characterize --device 2 --out %s --tables /opt/tables --quick\n", dir);
    GP_CHECK(strstr(args, want));
    free(args);
    char entry[160];
    snprintf(entry, sizeof entry, "%s/.gpu0.entry", dir);
    GP_CHECK(access(entry, F_OK) != 0);
    /* every child exits 77: no GPU, said as such */
    int only3[2] = {3, 3};
    st = gp_node_run_each(self, &cli, "", only3, 2, g);
    GP_CHECK(st.code == GP_ERR_NO_GPU && gp_status_exit_code(&st) == 77);
    unlink(self);
    unlink(log);
    rmdir(dir);
    return 0;
}
