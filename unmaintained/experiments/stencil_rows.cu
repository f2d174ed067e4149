// Experiment (not part of the suite): does the 4-wide stencil kernel
// (kernels/stencil, 0.89 of the device copy on the H200 at 512^3) lose to its
// y halo, to its memory order, or to its loads in flight?  Nsight Compute put
// that kernel at 93.6 % of the L2's throughput and 78.5 % of DRAM's, with the
// SMs reading 1.58x the input from L2: a tile of 4 rows loads 6 rows a plane
// (the rows above and below), plus the left and right columns, one 32-byte
// sector each per row.
//
//   rows WxH/aA rR   a block of TX x TY threads owns 4 TX x (TY R) points;
//                    each thread R adjacent rows of 4 points, so a row's y
//                    neighbours inside the thread come from its own registers
//                    and only the first row's north and the last row's south
//                    from LDS.  Sectors read a plane per tile, by the count
//                    above: (TY R + 2) x TX / 2 + 2 TY R, over TY R x TX / 2
//                    written: R = 1, TY 4: 1.625; R = 2: 1.375; TY R = 16:
//                    1.25.  R = 1 is the suite's kernel.
//   ordcopy ...      the same grid, z split and queue, but each thread copies
//                    its column plane by plane: the stencil's memory order
//                    with no LDS and no halo; +lds adds the LDS plane and its
//                    barrier, +lds+halo the halo loads (the stencil less its
//                    neighbour reads and arithmetic)
//   linear copy      a grid-stride float4 copy in address order, 1, 2 or 4
//                    loads a thread in flight
// The z split is the suite's model (stencil_common.h), from the occupancy
// API's resident blocks, or forced (`!`).  Data: integers in -8..8, c0 = -6,
// c1 = 1 (exact in fp32 in any order); every output poisoned and checked point
// by point.  Build and run (argv[1] = ABBA rounds, argv[2] = the cube's edge, a
// multiple of 4):
//   nvcc -O3 -std=c++17 -arch=sm_90 stencil_rows.cu -o sr && ./sr 20 && ./sr 15 256
// Results: docs/reports/h200/2026-11-29/stencil_rows.md.
#include "stencil_common.h"

template <int A, int TX, int TY, int R, int MINB, int MODE = 0>
__global__ void __launch_bounds__(TX * TY, MINB) rows_k(const float *__restrict__ in, float *__restrict__ out, Args a)
{
    constexpr int ROWS = TY * R, PITCH = 4 * TX + 8, PLANE_LDS = PITCH * (ROWS + 2);
    extern __shared__ float4 lds4[];
    float *lds = (float *)lds4;
    const int lx = threadIdx.x, ly = threadIdx.y;
    const int gx = (blockIdx.x * TX + lx) * 4, gy0 = blockIdx.y * ROWS + ly * R;
    const size_t nx = a.nx, plane = nx * a.ny;
    const int z0 = blockIdx.z * a.zper, z1 = min(z0 + a.zper, a.nz), zc_last = z1 < a.nz ? z1 : a.nz - 1;
    const bool xin = gx < a.nx;
    const size_t c_off = xin && gy0 < a.ny ? (size_t)gy0 * nx + gx : 0;
    const int c_lds = (ly * R + 1) * PITCH + 4 + 4 * lx;
    bool own[R];
#pragma unroll
    for (int k = 0; k < R; k++) own[k] = xin && gy0 + k < a.ny;
    const Halo hv = halo_of(ly * TX + lx, TX, ROWS);
    const int hgx = blockIdx.x * TX * 4 + hv.x, hgy = blockIdx.y * ROWS + hv.y;
    const bool halo = (MODE == 0 || MODE == 3) && hv.kind >= 0 && hgx >= 0 && hgx < a.nx && hgy >= 0 && hgy < a.ny, hvec = hv.kind <= 1;
    const size_t h_off = halo ? (size_t)hgy * nx + hgx : 0;
    const int h_lds = (hv.y + 1) * PITCH + 4 + hv.x;

    const float4 zero = make_float4(0, 0, 0, 0);
    float4 below[R], cur[R], qc[A][R], qh[A];
#pragma unroll
    for (int k = 0; k < R; k++) {
        const size_t o = c_off + (size_t)k * nx;
        below[k] = own[k] && z0 >= 1 ? __ldg((const float4 *)(in + (size_t)(z0 - 1) * plane + o)) : zero;
        cur[k] = own[k] ? __ldg((const float4 *)(in + (size_t)z0 * plane + o)) : zero;
    }
#pragma unroll
    for (int j = 0; j < A; j++) {
        const int zc = z0 + 1 + j, zh = z0 + j;
#pragma unroll
        for (int k = 0; k < R; k++)
            qc[j][k] = own[k] && zc <= zc_last ? __ldg((const float4 *)(in + (size_t)zc * plane + c_off + (size_t)k * nx)) : zero;
        qh[j] = zero;
        if (halo && zh < z1) {
            if (hvec) qh[j] = __ldg((const float4 *)(in + (size_t)zh * plane + h_off));
            else qh[j].x = __ldg(in + (size_t)zh * plane + h_off);
        }
    }
    const float *pc = in + (size_t)(z0 + 1 + A) * plane + c_off, *ph = in + (size_t)(z0 + A) * plane + h_off;
    float *po = out + (size_t)z0 * plane + c_off;
    const int lim_c = zc_last - 1 - A, lim_h = halo ? z1 - 1 - A : -1;
    for (int z = z0; z < z1; z++) {
        float *buf = lds + (z & 1) * PLANE_LDS;
        if (MODE != 1) {
#pragma unroll
            for (int k = 0; k < R; k++) *(float4 *)(buf + c_lds + k * PITCH) = cur[k];
        }
        if (halo) {
            if (hvec) *(float4 *)(buf + h_lds) = qh[0];
            else buf[h_lds] = qh[0].x;
        }
        float4 nc[R], nh = zero;
#pragma unroll
        for (int k = 0; k < R; k++) nc[k] = own[k] && z <= lim_c ? __ldg((const float4 *)(pc + (size_t)k * nx)) : zero;
        if (z <= lim_h) {
            if (hvec) nh = __ldg((const float4 *)ph);
            else nh.x = __ldg(ph);
        }
        pc += plane, ph += plane;
        if (MODE == 1) {
#pragma unroll
            for (int k = 0; k < R; k++)
                if (own[k]) *(float4 *)(po + (size_t)k * nx) = cur[k];
        } else if (MODE >= 2) {
            __syncthreads();
#pragma unroll
            for (int k = 0; k < R; k++)
                if (own[k]) *(float4 *)(po + (size_t)k * nx) = *(const float4 *)(buf + c_lds + k * PITCH);
        } else {
        __syncthreads();
        const bool zin = z >= 1 && z <= a.nz - 2;
        const float4 n = *(const float4 *)(buf + c_lds - PITCH), s = *(const float4 *)(buf + c_lds + R * PITCH);
#pragma unroll
        for (int k = 0; k < R; k++) {
            const int gy = gy0 + k;
            if (own[k]) {
                const float4 ym = k == 0 ? n : cur[k - 1], yp = k == R - 1 ? s : cur[k + 1];
                *(float4 *)(po + (size_t)k * nx) = update4(cur[k], below[k], qc[0][k], ym, yp, buf[c_lds + k * PITCH - 1],
                                                           buf[c_lds + k * PITCH + 4], zin && gy >= 1 && gy <= a.ny - 2, gx, a);
            }
        }
        }
        po += plane;
#pragma unroll
        for (int k = 0; k < R; k++) {
            below[k] = cur[k];
            cur[k] = qc[0][k];
#pragma unroll
            for (int j = 0; j + 1 < A; j++) qc[j][k] = qc[j + 1][k];
            qc[A - 1][k] = nc[k];
        }
#pragma unroll
        for (int j = 0; j + 1 < A; j++) qh[j] = qh[j + 1];
        qh[A - 1] = nh;
    }
}

// The copy variants' check: out must equal in, bit for bit.
static const char *check_copy(const launch_fn &f)
{
    const size_t n = (size_t)N * N * N;
    std::vector<float> want(n);
    poison(d_out, n * 4);
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(want.data(), d_in, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (!(got[i] == want[i])) return "WRONG copy";
    return "ok (exact copy)";
}

// A plain copy in address order, float4 a thread, grid-stride over `blocks`
// blocks of 256: what the device copy does, written here.
template <int U>
__global__ void __launch_bounds__(256) linear_copy(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4)
{
    // U loads a thread in flight: U float4 a step, 256 apart.
    const size_t step = (size_t)gridDim.x * 256 * U;
    for (size_t i = blockIdx.x * 256 * U + threadIdx.x; i < n4; i += step) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = i + u * 256 < n4 ? __ldg(in + i + u * 256) : float4{};
#pragma unroll
        for (int u = 0; u < U; u++)
            if (i + u * 256 < n4) out[i + u * 256] = v[u];
    }
}

template <int A, int TX, int TY, int R, int MINB, int MODE = 0> static void row(const launch_fn &copy, int rounds, Args a, int zforce = 0)
{
    auto k = rows_k<A, TX, TY, R, MINB, MODE>;
    static const char *const kind[] = {"rows", "ordcopy", "ordcopy+lds", "ordcopy+lds+halo"};
    const size_t lds = 2 * (4 * TX + 8) * (TY * R + 2) * 4;
    int per_sm = 0;
    const dim3 g = tiled_grid(k, 4 * TX, TY * R, TX * TY, lds, &a.zper, zforce, &per_sm);
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, k));
    const launch_fn f = [=] { k<<<g, dim3(TX, TY), lds>>>(d_in, d_out, a); };
    char nm[128];
    snprintf(nm, sizeof nm, "%s %dx%d/a%d r%d b%d regs%d spill%d z%u%s", kind[MODE], 4 * TX, TY * R, A, R, per_sm, fa.numRegs,
             (int)fa.localSizeBytes, g.z, zforce ? "!" : "");
    abba_row(nm, f, copy, rounds, MODE ? check_copy(f) : check(f));
}

int main(int argc, char **argv)
{
    int rounds;
    Args a0;
    const launch_fn copy = stencil_setup(argc, argv, "stencil: rows a thread (tile/aAhead rRows bBlocks/SM regs zChunks)", &rounds, &a0);
    const size_t n4 = (size_t)N * N * N / 4;
    // Every configuration of the record (docs/reports/h200/2026-11-29/stencil_rows.md), in one run.
    // 1. Rows a thread, at the model's z split.
    row<1, 32, 4, 1, 9>(copy, rounds, a0); // the suite's rule pick (9 blocks at 56 registers)
    row<1, 32, 4, 2, 7>(copy, rounds, a0);
    row<1, 32, 4, 2, 6>(copy, rounds, a0);
    row<2, 32, 4, 2, 6>(copy, rounds, a0);
    row<2, 32, 4, 2, 5>(copy, rounds, a0);
    row<1, 32, 4, 3, 6>(copy, rounds, a0);
    row<1, 32, 4, 4, 5>(copy, rounds, a0);
    row<1, 32, 4, 4, 4>(copy, rounds, a0);
    row<1, 32, 8, 2, 3>(copy, rounds, a0);
    row<1, 16, 8, 2, 7>(copy, rounds, a0);
    // 2. Copies in address order, 1, 2 or 4 loads a thread in flight.
    for (unsigned blocks : {132u * 8, 132u * 16}) {
        const launch_fn f1 = [=] { linear_copy<1><<<blocks, 256>>>((const float4 *)d_in, (float4 *)d_out, n4); };
        char nm[64];
        snprintf(nm, sizeof nm, "linear copy %u x 256, 1 in flight", blocks);
        abba_row(nm, f1, copy, rounds, check_copy(f1));
    }
    {
        const unsigned blocks = 132u * 8;
        const launch_fn f2 = [=] { linear_copy<2><<<blocks, 256>>>((const float4 *)d_in, (float4 *)d_out, n4); };
        const launch_fn f4 = [=] { linear_copy<4><<<blocks, 256>>>((const float4 *)d_in, (float4 *)d_out, n4); };
        abba_row("linear copy 1056 x 256, 2 in flight", f2, copy, rounds, check_copy(f2));
        abba_row("linear copy 1056 x 256, 4 in flight", f4, copy, rounds, check_copy(f4));
    }
    // 3. The kernel taken apart (mode 1 the stencil's order alone, 2 with the LDS plane and its barrier,
    // 3 with the halo loads, 0 the stencil), at the model's split and forced ones.
    for (int z : {0, 1, 16, 64}) {
        row<1, 32, 4, 1, 9, 1>(copy, rounds, a0, z);
        row<1, 32, 4, 1, 9, 2>(copy, rounds, a0, z);
        row<1, 32, 4, 1, 9, 3>(copy, rounds, a0, z);
        row<1, 32, 4, 1, 9, 0>(copy, rounds, a0, z);
        row<1, 32, 4, 2, 7, 3>(copy, rounds, a0, z);
        row<1, 32, 4, 2, 7, 0>(copy, rounds, a0, z);
    }
    row<1, 32, 4, 1, 9, 0>(copy, rounds, a0, 32);
    row<1, 32, 4, 1, 9, 0>(copy, rounds, a0, 128);
    row<1, 32, 4, 2, 7, 1>(copy, rounds, a0);
    // 4. Planes ahead in the stencil's order and in the stencil, about 9 blocks an SM.
    for (int z : {0, 64}) {
        row<2, 32, 4, 1, 9, 1>(copy, rounds, a0, z);
        row<3, 32, 4, 1, 9, 1>(copy, rounds, a0, z);
        row<2, 32, 4, 1, 8, 0>(copy, rounds, a0, z);
        row<2, 32, 4, 1, 9, 0>(copy, rounds, a0, z);
    }
    return 0;
}
