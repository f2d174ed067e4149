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

extern "C" gp_status gp_rt_clock_spin(int blocks, long long spin_cycles, long long *cycles,
                                      long long *ticks)
{
    if (blocks <= 0 || spin_cycles <= 0)
        return gp_fail(GP_ERR_USAGE, "clock spin: blocks and cycles must be positive");
    long long *d = NULL;
    size_t bytes = sizeof(long long) * (size_t)blocks;
    GP_TRY(gp_rt_malloc((void **)&d, 2 * bytes));
    gp_status st = gp_ok();
    gp_clock_spin_kernel<<<blocks, 1>>>(spin_cycles, d, d + blocks);
    st = gp_launch_status("clock spin kernel");
    if (st.code == GP_OK)
        st = gp_rt_synchronize();
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(cycles, d, bytes);
    if (st.code == GP_OK)
        st = gp_rt_copy_to_host(ticks, d + blocks, bytes);
    gp_status fs = gp_rt_free(d);
    return st.code != GP_OK ? st : fs;
}
