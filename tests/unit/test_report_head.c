/* The report's first screen: the roofline's ceilings and points
 * from synthetic records and bench CSVs, the datasheet and plots of
 * `report --against` with keys missing on one side, and the placement of
 * the plots' annotations. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datasheet.h"
#include "gp_test.h"
#include "kernel.h"
#include "probe.h"
#include "record.h"
#include "report.h"
#include "roofline.h"
#include "svg.h"

static gp_device_info fake_dev(const char *name)
{
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    d.compute_units = 100;
    d.wave_size = 32;
    d.core_clock_mhz = 1500;
    return d;
}

static void set_clock(gp_record *r, double mhz)
{
    r->have_clock = 1;
    r->clock_before.measured_mhz = r->clock_after.measured_mhz = mhz;
}

/* fma_throughput at 128 FMA/cycle/CU (fp32) and 64 (fp64), 100 CUs, 1000 MHz
 * measured; memory_bandwidth at 2000 GB/s DRAM and 8000 GB/s L2. */
static void synthetic(gp_record *fma, gp_record *bw, const gp_device_info *dev)
{
    gp_record_init(fma, "fma_throughput", dev);
    set_clock(fma, 1000);
    gp_record_value(fma, "fp32_fma_per_cycle_per_cu", 128, "FMA/cycle", 0.01, "m");
    gp_record_value(fma, "fp64_fma_per_cycle_per_cu", 64, "FMA/cycle", 0.01, "m");
    gp_record_value(fma, "fp32_peak_fraction", 0.98, "fraction", 0.01, "m");
    gp_record_init(bw, "memory_bandwidth", dev);
    set_clock(bw, 1000);
    gp_record_value(bw, "bandwidth_gbs", 2000, "GB/s", 0.01, "m");
    gp_record_value(bw, "l2_bandwidth_gbs", 8000, "GB/s", 0.01, "m");
}

GP_TEST(roofline_ceilings_from_records)
{
    gp_device_info dev = fake_dev("Fake GPU");
    gp_record fma, bw;
    synthetic(&fma, &bw, &dev);
    const gp_record *recs[2] = {&bw, &fma};
    gp_roofline *rl = calloc(1, sizeof *rl);
    GP_CHECK(rl != NULL);
    gp_roofline_ceilings(recs, 2, rl);
    const gp_rl_ceiling *fp32 = gp_roofline_ceiling(rl, "fp32 FMA"), *fp64 = gp_roofline_ceiling(rl, "fp64 FMA");
    const gp_rl_ceiling *dram = gp_roofline_ceiling(rl, "DRAM"), *l2 = gp_roofline_ceiling(rl, "L2");
    GP_CHECK(fp32 && fp64 && dram && l2);
    /* 2 FLOP x 128 FMA x 100 CUs x 1000 MHz measured (not the 1500 reported). */
    GP_CHECK_NEAR(fp32->value, 2.0 * 128 * 100 * 1e9, 1);
    GP_CHECK_NEAR(fp64->value, 2.0 * 64 * 100 * 1e9, 1);
    GP_CHECK(fp32->kind == GP_RL_COMPUTE && dram->kind == GP_RL_BANDWIDTH);
    GP_CHECK_NEAR(dram->value, 2000e9, 1);
    GP_CHECK_NEAR(l2->value, 8000e9, 1);
    GP_CHECK(strstr(fp32->method, "1000 MHz (measured)") != NULL);
    /* No lds record: the LDS ceiling is there, not measured, with the reason. */
    GP_CHECK(gp_roofline_ceiling(rl, "LDS") == NULL);
    int found = 0;
    for (int i = 0; i < rl->nceil; i++)
        if (!strcmp(rl->ceil[i].name, "LDS")) {
            found = 1;
            GP_CHECK(isnan(rl->ceil[i].value));
            GP_CHECK(strstr(rl->ceil[i].method, "no lds record") != NULL);
        }
    GP_CHECK(found);
    /* A value the probe could not detect is not a ceiling, and says why. */
    gp_record bw2;
    gp_record_init(&bw2, "memory_bandwidth", &dev);
    gp_record_none(&bw2, "bandwidth_gbs", "GB/s", "the sweep never levelled off");
    const gp_record *recs2[1] = {&bw2};
    gp_roofline_ceilings(recs2, 1, rl);
    GP_CHECK(gp_roofline_ceiling(rl, "DRAM") == NULL);
    int dram_at = -1;
    for (int i = 0; i < rl->nceil; i++)
        if (!strcmp(rl->ceil[i].name, "DRAM"))
            dram_at = i;
    GP_CHECK(dram_at >= 0 && strstr(rl->ceil[dram_at].method, "never levelled off") != NULL);
    GP_CHECK(strstr(rl->ceil[0].method, "no fma_throughput record") != NULL);
    free(rl);
    gp_record_free(&fma);
    gp_record_free(&bw);
    gp_record_free(&bw2);
    return 0;
}

/* The fake kernels' floor models: "mm N" does 2 N^3 FLOP on 12 N^2 bytes;
 * "copy N" moves 8 N bytes and does no arithmetic. */
static gp_status fake_work(const char *kernel, const char *problem, double *bytes, double *flops, char *method,
                           size_t n)
{
    double v = atof(strchr(problem, ' ') ? strchr(problem, ' ') + 1 : "0");
    snprintf(method, n, "fake %s", kernel);
    if (!strcmp(kernel, "mm")) {
        *flops = 2 * v * v * v;
        *bytes = 12 * v * v;
        return gp_ok();
    }
    if (!strcmp(kernel, "copy")) {
        *flops = 0;
        *bytes = 8 * v;
        return gp_ok();
    }
    return gp_fail(GP_ERR_USAGE, "%s: no model", kernel);
}

/* A clock that fell during the probe: the per-cycle rates were divided by
 * the clock measured before it, so the chip rate is rebuilt with that one
 * (a record of 128 FMA/cycle/CU at 1000 MHz before, 900 after: 25.6 TFLOP/s,
 * not 23.0), in the roofline and the datasheet alike. */
GP_TEST(chip_rates_rebuilt_with_the_clock_they_were_divided_by)
{
    gp_device_info dev = fake_dev("Fake GPU");
    gp_record fma, bw;
    synthetic(&fma, &bw, &dev);
    fma.clock_after.measured_mhz = 900;
    GP_CHECK(gp_ds_rate_mhz(&fma) == 1000 && gp_ds_measured_mhz(&fma) == 900);
    const gp_record *recs[2] = {&bw, &fma};
    gp_roofline *rl = calloc(1, sizeof *rl);
    GP_CHECK(rl != NULL);
    gp_roofline_ceilings(recs, 2, rl);
    const gp_rl_ceiling *fp32 = gp_roofline_ceiling(rl, "fp32 FMA");
    GP_CHECK(fp32 && fabs(fp32->value - 2.0 * 128 * 100 * 1e9) < 1);
    free(rl);
    gp_datasheet *ds = calloc(1, sizeof *ds);
    GP_CHECK(ds != NULL);
    gp_datasheet_build(recs, 2, NULL, ds);
    int seen = 0;
    for (int i = 0; i < ds->nrows; i++)
        if (ds->rows[i].label && strstr(ds->rows[i].label, "fp32 FMA")) {
            seen = 1;
            GP_CHECK(fabs(ds->rows[i].num - 2.0 * 128 * 100 * 1e9) < 1);
        }
    GP_CHECK(seen);
    /* Without a reading before, the one after stands. */
    fma.clock_before.measured_mhz = 0;
    GP_CHECK(gp_ds_rate_mhz(&fma) == 900);
    free(ds);
    return 0;
}

GP_TEST(roofline_points_from_bench_csv)
{
    char dir[] = "/tmp/gp_roofXXXXXX", p[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info dev = fake_dev("Fake GPU");
    gp_record fma, bw;
    synthetic(&fma, &bw, &dev);
    const gp_record *recs[2] = {&fma, &bw};
    gp_roofline *rl = calloc(1, sizeof *rl);
    GP_CHECK(rl != NULL);
    gp_roofline_ceilings(recs, 2, rl);

    /* No bench CSV: no points, no error (the report says so). */
    GP_CHECK(gp_roofline_points(dir, fake_work, rl).code == GP_OK);
    GP_CHECK(rl->nfiles == 0 && rl->npts == 0);

    snprintf(p, sizeof p, "%s/bench_mm_copy.csv", dir);
    GP_CHECK(gp_test_write_text(
        p, "kernel,problem,impl,table,baseline,median_ms,min_ms,p10_ms,p90_ms,n,stable,floor_ms,speedup,params,"
           "ratio_median,ratio_p10,ratio_p90,rounds\n"
           /* compute-bound: 2e12 FLOP at 25.6 TFLOP/s peak = 78.125 ms; 100 ms is 78% */
           "mm,\"mm 10000\",\"gpuprobe\",\"measured sm_90\",0,100,99,99,101,20,1,78.125,0.9,\"a=1, b=2\",,,,\n"
           /* a variant and a baseline of the same problem: not points */
           "mm,\"mm 10000\",\"gpuprobe variant=x\",\"measured sm_90\",0,50,50,50,50,20,1,78.125,0.9,\"\",,,,\n"
           "mm,\"mm 10000\",\"vendor (baseline)\",\"\",1,60,60,60,60,20,1,78.125,,\"\",,,,\n"
           /* memory-bound: 2e3 FLOP, 1.2e3 B: x = 0.6 B/FLOP, roof 2000e9 / 0.6 = 3.33 TFLOP/s */
           "mm,\"mm 10\",\"gpuprobe\",\"generic\",0,0.01,0.01,0.01,0.01,20,1,0.0006,1,\"\",,,,\n"
           /* no FLOPs: 8e9 B in 8 ms = 1000 GB/s, half the DRAM roof */
           "copy,\"copy 1000000000\",\"gpuprobe\",\"measured sm_90\",0,8,8,8,8,20,1,4,1,\"\",,,,\n"
           /* no model for this kernel: left out, with the reason */
           "other,\"x 1\",\"gpuprobe\",\"measured sm_90\",0,1,1,1,1,20,1,1,1,\"\",,,,\n"));
    GP_CHECK(gp_roofline_points(dir, fake_work, rl).code == GP_OK);
    GP_CHECK(rl->nfiles == 1 && !strcmp(rl->files[0], "bench_mm_copy.csv"));
    GP_CHECK(rl->npts == 3);
    const gp_rl_point *a = &rl->pts[0], *b = &rl->pts[1], *c = &rl->pts[2];
    GP_CHECK(!strcmp(a->problem, "mm 10000") && a->ms == 100 && !strcmp(a->table, "measured sm_90"));
    GP_CHECK_NEAR(a->flops_per_s, 2e12 / 0.1, 1e3);
    GP_CHECK_NEAR(a->roof, 25.6e12, 1e3);
    GP_CHECK(!strcmp(a->roof_name, "fp32 FMA"));
    GP_CHECK_NEAR(a->fraction, 0.78125, 1e-9);
    GP_CHECK(!strcmp(b->problem, "mm 10") && !strcmp(b->roof_name, "DRAM"));
    GP_CHECK_NEAR(b->roof, 2000e9 / 0.6, 1e3);
    GP_CHECK_NEAR(b->fraction, (2e3 / 1e-5) / (2000e9 / 0.6), 1e-9);
    GP_CHECK(b->fraction < GP_RL_FAR_BELOW); /* 0.006%: the report calls it out */
    GP_CHECK(c->flops == 0 && !strcmp(c->roof_name, "DRAM"));
    GP_CHECK_NEAR(c->bytes_per_s, 1000e9, 1);
    GP_CHECK_NEAR(c->fraction, 0.5, 1e-9);
    GP_CHECK(rl->nskipped == 1 && strstr(rl->skipped[0], "other: no model") != NULL);

    /* A CSV without the bench columns is bad input naming the file. */
    snprintf(p, sizeof p, "%s/bench_zz.csv", dir);
    GP_CHECK(gp_test_write_text(p, "a,b\n1,2\n"));
    gp_status st = gp_roofline_points(dir, fake_work, rl);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "bench_zz.csv") != NULL);
    free(rl);
    gp_record_free(&fma);
    gp_record_free(&bw);
    return 0;
}

GP_TEST(kernel_work_models_read_their_bench_labels)
{
    /* Every kernel has a model, and reads the labels its bench writes. */
    static const char *const cases[][2] = {
        {"gemm", "4096x4096x4096 NN row-major"}, {"transpose", "8192x8192 fp32"},
        {"reduce", "2^28 fp32"},                 {"scan", "2^20 int32 exclusive"},
        {"ssim", "1x3x2160x3840 same"},          {"padding", "64x64x56x56 pad t1 b2 l0 r3"},
        {"batchnorm", "128x64x56x56 train"},     {"conv2d", "1x6x768x512 k6 oc6 valid (seed)"},
        {"histogram", "2^30 u8, 256 bins skewed 90%"}, {"histogram", "2^28 u32 keys, 4096 bins uniform"},
        {"stencil", "512^3 fp32"},                {"spmv", "laplacian 5-point 4096^2"},
        {"spmv", "uniform 4194304 rows x 16"},    {"spmv", "power-law 4194304 rows (4/l)^1.5 cut 65536"},
    };
    for (size_t i = 0; i < gp_kernel_count(); i++)
        GP_CHECK(gp_kernel_at(i)->work != NULL && gp_kernel_at(i)->shape_parse != NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gp_kernel *k = gp_kernel_find(cases[i][0]);
        if (!k) /* a kernel this build leaves out (-DGP_KERNELS) */
            continue;
        gp_kernel_work w;
        gp_status st = gp_kernel_work_of_label(k, cases[i][1], &w);
        if (st.code != GP_OK)
            fprintf(stderr, "%s\n", st.msg);
        GP_CHECK(st.code == GP_OK && w.bytes > 0 && w.flops >= 0 && w.method[0]);
        /* Another kernel's label is refused, naming it. */
        st = gp_kernel_work_of_label(k, "not a label", &w);
        GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "not a label") != NULL);
    }
    gp_kernel_work w;
    if (gp_kernel_find("gemm")) {
        GP_CHECK(gp_kernel_work_of_label(gp_kernel_find("gemm"), "4096x4096x4096 NN row-major", &w).code == GP_OK);
        GP_CHECK_NEAR(w.flops, 2.0 * 4096 * 4096 * 4096, 1);
    }
    if (gp_kernel_find("reduce")) {
        GP_CHECK(gp_kernel_work_of_label(gp_kernel_find("reduce"), "2^28 int32", &w).code == GP_OK);
        GP_CHECK(w.flops == 0 && w.bytes == 4.0 * (1 << 28));
    }
    GP_CHECK(gp_kernel_work_of_label(gp_kernel_find("transpose"), "8191x8193 fp32", &w).code == GP_OK);
    GP_CHECK(w.flops == 0 && w.bytes == 8.0 * 8191 * 8193);
    return 0;
}

/* A results folder: cache_latency (with l2_far_latency_cycles unless
 * `drop_far`) and, unless `no_lds`, an lds record. */
static int write_folder(const char *dir, const char *gpu, double scale, int drop_far, int no_lds)
{
    gp_device_info dev = fake_dev(gpu);
    gp_record r;
    gp_record_init(&r, "cache_latency", &dev);
    set_clock(&r, 1500);
    gp_record_value(&r, "l1_latency_cycles", 30 * scale, "cycles", 0.01, "m");
    gp_record_value(&r, "l1_latency_ns", 20 * scale, "ns", 0.01, "m");
    gp_record_value(&r, "l1_bytes", 131072, "bytes", 0.01, "m");
    gp_record_value(&r, "l2_latency_cycles", 300 * scale, "cycles", 0.01, "m");
    if (!drop_far)
        gp_record_value(&r, "l2_far_latency_cycles", 500 * scale, "cycles", 0.01, "m");
    gp_series *s = gp_record_series(&r, "footprint", "footprint_bytes,bypass_l1,cycles");
    for (int i = 10; i <= 24; i++) {
        double row[3] = {ldexp(1, i), 0, i <= 17 ? 30 * scale : 300 * scale};
        gp_series_append(s, row);
    }
    int ok = gp_record_write(&r, dir).code == GP_OK;
    gp_record_free(&r);
    if (!no_lds) {
        gp_record_init(&r, "lds", &dev);
        gp_record_value(&r, "latency_cycles", 23, "cycles", 0.01, "m");
        gp_series *c = gp_record_series(&r, "conflicts", "stride,bytes_per_access,degree");
        for (int i = 1; i <= 8; i++) {
            double row[3] = {i, 4, i % 2 ? 1 : i};
            gp_series_append(c, row);
        }
        ok = ok && gp_record_write(&r, dir).code == GP_OK;
        gp_record_free(&r);
    }
    return ok;
}

GP_TEST(report_against_with_missing_keys)
{
    char a[] = "/tmp/gp_agaXXXXXX", b[] = "/tmp/gp_agbXXXXXX", out[] = "/tmp/gp_agoXXXXXX", p[300];
    GP_CHECK(mkdtemp(a) && mkdtemp(b) && mkdtemp(out));
    GP_CHECK(write_folder(a, "GPU A", 1.0, 0, 0));
    GP_CHECK(write_folder(b, "GPU B", 2.0, 1, 1)); /* no l2_far_latency_cycles, no lds record */
    gp_report_opts o = {b, NULL, NULL, NULL};
    gp_status st = gp_report_write_opts(a, out, &o);
    if (st.code != GP_OK)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    snprintf(p, sizeof p, "%s/report.md", out);
    char *md = gp_test_read_text(p, NULL);
    GP_CHECK(md != NULL);
    /* Both columns and the ratio; B's latency is twice A's. */
    GP_CHECK(strstr(md, "| figure | GPU A | GPU B | ratio |") != NULL);
    GP_CHECK(strstr(md, "| L1 latency | 30 cycles, 20.0 ns | 60 cycles, 40.0 ns | 0.50x |") != NULL);
    /* A key missing on B's side: said so, no ratio. */
    GP_CHECK(strstr(md, "| L2 latency (far) | 500 cycles | **not measured: the cache_latency record has no "
                        "l2_far_latency_cycles** | \xe2\x80\x94 |") != NULL);
    /* A probe B does not have at all. */
    GP_CHECK(strstr(md, "| LDS latency | 23 cycles | **not measured: no lds record in this folder** | "
                        "\xe2\x80\x94 |") != NULL);
    /* Missing on both sides. */
    GP_CHECK(strstr(md, "| DRAM bandwidth | **not measured: no memory_bandwidth record in this folder** | "
                        "**not measured: no memory_bandwidth record in this folder** | \xe2\x80\x94 |") != NULL);
    /* Plots: the one both have overlays B dashed; the one only A has says so. */
    GP_CHECK(strstr(md, "dashed: GPU B") != NULL);
    GP_CHECK(strstr(md, "GPU B has no such series") != NULL);
    GP_CHECK(strstr(md, "No bench results in this folder") != NULL);
    GP_CHECK(strstr(md, "Regenerate it with `gpuprobe report ") != NULL);
    free(md);
    snprintf(p, sizeof p, "%s/cache_latency_footprint.svg", out);
    char *svg = gp_test_read_text(p, NULL);
    GP_CHECK(svg != NULL);
    GP_CHECK(strstr(svg, "stroke-dasharray=\"6 4\"") != NULL);
    GP_CHECK(strstr(svg, ", GPU A</text>") != NULL && strstr(svg, ", GPU B</text>") != NULL);
    /* Annotated from A's record: the L1 size with its latency, the levels. */
    GP_CHECK(strstr(svg, ">L1 128 KiB, 30 cycles</text>") != NULL);
    GP_CHECK(strstr(svg, ">L2 300 cycles</text>") != NULL);
    free(svg);
    /* A missing --against folder is bad input naming it. */
    gp_report_opts bad = {"/nonexistent-gp-b", NULL, NULL, NULL};
    st = gp_report_write_opts(a, out, &bad);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "/nonexistent-gp-b") != NULL);
    return 0;
}

GP_TEST(svg_marks_placed_inside_without_overlap)
{
    /* Three texts anchored at one point: three rows; one near the right edge
     * is anchored at its end, inside the frame. */
    double ax[4] = {100, 100, 100, 590}, ay[4] = {50, 50, 50, 200};
    const char *t[4] = {"L1 32 KiB", "L2 4 MiB", "DRAM", "a long text at the edge"};
    gp_mark_box box[4];
    gp_svg_place_marks(ax, ay, t, 4, 80, 600, 30, 300, box);
    for (int i = 0; i < 4; i++) {
        double x0 = box[i].end ? box[i].x - box[i].w : box[i].x;
        GP_CHECK(x0 >= 80 && x0 + box[i].w <= 600 + 1e-9);
        GP_CHECK(box[i].y >= 30 + 12 && box[i].y <= 300);
        for (int j = 0; j < i; j++)
            GP_CHECK(fabs(box[i].y - box[j].y) >= GP_SVG_MARK_ROW || j == 3 || i == 3);
    }
    GP_CHECK(box[3].end == 1);
    GP_CHECK(box[0].y == 50); /* the first keeps its anchor */

    /* In a plot: the vertical mark lies on the data point of the same x. */
    double x[7] = {1, 2, 4, 8, 16, 32, 64}, y[7] = {1, 1, 1, 1, 5, 5, 10};
    gp_plot_series s = {"lat", x, y, 7, 0, 0};
    gp_plot_mark m[2] = {{GP_MARK_X, 8, NAN, "L1 8 B"}, {GP_MARK_Y, NAN, 5, "L2 5 cycles"}};
    gp_plot pl;
    memset(&pl, 0, sizeof pl);
    pl.title = "t";
    pl.series = &s;
    pl.nseries = 1;
    pl.logx = 1;
    pl.marks = m;
    pl.nmarks = 2;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    GP_CHECK(f != NULL);
    GP_CHECK(gp_svg_plot(f, &pl).code == GP_OK);
    fclose(f);
    /* The 4th circle (x = 8) and the first mark line share their x. */
    const char *c = buf;
    for (int i = 0; i < 4 && c; i++)
        c = strstr(c + 1, "<circle class=\"pt\" cx=\"");
    GP_CHECK(c != NULL);
    double cx = atof(c + strlen("<circle class=\"pt\" cx=\""));
    const char *l = strstr(buf, "<line class=\"mark\" x1=\"");
    GP_CHECK(l != NULL);
    GP_CHECK_NEAR(atof(l + strlen("<line class=\"mark\" x1=\"")), cx, 0.05);
    /* The horizontal one at the y of the points at 5, its text above it. */
    const char *c5 = strstr(c + 1, "<circle class=\"pt\" cx=\"");
    GP_CHECK(c5 != NULL);
    double cy = atof(strstr(c5, "cy=\"") + 4);
    const char *l2 = strstr(l + 1, "<line class=\"mark\" x1=\"");
    GP_CHECK(l2 != NULL);
    GP_CHECK_NEAR(atof(strstr(l2, "y1=\"") + 4), cy, 0.05);
    const char *tx = strstr(buf, ">L2 5 cycles</text>");
    GP_CHECK(tx != NULL);
    const char *ty = tx;
    while (ty > buf && strncmp(ty, " y=\"", 4))
        ty--;
    GP_CHECK(atof(ty + 4) < cy);
    /* A mark outside the axis is not drawn. */
    GP_CHECK(strstr(buf, "L1 8 B") != NULL);
    free(buf);
    return 0;
}

/* The datasheet is gathered from the probes' own rows: every place is
 * unique, a group's rows are neighbours in place order (one heading each),
 * each row names a record value (the clock row reads the record's clock),
 * and all of them fit the datasheet. */
GP_TEST(probe_datasheet_rows_well_formed)
{
    const gp_probe_headline *seen[GP_DS_MAX_ROWS];
    size_t n = 0;
    for (size_t i = 0; gp_probe_at(i); i++)
        for (size_t k = 0; k < gp_probe_at(i)->ndatasheet; k++) {
            const gp_probe_headline *h = &gp_probe_at(i)->datasheet[k];
            GP_CHECK(n < GP_DS_MAX_ROWS);
            GP_CHECK(h->group && h->label && (h->key || h->fmt == GP_DS_CLOCK));
            GP_CHECK(!h->tkey == !h->tsec);
            seen[n++] = h;
        }
    GP_CHECK(n > 0);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            if (a == b)
                continue;
            GP_CHECK(seen[a]->place != seen[b]->place);
            /* a row of another group between two of one group breaks it in two */
            for (size_t c = 0; c < n; c++)
                if (!strcmp(seen[a]->group, seen[b]->group) && seen[a]->place < seen[c]->place &&
                    seen[c]->place < seen[b]->place)
                    GP_CHECK(!strcmp(seen[c]->group, seen[a]->group));
        }
    return 0;
}

/* The roofline's ceilings come from the probes' own roofs: they fit the
 * roofline, their places are unique, and exactly one roof of each kind
 * bounds the bench points (the kernels' floor model: fp32 FLOPs, DRAM bytes). */
GP_TEST(probe_roofs_well_formed)
{
    int n = 0, bound[2] = {0, 0}, places[GP_RL_MAX_CEILINGS];
    for (size_t i = 0; gp_probe_at(i); i++)
        for (size_t k = 0; k < gp_probe_at(i)->nroofs; k++) {
            const gp_probe_roof *r = &gp_probe_at(i)->roofs[k];
            GP_CHECK(n < GP_RL_MAX_CEILINGS && r->name && r->key);
            GP_CHECK(r->kind == GP_ROOF_FLOPS || r->kind == GP_ROOF_BYTES);
            for (int j = 0; j < n; j++)
                GP_CHECK(places[j] != r->place);
            places[n++] = r->place;
            bound[r->kind] += r->bound != 0;
        }
    GP_CHECK(bound[GP_ROOF_FLOPS] == 1 && bound[GP_ROOF_BYTES] == 1);
    return 0;
}

GP_TEST(report_h200_opens_with_datasheet_and_roofline)
{
    char src[600], tables[600], dir[] = "/tmp/gp_dsXXXXXX", cmd[1400], p[700];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    GP_CHECK(gp_test_source_path(tables, sizeof tables, "tables"));
    GP_CHECK(mkdtemp(dir) != NULL);
    /* The committed bench CSV is left behind: the roofline takes one bench
     * file, and this test's own (below) must be that one. */
    snprintf(cmd, sizeof cmd, "cp '%s'/*.json '%s'/*.csv '%s'/ && rm -f '%s'/bench_*.csv", src, src, dir, dir);
    GP_CHECK(system(cmd) == 0);
    /* A bench CSV as `gpuprobe bench` writes it: one gemm row at 60% of the
     * fp32 roof, one transpose row at 40% of DRAM (far below). */
    snprintf(p, sizeof p, "%s/bench_gemm_transpose.csv", dir);
    GP_CHECK(gp_test_write_text(
        p, "kernel,problem,impl,table,baseline,median_ms,min_ms,p10_ms,p90_ms,n,stable,floor_ms,speedup,params,"
           "ratio_median,ratio_p10,ratio_p90,rounds\n"
           "gemm,\"4096x4096x4096 NN row-major\",\"gpuprobe\",\"measured sm_90\",0,3.5,3.5,3.5,3.5,20,1,2.1,0.76,"
           "\"tile 128x128x8\",,,,\n"
           "transpose,\"8192x8192 fp32\",\"gpuprobe\",\"measured sm_90\",0,0.3092,0.3,0.3,0.31,20,1,0.12,0.4,\"\",,,,\n"));
    gp_report_opts o = {NULL, tables, NULL, NULL};
    gp_status st = gp_report_write_opts(dir, dir, &o);
    if (st.code != GP_OK)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = gp_test_read_text(p, NULL);
    GP_CHECK(md != NULL);
    /* The first sections: the datasheet, then the roofline, then the rest. */
    const char *h1 = strstr(md, "\n## "), *h2 = h1 ? strstr(h1 + 1, "\n## ") : NULL;
    GP_CHECK(h1 && !strncmp(h1, "\n## Datasheet\n", 14));
    GP_CHECK(h2 && !strncmp(h2, "\n## Roofline\n", 13));
    /* Measured beside published, with the source. */
    GP_CHECK(strstr(md, "| DRAM bandwidth | 4342 GB/s, 90.2% of 4814 GB/s peak |") != NULL);
    GP_CHECK(strstr(md, "| fp32 FMA rate | 65.3 TFLOP/s, 97.6% of peak |") != NULL);
    GP_CHECK(strstr(md, "| L1 latency | 32 cycles, 16.2 ns |") != NULL);
    /* The fetch granules are what the record measured, not "not measured"; the
     * L2 row stands beside the published 32 B sector, not as a sector. */
    GP_CHECK(strstr(md, "| L1 fetch granule (sector) | 32 B | line_bytes 128: CUDA C++ Programming Guide") != NULL);
    GP_CHECK(strstr(md, "| DRAM fetch granule (an L2 miss) | 64 B | sector_bytes 32: CUDA C++ Best Practices Guide") != NULL);
    GP_CHECK(strstr(md, "has no l1_line_bytes") == NULL && strstr(md, "has no l2_line_bytes") == NULL);
    GP_CHECK(strstr(md, "| fp32 FMA | 65.3 TFLOP/s |") != NULL);
    /* The points, their roofs and the one far below. */
    GP_CHECK(strstr(md, "points from `bench_gemm_transpose.csv`") != NULL);
    GP_CHECK(strstr(md, "| 1 | gemm | 4096x4096x4096 NN row-major | measured sm_90 | 3.5 ms |") != NULL);
    GP_CHECK(strstr(md, "60% (fp32 FMA)") != NULL);
    GP_CHECK(strstr(md, "| 2 | transpose | 8192x8192 fp32 | measured sm_90 | 0.3092 ms | no FLOPs |") != NULL);
    GP_CHECK(strstr(md, "#2 transpose 8192x8192 fp32: 40% of its DRAM roof") != NULL);
    GP_CHECK(strstr(md, "#1 gemm") == NULL);
    free(md);
    snprintf(p, sizeof p, "%s/roofline.svg", dir);
    char *svg = gp_test_read_text(p, NULL);
    GP_CHECK(svg != NULL);
    GP_CHECK(strstr(svg, ">fp32 FMA 65.3 TFLOP/s</text>") && strstr(svg, ">DRAM 4.34 TB/s</text>"));
    GP_CHECK(strstr(svg, ">gemm</text>") != NULL);     /* the legend */
    GP_CHECK(strstr(svg, "class=\"mark-text\"") != NULL);
    free(svg);
    return 0;
}

/* The center of each marker (class="pt") of an SVG, up to max. */
static int markers(const char *svg, double *x, double *y, int max)
{
    int n = 0;
    for (const char *p = svg; n < max && (p = strstr(p, "class=\"pt\"")) != NULL; p++) {
        const char *cx = strstr(p, " cx=\""), *rx = strstr(p, " x=\""), *pts = strstr(p, " points=\""),
                   *end = strchr(p, '>');
        if (pts && pts < end) { /* a polygon: the mean of its corners */
            double sx = 0, sy = 0, a, b;
            int k = 0, used;
            for (const char *c = pts + 9; sscanf(c, "%lf,%lf%n", &a, &b, &used) == 2; c += used, k++)
                sx += a, sy += b;
            if (k) {
                x[n] = sx / k;
                y[n++] = sy / k;
            }
        } else if (cx && cx < end) {
            x[n] = atof(cx + 5);
            y[n++] = atof(strstr(p, " cy=\"") + 5);
        } else if (rx && rx < end) {
            double w = atof(strstr(p, " width=\"") + 8);
            x[n] = atof(rx + 4) + w / 2;
            y[n++] = atof(strstr(p, " y=\"") + 4) + w / 2;
        }
    }
    return n;
}

GP_TEST(rel3_roofline_roofs_clipped_and_labels_clear_of_points)
{
    char src[1024], h100[1024], dir[] = "/tmp/gp_rel3_rlXXXXXX", p[300];
    GP_CHECK(gp_test_source_path(src, sizeof src, "docs/reports/h200"));
    GP_CHECK(gp_test_source_path(h100, sizeof h100, "docs/reports/h100"));
    GP_CHECK(mkdtemp(dir) != NULL);
    for (int against = 0; against < 2; against++) {
        gp_report_opts o = {against ? h100 : NULL, NULL, NULL, NULL};
        GP_CHECK(gp_report_write_opts(src, dir, &o).code == GP_OK);
        snprintf(p, sizeof p, "%s/report.md", dir);
        char *md = gp_test_read_text(p, NULL);
        GP_CHECK(md && !strstr(md, "bandwidth_gbs|lds") && strstr(md, "bandwidth_gbs or lds_bandwidth_gbs"));
        GP_CHECK(!strstr(md, "has no l1_line_bytes") && !strstr(md, "xnan"));
        free(md);
        snprintf(p, sizeof p, "%s/roofline.svg", dir);
        char *svg = gp_test_read_text(p, NULL);
        GP_CHECK(svg != NULL);
        /* Roofs: a flat line ends on a slanted one (where the roof turns), and
         * no slanted line starts above the highest flat one. */
        double fx[8], fy[8], sx0[8], sy0[8], sx1[8], sy1[8], top = 1e9;
        int nf = 0, ns = 0;
        for (const char *q = svg; (q = strstr(q, "points=\"")) != NULL; q++) {
            double x0, y0, x1, y1;
            int used = 0;
            if (sscanf(q + 8, "%lf,%lf %lf,%lf%n", &x0, &y0, &x1, &y1, &used) != 4 || q[8 + used] != '"')
                continue; /* a roof is two points (markers and legend keys are more) */
            if (y0 == y1 && nf < 8)
                fx[nf] = x1, fy[nf++] = y0, top = y0 < top ? y0 : top;
            else if (y0 != y1 && ns < 8)
                sx0[ns] = x0, sy0[ns] = y0, sx1[ns] = x1, sy1[ns++] = y1;
        }
        GP_CHECK(nf >= 2 && ns >= 2);
        for (int i = 0; i < nf; i++) {
            int meets = 0;
            for (int k = 0; k < ns; k++)
                if (fx[i] >= sx0[k] - 0.2 && fx[i] <= sx1[k] + 0.2)
                    meets |= fabs(sy0[k] + (fx[i] - sx0[k]) * (sy1[k] - sy0[k]) / (sx1[k] - sx0[k]) - fy[i]) < 0.6;
            GP_CHECK(meets);
        }
        for (int k = 0; k < ns; k++)
            GP_CHECK(sy0[k] >= top - 0.2);
        /* No label over a point: a text's box [x, x + 6.2 px a character] x
         * [y - 9, y + 2] holds no marker's center. */
        double mx[200], my[200];
        int nm = markers(svg, mx, my, 200);
        GP_CHECK(nm >= 10);
        int clash = 0;
        for (const char *q = svg; (q = strstr(q, "<text class=\"mark-text\" x=\"")) != NULL; q++) {
            double x = atof(q + 27), y = atof(strstr(q, " y=\"") + 4);
            const char *t = strchr(q, '>') + 1;
            double w = 6.2 * (double)(strchr(t, '<') - t);
            if (strstr(q, "text-anchor=\"end\"") && strstr(q, "text-anchor=\"end\"") < t)
                x -= w;
            for (int i = 0; i < nm; i++)
                clash += mx[i] > x && mx[i] < x + w && my[i] > y - 9 && my[i] < y + 2;
        }
        free(svg);
        GP_CHECK(clash == 0);
    }
    return 0;
}
