/* Series CSV files (common/csv.c): text that is no series is refused
 * naming the line; blank lines and CRLF read. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "gp_test.h"

GP_TEST(rel3_csv_that_is_no_series_is_refused)
{
    char dir[] = "/tmp/gp_rel3_csvXXXXXX", p[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    snprintf(p, sizeof p, "%s/x.csv", dir);
    gp_series s;
    GP_CHECK(gp_test_write_text(p, "a,\xff\x01" "b\n1,2\n"));
    GP_CHECK(gp_csv_read(p, &s).code == GP_ERR_USAGE);
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2xyz\n"));
    gp_status st = gp_csv_read(p, &s);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, ":2: text after the last"));
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2\n\n3,4\r\n"));
    GP_CHECK(gp_csv_read(p, &s).code == GP_OK && s.nrows == 2 && s.data[3] == 4);
    free(s.data);
    remove(p);
    rmdir(dir);
    return 0;
}
