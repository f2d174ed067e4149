/* Every kernel's random shapes (gp_kernel.shape_random, what `verify
 * --random-shapes` runs): a drawn shape reads back from its label, has
 * work by the floor model, gets parameters by the one shape path under
 * the generic and the sm_90 tables, and the draws reach every option. */
#include <stdio.h>
#include <string.h>

#include "data.h"
#include "gp_test.h"
#include "gp_test_table.h"
#include "kernel.h"

static gp_device_info h100(void)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    d.compute_units = 132, d.wave_size = 32, d.max_threads_per_block = 1024, d.lds_per_block = 48 * 1024;
    d.max_block_dim[0] = d.max_block_dim[1] = 1024, d.max_block_dim[2] = 64;
    d.max_grid_dim[0] = 0x7fffffff, d.max_grid_dim[1] = d.max_grid_dim[2] = 65535;
    return d;
}

GP_TEST(kernels_random_shapes_read_back_and_get_parameters)
{
    static gp_table generic, sm90;
    GP_CHECK(gp_test_load_table("tables/generic", &generic));
    GP_CHECK(gp_test_load_table("tables/sm_90", &sm90));
    gp_device_info d = h100();
    unsigned char p[4096];
    char label[256], note[160];
    int with = 0;
    for (size_t i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel *k = gp_kernel_at(i);
        if (!k->shape_random)
            continue;
        with++;
        GP_CHECK(k->params_size <= sizeof p);
        uint64_t rng = 12345 + i;
        long long opt_seen[4][4] = {{0}};
        double least = -1, most = 0;
        for (int j = 0; j < 400; j++) {
            gp_shape s, back;
            k->shape_random(&rng, &s);
            k->shape_label(&s, label, sizeof label);
            gp_status st = k->shape_parse(label, &back);
            if (st.code != GP_OK || memcmp(&s, &back, sizeof s)) {
                fprintf(stderr, "%s: drawn shape '%s' does not read back (%s)\n", k->name, label, st.msg);
                return 1;
            }
            gp_kernel_work w;
            GP_CHECK(k->work(&s, NULL, &w).code == GP_OK);
            GP_CHECK(gp_kernel_params(k, &generic, &d, &s, 1, p, note, sizeof note).code == GP_OK);
            GP_CHECK(gp_kernel_params(k, &sm90, &d, &s, 1, p, note, sizeof note).code == GP_OK);
            for (int o = 0; o < 4; o++)
                if (s.opt[o] >= 0 && s.opt[o] < 4)
                    opt_seen[o][s.opt[o]]++;
            least = least < 0 || w.bytes < least ? w.bytes : least;
            most = w.bytes > most ? w.bytes : most;
        }
        /* Where an option took two values, both came up; the bytes moved
         * spread over at least three decades. */
        for (int o = 0; o < 4; o++)
            GP_CHECK(!opt_seen[o][1] || opt_seen[o][0]);
        printf("  %-10s %.3g to %.3g bytes, e.g. '%s'\n", k->name, least, most, label);
        GP_CHECK(most >= 1000 * least);
    }
    GP_CHECK(with > 0);
    return 0;
}

GP_TEST(kernels_rand_dim_is_log_uniform_and_in_range)
{
    uint64_t rng = 7;
    int decades[7] = {0}, aligned = 0;
    for (int i = 0; i < 70000; i++) {
        long long v = gp_rand_dim(&rng, 1, 999999);
        GP_CHECK(v >= 1 && v <= 999999);
        int dec = 0;
        for (long long x = v; x >= 10; x /= 10)
            dec++;
        decades[dec]++;
        aligned += v >= 32 && v % 32 == 0;
    }
    for (int dec = 0; dec < 6; dec++) /* about 1/6 of the draws each */
        GP_CHECK(decades[dec] > 9000 && decades[dec] < 14000);
    GP_CHECK(aligned > 20000);
    GP_CHECK(gp_rand_dim(&rng, 5, 5) == 5 && gp_rand_dim(&rng, 0, 0) == 1);
    return 0;
}
