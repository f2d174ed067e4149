/* Analyses rerun on series recorded on real GPUs (tests/data/<device>/). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "csv.h"
#include "gp_test.h"
#include "launch_rate_analysis.h"

GP_TEST(csv_reads_and_rejects)
{
    char dir[] = "/tmp/gp_unit_csvXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char p[256];
    snprintf(p, sizeof p, "%s/ok.csv", dir);
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2.5\n3,-4e3\n"));
    gp_series s;
    GP_CHECK(gp_csv_read(p, &s).code == GP_OK);
    GP_CHECK(s.ncols == 2 && s.nrows == 2 && gp_series_col(&s, "b") == 1 && s.data[3] == -4000);
    free(s.data);
    snprintf(p, sizeof p, "%s/bad.csv", dir);
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2\n3,x\n"));
    gp_status st = gp_csv_read(p, &s);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, ":3:"));
    GP_CHECK(gp_csv_read("/nonexistent/x.csv", &s).code == GP_ERR_IO);
    return 0;
}

/* H200 launch rate (2026-11-21): rate grows linearly with block size, about
 * 0.84 blocks per cycle, and partial waves cost nothing extra. */
GP_TEST(launch_rate_h200_recorded)
{
    char p1[512], p2[512];
    if (!gp_test_source_path(p1, sizeof p1, "tests/data/h200/launch_rate_1d.csv") ||
        !gp_test_source_path(p2, sizeof p2, "tests/data/h200/launch_rate_2d.csv"))
        return 1;
    gp_series s1, s2;
    GP_CHECK(gp_csv_read(p1, &s1).code == GP_OK);
    GP_CHECK(gp_csv_read(p2, &s2).code == GP_OK);
    int xc = gp_series_col(&s1, "threads_per_block"), yc = gp_series_col(&s1, "threads_per_cycle");
    GP_CHECK(xc >= 0 && yc >= 0);
    double x1[256], y1[256], x2[256], y2[256];
    GP_CHECK(s1.nrows <= 256 && s2.nrows <= 256);
    gp_series_column(&s1, xc, x1);
    gp_series_column(&s1, yc, y1);
    gp_series_column(&s2, xc, x2);
    gp_series_column(&s2, yc, y2);
    double bpc = gp_launch_rate_blocks_per_cycle(x1, y1, s1.nrows, 32);
    GP_CHECK(bpc > 0.7 && bpc < 1.0);
    size_t k;
    double loss = gp_analysis_granularity_loss(x2, y2, s2.nrows, 32, x1, y1, s1.nrows, &k);
    GP_CHECK(k >= 20 && fabs(loss) < 0.03);
    int ipk = gp_analysis_argmax(y1, s1.nrows);
    GP_CHECK(ipk >= 0 && x1[ipk] == 1024); /* still rising at the largest block */
    free(s1.data);
    free(s2.data);
    return 0;
}

/* A per-wave launch cost: 33 threads cost 2 waves (loss 1 - 33/64), 48 cost
 * 2 (1 - 48/64), multiples of the wave and blocks up to one wave cost
 * nothing and are not counted; the median of the two is the answer. */
GP_TEST(launch_rate_per_wave_loss)
{
    const double x[] = {1, 16, 32, 33, 48, 64, 128};
    GP_CHECK_NEAR(gp_launch_rate_per_wave_loss(x, 7, 32), 0.5 * ((1 - 33.0 / 64) + (1 - 48.0 / 64)), 1e-12);
    GP_CHECK(isnan(gp_launch_rate_per_wave_loss(x, 3, 32)));
    GP_CHECK(isnan(gp_launch_rate_per_wave_loss(x, 7, 0)));
    return 0;
}
