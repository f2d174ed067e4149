/* Format versions (common/schema.c): records and tables carry their
 * schema_version; an older one reads, a newer major is refused by name. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp_test.h"
#include "json_read.h"
#include "record.h"
#include "schema.h"
#include "table.h"

GP_TEST(rel3_schema_versions_read_older_and_refuse_newer)
{
    GP_CHECK(gp_schema_check("1.0", GP_RECORD_SCHEMA, "r").code == GP_OK);
    GP_CHECK(gp_schema_check("1.99", GP_RECORD_SCHEMA, "r").code == GP_OK);
    gp_status st = gp_schema_check("2.0", GP_RECORD_SCHEMA, "lds.json");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json: schema_version 2.0 is newer than this gpuprobe"));
    GP_CHECK(gp_schema_check("1", "1.1", "r").code == GP_ERR_USAGE);
    GP_CHECK(gp_schema_check("1.x", "1.1", "r").code == GP_ERR_USAGE);
    GP_CHECK(gp_schema_check("9999999.0", "1.1", "r").code == GP_ERR_USAGE);
    /* Written records and tables carry theirs. */
    char dir[] = "/tmp/gp_rel3_verXXXXXX", p[300];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_record r;
    gp_record_init(&r, "lds", NULL);
    gp_record_value(&r, "banks", 32, "banks", -1, "m");
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    snprintf(p, sizeof p, "%s/lds.json", dir);
    gp_json j;
    GP_CHECK(gp_json_read_file(p, &j).code == GP_OK);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "schema_version", ""), GP_RECORD_SCHEMA));
    gp_json_free(&j);
    char path[1024];
    GP_CHECK(gp_test_source_path(path, sizeof path, "tables/sm_90"));
    static gp_table t;
    GP_CHECK(gp_table_load(path, &t).code == GP_OK);
    snprintf(p, sizeof p, "%s/table.txt", dir);
    GP_CHECK(gp_table_write(&t, p).code == GP_OK);
    char *text = gp_test_read_text(p, NULL);
    GP_CHECK(text && strstr(text, "\nschema_version = " GP_TABLE_SCHEMA "\n"));
    /* A table of a newer major is refused with its line; one without the line is 1.0. */
    char *v = strstr(text, "schema_version = ");
    v[17] = '2';
    st = gp_table_parse(&t, text, "newer");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "newer:3: schema_version 2.1 is newer") && t.schema_major == 2);
    memset(v, '#', 14);
    GP_CHECK(gp_table_parse(&t, text, "older").code == GP_OK && t.schema_major == 1 && t.schema_minor == 0);
    free(text);
    remove(p);
    snprintf(p, sizeof p, "%s/lds.json", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/lds.md", dir);
    remove(p);
    rmdir(dir);
    return 0;
}
