/* The fused batchnorm kernel's unit offsets, shared by the kernel
 * (batchnorm.hip) and the CPU test that checks they visit every value of a
 * channel once (tests/unit/test_batchnorm.c).
 *
 * Unit u (of VEC values) of channel c is image n = u / per_plane, offset
 * i = u - n per_plane, at (n C + c) per_plane + i units from x: that is
 * c per_plane + u + n (C - 1) per_plane.  The part past the channel's first
 * unit, u + n gap with gap = (C - 1) per_plane, stays below N C per_plane,
 * so it fits 32 bits whenever the tensor has fewer than 2^32 units (the
 * launcher checks). */
#ifndef GP_BATCHNORM_INDEX_H
#define GP_BATCHNORM_INDEX_H

#include "fastdiv.h"

static GP_FASTDIV_HD unsigned gp_bn_fused_gap(unsigned channels, unsigned per_plane)
{
    return (channels - 1) * per_plane;
}

/* Units from the channel's first unit to unit u (u < N per_plane < 2^31). */
static GP_FASTDIV_HD unsigned gp_bn_fused_offset(unsigned u, gp_fastdiv by_plane, unsigned gap)
{
    return u + gp_fastdiv_apply(u, by_plane) * gap;
}

#endif
