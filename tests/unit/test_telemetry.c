/* The vendor library's readings on the host: the summary of sampled clock,
 * power and clock event reasons over a span, the reasons in words, the
 * health findings, a record's telemetry and health through JSON and back,
 * and the node-under-load verdicts and files from made-up phases. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "gp_test.h"
#include "json_read.h"
#include "record.h"
#include "stress.h"
#include "telemetry.h"

static gp_telemetry_sample sample(double t, int gpu, double mhz, double w, unsigned long long reasons)
{
    gp_telemetry_sample s = {t, gpu, mhz, w, 60 + t, reasons, 1};
    return s;
}

GP_TEST(telemetry_summary)
{
    const gp_telemetry_sample s[] = {
        sample(0.0, 0, 1980, 400, GP_SMI_REASON_IDLE),    sample(0.1, 1, 1000, 100, 0),
        sample(0.2, 0, 1900, 690, GP_SMI_REASON_SW_POWER_CAP), sample(0.3, 0, 1700, 700, GP_SMI_REASON_SW_POWER_CAP),
        sample(0.4, 0, 1980, 500, GP_SMI_REASON_SW_THERMAL), sample(5.0, 0, 100, 50, GP_SMI_REASON_HW_SLOWDOWN),
    };
    gp_telemetry_summary m;
    /* GPU 0 over [0, 1): four readings; the one at 5 s and GPU 1's are out. */
    gp_telemetry_summarize(s, 6, 0, 0, 1, &m);
    GP_CHECK(m.samples == 4 && m.reasons_read == 4);
    GP_CHECK(m.clock_min_mhz == 1700 && fabs(m.clock_median_mhz - 1940) < 1e-9);
    GP_CHECK(m.power_max_w == 700 && fabs(m.power_median_w - 595) < 1e-9);
    GP_CHECK(fabs(m.temperature_max_c - 60.4) < 1e-9);
    GP_CHECK(m.capped == 3); /* idle is no cap */
    GP_CHECK(m.reasons == (GP_SMI_REASON_IDLE | GP_SMI_REASON_SW_POWER_CAP | GP_SMI_REASON_SW_THERMAL));
    GP_CHECK(fabs(gp_telemetry_capped_fraction(&m) - 0.75) < 1e-12);
    /* A span without readings says so. */
    gp_telemetry_summarize(s, 6, 2, 0, 10, &m);
    GP_CHECK(m.samples == 0 && m.why[0] && isnan(m.clock_median_mhz) && gp_telemetry_capped_fraction(&m) == 0);
    /* Readings without reasons count for the clock, not for the caps. */
    gp_telemetry_sample q = sample(0, 0, 1500, 300, GP_SMI_REASON_SW_POWER_CAP);
    q.reasons_read = 0;
    gp_telemetry_summarize(&q, 1, 0, 0, 1, &m);
    GP_CHECK(m.samples == 1 && m.reasons_read == 0 && m.capped == 0 && m.reasons == 0);
    GP_CHECK(strstr(m.why, "no clock event reasons") != NULL); /* the record's "none (why)" */
    gp_telemetry_summarize(s, 6, 0, 0, 1, &m);
    GP_CHECK(m.why[0] == '\0');
    return 0;
}

/* A span is capped by a cap reason read in it or one interval before it
 * (the reading that held at its start); idle and application clocks are no
 * cap; no reading with reasons: unknown. */
GP_TEST(telemetry_capped_span)
{
    gp_telemetry_sample s[] = {
        sample(1.00, 0, 1980, 300, GP_SMI_REASON_IDLE), sample(1.05, 0, 1980, 600, GP_SMI_REASON_APP_CLOCKS),
        sample(1.10, 0, 1850, 700, GP_SMI_REASON_SW_POWER_CAP), sample(1.10, 1, 1980, 300, 0),
        sample(1.15, 0, 1980, 600, 0),
    };
    const size_t n = sizeof s / sizeof s[0];
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.00, 1.06, 0.05) == 0);
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.08, 1.09, 0.05) == 0);
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.09, 1.12, 0.05) == 1);  /* read inside */
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.12, 1.14, 0.05) == 1);  /* held from just before */
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.16, 1.16, 0.05) == 0);  /* the latest: lifted */
    GP_CHECK(gp_telemetry_capped_span(s, n, 1, 1.00, 1.20, 0.05) == 0);  /* another GPU's readings */
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 2.00, 2.10, 0.05) == -1); /* none in the span */
    s[2].reasons_read = 0;
    GP_CHECK(gp_telemetry_capped_span(s, n, 0, 1.09, 1.12, 0.05) == 0);
    GP_CHECK(gp_telemetry_capped(NULL, 0, 0, 1) == -1);
    return 0;
}

GP_TEST(telemetry_reasons_text)
{
    char b[128];
    gp_smi_reasons_text(0, b, sizeof b);
    GP_CHECK(!strcmp(b, "none"));
    gp_smi_reasons_text(GP_SMI_REASON_SW_POWER_CAP | GP_SMI_REASON_HW_THERMAL, b, sizeof b);
    GP_CHECK(!strcmp(b, "power cap, thermal (hardware)"));
    gp_smi_reasons_text(GP_SMI_REASON_IDLE | GP_SMI_REASON_APP_CLOCKS, b, 12); /* truncated, terminated */
    GP_CHECK(strlen(b) == 11);
    GP_CHECK(!(GP_SMI_REASONS_CAP & (GP_SMI_REASON_IDLE | GP_SMI_REASON_APP_CLOCKS | GP_SMI_REASON_SYNC_BOOST)));
    return 0;
}

static gp_smi_health clean_health(void)
{
    gp_smi_health h;
    memset(&h, 0, sizeof h);
    h.available = 1;
    snprintf(h.source, sizeof h.source, "nvml");
    h.ecc_enabled = 1;
    h.ecc_uncorrected_aggregate = 3; /* over its life: not a finding alone */
    h.ecc_corrected_volatile = h.ecc_corrected_aggregate = 12;
    h.remapped_correctable = 2;
    h.retired_pending = -1;            /* not given (Ampere and later) */
    h.pcie_replays = 7;
    h.power_limit_w = 700;
    return h;
}

GP_TEST(telemetry_health_findings)
{
    char b[256];
    gp_smi_health h = clean_health();
    GP_CHECK(gp_smi_health_flags(&h, b, sizeof b) == 0 && !b[0]);
    h.ecc_uncorrected_volatile = 2;
    h.remap_pending = 1;
    GP_CHECK(gp_smi_health_flags(&h, b, sizeof b) == 2);
    GP_CHECK(strstr(b, "2 uncorrected ECC errors since boot") && strstr(b, "; a row remap is pending"));
    h.remap_failed = 1;
    GP_CHECK(gp_smi_health_flags(&h, b, 20) == 3 && strlen(b) < 20); /* counted even when the text is cut */
    h.xids = 2, h.last_xid = 48;
    GP_CHECK(gp_smi_health_flags(&h, b, sizeof b) == 4 && strstr(b, "2 XID event(s) during the run (last XID 48)"));
    h.xids = -1; /* not watched: no finding */
    GP_CHECK(gp_smi_health_flags(&h, b, sizeof b) == 3);
    /* Without a library nothing is a finding. */
    gp_smi_health none;
    gp_smi_read_health("AMD", "0000:03:00.0", &none);
    GP_CHECK(!none.available && none.why[0] && !strcmp(none.source, "none"));
    GP_CHECK(none.ecc_uncorrected_volatile == -1 && none.remap_pending == -1 && none.pcie_replays == -1);
    GP_CHECK(gp_smi_health_flags(&none, b, sizeof b) == 0);
    return 0;
}

/* A record's telemetry and health survive the JSON, nulls included. */
GP_TEST(telemetry_record_round_trip)
{
    char dir[] = "/tmp/gp_telemetry_XXXXXX", path[256];
    GP_CHECK(mkdtemp(dir) != NULL);
    gp_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200");
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA");
    snprintf(d.arch, sizeof d.arch, "sm_90");
    d.compute_units = 132, d.wave_size = 32;
    gp_record *r = calloc(2, sizeof *r);
    GP_CHECK(r != NULL);
    gp_record_init(&r[0], "fma_throughput", &d);
    r[0].have_telemetry = 1;
    const gp_telemetry_sample s[] = {sample(0, 0, 1980, 650, 0), sample(0.1, 0, 1755, 700, GP_SMI_REASON_SW_POWER_CAP)};
    gp_telemetry_summarize(s, 2, 0, 0, 1, &r[0].telemetry);
    r[0].have_health = 1;
    r[0].health = clean_health();
    r[0].health.remap_pending = 1;
    GP_CHECK(gp_record_noise(&r[0], NULL) & GP_NOISE_CAPPED);
    GP_CHECK(gp_record_write(&r[0], dir).code == GP_OK);
    snprintf(path, sizeof path, "%s/fma_throughput.json", dir);
    gp_json j;
    GP_CHECK(gp_json_read_file(path, &j).code == GP_OK);
    GP_CHECK(gp_record_check_json(&j, path).code == GP_OK);
    int dropped = 0;
    const char *why = NULL;
    GP_CHECK(gp_record_from_json(&j, &r[1], &dropped, &why));
    gp_json_free(&j);
    const gp_telemetry_summary *t = &r[1].telemetry;
    GP_CHECK(r[1].have_telemetry && t->samples == 2 && t->capped == 1 && t->reasons_read == 2);
    GP_CHECK(t->reasons == GP_SMI_REASON_SW_POWER_CAP && t->clock_min_mhz == 1755 && t->power_max_w == 700);
    const gp_smi_health *h = &r[1].health;
    GP_CHECK(r[1].have_health && h->available && h->remap_pending == 1 && h->retired_pending == -1);
    GP_CHECK(h->ecc_uncorrected_volatile == 0 && h->ecc_uncorrected_aggregate == 3 && h->pcie_replays == 7);
    GP_CHECK(h->power_limit_w == 700 && h->xids == 0);
    GP_CHECK(gp_record_noise(&r[1], NULL) & GP_NOISE_CAPPED);
    /* The probe's page says it. */
    snprintf(path, sizeof path, "%s/fma_throughput.md", dir);
    char *md = gp_test_read_text(path, NULL);
    GP_CHECK(md && strstr(md, "under a power or thermal cap in 1 of 2 readings") && strstr(md, "row remap is pending"));
    free(md);
    gp_record_free(&r[0]), gp_record_free(&r[1]);
    free(r);
    return 0;
}

/* Two GPUs: the second loses 10 % of its DRAM rate together and has a
 * pending remap; the first keeps its rates. */
static void fake_stress(gp_stress *s)
{
    memset(s, 0, sizeof *s);
    s->opts.seconds = 5, s->opts.max_loss = 0.05;
    s->ngpus = 2;
    snprintf(s->date, sizeof s->date, "2026-11-28");
    static gp_telemetry_sample smp[40];
    for (int i = 0; i < 40; i++)
        smp[i] = sample(0.5 * i, i % 2, i < 20 ? 1980 : 1800, i < 20 ? 600 : 700,
                        i < 20 ? 0 : GP_SMI_REASON_SW_POWER_CAP);
    s->samples = smp, s->nsamples = 40;
    s->together_t0 = 10, s->together_t1 = 20;
    for (int g = 0; g < 2; g++) {
        gp_stress_gpu *G = &s->gpus[g];
        G->dev.index = g;
        snprintf(G->dev.name, sizeof G->dev.name, "NVIDIA H200");
        snprintf(G->dev.pci_bus_id, sizeof G->dev.pci_bus_id, "0000:%02x:00.0", 0x10 + g);
        G->health = clean_health();
        G->xids = 0;
        for (int p = 0; p < GP_STRESS_NPHASES; p++) {
            gp_stress_phase *a = &G->alone[p], *t = &G->together[p];
            a->launches = t->launches = 100;
            a->median = p ? 4400 : 60;
            a->p10 = 0.99 * a->median, a->p90 = 1.01 * a->median;
            t->median = a->median * (g == 1 && p == GP_STRESS_DRAM ? 0.90 : 0.99);
            t->p10 = 0.99 * t->median, t->p90 = 1.01 * t->median;
            a->t0 = 5.0 * p, a->t1 = 5.0 * (p + 1), t->t0 = 10 + 5.0 * p, t->t1 = 15 + 5.0 * p;
            gp_telemetry_summarize(smp, 40, g, t->t0, t->t1, &t->tel);
        }
    }
    s->gpus[1].health.remap_pending = 1;
}

GP_TEST(stress_judge_and_files)
{
    static gp_stress s;
    char why[512], dir[] = "/tmp/gp_stress_XXXXXX", path[300];
    fake_stress(&s);
    gp_stress_judge(&s);
    GP_CHECK(fabs(s.gpus[0].ratio[GP_STRESS_DRAM] - 0.99) < 1e-12 && !s.gpus[0].lost[GP_STRESS_DRAM]);
    GP_CHECK(gp_stress_flagged(&s, 0, why, sizeof why) == 0 && !why[0]);
    GP_CHECK(s.gpus[1].lost[GP_STRESS_DRAM] && !s.gpus[1].lost[GP_STRESS_FMA]);
    GP_CHECK(gp_stress_flagged(&s, 1, why, sizeof why) == 2);
    GP_CHECK(strstr(why, "DRAM 10.0% slower with every GPU loaded") && strstr(why, "row remap is pending"));
    /* A loss of exactly the limit is no flag; a downtrained link and an XID are. */
    s.gpus[0].together[GP_STRESS_FMA].median = 0.95 * s.gpus[0].alone[GP_STRESS_FMA].median;
    s.gpus[0].link_loaded = (gp_smi_link){1, 4, 16, 5, 16, 5, 0, ""};
    s.gpus[0].health.xids = 1, s.gpus[0].health.last_xid = 79; /* as gp_stress_run copies the watch's count */
    gp_stress_judge(&s);
    GP_CHECK(!s.gpus[0].lost[GP_STRESS_FMA] && s.gpus[0].link_downtrained);
    GP_CHECK(gp_stress_flagged(&s, 0, why, sizeof why) == 2 && strstr(why, "Gen4 x16, below its Gen5 x16") &&
             strstr(why, "last XID 79"));
    GP_CHECK(mkdtemp(dir) != NULL);
    GP_CHECK(gp_stress_write(&s, dir).code == GP_OK);
    snprintf(path, sizeof path, "%s/stress.json", dir);
    gp_json j;
    GP_CHECK(gp_json_read_file(path, &j).code == GP_OK);
    const gp_json *gpus = gp_json_get(&j, "gpus");
    GP_CHECK(gpus && gpus->nkids == 2 && gp_json_bool_of(&gpus->kids[1], "flagged", 0));
    const gp_json *dram = gp_json_get(&gpus->kids[1], "dram");
    GP_CHECK(fabs(gp_json_num_of(dram, "ratio", 0) - 0.9) < 1e-9 && gp_json_bool_of(dram, "lost", 0));
    const gp_json *tel = gp_json_get(gp_json_get(dram, "together"), "telemetry");
    GP_CHECK(gp_json_num_of(tel, "capped_samples", 0) > 0 && !strcmp(gp_json_str_of(tel, "reasons", ""), "power cap"));
    GP_CHECK(gp_json_num_of(gp_json_get(&gpus->kids[1], "health"), "remap_pending", 0) == 1);
    gp_json_free(&j);
    snprintf(path, sizeof path, "%s/stress.md", dir);
    char *md = gp_test_read_text(path, NULL);
    GP_CHECK(md && strstr(md, "GPU 1 (0000:11:00.0): flagged: DRAM 10.0% slower") && strstr(md, "stress_clock.svg"));
    free(md);
    const char *const files[] = {"stress_clock.svg", "stress_power.svg", "stress_temperature.svg", "stress_samples.csv"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char *text = gp_test_read_text(path, NULL);
        GP_CHECK(text && (i == 3 ? !strncmp(text, "t_s,gpu,", 8) : strstr(text, "<svg") != NULL));
        free(text);
    }
    return 0;
}
