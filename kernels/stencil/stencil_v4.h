/* The 4-wide stencil kernel's LDS layout and halo assignment (vec = 4:
 * each thread owns 4 consecutive x points and moves them with one 16-byte
 * load and one 16-byte store a plane).  Shared by the kernel (stencil.hip)
 * and the unit test's emulation of one plane (tests/unit/test_stencil.c),
 * which checks that every LDS read of the compute finds a value written by
 * exactly one thread and that the 16-byte accesses stay aligned.
 *
 * Layout of one LDS plane: ty + 2 rows (halo row y = -1, the tile's rows,
 * halo row y = ty) of pitch 4 tx + 8 floats: [3 unused | left halo x = -1 |
 * the 4 tx points | right halo x = 4 tx | 3 unused], so point x of row y sits
 * at (y + 1) pitch + 4 + x and every thread's 4 points start on a 16-byte
 * boundary. */
#ifndef GP_STENCIL_V4_H
#define GP_STENCIL_V4_H

#if defined(__CUDACC__) || defined(__HIP__)
#define GP_STENCIL_HD __host__ __device__ inline
#else
#define GP_STENCIL_HD inline
#endif

/* Threads per block of the 4-wide kernel (its launch bounds: 64 registers
 * on NVIDIA at 4 blocks an SM, 64 VGPRs at 4 waves per SIMD on AMD). */
#define GP_STENCIL_V4_MAX_BLOCK 256
/* Registers a thread those bounds allow on NVIDIA (65536 / (256 x 4)), what
 * the 2-planes-ahead kernel uses (ptxas sm_90 64, sm_80 61, no spills). */
#define GP_STENCIL_V4_REGS 64
/* The 1-plane-ahead kernel's registers as the occupancy sees them: ptxas
 * sm_90 55, sm_80 54, allocated in granules of 8 -> 56.  It matters: at 56 an
 * SM holds 9 blocks of 128 threads (65536 / (56 x 128)), at 64 only 8, and
 * the z split (gp_stencil_z_chunks) then cuts a 512^3 grid into 9 chunks
 * rather than 2 (H200 2026-11-24: 0.900 vs 0.86 of the copy).  Both checked
 * against ptxas by tests/build/check_gpu_build.sh: a kernel change that costs a
 * register fails the GPU build's check instead of quietly losing a block. */
#define GP_STENCIL_V4_REGS_A1 56
/* planes_ahead compiled for the 4-wide kernel: 1 and 2 (a plane of queue
 * is 8 registers: two 16-byte vectors). */
#define GP_STENCIL_V4_MAX_AHEAD 2
#define GP_STENCIL_V4_PITCH(tx) (4 * (tx) + 8)
#define GP_STENCIL_V4_LDS_BYTES(tx, ty) (2 * GP_STENCIL_V4_PITCH(tx) * ((ty) + 2) * 4)

/* LDS offset (floats, within one plane) of tile point (x, y), x in
 * -1..4 tx, y in -1..ty. */
static GP_STENCIL_HD int gp_stencil_v4_lds(int x, int y, int tx) { return (y + 1) * GP_STENCIL_V4_PITCH(tx) + 4 + x; }

/* The halo point(s) thread t of a tx x ty block loads each plane: kind 0 and
 * 1 a 16-byte vector of the row above (y = -1) and below (y = ty), threads
 * 0 .. 2 tx - 1; kind 2 and 3 one point of the column left (x = -1) and right
 * (x = 4 tx), the next 2 ty threads; -1 none.  (x, y) is the tile point of
 * the (first) value.  Needs 2 tx + 2 ty <= tx ty threads. */
typedef struct gp_stencil_v4_halo {
    int kind, x, y;
} gp_stencil_v4_halo;

static GP_STENCIL_HD gp_stencil_v4_halo gp_stencil_v4_halo_of(int t, int tx, int ty)
{
    gp_stencil_v4_halo h;
    h.kind = -1, h.x = 0, h.y = 0;
    if (t < tx)
        h.kind = 0, h.x = 4 * t, h.y = -1;
    else if (t < 2 * tx)
        h.kind = 1, h.x = 4 * (t - tx), h.y = ty;
    else if (t < 2 * tx + ty)
        h.kind = 2, h.x = -1, h.y = t - 2 * tx;
    else if (t < 2 * tx + 2 * ty)
        h.kind = 3, h.x = 4 * tx, h.y = t - 2 * tx - ty;
    return h;
}

#endif
