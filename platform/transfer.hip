/* Transfers for the interconnect probe (transfer.h), in HIP spelling. */
#include "gp_device.h"
#include "transfer.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call) GP_TRY(gp_hip_status((call), #call))

extern "C" gp_status gp_rt_set_device(int index)
{
    CHECK(hipSetDevice(index));
    return gp_ok();
}

extern "C" gp_status gp_rt_host_alloc_pinned(void **ptr, size_t bytes)
{
    *ptr = NULL;
    hipError_t e = hipHostMalloc(ptr, bytes, hipHostMallocPortable | hipHostMallocMapped);
    if (e != hipSuccess) {
        (void)hipGetLastError();
        *ptr = NULL;
        return gp_fail(GP_ERR_NOMEM, "pinned host allocation of %zu bytes failed: %s", bytes, hipGetErrorString(e));
    }
    return gp_ok();
}

extern "C" gp_status gp_rt_host_free_pinned(void *ptr)
{
    if (ptr)
        CHECK(hipHostFree(ptr));
    return gp_ok();
}

extern "C" gp_status gp_rt_host_device_ptr(void **dptr, void *host)
{
    CHECK(hipHostGetDevicePointer(dptr, host, 0));
    return gp_ok();
}

extern "C" gp_status gp_rt_copy_async(void *dst, const void *src, size_t bytes, gp_copy_dir dir, gp_stream s)
{
    CHECK(hipMemcpyAsync(dst, src, bytes, dir == GP_COPY_H2D ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost,
                         (hipStream_t)s));
    return gp_ok();
}

extern "C" gp_status gp_rt_peer_can_access(int dev, int peer, int *can)
{
    *can = 0;
    CHECK(hipDeviceCanAccessPeer(can, dev, peer));
    return gp_ok();
}

extern "C" gp_status gp_rt_peer_enable(int dev, int peer)
{
    CHECK(hipSetDevice(dev));
    hipError_t e = hipDeviceEnablePeerAccess(peer, 0);
    if (e == hipErrorPeerAccessAlreadyEnabled) {
        (void)hipGetLastError();
        return gp_ok();
    }
    CHECK(e);
    return gp_ok();
}

extern "C" gp_status gp_rt_copy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                                           gp_stream s)
{
    CHECK(hipMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, (hipStream_t)s));
    return gp_ok();
}

static int p2p_attr(hipDeviceP2PAttr a, int src, int dst)
{
    int v = -1;
    if (hipDeviceGetP2PAttribute(&v, a, src, dst) != hipSuccess) {
        (void)hipGetLastError();
        return -1;
    }
    return v;
}

extern "C" gp_status gp_rt_p2p_info(int src, int dst, gp_p2p_info *out)
{
    memset(out, 0, sizeof *out);
    out->access_supported = p2p_attr(hipDevP2PAttrAccessSupported, src, dst);
    out->native_atomics = p2p_attr(hipDevP2PAttrNativeAtomicSupported, src, dst);
    out->perf_rank = p2p_attr(hipDevP2PAttrPerformanceRank, src, dst);
    out->hops = -1;
#if defined(GP_VENDOR_AMD)
    /* hsa_amd_link_info_type_t: the HSA runtime's name of the link. */
    static const char *const names[] = {"HyperTransport", "QPI", "PCIe", "InfiniBand", "XGMI"};
    uint32_t type = 0, hops = 0;
    if (hipExtGetLinkTypeAndHopCount(src, dst, &type, &hops) == hipSuccess) {
        if (type < sizeof names / sizeof names[0])
            snprintf(out->link, sizeof out->link, "%s", names[type]);
        out->hops = (int)hops;
    } else {
        (void)hipGetLastError();
    }
    snprintf(out->source, sizeof out->source, "hipDeviceGetP2PAttribute, hipExtGetLinkTypeAndHopCount");
#else
    snprintf(out->source, sizeof out->source, "cudaDeviceGetP2PAttribute");
#endif
    return gp_ok();
}
