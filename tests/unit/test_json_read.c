/* The JSON reader (common/json_read.c): a byte-order mark, a member given
 * twice in one object and text that is not UTF-8 are refused naming the
 * file, line and column. */
#include <string.h>

#include "gp_test.h"
#include "json_read.h"

GP_TEST(rel2_json_bom_is_named)
{
    gp_json j;
    gp_status st = gp_json_parse("\xEF\xBB\xBF{\"probe\": \"lds\"}", 20, "lds.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json") && strstr(st.msg, "byte-order mark"));
    return 0;
}

GP_TEST(rel3_json_member_twice_is_refused_with_its_line)
{
    const char *text = "{\n  \"probe\": \"lds\",\n  \"date\": \"x\",\n  \"probe\": \"atomics\"\n}\n";
    gp_json j;
    gp_status st = gp_json_parse(text, strlen(text), "lds.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "lds.json:4:3:") &&
             strstr(st.msg, "member \"probe\" given twice in one object (first at line 2)"));
    /* the same name in two objects is fine; so is a long object of distinct names */
    const char *ok = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}";
    GP_CHECK(gp_json_parse(ok, strlen(ok), "ok.json", &j).code == GP_OK);
    gp_json_free(&j);
    char big[40000];
    size_t n = 0;
    n += (size_t)snprintf(big + n, sizeof big - n, "{");
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "%s\"k%d\": %d", i ? "," : "", i, i);
    snprintf(big + n, sizeof big - n, ", \"k1234\": 0}");
    st = gp_json_parse(big, strlen(big), "big.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "\"k1234\" given twice"));
    return 0;
}

GP_TEST(rel3_json_text_must_be_utf8)
{
    static const char *const bad[] = {"[\"\xff\"]", "[\"\xc3\"]", "[\"\xed\xa0\x80\"]", "[\"\xc0\xaf\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_json j;
        gp_status st = gp_json_parse(bad[i], strlen(bad[i]), "u.json", &j);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "u.json:1:") && strstr(st.msg, "UTF-8"));
    }
    const char *good = "[\"NVIDIA H200 \xe2\x84\xa2 \xc3\xa9 \xf0\x9f\x98\x80\"]";
    gp_json j;
    GP_CHECK(gp_json_parse(good, strlen(good), "u.json", &j).code == GP_OK);
    GP_CHECK(!strcmp(j.kids[0].str, "NVIDIA H200 \xe2\x84\xa2 \xc3\xa9 \xf0\x9f\x98\x80"));
    gp_json_free(&j);
    return 0;
}
