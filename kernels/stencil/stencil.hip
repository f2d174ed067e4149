/* stencil kernels: the 3D 7-point Jacobi step, tiled in x and y with
 * register streaming in z, and the naive one-thread-per-point kernel it is
 * compared with.
 *
 * Tiled kernel.  A block of tile_x x tile_y threads owns a tile of columns
 * (x, y) and walks a chunk of z planes.  Each thread keeps its column's
 * below / current / above values in registers (the z neighbours never touch
 * LDS), and the current xy plane goes to LDS with its halo, from which the
 * four in-plane neighbours are read.  The halo (2 tile_x + 2 tile_y points)
 * is loaded by the first threads of the block, one point each, so no thread
 * issues more than two loads per plane.  Loads run `AHEAD` planes ahead of
 * the plane being computed (a queue of registers: the bytes in flight the
 * rule sizes by Little's law), so a plane's compute never waits on its own
 * loads.  LDS is double-buffered (plane z in buffer z & 1): one barrier per
 * plane suffices, because the write of plane z + 2 into a buffer comes after
 * every thread passed the barrier of plane z + 1, which each thread reaches
 * only after reading plane z.
 *
 * Order of the fp32 operations (stencil.h's bound covers any order):
 *   s = ((x- + x+) + (y- + y+)) + (z- + z+);  out = c0 x center + c1 x s
 * (the compiler may contract the last into an FMA). */
#include "gp_device.h"
#include "runtime.h"
#include "stencil.h"
#include "stencil_v4.h"

extern __shared__ float gp_stencil_lds[];

typedef struct stencil_args {
    int nx, ny, nz;
    int z_per_chunk;
    float c0, c1;
} stencil_args;

/* At most 32 registers a thread: __launch_bounds__(512, 4) asks for 4 blocks
 * of 512 per SM on NVIDIA (65536 / 2048 = 32 registers, a full SM) and 4
 * waves per SIMD on AMD (at most 64 VGPRs); stencil_rule.c's STENCIL_REGS,
 * checked against ptxas by tests/build/check_gpu_build.sh. */
template <int AHEAD>
__global__ void __launch_bounds__(GP_STENCIL_MAX_BLOCK, 4)
    gp_stencil_kernel(const float *__restrict__ in, float *__restrict__ out, stencil_args a)
{
    const int tx = (int)blockDim.x, ty = (int)blockDim.y;
    const int lx = (int)threadIdx.x, ly = (int)threadIdx.y;
    const int pitch = tx + 2;
    const int plane_lds = pitch * (ty + 2);
    const int gx = (int)blockIdx.x * tx + lx, gy = (int)blockIdx.y * ty + ly;
    const size_t nx = (size_t)a.nx, plane = nx * (size_t)a.ny;
    const int z0 = (int)blockIdx.z * a.z_per_chunk;
    const int z1 = z0 + a.z_per_chunk < a.nz ? z0 + a.z_per_chunk : a.nz;
    /* Centers are needed from plane z0 - 1 through z1 (the plane above the
     * chunk's last); halos only for the chunk's own planes. */
    const int zc_last = z1 < a.nz ? z1 : a.nz - 1;

    const bool own = gx < a.nx && gy < a.ny;
    const size_t c_off = own ? (size_t)gy * nx + (size_t)gx : 0;
    const int c_lds = (ly + 1) * pitch + lx + 1;
    const bool interior_xy = gx >= 1 && gx <= a.nx - 2 && gy >= 1 && gy <= a.ny - 2;

    /* This thread's halo point, if any: top row, bottom row, left column,
     * right column of the tile, in that order over the linear thread id. */
    const int t = ly * tx + lx;
    int hx = 0, hy = 0;
    bool halo = t < 2 * tx + 2 * ty;
    if (t < tx)
        hx = t, hy = -1;
    else if (t < 2 * tx)
        hx = t - tx, hy = ty;
    else if (t < 2 * tx + ty)
        hx = -1, hy = t - 2 * tx;
    else
        hx = tx, hy = t - 2 * tx - ty;
    const int hgx = (int)blockIdx.x * tx + hx, hgy = (int)blockIdx.y * ty + hy;
    halo = halo && hgx >= 0 && hgx < a.nx && hgy >= 0 && hgy < a.ny;
    const size_t h_off = halo ? (size_t)hgy * nx + (size_t)hgx : 0;
    const int h_lds = (hy + 1) * pitch + hx + 1;

    /* The queue: qc[k] = center of plane z + 1 + k, qh[k] = halo of plane
     * z + k (0 where the plane is outside what this chunk needs). */
    float below = 0.0f, cur = 0.0f, qc[AHEAD], qh[AHEAD];
    if (own && z0 >= 1)
        below = in[(size_t)(z0 - 1) * plane + c_off];
    if (own)
        cur = in[(size_t)z0 * plane + c_off];
#pragma unroll
    for (int k = 0; k < AHEAD; k++) {
        const int zc = z0 + 1 + k, zh = z0 + k;
        qc[k] = own && zc <= zc_last ? in[(size_t)zc * plane + c_off] : 0.0f;
        qh[k] = halo && zh < z1 ? in[(size_t)zh * plane + h_off] : 0.0f;
    }

    /* The loop's state in few registers (32 at most): running pointers to
     * the next loads and the store, and the planes up to which each load is
     * needed folded into one bound each (below any z when not needed). */
    const float *pc = in + (size_t)(z0 + 1 + AHEAD) * plane + c_off;
    const float *ph = in + (size_t)(z0 + AHEAD) * plane + h_off;
    float *po = out + (size_t)z0 * plane + c_off;
    const int lim_c = own ? zc_last - 1 - AHEAD : -1;   /* load centers while z <= lim_c */
    const int lim_h = halo ? z1 - 1 - AHEAD : -1;       /* halos while z <= lim_h */
    const int zi0 = interior_xy ? 1 : a.nz, zi1 = a.nz - 2; /* interior planes */
    for (int z = z0; z < z1; z++) {
        float *buf = gp_stencil_lds + (z & 1) * plane_lds;
        buf[c_lds] = cur;
        if (halo)
            buf[h_lds] = qh[0];
        /* The loads AHEAD planes on, issued before the barrier. */
        const float nc = z <= lim_c ? *pc : 0.0f;
        const float nh = z <= lim_h ? *ph : 0.0f;
        pc += plane, ph += plane;
        __syncthreads();
        if (own) {
            const float above = qc[0];
            float r = cur;
            if (z >= zi0 && z <= zi1) {
                const float s = ((buf[c_lds - 1] + buf[c_lds + 1]) + (buf[c_lds - pitch] + buf[c_lds + pitch])) +
                                (below + above);
                r = a.c0 * cur + a.c1 * s;
            }
            *po = r;
        }
        po += plane;
        below = cur;
        cur = qc[0];
#pragma unroll
        for (int k = 0; k + 1 < AHEAD; k++)
            qc[k] = qc[k + 1], qh[k] = qh[k + 1];
        qc[AHEAD - 1] = nc;
        qh[AHEAD - 1] = nh;
    }
}

/* The 4-wide kernel (vec = 4): the same z march, each thread owning 4
 * consecutive x points of its row, moved with one 16-byte load and one
 * 16-byte store a plane, so a wave instruction moves 512 B instead of 128 and
 * a block does 4x the bytes per barrier.  The in-row neighbours of the 4
 * points are the thread's own registers but for the first's left and the
 * last's right (2 single LDS reads); the rows above and below are 16-byte LDS
 * reads.  The LDS layout and the halo threads: stencil_v4.h.  Needs nx % 4 ==
 * 0 and 16-byte aligned arrays (gp_stencil_vec_usable; the host falls back
 * to the 1-wide kernel otherwise).  Registers: 64 (launch bounds 256 threads,
 * 4 blocks an SM; 4 waves per SIMD on AMD); stencil_rule.c STENCIL_V4_REGS. */
template <int AHEAD>
__global__ void __launch_bounds__(GP_STENCIL_V4_MAX_BLOCK, 4)
    gp_stencil_v4_kernel(const float *__restrict__ in, float *__restrict__ out, stencil_args a)
{
    const int tx = (int)blockDim.x, ty = (int)blockDim.y;
    const int lx = (int)threadIdx.x, ly = (int)threadIdx.y;
    const int pitch = GP_STENCIL_V4_PITCH(tx);
    const int plane_lds = pitch * (ty + 2);
    const int gx = ((int)blockIdx.x * tx + lx) * 4, gy = (int)blockIdx.y * ty + ly;
    const size_t nx = (size_t)a.nx, plane = nx * (size_t)a.ny;
    const int z0 = (int)blockIdx.z * a.z_per_chunk;
    const int z1 = z0 + a.z_per_chunk < a.nz ? z0 + a.z_per_chunk : a.nz;
    const int zc_last = z1 < a.nz ? z1 : a.nz - 1;

    const bool own = gx < a.nx && gy < a.ny;
    const size_t c_off = own ? (size_t)gy * nx + (size_t)gx : 0;
    const int c_lds = gp_stencil_v4_lds(4 * lx, ly, tx);
    const bool y_in = gy >= 1 && gy <= a.ny - 2;

    const gp_stencil_v4_halo hv = gp_stencil_v4_halo_of(ly * tx + lx, tx, ty);
    const int hgx = (int)blockIdx.x * tx * 4 + hv.x, hgy = (int)blockIdx.y * ty + hv.y;
    const bool halo = hv.kind >= 0 && hgx >= 0 && hgx < a.nx && hgy >= 0 && hgy < a.ny;
    const bool hvec = hv.kind <= 1;
    const size_t h_off = halo ? (size_t)hgy * nx + (size_t)hgx : 0;
    const int h_lds = gp_stencil_v4_lds(hv.x, hv.y, tx);

    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float4 below = zero, cur = zero, qc[AHEAD], qh[AHEAD];
    if (own && z0 >= 1)
        below = *(const float4 *)(in + (size_t)(z0 - 1) * plane + c_off);
    if (own)
        cur = *(const float4 *)(in + (size_t)z0 * plane + c_off);
#pragma unroll
    for (int k = 0; k < AHEAD; k++) {
        const int zc = z0 + 1 + k, zh = z0 + k;
        qc[k] = own && zc <= zc_last ? *(const float4 *)(in + (size_t)zc * plane + c_off) : zero;
        qh[k] = zero;
        if (halo && zh < z1) {
            if (hvec)
                qh[k] = *(const float4 *)(in + (size_t)zh * plane + h_off);
            else
                qh[k].x = in[(size_t)zh * plane + h_off];
        }
    }

    const float *pc = in + (size_t)(z0 + 1 + AHEAD) * plane + c_off;
    const float *ph = in + (size_t)(z0 + AHEAD) * plane + h_off;
    float *po = out + (size_t)z0 * plane + c_off;
    const int lim_c = own ? zc_last - 1 - AHEAD : -1;
    const int lim_h = halo ? z1 - 1 - AHEAD : -1;
    for (int z = z0; z < z1; z++) {
        float *buf = gp_stencil_lds + (z & 1) * plane_lds;
        *(float4 *)(buf + c_lds) = cur;
        if (halo) {
            if (hvec)
                *(float4 *)(buf + h_lds) = qh[0];
            else
                buf[h_lds] = qh[0].x;
        }
        float4 nc = zero, nh = zero;
        if (z <= lim_c)
            nc = *(const float4 *)pc;
        if (z <= lim_h) {
            if (hvec)
                nh = *(const float4 *)ph;
            else
                nh.x = *ph;
        }
        pc += plane, ph += plane;
        __syncthreads();
        if (own) {
            const float4 above = qc[0];
            const float4 n = *(const float4 *)(buf + c_lds - pitch), s = *(const float4 *)(buf + c_lds + pitch);
            const float l = buf[c_lds - 1], r = buf[c_lds + 4];
            const bool zin = z >= 1 && z <= a.nz - 2 && y_in;
            const float c[4] = {cur.x, cur.y, cur.z, cur.w};
            const float xm[4] = {l, cur.x, cur.y, cur.z}, xp[4] = {cur.y, cur.z, cur.w, r};
            const float ym[4] = {n.x, n.y, n.z, n.w}, yp[4] = {s.x, s.y, s.z, s.w};
            const float zm[4] = {below.x, below.y, below.z, below.w}, zp[4] = {above.x, above.y, above.z, above.w};
            float o[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const bool inner = zin && gx + k >= 1 && gx + k <= a.nx - 2;
                const float sum = ((xm[k] + xp[k]) + (ym[k] + yp[k])) + (zm[k] + zp[k]);
                o[k] = inner ? a.c0 * c[k] + a.c1 * sum : c[k];
            }
            *(float4 *)po = make_float4(o[0], o[1], o[2], o[3]);
        }
        po += plane;
        below = cur;
        cur = qc[0];
#pragma unroll
        for (int k = 0; k + 1 < AHEAD; k++)
            qc[k] = qc[k + 1], qh[k] = qh[k + 1];
        qc[AHEAD - 1] = nc;
        qh[AHEAD - 1] = nh;
    }
}

/* One thread per point, every neighbour from global memory (the caches find
 * the reuse, or not): the baseline the tiled kernel is compared with. */
__global__ void GP_LAUNCH_BOUNDS(256)
    gp_stencil_naive_kernel(const float *__restrict__ in, float *__restrict__ out, stencil_args a)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    const int z = (int)blockIdx.z;
    if (x >= a.nx || y >= a.ny)
        return;
    const size_t nx = (size_t)a.nx, plane = nx * (size_t)a.ny;
    const size_t i = (size_t)z * plane + (size_t)y * nx + (size_t)x;
    const float c = in[i];
    float r = c;
    if (x >= 1 && x <= a.nx - 2 && y >= 1 && y <= a.ny - 2 && z >= 1 && z <= a.nz - 2) {
        const float s = ((in[i - 1] + in[i + 1]) + (in[i - nx] + in[i + nx])) + (in[i - plane] + in[i + plane]);
        r = a.c0 * c + a.c1 * s;
    }
    out[i] = r;
}

static stencil_args make_args(const gp_stencil_shape *s, float c0, float c1, int z_per_chunk)
{
    stencil_args a;
    a.nx = s->nx, a.ny = s->ny, a.nz = s->nz;
    a.z_per_chunk = z_per_chunk;
    a.c0 = c0, a.c1 = c1;
    return a;
}

extern "C" gp_status gp_stencil_launch_f32(const float *d_in, float *d_out, const gp_stencil_shape *s, float c0,
                                           float c1, int tile_x, int tile_y, int ahead, int vec, int z_per_chunk,
                                           int z_chunks, gp_stream st)
{
    hipStream_t hs = (hipStream_t)st;
    const int max_block = vec == 4 ? GP_STENCIL_V4_MAX_BLOCK : GP_STENCIL_MAX_BLOCK;
    if ((vec != 1 && vec != 4) || tile_x * tile_y > max_block || (tile_x - 2) * (tile_y - 2) < 4 ||
        z_per_chunk < 1 || z_chunks < 1 || z_chunks > GP_STENCIL_MAX_DIM)
        return gp_fail(GP_ERR_USAGE, "stencil: tile %dx%d (vec %d) or z split %d x %d not launchable", tile_x,
                       tile_y, vec, z_chunks, z_per_chunk);
    const dim3 block((unsigned)tile_x, (unsigned)tile_y, 1);
    const int width = tile_x * vec;
    const dim3 grid((unsigned)((s->nx + width - 1) / width), (unsigned)((s->ny + tile_y - 1) / tile_y),
                    (unsigned)z_chunks);
    const stencil_args a = make_args(s, c0, c1, z_per_chunk);
    if (vec == 4) {
        const size_t lds = (size_t)GP_STENCIL_V4_LDS_BYTES(tile_x, tile_y);
        switch (ahead) {
        case 1: gp_stencil_v4_kernel<1><<<grid, block, lds, hs>>>(d_in, d_out, a); break;
        case 2: gp_stencil_v4_kernel<2><<<grid, block, lds, hs>>>(d_in, d_out, a); break;
        default: return gp_fail(GP_ERR_USAGE, "stencil: planes_ahead %d not compiled for vec 4 (1, 2)", ahead);
        }
        return gp_launch_status("stencil vec 4");
    }
    const size_t lds = (size_t)GP_STENCIL_LDS_BYTES(tile_x, tile_y);
    switch (ahead) {
    case 1: gp_stencil_kernel<1><<<grid, block, lds, hs>>>(d_in, d_out, a); break;
    case 2: gp_stencil_kernel<2><<<grid, block, lds, hs>>>(d_in, d_out, a); break;
    case 3: gp_stencil_kernel<3><<<grid, block, lds, hs>>>(d_in, d_out, a); break;
    default: return gp_fail(GP_ERR_USAGE, "stencil: planes_ahead %d not compiled (1, 2, 3)", ahead);
    }
    return gp_launch_status("stencil");
}

extern "C" const void *gp_stencil_kernel_fn(int vec, int ahead)
{
    if (vec == 4)
        return ahead == 1 ? (const void *)gp_stencil_v4_kernel<1> : ahead == 2 ? (const void *)gp_stencil_v4_kernel<2> : NULL;
    if (vec != 1)
        return NULL;
    return ahead == 1   ? (const void *)gp_stencil_kernel<1>
           : ahead == 2 ? (const void *)gp_stencil_kernel<2>
           : ahead == 3 ? (const void *)gp_stencil_kernel<3>
                        : NULL;
}

extern "C" gp_status gp_stencil_launch_naive_f32(const float *d_in, float *d_out, const gp_stencil_shape *s,
                                                 float c0, float c1, gp_stream st)
{
    const dim3 block(32, 8, 1);
    const dim3 grid((unsigned)((s->nx + 31) / 32), (unsigned)((s->ny + 7) / 8), (unsigned)s->nz);
    gp_stencil_naive_kernel<<<grid, block, 0, (hipStream_t)st>>>(d_in, d_out, make_args(s, c0, c1, s->nz));
    return gp_launch_status("stencil naive");
}
