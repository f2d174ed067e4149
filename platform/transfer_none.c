/* Backend "none": the transfer calls answer that no GPU code was compiled. */
#include "transfer.h"

#include <string.h>

static gp_status none(void) { return gp_fail(GP_ERR_NO_GPU, "no GPU backend compiled"); }

gp_status gp_rt_set_device(int index)
{
    (void)index;
    return none();
}

gp_status gp_rt_host_alloc_pinned(void **ptr, size_t bytes)
{
    (void)bytes;
    *ptr = NULL;
    return none();
}

gp_status gp_rt_host_free_pinned(void *ptr) { return ptr ? none() : gp_ok(); }

gp_status gp_rt_host_device_ptr(void **dptr, void *host)
{
    (void)host;
    *dptr = NULL;
    return none();
}

gp_status gp_rt_copy_async(void *dst, const void *src, size_t bytes, gp_copy_dir dir, gp_stream s)
{
    (void)dst, (void)src, (void)bytes, (void)dir, (void)s;
    return none();
}

gp_status gp_rt_peer_can_access(int dev, int peer, int *can)
{
    (void)dev, (void)peer;
    *can = 0;
    return none();
}

gp_status gp_rt_peer_enable(int dev, int peer)
{
    (void)dev, (void)peer;
    return none();
}

gp_status gp_rt_copy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes, gp_stream s)
{
    (void)dst, (void)dst_dev, (void)src, (void)src_dev, (void)bytes, (void)s;
    return none();
}

gp_status gp_rt_p2p_info(int src, int dst, gp_p2p_info *out)
{
    (void)src, (void)dst;
    memset(out, 0, sizeof *out);
    return none();
}
