/* The stream hold (runtime.h, gp_rt_hold_*): one thread that spins on a flag
 * in mapped host memory until the host raises it, in HIP spelling.  The
 * idea is nvbench's "blocking kernel" (docs/references.md). */
#include "gp_device.h"
#include "runtime.h"
#include "transfer.h"

#include <stdlib.h>

/* Counts of gp_cycles the hold waits before it lets go by itself: 2 x 10^8
 * is 0.1 s at 2 GHz and longer at a lower clock (or where the counter runs
 * slower than the core), thousands of times what queueing one timed run
 * takes, so a host descheduled for a while does not end a hold early; work
 * that synchronizes inside pays it once before its timer stops holding. */
#define GP_HOLD_TIMEOUT_CYCLES 200000000LL

struct gp_hold {
    volatile int *host;  /* [0] the release number the host raises, [1] what the kernel saw last */
    int *dev;            /* the same two words as the device sees them */
    int seq;             /* the number of the hold in flight */
};

/* Wait until go reaches seq, or the timeout; leave seq (released) or -seq
 * (let go by the timeout) in seen. */
__global__ void gp_hold_kernel(volatile int *go, int seq, long long timeout_cycles, volatile int *seen)
{
    long long c = gp_cycles(), waited = 0;
    while (*go < seq) {
        long long n = gp_cycles();
        waited += gp_cycle_delta(c, n);
        c = n;
        if (waited > timeout_cycles) {
            *seen = -seq;
            return;
        }
    }
    *seen = seq;
}

extern "C" gp_status gp_rt_hold_create(gp_hold **out)
{
    *out = NULL;
    gp_hold *h = (gp_hold *)calloc(1, sizeof *h);
    if (!h)
        return gp_fail(GP_ERR_NOMEM, "stream hold: out of host memory");
    void *p = NULL;
    /* Coherent: the GPU must see the host's store while it spins (HIP may
     * default to memory the GPU caches). */
    hipError_t e = hipHostMalloc(&p, 2 * sizeof(int), hipHostMallocMapped | hipHostMallocCoherent);
    if (e != hipSuccess) {
        (void)hipGetLastError();
        free(h);
        return gp_fail(GP_ERR_NOMEM, "stream hold: mapped host allocation failed: %s", hipGetErrorString(e));
    }
    h->host = (volatile int *)p;
    h->host[0] = h->host[1] = 0;
    gp_status st = gp_rt_host_device_ptr((void **)&h->dev, p);
    if (st.code != GP_OK) {
        (void)gp_rt_host_free_pinned(p);
        free(h);
        return st;
    }
    *out = h;
    return gp_ok();
}

extern "C" void gp_rt_hold_destroy(gp_hold *h)
{
    if (!h)
        return;
    if (h->seq > h->host[0])
        gp_rt_hold_release(h); /* never leave a kernel spinning on freed memory */
    (void)hipDeviceSynchronize();
    (void)gp_rt_host_free_pinned((void *)h->host);
    free(h);
}

extern "C" gp_status gp_rt_hold_begin(gp_hold *h, gp_stream s)
{
    if (!h)
        return gp_fail(GP_ERR_USAGE, "stream hold: none created");
    if (h->seq > h->host[0])
        return gp_fail(GP_ERR_USAGE, "stream hold: the last hold (%d) was not released", h->seq);
    h->seq++;
    gp_hold_kernel<<<1, 1, 0, (hipStream_t)s>>>(h->dev, h->seq, GP_HOLD_TIMEOUT_CYCLES, h->dev + 1);
    gp_status st = gp_launch_status("stream hold kernel");
    if (st.code != GP_OK)
        h->host[0] = h->seq; /* nothing holds */
    return st;
}

extern "C" void gp_rt_hold_release(gp_hold *h)
{
    if (!h)
        return;
    __atomic_store_n((int *)&h->host[0], h->seq, __ATOMIC_SEQ_CST);
}

extern "C" int gp_rt_hold_timed_out(const gp_hold *h)
{
    return h && h->seq > 0 && __atomic_load_n((const int *)&h->host[1], __ATOMIC_SEQ_CST) == -h->seq;
}
