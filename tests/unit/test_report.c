/* The report writer: JSON reader, SVG plots, and the report from synthetic
 * and recorded (H200) results directories. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "csv.h"
#include "gp_test.h"
#include "json_read.h"
#include "record.h"
#include "report.h"
#include "svg.h"

/* ---- helpers ---- */

static int count(const char *hay, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
        n++;
    return n;
}

/* Remove a flat temporary directory and the files in it. */
static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        remove(p);
    }
    closedir(d);
    rmdir(dir);
}

/* Tags balanced (a small XML walk: no comments or CDATA are ever written). */
static int xml_balanced(const char *s)
{
    char stack[64][24];
    int depth = 0;
    for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
        if (p[1] == '?') {
            p = strstr(p, "?>");
            if (!p)
                return 0;
            continue;
        }
        const char *end = strchr(p, '>');
        if (!end)
            return 0;
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t n = strcspn(name, " \t\n/>");
        if (n == 0 || n >= sizeof stack[0])
            return 0;
        if (closing) {
            if (depth == 0 || strncmp(stack[depth - 1], name, n) || stack[depth - 1][n])
                return 0;
            depth--;
        } else if (end[-1] != '/') {
            if (depth == 64)
                return 0;
            memcpy(stack[depth], name, n);
            stack[depth++][n] = '\0';
        }
        p = end;
    }
    return depth == 0;
}

static int has_nan_text(const char *s)
{
    for (const char *p = s; *p; p++)
        if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3))
            return 1;
    return 0;
}

/* Render a plot into a heap string. */
static char *render(const gp_plot *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    gp_status st = gp_svg_plot(f, p);
    fclose(f);
    if (st.code != GP_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- JSON ---- */

GP_TEST(json_parses_valid)
{
    const char *text = "{\"a\": [1, -2.5e3, 0, 0.125], \"s\": \"x\\\"y\\\\z\\n\\u00e9\\ud83d\\ude00/\\/\","
                       " \"t\": true, \"f\": false, \"n\": null, \"o\": {\"k\": {}}, \"e\": []}";
    gp_json j;
    gp_status st = gp_json_parse(text, strlen(text), "t.json", &j);
    GP_CHECK(st.code == GP_OK);
    const gp_json *a = gp_json_get(&j, "a");
    GP_CHECK(a && a->type == GP_JSON_ARR && a->nkids == 4);
    GP_CHECK(a->kids[1].num == -2500 && a->kids[3].num == 0.125);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "s", ""), "x\"y\\z\n\xc3\xa9\xf0\x9f\x98\x80//"));
    GP_CHECK(gp_json_bool_of(&j, "t", 0) == 1 && gp_json_bool_of(&j, "f", 1) == 0);
    GP_CHECK(isnan(gp_json_num_of(&j, "n", 7)) && gp_json_num_of(&j, "missing", 7) == 7);
    GP_CHECK(gp_json_get(gp_json_get(&j, "o"), "k")->type == GP_JSON_OBJ);
    GP_CHECK(gp_json_get(&j, "e")->nkids == 0);
    GP_CHECK(gp_json_str_of(&j, "t", NULL) == NULL); /* wrong type gives the default */
    gp_json_free(&j);
    return 0;
}

GP_TEST(json_rejects_malformed)
{
    static const char *const bad[] = {
        "",           "{\"a\":1,}",   "[1 2]",     "{\"a\":NaN}",       "\"abc",      "01",
        "{\"a\":1} x", "\"a\tb\"",   "{a:1}",     "[1,]",              "-",          "1.",
        "1e",          "\"\\x\"",     "\"\\ud800\"", "{\"a\" 1}",       "tru",        "[",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_json j;
        gp_status st = gp_json_parse(bad[i], strlen(bad[i]), "bad.json", &j);
        if (st.code != GP_ERR_USAGE || strncmp(st.msg, "bad.json:1:", 11) != 0) {
            fprintf(stderr, "input %zu '%s': code %d msg '%s'\n", i, bad[i], st.code, st.msg);
            return 1;
        }
    }
    /* The position is the line and column where parsing stopped. */
    const char *text = "{\n  \"a\": tru\n}";
    gp_json j;
    gp_status st = gp_json_parse(text, strlen(text), "r.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "r.json:2:8:"));
    /* Deep nesting is refused, not a stack overflow. */
    char deep[400];
    memset(deep, '[', 300);
    deep[300] = '\0';
    st = gp_json_parse(deep, strlen(deep), "deep.json", &j);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "nesting"));
    GP_CHECK(gp_json_read_file("/nonexistent/x.json", &j).code == GP_ERR_IO);
    return 0;
}

GP_TEST(json_reads_a_record)
{
    char dir[] = "/tmp/gp_unit_jsonXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "Test \"GPU\" <1>");
    snprintf(dev.arch, sizeof dev.arch, "sm_90");
    dev.compute_units = 132;
    dev.wave_size = 32;
    gp_record r;
    gp_record_init(&r, "probe_x", &dev);
    gp_record_value(&r, "k1", 1.5, "GB/s", 0.01, "m\nline two");
    gp_record_none(&r, "k2", "B", "no knee");
    gp_record_note(&r, "tab\there");
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    char p[512];
    snprintf(p, sizeof p, "%s/probe_x.json", dir);
    gp_json j;
    GP_CHECK(gp_json_read_file(p, &j).code == GP_OK);
    GP_CHECK(!strcmp(gp_json_str_of(&j, "probe", ""), "probe_x"));
    const gp_json *d = gp_json_get(&j, "device");
    GP_CHECK(!strcmp(gp_json_str_of(d, "name", ""), "Test \"GPU\" <1>"));
    GP_CHECK(gp_json_num_of(d, "compute_units", 0) == 132);
    const gp_json *v = gp_json_get(&j, "values");
    GP_CHECK(v && v->nkids == 2);
    GP_CHECK(gp_json_num_of(&v->kids[0], "value", 0) == 1.5);
    GP_CHECK(!strcmp(gp_json_str_of(&v->kids[0], "method", ""), "m\nline two"));
    GP_CHECK(isnan(gp_json_num_of(&v->kids[1], "value", 0)) && !gp_json_bool_of(&v->kids[1], "detected", 1));
    GP_CHECK(!strcmp(gp_json_get(&j, "notes")->kids[0].str, "tab\there"));
    gp_json_free(&j);
    gp_record_free(&r);
    rm_dir(dir);
    return 0;
}

/* ---- SVG ---- */

GP_TEST(svg_well_formed)
{
    double x[6] = {1, 2, 3, 4, 5, 6}, y1[6] = {1, 4, NAN, 16, 25, 36}, y2[6] = {2, 3, 4, 5, INFINITY, 7};
    double xs[4] = {3, 1, 2, 5}, ys[4] = {1, 2, 3, 4}; /* not a sweep: markers only */
    gp_plot_series s[3] = {{"squares <&>", x, y1, 6, 0, 0}, {"line", x, y2, 6, 0, 0}, {"scatter", xs, ys, 4, 0, 0}};
    gp_plot p = {.title = "Title & \"quotes\"", .xlabel = "x <units>", .ylabel = "y", .series = s, .nseries = 3};
    char *out = render(&p);
    GP_CHECK(out != NULL);
    GP_CHECK(!strncmp(out, "<svg", 4));
    GP_CHECK(xml_balanced(out));
    GP_CHECK(count(out, "<polyline") == 2);
    GP_CHECK(count(out, "class=\"pt\"") == 5 + 5 + 4);
    GP_CHECK(!has_nan_text(out));
    GP_CHECK(strstr(out, "Title &amp; &quot;quotes&quot;") && strstr(out, "x &lt;units&gt;"));
    GP_CHECK(strstr(out, "squares &lt;&amp;&gt;")); /* legend */
    free(out);
    GP_CHECK(gp_svg_plot(stdout, NULL).code == GP_ERR_USAGE);
    return 0;
}

static int is_nice_step(double step)
{
    double mag = pow(10, floor(log10(step) + 1e-9));
    double r = step / mag;
    return fabs(r - 1) < 1e-6 || fabs(r - 2) < 1e-6 || fabs(r - 5) < 1e-6 || fabs(r - 10) < 1e-6;
}

GP_TEST(svg_nice_ticks)
{
    double t[GP_SVG_MAX_TICKS], lo, hi;
    int n = gp_svg_ticks(0.3, 9.7, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n == 6 && t[0] == 0 && t[5] == 10 && lo == 0 && hi == 10);
    GP_CHECK_NEAR(t[1], 2, 1e-12);
    n = gp_svg_ticks(-0.013, 0.051, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 3 && lo <= -0.013 && hi >= 0.051);
    unsigned long long seed = 42;
    for (int k = 0; k < 500; k++) {
        double a = (gp_test_rand(&seed) - 0.5) * pow(10, 12 * gp_test_rand(&seed) - 6);
        double b = a + gp_test_rand(&seed) * pow(10, 12 * gp_test_rand(&seed) - 6);
        n = gp_svg_ticks(a, b, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
        GP_CHECK(n >= 2 && n <= GP_SVG_MAX_TICKS);
        double step = t[1] - t[0];
        /* The axis holds the data up to float noise (1e-9 of a step is invisible). */
        GP_CHECK(lo <= a + 1e-8 * step && hi >= b - 1e-8 * step && t[0] == lo);
        if (step < 1e-9 * fabs(a))
            continue; /* differences of large numbers: the step is only known to float precision */
        GP_CHECK(is_nice_step(step));
        for (int i = 1; i < n; i++)
            GP_CHECK(fabs(t[i] - t[i - 1] - step) <= 1e-6 * step);
    }
    char s[32];
    gp_svg_format(s, sizeof s, 0.1 + 0.2, 0.1);
    GP_CHECK(!strcmp(s, "0.3"));
    gp_svg_format(s, sizeof s, 20000, 5000);
    GP_CHECK(!strcmp(s, "20k"));
    gp_svg_format(s, sizeof s, 1e9, 0);
    GP_CHECK(!strcmp(s, "1G"));
    gp_svg_format(s, sizeof s, 1e-6, 0);
    GP_CHECK(!strcmp(s, "1e-6"));
    gp_svg_format(s, sizeof s, 1e-17, 0.2);
    GP_CHECK(!strcmp(s, "0"));
    return 0;
}

GP_TEST(svg_log_axis)
{
    double t[GP_SVG_MAX_TICKS], lo, hi;
    int n = gp_svg_ticks(1024, 1 << 30, 1, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 5 && lo <= 1024 && hi >= (1 << 30));
    for (int i = 0; i < n; i++)
        GP_CHECK_NEAR(log10(t[i]), round(log10(t[i])), 1e-9); /* decades */
    n = gp_svg_ticks(3, 400, 1, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    int has10 = 0, has200 = 0;
    for (int i = 0; i < n; i++) {
        GP_CHECK(t[i] >= lo && t[i] <= hi);
        has10 |= fabs(t[i] - 10) < 1e-9;
        has200 |= fabs(t[i] - 200) < 1e-9;
    }
    GP_CHECK(has10 && has200);
    /* Narrower than a decade: still at least two ticks inside. */
    n = gp_svg_ticks(120, 180, 1, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 2 && t[0] >= lo && t[n - 1] <= hi);
    /* A footprint sweep on log x: the non-positive x is skipped, not plotted at -inf. */
    double x[5] = {0, 1e3, 1e5, 1e7, 1e9}, y[5] = {5, 30, 200, 600, 700};
    gp_plot_series s = {"lat", x, y, 5, 0, 0};
    gp_plot p = {.title = "Latency vs footprint", .xlabel = "footprint_bytes", .ylabel = "cycles", .logx = 1,
                 .series = &s, .nseries = 1};
    char *out = render(&p);
    GP_CHECK(out && xml_balanced(out) && !has_nan_text(out));
    GP_CHECK(count(out, "class=\"pt\"") == 4);
    GP_CHECK(strstr(out, "(log scale)") && strstr(out, ">1M<") && strstr(out, ">1G<"));
    free(out);
    /* Log requested but nothing positive: a linear axis instead. */
    double yn[5] = {-1, -2, -3, -4, -5};
    s.y = yn;
    p.logx = 0;
    p.logy = 1;
    out = render(&p);
    GP_CHECK(out && !strstr(out, "(log scale)") && count(out, "class=\"pt\"") == 5 && !has_nan_text(out));
    free(out);
    return 0;
}

GP_TEST(svg_degenerate_range)
{
    double t[GP_SVG_MAX_TICKS], lo, hi;
    int n = gp_svg_ticks(5, 5, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 2 && lo < 5 && hi > 5 && isfinite(lo) && isfinite(hi));
    n = gp_svg_ticks(0, 0, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 2 && lo < 0 && hi > 0);
    n = gp_svg_ticks(7, 7, 1, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 1 && lo < 7 && hi > 7);
    n = gp_svg_ticks(NAN, INFINITY, 0, 5, t, GP_SVG_MAX_TICKS, &lo, &hi);
    GP_CHECK(n >= 2 && isfinite(lo) && isfinite(hi) && hi > lo);
    /* One point; all equal; all NaN; no series at all. */
    double x1[1] = {3}, y1[1] = {3}, xe[4] = {1, 2, 3, 4}, ye[4] = {2, 2, 2, 2};
    double xn[2] = {NAN, NAN}, yn[2] = {1, NAN};
    gp_plot_series s[3] = {{"one", x1, y1, 1, 0, 0}, {"flat", xe, ye, 4, 0, 0}, {"nan", xn, yn, 2, 0, 0}};
    for (int k = 0; k < 4; k++) {
        gp_plot p = {.title = "degenerate", .xlabel = "x", .ylabel = "y", .logx = k == 1, .logy = k == 1,
                     .series = k < 3 ? &s[k] : NULL, .nseries = k < 3 ? 1 : 0};
        char *out = render(&p);
        GP_CHECK(out && !strncmp(out, "<svg", 4) && xml_balanced(out) && !has_nan_text(out));
        GP_CHECK(count(out, "class=\"pt\"") == (k == 0 ? 1 : k == 1 ? 4 : 0));
        GP_CHECK(k < 2 || strstr(out, "no plottable data"));
        free(out);
    }
    return 0;
}

/* ---- the report ---- */

static void fake_dev(gp_device_info *dev)
{
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "Synthetic GPU");
    snprintf(dev->vendor, sizeof dev->vendor, "NVIDIA");
    snprintf(dev->arch, sizeof dev->arch, "sm_90");
    dev->compute_units = 132;
    dev->wave_size = 32;
    dev->core_clock_mhz = 1980;
}

static const char *const sections[] = {"Device", "Clocks", "Summary", "Unstable or undetected results", "Probes",
                                       "Tuning table"};

GP_TEST(report_from_synthetic_dir)
{
    char dir[] = "/tmp/gp_unit_reportXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char out[600], p[700];
    snprintf(out, sizeof out, "%s/out", dir);
    gp_device_info dev;
    fake_dev(&dev);

    gp_record a;
    gp_record_init(&a, "cache_latency", &dev);
    a.have_clock = 1;
    a.clock_before.measured_mhz = 1980;
    a.clock_after.measured_mhz = 1700;
    a.clock_after.timer_vs_event = 1.0;
    a.clock_moved = 1;
    gp_record_value(&a, "l1_latency", 33, "cycles", 0.01, "pointer chase, median of 9");
    gp_value *u = gp_record_value(&a, "l2_latency", 260, "cycles", 0.4, "pointer chase");
    u->unstable = 1;
    gp_record_none(&a, "l2_size", "B", "no knee in the latency curve");
    gp_record_note(&a, "L1 <= 256 KiB & knee at 32 KiB");
    gp_series *s = gp_record_series(&a, "sweep", "footprint_bytes,cycles,spread");
    for (int i = 0; i < 20; i++) {
        double row[3] = {1024.0 * pow(2, i), i < 8 ? 33 : i < 15 ? 260 : 600, 0.01};
        GP_CHECK(gp_series_append(s, row).code == GP_OK);
    }
    GP_CHECK(gp_record_write(&a, dir).code == GP_OK);

    gp_record b;
    gp_record_init(&b, "atomics", &dev);
    gp_record_value(&b, "x", 1, "", -1, "m");
    gp_series *s1 = gp_record_series(&b, "present", "a,b,c");
    gp_record_series(&b, "gone", "a,b");
    for (int i = 0; i < 5; i++) {
        double row[3] = {7, i * 2.0, i * i * 1.5}; /* first column constant: x must be b */
        GP_CHECK(gp_series_append(s1, row).code == GP_OK);
    }
    GP_CHECK(gp_record_write(&b, dir).code == GP_OK);
    snprintf(p, sizeof p, "%s/atomics_gone.csv", dir);
    GP_CHECK(remove(p) == 0);
    snprintf(p, sizeof p, "%s/table.txt", dir);
    gp_test_write_text(p, "# tuning table <test>\nkernel gemm tile 64\n");

    gp_status st = gp_report_write(dir, out);
    if (st.code != GP_OK)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    snprintf(p, sizeof p, "%s/report.html", out);
    char *html = gp_test_read_text(p, NULL);
    GP_CHECK(html != NULL);
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char hd[80];
        snprintf(hd, sizeof hd, "\">%s</h2>", sections[i]);
        if (!strstr(html, hd)) {
            fprintf(stderr, "missing section %s\n", sections[i]);
            return 1;
        }
    }
    /* The two series' plots and the roofline (ceilings alone here). */
    GP_CHECK(count(html, "<svg") == 2 + 1 && count(html, "</svg>") == 2 + 1);
    GP_CHECK(strstr(html, "Synthetic GPU") && strstr(html, "sm_90") && strstr(html, "132"));
    GP_CHECK(strstr(html, "no knee in the latency curve") && strstr(html, "unstable"));
    GP_CHECK(strstr(html, "clock moved") && strstr(html, "atomics_gone.csv"));
    GP_CHECK(strstr(html, "L1 &lt;= 256 KiB &amp; knee"));
    GP_CHECK(strstr(html, "# tuning table &lt;test&gt;\nkernel gemm tile 64"));
    GP_CHECK(strstr(html, "Latency vs footprint (sweep)"));  /* the spec matched */
    GP_CHECK(strstr(html, "atomics present: c vs b"));    /* generic fallback skips constant a */
    GP_CHECK(count(html, "http") == count(html, "xmlns=\"http://www.w3.org/2000/svg\"")); /* no external resources */
    GP_CHECK(!strstr(html, "<script") && !strstr(html, "<link"));
    free(html);

    snprintf(p, sizeof p, "%s/report.md", out);
    char *md = gp_test_read_text(p, NULL);
    GP_CHECK(md != NULL);
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char hd[80];
        snprintf(hd, sizeof hd, "\n## %s\n", sections[i]);
        GP_CHECK(strstr(md, hd));
    }
    GP_CHECK(strstr(md, "](cache_latency_sweep.svg)") && strstr(md, "](atomics_present.svg)"));
    GP_CHECK(strstr(md, "```\n# tuning table <test>\nkernel gemm tile 64\n```\n"));
    free(md);
    snprintf(p, sizeof p, "%s/cache_latency_sweep.svg", out);
    char *svg = gp_test_read_text(p, NULL);
    GP_CHECK(svg && xml_balanced(svg) && count(svg, "class=\"pt\"") == 20 && strstr(svg, "(log scale)"));
    free(svg);
    gp_record_free(&a);
    gp_record_free(&b);
    rm_dir(out);
    rm_dir(dir);
    return 0;
}

GP_TEST(report_errors)
{
    char dir[] = "/tmp/gp_unit_reperrXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_status st = gp_report_write(dir, dir);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, dir) && strstr(st.msg, "no probe records"));
    st = gp_report_write("/nonexistent/results", "/tmp");
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "/nonexistent/results"));
    char p[600];
    snprintf(p, sizeof p, "%s/broken.json", dir);
    gp_test_write_text(p, "{\n  \"probe\": \"broken\",\n  \"values\": [1,]\n}\n");
    st = gp_report_write(dir, dir);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "broken.json:3:")); /* file and position */
    /* JSON that is not a record: none left, still a usage error. */
    gp_test_write_text(p, "[1, 2]");
    st = gp_report_write(dir, dir);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, dir));
    snprintf(p, sizeof p, "%s/report.html", dir);
    GP_CHECK(access(p, F_OK) != 0);
    rm_dir(dir);
    return 0;
}

/* The H200 launch-rate series (tests/data/h200) through the whole report. */
GP_TEST(report_h200_launch_rate)
{
    char data[512];
    if (!gp_test_source_path(data, sizeof data, "tests/data/h200"))
        return 1;
    char dir[] = "/tmp/gp_unit_h200XXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info dev;
    fake_dev(&dev);
    snprintf(dev.name, sizeof dev.name, "NVIDIA H200");
    gp_record r;
    gp_record_init(&r, "launch_rate", &dev);
    static const char *const names[3] = {"1d", "2d", "3d"};
    size_t rows[3];
    for (int k = 0; k < 3; k++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/launch_rate_%s.csv", data, names[k]);
        gp_series in;
        gp_status st = gp_csv_read(p, &in);
        if (st.code != GP_OK)
            fprintf(stderr, "%s\n", st.msg);
        GP_CHECK(st.code == GP_OK);
        char cols[GP_SERIES_MAX_COLS * 33] = "";
        for (int c = 0; c < in.ncols; c++)
            snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%s", c ? "," : "", in.cols[c]);
        gp_series *s = gp_record_series(&r, names[k], cols);
        GP_CHECK(s && s->ncols == in.ncols);
        for (size_t i = 0; i < in.nrows; i++)
            GP_CHECK(gp_series_append(s, in.data + i * (size_t)in.ncols).code == GP_OK);
        rows[k] = in.nrows;
        free(in.data);
    }
    gp_record_value(&r, "blocks_per_cycle", 0.84, "blocks/cycle", 0.001, "median of threads_per_cycle/threads");
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    GP_CHECK(gp_report_write(dir, dir).code == GP_OK);
    char p[700];
    snprintf(p, sizeof p, "%s/report.html", dir);
    char *html = gp_test_read_text(p, NULL);
    GP_CHECK(html && count(html, "<svg") == 3 + 1 && count(html, "Launch rate vs block size (") == 3 * 2); /* + roofline */
    GP_CHECK(count(html, "class=\"pt\"") == (int)(rows[0] + rows[1] + rows[2]));
    free(html);
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "%s/launch_rate_%s.svg", dir, names[k]);
        char *svg = gp_test_read_text(p, NULL);
        GP_CHECK(svg && xml_balanced(svg) && !has_nan_text(svg));
        GP_CHECK(count(svg, "<polyline") == 1 && count(svg, "class=\"pt\"") == (int)rows[k]);
        GP_CHECK(strstr(svg, "threads per block") && strstr(svg, ">1000<"));
        free(svg);
    }
    gp_record_free(&r);
    rm_dir(dir);
    return 0;
}

/* Two series whose names sanitize alike get distinct plot files; a long
 * sweep is drawn as a line without thousands of markers; a second record
 * of the probe under another name (a renamed copy) is refused, named. */
GP_TEST(report_series_names_alike_and_long_series)
{
    char dir[] = "/tmp/gp_unit_repdupXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info dev;
    fake_dev(&dev);
    gp_record r;
    gp_record_init(&r, "launch_rate", &dev);
    gp_series *s = gp_record_series(&r, "lo ng", "i,y");
    gp_series *s2 = gp_record_series(&r, "lo_ng", "i,y");
    for (int i = 0; i < 1000; i++) {
        double row[2] = {i, sin(i / 50.0)};
        GP_CHECK(gp_series_append(s, row).code == GP_OK && gp_series_append(s2, row).code == GP_OK);
    }
    GP_CHECK(gp_record_write(&r, dir).code == GP_OK);
    GP_CHECK(gp_report_write(dir, dir).code == GP_OK);
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/launch_rate_lo_ng.svg", dir);
    snprintf(b, sizeof b, "%s/launch_rate_lo_ng_2.svg", dir);
    char *s1 = gp_test_read_text(a, NULL), *t2 = gp_test_read_text(b, NULL);
    GP_CHECK(s1 && t2 && xml_balanced(s1));
    GP_CHECK(count(s1, "<polyline") == 1 && count(s1, "class=\"pt\"") == 0);
    free(s1);
    free(t2);
    snprintf(a, sizeof a, "%s/report.md", dir);
    char *md = gp_test_read_text(a, NULL);
    GP_CHECK(md && strstr(md, "](launch_rate_lo_ng.svg)") && strstr(md, "](launch_rate_lo_ng_2.svg)"));
    free(md);
    /* The same record again as launch_rate_rerun.json: which one counts would be a guess. */
    snprintf(a, sizeof a, "%s/launch_rate.json", dir);
    snprintf(b, sizeof b, "%s/launch_rate_rerun.json", dir);
    char *json = gp_test_read_text(a, NULL);
    GP_CHECK(json && gp_test_write_text(b, json));
    free(json);
    gp_status st = gp_report_write(dir, dir);
    GP_CHECK(st.code == GP_ERR_USAGE && strstr(st.msg, "launch_rate_rerun.json") &&
             strstr(st.msg, "not named launch_rate.json"));
    gp_record_free(&r);
    rm_dir(dir);
    return 0;
}

/* ---- bar charts, power-of-two axes, split series ---- */

/* Points of the idx-th <polyline> (-1 when absent); *monotonic: x never falls. */
static int polyline_points(const char *svg, int idx, int *monotonic)
{
    const char *p = svg;
    for (int i = 0; i <= idx; i++) {
        p = strstr(p, "<polyline");
        if (!p)
            return -1;
        p++;
    }
    p = strstr(p, "points=\"");
    if (!p)
        return -1;
    p += 8;
    int n = 0;
    double prev = -INFINITY;
    *monotonic = 1;
    while (*p && *p != '"') {
        char *end;
        double x = strtod(p, &end);
        if (end == p || *end != ',')
            return -1;
        strtod(end + 1, &end);
        *monotonic &= x >= prev;
        prev = x;
        n++;
        p = end;
        while (*p == ' ')
            p++;
    }
    return n;
}

GP_TEST(svg_bars_chart)
{
    const char *cats[3] = {"alpha", "beta <b>",
                           "gamma, a category label far too long for the left margin of any chart that is drawn"};
    double v1[3] = {1, 10, NAN}, v2[3] = {100, 0.5, 8348.9};
    gp_bar_group g[2] = {{"first", v1}, {"second & co", v2}};
    gp_bars b = {.title = "Bars", .vlabel = "rate (Gop/s)", .logv = 1, .cats = cats, .ncats = 3, .groups = g,
                 .ngroups = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    GP_CHECK(f && gp_svg_bars(f, &b).code == GP_OK);
    fclose(f);
    GP_CHECK(xml_balanced(buf) && !has_nan_text(buf));
    GP_CHECK(count(buf, "class=\"bar\"") == 5);           /* the NaN draws nothing */
    GP_CHECK(count(buf, "class=\"key\"") == 2);           /* legend: two groups */
    GP_CHECK(strstr(buf, "rate (Gop/s, log scale)") && strstr(buf, ">8349<") && strstr(buf, ">0.5<"));
    GP_CHECK(strstr(buf, "beta &lt;b&gt;") && strstr(buf, "second &amp; co"));
    GP_CHECK(!strstr(buf, "drawn") && strstr(buf, "\xe2\x80\xa6")); /* the long label is cut with an ellipsis */
    free(buf);

    /* One group, linear: no legend, bars from zero. */
    b.logv = 0;
    b.ngroups = 1;
    b.ncats = 2;
    buf = NULL;
    f = open_memstream(&buf, &len);
    GP_CHECK(f && gp_svg_bars(f, &b).code == GP_OK);
    fclose(f);
    GP_CHECK(xml_balanced(buf) && count(buf, "class=\"bar\"") == 2 && count(buf, "class=\"key\"") == 0);
    GP_CHECK(!strstr(buf, "log scale") && strstr(buf, ">0<"));
    free(buf);

    /* Nothing to draw is a plot saying so; bad arguments are errors. */
    b.ncats = 0;
    buf = NULL;
    f = open_memstream(&buf, &len);
    GP_CHECK(f && gp_svg_bars(f, &b).code == GP_OK);
    fclose(f);
    GP_CHECK(xml_balanced(buf) && strstr(buf, "no plottable data"));
    free(buf);
    GP_CHECK(gp_svg_bars(stdout, NULL).code == GP_ERR_USAGE);
    gp_bar_group bad = {"x", NULL};
    gp_bars bb = {.title = "t", .cats = cats, .ncats = 1, .groups = &bad, .ngroups = 1};
    GP_CHECK(gp_svg_bars(stdout, &bb).code == GP_ERR_USAGE);
    return 0;
}

GP_TEST(svg_pow2_axes_and_options)
{
    /* Footprints 1 KiB .. 4 GiB: ticks on KiB/MiB/GiB, not on decades of bytes. */
    double x[23], y[23];
    for (int i = 0; i < 23; i++) {
        x[i] = 1024.0 * pow(2, i);
        y[i] = 100 + i;
    }
    gp_plot_series s = {"lat", x, y, 23, 0, 0};
    gp_plot p = {.title = "t", .xlabel = "footprint (bytes)", .ylabel = "latency (cycles)", .logx = 1, .xbytes = 1,
                 .series = &s, .nseries = 1};
    char *out = render(&p);
    GP_CHECK(out && xml_balanced(out));
    GP_CHECK(strstr(out, ">1 KiB<") && strstr(out, ">1 MiB<") && strstr(out, ">1 GiB<") && !strstr(out, ">1000<"));
    GP_CHECK(strstr(out, "footprint (bytes, log scale)") && strstr(out, ">latency (cycles)<"));
    /* No yzero: the y axis hugs 100..122. */
    GP_CHECK(!strstr(out, "text-anchor=\"end\" fill=\"#333\">0<"));
    free(out);
    p.yzero = 1;
    out = render(&p);
    GP_CHECK(out && strstr(out, "text-anchor=\"end\" fill=\"#333\">0<"));
    free(out);

    /* Conflict degrees 1..32 on a power-of-two log axis, markers only. */
    double sx[6] = {1, 2, 3, 4, 5, 32}, sy[6] = {1, 2, 1, 4, 1, 32};
    gp_plot_series ss[2] = {{"4-byte", sx, sy, 6, 0, 0}, {"8-byte", sx, sy, 5, 0, 0}};
    gp_plot q = {.title = "deg", .xlabel = "stride", .ylabel = "degree (ways)", .logy = 1, .ypow2 = 1,
                 .points_only = 1, .series = ss, .nseries = 2};
    out = render(&q);
    GP_CHECK(out && xml_balanced(out) && count(out, "<polyline") == 0 && count(out, "class=\"pt\"") == 11);
    GP_CHECK(strstr(out, "fill=\"#333\">16<") && strstr(out, "fill=\"#333\">32<"));
    GP_CHECK(!strstr(out, "text-anchor=\"end\" fill=\"#333\">20<")); /* y: no 1-2-5 ticks */
    GP_CHECK(strstr(out, "degree (ways, log scale)"));
    free(out);

    /* A legend too long for one row wraps instead of running off the plot. */
    gp_plot_series many[5];
    const char *names[5] = {"read", "write", "copy", "triad", "read, blocks rotating over the data (no L1 reuse)"};
    for (int i = 0; i < 5; i++)
        many[i] = (gp_plot_series){names[i], x, y, 23, 0, 0};
    gp_plot m = {.title = "bw", .xlabel = "x", .ylabel = "y", .series = many, .nseries = 5};
    out = render(&m);
    GP_CHECK(out && count(out, "class=\"key\"") == 5);
    /* The fifth key sits on the second legend row (y = 38 + 18). */
    GP_CHECK(strstr(out, "cy=\"56.0\""));
    free(out);
    return 0;
}

/* Append rows to a record series. */
static int add_rows(gp_series *s, const double *rows, int nrows)
{
    for (int i = 0; i < nrows; i++)
        if (gp_series_append(s, rows + (size_t)i * (size_t)s->ncols).code != GP_OK)
            return 0;
    return 1;
}

static char *read_in(const char *dir, const char *name)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return gp_test_read_text(p, NULL);
}

/* The cached and the L1-bypass sweeps of cache_latency are two lines with a
 * legend, each sorted by footprint, however the rows interleave; a filter
 * keeps only the rows it names; an unnamed split value gets col=value. */
GP_TEST(report_split_series)
{
    char dir[] = "/tmp/gp_unit_splitXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info dev;
    fake_dev(&dev);
    gp_record a;
    gp_record_init(&a, "cache_latency", &dev);
    gp_series *s = gp_record_series(&a, "footprint", "bytes,bypass_l1,cycles_per_load,ns_per_load,spread");
    GP_CHECK(s != NULL);
    /* Bypass rows first and interleaved, bypassed footprints descending. */
    int ncached = 0, nbypass = 0;
    for (int i = 0; i < 16; i++) {
        if (i < 11) {
            double row[5] = {1024.0 * pow(2, 10 - i), 1, 280, 141, 0.001};
            GP_CHECK(add_rows(s, row, 1));
            nbypass++;
        }
        double row[5] = {1024.0 * pow(2, i), 0, i < 8 ? 32 : 280, i < 8 ? 16 : 141, 0.001};
        GP_CHECK(add_rows(s, row, 1));
        ncached++;
    }
    GP_CHECK(gp_record_write(&a, dir).code == GP_OK);

    gp_record b;
    gp_record_init(&b, "memory_bandwidth", &dev);
    gp_series *w = gp_record_series(&b, "sweep", "kernel,vec_bytes,block,blocks,footprint_bytes,gbs,spread,passes,"
                                               "ms_median,blocks_per_cu,unroll,hint");
    GP_CHECK(w != NULL);
    int kept = 0;
    for (int k = 0; k < 2; k++)
        for (int vec = 4; vec <= 32; vec *= 2)
            for (int blk = 256; blk <= 512; blk *= 2)
                for (int i = 0; i < 5; i++) {
                    double row[12] = {k, vec, blk, 1056, 1048576.0 * pow(4, i), 1000.0 * vec + i, 0.01, 10, 1,
                                      8, 1, 0};
                    GP_CHECK(add_rows(w, row, 1));
                    kept += k == 0 && blk == 256;
                }
    GP_CHECK(gp_record_write(&b, dir).code == GP_OK);
    GP_CHECK(gp_report_write(dir, dir).code == GP_OK);

    char *svg = read_in(dir, "cache_latency_footprint.svg");
    GP_CHECK(svg && xml_balanced(svg) && !has_nan_text(svg));
    int mono0, mono1;
    GP_CHECK(count(svg, "<polyline") == 2);
    GP_CHECK(polyline_points(svg, 0, &mono0) == ncached && mono0);
    GP_CHECK(polyline_points(svg, 1, &mono1) == nbypass && mono1);
    GP_CHECK(count(svg, "class=\"pt\"") == ncached + nbypass && count(svg, "class=\"key\"") == 2);
    const char *c = strstr(svg, ">cached loads (L1 and L2)<"), *by = strstr(svg, ">L1 bypassed (L2 and DRAM)<");
    GP_CHECK(c && by && c < by); /* legend in key order (0 then 1), not in order of appearance */
    GP_CHECK(strstr(svg, "footprint (bytes, log scale)") && strstr(svg, "latency (cycles per load)"));
    GP_CHECK(strstr(svg, ">1 KiB<") && strstr(svg, ">Load latency vs footprint (pointer chase)<"));
    free(svg);

    svg = read_in(dir, "memory_bandwidth_sweep.svg");
    GP_CHECK(svg && xml_balanced(svg));
    GP_CHECK(count(svg, "<polyline") == 4 && count(svg, "class=\"pt\"") == kept);
    GP_CHECK(strstr(svg, ">4-byte loads<") && strstr(svg, ">8-byte loads<") && strstr(svg, ">16-byte loads<"));
    GP_CHECK(strstr(svg, ">vec_bytes=32<")); /* a value the spec does not name */
    free(svg);
    gp_record_free(&a);
    gp_record_free(&b);
    rm_dir(dir);

    /* Without the split column the footprint series is one unlabelled line
     * (the probe's generic spec), not an error. */
    char dir2[] = "/tmp/gp_unit_split2XXXXXX";
    GP_CHECK(mkdtemp(dir2) != NULL);
    gp_record_init(&a, "cache_latency", &dev);
    s = gp_record_series(&a, "footprint", "bytes,cycles_per_load");
    for (int i = 0; i < 6; i++) {
        double row[2] = {1024.0 * pow(2, i), 30.0 + i};
        GP_CHECK(add_rows(s, row, 1));
    }
    GP_CHECK(gp_record_write(&a, dir2).code == GP_OK);
    GP_CHECK(gp_report_write(dir2, dir2).code == GP_OK);
    svg = read_in(dir2, "cache_latency_footprint.svg");
    GP_CHECK(svg && count(svg, "<polyline") == 1 && count(svg, "class=\"key\"") == 0);
    GP_CHECK(strstr(svg, ">Latency vs footprint (footprint)<"));
    free(svg);
    gp_record_free(&a);
    rm_dir(dir2);
    return 0;
}

/* Count the data rows of a CSV where column `col` equals v (v NAN: all rows). */
static int csv_rows(const char *path, const char *col, double v)
{
    gp_series s;
    if (gp_csv_read(path, &s).code != GP_OK)
        return -1;
    int c = -1, n = 0;
    for (int i = 0; i < s.ncols; i++)
        if (!strcmp(s.cols[i], col))
            c = i;
    for (size_t r = 0; r < s.nrows; r++)
        n += isnan(v) || (c >= 0 && s.data[r * (size_t)s.ncols + (size_t)c] == v);
    free(s.data);
    return c < 0 && !isnan(v) ? -1 : n;
}

/* The committed H200 results: every section, every probe, every plot the
 * characterization asks for, with axis labels and units, and the split
 * footprint sweep as two lines. */
GP_TEST(report_h200_sections_and_plots)
{
    char src[512];
    if (!gp_test_source_path(src, sizeof src, "docs/reports/h200"))
        return 1;
    char out[] = "/tmp/gp_unit_h200repXXXXXX";
    GP_CHECK(mkdtemp(out) != NULL);
    gp_status st = gp_report_write(src, out);
    if (st.code != GP_OK)
        fprintf(stderr, "%s\n", st.msg);
    GP_CHECK(st.code == GP_OK);
    char *html = read_in(out, "report.html"), *md = read_in(out, "report.md");
    GP_CHECK(html && md);

    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char hd[80];
        snprintf(hd, sizeof hd, "\">%s</h2>", sections[i]);
        GP_CHECK(strstr(html, hd));
        snprintf(hd, sizeof hd, "\n## %s\n", sections[i]);
        GP_CHECK(strstr(md, hd));
    }
    /* Every link of the navigation bar lands on a heading. */
    const char *nav = strstr(html, "<nav>"), *nav_end = strstr(html, "</nav>");
    GP_CHECK(nav && nav_end);
    int links = 0;
    for (const char *p = strstr(nav, "href=\"#"); p && p < nav_end; p = strstr(p + 1, "href=\"#")) {
        char id[80];
        size_t n = strcspn(p + 7, "\"");
        GP_CHECK(n > 0 && n < 60);
        snprintf(id, sizeof id, "id=\"%.*s\">", (int)n, p + 7);
        if (!strstr(html, id)) {
            fprintf(stderr, "nav link without a target: %s\n", id);
            return 1;
        }
        links++;
    }
    GP_CHECK(links >= (int)(sizeof sections / sizeof sections[0]));

    static const char *const probes[] = {"atomics", "cache_latency", "channel_conflicts", "divergence",
                                         "fma_throughput", "launch_rate", "lds", "math_functions",
                                         "memory_bandwidth", "register_limits"};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        char id[80];
        snprintf(id, sizeof id, "<h3 id=\"probe-%s\">", probes[i]);
        GP_CHECK(strstr(html, id));
    }

    /* One plot per series CSV, inline in the HTML and as a file the Markdown links. */
    int ncsv = 0;
    DIR *d = opendir(src);
    GP_CHECK(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".csv") || !strncmp(e->d_name, "bench_", 6))
            continue; /* bench CSVs are the roofline's points, not series */
        ncsv++;
        char svgname[300], link[320];
        snprintf(svgname, sizeof svgname, "%.*s.svg", (int)(n - 4), e->d_name);
        snprintf(link, sizeof link, "](%s)", svgname);
        char *svg = read_in(out, svgname);
        if (!svg || !xml_balanced(svg) || !strstr(md, link)) {
            fprintf(stderr, "plot %s missing, malformed or not linked\n", svgname);
            free(svg);
            return 1;
        }
        GP_CHECK(!strstr(svg, "no plottable data"));
        free(svg);
    }
    closedir(d);
    /* One plot per series, and the roofline. */
    GP_CHECK(ncsv >= 19 && count(html, "<svg") == ncsv + 1 && count(html, "</svg>") == ncsv + 1);

    /* The plots the characterization names: title, axis labels with units. */
    static const struct {
        const char *file, *title, *xlabel, *ylabel;
    } want[] = {
        {"cache_latency_footprint.svg", "Load latency vs footprint", "footprint (bytes, log scale)",
         "latency (cycles per load)"},
        {"memory_bandwidth_best.svg", "Bandwidth vs footprint", "footprint (bytes, log scale)", "bandwidth (GB/s)"},
        {"launch_rate_1d.svg", "Launch rate vs block size", "threads per block", "threads launched per cycle"},
        {"fma_throughput_one_cu.svg", "FMA per cycle vs threads", "threads in the block", "FMA per cycle (one CU)"},
        {"fma_throughput_chip.svg", "FMA per cycle vs blocks", ">blocks<", "FMA per cycle (chip)"},
        {"lds_conflicts.svg", "bank-conflict degree vs stride", "stride (elements", "conflict degree (ways"},
        {"channel_conflicts_window.svg", "Bandwidth vs channel window", "(bytes, log scale)", "bandwidth (GB/s)"},
        {"register_limits_occupancy.svg", "Occupancy vs registers", "registers per thread", "waves per CU"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char *svg = read_in(out, want[i].file);
        if (!svg || !strstr(svg, want[i].title) || !strstr(svg, want[i].xlabel) || !strstr(svg, want[i].ylabel)) {
            fprintf(stderr, "%s: missing title or axis label\n", want[i].file);
            free(svg);
            return 1;
        }
        GP_CHECK(strstr(html, want[i].title));
        free(svg);
    }

    /* The footprint sweep: cached and L1-bypassed rows as two sorted lines. */
    char csv[700];
    snprintf(csv, sizeof csv, "%s/cache_latency_footprint.csv", src);
    int cached = csv_rows(csv, "bypass_l1", 0), bypassed = csv_rows(csv, "bypass_l1", 1);
    GP_CHECK(cached > 10 && bypassed > 5);
    char *svg = read_in(out, "cache_latency_footprint.svg");
    int mono;
    GP_CHECK(svg && count(svg, "<polyline") == 2 && count(svg, "class=\"key\"") == 2);
    GP_CHECK(polyline_points(svg, 0, &mono) == cached && mono);
    GP_CHECK(polyline_points(svg, 1, &mono) == bypassed && mono);
    GP_CHECK(strstr(svg, ">cached loads (L1 and L2)<") && strstr(svg, ">L1 bypassed (L2 and DRAM)<"));
    free(svg);
    /* Best bandwidth: one line per kernel (read, write, copy, triad, rotating read). */
    svg = read_in(out, "memory_bandwidth_best.svg");
    GP_CHECK(svg && count(svg, "<polyline") == 5 && strstr(svg, ">triad<"));
    free(svg);
    /* Categorical series are bar charts with named categories. */
    snprintf(csv, sizeof csv, "%s/atomics_atomics.csv", src);
    int natomics = csv_rows(csv, "gops", NAN);
    snprintf(csv, sizeof csv, "%s/math_functions_ops.csv", src);
    int nmath = csv_rows(csv, "per_cycle_per_cu", NAN);
    GP_CHECK(natomics > 4 && nmath > 4);
    svg = read_in(out, "atomics_atomics.svg");
    GP_CHECK(svg && count(svg, "class=\"bar\"") == natomics);
    GP_CHECK(strstr(svg, ">uncontended<") && strstr(svg, ">LDS, int32<") && strstr(svg, "Gop/s (log scale)"));
    free(svg);
    svg = read_in(out, "math_functions_ops.svg");
    GP_CHECK(svg && count(svg, "class=\"bar\"") == nmath && strstr(svg, ">sin<") && strstr(svg, ">fp64<"));
    free(svg);

    free(html);
    free(md);
    rm_dir(out);
    return 0;
}

/* A record carries its `gpuprobe --version` line, so a figure can be traced
 * to the build that measured it, and the report shows it, and says so when the records come from more than one build. */
GP_TEST(report_shows_build_line)
{
    char dir[] = "/tmp/gp_unit_buildXXXXXX";
    GP_CHECK(mkdtemp(dir) != NULL);
    char out[600], p[700];
    snprintf(out, sizeof out, "%s/out", dir);
    gp_device_info dev;
    fake_dev(&dev);
    gp_record a, b;
    gp_record_init(&a, "atomics", &dev);
    snprintf(a.version, sizeof a.version, "9.9.9");
    snprintf(a.build, sizeof a.build, "gpuprobe 9.9.9 (git abc123); backend cuda: sm_90");
    gp_record_value(&a, "x", 1, "", -1, "m");
    GP_CHECK(gp_record_write(&a, dir).code == GP_OK);
    gp_record_init(&b, "lds", &dev);
    snprintf(b.version, sizeof b.version, "0.1.0");  /* an older record: no build line */
    gp_record_value(&b, "y", 2, "", -1, "m");
    GP_CHECK(gp_record_write(&b, dir).code == GP_OK);

    snprintf(p, sizeof p, "%s/atomics.json", dir);
    char *json = gp_test_read_text(p, NULL);
    GP_CHECK(json && strstr(json, "\"gpuprobe_build\": \"gpuprobe 9.9.9 (git abc123); backend cuda: sm_90\""));
    free(json);
    GP_CHECK(gp_report_write(dir, out).code == GP_OK);
    snprintf(p, sizeof p, "%s/report.md", out);
    char *md = gp_test_read_text(p, NULL);
    GP_CHECK(md && strstr(md, "| measured by | gpuprobe 9.9.9 (git abc123); backend cuda: sm_90 |"));
    GP_CHECK(strstr(md, "more than one build:** lds was measured by gpuprobe 0.1.0 (an older record"));
    free(md);
    snprintf(p, sizeof p, "%s/report.html", out);
    char *html = gp_test_read_text(p, NULL);
    GP_CHECK(html && strstr(html, "<th>measured by</th><td>gpuprobe 9.9.9 (git abc123)"));
    free(html);
    gp_record_free(&a);
    gp_record_free(&b);
    rm_dir(out);
    rm_dir(dir);
    return 0;
}
