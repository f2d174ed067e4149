#define _POSIX_C_SOURCE 200809L
#include "stress.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evtimer.h"
#include "fma_throughput.h"
#include "memory_bandwidth.h"
#include "stats.h"
#include "transfer.h"

/* One launch lasts about this long: long against launch gaps (~10 us), short
 * against the phase, so a phase holds hundreds of rates. */
#define LAUNCH_MS 20.0
#define FMA_THREADS 256
#define DRAM_BLOCK 256
#define DRAM_VEC 16
/* Each triad array: 8x the L2, at least 256 MiB, so every pass goes to DRAM. */
#define DRAM_MIN_ARRAY ((size_t)256 << 20)
#define MAX_LAUNCHES 100000

/* A barrier whose party can shrink: when a thread cannot be started, those
 * that were go on without it instead of waiting for ever. */
typedef struct barrier {
    pthread_mutex_t m;
    pthread_cond_t c;
    int n, waiting;
    unsigned gen;
} barrier;

static void barrier_release(barrier *b)
{
    b->waiting = 0, b->gen++;
    pthread_cond_broadcast(&b->c);
}

static void barrier_wait(barrier *b)
{
    pthread_mutex_lock(&b->m);
    if (++b->waiting >= b->n) {
        barrier_release(b);
    } else {
        const unsigned gen = b->gen;
        while (gen == b->gen)
            pthread_cond_wait(&b->c, &b->m);
    }
    pthread_mutex_unlock(&b->m);
}

static void barrier_shrink(barrier *b, int by)
{
    pthread_mutex_lock(&b->m);
    b->n -= by;
    if (b->waiting > 0 && b->waiting >= b->n)
        barrier_release(b);
    pthread_mutex_unlock(&b->m);
}

typedef struct worker {
    int index;                      /* runtime device index */
    const gp_device_info *dev;
    gp_telemetry *tm;
    barrier *bar;                   /* NULL: alone */
    double seconds;
    gp_stress_gpu *out;
    gp_stress_phase *phases;        /* out->alone or out->together */
    int read_link;                  /* read the PCIe link under copies before the phases */
    gp_status st;
    /* device state */
    gp_evtimer tm_ev;
    float *sink;
    void *a, *b, *c;
    size_t n16;                     /* 16-byte elements per triad array */
    unsigned fma_blocks, dram_grid;
    int fma_iters, dram_passes;
    double *rates;
} worker;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static gp_status launch(worker *w, int phase, double *ms)
{
    GP_TRY(gp_evtimer_start(&w->tm_ev));
    if (phase == GP_STRESS_FMA)
        GP_TRY(gp_fma_launch(w->tm_ev.stream, GP_FMA_F32, w->fma_blocks, FMA_THREADS, 0, w->fma_iters, w->sink));
    else
        GP_TRY(gp_membw_launch(w->tm_ev.stream, GP_MEMBW_TRIAD, DRAM_VEC, 1, 0, w->dram_grid, DRAM_BLOCK, w->a, w->b,
                               w->c, w->n16, w->dram_passes, 0.5f, -1.0f, w->sink));
    return gp_evtimer_stop_ms(&w->tm_ev, ms);
}

/* TFLOP/s or GB/s of one launch of `ms`. */
static double rate_of(const worker *w, int phase, double ms)
{
    if (phase == GP_STRESS_FMA)
        return 2.0 * w->fma_blocks * FMA_THREADS * (double)w->fma_iters * GP_FMA_INNER * GP_FMA_ACC / (ms * 1e-3) /
               1e12;
    return 3.0 * (double)w->n16 * DRAM_VEC * w->dram_passes / (ms * 1e-3) / 1e9;
}

/* Scale the work of a launch to about LAUNCH_MS. */
static gp_status calibrate(worker *w, int phase)
{
    int *work = phase == GP_STRESS_FMA ? &w->fma_iters : &w->dram_passes;
    const int max = phase == GP_STRESS_FMA ? 1 << 24 : 4096;
    *work = phase == GP_STRESS_FMA ? 64 : 1;
    double ms;
    GP_TRY(launch(w, phase, &ms)); /* module load, clock ramp */
    for (int step = 0; step < 6; step++) {
        GP_TRY(launch(w, phase, &ms));
        const double scale = ms > 0 ? LAUNCH_MS / ms : 64;
        if (scale > 0.8 && scale < 1.25)
            break;
        double next = *work * (scale > 64 ? 64 : scale);
        *work = next < 1 ? 1 : next > max ? max : (int)next;
    }
    return gp_ok();
}

/* The PCIe link read while host-to-device copies keep it busy: an idle link
 * trains down to save power, so only a loaded one shows a fault.  About
 * 50 ms of 64 MiB copies from pinned memory are queued, the link is read
 * while they run, then they are waited for. */
#define LINK_COPY_BYTES ((size_t)64 << 20)
#define LINK_COPIES 40
static gp_status read_link_loaded(worker *w)
{
    void *host = NULL;
    gp_status st = gp_rt_host_alloc_pinned(&host, LINK_COPY_BYTES);
    for (int i = 0; i < LINK_COPIES && st.code == GP_OK; i++)
        st = gp_rt_copy_async(w->a, host, LINK_COPY_BYTES, GP_COPY_H2D, w->tm_ev.stream);
    if (st.code == GP_OK)
        gp_smi_read_link(w->dev->vendor, w->dev->pci_bus_id, &w->out->link_loaded);
    gp_status sync = gp_rt_stream_synchronize(w->tm_ev.stream);
    if (host)
        (void)gp_rt_host_free_pinned(host);
    return st.code != GP_OK ? st : sync;
}

static gp_status setup(worker *w)
{
    GP_TRY(gp_rt_set_device(w->index));
    GP_TRY(gp_evtimer_create(&w->tm_ev, 1));
    GP_TRY(gp_rt_malloc((void **)&w->sink, sizeof(float)));
    int bpc = 0;
    GP_TRY(gp_fma_prepare(GP_FMA_F32, FMA_THREADS, 0, &bpc));
    w->fma_blocks = (unsigned)((bpc > 0 ? bpc : 1) * w->dev->compute_units);
    GP_TRY(gp_membw_blocks_per_cu(GP_MEMBW_TRIAD, DRAM_VEC, 1, 0, DRAM_BLOCK, &bpc));
    w->dram_grid = (unsigned)((bpc > 0 ? bpc : 1) * w->dev->compute_units);
    size_t bytes = 8 * w->dev->l2_bytes > DRAM_MIN_ARRAY ? 8 * w->dev->l2_bytes : DRAM_MIN_ARRAY;
    if (w->dev->mem_bytes && bytes > w->dev->mem_bytes / 8)
        bytes = w->dev->mem_bytes / 8;
    w->n16 = bytes / DRAM_VEC;
    w->out->dram_bytes = 3 * w->n16 * DRAM_VEC;
    GP_TRY(gp_rt_malloc(&w->a, w->n16 * DRAM_VEC));
    GP_TRY(gp_rt_malloc(&w->b, w->n16 * DRAM_VEC));
    GP_TRY(gp_rt_malloc(&w->c, w->n16 * DRAM_VEC));
    GP_TRY(gp_rt_memset(w->b, 0, w->n16 * DRAM_VEC));
    GP_TRY(gp_rt_memset(w->c, 0, w->n16 * DRAM_VEC));
    w->rates = malloc(MAX_LAUNCHES * sizeof *w->rates);
    if (!w->rates)
        return gp_fail(GP_ERR_NOMEM, "stress: out of host memory");
    if (w->read_link && w->n16 * DRAM_VEC >= LINK_COPY_BYTES)
        GP_TRY(read_link_loaded(w));
    GP_TRY(calibrate(w, GP_STRESS_FMA));
    return calibrate(w, GP_STRESS_DRAM);
}

static void teardown(worker *w)
{
    void *bufs[] = {w->sink, w->a, w->b, w->c};
    for (int i = 0; i < 4; i++)
        if (bufs[i])
            (void)gp_rt_free(bufs[i]);
    gp_evtimer_destroy(&w->tm_ev);
    free(w->rates);
}

static gp_status run_phase(worker *w, int phase)
{
    gp_stress_phase *ph = &w->phases[phase];
    int n = 0;
    double ms;
    GP_TRY(launch(w, phase, &ms)); /* warm-up: not counted */
    ph->t0 = gp_telemetry_now(w->tm);
    const double end = now_s() + w->seconds;
    while (now_s() < end && n < MAX_LAUNCHES) {
        GP_TRY(launch(w, phase, &ms));
        w->rates[n++] = rate_of(w, phase, ms);
    }
    ph->t1 = gp_telemetry_now(w->tm);
    ph->launches = n;
    ph->median = gp_stats_median(w->rates, (size_t)n);
    ph->p10 = gp_stats_percentile(w->rates, (size_t)n, 10);
    ph->p90 = gp_stats_percentile(w->rates, (size_t)n, 90);
    return gp_ok();
}

/* Every worker reaches every barrier, even after an error, so none waits
 * for a thread that left. */
static void *work(void *arg)
{
    worker *w = arg;
    w->st = setup(w);
    for (int phase = 0; phase < GP_STRESS_NPHASES; phase++) {
        if (w->bar)
            barrier_wait(w->bar);
        if (w->st.code == GP_OK)
            w->st = run_phase(w, phase);
    }
    teardown(w);
    return NULL;
}

static void progress(const gp_stress_opts *o, const char *what)
{
    if (o->progress)
        fprintf(stderr, "stress: %s (%.0f s FMA, then %.0f s DRAM)\n", what, o->seconds, o->seconds);
}

/* Run workers[0..n) at once, their phases aligned. */
static gp_status run_workers(worker *ws, int n)
{
    pthread_t th[GP_STRESS_MAX_GPUS];
    barrier bar = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, n, 0, 0};
    gp_status st = gp_ok();
    int started = 0;
    for (int i = 0; i < n; i++)
        ws[i].bar = &bar;
    while (started < n && pthread_create(&th[started], NULL, work, &ws[started]) == 0)
        started++;
    if (started < n) {
        st = gp_fail(GP_ERR_RUNTIME, "stress: cannot start thread %d of %d", started + 1, n);
        barrier_shrink(&bar, n - started);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < started && st.code == GP_OK; i++)
        st = ws[i].st;
    return st;
}

static void init_worker(worker *w, gp_stress *s, int g, gp_telemetry *tm, int together)
{
    memset(w, 0, sizeof *w);
    w->index = s->opts.devices[g];
    w->dev = &s->gpus[g].dev;
    w->tm = tm;
    w->seconds = s->opts.seconds;
    w->out = &s->gpus[g];
    w->phases = together ? s->gpus[g].together : s->gpus[g].alone;
    w->read_link = together;
}

/* Each GPU alone, then (two or more GPUs) all of them at once. */
static gp_status run_all(gp_stress *s, gp_telemetry *tm)
{
    worker ws[GP_STRESS_MAX_GPUS];
    const int n = s->ngpus;
    for (int g = 0; g < n && (!s->opts.skip_alone || n == 1); g++) {
        char what[96];
        snprintf(what, sizeof what, "GPU %d of %d alone", g + 1, n);
        progress(&s->opts, what);
        init_worker(&ws[0], s, g, tm, 0);
        ws[0].read_link = n == 1;
        GP_TRY(run_workers(ws, 1));
    }
    if (n == 1)
        return gp_ok(); /* one GPU: nothing runs beside it */
    progress(&s->opts, "every GPU at once");
    for (int g = 0; g < n; g++)
        init_worker(&ws[g], s, g, tm, 1);
    s->together_t0 = gp_telemetry_now(tm);
    GP_TRY(run_workers(ws, n));
    s->together_t1 = gp_telemetry_now(tm);
    return gp_ok();
}

gp_status gp_stress_run(const gp_stress_opts *opts, gp_stress *s)
{
    memset(s, 0, sizeof *s);
    s->opts = *opts;
    if (opts->ndevices < 1 || opts->ndevices > GP_STRESS_MAX_GPUS)
        return gp_fail(GP_ERR_USAGE, "stress: %d GPUs (1..%d)", opts->ndevices, GP_STRESS_MAX_GPUS);
    if (!(opts->seconds >= 1 && opts->seconds <= 3600) || !(opts->max_loss > 0 && opts->max_loss < 1))
        return gp_fail(GP_ERR_USAGE, "stress: --seconds %g (1..3600) or --max-loss %g (between 0 and 1)",
                       opts->seconds, opts->max_loss);
    const char *bus[GP_STRESS_MAX_GPUS];
    s->ngpus = opts->ndevices;
    for (int g = 0; g < s->ngpus; g++) {
        GP_TRY(gp_rt_device_open(opts->devices[g], &s->gpus[g].dev));
        bus[g] = s->gpus[g].dev.pci_bus_id;
        for (int p = 0; p < GP_STRESS_NPHASES; p++)
            s->gpus[g].alone[p].median = s->gpus[g].together[p].median = NAN;
    }
    time_t t = time(NULL);
    strftime(s->date, sizeof s->date, "%Y-%m-%d", gmtime(&t));
    gp_smi_xid_watch *xid[GP_STRESS_MAX_GPUS];
    for (int g = 0; g < s->ngpus; g++) {
        xid[g] = gp_smi_xid_open(s->gpus[g].dev.vendor, bus[g], s->gpus[g].xid_why, sizeof s->gpus[g].xid_why);
        s->gpus[g].xids = xid[g] ? 0 : -1;
    }
    gp_telemetry *tm = NULL;
    gp_status st = gp_telemetry_start(s->gpus[0].dev.vendor, bus, s->ngpus, GP_TELEMETRY_INTERVAL_S, &tm);
    if (st.code == GP_OK)
        st = run_all(s, tm);
    gp_telemetry_stop(tm);
    size_t n = 0;
    const gp_telemetry_sample *smp = gp_telemetry_samples(tm, &n);
    s->samples = n ? malloc(n * sizeof *smp) : NULL;
    if (s->samples)
        memcpy(s->samples, smp, n * sizeof *smp), s->nsamples = n;
    gp_telemetry_free(tm);
    for (int g = 0; g < s->ngpus; g++) {
        gp_stress_gpu *G = &s->gpus[g];
        if (xid[g])
            G->xids = gp_smi_xid_poll(xid[g], 0, &G->last_xid);
        gp_smi_xid_close(xid[g]);
        gp_smi_read_health(G->dev.vendor, bus[g], &G->health);
        G->health.xids = G->xids, G->health.last_xid = G->last_xid; /* its findings name them */
        for (int p = 0; p < GP_STRESS_NPHASES; p++) {
            gp_telemetry_summarize(s->samples, s->nsamples, g, G->alone[p].t0, G->alone[p].t1, &G->alone[p].tel);
            gp_telemetry_summarize(s->samples, s->nsamples, g, G->together[p].t0, G->together[p].t1,
                                   &G->together[p].tel);
        }
    }
    gp_stress_judge(s);
    return st;
}

void gp_stress_free(gp_stress *s)
{
    free(s->samples);
    s->samples = NULL, s->nsamples = 0;
}

void gp_stress_judge(gp_stress *s)
{
    for (int g = 0; g < s->ngpus; g++) {
        gp_stress_gpu *G = &s->gpus[g];
        for (int p = 0; p < GP_STRESS_NPHASES; p++) {
            const double a = G->alone[p].median, t = G->together[p].median;
            G->ratio[p] = a > 0 && t > 0 ? t / a : NAN;
            G->lost[p] = G->ratio[p] < 1 - s->opts.max_loss;
        }
        const gp_smi_link *l = &G->link_loaded;
        G->link_downtrained = l->available && ((l->max_gen > 0 && l->curr_gen < l->max_gen) ||
                                               (l->max_width > 0 && l->curr_width < l->max_width));
    }
}

int gp_stress_flagged(const gp_stress *s, int g, char *why, size_t n)
{
    const gp_stress_gpu *G = &s->gpus[g];
    static const char *const names[GP_STRESS_NPHASES] = {"FMA", "DRAM"};
    char health[256];
    int k = 0;
    if (!n)
        return 0;
    why[0] = '\0';
    for (int p = 0; p < GP_STRESS_NPHASES; p++)
        if (G->lost[p])
            gp_smi_add_finding(why, n, &k, "%s %.1f%% slower with every GPU loaded", names[p],
                               100 * (1 - G->ratio[p]));
    if (gp_smi_health_flags(&G->health, health, sizeof health))
        gp_smi_add_finding(why, n, &k, "%s", health);
    if (G->link_downtrained)
        gp_smi_add_finding(why, n, &k, "PCIe link under load Gen%d x%d, below its Gen%d x%d",
                           G->link_loaded.curr_gen, G->link_loaded.curr_width, G->link_loaded.max_gen,
                           G->link_loaded.max_width);
    return k;
}
