#define _POSIX_C_SOURCE 200809L
#include "telemetry.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"

struct gp_telemetry {
    char vendor[32];
    char bus[GP_TELEMETRY_MAX_GPUS][32];
    int n;
    double interval_s;
    struct timespec start;
    pthread_t thread;
    pthread_mutex_t lock;
    int running, stop;
    gp_telemetry_sample *samples;
    size_t count, cap;
};

static double since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

static void push(gp_telemetry *t, const gp_telemetry_sample *s)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        gp_telemetry_sample *p = realloc(t->samples, cap * sizeof *p);
        if (!p)
            return; /* out of memory: the summary has fewer samples, nothing breaks */
        t->samples = p, t->cap = cap;
    }
    t->samples[t->count++] = *s;
}

static void *loop(void *arg)
{
    gp_telemetry *t = arg;
    for (;;) {
        pthread_mutex_lock(&t->lock);
        const int stop = t->stop;
        pthread_mutex_unlock(&t->lock);
        if (stop)
            break;
        for (int g = 0; g < t->n; g++) {
            gp_smi_reading r;
            gp_smi_read(t->vendor, t->bus[g], &r);
            if (!r.available)
                continue;
            gp_telemetry_sample s = {since(&t->start), g, r.sm_clock_mhz, r.power_w, r.temperature_c, r.reasons,
                                     r.reasons_read};
            pthread_mutex_lock(&t->lock);
            push(t, &s);
            pthread_mutex_unlock(&t->lock);
        }
        struct timespec nap = {(time_t)t->interval_s, (long)(1e9 * fmod(t->interval_s, 1.0))};
        nanosleep(&nap, NULL);
    }
    return NULL;
}

gp_status gp_telemetry_start(const char *vendor, const char *const *bus_ids, int n, double interval_s,
                             gp_telemetry **out)
{
    *out = NULL;
    if (n < 0 || n > GP_TELEMETRY_MAX_GPUS || !(interval_s > 0))
        return gp_fail(GP_ERR_USAGE, "telemetry: %d GPUs every %g s (1..%d GPUs, a positive interval)", n,
                       interval_s, GP_TELEMETRY_MAX_GPUS);
    gp_telemetry *t = calloc(1, sizeof *t);
    if (!t)
        return gp_fail(GP_ERR_NOMEM, "telemetry: out of host memory");
    snprintf(t->vendor, sizeof t->vendor, "%s", vendor ? vendor : "");
    for (int g = 0; g < n; g++)
        snprintf(t->bus[g], sizeof t->bus[g], "%s", bus_ids[g] ? bus_ids[g] : "");
    t->n = n, t->interval_s = interval_s;
    /* The vendor library loads and initializes on first use, which is not
     * thread-safe: do it here, before the thread exists. */
    gp_smi_reading first;
    gp_smi_read(t->vendor, n ? t->bus[0] : "", &first);
    clock_gettime(CLOCK_MONOTONIC, &t->start);
    pthread_mutex_init(&t->lock, NULL);
    if (pthread_create(&t->thread, NULL, loop, t) != 0) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return gp_fail(GP_ERR_RUNTIME, "telemetry: cannot start the sampling thread");
    }
    t->running = 1;
    *out = t;
    return gp_ok();
}

double gp_telemetry_now(const gp_telemetry *t) { return since(&t->start); }

void gp_telemetry_stop(gp_telemetry *t)
{
    if (!t || !t->running)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    t->running = 0;
}

const gp_telemetry_sample *gp_telemetry_samples(const gp_telemetry *t, size_t *n)
{
    *n = t ? t->count : 0;
    return t ? t->samples : NULL;
}

void gp_telemetry_free(gp_telemetry *t)
{
    if (!t)
        return;
    gp_telemetry_stop(t);
    pthread_mutex_destroy(&t->lock);
    free(t->samples);
    free(t);
}

void gp_telemetry_summarize(const gp_telemetry_sample *samples, size_t n, int gpu, double t0, double t1,
                            gp_telemetry_summary *out)
{
    memset(out, 0, sizeof *out);
    out->clock_median_mhz = out->clock_min_mhz = out->power_median_w = out->power_max_w = NAN;
    out->temperature_max_c = NAN;
    double *clock = malloc((n ? n : 1) * sizeof *clock), *power = malloc((n ? n : 1) * sizeof *power);
    if (!clock || !power) {
        free(clock), free(power);
        snprintf(out->why, sizeof out->why, "out of host memory for the summary");
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const gp_telemetry_sample *s = &samples[i];
        if (s->gpu != gpu || s->t_s < t0 || s->t_s >= t1)
            continue;
        clock[k] = s->sm_clock_mhz, power[k] = s->power_w, k++;
        if (!(s->sm_clock_mhz >= out->clock_min_mhz))
            out->clock_min_mhz = s->sm_clock_mhz;
        if (!(s->power_w <= out->power_max_w))
            out->power_max_w = s->power_w;
        if (!(s->temperature_c <= out->temperature_max_c))
            out->temperature_max_c = s->temperature_c;
        if (s->reasons_read) {
            out->reasons_read++;
            out->reasons |= s->reasons;
            out->capped += (s->reasons & GP_SMI_REASONS_CAP) != 0;
        }
    }
    out->samples = (int)k;
    if (k) {
        out->clock_median_mhz = gp_stats_median(clock, k);
        out->power_median_w = gp_stats_median(power, k);
        if (!out->reasons_read)
            snprintf(out->why, sizeof out->why, "no clock event reasons from the library (rocm-smi: in a "
                                                "versioned table, not read)");
    } else {
        snprintf(out->why, sizeof out->why, "no vendor-library reading in this span (no NVML, or not NVIDIA)");
    }
    free(clock), free(power);
}

double gp_telemetry_capped_fraction(const gp_telemetry_summary *s)
{
    return s->reasons_read ? (double)s->capped / s->reasons_read : 0;
}

int gp_telemetry_capped_span(const gp_telemetry_sample *samples, size_t n, int gpu, double t0, double t1,
                             double interval)
{
    int read = 0;
    for (size_t i = 0; i < n; i++) {
        const gp_telemetry_sample *s = &samples[i];
        if (s->gpu != gpu || !s->reasons_read || s->t_s < t0 - interval || s->t_s > t1)
            continue;
        if (s->reasons & GP_SMI_REASONS_CAP)
            return 1;
        read = 1;
    }
    return read ? 0 : -1;
}

int gp_telemetry_capped(gp_telemetry *t, int gpu, double t0, double t1)
{
    if (!t)
        return -1;
    pthread_mutex_lock(&t->lock);
    const int c = gp_telemetry_capped_span(t->samples, t->count, gpu, t0, t1, t->interval_s);
    pthread_mutex_unlock(&t->lock);
    return c;
}
