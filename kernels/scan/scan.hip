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

#include <stdio.h>
#include <string.h>
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
 * lanes of one wave call it and get the same value.  With `pace` a window
 * that had a descriptor not ready waits POLL_NS before it polls again (the
 * register kernel, in launches of GP_SCAN_PACE_MIN_TILES tiles or more:
 * GP_SCAN_POLL_NS, CUB's protocol, unpaced polls of the hot descriptor lines
 * queue in the L2; the ring: GP_SCAN_RING_POLL_NS, scan.h). */
template <typename E, unsigned POLL_NS>
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
                gp_sleep_ns<POLL_NS>();
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
            tpre = look_back<E, GP_SCAN_POLL_NS>(desc, tile, epoch, lane, pace);
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

/* ---- The ring kernel (stages > 0; NVIDIA sm_90+, GP_HAS_BULK_COPY).
 *
 * Why: the register kernel holds its tile in registers while it waits on its
 * look-back, and a waiting block issues no loads; with the look-back every
 * tile shape ran 0.65-0.75 of the device copy on the H200 (CUB's scan 0.74),
 * without it 0.98-0.99.  Here a persistent block (one a CU at the rule's
 * tile) keeps `stages` tiles in shared memory, and three roles run at once:
 *   producer  (last wave, one lane) takes a tile ticket as soon as a stage is
 *             free and starts its bulk copy: the loads run `stages` tiles
 *             ahead whatever the look-back does;
 *   reducer   (the wave before it) sums each tile as soon as it lands and
 *             publishes that aggregate: a tile's successors on other CUs
 *             find it long before the tile itself is scanned.  Without this
 *             (the scanning waves publishing it when they reach the tile)
 *             the ring ran 0.41-0.55 of the copy: every aggregate waited for
 *             the look-backs of the tiles before it in its block's ring;
 *   scanners  (the first `block` threads) read the oldest landed tile into
 *             registers and free its stage (each lane arrives on the stage's
 *             "empty" barrier after its own reads, as the reducer's lanes do:
 *             the producer refills a stage once every lane that reads it
 *             has), scan it (steps 1-6 above, in the same order), look back,
 *             publish the inclusive prefix and store.
 * Every lane arrives, not one a wave after the wave's sync: that order holds
 * too (the warp barrier orders its lanes' reads before lane 0's arrive), but
 * compute-sanitizer's racecheck does not follow it and reports each refill's
 * bulk copy against the other lanes' reads of the stage (H200, every ring
 * kernel); one arrive a lane costs 0.1-0.2 % at 2^28 fp32 there.
 * Tickets: a block only waits on smaller tickets, taken earlier by running
 * blocks, so the look-back cannot deadlock whether or not all blocks are
 * resident; the last of the (tiles + grid) tickets resets the counter.
 * Descriptors are written with a 64-bit atomicMax: in one epoch an inclusive
 * prefix outranks an aggregate, so the reducer's late aggregate never hides
 * the scanners' prefix.  Tiles at either end (head, a partial last tile) are
 * loaded by the scanners element by element and publish their own aggregate.
 *
 * Reducer order (scan.h's bound counts it): lane l adds the tile's 16-byte
 * vectors l, l + wave, l + 2 wave, ... as (x + y) + (z + w), the i-th into
 * accumulator i mod 8; the 8 accumulators as ((a0 + a1) + (a2 + a3)) + ((a4 +
 * a5) + (a6 + a7)); then a butterfly over the wave. */
#define GP_SCAN_RING_LB(V) (((V) >= 16 ? 256 : 512) + 2 * GP_WAVE_SIZE)

/* Stage s's ticket, read by lane 0 alone and passed to the wave: one
 * shared read a wave instead of 32, and lane 0's own arrive on "empty" (after
 * the read) orders it before the producer's next write of the slot. */
#if GP_HAS_BULK_COPY /* only the ring's body calls it (no unused-function warning elsewhere) */
static __device__ __forceinline__ unsigned ring_ticket(const unsigned *ticket, int s, int lane)
{
    unsigned t = 0;
    if (lane == 0)
        t = ticket[s];
    return (unsigned)gp_shfl_int((int)t, 0);
}
#endif

template <typename E, int V, int VOUT>
__global__ void __launch_bounds__(GP_SCAN_RING_LB(V))
gp_scan_ring_kernel(const E *in, E *out, size_t n, size_t head, int exclusive, unsigned *counter,
                    unsigned long long *desc, unsigned epoch, unsigned ntiles, int stages)
{
#if GP_HAS_BULK_COPY
    typedef typename gp_sc<E>::V Vt;
    extern __shared__ __align__(128) unsigned char gp_scan_ring_lds[];
    Vt *ring = (Vt *)gp_scan_ring_lds;
    __shared__ __align__(8) unsigned long long full[GP_SCAN_RING_MAX_STAGES], empty[GP_SCAN_RING_MAX_STAGES];
    __shared__ unsigned ticket[GP_SCAN_RING_MAX_STAGES];
    __shared__ E s_wave[512 / GP_WAVE_SIZE];
    const int W = GP_WAVE_SIZE;
    const int B = (int)blockDim.x - 2 * W; /* scanning threads */
    const int lane = (int)(threadIdx.x % W), wid = (int)(threadIdx.x / W), nw = B / W;
    const size_t tile_elems = (size_t)B * 4 * V, end = head + n;
    const unsigned tile_bytes = (unsigned)(tile_elems * sizeof(E));
    const unsigned last_ticket = ntiles + gridDim.x - 1;
    const E *vin = in - head; /* virtual element 0: 16-byte aligned */
    if ((int)threadIdx.x < stages) {
        gp_mbar_init(&full[threadIdx.x], 1);
        gp_mbar_init(&empty[threadIdx.x], (unsigned)(nw + 1) * W); /* every lane of the scanners and the reducer */
    }
    gp_mbar_init_fence();
    __syncthreads();

    if (wid == nw + 1) { /* producer */
        if (lane == 0) {
            for (int k = 0;; k++) {
                const int s = k % stages;
                gp_mbar_wait(&empty[s], (unsigned)((k / stages) & 1) ^ 1u);
                gp_fence_proxy_async(); /* the waves' reads of stage s before the copy's writes */
                const unsigned t = atomicAdd(counter, 1u);
                if (t == last_ticket)
                    atomicExch(counter, 0u); /* every ticket is taken: ready for the next run */
                ticket[s] = t;
                const size_t tbase = (size_t)t * tile_elems;
                if (t < ntiles && tbase >= head && tbase + tile_elems <= end) {
                    gp_mbar_expect(&full[s], tile_bytes);
                    gp_bulk_load(ring + (size_t)s * (tile_elems / 4), vin + tbase, tile_bytes, &full[s]);
                } else {
                    gp_mbar_arrive(&full[s]); /* an end tile (the scanners load it) or past the last */
                }
                if (t >= ntiles)
                    break;
            }
        }
        return;
    }
    if (wid == nw) { /* reducer */
        for (int k = 0;; k++) {
            const int s = k % stages;
            gp_mbar_wait(&full[s], (unsigned)(k / stages) & 1u);
            const unsigned t = ring_ticket(ticket, s, lane);
            if (t >= ntiles)
                break;
            const size_t tbase = (size_t)t * tile_elems;
            if (tbase >= head && tbase + tile_elems <= end) {
                const Vt *st = ring + (size_t)s * (tile_elems / 4);
                E acc[8];
#pragma unroll
                for (int a = 0; a < 8; a++)
                    acc[a] = (E)0;
                const int per_lane = (int)(tile_elems / 4) / W; /* nw x V: a multiple of 8 */
                for (int i = 0; i < per_lane; i += 8) {
#pragma unroll
                    for (int a = 0; a < 8; a++) { /* constant indices: acc stays in registers */
                        if (i + a < per_lane) {
                            const Vt v = st[lane + (i + a) * W];
                            acc[a] = acc[a] + ((v.x + v.y) + (v.z + v.w));
                        }
                    }
                }
                const E sum = wave_sum(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
                if (lane == 0)
                    atomicMax(desc + t, ((unsigned long long)((epoch << 2) | (t == 0 ? GP_SCAN_ST_PREFIX : GP_SCAN_ST_AGG))
                                         << 32) | gp_sc<E>::bits(sum));
            }
            gp_mbar_arrive(&empty[s]); /* this lane's reads of the stage are done */
        }
        return;
    }

    /* Scanners. */
    const size_t woff = (size_t)wid * W * 4 * V + (size_t)lane * 4;
    for (int k = 0;; k++) {
        const int s = k % stages;
        gp_mbar_wait(&full[s], (unsigned)(k / stages) & 1u);
        const unsigned tile = ring_ticket(ticket, s, lane);
        if (tile >= ntiles)
            break;
        const size_t tbase = (size_t)tile * tile_elems;
        const size_t seg = tbase + woff;
        const bool whole = tbase >= head && tbase + tile_elems <= end;
        Vt v[V];
        if (whole) {
            const Vt *st = ring + (size_t)s * (tile_elems / 4) + woff / 4;
#pragma unroll
            for (int j = 0; j < V; j++)
                v[j] = st[j * W];
        } else {
            load_tile<E, V>(in, tbase, tile_elems, woff, head, end, v);
        }
        gp_mbar_arrive(&empty[s]); /* this lane has read its part of the stage: release it */
        E pre[V];
        E carry = (E)0;
#pragma unroll
        for (int j = 0; j < V; j++) {
            v[j].y = v[j].x + v[j].y;
            v[j].z = v[j].y + v[j].z;
            v[j].w = v[j].z + v[j].w;
            E sc = wave_scan(v[j].w, lane);
            E ex = gp_sc<E>::shfl_up(sc, 1);
            E tot = gp_sc<E>::shfl(sc, W - 1);
            pre[j] = lane == 0 ? carry : carry + ex;
            carry = carry + tot;
        }
        if (lane == 0)
            s_wave[wid] = carry;
        gp_named_sync(1, (unsigned)B);
        if (wid == 0) {
            E sw = wave_scan(lane < nw ? s_wave[lane] : (E)0, lane);
            E wex = gp_sc<E>::shfl_up(sw, 1);
            if (lane == 0)
                wex = (E)0;
            const E agg = gp_sc<E>::shfl(sw, nw - 1);
            E tpre = (E)0;
            if (tile == 0) {
                if (lane == 0 && !whole)
                    atomicMax(desc, ((unsigned long long)((epoch << 2) | GP_SCAN_ST_PREFIX) << 32) | gp_sc<E>::bits(agg));
            } else {
                if (lane == 0 && !whole)
                    atomicMax(desc + tile,
                              ((unsigned long long)((epoch << 2) | GP_SCAN_ST_AGG) << 32) | gp_sc<E>::bits(agg));
                tpre = look_back<E, GP_SCAN_RING_POLL_NS>(desc, tile, epoch, lane, true);
                if (lane == 0)
                    atomicMax(desc + tile, ((unsigned long long)((epoch << 2) | GP_SCAN_ST_PREFIX) << 32) |
                                               gp_sc<E>::bits(tpre + agg));
            }
            if (lane < nw)
                s_wave[lane] = tile == 0 ? wex : tpre + wex;
        }
        gp_named_sync(1, (unsigned)B);
        const E q = s_wave[wid];
#pragma unroll
        for (int j = 0; j < V; j++) {
            const E b = q + pre[j];
            Vt o;
            if (exclusive)
                o = gp_sc<E>::make(b, b + v[j].x, b + v[j].y, b + v[j].z);
            else
                o = gp_sc<E>::make(b + v[j].x, b + v[j].y, b + v[j].z, b + v[j].w);
            const size_t vi = seg + (size_t)j * W * 4;
            if (whole && VOUT)
                *(Vt *)(out + (vi - head)) = o;
            else
                store_vec<E, VOUT>(out, vi, head, end, o);
        }
        /* A wave rewrites only its own s_wave slot (its carry, next tile)
         * and only after reading q from it here; wave 0 writes the slots
         * between the two named barriers, when every wave has written its
         * carry and none reads q yet. */
    }
#else
    (void)in, (void)out, (void)n, (void)head, (void)exclusive, (void)counter, (void)desc, (void)epoch,
        (void)ntiles, (void)stages;
#if defined(GP_VENDOR_NVIDIA) && defined(__CUDA_ARCH__)
    __trap(); /* code for an architecture without bulk copies: the launcher refuses it; never a silent no-op */
#endif
#endif
}

template <typename E, int V>
static gp_status launch_v(const E *in, E *out, size_t n, size_t head, int exclusive, void *ws, unsigned epoch,
                          unsigned ntiles, int block, int vout, gp_stream s)
{
    hipStream_t st = (hipStream_t)s;
    unsigned *counter = (unsigned *)ws;
    unsigned long long *desc = (unsigned long long *)((char *)ws + GP_SCAN_WS_DESC);
    if (vout)
        gp_scan_kernel<E, V, 1><<<ntiles, block, 0, st>>>(in, out, n, head, exclusive, counter, desc, epoch, ntiles);
    else
        gp_scan_kernel<E, V, 0><<<ntiles, block, 0, st>>>(in, out, n, head, exclusive, counter, desc, epoch, ntiles);
    return gp_launch_status("scan");
}

/* The ring: one persistent block per resident slot (at most one per tile). */
template <typename E, int V>
static gp_status launch_ring_v(const E *in, E *out, size_t n, size_t head, int exclusive, void *ws, unsigned epoch,
                               unsigned ntiles, int block, int stages, int vout, gp_stream s)
{
#if defined(GP_VENDOR_NVIDIA)
    hipStream_t st = (hipStream_t)s;
    unsigned *counter = (unsigned *)ws;
    unsigned long long *desc = (unsigned long long *)((char *)ws + GP_SCAN_WS_DESC);
    const void *fn = vout ? (const void *)gp_scan_ring_kernel<E, V, 1> : (const void *)gp_scan_ring_kernel<E, V, 0>;
    const int threads = block + 2 * GP_WAVE_SIZE;
    const size_t lds = (size_t)stages * (size_t)block * 4 * V * sizeof(E);
    if (!gp_scan_ring_compiled())
        return gp_fail(GP_ERR_USAGE, "scan: stages %d asks for the ring kernel, and this binary runs code without "
                                     "bulk copies on this device (sm_90+ only; gp_scan_params_fit sets stages 0)",
                       stages);
    int per_cu = 0, cus = 0;
    GP_TRY(gp_func_dynamic_lds(fn, threads, lds, &per_cu, &cus));
    if (per_cu < 1 || cus < 1)
        return gp_fail(GP_ERR_USAGE, "scan: a ring of %d stages (%zu bytes of shared memory, %d threads) does not fit a CU",
                       stages, lds, threads);
    const unsigned long long resident = (unsigned long long)per_cu * (unsigned long long)cus;
    const unsigned grid = resident < ntiles ? (unsigned)resident : ntiles;
    if (vout)
        gp_scan_ring_kernel<E, V, 1><<<grid, threads, lds, st>>>(in, out, n, head, exclusive, counter, desc, epoch,
                                                                 ntiles, stages);
    else
        gp_scan_ring_kernel<E, V, 0><<<grid, threads, lds, st>>>(in, out, n, head, exclusive, counter, desc, epoch,
                                                                 ntiles, stages);
    return gp_launch_status("scan (ring)");
#else
    (void)in, (void)out, (void)n, (void)head, (void)exclusive, (void)ws, (void)epoch, (void)ntiles, (void)block,
        (void)stages, (void)vout, (void)s;
    return gp_fail(GP_ERR_USAGE, "scan: the ring kernel (stages > 0) is NVIDIA sm_90+ only; use stages = 0");
#endif
}

extern "C" int gp_scan_ring_compiled(void)
{
#if defined(GP_VENDOR_NVIDIA)
    /* The code the runtime picks depends on the device's architecture: one
     * query per architecture opened, then the answer. */
    static char known_arch[32];
    static int answer;
    const char *arch = gp_rt_open_arch();
    if (arch[0] && !strcmp(arch, known_arch))
        return answer;
    gp_func_attr a;
    gp_status st = gp_func_attributes((const void *)gp_scan_ring_kernel<float, 16, 1>, &a);
    if (st.code == GP_ERR_NO_GPU)
        return 1; /* no device: nothing runs, the device facts decide (scan.h) */
    answer = st.code == GP_OK && a.code_arch >= 90;
    snprintf(known_arch, sizeof known_arch, "%s", arch);
    return answer;
#else
    return 0;
#endif
}

template <typename E>
static gp_status launch(const E *in, E *out, size_t n, int exclusive, void *ws, unsigned epoch, int block,
                        int items, int stages, gp_stream s)
{
    if (n == 0)
        return gp_ok();
    const size_t head = (size_t)((uintptr_t)in & 15) / sizeof(E);
    const int vout = ((uintptr_t)in & 15) == ((uintptr_t)out & 15);
    const size_t tile = (size_t)block * (size_t)items;
    const size_t ntiles = (head + n + tile - 1) / tile;
    if (stages > 0) {
        if (stages < GP_SCAN_RING_MIN_STAGES || stages > GP_SCAN_RING_MAX_STAGES || items < GP_SCAN_RING_MIN_ITEMS ||
            block > GP_SCAN_RING_BLOCK_LIMIT(items) || block < 2 * GP_WAVE_SIZE || block % GP_WAVE_SIZE)
            return gp_fail(GP_ERR_USAGE,
                           "scan: the ring takes %d..%d stages, %d+ items and whole waves of %d, 2 to %d of them "
                           "(stages %d, items %d, block %d)",
                           GP_SCAN_RING_MIN_STAGES, GP_SCAN_RING_MAX_STAGES, GP_SCAN_RING_MIN_ITEMS, GP_WAVE_SIZE,
                           GP_SCAN_RING_BLOCK_LIMIT(items) / GP_WAVE_SIZE, stages, items, block);
        if (ntiles >= GP_SCAN_MAX_TILES)
            return gp_fail(GP_ERR_USAGE, "scan: %zu tiles exceed the launch's %zu", ntiles, GP_SCAN_MAX_TILES);
        const unsigned nt = (unsigned)ntiles;
        switch (items) {
        case 16: return launch_ring_v<E, 4>(in, out, n, head, exclusive, ws, epoch, nt, block, stages, vout, s);
        case 32: return launch_ring_v<E, 8>(in, out, n, head, exclusive, ws, epoch, nt, block, stages, vout, s);
        default: return launch_ring_v<E, 16>(in, out, n, head, exclusive, ws, epoch, nt, block, stages, vout, s);
        }
    }
    if (block > GP_SCAN_LB(items / 4) || block < GP_WAVE_SIZE || block % GP_WAVE_SIZE)
        return gp_fail(GP_ERR_USAGE, "scan: block %d is not whole waves of %d up to %d for %d items per thread",
                       block, GP_WAVE_SIZE, GP_SCAN_LB(items / 4), items);
    if (ntiles >= GP_SCAN_MAX_TILES)
        return gp_fail(GP_ERR_USAGE, "scan: %zu tiles exceed the launch's %zu", ntiles, GP_SCAN_MAX_TILES);
    switch (items) {
    case 4: return launch_v<E, 1>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout, s);
    case 8: return launch_v<E, 2>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout, s);
    case 16: return launch_v<E, 4>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout, s);
    case 32: return launch_v<E, 8>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout, s);
    case 64: return launch_v<E, 16>(in, out, n, head, exclusive, ws, epoch, (unsigned)ntiles, block, vout, s);
    default: return gp_fail(GP_ERR_USAGE, "scan: %d items per thread not compiled (4, 8, 16, 32, 64)", items);
    }
}

extern "C" gp_status gp_scan_launch_f32(const float *d_in, float *d_out, size_t n, int exclusive, void *d_ws,
                                        unsigned epoch, int block, int items, int stages, gp_stream s)
{
    return launch<float>(d_in, d_out, n, exclusive, d_ws, epoch, block, items, stages, s);
}

extern "C" gp_status gp_scan_launch_i32(const int32_t *d_in, int32_t *d_out, size_t n, int exclusive, void *d_ws,
                                        unsigned epoch, int block, int items, int stages, gp_stream s)
{
    return launch<unsigned>((const unsigned *)d_in, (unsigned *)d_out, n, exclusive, d_ws, epoch, block, items,
                            stages, s);
}
