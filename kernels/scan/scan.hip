/* scan kernel: single-pass prefix sum with decoupled look-back (Merrill and
 * Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
 * NVIDIA NVR-2016-002), fp32 (added in fp32) or int32 (uint32: wrapped).
 *
 * Layout.  The array is seen from the 16-byte boundary at or below d_in
 * ("virtual" indices: real index + head, head = (d_in mod 16) / 4), so every
 * group of 4 virtual elements is one aligned 16-byte vector.  A block takes
 * the next tile from an atomic counter (so it only waits on tiles already
 * taken, by blocks already running; it loads tile blockIdx.x meanwhile, the
 * usual answer) and owns block x items elements: each
 * wave a contiguous segment of V = items/4 rows of GP_WAVE_SIZE vectors, lane
 * l loading vector l of every row (each row one coalesced 16-byte load per
 * lane; all V loads issued before the first add: V x 16 bytes in flight per
 * thread).  Only the tiles at the ends test element by element.
 *
 * Order of the fp32 additions (scan.h's bound counts them):
 *   1. per lane and row: the vector's own inclusive sums a, a+b, (a+b)+c, ...
 *      (3 serial adds);
 *   2. per row: Kogge-Stone inclusive scan of the lanes' vector totals over
 *      the wave (log2 wave levels, t = t_below + t), shifted one lane for
 *      the lane's exclusive row prefix;
 *   3. per wave: row prefix = carry + lane prefix, carry = carry + row total
 *      (V serial adds);
 *   4. per block: Kogge-Stone scan of the wave totals in wave 0 (log2 waves);
 *   5. across tiles: wave 0 publishes the tile's aggregate, then (in launches
 *      of GP_SCAN_PACE_MIN_TILES tiles or more, after a pause: scan.h) looks
 *      back a window of `wave` predecessors at a time: the nearest one with its
 *      inclusive prefix stops the walk, the aggregates in between and that
 *      prefix are summed by a butterfly over the wave, window sums are added
 *      farther-first; the tile's inclusive prefix = prefix + aggregate;
 *   6. per wave: q = tile prefix + wave prefix; per row: base = q + row
 *      prefix; per element: base + its sum from step 1.
 * Step 5 depends on which predecessors had finished, so fp32 results may
 * differ in the last bits from run to run; int32 results never do.
 *
 * Descriptor (one 8-byte word per tile, written and read whole): high word
 * epoch << 2 | status (1 aggregate, 2 inclusive prefix), low word the value's
 * bits.  A word of another epoch reads as "not ready", so no clearing is
 * needed between runs (scan.h). */
#include "gp_device.h"
#include "runtime.h"
#include "scan.h"

#define GP_SCAN_ST_AGG 1u
#define GP_SCAN_ST_PREFIX 2u
/* Workspace: the tile counter, then the descriptors from this offset. */
#define GP_SCAN_WS_DESC 16

template <typename E> struct gp_sc;
template <> struct gp_sc<float> {
    typedef float4 V;
    static __device__ __forceinline__ unsigned bits(float v) { return __float_as_uint(v); }
    static __device__ __forceinline__ float from_bits(unsigned b) { return __uint_as_float(b); }
    static __device__ __forceinline__ float shfl(float v, int src) { return gp_shfl(v, src); }
    static __device__ __forceinline__ float shfl_up(float v, int d) { return gp_shfl_up(v, d); }
    static __device__ __forceinline__ float shfl_xor(float v, int m) { return gp_shfl_xor(v, m); }
    static __device__ __forceinline__ V make(float x, float y, float z, float w) { return make_float4(x, y, z, w); }
};
template <> struct gp_sc<unsigned> {
    typedef uint4 V;
    static __device__ __forceinline__ unsigned bits(unsigned v) { return v; }
    static __device__ __forceinline__ unsigned from_bits(unsigned b) { return b; }
    static __device__ __forceinline__ unsigned shfl(unsigned v, int src)
    {
        return (unsigned)gp_shfl_int((int)v, src);
    }
    static __device__ __forceinline__ unsigned shfl_up(unsigned v, int d)
    {
        return (unsigned)gp_shfl_up_int((int)v, d);
    }
    static __device__ __forceinline__ unsigned shfl_xor(unsigned v, int m)
    {
        return (unsigned)gp_shfl_int((int)v, (int)((threadIdx.x % GP_WAVE_SIZE) ^ (unsigned)m));
    }
    static __device__ __forceinline__ V make(unsigned x, unsigned y, unsigned z, unsigned w)
    {
        return make_uint4(x, y, z, w);
    }
};

/* Inclusive Kogge-Stone scan over the wave: lane l ends with v_0 + ... + v_l. */
template <typename E>
static __device__ __forceinline__ E wave_scan(E v, int lane)
{
#pragma unroll
    for (int o = 1; o < GP_WAVE_SIZE; o *= 2) {
        E u = gp_sc<E>::shfl_up(v, o);
        if (lane >= o)
            v = u + v;
    }
    return v;
}

/* Butterfly sum over the wave: every lane gets the same bits (a + b = b + a). */
template <typename E>
static __device__ __forceinline__ E wave_sum(E v)
{
#pragma unroll
    for (int o = GP_WAVE_SIZE / 2; o > 0; o /= 2)
        v += gp_sc<E>::shfl_xor(v, o);
    return v;
}

static __device__ __forceinline__ void desc_store(unsigned long long *d, unsigned epoch, unsigned st, unsigned bits)
{
    *(volatile unsigned long long *)d = ((unsigned long long)((epoch << 2) | st) << 32) | bits;
}

/* Status of a descriptor word in this epoch (0: not ready). */
static __device__ __forceinline__ unsigned desc_status(unsigned long long w, unsigned epoch)
{
    unsigned hi = (unsigned)(w >> 32);
    return (hi >> 2) == epoch ? (hi & 3u) : 0u;
}

/* Exclusive prefix of `tile` (> 0) from its predecessors' descriptors; all
 * lanes of one wave call it and get the same value.  With `pace` (launches
 * of GP_SCAN_PACE_MIN_TILES tiles or more) a window that had a descriptor
 * not ready waits GP_SCAN_POLL_NS before it polls again (scan.h: CUB's
 * protocol; unpaced polls of the hot descriptor lines queue in the L2). */
template <typename E>
static __device__ E look_back(const unsigned long long *desc, unsigned tile, unsigned epoch, int lane, bool pace)
{
    E prefix = (E)0;
    long long base = (long long)tile - 1;
    for (;;) {
        const long long idx = base - lane;
        unsigned long long w = 0;
        unsigned st = GP_SCAN_ST_PREFIX; /* before tile 0: a prefix of 0 */
        for (;;) {
            if (idx >= 0) {
                w = *(const volatile unsigned long long *)(desc + idx);
                st = desc_status(w, epoch);
            }
            if (gp_ballot(st == 0u) == 0ull)
                break;
            if (pace)
                gp_sleep_ns<GP_SCAN_POLL_NS>();
        }
        const unsigned long long pmask = gp_ballot(st == GP_SCAN_ST_PREFIX);
        E v = idx >= 0 ? gp_sc<E>::from_bits((unsigned)w) : (E)0;
        if (pmask != 0ull && lane > __ffsll((long long)pmask) - 1)
            v = (E)0; /* before the nearest inclusive prefix: already in it */
        prefix = wave_sum(v) + prefix;
        if (pmask != 0ull)
            return prefix;
        base -= GP_WAVE_SIZE;
    }
}

template <typename E>
static __device__ __forceinline__ typename gp_sc<E>::V load_vec(const E *in, size_t vi, size_t head, size_t end)
{
    typedef typename gp_sc<E>::V V;
    if (vi >= head && vi + 4 <= end)
        return *(const V *)(in + (vi - head));
    /* Element by element, no local array (it could land in scratch). */
#define GP_SCAN_LD(k) (vi + (k) >= head && vi + (k) < end ? in[vi + (k) - head] : (E)0)
    return gp_sc<E>::make(GP_SCAN_LD(0), GP_SCAN_LD(1), GP_SCAN_LD(2), GP_SCAN_LD(3));
#undef GP_SCAN_LD
}

template <typename E, int VOUT>
static __device__ __forceinline__ void store_vec(E *out, size_t vi, size_t head, size_t end, typename gp_sc<E>::V o)
{
    typedef typename gp_sc<E>::V V;
    if (VOUT && vi >= head && vi + 4 <= end) {
        *(V *)(out + (vi - head)) = o;
        return;
    }
#define GP_SCAN_ST(k, c)                                                   \
    if (vi + (k) >= head && vi + (k) < end)                                \
        out[vi + (k) - head] = o.c;
    GP_SCAN_ST(0, x)
    GP_SCAN_ST(1, y)
    GP_SCAN_ST(2, z)
    GP_SCAN_ST(3, w)
#undef GP_SCAN_ST
}

/* The calling thread's V vectors of the tile at virtual element tbase (its
 * wave's segment plus its lane: woff): 16-byte loads, all issued before any
 * use; element by element only in a tile at either end. */
template <typename E, int V>
static __device__ __forceinline__ void load_tile(const E *in, size_t tbase, size_t tile_elems, size_t woff,
                                                 size_t head, size_t end, typename gp_sc<E>::V *v)
{
    typedef typename gp_sc<E>::V Vt;
    const size_t seg = tbase + woff;
    if (tbase >= head && tbase + tile_elems <= end) {
#pragma unroll
        for (int j = 0; j < V; j++)
            v[j] = *(const Vt *)(in + (seg + (size_t)j * GP_WAVE_SIZE * 4 - head));
    } else {
#pragma unroll
        for (int j = 0; j < V; j++)
            v[j] = load_vec(in, seg + (size_t)j * GP_WAVE_SIZE * 4, head, end);
    }
}

/* Block limit per V (scan.h GP_SCAN_BLOCK_LIMIT): 1024 threads within 64
 * registers up to 4 vectors per thread, 512 within 128 for 8, 256 for 16.
 * Blocks per CU the launch bounds ask for: 2 for 16 vectors (64 items), so
 * two 256-thread blocks of the rule's largest tile are resident, one loading
 * while the other waits on its look-back (scan_rule.c): 65536 / (2 x 256) =
 * 128 registers on NVIDIA (ptxas used 117-125 without the bound), and in
 * HIP's meaning (waves per EU) 2 waves a SIMD, 128 VGPRs on gfx9: 2 blocks
 * of 4 waves a CU.  1 (no cap beyond the block's) for the others. */
#define GP_SCAN_LB(V) ((V) <= 4 ? 1024 : (V) <= 8 ? 512 : 256)
#define GP_SCAN_LB_MIN(V) ((V) <= 8 ? 1 : 2)

/* No __restrict__: in == out (in place) is allowed.  Every element is read
 * and written by the same thread, the reads first. */
template <typename E, int V, int VOUT>
__global__ void __launch_bounds__(GP_SCAN_LB(V), GP_SCAN_LB_MIN(V))
gp_scan_kernel(const E *in, E *out, size_t n, size_t head, int exclusive, unsigned *counter,
               unsigned long long *desc, unsigned epoch, unsigned ntiles)
{
    typedef typename gp_sc<E>::V Vt;
    __shared__ unsigned s_tile;
    __shared__ E s_wave[GP_SCAN_MAX_BLOCK / GP_WAVE_SIZE];
    const int W = GP_WAVE_SIZE;
    const int lane = (int)(threadIdx.x % W), wid = (int)(threadIdx.x / W), nw = (int)(blockDim.x / W);

    if (threadIdx.x == 0) {
        unsigned t = atomicAdd(counter, 1u);
        if (t == ntiles - 1)
            atomicExch(counter, 0u); /* the last ticket: ready for the next run */
        s_tile = t;
    }
    /* Load tile blockIdx.x while the ticket travels (blocks start in index
     * order in practice, so the ticket is nearly always that tile): the
     * ticket's round trip hides under the loads.  A different ticket loads
     * again; the guess is only ever read, never trusted. */
    unsigned tile = blockIdx.x;
    const size_t tile_elems = (size_t)blockDim.x * 4 * V, end = head + n;
    const size_t woff = (size_t)wid * W * 4 * V + (size_t)lane * 4;
    Vt v[V];
    load_tile<E, V>(in, (size_t)tile * tile_elems, tile_elems, woff, head, end, v);
    __syncthreads();
    if (s_tile != tile) {
        tile = s_tile;
        load_tile<E, V>(in, (size_t)tile * tile_elems, tile_elems, woff, head, end, v);
    }
    const size_t tbase = (size_t)tile * tile_elems;
    const size_t seg = tbase + woff;
    const bool full = tbase >= head && tbase + tile_elems <= end;

    /* Steps 1-3: each vector's own sums, the rows' lane prefixes, the carry. */
    E pre[V];
    E carry = (E)0;
#pragma unroll
    for (int j = 0; j < V; j++) {
        v[j].y = v[j].x + v[j].y;
        v[j].z = v[j].y + v[j].z;
        v[j].w = v[j].z + v[j].w;
        E s = wave_scan(v[j].w, lane);
        E ex = gp_sc<E>::shfl_up(s, 1);
        E tot = gp_sc<E>::shfl(s, W - 1);
        pre[j] = lane == 0 ? carry : carry + ex;
        carry = carry + tot;
    }

    /* Step 4-5 in wave 0: wave prefixes, the tile's aggregate, look-back. */
    if (lane == 0)
        s_wave[wid] = carry;
    __syncthreads();
    if (wid == 0) {
        E s = wave_scan(lane < nw ? s_wave[lane] : (E)0, lane);
        E wex = gp_sc<E>::shfl_up(s, 1);
        if (lane == 0)
            wex = (E)0;
        const E agg = gp_sc<E>::shfl(s, nw - 1);
        E tpre = (E)0;
        if (tile == 0) {
            if (lane == 0)
                desc_store(desc, epoch, GP_SCAN_ST_PREFIX, gp_sc<E>::bits(agg));
        } else {
            if (lane == 0)
                desc_store(desc + tile, epoch, GP_SCAN_ST_AGG, gp_sc<E>::bits(agg));
            /* Paced (scan.h): give the predecessors' descriptors time to
             * land before the first poll, as CUB does. */
            const bool pace = ntiles >= GP_SCAN_PACE_MIN_TILES;
            if (pace)
                gp_sleep_ns<GP_SCAN_FIRST_POLL_NS>();
            tpre = look_back<E>(desc, tile, epoch, lane, pace);
            if (lane == 0)
                desc_store(desc + tile, epoch, GP_SCAN_ST_PREFIX, gp_sc<E>::bits(tpre + agg));
        }
        if (lane < nw)
            s_wave[lane] = tile == 0 ? wex : tpre + wex;
    }
    __syncthreads();
    const E q = s_wave[wid];

    /* Step 6. */
#pragma unroll
    for (int j = 0; j < V; j++) {
        const E b = q + pre[j];
        Vt o;
        if (exclusive)
            o = gp_sc<E>::make(b, b + v[j].x, b + v[j].y, b + v[j].z);
        else
            o = gp_sc<E>::make(b + v[j].x, b + v[j].y, b + v[j].z, b + v[j].w);
        const size_t vi = seg + (size_t)j * W * 4;
        if (full && VOUT)
            *(Vt *)(out + (vi - head)) = o;
        else
            store_vec<E, VOUT>(out, vi, head, end, o);
    }
}

template <typename E, int V>
static gp_status launch_v(const E *in, E *out, size_t n, size_t head, int exclusive, void *ws, unsigned epoch,
                          unsigned ntiles, int block, int vout)
{
    unsigned *counter = (unsigned *)ws;
    unsigned long long *desc = (unsigned long long *)((char *)ws + GP_SCAN_WS_DESC);
    if (vout)
        gp_scan_kernel<E, V, 1><<<ntiles, block>>>(in, out, n, head, exclusive, counter, desc, epoch, ntiles);
    else
        gp_scan_kernel<E, V, 0><<<ntiles, block>>>(in, out, n, head, exclusive, counter, desc, epoch, ntiles);
    return gp_launch_status("scan");
}

template <typename E>
static gp_status launch(const E *in, E *out, size_t n, int exclusive, void *ws, unsigned epoch, int block,
                        int items)
{
    if (n == 0)
        return gp_ok();
    const size_t head = (size_t)((uintptr_t)in & 15) / sizeof(E);
    const int vout = ((uintptr_t)in & 15) == ((uintptr_t)out & 15);
    const size_t tile = (size_t)block * (size_t)items;
    const size_t ntiles = (head + n + tile - 1) / tile;
    if (block > GP_SCAN_LB(items / 4) || block < GP_WAVE_SIZE || block % GP_WAVE_SIZE)
        return gp_fail(GP_ERR_USAGE, "scan: block %d is not whole waves of %d up to %d for %d items per thread",
                       block, GP_WAVE_SIZE, GP_SCAN_LB(items / 4), items);
    if (ntiles >= GP_SCAN_MAX_TILES)
        return gp_fail(GP_ERR_USAGE, "scan: %zu tiles exceed the launch's %zu", ntiles, GP_SCAN_MAX_TILES);
    switch (items) {
    case 4: return launch_v<E, 1>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout);
    case 8: return launch_v<E, 2>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout);
    case 16: return launch_v<E, 4>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout);
    case 32: return launch_v<E, 8>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout);
    case 64: return launch_v<E, 16>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout);
    default: return gp_fail(GP_ERR_USAGE, "scan: %d items per thread not compiled (4, 8, 16, 32, 64)", items);
    }
}

extern "C" gp_status gp_scan_launch_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_ws,
                                        unsigned epoch, int block, int items)
{
    return launch<float>(d_in, d_out, n, exclusive, d_ws, epoch, block, items);
}

extern "C" gp_status gp_scan_launch_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_ws,
                                        unsigned epoch, int block, int items)
{
    return launch<unsigned>((const unsigned *)d_in, (unsigned *)d_out, n, exclusive, d_ws, epoch, block, items);
}
