/* The clock kernel: measures the core clock the device runs at, by counting
 * core cycles (gp_cycles) against the constant-rate timer (gp_timer) over a
 * busy-wait of known length.  One thread per block, one block per CU is the
 * caller's choice.  Arithmetic on the results lives in common/clock.c. */
#include "gp_device.h"
#include "runtime.h"

#include <stdlib.h>

__global__ void gp_clock_spin_kernel(long long spin_cycles, long long *cycles, long long *ticks)
{
    long long t0 = gp_timer();
    long long c = gp_cycles(), total = 0;
    /* Summed short deltas, so a counter narrower than the spin (gfx11's 20
     * bits) neither wraps the sum nor spins forever. */
    while (total < spin_cycles) {
        long long n = gp_cycles();
        total += gp_cycle_delta(c, n);
        c = n;
    }
    long long t1 = gp_timer();
    /* One thread per block writes; blockIdx selects the slot. */
    cycles[blockIdx.x] = total;
    ticks[blockIdx.x] = t1 - t0;
}

/* Events around the spin's launch alone.  Bracketing the allocation too made
 * event time 3-12 % longer than the spin on an H200 (2026-11-24: cudaMalloc
 * right after a probe freed its buffers, and the module's lazy load in the
 * first launch), which read as a timer running 3-12 % slow and, past 5 %,
 * "calibrated" the timer and moved every clock-converted value by as much. */
static gp_status timed_spin(int blocks, long long spin_cycles, long long *d, double *event_ms)
{
    gp_event e0 = NULL, e1 = NULL;
    float ms = 0;
    gp_status st = gp_rt_event_create(&e0);
    if (st.code == GP_OK)
        st = gp_rt_event_create(&e1);
    if (st.code == GP_OK)
        st = gp_rt_event_record(e0, NULL);
    if (st.code == GP_OK) {
        gp_clock_spin_kernel<<<blocks, 1>>>(spin_cycles, d, d + blocks);
        st = gp_launch_status("clock spin kernel");
    }
    if (st.code == GP_OK)
        st = gp_rt_event_record(e1, NULL);
    if (st.code == GP_OK)
        st = gp_rt_event_elapsed_ms(e0, e1, &ms);
    *event_ms = ms;
    gp_rt_event_destroy(e0);
    gp_rt_event_destroy(e1);
    return st;
}

extern "C" gp_status gp_rt_clock_spin(int blocks, long long spin_cycles, long long *cycles, long long *ticks,
                                      double *event_ms)
{
    if (blocks <= 0 || spin_cycles <= 0 || !event_ms)
        return gp_fail(GP_ERR_USAGE, "clock spin: blocks and cycles must be positive, event_ms given");
    *event_ms = 0;
    long long *d = NULL;
    size_t bytes = sizeof(long long) * (size_t)blocks;
    GP_TRY(gp_rt_synchronize()); /* nothing of the caller's inside the bracket */
    GP_TRY(gp_rt_malloc((void **)&d, 2 * bytes));
    /* An untimed short spin first: the module loads, the clock ramps. */
    gp_clock_spin_kernel<<<blocks, 1>>>(spin_cycles / 20 + 1, d, d + blocks);
    gp_status st = gp_launch_status("clock spin kernel (warm-up)");
    if (st.code == GP_OK)
        st = gp_rt_synchronize();
    if (st.code == GP_OK)
        st = timed_spin(blocks, spin_cycles, d, event_ms);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(cycles, d, bytes);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(ticks, d + blocks, bytes);
    gp_status fs = gp_rt_free(d);
    return st.code != GP_OK ? st : fs;
}
