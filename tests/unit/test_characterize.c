/* The tuning table built from probe records recorded on the H200. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "characterize.h"
#include "gp_test.h"

GP_TEST(characterize_table_from_h200_records)
{
    char rec[512], tables[512], base[512];
    GP_CHECK(gp_test_source_path(rec, sizeof rec, "tests/data/h200/records"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    static gp_table t;
    gp_status st = gp_characterize_table(rec, tables, &t, base, sizeof base, NULL);
    if (st.code)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    const char *arch;
    GP_CHECK(gp_table_get_text(&t, "device", "arch", &arch).code == GP_OK && !strcmp(arch, "sm_90"));
    long long v;
    GP_CHECK(gp_table_get_int(&t, "registers", "per_cu", &v).code == GP_OK && v == 65536);
    GP_CHECK(gp_table_get_int(&t, "device", "wave_size", &v).code == GP_OK && v == 32);
    GP_CHECK(gp_table_get_int(&t, "device", "compute_units", &v).code == GP_OK && v == 132);
    GP_CHECK(gp_table_get_int(&t, "lds", "banks", &v).code == GP_OK && v == 32);
    /* A rule over a measured characteristic. */
    const gp_table_entry *e = gp_table_find(&t, "kernel.transpose", "tile");
    GP_CHECK(e && e->d == 32 && strstr(e->prov, "rule tile_from_banks"));
    /* Measured provenance carries the probe. */
    e = gp_table_find(&t, "compute", "fp32_fma_per_cycle_per_cu");
    GP_CHECK(e && strstr(e->prov, "measured fma_throughput"));
    /* Channels are hashed on the H200: none, with the probe's reason. */
    e = gp_table_find(&t, "channels", "count");
    GP_CHECK(e && e->is_none && strstr(e->prov, "not detected"));
    return 0;
}

GP_TEST(characterize_needs_records)
{
    char tables[512];
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    static gp_table t;
    gp_status st = gp_characterize_table("/nonexistent-results", tables, &t, NULL, 0, NULL);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "no probe records"));
    /* Every mapping names a key the table schema has. */
    for (size_t i = 0; gp_char_map_at(i); i++) {
        const gp_char_map *m = gp_char_map_at(i);
        if (gp_table_key_index(m->section, m->table_key) < 0)
            fprintf(stderr, "unknown key %s.%s\n", m->section, m->table_key);
        GP_CHECK(gp_table_key_index(m->section, m->table_key) >= 0);
    }
    return 0;
}
